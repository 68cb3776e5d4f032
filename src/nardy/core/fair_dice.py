"""Dice that a player can verify (issue 10, item 5; the scheme byte by byte in docs/dice.md).

Before a game's first roll the server draws a secret 32-byte seed and publishes its SHA-256,
the *commitment*. Each player may add a seed of their own (``contribute``) before the first
roll, so that neither the server nor a player alone decides the dice. Roll ``n`` (from 0: the
opening rolls first, then every turn's roll) is

    HMAC-SHA256(key = server seed,
                message = scheme, client seed 0, client seed 1, game id, n, block)

read byte by byte: a byte below 252 (= 7 x 36) is the roll, ``byte % 36`` as
``(1 + value // 6, 1 + value % 6)``; a byte of 252-255 is skipped, and after 32 skipped bytes
the next block follows. Every one of the 36 ordered rolls has exactly the same chance. When
the game ends the server reveals its seed, and anyone can recompute every roll.

:class:`FairDice` is the :class:`~nardy.core.dice.Dice` source a server gives a game. Its
state is the seeds and the number of dice dealt, so a game restored from storage continues at
the next die and nothing is ever rolled twice.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import math
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from nardy.core.errors import NardyError

SCHEME = "nardy-hmac-sha256-v1"
"""The scheme's name, written in the record's dice block and hashed into every roll."""

SEED_BYTES = 32
"""The length of the server's seed."""

CLIENT_SEED_MAX = 64
"""The longest client seed, in characters (printable ASCII, so also in bytes)."""

GAME_ID_MAX = 128
"""The longest game id, in characters (printable ASCII)."""

_ACCEPT = 252
"""Bytes below this are rolls: 252 = 7 x 36, so each of the 36 rolls takes exactly 7 values."""


class FairDiceError(NardyError):
    """A seed, game id or dice block that the scheme does not accept, a seed contributed too
    late, or a seed revealed before the game is over."""


def _check_text(what: str, text: object, longest: int) -> str:
    """Seeds and game ids are printable ASCII without spaces, so that every language reads
    the same bytes from the record (no Unicode normalisation, no trimming)."""
    if not isinstance(text, str):
        raise FairDiceError(f"a {what} is a string, not {text!r}")
    if not 1 <= len(text) <= longest or not all("!" <= c <= "~" for c in text):
        raise FairDiceError(
            f"a {what} is 1-{longest} printable ASCII characters without spaces, not {text!r}"
        )
    return text


def _check_seed(seed: object) -> bytes:
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise FairDiceError(f"the server seed is {SEED_BYTES} bytes, not {seed!r}")
    return seed


def new_server_seed() -> bytes:
    """A fresh secret seed from the operating system's cryptographic source."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """The published commitment to a server seed: its SHA-256, as 64 lowercase hex digits."""
    return hashlib.sha256(_check_seed(server_seed)).hexdigest()


def _field(data: bytes) -> bytes:
    # Each variable field carries its length, so no two different inputs give one message.
    return len(data).to_bytes(4, "big") + data


def roll_message(
    client_seeds: tuple[str | None, str | None], game_id: str, n: int, block: int
) -> bytes:
    """The HMAC message of block ``block`` of roll ``n`` (docs/dice.md, "The message")."""
    seeds = [b"" if s is None else s.encode("ascii") for s in client_seeds]
    return (
        _field(SCHEME.encode("ascii"))
        + _field(seeds[0])
        + _field(seeds[1])
        + _field(game_id.encode("ascii"))
        + n.to_bytes(8, "big")
        + block.to_bytes(4, "big")
    )


@dataclass(frozen=True)
class DiceSeeds:
    """Everything that decides a game's dice: the server's seed, each player's seed (None
    when the player gave none) and the game's id."""

    game_id: str
    server_seed: bytes = field(repr=False)  # secret until the game is over
    client_seeds: tuple[str | None, str | None] = (None, None)

    def __post_init__(self) -> None:
        _check_text("game id", self.game_id, GAME_ID_MAX)
        _check_seed(self.server_seed)
        if not (isinstance(self.client_seeds, tuple) and len(self.client_seeds) == 2):
            raise FairDiceError(f"two client seeds (or None), not {self.client_seeds!r}")
        for seed in self.client_seeds:
            if seed is not None:
                _check_text("client seed", seed, CLIENT_SEED_MAX)

    @functools.cached_property
    def commitment(self) -> str:
        # Worked out once: a server's room shows it in the state after every action.
        return commitment(self.server_seed)

    def roll(self, n: int) -> tuple[int, int]:
        """Roll ``n`` (from 0), by rejection sampling over the HMAC blocks."""
        if not (isinstance(n, int) and 0 <= n < 2**64):
            raise FairDiceError(f"roll numbers are 0 to 2^64 - 1, not {n!r}")
        block = 0
        while True:  # a block is all rejects with chance 64^-32: one block in practice
            message = roll_message(self.client_seeds, self.game_id, n, block)
            for byte in hmac.digest(self.server_seed, message, "sha256"):
                if byte < _ACCEPT:
                    value = byte % 36
                    return 1 + value // 6, 1 + value % 6
            block += 1


