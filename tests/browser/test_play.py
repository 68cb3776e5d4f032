"""Whole games in real browsers against a real server: two people who sign up and play a
1-point match to the end (one clicking, one dragging; undo and confirm by button and by
key), and a game against the computer."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.browser.players import Player, play_out
from tests.server.serverutil import ServerProcess


def test_two_people_play_a_match_to_the_end(pages: Any, server: ServerProcess, shots: Path) -> None:
    alice = Player(pages("en-GB"), server.url, moves="click")
    bob = Player(pages("en-US"), server.url, moves="drag", keys=True)
    alice.sign_up("alice")
    bob.sign_up("bob")
    game = alice.create(length=1)
    assert alice.page.inner_text("#status") == "Waiting for an opponent to join."
    bob.join_first_seek()
    assert bob.page.url.endswith(f"/game/{game}")
    alice.wait_until("document.body.dataset.status === 'playing'")
    # before the first roll the board shows the starting position (it was once empty) and
    # its pips, from the server's board view of the game about to start
    assert alice.page.locator(".board .checker").count() > 0
    alice.wait_until("document.querySelector('#side-bottom .pips') !== null", 5)
    assert alice.page.inner_text("#side-bottom .pips") == "167 pips"

    # the opening roll, then whoever won it moves one checker, takes it back, and moves again
    while not (
        alice.page.locator(".board .movable").count() or bob.page.locator(".board .movable").count()
    ):
        alice.step() or bob.step()
    mover = alice if alice.page.locator(".board .movable").count() else bob
    pips_before = mover.page.inner_text("#side-bottom .pips")
    assert pips_before == "167 pips"
    mover.strips_agree()
    mover.page.screenshot(path=str(shots / "opening.png"))
    assert mover.page.is_visible("#typed")  # a play may be typed while the match goes on
    start, end = mover.move_once()
    assert mover.page.inner_text("#side-bottom .pips") != pips_before
    assert "undo" in mover.buttons()
    before = mover.seq()
    if mover is bob:
        bob.page.keyboard.press("Backspace")
    else:
        alice.page.click("#actions button[data-action=undo]")
    mover.wait_change(before)
    assert mover.page.inner_text("#side-bottom .pips") == pips_before
    assert mover.move_once() == (start, end)
    mover.page.screenshot(path=str(shots / "mid-turn.png"))
    mover.page.locator(".table").screenshot(path=str(shots / "board.png"))  # README's picture

    play_out([alice, bob])
    alice.page.screenshot(path=str(shots / "finished.png"))
    for player in (alice, bob):
        assert "wins the match" in player.page.inner_text("#status")
        assert not player.page.is_visible("#typed")  # nothing is left to type a play for
    # both find the game in their list, finished
    alice.open("/lobby")
    assert "finished" in alice.page.inner_text("#mine")


def test_a_game_against_the_computer(pages: Any, server: ServerProcess, shots: Path) -> None:
    me = Player(pages("en-US"), server.url, keys=True)
    me.guest()
    me.create(length=1, opponent="bot", bot="beginner", pace="250")
    assert "Computer (beginner)" in me.page.inner_text(".table")
    deadline = time.monotonic() + 120  # until the computer has played a turn
    while "played" not in (me.page.text_content("#announce") or ""):
        assert time.monotonic() < deadline, me.page.text_content("#announce")
        if not me.step():
            me.page.wait_for_timeout(50)
    # the computer's moves are told to a screen reader, in the aria-live region
    assert "Computer (beginner) played " in (me.page.text_content("#announce") or "")
    play_out([me])
    me.page.screenshot(path=str(shots / "bot-finished.png"))
    assert "wins the match" in me.page.inner_text("#status")


def test_signing_out_in_one_tab_signs_the_others_out(pages: Any, server: ServerProcess) -> None:
    me = Player(pages("en-US"), server.url)
    me.sign_up("tabs")
    me.create(length=1, opponent="bot", bot="beginner", pace="250")
    room = me.page.url.removeprefix(server.url)
    other = Player(me.page.context.new_page(), server.url)  # a second tab: the same cookie
    other.open(room)
    other.page.wait_for_selector("body[data-seq]")
    me.page.click("#signout")
    # The second tab's socket closes with 4001 (docs/protocol.md) and the tab loads the room
    # again, signed out: it watches the game as anybody may, and is told to sign in to chat.
    other.page.wait_for_selector('#who a[href="/signin"]')
    other.page.wait_for_selector("#spectator-help:not([hidden])")
    assert "sign in" in other.page.inner_text("#spectator-help")
    assert other.page.url == server.url + room
    assert other.page.locator("#signout").count() == 0
    assert other.errors == []
