"""Practice against the computer in the browser (issue 19, feature 3): a practice game made
in the lobby shows its mark, the Hint button lists the computer's best plays with their
equities, and with the option on each of one's plays is followed by the computer's view
of it; a game against the computer made practice during it says first that it is for good,
in the player's language."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from tests.browser.players import Player
from tests.server.serverutil import ServerProcess

EQUITY = re.compile("^[+\u2212]\\d\\.\\d{3}$")  # signed, a minus sign for the negative


def until_moving(me: Player, limit_s: float = 60) -> None:
    """Roll (the opening, then each turn) until the board has checkers to move."""
    deadline = time.monotonic() + limit_s
    while not me.page.locator(".board .movable").count():
        assert time.monotonic() < deadline, me.page.inner_text("#status")
        kinds = me.buttons()
        action = next((a for a in ("roll-opening", "roll", "take") if a in kinds), None)
        if action is None:
            me.page.wait_for_timeout(50)
        else:
            me.press(action)


def test_hints_in_a_practice_game(pages: Any, server: ServerProcess, shots: Path) -> None:
    me = Player(pages("en-US"), server.url)
    me.guest()
    me.create(length=3, opponent="bot", bot="beginner", pace="250", practice=True)
    assert me.page.inner_text("#practice-mark") == "Practice game · unrated"
    until_moving(me)
    me.page.click("#hint-button")
    rows = me.page.locator("#hint-answer .hint-plays tbody tr")
    rows.first.wait_for()
    assert me.page.inner_text("#hint-answer caption").startswith("The computer's best plays with ")
    best = rows.first.locator("td").all_inner_texts()
    assert best[0] == "1." and best[1], best
    assert EQUITY.match(best[2]), best
    for row in rows.all()[1:]:
        cells = row.locator("td").all_inner_texts()
        assert EQUITY.match(cells[2]) and EQUITY.match(cells[3]), cells
    me.page.screenshot(path=str(shots / "practice-hint.png"))
    # The first plays of a hint are valued at 2-ply, the rest at 1-ply (the analysis's best
    # few again at 2-ply): where the rows shown mix the two, a line under the table says so,
    # as the panel's own rendering of such hints shows.
    said = me.page.evaluate(
        """async () => {
          const { Practice } = await import("/js/practice.js");
          const { HINT_KIND } = await import("/js/vocab.js");
          const said = (plies) => {
            const plays = plies.map((ply, i) => ({ play: "13/7", ply, equity: -i, difference: 0 }));
            const box = document.createElement("div");
            box.innerHTML = Practice.prototype.answer.call(
              null, { hint: { kind: HINT_KIND.PLAYS, dice: [6, 1], plays } });
            const line = box.querySelector(".hint-depth");
            return line ? line.textContent : null;
          };
          return [said([2, 2, 2, 1, 1]), said([2, 2, 2, 2, 2]), said([1, 1])];
        }"""
    )
    assert said == ["Plays 1\u20133 are valued at 2-ply, the others at 1-ply.", None, None]
    me.page.check("input[name=review]")
    while me.page.locator(".board .movable").count() or "confirm" in me.buttons():
        if not me.step():
            me.page.wait_for_timeout(50)
    me.page.locator("#hint-answer .hint-review").wait_for()
    assert me.page.inner_text("#hint-answer .hint-review").startswith("You played ")
    deadline = time.monotonic() + 60  # the next roll of mine, where I may double
    while "double" not in me.buttons():
        assert time.monotonic() < deadline, me.page.inner_text("#status")
        if "take" in me.buttons():  # the computer doubled first: the redouble is mine
            me.press("take")
        me.page.wait_for_timeout(50)
    me.page.click("#hint-button")
    me.page.locator("#hint-answer .hint-cube").wait_for()
    assert me.page.inner_text("#hint-answer .hint-cube").startswith(
        "Before the roll the computer advises: "
    )
    options = me.page.locator("#hint-answer tbody tr").all_inner_texts()
    assert any(o.startswith("No double") for o in options), options
    assert any(o.startswith("Double, take") for o in options), options
    assert me.errors == []


def test_practice_switched_on_during_a_game_is_said_first(
    pages: Any, server: ServerProcess
) -> None:
    """Said first in Russian; then marked in the room, and once the game is over (resigned)
    in the player's history and in the replay."""
    me = Player(pages("ru-RU"), server.url)
    me.sign_up("practiser")
    game = me.create(length=1, opponent="bot", bot="beginner", pace="250")
    assert me.page.locator("#practice-mark").count() == 0
    me.page.click("[data-practice=switch]")
    warning = me.page.inner_text("#practice")
    assert "навсегда станет тренировочной" in warning and "не пойдёт в рейтинг" in warning
    me.page.click("[data-practice=yes]")
    me.page.locator("#practice-mark").wait_for()
    assert me.page.inner_text("#practice-mark") == "Тренировочная партия · без рейтинга"
    assert me.page.locator("#hint-button").count() == 1
    mark = "Тренировочная партия · без рейтинга"
    deadline = time.monotonic() + 60
    while "resign" not in me.buttons():
        assert time.monotonic() < deadline, me.page.inner_text("#status")
        if not me.step():
            me.page.wait_for_timeout(50)
    me.page.click("details.resign summary")
    me.page.click("details.resign button[data-action=resign]")
    me.wait_until("document.body.dataset.status === 'finished'")
    me.open("/u/practiser")
    row = me.page.locator(f'tr[data-game="{game}"]')
    row.wait_for()
    assert mark in row.inner_text()
    me.open(f"/replay/{game}")
    me.page.locator("#replay-result").wait_for()
    me.wait_until("document.querySelector('#replay-result').textContent.length > 0")
    assert me.page.inner_text("#replay-result").endswith(mark)
    assert me.errors == []