class FairDice:
    """The dice of one game under the verifiable scheme: a :class:`~nardy.core.dice.Dice`
    source. Die ``i`` is half ``i % 2`` of roll ``i // 2``, so each pair the game draws (an
    opening roll, player 0's die then player 1's; a turn's roll) is one roll of the scheme.

    ``dealt`` resumes a game restored from storage after that many dice, so the next die is
    the one that would have come next: nothing is rolled again.
    """

    def __init__(self, seeds: DiceSeeds, *, dealt: int = 0) -> None:
        if not (isinstance(dealt, int) and dealt >= 0):
            raise FairDiceError(f"the dice dealt are a count, not {dealt!r}")
        self._seeds = seeds
        self._dealt = dealt
        self._revealed = False

    @classmethod
    def new(cls, game_id: str) -> FairDice:
        """The dice of a new game, with a fresh secret server seed."""
        return cls(DiceSeeds(game_id, new_server_seed()))

    @property
    def seeds(self) -> DiceSeeds:
        """The seeds (the server's still secret: store it, never show it before the end)."""
        return self._seeds

    @property
    def commitment(self) -> str:
        """What the players see at the start: the SHA-256 of the server seed."""
        return self._seeds.commitment

    @property
    def dealt(self) -> int:
        """The dice dealt so far (twice the rolls, for a game)."""
        return self._dealt

    def contribute(self, player: int, seed: str) -> None:
        """Player ``player``'s own seed, accepted only before the first die and only once."""
        if player not in (0, 1):
            raise FairDiceError(f"players are 0 and 1, not {player!r}")
        if self._dealt:
            raise FairDiceError("the dice are already rolling: client seeds come before")
        seeds = list(self._seeds.client_seeds)
        if seeds[player] is not None:
            raise FairDiceError(f"player {player} has already given a seed")
        seeds[player] = seed
        self._seeds = DiceSeeds(self._seeds.game_id, self._seeds.server_seed, (seeds[0], seeds[1]))

    def die(self) -> int:
        if self._revealed:
            # One FairDice per game: dice from a seed already shown would be known in advance.
            raise FairDiceError("these dice are revealed: each game needs dice of its own")
        d = self._seeds.roll(self._dealt // 2)[self._dealt % 2]
        self._dealt += 1
        return d

    def block(self, *, reveal: bool) -> dict[str, Any]:
        """The record's ``dice`` block (docs/records.md). ``reveal`` adds the server seed:
        only for a game that is over; these dice deal no more after it."""
        self._revealed = self._revealed or reveal
        return self._block(reveal)

    def _block(self, reveal: bool) -> dict[str, Any]:
        block: dict[str, Any] = {
            "scheme": SCHEME,
            "game-id": self._seeds.game_id,
            "commitment": self.commitment,
            "client-seeds": list(self._seeds.client_seeds),
        }
        if reveal:
            block["server-seed"] = self._seeds.server_seed.hex()
        return block

    def state(self) -> dict[str, Any]:
        """What the server stores (secret: it holds the server seed) to resume these dice
        after a restart: the revealed block and the count of dice dealt."""
        return {**self._block(True), "dealt": self._dealt}

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> FairDice:
        """The dice :meth:`state` stored, continuing at the next die; a state that is not
        one (or whose seed is not its commitment's) raises :class:`FairDiceError`."""
        revealed = RevealedDice.from_block(state)
        if not revealed.commitment_holds:
            raise FairDiceError("the stored server seed is not the one committed to")
        return cls(revealed.seeds, dealt=state.get("dealt"))  # type: ignore[arg-type]


@dataclass(frozen=True)
class RevealedDice:
    """A record's dice block after the game: the seeds and the commitment they must match."""

    seeds: DiceSeeds
    commitment: str

    @classmethod
    def from_block(cls, block: Mapping[str, Any]) -> RevealedDice:
        """Read a record's ``dice`` block; anything malformed or unrevealed raises
        :class:`FairDiceError`."""
        if not isinstance(block, Mapping):
            raise FairDiceError(f"the dice block is an object, not {block!r}")
        if block.get("scheme") != SCHEME:
            raise FairDiceError(f"unknown dice scheme {block.get('scheme')!r} (not {SCHEME})")
        if "server-seed" not in block:
            raise FairDiceError("the server seed is not revealed (the game is not over)")
        seed_hex, digest = block["server-seed"], block.get("commitment")
        if not (isinstance(seed_hex, str) and len(seed_hex) == 2 * SEED_BYTES):
            raise FairDiceError(f"the server seed is {2 * SEED_BYTES} hex digits")
        if not (isinstance(digest, str) and len(digest) == 64):
            raise FairDiceError("the commitment is 64 hex digits")
        try:
            seed = bytes.fromhex(seed_hex)
            bytes.fromhex(digest)
        except ValueError:
            raise FairDiceError("the server seed and the commitment are hex digits") from None
        client = block.get("client-seeds")
        if not (isinstance(client, list) and len(client) == 2):
            raise FairDiceError("client-seeds is a list of two (a seed or null each)")
        seeds = DiceSeeds(block.get("game-id"), seed, (client[0], client[1]))  # type: ignore[arg-type]
        return cls(seeds, digest.lower())

    @property
    def commitment_holds(self) -> bool:
        """Whether the revealed seed is the one committed to at the start."""
        return hmac.compare_digest(self.seeds.commitment, self.commitment)

    def check(self, dice: Sequence[object]) -> list[str]:
        """A line for each thing that does not hold of a game that rolled ``dice`` (each
        die in the order rolled, two per roll) with these seeds: the commitment, then each
        roll that differs; empty when the dice are verified."""
        problems = []
        if not self.commitment_holds:
            problems.append(
                f"the server seed's SHA-256 is {self.seeds.commitment}, "
                f"not the commitment {self.commitment}"
            )
        for n, recorded, derived in self.differences(rolls_of(dice)):
            problems.append(
                f"roll {n}: the record has {recorded[0]}-{recorded[1]}, "
                f"the seeds give {derived[0]}-{derived[1]}"
            )
        return problems

    def differences(
        self, rolls: Iterable[tuple[int, int]]
    ) -> list[tuple[int, tuple[int, int], tuple[int, int]]]:
        """Each roll that is not what the seeds give: (roll number, recorded, derived)."""
        wrong = []
        for n, recorded in enumerate(rolls):
            derived = self.seeds.roll(n)
            if tuple(recorded) != derived:
                wrong.append((n, (recorded[0], recorded[1]), derived))
        return wrong


def rolls_of(dice: Sequence[object]) -> list[tuple[int, int]]:
    """Dice in the order rolled, as rolls of two; :class:`FairDiceError` for anything but
    numbers 1-6 or for half a roll."""
    if not all(type(d) is int and 1 <= d <= 6 for d in dice):
        raise FairDiceError("the dice are not all numbers 1-6")
    if len(dice) % 2:
        raise FairDiceError("the dice are not whole rolls of two dice")
    values = [d for d in dice if type(d) is int]
    return [(values[i], values[i + 1]) for i in range(0, len(values), 2)]


# -- the public dice page: what the server dealt, and whether it looks like fair dice -----------

ROLLS = tuple((high, low) for high in range(6, 0, -1) for low in range(high, 0, -1))
"""The 21 rolls as a player names them, higher die first (6-6, 6-5, ..., 1-1)."""


def chi_square_p_value(statistic: float, degrees: int) -> float:
    """The chance that fair dice give a χ² statistic at least this large: the regularised
    upper incomplete gamma function Q(degrees / 2, statistic / 2)."""
    if degrees < 1 or statistic < 0:
        raise ValueError(f"χ² needs degrees >= 1 and a statistic >= 0, not {degrees}, {statistic}")
    a, x = degrees / 2, statistic / 2
    if x == 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # the series of the lower function converges fast here
        term = total = 1 / a
        k = a
        while abs(term) > abs(total) * 1e-16:
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1 - math.exp(log_front) * total)
    # Lentz's continued fraction of the upper function
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    i = 1
    while True:
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
        i += 1
    return math.exp(log_front) * h


