"""The rules pages and the dice page in a real browser: the rules of each variant in each
of the five languages (from the header, the in-page language links and the room's link to
the rules of the game being played) and the figures of the dice the server has dealt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from nardy.web.assets import STATIC
from tests.browser.players import Player
from tests.server.gameplay import Seat, play_out
from tests.server.serverutil import Client, ServerProcess

LANGUAGES = {"en": "en-US", "lt": "lt-LT", "ru": "ru-RU", "uk": "uk-UA", "ka": "ka-GE"}


def texts(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def first_heading(lang: str, page: str) -> str:
    text = (STATIC / "rules" / lang / f"{page}.html").read_text(encoding="utf-8")
    return text.split("<h2>", 1)[1].split("</h2>", 1)[0]


def shows_rules(me: Player, lang: str, page: str) -> None:
    me.page.wait_for_selector(f'body[data-rules="{lang}/{page}"]')
    assert me.page.evaluate("document.documentElement.lang") == lang
    assert me.page.inner_text("#rules-text h2") == first_heading(lang, page)
    assert "⟦" not in me.page.inner_text("body")
    catalogue = texts(lang)
    shown = me.page.eval_on_selector_all(
        "[data-i18n]", "es => es.map(e => [e.dataset.i18n, e.textContent])"
    )
    assert ["nav.rules", catalogue["nav.rules"]] in shown
    for key, text in shown:
        assert text == catalogue[key], (lang, key, text)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_rules_in_each_language(
    pages: Any, server: ServerProcess, shots: Path, lang: str
) -> None:
    me = Player(pages(LANGUAGES[lang]), server.url)
    me.open("/")
    me.page.click("nav.site a[href='/rules']")  # from the site's header, signed in or not
    shows_rules(me, lang, "backgammon")
    me.page.screenshot(path=str(shots / f"rules-backgammon-{lang}.png"), full_page=True)
    me.page.click(".rules .tabs a[href='/rules/long']")
    shows_rules(me, lang, "long")
    assert me.page.get_attribute(".tabs a[href='/rules/long']", "aria-current") == "page"
    me.page.screenshot(path=str(shots / f"rules-long-{lang}.png"))
    assert not me.errors


def test_the_language_links_of_the_rules_page(pages: Any, server: ServerProcess) -> None:
    me = Player(pages("en-US"), server.url)
    me.open("/rules/acey-deucey")
    shows_rules(me, "en", "acey-deucey")
    me.page.click(".rules .langs [data-lang='ka']")
    shows_rules(me, "ka", "acey-deucey")
    assert me.page.input_value("#language") == "ka"  # the header's menu follows
    me.open("/rules/nackgammon")  # and the choice is remembered
    shows_rules(me, "ka", "nackgammon")
    me.page.click(".rules .langs [data-lang='uk']")
    shows_rules(me, "uk", "nackgammon")
    me.open("/rules/no-such-game")
    me.page.wait_for_selector("#rules-text")
    assert me.page.inner_text("#rules-text") == texts("uk")["rules.unknown"]
    assert not me.errors


def test_the_room_links_to_the_rules_of_its_variant(pages: Any, server: ServerProcess) -> None:
    me = Player(pages("ru-RU"), server.url)
    me.guest()
    me.create(variant="long", opponent="bot")
    link = me.page.locator("#rules-link")
    assert link.inner_text() == texts("ru")["room.rules"]
    assert link.get_attribute("href") == "/rules/long"
    assert link.get_attribute("target") == "_blank"  # the game stays open beside it
    with me.page.context.expect_page() as opened:
        link.click()
    rules = Player(opened.value, server.url)
    rules.page.wait_for_selector('body[data-rules="ru/long"]')
    assert rules.page.inner_text("#rules-text h2") == "Длинные нарды"


def test_the_dice_page(pages: Any, server: ServerProcess, shots: Path) -> None:
    a, b = Client(server), Client(server)
    a.sign_up("dicer-a")
    b.sign_up("dicer-b")
    game = a.post("/api/games", {"settings": {"match-length": 1}}).json()["id"]
    assert b.post(f"/api/games/{game}/join").status_code == 200
    play_out([Seat(a, game), Seat(b, game)])
    stats = Client(server).get("/api/dice/stats").json()
    assert stats["rolls"] > 0
    me = Player(pages("ru-RU"), server.url)
    me.open("/")
    me.page.click("nav.site a[href='/dice']")
    me.page.wait_for_selector(f'body[data-dice="{stats["rolls"]}"]')
    assert "⟦" not in me.page.inner_text("body")
    assert me.page.inner_text(".dice h1") == texts("ru")["dice.title"]
    assert me.page.locator("svg.dicebars rect.count").count() == 6 + 21
    assert me.page.locator(".dicetable tbody tr").count() == 6 + 21
    six = me.page.locator(".dicetable").first.locator("tbody tr").nth(5).locator("td").first
    assert six.inner_text() == str(stats["faces"]["6"])
    assert "χ²" in me.page.inner_text("#faces-test") and "20" in me.page.inner_text("#rolls-test")
    me.page.screenshot(path=str(shots / "dice-ru.png"), full_page=True)
    assert not me.errors


def test_the_rules_and_the_dice_on_a_phone(pages: Any, server: ServerProcess, shots: Path) -> None:
    me = Player(pages("uk-UA", viewport={"width": 360, "height": 740}), server.url)
    for path, ready, name in (
        ("/rules/long", 'body[data-rules="uk/long"]', "rules-phone-uk"),
        ("/dice", "body[data-dice]", "dice-phone-uk"),
    ):
        me.open(path)
        me.page.wait_for_selector(ready)
        me.page.screenshot(path=str(shots / f"{name}.png"))
        # nothing wider than the screen: no sideways scrolling to read the rules
        assert me.page.evaluate("document.documentElement.scrollWidth") <= 360, path
    assert not me.errors
