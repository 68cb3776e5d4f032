"""``nardy play``: a game in the terminal, against the heuristic bot or two people at one
screen, or a chouette of three or more (``--chouette``, in :mod:`nardy.cli.chouette_cli`).

Before each decision the board is drawn from the side of the player on roll (X), with the
dice, the cube, the score and whose turn it is. A player types a whole play in move notation
(``24/18 13/11``, read generously) or single moves one at a time (``24/18``, then ``13/11``),
then confirms with Enter; ``help`` lists every command. Wrong input gets a message saying why
and the same question again, and changes nothing. At the end, on ``quit`` or at the end of
the input, the games are saved as JSON records, one per line (``docs/records.md``).

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
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from nardy.cli.board import HOME_CORNERS, render
from nardy.cli.options import add_settings_arguments, seed, settings_from_args
from nardy.core import Move, NardyError, Play, Position, parse_moves
from nardy.core.dice import Dice, SecretDice, SeededDice
from nardy.core.errors import IllegalPlayError
from nardy.core.game import Game, GameError, GameResult, Phase
from nardy.core.match import Match
from nardy.engine.bots import Bot, HeuristicBot, deciding_player, step
from nardy.notation.record import match_records

HELP = """\
Commands (the first letter is enough where it is shown in brackets):
  Enter / [r]oll     roll the dice; with a whole play made, Enter confirms it
  24/18 13/11        a whole play, or single moves one at a time (24/18, then 13/11)
  bar/22  6/off      the bar and bearing off; 13/10(2) repeats a move; * marks a hit
  [u]ndo             take back the last single move of this turn
  [c]onfirm          end the turn once the moves make a whole play
  [d]ouble           offer the cube before rolling
  [t]ake  [p]ass  [b]eaver      answer a double
  resign [1|2|3]     offer to resign a single, gammon or backgammon
  [a]ccept  decline  answer a resignation
  surrender          long nardy: give the game up
  plays              list the legal plays of the dice
  [h]int             what the heuristic bot would do
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


class Quit(Exception):
    """The player quit, or the input ended."""


BOT_SUFFIX = ":bot"
"""Marks a chouette participant played by the heuristic bot: ``--chouette Ann,Bob:bot,Cy``."""


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
        description="Play backgammon or long nardy in the terminal: against the heuristic "
        "bot (--vs bot, the default), two people at one screen (--vs human), or a chouette "
        "of three or more (--chouette). Type 'help' in the game for the commands.",
    )
    add_settings_arguments(parser)
    parser.add_argument(
        "--vs", choices=("bot", "human"), help="the opponent (default bot; not in a chouette)"
    )
    parser.add_argument(
        "--chouette",
        type=chouette_players,
        metavar="NAME,NAME,NAME[,...]",
        help="a chouette of these players (RULES.md 1.7), money play; NAME:bot is the "
        "heuristic bot",
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
        help="where the home board of the player on roll is drawn",
    )
    parser.set_defaults(handler=run)


def default_record_name(now: datetime.datetime | None = None) -> str:
    """``nardy-YYYY-MM-DD-HHMMSS.jsonl``: a fresh record file name with the date."""
    return f"nardy-{(now or datetime.datetime.now()):%Y-%m-%d-%H%M%S}.jsonl"


