"""The game API (issue 8): actions in, events out, who acts now, refusal codes.

Everything a player does is an :mod:`nardy.core.actions` value handed to ``Game.apply``;
what happened comes back as :mod:`nardy.core.events`, including what happens by itself (a
turn passed with no legal move, the last roll, automatic doubles, the end of the game).
Refusals carry a stable code and, where a rule refuses a move, name the rule and the dice as
rolled (RULES.md 1.2, 1.3, 1.9, 3.2).
"""

from __future__ import annotations

from typing import Any

import pytest
from gameutil import position, snapshot
from hypothesis import given
from hypothesis import strategies as st

from nardy import NardyError
from nardy.core import actions as A
from nardy.core import events as E
from nardy.core.actions import ACTIONS, action_from_json
from nardy.core.chouette import BOX, TEAM, Chouette
from nardy.core.dice import FixedDice, SeededDice
from nardy.core.errors import ErrorCode, InvalidInputError
from nardy.core.events import EVENTS, event_from_json
from nardy.core.game import Game, Phase
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.core.team import Consultation

# -- JSON forms ------------------------------------------------------------------------------

EXAMPLES: list[A.Action] = [
    A.RollOpening(0),
    A.Double(1),
    A.Take(0),
    A.Pass(1),
    A.Beaver(0),
    A.Roll(1),
    A.Move(0, 24, 18),
    A.Undo(0),
    A.Confirm(1),
    A.Play(0, "24/18 13/10"),
    A.Resign(1, 2),
    A.Accept(0),
    A.Decline(0),
    A.Surrender(1),
    A.ChooseDouble(0, 4),
    A.Forfeit(1, "absent"),
    A.Vote("Ann", False),
    A.Propose("Bob", "8/2 6/2"),
    A.Leave(1),
    A.Join("Eve"),
]


def test_every_action_kind_has_an_example() -> None:
    assert {a.kind for a in EXAMPLES} == set(ACTIONS)


@pytest.mark.parametrize("action", EXAMPLES, ids=lambda a: a.kind)
def test_action_json_round_trip(action: A.Action) -> None:
    obj = action.to_json()
    assert obj["type"] == action.kind and obj["player"] == action.player
    assert action_from_json(obj) == action


def test_move_action_wire_form() -> None:
    """The wire names ``from``/``to`` (``from`` is a Python keyword)."""
    assert A.Move(0, 24, 18).to_json() == {"type": "move", "player": 0, "from": 24, "to": 18}
    assert action_from_json({"type": "resign", "player": 1}) == A.Resign(1, 1)


@pytest.mark.parametrize(
    "obj",
    [
        None,
        [],
        "roll",
        {},
        {"type": "fly", "player": 0},
        {"type": "roll"},
        {"type": "roll", "player": None},
        {"type": "roll", "player": 0, "extra": 1},
        {"type": "move", "player": 0, "from": "24", "to": 18},
        {"type": "move", "player": 0, "from": True, "to": 18},
        {"type": "vote", "player": "Ann", "agree": 1},
        {"type": "play", "player": 0},
    ],
)
def test_malformed_action_json_is_invalid_input(obj: Any) -> None:
    with pytest.raises(InvalidInputError) as refused:
        action_from_json(obj)
    assert refused.value.code is ErrorCode.INVALID_INPUT
    assert refused.value.to_json() == {"code": "invalid-input", "message": str(refused.value)}


def test_event_json_round_trip_over_whole_games() -> None:
    """Every event of real games reads back equal from its JSON form; every event kind is
    registered under its own name."""
    assert all(cls.kind == kind for kind, cls in EVENTS.items())
    for variant in ("backgammon", "acey-deucey", "long"):
        game = Game(Settings(variant=variant), SeededDice(variant))
        play_through(game)
        assert game.log and isinstance(game.log[-1], E.GameOver)
        for event in game.log:
            assert event_from_json(event.to_json()) == event


def test_malformed_event_json_is_invalid_input() -> None:
    with pytest.raises(InvalidInputError):
        event_from_json({"type": "dice-rolled", "player": 0, "dice": [3]})
    with pytest.raises(InvalidInputError):
        event_from_json({"type": "dice-rolled", "player": 0, "dice": [3, "4"]})


