"""Where dice come from: ``secrets`` for real play, a seed for tests and self-play, a fixed
list for replaying a record (RULES.md 1.9, 4: fair dice from a cryptographic source)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from typing import Protocol

from nardy.core.errors import InvalidDiceError, NardyError


class Dice(Protocol):
    """A source of single dice, 1-6."""

    def die(self) -> int:
        """One die."""
        ...


class SecretDice:
    """Fair dice from the operating system's cryptographic source (the default)."""

    def die(self) -> int:
        return secrets.randbelow(6) + 1


class SeededDice:
    """Reproducible dice for tests and self-play."""

    def __init__(self, seed: int | str) -> None:
        self._rng = random.Random(seed)

    def die(self) -> int:
        return self._rng.randint(1, 6)


class DiceExhaustedError(NardyError):
    """A fixed list of dice ran out."""


class FixedDice:
    """The dice of a record, in order: each opening die, then two per roll."""

    def __init__(self, values: Iterable[int]) -> None:
        self._values = list(values)
        for value in self._values:
            if not (isinstance(value, int) and 1 <= value <= 6):
                raise InvalidDiceError(f"a die is 1-6, not {value!r}")
        self._next = 0

    def die(self) -> int:
        if self._next >= len(self._values):
            raise DiceExhaustedError("the fixed dice have run out")
        self._next += 1
        return self._values[self._next - 1]

    def remaining(self) -> int:
        """Dice not yet used."""
        return len(self._values) - self._next
