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
import datetime
import sys
from pathlib import Path
from typing import Any

from nardy.cli.board import HOME_CORNERS
from nardy.cli.chouette_cli import ChouetteSession, chouette_players
from nardy.cli.options import add_settings_arguments, seed, settings_from_args, start_from_args
from nardy.cli.session import TerminalSession
from nardy.cli.terminal import ADVISER
from nardy.cli.words import counted, dice_text
from nardy.core.dice import Dice, SecretDice, SeededDice
from nardy.core.setup import start_match
from nardy.engine.bots import BOTS, LEVELS, Bot, make_bot

__all__ = ["DEFAULT_LEVEL", "add_parser", "counted", "dice_text", "run"]
"""``counted`` and ``dice_text`` stay importable from here for :mod:`nardy.cli.analysis`."""

DEFAULT_LEVEL = "expert"
"""The bot's level when ``--bot`` is not given: one roll of lookahead, about 20 ms a move."""


def _games(text: str) -> int:
    if not (text.isdigit() and int(text) > 0):
        raise argparse.ArgumentTypeError(f"expected a positive number of games, not {text!r}")
    return int(text)


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
        f"(default {DEFAULT_LEVEL}), or the heuristic or random bot; hints are always the "
        f"{ADVISER}'s",
    )
    parser.add_argument(
        "--chouette",
        type=chouette_players,
        metavar="NAME,NAME,NAME[,...]",
        help="a chouette of these players (RULES.md 1.7), money play; NAME:bot is the "
        "bot --bot names",
    )
    parser.add_argument(
        "--games",
        type=_games,
        metavar="N",
        help="a chouette: stop after N games (default: until quit or the end of the input)",
    )
    parser.add_argument("--seed", type=seed, help="reproducible dice (default: fair dice)")
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="where to save the games as JSON lines (default nardy-DATE-TIME.jsonl)",
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
        help="draw the home board on the other side (left/right) after each game (RULES.md 4)",
    )
    parser.set_defaults(handler=run)


def default_record_name(now: datetime.datetime | None = None) -> str:
    """``nardy-YYYY-MM-DD-HHMMSS.jsonl``: a fresh record file name with the date."""
    return f"nardy-{(now or datetime.datetime.now()):%Y-%m-%d-%H%M%S}.jsonl"


def run(args: argparse.Namespace) -> int:
    """``nardy play``: set up the match (or chouette) from the flags and play it on
    stdin/stdout."""
    start = start_from_args(args)
    settings = settings_from_args(args, start)
    dice: Dice = SecretDice() if args.seed is None else SeededDice(args.seed)
    record = Path(args.record or default_record_name())
    if args.chouette is not None:
        for wrong, flag in ((args.vs, "--vs"), (start, "a chosen position")):
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
        ).run()
    if args.games is not None:
        print("nardy play: error: --games applies only to --chouette", file=sys.stderr)
        return 2
    bots: tuple[Bot | None, Bot | None] = (None, None)
    if args.vs in (None, "bot"):
        players, bots = ("You", "Bot"), (None, make_bot(args.bot, seed=args.seed))
    else:
        players, bots = ("Player 1", "Player 2"), (None, None)
    match = start_match(settings, dice, players, start)
    notes = start.notes if start else ()
    session = TerminalSession(
        match, bots, sys.stdin, sys.stdout, home=args.home, record=record, notes=notes
    )
    session.switch_sides = args.switch_sides
    return session.run()
