"""The compiled fast path against its pure-Python references (docs/engine.md).

``Variant.play_paths`` answers from the C extension ``nardy.core._movegen`` when it is built;
``Variant.reference_play_paths`` is the readable pure-Python generator. They must agree
exactly: the same resulting positions (RULES.md 1.2-1.3, 2, 3.2-3.3), the same move list for
each and the same order, on positions from random games of every variant and on arbitrary
positions. The nets' encodings (``nardy.engine._features``) must equal the numpy definitions
bit for bit. Run the whole suite on the references with ``NARDY_FASTPATH=python``.
"""

from __future__ import annotations

import gc
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from conftest import random_positions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nardy
from nardy import InvalidDiceError, Position
from nardy.core import fastpath
from nardy.core.variant import movegen
from nardy.engine import features, features_long
from nardy.engine.features import sides_array

VARIANTS = ["backgammon", "nackgammon", "acey-deucey", "long"]
SRC = str(Path(__file__).resolve().parents[1] / "src")

compiled = pytest.mark.skipif(
    movegen() != "compiled",
    reason="the compiled generator is not built or not selected "
    "(python3 setup.py build_ext --inplace; NARDY_FASTPATH)",
)
compiled_features = pytest.mark.skipif(
    not fastpath.in_use().get("nardy.engine._features"),
    reason="the compiled encodings are not built or not selected "
    "(python3 setup.py build_ext --inplace; NARDY_FASTPATH)",
)
ENCODINGS = {
    "backgammon": features,
    "nackgammon": features,
    "acey-deucey": features,
    "long": features_long,
}


def random_turns(variant: str, count: int, seed: int) -> Iterator[tuple[Position, int, int]]:
    """``count`` rolls to play, from random games played by the reference generator alone;
    acey-deucey's 1-2 is followed by a random chosen double of the same side (RULES.md 2)."""
    v = nardy.variant(variant)
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        position = v.start()
        to_roll = [(rng.randint(1, 6), rng.randint(1, 6))]
        while position.outcome() is None and produced < count:
            d1, d2 = to_roll.pop() if to_roll else (rng.randint(1, 6), rng.randint(1, 6))
            yield position, d1, d2
            produced += 1
            reached = list(v.reference_play_paths(position.mine, position.theirs, d1, d2))
            mine, theirs = reached[rng.randrange(len(reached))]
            if v.earns_chosen_double(d1, d2):
                double = rng.randint(1, 6)
                to_roll.append((double, double))
                position = Position(v, mine, theirs)  # the same side plays on
            else:
                position = Position(v, theirs, mine)


@compiled
@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_equals_reference_on_100_000_random_game_positions(variant: str) -> None:
    """RULES.md 1.2-1.3, 2, 3.2-3.3: every play, its moves and their order, on 100,000
    positions from random games."""
    v = nardy.variant(variant)
    differences = []
    rolls_seen = set()
    for position, d1, d2 in random_turns(variant, 100_000, seed=12):
        rolls_seen.add((d1, d2))
        fast = v.play_paths(position.mine, position.theirs, d1, d2)
        reference = v.reference_play_paths(position.mine, position.theirs, d1, d2)
        if list(fast.items()) != list(reference.items()):
            differences.append((position, d1, d2))
    assert differences == []
    assert len(rolls_seen) == 36


@compiled
@settings(
    max_examples=600,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.data())
def test_compiled_equals_reference_on_arbitrary_positions(data: st.DataObject) -> None:
    """RULES.md 1.2-1.3, 2, 3.2: also where random games seldom go (several checkers on the
    bar, checkers waiting to enter, one point short of a six-block), for every roll."""
    variant = data.draw(st.sampled_from(VARIANTS))
    position = data.draw(random_positions(variant))
    v = position.variant
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            fast = v.play_paths(position.mine, position.theirs, d1, d2)
            reference = v.reference_play_paths(position.mine, position.theirs, d1, d2)
            assert list(fast.items()) == list(reference.items()), (position, d1, d2)


