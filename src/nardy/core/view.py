"""What a board shows of a game at any moment: the board view, the same for every viewer.

A :class:`BoardView` is everything a client draws and enables from, with no rules of its
own to know: each seat's checkers after the single moves made so far this turn, the pip
counts, whether the game is a race, the dice and which of them the single moves used, the
cube and its owner, a double, beaver or resignation waiting for an answer, the last play
(with the checkers before it, to animate), the result, and who must act now with the legal
next single moves (:class:`~nardy.core.awaiting.Awaiting`). Its :meth:`BoardView.to_json`
is the ``board`` of the server's per-viewer state (protocol version 2).

Every side here is a *seat's* 26 counts in that seat's own numbering (RULES.md, preamble:
0 borne off, 1-24 the points, 25 the bar). Where checkers enter from outside the board
(acey-deucey, RULES.md 2) those not entered yet are counted at 25, where they enter from: a
board draws them there and moves them from there like checkers on the bar. The pip counts
are the variant's own (:meth:`Variant.pips`), which counts those checkers at 25 too.

Building a view is cheap whatever the game's or match's age: it reads the game's state now
and its last play, never its log, its earlier turns or a snapshot.

Which ``awaiting`` a view carries is the caller's choice, because it names who acts: a
two-player game's or match's names the seats 0 and 1, a chouette's or consultation's names
people (the box, the captains, the members voting or proposing). :func:`board_view` takes
the one to use; :func:`match_view`, :func:`chouette_view` and :func:`consultation_view` pass
their own table's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nardy.core.awaiting import Awaiting
from nardy.core.game import Game, GameResult, Phase
from nardy.core.moves import Move
from nardy.core.position import BAR, CHECKERS, OFF, Position, Side

if TYPE_CHECKING:
    from nardy.core.chouette import Chouette
    from nardy.core.match import Match
    from nardy.core.team import Consultation
    from nardy.core.variant import Variant

Counts = tuple[int, ...]
"""One seat's 26 counts in its own numbering (0 off, 1-24 the points, 25 the bar)."""
Sides = tuple[Counts, Counts]
"""Seat 0's counts, then seat 1's."""


def shown(variant: Variant, side: Side) -> Counts:
    """One side's counts as a board shows them: where checkers enter from outside the board
    (RULES.md 2), those not entered yet counted at 25, where they enter from."""
    counts = tuple(side)
    if variant.enters_from_outside:
        waiting = CHECKERS - sum(counts)
        if waiting:
            return (*counts[:BAR], counts[BAR] + waiting)
    return counts


def seat_sides(position: Position, mover: int) -> Sides:
    """Each seat's counts as a board shows them (:func:`shown`), of ``position`` seen from
    seat ``mover``'s side."""
    mine = shown(position.variant, position.mine)
    theirs = shown(position.variant, position.theirs)
    return (mine, theirs) if mover == 0 else (theirs, mine)


@dataclass(frozen=True, slots=True)
class PositionView:
    """Where the checkers of one position stand, per seat: ``sides`` as a board shows them
    (:func:`seat_sides`), each seat's pip count (the variant's) and checkers borne off."""

    sides: Sides
    pips: tuple[int, int]
    off: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        """``{"sides": [[26], [26]], "pips": [a, b], "off": [a, b]}``."""
        return {
            "sides": [list(self.sides[0]), list(self.sides[1])],
            "pips": list(self.pips),
            "off": list(self.off),
        }


def position_view(position: Position, mover: int) -> PositionView:
    """The :class:`PositionView` of ``position`` seen from seat ``mover``'s side (a turn
    record's ``before`` and ``after`` are seen from its ``player``)."""
    variant = position.variant
    mine = (variant.pips(position.mine), position.mine[OFF])
    theirs = (variant.pips(position.theirs), position.theirs[OFF])
    first, second = (mine, theirs) if mover == 0 else (theirs, mine)
    return PositionView(seat_sides(position, mover), (first[0], second[0]), (first[1], second[1]))


