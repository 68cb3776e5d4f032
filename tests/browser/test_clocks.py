"""Clocks, the grace period and the rematch in real browsers (issues 10 and 11): the lobby's
clock choice, both clocks on the board with the delay counting down, a match lost on time,
a rematch both players agree to, and the game of a player who left claimed after the grace
period."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import nardy
from tests.browser.players import Player
from tests.server.serverutil import ServerProcess

GRACE = 2.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """The server with a short grace period for absent players."""
    source = Path(nardy.__file__).resolve().parents[1]
    data_dir = tmp_path / "data"
    data_dir.mkdir(parents=True)
    process = ServerProcess(
        data_dir,
        None,
        PYTHONPATH=str(source),
        NARDY_AUTH_RATE="1000/60",
        NARDY_GRACE_SECONDS=str(GRACE),
    ).start()
    yield process
    process.kill()


def _timed_game(alice: Player, bob: Player, clock: str, **custom: str) -> str:
    """Alice creates a 1-point match with this clock (custom: delay and reserve fields), Bob
    joins it; the game's id."""
    alice.page.select_option("select[name=clock]", clock)
    for name, value in custom.items():
        alice.page.fill(f"input[name={name}]", value)
    game = alice.create(length=1)
    if clock == "custom":  # the seek says what clock it has
        bob.page.click("#refresh")
        bob.wait_until("document.querySelector('#seeks [data-join]') !== null")
        seek = bob.page.inner_text("#seeks")
        assert f"clock {custom['delay']} s + {custom['reserve']} min" in seek, seek
    bob.join_first_seek()
    alice.wait_until("document.body.dataset.status === 'playing'")
    return game


def _opening(alice: Player, bob: Player) -> Player:
    """Roll the opening; the player who moves first."""
    while not (
        alice.page.locator(".board .movable").count() or bob.page.locator(".board .movable").count()
    ):
        alice.step() or bob.step()
    return alice if alice.page.locator(".board .movable").count() else bob


def _visible(player: Player, selector: str) -> int:
    """How many elements of this selector the page shows."""
    return sum(1 for box in player.page.locator(selector).all() if box.is_visible())


def test_a_clock_runs_out_and_a_rematch_starts(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    alice = Player(pages("en-GB"), server.url)
    bob = Player(pages("en-US"), server.url)
    alice.sign_up("alice")
    bob.sign_up("bob")
    alice.page.select_option("select[name=clock]", "custom")
    alice.page.locator("#create").screenshot(path=str(shots / "lobby-clock.png"))
    game = _timed_game(alice, bob, "custom", delay="3", reserve="0.1")  # 3 s, then 6 s
    for player in (alice, bob):
        assert _visible(player, ".clock") == 2
        assert not player.page.locator("#rematch").is_visible()
        assert player.page.inner_text(".clock[data-seat='0'] .reserve") == "6.0"
    mover = _opening(alice, bob)
    # the mover's clock runs: its delay counts down first, the reserve untouched
    mover.wait_until("document.querySelector('.clock.running.in-delay .delay').textContent !== ''")
    assert mover.page.inner_text(".clock.running .delay").startswith("delay ")
    mover.page.locator(".table").screenshot(path=str(shots / "clock-delay.png"))
    assert mover.page.inner_text(".clock.running .reserve") == "6.0"
    mover.wait_until("!document.querySelector('.clock.running').classList.contains('in-delay')", 5)
    mover.page.locator(".table").screenshot(path=str(shots / "clock-reserve.png"))
    for player in (alice, bob):  # nobody moves: the time runs out and the match ends
        player.wait_until("document.body.dataset.status === 'finished'", 15)
    other = bob if mover is alice else alice
    loser = "alice" if mover is alice else "bob"
    # the reason stays in the status, not only in the notice of the moment (issue 21)
    assert other.page.inner_text("#status").endswith(f": {loser} ran out of time.")
    assert "ran out of time" in (other.page.text_content("#announce") or "")
    assert mover.page.locator("#rematch-button").is_visible()
    mover.page.screenshot(path=str(shots / "clock-out.png"))

    mover.page.click("#rematch-button")
    other.wait_until("document.getElementById('rematch-text').textContent.includes('offers')")
    other.page.screenshot(path=str(shots / "rematch-offered.png"))
    other.page.click("#rematch-button")
    for player in (alice, bob):
        player.wait_until(
            f"!location.pathname.endsWith('/{game}') && document.body.dataset.status === 'playing'"
        )
    assert alice.page.url == bob.page.url
    assert _visible(alice, ".clock") == 2  # the same clock
    assert not alice.page.locator("#presence").is_visible()
    # the replay and the history keep the reason too
    other.open(f"/replay/{game}")
    other.page.wait_for_selector("#movelist .end")
    assert other.page.inner_text("#movelist .end").startswith(f"{loser} ran out of time and loses.")
    other.open(f"/u/{'bob' if other is bob else 'alice'}")
    other.page.wait_for_selector(f'.history tr[data-game="{game}"]')
    assert other.page.inner_text(f'.history tr[data-game="{game}"]').count("won 1 : 0 on time") == 1
    assert not alice.errors and not bob.errors


def test_the_game_of_a_player_who_left_is_claimed(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    alice = Player(pages("ru-RU"), server.url)
    bob = Player(pages("en-US"), server.url)
    alice.sign_up("alisa")
    bob.sign_up("bob")
    _timed_game(alice, bob, "none")
    assert _visible(alice, ".clock") == 0  # no clock: none shown
    if _opening(alice, bob) is alice:  # alice plays her turn, then bob rolls
        while alice.step():
            pass
        bob.wait_until("document.querySelector('#actions [data-action=roll]') !== null")
        bob.step()
    # bob leaves in the middle of his turn, a move made and not confirmed (if he has one)
    undone = bool(bob.page.locator(".board .movable").count())
    if undone:
        bob.move_once()
        while not alice.board().get("moves-made"):  # alice's page has the move
            alice.page.wait_for_timeout(20)
    bob.page.close()
    alice.wait_until("!document.getElementById('presence').hidden")
    assert alice.page.locator("#claim").is_disabled()
    alice.page.screenshot(path=str(shots / "absent-wait.png"))
    alice.wait_until("!document.getElementById('claim').disabled", GRACE + 3)
    alice.page.screenshot(path=str(shots / "absent-claim.png"))
    alice.page.click("#claim")
    alice.wait_until("document.body.dataset.status === 'finished'")
    assert alice.page.inner_text("#status") == "alisa выигрывает матч, 1 : 0 (bob не вернулся)."
    # the claim takes bob's unconfirmed move back: the page says why the board changed
    said = alice.page.text_content("#announce") or ""
    assert ("Неподтверждённые ходы bob отменены." in said) == undone, said
    assert not alice.page.locator("#presence").is_visible()
    assert alice.page.locator("#rematch").is_visible()
    assert not alice.errors