def play_through(game: Game) -> None:
    """The first legal plays, through ``apply``, asking ``awaiting`` who acts."""
    while not game.over:
        waiting = game.awaiting(moves=False)
        player, kinds = waiting.actors[0]
        if A.RollOpening.kind in kinds:
            game.apply(A.RollOpening(player))
        elif A.Roll.kind in kinds:
            game.apply(A.Roll(player))
        elif A.ChooseDouble.kind in kinds:
            game.apply(A.ChooseDouble(player, 6))
        else:
            game.apply(A.Play(player, str(game.legal_plays()[0])))


# -- apply and its events --------------------------------------------------------------------


def test_apply_returns_the_events_of_a_turn() -> None:
    """RULES.md 1.1, 1.9: the opening roll, single moves, undo and confirm as events."""
    game = Game(dice=FixedDice([3, 1, 6, 5]))
    assert game.apply(A.RollOpening(0)) == (E.OpeningRolled((3, 1), 0),)
    assert game.apply(A.Move(0, 8, 5)) == (E.CheckerMoved(0, 8, 5, 3, False),)
    assert game.apply(A.Undo(0)) == (E.MoveUndone(0, 8, 5),)
    game.apply(A.Move(0, 8, 5))
    game.apply(A.Move(0, 6, 5))
    assert game.apply(A.Confirm(0)) == (E.PlayConfirmed(0, (3, 1), "8/5 6/5"),)
    assert game.apply(A.Roll(1)) == (E.DiceRolled(1, (6, 5)),)
    assert game.apply(A.Play(1, "24/13")) == (E.PlayConfirmed(1, (6, 5), "24/13"),)
    assert game.log[-1] == E.PlayConfirmed(1, (6, 5), "24/13")


def test_tied_openings_and_automatic_doubles_are_events() -> None:
    """RULES.md 1.5: each tie of the opening doubles the centred cube, up to the limit."""
    game = Game(Settings(automatic_doubles=1), FixedDice([2, 2, 4, 4, 6, 1]))
    assert game.apply(A.RollOpening(1)) == (
        E.OpeningRolled((2, 2), None),
        E.AutomaticDouble(2),
        E.OpeningRolled((4, 4), None),
        E.OpeningRolled((6, 1), 0),
    )


def test_cube_actions_are_events() -> None:
    """RULES.md 1.5: double, beaver, take; a pass ends the game at the old stake."""
    game = Game(Settings(beaver=True), FixedDice([6, 1]))
    game.apply(A.RollOpening(0))
    game.apply(A.Play(0, "13/7 8/7"))
    assert game.apply(A.Double(1)) == (E.CubeOffered(1, 2),)
    assert game.apply(A.Beaver(0)) == (E.Beavered(0, 4),)  # 4 if the doubler takes
    assert game.apply(A.Take(1)) == (E.CubeTaken(1, 4),)
    assert game.cube.value == 4 and game.cube.owner == 0
    game2 = Game(first_player=0)
    game2.apply(A.Double(0))
    assert game2.apply(A.Pass(1)) == (
        E.CubePassed(1, 1),
        E.GameOver(0, "pass", 1, 1),
    )


def test_a_roll_with_no_legal_move_passes_by_itself() -> None:
    """RULES.md 1.9: the turn passes at once, and the event says so."""
    pos = position("backgammon", {25: 1, 6: 14}, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2})
    game = Game(dice=FixedDice([3, 4]), position=pos, first_player=0)
    assert game.apply(A.Roll(0)) == (E.DiceRolled(0, (3, 4)), E.NoLegalMove(0, (3, 4)))
    assert game.awaiting(moves=False).player == 1


def test_long_nardy_last_roll_is_an_event() -> None:
    """RULES.md 3.4: the second player gets one final roll after the first bears off."""
    pos = position("long", {1: 1}, {1: 2})
    settings = Settings(variant="long", last_roll=True)
    game = Game(settings, FixedDice([2, 1, 6, 5]), position=pos, first_player=0)
    events = game.apply(A.Roll(0)) + game.apply(A.Play(0, "1/off"))
    assert events[-1] == E.LastRoll(1)
    assert game.apply(A.Roll(1)) == (E.DiceRolled(1, (6, 5)),)
    assert game.apply(A.Play(1, "1/off(2)")) == (
        E.PlayConfirmed(1, (6, 5), "1/off(2)"),
        E.GameOver(None, "draw", 1, 0),
    )


