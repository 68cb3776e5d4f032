"""A chouette session judged (RULES.md 1.7): every participant's own decisions and results.

A chouette record (docs/records.md, "Chouette") is the board game with the box as player 0
and the team as player 1, and a ``chouette`` object saying who was in the box, the team line,
who passed which double of the box, and each participant's settlement. :func:`analyze_chouette`
judges the games of one session as :func:`nardy.engine.analysis.analyze` does and then gives
every judgement to the participant who made the decision:

* the box's plays, cube decisions, rolls and resignations to the box;
* the team's plays, rolls, doubles and resignations to its **captain at that turn** — the
  first of the team line still in the game: a captain who passes a double of the box leaves
  the game and the next member takes over;
* the answer to a double of the box to **each member** who answered it: the members who
  passed at that stake (``passed``) passed, the others in the game took, each judged against
  the same cube decision;
* the result to each participant by his own settlement (in points: a chouette is money play).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from nardy.core import NardyError
from nardy.core.chouette import BOX, TEAM
from nardy.core.game import Game
from nardy.engine.analysis import (
    CheckerPlay,
    CubeAction,
    GameAnalysis,
    PlayerStats,
    ResignationAction,
    Roll,
    analyze,
    answer_action,
)
from nardy.engine.evaluator import Evaluator
from nardy.notation.record import replay

Named = tuple[str, Any]
"""A judgement with the name of the participant it belongs to."""


@dataclass(frozen=True, slots=True)
class ChouetteGameAnalysis:
    """One chouette game judged, each judgement with the participant who made the decision
    (see the module docstring), each participant's settlement and totals."""

    number: int
    box: str
    team: tuple[str, ...]
    """The team line at the start, its first captain first."""
    plays: tuple[tuple[str, CheckerPlay], ...]
    cubes: tuple[tuple[str, CubeAction], ...]
    rolls: tuple[tuple[str, Roll], ...]
    resignations: tuple[tuple[str, ResignationAction], ...]
    settlements: Mapping[str, int]
    game: GameAnalysis
    """The board game judged as a game of two sides, box (0) and team (1)."""
    stats: Mapping[str, PlayerStats]


@dataclass(frozen=True, slots=True)
class ChouetteAnalysis:
    """The games of one chouette session judged, with every participant's totals."""

    participants: tuple[str, ...]
    variant: str
    ply: int
    games: tuple[ChouetteGameAnalysis, ...]
    stats: Mapping[str, PlayerStats]
    seconds: float


def is_chouette(record: Mapping[str, Any]) -> bool:
    """Whether a game record is a chouette game's (it has the ``chouette`` object)."""
    return isinstance(record.get("chouette"), dict)


def analyze_chouette(
    records: Iterable[dict[str, Any]],
    *,
    ply: int = 1,
    ev: Evaluator | None = None,
    jobs: int | None = 1,
    progress: Callable[[int, int], None] | None = None,
) -> ChouetteAnalysis:
    """Judge the games of one chouette session, given as its records in order (one per game,
    as ``nardy play --chouette`` and ``nardy selfplay --chouette`` write them); ``ply``,
    ``jobs`` and ``progress`` as :func:`nardy.engine.analysis.analyze` takes them."""
    began = time.perf_counter()
    records = list(records)
    if not records:
        raise NardyError("no games to analyse")
    lines = [_line(record, i) for i, record in enumerate(records)]
    two_sided = analyze(records, ply=ply, ev=ev, jobs=jobs, progress=progress)
    games = []
    participants: dict[str, None] = {}
    for record, line, judged in zip(records, lines, two_sided.games, strict=True):
        game = replay(record)
        games.append(_attribute(game, judged, *line))
        participants.update(dict.fromkeys((line[0], *line[1])))
    totals = {name: PlayerStats() for name in participants}
    for g in games:
        for name, stats in g.stats.items():
            totals[name].add(stats)
    return ChouetteAnalysis(
        tuple(participants),
        two_sided.variant,
        ply,
        tuple(games),
        totals,
        time.perf_counter() - began,
    )


