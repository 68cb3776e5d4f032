"""The game settings as command-line flags, shared by ``nardy play`` and ``nardy selfplay``.

Every flag carries its RULES.md name (``--backgammon-value``, ``--first-move-in-series``…)
and defaults to "not given", so :class:`~nardy.core.settings.Settings` fills in the
variant's own default and checks the whole combination (a Jacoby match is refused with the
reason). ``--match N`` plays a match to N points; ``--money`` (the default) is money play, or
an unlimited series in long nardy.
"""

from __future__ import annotations

import argparse
from typing import Any

from nardy.core import variants
from nardy.core.settings import ENDINGS, FIRST_MOVES, OPENINGS, Settings


def _count(text: str) -> int:
    """A whole number of zero or more (points, minutes, doubles)."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}")
    return int(text)


def _length(text: str) -> int:
    """A match length: one point or more."""
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError("a match is played to 1 point or more")
    return value


def seed(text: str) -> int | str:
    """A seed for the dice (and random bots): a number, or any other text."""
    return int(text) if text.isdigit() else text


def add_settings_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--variant``, ``--match N`` / ``--money`` and every game setting to ``parser``."""
    names = ", ".join(sorted(v.key for v in variants()))
    parser.add_argument(
        "--variant", default="backgammon", help=f"the game: {names} (default backgammon)"
    )
    length = parser.add_mutually_exclusive_group()
    length.add_argument(
        "--match", type=_length, metavar="N", dest="match_length", help="a match to N points"
    )
    length.add_argument(
        "--money",
        action="store_const",
        const=0,
        dest="match_length",
        help="money play, or an unlimited series in long nardy (the default)",
    )
    group = parser.add_argument_group("game settings (RULES.md names; default: the variant's)")
    flag = argparse.BooleanOptionalAction
    group.add_argument("--crawford", action=flag, help="the Crawford rule in a match (on)")
    group.add_argument("--cube", action=flag, help="the doubling cube (on in backgammon)")
    group.add_argument("--beaver", action=flag, help="beavers in money play (off)")
    group.add_argument("--jacoby", action=flag, help="the Jacoby rule (on in money play)")
    group.add_argument(
        "--automatic-doubles",
        type=_count,
        metavar="N",
        help="money play: at most N automatic doubles a game on equal opening dice (0 = off)",
    )
    group.add_argument(
        "--backgammon-value", type=int, choices=(2, 3), help="what a backgammon counts (3)"
    )
    group.add_argument("--opening", choices=OPENINGS, help="the first player's opening roll")
    group.add_argument(
        "--first-move-in-series",
        choices=FIRST_MOVES,
        help="long nardy: who starts the next game (loser)",
    )
    group.add_argument("--ending", choices=ENDINGS, help="long nardy: whether a mars counts 2")
    group.add_argument(
        "--last-roll", action=flag, help="long nardy: the second player's last roll (off)"
    )
    group.add_argument(
        "--limit-points",
        type=_count,
        metavar="N",
        help="money play: end the session at a difference of N points",
    )
    group.add_argument(
        "--limit-minutes",
        type=_count,
        metavar="N",
        help="money play: end the session after N minutes",
    )


_SETTING_FLAGS = (
    "crawford",
    "cube",
    "beaver",
    "jacoby",
    "automatic_doubles",
    "backgammon_value",
    "opening",
    "first_move_in_series",
    "ending",
    "last_roll",
    "limit_points",
    "limit_minutes",
)


def settings_from_args(args: argparse.Namespace) -> Settings:
    """The checked settings that the flags name; raises
    :class:`~nardy.core.settings.SettingsError` (or ``UnknownVariantError``) saying why a
    combination is not allowed."""
    given = {name: getattr(args, name) for name in _SETTING_FLAGS}
    chosen: dict[str, Any] = {name: value for name, value in given.items() if value is not None}
    return Settings(variant=args.variant, match_length=args.match_length or 0, **chosen).resolve()
