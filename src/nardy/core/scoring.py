"""What a won game scores (RULES.md 1.4, 1.5, 3.4): the one rule that the game, the bots,
the ``.mat`` reader and the analysis use.

A single (or oin) counts once the cube, a gammon twice, a backgammon ``backgammon-value``
times; in long nardy a mars counts twice with ``ending=mars`` and once with ``ending=oin``.
With the Jacoby rule (money play), gammons and backgammons count single while nobody has
turned the cube (an automatic double does not count as turning it).

A win has a *level*: 1 a single (an oin), 2 a gammon (a mars), 3 a backgammon; the levels
are what a player resigns at and what the net's gammon and backgammon outputs stand for.
:func:`level_multiplier` scores a level from the bare rule values, for the engine, which
knows a game by its money rules or match state; :func:`multiplier` scores a result kind
under the game's settings.
"""

from __future__ import annotations

from nardy.core.errors import InvalidInputError
from nardy.core.position import ResultKind
from nardy.core.settings import Ending, Settings

LEVELS: dict[ResultKind, int] = {
    ResultKind.SINGLE: 1,
    ResultKind.OIN: 1,
    ResultKind.GAMMON: 2,
    ResultKind.MARS: 2,
    ResultKind.BACKGAMMON: 3,
}
"""The level of a win of each kind: 1 a single or oin, 2 a gammon or mars, 3 a backgammon."""


def level_values(*, gammon_value: int = 2, backgammon_value: int = 3) -> tuple[int, int, int]:
    """What a win of level 1, 2 and 3 counts, times the cube, without the Jacoby rule."""
    return (1, gammon_value, backgammon_value)


def level_multiplier(
    level: int,
    *,
    gammon_value: int = 2,
    backgammon_value: int = 3,
    jacoby: bool = False,
    cube_turned: bool = True,
) -> int:
    """How many times the cube a win of ``level`` (1, 2 or 3) scores: under the Jacoby rule
    a gammon or backgammon counts single while the cube has not been turned."""
    if isinstance(level, bool) or level not in (1, 2, 3):
        raise InvalidInputError(f"a win is of level 1, 2 or 3, not {level!r}")
    times = level_values(gammon_value=gammon_value, backgammon_value=backgammon_value)
    if jacoby and not cube_turned:
        return 1
    return times[level - 1]


def gammon_value(settings: Settings) -> int:
    """What a gammon (or mars) counts under ``settings``, cube aside: 2, but 1 for long
    nardy's mars with ``ending=oin``, where every game counts one stake (RULES.md 3.4)."""
    oin = settings.ending == Ending.OIN and not settings.rules.has_backgammons
    return 1 if oin else 2


def backgammon_value(settings: Settings) -> int:
    """What a backgammon counts under ``settings``, cube aside: the ``backgammon-value``
    setting where the variant has backgammons, 1 where it has none (long nardy, whose
    engine outputs for a backgammon then add nothing above a win)."""
    return settings.backgammon_value if settings.rules.has_backgammons else 1


def counts_gammons(settings: Settings) -> bool:
    """Whether a game under ``settings`` counts gammons (marses, backgammons) above a single:
    not in long nardy with ``ending=oin``, where every result is one stake (RULES.md 3)."""
    return gammon_value(settings) > 1


def multiplier(kind: ResultKind, settings: Settings, *, cube_turned: bool) -> int:
    """How many times the cube a win of ``kind`` scores under ``settings``."""
    return level_multiplier(
        LEVELS[kind],
        gammon_value=gammon_value(settings),
        backgammon_value=backgammon_value(settings),
        jacoby=bool(settings.jacoby),
        cube_turned=cube_turned,
    )


def points(kind: ResultKind, cube: int, settings: Settings, *, cube_turned: bool) -> int:
    """The points a win of ``kind`` scores with the cube at ``cube``."""
    return multiplier(kind, settings, cube_turned=cube_turned) * cube
