"""``nardy play``: a game in the terminal, against the bot or two people at one
screen, or a chouette of three or more (``--chouette``, in :mod:`nardy.cli.chouette_cli`).

Before each decision the board is drawn from the side of the one who decides (against the
bot, always the person's side), with the dice, the cube, the score and whose turn it is. A
player types a whole play in move notation (``24/18 13/11``, read generously) or single moves
one at a time (``24/18``, then ``13/11``); either way the moves are made one by one and the
turn ends only when the player confirms it with Enter (RULES.md 1.9), or at once with a
trailing ``!``; ``help`` lists every command. Wrong input gets a message saying why and the
same question again, and changes nothing. At the end, on ``quit`` or at the end of the input,
the games are saved as JSON records, one per line (``docs/records.md``).

A game may start from a chosen position (RULES.md 4): ``--position`` with ``--turn``,
``--dice`` and ``--cube VALUE[:OWNER]`` (:mod:`nardy.cli.options`, :func:`start_game`).

:class:`Terminal` is the board at the terminal that both kinds of session share: the
drawing, the questions, the commands, single moves with undo and confirm, hints. It acts
through a :class:`Seat`, the hands of whoever speaks: :class:`PlayerSeat` for a player of a
two-player game, the chouette's seat for a participant named there.
"""

from __future__ import annotations

import abc
import argparse
import datetime
import json
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from nardy.cli.board import HOME_CORNERS, render
from nardy.cli.options import (
    Start,
    add_settings_arguments,
    describe_settings,
    seed,
    settings_from_args,
    start_from_args,
)
from nardy.core import (
    CHECKERS,
    OFF,
    Move,
    NardyError,
    Play,
    format_moves,
    parse_moves,
)
from nardy.core.dice import Dice, FixedDice, SecretDice, SeededDice
from nardy.core.errors import IllegalPlayError
from nardy.core.game import Cube, Game, GameError, GameResult, Phase
from nardy.core.match import Match
from nardy.engine.bots import BOTS, LEVELS, Bot, deciding_player, make_bot, step
from nardy.engine.cube import CubeDecision
from nardy.engine.neural import NeuralBot
from nardy.notation.record import match_records

DEFAULT_LEVEL = "expert"
"""The bot's level when ``--level`` is not given: one roll of lookahead, about 20 ms a move."""
ADVISER = "expert"
"""The level whose choices the hint command shows."""

HELP = """\
Commands (the first letter is enough where it is shown in brackets):
  Enter / [r]oll     roll the dice; once the moves make a whole play, Enter confirms it
  24/18 13/11        a whole play, or single moves one at a time (24/18, then 13/11):
                     either way the turn ends only when you confirm it
  24/18 13/11!       a trailing ! confirms at once (for a whole play, or the last move)
  bar/22  6/off      the bar and bearing off; 13/10(2) repeats a move; * marks a hit
  [u]ndo             take back the last single move of this turn
  [c]onfirm          end the turn once the moves make a whole play
  [d]ouble           offer the cube before rolling
  [t]ake  [p]ass  [b]eaver      answer a double
  resign [1|2|3]     offer to resign a single, gammon or backgammon (asks: are you sure?)
  [a]ccept  decline  answer a resignation
  surrender          long nardy: give the game up (asks: are you sure?)
  plays              list the legal plays of the dice
  [h]int             what the expert bot would do, with its equities
  help               this list
  [q]uit             stop; the games so far are saved"""

_SHORT = {
    "r": "roll",
    "u": "undo",
    "c": "confirm",
    "d": "double",
    "t": "take",
    "p": "pass",
    "b": "beaver",
    "a": "accept",
    "h": "hint",
    "?": "help",
    "q": "quit",
    "exit": "quit",
}

_PHASES: dict[str, frozenset[Phase]] = {
    "roll": frozenset({Phase.ROLL}),
    "double": frozenset({Phase.ROLL}),
    "move": frozenset({Phase.MOVING}),
    "undo": frozenset({Phase.MOVING}),
    "confirm": frozenset({Phase.MOVING}),
    "plays": frozenset({Phase.MOVING}),
    "take": frozenset({Phase.DOUBLED, Phase.BEAVERED}),
    "pass": frozenset({Phase.DOUBLED, Phase.BEAVERED}),
    "beaver": frozenset({Phase.DOUBLED}),
    "resign": frozenset({Phase.ROLL, Phase.MOVING}),
    "surrender": frozenset({Phase.ROLL, Phase.MOVING}),
    "accept": frozenset({Phase.RESIGNED}),
    "decline": frozenset({Phase.RESIGNED}),
}
"""The phases in which each command can be carried out: outside them the game's refusal is
put in plain words (:meth:`Terminal._plain_refusal`)."""

