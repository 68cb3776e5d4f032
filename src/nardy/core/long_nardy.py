"""Long nardy (RULES.md 3): both sides travel the same way round, no hitting, no bar.

Geometry (3.1): my point p is the opponent's p + 12 (p <= 12) or p - 12, so my head (24) is
their 12 and their head is my 12. The opponent travels my points 12, 11, …, 1, 24, 23, …, 13:
that order, :data:`THEIR_PATH`, is what "consecutive" and "ahead" mean for the six-block rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, NamedTuple

from nardy.core.errors import RefusalReason as Reason
from nardy.core.position import BAR, CHECKERS, OFF, Position, ResultKind, Side
from nardy.core.variant import (
    BELOW,
    POINTS_MASK,
    UNIT,
    Refusal,
    Step,
    Variant,
    bear_off_refusal,
    bear_offs,
    count,
    occupied,
)

HEAD = 24
THEIR_PATH = (*range(12, 0, -1), *range(24, 12, -1))
"""My points in the order the opponent passes them."""
ON_THEIR_PATH = {p: i for i, p in enumerate(THEIR_PATH)}
BLOCK = 6
DOUBLES_TWO_FROM_HEAD = (6, 4, 3)


class Turn(NamedTuple):
    """What the steps of one turn share: the head rule's count, and the open points."""

    head_at_start: int
    may_leave_head: int
    open_points: int


def _blocks_illegally(me: int, op: int, landed: int) -> bool:
    """Six-block rule (3.2): a run of six held points along the opponent's path, made by
    landing on ``landed``, needs an opponent checker on the board past its far end.

    Checkers already borne off do not count: they no longer stand anywhere.
    """
    i = ON_THEIR_PATH[landed]
    first = last = i
    while first > 0 and count(me, THEIR_PATH[first - 1]):
        first -= 1
    while last < 23 and count(me, THEIR_PATH[last + 1]):
        last += 1
    if last - first + 1 < BLOCK:
        return False
    return not any(count(op, p) for p in THEIR_PATH[last + 1 :])


class LongNardy(Variant):
    """Long nardy ("long backgammon"), seed 001."""

    key = "long"
    compiled_rules = 2
    name = "Long nardy"
    aliases: ClassVar[tuple[str, ...]] = (
        "long-nardy",
        "longnardy",
        "nardy",
        "narde",
        "long-backgammon",
    )
    start_points: ClassVar[dict[int, int]] = {HEAD: CHECKERS}
    has_bar = False
    own_settings: ClassVar[frozenset[str]] = frozenset(
        {"ending", "first-move-in-series", "last-roll"}
    )
    uses_cube_by_default = False  # RULES.md 3.4: the cube is a setting, off by default
    hits = False  # RULES.md 3.2: no hitting
    has_backgammons = False  # RULES.md 3.4: oin or mars
    opening_dice_played = False
    head = HEAD
    ordered_doubles = False  # the six-block rule is checked after every single move

    def opponent_point(self, point: int) -> int:
        return point + 12 if point <= 12 else point - 12

    def to_mine(self, theirs: Side) -> Side:
        return theirs[OFF : OFF + 1] + theirs[13:25] + theirs[1:13] + theirs[BAR:]

    def turn_context(self, me: int, op: int, d1: int, d2: int) -> Turn:
        # RULES.md 3.2, head rule: one checker leaves the head per turn, except two on the
        # first move with 6-6, 4-4 or 3-3 — but only one with 4-4 when the opponent opened
        # with 5-5 (their checker on their 4-point, my 16, stops a second 4 anyway).
        head = count(me, HEAD)
        leave = 1
        if head == CHECKERS and d1 == d2 and d1 in DOUBLES_TWO_FROM_HEAD:
            opened_five_five = count(op, 12) == CHECKERS - 1 and count(op, 16) == 1
            if not (d1 == 4 and opened_five_five):
                leave = 2
        # A point holding any opponent checker is closed (3.2); no hits, so all turn long.
        return Turn(head, leave, ~occupied(op) & POINTS_MASK)

    def steps(self, me: int, op: int, die: int, ctx: Turn, top: int) -> Iterator[Step]:
        mine = occupied(me)
        highest = (mine.bit_length() - 1) >> 3 if mine else 0
        sources = mine & (ctx.open_points << (8 * die)) & BELOW[min(top, 24)]
        if ctx.head_at_start - count(me, HEAD) >= ctx.may_leave_head:
            sources &= ~UNIT[HEAD]
        while sources:
            bit = sources.bit_length() - 1
            sources ^= 1 << bit
            start = bit >> 3
            end = start - die
            me1 = me - UNIT[start] + UNIT[end]
            if not _blocks_illegally(me1, op, end):
                yield start, end, me1, op
        if highest <= 6:
            yield from bear_offs(me, op, die, highest, top)

    def blocking_rule(self, me: int, op: int, start: int, end: int, die: int, ctx: Turn) -> Refusal:
        if start == HEAD and ctx.head_at_start - count(me, HEAD) >= ctx.may_leave_head:
            text = (
                "the head rule: only one checker leaves the head per turn (RULES.md 3.2)"
                if ctx.may_leave_head == 1
                else "the head rule: at most two checkers leave the head this turn (RULES.md 3.2)"
            )
            return Refusal(text, Reason.HEAD, (("limit", ctx.may_leave_head),))
        if start == BAR:
            return Refusal(f"{self.name} has no bar", Reason.NO_BAR)
        if end == OFF:
            mine = occupied(me)
            highest = (mine.bit_length() - 1) >> 3 if mine else 0
            return bear_off_refusal(highest, home=highest <= 6)
        if count(op, end):
            return Refusal(
                f"point {end} is taken: the opponent has a checker there",
                Reason.TAKEN,
                (("point", end),),
            )
        return Refusal(
            "the six-block rule: six points in a row need an opponent checker ahead of them "
            "(RULES.md 3.2)",
            Reason.SIX_BLOCK,
        )

    def is_race(self, pos: Position) -> bool:
        me, op = pos.mine, self.to_mine(pos.theirs)
        my_back = max((p for p in range(1, 25) if me[p]), default=0)
        if any(op[p] for p in range(1, my_back)):
            return False  # an opponent checker stands in front of my last one
        their_back = min((ON_THEIR_PATH[p] for p in range(1, 25) if op[p]), default=24)
        return not any(me[p] for p in THEIR_PATH[their_back + 1 :])

    def pips(self, side: Side) -> int:
        return sum(p * n for p, n in enumerate(side))

    def result_kind(self, loser: Side, winner: Side) -> ResultKind:
        # RULES.md 3.4: mars when the loser has borne off none, oin otherwise.
        return ResultKind.OIN if loser[OFF] else ResultKind.MARS
