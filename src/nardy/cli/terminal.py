"""The board at the terminal that every kind of session shares: the drawing, the questions,
the commands, single moves with undo and confirm, hints.

A player types a whole play in move notation (``24/18 13/11``, read generously) or single
moves one at a time (``24/18``, then ``13/11``); either way the moves are made one by one and
the turn ends only when the player confirms it with Enter (RULES.md 1.9), or at once with a
trailing ``!``; ``help`` lists every command. Wrong input gets a message saying why and the
same question again, and changes nothing.

:class:`Terminal` turns each command into the action of :mod:`nardy.core.actions` that it
names and hands it, through a :class:`~nardy.cli.seats.Seat` (the hands of whoever speaks), to
the table's ``apply``: the game for a player of a two-player game
(:class:`nardy.cli.session.TerminalSession`), the chouette for a participant named there
(:class:`nardy.cli.chouette_cli.ChouetteSession`). What happened is read from the events.
"""

from __future__ import annotations

import abc
import datetime
import json
import shutil
import sys
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any, TextIO

from nardy.cli.board import game_match_id, render
from nardy.cli.entry import (
    HINT_PLAYS,
    SHORT,
    compound_moves,
    enter_moves,
    hint_count,
    move_text,
    resign_level,
    walk,
)
from nardy.cli.files import write_problem
from nardy.cli.seats import Seat
from nardy.cli.words import conjugate, counted, dice_as_shown, dice_text, rolled
from nardy.core import CHECKERS, OFF, Move, NardyError, actions, format_moves, parse_moves, scoring
from nardy.core.errors import ErrorCode, IllegalPlayError, InvalidInputError
from nardy.core.events import Event, NoLegalMove
from nardy.core.game import RESIGN_LEVELS, Game, GameError, GameResult, Phase
from nardy.engine.cube import CubeDecision
from nardy.engine.neural import NeuralBot
from nardy.engine.stakes import Stakes

ADVISER = "expert"
"""The level whose choices the hint command shows."""

HELP = """\
Commands (the first letter is enough where it is shown in brackets):
  Enter / [r]oll     roll the dice; once the moves make a whole play, Enter confirms it
  24/18 13/11        a whole play, or single moves one at a time (24/18, then 13/11):
                     either way the turn ends only when you confirm it
  24/18 13/11!       a trailing ! confirms at once (for a whole play, or the last move)
  bar/22  6/off      the bar and bearing off; 13/10(2) repeats a move; * marks a hit
  8-5 6-5, 8 5 6 5   the same as 8/5 6/5
  [u]ndo             take back the last move typed (a hop such as 13/4 whole)
  [c]onfirm          end the turn once the moves make a whole play
  [d]ouble           offer the cube before rolling
  [t]ake  [p]ass  [b]eaver      answer a double
  resign [1|2|3]     offer to resign a single, gammon or backgammon (asks: are you sure?)
  [a]ccept  decline  answer a resignation
  surrender          long nardy: give the game up (asks: are you sure?)
  plays              list the legal plays of the dice
  [h]int [N]         what the expert bot would do: its N best plays (3), ranked with
                     their equities; at the cube, the equities from your side
  help               this list
  [q]uit             stop; every game is saved as it ends, and this one too"""

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

_PLAIN_ACTIONS = frozenset(
    kind for kind, cls in actions.ACTIONS.items() if [f.name for f in fields(cls)] == ["player"]
)
"""The kinds of the actions that are nothing but their name (roll, double, take…): a
command word that is one of them is that action."""

_LEVELS = {level: f"a {kind.value}" for level, kind in RESIGN_LEVELS.items()}


def default_record_name(now: datetime.datetime | None = None) -> str:
    """``nardy-YYYY-MM-DD-HHMMSS.jsonl``: a fresh record file name with the date."""
    return f"nardy-{(now or datetime.datetime.now()):%Y-%m-%d-%H%M%S}.jsonl"


def record_problem(path: Path) -> str | None:
    """Why the games cannot be saved to ``path``, or None where they can: checked before
    the first game, so that no game is played for nothing."""
    problem = write_problem(path)
    if problem is not None:
        return problem
    try:
        kept_records(path)
    except ValueError:
        return f"{path} holds something other than game records (JSON lines); choose another file"
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror})"
    return None


def kept_records(path: Path) -> str:
    """The game records ``path`` holds already (JSON lines, each ending in a newline), which
    a session saving to it keeps before its own games; raises ``ValueError`` where a line is
    not a JSON object, so that no other file (a ``.mat``) is written over."""
    if not path.is_file():
        return ""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for line in lines:
        if not isinstance(json.loads(line), dict):
            raise ValueError(f"not a game record: {line[:40]!r}")
    return "".join(line + "\n" for line in lines)


