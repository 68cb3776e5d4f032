"""``nardy selfplay``: bots play each other, and every game is written as a JSON record.

One line of the output file is one game (:func:`nardy.notation.record.game_record`), so a
file replays game by game with :func:`nardy.notation.record.replay`. Game (or match) ``i``
rolls dice seeded by ``SEED-i`` and a random bot in seat ``s`` is seeded by ``SEED-i-s``:
any one game or match of a run can be played again on its own.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from nardy.cli.options import add_settings_arguments, seed, settings_from_args
from nardy.core.dice import SeededDice
from nardy.core.match import Match
from nardy.engine.bots import BOTS, make_bot, play_game
from nardy.notation.record import game_record


def add_parser(subparsers: Any) -> None:
    """Register ``nardy selfplay``."""
    parser = subparsers.add_parser(
        "selfplay",
        help="let two bots play and write the games as JSON lines",
        description="Let two bots play each other and write every game as a JSON record, one "
        "per line. With --match N, --games counts matches, each played to its end; in money "
        "play it counts games.",
    )
    add_settings_arguments(parser)
    parser.add_argument(
        "--games", type=_positive, required=True, metavar="N", help="games (or matches)"
    )
    parser.add_argument("--seed", type=seed, default=0, help="seed of the dice and bots (0)")
    parser.add_argument(
        "--out", required=True, metavar="FILE.jsonl", help="where to write the records"
    )
    parser.add_argument(
        "--bots",
        type=_bots,
        default=("heuristic", "random"),
        metavar="A,B",
        help=f"the bots of players 0 and 1, from {', '.join(BOTS)} (heuristic,random)",
    )
    parser.add_argument(
        "--progress",
        action="store_true",
        help="show the progress bar on standard error even when it is not a terminal",
    )
    parser.set_defaults(handler=run)


def _positive(text: str) -> int:
    if not (text.isdigit() and int(text) > 0):
        raise argparse.ArgumentTypeError(f"expected a positive number, not {text!r}")
    return int(text)


def _bots(text: str) -> tuple[str, str]:
    names = [name.strip() for name in text.split(",")]
    if len(names) != 2 or any(name not in BOTS for name in names):
        raise argparse.ArgumentTypeError(
            f"expected two bots A,B from {', '.join(BOTS)}, not {text!r}"
        )
    return names[0], names[1]


class Progress:
    """A plain progress bar on one line of a stream: ``[#####     ] 42/100 games``."""

    def __init__(self, total: int, unit: str, stream: TextIO, width: int = 30) -> None:
        self.total = total
        self.unit = unit
        self.stream = stream
        self.width = width

    def show(self, done: int) -> None:
        filled = self.width * done // self.total
        bar = "#" * filled + " " * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total} {self.unit}")
        if done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def run(args: argparse.Namespace) -> int:
    """``nardy selfplay``: play, write the records, and report how each bot did."""
    settings = settings_from_args(args)
    names: tuple[str, str] = args.bots
    unit = "matches" if settings.match_length else "games"
    progress = None
    if args.progress or sys.stderr.isatty():
        progress = Progress(args.games, unit, sys.stderr)
        progress.show(0)
    wins = [0, 0]
    points = [0, 0]
    games = 0
    done = 0  # matches, or games in money play: what --games counts
    sessions = 0
    with Path(args.out).open("w", encoding="utf-8") as out:
        while done < args.games:
            # Each match (or money session) has its own seeds; a money session goes on
            # until enough games are played, or until a limit it was given ends it.
            key = f"{args.seed}-{sessions}"
            sessions += 1
            bots = (make_bot(names[0], f"{key}-0"), make_bot(names[1], f"{key}-1"))
            match = Match(settings, SeededDice(key), players=names)
            while not match.over and done < args.games:
                score = match.score
                game = match.new_game()
                result = play_game(game, bots)
                record = game_record(game, number=len(match.games), players=names, score=score)
                out.write(json.dumps(record) + "\n")
                games += 1
                if result.winner is not None:
                    wins[result.winner] += 1
                    points[result.winner] += result.points
                if not settings.match_length:
                    done += 1
                    if progress is not None:
                        progress.show(done)
            if settings.match_length:
                done += 1
                if progress is not None:
                    progress.show(done)
    print(
        f"{games} games: {names[0]} won {wins[0]} ({points[0]} points), "
        f"{names[1]} won {wins[1]} ({points[1]} points); written to {args.out}",
        file=sys.stderr,
    )
    return 0