@dataclass(frozen=True, slots=True)
class Pending:
    """A decision waiting for an answer: a double (``by`` the doubler, ``value`` the cube
    offered), a beaver (``by`` the beaverer, ``value`` the cube the doubler would take it
    to) or a resignation (``by`` the resigner, ``level`` 1 single, 2 gammon, 3
    backgammon: RULES.md 1.4-1.5)."""

    kind: str  # "double", "beaver" or "resignation"
    by: int
    value: int | None = None
    level: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "by": self.by, "value": self.value, "level": self.level}


@dataclass(frozen=True, slots=True)
class LastPlay:
    """The last finished turn of the game in which a checker moved: who played, the dice,
    the single moves in the mover's numbering and each seat's checkers before them."""

    player: int
    dice: tuple[int, int]
    moves: tuple[Move, ...]
    before: Sides

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "dice": list(self.dice),
            "moves": [_move_json(m) for m in self.moves],
            "before": [list(self.before[0]), list(self.before[1])],
        }


@dataclass(frozen=True, slots=True)
class BoardView:
    """What a board shows of a game now (see the module's description): the fields are
    those of :meth:`to_json`, under Python names.

    ``game_number`` is the game's 1-based number in its match, session or chouette;
    ``turn`` the seat on roll or moving (None before the opening roll); ``phase`` the
    game's phase (:class:`~nardy.core.game.Phase` values). ``dice`` are the dice on the
    table as rolled (or named, after acey-deucey's 1-2), ``dice_shown`` them as a board
    draws them (a double four times) and ``used`` whether each of those a single move of
    this turn has used; ``moves_made`` those single moves, each with its die. ``cube`` is
    (value, owner) with the owner None while centred, and None in a game without a cube.
    ``awaiting`` is the caller's (see :func:`board_view`).
    """

    variant: str
    game_number: int
    crawford: bool
    turn: int | None
    phase: str
    sides: Sides
    pips: tuple[int, int]
    off: tuple[int, int]
    race: bool
    dice: tuple[int, int] | None
    dice_shown: tuple[int, ...] | None
    used: tuple[bool, ...] | None
    moves_made: tuple[tuple[Move, int], ...]
    cube: tuple[int, int | None] | None
    pending: Pending | None
    last_play: LastPlay | None
    result: GameResult | None
    awaiting: Awaiting

    def to_json(self) -> dict[str, Any]:
        """The board as the protocol writes it (names with dashes, every key present)."""
        result = self.result
        return {
            "variant": self.variant,
            "game-number": self.game_number,
            "crawford": self.crawford,
            "turn": self.turn,
            "phase": self.phase,
            "sides": [list(self.sides[0]), list(self.sides[1])],
            "pips": list(self.pips),
            "off": list(self.off),
            "race": self.race,
            "dice": None if self.dice is None else list(self.dice),
            "dice-shown": None if self.dice_shown is None else list(self.dice_shown),
            "used": None if self.used is None else list(self.used),
            "moves-made": [{**_move_json(m), "die": die} for m, die in self.moves_made],
            "cube": None if self.cube is None else {"value": self.cube[0], "owner": self.cube[1]},
            "pending": None if self.pending is None else self.pending.to_json(),
            "last-play": None if self.last_play is None else self.last_play.to_json(),
            "result": None
            if result is None
            else {
                "winner": result.winner,
                "kind": str(result.kind),
                "points": result.points,
                "reason": result.reason,
            },
            "awaiting": self.awaiting.to_json(),
        }


