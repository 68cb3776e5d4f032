"""A variant: the geometry, start position and move rules of one game, and the registry.

Every rule that differs between variants lives in a :class:`Variant` subclass; the rest of
nardy asks the variant and never branches on which one it is. Variants are stateless
singletons looked up by a stable key (``backgammon``, ``nackgammon``, ``acey-deucey``,
``long``).

Legal plays are generated here once for all variants (RULES.md 1.2, 3.2: most dice, both dice,
the larger die), from the single-die steps that each variant defines. The search works in
the mover's numbering throughout: the opponent's checkers are first turned into "mine"
coordinates by the variant's geometry, so a step only compares two counts on one point.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any, ClassVar, Literal, NamedTuple

from nardy.core import fastpath
from nardy.core.errors import (
    IllegalPlayError,
    InvalidDiceError,
    InvalidPositionError,
    RefusalReason,
)
from nardy.core.moves import Move, Play, parse_play
from nardy.core.position import BAR, CHECKERS, OFF, Outcome, Position, ResultKind, Side

# One single-die step: (start, end, my side after, opponent's side after in my coordinates),
# both sides packed (see pack()).
Step = tuple[int, int, int, int]
Path = tuple[tuple[int, int, bool], ...]


class Refusal(NamedTuple):
    """Why a single move is not legal: in words (``text``) and as a program reads it
    (``reason``, with the numbers it names in ``details``); ``rule`` when a rule of play
    refuses it (the head rule, the bar first…) rather than a move that the dice or the
    checkers do not make at all."""

    text: str
    reason: RefusalReason
    details: tuple[tuple[str, int], ...] = ()

    @property
    def rule(self) -> bool:
        """A rule of play refuses the move, not the dice or the checkers missing for it."""
        return self.reason not in _NOT_RULES


_NOT_RULES = frozenset({RefusalReason.DICE_PLAYED, RefusalReason.NO_CHECKER, RefusalReason.NO_DIE})
"""The refusals of a move that the dice or the checkers do not make at all."""


def bear_off_refusal(highest: int, home: bool) -> Refusal:
    """Why a checker may not bear off with the die it tried (RULES.md 1.3, 3.4): not every
    checker is ``home`` yet, or a die larger than needed bears off only from the ``highest``
    point the mover holds."""
    if not home:
        return Refusal(
            "bear-off not yet allowed: every checker must be in the home board first",
            RefusalReason.BEAR_OFF_EARLY,
        )
    return Refusal(
        f"a larger die bears off only from the highest point ({highest})",
        RefusalReason.BEAR_OFF_HIGHEST,
        (("point", highest),),
    )


class TurnSearch:
    """What the single moves of one roll from one position found so far, for the next
    calls of :meth:`Variant.next_moves` on the same roll: the positions the legal plays
    reach (packed, mover first), the turn's context, and whether each position on the way,
    with the dice left, can still reach one of them. A single move's answer deep in a
    double's search is then a lookup, not a search again."""

    __slots__ = ("completes", "ctx", "targets")

    def __init__(self) -> None:
        self.targets: set[tuple[int, int]] | None = None
        self.ctx: Any = None
        self.completes: dict[tuple[int, int, tuple[int, ...]], bool] = {}


