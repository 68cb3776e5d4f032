"""What a won game scores (RULES.md 1.4, 1.5, 3.4): the one rule that the game, the bots,
the ``.mat`` reader and the analysis use.

A single (or oin) counts once the cube, a gammon twice, a backgammon ``backgammon-value``
times; in long nardy a mars counts twice with ``ending=mars`` and once with ``ending=oin``.
With the Jacoby rule (money play), gammons and backgammons count single while nobody has
turned the cube (an automatic double does not count as turning it).
"""

from __future__ import annotations

from nardy.core.position import ResultKind
from nardy.core.settings import Ending, Settings


def multiplier(kind: ResultKind, settings: Settings, *, cube_turned: bool) -> int:
    """How many times the cube a win of ``kind`` scores under ``settings``."""
    times = {
        ResultKind.SINGLE: 1,
        ResultKind.GAMMON: 2,
        ResultKind.BACKGAMMON: settings.backgammon_value,
        ResultKind.OIN: 1,
        ResultKind.MARS: 2 if settings.ending == Ending.MARS else 1,
    }[kind]
    if settings.jacoby and not cube_turned:
        return min(times, 1)
    return times


def points(kind: ResultKind, cube: int, settings: Settings, *, cube_turned: bool) -> int:
    """The points a win of ``kind`` scores with the cube at ``cube``."""
    return multiplier(kind, settings, cube_turned=cube_turned) * cube
