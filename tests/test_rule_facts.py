"""Rule facts kept once in the core (issue 8, item 5): the scoring of a win, the cube after
each turn, whether the opening roll is played, what each variant can do, and the named
values as StrEnums whose JSON is unchanged."""

from __future__ import annotations

import json

import pytest

from nardy import variant
from nardy.core import actions as A
from nardy.core.dice import FixedDice
from nardy.core.errors import InvalidInputError
from nardy.core.game import RESIGN_LEVELS, CubeAction, EndKind, Game
from nardy.core.position import ResultKind
from nardy.core.scoring import (
    backgammon_value,
    counts_gammons,
    gammon_value,
    level_multiplier,
    level_values,
    multiplier,
    points,
)
from nardy.core.settings import Ending, Opening, Settings
from nardy.engine.errors import EngineError
from nardy.engine.evaluator import terminal_outputs
from nardy.engine.stakes import Stakes


@pytest.mark.parametrize(
    ("settings", "kind", "turned", "expected"),
    [
        (Settings(jacoby=False), ResultKind.SINGLE, False, 1),
        (Settings(jacoby=False), ResultKind.GAMMON, False, 2),
        (Settings(jacoby=False), ResultKind.BACKGAMMON, False, 3),
        (Settings(jacoby=False, backgammon_value=2), ResultKind.BACKGAMMON, False, 2),
        (Settings(jacoby=True), ResultKind.GAMMON, False, 1),  # RULES.md 1.5 Jacoby
        (Settings(jacoby=True), ResultKind.BACKGAMMON, True, 3),
        (Settings(variant="long"), ResultKind.MARS, False, 2),  # RULES.md 3.4
        (Settings(variant="long", ending="oin"), ResultKind.MARS, False, 1),
        (Settings(variant="long"), ResultKind.OIN, False, 1),
    ],
)
def test_one_scoring_rule(
    settings: Settings, kind: ResultKind, turned: bool, expected: int
) -> None:
    """RULES.md 1.4, 1.5, 3.4: what a win of each kind counts, times the cube."""
    resolved = settings.resolve()
    assert multiplier(kind, resolved, cube_turned=turned) == expected
    assert points(kind, 4, resolved, cube_turned=turned) == 4 * expected


def test_the_cube_after_each_turn_is_in_its_record() -> None:
    """RULES.md 1.5: the turn of a taken double records the cube it left, with its owner."""
    game = Game(dice=FixedDice([6, 1, 5, 2]))
    game.apply(A.RollOpening(0))
    game.apply(A.Play(0, "13/7 8/7"))
    game.apply(A.Double(1))
    game.apply(A.Take(0))
    game.apply(A.Roll(1))
    game.apply(A.Play(1, str(game.legal_plays()[0])))
    assert [r.cube_after for r in game.records] == [(1, None), (2, 0)]
    assert game.records[1].cube == (CubeAction.DOUBLE, CubeAction.TAKE)


@pytest.mark.parametrize(
    ("settings", "played"),
    [
        (Settings(), True),
        (Settings(opening="reroll"), False),
        (Settings(variant="acey-deucey"), True),
        (Settings(variant="long"), False),  # RULES.md 3.1: the lot only decides who starts
    ],
)
def test_whether_the_opening_roll_is_played_is_one_fact(settings: Settings, played: bool) -> None:
    resolved = settings.resolve()
    assert resolved.plays_opening_roll is played
    game = Game(resolved, FixedDice([6, 1]))
    game.apply(A.RollOpening(0))
    assert (game.dice is not None) is played


def test_variant_capabilities_are_named_for_what_is_asked() -> None:
    """RULES.md 1, 2, 3: hitting, backgammons, the cube by default, a bar."""
    for key in ("backgammon", "nackgammon", "acey-deucey"):
        v = variant(key)
        assert v.hits and v.has_backgammons and v.uses_cube_by_default and v.has_bar
    long = variant("long")
    assert not (long.hits or long.has_backgammons or long.uses_cube_by_default or long.has_bar)


