"""``nardy selfplay``: bots play each other, and every game is written as a JSON record.

One line of the output file is one game (:func:`nardy.notation.record.game_record`), so a
file replays game by game with :func:`nardy.notation.record.replay`. Game (or match) ``i``
rolls dice seeded by ``SEED-i`` and a random bot in seat ``s`` is seeded by ``SEED-i-s``:
any one game or match of a run can be played again on its own.

With ``--chouette N``, N neural bots (Bot1 … BotN) play one chouette session of
``--games`` games with dice seeded by ``SEED`` (RULES.md 1.7); each line also carries the
``chouette`` object of :func:`nardy.cli.chouette_cli.chouette_record`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from nardy.cli.chouette_cli import ChouetteBots, chouette_record, scores_text
from nardy.cli.files import output
from nardy.cli.options import add_settings_arguments, seed, settings_from_args
from nardy.cli.words import counted
from nardy.core.chouette import Chouette
from nardy.core.dice import SeededDice
from nardy.core.game import Game
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.engine.bots import BOTS, Bot, make_bot, step
from nardy.engine.neural import NeuralBot
from nardy.notation.record import game_record


def add_parser(subparsers: Any) -> None:
    """Register ``nardy selfplay``."""
    parser = subparsers.add_parser(
        "selfplay",
        help="let two bots (or a chouette of bots) play and write the games as JSON lines",
        description="Let two bots play each other and write every game as a JSON record, one "
        "per line. With --match N, --games counts matches, each played to its end; in money "
        "play it counts games. With --chouette N, N neural bots play a chouette of "
        "--games games.",
    )
    add_settings_arguments(parser)
    parser.add_argument(
        "--games", type=_positive, required=True, metavar="N", help="games (or matches)"
    )
    parser.add_argument("--seed", type=seed, default=0, help="seed of the dice and bots (0)")
    parser.add_argument(
        "--out",
        required=True,
        metavar="FILE.jsonl",
        help="where to write the records ('-': standard output; a file there is written "
        "over, and checked before the first game)",
    )
    parser.add_argument(
        "--bots",
        type=_bots,
        metavar="A,B",
        help=f"the bots of players 0 and 1, from {', '.join(BOTS)} (heuristic,random)",
    )
    parser.add_argument(
        "--chouette",
        type=_chouette_size,
        metavar="N",
        help="a chouette of N neural bots, Bot1 … BotN (nardy rules 1.7; money play)",
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


def _chouette_size(text: str) -> int:
    if not (text.isdigit() and int(text) >= 3):
        raise argparse.ArgumentTypeError(f"a chouette needs three or more players, not {text!r}")
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
    if args.chouette is not None and args.bots is not None:
        print("nardy selfplay: error: --bots does not apply to --chouette", file=sys.stderr)
        return 2
    with output(args.out) as out:  # opened, and so checked, before the first game
        if args.chouette is not None:
            return _run_chouette(args, settings, out)
        return _run_bots(args, settings, out)


def _run_bots(args: argparse.Namespace, settings: Settings, out: TextIO) -> int:
    """Two bots play ``--games`` games (or matches); the tally goes to standard error."""
    bot_names: tuple[str, str] = args.bots or ("heuristic", "random")
    names = _players(bot_names)
    unit = "matches" if settings.match_length else "games"
    progress = _progress(args, unit)
    tally = Tally(names)
    done = 0  # matches, or games in money play: what --games counts
    sessions = 0
    while done < args.games:
        # Each match (or money session) has its own seeds; a money session goes on
        # until enough games are played, or until a limit it was given ends it.
        key = f"{args.seed}-{sessions}"
        sessions += 1
        bots = (make_bot(bot_names[0], f"{key}-0"), make_bot(bot_names[1], f"{key}-1"))
        match = Match(settings, SeededDice(key), players=names)
        while not match.over and done < args.games:
            number, game = _play_next_game(match, bots)
            record = game_record(game, number=number, players=names, score=match._score(number - 1))
            out.write(json.dumps(record) + "\n")
            assert game.result is not None
            tally.game(game.result.winner, game.result.points)
            if not settings.match_length:
                done += 1
                if progress is not None:
                    progress.show(done)
        if settings.match_length:
            tally.match(match.winner)
            done += 1
            if progress is not None:
                progress.show(done)
    print(f"{tally}; written to {_where(args.out)}", file=sys.stderr)
    return 0


def _where(out: str) -> str:
    """Where ``--out`` writes, in words."""
    return "standard output" if out == "-" else out


def _players(bots: tuple[str, str]) -> tuple[str, str]:
    """The players' names in the records and the tally: the bots', numbered as the seats
    are (``heuristic 0``, ``heuristic 1``) where both are the same bot, so that each game's
    winner can be told apart."""
    if bots[0] != bots[1]:
        return bots
    return f"{bots[0]} 0", f"{bots[1]} 1"


def _play_next_game(match: Match, bots: tuple[Bot, Bot]) -> tuple[int, Game]:
    """Play the match through ``Match.apply`` (the bots' :func:`step`) until its next game
    ends; that game and its number. The match starts each game by itself."""
    finished = sum(1 for game in match.games if game.over)
    while True:
        step(match, bots)
        if sum(1 for game in match.games if game.over) > finished:
            return finished + 1, match.games[finished]


class Tally:
    """What each of two bots won: games and points, and in match play matches."""

    def __init__(self, names: tuple[str, str]) -> None:
        self.names = names
        self.games = 0
        self.wins = [0, 0]
        self.points = [0, 0]
        self.matches: list[int | None] | None = None  # each match's winner, in match play

    def game(self, winner: int | None, points: int) -> None:
        """A game ended: won by ``winner`` (None: a draw) for ``points``."""
        self.games += 1
        if winner is not None:
            self.wins[winner] += 1
            self.points[winner] += points

    def match(self, winner: int | None) -> None:
        """A match ended, won by ``winner``."""
        self.matches = [*(self.matches or []), winner]

    def __str__(self) -> str:
        a, b = self.names
        games = (
            f"{counted(self.games, 'game')}: {a} won {self.wins[0]} "
            f"({counted(self.points[0], 'point')}), {b} won {self.wins[1]} "
            f"({counted(self.points[1], 'point')})"
        )
        if self.matches is None:
            return games
        won = [self.matches.count(0), self.matches.count(1)]
        matches = len(self.matches)
        return f"{counted(matches, 'match')}: {a} won {won[0]}, {b} won {won[1]} ({games})"


def _progress(args: argparse.Namespace, unit: str) -> Progress | None:
    """The progress bar on standard error, where it is a terminal or ``--progress`` asks."""
    if not (args.progress or sys.stderr.isatty()):
        return None
    progress = Progress(args.games, unit, sys.stderr)
    progress.show(0)
    return progress


def _run_chouette(args: argparse.Namespace, settings: Settings, out: TextIO) -> int:
    """``--chouette N``: one chouette of N neural bots, ``--games`` games; the final
    scores (which sum to zero) go to standard error."""
    names = [f"Bot{i}" for i in range(1, args.chouette + 1)]
    chouette = Chouette(names, settings, SeededDice(args.seed))
    # The net's bot, its cube decisions included (the heuristic's cube redoubles far too
    # eagerly for a chouette's many cubes); where a variant has no net it stands in itself.
    bots = ChouetteBots({name: NeuralBot() for name in names})
    progress = _progress(args, "games")
    for i in range(args.games):
        bots.play_game(chouette)
        out.write(json.dumps(chouette_record(chouette, i)) + "\n")
        if progress is not None:
            progress.show(i + 1)
    scores = chouette.scores
    print(
        f"{args.games} chouette games among {args.chouette} bots: "
        f"{scores_text({name: scores[name] for name in names})}; written to {_where(args.out)}",
        file=sys.stderr,
    )
    return 0
