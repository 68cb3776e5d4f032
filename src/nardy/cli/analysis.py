"""``nardy hint``, ``eval``, ``rollout`` and ``analyze``: the bot's analysis on the command line.

nardy hint POSITION [D1 D2]     the plays of a roll ranked; without dice or with --cube, the
                                cube decision before the roll; with a double pending in
                                POSITION, the doubled player's take or pass
nardy eval POSITION             the side on roll's probabilities and cubeless equity
nardy rollout POSITION [D1 D2]  the position (or the best plays of a roll) rolled out
nardy analyze FILE              every play of a game record (JSON) or .mat match judged

POSITION is anything ``nardy show`` reads (a Position ID, ``PositionID:MatchID`` or an XGID);
the dice of an XGID or Match ID are used when no dice are given. Options may come anywhere on
the line (``nardy.cli.main``). Errors are printed as
``nardy COMMAND: error: …`` with exit status 2. See docs/analysis.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO, TypeVar

from nardy.cli.engine import context_stakes, read_position
from nardy.cli.files import read_input
from nardy.cli.options import die
from nardy.cli.records import group_matches, replay_failure
from nardy.cli.selfplay import Progress
from nardy.cli.words import conjugate, counted, dice_text
from nardy.core import NardyError, NotationError, Position, Variant, variants
from nardy.engine.analysis import (
    CONFIRM_GAMES,
    CONFIRM_LONGER,
    CONFIRM_TRUNCATE,
    CUBE_GAMES,
    CUBE_TRUNCATE,
    DEFAULT_PLY,
    SKILLS,
    Analysis,
    CheckerPlay,
    CubeAction,
    GameAnalysis,
    PlayerStats,
    RankedPlay,
    ResignationAction,
    Roll,
    analyze,
    cube_analysis,
    cube_ply,
    evaluate,
    load_evaluator,
    rank_plays,
    ranking,
)
from nardy.engine.analysis_json import (
    OWNERS,
    analysis_json,
    chouette_json,
    cube_json,
    difference_json,
    eval_json,
    hint_json,
    rollout_json,
    value_unit,
)
from nardy.engine.chouette_analysis import ChouetteAnalysis, analyze_chouette, is_chouette
from nardy.engine.cube import CubeDecision, Owner
from nardy.engine.evaluator import MAX_PLY
from nardy.engine.features import F32
from nardy.engine.rollout import (
    STRATUM,
    Z95,
    RolloutInterrupted,
    RolloutResult,
    difference,
    rollout_processes,
    rollouts,
    unpaired_error,
)
from nardy.engine.stakes import Stakes
from nardy.notation import parse_position, position_id
from nardy.notation.context import Context
from nardy.notation.mat import import_mat
from nardy.notation.record import parse_records
from nardy.notation.xgid import CubeAction as XgidCubeAction

ROLLOUT_GAMES = 9 * STRATUM
"""``nardy rollout``'s default: nine times each first roll, about a minute of one core per
play with truncation after 10 plays and variance reduction."""
COLUMNS = ("Win", "W(g)", "W(bg)", "Lose", "L(g)", "L(bg)")
"""The five probabilities as GNU Backgammon heads them, with the losses' total."""
_Bar = TypeVar("_Bar", bound=Progress)
INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (128 + SIGINT, as shells report it)."""


def add_parsers(subparsers: Any) -> None:
    """Register ``nardy hint``, ``eval``, ``rollout`` and ``analyze``."""
    hint = subparsers.add_parser(
        "hint",
        help="rank the plays of a roll with equities and probabilities",
        description="Rank every legal play of a roll by the net's cubeless equity, best first, "
        "with the win, gammon and backgammon chances of the side that plays; at 1-ply (the "
        "default) the best few (at most 4, within 0.08 of the best) are valued again at "
        "2-ply and listed first. Without dice "
        "(given or in the XGID / Match ID), or with --cube, give the cube decision before "
        "the roll; with a double pending in the XGID / Match ID, the doubled player's take "
        "or pass.",
    )
    _position_arguments(hint, dice=True)
    _ply_argument(hint, DEFAULT_PLY)
    hint.add_argument("--top", type=_positive, default=10, metavar="N", help="plays shown (10)")
    hint.add_argument(
        "--cube",
        action="store_true",
        help="the cube decision before the roll, even where the XGID / Match ID has dice",
    )
    hint.add_argument(
        "--named",
        action="store_true",
        help="acey-deucey: the dice are the double named after a 1-2 (played in full, "
        "the player rolls again), not a rolled double",
    )
    _format_argument(hint)
    hint.set_defaults(handler=_guarded("hint", run_hint))

    ev = subparsers.add_parser(
        "eval",
        help="the probabilities and cubeless equity of the side on roll",
        description="Evaluate a position before the roll: the side on roll's chances to win, "
        "win a gammon and a backgammon, lose a gammon and a backgammon, and its cubeless "
        "money equity.",
    )
    _position_arguments(ev, dice=False)
    _ply_argument(ev, DEFAULT_PLY)
    _format_argument(ev)
    ev.set_defaults(handler=_guarded("eval", run_eval))

    roll = subparsers.add_parser(
        "rollout",
        help="roll a position (or the best plays of a roll) out",
        description="Estimate a position's cubeless value by playing it out many times with "
        "the net, on every core, with stratified dice and luck-based variance reduction. "
        "With dice, roll out the best plays of that roll (as ranked at 0-ply) with the same "
        "dice for each.",
    )
    _position_arguments(roll, dice=True)
    roll.add_argument(
        "--games",
        type=_positive,
        default=ROLLOUT_GAMES,
        metavar="N",
        help=f"games ({ROLLOUT_GAMES}; 1296 stratifies the first two rolls fully)",
    )
    roll.add_argument(
        "--truncate",
        type=_count,
        default=10,
        metavar="N",
        help="end each game after N plays, valued there by the net (10; 0: play to the end)",
    )
    roll.add_argument("--seed", type=_count, default=0, help="seed of the dice (0)")
    roll.add_argument(
        "--jobs",
        type=_positive,
        default=os.cpu_count() or 1,
        metavar="N",
        help="processes (every core)",
    )
    _ply_argument(roll, 0, what="the plays inside the rollout")
    roll.add_argument(
        "--no-reduction", action="store_true", help="no luck-based variance reduction"
    )
    roll.add_argument("--top", type=_positive, default=3, metavar="N", help="plays rolled out (3)")
    _progress_argument(roll)
    _format_argument(roll)
    roll.set_defaults(handler=_guarded("rollout", run_rollout))

    an = subparsers.add_parser(
        "analyze",
        help="judge every play of a game record or .mat match",
        description="Judge every checker play, cube decision and resignation of the games "
        "in FILE — JSON game records (one per line, as 'nardy selfplay' and 'nardy play' "
        "write them, or one JSON object or array) or a GNU Backgammon .mat match — against "
        "the best one (at 1-ply, the default, the best few and the play made again at 2-ply), "
        "and measure each roll's luck; print the errors and each player's "
        "error rate, rating (GNU Backgammon's) and luck. A chouette's games are one session, "
        "each participant judged on his own decisions.",
    )
    an.add_argument("file", metavar="FILE", help="FILE.jsonl, FILE.json or FILE.mat ('-': stdin)")
    _ply_argument(an, DEFAULT_PLY, what="the checker-play and cube analysis")
    an.add_argument(
        "--jobs",
        type=_positive,
        default=os.cpu_count() or 1,
        metavar="N",
        help="processes (every core)",
    )
    an.add_argument(
        "--all", action="store_true", help="list every play, not only the doubtful or worse"
    )
    _progress_argument(an)
    _format_argument(an)
    an.set_defaults(handler=_guarded("analyze", run_analyze))


def _position_arguments(parser: argparse.ArgumentParser, *, dice: bool) -> None:
    names = sorted(v.key for v in variants())
    parser.add_argument("--variant", default="backgammon", help=f"one of {names}")
    parser.add_argument("position", metavar="POSITION")
    if dice:
        parser.add_argument("d1", nargs="?", type=die, metavar="D1")
        parser.add_argument("d2", nargs="?", type=die, metavar="D2")


def _ply_argument(
    parser: argparse.ArgumentParser, default: int, what: str = "the evaluation"
) -> None:
    parser.add_argument(
        "--ply",
        type=int,
        choices=range(MAX_PLY + 1),
        default=default,
        help=f"the lookahead of {what}, 0-{MAX_PLY} ({default}"
        + ("; the same in hint, eval and analyze" if default == DEFAULT_PLY else "")
        + ")",
    )


def _format_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=["text", "json"], default="text")


def _progress_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress",
        action="store_true",
        help="show the progress bar on standard error even when it is not a terminal",
    )


def _positive(text: str) -> int:
    if not (text.isdigit() and int(text) > 0):
        raise argparse.ArgumentTypeError(f"expected a positive number, not {text!r}")
    return int(text)


def _count(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a number 0 or more, not {text!r}")
    return int(text)


def _guarded(
    command: str, run: Callable[[argparse.Namespace], int]
) -> Callable[[argparse.Namespace], int]:
    """``run``, with bad input reported as ``nardy COMMAND: error: …`` and exit status 2."""

    def guarded(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except KeyboardInterrupt:
            # Ctrl-C: stop without a traceback (the worker processes ignore it and go with
            # their pool); a command that has something to show has shown it already.
            print(f"\nnardy {command}: interrupted", file=sys.stderr)
            return INTERRUPTED
        except BrokenPipeError:
            raise  # the reader went away: ``nardy.cli.main`` stops quietly
        except (NardyError, OSError, UnicodeDecodeError) as exc:
            message = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            if isinstance(exc, OSError) and exc.filename:
                message = f"{exc.filename}: {message}"
            print(f"nardy {command}: error: {message}", file=sys.stderr)
            return 2

    return guarded


# -- positions, dice and stakes --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Situation:
    """What POSITION and the command line say: the checkers (X on roll), the dice (the ones
    given, else the XGID's or Match ID's, if any), what the game is played for (money with a
    centred cube unless the ID says otherwise), and a cube action waiting for an answer:
    ``"D"`` when X has doubled and O must take or pass (an XGID's cube action, a Match ID's
    doubled flag), ``"B"``/``"R"`` for an XGID's beaver or raccoon, ``""`` for none."""

    position: Position
    dice: tuple[int, int] | None
    stakes: Stakes
    pending: str = ""