_WAITING = {
    Phase.OPENING: ("wait for the opening roll", "the opening roll comes first"),
    Phase.ROLL: ("roll first", "the dice are not rolled yet"),
    Phase.MOVING: ("you have already rolled", "the dice are on the table"),
    Phase.DOUBLED: ("answer the double first", "the double waits for an answer"),
    Phase.BEAVERED: ("answer the beaver first", "the beaver waits for an answer"),
    Phase.CHOOSE_DOUBLE: ("name a double first (1-6)", "a double waits to be named"),
    Phase.RESIGNED: ("answer the resignation first", "the resignation waits for an answer"),
    Phase.OVER: ("the game is over", "the game is over"),
}
"""What the game waits for, said to the one who decides now and to anyone else."""

_LEVELS = {1: "a single", 2: "a gammon", 3: "a backgammon"}


class Quit(Exception):
    """The player quit, or the input ended."""


BOT_SUFFIX = ":bot"
"""Marks a chouette participant played by the bot: ``--chouette Ann,Bob:bot,Cy``."""


def chouette_players(text: str) -> tuple[tuple[str, bool], ...]:
    """``--chouette``: three or more names separated by commas, each (name, played by the
    bot), a name ending in ``:bot`` being the bot's."""
    players = []
    for item in text.split(","):
        name = item.strip()
        bot = name.lower().endswith(BOT_SUFFIX)
        if bot:
            name = name[: -len(BOT_SUFFIX)].strip()
        if not name or ":" in name:
            raise argparse.ArgumentTypeError(f"expected NAME or NAME{BOT_SUFFIX}, not {item!r}")
        players.append((name, bot))
    if len(players) < 3:
        raise argparse.ArgumentTypeError(f"a chouette needs three or more players, not {text!r}")
    return tuple(players)


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
        help="a chouette of these players (nardy rules 1.7), money play; NAME:bot is the "
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
        help="draw the home board on the other side (left/right) after each game (nardy rules 4)",
    )
    parser.set_defaults(handler=run)


def _cube_words(decision: CubeDecision) -> str:
    """A cube decision as GNU Backgammon words it, with the equities of the actions that
    are open (normalised to the cube; EMG in a match)."""
    parts = [f"no double {decision.no_double:+.3f}"]
    if decision.double_take is not None:
        parts.append(f"double/take {decision.double_take:+.3f}")
    if decision.double_pass is not None:
        parts.append(f"double/pass {decision.double_pass:+.3f}")
    return f"{decision.text}: " + ", ".join(parts)


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
        # Imported here: the chouette's terminal is built on this module's Terminal.
        from nardy.cli.chouette_cli import ChouetteSession

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
    match = Match(
        settings,
        dice,
        players=players,
        start_score=start.score if start else (0, 0),
        crawford_played=start.crawford_played if start else False,
    )
    notes: Sequence[str] = ()
    if start is not None:
        start_game(match, start)
        notes = start.notes
    session = TerminalSession(
        match, bots, sys.stdin, sys.stdout, home=args.home, record=record, notes=notes
    )
    session.switch_sides = args.switch_sides
    return session.run()


# -- a game from a chosen position (RULES.md 4) -------------------------------------------------


class ChosenDice:
    """The dice chosen for the first roll of a game from a chosen position, then those of
    ``then`` (a :class:`~nardy.core.dice.Dice`, the match's)."""

    def __init__(self, first: Sequence[int], then: Dice) -> None:
        self._first = FixedDice(first)
        self._then = then

    def die(self) -> int:
        return self._first.die() if self._first.remaining() else self._then.die()


def mirrored(home: str) -> str:
    """The same corner on the other side: the display setting "automatic switching of
    sides after each game" (RULES.md 4)."""
    vertical, side = home.split("-")
    return f"{vertical}-{'left' if side == 'right' else 'right'}"


def start_game(match: Match, start: Start) -> Game:
    """Start the next game of ``match`` from the chosen position, player on roll and cube
    of ``start``; with chosen dice the player on roll has rolled them, with a double in the
    ID they have doubled. Raises :class:`NardyError` (changing nothing) where the game
    cannot start so."""
    if start.cube != (1, None) and not match.settings.cube:
        raise GameError("the cube is off in this game: a cube cannot be chosen")
    game = match.new_game(
        position=start.position,
        first_player=start.turn,
        cube=Cube(*start.cube),
        dice=ChosenDice(start.dice or (), match.dice),
    )
    if start.doubled:
        game.double(start.turn)
    elif start.dice is not None:
        game.roll(start.turn)
    return game


# -- the hands of whoever decides -------------------------------------------------------------


