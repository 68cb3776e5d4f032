"""Verifiable dice (issue 10, item 5; docs/dice.md): the derivation pinned by an independent
implementation (HMAC written out with hashlib, the message packed with struct), exact
uniformity of the rejection sampling, a χ² test over many rolls, resuming a game without
re-rolling, and the statistics of the public dice page."""

from __future__ import annotations

import hashlib
import json
import math
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy.core import actions as A
from nardy.core import fair_dice
from nardy.core.dice import SeededDice
from nardy.core.events import DiceRolled, OpeningRolled
from nardy.core.fair_dice import (
    ROLLS,
    SCHEME,
    DiceSeeds,
    FairDice,
    FairDiceError,
    RevealedDice,
    chi_square,
    chi_square_p_value,
    commitment,
    dice_statistics,
    statistics_from_counts,
)
from nardy.core.game import Game, Phase
from nardy.core.match import Match
from nardy.notation.record import game_record

SEED = bytes(range(32))


def reference_hmac(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA256 from RFC 2104, without the ``hmac`` module."""
    key = key.ljust(64, b"\0")
    inner = hashlib.sha256(bytes(k ^ 0x36 for k in key) + message).digest()
    return hashlib.sha256(bytes(k ^ 0x5C for k in key) + inner).digest()


def reference_roll(seed: bytes, c0: bytes, c1: bytes, game_id: bytes, n: int) -> tuple[int, int]:
    """docs/dice.md, read as a verifier would: length-prefixed fields, n and the block."""

    def field(b: bytes) -> bytes:
        return struct.pack(">I", len(b)) + b

    block = 0
    while True:
        message = field(SCHEME.encode()) + field(c0) + field(c1) + field(game_id)
        for byte in reference_hmac(seed, message + struct.pack(">QI", n, block)):
            if byte < 252:
                return (byte % 36) // 6 + 1, (byte % 36) % 6 + 1
        block += 1


def test_commitment_is_the_sha256_of_the_seed() -> None:
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_published_vectors() -> None:
    """The vectors of docs/dice.md."""
    no_client = DiceSeeds("game-1", SEED)
    assert [no_client.roll(n) for n in range(10)] == [
        (1, 5), (5, 4), (5, 6), (3, 1), (6, 2), (5, 4), (6, 5), (6, 3), (1, 2), (3, 3),
    ]  # fmt: skip
    both = DiceSeeds("game-1", SEED, ("alice-seed", "bob-seed"))
    assert [both.roll(n) for n in range(10)] == [
        (1, 6), (4, 1), (3, 4), (2, 1), (2, 3), (1, 6), (5, 6), (6, 3), (5, 2), (6, 6),
    ]  # fmt: skip
    message = fair_dice.roll_message(("alice-seed", "bob-seed"), "game-1", 0, 0)
    assert message.hex() == (
        "000000146e617264792d686d61632d7368613235362d76310000000a616c6963652d7365656400000008"
        "626f622d736565640000000667616d652d31000000000000000000000000"
    )
    assert reference_hmac(SEED, message).hex().startswith("29d2f7")  # 0x29 = 41: 41 % 36 = 5
    # roll 121's first byte is 0xfd (rejected); the next, 0xc7 = 199 = 5 * 36 + 19, gives 4-2
    assert both.roll(121) == (4, 2)


@given(
    seed=st.binary(min_size=32, max_size=32),
    clients=st.tuples(
        st.none() | st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1),
        st.none() | st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1),
    ),
    game_id=st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1),
    n=st.integers(0, 2**64 - 1),
)
def test_derivation_matches_the_independent_implementation(
    seed: bytes, clients: tuple[str | None, str | None], game_id: str, n: int
) -> None:
    clients = (clients[0] and clients[0][:64], clients[1] and clients[1][:64])
    game_id = game_id[:128]
    c0, c1 = ((c or "").encode() for c in clients)
    assert DiceSeeds(game_id, seed, clients).roll(n) == reference_roll(
        seed, c0, c1, game_id.encode(), n
    )


def test_every_field_changes_the_dice() -> None:
    base = DiceSeeds("game-1", SEED, ("a", "b"))
    rolls = [base.roll(n) for n in range(40)]
    for other in (
        DiceSeeds("game-2", SEED, ("a", "b")),
        DiceSeeds("game-1", bytes(32), ("a", "b")),
        DiceSeeds("game-1", SEED, ("a", "c")),
        DiceSeeds("game-1", SEED, ("b", "a")),  # the seats matter, not just the seeds
        DiceSeeds("game-1", SEED, (None, "b")),
    ):
        assert [other.roll(n) for n in range(40)] != rolls


def test_rejection_sampling_is_exactly_uniform(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of the 36 ordered rolls takes exactly 7 of the 256 byte values; 252-255 go on to
    the next byte, and a block of nothing but rejects goes on to the next block."""
    outcomes: dict[tuple[int, int], int] = {}
    real = fair_dice.hmac.digest
    for value in range(256):

        def digest(key: bytes, msg: bytes, name: str, value: int = value) -> bytes:
            return bytes([value, 0]) + real(key, msg, name)[2:]

        monkeypatch.setattr(fair_dice.hmac, "digest", digest)
        roll = DiceSeeds("g", SEED).roll(0)
        if value >= 252:
            assert roll == (1, 1)  # the next byte, 0, is 1-1
        else:
            outcomes[roll] = outcomes.get(roll, 0) + 1
    assert len(outcomes) == 36 and set(outcomes.values()) == {7}

    blocks: list[int] = []

    def rejects_first_block(key: bytes, msg: bytes, name: str) -> bytes:
        blocks.append(int.from_bytes(msg[-4:], "big"))
        return bytes([255] * 32) if blocks[-1] == 0 else bytes([35] + [0] * 31)

    monkeypatch.setattr(fair_dice.hmac, "digest", rejects_first_block)
    assert DiceSeeds("g", SEED).roll(5) == (6, 6)
    assert blocks == [0, 1]


def test_many_rolls_fit_uniform_dice() -> None:
    """72,000 rolls from a fixed seed: each ordered roll about 2,000 times, χ² over 35
    degrees of freedom. A fixed seed makes it deterministic; p > 0.001 is what fair dice give
    999 times in 1,000."""
    seeds = DiceSeeds("uniformity", hashlib.sha256(b"uniformity").digest(), ("x", "y"))
    counts = dict.fromkeys(((a, b) for a in range(1, 7) for b in range(1, 7)), 0)
    for n in range(72_000):
        counts[seeds.roll(n)] += 1
    test = chi_square(counts.values(), [2_000.0] * 36)
    assert test.degrees == 35
    assert test.p_value > 0.001, test


def test_fair_dice_deals_the_rolls_in_pairs_and_resumes() -> None:
    seeds = DiceSeeds("game-1", SEED, ("alice-seed", "bob-seed"))
    dice = FairDice(seeds)
    dealt = [dice.die() for _ in range(8)]
    assert dealt == [d for n in range(4) for d in seeds.roll(n)]
    assert dice.dealt == 8
    resumed = FairDice(seeds, dealt=5)  # mid-roll: the second die of roll 2 comes next
    assert [resumed.die() for _ in range(3)] == dealt[5:]


def test_a_game_restored_mid_game_continues_without_rerolling() -> None:
    """A game replayed from its rolls with dice resumed at the count dealt continues exactly
    as the original (issue 10 item 5: a roll is never re-rolled)."""
    seeds = DiceSeeds("restore", SEED)
    original = Game(dice=FairDice(seeds))
    original.roll_opening()
    rolls = list(original.opening_rolls)
    for _ in range(6):
        if original.phase is Phase.MOVING:
            original.play(original.turn, str(original.legal_plays()[0]))
        if original.phase is Phase.ROLL:
            rolls.append(original.roll(original.turn))
    source = original.dice_source
    assert isinstance(source, FairDice) and source.dealt == 2 * len(rolls)
    resumed = FairDice(seeds, dealt=source.dealt)
    for _ in range(10):
        assert resumed.die() == original.dice_source.die()


def test_stored_state_resumes_the_dice() -> None:
    """The server stores state() after each roll and resumes from it after a restart."""
    dice = FairDice.new("g-9")
    dice.contribute(0, "alice")
    first = [dice.die() for _ in range(7)]
    stored = json.loads(json.dumps(dice.state()))
    resumed = FairDice.from_state(stored)
    assert resumed.seeds == dice.seeds and resumed.dealt == 7
    assert [resumed.die() for _ in range(9)] == [dice.die() for _ in range(9)]
    assert first == [d for n in range(4) for d in dice.seeds.roll(n)][:7]
    for bad in (
        {**stored, "dealt": -1},
        {**stored, "dealt": "7"},
        {**stored, "commitment": "0" * 64},
    ):
        with pytest.raises(FairDiceError):
            FairDice.from_state(bad)


def test_a_server_restart_mid_game_rolls_nothing_again() -> None:
    """What a server does (issue 10 item 5): play through ``apply``, store the snapshot and
    the dice's state, "crash", restore both, and go on: the restored game rolls exactly what
    the original rolls next, and its events say so."""
    seeds = DiceSeeds("restart", SEED, ("alice", "bob"))
    original = Game(dice=FairDice(seeds))
    original.apply(A.RollOpening(0))
    for _ in range(5):
        awaiting = original.awaiting()
        if awaiting.phase == "moving":
            original.apply(A.Play(original.turn, str(original.legal_plays()[0])))
        else:
            original.apply(A.Roll(original.turn))
    source = original.dice_source
    assert isinstance(source, FairDice)
    stored = json.loads(json.dumps({"game": original.snapshot(), "dice": source.state()}))
    restored = Game.restore(stored["game"], dice=FairDice.from_state(stored["dice"]))
    assert restored.snapshot() == original.snapshot()
    for game in (original, restored):
        while game.awaiting().phase == "moving":
            game.apply(A.Play(game.turn, str(game.legal_plays()[0])))
    rolled = [g.apply(A.Roll(g.turn)) for g in (original, restored)]
    assert rolled[0] == rolled[1]
    logged = [e for e in restored.log if isinstance(e, DiceRolled | OpeningRolled)]
    assert [d for e in logged for d in e.dice] == [
        d for n in range(len(logged)) for d in seeds.roll(n)
    ]


def test_client_seeds_only_before_the_first_roll() -> None:
    dice = FairDice(DiceSeeds("g", SEED))
    dice.contribute(1, "bob")
    with pytest.raises(FairDiceError, match="already given"):
        dice.contribute(1, "again")
    dice.contribute(0, "alice")
    assert dice.seeds.client_seeds == ("alice", "bob")
    dice.die()
    late = FairDice(DiceSeeds("g", SEED))
    late.die()
    with pytest.raises(FairDiceError, match="come before"):
        late.contribute(0, "alice")
    assert late.seeds.client_seeds == (None, None)  # refused: nothing changed


@pytest.mark.parametrize(
    ("game_id", "server_seed", "clients"),
    [
        ("", SEED, (None, None)),
        ("has space", SEED, (None, None)),
        ("g" * 129, SEED, (None, None)),
        ("g", SEED[:31], (None, None)),
        ("g", "00" * 32, (None, None)),
        ("g", SEED, ("", None)),
        ("g", SEED, ("é", None)),
        ("g", SEED, ("x" * 65, None)),
        ("g", SEED, ("a",)),
    ],
)
def test_bad_seeds_are_refused(game_id: str, server_seed: bytes, clients: tuple[str, ...]) -> None:
    with pytest.raises(FairDiceError):
        DiceSeeds(game_id, server_seed, clients)  # type: ignore[arg-type]


def test_the_seed_is_revealed_only_when_asked() -> None:
    dice = FairDice.new("g-7")
    secret = dice.block(reveal=False)
    assert "server-seed" not in secret and dice.seeds.server_seed.hex() not in repr(dice.seeds)
    assert secret["commitment"] == hashlib.sha256(dice.seeds.server_seed).hexdigest()
    with pytest.raises(FairDiceError, match="not revealed"):
        RevealedDice.from_block(secret)
    revealed = RevealedDice.from_block(dice.block(reveal=True))
    assert revealed.commitment_holds and revealed.seeds == dice.seeds
    rolls = [revealed.seeds.roll(n) for n in range(5)]
    assert revealed.differences(rolls) == []
    tampered = (rolls[2][0] % 6 + 1, rolls[2][1])  # another first die
    assert revealed.differences([*rolls[:2], tampered, *rolls[3:]]) == [(2, tampered, rolls[2])]


def test_revealed_dice_deal_no_more() -> None:
    """Each game needs its own dice: once a game's record has shown the seed, those dice
    stop, rather than deal rolls that anyone could now compute."""
    match = Match()
    shared = FairDice(DiceSeeds("m-1", SEED))
    first = match.new_game(dice=shared)
    first.roll_opening()
    first.play(first.turn, first.legal_plays()[0])
    assert "server-seed" not in game_record(first)["dice"]
    shared.state()  # storing the dice does not reveal them
    first.resign(first.turn, 1)
    first.accept_resignation(1 - first.turn)
    assert "server-seed" in game_record(first)["dice"]
    second = match.new_game(dice=shared)
    with pytest.raises(FairDiceError, match="dice of its own"):
        second.roll_opening()


def test_a_forged_seed_breaks_the_commitment() -> None:
    block = FairDice(DiceSeeds("g", SEED)).block(reveal=True)
    block["server-seed"] = bytes(32).hex()
    assert not RevealedDice.from_block(block).commitment_holds


def test_match_gives_each_game_its_own_fair_dice() -> None:
    match = Match()
    first = match.new_game(dice=FairDice(DiceSeeds("m-1", SEED)))
    first.roll_opening()
    assert isinstance(first.dice_source, FairDice) and first.dice_source.dealt >= 2


# -- statistics -----------------------------------------------------------------------------


def even_degrees_p(statistic: float, degrees: int) -> float:
    """For even degrees the χ² tail is a finite sum: e^(-x/2) Σ_{i<k} (x/2)^i / i!."""
    half = statistic / 2
    return math.exp(-half) * sum(half**i / math.factorial(i) for i in range(degrees // 2))


@pytest.mark.parametrize("degrees", [2, 4, 20, 34, 100])
@pytest.mark.parametrize("statistic", [0.5, 3.0, 11.0, 31.4, 60.0, 150.0])
def test_p_value_against_the_closed_form(statistic: float, degrees: int) -> None:
    assert chi_square_p_value(statistic, degrees) == pytest.approx(
        even_degrees_p(statistic, degrees), rel=1e-9, abs=1e-300
    )


@pytest.mark.parametrize(
    ("statistic", "degrees", "p"),
    [(11.0705, 5, 0.05), (15.0863, 5, 0.01), (3.8415, 1, 0.05), (49.8018, 35, 0.05)],
)
def test_p_value_against_the_table(statistic: float, degrees: int, p: float) -> None:
    """Critical values from the standard χ² table (odd degrees of freedom)."""
    assert chi_square_p_value(statistic, degrees) == pytest.approx(p, rel=1e-3)


def test_statistics_of_known_rolls() -> None:
    stats = dice_statistics([(6, 5), (5, 6), (1, 1), (3, 2)])
    assert stats.rolls == 4
    assert stats.faces == (2, 1, 1, 0, 2, 2)
    per_roll = dict(zip(ROLLS, stats.per_roll, strict=True))
    assert per_roll[(6, 5)] == 2 and per_roll[(1, 1)] == 1 and per_roll[(3, 2)] == 1
    assert sum(stats.per_roll) == 4
    expected_faces = 8 / 6
    assert stats.faces_test is not None
    assert stats.faces_test.statistic == pytest.approx(
        sum((o - expected_faces) ** 2 / expected_faces for o in (2, 1, 1, 0, 2, 2))
    )
    assert stats.faces_test.degrees == 5
    assert stats.rolls_test is not None and stats.rolls_test.degrees == 20
    page = stats.to_json()
    assert page["faces"]["4"] == 0 and page["per-roll"]["6-5"] == 2
    assert dice_statistics([]).faces_test is None


def test_statistics_from_stored_counts() -> None:
    rolls = [(6, 5), (5, 6), (1, 1), (3, 2), (2, 3), (4, 4)]
    counted = statistics_from_counts({(6, 5): 2, (1, 1): 1, (3, 2): 2, (4, 4): 1})
    assert counted == dice_statistics(rolls)
    for bad in ({(5, 6): 1}, {(6, 5): -1}, {(7, 1): 1}):
        with pytest.raises(FairDiceError):
            statistics_from_counts(bad)


def test_statistics_tell_loaded_dice() -> None:
    dice = SeededDice(3)
    fair = [(dice.die(), dice.die()) for _ in range(5_000)]
    loaded = [(6, 6) if i % 10 == 0 else roll for i, roll in enumerate(fair)]
    fair_stats, loaded_stats = dice_statistics(fair), dice_statistics(loaded)
    assert fair_stats.rolls_test is not None and loaded_stats.rolls_test is not None
    assert fair_stats.rolls_test.p_value > 0.001
    assert loaded_stats.rolls_test.p_value < 1e-6


def test_statistics_refuse_a_die_off_the_cube() -> None:
    with pytest.raises(FairDiceError):
        dice_statistics([(0, 3)])