@st.composite
def any_side(draw: st.DrawFn) -> bytes:
    """Up to 15 checkers anywhere: off, on any point, on the bar."""
    counts = [0] * 26
    for index in draw(st.lists(st.integers(0, 25), max_size=15)):
        counts[index] += 1
    return bytes(counts)


@compiled
@settings(max_examples=2000, derandomize=True, database=None, deadline=None)
@given(st.sampled_from(VARIANTS), any_side(), any_side(), st.integers(1, 6), st.integers(1, 6))
def test_compiled_equals_reference_even_where_no_game_goes(
    variant: str, mine: bytes, theirs: bytes, d1: int, d2: int
) -> None:
    """Neither generator validates (``play_paths`` is the unchecked fast path), so they must
    agree on anything of at most 15 checkers a side: both colours on one point, long nardy
    checkers on a bar, checkers missing outside acey-deucey."""
    v = nardy.variant(variant)
    fast = v.play_paths(mine, theirs, d1, d2)
    assert list(fast.items()) == list(v.reference_play_paths(mine, theirs, d1, d2).items())


@compiled
@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_plays_come_from_the_compiled_generator(variant: str) -> None:
    """The public API reads the compiled generator's answer: the plays, moves and order
    that legal_plays gives are built from it."""
    from nardy.core import _movegen

    v = nardy.variant(variant)
    position = v.start()
    kind = {"backgammon": 0, "nackgammon": 0, "acey-deucey": 1, "long": 2}[variant]
    direct = _movegen.play_paths(kind, position.mine, position.theirs, 6, 6)
    assert direct is not None
    assert v.play_paths(position.mine, position.theirs, 6, 6) == direct
    plays = position.legal_plays(6, 6)
    assert {
        (p.position.mine, p.position.theirs): tuple((m.start, m.end, m.hit) for m in p.moves)
        for p in plays
    } == direct


@compiled
def test_plays_generated_by_a_finalizer_during_a_call_do_not_disturb_it() -> None:
    """Building the answer allocates Python objects, which may run the garbage collector and a
    finalizer that itself generates plays (or let another thread do so): both answers stay
    right."""
    bg = nardy.BACKGAMMON
    outer_position = bg.start()
    inner_position = Position(
        bg, bytes([0, *[0] * 5, 5, 0, 3, *[0] * 4, 5, *[0] * 10, 2, 0]), outer_position.theirs
    )
    outer_expected = list(
        bg.reference_play_paths(outer_position.mine, outer_position.theirs, 3, 3).items()
    )
    inner_expected = list(
        bg.reference_play_paths(inner_position.mine, inner_position.theirs, 4, 4).items()
    )
    inner: list[list[object]] = []

    class Garbage:
        def __del__(self) -> None:
            found = bg.play_paths(inner_position.mine, inner_position.theirs, 4, 4)
            inner.append(list(found.items()))

    threshold = gc.get_threshold()
    try:
        gc.set_threshold(1)  # collect at (almost) every allocation of a tracked object
        for _ in range(30):
            cycle = Garbage()
            cycle.me = cycle  # type: ignore[attr-defined]
            del cycle
            found = bg.play_paths(outer_position.mine, outer_position.theirs, 3, 3)
            assert list(found.items()) == outer_expected
    finally:
        gc.set_threshold(*threshold)
        gc.collect()
    assert inner
    assert all(answer == inner_expected for answer in inner)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("dice", [(0, 3), (3, 7), (True, 2), (2.0, 3)])
def test_bad_dice_are_refused_on_both_paths(variant: str, dice: tuple[int, int]) -> None:
    """Dice outside 1-6 (or not ints) raise InvalidDiceError, compiled or not."""
    v = nardy.variant(variant)
    position = v.start()
    for generate in (v.play_paths, v.reference_play_paths):
        with pytest.raises(InvalidDiceError):
            generate(position.mine, position.theirs, *dice)


