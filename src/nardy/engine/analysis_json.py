"""The analysis as JSON: what ``nardy hint``, ``eval``, ``rollout`` and ``analyze`` print with
``--format json``, written here, beside the analysis, so that any program (the command line,
a server) gives the same documents (docs/analysis.md, "JSON").

Keys are lowercase and hyphenated; a value that does not apply is null, never left out; a
number is rounded to 6 places (:func:`number`).
"""

from __future__ import annotations

import math
from typing import Any

from nardy.core import Position
from nardy.engine.analysis import (
    Analysis,
    CheckerPlay,
    CubeAction,
    PlayerStats,
    RankedPlay,
    ResignationAction,
    Roll,
    cube_action_key,
    cube_ply,
)
from nardy.engine.chouette_analysis import ChouetteAnalysis
from nardy.engine.cube import CubeDecision, Owner
from nardy.engine.features import F32
from nardy.engine.rollout import RolloutResult, difference, unpaired_error
from nardy.engine.stakes import Stakes
from nardy.notation import position_id

OWNERS = {Owner.CENTRED: "centred", Owner.ME: "X", Owner.OPPONENT: "O"}
"""Who holds the cube, as the commands name him: X is the side on roll."""


def context_json(position: Position, stakes: Stakes) -> dict[str, Any]:
    """The position and what the game is played for, the same keys in every situation:
    ``match-length`` 0 and ``score`` ``[0, 0]`` for money, ``jacoby`` and ``beavers`` false
    in a match; ``score`` is ``[X, O]`` and ``cube-owner`` ``"centred"``, ``"X"`` or ``"O"``."""
    m = stakes.match
    return {
        "position": position_id(position),
        "variant": position.variant.key,
        "match-length": 0 if m is None else m.length,
        "score": [0, 0] if m is None else [m.score_me, m.score_opp],
        "crawford": m is not None and m.crawford_game,
        "jacoby": m is None and stakes.money.jacoby,
        "beavers": m is None and stakes.money.beaver,
        "cube": stakes.cube,
        "cube-owner": OWNERS[stakes.owner],
        "cube-in-use": stakes.money.cube if m is None else m.cube,
    }


def number(x: float | None) -> float | None:
    """A number for JSON: rounded to 6 places, None (null) where there is none, or NaN."""
    return None if x is None or math.isnan(x) else round(x, 6) + 0.0  # + 0.0: no -0.0


def outputs_json(outputs: F32) -> dict[str, float | None]:
    keys = ("win", "win-gammon", "win-backgammon", "lose-gammon", "lose-backgammon")
    return {k: number(float(x)) for k, x in zip(keys, outputs, strict=True)}


def hint_json(
    position: Position,
    stakes: Stakes,
    dice: tuple[int, int],
    ply: int,
    ranked: list[RankedPlay],
    shown: list[RankedPlay],
) -> dict[str, Any]:
    """``nardy hint``'s plays of a roll: the context, the dice, the ply, how many legal
    plays there are, and the ``shown`` ones of ``ranked`` with their equities, match
    winning chances, differences from the best and chances."""
    best = ranked[0].equity
    return {
        **context_json(position, stakes),
        "dice": list(dice),
        "ply": ply,
        "legal-plays": len(ranked),
        "plays": [
            {
                "play": str(r.play),
                "ply": r.ply,
                "equity": number(r.equity),
                "mwc": number(r.mwc),
                "difference": number(r.equity - best),
                **outputs_json(r.outputs),
            }
            for r in shown
        ],
    }


def cube_json(
    position: Position,
    stakes: Stakes,
    ply: int,
    outputs: F32,
    d: CubeDecision,
    *,
    answering: bool = False,
) -> dict[str, Any]:
    """A cube decision as JSON, the same keys whoever decides: X's cubeless equity and
    chances; his cubeful equities (``cubeful``; ``cubeful-mwc``, match winning chances, in
    a match, else null) by the stable keys ``no-double``, ``double-take``, ``double-pass``,
    ``double-beaver`` (null where there is no such action); O's for his answers to a double
    (``answers``: ``take``, ``pass``, ``beaver``; null where X cannot double); whose
    decision it is (``decision``: ``"double"``, X's, or ``"take"``, O's answer to a double
    made: ``answering``) and its proper action (``action``, a stable key; ``proper``, in
    words)."""

    def negated(x: float | None) -> float | None:
        return None if x is None else -x

    can_double = d.double_take is not None
    answers = (d.double_take, d.double_pass, d.double_beaver)
    return {
        **context_json(position, stakes),
        "ply": cube_ply(ply),
        "decision": "take" if answering else "double",
        "equity": number(stakes.equity(outputs)),
        "mwc": number(stakes.mwc(outputs)),
        **outputs_json(outputs),
        **cubeful_json(d, stakes.match is not None),
        "answers": (
            dict(zip(ANSWERS, map(number, map(negated, answers)), strict=True))
            if can_double
            else None
        ),
        "action": str(d.response) if answering else cube_action_key(d),
        "proper": str(d.response) if answering else d.text,
        "take-point": number(d.take_point),
    }


