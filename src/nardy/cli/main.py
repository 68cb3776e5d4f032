"""``nardy``: the command line.

nardy moves [--variant V] POSITION D1 D2 [--format moves|ids|json]
nardy moves --batch          (lines "VARIANT POSITION D1 D2" on standard input)
nardy show [--variant V] POSITION
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from importlib import metadata
from typing import Any, TextIO

from nardy.cli import analysis, engine, play, records, rules, selfplay, serve, verify_dice
from nardy.cli.options import die
from nardy.core import NardyError, Play, Position, variant, variants
from nardy.notation import decode_match_id, parse_position, parse_xgid, position_id
from nardy.notation.match_id import CubeOwner
from nardy.notation.xgid import CubeAction


def _variant_names() -> list[str]:
    return sorted(v.key for v in variants())


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nardy", description="Backgammon and long nardy: rules, notation and analysis."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=SubcommandParser)

    moves = sub.add_parser(
        "moves",
        help="list every legal play of a roll",
        description="List every legal play of a roll, one per line, sorted. POSITION is a "
        "Position ID, PositionID:MatchID, or an XGID. With --batch, read lines "
        "'VARIANT POSITION D1 D2' from standard input and answer each with the sorted "
        "Position IDs the plays reach (or 'error: …').",
    )
    moves.add_argument("--variant", default="backgammon", help=f"one of {_variant_names()}")
    moves.add_argument("--format", choices=["moves", "ids", "json"], default="moves")
    moves.add_argument("--batch", action="store_true", help="read positions from stdin")
    moves.add_argument("position", nargs="?")
    moves.add_argument(
        "d1", nargs="?", type=die, help="(optional when an XGID or Match ID has dice)"
    )
    moves.add_argument("d2", nargs="?", type=die)

    show = sub.add_parser("show", help="draw a position in the terminal")
    show.add_argument("--variant", default="backgammon", help=f"one of {_variant_names()}")
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


def version() -> str:
    """The installed package's version, from its metadata (pyproject.toml's ``version``)."""
    try:
        return metadata.version("nardy")
    except metadata.PackageNotFoundError:  # imported from a source tree that is not installed
        return "(not installed: no package metadata)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if getattr(args, "handler", None) is not None:  # subcommands that register a handler
            return int(args.handler(args))
        if args.command == "moves":
            if args.batch:
                return _batch(sys.stdin, sys.stdout)
            if args.position is None or (args.d1 is not None and args.d2 is None):
                parser.error("moves needs POSITION D1 D2 (or --batch)")
            pos = parse_position(args.position, args.variant)
            dice = (args.d1, args.d2) if args.d2 is not None else match_context(args.position)[1]
            if dice is None:
                parser.error("moves needs D1 D2 (the position names no dice)")
            print(format_plays(pos, pos.legal_plays(*dice), args.format))
        elif args.command == "show":
            from nardy.cli.board import render

            print(render(parse_position(args.position, args.variant), home=args.home))
            described = match_context(args.position, args.variant)[0]
            if described:
                print(described)
    except NardyError as exc:
        print(f"nardy: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`nardy show … | head`): stop quietly, as other tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return 0


def match_context(
    text: str, variant_name: str = "backgammon"
) -> tuple[str | None, tuple[int, int] | None]:
    """What a ``PositionID:MatchID`` or an XGID says beyond the checkers, from the side on
    roll: a line for ``nardy show`` (cube, score, dice, Crawford…) and the dice if rolled."""
    text = text.strip()
    if text.upper().startswith("XGID="):
        x = parse_xgid(text, variant_name)
        cube_mine, mine, theirs = x.cube_is_mine, x.my_score, x.their_score
        cube, length, dice, crawford = x.cube, x.match_length, x.dice, x.crawford
        doubled = x.cube_action is not CubeAction.NONE
    elif ":" in text:
        m = decode_match_id(text.partition(":")[2])
        owner = int(m.cube_owner)
        cube_mine = None if m.cube_owner is CubeOwner.CENTRED else owner == m.on_roll
        mine, theirs = m.score[m.on_roll], m.score[1 - m.on_roll]
        cube, length, dice, crawford, doubled = (
            m.cube,
            m.match_length,
            m.dice,
            m.crawford,
            m.doubled,
        )
    else:
        return None, None
    owner_text = {None: "centred", True: "owned by X (on roll)", False: "owned by O"}[cube_mine]
    parts = [
        f"Cube {cube}, {owner_text}" + (" (doubled: waiting for an answer)" if doubled else ""),
        f"score X {mine} - O {theirs}, " + (f"{length}-point match" if length else "money play"),
        f"dice {dice[0]}-{dice[1]}" if dice else "not rolled",
    ]
    if crawford:
        parts.append("Crawford game")
    return " " + "; ".join(parts), dice


def format_plays(pos: Position, plays: list[Play], fmt: str) -> str:
    """The answer of ``nardy moves`` in one of its formats."""
    if fmt == "ids":
        return "\n".join(sorted({position_id(p.position) for p in plays}))
    if fmt == "json":
        return json.dumps(
            [
                {
                    "play": str(p),
                    "id": position_id(p.position),
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
            if len(fields) != 4:  # an empty line too: every line gets its answer
                raise NardyError("expected 'VARIANT POSITION D1 D2'")
            name, text, d1, d2 = fields
            if not (d1.isdigit() and d2.isdigit()):
                raise NardyError(f"dice must be numbers 1-6, not {d1!r} {d2!r}")
            pos = parse_position(text, variant(name))
            answer = " ".join(
                sorted({position_id(p.position) for p in pos.legal_plays(int(d1), int(d2))})
            )
        except NardyError as exc:
            answer = f"error: {exc}"
        out.write(answer + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