def fits_across(me: Player) -> bool:
    """Whether the page is no wider than its window (nothing to scroll sideways)."""
    return bool(
        me.page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
    )


def test_the_hint_table_in_georgian_stays_inside_the_panel(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    """The hint table's Georgian heading (once "ჩამორჩენა საუკეთესოსგან", with one long word)
    widened the room's panel past the window: the page scrolled sideways at 1280 pixels. The
    panel keeps its width, every column shows, and no heading breaks mid-word."""
    me = Player(pages("ka-GE", viewport={"width": 1280, "height": 900}), server.url)
    me.guest()
    me.create(length=3, opponent="bot", bot="beginner", pace="250", practice=True)
    until_moving(me)
    me.page.click("#hint-button")
    me.page.locator("#hint-answer .hint-plays tbody tr").first.wait_for()
    me.page.screenshot(path=str(shots / "practice-hint-ka.png"), full_page=True)
    assert fits_across(me)
    panel = me.page.locator("aside.panel").bounding_box()
    hints = me.page.locator("#hint-answer .hint-plays").bounding_box()
    assert panel is not None and hints is not None
    assert hints["x"] + hints["width"] <= panel["x"] + panel["width"] + 1
    # and the table shows all its columns: none is hidden in its box
    assert table_fits(me)
    # The roll above is random. The widest plays are entering from the bar with doubles or
    # hits ("ბარი/20(2) 13/9(2)"), which once pushed the table 28 pixels past its box: the
    # panel's own rendering of such a hint must fit as well.
    me.page.evaluate(
        """async () => {
          const { Practice } = await import("/js/practice.js");
          const { HINT_KIND } = await import("/js/vocab.js");
          const plays = ["bar/20(2) 13/9(2)", "bar/22*/16*", "24/23*/18*", "6/4*/off 5/off"]
            .map((play, i) => ({ play, equity: -1.234 - i, difference: -i - 0.5 }));
          document.querySelector("#hint-answer").innerHTML = Practice.prototype.answer.call(
            null, { hint: { kind: HINT_KIND.PLAYS, dice: [6, 6], plays } });
        }"""
    )
    assert me.page.inner_text("#hint-answer .hint-plays tbody").count("ბარი") == 2
    assert table_fits(me)
    assert me.errors == []


def table_fits(me: Player) -> bool:
    """Whether the hint table shows all its columns, with nothing to scroll in its box."""
    return bool(
        me.page.evaluate(
            "(t => t.scrollWidth <= t.clientWidth)"
            "(document.querySelector('#hint-answer .hint-plays'))"
        )
    )
