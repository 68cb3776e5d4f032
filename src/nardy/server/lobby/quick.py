"""Quick pairing ("Play now"): a variant, a length and a clock, and the server pairs the
player with someone waiting for the same game whose rating is near, the range widening while
either waits, as Backgammon Galaxy pairs. The waiting player's seek is a quick one (not
listed with the manual seeks); the player's client asks again every few seconds, which keeps
the seek alive (a closed browser's seek is withdrawn after the seek grace period) and
pairs it once the range has widened enough.

Two waiting players asking at the same moment cannot both take each other's seek: a player
withdraws their own seek before taking another's (a seek already taken is their game).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from nardy.core.settings import Settings
from nardy.server.games import GameStatus
from nardy.server.lobby.matches import LobbyError, Repeated, match_wanted, new_game_id, once
from nardy.server.ratings import Rating, rating_rule
from nardy.server.store.store import ConflictError, GameRow, Store, User, now

RANGE_START = 100.0
"""How far apart two ratings may be when neither player has waited."""
RANGE_STEP = 100.0
"""How much the range widens ..."""
RANGE_EVERY = 5.0
"""... every so many seconds a player waits."""


def rating_range(waited: float) -> float:
    """How far from one's rating an opponent may be after waiting ``waited`` seconds:
    ±100, widening by 100 every 5 s."""
    return RANGE_START + RANGE_STEP * int(max(0.0, waited) // RANGE_EVERY)


@dataclass(frozen=True, slots=True)
class Wanted:
    """The game a player asks for: its settings and clock (its stored form; None: none)."""

    settings: Settings
    clock: Mapping[str, Any] | None

    def fits(self, game: GameRow) -> bool:
        """Whether a waiting seek is this very game."""
        clock = None if game.clock is None else dict(game.clock)
        return dict(game.settings) == self.settings.to_dict() and clock == self.clock


@dataclass(frozen=True, slots=True)
class Answer:
    """What "Play now" found: a game under way (paired) or the player's own seek, waiting,
    with the rating range it pairs within now; ``withdrawn`` the seeks given up meanwhile
    (their rooms hear it)."""

    game: GameRow
    range: float
    withdrawn: tuple[GameRow, ...] = ()


def wanted_from(body: Mapping[str, Any]) -> Wanted:
    """The game a request ``{"settings": {...}, "clock": CLOCK, "seek": ID}`` asks for,
    checked as creating a seek checks it."""
    unknown = sorted(set(body) - {"settings", "clock", "seek"})
    if unknown:
        raise LobbyError(400, "malformed", f"unknown field(s): {', '.join(unknown)}")
    return Wanted(*match_wanted(body))


class QuickPairing:
    """Pairing players who press "Play now", over the store (shared by every process)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def play_now(
        self, user: User, body: Mapping[str, Any], request_key: str | None = None
    ) -> Answer:
        """Pair ``user`` with the nearest-rated player waiting for the same game, within
        the range both have waited for; else keep (or make) the user's own quick seek.
        ``body["seek"]`` names the seek an earlier answer gave (asking again); a request
        repeated with the same ``request_key`` finds the seek the first one made."""
        wanted = wanted_from(body)
        mine = self._mine(user, body.get("seek"), request_key)
        if mine is not None and mine.status == GameStatus.PLAYING:
            return Answer(mine, 0.0)  # someone took this seek: the game is on
        at = now()
        waited = 0.0 if mine is None else _seconds(at, mine.created_at)
        if mine is not None and not wanted.fits(mine):  # asks for another game now
            return self._wait(user, wanted, None, self._withdraw(user, mine))
        pool = rating_rule(wanted.settings)
        rating = self._rating(user.id, pool.pool)
        near = []
        for game in self.store.quick_seeks():
            if game.creator_id == user.id or not wanted.fits(game):
                continue
            gap = abs(self._rating(game.creator_id, pool.pool) - rating)
            if gap <= max(rating_range(waited), rating_range(_seconds(at, game.created_at))):
                near.append((gap, game.created_at, game))
        withdrawn: tuple[GameRow, ...] = ()
        if near and mine is not None:
            # Withdraw one's own seek first: of two players taking each other's at once,
            # neither gets two games (the one whose seek was taken is paired already).
            try:
                withdrawn = (self.store.cancel_game(mine.id, user.id),)
            except ConflictError:
                taken = self.store.game(mine.id)
                assert taken is not None
                return Answer(taken, 0.0)
            mine = None
        for _, _, game in sorted(near, key=lambda n: (n[0], n[1])):
            try:
                return Answer(self.store.take_seat(game.id, 1, user.id), 0.0, withdrawn)
            except ConflictError:
                continue  # someone else paired with them first
        if mine is not None:
            self.store.touch_seeks(user.id)
            return Answer(mine, rating_range(waited))
        return self._wait(user, wanted, None if withdrawn else request_key, withdrawn)

    def _mine(self, user: User, seek: object, request_key: str | None) -> GameRow | None:
        """The user's quick seek this request continues (named, or made by the same
        request), unless it was withdrawn (or expired) since."""
        if seek is not None and not isinstance(seek, str):
            raise LobbyError(400, "malformed", "seek is the id of your quick seek")
        game = None
        if isinstance(seek, str) and len(seek) <= 32:
            game = self.store.game(seek)
        if game is None and request_key is not None:
            game = self.store.game_by_request(user.id, request_key)
        if game is None or not game.quick or game.creator_id != user.id:
            return None
        return game if game.status in (GameStatus.OPEN, GameStatus.PLAYING) else None

    def _rating(self, user_id: int, pool: str) -> float:
        return self.store.ratings_of(user_id).get(pool, Rating()).value

    def _withdraw(self, user: User, game: GameRow) -> tuple[GameRow, ...]:
        try:
            return (self.store.cancel_game(game.id, user.id),)
        except ConflictError:
            return ()

    def _wait(
        self,
        user: User,
        wanted: Wanted,
        request_key: str | None,
        withdrawn: tuple[GameRow, ...],
    ) -> Answer:
        """A new quick seek of the user's (their other quick seeks withdrawn: one at a
        time)."""
        others: tuple[GameRow, ...] = ()
        for seek in self.store.quick_seeks():
            if seek.creator_id == user.id:
                others += self._withdraw(user, seek)
        made = once(
            self.store,
            user,
            request_key,
            lambda key: self.store.create_game(
                new_game_id(),
                wanted.settings.to_dict(),
                user.id,
                (user.id, None),
                status=GameStatus.OPEN,
                private=False,
                clock=wanted.clock,
                quick=True,
                request_key=key,
            ),
        )
        game = made.game if isinstance(made, Repeated) else made
        return Answer(game, rating_range(0.0), withdrawn + others)


def _seconds(at: datetime.datetime, since: datetime.datetime) -> float:
    return (at - since).total_seconds()