def test_resignation_events() -> None:
    """RULES.md 1.4: offered, declined, offered again and accepted."""
    game = Game(first_player=0)
    assert game.apply(A.Resign(0, 2)) == (E.ResignationOffered(0, 2),)
    assert game.apply(A.Decline(1)) == (E.ResignationDeclined(1, 2),)
    game.apply(A.Resign(0, 1))
    assert game.apply(A.Accept(1)) == (
        E.ResignationAccepted(1, 1),
        E.GameOver(1, "resign", 1, 1, "single"),
    )


def test_acey_deucey_named_double_and_roll_again_are_events() -> None:
    """RULES.md 2: after the 1-2 the player names a double, plays it and rolls again."""
    game = Game(Settings(variant="acey-deucey"), FixedDice([1, 2]), first_player=0)
    game.dice_source = FixedDice([1, 2])
    game.apply(A.Roll(0))
    game.apply(A.Play(0, "bar/24 bar/23"))
    assert game.awaiting().actors == ((0, (A.ChooseDouble.kind,)),)
    assert game.apply(A.ChooseDouble(0, 6)) == (E.DoubleChosen(0, 6),)
    assert game.apply(A.Play(0, "bar/19(4)")) == (
        E.PlayConfirmed(0, (6, 6), "bar/19(4)"),
        E.RollAgain(0),
    )


# -- awaiting ---------------------------------------------------------------------------------


def test_awaiting_follows_the_game() -> None:
    """Who acts and what each may do, phase by phase (RULES.md 1.1, 1.5, 1.9)."""
    game = Game(dice=FixedDice([5, 3]))
    waiting = game.awaiting()
    assert waiting.phase == "opening" and waiting.players == (0, 1) and waiting.player is None
    game.apply(A.RollOpening(1))
    waiting = game.awaiting()
    assert waiting.player == 0 and waiting.dice == (5, 3)
    assert set(waiting.kinds(0)) == {"move", "play", "resign"}
    assert {str(m) for m in waiting.moves} == {str(m) for m in game.next_moves()}
    assert waiting.kinds(1) == ()
    game.apply(A.Play(0, "8/3 6/3"))
    assert set(game.awaiting().kinds(1)) == {"roll", "double", "resign"}
    game.apply(A.Double(1))
    assert game.awaiting().actors == ((0, ("take", "pass")),)
    game.apply(A.Pass(0))
    assert game.awaiting().actors == () and game.awaiting().phase == "over"


def test_awaiting_json_form() -> None:
    game = Game(dice=FixedDice([5, 3]))
    game.apply(A.RollOpening(0))
    obj = game.awaiting().to_json()
    assert obj["phase"] == "moving" and obj["dice"] == [5, 3]
    assert obj["actors"] == [{"player": 0, "actions": ["move", "play", "resign"]}]
    assert {"from": 8, "to": 3, "hit": False} in obj["moves"]


def test_awaiting_offers_undo_and_confirm_when_they_apply() -> None:
    game = Game(dice=FixedDice([5, 3]))
    game.apply(A.RollOpening(0))
    game.apply(A.Move(0, 8, 3))
    assert set(game.awaiting().kinds(0)) == {"move", "undo", "play", "resign"}
    game.apply(A.Move(0, 6, 3))
    assert set(game.awaiting().kinds(0)) == {"undo", "confirm", "play", "resign"}


# -- refusals ---------------------------------------------------------------------------------


def refused(game: Game | Chouette | Consultation, action: A.Action) -> NardyError:
    """The refusal of ``action``, which changes nothing: the snapshot (event log included)
    stays the same."""
    before = game.snapshot()
    with pytest.raises(NardyError) as info:
        game.apply(action)
    assert game.snapshot() == before
    return info.value


