"""The bounds of every number setting, RULES.md 5 and 1.6: a match to at most 64 points,
at most 6 automatic doubles, a money session's limits at most 1000 points and 1440 minutes;
anything else (a bigger number, a bool, a float) is refused with a SettingsError that names
the setting and its range."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy.core.match import Match
from nardy.core.settings import BOUNDS, Settings, SettingsError

NAMES = {
    "match_length": "match-length",
    "automatic_doubles": "automatic-doubles",
    "limit_points": "limit-points",
    "limit_minutes": "limit-minutes",
}


def _settings(attribute: str, value: object) -> Settings:
    """Settings that give ``attribute`` this value and are otherwise allowed with it
    (money play without Jacoby, for the money-only settings)."""
    if attribute == "match_length":
        return Settings(match_length=value)  # type: ignore[arg-type]
    return Settings(jacoby=False, **{attribute: value})  # type: ignore[arg-type]


def test_5_the_bounds_are_the_documented_ones() -> None:
    """RULES.md 5: the Values column's ranges."""
    assert BOUNDS == {
        "match_length": (0, 64),
        "automatic_doubles": (0, 6),
        "limit_points": (0, 1000),
        "limit_minutes": (0, 1440),
    }


@pytest.mark.parametrize("attribute", list(NAMES))
@pytest.mark.parametrize("value", [10**400, 10**30, 10**6, -1], ids=["1e400", "1e30", "1e6", "-1"])
def test_5_a_number_out_of_range_is_refused(attribute: str, value: int) -> None:
    """RULES.md 5: a number setting beyond its range is refused, the message naming it and
    its range (10**400 was accepted and then overflowed the server's clock)."""
    low, high = BOUNDS[attribute]
    with pytest.raises(
        SettingsError, match=f"{NAMES[attribute]} is a whole number from {low} to {high}"
    ):
        _settings(attribute, value).resolve()


@pytest.mark.parametrize("attribute", list(NAMES))
@pytest.mark.parametrize("value", [True, 3.0, float("inf"), float("nan"), "3", None])
def test_5_a_number_setting_is_an_int(attribute: str, value: object) -> None:
    """RULES.md 5: a number setting is a whole number: not a bool, a float or a name."""
    with pytest.raises(SettingsError, match=f"{NAMES[attribute]} must be a whole number"):
        _settings(attribute, value).resolve()


@given(st.data())
def test_5_every_value_in_range_is_accepted(data: st.DataObject) -> None:
    """RULES.md 5: the bounds themselves and everything between are allowed."""
    attribute = data.draw(st.sampled_from(list(NAMES)))
    low, high = BOUNDS[attribute]
    value = data.draw(st.integers(low, high))
    assert getattr(_settings(attribute, value).resolve(), attribute) == value


def test_1_6_a_match_to_64_points_is_the_longest() -> None:
    """RULES.md 1.6: a match to 64 points plays; to 65 it is refused."""
    assert Match(Settings(match_length=64)).length == 64
    with pytest.raises(SettingsError, match="match-length"):
        Match(Settings(match_length=65))


def test_1_6_settings_read_back_are_bounded_too() -> None:
    """RULES.md 1.6: settings from their names (a request, a record) meet the same bounds."""
    with pytest.raises(SettingsError, match="limit-points"):
        Settings.from_dict({"limit-points": 1001, "jacoby": False}).resolve()
