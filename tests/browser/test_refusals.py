"""Refusals in real browsers (issue 19, the defect "Refusals show internal jargon"): a
double-click on Roll or Confirm acts once and shows no error, and two clicks in one moment
send one action; a refusal the game does send (a click on a button of a state already gone)
is said from its code in the reader's language, never as the server's English."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.players import TIMEOUT_MS, Player
from tests.browser.test_chat import Socket, texts
from tests.server.serverutil import ServerProcess

LOCALES = {"en": "en-US", "ru": "ru-RU", "ka": "ka-GE"}
JARGON = ("not now", "phase", "moving", "Not possible")


def against_the_bot(
    pages: Any, server: ServerProcess, name: str, lang: str
) -> tuple[Player, Socket]:
    me = Player(pages(LOCALES[lang]), server.url)
    socket = Socket(me)
    me.sign_up(name)
    # no cube: the turn begins with Roll alone; the fast bot answers in a quarter second
    me.create(length=1, opponent="bot", bot="beginner", pace="250", cube=False)
    return me, socket


def until_mine(me: Player, action: str) -> None:
    """Play on (opening roll, moves, confirm) until ``action`` is the player's to take."""
    while action not in me.buttons():
        assert not me.finished(), "the game ended first"
        if not me.step(stop_at=action):
            me.page.wait_for_timeout(50)  # the bot is playing


def answered(me: Player, socket: Socket, kind: str) -> None:
    """Until every ``kind`` action the page sent has its answer: the game's events of it,
    or a refusal."""
    seat = next(m["seat"] for m in socket.heard if m["type"] == "welcome")

    def done() -> bool:
        taken = sum(
            1
            for m in socket.heard
            if m["type"] == "events"
            and m["action"]["type"] == kind
            and m["action"].get("player", seat) == seat
        )
        refused = sum(1 for m in socket.heard if m["type"] in ("refused", "error"))
        return taken + refused >= sent(socket, kind)

    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not done():
        assert time.monotonic() < deadline, f"no answer to the page's {kind}"
        me.page.wait_for_timeout(20)


def sent(socket: Socket, kind: str) -> int:
    """How many ``kind`` actions the page has sent."""
    return sum(1 for m in socket.sent if m["type"] == "action" and m["action"]["type"] == kind)


def no_error_shown(me: Player, socket: Socket) -> None:
    assert not [m for m in socket.heard if m["type"] in ("refused", "error")]
    shown = me.page.locator("#notice")
    assert shown.is_hidden() or "warn" not in (shown.get_attribute("class") or ""), (
        shown.inner_text()
    )
    assert not me.errors


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_double_click_acts_once(
    pages: Any, server: ServerProcess, shots: Path, lang: str
) -> None:
    me, socket = against_the_bot(pages, server, f"double-{lang}", lang)
    for kind in ("roll", "confirm"):
        until_mine(me, kind)
        before = (sent(socket, kind), me.seq())
        me.page.dblclick(f"#actions button[data-action={kind}]")
        me.wait_change(before[1])
        answered(me, socket, kind)
        assert sent(socket, kind) == before[0] + 1, f"a double-click sent {kind} twice"
        no_error_shown(me, socket)
    # two clicks in one moment (no answer can come between them): one action goes
    for kind in ("roll", "confirm"):
        until_mine(me, kind)
        before = (sent(socket, kind), me.seq())
        me.page.eval_on_selector(
            f"#actions button[data-action={kind}]",
            "b => { for (const detail of [1, 1]) b.dispatchEvent("
            "new MouseEvent('click', { bubbles: true, detail })); }",
        )
        me.wait_change(before[1])
        answered(me, socket, kind)
        assert sent(socket, kind) == before[0] + 1, f"two quick clicks sent {kind} twice"
        no_error_shown(me, socket)
    me.page.screenshot(path=str(shots / f"double-click-{lang}.png"))


@pytest.mark.parametrize("lang", ["ru", "ka"])
def test_a_refusal_in_the_readers_language(
    pages: Any, server: ServerProcess, shots: Path, lang: str
) -> None:
    """A Roll button kept from the state before the roll (as a page that lags behind shows
    it) is clicked once the dice are on the table: the game refuses it (wrong-phase), and the
    page says so from the code, in the reader's language."""
    me, socket = against_the_bot(pages, server, f"refused-{lang}", lang)
    until_mine(me, "roll")
    stale = me.page.query_selector("#actions button[data-action=roll]")
    assert stale is not None
    before = me.seq()
    me.page.click("#actions button[data-action=roll]")
    me.wait_change(before)
    stale.dispatch_event("click")  # its handler is still the old state's: roll again
    socket.wait_for(me, lambda m: m["type"] == "refused")
    (refused,) = [m for m in socket.heard if m["type"] == "refused"]
    # wrong-phase: the dice are on the table (not-your-turn had the roll no legal move)
    assert refused["code"] in ("wrong-phase", "not-your-turn"), refused
    expected = texts(lang)[f"refusal.{refused['code']}"]
    me.wait_until(
        "!document.getElementById('notice').hidden && "
        f"document.getElementById('notice').textContent === {json.dumps(expected)}"
    )
    said = me.page.locator("#notice").inner_text()
    assert not [word for word in JARGON if word.lower() in said.lower()], said
    me.page.screenshot(path=str(shots / f"refusal-{lang}.png"))


def test_a_drag_to_where_a_checker_cannot_go_says_why(pages: Any, server: ServerProcess) -> None:
    """Issue 19: in backgammon a checker dropped where no die takes it snaps back with the
    reason the game gives (its `reason` and `details`), not silently, in a notice that
    leaves the players' strips readable."""
    me, socket = against_the_bot(pages, server, "dragger", "en")
    me.moves = "drag"
    me.until_moving()
    board = me.board()
    left = [d for d, used in zip(board["dice-shown"], board["used"], strict=True) if not used]
    reach = {sum(left[:n]) for n in range(1, len(left) + 1)} | set(left)
    start, end = next(
        (start, end)
        for start in sorted(me.ends_by_origin(), reverse=True)
        for end in range(start - 1, 0, -1)
        if start - end not in reach
    )
    before = me.seq()
    x, y = me.centre(f'.board .movable[data-point="{start}"]')
    me.page.mouse.move(x, y)
    me.page.mouse.down()
    tx, ty = me.centre(f'.board .hit[data-point="{end}"]')
    me.page.mouse.move(tx, ty, steps=8)
    me.page.mouse.up()
    socket.wait_for(me, lambda m: m["type"] == "refused")
    (refused,) = [m for m in socket.heard if m["type"] == "refused"]
    assert (refused["reason"], refused["details"]) == ("no-die", {"from": start, "to": end})
    expected = texts("en")["why.no-die"].format(**{"from": start, "to": end})
    me.wait_until(f"document.getElementById('notice').textContent === {json.dumps(expected)}")
    # said over the board, where the players' strips (names, pips, clocks) stay readable
    assert me.apart("#notice", "#side-top") and me.apart("#notice", "#side-bottom")
    assert me.seq() == before and me.page.locator(f'.board .movable[data-point="{start}"]').count()
    assert not me.errors