@dataclass(frozen=True)
class ChiSquare:
    """A χ² goodness-of-fit test: small p-values (below 0.001, say) say the counts are
    unlikely from fair dice; fair dice give p below 0.05 one time in twenty."""

    statistic: float
    degrees: int
    p_value: float


def chi_square(observed: Iterable[int], expected: Iterable[float]) -> ChiSquare:
    """Pearson's χ² of counts against their expected values (degrees: cells - 1)."""
    pairs = list(zip(observed, expected, strict=True))
    statistic = sum((o - e) ** 2 / e for o, e in pairs)
    degrees = len(pairs) - 1
    return ChiSquare(statistic, degrees, chi_square_p_value(statistic, degrees))


@dataclass(frozen=True)
class DiceStatistics:
    """The dice dealt: counts per face (each die of each roll) and per roll (the 21 rolls of
    :data:`ROLLS`, either order), each with its χ² test against fair dice."""

    rolls: int
    faces: tuple[int, ...]
    """How often each face 1-6 came up."""
    per_roll: tuple[int, ...]
    """How often each roll of :data:`ROLLS` came up."""
    faces_test: ChiSquare | None
    rolls_test: ChiSquare | None
    """None before any roll."""

    def to_json(self) -> dict[str, Any]:
        def test(t: ChiSquare | None) -> dict[str, Any] | None:
            return None if t is None else {"chi2": t.statistic, "df": t.degrees, "p": t.p_value}

        return {
            "rolls": self.rolls,
            "faces": {str(face): n for face, n in zip(range(1, 7), self.faces, strict=True)},
            "per-roll": {f"{h}-{lo}": n for (h, lo), n in zip(ROLLS, self.per_roll, strict=True)},
            "faces-test": test(self.faces_test),
            "rolls-test": test(self.rolls_test),
        }


