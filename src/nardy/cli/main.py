"""``nardy``: the command line.

nardy moves [--variant V] POSITION D1 D2 [--format moves|ids|json]
nardy moves --batch          (lines "VARIANT POSITION D1 D2" on standard input)
nardy show [--variant V] POSITION
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

from nardy.cli.options import die
from nardy.core import NardyError, Play, Position, variant, variants
from nardy.notation import position_id
from nardy.notation.context import Context, read_context


def _variant_names() -> list[str]:
    return sorted(v.key for v in variants())


NACKGAMMONS = (
    "nackgammon starts from the layout of the project's source document (24:4 23:1 13:2 8:3 "
    "6:5), nackgammon-ballard from Nack Ballard's classical one (24:2 23:2 13:4 8:3 6:4), GNU "
    "Backgammon's Nackgammon"
)
"""Which nackgammon is which (RULES.md 2), for the help texts."""


class SubcommandParser(argparse.ArgumentParser):
    """The parser of a subcommand. Its options may come before, between or after its
    positional arguments (``nardy hint POSITION --ply 0 6 5``): argparse's intermixed
    parsing, which reads the options first and the positional arguments from what is left.
    An argument too many is the subcommand's own error (``nardy hint: error: unrecognized
    arguments: 4``), not the top-level parser's. A subcommand whose arguments argparse
    cannot intermix (a positional argument taking the rest of the line) is parsed plainly."""

    _intermixing = False
    """True while the intermixed parsing runs, which calls ``parse_known_args`` itself."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> tuple[Any, list[str]]:
        if self._intermixing:
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            namespace, extras = self.parse_known_intermixed_args(args, namespace)
        except TypeError:  # not intermixable
            return super().parse_known_args(args, namespace)
        finally:
            self._intermixing = False
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras


