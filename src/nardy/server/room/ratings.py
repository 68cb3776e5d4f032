"""What a game decides for people's records, kept once per outcome: a match's ratings
(docs/ratings.md), a table's result per person (tables are not rated)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

from nardy.core.match import Match
from nardy.server.http import off_loop
from nardy.server.ratings import is_rated, rated_outcomes, rating_rule
from nardy.server.store.store import GameRow, Store, TableMember

log = logging.getLogger(__name__)


class MatchRatings:
    """The ratings of one match: each outcome rated once, in order, by whichever process
    commits it (a crash in between: the room rates it when it loads)."""

    def __init__(self, store: Store, game_id: str) -> None:
        self.store = store
        self.game_id = game_id
        self.rated = 0
        """The outcomes of this game already rated."""

    async def load(self) -> None:
        self.rated = await off_loop(self.store.rated_outcomes, self.game_id)

    async def rate(self, match: Match, row: GameRow) -> None:
        """Rate what the match has decided and is not rated yet: the match once it is won,
        or each game won in money play. Games against the bot and practice games are not
        rated (:func:`~nardy.server.ratings.is_rated`)."""
        outcomes = rated_outcomes(match)
        if not is_rated(row.seats, row.practice):
            self.rated = len(outcomes)
            return
        first, second = row.seats
        assert first is not None and second is not None  # two people: is_rated
        rule = rating_rule(match.settings)
        for index in range(self.rated, len(outcomes)):
            winner, loser = (first, second) if outcomes[index] == 0 else (second, first)
            try:
                await off_loop(
                    self.store.rate, self.game_id, index, rule.pool, rule.length, winner, loser
                )
            except Exception:  # the game stands; the rating is caught up when the room loads
                log.exception("game %s: outcome %d could not be rated", self.game_id, index)
                return
            self.rated = index + 1


class TableResults:
    """Each person's own result at a table, kept with their seat so that it is in their
    history (:meth:`nardy.server.store.Store.settle_members`)."""

    def __init__(self, store: Store, game_id: str) -> None:
        self.store = store
        self.game_id = game_id
        self._settled: dict[str, int] = {}

    def load(self, members: Iterable[TableMember]) -> None:
        self._settled = {m.name: m.score for m in members}

    async def settle(self, scores: Mapping[str, int], members: Iterable[TableMember]) -> None:
        """Keep the scores of the people at the table that changed."""
        people = {m.name for m in members}
        changed = {n: v for n, v in scores.items() if n in people and self._settled.get(n) != v}
        if changed:
            await off_loop(self.store.settle_members, self.game_id, changed)
            self._settled.update(changed)
