"""The room of a chouette table or a consultation game: a :class:`~nardy.server.rooms.Room`
whose game object is the core's :class:`~nardy.core.chouette.Chouette` or
:class:`~nardy.core.team.Consultation` instead of a two-seat match.

Each person acts under their name at the table (``u`` and their user id): the box and the
captain for their sides, every team member for their votes and their own answers to the
box's double, every consultation member for their proposals. The core decides who may do
what, and its refusal (with its code) is the answer to anything else. Everything else is the
Room's: each accepted action committed before it is broadcast, spectators, reconnection,
bots thinking in the process pool (:func:`nardy.server.botplay.decide_at_table`).

A consultation member's proposal reaches only their own side; the others hear that a
proposal was made, not what it was. Every game's dice are fair dice committed before it
starts (:mod:`nardy.server.gamedice`); the lot that orders a chouette has its own, revealed
at once. Each person's own result at the table is kept with their seat, so that it is in
their history (:meth:`nardy.server.store.Store.settle_members`). Tables are not rated.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Mapping
from typing import Any

from nardy.core.actions import Action, Join, Leave, Player
from nardy.core.chouette import BOX, TEAM, Chouette
from nardy.core.events import Event
from nardy.core.fair_dice import FairDice
from nardy.core.settings import Settings
from nardy.core.team import Consultation
from nardy.server import botplay, gamedice, protocol, roomview
from nardy.server.http import off_loop
from nardy.server.rooms import Room, Rooms
from nardy.server.store import GameRow, Store, TableMember, User, member_name
from nardy.server.table_lobby import Seating, bot_names, free_seats

Table = Chouette | Consultation
BETWEEN_GAMES_S = 5.0
"""The least pause before a bot starts a chouette's next game."""


def _fair(dice: object) -> FairDice:
    assert isinstance(dice, FairDice), "a server game rolls fair dice"
    return dice


