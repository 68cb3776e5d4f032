"""What a new user tripped over (issue 19's defects), tried again in real browsers: keeping
a guest account (its own page, back where one was, the new name in the room), the lobby
offering only what applies, the home board's menu in a game of switched sides, and a phone's
page (the notice off the players' strips, "tap" rather than "click")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.players import PHONE, Player
from tests.browser.test_chat import texts
from tests.server.serverutil import ServerProcess


def _until(me: Player, kind: str, limit_s: float = 60) -> None:
    """Play on until ``kind`` is among the buttons."""
    deadline = time.monotonic() + limit_s
    while kind not in me.buttons():
        assert time.monotonic() < deadline and not me.finished(), me.buttons()
        if not me.step(stop_at=kind):
            me.page.wait_for_timeout(50)


def _stuck(me: Player) -> int | None:
    """A point with a checker of the player's that cannot move now, if there is one."""
    board = me.board()
    if not board.get("awaiting", {}).get("moves"):
        return None
    mine = board["sides"][me.state["you"]["side"]]  # type: ignore[index]
    origins = {m["from"] for m in board["awaiting"]["moves"]}
    return next((p for p in range(1, 25) if mine[p] and p not in origins), None)


def _checker_on(me: Player, point: int) -> tuple[float, float]:
    """The centre of a checker on ``point`` that nothing else covers there: the game says
    why a checker cannot move when the checker is touched, not the empty part of its point
    (a point of one or two checkers leaves the middle of its area empty, where a tap did
    nothing), nor the dice or a label drawn over it."""
    area = me.page.locator(f'.board .hit[data-point="{point}"]').first.bounding_box()
    assert area is not None
    for checker in me.page.locator(".board circle.checker").all():
        box = checker.bounding_box()
        if box is None:
            continue
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if (
            area["x"] <= x <= area["x"] + area["width"]
            and area["y"] <= y <= area["y"] + area["height"]
            and checker.evaluate("(c, [x, y]) => document.elementFromPoint(x, y) === c", [x, y])
        ):
            return x, y
    raise AssertionError(f"no checker drawn uncovered on point {point}")