def dice_statistics(rolls: Iterable[tuple[int, int]]) -> DiceStatistics:
    """Counts and χ² tests of the rolls dealt (each roll is two dice, 1-6)."""
    per_roll = dict.fromkeys(ROLLS, 0)
    for d1, d2 in rolls:
        if not (d1 in range(1, 7) and d2 in range(1, 7)):
            raise FairDiceError(f"a roll is two dice 1-6, not {d1}-{d2}")
        per_roll[(max(d1, d2), min(d1, d2))] += 1
    return statistics_from_counts(per_roll)


def statistics_from_counts(per_roll: Mapping[tuple[int, int], int]) -> DiceStatistics:
    """The statistics of rolls counted per roll (higher die first, as in :data:`ROLLS`;
    rolls not named count 0): what a server that keeps 21 counters shows."""
    unknown = set(per_roll) - set(ROLLS)
    if unknown:
        raise FairDiceError(f"rolls are named higher die first, 6-6 to 1-1, not {unknown}")
    counts = [per_roll.get(roll, 0) for roll in ROLLS]
    if not all(isinstance(n, int) and n >= 0 for n in counts):
        raise FairDiceError("roll counts are whole numbers, 0 or more")
    faces = [0] * 6
    for (high, low), n in zip(ROLLS, counts, strict=True):
        faces[high - 1] += n
        faces[low - 1] += n
    count = sum(counts)
    faces_test = rolls_test = None
    if count:
        faces_test = chi_square(faces, [2 * count / 6] * 6)
        # a double is one of the 36 ordered rolls, any other roll two of them
        rolls_test = chi_square(counts, [count * (1 if h == lo else 2) / 36 for h, lo in ROLLS])
    return DiceStatistics(count, tuple(faces), tuple(counts), faces_test, rolls_test)