def test_refusal_codes() -> None:
    game = Game(Settings(cube=False), dice=FixedDice([5, 3]))
    assert refused(game, A.Roll(0)).code is ErrorCode.WRONG_PHASE
    assert refused(game, A.RollOpening(2)).code is ErrorCode.INVALID_INPUT
    assert refused(game, A.RollOpening("Ann")).code is ErrorCode.INVALID_INPUT
    game.apply(A.RollOpening(0))
    assert refused(game, A.Move(1, 8, 3)).code is ErrorCode.NOT_YOUR_TURN
    assert refused(game, A.Move(0, 8, 2)).code is ErrorCode.ILLEGAL_MOVE
    assert refused(game, A.Confirm(0)).code is ErrorCode.ILLEGAL_MOVE
    assert refused(game, A.Vote(0)).code is ErrorCode.NOT_ALLOWED_BY_SETTINGS
    game.apply(A.Play(0, "8/3 6/3"))
    assert refused(game, A.Double(1)).code is ErrorCode.NOT_ALLOWED_BY_SETTINGS
    assert refused(game, A.Resign(1, 4)).code is ErrorCode.INVALID_INPUT
    assert refused(game, A.Surrender(1)).code is ErrorCode.NOT_ALLOWED_BY_SETTINGS
    assert refused(game, A.Resign(0)).code is ErrorCode.NOT_YOUR_TURN


def test_a_decision_that_is_not_yours_is_not_your_turn() -> None:
    """RULES.md 1.5: only the player about to roll may double, and only the doubled player
    answers. Anyone else is told that it is not their decision (``not-your-turn``) in any
    phase; the player the game waits for, that the action does not fit now
    (``wrong-phase``)."""
    game = Game(dice=FixedDice([5, 3]))
    game.apply(A.RollOpening(0))  # player 0 moves the 5-3
    assert refused(game, A.Double(1)).code is ErrorCode.NOT_YOUR_TURN
    assert refused(game, A.Roll(1)).code is ErrorCode.NOT_YOUR_TURN
    assert refused(game, A.Double(0)).code is ErrorCode.WRONG_PHASE  # dice on the table
    game.apply(A.Play(0, "8/3 6/3"))
    game.apply(A.Double(1))  # player 0 must answer
    assert refused(game, A.Roll(1)).code is ErrorCode.NOT_YOUR_TURN
    assert refused(game, A.Roll(0)).code is ErrorCode.WRONG_PHASE
    assert refused(game, A.Take(1)).code is ErrorCode.NOT_YOUR_TURN


def test_ambiguous_play_has_its_own_code() -> None:
    """NOTATION.md: a play that fits two legal plays is refused, listing both."""
    pos = position("backgammon", {6: 2, 13: 13}, {20: 1, 22: 1, 1: 13})
    game = Game(dice=FixedDice([3, 1]), position=pos, first_player=0)
    game.apply(A.Roll(0))
    error = refused(game, A.Play(0, "6/2"))
    assert error.code is ErrorCode.AMBIGUOUS_PLAY
    assert "6/5*/2" in str(error) and "6/3*/2" in str(error)


def rolled(variant: str, mine: dict[int, int], theirs: dict[int, int], dice: list[int]) -> Game:
    pos = position(variant, mine, theirs)
    game = Game(Settings(variant=variant), FixedDice(dice), position=pos, first_player=0)
    game.apply(A.Roll(0))
    return game


