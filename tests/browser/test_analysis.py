"""A finished match analysed from its replay in a real browser (issue 19, feature 2): the
"Analyse" button queues it, the page follows the job to its end, then the move list carries
the marks, the turn on show its judgement (the play, the best play and the equity lost), the
board the best play on request, the players' error rates and ratings, and the SVG graph of
the winning chances; in English and in Russian."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.browser.players import Player
from tests.server.gameplay import finished_match, players
from tests.server.serverutil import ServerProcess

ANALYSED_MS = 180_000


def test_a_finished_match_is_analysed_in_its_replay_in_english_and_russian(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    game = finished_match(*players(server))
    carol = Player(pages("en-US"), server.url)
    carol.sign_up("carol")
    carol.open(f"/replay/{game}")
    page = carol.page
    box = page.locator("#analysis")
    box.locator("#analyse").click()
    page.wait_for_selector("#analysis[data-status=done]", timeout=ANALYSED_MS)
    assert page.locator("#download-analysis").is_visible()
    assert page.get_attribute("#download-analysis", "href") == f"/api/games/{game}/analysis.json"

    # the move list's marks, and the graph: a point per step and a dot per marked turn
    marks = page.locator(".movelist .mark")
    assert marks.count() > 0
    turns = page.locator(".movelist button.move").count() - 1  # the start is a step too
    points = page.get_attribute("svg.chances polyline", "points")
    assert points is not None and len(points.split()) == turns + 1
    assert page.locator("svg.chances circle.dot").count() == marks.count()
    # the players' figures: a column each, a row a figure
    assert page.locator(".analysis-stats thead th[data-seat]").count() == 2
    assert page.locator(".analysis-stats tbody tr").count() == 5
    ratings = page.locator(".analysis-stats td[data-rating]")
    assert all(ratings.nth(i).inner_text().strip() for i in (0, 1))

    # a marked turn: what was played, what was best, the equity lost; the best play's board
    marked = page.locator(".movelist button.move:has(.mark)").first
    marked.click()
    judged = page.locator("#turn-analysis")
    text = judged.inner_text()
    assert "Played:" in text and "Best:" in text and "equity lost" in text, text
    # signed as the hints sign an equity: a minus sign, never a hyphen
    assert re.search("\\(equity ([+\u2212]\\d|0)\\.\\d{3}\\)", text) and "-" not in text, text
    assert judged.locator(".mark").count() >= 1
    played = page.inner_html("#boardbox svg")
    page.check("#show-best")
    assert page.inner_html("#boardbox svg") != played
    page.uncheck("#show-best")
    assert page.inner_html("#boardbox svg") == played
    page.screenshot(path=str(shots / "analysis-en.png"), full_page=True)

    # the same in Russian, at once
    page.select_option("#language", "ru")
    carol.wait_until("document.querySelector('#analysis h2').innerText === 'Анализ'")
    text = page.locator("#turn-analysis").inner_text()
    assert "Сыграно:" in text and "Лучше:" in text and "потеря эквити" in text, text
    assert page.locator("#analysis figcaption").inner_text().startswith("Шансы")
    words = page.locator("#turn-analysis .mark").first.inner_text()
    assert any(w in words for w in ("сомнительно", "плохо")), words
    assert page.inner_text("#download-analysis") == "Скачать анализ"
    # Russian's longer headings and words still fit the panel: nothing of the table is cut
    fits = """() => { const table = document.querySelector('.analysis-stats');
                      return table.scrollWidth <= table.parentElement.clientWidth; }"""
    assert page.evaluate(fits)
    assert page.inner_text('.analysis-stats th[data-i18n="analysis.error-rate"]') == "Доля ошибок"
    page.screenshot(path=str(shots / "analysis-ru.png"), full_page=True)
    # the table of figures, wider in Russian, once widened the page past the window
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    # a play the lookahead marked bad or very bad is judged by a rollout, and says so with
    # its games (whole blocks of 36)
    said = ""
    marked_turns = page.locator(".movelist button.move:has(.mark)")
    for i in range(marked_turns.count()):
        marked_turns.nth(i).click()
        rolled = page.locator("#turn-analysis [data-kind=rollout]")
        if rolled.count():
            said = rolled.inner_text()
            break
    found = re.search("партий: (\\d+)\\)", said)
    assert found and int(found.group(1)) % 36 == 0, said

    # a reload finds the analysis kept, and a click in the graph steps to that turn
    carol.open(f"/replay/{game}")
    page.wait_for_selector("#analysis[data-status=done]")
    # each step's point of the line is that step: the last, the first and one between (the
    # drawing sits in a margin inside the SVG's box, so a click is placed by the line's own
    # points, not by the box's edges)
    for step in (turns, 0, turns // 2):
        click_step(carol, step)
    assert carol.errors == []


def click_step(player: Player, step: int) -> None:
    """Click the chances graph at the line's point for `step` and see the replay go there.
    The panel may still grow above the graph after a reload, moving it under the pointer, so
    the point is found again and clicked again until the click lands."""
    page = player.page
    where = f"document.body.dataset.step === '0:{step}'"
    for _ in range(5):
        page.locator("svg.chances").scroll_into_view_if_needed()
        x, y = page.evaluate(
            """(i) => {
                const svg = document.querySelector("svg.chances");
                const p = svg.querySelector("polyline").points.getItem(i);
                const at = new DOMPoint(p.x, p.y).matrixTransform(svg.getScreenCTM());
                return [at.x, at.y];
            }""",
            step,
        )
        page.mouse.click(x, y)
        if page.evaluate(where):
            return
        page.wait_for_timeout(500)
    player.wait_until(where)