def board_view(
    game: Game,
    *,
    match: Match | None = None,
    awaiting: Awaiting | None = None,
    number: int | None = None,
) -> BoardView:
    """The board of ``game`` now.

    ``awaiting`` is who must act, as the caller's game object says it: by default the
    match's (:meth:`Match.awaiting`) where ``match`` is given, else the game's own. A table
    passes its own, which names people (:func:`chouette_view`, :func:`consultation_view`).
    ``number`` is the game's 1-based number; by default its place in ``match``, else 1.
    """
    if awaiting is None:
        awaiting = game.awaiting() if match is None else match.awaiting()
    if number is None:
        number = 1 if match is None else _number(match, game)
    variant = game.variant
    turn = game.turn
    position = game.board_position
    dice = game.dice
    made = game.single_moves
    dice_shown: tuple[int, ...] | None = None
    used: tuple[bool, ...] | None = None
    if dice is not None:
        dice_shown = (dice[0],) * 4 if dice[0] == dice[1] else dice
        used = _used(dice_shown, [die for _, die in made])
    seen = position_view(position, turn)
    return BoardView(
        variant=variant.key,
        game_number=number,
        crawford=game.crawford,
        turn=None if game.phase is Phase.OPENING else turn,
        phase=game.phase.value,
        sides=seen.sides,
        pips=seen.pips,
        off=seen.off,
        race=variant.is_race(position),
        dice=dice,
        dice_shown=dice_shown,
        used=used,
        moves_made=made,
        cube=(game.cube.value, game.cube.owner) if game.settings.cube else None,
        pending=_pending(game),
        last_play=_last_play(game),
        result=game.result,
        awaiting=awaiting,
    )


def match_view(match: Match) -> BoardView:
    """The board of the match's game under way, with the match's awaiting; between games
    (once the match is over) the finished last game's; before the first game, the first
    game as it will start (the start position, waiting for the opening roll)."""
    game = match.game
    if game is None:
        return board_view(match.upcoming, match=match, number=1)
    return board_view(game, match=match, number=len(match.games))


def chouette_view(chouette: Chouette) -> BoardView | None:
    """The board of the chouette's game under way, or between games of the last one, with
    the chouette's own awaiting (the box, the captain and the members, by name; between
    games the box and the next captain may start the next game); None before the first
    game. The seats are the chouette's sides: 0 the box, 1 the team."""
    if not chouette.games:
        return None
    return board_view(
        chouette.games[-1].game, awaiting=chouette.awaiting(), number=len(chouette.games)
    )


def consultation_view(consultation: Consultation) -> BoardView | None:
    """The board of the consultation's match (:func:`match_view`) with the consultation's
    own awaiting (the captains and the members who may propose, by name); None before the
    first game."""
    match = consultation.match
    game = match.game
    if game is None:
        return None
    return board_view(game, awaiting=consultation.awaiting(), number=len(match.games))


# -- the parts ---------------------------------------------------------------------------


def _move_json(move: Move) -> dict[str, Any]:
    return {"from": move.start, "to": move.end, "hit": move.hit}


def _number(match: Match, game: Game) -> int:
    """The 1-based number of ``game`` in ``match``: the last one's at once, another's by
    looking it up."""
    games = match.games
    if games and games[-1] is game:
        return len(games)
    return next(i for i, g in enumerate(games, 1) if g is game)


def _used(dice: tuple[int, ...], made: list[int]) -> tuple[bool, ...]:
    """Which of the dice as drawn the dice of the single moves made have used: each move
    the first unused die of its number."""
    used = [False] * len(dice)
    for die in made:
        for i, value in enumerate(dice):
            if value == die and not used[i]:
                used[i] = True
                break
    return tuple(used)


def _pending(game: Game) -> Pending | None:
    """The double, beaver or resignation waiting for an answer (RULES.md 1.4, 1.5)."""
    phase = game.phase
    if phase is Phase.DOUBLED:  # the player on turn offers the cube at twice its value
        return Pending("double", game.turn, 2 * game.cube.value)
    if phase is Phase.BEAVERED:  # the beaverer holds the cube at its doubled value already
        return Pending("beaver", 1 - game.turn, 2 * game.cube.value)
    resignation = game.resignation()
    if phase is Phase.RESIGNED and resignation is not None:
        player, level = resignation
        return Pending("resignation", player, None, level)
    return None


def _last_play(game: Game) -> LastPlay | None:
    record = game.last_play
    if record is None or record.play is None or record.dice is None:
        return None
    return LastPlay(
        record.player, record.dice, record.play.moves, seat_sides(record.before, record.player)
    )