@compiled
def test_compiled_refuses_what_it_does_not_take() -> None:
    """The extension answers None (and the reference then runs) for anything but a known
    kind, two 26-byte sides and two dice 1-6."""
    from nardy.core import _movegen

    side = nardy.BACKGAMMON.start().mine
    assert _movegen.play_paths(0, side, side, 3, 1) is not None
    for args in [
        (3, side, side, 3, 1),
        (0, bytearray(side), side, 3, 1),
        (0, side, side[:25], 3, 1),
        (0, side, side, 3, 0),
    ]:
        assert _movegen.play_paths(*args) is None
    # The reference takes any bytes-like side.
    bg = nardy.BACKGAMMON
    assert bg.play_paths(bytearray(side), side, 3, 1) == bg.play_paths(side, side, 3, 1)


def assert_same_encoding(variant: str, pairs: list[tuple[bytes, bytes]]) -> None:
    module = ENCODINGS[variant]
    mine, theirs = sides_array(m for m, _ in pairs), sides_array(t for _, t in pairs)
    fast, reference = module.encode(mine, theirs), module.reference_encode(mine, theirs)
    assert fast.dtype == reference.dtype == np.float32
    assert fast.shape == reference.shape == (len(pairs), module.INPUTS)
    # Bit for bit: the same float32 in every cell.
    differing = np.argwhere(fast.view(np.uint32) != reference.view(np.uint32))
    assert differing.tolist() == []


@compiled_features
@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_encoding_equals_numpy_on_random_game_positions(variant: str) -> None:
    """Every input of every position reached by the plays of 2,000 random-game rolls."""
    v = nardy.variant(variant)
    pairs = []
    for position, d1, d2 in random_turns(variant, 2_000, seed=3):
        pairs.append((position.mine, position.theirs))
        pairs.extend(v.play_paths(position.mine, position.theirs, d1, d2))
    assert_same_encoding(variant, pairs)


@compiled_features
@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(st.data())
def test_compiled_encoding_equals_numpy_on_arbitrary_positions(data: st.DataObject) -> None:
    """Bar checkers, checkers waiting to enter, bear-offs, long nardy blocks: both ways round."""
    variant = data.draw(st.sampled_from(VARIANTS))
    position = data.draw(random_positions(variant))
    assert_same_encoding(
        variant, [(position.mine, position.theirs), (position.theirs, position.mine)]
    )


@compiled_features
def test_compiled_encoding_refuses_mismatched_batches() -> None:
    side = sides_array([nardy.BACKGAMMON.start().mine] * 3)
    with pytest.raises(ValueError, match=r"two \(N, 26\) arrays"):
        features.encode(side, side[:2])
    with pytest.raises(ValueError, match=r"two \(N, 26\) arrays"):
        features_long.encode(side[:, :25], side[:, :25])
    # Any layout of the same numbers is encoded alike (the extension reads a contiguous copy).
    strided = np.repeat(side, 2, axis=0)[::2]
    assert np.array_equal(features.encode(strided, strided), features.encode(side, side))


def _movegen_in_subprocess(choice: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NARDY_FASTPATH": choice, "PYTHONPATH": SRC}
    return subprocess.run(
        [sys.executable, "-c", "from nardy.core.variant import movegen; print(movegen())"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_nardy_movegen_python_selects_the_reference() -> None:
    result = _movegen_in_subprocess("python")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "python"


@compiled
def test_nardy_movegen_compiled_selects_the_extension() -> None:
    result = _movegen_in_subprocess("compiled")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "compiled"


def test_nardy_movegen_rejects_an_unknown_choice() -> None:
    result = _movegen_in_subprocess("fastest")
    assert result.returncode != 0
    assert "NARDY_FASTPATH must be one of auto, compiled, python, not 'fastest'" in result.stderr


def test_nardy_version_says_the_references_run_when_chosen() -> None:
    """``nardy --version`` names the code that runs and why (docs/engine.md)."""
    env = {**os.environ, "NARDY_FASTPATH": "python", "PYTHONPATH": SRC}
    result = subprocess.run(
        [sys.executable, "-m", "nardy.cli.main", "--version"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.endswith(
        " (pure-Python move generator and encodings: NARDY_FASTPATH=python)\n"
    )
