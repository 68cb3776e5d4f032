"""Backgammon ("short nardy") and its variants nackgammon and acey-deucey (RULES.md 1, 2)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from nardy.core.errors import InvalidPositionError
from nardy.core.errors import RefusalReason as Reason
from nardy.core.position import BAR, CHECKERS, OFF, Position, ResultKind, Side
from nardy.core.variant import (
    BELOW,
    POINTS_MASK,
    UNIT,
    Path,
    Refusal,
    Step,
    Variant,
    bear_off_refusal,
    bear_offs,
    count,
    unpack,
)


class Backgammon(Variant):
    """Backgammon: the sides mirror each other (my p is their 25 - p); hitting; a bar."""

    key = "backgammon"
    gnubg_plays = True
    compiled_rules = 0
    name = "Backgammon"
    aliases: ClassVar[tuple[str, ...]] = ("bg", "short", "short-nardy")
    start_points: ClassVar[dict[int, int]] = {24: 2, 13: 5, 8: 3, 6: 5}
    own_settings: ClassVar[frozenset[str]] = frozenset({"jacoby", "backgammon-value", "opening"})
    resignation_levels: ClassVar[tuple[ResultKind, ...]] = (
        ResultKind.SINGLE,
        ResultKind.GAMMON,
        ResultKind.BACKGAMMON,
    )

    def opponent_point(self, point: int) -> int:
        return 25 - point

    def to_mine(self, theirs: Side) -> Side:
        return theirs[OFF : OFF + 1] + theirs[24:0:-1] + theirs[BAR:]

    def turn_context(self, me: int, op: int, d1: int, d2: int) -> int:
        """The points I may land on: bits of a packed side, set where the opponent has at most
        one checker (RULES.md 1.2). Hits only empty blot points, so this holds all turn."""
        blocked = op >> 1 | op >> 2 | op >> 3  # a byte is 0 or 1 exactly where it is < 2
        return ~blocked & POINTS_MASK

    def steps(self, me: int, op: int, die: int, ctx: int, top: int) -> Iterator[Step]:
        # RULES.md 1.2: bar checkers enter first, on my point 25 - die, if open.
        if me >> (8 * BAR):
            yield from self._enter(me, op, die, ctx, UNIT[BAR])
            return
        waiting = CHECKERS - sum(unpack(me)) if self.enters_from_outside else 0
        if waiting and top == BAR:
            yield from self._enter(me, op, die, ctx, 0)
        mine = (me | me >> 1 | me >> 2 | me >> 3) & POINTS_MASK  # occupied(me), inlined
        highest = (mine.bit_length() - 1) >> 3 if mine else 0
        sources = mine & (ctx << (8 * die)) & BELOW[min(top, 24)]
        while sources:
            bit = sources.bit_length() - 1
            sources ^= 1 << bit
            start = bit >> 3
            end = start - die
            if (op >> (bit - 8 * die)) & 255:  # a blot: it goes to the bar
                yield start, end, me - UNIT[start] + UNIT[end], op - UNIT[end] + UNIT[BAR]
            else:
                yield start, end, me - UNIT[start] + UNIT[end], op
        # RULES.md 1.3: bear off only with all 15 home; a die larger than needed only from
        # the highest occupied point.
        if highest <= 6 and not waiting:
            yield from bear_offs(me, op, die, highest, top)

    def blocking_rule(self, me: int, op: int, start: int, end: int, die: int, ctx: int) -> Refusal:
        waiting = CHECKERS - sum(unpack(me)) if self.enters_from_outside else 0
        if me >> (8 * BAR) and start != BAR:
            return Refusal("enter from the bar first (RULES.md 1.2)", Reason.BAR_FIRST)
        if start == BAR and not me >> (8 * BAR) and not waiting:
            return Refusal("you have no checker on the bar", Reason.NOT_ON_BAR)
        if end == OFF:
            mine = (me | me >> 1 | me >> 2 | me >> 3) & POINTS_MASK
            highest = (mine.bit_length() - 1) >> 3 if mine else 0
            return bear_off_refusal(highest, home=highest <= 6 and not waiting)
        return Refusal(
            f"point {end} is blocked: the opponent holds it with two or more checkers",
            Reason.BLOCKED,
            (("point", end),),
        )

    def independent_pairs(
        self, me0: int, op0: int, d1: int, d2: int, ctx: int
    ) -> dict[tuple[int, int], Path]:
        """Two different dice in the middle game, without searching both orders.

        With nothing on the bar or waiting and three or more checkers outside the home board,
        no bear-off can start within two moves and the open points never change (a hit only
        empties a blot's point). A move of one die then never changes what the other die may
        do, except by moving on the very checker it moved or by emptying its start point; so
        every two-dice play is a pair of single moves from the start, or one checker moving on.
        """
        if me0 >> (8 * BAR) or (self.enters_from_outside and CHECKERS - sum(unpack(me0))):
            return {}
        if sum(unpack(me0)[7:25]) < 3:
            return {}
        firsts = {die: list(self.steps(me0, op0, die, ctx, BAR)) for die in (d1, d2)}
        if not (firsts[d1] and firsts[d2]):
            return {}
        plays: dict[tuple[int, int], Path] = {}
        for a, b in ((d1, d2), (d2, d1)):  # one checker moving on: the intermediate point
            for s, t, me1, o1 in firsts[a]:
                end = t - b
                if end > 0 and ctx >> (8 * end) & 1:
                    hit = count(o1, end) == 1
                    o2 = o1 - UNIT[end] + UNIT[BAR] if hit else o1
                    plays.setdefault(
                        (me1 - UNIT[t] + UNIT[end], o2), ((s, t, o1 != op0), (t, end, hit))
                    )
        for s1, t1, me1, o1 in firsts[d1]:
            for s2, t2, _, _ in firsts[d2]:
                if s2 == s1 and count(me0, s1) < 2:
                    continue  # its only checker already moved: that is the chain above
                hit = count(o1, t2) == 1
                o2 = o1 - UNIT[t2] + UNIT[BAR] if hit else o1
                plays.setdefault(
                    (me1 - UNIT[s2] + UNIT[t2], o2), ((s1, t1, o1 != op0), (s2, t2, hit))
                )
        return plays

    def _enter(self, me: int, op: int, die: int, open_points: int, source: int) -> Iterator[Step]:
        end = BAR - die
        if open_points >> (8 * end) & 1:
            hit = count(op, end) == 1
            yield BAR, end, me - source + UNIT[end], op - UNIT[end] + UNIT[BAR] if hit else op

    def is_race(self, pos: Position) -> bool:
        me, op = pos.mine, self.to_mine(pos.theirs)
        if me[BAR] or op[BAR] or pos.waiting(True) or pos.waiting(False):
            return False
        my_back = max((p for p in range(1, 25) if me[p]), default=0)
        their_back = min((p for p in range(1, 25) if op[p]), default=25)
        return my_back < their_back

    def result_kind(self, loser: Side, winner: Side) -> ResultKind:
        # RULES.md 1.4. Acey-deucey checkers never entered count as on the bar.
        if loser[OFF]:
            return ResultKind.SINGLE
        if loser[BAR] or sum(loser) < CHECKERS or any(loser[19:25]):
            return ResultKind.BACKGAMMON
        return ResultKind.GAMMON


class Nackgammon(Backgammon):
    """Nackgammon, with the seed's starting layout (RULES.md 2)."""

    key = "nackgammon"
    name = "Nackgammon"
    aliases: ClassVar[tuple[str, ...]] = ("nack",)
    start_points: ClassVar[dict[int, int]] = {24: 4, 23: 1, 13: 2, 8: 3, 6: 5}


class BallardNackgammon(Backgammon):
    """Nackgammon from Nack Ballard's classical layout, GNU Backgammon's and eXtreme
    Gammon's "NackGammon" (RULES.md 2): everything else as backgammon."""

    key = "nackgammon-ballard"
    name = "Nackgammon (Nack Ballard's layout)"
    aliases: ClassVar[tuple[str, ...]] = ("nack-ballard", "ballard")
    start_points: ClassVar[dict[int, int]] = {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}


class AceyDeucey(Backgammon):
    """Acey-deucey: all 15 start off the board and enter like bar checkers (RULES.md 2).

    Checkers not yet entered do not stop the others moving; a hit checker goes to the bar,
    and bar checkers enter before anything else moves. The 1-2 roll's chosen double is a
    second step: :meth:`legal_plays` with that double on the position after the 1-2.
    """

    key = "acey-deucey"
    gnubg_plays = False
    compiled_rules = 1
    name = "Acey-deucey"
    aliases: ClassVar[tuple[str, ...]] = ("acey", "aceydeucey", "acey_deucey")
    start_points: ClassVar[dict[int, int]] = {}
    enters_from_outside = True

    @staticmethod
    def is_acey_deucey_roll(d1: int, d2: int) -> bool:
        """The roll 1-2, which earns a chosen double and another roll."""
        return {d1, d2} == {1, 2}

    def earns_chosen_double(self, d1: int, d2: int) -> bool:
        return self.is_acey_deucey_roll(d1, d2)

    def validate(self, pos: Position) -> None:
        super().validate(pos)
        for label, side in (("mine", pos.mine), ("theirs", pos.theirs)):
            if side[OFF] and sum(side) < CHECKERS:
                raise InvalidPositionError(
                    f"{label}: checkers borne off while others have not entered yet"
                )
