"""One game from the opening roll to its result: the state machine of RULES.md 1.1-1.5, 1.9,
2, 3.1-3.4 for every variant.

A :class:`Game` is driven by :mod:`nardy.core.actions` values, each naming the player (0 or
1) who takes it, through one entry point, :meth:`Game.apply`, which returns the
:mod:`nardy.core.events` the action caused (including whatever followed by itself: a turn
passed with no legal move, the last roll, an automatic double, the end of the game).
:meth:`Game.awaiting` says who must act now and what each may do. An action that is out of
turn or not allowed raises a :class:`GameError` (or :class:`IllegalPlayError`) with a stable
``code`` and changes nothing. Every finished turn is kept as a :class:`TurnRecord` and every
event in :attr:`Game.log`, from which the game replays exactly.

The methods named after the actions (``roll``, ``move``, ``pass_double``…) are what
:meth:`Game.apply` dispatches to; drivers go through :meth:`Game.apply`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from nardy.core import actions as act
from nardy.core import events as ev
from nardy.core.awaiting import Awaiting
from nardy.core.dice import Dice, SecretDice
from nardy.core.errors import ErrorCode, IllegalPlayError, InvalidInputError, NardyError, reading
from nardy.core.moves import Move, Play, format_moves, parse_moves, parse_play
from nardy.core.position import CHECKERS, OFF, Position, ResultKind
from nardy.core.scoring import points
from nardy.core.settings import Settings
from nardy.core.variant import TurnSearch, Variant

_T = TypeVar("_T")


class GameError(NardyError):
    """An action out of turn (code ``not-your-turn``), in the wrong phase (``wrong-phase``,
    the default), or that the settings do not allow (``not-allowed-by-settings``)."""

    code = ErrorCode.WRONG_PHASE


class Phase(enum.Enum):
    """What the game waits for."""

    OPENING = "opening"  # the opening roll (or long nardy's lot)
    ROLL = "roll"  # the player on turn may double, resign or roll
    DOUBLED = "doubled"  # the opponent of the doubler takes, passes or beavers
    BEAVERED = "beavered"  # the doubler takes or passes the beaver
    MOVING = "moving"  # dice on the table: single moves, undo, confirm
    CHOOSE_DOUBLE = "choose-double"  # acey-deucey: name the double after playing 1-2
    RESIGNED = "resigned"  # a resignation waits for the opponent's answer
    OVER = "over"


RESIGN_LEVELS = {1: ResultKind.SINGLE, 2: ResultKind.GAMMON, 3: ResultKind.BACKGAMMON}


class EndKind(enum.StrEnum):
    """How a game ended (a record's ``end.kind``): won on the board by one of the
    :class:`ResultKind` kinds, by a pass of the cube, by a resignation (or surrender), by a
    forfeit (a clock run out, an absent player's game claimed), or a draw (long nardy's last
    roll)."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    OIN = "oin"
    MARS = "mars"
    PASS = "pass"
    RESIGN = "resign"
    FORFEIT = "forfeit"
    DRAW = "draw"


class CubeAction(enum.StrEnum):
    """A cube action of a turn, as :attr:`TurnRecord.cube` and records list them: the
    values are the kinds of the actions (:mod:`nardy.core.actions`) that take them."""

    DOUBLE = act.Double.kind
    TAKE = act.Take.kind
    PASS = act.Pass.kind
    BEAVER = act.Beaver.kind


SNAPSHOT_VERSION = 1
"""The version of :meth:`Game.snapshot`'s data."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended. ``winner`` is None for a draw (long nardy's last roll).

    ``kind`` is an :class:`EndKind` (single, gammon, backgammon, oin, mars, pass, resign,
    forfeit, draw); for a resignation or surrender ``level`` says what it was scored as, for
    a forfeit ``reason`` why (one of :data:`~nardy.core.actions.FORFEIT_REASONS`: the clock
    ran out, the absent player's game was claimed). ``points`` already include the cube,
    Jacoby and the backgammon value (:mod:`nardy.core.scoring`).
    """

    winner: int | None
    kind: str
    cube: int
    points: int
    level: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn: cube actions before the roll, the dice, the play and the positions around
    it, both from the mover's side (``after`` is before the turn passes).

    ``dice`` is None when the turn ended by a cube pass or a resignation before a roll;
    ``chosen`` marks acey-deucey's named double after a 1-2. ``resignations`` lists each
    resignation offered in the turn as (level, accepted, after the roll); a surrender is
    level 0. ``cube_after`` is the cube (value, owner) once the turn is over.
    """

    player: int
    cube: tuple[str, ...]
    dice: tuple[int, int] | None
    play: Play | None
    before: Position
    after: Position
    chosen: bool = False
    resignations: tuple[tuple[int, bool, bool], ...] = ()
    cube_after: tuple[int, int | None] = (1, None)


MONEY_CUBE_LIMIT = 4096
"""The highest cube of money play (RULES.md 1.5): 2**12, GNU Backgammon's largest, so that a
session's ``.mat`` file imports there as played (it reads an 8192 cube as 4096)."""


def cube_limit(value: int, away: int | None) -> str | None:
    """Why the cube at ``value`` may not be doubled (RULES.md 1.5), or None where it may.
    ``away`` is the points the doubler still needs to win the match, None in money play.

    In a match the cube is dead once a win at its value already wins the match: doubling can
    only lose, so the cube never passes twice the highest power of two below the length. In
    money play it stops at :data:`MONEY_CUBE_LIMIT`.
    """
    if away is not None:
        if value >= away:
            return f"the cube is dead: a win at {value} already wins the match"
    elif 2 * value > MONEY_CUBE_LIMIT:
        return f"the cube is at its limit: money play goes no higher than {MONEY_CUBE_LIMIT}"
    return None


@dataclass
class Cube:
    """The doubling cube: its value, its owner (None while centred) and whether a player has
    turned it in this game (Jacoby counts only doubles, not automatic ones)."""

    value: int = 1
    owner: int | None = None
    turned: bool = False
    automatic: int = 0


_Reached = tuple[
    tuple[Position, tuple[int, int], tuple[tuple[Move, int], ...]],
    tuple[Position, list[tuple[Move, int]]],
]
"""A cached answer of :meth:`Game._moved`: (turn start, dice, single moves made) and what
the variant said of them."""


@dataclass
class _Turn:
    """The turn under way."""

    cube: list[str] = field(default_factory=list)
    dice: tuple[int, int] | None = None
    moves: list[tuple[Move, int]] = field(default_factory=list)
    chosen: bool = False
    resignations: list[tuple[int, bool, bool]] = field(default_factory=list)


class Game:
    """A game of any variant under fixed :class:`Settings`, for players 0 and 1.

    ``crawford`` marks the Crawford game of a match (no doubling) and ``score`` is the match
    score before the game (players 0 and 1; a bot's cube decisions read it).
    ``first_player`` skips the opening roll (later games of a long-nardy series, RULES.md
    3.1). ``position`` and ``turn`` start a game from any legal position with that player on
    roll (RULES.md 4). ``cube_limits`` False lifts the limits of the cube (RULES.md 1.5) so
    that a record replays the doubles it holds, made before the limits or by another program.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        dice: Dice | None = None,
        *,
        crawford: bool = False,
        score: tuple[int, int] = (0, 0),
        first_player: int | None = None,
        position: Position | None = None,
        cube: Cube | None = None,
        cube_limits: bool = True,
    ) -> None:
        self.settings = (settings or Settings()).resolve()
        self.variant = self.settings.rules
        self.dice_source = dice or SecretDice()
        self.crawford = crawford
        self.score = score
        self.cube = cube or Cube()
        self.start_cube = (self.cube.value, self.cube.owner)
        self.cube_limits = cube_limits
        """Whether the cube stops where RULES.md 1.5 says (False: a record's replay)."""
        self.records: list[TurnRecord] = []
        self.opening_rolls: list[tuple[int, int]] = []
        self.result: GameResult | None = None
        self.first_player: int | None = None
        self.turn: int = 0
        self.phase = Phase.OPENING
        self._position = position or self.variant.start()
        if position is not None:
            self.variant.validate(position)
            if first_player is None:
                raise GameError("a game from a chosen position needs the player on roll")
        self._current = _Turn()
        self._resigned: tuple[int, int, Phase] | None = None  # player, level, phase before
        self._last_roll = False
        self._legal: tuple[tuple[Position, int, int], list[Play]] | None = None
        self._reached: _Reached | None = None
        # What the single moves of this roll have searched, for the next one (_moved).
        self._search: tuple[tuple[Position, tuple[int, int]], TurnSearch] | None = None
        self._last_played: TurnRecord | None = None
        self.log: list[ev.Event] = []
        """Every event of the game so far, in order (what :meth:`apply` returned)."""
        # The JSON forms of the records and events a snapshot has already written: both lists
        # only grow, so a snapshot encodes only what came after the last one (a server
        # checkpoints a game every few dozen actions; its log would be encoded whole again).
        self._written: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
        if first_player is not None:
            self._check_player(first_player)
            self._begin(first_player)

    # -- what the game looks like ---------------------------------------------------------

    @property
    def position(self) -> Position:
        """The position from the side of the player on turn, single moves made so far
        included."""
        if self.phase is Phase.MOVING and self._current.moves:
            return self._after_moves()[0]
        return self._position

    @property
    def board_position(self) -> Position:
        """The position as the board shows it, from the side of the player on turn: the
        single moves made so far this turn included in any phase, so that a resignation
        offered in the middle of a turn leaves them standing (:attr:`position` counts them
        only while moving)."""
        dice = self._current.dice
        if dice is not None and self._current.moves:
            return self._moved(dice)[0]
        return self._position

    @property
    def turn_start(self) -> Position:
        """The position at the start of the turn under way, before any single move of it."""
        return self._position

    def position_for(self, player: int) -> Position:
        """The position from ``player``'s side."""
        pos = self.position
        return pos if player == self.turn else pos.swap()

    @property
    def dice(self) -> tuple[int, int] | None:
        """The dice on the table (None before the roll)."""
        return self._current.dice

    @property
    def dice_chosen(self) -> bool:
        """Whether the dice on the table are acey-deucey's double named after a 1-2
        (RULES.md 2), not rolled: played in full, the mover rolls again."""
        return self._current.chosen

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def moves_made(self) -> list[Move]:
        """The single moves made so far this turn."""
        return [m for m, _ in self._current.moves]

    @property
    def single_moves(self) -> tuple[tuple[Move, int], ...]:
        """The single moves made so far this turn, in order, each with the die it used."""
        return tuple(self._current.moves)

    @property
    def last_play(self) -> TurnRecord | None:
        """The last finished turn of this game in which a checker moved (a turn with no
        legal move, or cut short by the cube or a resignation, is passed over); None before
        the first. Kept as turns end, so that it costs nothing however long the game."""
        return self._last_played

    def legal_plays(self) -> list[Play]:
        """The legal plays of the dice on the table."""
        d1, d2 = self._need_dice()
        key = (self._position, d1, d2)
        if self._legal is None or self._legal[0] != key:  # once per roll: the costly part
            self._legal = (key, self._position.legal_plays(d1, d2))
        return list(self._legal[1])

    def next_moves(self) -> list[Move]:
        """The single moves that may be made next on the way to a legal play."""
        return [m for m, _ in self._after_moves()[1]]

    def can_double(self, player: int) -> bool:
        """Whether ``player`` may offer the cube now (RULES.md 1.5, 1.6 Crawford)."""
        return (
            self.phase is Phase.ROLL
            and player == self.turn
            and bool(self.settings.cube)
            and not self.crawford
            and not self._last_roll
            and self.cube.owner in (None, player)
            and self._cube_limit(self.cube.value, player) is None
        )

    def _cube_limit(self, value: int, player: int) -> str | None:
        """Why ``player`` may not double (or beaver to) the cube at ``value``: its limit in
        this game (:func:`cube_limit`), None where they may or the limits are lifted."""
        if not self.cube_limits:
            return None
        length = self.settings.match_length
        return cube_limit(value, length - self.score[player] if length else None)

    def resignation(self) -> tuple[int, int] | None:
        """(player, level) of the resignation waiting for an answer, if any."""
        return None if self._resigned is None else self._resigned[:2]

    @property
    def resignations_this_turn(self) -> tuple[tuple[int, bool, bool], ...]:
        """The resignations offered in the turn under way, as a :class:`TurnRecord` keeps
        them: (level, accepted, after the roll); a surrender is level 0."""
        return tuple(self._current.resignations)

    # -- the one entry point ------------------------------------------------------------

    def apply(self, action: act.Action) -> tuple[ev.Event, ...]:
        """Take ``action`` and return the events it caused, in order, including everything
        that followed by itself (a turn passed with no legal move, the last roll, the end of
        the game). A refused action raises a :class:`NardyError` with a ``code`` and changes
        nothing."""
        start = len(self.log)
        match action:
            case act.RollOpening(player=p):
                self._seat(p)
                self.roll_opening()
            case act.Roll(player=p):
                self.roll(self._seat(p))
            case act.Move(player=p, start=a, end=b):
                self.move(self._seat(p), a, b)
            case act.Undo(player=p):
                self.undo(self._seat(p))
            case act.Confirm(player=p):
                self.confirm(self._seat(p))
            case act.Play(player=p, moves=text):
                self.play(self._seat(p), text)
            case act.Double(player=p):
                self.double(self._seat(p))
            case act.Take(player=p):
                self.take(self._seat(p))
            case act.Pass(player=p):
                self.pass_double(self._seat(p))
            case act.Beaver(player=p):
                self.beaver(self._seat(p))
            case act.Resign(player=p, level=level):
                self.resign(self._seat(p), level)
            case act.Accept(player=p):
                self.accept_resignation(self._seat(p))
            case act.Decline(player=p):
                self.decline_resignation(self._seat(p))
            case act.Surrender(player=p):
                self.surrender(self._seat(p))
            case act.ChooseDouble(player=p, die=die):
                self.choose_double(self._seat(p), die)
            case act.Forfeit(player=p, reason=reason):
                self.forfeit(self._seat(p), reason)
            case _:
                raise GameError(
                    f"a two-player game has no {action.kind!r} action",
                    code=ErrorCode.NOT_ALLOWED_BY_SETTINGS,
                )
        return tuple(self.log[start:])

    def awaiting(self, *, moves: bool = True) -> Awaiting:
        """Who must act now and which action kinds are open to each; while moving, the legal
        next single moves too (``moves=False`` leaves them out, for a program that plays
        whole plays). A finished game awaits nobody."""
        phase = self.phase
        turn = self.turn
        kinds: list[str] = []
        player = turn
        next_moves: tuple[Move, ...] = ()
        if phase is Phase.OPENING:
            both = (act.RollOpening.kind,)
            return Awaiting(phase.value, ((0, both), (1, both)))
        if phase is Phase.ROLL:
            kinds = [act.Roll.kind]
            if self.can_double(turn):
                kinds.append(act.Double.kind)
            kinds.append(self._give_up_kind())
        elif phase is Phase.DOUBLED:
            player = 1 - turn
            kinds = [act.Take.kind, act.Pass.kind]
            if self._why_no_beaver(player) is None:
                kinds.append(act.Beaver.kind)
        elif phase is Phase.BEAVERED:
            kinds = [act.Take.kind, act.Pass.kind]
        elif phase is Phase.MOVING:
            if moves:
                next_moves = tuple(self.next_moves())
                if next_moves:
                    kinds.append(act.Move.kind)
            if self._current.moves:
                kinds.append(act.Undo.kind)
            if not moves or not next_moves:
                kinds.append(act.Confirm.kind)  # moves=False: confirm may not be open yet
            kinds += [act.Play.kind, self._give_up_kind()]
        elif phase is Phase.CHOOSE_DOUBLE:
            kinds = [act.ChooseDouble.kind]
        elif phase is Phase.RESIGNED:
            assert self._resigned is not None
            player = 1 - self._resigned[0]
            kinds = [act.Accept.kind, act.Decline.kind]
        else:
            return Awaiting(phase.value, ())
        return Awaiting(phase.value, ((player, tuple(kinds)),), next_moves, self.dice)

    def _give_up_kind(self) -> str:
        return act.Resign.kind if self.variant.resignation_levels else act.Surrender.kind

    def _seat(self, player: act.Player) -> int:
        """The seat an action names, checked (0 or 1)."""
        return self._check_player(player)

    # -- the opening --------------------------------------------------------------------

    def roll_opening(self) -> tuple[int, int]:
        """Each player rolls one die, ties roll again (RULES.md 1.1, 3.1); with automatic
        doubles each tie doubles the centred cube, up to the limit (1.5). Returns the
        deciding dice (player 0's, player 1's)."""
        self._expect(Phase.OPENING)
        while True:
            roll = (self.dice_source.die(), self.dice_source.die())
            self.opening_rolls.append(roll)
            if roll[0] != roll[1]:
                break
            self.log.append(ev.OpeningRolled(roll, None))
            # Money play only, where the limit is the same for both players.
            room = self._cube_limit(self.cube.value, 0) is None
            if self.cube.automatic < self.settings.automatic_doubles and room:
                self.cube.value *= 2
                self.cube.automatic += 1
                self.log.append(ev.AutomaticDouble(self.cube.value))
        first = 0 if roll[0] > roll[1] else 1
        self.log.append(ev.OpeningRolled(roll, first))
        self._begin(first)
        if self.settings.plays_opening_roll:
            self._start_moving((roll[first], roll[1 - first]))
        return roll

    def _begin(self, first: int) -> None:
        self.first_player = first
        self.turn = first
        self.phase = Phase.ROLL

    # -- the cube -------------------------------------------------------------------------

    def double(self, player: int) -> None:
        """Offer the cube before rolling (RULES.md 1.5)."""
        if not self.can_double(player):
            self._check_turn(player, Phase.ROLL)
            raise GameError(self._why_no_double(player), code=ErrorCode.NOT_ALLOWED_BY_SETTINGS)
        self._current.cube.append(CubeAction.DOUBLE)
        self.phase = Phase.DOUBLED
        self.log.append(ev.CubeOffered(player, 2 * self.cube.value))

    def _why_no_double(self, player: int) -> str:
        if not self.settings.cube:
            return "the cube is off in this game"
        if self.crawford:
            return "no doubling in the Crawford game"
        if self._last_roll:
            return "no doubling on the last roll"
        if self.cube.owner not in (None, player):
            return "the opponent owns the cube"
        limit = self._cube_limit(self.cube.value, player)
        assert limit is not None  # can_double said no, for none of the reasons above
        return limit

    def _why_no_beaver(self, player: int) -> str | None:
        """Why the doubled ``player`` may not beaver now (RULES.md 1.5), None where they may:
        the setting, or the cube's limit, which a beaver's redouble would pass."""
        if not self.settings.beaver:
            return "beavers are not allowed in this game"
        if limit := self._cube_limit(2 * self.cube.value, player):
            return f"no beaver: {limit}"
        return None

    def take(self, player: int) -> None:
        """Accept the double (or, as the doubler, the beaver) and play on."""
        if self.phase is Phase.DOUBLED:
            self._check_player(player, 1 - self.turn)
            self.cube.value *= 2
            self.cube.owner = player
        elif self.phase is Phase.BEAVERED:
            self._check_player(player, self.turn)
            self.cube.value *= 2  # the beaverer keeps the cube
        else:
            raise GameError(f"there is no double to take now ({self.phase.value})")
        self.cube.turned = True
        self._current.cube.append(CubeAction.TAKE)
        self.phase = Phase.ROLL
        self.log.append(ev.CubeTaken(player, self.cube.value))

    def pass_double(self, player: int) -> None:
        """Refuse the double: the game is lost at the cube's value before it (RULES.md 1.5)."""
        if self.phase is Phase.DOUBLED:
            self._check_player(player, 1 - self.turn)
        elif self.phase is Phase.BEAVERED:
            self._check_player(player, self.turn)
        else:
            raise GameError(f"there is no double to pass now ({self.phase.value})")
        self._current.cube.append(CubeAction.PASS)
        self.log.append(ev.CubePassed(player, self.cube.value))
        self._end_turn_without_roll()
        self._finish(GameResult(1 - player, EndKind.PASS, self.cube.value, self.cube.value))

    def beaver(self, player: int) -> None:
        """Take and at once redouble, keeping the cube (money play with ``beaver``, 1.5)."""
        self._check_turn(player, Phase.DOUBLED, 1 - self.turn)
        if why := self._why_no_beaver(player):
            raise GameError(why, code=ErrorCode.NOT_ALLOWED_BY_SETTINGS)
        self.cube.value *= 2
        self.cube.owner = player
        self.cube.turned = True
        self._current.cube.append(CubeAction.BEAVER)
        self.phase = Phase.BEAVERED
        self.log.append(ev.Beavered(player, 2 * self.cube.value))

    # -- rolling and moving ---------------------------------------------------------------

    def roll(self, player: int) -> tuple[int, int]:
        """Roll two dice. With no legal move the turn passes at once (recorded as such)."""
        self._check_turn(player, Phase.ROLL)
        dice = (self.dice_source.die(), self.dice_source.die())
        self.log.append(ev.DiceRolled(player, dice))
        self._start_moving(dice)
        return dice

    def _start_moving(self, dice: tuple[int, int]) -> None:
        self._current.dice = dice
        self.phase = Phase.MOVING
        if not self._after_moves()[1]:  # no single move can start a legal play
            self._confirm()

    def move(self, player: int, start: int, end: int) -> Move:
        """Make one single move (one checker, one die) toward a legal play."""
        self._check_turn(player, Phase.MOVING)
        _, following = self._after_moves()
        options = [(m, die) for m, die in following if (m.start, m.end) == (start, end)]
        if not options:
            if not (type(start) is int and type(end) is int and 0 <= end < start <= 25):
                raise IllegalPlayError(
                    f"a move goes from a point 1-25 to a lower one 0-24, not {start!r}/{end!r}",
                    code=ErrorCode.INVALID_INPUT,
                )
            d1, d2 = self._need_dice()
            why = self.variant.refusal(self._position, d1, d2, self._current.moves, start, end)
            allowed = ", ".join(sorted({str(m) for m, _ in following})) or "none"
            raise IllegalPlayError(
                f"{Move(start, end)} is not a legal move now; legal: {allowed} "
                f"({d1}-{d2}: {why.text})",
                reason=why.reason,
                details=dict(why.details),
            )
        chosen = min(options, key=lambda option: option[1])  # keep the larger die for later
        self._current.moves.append(chosen)
        move, die = chosen
        self.log.append(ev.CheckerMoved(player, move.start, move.end, die, move.hit))
        return move

    def undo(self, player: int) -> None:
        """Take back the last single move of this turn."""
        self._check_turn(player, Phase.MOVING)
        if not self._current.moves:
            raise GameError("no move to undo this turn")
        move, _ = self._current.moves.pop()
        self.log.append(ev.MoveUndone(player, move.start, move.end))

    def confirm(self, player: int) -> None:
        """End the turn ("pick up the dice", RULES.md 1.9): the moves must make a legal play."""
        self._check_turn(player, Phase.MOVING)
        if self._completed_play() is None:
            raise IllegalPlayError("the moves so far are not a whole legal play; move on or undo")
        self._confirm()

    def play(self, player: int, play: Play | str) -> Play:
        """Make a whole play (notation or a :class:`Play`) and end the turn."""
        self._check_turn(player, Phase.MOVING)
        d1, d2 = self._need_dice()
        plays = self.legal_plays()
        legal = {p: p for p in plays}
        if isinstance(play, Play):
            chosen = play
        elif not isinstance(play, str):
            raise IllegalPlayError(
                f"a play is move notation, not {play!r}", code=ErrorCode.INVALID_INPUT
            )
        else:
            try:
                chosen = parse_play(self._position, play, d1, d2, plays)
            except IllegalPlayError as exc:
                raise type(exc)(self._explain(play, str(exc))) from None
        if chosen not in legal:
            raise IllegalPlayError(f"{chosen} is not a legal play of {d1}-{d2}")
        if format_moves(chosen.moves) != str(legal[chosen]):
            # A Play is equal to any play reaching its position: its moves must get there too.
            raise IllegalPlayError(f"the moves {chosen} do not reach the play's position")
        for move, _ in reversed(self._current.moves):  # a whole play replaces single moves
            self.log.append(ev.MoveUndone(player, move.start, move.end))
        self._current.moves = []
        self._confirm(chosen)
        return chosen

    def choose_double(self, player: int, die: int) -> None:
        """Acey-deucey: after playing the 1-2, name the double to play (RULES.md 2)."""
        self._check_turn(player, Phase.CHOOSE_DOUBLE)
        if not (type(die) is int and 1 <= die <= 6):
            raise GameError(f"name a double from 1 to 6, not {die!r}", code=ErrorCode.INVALID_INPUT)
        self._current = _Turn(chosen=True)
        self.log.append(ev.DoubleChosen(player, die))
        self._start_moving((die, die))

    # -- resigning ------------------------------------------------------------------------

    def resign(self, player: int, level: int = 1) -> None:
        """Offer to resign a single (1), gammon (2) or backgammon (3) on one's turn."""
        self._check_own_turn(player, "resign on your own turn, before or after rolling")
        if not self.variant.resignation_levels:
            raise GameError(
                f"{self.variant.name} has no resignation levels: surrender instead",
                code=ErrorCode.NOT_ALLOWED_BY_SETTINGS,
            )
        if type(level) is not int or level not in RESIGN_LEVELS:
            raise GameError(
                "resign a single (1), gammon (2) or backgammon (3)", code=ErrorCode.INVALID_INPUT
            )
        self._resigned = (player, level, self.phase)
        self.phase = Phase.RESIGNED
        self.log.append(ev.ResignationOffered(player, level))

    def accept_resignation(self, player: int) -> None:
        """The opponent accepts: the game ends at the offered level times the cube (1.4)."""
        resigner, level = self._pending_resignation(player)
        kind = RESIGN_LEVELS[level]
        self._current.resignations.append((level, True, self._current.dice is not None))
        self.log.append(ev.ResignationAccepted(player, level))
        self._end_turn_without_roll()
        self._finish(
            GameResult(1 - resigner, EndKind.RESIGN, self.cube.value, self._points(kind), kind)
        )

    def decline_resignation(self, player: int) -> None:
        """The opponent declines: nothing changes and play goes on (RULES.md 1.4)."""
        _, level = self._pending_resignation(player)
        assert self._resigned is not None
        self._current.resignations.append((level, False, self._current.dice is not None))
        self.log.append(ev.ResignationDeclined(player, level))
        self.phase = self._resigned[2]
        self._resigned = None

    def _pending_resignation(self, player: int) -> tuple[int, int]:
        if self.phase is not Phase.RESIGNED or self._resigned is None:
            raise GameError("no resignation is waiting for an answer")
        resigner, level, _ = self._resigned
        self._check_player(player, 1 - resigner)
        return resigner, level

    def surrender(self, player: int) -> None:
        """Long nardy: give up on one's turn, scored from the checkers as they stand (3.4)."""
        self._check_own_turn(player, "surrender on your own turn")
        if self.variant.resignation_levels:
            raise GameError(
                f"in {self.variant.name} resign a single, gammon or backgammon",
                code=ErrorCode.NOT_ALLOWED_BY_SETTINGS,
            )
        loser = self._position.mine
        kind = self.variant.result_kind(loser, self._position.theirs)
        self._current.resignations.append((0, True, self._current.dice is not None))
        self.log.append(ev.Surrendered(player))
        self._end_turn_without_roll()
        self._finish(
            GameResult(1 - player, EndKind.RESIGN, self.cube.value, self._points(kind), kind)
        )

    def forfeit(self, player: int, reason: str = "time") -> None:
        """``player`` loses by forfeit, in any phase but the end (a referee's decision: the
        clock ran out, or the game of an absent player was claimed). In a match the opponent
        gets the points that win the match; in money play (or an unlimited series) the game
        is lost at the cube's value, as a single. The turn under way is kept in the records
        as far as it went (its cube actions and dice), its unconfirmed moves are not."""
        if type(reason) is not str or reason not in act.FORFEIT_REASONS:
            raise GameError(
                f"a forfeit is for {' or '.join(act.FORFEIT_REASONS)}, not {reason!r}",
                code=ErrorCode.INVALID_INPUT,
            )
        if self.phase is Phase.OVER:
            raise GameError("the game is over")
        winner = 1 - player
        length = self.settings.match_length
        gained = max(1, length - self.score[winner]) if length else self.cube.value
        current = self._current
        started = self.phase is not Phase.OPENING
        if started and (current.cube or current.dice is not None or current.resignations):
            self._end_turn_without_roll()
        self.log.append(ev.Forfeited(player, reason))
        self._finish(GameResult(winner, EndKind.FORFEIT, self.cube.value, gained, reason=reason))

    # -- snapshots ------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The whole state of the game as JSON-serialisable data, at any moment: dice on the
        table, single moves made, a pending double, beaver or resignation, the acey-deucey
        choice, the last roll, the cube with its owner, every finished turn and the event
        log. :meth:`restore` gives the same game back without rolling anything."""
        current = self._current
        return {
            "snapshot": SNAPSHOT_VERSION,
            "settings": self.settings.to_dict(),
            "variant": self.variant.key,
            "crawford": self.crawford,
            "score": list(self.score),
            "cube": [self.cube.value, self.cube.owner, self.cube.turned, self.cube.automatic],
            "start-cube": list(self.start_cube),
            "opening": [list(roll) for roll in self.opening_rolls],
            "first-player": self.first_player,
            "turn": self.turn,
            "phase": self.phase.value,
            "position": _position_state(self._position),
            "current": {
                "cube": list(current.cube),
                "dice": None if current.dice is None else list(current.dice),
                "moves": [[m.start, m.end, m.hit, die] for m, die in current.moves],
                "chosen": current.chosen,
                "resignations": [list(r) for r in current.resignations],
            },
            "resigned": None
            if self._resigned is None
            else [self._resigned[0], self._resigned[1], self._resigned[2].value],
            "last-roll": self._last_roll,
            "records": _written(self._written[0], self.records, _record_state),
            "result": None if self.result is None else _result_state(self.result),
            "log": _written(self._written[1], self.log, lambda e: e.to_json()),
        }

    @classmethod
    def restore(cls, snapshot: dict[str, Any], dice: Dice | None = None) -> Game:
        """The game a :meth:`snapshot` describes, going on with ``dice`` (default: fresh
        secret dice). Its snapshot equals ``snapshot`` and it awaits the same actions.
        Raises :class:`InvalidInputError` for data that is not a snapshot."""
        with reading("a game snapshot"):
            return cls._restore(snapshot, dice)

    @classmethod
    def _restore(cls, data: dict[str, Any], dice: Dice | None) -> Game:
        if data.get("snapshot") != SNAPSHOT_VERSION:
            raise InvalidInputError(f"not a game snapshot of version {SNAPSHOT_VERSION}")
        settings = Settings.from_dict(data["settings"], data["variant"])
        game = cls(settings, dice, crawford=bool(data["crawford"]), score=_pair(data["score"]))
        variant = game.variant
        value, owner, turned, automatic = data["cube"]
        game.cube = Cube(int(value), _seat_or_none(owner), bool(turned), int(automatic))
        start_value, start_owner = data["start-cube"]
        game.start_cube = (int(start_value), _seat_or_none(start_owner))
        game.opening_rolls = [_dice(roll) for roll in data["opening"]]
        game.first_player = _seat_or_none(data["first-player"])
        game.turn = _seat(data["turn"])
        game.phase = Phase(data["phase"])
        game._position = _position(variant, data["position"])
        variant.validate(game._position)
        current = data["current"]
        game._current = _Turn(
            [CubeAction(c) for c in current["cube"]],
            None if current["dice"] is None else _dice(current["dice"]),
            [(Move(int(s), int(e), bool(h)), int(d)) for s, e, h, d in current["moves"]],
            bool(current["chosen"]),
            [(int(lv), bool(a), bool(r)) for lv, a, r in current["resignations"]],
        )
        resigned = data["resigned"]
        if resigned is not None:
            game._resigned = (_seat(resigned[0]), int(resigned[1]), Phase(resigned[2]))
        game._last_roll = bool(data["last-roll"])
        game.records = [_record(variant, r) for r in data["records"]]
        game._last_played = next(
            (r for r in reversed(game.records) if r.play is not None and r.play.moves), None
        )
        result = data["result"]
        if result is not None:
            level = result.get("level")
            reason = result.get("reason")  # absent from snapshots written before it
            if reason is not None and reason not in act.FORFEIT_REASONS:
                raise InvalidInputError(f"not a reason for a forfeit: {reason!r}")
            game.result = GameResult(
                _seat_or_none(result["winner"]),
                EndKind(result["kind"]),
                int(result["cube"]),
                int(result["points"]),
                None if level is None else ResultKind(level),
                reason,
            )
        game.log = [ev.event_from_json(e) for e in data["log"]]
        if game.phase is Phase.MOVING:
            game._after_moves()  # raises if the single moves made are not legal ones
        return game

    # -- internals ------------------------------------------------------------------------

    def _after_moves(self) -> tuple[Position, list[tuple[Move, int]]]:
        return self._moved(self._need_dice())

    def _moved(self, dice: tuple[int, int]) -> tuple[Position, list[tuple[Move, int]]]:
        """The variant's answer for the single moves made with ``dice``: the position they
        reach and the single moves that may follow. Kept until the moves change, because
        the board, the awaiting and the next move all ask it after every single move."""
        key = (self._position, dice, tuple(self._current.moves))
        if self._reached is None or self._reached[0] != key:
            roll = (self._position, dice)
            if self._search is None or self._search[0] != roll:
                self._search = (roll, TurnSearch())
            search = self._search[1]
            self._reached = (key, self.variant.next_moves(self._position, *dice, key[2], search))
        return self._reached[1]

    def _completed_play(self) -> Play | None:
        reached = self._after_moves()[0]
        if self._current.moves:
            # Where a legal play ends is known from the search of the single moves: the
            # roll's whole plays need not be built (a player moving checker by checker).
            assert self._search is not None
            ends = self.variant.ends_a_play(reached, self._search[1])
            return Play(tuple(m for m, _ in self._current.moves), reached) if ends else None
        for play in self.legal_plays():
            if play.position == reached:
                return Play(tuple(m for m, _ in self._current.moves) or play.moves, reached)
        return None

    def _confirm(self, play: Play | None = None) -> None:
        play = play or self._completed_play()
        assert play is not None and self._current.dice is not None
        mover = self.turn
        record = TurnRecord(
            mover,
            tuple(self._current.cube),
            self._current.dice,
            play,
            self._position,
            play.position,
            self._current.chosen,
            tuple(self._current.resignations),
            (self.cube.value, self.cube.owner),
        )
        self.records.append(record)
        if play.moves:
            self._last_played = record
        after = play.position
        self._position = after
        dice = self._current.dice
        chosen = self._current.chosen
        self._current = _Turn()
        if play.moves:
            self.log.append(ev.PlayConfirmed(mover, dice, str(play)))
        else:
            self.log.append(ev.NoLegalMove(mover, dice))
        if after.mine[OFF] == CHECKERS:
            self._game_won(mover)
            return
        if self._last_roll:  # the second player's final roll did not bear everything off
            self._last_roll = False
            self._position = after.swap()
            self.turn = 1 - mover
            self._finish(self._win(1 - mover))
            return
        match self.variant.after_play(*dice, len(play.moves), chosen):
            case "name":  # RULES.md 2: the 1-2 earns a named double
                self.phase = Phase.CHOOSE_DOUBLE
                return
            case "roll":  # and the named double played in full another roll
                self.phase = Phase.ROLL
                self.log.append(ev.RollAgain(mover))
                return
        self._position = after.swap()
        self.turn = 1 - mover
        self.phase = Phase.ROLL

    def _game_won(self, mover: int) -> None:
        if self.settings.last_roll and mover == self.first_player and not self._last_roll:
            # RULES.md 3.4: the second player gets one final roll.
            self._last_roll = True
            self._position = self._position.swap()
            self.turn = 1 - mover
            self.phase = Phase.ROLL
            self.log.append(ev.LastRoll(self.turn))
            return
        if self._last_roll:  # the second player bore everything off with the last roll
            self._finish(GameResult(None, EndKind.DRAW, self.cube.value, 0))
            return
        self._finish(self._win(mover))

    def _win(self, winner: int) -> GameResult:
        pos = self._position if self.turn == winner else self._position.swap()
        kind = self.variant.result_kind(pos.theirs, pos.mine)
        return GameResult(winner, EndKind(kind), self.cube.value, self._points(kind))

    def _points(self, kind: ResultKind) -> int:
        return points(kind, self.cube.value, self.settings, cube_turned=self.cube.turned)

    def _end_turn_without_roll(self) -> None:
        """Record the turn cut short by a cube pass, a resignation or a surrender."""
        moving = self._current.dice is not None
        self.records.append(
            TurnRecord(
                self.turn,
                tuple(self._current.cube),
                self._current.dice if moving else None,
                None,
                self._position,
                self._position,
                self._current.chosen,
                tuple(self._current.resignations),
                (self.cube.value, self.cube.owner),
            )
        )

    def _finish(self, result: GameResult) -> None:
        self.result = result
        self.phase = Phase.OVER
        self._current = _Turn()
        self._resigned = None
        self.log.append(
            ev.GameOver(result.winner, result.kind, result.cube, result.points, result.level)
        )

    def _explain(self, text: str, refusal: str) -> str:
        """A refused whole play, with the rule that refuses its first refused single move
        where the text reads as single moves of the dice (``24/19 24/21`` for 5-3)."""
        d1, d2 = self._need_dice()
        try:
            hops = parse_moves(text)
        except NardyError:
            return refusal
        done: list[tuple[Move, int]] = []
        for hop in hops:
            _, following = self.variant.next_moves(self._position, d1, d2, done)
            options = [(m, die) for m, die in following if (m.start, m.end) == (hop.start, hop.end)]
            if not options:
                why = self.variant.refusal(self._position, d1, d2, done, hop.start, hop.end)
                # Only a rule is worth adding: "no die of 3" says what the refusal says.
                return f"{refusal}: {Move(hop.start, hop.end)}: {why.text}" if why.rule else refusal
            done.append(min(options, key=lambda option: option[1]))
        return refusal

    def _need_dice(self) -> tuple[int, int]:
        if self.phase is not Phase.MOVING or self._current.dice is None:
            raise GameError(f"no dice on the table ({self.phase.value})")
        return self._current.dice

    def _expect(self, phase: Phase) -> None:
        if self.phase is not phase:
            raise GameError(f"not now: the game is in phase {self.phase.value}, not {phase.value}")

    def _check_own_turn(self, player: int, refusal: str) -> None:
        """For resigning and surrendering: before or after rolling, on one's own turn."""
        self._check_player(player)
        if self.phase not in (Phase.ROLL, Phase.MOVING):
            raise GameError(refusal)
        if player != self.turn:
            raise GameError(refusal, code=ErrorCode.NOT_YOUR_TURN)

    def _check_player(self, player: object, expected: int | None = None) -> int:
        """``player`` checked: a seat (0 or 1), and the one expected to act if one is."""
        if type(player) is not int or player not in (0, 1):
            raise GameError(f"players are 0 and 1, not {player!r}", code=ErrorCode.INVALID_INPUT)
        if expected is not None and player != expected:
            raise GameError(
                f"it is player {expected}'s decision, not player {player}'s",
                code=ErrorCode.NOT_YOUR_TURN,
            )
        return player

    def _check_turn(self, player: int, phase: Phase, expected: int | None = None) -> None:
        """``player`` may take an action of ``phase`` now. A player the game does not wait
        for hears that it is not their decision (``not-your-turn``) whatever the phase; the
        one it waits for, that the action is not one of this phase (``wrong-phase``)."""
        self._check_player(player)
        if self.phase is not phase:
            waited = [p for p, _ in self.awaiting(moves=False).actors]
            if waited and player not in waited:
                raise GameError(
                    f"it is player {waited[0]}'s decision, not player {player}'s",
                    code=ErrorCode.NOT_YOUR_TURN,
                )
        self._expect(phase)
        self._check_player(player, self.turn if expected is None else expected)


# -- snapshot data ---------------------------------------------------------------------------


def _position_state(pos: Position) -> str:
    """A position as 104 hex digits: my 26 counts, then theirs (each side's own numbering)."""
    return (pos.mine + pos.theirs).hex()


def _position(variant: Variant, text: str) -> Position:
    raw = bytes.fromhex(text)
    if len(raw) != 52:
        raise InvalidInputError(f"a position is 52 counts, not {len(raw)}")
    return Position(variant, raw[:26], raw[26:])


def _written(
    written: list[dict[str, Any]], items: list[_T], encode: Callable[[_T], dict[str, Any]]
) -> list[dict[str, Any]]:
    """The JSON forms of ``items``, a list that only grows, each encoded once: ``written``
    keeps those encoded so far. Each caller gets a list of its own, whose entries it must
    not change."""
    written += [encode(item) for item in items[len(written) :]]
    return list(written)


def _record_state(r: TurnRecord) -> dict[str, Any]:
    return {
        "player": r.player,
        "cube": list(r.cube),
        "dice": None if r.dice is None else list(r.dice),
        "play": None if r.play is None else [[m.start, m.end, m.hit] for m in r.play.moves],
        "before": _position_state(r.before),
        "after": _position_state(r.after),
        "chosen": r.chosen,
        "resignations": [list(x) for x in r.resignations],
        "cube-after": list(r.cube_after),
    }


def _record(variant: Variant, data: dict[str, Any]) -> TurnRecord:
    after = _position(variant, data["after"])
    play = data["play"]
    return TurnRecord(
        _seat(data["player"]),
        tuple(CubeAction(c) for c in data["cube"]),
        None if data["dice"] is None else _dice(data["dice"]),
        None
        if play is None
        else Play(tuple(Move(int(s), int(e), bool(h)) for s, e, h in play), after),
        _position(variant, data["before"]),
        after,
        bool(data["chosen"]),
        tuple((int(lv), bool(a), bool(rolled)) for lv, a, rolled in data["resignations"]),
        (int(data["cube-after"][0]), _seat_or_none(data["cube-after"][1])),
    )


def _result_state(result: GameResult) -> dict[str, Any]:
    return {
        "winner": result.winner,
        "kind": result.kind,
        "cube": result.cube,
        "points": result.points,
        "level": result.level,
        "reason": result.reason,
    }


def _seat(value: Any) -> int:
    if type(value) is not int or value not in (0, 1):
        raise InvalidInputError(f"a player is 0 or 1, not {value!r}")
    return value


def _seat_or_none(value: Any) -> int | None:
    return None if value is None else _seat(value)


def _pair(value: Any) -> tuple[int, int]:
    a, b = value
    return int(a), int(b)


def _dice(value: Any) -> tuple[int, int]:
    d1, d2 = value
    if not all(type(d) is int and 1 <= d <= 6 for d in (d1, d2)):
        raise InvalidInputError(f"dice are 1-6, not {value!r}")
    return d1, d2