CUBEFUL = ("no-double", "double-take", "double-pass", "double-beaver")
"""The keys of the doubler's cubeful equities in JSON, whatever the situation."""
ANSWERS = ("take", "pass", "beaver")
"""The keys of the doubled player's equities in JSON."""


def cubeful_json(d: CubeDecision, match: bool) -> dict[str, Any]:
    """The doubler's cubeful equities by the keys of :data:`CUBEFUL` (``cubeful``; null
    where there is no such action) and, in a ``match``, their match winning chances
    (``cubeful-mwc``, without the beaver, which a match does not have; null for money)."""
    values = (d.no_double, d.double_take, d.double_pass, d.double_beaver)
    mwcs = (d.mwc_no_double, d.mwc_double_take, d.mwc_double_pass)
    return {
        "cubeful": dict(zip(CUBEFUL, map(number, values), strict=True)),
        "cubeful-mwc": dict(zip(CUBEFUL, map(number, mwcs), strict=False)) if match else None,
    }


def rollout_json(result: RolloutResult) -> dict[str, Any]:
    """A rollout's mean equity and chances with their standard errors."""
    return {
        "equity": number(result.equity),
        "equity-error": number(result.equity_error),
        **outputs_json(result.outputs),
        "errors": [number(float(x)) for x in result.errors],
    }


def difference_json(result: RolloutResult, best: RolloutResult) -> dict[str, Any]:
    """A play's equity minus the best play's, with its paired standard error (from the
    game-by-game differences) and the error were the games independent; for the best
    itself 0 and no errors."""
    if result is best:
        return {"difference": 0.0, "difference-error": None, "difference-error-unpaired": None}
    gap, error = difference(result, best)
    return {
        "difference": number(gap),
        "difference-error": number(error),
        "difference-error-unpaired": number(unpaired_error(result, best)),
    }


def _keys(counts: dict[str, int]) -> dict[str, int]:
    return {name.replace(" ", "-"): n for name, n in counts.items()}


def stats_json(s: PlayerStats, *, cube: bool = True) -> dict[str, Any]:
    """A player's totals (:class:`~nardy.engine.analysis.PlayerStats`); without the cube's
    where the game had none (``cube`` False)."""
    cube_totals = {
        "cube-decisions": s.cube_decisions,
        "cube-marked": _keys(s.cube_marked),
        "cube-error": number(s.cube_error),
        "cube-error-value": number(s.cube_value),
        "cube-error-rate": number(s.cube_rate),
    }
    return {
        "moves": s.moves,
        "unforced": s.unforced,
        "marked": _keys(s.marked),
        "checker-error": number(s.checker_error),
        "checker-error-value": number(s.checker_value),
        "checker-error-rate": number(s.checker_rate),
        **(cube_totals if cube else {}),
        "resignations": s.resignations,
        "resign-marked": _keys(s.resign_marked),
        "resign-error": number(s.resign_error),
        "resign-error-value": number(s.resign_value),
        "error-rate": number(s.error_rate),
        "rating": s.rating,
        "rolls": s.rolls,
        "luck": number(s.luck),
        "luck-value": number(s.luck_value),
        "luck-rate": number(s.luck_rate),
        "luck-rating": s.luck_rating,
        "lucky": _keys(s.lucky),
        "result": number(s.result),
    }


def play_json(p: CheckerPlay) -> dict[str, Any]:
    """One checker play judged."""
    return {
        "turn": p.turn,
        "player": p.player,
        "dice": list(p.dice),
        "position": p.position,
        "played": p.played,
        "best": p.best,
        "played-equity": number(p.played_equity),
        "best-equity": number(p.best_equity),
        "loss": number(p.loss),
        "ply": p.ply,
        "rollout": p.rollout or None,
        "choices": p.choices,
        "mark": p.skill,
    }


def cube_action_json(c: CubeAction, match: bool) -> dict[str, Any]:
    """One cube decision judged, with the doubler's cubeful equities (and, in a ``match``,
    their match winning chances)."""
    return {
        "turn": c.turn,
        "player": c.player,
        "role": c.role,
        "action": c.action,
        "proper": c.proper,
        "proper-action": c.proper_key,
        **cubeful_json(c.decision, match),
        "loss": number(c.loss),
        "rollout": c.rollout or None,
        "close": c.close,
        "mark": c.skill,
    }