def _situation(args: argparse.Namespace) -> Situation:
    """The :class:`Situation` of the command line's POSITION and dice."""
    position = parse_position(args.position, args.variant)
    d1, d2 = getattr(args, "d1", None), getattr(args, "d2", None)
    if d1 is not None and d2 is None:
        raise NardyError("give both dice, D1 D2")
    situation = _context(position, args.position)
    if d1 is not None and d2 is not None:
        situation = replace(situation, dice=(d1, d2))
    return situation


def _context(position: Position, text: str) -> Situation:
    """What an XGID or a ``PositionID:MatchID`` says beyond the checkers, from the side on
    roll: the cube, the score or money rules, the dice and a pending double (read as
    ``nardy engine`` reads it)."""
    text = text.strip()
    if text.upper().startswith("XGID=") or ":" in text:
        ctx = read_position(text, position.variant)
    else:  # a bare Position ID: money play with the variant's default rules
        ctx = Context(position)
    try:
        stakes = context_stakes(ctx)
    except ValueError as exc:
        raise NardyError(f"cannot analyse this score: {exc}") from None
    return Situation(position, ctx.dice, stakes, ctx.cube_action)


def _describe(stakes: Stakes, v: Variant) -> str:
    """What the game is played for, in words: money or the match score, and the cube (or
    why there is none)."""
    owner = "centred" if stakes.owner is Owner.CENTRED else f"{OWNERS[stakes.owner]}'s"
    cube = f"cube {stakes.cube} {owner}"
    m = stakes.match
    if not (stakes.money.cube if m is None else m.cube):
        cube = "no cube"
        if not v.uses_cube_by_default:
            cube += f" ({v.name} is played without it unless the settings turn it on)"
    if m is None:
        rules = [("Jacoby", stakes.money.jacoby), ("beavers", stakes.money.beaver)]
        used = [name for name, on in rules if on]
        return f"money play{' (' + ', '.join(used) + ')' if used else ''}, {cube}"
    crawford = ", Crawford game" if m.crawford_game else ""
    return f"{m.length}-point match, X {m.score_me} - O {m.score_opp}{crawford}, {cube}"


