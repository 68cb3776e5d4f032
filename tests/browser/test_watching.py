"""Quick pairing and open watching in real browsers (issue 19, features 4 and 5): two
browsers press "Play now" and meet in one game; a visitor who never signs in opens a game
from the live list, watches it with a spectator's panel, and the players see the count."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from nardy.web.assets import STATIC
from tests.browser.players import Player
from tests.server.serverutil import ServerProcess

EN = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))


def _signed_up(pages: Any, server: ServerProcess, name: str) -> Player:
    player = Player(pages(), server.url)
    player.sign_up(name)
    return player


def test_two_browsers_press_play_now_and_meet_in_one_game(
    pages: Any, server: ServerProcess
) -> None:
    alice = _signed_up(pages, server, "alice")
    bob = _signed_up(pages, server, "bob")
    for player in (alice, bob):
        player.page.select_option("select[name=quick-length]", "1")
    alice.page.click("#quick-button")
    searching = EN["lobby.quick-searching"].replace("{range}", "100")
    expect(alice.page.locator("#searching-text")).to_have_text(searching)
    expect(alice.page.locator("#quick-button")).to_be_disabled()
    bob.page.click("#refresh")  # a quick seek is not one of the seeks to pick
    expect(bob.page.locator("#seeks [data-join]")).to_have_count(0)
    bob.page.click("#quick-button")
    for player in (alice, bob):
        player.page.wait_for_selector("body[data-seq]")
    assert alice.page.url == bob.page.url and "/game/" in alice.page.url
    expect(alice.page.locator("#status")).not_to_have_text(EN["room.waiting-opponent"])
    assert alice.state is not None and alice.state["you"]["seat"] in (0, 1)
    assert bob.state is not None and {alice.state["you"]["seat"], bob.state["you"]["seat"]} == {
        0,
        1,
    }
    assert alice.errors == [] and bob.errors == []


def test_a_visitor_without_an_account_watches_and_the_players_see_the_count(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    alice = _signed_up(pages, server, "alice")
    bob = _signed_up(pages, server, "bob")
    game = alice.create()
    bob.join_first_seek()
    visitor = Player(pages(), server.url)
    visitor.open("/")  # signed in as nobody: the sign-in page lists the games to watch
    # listed as the lobby lists them: a row a game, no bullets
    watch = visitor.page.locator(f"#live [data-watch='{game}']")
    watch.wait_for()
    bullets = visitor.page.eval_on_selector("#live", "e => getComputedStyle(e).listStyleType")
    assert bullets == "none"
    watch.click()
    visitor.page.wait_for_selector("body[data-seq]")
    assert visitor.state is not None and visitor.state["you"]["seat"] is None
    expect(visitor.page.locator("#spectator-help")).to_have_text(
        EN["room.spectator-help-anonymous"]
    )
    expect(visitor.page.locator("#keys")).to_be_hidden()
    # it reads the spectators' chat; writing in it needs an account
    expect(visitor.page.locator("#chat-say")).to_be_hidden()
    expect(visitor.page.locator("#options")).to_be_hidden()
    one = EN["room.spectators"]["one"].replace("{n}", "1")
    for player in (alice, bob, visitor):
        expect(player.page.locator("#spectators")).to_have_text(one)
    expect(alice.page.locator("#keys")).to_be_visible()  # a player's panel keeps its help
    expect(alice.page.locator("#spectator-help")).to_be_hidden()
    visitor.page.screenshot(path=str(shots / "watching-anonymous.png"))
    visitor.page.close()
    for player in (alice, bob):
        expect(player.page.locator("#spectators")).to_be_hidden()
    assert alice.errors == [] and bob.errors == [] and visitor.errors == []