class TableRoom(Room):
    """The live state of a chouette table or consultation game and the people in it."""

    def __init__(self, rooms: Rooms, row: GameRow) -> None:
        super().__init__(rooms, row, None)
        self.table: Table | None = None
        self.lot: FairDice | None = None  # the dice that drew a chouette's order of play
        self.members_at: list[TableMember] = []
        self.people: dict[str, dict[str, Any]] = {}
        self._settled: dict[str, int] = {}
        self.proposals = roomview.Proposals()
        """A consultation's latest proposals of each side (the core keeps them all)."""

    # -- what the table looks like --------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.table is not None

    @property
    def over(self) -> bool:
        """A consultation is over with its match; a chouette goes on while players stay."""
        return isinstance(self.table, Consultation) and self.table.match.over

    def seat_of(self, user_id: int) -> Player | None:
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

    def state(self) -> roomview.RoomState:
        """The room's state now as everybody sees it: the table's seats and people, who is
        box, captain and in the game, votes, answers and scores, the board of the game under
        way and who must act (each person by their name at the table); a consultation's
        recent proposals, each side's own for its eyes alone."""
        table = self.table
        public: dict[str, Any] = {
            **self._heading(),
            "board": None,
            "score": None,
            "length": self._length(),
            "seating": dict(self.row.seating or {}),
            "people": self.people,
            "free": free_seats(self.row, self.members_at),
            "table": None,
            "dice": None,
        }
        if table is None:
            return roomview.RoomState(self._timing(public))
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
        return roomview.RoomState(self._timing(public), actors, sides, proposals)

    def _length(self) -> int:
        """The table's match length in points (0: money play, as a chouette always is)."""
        if isinstance(self.table, Consultation):
            return self.table.match.length
        if isinstance(self.table, Chouette):
            return self.table.settings.match_length
        return super()._length()

    # -- the game object ------------------------------------------------------------------

    def _apply(self, action: Action) -> tuple[Event, ...]:
        table = self.table
        assert table is not None
        events = table.apply(action)
        if isinstance(table, Consultation):
            gamedice.prepare_next(table.match, self.id)
            self.proposals = self.proposals.after(table, events)
        elif table.games and table.games[-1].game.dice_source is table.dice:
            # a game started with the prepared dice: prepare (and so commit to) the next's
            table.dice = FairDice.new(f"{self.id}.{len(table.games) + 1}")
        return events

    def _stored(self) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
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

    def _rebuild(self) -> None:
        assert self.committed is not None and self.committed_dice is not None
        self.table, self.lot = _restore(self.row.kind, self.committed, self.committed_dice)
        self._restored()

    def _restored(self) -> None:
        """The table was restored from its snapshot: its recent proposals from the core."""
        if isinstance(self.table, Consultation):
            self.proposals = roomview.Proposals.of(self.table)

    async def contribute(
        self, seat: Player | None, seed: str, ref: protocol.Ref = None, sender: str | None = None
    ) -> protocol.Refused | None:
        """Client seeds are two players' (docs/dice.md): a table's dice are the server's."""
        return protocol.Refused(
            "not-allowed-by-settings", "client seeds are for two-player games", ref
        )

    async def rate(self) -> None:
        """Tables are not rated: keep each person's own result at the table instead."""
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
        people = {m.name for m in self.members_at}
        changed = {n: v for n, v in scores.items() if n in people and self._settled.get(n) != v}
        if changed:
            await off_loop(self.rooms.store.settle_members, self.id, changed)
            self._settled.update(changed)

    # -- people coming and going ----------------------------------------------------------

    async def act(
        self,
        seat: Player | None,
        action: Action,
        ref: protocol.Ref = None,
        *,
        named: bool = True,
        sender: str | None = None,
    ) -> protocol.Refused | None:
        """As the Room acts; a person who left a chouette becomes a spectator."""
        refused = await super().act(seat, action, ref, named=named, sender=sender)
        leaving = isinstance(self.table, Chouette) and isinstance(action, Leave)
        if refused is None and leaving:
            user_id = next((m.user_id for m in self.members_at if m.name == seat), None)
            if user_id is not None:
                await off_loop(self.rooms.store.unseat_member, self.id, user_id)
                await self.refresh()
        return refused

    async def seat(self, user: User) -> protocol.Refused | None:
        """A person sits down at a chouette under way: at the end of the team line, between
        games only (the core refuses otherwise, and nothing changes)."""
        name = member_name(user.id)
        refused = await self.act(name, Join(name))
        if refused is None:
            await off_loop(self.rooms.store.add_member, self.id, user.id, None, False)
            await self.refresh()
        return refused

    async def refresh(self) -> None:
        """Someone sat down or left, or the table filled and starts: every process holding
        the room takes in the table's seats as the database has them now and tells its
        sockets (through the bus, as every news of the room)."""
        await self._publish({"kind": "reload"})
        self.schedule_bot()  # where the bus failed, this process has taken the news itself

    def _behind(self, row: GameRow) -> bool:
        """Always: people sit down at a table and leave it without the game's row changing,
        so whoever enters the room gets its seats as the database has them."""
        return True

    async def _reload(self, row: GameRow | None = None, *, chat: bool = False) -> None:
        """The table as the database has it (the lock held): its people, and its game
        object restored again when an action was committed or the table started or ended
        elsewhere."""
        if row is None:
            row = await off_loop(self.rooms.store.game, self.id)
            if row is None:
                return
        if (row.seq, row.status) != (self.seq, self.row.status):
            self.table = None
        await _load(self, row)
        for member in self.members:
            if member.user_id is not None:
                member.seat = self.seat_of(member.user_id)
        if chat:
            await self.rooms.load_chat(self)

    # -- bots -----------------------------------------------------------------------------

    def _bots(self) -> list[str]:
        return [name for name, who in self.people.items() if "bot" in who]

    def _bot_waits(self, player: Player) -> bool:
        if self.table is None or self.over:
            return False
        kinds = self.table.awaiting(moves=False).kinds(player)
        return any(kind != "propose" for kind in kinds)

    def _bot_delay(self, player: Player) -> float:
        """A bot starts a chouette's next game only after a pause, in which people may
        leave or sit down (RULES.md 1.7: only between games)."""
        delay = super()._bot_delay(player)
        table = self.table
        if isinstance(table, Chouette) and table.games and table.current is None:
            return max(delay, BETWEEN_GAMES_S)
        return delay

    def _bot_job(self, player: Player) -> Callable[[], Action | None]:
        assert self.committed is not None and self.row.bot is not None
        assert isinstance(player, str)
        return functools.partial(
            botplay.decide_at_table, self.row.kind, self.committed, player, self.row.bot
        )

    def schedule_bot(self) -> None:
        """Let the first bot the table waits for act after its delay (a bot that let its
        decision pass is asked again once the table moves on)."""
        if self._bot_task is not None and not self._bot_task.done():
            return
        for name in self._bots():
            if self.resting.get(name) != self.seq and self._bot_waits(name):
                self._bot_task = asyncio.create_task(self._bot_turn(name))
                return