def _fixed(x: float, spec: str) -> str:
    """``x`` formatted by ``spec`` (``"+.3f"``, ``"5.1f"`` …), never as a negative zero."""
    text = format(x, spec)
    return format(0.0, spec) if text.lstrip().startswith("-") and float(text) == 0 else text


def _percent(p: float) -> str:
    return _fixed(100 * p, "5.1f")


def _probabilities(outputs: F32) -> list[str]:
    """Win, W(g), W(bg), Lose, L(g), L(bg) in percent."""
    win, wg, wbg, lg, lbg = (float(x) for x in outputs)
    return [_percent(x) for x in (win, wg, wbg, 1 - win, lg, lbg)]


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int = 2) -> str:
    """Columns sized to fit, the first ``left`` aligned left and the rest right."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        cells = [
            str(c).ljust(w) if i < left else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        return ("  " + "  ".join(cells)).rstrip()

    return "\n".join(line(r) for r in [header, *rows])


def _title(position: Position, text: str) -> str:
    return f"{text} in {position_id(position)} ({position.variant.name})"


def _equity_label(stakes: Stakes) -> str:
    if stakes.match is None:
        return "cubeless money equity"
    return "cubeless EMG at this score (MWC: match winning chance)"


# -- hint and eval ---------------------------------------------------------------------------------


def run_hint(args: argparse.Namespace) -> int:
    """``nardy hint``: the plays of a roll ranked; without dice, with ``--cube`` or with a
    double waiting for an answer, the cube decision."""
    s = _situation(args)
    if s.pending:
        if args.d1 is not None:
            raise NardyError("X has doubled and O must take or pass first: no dice yet")
        return _show_answer(args, s)
    if args.cube:
        if args.d1 is not None:
            raise NardyError("--cube is the decision before the roll: give no dice with it")
        return _show_cube(args, s)
    if s.dice is None:
        return _show_cube(args, s)
    position, dice, stakes = s.position, s.dice, s.stakes
    named = bool(args.named)
    if named and not (position.variant.earns_chosen_double(1, 2) and dice[0] == dice[1]):
        raise NardyError("--named is for acey-deucey's double named after a 1-2: give D D")
    ranked = ranking(position, *dice, args.ply, stakes=stakes, chosen=named)
    shown = ranked[: args.top]
    if args.format == "json":
        print(json.dumps(hint_json(position, stakes, dice, args.ply, ranked, shown), indent=1))
        return 0
    best = ranked[0].equity
    rows = []
    for i, r in enumerate(shown, 1):
        mwc = [] if r.mwc is None else [f"{100 * r.mwc:.1f}%"]
        rows.append(
            [
                f"{i}.",
                str(r.play) or "(no legal move)",
                str(r.ply),
                _fixed(r.equity, "+.3f"),
                *mwc,
                "" if i == 1 else _fixed(r.equity - best, "+.3f"),
                *_probabilities(r.outputs),
            ]
        )
    mwc_column = [] if stakes.match is None else ["MWC"]
    header = ["#", "Play", "Ply", "Equity", *mwc_column, "Diff", *COLUMNS]
    plays = counted(len(ranked), "legal play")
    print(
        _title(position, f"X to play {dice_text(dice)}")
        + f": {plays}; {_describe(stakes, position.variant)}"
    )
    print(f"X's {_equity_label(stakes)} after each play; chances in %")
    print()
    print(_table(header, rows))
    if len(ranked) > len(shown):
        print(f"  … {len(ranked) - len(shown)} more (--top)")
    return 0


def _cube_document(s: Situation, ply: int, outputs: F32, d: CubeDecision) -> dict[str, Any]:
    """The JSON of a cube decision of the command line's situation: X's, or O's answer to a
    double pending."""
    return cube_json(s.position, s.stakes, ply, outputs, d, answering=s.pending != "")


def _cube_heading(s: Situation, title: str, ply: int, outputs: F32) -> None:
    """The first lines of a cube decision: whose, where, at what stakes, and X's chances."""
    print(
        _title(s.position, title)
        + f": {_describe(s.stakes, s.position.variant)}; {cube_ply(ply)}-ply"
    )
    print()
    cubeless = s.stakes.equity(outputs)
    mwc = s.stakes.mwc(outputs)
    extra = [] if mwc is None else [f"{100 * mwc:.1f}%"]
    print(
        _table(
            ["", "", *COLUMNS, "Cubeless", *([] if mwc is None else ["MWC"])],
            [["X", "", *_probabilities(outputs), _fixed(cubeless, "+.3f"), *extra]],
        )
    )
    print()


