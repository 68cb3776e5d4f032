"""The host of a chouette table or a consultation game: the core's
:class:`~nardy.core.chouette.Chouette` or :class:`~nardy.core.team.Consultation` instead of
a two-seat match.

Each person acts under their name at the table (``u`` and their user id): the box and the
captain for their sides, every team member for their votes and their own answers to the
box's double, every consultation member for their proposals. The core decides who may do
what, and its refusal (with its code) is the answer to anything else.

A consultation member's proposal reaches only their own side; the others hear that a
proposal was made, not what it was. Every game's dice are fair dice committed before it
starts (:mod:`nardy.server.gamedice`); the lot that orders a chouette has its own, revealed
at once. Each person's own result at the table is kept with their seat, so that it is in
their history. Tables are not rated, have no clock, no client seeds and no rematch.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from nardy.core.actions import Action, Leave, Player, Roll, Vote
from nardy.core.chouette import BOX, TEAM, Chouette
from nardy.core.events import Event
from nardy.core.fair_dice import FairDice
from nardy.core.settings import Settings
from nardy.core.team import Consultation
from nardy.server import botplay, gamedice, roomview
from nardy.server.games import GameKind, GameStatus
from nardy.server.http import off_loop
from nardy.server.lobby.tables import Seating, bot_names, free_seats
from nardy.server.room.host import Host, Stored, committed_of, fresh
from nardy.server.room.ratings import TableResults
from nardy.server.store import checkpoints
from nardy.server.store.store import GameRow, Store, TableMember, member_name

Table = Chouette | Consultation
BETWEEN_GAMES_S = 5.0
"""The least pause before a bot starts a chouette's next game."""
VOTE_WAIT_PACES = 3
"""A bot captain waits this many times its pace (the table's bot delay) for the team's votes
on doubling before it rolls, while a person on the team may still vote: 3 s at a person's
pace."""


def _fair(dice: object) -> FairDice:
    assert isinstance(dice, FairDice), "a server game rolls fair dice"
    return dice


