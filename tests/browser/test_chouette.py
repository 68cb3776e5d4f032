"""A chouette of three browsers (issue 11, point 5): one opens a chouette table in the lobby,
two others sit down at it from theirs, and they play a whole game by clicking; the box
doubles, one member passes and the other takes, each on their own, and the room shows the
box, the captain, the team, the answers and the scores, settled per member."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

from tests.browser.players import Player
from tests.server.serverutil import ServerProcess


def _role(player: Player, role: str) -> bool:
    """Whether this player's own row in the table's panel carries ``role``."""
    return bool(player.page.locator(f".table-panel li.me .role.{role}").count())


def test_a_chouette_of_three_browsers(pages: Any, server: ServerProcess, shots: Path) -> None:
    players = [Player(pages("en-GB"), server.url) for _ in range(3)]
    for n, player in enumerate(players):
        player.sign_up(f"chouette{n}")
    first = players[0].page
    first.check("input[name=kind][value=chouette]")
    first.select_option("select[name=seats]", "3")
    first.select_option("select[name=bots]", "0")
    first.click("#create-table-button")
    first.wait_for_selector("body[data-seq]")
    game = first.url.rsplit("/", 1)[1]
    assert first.inner_text("#status") == "Waiting for the table to fill."
    for player in players[1:]:
        player.open("/lobby")
        player.page.wait_for_selector(f'#tables [data-table="{game}"]')
        if player is players[1]:
            player.page.screenshot(path=str(shots / "chouette-lobby.png"), full_page=True)
        player.page.click(f'#tables [data-table="{game}"]')
        player.page.wait_for_selector("body[data-seq]")
    for player in players:
        player.wait_until("document.body.dataset.status === 'playing'")
        player.wait_until("document.querySelectorAll('.table-panel li').length === 3")
    players[0].page.screenshot(path=str(shots / "chouette-start.png"))
    box = next(p for p in players if _role(p, "box"))
    captain = next(p for p in players if _role(p, "captain"))
    assert box is not captain
    assert "Chouette of 3" in box.page.inner_text(".table-panel h3")

    doubled = answered = over = drawn = False
    deadline = time.monotonic() + 300
    while not over:
        assert time.monotonic() < deadline, [p.buttons() for p in players]
        acted = False
        for player in players:
            if player.page.locator(".table-panel .settled").count():
                over = True  # between games: nobody starts the next one
                break
            kinds = player.buttons()
            if "double" in kinds and player is box and not doubled:
                player.press("double")
                doubled = acted = True
                break
            if "pass" in kinds and player is not box and not answered:
                player.press("pass")  # the first member to answer passes; the other takes
                answered = acted = True
                break
            if player.step():
                acted = True
                break
        if doubled and not drawn:
            # the board and the strips are drawn from the server's board view at a table too
            for player in players:
                assert player.page.locator(".board .checker").count() > 0
                player.strips_agree()
            drawn = True
        if doubled and answered and not (shots / "chouette-answers.png").exists():
            watcher = next(p for p in players if p is not box)
            watcher.wait_until("document.querySelector('.table-panel .mark.out') !== null")
            watcher.page.screenshot(path=str(shots / "chouette-answers.png"))
        if not acted:
            time.sleep(0.05)
    assert doubled and answered and drawn
    for player in players:
        player.wait_until("document.querySelector('.table-panel .settled') !== null")
    scores = [
        int(s)
        for s in players[0].page.eval_on_selector_all(
            ".table-panel .score", "ss => ss.map(s => s.dataset.score)"
        )
    ]
    assert sum(scores) == 0 and any(scores)  # each member settled with the box on their own
    assert "leave" in players[0].buttons()  # between games a player may leave
    players[1].page.screenshot(path=str(shots / "chouette-settled.png"))
    for player in players:
        assert not player.errors, player.errors


def test_a_consultation_game_against_the_computer(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    captain, partner = (Player(pages("en-GB"), server.url) for _ in range(2))
    captain.sign_up("captain")
    partner.sign_up("partner")
    page = captain.page
    page.check("input[name=kind][value=consultation]")
    page.select_option("select[name=side0]", "2")
    page.select_option("select[name=side1]", "0")  # the other side is the computer
    page.select_option("select[name=table-bot]", "beginner")
    page.click("#create-table-button")
    page.wait_for_selector("body[data-seq]")
    game = page.url.rsplit("/", 1)[1]
    partner.open("/lobby")
    partner.page.click(f'#tables [data-table="{game}"][data-side="0"]')
    partner.page.wait_for_selector("body[data-seq]")
    for player in (captain, partner):
        player.wait_until("document.body.dataset.status === 'playing'")
    assert captain.page.locator(".table-panel li.me .role.captain").count() == 1
    assert partner.page.locator(".table-panel li.me .role.captain").count() == 0
    assert "roll-opening" in captain.buttons() and not partner.buttons()
    # the opening roll, by the captain unless the computer rolls it first for both sides
    with contextlib.suppress(Exception):  # Playwright's timeout: the button went first
        captain.page.click("#actions button[data-action=roll-opening]", timeout=2000)
    captain.wait_until("document.querySelectorAll('.board .die').length > 0", timeout_s=90)
    partner.page.fill(".table-panel .propose input", "8/2 6/2")
    partner.page.click(".table-panel .propose button")
    captain.wait_until("document.querySelector('.table-panel .proposals') !== null")
    assert "8/2 6/2" in captain.page.inner_text(".table-panel .proposals")
    # a member who may only propose is not told it is their move: the captain decides
    assert partner.kinds() == ["propose"]
    assert not partner.page.inner_text("#status").startswith("Your")
    # a proposal reaches its own side only: the state of each says so (`state.proposals`)
    assert [p["text"] for p in (captain.state or {})["proposals"]] == ["8/2 6/2"]
    # the board is drawn from the server's board view: checkers, dice, the strips' counts
    for player in (captain, partner):
        assert player.page.locator(".board .checker").count() > 0
        player.strips_agree()
    captain.page.screenshot(path=str(shots / "consultation.png"))
    for player in (captain, partner):
        assert not player.errors, player.errors
