"""Shared helpers for the rules tests: literals, an independent reference move generator, and
Hypothesis strategies for positions from random games.

The reference generator (:func:`reference_results`) is written straight from RULES.md 1.2, 1.3,
2, 3.2 and 3.3, one single-checker move at a time and by brute force over every order of the
dice, with no code shared with ``nardy.core.variant``. It is slow and simple on purpose: the
property tests compare the library's fast generator with it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pytest
from hypothesis import strategies as st

import nardy
from nardy import AceyDeucey, LongNardy, Play, Position

BAR = 25
OFF = 0
CHECKERS = 15


def pytest_report_header() -> str:
    """Which code the run tests: the compiled fast path or the pure-Python references."""
    import nardy.engine.features  # noqa: F401  (loads the compiled encodings, if any)
    from nardy.core import fastpath

    modules = ", ".join(
        f"{m} {'compiled' if on else 'not in use'}" for m, on in fastpath.in_use().items()
    )
    return f"nardy fast path ({fastpath.VARIABLE}={fastpath.choice()}): {modules}"


# -- literals ------------------------------------------------------------------------------


def pos(variant: str, mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A validated position; each side's borne-off count (point 0) is filled up to 15,
    except in acey-deucey, where the missing checkers are waiting to enter (RULES.md 2)."""
    v = nardy.variant(variant)

    def fill(side: dict[int, int]) -> dict[int, int]:
        side = dict(side)
        if not v.enters_from_outside:
            side[OFF] = side.get(OFF, 0) + CHECKERS - sum(side.values())
        return side

    return Position.from_points(v, fill(mine), fill(theirs))


def texts(position: Position, d1: int, d2: int) -> list[str]:
    """The legal plays of a roll, as canonical notation."""
    return [str(p) for p in position.legal_plays(d1, d2)]


def text_set(position: Position, d1: int, d2: int) -> set[str]:
    """The legal plays of a roll, as a set of canonical notation strings."""
    return set(texts(position, d1, d2))


def points(side: bytes) -> dict[int, int]:
    """A side as ``{point: checkers}`` without the empty points."""
    return {p: n for p, n in enumerate(side) if n}


def to_mine_map(variant: nardy.Variant, theirs: bytes) -> list[int]:
    """The opponent's checkers on points 1-24 counted by MY point numbers (index 1-24).

    Written from RULES.md 1.1 (my p is their 25 - p) and 3.1 (my p is their p ± 12), not from
    the variant's ``to_mine``; tests compare the two.
    """
    op = [0] * 25
    for q in range(1, 25):
        if theirs[q]:
            op[their_to_my_point(variant, q)] += theirs[q]
    return op


def their_to_my_point(variant: nardy.Variant, q: int) -> int:
    """The opponent's point ``q`` in my numbering (RULES.md 1.1, 3.1)."""
    if isinstance(variant, LongNardy):
        return q + 12 if q <= 12 else q - 12
    return 25 - q


# -- the reference move generator ----------------------------------------------------------


@dataclass(frozen=True)
class _State:
    """One moment of a turn in the reference generator (opponent on my point numbers)."""

    me: tuple[int, ...]  # 26 counts: 0 off, 1-24, 25 bar
    op: tuple[int, ...]  # 25 counts, index 1-24 = my points (index 0 unused)
    op_bar: int


def _start_state(position: Position) -> _State:
    op = to_mine_map(position.variant, position.theirs)
    return _State(tuple(position.mine), tuple(op), position.theirs[BAR])


def _finish(position: Position, state: _State) -> tuple[bytes, bytes]:
    theirs = [0] * 26
    theirs[OFF] = position.theirs[OFF]
    theirs[BAR] = state.op_bar
    for p in range(1, 25):
        if state.op[p]:
            q = their_to_my_point(position.variant, p)  # the mapping is its own inverse
            theirs[q] = state.op[p]
    return bytes(state.me), bytes(theirs)


def _moved(me: tuple[int, ...], start: int | None, end: int) -> tuple[int, ...]:
    out = list(me)
    if start is not None:
        out[start] -= 1
    out[end] += 1
    return tuple(out)


def _all_home(me: tuple[int, ...], waiting: int) -> bool:
    return waiting == 0 and not any(me[p] for p in range(7, 26))


def _bear_off_allowed(me: tuple[int, ...], start: int, die: int, waiting: int) -> bool:
    """RULES.md 1.3 / 3.3: all 15 home; exact die, or a larger die from the highest point."""
    if not _all_home(me, waiting):
        return False
    if start == die:
        return True
    return start < die and not any(me[p] for p in range(start + 1, 7))