def resignation_json(r: ResignationAction) -> dict[str, Any]:
    """One resignation judged, offer or answer."""
    return {
        "turn": r.turn,
        "player": r.player,
        "role": r.role,
        "level": r.level,
        "after-roll": r.after_roll,
        "action": r.action,
        "proper": r.proper,
        "offered": number(r.offered),
        "play-on": number(r.play_on),
        "loss": number(r.loss),
        "mark": r.skill,
    }


def roll_json(r: Roll) -> dict[str, Any]:
    """One roll's luck."""
    return {
        "turn": r.turn,
        "player": r.player,
        "dice": list(r.dice),
        "luck": number(r.luck),
        "mark": r.mark,
    }


def analysis_json(a: Analysis) -> dict[str, Any]:
    """The analysis as a JSON object: every play, cube decision and roll, and the totals.
    Keys are lowercase and hyphenated, the marks' too ("very-bad", "very-lucky"). ``cube``
    says whether the games had the doubling cube; without it, no key speaks of the cube
    (no game's ``cube`` or ``cube-decisions``, no ``cube-…`` totals)."""
    match = bool(a.match_length)
    cube = bool(a.settings.cube)

    games = [
        {
            "game": g.number,
            "score": list(g.score),
            "winner": g.winner,
            "points": g.points,
            "kind": g.kind,
            **({"cube": g.cube} if cube else {}),
            "plays": [play_json(p) for p in g.plays],
            **({"cube-decisions": [cube_action_json(c, match) for c in g.cubes]} if cube else {}),
            "resignations": [resignation_json(r) for r in g.resignations],
            "rolls": [roll_json(r) for r in g.rolls],
            "stats": [stats_json(s, cube=cube) for s in g.stats],
        }
        for g in a.games
    ]
    return {
        "players": list(a.players),
        "variant": a.variant,
        "cube": cube,
        "match-length": a.match_length,
        "value-unit": value_unit(a),
        "ply": a.ply,
        "seconds": round(a.seconds, 3),
        "games": games,
        "stats": [stats_json(s, cube=cube) for s in a.stats],
        "luck-adjusted": [number(x) for x in a.luck_adjusted],
    }


def chouette_json(a: ChouetteAnalysis) -> dict[str, Any]:
    """A chouette session's analysis as a JSON object: as :func:`analysis_json`'s, with
    ``chouette`` true, the ``participants``, and each game's ``box``, ``team`` line and
    ``settlements``; every play, cube decision, resignation and roll carries the ``name`` of
    the participant it belongs to (``player`` stays the side: 0 the box, 1 the team), a
    team's answer to a double of the box comes once per member, and ``stats`` are by
    name."""

    def named(name: str, doc: dict[str, Any]) -> dict[str, Any]:
        return {"name": name, **doc}

    return {
        "chouette": True,
        "participants": list(a.participants),
        "variant": a.variant,
        "match-length": 0,
        "value-unit": "points",
        "ply": a.ply,
        "seconds": round(a.seconds, 3),
        "games": [
            {
                "game": g.number,
                "box": g.box,
                "team": list(g.team),
                "winner": g.game.winner,
                "points": g.game.points,
                "kind": g.game.kind,
                "cube": g.game.cube,
                "settlements": dict(g.settlements),
                "plays": [named(n, play_json(p)) for n, p in g.plays],
                "cube-decisions": [named(n, cube_action_json(c, False)) for n, c in g.cubes],
                "resignations": [named(n, resignation_json(r)) for n, r in g.resignations],
                "rolls": [named(n, roll_json(r)) for n, r in g.rolls],
                "stats": {name: stats_json(s) for name, s in g.stats.items()},
            }
            for g in a.games
        ],
        "stats": {name: stats_json(s) for name, s in a.stats.items()},
    }


def value_unit(a: Analysis) -> str:
    """What priced errors, luck and results are in: "MWC" in a match, "points" for money."""
    return "MWC" if a.match_length else "points"


def eval_json(position: Position, stakes: Stakes, ply: int, outputs: F32) -> dict[str, Any]:
    """``nardy eval``: the context, the ply, and the side on roll's equity (EMG in a match,
    with its match winning chance) and chances."""
    return {
        **context_json(position, stakes),
        "ply": ply,
        "equity": number(stakes.equity(outputs)),
        "mwc": number(stakes.mwc(outputs)),
        **outputs_json(outputs),
    }