def _line(
    record: Mapping[str, Any], index: int
) -> tuple[str, tuple[str, ...], dict[str, int], dict[str, int]]:
    """The box, the team line, who passed at which stake, and the settlements of a chouette
    record, checked: a :class:`NardyError` names what is wrong."""
    where = f"game {record.get('game', index + 1)}"
    info = record.get("chouette")
    if not isinstance(info, dict):
        raise NardyError(f"{where}: not a chouette record: it has no 'chouette' object")
    box, team = info.get("box"), info.get("team")
    if not isinstance(box, str) or not (
        isinstance(team, list) and team and all(isinstance(m, str) for m in team)
    ):
        raise NardyError(f"{where}: a chouette record names its 'box' and its 'team' line")
    passed = info.get("passed", {})
    settlements = info.get("settlements", {})
    for key, value in (("passed", passed), ("settlements", settlements)):
        if not (
            isinstance(value, dict)
            and all(isinstance(k, str) and isinstance(v, int) for k, v in value.items())
        ):
            raise NardyError(f"{where}: the chouette's {key!r} maps names to whole numbers")
    unknown = set(passed) - set(team)
    if unknown:
        raise NardyError(f"{where}: {', '.join(sorted(unknown))} passed but not in the team")
    return box, tuple(team), passed, {box: 0, **dict.fromkeys(team, 0), **settlements}


def _attribute(
    game: Game,
    judged: GameAnalysis,
    box: str,
    team: tuple[str, ...],
    passed: Mapping[str, int],
    settlements: Mapping[str, int],
) -> ChouetteGameAnalysis:
    """Give each judgement of a game to its participant (the module docstring)."""
    captains, answers = _lineup(game, team, passed)

    def who(turn: int, side: int) -> str:
        return box if side == BOX else captains[turn]

    cubes: list[tuple[str, CubeAction]] = []
    for c in judged.cubes:
        if c.role == "take" and c.player == TEAM:  # each member answers for himself
            cubes += [
                (member, answer_action(c.turn, TEAM, answer, c.decision, c.unit, c.rollout))
                for member, answer in answers[c.turn]
            ]
        else:
            cubes.append((who(c.turn, c.player), c))
    plays = [(who(p.turn, p.player), p) for p in judged.plays]
    rolls = [(who(r.turn, r.player), r) for r in judged.rolls]
    resignations = [(who(r.turn, r.player), r) for r in judged.resignations]
    stats = {name: PlayerStats() for name in (box, *team)}
    for name, play in plays:
        stats[name].count_play(play)
    for name, cube in cubes:
        stats[name].count_cube(cube)
    for name, roll in rolls:
        stats[name].count_roll(roll)
    for name, resignation in resignations:
        stats[name].count_resignation(resignation)
    for name, amount in settlements.items():
        if name in stats:
            stats[name].result += amount
    return ChouetteGameAnalysis(
        judged.number,
        box,
        team,
        tuple(plays),
        tuple(cubes),
        tuple(rolls),
        tuple(resignations),
        dict(settlements),
        judged,
        stats,
    )


def _lineup(
    game: Game, team: Sequence[str], passed: Mapping[str, int]
) -> tuple[dict[int, str], dict[int, tuple[tuple[str, str], ...]]]:
    """The team's captain at each turn (numbered from 1), and each double of the box with
    every member's answer: the members in the game then who passed at its stake (the cube
    before the double) passed, the others took."""
    in_game = list(team)
    cube = game.start_cube[0] << game.cube.automatic
    captains: dict[int, str] = {}
    answers: dict[int, tuple[tuple[str, str], ...]] = {}
    for turn, record in enumerate(game.records, 1):
        captains[turn] = in_game[0] if in_game else team[0]
        if record.player == BOX and record.cube[:1] == ("double",):
            out = {m for m in in_game if passed.get(m) == cube}
            answers[turn] = tuple((m, "pass" if m in out else "take") for m in in_game)
            in_game = [m for m in in_game if m not in out]
        if "take" in record.cube:
            cube *= 2
    return captains, answers
