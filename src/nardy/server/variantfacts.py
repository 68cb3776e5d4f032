"""The rule facts of a variant that a client needs to draw and explain a game, in wire form.

A client draws the board from these and never from the variant's name: how the opponent
numbers the points (backgammon's sides mirror each other, long nardy's sides are half a turn
apart and travel the same way), the head, whether blots are hit and a bar exists, whether
checkers start outside the board (acey-deucey), whether the cube is on by default, and what
a player may resign.
"""

from __future__ import annotations

import functools
from typing import Any

from nardy.core.position import BAR, CHECKERS, OFF
from nardy.core.variant import Variant
from nardy.core.variants import variant, variants


def facts(v: Variant) -> dict[str, Any]:
    """``{"key", "checkers", "start", "opponent-points", "head", "hits", "bar",
    "enters-from-outside", "cube-by-default", "resign-levels"}``: ``opponent-points[p]`` is
    the viewer's number of the opponent's point p (0 = off and 25 = the bar stay as they
    are); ``checkers`` is how
    many each side has (those not on the board yet, where they enter from outside, are the
    ones missing from its counts); ``start`` is each side's 26 counts at the start of a game,
    in its own numbering, which a board shows before the first roll."""
    return {
        "key": v.key,
        "checkers": CHECKERS,
        "start": [v.start_points.get(p, 0) for p in range(OFF, BAR + 1)],
        "opponent-points": [OFF, *(v.opponent_point(p) for p in range(1, 25)), BAR],
        "head": v.head,
        "hits": v.hits,
        "bar": v.has_bar,
        "enters-from-outside": v.enters_from_outside,
        "cube-by-default": v.uses_cube_by_default,
        "resign-levels": [str(kind) for kind in v.resignation_levels],
    }


def facts_of(name: str) -> dict[str, Any]:
    """The facts of the variant a game's settings name: a room's state carries them after
    every action, so they are worked out once per variant (:func:`_known`) and each caller
    gets its own copy to keep or change."""
    return {
        key: list(value) if isinstance(value, list) else value
        for key, value in _known(name).items()
    }


@functools.cache
def _known(name: str) -> dict[str, Any]:
    # Never handed out (facts_of copies it): the variants are fixed for the process's life.
    return facts(variant(name))


def every_variant() -> list[dict[str, Any]]:
    """The facts of every variant, in the registry's order (what a lobby offers)."""
    return [facts(v) for v in variants()]