def _backgammon_singles(state: _State, die: int) -> list[_State]:
    """Every single move of one die in backgammon, nackgammon or acey-deucey (RULES.md 1.2,
    1.3, 2)."""
    me, op = state.me, state.op
    waiting = CHECKERS - sum(me)
    out: list[_State] = []

    def land(start: int | None, end: int) -> None:
        if op[end] >= 2:
            return  # blocked (1.2)
        if op[end] == 1:  # a blot: hit, to the bar
            op2 = list(op)
            op2[end] = 0
            out.append(_State(_moved(me, start, end), tuple(op2), state.op_bar + 1))
        else:
            out.append(_State(_moved(me, start, end), op, state.op_bar))

    if me[BAR]:
        land(BAR, 25 - die)  # bar checkers first, nothing else (1.2)
        return out
    if waiting:
        land(None, 25 - die)  # acey-deucey: a checker entering from off the board (2)
    for start in range(24, 0, -1):
        if not me[start]:
            continue
        end = start - die
        if end >= 1:
            land(start, end)
        elif _bear_off_allowed(me, start, die, waiting):
            out.append(_State(_moved(me, start, OFF), op, state.op_bar))
    return out


_THEIR_PATH = [*range(12, 0, -1), *range(24, 12, -1)]


def makes_illegal_block(me: tuple[int, ...], op: tuple[int, ...], landed: int) -> bool:
    """RULES.md 3.2 six-block rule, for the run of my points through ``landed`` along the
    opponent's path (my 12 … 1, 24 … 13): six or more in a row need an opponent checker
    somewhere past the run."""
    held = [me[p] > 0 for p in _THEIR_PATH]
    i = _THEIR_PATH.index(landed)
    lo = hi = i
    while lo > 0 and held[lo - 1]:
        lo -= 1
    while hi < 23 and held[hi + 1]:
        hi += 1
    if hi - lo + 1 < 6:
        return False
    return not any(op[p] for p in _THEIR_PATH[hi + 1 :])


def _long_singles(state: _State, die: int, head_start: int, may_leave: int) -> list[_State]:
    """Every single move of one die in long nardy (RULES.md 3.2, 3.3)."""
    me, op = state.me, state.op
    out: list[_State] = []
    for start in range(24, 0, -1):
        if not me[start]:
            continue
        if start == 24 and head_start - me[24] >= may_leave:
            continue  # head rule
        end = start - die
        if end >= 1:
            if op[end]:
                continue  # any opponent checker closes a point
            me2 = _moved(me, start, end)
            if makes_illegal_block(me2, op, end):
                continue
            out.append(_State(me2, op, 0))
        elif _bear_off_allowed(me, start, die, 0):
            out.append(_State(_moved(me, start, OFF), op, 0))
    return out


def long_nardy_head_allowance(position: Position, d1: int, d2: int) -> int:
    """RULES.md 3.2: how many checkers may leave the head this turn."""
    first_move = position.mine[24] == CHECKERS
    if first_move and d1 == d2 and d1 in (6, 4, 3):
        op = to_mine_map(position.variant, position.theirs)
        opened_five_five = op[12] == CHECKERS - 1 and op[16] == 1
        if d1 == 4 and opened_five_five:
            return 1
        return 2
    return 1


def reference_results(position: Position, d1: int, d2: int) -> tuple[int, set[tuple[bytes, bytes]]]:
    """(dice used, the set of (mine, theirs) a legal play may reach), by brute force from
    RULES.md: every order of the dice, then the most dice, then the larger die (1.2, 3.2)."""
    long = isinstance(position.variant, LongNardy)
    head_start = position.mine[24]
    may_leave = long_nardy_head_allowance(position, d1, d2) if long else 0

    def singles(state: _State, die: int) -> list[_State]:
        if long:
            return _long_singles(state, die, head_start, may_leave)
        return _backgammon_singles(state, die)

    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    finals: dict[_State, set[tuple[int, ...]]] = {}  # state -> dice sequences reaching it
    memo: set[tuple[_State, tuple[int, ...], tuple[int, ...]]] = set()

    def walk(state: _State, rest: tuple[int, ...], used: tuple[int, ...]) -> None:
        if (state, rest, used) in memo:
            return
        memo.add((state, rest, used))
        nexts = singles(state, rest[0]) if rest else []
        if not nexts:
            finals.setdefault(state, set()).add(used)
            return
        for nxt in nexts:
            walk(nxt, rest[1:], (*used, rest[0]))

    start = _start_state(position)
    for order in orders:
        walk(start, order, ())
    most = max(len(u) for us in finals.values() for u in us)
    keep = {s for s, us in finals.items() if any(len(u) == most for u in us)}
    if d1 != d2 and most == 1:
        larger = {s for s in keep if (max(d1, d2),) in finals[s]}
        if larger:
            keep = larger
    return most, {_finish(position, s) for s in keep}


def max_dice_usable(position: Position, d1: int, d2: int) -> int:
    """The most dice any legal play uses, by the reference generator."""
    return reference_results(position, d1, d2)[0]


# -- random games --------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """A position (side on roll first) and the roll it is about to play."""

    position: Position
    d1: int
    d2: int


