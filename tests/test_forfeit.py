"""A forfeit (a referee's action: a clock run out, an absent player's game claimed) ends the
match in match play and the game at the cube's value in money play (issue 10, clocks)."""

from __future__ import annotations

import pytest
from test_match import match_of, win

from nardy.core import actions as A
from nardy.core import events as E
from nardy.core.errors import ErrorCode, NardyError
from nardy.core.game import EndKind, Phase
from nardy.core.match import Match
from nardy.notation.record import game_record, match_records, replay


def _mid_turn(match: Match) -> int:
    """Start a game of ``match`` and leave its player on roll with the dice rolled and, where
    one can be made, a single move made; return that player."""
    match.apply(A.RollOpening(0))
    game = match.game
    assert game is not None and game.phase is Phase.MOVING
    player = game.turn
    moves = game.next_moves()
    if moves:
        match.apply(A.Move(player, moves[0].start, moves[0].end))
    return player


def test_a_forfeit_in_a_match_loses_the_match_mid_turn() -> None:
    match = match_of(5)
    win(match, 1)  # 0-1
    player = _mid_turn(match)
    events = match.apply(A.Forfeit(player, "time"))
    assert events[0] == E.Forfeited(player, "time")
    over = events[-1]
    assert isinstance(over, E.GameOver) and over.winner == 1 - player
    assert over.result == EndKind.FORFEIT
    assert match.over and match.winner == 1 - player
    assert max(match.score) == 5 and match.score[player] == (1 if player == 1 else 0)
    assert match.awaiting().players == ()
    # The turn's dice are kept, its unconfirmed single move is not.
    game = match.game
    assert game is not None and game.records[-1].dice is not None
    assert game.records[-1].before == game.records[-1].after


def test_a_forfeit_before_the_first_roll_ends_the_match() -> None:
    match = match_of(3)
    events = match.apply(A.Forfeit(1, "absent"))
    assert [type(e) for e in events] == [E.GameStarted, E.Forfeited, E.GameOver]
    assert match.score == (3, 0) and match.winner == 0


def test_a_forfeit_on_time_in_money_play_loses_the_game_at_the_cube() -> None:
    match = match_of(0)
    match.apply(A.RollOpening(0))
    game = match.game
    assert game is not None
    while game.phase is not Phase.ROLL:
        match.apply(A.Play(game.turn, str(game.legal_plays()[0])))
    doubler = game.turn
    match.apply(A.Double(doubler))
    match.apply(A.Take(1 - doubler))
    events = match.apply(A.Forfeit(doubler, "time"))
    assert isinstance(events[-1], E.GameStarted)  # the session goes on
    assert game.result is not None and game.result.points == 2
    assert match.score[1 - doubler] == 2 and not match.over


def test_a_claim_in_money_play_ends_the_session() -> None:
    match = match_of(0)
    _mid_turn(match)
    events = match.apply(A.Forfeit(0, "absent"))
    assert E.PlayerLeft(0) in events and match.over
    assert match.score == (0, 1)


def test_a_forfeit_is_refused_with_a_bad_reason_and_after_the_end() -> None:
    match = match_of(3)
    _mid_turn(match)
    before = match.snapshot()
    with pytest.raises(NardyError) as refused:
        match.apply(A.Forfeit(0, "bored"))
    assert refused.value.code is ErrorCode.INVALID_INPUT
    assert match.snapshot()["games"] == before["games"]
    match.apply(A.Forfeit(0))
    with pytest.raises(NardyError):
        match.apply(A.Forfeit(1))


def test_a_forfeited_game_restores_and_its_record_replays() -> None:
    match = match_of(5)
    win(match, 0)
    player = _mid_turn(match)
    match.apply(A.Forfeit(player, "time"))
    restored = Match.restore(match.snapshot())
    assert restored.over and restored.winner == match.winner and restored.score == match.score
    # why the game was forfeited is kept with its result (issue 21), through the snapshot
    result = restored.games[-1].result
    assert result is not None and result.kind == EndKind.FORFEIT and result.reason == "time"
    assert match.games[0].result is not None and match.games[0].result.reason is None
    records = match_records(match)
    last = records[-1]
    assert last["end"]["kind"] == "forfeit"
    game = match.game
    assert game is not None
    assert game_record(replay(last)) == game_record(game)