def _cube_options(
    s: Situation, options: list[tuple[str, float, float | None]], proper: str, best: float
) -> None:
    """The cubeful equities of the actions, the proper one first and then the others by
    equity, each with its difference from the proper one; with the match winning chance
    beside each in a match, as GNU Backgammon shows them."""
    ordered = sorted(options, key=lambda o: (o[0] != proper, -o[1]))
    rows = []
    for i, (name, value, mwc) in enumerate(ordered, 1):
        diff = "" if i == 1 else f"({_fixed(value - best, '+.3f')})"
        extra = [] if s.stakes.match is None else ["" if mwc is None else f"{100 * mwc:.1f}%"]
        rows.append([f"{i}.", name, _fixed(value, "+.3f"), *extra, diff])
    print(_table([""] * len(rows[0]), rows).split("\n", 1)[1])
    print()


def _show_cube(args: argparse.Namespace, s: Situation) -> int:
    """X's cube decision before the roll: the cubeful equities and the proper action."""
    outputs, d = cube_analysis(s.position, s.stakes, args.ply)
    if args.format == "json":
        print(json.dumps(_cube_document(s, args.ply, outputs, d), indent=1))
        return 0
    _cube_heading(s, "Cube decision of X", args.ply, outputs)
    options = [("No redouble" if d.redouble else "No double", d.no_double, d.mwc_no_double)]
    verb = "Redouble" if d.redouble else "Double"
    for answer, value, mwc in (
        ("take", d.double_take, d.mwc_double_take),
        ("pass", d.double_pass, d.mwc_double_pass),
        ("beaver", d.double_beaver, None),
    ):
        if value is not None:
            options.append((f"{verb}, {answer}", value, mwc))
    # The proper action first, as GNU Backgammon lists them, then the others by equity.
    proper = options[0][0] if not d.double else f"{verb}, {d.response}"
    units = "EMG (MWC)" if s.stakes.match is not None else "equity"
    print(f"  X's cubeful {units}:")
    _cube_options(s, options, proper, d.equity)
    extra = f" (take point {100 * d.take_point:.1f}%)" if d.take_point is not None else ""
    print(f"  Proper cube action: {d.text}{extra}")
    return 0


def _show_answer(args: argparse.Namespace, s: Situation) -> int:
    """O's answer to X's double: take, pass (or beaver), each with O's cubeful equity (the
    negation of X's, normalised to the cube before the double), as ``nardy engine``'s
    ``cube`` answers a position with a double pending."""
    if s.pending != XgidCubeAction.DOUBLED.value:
        raise NardyError(
            "the XGID shows a beavered or raccooned cube: nardy hint answers a double (D)"
        )
    outputs, d = cube_analysis(s.position, s.stakes, args.ply, doubled=True)
    if d.response is None or d.double_take is None or d.double_pass is None:
        raise NardyError(f"X cannot double here: {d.reason}")
    if args.format == "json":
        print(json.dumps(_cube_document(s, args.ply, outputs, d), indent=1))
        return 0
    _cube_heading(s, f"O's answer to X's double to {2 * s.stakes.cube}", args.ply, outputs)

    def theirs(mwc: float | None) -> float | None:
        return None if mwc is None else 1.0 - mwc

    options = [
        ("Take", -d.double_take, theirs(d.mwc_double_take)),
        ("Pass", -d.double_pass, theirs(d.mwc_double_pass)),
    ]
    if d.double_beaver is not None:
        options.append(("Beaver", -d.double_beaver, None))
    units = "EMG (MWC)" if s.stakes.match is not None else "equity"
    print(f"  O's cubeful {units}, normalised to the cube before the double:")
    best = d.double_value
    assert best is not None  # the answer's equity, there with the answer
    _cube_options(s, options, str(d.response).capitalize(), -best)
    extra = f" (take point {100 * d.take_point:.1f}%)" if d.take_point is not None else ""
    print(f"  Proper answer: {d.response}{extra}")
    return 0


def run_eval(args: argparse.Namespace) -> int:
    """``nardy eval``: the side on roll's chances and cubeless equity."""
    s = _situation(args)
    position, stakes = s.position, s.stakes
    outputs = evaluate(position, args.ply)
    value = stakes.equity(outputs)
    mwc = stakes.mwc(outputs)
    if args.format == "json":
        print(json.dumps(eval_json(position, stakes, args.ply, outputs), indent=1))
        return 0
    print(
        _title(position, "X on roll") + f": {_describe(stakes, position.variant)}; {args.ply}-ply"
    )
    print()
    theirs = _probabilities(outputs)
    mwc_column = [] if mwc is None else ["MWC"]
    rows = [
        ["X", "(on roll)", *theirs, _fixed(value, "+.3f")],
        ["O", "", *theirs[3:], *theirs[:3], _fixed(-value, "+.3f")],
    ]
    if mwc is not None:
        rows[0].append(f"{100 * mwc:.1f}%")
        rows[1].append(f"{100 * (1 - mwc):.1f}%")
    equity_name = "Equity" if stakes.match is None else "EMG"
    print(_table(["", "", *COLUMNS, equity_name, *mwc_column], rows))
    in_use = stakes.money.cube if stakes.match is None else stakes.match.cube
    cube_hint = "; the cube decision: nardy hint POSITION --cube" if in_use else ""
    print(f"  {_equity_label(stakes)}{cube_hint}")
    return 0