class Seat(Protocol):
    """The hands of the one who decides now: every action a person can type, made on their
    behalf. The game (or the chouette around it) refuses, with a :class:`NardyError` and
    changing nothing, an action this one may not take now."""

    def roll(self) -> tuple[int, int]: ...
    def move(self, start: int, end: int) -> Move: ...
    def undo(self) -> None: ...
    def confirm(self) -> None: ...
    def play(self, play: Play | str) -> Play: ...
    def choose_double(self, die: int) -> None: ...
    def double(self) -> None: ...
    def take(self) -> None: ...
    def pass_double(self) -> None: ...
    def beaver(self) -> None: ...
    def resign(self, level: int) -> None: ...
    def accept_resignation(self) -> None: ...
    def decline_resignation(self) -> None: ...
    def surrender(self) -> None: ...


class PlayerSeat:
    """Player 0 or 1 of a two-player game: each action goes straight to the game."""

    def __init__(self, game: Game, player: int) -> None:
        self.game = game
        self.player = player

    def roll(self) -> tuple[int, int]:
        return self.game.roll(self.player)

    def move(self, start: int, end: int) -> Move:
        return self.game.move(self.player, start, end)

    def undo(self) -> None:
        self.game.undo(self.player)

    def confirm(self) -> None:
        self.game.confirm(self.player)

    def play(self, play: Play | str) -> Play:
        return self.game.play(self.player, play)

    def choose_double(self, die: int) -> None:
        self.game.choose_double(self.player, die)

    def double(self) -> None:
        self.game.double(self.player)

    def take(self) -> None:
        self.game.take(self.player)

    def pass_double(self) -> None:
        self.game.pass_double(self.player)

    def beaver(self) -> None:
        self.game.beaver(self.player)

    def resign(self, level: int) -> None:
        self.game.resign(self.player, level)

    def accept_resignation(self) -> None:
        self.game.accept_resignation(self.player)

    def decline_resignation(self) -> None:
        self.game.decline_resignation(self.player)

    def surrender(self) -> None:
        self.game.surrender(self.player)


# -- the terminal -----------------------------------------------------------------------------