@st.composite
def game_turns(draw: st.DrawFn, variant: str, plies: int = 250) -> list[Turn]:
    """The turns of a random game of up to ``plies`` rolls (most random games end sooner):
    dice and choice of play drawn by Hypothesis, from the start of ``variant``; acey-deucey's
    1-2 is followed by its chosen double on the same side and another roll (RULES.md 2)."""
    v = nardy.variant(variant)
    position = v.start()
    turns: list[Turn] = []
    for _ in range(plies):
        if position.outcome() is not None:
            break
        d1 = draw(st.integers(1, 6))
        d2 = draw(st.integers(1, 6))
        turns.append(Turn(position, d1, d2))
        plays = position.legal_plays(d1, d2)
        position = plays[draw(st.integers(0, len(plays) - 1))].position
        if isinstance(v, AceyDeucey) and v.is_acey_deucey_roll(d1, d2):
            if position.outcome() is not None:
                break
            double = draw(st.integers(1, 6))
            turns.append(Turn(position, double, double))
            plays = position.legal_plays(double, double)
            position = plays[draw(st.integers(0, len(plays) - 1))].position
            if position.outcome() is not None:
                break
            continue  # the same player rolls again
        position = position.swap()
    return turns


@st.composite
def random_positions(draw: st.DrawFn, variant: str) -> Position:
    """An arbitrary valid position of ``variant`` (not necessarily reachable), biased toward
    contact and bear-off, and in long nardy often one checker short of a six-block."""
    v = nardy.variant(variant)
    if isinstance(v, LongNardy) and draw(st.booleans()):
        return draw(near_six_blocks())
    home_only = draw(st.booleans())
    top = 6 if home_only else 24

    def side(taken: set[int], theirs: bool) -> dict[int, int]:
        counts: dict[int, int] = {}
        n_off = draw(st.integers(0, 14))
        n_wait = draw(st.integers(0, 3)) if v.enters_from_outside and not home_only else 0
        if n_wait:  # bearing off needs all 15 entered, so none is off while some wait (2)
            n_off = 0
        n_bar = draw(st.integers(0, 2)) if v.has_bar and not home_only else 0
        n_board = CHECKERS - n_off - n_wait - n_bar
        if n_board < 0:
            n_off += n_board
            n_board = 0
        if n_off:
            counts[OFF] = n_off
        if n_bar:
            counts[BAR] = n_bar
        allowed = [p for p in range(1, 25) if p not in taken]
        if not theirs:
            allowed = [p for p in allowed if p <= top]
        for _ in range(n_board):
            p = draw(st.sampled_from(allowed))
            counts[p] = counts.get(p, 0) + 1
        return counts

    mine = side(set(), False)
    taken_mine_coords = {p for p in range(1, 25) if mine.get(p)}
    # The opponent's free points, in their numbering.
    taken = {their_to_my_point(v, p) for p in taken_mine_coords}
    theirs = side(taken, True)
    if mine.get(OFF) == CHECKERS and theirs.get(OFF) == CHECKERS:
        theirs = {OFF: 14, next(p for p in range(1, 25) if p not in taken): 1}
    return Position.from_points(v, mine, theirs)


@st.composite
def near_six_blocks(draw: st.DrawFn) -> Position:
    """A long nardy position with five of six consecutive points (along the opponent's path,
    RULES.md 3.2) held by me and more of my checkers within a die of the gap; the opponent's
    checkers are often all behind the run, so that filling the gap is illegal."""
    v = nardy.LONG_NARDY
    start = draw(st.integers(0, 18))
    run = _THEIR_PATH[start : start + 6]
    gap = draw(st.sampled_from(run))
    mine: dict[int, int] = {p: 1 for p in run if p != gap}
    feeders = [gap + d for d in range(1, 7) if gap + d <= 24 and gap + d not in run]
    free = [p for p in range(1, 25) if p not in run]
    for _ in range(CHECKERS - len(mine)):
        near = draw(st.booleans())
        p = draw(st.sampled_from(feeders or free)) if near else draw(st.sampled_from(free))
        mine[p] = mine.get(p, 0) + 1
    behind = [p for p in _THEIR_PATH[:start] if p not in mine]
    anywhere = [p for p in range(1, 25) if p not in mine]
    all_behind = draw(st.booleans())
    places = behind if behind and all_behind else anywhere
    theirs: dict[int, int] = {}
    n_board = draw(st.integers(1, CHECKERS))
    for _ in range(n_board):
        q = their_to_my_point(v, draw(st.sampled_from(places)))
        theirs[q] = theirs.get(q, 0) + 1
    if n_board < CHECKERS:
        theirs[OFF] = CHECKERS - n_board
    return Position.from_points(v, mine, theirs)


def plays_reach(plays: Iterable[Play]) -> set[tuple[bytes, bytes]]:
    """The set of (mine, theirs) that plays reach."""
    return {(p.position.mine, p.position.theirs) for p in plays}


def without_shipped_net(monkeypatch: pytest.MonkeyPatch, weights: str) -> None:
    """Make the shipped weights file ``weights`` (``acey-deucey.npz``…) look not installed,
    to try the paths of a variant without a net now that every variant has one."""
    from nardy.engine import evaluator as evaluator_module

    installed = evaluator_module._installed
    monkeypatch.setattr(evaluator_module, "_installed", lambda w: w != weights and installed(w))
