"""The client in each of its five languages, on a phone, with the home board moved, through
the cube's double, take and pass, and across a server restart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from nardy.web.assets import STATIC
from tests.browser.conftest import start_server
from tests.browser.players import PHONE, Player
from tests.server.serverutil import ServerProcess

LANGUAGES = {"en": "en-US", "lt": "lt-LT", "ru": "ru-RU", "uk": "uk-UA", "ka": "ka-GE"}


def shows_only(player: Player, lang: str) -> None:
    """Every catalogued element shows this language's text, and nothing shows a missing key."""
    texts = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    page = player.page
    assert page.evaluate("document.documentElement.lang") == lang
    assert "⟦" not in page.inner_text("body")
    shown = page.eval_on_selector_all(
        "[data-i18n]", "es => es.map(e => [e.dataset.i18n, e.textContent])"
    )
    assert shown
    for key, text in shown:
        assert text == texts[key], (lang, key, text)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_each_language_from_the_browser(
    pages: Any, server: ServerProcess, shots: Path, lang: str
) -> None:
    me = Player(pages(LANGUAGES[lang]), server.url)
    me.open("/")
    shows_only(me, lang)
    me.page.click("#guest")
    me.page.wait_for_selector("#create")
    shows_only(me, lang)
    me.create(length=3, opponent="bot", pace="2500")
    me.page.wait_for_selector(".board .checker")
    shows_only(me, lang)
    english = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    if lang != "en":
        assert me.page.inner_text("#match") != english["room.match-to"]["other"]
        assert "pips" not in me.page.inner_text(".table")
    me.page.screenshot(path=str(shots / f"room-{lang}.png"))


def test_language_changes_at_once_and_is_remembered(pages: Any, server: ServerProcess) -> None:
    me = Player(pages("en-US"), server.url)
    me.sign_up("ruslan")
    me.page.select_option("#language", "ru")
    me.wait_until("document.documentElement.lang === 'ru'")
    shows_only(me, "ru")
    # each language is named in itself, whatever the page's language and the browser's data
    names = me.page.locator("#language option").all_inner_texts()
    assert names == ["English", "lietuvių", "русский", "українська", "ქართული"], names
    # another browser, signed in as the same person, opens in Russian
    other = Player(pages("en-US"), server.url)
    other.open("/signin")
    form = other.page.locator("#signin")
    form.locator("input[name=username]").fill("ruslan")
    form.locator("input[name=password]").fill("correct horse battery")
    form.locator("button").click()
    other.page.wait_for_selector("#create")
    shows_only(other, "ru")