@pytest.mark.parametrize(
    ("variant", "mine", "theirs", "dice", "action", "rule"),
    [
        # RULES.md 3.2: the head rule, with the dice as rolled (issue 9's 5-3).
        ("long", {24: 15}, {24: 15}, [5, 3], A.Play(0, "24/19 24/21"), "head rule"),
        # RULES.md 1.2: a checker on the bar enters first.
        (
            "backgammon",
            {25: 1, 13: 6, 8: 3, 6: 5},
            {6: 5, 5: 5, 4: 5},
            [5, 3],
            A.Move(0, 13, 8),
            "enter from the bar first",
        ),
        (
            "backgammon",
            {25: 1, 13: 6, 8: 3, 6: 5},
            {6: 5, 5: 5, 4: 5},
            [5, 3],
            A.Play(0, "13/8 13/10"),
            "enter from the bar first",
        ),
        # RULES.md 1.3: bear off only with every checker home.
        (
            "backgammon",
            {8: 5, 6: 5, 5: 5},
            {1: 1, 24: 2},
            [6, 1],
            A.Move(0, 6, 0),
            "bear-off not yet allowed",
        ),
        # RULES.md 1.2: either die alone, not both: the larger one.
        (
            "backgammon",
            {24: 1, 1: 14},
            {12: 2, 13: 13},
            [5, 6],
            A.Move(0, 24, 19),
            "the larger die",
        ),
        # RULES.md 3.2: six points in a row with no opponent checker ahead.
        (
            "long",
            {24: 11, 23: 1, 22: 1, 21: 1, 20: 1},
            {24: 15},
            [5, 1],
            A.Move(0, 24, 19),
            "six-block rule",
        ),
        # RULES.md 1.2: a point held by two or more.
        ("backgammon", {24: 2, 13: 13}, {6: 2, 7: 13}, [5, 3], A.Move(0, 24, 19), "blocked"),
    ],
)
def test_refused_moves_name_the_rule_and_the_dice_as_rolled(
    variant: str,
    mine: dict[int, int],
    theirs: dict[int, int],
    dice: list[int],
    action: A.Action,
    rule: str,
) -> None:
    game = rolled(variant, mine, theirs, dice)
    error = refused(game, action)
    assert error.code is ErrorCode.ILLEGAL_MOVE
    assert rule in str(error)
    assert f"{dice[0]}-{dice[1]}" in str(error)


@pytest.mark.parametrize(
    ("variant", "mine", "theirs", "dice", "moves", "reason", "details"),
    [
        # the second checker off the head, after the first (RULES.md 3.2)
        ("long", {24: 15}, {24: 15}, [5, 3], [(24, 19), (24, 21)], "head", {"limit": 1}),
        ("long", {24: 14, 13: 1}, {7: 1, 24: 14}, [6, 5], [(24, 19)], "taken", {"point": 19}),
        (
            "long",
            {24: 11, 23: 1, 22: 1, 21: 1, 20: 1},
            {24: 15},
            [5, 1],
            [(24, 19)],
            "six-block",
            {},
        ),
        ("backgammon", {25: 1, 13: 14}, {6: 5}, [5, 3], [(13, 8)], "bar-first", {}),
        ("backgammon", {8: 5, 6: 5, 5: 5}, {1: 1, 24: 2}, [6, 1], [(6, 0)], "bear-off-early", {}),
        (
            "backgammon",
            {24: 1, 1: 14},
            {12: 2, 13: 13},
            [5, 6],
            [(24, 19)],
            "larger-die",
            {"die": 6},
        ),
        (
            "backgammon",
            {24: 2, 13: 13},
            {6: 2, 7: 13},
            [5, 3],
            [(24, 19)],
            "blocked",
            {"point": 19},
        ),
        ("backgammon", {24: 2, 13: 13}, {19: 15}, [5, 3], [(20, 15)], "no-checker", {"point": 20}),
        (
            "backgammon",
            {24: 2, 13: 13},
            {19: 15},
            [5, 3],
            [(24, 20)],
            "no-die",
            {"from": 24, "to": 20},
        ),
    ],
)
def test_a_refused_single_move_names_its_rule_for_a_program(
    variant: str,
    mine: dict[int, int],
    theirs: dict[int, int],
    dice: list[int],
    moves: list[tuple[int, int]],
    reason: str,
    details: dict[str, int],
) -> None:
    """Issue 19: a client says why a move is refused in its reader's language, from the
    refusal's reason and the numbers it names, not from the English text."""
    game = rolled(variant, mine, theirs, dice)
    *made, (start, end) = moves
    for a, b in made:
        game.apply(A.Move(0, a, b))
    error = refused(game, A.Move(0, start, end))
    assert error.code is ErrorCode.ILLEGAL_MOVE
    assert error.to_json() | {"message": ""} == {
        "code": "illegal-move",
        "message": "",
        "reason": reason,
        "details": details,
    }


def test_both_dice_must_be_played_is_named() -> None:
    """RULES.md 1.2: a single move after which the other die cannot be played, where a play
    of both dice exists."""
    theirs = {5: 3, 6: 1, 9: 1, 12: 2, 14: 1, 15: 2, 16: 1, 22: 2, 24: 1, 25: 1}
    game = rolled("backgammon", {2: 12, 4: 1, 14: 1, 18: 1}, theirs, [4, 1])
    error = refused(game, A.Move(0, 18, 17))
    assert "both dice must be played" in str(error) and "4-1" in str(error)