def test_named_values_are_strenums_with_unchanged_json() -> None:
    settings = Settings(variant="long", ending="oin").resolve()
    assert settings.ending is Ending.OIN and settings.opening is Opening.USE_OPENING_DICE
    assert json.loads(json.dumps(settings.to_dict()))["ending"] == "oin"
    game = Game(first_player=0)
    game.apply(A.Resign(0, 2))
    game.apply(A.Accept(1))
    assert game.result is not None
    assert game.result.kind is EndKind.RESIGN and game.result.level is ResultKind.GAMMON
    assert json.dumps([game.result.kind, game.result.level]) == '["resign", "gammon"]'
    assert game.log[-1].to_json()["result"].__class__ is str


def test_the_variants_are_one_explicit_list() -> None:
    """Every variant is in VARIANTS, found by key and alias; an unknown name is refused."""
    from nardy.core import VARIANTS, UnknownVariantError, variants

    assert [v.key for v in VARIANTS] == [
        "backgammon",
        "nackgammon",
        "nackgammon-ballard",
        "acey-deucey",
        "long",
    ]
    assert variants() == list(VARIANTS)
    for v in VARIANTS:
        assert all(variant(name) is v for name in (v.key, *v.aliases, v.key.upper()))
    with pytest.raises(UnknownVariantError, match="known: acey-deucey, backgammon"):
        variant("chess")


@pytest.mark.parametrize(
    ("settings", "gammons", "backgammon"),
    [
        (Settings(), True, 3),
        (Settings(backgammon_value=2), True, 2),
        (Settings(variant="long"), True, 1),  # RULES.md 3.4: a mars counts 2, no backgammon
        (Settings(variant="long", ending="oin"), False, 1),  # every game counts 1
    ],
)
def test_what_gammons_and_backgammons_count(
    settings: Settings, gammons: bool, backgammon: int
) -> None:
    """RULES.md 1.4, 3.4: the values the engine prices its gammon and backgammon chances by."""
    resolved = settings.resolve()
    assert counts_gammons(resolved) is gammons
    assert gammon_value(resolved) == (2 if gammons else 1)
    assert backgammon_value(resolved) == backgammon
    values = level_values(gammon_value=gammon_value(resolved), backgammon_value=backgammon)
    assert values == (1, 2 if gammons else 1, backgammon)


@pytest.mark.parametrize("level", [0, 4, True, "2"])
def test_a_level_out_of_range_is_refused(level: object) -> None:
    with pytest.raises(InvalidInputError, match="level 1, 2 or 3"):
        level_multiplier(level)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "settings",
    [
        Settings(),
        Settings(jacoby=False, backgammon_value=2),
        Settings(beaver=True),
        Settings(match_length=7),
        Settings(variant="nackgammon", match_length=5, backgammon_value=2),
    ],
)
@pytest.mark.parametrize("owner", [None, 0, 1])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_the_engine_prices_a_resignation_by_the_core_rule(
    settings: Settings, owner: int | None, level: int
) -> None:
    """RULES.md 1.4, 1.5: what the bots and the analysis count a resignation at is what the
    game scores for it (Jacoby: single while the cube is centred, i.e. never turned)."""
    resolved = settings.resolve()
    stakes = Stakes.at(resolved, (0, 0), 0, False, 2, owner)
    expected = multiplier(RESIGN_LEVELS[level], resolved, cube_turned=owner is not None)
    assert stakes.resignation_points(level) == expected
    assert stakes.swap().resignation_points(level) == expected
    with pytest.raises(EngineError, match="not 4"):
        stakes.resignation_points(4)


def test_terminal_outputs_follow_the_level_of_the_win() -> None:
    """RULES.md 1.4, 3.4: a borne-off position's exact outputs: a gammon or mars, a backgammon."""

    def side(**counts: int) -> bytes:
        return bytes(counts.get(f"p{i}", 0) for i in range(26))  # p0: borne off

    off = side(p0=15)
    bg, long = variant("backgammon"), variant("long")
    assert list(terminal_outputs(bg, off, side(p20=15))) == [1, 1, 1, 0, 0]
    assert list(terminal_outputs(bg, off, side(p6=15))) == [1, 1, 0, 0, 0]
    assert list(terminal_outputs(bg, off, side(p0=1, p6=14))) == [1, 0, 0, 0, 0]
    assert list(terminal_outputs(long, off, side(p24=15))) == [1, 1, 0, 0, 0]  # mars
    assert list(terminal_outputs(long, off, side(p0=1, p24=14))) == [1, 0, 0, 0, 0]  # oin