def test_home_board_corner_from_the_preferences(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    me = Player(pages("en-US"), server.url)
    me.sign_up("lefty")
    me.create(opponent="bot", pace="2500")
    tray_x = "document.querySelector('.board .tray').getBBox().x"
    felt_x = "document.querySelector('.board .felt').getBBox().x"
    assert me.page.evaluate(f"{tray_x} > {felt_x}")  # bottom right: the tray on the right
    me.page.select_option("#home", "bottom-left")
    assert me.page.evaluate(f"{tray_x} < {felt_x}")
    me.page.screenshot(path=str(shots / "home-bottom-left.png"))
    me.page.reload()
    me.page.wait_for_selector(".board .checker")
    assert me.page.input_value("#home") == "bottom-left"  # kept in the account's preferences
    assert me.page.evaluate(f"{tray_x} < {felt_x}")


def test_a_phone_in_portrait(pages: Any, server: ServerProcess, shots: Path) -> None:
    page = pages("ru-RU", **PHONE)
    me = Player(page, server.url)
    me.guest()
    me.create(opponent="bot", pace="250")
    while not me.page.locator(".board .movable").count():
        me.step()
    width = me.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"
    board = me.page.locator("svg.board").bounding_box()
    assert board is not None and board["width"] >= 360
    # a tap on the checker, a tap on where it goes
    before = me.seq()
    start = max(
        me.page.eval_on_selector_all(
            ".board .movable", "cs => cs.map(c => Number(c.dataset.point))"
        )
    )
    me.page.locator(f'.board .movable[data-point="{start}"]').tap()
    if len(me.ends(start)) > 1:  # else the tap played the checker's one move
        x, y = me.centre(f'[data-target="{min(me.targets())}"]')
        me.page.touchscreen.tap(x, y)
    me.wait_change(before)
    me.page.screenshot(path=str(shots / "phone.png"), full_page=True)


def test_a_phones_header_and_lobby_fit_the_screen(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    page = pages("ru-RU", **PHONE)
    me = Player(page, server.url)
    me.guest()
    page.screenshot(path=str(shots / "phone-lobby.png"), full_page=True)
    # two short lines of header, signed in with the longest links, so the board starts high
    header = page.locator("header.bar").bounding_box()
    assert header is not None and header["height"] <= 80, header
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the lobby scrolls sideways: {width}px"
    # the clock's own fields only for a clock of one's own; the computer's strength is labelled
    assert not page.is_visible("#custom-clock")
    page.select_option("select[name=clock]", "custom")
    assert page.is_visible("#custom-clock")
    page.select_option("select[name=clock]", "none")
    assert not page.is_visible("#custom-clock")
    # the computer's pace and strength only for a game against it (issue 19)
    assert not page.get_by_label("Сила компьютера").first.is_visible()
    page.check("input[name=opponent][value=bot]")
    assert page.get_by_label("Сила компьютера").first.is_visible()


def test_double_take_then_redouble_pass(pages: Any, server: ServerProcess, shots: Path) -> None:
    alice = Player(pages("en-US"), server.url)
    bob = Player(pages("en-US"), server.url)
    alice.sign_up("alice")
    bob.sign_up("bob")
    game = alice.create(length=5)
    bob.join_first_seek()
    carol = Player(pages("ru-RU"), server.url)  # watching, in Russian
    carol.sign_up("carol")
    carol.open(f"/game/{game}")

    def until_can(player: Player, action: str) -> None:
        for _ in range(300):
            if action in player.buttons():
                return
            other = bob if player is alice else alice
            if not (player.step(stop_at=action) or other.step()):
                player.page.wait_for_timeout(50)
        states = [(p.seq(), p.buttons(), p.page.inner_text("#status")) for p in (alice, bob)]
        raise AssertionError(f"{action} never offered: {states}")

    until_can(alice, "double")
    alice.press("double")
    assert set(bob.buttons()) >= {"take", "pass"}
    assert "doubled to 2" in bob.page.inner_text("#status")
    # issue 19: everyone sees the cube offered (turned to 2 on alice's side) and who answers
    carol.wait_until(f"Number(document.body.dataset.seq) === {alice.seq()}")
    assert alice.page.inner_text("#status") == "You doubled to 2: bob to answer."
    assert carol.page.inner_text("#status") == "alice удваивает до 2: отвечает bob."
    for player in (alice, bob, carol):
        assert player.page.text_content('.board .cube.offered[data-offered-by="0"]') == "2"
    assert alice.page.inner_text("#side-top .turnmark") == "to answer"  # bob's strip
    assert not alice.page.locator("#side-bottom .turnmark").count()
    carol.page.screenshot(path=str(shots / "double-offered.png"))
    bob.press("take")
    assert not alice.page.locator(".board .cube.offered").count()
    assert alice.page.locator('.board .cube[data-owner="1"]').count() == 1
    until_can(bob, "double")
    bob.press("double")
    alice.press("pass")
    bob.wait_until("document.querySelector('#match').textContent.startsWith('0 : 2')")
    assert alice.page.inner_text("#match").startswith("0 : 2")


def test_reconnects_after_the_server_restarts(pages: Any, tmp_path: Path) -> None:
    server = start_server(tmp_path / "data")
    pages.expect_console("ERR_CONNECTION_REFUSED")  # the page retrying while the server is down
    try:
        me = Player(pages("en-US"), server.url)
        me.guest()
        me.create(opponent="bot", pace="250")
        while not me.page.locator(".board .movable").count():
            me.step()
        me.move_once()
        seq = me.seq()
        server.kill()
        me.page.wait_for_selector("#notice:not([hidden])")
        assert "connection is lost" in me.page.inner_text("#notice")
        server.start()
        me.wait_until("document.querySelector('#notice').textContent === 'Connected again.'", 20)
        assert me.seq() == seq  # the same state, mid-turn: the move made is still there
        assert "undo" in me.buttons()
    finally:
        server.kill()