# -- rollout ---------------------------------------------------------------------------------------


def run_rollout(args: argparse.Namespace) -> int:
    """``nardy rollout``: the position rolled out, or the best plays of a roll."""
    s = _situation(args)
    position, dice = s.position, s.dice
    ev = load_evaluator(position.variant)
    candidates: list[RankedPlay] = []
    if dice is not None:
        candidates = rank_plays(position, *dice, 0, ev)[: args.top]
        starts = [c.play.position for c in candidates]
    else:
        starts = [position]
    progress = _progress(args, _RolloutProgress(args.games * len(starts), sys.stderr))
    began = time.perf_counter()
    stopped = ""
    try:
        results = rollouts(
            starts,
            games=args.games,
            truncate=args.truncate,
            seed=args.seed,
            ply=args.ply,
            reduce_variance=not args.no_reduction,
            after_play=dice is not None,
            jobs=args.jobs,
            ev=ev,
            progress=progress,
        )
    except RolloutInterrupted as stop:
        if progress is not None:
            print(file=sys.stderr)  # end the progress bar's line
        if stop.results is None:
            print(
                f"nardy rollout: interrupted after {stop.finished} of {stop.total} games, "
                "before any game of every rollout was finished: no result",
                file=sys.stderr,
            )
            return INTERRUPTED
        results = stop.results
        stopped = (
            f"interrupted: {stop.finished} of {stop.total} games finished; the partial "
            f"result of the {counted(results[0].games, 'game')} finished for every rollout"
        )
        print(f"nardy rollout: {stopped}", file=sys.stderr)
    seconds = time.perf_counter() - began
    processes = rollout_processes(args.jobs, len(starts), args.games)
    games = results[0].games
    order = sorted(range(len(results)), key=lambda i: -results[i].equity)
    best = results[order[0]]
    status = INTERRUPTED if stopped else 0
    if args.format == "json":
        doc: dict[str, Any] = {
            "position": position_id(position),
            "variant": position.variant.key,
            "games": games,
            "games-asked": args.games,
            "interrupted": bool(stopped),
            "truncate": args.truncate,
            "seed": args.seed,
            "ply": args.ply,
            "variance-reduction": not args.no_reduction,
            "processes": processes,
            "seconds": round(seconds, 3),
        }
        if dice is None:
            doc.update(rollout_json(best))
        else:
            doc["dice"] = list(dice)
            doc["plays"] = [
                {
                    "play": str(candidates[i].play),
                    **rollout_json(results[i]),
                    **difference_json(results[i], best),
                }
                for i in order
            ]
        print(json.dumps(doc, indent=1))
        return status
    settings = [
        counted(games, "game") + (f" of {args.games} (interrupted)" if stopped else ""),
        f"{args.ply}-ply plays",
        f"truncated after {counted(args.truncate, 'play')}" if args.truncate else "to the end",
        "no variance reduction" if args.no_reduction else "variance reduction",
        f"seed {args.seed}",
    ]
    on = f"{seconds:.1f} s on {counted(processes, 'process')}"
    if dice is None:
        print(_title(position, "Rollout of X on roll") + ": " + ", ".join(settings))
        print(f"{on}; cubeless, for X")
        print()
        header = ["", "", *COLUMNS, "Equity"]
        rows = [
            ["mean", "", *_probabilities(best.outputs), _fixed(best.equity, "+.3f")],
            ["± s.e.", "", *_errors(best), _error(best.equity_error)],
        ]
        print(_table(header, rows))
        if math.isnan(best.equity_error):
            print("  95% confidence interval of the equity: n/a (one game)")
        else:
            low, high = best.equity - best.confidence95, best.equity + best.confidence95
            print(
                "  95% confidence interval of the equity: "
                f"{_fixed(low, '+.3f')} to {_fixed(high, '+.3f')}"
            )
        return status
    print(_title(position, f"Rollout of X's best plays of {dice_text(dice)}") + ":")
    print(", ".join(settings) + f"; the same dice for each play; {on}")
    print()
    rows = []
    unpaired = []
    for rank, i in enumerate(order, 1):
        r = results[i]
        diff = ""
        if rank > 1:
            gap, error = difference(r, best)
            diff = f"{_fixed(gap, '+.3f')} ±{_error(Z95 * error)}"
            unpaired.append(f"±{_error(Z95 * unpaired_error(r, best))}")
        rows.append(
            [
                f"{rank}.",
                str(candidates[i].play) or "(no legal move)",
                f"{_fixed(r.equity, '+.3f')} ±{_error(r.confidence95)}",
                diff,
                *_probabilities(r.outputs),
            ]
        )
    print(_table(["#", "Play", "Equity (95%)", "Diff (95%)", *COLUMNS], rows))
    if unpaired:
        print(
            "  Diff: from the best play, game by game with the same dice; "
            f"were the games independent: {', '.join(unpaired)}"
        )
    return status


def _error(x: float) -> str:
    """A standard error or a confidence interval's half-width: "n/a" for a single game."""
    return "n/a" if math.isnan(x) else f"{x:.3f}"


def _errors(result: RolloutResult) -> list[str]:
    """The probabilities' standard errors in percent (Lose's is Win's), "n/a" for one game."""
    e = [float(x) for x in result.errors]
    return ["n/a" if math.isnan(x) else _percent(x) for x in (e[0], e[1], e[2], e[0], e[3], e[4])]


