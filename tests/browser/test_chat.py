"""The room's chat in real browsers (issue 19, feature 1): two players and a spectator, the
spectators' chat kept from the players while the game runs (docs/protocol.md), a line that
looks like markup shown as text, the history after a reload, mute, the game's keys left
alone while typing, and a refusal (the rate limit) in the reader's language on a phone."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from nardy.web.assets import STATIC
from tests.browser.players import PHONE, TIMEOUT_MS, Player
from tests.server.serverutil import ServerProcess

MARKUP = '<img src=x onerror="document.body.dataset.owned=1">'
SCREEN = PHONE["viewport"]  # the phone's screen only: this test clicks with a mouse


def texts(lang: str) -> dict[str, Any]:
    data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


class Socket:
    """What a page sends and hears on its room sockets, and what it logs as an error."""

    def __init__(self, player: Player) -> None:
        self.sent: list[dict[str, Any]] = []
        self.heard: list[dict[str, Any]] = []
        self.console: list[str] = []
        player.page.on("websocket", self._socket)
        player.page.on(
            "console", lambda m: self.console.append(m.text) if m.type == "error" else None
        )

    def wait_for(
        self, player: Player, match: Callable[[dict[str, Any]], bool], count: int = 1
    ) -> None:
        """Until the page has heard ``count`` messages that match (Playwright delivers the
        frames while the page is waited on, so the wait is the page's)."""
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while sum(1 for m in self.heard if match(m)) < count:
            assert time.monotonic() < deadline, "the page did not hear it"
            player.page.wait_for_timeout(20)

    def _socket(self, socket: Any) -> None:
        socket.on("framesent", lambda payload: self.sent.append(json.loads(payload)))
        socket.on("framereceived", lambda payload: self.heard.append(json.loads(payload)))


def person(
    pages: Any, server: ServerProcess, name: str, locale: str = "en-US", **options: Any
) -> tuple[Player, Socket]:
    player = Player(pages(locale, **options), server.url)
    socket = Socket(player)
    player.sign_up(name)
    return player, socket


def enter_room(player: Player, game: str) -> None:
    player.open(f"/game/{game}")
    player.page.wait_for_selector("body[data-seq]")


def say(player: Player, text: str) -> None:
    """Type a line in the chat and send it with Enter, as a person does."""
    box = player.page.locator("#chat-input")
    box.click()
    box.fill(text)
    box.press("Enter")


def lines(player: Player) -> list[str]:
    return list(player.page.locator("#chat-log li .text").all_inner_texts())


def shows(player: Player, text: str) -> None:
    expect(player.page.locator("#chat-log li .text").filter(has_text=text)).to_have_count(
        1, timeout=TIMEOUT_MS
    )


def test_two_players_and_a_spectator(pages: Any, server: ServerProcess, shots: Path) -> None:
    alice, alice_socket = person(pages, server, "alice")
    bob, bob_socket = person(pages, server, "bob")
    carol, carol_socket = person(pages, server, "carol", "ka-GE")
    game = alice.create(length=1)
    bob.join_first_seek()
    alice.wait_until("document.body.dataset.status === 'playing'")
    enter_room(carol, game)
    en, ka = texts("en"), texts("ka")
    # a labelled box and a log a screen reader follows
    expect(alice.page.get_by_role("log")).to_have_count(1)
    expect(alice.page.get_by_label(en["chat.label"])).to_have_attribute("id", "chat-input")
    assert alice.page.inner_text("#chat-title") == en["chat.title"]
    assert alice.page.is_hidden("#chat-apart")
    # the spectator is told whom the spectators' chat reaches (here in Georgian)
    assert carol.page.inner_text("#chat-title") == ka["chat.title-spectators"]
    assert carol.page.inner_text("#chat-apart") == ka["chat.apart"]

    # Enter in the chat sends the line and does not roll (the game's Enter would)
    assert "roll-opening" in alice.buttons()
    seq = alice.seq()
    say(alice, "good luck")
    for someone in (alice, bob, carol):
        shows(someone, "good luck")
    assert alice.seq() == seq
    assert not [m for m in alice_socket.sent if m["type"] == "action"]
    assert alice.page.locator("#chat-log li.mine .speaker").inner_text() == "alice"

    # the spectators' chat: the spectators read it, the players do not while the game runs
    say(carol, "play 13/7!")
    shows(carol, "play 13/7!")
    assert carol.page.locator("#chat-log li.watcher .mark").inner_text() == ka["chat.spectator"]
    say(bob, MARKUP)  # said after the spectator's line: heard after it, had it reached bob
    for someone in (alice, bob, carol):
        shows(someone, MARKUP)
    assert lines(alice) == lines(bob) == ["good luck", MARKUP]
    assert lines(carol) == ["good luck", "play 13/7!", MARKUP]
    # a line is text: nothing of it became an element of the page
    for someone in (alice, bob, carol):
        assert someone.page.locator("#chat-log img").count() == 0
        assert someone.page.evaluate("document.body.dataset.owned") is None
    carol.page.screenshot(path=str(shots / "chat-spectator-ka.png"))
    carol.page.select_option("#language", "en")  # the panel speaks the new language at once
    expect(carol.page.locator("#chat-title")).to_have_text(en["chat.title-spectators"])
    assert carol.page.locator("#chat-log li.watcher .mark").inner_text() == en["chat.spectator"]
    alice.page.screenshot(path=str(shots / "chat-player-en.png"))

    # the history after a reload: what this reader may read, in the order it was said
    alice.page.reload()
    alice.page.wait_for_selector("body[data-seq]")
    expect(alice.page.locator("#chat-log li")).to_have_count(2, timeout=TIMEOUT_MS)
    assert lines(alice) == ["good luck", MARKUP]
    carol.page.reload()
    carol.page.wait_for_selector("body[data-seq]")
    expect(carol.page.locator("#chat-log li")).to_have_count(3, timeout=TIMEOUT_MS)
    assert lines(carol) == ["good luck", "play 13/7!", MARKUP]

    # mute: bob hears nothing more, and a page opened again shows the chat muted
    assert bob.page.inner_text("#chat-mute") == en["chat.mute"]
    bob.page.click("#chat-mute")
    expect(bob.page.locator("#chat-mute")).to_have_text(en["chat.unmute"])
    expect(bob.page.locator("#chat-muted")).to_be_visible()
    assert bob.page.is_hidden("#chat-log") and bob.page.is_hidden("#chat-say")
    assert [m for m in bob_socket.sent if m["type"] == "mute"] == [
        {"type": "mute", "muted": True, "ref": "chat:mute"}
    ]
    bob_socket.wait_for(bob, lambda m: m["type"] == "pong" and m.get("ref") == "chat:mute")
    heard = len(bob_socket.heard)
    say(alice, "are you there?")
    shows(carol, "are you there?")
    bob.page.reload()
    bob.page.wait_for_selector("body[data-seq]")
    expect(bob.page.locator("#chat-muted")).to_be_visible()
    expect(bob.page.locator("#chat-mute")).to_have_text(en["chat.unmute"])
    assert bob.page.locator("#chat-log li").count() == 0
    assert not any(m.get("text") == "are you there?" for m in bob_socket.heard[heard:])
    bob.page.click("#chat-mute")
    expect(bob.page.locator("#chat-mute")).to_have_text(en["chat.mute"])
    bob_socket.wait_for(bob, lambda m: m["type"] == "pong" and m.get("ref") == "chat:mute", 2)
    say(alice, "welcome back")
    shows(bob, "welcome back")
    assert "are you there?" not in lines(bob)  # said while bob did not listen

    for someone, socket in ((alice, alice_socket), (bob, bob_socket), (carol, carol_socket)):
        assert not someone.errors, someone.errors
        assert not socket.console, socket.console


def test_a_refused_line_in_russian_on_a_phone(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    """More lines than the rate limit allows (5 in 10 s): the sixth is refused, the refusal
    said in Russian and the line given back to send again; the panel fits under the board on
    a phone-sized screen."""
    ivan, socket = person(pages, server, "ivan", "ru-RU", viewport=SCREEN)
    ivan.create(length=1)
    ru = texts("ru")
    for n in range(6):
        say(ivan, f"строка {n}")
    refusal = ivan.page.locator("#chat-refused")
    expect(refusal).to_have_text(ru["chat.rate-limited"], timeout=TIMEOUT_MS)
    expect(ivan.page.locator("#chat-log li")).to_have_count(5, timeout=TIMEOUT_MS)
    expect(ivan.page.locator("#chat-input")).to_have_value("строка 5")
    ivan.page.locator("#chat").scroll_into_view_if_needed()
    ivan.page.screenshot(path=str(shots / "chat-phone-ru.png"), full_page=True)
    board = ivan.page.locator("#boardbox").bounding_box()
    chat = ivan.page.locator("#chat").bounding_box()
    assert board is not None and chat is not None
    assert chat["y"] >= board["y"] + board["height"]  # under the board
    assert chat["x"] >= 0 and chat["x"] + chat["width"] <= SCREEN["width"]
    width = ivan.page.evaluate("document.documentElement.scrollWidth")
    assert width <= SCREEN["width"]  # nothing pushed sideways
    assert not ivan.errors, ivan.errors
    assert not socket.console, socket.console