def open_now(game: Game, command: str) -> bool:
    """Whether ``command`` is an action that someone may take in ``game`` now."""
    return any(command in kinds for _, kinds in game.awaiting(moves=False).actors)


class Quit(Exception):
    """The player quit, or the input ended."""


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
        notes: Sequence[str] = (),
    ) -> None:
        self.inp = inp
        self.out = out
        self.home = home
        self.switch_sides = False
        self.record = record
        self._kept = "" if record is None else kept_records(record)  # earlier sessions' games
        self.notes = tuple(notes)
        """What the session says before the first game (what a chosen start or the bot
        cannot do)."""
        self.adviser = NeuralBot(ADVISER)
        self._shown: tuple[object, ...] | None = None  # what the last board drawn showed
        self._told: tuple[object, ...] | None = None  # the situation last described
        self._last_roll: Game | None = None  # the game whose last roll was announced
        self._hops: tuple[tuple[int, int], list[int]] = ((0, 0), [])  # see _current_hops

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
        returns how many. Where the file cannot be written (its folder went away), the games
        go to a fresh file in the current folder instead, which becomes :attr:`record`, and
        the player is told; 0 where neither can be written."""
        records = self._records()
        if self.record is None or not records:
            return 0
        text = self._kept + "".join(json.dumps(r) + "\n" for r in records)
        try:
            self.record.write_text(text, encoding="utf-8")
        except OSError as exc:
            fallback = Path(default_record_name())
            self.say(f"Cannot save to {self.record} ({exc.strerror}): saving to {fallback}.")
            self.record = fallback
            try:
                fallback.write_text(text, encoding="utf-8")
            except OSError as again:
                self.say(f"Cannot save to {fallback} either ({again.strerror}).")
                self.record = None
                return 0
        return len(records)

    def _introduce(self) -> None:
        """Before the first game: where the help is, where the games are saved, and the
        notes."""
        self.say("Type 'help' for the commands.")
        if self.record is not None:
            kept = self._kept.count("\n")
            after = f", after the {counted(kept, 'game')} already in it" if kept else ""
            self.say(f"Each game is saved to {self.record} as it ends{after}.")
        for note in self.notes:
            self.say(f"Note: {note}.")

    def _between_games(self, number: int) -> None:
        while True:
            answer = self.ask(f"Enter for game {number}, or quit> ").lower()
            if SHORT.get(answer, answer) == "quit":
                raise Quit
            if not answer:
                return
            self.say("  Press Enter to play on, or type quit.")

    # -- one game --------------------------------------------------------------------------

    def _opening(self, game: Game) -> None:
        game.apply(actions.RollOpening(0))  # rolled for both sides
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
        dice = game.dice
        try:
            self._command(game, player, line)
        except NardyError as exc:
            self.say(f"  {dice_as_shown(str(exc), dice)}")

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
        owner = game.cube.owner
        drawn = (game.cube.value, None if owner is None else owner == viewer)
        board = render(
            position,
            home=self.home,
            on_roll=viewer == game.turn or game.over,
            cube=drawn if game.settings.cube else None,
            match_id=game_match_id(game),
        )
        self.say(board)
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
        self._carry_out(game, player, line, Seat(game, player))

    def _carry_out(self, game: Game, player: int, line: str, seat: Seat) -> None:
        """Carry out one line by ``seat``, who speaks for ``player`` (whose side the hint
        and the plays are for). A refusal because the game is not at that point yet (or any
        more) is said in plain words (:meth:`_plain_refusal`)."""
        words = line.lower().split()
        command = SHORT.get(words[0], words[0]) if words else ""
        phase = game.phase
        if command == "quit":
            raise Quit
        if command == "help":
            self.say(self.help_text)
            return
        if command == "hint":
            self.say(f"  Hint: {self._hint(game, player, hint_count(words))}")
            return
        if not command:
            command = {Phase.MOVING: "confirm", Phase.ROLL: "roll"}.get(phase, "")
        elif (moves := move_text(line)) is not None:
            command, line = actions.Move.kind, moves
        try:
            self._dispatch(game, player, command, line, seat)
        except GameError as exc:
            plain = self._plain_refusal(game, player, command, exc)
            if plain is None:
                raise
            raise GameError(plain) from exc

    def _dispatch(self, game: Game, player: int, command: str, line: str, seat: Seat) -> None:
        """Carry out ``command`` (an action's kind, or a command of the terminal's own) as
        the action it names, by ``seat``."""
        words = line.lower().split()
        if command == "plays":
            self._list_plays(game)
        elif command == actions.Confirm.kind:
            self._confirm(game, seat)
        elif command == actions.Undo.kind:
            self._undo(game, seat)
        elif command == actions.Move.kind:
            self._moves(game, seat, line)
        elif command == actions.Resign.kind:
            level = resign_level(words)
            if self._asks_first(game, player, command):
                said = f"Resigning {_LEVELS[level]}: {_stake(game, level)}."
                if not self._sure(player, said[0].upper() + said[1:]):
                    return
            seat.act(actions.Resign, level)
        elif command == actions.Surrender.kind:
            said = f"Surrendering gives the game up: {_surrender_stake(game)}."
            if not self._asks_first(game, player, command) or self._sure(player, said):
                seat.act(actions.Surrender)
        elif game.phase is Phase.CHOOSE_DOUBLE and command.isdigit():
            self._passed(game, player, "name", seat.act(actions.ChooseDouble, int(command)))
        elif command in _PLAIN_ACTIONS:
            events = seat.act(actions.ACTIONS[command])
            if command == actions.Roll.kind:
                self._passed(game, player, "roll", events)
            elif command == actions.Decline.kind:
                self.say(f"  {self._does(player, 'decline')}: play on.")
        elif not command:
            raise InvalidInputError(
                f"nothing to do with Enter now: {self._prompt(game, player)[:-2]}"
            )
        else:
            moves = ", or a move such as 24/18" if game.phase is Phase.MOVING else ""
            raise InvalidInputError(
                f"{line!r} is not a command here: type help for the list{moves}"
            )

    def _asks_first(self, game: Game, player: int, command: str) -> bool:
        """Whether to ask "are you sure?" before a resignation or surrender: only where the
        game would take it now (the right moment, a variant that has it)."""
        return command in game.awaiting(moves=False).kinds(player)

    def _plain_refusal(self, game: Game, player: int, command: str, exc: GameError) -> str | None:
        """The game refused ``command`` with ``exc``: where the reason is that the game is not
        at that point (``wrong-phase``, or ``not-your-turn`` for an action nobody may take
        now), the reason in plain words ("you have already rolled"); None keeps the game's
        own message (as for an undo with nothing to undo). A double refused because the
        opponent owns the cube names the opponent, as the board does (the game's message says
        only "the opponent")."""
        owner = game.cube.owner
        mine = game.turn == player and game.phase is Phase.ROLL
        if command == actions.Double.kind and mine and owner == 1 - player:
            return f"{self._does(owner, 'own')} the cube"
        moment = exc.code in (ErrorCode.WRONG_PHASE, ErrorCode.NOT_YOUR_TURN)
        if not moment or open_now(game, command):
            return None  # refused for another reason than the moment: the game says why
        if command == actions.Undo.kind and game.phase is Phase.MOVING:
            return None  # nothing to undo yet
        return self._not_now(game, player, command)

    def _not_now(self, game: Game, player: int, command: str) -> str:
        """Why ``command`` cannot be taken at this point of the game, in plain words, for
        the one who speaks for ``player``."""
        phase = game.phase
        if command in (actions.Take.kind, actions.Pass.kind, actions.Beaver.kind):
            if phase is Phase.BEAVERED:
                return "the double is beavered already: take or pass"
            return "there is no double to answer now"
        if command in (actions.Accept.kind, actions.Decline.kind):
            return "there is no resignation to answer now"
        yours, anyone = _WAITING[phase]
        return yours if game.awaiting(moves=False).player == player else anyone

    def _passed(self, game: Game, player: int, verb: str, events: Sequence[Event]) -> None:
        """A roll (or named double) with no legal move ends the turn by itself: say so."""
        if any(isinstance(event, NoLegalMove) for event in events):
            self.say(f"  {self._does(player, verb)} {rolled(game)}.")

    def _confirm(self, game: Game, seat: Seat) -> None:
        if not game.moves_made:
            raise IllegalPlayError("no moves yet: type a play, or single moves one at a time")
        seat.act(actions.Confirm)

    def _moves(self, game: Game, seat: Seat, line: str) -> None:
        """A whole play (from the start of the turn) or single moves, entered as single
        moves for the player to confirm (at once with a trailing ``!``). A hop that spans
        several dice (``24/13`` with 6-5) is walked one die at a time, and ``undo`` takes it
        back whole. On any error the turn is left as it was."""
        text = line.strip()
        confirm = text.endswith("!")
        text = text.rstrip("!").strip()
        if game.phase is not Phase.MOVING or game.dice is None:
            raise GameError("no dice on the table")
        made = len(game.moves_made)
        try:
            self._enter(game, seat, text, game.dice)
            if confirm:
                try:
                    self._confirm(game, seat)
                except IllegalPlayError as exc:  # taken back below: not "move on or undo"
                    raise IllegalPlayError(
                        f"{text} does not finish the play: a trailing ! confirms a whole "
                        "play, or the move that completes one (it is taken back)"
                    ) from exc
        except NardyError:
            while len(game.moves_made) > made:  # leave the turn as it was
                seat.act(actions.Undo)
            raise
        if game.phase is Phase.MOVING:
            typed = compound_moves(parse_moves(text), game.moves_made[made:])
            self._hops = (self._turn_key(game), self._current_hops(game) + typed)

    def _turn_key(self, game: Game) -> tuple[int, int]:
        """The turn under way, to tell whether the hops remembered are this turn's."""
        return id(game), len(game.records)

    def _current_hops(self, game: Game) -> list[int]:
        """How many single moves each move typed this turn made, oldest first, where they
        account for the moves made so far (else nothing is remembered)."""
        key, hops = self._hops
        if key != self._turn_key(game) or sum(hops) != len(game.moves_made):
            return []
        return hops

    def _undo(self, game: Game, seat: Seat) -> None:
        """Take back the last move typed: a hop over several dice (``13/4`` with 5-4) as a
        whole, else one single move."""
        hops = self._current_hops(game)
        count = hops.pop() if hops else 1
        for _ in range(count):
            seat.act(actions.Undo)
        self._hops = (self._turn_key(game), hops)

    def _enter(self, game: Game, seat: Seat, text: str, dice: tuple[int, int]) -> None:
        shown = (max(dice), min(dice))  # as the screen shows them, for the refusals
        whole_error: NardyError | None = None
        if not game.moves_made:
            try:
                play = game.turn_start.parse_play(text, *shown)
            except NardyError as exc:
                whole_error = exc
            else:
                if not enter_moves(game, seat, list(play.moves)):  # pragma: no cover
                    raise IllegalPlayError(f"{play} cannot be made one move at a time")
                return
        segments = parse_moves(text)
        before = len(game.moves_made)
        try:
            for segment in segments:
                if not walk(game, seat, segment.start, segment.end):
                    self._refuse(game, seat, Move(segment.start, segment.end, segment.starred))
        except NardyError:
            if whole_error is None or len(segments) < 2:
                raise
            raise self._play_refusal(seat, text) from None
        # A star marks a hit (NOTATION.md): one where the moves hit nothing misreads the
        # position, as the whole-play reader says too, so the moves are not kept.
        hits = {move.end for move in game.moves_made[before:] if move.hit}
        unhit = sorted({s.end for s in segments if s.starred} - hits)
        if unhit:
            points = ", ".join(map(str, unhit))
            raise IllegalPlayError(
                f"{text!r} marks a hit (*) on {points}, but nothing is hit there"
            )

    def _play_refusal(self, seat: Seat, text: str) -> NardyError:
        """The game's own refusal of ``text`` as a whole play from the start of the turn,
        which names the rule that refuses its first refused move; ``text`` is known not to be
        a legal play, so the game refuses it and nothing changes."""
        try:
            seat.act(actions.Play, text)
        except NardyError as refusal:
            return refusal
        raise AssertionError(f"{text!r} was played though it reads as no legal play")

    def _refuse(self, game: Game, seat: Seat, wanted: Move) -> None:
        """Raise why ``wanted`` cannot be made now: the play is complete already, or the
        game's own reason (the rule that forbids it)."""
        if not game.next_moves():
            made = format_moves(game.moves_made)
            raise IllegalPlayError(
                f"{wanted}: the play {made} is complete: press Enter to confirm it, or undo"
            )
        try:
            seat.act(actions.Move, wanted.start, wanted.end)  # refused, with the game's reason
        except NardyError as refusal:
            plain, why = str(Move(wanted.start, wanted.end)), str(refusal)
            if not wanted.hit or not why.startswith(plain):
                raise
            # The game names the move without the star typed; say it as it was typed.
            raise IllegalPlayError(f"{wanted}{why[len(plain) :]}", code=refusal.code) from None
        raise AssertionError(f"{wanted} was made though no walk reached it")  # pragma: no cover

    def _hint(self, game: Game, player: int, count: int = HINT_PLAYS) -> str:
        """What the adviser would do, from the side of ``player`` who asks; in the moving
        phase its ``count`` best plays, ranked."""
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
                play = adviser.choose_play(game.turn_start, *dice, chosen=game.dice_chosen)
                return f"{play}{again}" if play.moves else "no legal move"
            return self._ranked_hint(game, player, dice, count, again)
        if phase is Phase.CHOOSE_DOUBLE:
            return str(adviser.choose_double(game.position, Stakes.of(game, player)))
        if phase in (Phase.DOUBLED, Phase.BEAVERED):
            if (
                phase is Phase.DOUBLED
                and game.settings.beaver
                and adviser.should_beaver(game, player)
            ):
                answer = "beaver"
            else:
                answer = "take" if adviser.should_take(game, player) else "pass"
            if not advice:
                return answer
            decision = adviser.cube_decision(game)
            return f"{answer} ({_cube_words(decision, answering=phase is Phase.DOUBLED)})"
        pending = game.resignation()
        assert pending is not None
        return "accept" if adviser.accept_resignation(game, player, pending[1]) else "decline"

    def _ranked_hint(
        self, game: Game, player: int, dice: tuple[int, int], count: int, again: str
    ) -> str:
        """The adviser's ``count`` best plays, best first, valued by the stakes of the game
        as the bot, ``nardy hint`` and ``analyze`` value them (cubeless money equity; in a
        match cubeless EMG at the score, with the best play's match winning chance), and how
        far each is behind the best; ``again`` follows the best."""
        position = game.turn_start
        stakes = Stakes.of(game, player)
        ply = self.adviser.level.ply
        ranked = self.adviser.evaluator(position).rank(
            position, *dice, ply, stakes.equities, chosen=game.dice_chosen
        )
        plays = {(p.position.mine, p.position.theirs): p for p in position.legal_plays(*dice)}
        if not plays:
            return "no legal move"
        name = "equity" if stakes.match is None else "EMG"
        best = ranked[0]
        mwc = stakes.mwc(best.outputs)
        chance = "" if mwc is None else f", MWC {100 * mwc:.1f}%"
        lines = [f"{plays[best.after]} ({name} {best.value:+.3f}{chance}){again}"]
        shown = [str(plays[r.after]) for r in ranked[:count]]
        width = max(len(text) for text in shown)
        for rank, (ranking, text) in enumerate(zip(ranked[1:count], shown[1:], strict=True), 2):
            behind = ranking.value - best.value
            lines.append(
                f"    {rank}. {text.ljust(width)}  {name} {ranking.value:+.3f}, "
                f"{behind:+.3f} against the best"
            )
        if len(ranked) > count:
            lines.append(f"    ({counted(len(ranked), 'play')} in all: hint N shows N)")
        return "\n".join(lines)

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