class Terminal(abc.ABC):
    """One board played at a terminal, by people typing and bots: the board, the question
    of the moment, the commands (``help``), and the records saved at the end.

    Player 0 and player 1 are the game's two sides; :meth:`name` says who speaks for a side.
    Subclasses say what the session is (:meth:`_session`), whose turn it is to speak and
    what is recorded (:meth:`_records`). Everything is written to ``out``; when ``inp`` is
    not a terminal each line read is echoed after its prompt, so that a scripted session
    reads as a dialogue.
    """

    help_text = HELP

    def __init__(
        self,
        inp: TextIO,
        out: TextIO,
        *,
        home: str = "bottom-right",
        record: Path | None = None,
    ) -> None:
        self.inp = inp
        self.out = out
        self.home = home
        self.switch_sides = False
        self.record = record
        self.adviser = NeuralBot(ADVISER)
        self._shown: tuple[object, ...] | None = None  # what the last board drawn showed
        self._told: tuple[object, ...] | None = None  # the situation last described
        self._last_roll: Game | None = None  # the game whose last roll was announced

    # -- what a session says about itself ----------------------------------------------------

    @abc.abstractmethod
    def name(self, player: int) -> str:
        """Who speaks for side ``player`` now."""

    def _label(self, player: int) -> str:
        """How the board's caption names side ``player``."""
        return self.name(player)

    @abc.abstractmethod
    def _score(self) -> str:
        """The score, as the questions quote it."""

    @abc.abstractmethod
    def _session(self) -> None:
        """Play the session from its first words to its end (raises :class:`Quit`)."""

    @abc.abstractmethod
    def _records(self) -> list[dict[str, Any]]:
        """The JSON record of every game so far, unfinished ones too."""

    def _viewer(self, game: Game) -> int:
        """The side the board is drawn from when nobody is asked (at the end of a game)."""
        return game.turn

    # -- input and output ------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        """One line of input, stripped; raises :class:`Quit` at the end of the input."""
        if self.inp is sys.stdin and self.out is sys.stdout and sys.stdin.isatty():
            try:
                return input(prompt).strip()  # line editing where the terminal has it
            except EOFError:
                self.say()
                raise Quit from None
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            raise Quit
        self.out.write(line if line.endswith("\n") else line + "\n")
        return line.strip()

    def _does(self, player: int, verb: str) -> str:
        """The player's name and the verb agreeing with it: "You win", "Bot wins"."""
        name = self.name(player)
        return f"{name} {conjugate(name, verb)}"

    def _verb(self, player: int, verb: str) -> str:
        """The verb agreeing with the player's name: "win" for You, "wins" for Bot."""
        return conjugate(self.name(player), verb)

    def _sure(self, player: int, what: str) -> bool:
        """Say ``what`` is about to happen and ask the one who speaks for ``player`` to
        confirm it (y/n)."""
        self.say(f"  {what}")
        while True:
            answer = self.ask(f"{self.name(player)}: are you sure? (y/n)> ").lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                self.say("  Not done: play on.")
                return False
            self.say("  Type y (yes) or n (no).")

    # -- the session -----------------------------------------------------------------------

    def run(self) -> int:
        """Play until the session is over, the player quits or the input ends; the games
        are saved to :attr:`record` in every case. Returns the exit status."""
        status = 0
        try:
            self._session()
        except Quit:
            self.say("Stopped.")
        except KeyboardInterrupt:
            self.say("\nInterrupted.")
            status = 130
        finally:
            saved = self.save()
        if self.record is not None and saved:
            self.say(f"Saved {saved} game{'s' if saved != 1 else ''} to {self.record}.")
        return status

    def save(self) -> int:
        """Write every game so far as JSON lines to :attr:`record` (unfinished ones too);
        returns how many."""
        records = self._records()
        if self.record is None or not records:
            return 0
        lines = [json.dumps(r) + "\n" for r in records]
        self.record.write_text("".join(lines), encoding="utf-8")
        return len(records)

    def _between_games(self, number: int) -> None:
        while True:
            answer = self.ask(f"Enter for game {number}, or quit> ").lower()
            if _SHORT.get(answer, answer) == "quit":
                raise Quit
            if not answer:
                return
            self.say("  Press Enter to play on, or type quit.")

    # -- one game --------------------------------------------------------------------------

    def _opening(self, game: Game) -> None:
        game.roll_opening()
        rolls = game.opening_rolls
        for a, b in rolls[:-1]:
            self.say(f"Opening roll: {self.name(0)} {a}, {self.name(1)} {b}: equal, again.")
        a, b = rolls[-1]
        first = game.turn
        self.say(f"Opening roll: {self.name(0)} {a}, {self.name(1)} {b}.")
        if game.cube.automatic:
            self.say(f"Automatic doubles: the cube is on {game.cube.value}.")
        if game.phase is Phase.MOVING:
            dice = game.dice
            assert dice is not None
            self.say(f"{self._does(first, 'play')} first with {dice_text(dice)}.")
        elif game.phase is Phase.ROLL:
            self.say(f"{self._does(first, 'move')} first and {self._verb(first, 'roll')}.")
        else:  # the opening dice had no legal move and the turn passed at once
            self.say(f"{self.name(first)} cannot move the opening roll.")

    def _announce_last_roll(self, game: Game) -> None:
        """Long nardy's last roll (RULES.md 3.4): say once that the first player has borne
        everything off and the other gets one roll to draw."""
        if game is self._last_roll or game.phase is not Phase.ROLL:
            return
        if game.settings.last_roll and game.position.theirs[OFF] == CHECKERS:
            self._last_roll = game
            done, last = 1 - game.turn, game.turn
            self.say(
                f"{self._does(done, 'have')} borne off all {CHECKERS}; {self.name(last)} "
                f"{self._verb(last, 'get')} one last roll to draw."
            )

    def _last_roll_outcome(self, game: Game, result: GameResult) -> str:
        """Before a result: how the last roll went, where the game ended with one."""
        if game is not self._last_roll or result.kind in ("pass", "resign", "draw"):
            return ""
        return "The last roll did not bear off every checker. "

    # -- a person's decision ---------------------------------------------------------------

    def _human(self, game: Game, player: int) -> None:
        """Ask the person who speaks for ``player`` for one line, and carry it out."""
        self._show(game, player)
        self._describe(game, player)
        line = self.ask(self._prompt(game, player))
        try:
            self._command(game, player, line)
        except NardyError as exc:
            self.say(f"  {exc}")

    def _show(self, game: Game, viewer: int) -> None:
        """Draw the board from ``viewer``'s side when what it shows has changed since it was
        last drawn (a move, the dice, whose turn, whose side)."""
        position = game.position_for(viewer)
        cube = (game.cube.value, game.cube.owner)
        key = (game, viewer, game.turn, position, game.dice, cube, game.over)
        if key == self._shown:
            return
        self._shown = key
        self.say()
        self.say(render(position, home=self.home, on_roll=viewer == game.turn or game.over))
        self.say(self._caption(game, viewer))

    def _caption(self, game: Game, viewer: int) -> str:
        """Under the board: whose side it is drawn from, who is who, who is on roll with
        which dice, and the cube."""
        mine, theirs = self._label(viewer), self._label(1 - viewer)
        side = "your side" if mine == "You" else f"the side of {mine}"
        said = [f" Drawn from {side}: X = {mine}, O = {theirs}.\n"]
        if not game.over:
            roller = self._label(game.turn)
            dice = f" with {dice_text(game.dice)}" if game.dice else ""
            said.append(f"{roller[0].upper()}{roller[1:]} {conjugate(roller, 'be')} on roll{dice}.")
        said.append(self._cube(game))
        return " ".join(said)

    def _cube(self, game: Game) -> str:
        if not game.settings.cube:
            return "No cube."
        cube = game.cube
        where = "centred" if cube.owner is None else f"owned by {self._label(cube.owner)}"
        return f"Cube: {cube.value}, {where}."

    def _describe(self, game: Game, player: int) -> None:
        """Say what the game waits for, once per new situation."""
        key = (
            self._shown,
            game.phase,
            game.dice,
            tuple(game.moves_made),
            game.cube.value,
            self.name(player),
        )
        if key == self._told:
            return
        self._told = key
        self.say(self._situation(game, player))

    def _situation(self, game: Game, player: int) -> str:
        """What the game waits for from the one who speaks for ``player``."""
        name = self.name(player)
        phase = game.phase
        if phase is Phase.ROLL:
            cube = f" {self._cube(game)}" if game.settings.cube else ""
            return f"{name} to roll. Score: {self._score()}.{cube}"
        if phase is Phase.MOVING:
            dice = game.dice
            assert dice is not None
            made = game.moves_made
            if not made:
                return f"{name} to play {dice_text(dice)}."
            if game.next_moves():
                return f"{name} to play {dice_text(dice)}; moved {format_moves(made)} so far."
            return f"Moved {format_moves(made)}: Enter confirms it, undo takes a move back."
        if phase is Phase.CHOOSE_DOUBLE:
            return f"{name} played the 1-2: name a double to play (1-6), then roll again."
        if phase is Phase.DOUBLED:
            doubler = self.name(game.turn)
            value = 2 * game.cube.value
            return f"{doubler} doubles: play on for {value}, or pass and lose {game.cube.value}."
        if phase is Phase.BEAVERED:
            return (
                f"{self.name(1 - player)} beavers: the cube is on {game.cube.value}. Take to "
                f"play on for {2 * game.cube.value}, or pass and lose {game.cube.value}."
            )
        pending = game.resignation()
        assert pending is not None
        resigner, level = pending
        return f"{self.name(resigner)} offers to resign {_LEVELS[level]}: {_stake(game, level)}."

    def _prompt(self, game: Game, player: int) -> str:
        phase = game.phase
        if phase is Phase.ROLL:
            choice = "roll or double" if game.can_double(player) else "roll"
        elif phase is Phase.MOVING:
            choice = "confirm or undo" if game.moves_made and not game.next_moves() else "move"
        elif phase is Phase.CHOOSE_DOUBLE:
            choice = "name a double"
        elif phase is Phase.DOUBLED:
            choice = "take, pass or beaver" if game.settings.beaver else "take or pass"
        elif phase is Phase.BEAVERED:
            choice = "take or pass"
        else:
            choice = "accept or decline"
        return f"{self.name(player)}: {choice}> "

    def _command(self, game: Game, player: int, line: str) -> None:
        """Carry out one line typed by the one who speaks for ``player``; raises
        :class:`NardyError` (changing nothing) when it is not allowed."""
        self._carry_out(game, player, line, PlayerSeat(game, player))

    def _carry_out(self, game: Game, player: int, line: str, seat: Seat) -> None:
        """Carry out one line by ``seat``, who speaks for ``player`` (whose side the hint
        and the plays are for). A refusal because the game is not at that point yet (or any
        more) is said in plain words (:meth:`_plain_refusal`)."""
        words = line.lower().split()
        command = _SHORT.get(words[0], words[0]) if words else ""
        phase = game.phase
        if command == "quit":
            raise Quit
        if command == "help":
            self.say(self.help_text)
            return
        if command == "hint":
            self.say(f"  Hint: {self._hint(game, player)}")
            return
        if not command:
            command = {Phase.MOVING: "confirm", Phase.ROLL: "roll"}.get(phase, "")
        elif "/" in line and command not in _PHASES:
            command = "move"
        try:
            self._dispatch(game, player, command, line, seat)
        except GameError as exc:
            plain = self._plain_refusal(game, player, command, exc)
            if plain is None:
                raise
            raise GameError(plain) from exc

    def _dispatch(self, game: Game, player: int, command: str, line: str, seat: Seat) -> None:
        words = line.lower().split()
        if command == "plays":
            self._list_plays(game)
        elif command == "roll":
            seat.roll()
            self._passed(game, player, "roll")
        elif command == "confirm":
            self._confirm(game, seat)
        elif command == "undo":
            seat.undo()
        elif command == "double":
            seat.double()
        elif command == "take":
            seat.take()
        elif command == "pass":
            seat.pass_double()
        elif command == "beaver":
            seat.beaver()
        elif command == "resign":
            level = _resign_level(words)
            if self._asks_first(game, command):
                said = f"Resigning {_LEVELS[level]}: {_stake(game, level)}."
                if not self._sure(player, said[0].upper() + said[1:]):
                    return
            seat.resign(level)
        elif command == "surrender":
            said = "Surrendering gives the game up, scored from the checkers as they stand."
            if not self._asks_first(game, command) or self._sure(player, said):
                seat.surrender()
        elif command == "accept":
            seat.accept_resignation()
        elif command == "decline":
            seat.decline_resignation()
            self.say(f"  {self._does(player, 'decline')}: play on.")
        elif game.phase is Phase.CHOOSE_DOUBLE and command.isdigit():
            seat.choose_double(int(command))
            self._passed(game, player, "name")
        elif command == "move":
            self._moves(game, seat, line)
        elif not command:
            raise GameError(f"nothing to do with Enter now: {self._prompt(game, player)[:-2]}")
        else:
            moves = ", or a move such as 24/18" if game.phase is Phase.MOVING else ""
            raise GameError(f"{line!r} is not a command here: type help for the list{moves}")

    def _asks_first(self, game: Game, command: str) -> bool:
        """Whether to ask "are you sure?" before a resignation or surrender: only where the
        game would take it (the right phase, a variant that has it)."""
        levels = bool(game.variant.resignation_levels)
        return game.phase in _PHASES[command] and levels == (command == "resign")

    def _plain_refusal(self, game: Game, player: int, command: str, exc: GameError) -> str | None:
        """The game refused ``command`` with ``exc``: where the reason is that the game is not
        at that point, the reason in plain words ("you have already rolled"); None keeps the
        game's own message."""
        phase = game.phase
        allowed = _PHASES.get(command)
        if allowed is None or phase in allowed:
            return None
        if command in ("take", "pass", "beaver"):
            if phase is Phase.BEAVERED:
                return "the double is beavered already: take or pass"
            return "there is no double to answer now"
        if command in ("accept", "decline"):
            return "there is no resignation to answer now"
        yours, anyone = _WAITING[phase]
        return yours if deciding_player(game) == player else anyone

    def _passed(self, game: Game, player: int, verb: str) -> None:
        """A roll (or named double) with no legal move ends the turn by itself: say so."""
        if game.phase is not Phase.MOVING:
            self.say(f"  {self._does(player, verb)} {rolled(game)}.")

    def _confirm(self, game: Game, seat: Seat) -> None:
        if not game.moves_made:
            raise IllegalPlayError("no moves yet: type a play, or single moves one at a time")
        seat.confirm()

    def _moves(self, game: Game, seat: Seat, line: str) -> None:
        """A whole play (from the start of the turn) or single moves, entered as single
        moves for the player to confirm (at once with a trailing ``!``). A hop that spans
        several dice (``24/13`` with 6-5) is walked one die at a time. On any error the turn
        is left as it was."""
        text = line.strip()
        confirm = text.endswith("!")
        text = text.rstrip("!").strip()
        if game.phase is not Phase.MOVING or game.dice is None:
            raise GameError("no dice on the table")
        made = len(game.moves_made)
        try:
            self._enter(game, seat, text, game.dice)
            if confirm:
                self._confirm(game, seat)
        except NardyError:
            while len(game.moves_made) > made:  # leave the turn as it was
                seat.undo()
            raise

    def _enter(self, game: Game, seat: Seat, text: str, dice: tuple[int, int]) -> None:
        whole_error: NardyError | None = None
        if not game.moves_made:
            try:
                play = game.turn_start.parse_play(text, *dice)
            except NardyError as exc:
                whole_error = exc
            else:
                if not _enter_moves(game, seat, list(play.moves)):  # pragma: no cover
                    raise IllegalPlayError(f"{play} cannot be made one move at a time")
                return
        segments = parse_moves(text)
        try:
            for segment in segments:
                if not _walk(game, seat, segment.start, segment.end):
                    legal = ", ".join(sorted({str(m) for m in game.next_moves()})) or "none"
                    wanted = Move(segment.start, segment.end)
                    raise IllegalPlayError(f"{wanted} is not a legal move now; legal: {legal}")
        except NardyError as exc:
            raise (whole_error if whole_error and len(segments) > 1 else exc) from None

    def _hint(self, game: Game, player: int) -> str:
        adviser = self.adviser
        phase = game.phase
        advice = adviser.stand_in(game.variant) is None  # the net's numbers, where it has one
        if phase is Phase.ROLL:
            doubling = game.can_double(player) and adviser.should_double(game, player)
            hint = "double" if doubling else "roll"
            if advice and game.can_double(player):
                hint += f" ({_cube_words(adviser.cube_decision(game))})"
            return hint
        if phase is Phase.MOVING:
            dice = game.dice
            assert dice is not None
            again = " (from the start of the turn: undo first)" if game.moves_made else ""
            if not advice:
                play = adviser.choose_play(game.turn_start, *dice)
                return f"{play}{again}" if play.moves else "no legal move"
            return self._ranked_hint(game, dice) + again
        if phase is Phase.CHOOSE_DOUBLE:
            return str(adviser.choose_double(game.position))
        if phase in (Phase.DOUBLED, Phase.BEAVERED):
            if (
                phase is Phase.DOUBLED
                and game.settings.beaver
                and adviser.should_beaver(game, player)
            ):
                answer = "beaver"
            else:
                answer = "take" if adviser.should_take(game, player) else "pass"
            return f"{answer} ({_cube_words(adviser.cube_decision(game))})" if advice else answer
        pending = game.resignation()
        assert pending is not None
        return "accept" if adviser.accept_resignation(game, player, pending[1]) else "decline"

    def _ranked_hint(self, game: Game, dice: tuple[int, int]) -> str:
        """The adviser's play with its cubeless equity, and the next best play's."""
        position = game.turn_start
        ranked = self.adviser.evaluator(position).rank(position, *dice, self.adviser.level.ply)
        plays = {(p.position.mine, p.position.theirs): p for p in position.legal_plays(*dice)}
        if not plays:
            return "no legal move"
        best = ranked[0]
        text = f"{plays[best.after]} (equity {best.equity:+.3f}"
        if len(ranked) > 1:
            second = ranked[1]
            text += f"; next {plays[second.after]} {second.equity - best.equity:+.3f}"
        return text + ")"

    def _list_plays(self, game: Game) -> None:
        """Every legal play of the dice: on one line where they fit, else in columns."""
        plays = [str(p) for p in game.legal_plays()]  # raises GameError before the roll
        head = f"  {counted(len(plays), 'legal play')}"
        width = shutil.get_terminal_size().columns
        if len(head) + 2 + sum(len(p) + 2 for p in plays) <= width:
            self.say(f"{head}: {', '.join(plays)}")
            return
        self.say(f"{head}:")
        cell = max(len(p) for p in plays) + 3
        per_row = max(1, (width - 4) // cell)
        for i in range(0, len(plays), per_row):
            self.say("    " + "".join(p.ljust(cell) for p in plays[i : i + per_row]).rstrip())


class TerminalSession(Terminal):
    """A match (or money session) of two players at a terminal.

    ``bots`` has one entry per seat: a :class:`Bot` plays that seat, None is a person typing
    at ``inp``. A game already under way in ``match`` (one from a chosen position,
    :func:`start_game`) is played first; ``notes`` are said before it.
    """

    def __init__(
        self,
        match: Match,
        bots: Sequence[Bot | None],
        inp: TextIO,
        out: TextIO,
        *,
        home: str = "bottom-right",
        record: Path | None = None,
        notes: Sequence[str] = (),
    ) -> None:
        super().__init__(inp, out, home=home, record=record)
        self.match = match
        self.bots = tuple(bots)
        self.notes = tuple(notes)
        game = match.game
        self._chosen = game if game is not None and not game.over else None

    def name(self, player: int) -> str:
        return self.match.players[player]

    def _viewer(self, game: Game) -> int:
        people = [seat for seat, bot in enumerate(self.bots) if bot is None]
        return people[0] if len(people) == 1 else game.turn

    def _records(self) -> list[dict[str, Any]]:
        return match_records(self.match)

    def _session(self) -> None:
        self.say(self._title())
        self.say(f"Settings: {describe_settings(self.match.settings)}.")
        self.say("Type 'help' for the commands.")
        for note in self.notes:
            self.say(f"Note: {note}.")
        while not self.match.over:
            game = self.match.game
            if game is None or game.over:
                game = self.match.new_game()
            self._play(game)
            self.save()
            if not self.match.over:
                self._between_games(len(self.match.games) + 1)
        self._match_over()

    def _title(self) -> str:
        settings = self.match.settings
        what = settings.rules.name
        if self.match.length:
            what += f", a {self.match.length}-point match"
        elif settings.rules.resignation_levels:
            what += ", money play"
        else:
            what += ", an unlimited series"
        return f"{what}: {self.name(0)} against {self.name(1)}."

    def _match_over(self) -> None:
        a, b = self.match.score
        winner = self.match.winner
        if self.match.length and winner is not None:
            self.say(f"{self._does(winner, 'win')} the match {max(a, b)}-{min(a, b)}.")
        else:
            self.say(f"The session is over: {self._score()}.")

    def _score(self) -> str:
        a, b = self.match.score
        return f"{self.name(0)} {a}, {self.name(1)} {b}"

    def _play(self, game: Game) -> None:
        number = len(self.match.games)
        if self.switch_sides and number > 1:
            self.home = mirrored(self.home)
        crawford = " (the Crawford game: no doubling)" if game.crawford else ""
        self.say(f"\nGame {number}{crawford}. Score: {self._score()}.")
        if game is self._chosen:
            self.say(self._chosen_start(game))
        elif game.phase is Phase.ROLL:  # a later game of a long-nardy series: no lot
            self.say(f"{self._does(game.turn, 'start')}.")
        while not game.over:
            if game.phase is Phase.OPENING:
                self._opening(game)
                continue
            self._announce_last_roll(game)
            player = deciding_player(game)
            assert player is not None
            bot = self.bots[player]
            if bot is None:
                self._human(game, player)
                continue
            rolling = game.phase is Phase.ROLL
            done = step(game, self.bots)
            if rolling and game.phase is not Phase.DOUBLED:  # the dice, larger first
                done = f"rolls {rolled(game)}"
            self.say(f"{self.name(player)} {done}.")
        self._show(game, self._viewer(game))
        assert game.result is not None
        self.say(self._last_roll_outcome(game, game.result) + self._result(game.result))
        self.say(f"Score: {self._score()}.")

    def _chosen_start(self, game: Game) -> str:
        """How a game from a chosen position begins: who is on roll, with which dice."""
        first = game.first_player
        assert first is not None
        said = f"A game from a chosen position: {self._does(first, 'be')} on roll"
        if game.records:  # the chosen dice had no legal move
            said += f" and {self._verb(first, 'roll')} {rolled(game)}"
        elif game.phase is Phase.MOVING:
            assert game.dice is not None
            said += f" with {dice_text(game.dice)}"
        elif game.phase is Phase.DOUBLED:
            said += f" and {self._verb(first, 'double')} to {2 * game.cube.value}"
        return said + "."

    def _result(self, result: GameResult) -> str:
        if result.winner is None:
            return "The game is a draw: the last roll bore every checker off."
        winner, loser = result.winner, 1 - result.winner
        points = counted(result.points, "point")
        wins = self._does(winner, "win")
        if result.kind == "pass":
            return f"{self._does(loser, 'pass')} the double. {wins} {points}."
        if result.kind == "resign":
            gave_up = "surrender" if not self.match.settings.rules.resignation_levels else "resign"
            return f"{self._does(loser, gave_up)} ({result.level}). {wins} {points}."
        article = "an" if result.kind[0] in "aeiou" else "a"
        return f"{wins} {article} {result.kind}: {points}."


# -- helpers ------------------------------------------------------------------------------------

_IRREGULAR = {"be": ("are", "is"), "have": ("have", "has")}


def conjugate(name: str, verb: str) -> str:
    """``verb`` agreeing with ``name`` as its subject: "You roll", "Player 2 rolls", "Bot
    passes", "You are", "Ann has"."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb][name != "You"]
    if name == "You":
        return verb
    return verb + ("es" if verb.endswith(("s", "sh", "ch", "x")) else "s")


def counted(count: int, noun: str) -> str:
    """``1 point``, ``3 points``, ``2 matches``."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {noun}{'es' if noun.endswith(('s', 'sh', 'ch', 'x')) else 's'}"


def dice_text(dice: tuple[int, int]) -> str:
    """Dice as GNU Backgammon writes them, the larger first: ``5-3``."""
    return f"{max(dice)}-{min(dice)}"


def rolled(game: Game) -> str:
    """What the roll just made in ``game`` shows, the larger die first, and ``: no legal
    move`` where it passed the turn by itself."""
    if game.phase is Phase.MOVING:
        assert game.dice is not None
        return dice_text(game.dice)
    dice = game.records[-1].dice
    assert dice is not None
    return f"{dice_text(dice)}: no legal move"


def _stake(game: Game, level: int) -> str:
    """What a resignation at ``level`` scores now, saying so where the Jacoby rule makes a
    gammon or backgammon a single (RULES.md 1.5)."""
    value = game.cube.value
    if level > 1 and game.settings.jacoby and not game.cube.turned:
        points = counted(value, "point")
        return f"it scores {points} under the Jacoby rule (the cube was never turned)"
    times = {1: 1, 2: 2, 3: game.settings.backgammon_value}[level]
    return f"it scores {counted(times * value, 'point')}"


def _enter_moves(game: Game, seat: Seat, moves: list[Move]) -> bool:
    """Make ``moves`` (a legal play's) as single moves, in an order the game takes; False
    (with nothing moved) if none does."""
    if not moves:
        return True
    legal = {(m.start, m.end) for m in game.next_moves()}
    tried = set()
    for i, move in enumerate(moves):
        key = (move.start, move.end)
        if key in tried or key not in legal:
            continue
        tried.add(key)
        seat.move(*key)
        if _enter_moves(game, seat, moves[:i] + moves[i + 1 :]):
            return True
        seat.undo()
    return False


def _walk(game: Game, seat: Seat, start: int, end: int) -> bool:
    """Move a checker from ``start`` to ``end`` by one or more single moves; False (with
    nothing moved) if no sequence of legal single moves gets it there."""
    for move in game.next_moves():
        if move.start != start or move.end < end:
            continue
        seat.move(move.start, move.end)
        if move.end == end or _walk(game, seat, move.end, end):
            return True
        seat.undo()
    return False


def _resign_level(words: list[str]) -> int:
    if len(words) == 1:
        return 1
    if len(words) == 2 and words[1] in ("1", "2", "3"):
        return int(words[1])
    raise GameError("resign 1 (a single), 2 (a gammon) or 3 (a backgammon)")
