"""Ratings of the players, per variant (issue 10, item 6; the choices in docs/ratings.md).

Matches are rated with the formula of FIBS, the First Internet Backgammon Server (its
``help formula``, http://www.bkgm.com/rgb/rgb.cgi?view+1093 and the Backgammon FAQ,
https://stason.org/TULARC/games/backgammon/14-FIBS-RATINGS-First-Internet-Backgammon-Server.html).
For an ``N``-point match between ratings ``r1`` and ``r2``, with ``D = |r1 - r2|``:

- the underdog wins with probability ``P_upset = 1 / (10^(D * sqrt(N) / 2000) + 1)``;
- ``P`` is ``P_upset`` when the favourite wins and ``1 - P_upset`` when the underdog wins:
  in both cases the chance the loser had;
- each player's ``K = max(1, 5 - experience / 100)``, where experience is the sum of the
  lengths of the matches the player finished before this one (so new players move fast,
  and from 400 on K is 1);
- the winner gains ``4 * K * sqrt(N) * P``, the loser loses ``4 * K * sqrt(N) * P``, each
  with their own K; then both add N to their experience.

Everybody starts at 1500 with experience 0. Money sessions and long-nardy series: see
:func:`rating_rule`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Literal

from nardy.core.match import Match
from nardy.core.settings import Settings

START = 1500.0
"""Every player's rating before their first rated match."""

MONEY_POOL_SUFFIX = "-money"
"""What a money pool's name adds to its variant's key (``backgammon-money``): money play is
rated apart from matches (:func:`rating_rule`)."""


SHOWN_DECIMALS = 2
"""A rating as the API shows it (a profile, a game's change): rounded to hundredths, as FIBS
shows it; the database keeps it whole."""


def shown(value: float) -> float:
    """A rating as the API shows it."""
    return round(value, SHOWN_DECIMALS)


class RatingError(ValueError):
    """A match length, a rating or an experience that the formula does not take."""


@dataclass(frozen=True)
class Rating:
    """A player's rating in one pool, and the experience (match points finished) behind it."""

    value: float = START
    experience: int = 0

    def __post_init__(self) -> None:
        if not (isinstance(self.value, int | float) and math.isfinite(self.value)):
            raise RatingError(f"a rating is a finite number, not {self.value!r}")
        if not (isinstance(self.experience, int) and self.experience >= 0):
            raise RatingError(f"experience is a count of points, not {self.experience!r}")


def _check_length(length: int) -> None:
    if not (isinstance(length, int) and length >= 1):
        raise RatingError(f"a rated match is 1 point or longer, not {length!r}")


def win_probability(rating: float, opponent: float, length: int) -> float:
    """The chance, by the formula, that a player rated ``rating`` wins an ``length``-point
    match against one rated ``opponent`` (FIBS's ``P_upset`` for the underdog)."""
    _check_length(length)
    return 1 / (10 ** ((opponent - rating) * math.sqrt(length) / 2000) + 1)


def k_factor(experience: int) -> float:
    """How much faster than an experienced player's a rating moves: 5 for a new player,
    falling by 1 every 100 points of experience, and 1 from 400 on."""
    return max(1.0, 5 - experience / 100)


@dataclass(frozen=True)
class RatingChange:
    """What one rated match does to its two players."""

    winner: Rating
    """The winner's rating after the match."""
    loser: Rating
    """The loser's rating after the match."""
    gained: float
    """What the winner gained (> 0)."""
    lost: float
    """What the loser lost (> 0)."""


def rate_match(winner: Rating, loser: Rating, length: int) -> RatingChange:
    """The ratings after ``winner`` beat ``loser`` in a ``length``-point match."""
    _check_length(length)
    p = 1 - win_probability(winner.value, loser.value, length)  # the chance the loser had
    gained = 4 * k_factor(winner.experience) * math.sqrt(length) * p
    lost = 4 * k_factor(loser.experience) * math.sqrt(length) * p
    return RatingChange(
        Rating(winner.value + gained, winner.experience + length),
        Rating(loser.value - lost, loser.experience + length),
        gained,
        lost,
    )


@dataclass(frozen=True)
class RatingRule:
    """How a match or session under some settings is rated: in which ``pool`` (a rating
    per user and pool), and whether once at the end of the ``match`` (of ``length`` points)
    or after each ``game`` (as a 1-point match)."""

    pool: str
    per: Literal["match", "game"]
    length: int


@functools.lru_cache(maxsize=256)
def rating_rule(settings: Settings) -> RatingRule:
    """The rule for ``settings`` (docs/ratings.md):

    - a match (``match-length`` N >= 1), in any variant, a long-nardy series to N points
      included: rated once when it is won, as an N-point match, in the variant's pool
      (``backgammon``, ``nackgammon``, ``acey-deucey``, ``long``);
    - money play (``match-length`` 0, and an unlimited long-nardy series): each game won
      is rated as a 1-point match, in the variant's own money pool (``backgammon-money``,
      ``long-money``…): the cube and gammons decide money, not who plays better, and a
      session has no winner of its own; money and match ratings are kept apart because
      the two games are played differently. A drawn game (long nardy's last roll) is not
      rated.
    """
    # Cached (settings are immutable): a room asks after every action, and resolving the
    # settings each time was a good part of an action's CPU (bench/load.py).
    resolved = settings.resolve()
    variant = resolved.rules.key
    if resolved.match_length:
        return RatingRule(variant, "match", resolved.match_length)
    return RatingRule(variant + MONEY_POOL_SUFFIX, "game", 1)


def is_rated(seats: tuple[int | None, int | None], practice: bool) -> bool:
    """Whether a two-player game is rated at all (docs/ratings.md): only between two people
    (``seats``: their user ids, None for the bot), and never a practice game, whose player
    may have had the bot's hints."""
    return None not in seats and not practice


def rated_outcomes(match: Match) -> list[int]:
    """The winners (players 0/1) of what ``match`` has had rated so far under its rule, in
    order: the match's winner once it is won, or each game's winner in money play. A server
    rates the ones it has not stored yet (one per finished match, or per finished game)."""
    rule = rating_rule(match.settings)
    if rule.per == "match":
        winner = match.winner if match.over else None
        return [] if winner is None else [winner]
    return [
        g.result.winner for g in match.games if g.result is not None and g.result.winner is not None
    ]