class VersionAction(argparse.Action):
    """``--version``: the version and which code runs, on one line (argparse's own version
    action wraps it at the terminal's width)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(
            option_strings,
            dest,
            nargs=0,
            default=argparse.SUPPRESS,
            help="say which version is installed and whether it runs compiled or pure-Python code",
        )

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> NoReturn:
        from nardy.cli.about import version  # loads the engine (numpy): only when asked

        print(f"{parser.prog} {version()}")
        parser.exit()


INTERRUPTED = 128 + signal.SIGINT
"""The exit status of a command stopped by Ctrl-C, as shells report a SIGINT (130)."""


def build_parser() -> argparse.ArgumentParser:
    # The commands' modules load numpy and the nets (about a second): imported here, inside
    # main, so that a Ctrl-C meanwhile stops quietly too.
    from nardy.cli import analysis, engine, play, records, rules, selfplay, serve, verify_dice

    parser = argparse.ArgumentParser(
        prog="nardy",
        description="Backgammon and long nardy: rules, notation and analysis.",
        epilog=f"Variants: {', '.join(_variant_names())}; {NACKGAMMONS}.",
    )
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=SubcommandParser)

    moves = sub.add_parser(
        "moves",
        help="list every legal play of a roll",
        description="List every legal play of a roll, one per line, sorted. POSITION is a "
        "Position ID, PositionID:MatchID, or an XGID. --format ids gives the Position ID each "
        "play reaches, in the same order; --format json an array with, for each play, 'play' "
        "(its notation), 'id' (the Position ID reached), 'single-moves' (each checker move as "
        "{'from', 'to', 'hit'}) and 'moves' (the same as [from, to, hit] triples, kept for "
        "older readers). With --batch, read lines 'VARIANT POSITION D1 D2' (or 'VARIANT "
        "POSITION' where the Match ID or XGID has dice) from standard input and answer each "
        "with the sorted Position IDs the plays reach (or 'error: …').",
    )
    moves.add_argument(
        "--variant", default="backgammon", help=f"one of {_variant_names()} ({NACKGAMMONS})"
    )
    moves.add_argument("--format", choices=["moves", "ids", "json"], default="moves")
    moves.add_argument("--batch", action="store_true", help="read positions from stdin")
    moves.add_argument("position", nargs="?")
    moves.add_argument(
        "d1", nargs="?", type=die, help="(optional when an XGID or Match ID has dice)"
    )
    moves.add_argument("d2", nargs="?", type=die)
    moves.set_defaults(usage_error=moves.error)

    show = sub.add_parser(
        "show",
        help="draw a position in the terminal",
        description="Draw a position in the terminal: the board, the pip counts, the bar and "
        "the checkers borne off, from the side on roll. POSITION is a Position ID, "
        "PositionID:MatchID or an XGID; for the last two the cube, score, match and dice are "
        "printed under the board.",
    )
    show.add_argument(
        "--variant", default="backgammon", help=f"one of {_variant_names()} ({NACKGAMMONS})"
    )
    show.add_argument(
        "--home",
        choices=["bottom-right", "bottom-left", "top-right", "top-left"],
        default="bottom-right",
        help="where the home board of the side on roll is drawn (nardy rules 4)",
    )
    show.add_argument("position")

    play.add_parser(sub)
    selfplay.add_parser(sub)
    records.add_parsers(sub)
    analysis.add_parsers(sub)
    engine.add_parser(sub)
    rules.add_parser(sub)
    serve.add_parser(sub)
    verify_dice.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
    except KeyboardInterrupt:
        print("\nnardy: interrupted", file=sys.stderr)
        return INTERRUPTED
    args = parser.parse_args(argv)
    try:
        if getattr(args, "handler", None) is not None:  # subcommands that register a handler
            return int(args.handler(args))
        if args.command == "moves":
            if args.batch:
                return _batch(sys.stdin, sys.stdout)
            usage_error: Callable[[str], NoReturn] = args.usage_error  # moves' own usage
            if args.position is None or (args.d1 is not None and args.d2 is None):
                usage_error("moves needs POSITION D1 D2 (or --batch)")
            ctx = read_context(args.position, args.variant)
            pos = ctx.position
            dice = (args.d1, args.d2) if args.d2 is not None else ctx.dice
            if dice is None:
                usage_error("moves needs D1 D2 (the position names no dice)")
            print(format_plays(pos, pos.legal_plays(*dice), args.format))
        elif args.command == "show":
            from nardy.cli.board import render

            ctx = read_context(args.position, args.variant)
            print(render(ctx.position, home=args.home))
            described = describe_context(args.position, ctx)
            if described:
                print(described)
    except NardyError as exc:
        print(f"{_prog(args)}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # Ctrl-C: stop without a traceback, with the status shells give a SIGINT (the
        # commands that have something to say about what was done say it themselves).
        print(f"\n{_prog(args)}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`nardy show … | head`): stop quietly, as other tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return 0


def _prog(args: argparse.Namespace) -> str:
    """How an error message names the command: ``nardy selfplay``."""
    return f"nardy {args.command}"


def describe_context(text: str, ctx: Context) -> str | None:
    """The line ``nardy show`` prints under the board for a ``PositionID:MatchID`` or an
    XGID (cube, score, dice, Crawford…), from the side on roll; None for a bare Position ID,
    which says nothing of them."""
    if ":" not in text:
        return None
    owner_text = {None: "centred", True: "owned by X (on roll)", False: "owned by O"}
    mine, theirs = ctx.score
    length = ctx.match_length
    parts = [
        f"Cube {ctx.cube}, {owner_text[ctx.cube_mine]}"
        + (" (doubled: waiting for an answer)" if ctx.doubled else ""),
        f"score X {mine} - O {theirs}, " + (f"{length}-point match" if length else "money play"),
        f"dice {ctx.dice[0]}-{ctx.dice[1]}" if ctx.dice else "not rolled",
    ]
    if ctx.crawford:
        parts.append("Crawford game")
    return " " + "; ".join(parts)


def format_plays(pos: Position, plays: list[Play], fmt: str) -> str:
    """The answer of ``nardy moves`` in one of its formats."""
    if fmt == "ids":  # one a play, in the order of the plays
        return "\n".join(position_id(p.position) for p in plays)
    if fmt == "json":
        return json.dumps(
            [
                {
                    "play": str(p),
                    "id": position_id(p.position),
                    "single-moves": [{"from": m.start, "to": m.end, "hit": m.hit} for m in p.moves],
                    "moves": [[m.start, m.end, m.hit] for m in p.moves],
                }
                for p in plays
            ],
            indent=1,
        )
    return "\n".join(str(p) if p.moves else "(no legal move)" for p in plays)


def _batch(lines: TextIO, out: TextIO) -> int:
    for line in lines:
        try:
            fields = line.split()
            if len(fields) not in (2, 4):  # an empty line too: every line gets its answer
                raise NardyError("expected 'VARIANT POSITION D1 D2' (or 'VARIANT POSITION')")
            name, text, *given = fields
            if not all(d.isdigit() for d in given):
                raise NardyError(f"dice must be numbers 1-6, not {' '.join(map(repr, given))}")
            ctx = read_context(text, variant(name))
            pos = ctx.position
            dice = (int(given[0]), int(given[1])) if given else ctx.dice
            if dice is None:
                raise NardyError("no dice: give D1 D2 (the position names none)")
            answer = " ".join(sorted({position_id(p.position) for p in pos.legal_plays(*dice)}))
        except NardyError as exc:
            answer = f"error: {exc}"
        out.write(answer + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