class TableHost(Host):
    """A chouette table or a consultation game and the people at it."""

    def __init__(self, store: Store, row: GameRow) -> None:
        super().__init__(store, row)
        self.kind = row.kind
        self.table: Table | None = None
        self.lot: FairDice | None = None  # the dice that drew a chouette's order of play
        self.members_at: list[TableMember] = []
        self.people: dict[str, dict[str, Any]] = {}
        self.results = TableResults(store, row.id)
        self.proposals = roomview.Proposals()
        """A consultation's latest proposals of each side (the core keeps them all)."""

    @property
    def held(self) -> Table | None:
        return self.table

    @property
    def started(self) -> bool:
        return self.table is not None

    @property
    def over(self) -> bool:
        """A consultation is over with its match; a chouette goes on while players stay."""
        return isinstance(self.table, Consultation) and self.table.match.over

    def seat_of(self, row: GameRow, user_id: int) -> Player | None:
        """The person's name at the table while they sit at it; None for a spectator (or a
        member who has left)."""
        name = member_name(user_id)
        if isinstance(self.table, Chouette):
            return name if name in self.table.players else None
        if isinstance(self.table, Consultation):
            return name if self.table.side_of(name) is not None else None
        return name if any(m.name == name and m.seated for m in self.members_at) else None

    def side_of(self, name: Player) -> int | None:
        """The side a participant plays on the board now (0 the box or consultation side 0,
        1 the team or side 1)."""
        if isinstance(self.table, Chouette):
            if name == self.table.box:
                return BOX
            return TEAM if name in self.table.line else None
        if isinstance(self.table, Consultation) and isinstance(name, str):
            return self.table.side_of(name)
        return None

    def state(self, row: GameRow) -> roomview.RoomState:
        """The table's seats and people, who is box, captain and in the game, votes, answers
        and scores, the board of the game under way and who must act (each person by their
        name at the table); a consultation's recent proposals, each side's own for its eyes
        alone."""
        table = self.table
        public: dict[str, Any] = {
            "board": None,
            "score": None,
            "length": self.length(row),
            "seating": dict(row.seating or {}),
            "people": self.people,
            "free": free_seats(row, self.members_at),
            "table": None,
            "dice": None,
        }
        if table is None:
            return roomview.RoomState(public)
        public["board"], actors = roomview.board_of(table)
        proposals: roomview.Shown = ([], [])
        if isinstance(table, Chouette):
            public["table"] = _chouette_view(table)
            public["dice"] = self._chouette_dice(public=True)
            sides = public["table"]["side"]
        else:
            sides = {m: s for s in (0, 1) for m in table.sides[s]}
            public["table"] = {
                "sides": [list(table.sides[0]), list(table.sides[1])],
                "captains": [table.captain(0), table.captain(1)],
                "side": sides,
            }
            public["score"] = list(table.match.score)
            public["dice"] = gamedice.public(table.match)
            proposals = self.proposals.shown(len(table.match.games) - 1)
        return roomview.RoomState(public, actors, sides, proposals)

    def length(self, row: GameRow) -> int:
        """The table's match length in points (0: money play, as a chouette always is)."""
        if isinstance(self.table, Consultation):
            return self.table.match.length
        if isinstance(self.table, Chouette):
            return self.table.settings.match_length
        return super().length(row)

    def apply(self, action: Action) -> tuple[Event, ...]:
        table = self.table
        assert table is not None
        events = table.apply(action)
        if isinstance(table, Consultation):
            gamedice.prepare_next(table.match, self.game_id)
            self.proposals = self.proposals.after(table, events)
        elif table.games and table.games[-1].game.dice_source is table.dice:
            # a game started with the prepared dice: prepare (and so commit to) the next's
            table.dice = FairDice.new(f"{self.game_id}.{len(table.games) + 1}")
        return events

    def stored(self) -> Stored:
        table = self.table
        assert table is not None
        result = None
        if isinstance(table, Consultation):
            dice = gamedice.dice_state(table.match)
            if table.match.over:
                result = {"winner": table.match.winner, "score": list(table.match.score)}
        else:
            dice = self._chouette_dice(public=False)
        return table.snapshot(), dice, result

    def _chouette_dice(self, *, public: bool) -> dict[str, Any]:
        """A chouette's dice: the lot's, each game's and the next game's; secret as stored,
        or what everybody sees (the lot revealed, the game under way's commitment)."""
        table = self.table
        assert isinstance(table, Chouette) and self.lot is not None
        if not public:
            return {
                "lot": self.lot.state(),
                "games": [_fair(r.game.dice_source).state() for r in table.games],
                "next": _fair(table.dice).state(),
            }
        last = table.games[-1].game if table.games else None
        return {
            "lot": self.lot.block(reveal=True),
            "game": None if last is None else _fair(last.dice_source).block(reveal=last.over),
            "next": _fair(table.dice).block(reveal=False),
        }

    def take_dice(self, dice: Mapping[str, Any]) -> None:
        table = self.table
        assert table is not None
        if isinstance(table, Consultation):
            gamedice.take_next(table.match, dice)
            return
        mine = self._chouette_dice(public=False)
        if (mine["lot"], mine["games"]) != (dice["lot"], list(dice["games"])):
            raise ValueError("the table's dice are not those of the checkpoint")
        table.dice = FairDice.from_state(dice["next"])

    def rebuild(self) -> None:
        """Back to the checkpoint and the actions since, replayed (the time played goes on)."""
        assert self.committed is not None
        old = self.table
        self.table, self.lot = checkpoints.table_of(self.kind, self.committed)
        checkpoints.keep_time(old, self.table)
        self._restored()

    def _restored(self) -> None:
        """The table was restored from its snapshot: its recent proposals from the core."""
        if isinstance(self.table, Consultation):
            self.proposals = roomview.Proposals.of(self.table)

    def behind(self, row: GameRow, known: GameRow) -> bool:
        """Always: people sit down at a table and leave it without the game's row changing,
        so whoever enters the room gets its seats as the database has them."""
        return True

    async def load(self, row: GameRow, known: GameRow | None) -> None:
        """The table's people as the database has them, and its game object restored again
        when it is not at the row's action (committed elsewhere, or news of it could not be
        applied here) or the table started or ended elsewhere."""
        at = None if self.committed is None else self.committed.at
        if known is not None and (row.seq, row.status) != (at, known.status):
            self.table = None
        members = await off_loop(self.store.members, row.id)
        names = await off_loop(self.store.usernames, [m.user_id for m in members])
        people: dict[str, dict[str, Any]] = {
            m.name: {"id": m.user_id, "username": names.get(m.user_id), "seated": m.seated}
            for m in members
        }
        bots = bot_names(Seating.of(row).bots)
        people.update({name: {"bot": row.bot} for name in bots})
        self.members_at, self.people = members, people
        self.results.load(members)
        if self.table is None and row.status in (GameStatus.PLAYING, GameStatus.FINISHED):
            committed = await committed_of(self.store, row)
            if committed is not None:
                self.table, self.lot = checkpoints.table_of(self.kind, committed)
                self.committed = committed
            else:
                self.table, self.lot = await _new_table(self.store, row, members, bots)
                self.committed = fresh(self.stored())
            self._restored()

    def bot_players(self, row: GameRow) -> list[Player]:
        return [name for name, who in self.people.items() if "bot" in who]

    def bot_waits(self, player: Player) -> bool:
        if self.table is None or self.over:
            return False
        kinds = self.table.awaiting(moves=False).kinds(player)
        return any(kind != "propose" for kind in kinds)

    def bot_delay(self, row: GameRow, player: Player) -> float:
        """A bot starts a chouette's next game only after a pause, in which people may
        leave or sit down (RULES.md 1.7: only between games); a bot captain waits for the
        votes of the people on its team before it rolls."""
        delay = super().bot_delay(row, player)
        table = self.table
        if isinstance(table, Chouette) and table.games and table.current is None:
            return max(delay, BETWEEN_GAMES_S)
        if isinstance(table, Chouette) and self._votes_awaited(table, player):
            return VOTE_WAIT_PACES * delay
        return delay

    def _votes_awaited(self, chouette: Chouette, player: Player) -> bool:
        """Whether ``player`` is the captain about to roll while a person on the team may
        still vote to double."""
        waiting = chouette.awaiting(moves=False)
        if player != chouette.captain or Roll.kind not in waiting.kinds(player):
            return False
        return any(
            who != player and "bot" not in self.people.get(str(who), {}) and Vote.kind in kinds
            for who, kinds in waiting.actors
        )

    def bot_job(self, row: GameRow, player: Player) -> Callable[[], Action | None]:
        assert self.committed is not None and row.bot is not None
        assert isinstance(player, str)
        # the worker restores the table from what was committed: no snapshot here
        return functools.partial(botplay.decide_at_table, row.kind, self.committed, player, row.bot)

    async def settle(self, row: GameRow) -> None:
        """Each person's score at the table kept with their seat."""
        table = self.table
        if table is None:
            return
        scores: dict[str, int] = {}
        if isinstance(table, Chouette):
            scores = dict(table.scores)
        else:
            score = table.match.score
            for side in (0, 1):
                for member in table.sides[side]:
                    scores[member] = score[side] - score[1 - side]
        await self.results.settle(scores, self.members_at)

    async def acted(self, row: GameRow, seat: Player, action: Action) -> bool:
        """A person who left a chouette becomes a spectator."""
        if not (isinstance(self.table, Chouette) and isinstance(action, Leave)):
            return False
        user_id = next((m.user_id for m in self.members_at if m.name == seat), None)
        if user_id is None:
            return False
        await off_loop(self.store.unseat_member, row.id, user_id)
        return True