class _RolloutProgress(Progress):
    """``nardy rollout``'s progress bar, with each rollout's running mean equity after the
    count of games: ``[####      ] 108/324 games, equity +0.048 +0.040 +0.033``."""

    def __init__(self, total: int, stream: TextIO) -> None:
        super().__init__(total, "games", stream)

    def __call__(self, done: int, means: list[float]) -> None:
        shown = " ".join("   n/a" if math.isnan(m) else _fixed(m, "+.3f") for m in means)
        self.unit = f"games, equity {shown}"
        self.show(done)


def _progress(args: argparse.Namespace, bar: _Bar) -> _Bar | None:
    """``bar`` shown on standard error, where it is a terminal or ``--progress`` asks."""
    if not (args.progress or sys.stderr.isatty()):
        return None
    bar.show(0)
    return bar


# -- analyze ---------------------------------------------------------------------------------------


def read_records(name: str) -> list[tuple[int, dict[str, Any]]]:
    """The game records in a file: JSON lines, one JSON object or array, or a .mat match;
    each with the line it starts on (a match file's records, made by replaying its games:
    0).

    The name decides: ``.mat`` is a match file, ``.json`` and ``.jsonl`` JSON (and their
    errors JSON's); any other name, and standard input, is JSON if it starts with ``{`` or
    ``[`` and a match file otherwise."""
    text = read_input(name)
    if not text.strip():
        raise NotationError(f"{name} is empty")
    suffix = "" if name == "-" else Path(name).suffix.lower()
    is_json = suffix in (".json", ".jsonl")
    if suffix == ".mat" or not (is_json or text.lstrip().startswith(("{", "["))):
        try:
            return [(0, record) for record in import_mat(text)]
        except NotationError as exc:
            raise NotationError(f"{name}: {exc}") from None
    return parse_records(text, name)


def run_analyze(args: argparse.Namespace) -> int:
    """``nardy analyze``: every play of the file's games judged, match by match."""
    numbered = read_records(args.file)
    if not numbered:
        raise NotationError(f"{args.file} holds no game records")
    records = [record for _, record in numbered]
    matches = _sessions(records)
    total = sum(len(r.get("turns", [])) for r in records)
    progress = _progress(args, Progress(total, "turns", sys.stderr))
    analyses: list[Analysis | ChouetteAnalysis] = []
    done = 0
    judged = [0]  # the turns judged so far, for the message of an interrupted analysis
    for match in matches:
        start = done

        def show(turns: int, _: int, start: int = start) -> None:
            judged[0] = start + turns
            if progress is not None:
                progress.show(start + turns)

        judge = analyze_chouette if is_chouette(match[0]) else analyze
        try:
            analysis = judge(match, ply=args.ply, jobs=args.jobs, progress=show)
        except NardyError as exc:  # e.g. a record that reads but does not replay
            failed = replay_failure(args.file, numbered)
            raise failed or NardyError(f"{args.file}: {exc}") from None
        except KeyboardInterrupt:
            print(
                f"\nnardy analyze: interrupted after judging {judged[0]} of {total} turns "
                f"({len(analyses)} of {counted(len(matches), 'match')} finished): no report",
                file=sys.stderr,
            )
            return INTERRUPTED
        done += sum(len(r.get("turns", [])) for r in match)
        analyses.append(analysis)
    if progress is not None and done < total:
        progress.show(total)  # turns without a roll or a cube decision are not judged
    if args.format == "json":
        doc: Any = [
            chouette_json(a) if isinstance(a, ChouetteAnalysis) else analysis_json(a)
            for a in analyses
        ]
        print(json.dumps(doc[0] if len(doc) == 1 else doc, indent=1))
        return 0
    texts = [
        chouette_text(a, every=args.all)
        if isinstance(a, ChouetteAnalysis)
        else analysis_text(a, every=args.all)
        for a in analyses
    ]
    print("\n\n".join(texts))
    return 0