def _cube_words(decision: CubeDecision, *, answering: bool = False) -> str:
    """A cube decision as GNU Backgammon words it, with the equities of the actions that
    are open (normalised to the cube; EMG in a match): the doubler's, or with ``answering``
    those of the player who answers the double (take or pass, from his side)."""
    if answering and decision.double_take is not None and decision.double_pass is not None:
        take, drop = -decision.double_take, -decision.double_pass
        return f"{decision.text}; for the one doubled: take {take:+.3f}, pass {drop:+.3f}"
    parts = [f"no double {decision.no_double:+.3f}"]
    if decision.double_take is not None:
        parts.append(f"double/take {decision.double_take:+.3f}")
    if decision.double_pass is not None:
        parts.append(f"double/pass {decision.double_pass:+.3f}")
    return f"{decision.text}: " + ", ".join(parts)


def _surrender_stake(game: Game) -> str:
    """What a surrender scores now, from the checkers as they stand at the start of the turn
    (the game's own scoring, RULES.md 3.4): ``a mars, 2 points``."""
    start = game.turn_start
    kind = game.variant.result_kind(start.mine, start.theirs)
    value = scoring.points(kind, game.cube.value, game.settings, cube_turned=game.cube.turned)
    return f"a {kind}, it scores {counted(value, 'point')}"


def _stake(game: Game, level: int) -> str:
    """What a resignation at ``level`` scores now (the game's own scoring), saying so where
    the Jacoby rule makes a gammon or backgammon a single (RULES.md 1.5)."""
    turned = game.cube.turned
    points = counted(
        scoring.points(RESIGN_LEVELS[level], game.cube.value, game.settings, cube_turned=turned),
        "point",
    )
    if level > 1 and game.settings.jacoby and not turned:
        return f"it scores {points} under the Jacoby rule (the cube was never turned)"
    return f"it scores {points}"