def test_a_star_where_nothing_is_hit_is_refused_keeping_the_star() -> None:
    """Issue 9: ``24/18*`` with nothing on 18 is a misreading; the message keeps the ``*``."""
    game = Game(dice=FixedDice([6, 5]))
    game.apply(A.RollOpening(0))
    error = refused(game, A.Play(0, "24/18* 13/8"))
    assert "24/18*" in str(error) and error.code is ErrorCode.ILLEGAL_MOVE


# -- refused actions change nothing (property) -----------------------------------------------

_players = st.one_of(st.integers(-1, 2), st.sampled_from(["Ann", ""]))
_points = st.integers(-1, 26)
_actions = st.one_of(
    st.builds(A.RollOpening, _players),
    st.builds(A.Roll, _players),
    st.builds(A.Double, _players),
    st.builds(A.Take, _players),
    st.builds(A.Pass, _players),
    st.builds(A.Beaver, _players),
    st.builds(A.Move, _players, _points, _points),
    st.builds(A.Undo, _players),
    st.builds(A.Confirm, _players),
    st.builds(A.Play, _players, st.sampled_from(["", "24/18 13/8", "8/5 6/5", "bar/22", "x"])),
    st.builds(A.Resign, _players, st.integers(-1, 4)),
    st.builds(A.Accept, _players),
    st.builds(A.Decline, _players),
    st.builds(A.Surrender, _players),
    st.builds(A.ChooseDouble, _players, st.integers(0, 7)),
    st.builds(A.Vote, _players),
    st.builds(A.Leave, _players),
)


@given(
    variant=st.sampled_from(["backgammon", "acey-deucey", "long"]),
    seed=st.integers(0, 2**16),
    actions=st.lists(_actions, max_size=60),
)
def test_apply_refuses_without_changing_anything(
    variant: str, seed: int, actions: list[A.Action]
) -> None:
    """Any action, legal or not: a refusal raises a NardyError with a code and changes
    nothing; an accepted one returns exactly the events it added to the log."""
    settings = Settings(variant=variant, cube=True, beaver=variant != "long")
    game = Game(settings, SeededDice(seed))
    for action in actions:
        before, log = snapshot(game), list(game.log)
        try:
            events = game.apply(action)
        except NardyError as error:
            assert isinstance(error.code, ErrorCode)
            assert snapshot(game) == before and game.log == log
        else:
            assert list(events) == game.log[len(log) :]
            if game.phase is not Phase.OVER:
                assert game.awaiting().actors


def test_match_apply_starts_games_by_itself() -> None:
    """RULES.md 1.6: the first action starts game 1; when a game ends the next one starts at
    once, announced by a GameStarted event; a refused first action starts nothing."""
    match = Match(Settings(match_length=3), FixedDice([6, 1, 3, 5]))
    assert match.awaiting().phase == "opening"
    with pytest.raises(NardyError):
        match.apply(A.Roll(0))
    assert match.games == []
    events = match.apply(A.RollOpening(0))
    assert events == (E.GameStarted(1, (0, 0), False, None), E.OpeningRolled((6, 1), 0))
    match.apply(A.Play(0, "13/7 8/7"))
    match.apply(A.Double(1))
    events = match.apply(A.Pass(0))
    assert events == (
        E.CubePassed(0, 1),
        E.GameOver(1, "pass", 1, 1),
        E.GameStarted(2, (0, 1), False, None),
    )
    assert match.awaiting().players == (0, 1)
    match.apply(A.RollOpening(1))
    match.apply(A.Resign(1, 3))
    assert match.apply(A.Accept(0))[-1] == E.GameOver(0, "resign", 1, 3, "backgammon")
    assert match.over and match.awaiting().phase == "over"
    series = Match(Settings(variant="long"), FixedDice([6, 1]))  # a game ended outside apply
    series.new_game().apply(A.RollOpening(0))
    series.games[0].apply(A.Surrender(0))
    assert series.awaiting().actors == ((0, ("roll", "surrender")),)  # the loser, 0, starts
    with pytest.raises(NardyError):
        match.apply(A.RollOpening(0))


# -- chouette and consultation ---------------------------------------------------------------


