"""``nardy play``: the command that sets up a game in the terminal, against the bot or two
people at one screen (:mod:`nardy.cli.session`), or a chouette of three or more
(``--chouette``, :mod:`nardy.cli.chouette_cli`), on the board that both share
(:mod:`nardy.cli.terminal`).

Before each decision the board is drawn from the side of the one who decides (against the
bot, always the person's side), with the dice, the cube, the score and whose turn it is.
At the end, on ``quit`` or at the end of the input, the games are saved as JSON records, one
per line (``docs/records.md``).

A game may start from a chosen position (RULES.md 4): ``--position`` with ``--turn``,
``--dice`` and ``--cube VALUE[:OWNER]`` (:mod:`nardy.cli.options`, :mod:`nardy.core.setup`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from nardy.cli.board import HOME_CORNERS
from nardy.cli.chouette_cli import ChouetteSession, chouette_players
from nardy.cli.options import add_settings_arguments, seed, settings_from_args, start_from_args
from nardy.cli.session import TerminalSession
from nardy.cli.terminal import ADVISER, default_record_name, record_problem
from nardy.core import NardyError, variants
from nardy.core.dice import Dice, SecretDice, SeededDice
from nardy.core.settings import Settings
from nardy.core.setup import start_match
from nardy.engine.bots import BOTS, LEVELS, Bot, make_bot
from nardy.engine.evaluator import has_net
from nardy.engine.neural import DEFAULT_LEVEL


def _games(text: str) -> int:
    if not (text.isdigit() and int(text) > 0):
        raise argparse.ArgumentTypeError(f"expected a positive number of games, not {text!r}")
    return int(text)


_WITHOUT_NET = tuple(v.name.lower() for v in variants() if not has_net(v))
"""The variants the neural bot has no net for: every level is the heuristic bot there."""


def _names(text: str) -> tuple[str, ...]:
    """``--name``: one name, or two separated by a comma."""
    names = tuple(name.strip() for name in text.split(","))
    if not all(names) or len(names) > 2:
        raise argparse.ArgumentTypeError(f"expected NAME or NAME,NAME, not {text!r}")
    return names


def add_parser(subparsers: Any) -> None:
    """Register ``nardy play``."""
    parser = subparsers.add_parser(
        "play",
        help="play in the terminal against the bot, another person, or a chouette",
        description="Play backgammon or long nardy in the terminal: against the bot "
        "(--vs bot, the default; --bot chooses its level), two people at one screen "
        "(--vs human), or a chouette of three or more (--chouette); from the start, or from "
        "a chosen position (--position). Type 'help' in the game for the commands.",
    )
    add_settings_arguments(parser, start=True)
    parser.add_argument(
        "--vs", choices=("bot", "human"), help="the opponent (default bot; not in a chouette)"
    )
    parser.add_argument(
        "--bot",
        choices=BOTS,
        default=DEFAULT_LEVEL,
        help=f"the bot: a level of the neural bot, weakest first {', '.join(LEVELS)} "
        f"(default {DEFAULT_LEVEL}, as in nardy engine), or the heuristic or random bot; "
        f"hints are always the {ADVISER}'s"
        + (
            f". Where a variant has no trained net yet ({', '.join(_WITHOUT_NET)}), every "
            "level plays as the heuristic bot"
            if _WITHOUT_NET
            else ""
        ),
    )
    parser.add_argument(
        "--chouette",
        type=chouette_players,
        metavar="NAME,NAME,NAME[,...]",
        help="a chouette of these players (nardy rules 1.7), money play; NAME:bot is the "
        "bot --bot names",
    )
    parser.add_argument(
        "--games",
        type=_games,
        metavar="N",
        help="a chouette: stop after N games (default: until quit or the end of the input)",
    )
    parser.add_argument(
        "--name",
        type=_names,
        metavar="NAME[,NAME]",
        help="your name in the game, its records and .mat files (default You; the bot is "
        "Bot); with --vs human the two players' names (default Player 1,Player 2)",
    )
    parser.add_argument("--seed", type=seed, help="reproducible dice (default: fair dice)")
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="where to save the games as JSON lines, each as it ends, after the games the "
        "file holds already; checked before the first game (default nardy-DATE-TIME.jsonl in "
        "the current folder)",
    )
    parser.add_argument(
        "--home",
        choices=HOME_CORNERS,
        default="bottom-right",
        help="where the home board of the side the board is drawn from is drawn",
    )
    parser.add_argument(
        "--switch-sides",
        action="store_true",
        help="draw the home board on the other side (left/right) after each game (nardy rules 4)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """``nardy play``: set up the match (or chouette) from the flags and play it on
    stdin/stdout."""
    start = start_from_args(args)
    settings = settings_from_args(args, start)
    dice: Dice = SecretDice() if args.seed is None else SeededDice(args.seed)
    record = Path(args.record or default_record_name())
    # '-' is standard output elsewhere; here the game is shown there.
    problem = "the game is shown on standard output" if args.record == "-" else None
    problem = problem or record_problem(record)
    if problem is not None:
        print(f"nardy play: error: cannot save the games to {record}: {problem}", file=sys.stderr)
        return 2
    if args.chouette is not None:
        wrongs = ((args.vs, "--vs"), (start, "a chosen position"), (args.name, "--name"))
        for wrong, flag in wrongs:
            if wrong is not None:
                print(f"nardy play: error: {flag} does not apply to --chouette", file=sys.stderr)
                return 2
        return ChouetteSession.start(
            args.chouette,
            settings,
            dice,
            sys.stdin,
            sys.stdout,
            home=args.home,
            record=record,
            games=args.games,
            bot=args.bot,
            notes=bot_notes(settings, args.bot),
        ).run()
    if args.games is not None:
        print("nardy play: error: --games applies only to --chouette", file=sys.stderr)
        return 2
    players, bots = _seats(args)
    if len(set(players)) < 2:
        print("nardy play: error: the two players need different names", file=sys.stderr)
        return 2
    match = start_match(settings, dice, players, start)
    notes = (*(start.notes if start else ()), *bot_notes(settings, args.bot))
    session = TerminalSession(
        match, bots, sys.stdin, sys.stdout, home=args.home, record=record, notes=notes
    )
    session.switch_sides = args.switch_sides
    return session.run()


def bot_notes(settings: Settings, bot: str) -> tuple[str, ...]:
    """What the session says of the bot ``--bot`` names: where the variant has no trained
    net, that every level plays as the heuristic bot."""
    if bot in LEVELS and not has_net(settings.rules):
        return (
            f"{settings.rules.name} has no trained net yet: the bot plays as the heuristic "
            "bot at every level, and the hints are its choices",
        )
    return ()


def _seats(args: argparse.Namespace) -> tuple[tuple[str, str], tuple[Bot | None, Bot | None]]:
    """The players' names and bots that ``--vs``, ``--bot`` and ``--name`` choose; raises
    :class:`~nardy.core.errors.NardyError` for a number of names that does not fit."""
    if args.vs in (None, "bot"):
        (name,) = _fitting(args.name, ("You",))
        return (name, "Bot"), (None, make_bot(args.bot, seed=args.seed))
    first, second = _fitting(args.name, ("Player 1", "Player 2"))
    return (first, second), (None, None)


def _fitting(names: tuple[str, ...] | None, default: tuple[str, ...]) -> tuple[str, ...]:
    if names is None:
        return default
    if len(names) != len(default):
        wanted = "one name (yours)" if len(default) == 1 else "two names, NAME,NAME"
        raise NardyError(f"--name: this game takes {wanted}, not {','.join(names)!r}")
    return names