def _chouette_view(chouette: Chouette) -> dict[str, Any]:
    """What everybody sees of a chouette besides the board: the box, the captain and the
    team line, who is still in the game and who passed, the votes and answers under way,
    each player's running score and the last game's settlement."""
    current = chouette.current
    last = chouette.games[-1] if chouette.games else None
    return {
        "box": chouette.box,
        "captain": chouette.captain,
        "line": list(chouette.line),
        "in-game": None if current is None else list(current.in_game),
        "passed": {} if current is None else dict(current.passed),
        "votes": sorted(chouette.votes),
        "answers": chouette.answers,
        "scores": chouette.scores,
        "games": len(chouette.games),
        "settled": None if last is None or current is not None else dict(last.settlements),
        "side": {name: BOX if name == chouette.box else TEAM for name in chouette.players},
    }


def _restore(
    kind: str, snapshot: Mapping[str, Any], dice: Mapping[str, Any]
) -> tuple[Table, FairDice | None]:
    """A table's game object from its snapshot, each game with its dice as stored."""
    if kind == "consultation":
        restored = Consultation.restore(dict(snapshot), FairDice.from_state(dice["next"]))
        restored.match = gamedice.restore(dict(snapshot["match"]), dice)
        return restored, None
    chouette = Chouette.restore(dict(snapshot), FairDice.from_state(dice["next"]))
    if len(dice["games"]) != len(chouette.games):
        raise ValueError("the stored dice do not match the games of the snapshot")
    for record, state in zip(chouette.games, dice["games"], strict=True):
        record.game.dice_source = FairDice.from_state(state)
    return chouette, FairDice.from_state(dice["lot"])


async def _new_table(
    store: Store, row: GameRow, members: list[TableMember], bots: list[str]
) -> tuple[Table, FairDice | None]:
    """A table's game object as it starts: the dice committed (and stored) first, so that a
    restart before the first action draws the same lot and deals the same dice."""
    settings = Settings.from_dict(dict(row.settings))
    seated = [m for m in members if m.seated]
    if row.kind == "consultation":
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


async def _load(room: TableRoom, row: GameRow) -> None:
    """Fill a table room from the database: its people, and its game object once started."""
    store = room.rooms.store
    members = await off_loop(store.members, row.id)
    names = await off_loop(store.usernames, [m.user_id for m in members])
    people: dict[str, dict[str, Any]] = {
        m.name: {"id": m.user_id, "username": names.get(m.user_id), "seated": m.seated}
        for m in members
    }
    bots = bot_names(Seating.of(row).bots)
    people.update({name: {"bot": row.bot} for name in bots})
    room.row, room.members_at, room.people = row, members, people
    room._settled = {m.name: m.score for m in members}
    if room.table is None and row.status in ("playing", "finished"):
        if row.snapshot is not None and row.dice is not None:
            room.table, room.lot = _restore(row.kind, row.snapshot, row.dice)
        else:
            room.table, room.lot = await _new_table(store, row, members, bots)
        room.committed = room.table.snapshot()
        room.committed_dice = room._stored()[1]
        room._restored()
        room.seq = row.seq


async def build_table_room(rooms: Rooms, row: GameRow) -> TableRoom:
    """The room of a chouette table or consultation game, restored from the database."""
    room = TableRoom(rooms, row)
    await _load(room, row)
    await rooms.load_chat(room)
    return room