class Variant:
    """The rules of one variant. Subclasses fill in the geometry and single-die steps."""

    key: ClassVar[str]
    compiled_rules: ClassVar[int | None] = None
    """Which rules of the compiled generator (core/_movegen.c) are this variant's exactly:
    0 backgammon's, 1 acey-deucey's, 2 long nardy's; None: the reference generator only."""
    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    start_points: ClassVar[dict[int, int]]

    # -- geometry --------------------------------------------------------------------------

    def opponent_point(self, point: int) -> int:
        """My point ``point`` (1-24) as the opponent numbers it."""
        raise NotImplementedError

    def to_mine(self, theirs: Side) -> Side:
        """The opponent's side re-indexed by my point numbers (0 = their off, 25 = their bar)."""
        raise NotImplementedError

    def from_mine(self, op: Side) -> Side:
        """The inverse of :meth:`to_mine`; both geometries so far are their own inverse."""
        return self.to_mine(op)

    # -- positions -------------------------------------------------------------------------

    def start(self) -> Position:
        """The starting position, first player on roll."""
        side = bytes(self.start_points.get(p, 0) for p in range(26))
        return Position(self, side, side)

    def validate(self, pos: Position) -> None:
        """Raise :class:`InvalidPositionError` unless ``pos`` can occur in this variant."""
        for label, side in (("mine", pos.mine), ("theirs", pos.theirs)):
            if not isinstance(side, bytes) or len(side) != 26:
                raise InvalidPositionError(f"{label}: expected 26 counts as bytes")
            total = sum(side)
            if total > CHECKERS or (total < CHECKERS and not self.enters_from_outside):
                raise InvalidPositionError(
                    f"{label} has {total} checkers on the board, bar and off; "
                    f"{self.name} needs {CHECKERS}"
                )
            if side[BAR] and not self.has_bar:
                raise InvalidPositionError(f"{label}: {self.name} has no bar")
        op = self.to_mine(pos.theirs)
        for p in range(1, 25):
            if pos.mine[p] and op[p]:
                raise InvalidPositionError(f"both sides have checkers on my point {p}")
        if pos.mine[OFF] == CHECKERS and pos.theirs[OFF] == CHECKERS:
            raise InvalidPositionError("both sides have borne off all their checkers")

    has_bar: ClassVar[bool] = True
    """Whether the board has a bar at all (checkers may stand on index 25)."""
    enters_from_outside: ClassVar[bool] = False
    ordered_doubles: ClassVar[bool] = True
    own_settings: ClassVar[frozenset[str]] = frozenset()
    """Settings (RULES.md names) that only this variant's family has."""
    uses_cube_by_default: ClassVar[bool] = True
    """Whether the cube is on unless the settings turn it off (RULES.md 1.5, 3.4)."""
    hits: ClassVar[bool] = True
    """Whether a blot can be hit (and sent to the bar): the backgammon family."""
    has_backgammons: ClassVar[bool] = True
    """Whether a win can be a backgammon (long nardy's wins are oin or mars)."""
    resignation_levels: ClassVar[tuple[ResultKind, ...]] = ()
    """What a player may resign (single, gammon, backgammon); none where one surrenders."""
    gnubg_plays: ClassVar[bool] = False
    """Whether GNU Backgammon plays this variant, so that a Match ID describes its games."""
    opening_dice_played: ClassVar[bool] = True
    """False where the opening roll only decides who starts (long nardy's lot, RULES.md 3.1)."""
    head: ClassVar[int | None] = None
    """The point every checker starts on and leaves one a turn (long nardy's head, RULES.md
    3.1-3.2), in the owner's numbering; None where no head rule applies."""

    # -- legal plays -----------------------------------------------------------------------

    def legal_plays(self, pos: Position, d1: int, d2: int) -> list[Play]:
        """Every legal play of ``d1``-``d2``, one per resulting position, back checkers first.

        A roll with no legal move gives the single empty play, which leaves the position as
        it is (the turn passes).
        """
        plays = [
            Play(tuple(Move(s, t, hit) for s, t, hit in path), Position(self, mine, theirs))
            for (mine, theirs), path in self.play_paths(pos.mine, pos.theirs, d1, d2).items()
        ]
        plays.sort(key=Play.sort_key)
        return plays

    def play_paths(
        self, mine: Side, theirs: Side, d1: int, d2: int
    ) -> dict[tuple[Side, Side], Path]:
        """The fast path: ``{(mine, theirs) after: the moves of one play reaching it}``.

        No validation of the position; the dice are checked. The compiled generator answers
        when it is built and selected (:func:`movegen`); it gives exactly what
        :meth:`reference_play_paths` gives, entries and their order included.
        """
        if _movegen is not None and (kind := self.compiled_rules) is not None:
            found: dict[tuple[Side, Side], Path] | None = _movegen.play_paths(
                kind, mine, theirs, d1, d2
            )
            if found is not None:  # None: arguments it does not take, e.g. bad dice
                return found
        return self.reference_play_paths(mine, theirs, d1, d2)

    def reference_play_paths(
        self, mine: Side, theirs: Side, d1: int, d2: int
    ) -> dict[tuple[Side, Side], Path]:
        """The pure-Python generator, the readable reference of :meth:`play_paths`.

        No validation of the position; the dice are checked. Inside, each side is packed
        into one integer, a byte per index (see :func:`pack`), so that moving a checker is
        one addition and a whole side hashes as a number.
        """
        if not (type(d1) is int and type(d2) is int and 1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise InvalidDiceError(f"dice must be 1-6, got {d1} and {d2}")
        me0 = int.from_bytes(mine, "little")
        op0 = int.from_bytes(self.to_mine(theirs), "little")
        ctx = self.turn_context(me0, op0, d1, d2)
        steps = self.steps
        frontier: dict[tuple[int, int], Path]
        if d1 == d2 and self.ordered_doubles:
            frontier = self._ordered_doubles(me0, op0, d1, ctx)
        elif d1 == d2:
            frontier = {(me0, op0): ()}
            for _ in range(4):
                deeper: dict[tuple[int, int], Path] = {}
                for (me, o), path in frontier.items():
                    for s, t, me1, o1 in steps(me, o, d1, ctx, BAR):
                        if (me1, o1) not in deeper:
                            deeper[me1, o1] = (*path, (s, t, o1 != o))
                if not deeper:
                    break
                frontier = deeper
        else:
            high, low = max(d1, d2), min(d1, d2)  # the larger die first, as gnubg lists them
            frontier = self.independent_pairs(me0, op0, high, low, ctx) or self._two_dice(
                me0, op0, high, low, ctx
            )
        from_mine = self.from_mine
        return {
            (me.to_bytes(26, "little"), theirs if o == op0 else from_mine(unpack(o))): path
            for (me, o), path in frontier.items()
        }

    def independent_pairs(
        self, me0: int, op0: int, d1: int, d2: int, ctx: Any
    ) -> dict[tuple[int, int], Path]:
        """A shortcut for two different dice where a variant can see that the moves of one
        die do not change what the other may do; empty where it cannot (then the general
        search runs)."""
        return {}

    def _two_dice(
        self, me0: int, op0: int, d1: int, d2: int, ctx: Any
    ) -> dict[tuple[int, int], Path]:
        """Two different dice, either order; RULES.md 1.2's most-dice and larger-die rules."""
        steps = self.steps
        high, low = max(d1, d2), min(d1, d2)
        both: dict[tuple[int, int], Path] = {}
        singles: dict[int, dict[tuple[int, int], Path]] = {high: {}, low: {}}
        for first, second in ((high, low), (low, high)):
            for s, t, me1, o1 in steps(me0, op0, first, ctx, BAR):
                move = (s, t, o1 != op0)
                second_played = False
                for s2, t2, me2, o2 in steps(me1, o1, second, ctx, BAR):
                    second_played = True
                    key = (me2, o2)
                    if key not in both:
                        both[key] = (move, (s2, t2, o2 != o1))
                if not second_played:
                    singles[first].setdefault((me1, o1), (move,))
        # RULES.md 1.2: both dice if possible, else the larger die if it can be played.
        return both or singles[high] or singles[low] or {(me0, op0): ()}

    def _ordered_doubles(
        self, me0: int, op0: int, die: int, ctx: Any
    ) -> dict[tuple[int, int], Path]:
        """Doubles without revisiting orders: each move starts no higher than the one before.

        Sound where the order of single moves never changes what is legal (backgammon:
        a lower checker's move never opens or closes anything for a higher one).
        """
        level: list[tuple[int, int, int, Path]] = [(me0, op0, BAR, ())]
        for _ in range(4):
            deeper = [
                (me1, o1, s, (*path, (s, t, o1 != o)))
                for me, o, top, path in level
                for s, t, me1, o1 in self.steps(me, o, die, ctx, top)
            ]
            if not deeper:
                break
            level = deeper
        frontier: dict[tuple[int, int], Path] = {}
        for me, o, _, path in level:
            frontier.setdefault((me, o), path)
        return frontier

    def next_moves(
        self,
        pos: Position,
        d1: int,
        d2: int,
        done: Sequence[tuple[Move, int]],
        search: TurnSearch | None = None,
    ) -> tuple[Position, list[tuple[Move, int]]]:
        """Moving one checker at a time: the position after the single moves ``done`` (each
        with the die it used), and every single move (with its die) that can follow on the
        way to a legal play. Raises :class:`IllegalPlayError` if ``done`` itself is not such a
        way. The play is complete when the position is one that a legal play reaches.

        ``search``, the same one for every call of one roll of one position (its caller
        keeps it per roll), keeps what these calls would find again: the legal plays'
        positions and which positions on the way can still reach one.
        """
        me, op = self._packed(pos.mine, pos.theirs)
        search = TurnSearch() if search is None else search
        if search.targets is None:
            search.targets = {
                self._packed(m, t) for m, t in self.play_paths(pos.mine, pos.theirs, d1, d2)
            }
            search.ctx = self.turn_context(me, op, d1, d2)
        targets, ctx, memo = search.targets, search.ctx, search.completes
        remaining = [d1] * 4 if d1 == d2 else [d1, d2]
        for move, die in done:
            step = self._single(me, op, ctx, move, die)
            if (
                die not in remaining
                or step is None
                or not self._completes(*step, _without(remaining, die), targets, ctx, memo)
            ):
                raise IllegalPlayError(f"{move} with a {die} is not a legal move here")
            (me, op), remaining = step, _without(remaining, die)
        following = [
            (Move(s, t, o1 != op), die)
            for die in sorted(set(remaining))
            for s, t, me1, o1 in self.steps(me, op, die, ctx, BAR)
            if self._completes(me1, o1, _without(remaining, die), targets, ctx, memo)
        ]
        return Position(self, unpack(me), self.from_mine(unpack(op))), following

    def refusal(
        self,
        pos: Position,
        d1: int,
        d2: int,
        done: Sequence[tuple[Move, int]],
        start: int,
        end: int,
    ) -> Refusal:
        """Why the single move ``start``/``end`` may not follow the accepted single moves
        ``done`` with ``d1``-``d2``: the rule that refuses it, in words (RULES.md 1.2, 1.3,
        3.2). Only for explaining a refusal; it assumes the move is not legal."""
        me, op = self._packed(pos.mine, pos.theirs)
        ctx = self.turn_context(me, op, d1, d2)
        remaining = [d1] * 4 if d1 == d2 else [d1, d2]
        for move, die in done:
            step = self._single(me, op, ctx, move, die)
            assert step is not None, "the moves done were accepted"
            me, op = step
            remaining.remove(die)
        dice = f"{d1}-{d2}"
        if not remaining:
            return Refusal(f"all the dice of {dice} are played", RefusalReason.DICE_PLAYED)
        usable = [
            die
            for die in sorted(set(remaining))
            if any((s, t) == (start, end) for s, t, _, _ in self.steps(me, op, die, ctx, BAR))
        ]
        if usable:  # a legal single move that leads to no legal play: the forced-play rules
            most = len(self.legal_plays(pos, d1, d2)[0].moves)
            if d1 != d2 and most == 1:
                larger = max(d1, d2)
                why = f"the larger die must be played: with {dice} play the {larger}"
                return Refusal(why, RefusalReason.LARGER_DIE, (("die", larger),))
            if d1 != d2:
                why = f"both dice must be played: with {dice} this leaves a die unplayable"
                return Refusal(why, RefusalReason.BOTH_DICE)
            why = f"as many dice as possible must be played: {most} of the {dice}"
            return Refusal(why, RefusalReason.MOST_DICE, (("most", most),))
        if start != BAR and not count(me, start):
            return Refusal(
                f"you have no checker on {start}",
                RefusalReason.NO_CHECKER,
                (("point", start),),
            )
        distance = start - end
        fits = [d for d in remaining if d == distance or (end == OFF and d > distance)]
        if not fits:
            spans = {
                sum(dice)
                for n in range(2, len(remaining) + 1)
                for dice in combinations(remaining, n)
            }
            stops = self._hop_stops(me, op, start, end, remaining, ctx)
            if distance in spans and stops:  # a hop: the rule that stops it on the way
                return stops[0]
            left = "-".join(map(str, remaining))
            played = f" ({left} left)" if done else ""
            text = f"no die of {distance}: the dice are {dice}{played}"
            return Refusal(text, RefusalReason.NO_DIE, (("from", start), ("to", end)))
        return self.blocking_rule(me, op, start, end, min(fits), ctx)

    def _hop_stops(
        self, me: int, op: int, start: int, end: int, remaining: list[int], ctx: Any
    ) -> list[Refusal] | None:
        """Where a hop over several of the ``remaining`` dice (``24/22`` with 1-1) is stopped,
        each with the rule that stops it (``24/23: the head rule ...``), the larger die
        tried first; None where some order of the dice gets through."""
        stops: list[Refusal] = []
        for die in sorted(set(remaining), reverse=True):
            to = start - die
            if to < end or to <= OFF:
                continue
            steps = self.steps(me, op, die, ctx, BAR)
            step = next(((me1, o1) for s, t, me1, o1 in steps if (s, t) == (start, to)), None)
            if step is None:
                rule = self.blocking_rule(me, op, start, to, die, ctx)
                stops.append(rule._replace(text=f"{start}/{to}: {rule.text}"))
                continue
            if to == end:
                return None
            further = self._hop_stops(*step, to, end, _without(remaining, die), ctx)
            if further is None:
                return None
            stops.extend(further)
        return stops

    def blocking_rule(self, me: int, op: int, start: int, end: int, die: int, ctx: Any) -> Refusal:
        """The variant's rule that stops a checker on ``start`` moving to ``end`` with
        ``die`` (packed sides, as in :meth:`steps`)."""
        raise NotImplementedError

    def ends_a_play(self, pos: Position, search: TurnSearch) -> bool:
        """Whether ``pos`` is a position that a legal play of the searched roll reaches
        (``search`` filled by :meth:`next_moves` for that roll)."""
        assert search.targets is not None, "next_moves has searched this roll"
        return self._packed(pos.mine, pos.theirs) in search.targets

    def _packed(self, mine: Side, theirs: Side) -> tuple[int, int]:
        """A position's sides as the single-move search holds them: packed, the
        opponent's checkers in the mover's numbering."""
        return pack(mine), pack(self.to_mine(theirs))

    def _completes(
        self,
        me: int,
        op: int,
        remaining: list[int],
        targets: set[tuple[int, int]],
        ctx: Any,
        memo: dict[tuple[int, int, tuple[int, ...]], bool],
    ) -> bool:
        """Whether some order of the remaining dice leads from here to a legal play (the
        answers so far of this roll in ``memo``)."""
        if (me, op) in targets:
            return True
        key = (me, op, tuple(sorted(remaining)))
        found = memo.get(key)
        if found is None:
            found = memo[key] = any(
                self._completes(me1, o1, _without(remaining, die), targets, ctx, memo)
                for die in set(remaining)
                for _, _, me1, o1 in self.steps(me, op, die, ctx, BAR)
            )
        return found

    def parse_play(self, pos: Position, text: str, d1: int, d2: int) -> Play:
        """The legal play of ``d1``-``d2`` that ``text`` describes (:func:`parse_play`)."""
        return parse_play(pos, text, d1, d2)

    def earns_chosen_double(self, d1: int, d2: int) -> bool:
        """Whether this roll, once played, lets the player name a double (acey-deucey's 1-2)."""
        return False

    def after_play(
        self, d1: int, d2: int, moves: int, chosen: bool = False
    ) -> Literal["name", "roll"] | None:
        """What the mover does next after a play of ``moves`` single moves with ``d1``-``d2``
        (``chosen``: a double named after a 1-2): ``"name"`` a double, ``"roll"`` again, or
        None when the turn passes. Acey-deucey (RULES.md 2): a 1-2 played in full earns a
        named double, and that double played in full another roll; what cannot be played of
        the sequence is lost, and so is the extra roll."""
        if chosen:
            return "roll" if moves == 4 else None
        return "name" if moves == 2 and self.earns_chosen_double(d1, d2) else None

    def turn_context(self, me: int, op: int, d1: int, d2: int) -> Any:
        """What the steps need to know about the turn as a whole: which points are open,
        and for long nardy the head at the start of the turn."""
        raise NotImplementedError

    def steps(self, me: int, op: int, die: int, ctx: Any, top: int) -> Iterator[Step]:
        """Every legal single move of one die from packed ``me`` (opponent ``op`` packed in my
        coordinates) by a checker starting no higher than ``top``."""
        raise NotImplementedError

    def _single(self, me: int, op: int, ctx: Any, move: Move, die: int) -> tuple[int, int] | None:
        """The packed sides after one single move made with ``die``, or None where the rules
        allow no such move."""
        return next(
            (
                (me1, o1)
                for s, t, me1, o1 in self.steps(me, op, die, ctx, BAR)
                if (s, t) == (move.start, move.end)
            ),
            None,
        )

    # -- counting and the end of the game --------------------------------------------------

    def pips(self, side: Side) -> int:
        """The pips one side still has to travel to bear everything off."""
        return sum(p * n for p, n in enumerate(side)) + 25 * (CHECKERS - sum(side))

    def is_race(self, pos: Position) -> bool:
        """True when no checker of either side can still hit or block the other's."""
        raise NotImplementedError

    def outcome(self, pos: Position) -> Outcome | None:
        """The result when a side has borne off all 15, else None."""
        if pos.mine[OFF] == CHECKERS:
            return Outcome(True, self.result_kind(pos.theirs, pos.mine))
        if pos.theirs[OFF] == CHECKERS:
            return Outcome(False, self.result_kind(pos.mine, pos.theirs))
        return None

    def result_kind(self, loser: Side, winner: Side) -> Any:
        """The kind of win from the loser's side (single/gammon/… or oin/mars)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"nardy.variant({self.key!r})"


_movegen = fastpath.load("nardy.core._movegen", "move generator")


def movegen() -> str:
    """Which legal-play generator :meth:`Variant.play_paths` uses: ``compiled`` or ``python``."""
    return "python" if _movegen is None else "compiled"


UNIT = tuple(1 << (8 * p) for p in range(26))
"""``UNIT[p]`` is one checker on index ``p`` of a packed side."""
POINTS_MASK = sum(UNIT[1:25])
BELOW = tuple((1 << (8 * top + 1)) - 1 for top in range(26))
"""``BELOW[top]`` keeps the low bits of indexes 0..top of a packed side."""


def pack(side: Side) -> int:
    """A side as one integer, a byte per index: count at ``p`` is ``(packed >> 8 * p) & 255``."""
    return int.from_bytes(side, "little")


def unpack(packed: int) -> Side:
    """The inverse of :func:`pack`."""
    return packed.to_bytes(26, "little")


def occupied(packed: int) -> int:
    """One bit (the lowest of its byte) for each point 1-24 holding at least one checker."""
    return (packed | packed >> 1 | packed >> 2 | packed >> 3) & POINTS_MASK


def _without(dice: list[int], die: int) -> list[int]:
    rest = list(dice)
    rest.remove(die)
    return rest


def bear_offs(me: int, op: int, die: int, highest: int, top: int) -> Iterator[Step]:
    """The bear-off a die allows once every checker is home (``highest`` <= 6): from the
    die's own point, or from the highest point when the die is larger (RULES.md 1.3, 3.3)."""
    if die <= highest:
        if die <= top and count(me, die):
            yield die, OFF, me - UNIT[die] + 1, op
    elif 0 < highest <= top:
        yield highest, OFF, me - UNIT[highest] + 1, op


def count(packed: int, point: int) -> int:
    """Checkers on ``point`` of a packed side."""
    return (packed >> (8 * point)) & 255