def test_a_guest_keeps_the_account_and_the_game_shows_the_new_name(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    guest = Player(pages("en-US"), server.url)
    bob = Player(pages("en-US"), server.url)
    guest.guest()
    bob.sign_up("bobby")
    game = guest.create(length=3)
    bob.join_first_seek()
    guest.wait_until("document.body.dataset.status === 'playing'")
    guest.page.click("header a[href='/claim']")
    guest.page.wait_for_selector("#claim")
    assert guest.page.url.endswith("/claim")
    # a page of its own: no guest to play as, no other account; it says the games carry over
    assert not guest.page.locator("#guest, #signin").count()
    name = guest.page.inner_text(".me")
    assert guest.page.inner_text("#claim-lead") == texts("en")["claim.lead"].format(name=name)
    guest.page.screenshot(path=str(shots / "claim.png"))
    guest.page.fill("#claim input[name=username]", "kept1")
    guest.page.fill("#claim input[name=password]", "correct horse battery")
    guest.page.click("#claim button")
    guest.page.wait_for_url(f"**/game/{game}")  # back where the player was
    guest.page.wait_for_selector("body[data-seq]")
    assert guest.page.inner_text(".me") == "kept1"
    assert guest.page.inner_text("#side-bottom .who-name") == "kept1"
    # the opponent's page, left open all along, shows the new name too
    bob.wait_until("document.querySelector('#side-top .who-name').textContent === 'kept1'")
    assert not guest.errors and not bob.errors


def test_the_lobby_offers_only_what_applies(pages: Any, server: ServerProcess) -> None:
    me = Player(pages("en-US"), server.url)
    me.guest()
    page = me.page
    enabled = lambda name: page.is_enabled(f"input[name={name}]")  # noqa: E731
    page.select_option("select[name=length]", "5")
    assert enabled("crawford") and not enabled("jacoby") and not enabled("beaver")
    page.select_option("select[name=length]", "0")  # money: no Crawford game
    assert not enabled("crawford") and enabled("jacoby") and enabled("beaver")
    page.uncheck("input[name=cube]")  # no cube: none of the three
    assert not enabled("crawford") and not enabled("jacoby") and not enabled("beaver")
    # the bot's pace and strength only for a game against the computer
    for opponent in ("open", "invite"):
        page.check(f"input[name=opponent][value={opponent}]")
        assert page.is_hidden("select[name=pace]") and page.is_hidden("select[name=bot]")
    page.check("input[name=opponent][value=bot]")
    assert page.is_visible("select[name=pace]") and page.is_visible("select[name=bot]")
    # and at a table, only where the computer takes a seat
    bot_menus = ("select[name=table-pace]", "select[name=table-bot]")
    assert all(page.is_hidden(menu) for menu in bot_menus)  # a chouette of people
    page.select_option("select[name=bots]", "1")
    assert all(page.is_visible(menu) for menu in bot_menus)
    page.check("input[name=kind][value=consultation]")  # the other side: two people
    assert all(page.is_hidden(menu) for menu in bot_menus)
    page.select_option("select[name=side1]", "0")  # the other side: the computer
    assert all(page.is_visible(menu) for menu in bot_menus)


def test_the_home_menu_names_the_corner_drawn_in_game_two(
    pages: Any, server: ServerProcess
) -> None:
    me = Player(pages("en-US"), server.url)
    me.guest()
    me.create(length=5, opponent="bot", pace="250", cube=False)
    switch = me.page.locator("input[data-pref=auto-switch-side]")
    assert not switch.is_checked()  # off for a new player
    assert me.page.input_value("#home") == "bottom-right"
    me.page.click("#options summary")
    switch.check()
    _until(me, "resign")  # a single game given up: the match goes on with game 2
    me.page.click("details.resign summary")
    me.press("resign")
    me.wait_until("document.querySelector('#match').textContent.startsWith('0 : 1')", 30)
    me.wait_until("document.querySelector('.board .hit.off') !== null")
    assert me.board()["game-number"] == 2
    tray = me.page.locator(".board .hit.off").bounding_box()
    board = me.page.locator("svg.board").bounding_box()
    assert tray is not None and board is not None
    assert tray["x"] < board["x"] + board["width"] / 2  # drawn bottom-left…
    assert me.page.input_value("#home") == "bottom-left"  # …and the menu says so
    # choosing the corner drawn now keeps it: the saved corner is its mirror
    me.page.select_option("#home", "top-left")
    assert me.page.input_value("#home") == "top-left"
    assert me.page.evaluate("JSON.parse(localStorage.getItem('nardy.preferences')).home") == (
        "top-right"
    )
    assert not me.errors


def test_a_phone_says_tap_and_the_notice_leaves_the_strips_free(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    page = pages("en-US", **PHONE)
    me = Player(page, server.url)
    me.guest()
    me.create(length=1, opponent="bot", pace="250", cube=False)
    me.until_moving()
    assert me.page.inner_text("#status") == texts("en")["room.your-move-touch"]
    # a tap on a checker that cannot move: the game's reason, over the board, not the strips
    while not (stuck := _stuck(me)):
        assert not me.finished(), "no checker was ever stuck"
        me.step()  # every checker can move: play on
        me.until_moving()
    # the checkers of the last play come to rest first: a checker still sliding over the
    # point is not the one the tap is for (under load the tap once met one in flight)
    me.wait_until("!document.getAnimations().some((a) => a.effect?.target?.closest?.('.board'))")
    seq = me.seq()
    me.page.touchscreen.tap(*_checker_on(me, stuck))
    try:
        me.page.wait_for_selector("#notice:not([hidden])")
    except PlaywrightTimeout:
        # what the page drew, sent and was answered: the evidence for a failure once seen
        # in CI and never here
        drawn = me.page.evaluate("[document.body.dataset.seq, document.body.dataset.status]")
        said = "; ".join(me.talk)
        raise AssertionError(
            f"no notice for the checker on {stuck} tapped at seq {seq}: (seq, status) now "
            f"{drawn}; {said}"
        ) from None
    page.screenshot(path=str(shots / "phone-notice.png"))
    assert me.apart("#notice", "#side-top") and me.apart("#notice", "#side-bottom")
    assert not me.errors