def _sessions(records: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The records by match or session: the consecutive games of one chouette session
    (chouette records, numbered one after the other: the box and the captain change from
    game to game) are one session, the others go by :func:`group_matches`."""
    sessions: list[list[dict[str, Any]]] = []
    others: list[dict[str, Any]] = []
    for record in records:
        if not is_chouette(record):
            others.append(record)
            continue
        if others:
            sessions += group_matches(others)
            others = []
        last = sessions[-1][-1] if sessions else {}
        if is_chouette(last) and record.get("game") == last.get("game", 0) + 1:
            sessions[-1].append(record)
        else:
            sessions.append([record])
    if others:
        sessions += group_matches(others)
    return sessions


def chouette_text(a: ChouetteAnalysis, *, every: bool = False) -> str:
    """A chouette session's analysis as text: each game's line-up and settlements, its
    errors (or every decision) with the name of the participant who made each, then every
    participant's totals."""
    lines = [
        f"Chouette of {', '.join(a.participants)}, money session of {a.variant}, "
        f"{counted(len(a.games), 'game')}, analysed at {a.ply}-ply "
        f"({'' if cube_ply(a.ply) == a.ply else f'the cube at {cube_ply(a.ply)}-ply, '}"
        f"luck at 0-ply) in {a.seconds:.1f} s",
        "Equities are EMG: normalised to the cube, cubeless money equity for checker plays "
        "and luck, cubeful for the cube; each member answers the box's doubles himself.",
    ]
    lines += _rolled_out(
        [p for game in a.games for _, p in game.plays],
        [c for game in a.games for _, c in game.cubes],
    )
    for game in a.games:
        team = ", ".join([f"{game.team[0]} (captain)", *game.team[1:]])
        settled = ", ".join(f"{name} {amount:+d}" for name, amount in game.settlements.items())
        lines += ["", f"Game {game.number}: box {game.box}, team {team}; settled {settled}"]
        rows = _rows(
            game.cubes,
            game.resignations,
            game.plays,
            [roll for _, roll in game.rolls],
            every,
        )
        if not rows:
            lines.append(f"  No decision lost more than {SKILLS[-1][1]:.3f}.")
            continue
        header = ["Turn", "Player", "Roll", "Played", "Best", "Loss", "Mark", "Luck"]
        lines.append(_table(header, rows, left=5))
    names = list(a.participants)
    table = _totals_table(names, [a.stats[n] for n in names], "points", _money_price, None)
    lines += ["", "Totals", table]
    return "\n".join(lines)


def _money_price(x: float, sign: str) -> str:
    """Points, as priced errors, luck and results of money play are shown."""
    return _fixed(x, f"{sign}.3f")


def _match_name(a: Analysis) -> str:
    kind = f"{a.match_length}-point match" if a.match_length else "money session"
    return f"{a.players[0]} vs {a.players[1]}, {kind} of {a.variant}"


def _units(a: Analysis) -> tuple[str, Callable[[float, str], str]]:
    """The name and format of priced errors, luck and results: points, or match winning
    chance; the format takes a value and a sign ("+" for signed figures, "" for costs)."""
    if a.match_length:
        return value_unit(a), lambda x, sign: _fixed(100 * x, f"{sign}.2f") + "%"
    return value_unit(a), _money_price


ROLLED_OUT = (
    f"A loss marked r is a rollout's: a play marked bad or worse at the analysis ply, "
    f"rolled out against the best ({CONFIRM_TRUNCATE} plays a game, and again "
    f"{CONFIRM_LONGER} where it stays marked; at most {CONFIRM_GAMES} games each)."
)
"""The analysis text's word on the losses that rollouts judged (:func:`confirmed`)."""
CUBE_ROLLED_OUT = (
    "A cube decision's loss marked r is judged on the position's chances rolled out "
    f"({CUBE_TRUNCATE} plays a game, at most {CUBE_GAMES} games): a decision close at the "
    "analysis ply."
)
"""Its word on the cube decisions that rollouts judged (:func:`cube_confirmed`)."""


def _rolled_out(plays: Sequence[CheckerPlay], cubes: Sequence[CubeAction]) -> list[str]:
    """The lines that say what a loss marked r is, for the kinds of decision that have one."""
    return [
        line
        for line, marked in (
            (ROLLED_OUT, any(p.rollout for p in plays)),
            (CUBE_ROLLED_OUT, any(c.rollout for c in cubes)),
        )
        if marked
    ]


def analysis_text(a: Analysis, *, every: bool = False) -> str:
    """The analysis as text: each game's errors (or every play), then the players' totals.
    Games without the cube say nothing of it."""
    cube = bool(a.settings.cube)
    cube_at = cube and cube_ply(a.ply) != a.ply
    money = "cubeless money equity" if cube else "money equity"
    equities = money if not a.match_length else "from match winning chances"
    lines = [
        f"{_match_name(a)}, {counted(len(a.games), 'game')}, analysed at {a.ply}-ply "
        f"({f'the cube at {cube_ply(a.ply)}-ply, ' if cube_at else ''}"
        f"luck at 0-ply) in {a.seconds:.1f} s",
        f"Equities are EMG: normalised to the cube, {equities} for checker plays and luck, "
        "cubeful for the cube."
        if cube
        else f"Equities are EMG: {equities} for checker plays and luck.",
    ]
    lines += _rolled_out(
        [p for game in a.games for p in game.plays], [c for game in a.games for c in game.cubes]
    )
    for game in a.games:
        lines += ["", _game_heading(a, game)]
        rows = _game_rows(a, game, every)
        if not rows:
            lines.append(f"  No decision lost more than {SKILLS[-1][1]:.3f}.")
            continue
        header = ["Turn", "Player", "Roll", "Played", "Best", "Loss", "Mark", "Luck"]
        lines.append(_table(header, rows, left=5))
    lines += ["", "Totals", _totals(a)]
    return "\n".join(lines)


def _game_rows(a: Analysis, game: GameAnalysis, every: bool) -> list[list[str]]:
    """The rows of a game of two players (:func:`_rows`)."""
    names = a.players
    return _rows(
        [(names[c.player], c) for c in game.cubes],
        [(names[r.player], r) for r in game.resignations],
        [(names[p.player], p) for p in game.plays],
        game.rolls,
        every,
    )


def _rows(
    cubes: Sequence[tuple[str, CubeAction]],
    resignations: Sequence[tuple[str, ResignationAction]],
    plays: Sequence[tuple[str, CheckerPlay]],
    rolls: Sequence[Roll],
    every: bool,
) -> list[list[str]]:
    """One row per judged decision worth showing, each with the name of who made it, in the
    order of the game: the marked ones, or with ``every`` every play and every close or
    actual cube decision (a cube decision that is neither and lost nothing is no decision
    worth a row). A cube row shows what was done ("No double", "Redouble", "Take") and the
    proper action ("No double, take", "pass"); a play's Best is blank where the play was
    the best; a forced play, which is not judged, has no loss."""
    luck = {(r.turn, r.player): r.luck for r in rolls}
    entries: list[tuple[int, int, list[str]]] = []
    for name, c in cubes:
        if c.skill is not None or (every and (c.close or c.loss > 0)):
            action = c.action
            if c.decision.redouble and c.role == "double":
                action = action.replace("double", "redouble")
            proper = c.proper if c.role == "double" else c.proper.capitalize()
            row = [str(c.turn), name, "", action.capitalize(), proper]
            loss = f"{c.loss:.3f}" + (" r" if c.rollout else "")
            entries.append((c.turn, 0, [*row, loss, c.skill or "", ""]))
    for name, r in resignations:
        if every or r.skill is not None:
            when = "after the roll" if r.after_roll else "before the roll"
            action = r.action.capitalize() + (f" ({when})" if r.role == "offer" else "")
            row = [str(r.turn), name, "", action, r.proper.capitalize()]
            entries.append((r.turn, 0, [*row, f"{r.loss:.3f}", r.skill or "", ""]))
    for name, p in plays:
        if every or p.skill is not None:
            roll = luck.get((p.turn, p.player))
            row = [
                str(p.turn),
                name,
                dice_text(p.dice),
                p.played or "(no legal move)",
                "" if p.best == p.played else p.best,
                "" if p.forced else f"{p.loss:.3f}" + (" r" if p.rollout else ""),
                p.skill or ("forced" if p.forced else ""),
                "" if roll is None else _fixed(roll, "+.3f"),
            ]
            entries.append((p.turn, 1, row))
    return [row for _, _, row in sorted(entries, key=lambda e: (e[0], e[1]))]


def _game_heading(a: Analysis, game: GameAnalysis) -> str:
    names = a.players
    score = f"{names[0]} {game.score[0]}, {names[1]} {game.score[1]}"
    if game.winner is None:
        ending = "a draw" if game.kind == "draw" else "not finished"
    else:
        winner = names[game.winner]
        ending = f"{winner} {conjugate(winner, 'win')} {counted(game.points, 'point')}"
        gives_up = "resignation" if a.settings.rules.resignation_levels else "surrender"
        how = {"pass": "a double passed", "resign": gives_up}.get(game.kind or "")
        kind = how or game.kind or ""
        # Where every game counts one (ending=oin), an oin is no news.
        said = [] if not kind or (kind == "oin" and a.settings.ending == "oin") else [kind]
        if a.settings.cube:
            said.append(f"cube {game.cube}")
        ending += f" ({', '.join(said)})" if said else ""
    return f"Game {game.number} ({score}): {ending}"


def _totals(a: Analysis) -> str:
    unit, price = _units(a)
    return _totals_table(
        a.players, a.stats, unit, price, a.luck_adjusted, cube=bool(a.settings.cube)
    )


def _totals_table(
    names: Sequence[str],
    stats: Sequence[PlayerStats],
    unit: str,
    price: Callable[[float, str], str],
    luck_adjusted: Sequence[float] | None,
    *,
    cube: bool = True,
) -> str:
    """Each player's totals, one column each (the luck-adjusted result where there is one:
    two players); the Cube section only where the games had a cube."""

    def both(cell: Callable[[PlayerStats], str]) -> list[str]:
        return [cell(s) for s in stats]

    def rate(x: float | None, sign: str = "") -> str:
        return "n/a" if x is None else _fixed(1000 * x, f"{sign}.1f")

    def marks(counts: dict[str, int]) -> str:
        return " / ".join(str(counts[name]) for name, _ in reversed(SKILLS))

    def pair(counts: dict[str, int], first: str, second: str) -> str:
        return f"{counts[first]} / {counts[second]}"

    blank = [""] * len(names)
    rows = [
        ["Checker play", *blank],
        ["  Moves (unforced)", *both(lambda s: f"{s.moves} ({s.unforced})")],
        ["  Doubtful / bad / very bad", *both(lambda s: marks(s.marked))],
        [
            f"  Error total EMG ({unit})",
            *both(lambda s: f"{s.checker_error:.3f} ({price(s.checker_value, '')})"),
        ],
        ["  Error rate mEMG", *both(lambda s: rate(s.checker_rate))],
    ]
    if cube:
        rows += [
            ["Cube", *blank],
            ["  Close or actual decisions", *both(lambda s: str(s.cube_decisions))],
            ["  Doubtful / bad / very bad", *both(lambda s: marks(s.cube_marked))],
            [
                f"  Error total EMG ({unit})",
                *both(lambda s: f"{s.cube_error:.3f} ({price(s.cube_value, '')})"),
            ],
            ["  Error rate mEMG", *both(lambda s: rate(s.cube_rate))],
        ]
    rows += [
        ["Resignations", *blank],
        ["  Offered or answered", *both(lambda s: str(s.resignations))],
        ["  Doubtful / bad / very bad", *both(lambda s: marks(s.resign_marked))],
        [
            f"  Errors EMG ({unit})",
            *both(lambda s: f"{s.resign_error:.3f} ({price(s.resign_value, '')})"),
        ],
        ["Luck", *blank],
        ["  Very lucky / lucky rolls", *both(lambda s: pair(s.lucky, "very lucky", "lucky"))],
        [
            "  Unlucky / very unlucky rolls",
            *both(lambda s: pair(s.lucky, "unlucky", "very unlucky")),
        ],
        [
            f"  Luck total EMG ({unit})",
            *both(lambda s: f"{_fixed(s.luck, '+.3f')} ({price(s.luck_value, '+')})"),
        ],
        ["  Luck rate mEMG per move", *both(lambda s: rate(s.luck_rate, "+"))],
        ["  Luck rating", *both(lambda s: s.luck_rating or "n/a")],
        ["Overall", *blank],
        ["  Error rate mEMG per decision", *both(lambda s: rate(s.error_rate))],
        ["  Rating", *both(lambda s: s.rating or "n/a")],
        [f"  Result ({unit})", *both(lambda s: price(s.result, "+"))],
    ]
    if luck_adjusted is not None:
        rows.append([f"  Luck-adjusted result ({unit})", *[price(x, "+") for x in luck_adjusted]])
    return _table(["", *names], rows, left=1)