def _chouette_view(chouette: Chouette) -> dict[str, Any]:
    """What everybody sees of a chouette besides the board: the box, the captain and the
    team line, who is still in the game and who passed, the votes and answers under way,
    each player's running score and the last game's settlement; how the team's last vote on
    doubling ended, while the game it was in goes on."""
    current = chouette.current
    last_vote = None if current is None else chouette.last_vote
    last = chouette.games[-1] if chouette.games else None
    return {
        "box": chouette.box,
        "captain": chouette.captain,
        "line": list(chouette.line),
        "in-game": None if current is None else list(current.in_game),
        "passed": {} if current is None else dict(current.passed),
        "votes": sorted(chouette.votes),
        "last-vote": None if last_vote is None else last_vote.to_dict(),
        "answers": chouette.answers,
        "scores": chouette.scores,
        "games": len(chouette.games),
        "settled": None if last is None or current is not None else dict(last.settlements),
        "side": {name: BOX if name == chouette.box else TEAM for name in chouette.players},
    }


async def _new_table(
    store: Store, row: GameRow, members: list[TableMember], bots: list[str]
) -> tuple[Table, FairDice | None]:
    """A table's game object as it starts: the dice committed (and stored) first, so that a
    restart before the first action draws the same lot and deals the same dice."""
    settings = Settings.from_dict(dict(row.settings))
    seated = [m for m in members if m.seated]
    if row.kind == GameKind.CONSULTATION:
        sides = tuple([m.name for m in seated if m.side == s] for s in (0, 1))
        consultation = Consultation((sides[0], sides[1] or bots), settings)
        match = consultation.match
        dice = row.dice
        if dice is None:
            # Of two processes starting the table at once, both deal from the dice kept
            # first (Store.first_dice).
            match.dice = gamedice.first_dice(row.id)
            dice = await off_loop(store.first_dice, row.id, gamedice.dice_state(match))
        match.dice = FairDice.from_state(dice["next"])
        return consultation, None
    dice = row.dice
    if dice is None:
        dice = {
            "lot": FairDice.new(f"{row.id}.lot").state(),
            "games": [],
            "next": gamedice.first_dice(row.id).state(),
        }
        dice = await off_loop(store.first_dice, row.id, dice)
    lot = FairDice.from_state(dice["lot"])
    chouette = Chouette([*(m.name for m in seated), *bots], settings, lot)
    chouette.dice = FairDice.from_state(dice["next"])
    return chouette, lot
