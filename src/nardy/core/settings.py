"""The settings of a match, money session or series, under their RULES.md names.

Settings are fixed when a match or session is created (RULES.md 1.6) and validated then:
a combination the rules do not allow (Jacoby in a match, beavers in long nardy without a
cube…) is refused with a :class:`SettingsError` that says why.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields, replace
from typing import Any

from nardy.core.errors import NardyError
from nardy.core.variant import Variant
from nardy.core.variants import variant, variants

_KINDS = {bool: "on or off (true or false)", int: "a whole number", str: "a name"}


class Opening(enum.StrEnum):
    """``opening``: whether the winner of the opening roll plays those dice (RULES.md 1.1)."""

    USE_OPENING_DICE = "use-opening-dice"
    REROLL = "reroll"


class FirstMove(enum.StrEnum):
    """``first-move-in-series``: who starts the next game of a long-nardy series (3.1)."""

    LOSER = "loser"
    ALTERNATE = "alternate"


class Ending(enum.StrEnum):
    """``ending``: whether a long-nardy mars scores two (``mars``) or one (``oin``) (3.4)."""

    OIN = "oin"
    MARS = "mars"


_NAMED: dict[str, type[enum.StrEnum]] = {
    "opening": Opening,
    "first_move_in_series": FirstMove,
    "ending": Ending,
}
"""The settings whose value is one of a few names; once resolved they hold the StrEnum."""
OPENINGS = tuple(o.value for o in Opening)
FIRST_MOVES = tuple(f.value for f in FirstMove)
ENDINGS = tuple(e.value for e in Ending)


class SettingsError(NardyError):
    """Settings that the rules do not allow together, or a value out of range."""


BOUNDS: dict[str, tuple[int, int]] = {
    "match_length": (0, 64),
    "automatic_doubles": (0, 6),
    "limit_points": (0, 1000),
    "limit_minutes": (0, 1440),
}
"""The least and the most each number setting may be (RULES.md 5), so that no match, money
session or record is too big for the programs that read it: ``match-length`` up to 64 points,
GNU Backgammon's longest match (which also bounds the cube in a match); ``automatic-doubles``
up to 6, a cube of 64 before the first move, the highest face of a physical cube;
``limit-points`` up to 1000, a score difference no session reaches by chance;
``limit-minutes`` up to 1440, a day."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Every game setting of RULES.md. ``None`` means "the variant's default"; :meth:`resolve`
    fills those in and checks the whole.

    ``match_length`` 0 is money play (or an unlimited long-nardy series).
    ``automatic_doubles`` 0 is off, N > 0 is on with at most N automatic doubles a game.
    ``limit_points`` / ``limit_minutes`` end a money session at a score difference or a time.
    """

    variant: str = "backgammon"
    match_length: int = 0
    crawford: bool = True
    cube: bool | None = None
    beaver: bool = False
    jacoby: bool | None = None
    automatic_doubles: int = 0
    backgammon_value: int = 3
    opening: str = Opening.USE_OPENING_DICE
    first_move_in_series: str = FirstMove.LOSER
    ending: str = Ending.MARS
    last_roll: bool = False
    limit_points: int = 0
    limit_minutes: int = 0

    @property
    def rules(self) -> Variant:
        """The variant these settings play."""
        return variant(self.variant)

    @property
    def plays_opening_roll(self) -> bool:
        """Whether the winner of the opening roll plays its two dice as the first turn
        (RULES.md 1.1, ``opening``), not in long nardy, whose opening lot only decides who
        starts (3.1): the one place this fact is worked out."""
        return self.rules.opening_dice_played and self.opening == Opening.USE_OPENING_DICE

    @property
    def money(self) -> bool:
        """Money play (or an unlimited series): no match length."""
        return self.match_length == 0

    def resolve(self) -> Settings:
        """These settings with every default filled in, checked; raises :class:`SettingsError`."""
        if not isinstance(self.variant, str):
            raise SettingsError(f"variant must be a name, not {self.variant!r}")
        v = variant(self.variant)  # raises UnknownVariantError for an unknown name
        cube = v.uses_cube_by_default if self.cube is None else self.cube
        jacoby = self.jacoby
        if jacoby is None:  # on by default in money play (RULES.md 1.5)
            jacoby = self.money and cube and "jacoby" in v.own_settings
        named: dict[str, Any] = {
            name: kind(value)
            for name, kind in _NAMED.items()
            if isinstance(value := getattr(self, name), str) and value in set(kind)
        }
        resolved = replace(self, variant=v.key, cube=cube, jacoby=jacoby, **named)
        resolved._check()
        return resolved

    def _check(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            kind = bool if f.default is None else type(f.default)  # None: a bool once resolved
            if f.name in _NAMED:
                kind = str  # a name, checked against its StrEnum below
            if not (type(value) is kind or (kind is str and isinstance(value, str))):
                raise SettingsError(
                    f"{f.name.replace('_', '-')} must be {_KINDS[kind]}, not {value!r}"
                )
        for attribute, (low, high) in BOUNDS.items():
            if not low <= getattr(self, attribute) <= high:
                name = attribute.replace("_", "-")
                raise SettingsError(f"{name} is a whole number from {low} to {high}{_ZERO[name]}")
        v = self.rules
        if self.backgammon_value not in (2, 3):
            raise SettingsError("backgammon-value must be 2 or 3")
        if self.opening not in OPENINGS:
            raise SettingsError(f"opening must be one of {', '.join(OPENINGS)}")
        if self.first_move_in_series not in FIRST_MOVES:
            raise SettingsError(f"first-move-in-series must be one of {', '.join(FIRST_MOVES)}")
        if self.ending not in ENDINGS:
            raise SettingsError(f"ending must be one of {', '.join(ENDINGS)}")
        money_only = {
            "jacoby": self.jacoby,
            "beaver": self.beaver,
            "automatic-doubles": self.automatic_doubles,
            "limit-points": self.limit_points,
            "limit-minutes": self.limit_minutes,
        }
        for name, value in money_only.items():
            if value and not self.money:
                raise SettingsError(f"{name} applies only to money play, not to a match")
        if not self.cube:
            for name in ("jacoby", "beaver", "automatic-doubles"):
                if money_only[name]:
                    raise SettingsError(f"{name} needs the cube (cube is off)")
        for f in fields(self):
            name = f.name.replace("_", "-")
            value = getattr(self, f.name)
            if name in _VARIANT_SETTINGS - v.own_settings and value not in (f.default, False):
                raise SettingsError(f"{name} is not a setting of {v.name}")

    def to_dict(self) -> dict[str, Any]:
        """Every setting of this variant under its RULES.md name (``match-length``…)."""
        other = _VARIANT_SETTINGS - self.rules.own_settings
        named = {f.name.replace("_", "-"): getattr(self, f.name) for f in fields(self)}
        return {name: value for name, value in named.items() if name not in other}

    @classmethod
    def from_dict(cls, data: dict[str, Any], variant: str | None = None) -> Settings:
        """Settings from RULES.md names; unknown names are refused. ``variant``, where given,
        is the variant that snapshots and records keep beside their settings."""
        if variant is not None:
            data = {**data, "variant": variant}
        known = {f.name.replace("_", "-"): f.name for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise SettingsError(f"unknown setting(s): {', '.join(unknown)}")
        return cls(**{known[k]: v for k, v in data.items()})


_ZERO = {
    "match-length": " (0: money play)",
    "automatic-doubles": " (0: off), the most in a game",
    "limit-points": " (0: no limit), a difference in score",
    "limit-minutes": " (0: no limit)",
}
"""What 0 means for each bounded setting, in the message that refuses a value."""
_VARIANT_SETTINGS = frozenset().union(*(v.own_settings for v in variants()))