def team_on_roll(ch: Chouette) -> None:
    """Through apply: first legal plays until the team is on roll before rolling."""
    while True:
        game = ch.game
        if game is not None and game.phase is Phase.ROLL and game.turn == TEAM:
            return
        name, kinds = ch.awaiting(moves=False).actors[0]
        if "roll-opening" in kinds:
            ch.apply(A.RollOpening(name))
        elif "roll" in kinds:
            ch.apply(A.Roll(name))
        else:
            assert game is not None
            ch.apply(A.Play(name, str(game.legal_plays()[0])))


def test_chouette_apply_votes_answers_and_awaiting() -> None:
    """RULES.md 1.7: every member votes for a team double (the captain too); each member
    answers the box's double on their own; awaiting names who may act."""
    ch = Chouette(("Ann", "Bob", "Cy", "Dee"), dice=SeededDice(1))
    box, captain = ch.box, ch.line[0]
    assert ch.awaiting().players == (box, captain)
    events = ch.apply(A.RollOpening(captain))
    assert events[0] == E.GameStarted(1, (0, 0), False, None)
    team_on_roll(ch)
    waiting = ch.awaiting()
    assert set(waiting.kinds(captain)) == {"roll", "resign", "vote"}
    assert {p for p in waiting.players} == {captain, *ch.line[1:]}
    assert refused(ch, A.Double(captain)).code is ErrorCode.NOT_YOUR_TURN
    first, second = ch.line[1], ch.line[2]
    assert ch.apply(A.Vote(first)) == (E.VoteCast(first, True),)
    assert ch.apply(A.Vote(captain)) == (E.VoteCast(captain, True),)
    assert ch.apply(A.Vote(second)) == (E.VoteCast(second, True), E.CubeOffered(TEAM, 2))
    assert ch.awaiting().actors == ((box, ("take", "pass")),)
    assert ch.apply(A.Take(box)) == (E.CubeTaken(BOX, 2),)


def test_chouette_members_answer_the_box_one_by_one() -> None:
    ch = Chouette(("Ann", "Bob", "Cy"), dice=SeededDice(2))
    box = ch.box
    ch.apply(A.RollOpening(box))
    game = ch.game
    assert game is not None
    while not (game.phase is Phase.ROLL and game.turn == BOX):
        name, kinds = ch.awaiting(moves=False).actors[0]
        ch.apply(A.Roll(name) if "roll" in kinds else A.Play(name, str(game.legal_plays()[0])))
    ch.apply(A.Double(box))
    captain, other = ch.line
    assert ch.awaiting().actors == ((captain, ("take", "pass")), (other, ("take", "pass")))
    assert ch.apply(A.Pass(other)) == (E.DoubleAnswered(other, False),)
    assert ch.awaiting().players == (captain,)
    assert ch.apply(A.Take(captain)) == (E.DoubleAnswered(captain, True), E.CubeTaken(TEAM, 2))
    assert ch.games[-1].passed == {other: 1}


def test_consultation_apply_by_captains_and_proposals() -> None:
    """RULES.md 1.8: members propose to their own side; only captains act for the side."""
    sides = (("Ann", "Bob"), ("Cy", "Dee"))
    team = Consultation(sides, Settings(), FixedDice([6, 1]), clock=lambda: 0.0)
    assert team.awaiting().players == ("Ann", "Cy")
    assert refused(team, A.RollOpening("Bob")).code is ErrorCode.NOT_YOUR_TURN
    events = team.apply(A.RollOpening("Cy"))
    assert events[-1] == E.OpeningRolled((6, 1), 0)
    assert set(team.awaiting().players) == {"Ann", "Bob", "Cy", "Dee"}
    assert team.awaiting().kinds("Bob") == ("propose",)
    assert team.apply(A.Propose("Bob", "13/7 8/7")) == (E.Proposed("Bob", 0, "13/7 8/7"),)
    assert refused(team, A.Play("Bob", "13/7 8/7")).code is ErrorCode.NOT_YOUR_TURN
    assert team.apply(A.Play("Ann", "13/7 8/7"))[-1] == E.PlayConfirmed(0, (6, 1), "13/7 8/7")
    assert [p.text for p in team.proposals("Ann")] == ["13/7 8/7"]
    assert team.proposals("Cy") == []