def run(args: argparse.Namespace) -> int:
    """``nardy play``: set up the match (or chouette) from the flags and play it on
    stdin/stdout."""
    settings = settings_from_args(args)
    dice: Dice = SecretDice() if args.seed is None else SeededDice(args.seed)
    record = Path(args.record or default_record_name())
    if args.chouette is not None:
        if args.vs is not None:
            print("nardy play: error: --vs does not apply to --chouette", file=sys.stderr)
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
        ).run()
    if args.games is not None:
        print("nardy play: error: --games applies only to --chouette", file=sys.stderr)
        return 2
    bots: tuple[Bot | None, Bot | None] = (None, None)
    if args.vs in (None, "bot"):
        players, bots = ("You", "Bot"), (None, HeuristicBot())
    else:
        players, bots = ("Player 1", "Player 2"), (None, None)
    match = Match(settings, dice, players=players)
    session = TerminalSession(match, bots, sys.stdin, sys.stdout, home=args.home, record=record)
    return session.run()


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
        self.record = record
        self.adviser = HeuristicBot()
        self._shown: tuple[object, ...] | None = None  # what the last board drawn showed
        self._told: tuple[object, ...] | None = None  # the situation last described
        self._turn_start: Position | None = None  # the position before this turn's moves

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
        if name == "You":
            return f"You {verb}"
        ending = "es" if verb.endswith(("s", "sh", "ch")) else "s"
        return f"{name} {verb}{ending}"

    def _verb(self, player: int, verb: str) -> str:
        return self._does(player, verb).split(" ", 1)[1]

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
            self.say(f"{self._does(first, 'play')} first with {dice[0]}-{dice[1]}.")
        elif game.phase is Phase.ROLL:
            self.say(f"{self._does(first, 'move')} first and {self._verb(first, 'roll')}.")
        else:  # the opening dice had no legal move and the turn passed at once
            self.say(f"{self.name(first)} cannot move the opening roll.")

    # -- a person's decision ---------------------------------------------------------------

    def _human(self, game: Game, player: int) -> None:
        """Ask the person who speaks for ``player`` for one line, and carry it out."""
        if game.phase is Phase.MOVING and not game.moves_made:
            self._turn_start = game.position
        self._show(game)
        self._describe(game, player)
        line = self.ask(self._prompt(game, player))
        try:
            self._command(game, player, line)
        except NardyError as exc:
            self.say(f"  {exc}")

    def _show(self, game: Game) -> None:
        """Draw the board when what it shows has changed since it was last drawn."""
        key = (game, game.turn, game.position)
        if key == self._shown:
            return
        self._shown = key
        x, o = game.turn, 1 - game.turn
        self.say()
        self.say(render(game.position, home=self.home))
        self.say(f" X: {self._label(x)}   O: {self._label(o)}   {self._cube(game)}")

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
                return f"{name} to play {dice[0]}-{dice[1]}."
            if game.next_moves():
                return f"{name} to play {dice[0]}-{dice[1]}; moved {_joined(made)} so far."
            return f"Moved {_joined(made)}: Enter confirms it, undo takes a move back."
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
        level = {1: "a single", 2: "a gammon", 3: "a backgammon"}[pending[1]]
        return f"{self.name(pending[0])} offers to resign {level}."

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
        and the plays are for)."""
        words = line.lower().split()
        word = _SHORT.get(words[0], words[0]) if words else ""
        phase = game.phase
        if word == "quit":
            raise Quit
        if word == "help":
            self.say(self.help_text)
        elif word == "hint":
            self.say(f"  Hint: {self._hint(game, player)}")
        elif word == "plays":
            self._list_plays(game)
        elif word == "" and phase is Phase.MOVING:
            self._confirm(game, seat)
        elif word == "roll" or (word == "" and phase is Phase.ROLL):
            self._roll(game, player, seat)
        elif word == "confirm":
            self._confirm(game, seat)
        elif word == "undo":
            seat.undo()
        elif word == "double":
            seat.double()
        elif word == "take":
            seat.take()
        elif word == "pass":
            seat.pass_double()
        elif word == "beaver":
            seat.beaver()
        elif word == "resign":
            seat.resign(_resign_level(words))
        elif word == "surrender":
            seat.surrender()
        elif word == "accept":
            seat.accept_resignation()
        elif word == "decline":
            seat.decline_resignation()
            self.say(f"  {self._does(player, 'decline')}: play on.")
        elif phase is Phase.CHOOSE_DOUBLE and word.isdigit():
            seat.choose_double(int(word))
            self._check_passed(game, player, f"{word}-{word}")
        elif phase is Phase.MOVING and "/" in line:
            self._moves(game, seat, line)
        elif word == "":
            raise GameError(f"nothing to do with Enter now: {self._prompt(game, player)[:-2]}")
        else:
            moves = ", or a move such as 24/18" if phase is Phase.MOVING else ""
            raise GameError(f"{line!r} is not a command here: type help for the list{moves}")

    def _roll(self, game: Game, player: int, seat: Seat) -> None:
        d1, d2 = seat.roll()
        self._check_passed(game, player, f"{d1}-{d2}")

    def _check_passed(self, game: Game, player: int, dice: str) -> None:
        """A roll with no legal move ends the turn by itself: say so."""
        if game.phase is not Phase.MOVING:
            self.say(f"  {self._does(player, 'roll')} {dice}: no legal move.")

    def _confirm(self, game: Game, seat: Seat) -> None:
        if not game.moves_made:
            raise IllegalPlayError("no moves yet: type a play, or single moves one at a time")
        seat.confirm()

    def _moves(self, game: Game, seat: Seat, text: str) -> None:
        """A whole play (from the start of the turn) or single moves, one checker at a time;
        a hop that spans several dice (``24/13`` with 6-5) is walked one die at a time."""
        whole_error: NardyError | None = None
        if not game.moves_made:
            try:
                seat.play(text)
                return
            except NardyError as exc:
                whole_error = exc
        segments = parse_moves(text)
        made = len(game.moves_made)
        try:
            for segment in segments:
                if not _walk(game, seat, segment.start, segment.end):
                    legal = ", ".join(sorted({str(m) for m in game.next_moves()})) or "none"
                    raise IllegalPlayError(
                        f"{segment.start}/{segment.end} is not a legal move now; legal: {legal}"
                    )
        except NardyError as exc:
            while len(game.moves_made) > made:  # leave the turn as it was
                seat.undo()
            raise (whole_error if whole_error and len(segments) > 1 else exc) from None

    def _hint(self, game: Game, player: int) -> str:
        adviser = self.adviser
        phase = game.phase
        if phase is Phase.ROLL:
            doubling = game.can_double(player) and adviser.should_double(game, player)
            return "double" if doubling else "roll"
        if phase is Phase.MOVING:
            dice = game.dice
            assert dice is not None and self._turn_start is not None
            play = adviser.choose_play(self._turn_start, *dice)
            again = " (from the start of the turn: undo first)" if game.moves_made else ""
            return f"{play}{again}" if play.moves else "no legal move"
        if phase is Phase.CHOOSE_DOUBLE:
            return str(adviser.choose_double(game.position))
        if phase is Phase.DOUBLED:
            if game.settings.beaver and adviser.should_beaver(game, player):
                return "beaver"
            return "take" if adviser.should_take(game, player) else "pass"
        if phase is Phase.BEAVERED:
            return "take" if adviser.should_take(game, player) else "pass"
        pending = game.resignation()
        assert pending is not None
        return "accept" if adviser.accept_resignation(game, player, pending[1]) else "decline"

    def _list_plays(self, game: Game) -> None:
        plays = game.legal_plays()  # raises GameError before the roll
        shown = [str(p) for p in plays[:40]]
        more = f" … and {len(plays) - 40} more" if len(plays) > 40 else ""
        self.say(f"  {len(plays)} legal plays: " + ", ".join(shown) + more)


class TerminalSession(Terminal):
    """A match (or money session) of two players at a terminal.

    ``bots`` has one entry per seat: a :class:`Bot` plays that seat, None is a person typing
    at ``inp``.
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
    ) -> None:
        super().__init__(inp, out, home=home, record=record)
        self.match = match
        self.bots = tuple(bots)

    def name(self, player: int) -> str:
        return self.match.players[player]

    def _records(self) -> list[dict[str, Any]]:
        return match_records(self.match)

    def _session(self) -> None:
        self.say(self._title())
        self.say("Type 'help' for the commands.")
        while not self.match.over:
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
        crawford = " (the Crawford game: no doubling)" if game.crawford else ""
        self.say(f"\nGame {number}{crawford}. Score: {self._score()}.")
        if game.phase is Phase.ROLL:  # a later game of a long-nardy series: no lot
            self.say(f"{self._does(game.turn, 'start')}.")
        while not game.over:
            if game.phase is Phase.OPENING:
                self._opening(game)
                continue
            player = deciding_player(game)
            assert player is not None
            bot = self.bots[player]
            if bot is None:
                self._human(game, player)
            else:
                self.say(f"{self.name(player)} {step(game, self.bots)}.")
        self._show(game)
        assert game.result is not None
        self.say(self._result(game.result))
        self.say(f"Score: {self._score()}.")

    def _result(self, result: GameResult) -> str:
        if result.winner is None:
            return "The game is a draw: the last roll bore every checker off."
        winner, loser = result.winner, 1 - result.winner
        points = f"{result.points} point{'s' if result.points != 1 else ''}"
        wins = self._does(winner, "win")
        if result.kind == "pass":
            return f"{self._does(loser, 'pass')} the double. {wins} {points}."
        if result.kind == "resign":
            gave_up = "surrender" if not self.match.settings.rules.resignation_levels else "resign"
            return f"{self._does(loser, gave_up)} ({result.level}). {wins} {points}."
        article = "an" if result.kind[0] in "aeiou" else "a"
        return f"{wins} {article} {result.kind}: {points}."


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


def _joined(moves: Sequence[object]) -> str:
    return " ".join(str(m) for m in moves)


def _resign_level(words: list[str]) -> int:
    if len(words) == 1:
        return 1
    if len(words) == 2 and words[1] in ("1", "2", "3"):
        return int(words[1])
    raise GameError("resign 1 (a single), 2 (a gammon) or 3 (a backgammon)")
