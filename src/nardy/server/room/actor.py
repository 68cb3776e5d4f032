"""One authoritative room per game, a small serialised actor: under its lock it applies an
action to its :class:`~nardy.server.room.host.Host`, commits it to the database before
anyone hears of it, tells this process's sockets at once, and hands the news to the
process's publisher (:mod:`nardy.server.room.publisher`) for the other processes, which
never holds the room up. Its collaborators react to what was committed: the clock keeper,
presence and claims, the rematch, the bot driver, the chat desk, the ratings (the host's),
the hints of a practice game.

Several server processes may hold the same room (its players' sockets on different
processes). The database serialises the game: :meth:`Store.append_action` commits action
``seq + 1`` only while the game is at ``seq``, so of two processes racing (two bots, or a
player and a bot) one commits and the other reloads. A process follows the game's channel
and tells its own sockets what the others committed, in the order of the actions. It
applies each action from its news (checked against the events the news says, with the
clock from the news and, at a checkpoint, the stored one: it holds the next game's dice,
drawn where the action was committed), and reads the game from the database again only
when it missed something or the news does not apply: a jump in ``seq``, a
:class:`~nardy.server.room.news.Gap`, news that gives other events here, a socket joining,
or (while the bus is down) the registry's poll of the game's row. So the bus carries news,
never the game: with Redis away the players of one process play on at full pace and the
others catch up from the database.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import Executor
from dataclasses import replace
from typing import Any, Protocol

from nardy.core.actions import Action, Forfeit, Join, Player, action_from_json
from nardy.core.errors import NardyError
from nardy.core.match import Match
from nardy.server import gamedice, protocol, roomview
from nardy.server.bus.bus import Gap as BusGap
from nardy.server.bus.bus import Subscription
from nardy.server.games import GameKind, GameStatus
from nardy.server.http import off_loop
from nardy.server.room import news as n
from nardy.server.room.bot_driver import BotDriver
from nardy.server.room.chat_desk import ChatDesk
from nardy.server.room.clock_keeper import ClockKeeper
from nardy.server.room.hints import Hints
from nardy.server.room.host import Host
from nardy.server.room.member import GOING_AWAY, Member
from nardy.server.room.presence import Presence
from nardy.server.room.rematch import Rematch
from nardy.server.room.watchers import Watchers
from nardy.server.store import checkpoints
from nardy.server.store.checkpoints import Checkpoint
from nardy.server.store.commits import Commits
from nardy.server.store.store import (
    Append,
    ConflictError,
    GameRow,
    Store,
    User,
    member_name,
    now,
)

log = logging.getLogger(__name__)


class Registry(Protocol):
    """What a room needs of the process's rooms (:class:`nardy.server.room.registry.Rooms`)."""

    store: Store
    commits: Commits
    token: str
    grace: float

    def publish(self, game_id: str, news: n.News) -> None: ...

    def bot_pool(self) -> Executor: ...

    async def started(self, row: GameRow) -> None: ...


UNSTARTED_EXPIRY_S = 600.0
"""How long a two-player match being played may wait for its opening roll (a rematch nobody
starts, a game both players left before it began; no clock runs during the opening roll)
before the server withdraws it."""


class Room:
    """The live state of one game and the people watching it."""

    def __init__(self, rooms: Registry, row: GameRow, host: Host) -> None:
        self.rooms = rooms
        self.row = row
        self.host = host
        self.seq = row.seq
        self.delivered = row.seq
        """The last action this process's sockets have been told of (``seq`` may be ahead
        after a refused commit made the room read the game again)."""
        self.members: set[Member] = set()
        self.lock = asyncio.Lock()
        self.chat = ChatDesk(rooms.store, row.id)
        self.presence = Presence(rooms.grace)
        self.watchers = Watchers()
        self.rematches = Rematch()
        self.clock = ClockKeeper(self._time_is_up)
        self.clock.load(row, host.match)
        self.bots = BotDriver(host, lambda: self.row, lambda: self.seq, self.act, rooms.bot_pool)
        self.hints = Hints(self, rooms.store, rooms.bot_pool)
        self._follower: asyncio.Task[None] | None = None
        self._expiry: asyncio.Task[None] | None = None
        self._expire_unstarted()

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def over(self) -> bool:
        return self.host.over

    @property
    def started(self) -> bool:
        return self.host.started

    @property
    def match(self) -> Match | None:
        """The match of a two-seat game (None before it starts, and at a table)."""
        return self.host.match

    def seat_of(self, user_id: int) -> Player | None:
        """The seat this user plays here, or None for a spectator."""
        return self.host.seat_of(self.row, user_id)

    def state(self) -> roomview.RoomState:
        """The room's state now as everybody sees it (each viewer's own part is added by
        :meth:`~nardy.server.roomview.RoomState.seen_by`): which game at which action, its
        kind, status and settings, the host's part (who sits where, the board, the score,
        who may act, the dice's commitments), the clock, who is absent, how many are
        watching, the rematch."""
        now = time.time()
        part = self.host.state(self.row)
        public: dict[str, Any] = {
            "game": self.id,
            "seq": self.seq,
            "kind": self.row.kind,
            "status": "finished" if self.over else self.row.status,
            "settings": dict(self.row.settings),
            "practice": self.row.practice,
            "rules": self.host.rule_facts(self.row),
            **part.public,
            "clock": self.clock.view(now),
            "absent": self.presence.view(now),
            "spectators": self.watchers.count,
            "rematch": self.rematches.view(),
        }
        return replace(part, public=public)

    # -- people coming and going -----------------------------------------------------------

    async def join(self, member: Member) -> None:
        """Someone enters the room and gets the whole state, as the database has it: a
        process that missed news of the game (another process died before telling it)
        catches up first."""
        async with self.lock:
            row = await off_loop(self.rooms.store.game, self.id)
            if row is not None and self.host.behind(row, self.row):
                await self._reload(row)
            if member.user_id is not None:
                member.seat = self.seat_of(member.user_id)
            member.seen = self.seq
            seat = self.host.two_seat(member.seat)
            arrives = seat is not None and all(m.seat != member.seat for m in self.members)
            self.members.add(member)
            if seat is not None:  # a table's members are never absent
                self.presence.arrived.add(seat)
            changes = self._presence()
            changes += self._watching()
            history = self.chat.history(member.user_id, member.seat, self.over)
            muted = self.chat.muted(member.user_id)
            state = self.state().seen_by(member.seat)
            member.send(protocol.Welcome(self.id, member.seat, state, history, muted))
            for message in changes:
                for other in list(self.members - {member}):
                    other.send(message)
            if arrives and seat is not None:
                self.rooms.publish(self.id, n.Presence(self.rooms.token, seat, True))
        self.bots.schedule()

    def leave(self, member: Member) -> None:
        """Someone's socket closed."""
        self.members.discard(member)
        for message in self._presence() + self._watching():
            self.broadcast(message)
        seat = self.host.two_seat(member.seat)
        if seat is not None and all(m.seat != member.seat for m in self.members):
            # The other processes judge presence by their own sockets and this news.
            self.rooms.publish(self.id, n.Presence(self.rooms.token, seat, False))

    def _presence(self) -> list[protocol.ServerMessage]:
        """Who is absent and who came back (presence applies to a game between two people
        under way only)."""
        applies = self.host.match is not None and not self.over and None not in self.row.seats
        here = {s for m in self.members if (s := self.host.two_seat(m.seat)) is not None}
        return self.presence.changes(applies, here)

    def _watching(self) -> list[protocol.ServerMessage]:
        """How many watch now, where this process's spectators changed in number (told to
        the other processes too)."""
        if not self.watchers.counted(sum(1 for m in self.members if m.seat is None)):
            return []
        self.rooms.publish(self.id, n.Watching(self.rooms.token, self.watchers.here))
        return [protocol.Watching(self.watchers.count)]

    async def seat(self, user: User) -> protocol.Refused | None:
        """A person sits down at a chouette under way: at the end of the team line, between
        games only (the core refuses otherwise, and nothing changes)."""
        if self.host.kind is not GameKind.CHOUETTE:
            return protocol.Refused("wrong-phase", "only a chouette seats people mid-game")
        name = member_name(user.id)
        refused = await self.act(name, Join(name))
        if refused is None:
            await off_loop(self.rooms.store.add_member, self.id, user.id, None, False)
            await self.refresh()
        return refused

    async def refresh(self) -> None:
        """The game started, or someone sat down at its table or left it: every process
        holding the room reads the game's row again and tells its sockets."""
        async with self.lock:
            await self._announce(n.Reload(self.rooms.token, self.seq))
        self.bots.schedule()

    # -- the chat --------------------------------------------------------------------------

    async def say(
        self, member: Member, text: str, ref: protocol.Ref = None
    ) -> protocol.Refused | None:
        """A chat line from a member: stored, then heard by everyone in the room, on any
        process, who may hear it."""
        line = await self.chat.say(member, text, ref)
        if isinstance(line, protocol.Refused):
            return line
        async with self.lock:
            await self._announce(n.ChatLineSaid.of(self.rooms.token, line))
        return None

    async def mute(self, member: Member, muted: bool) -> None:
        """A member stops (or starts again) hearing the chat, in this room on every
        process and after a restart. Anonymous spectators have no mute to keep."""
        if member.user_id is None:
            return
        await self.chat.mute(member.user_id, muted)
        self.rooms.publish(self.id, n.Mute(self.rooms.token, member.user_id, muted))

    # -- actions ---------------------------------------------------------------------------

    async def act(
        self,
        seat: Player | None,
        action: Action,
        ref: protocol.Ref = None,
        *,
        named: bool = True,
        sender: str | None = None,
        at: int | None = None,
    ) -> protocol.Refused | None:
        """Apply a player's action: refused (and nothing changed) or committed and told.

        ``seat`` is the sender's seat (None for a spectator), ``sender`` their socket's
        :attr:`Member.key` (it hears ``ref`` with the events). The action's ``player`` is the
        sender's seat, put in here where the message named none (``named`` false); naming
        another seat is refused. ``at``, when given, is the action count the sender saw: an
        action meant for another moment (one sent twice) is refused with ``stale``."""
        if seat is None:
            return protocol.Refused("spectator", "spectators watch; they cannot act", ref)
        if named and action.player != seat:
            return protocol.Refused("not-your-seat", f"you play seat {seat}", ref)
        if isinstance(action, Forfeit):
            return protocol.Refused("referee-only", "the server declares forfeits; resign", ref)
        async with self.lock:
            if not self.started:
                return protocol.Refused("wrong-phase", "the game has not started", ref)
            if self.over:
                return protocol.Refused("game-over", "the game is over", ref)
            if self.row.status == GameStatus.CANCELLED:  # nobody rolled in time: it is gone
                return protocol.Refused("game-over", "the game was withdrawn unstarted", ref)
            if at is not None and at != self.seq:
                return protocol.Refused(
                    "stale", f"sent for action {at}; the game is at {self.seq}", ref
                )
            late = self.clock.flagged(self.over)
            if late is not None:  # the timer has not fired yet, but the time is up
                refused = await self._commit(Forfeit(late, "time"))
                if refused is None:
                    refused = protocol.Refused("game-over", "the time ran out", ref)
            else:
                refused = await self._commit(replace(action, player=seat), ref, sender)
                if refused is None and await self.host.acted(self.row, seat, action):
                    await self._announce(n.Reload(self.rooms.token, self.seq))
        self.bots.schedule()
        return refused

    async def _commit(
        self, parsed: Action, ref: protocol.Ref = None, sender: str | None = None
    ) -> protocol.Refused | None:
        """Apply an action (the lock held) and commit it with the game, the dice and the
        clock after it, then tell everyone; refused, or not stored, it changes nothing."""
        host = self.host
        try:
            events = host.apply(parsed)
        except NardyError as exc:
            reason = None if exc.reason is None else exc.reason.value
            details = tuple(exc.details.items())
            return protocol.Refused(exc.code.value, str(exc), ref, reason, details)
        except Exception:  # a bug in the core must not take the room down
            log.exception("game %s: the core failed on %r", self.id, parsed)
            host.rebuild()
            return protocol.Refused("internal-error", "the server could not apply this", ref)
        encoded_action = parsed.to_json()
        encoded_events = [e.to_json() for e in events]
        assert host.committed is not None
        checkpoint, result = None, None
        if host.committed.due(started=checkpoints.starts_a_game(events), over=self.over):
            snapshot, dice, result = host.stored()
            checkpoint = Checkpoint(snapshot, dice)
        clock = self.clock.after(host.match, events)
        try:
            await self.rooms.commits.append(
                Append(
                    self.id,
                    self.seq,
                    encoded_action,
                    encoded_events,
                    checkpoint,
                    result,
                    None if clock is None else clock.to_json(),
                )
            )
        except ConflictError:
            # Another process committed an action of this game first: this one did not
            # happen; the game as that process left it (whose news is on its way).
            await self._reload()
            self._schedule_clock()
            return protocol.Refused("busy", "the game moved on; look and try again", ref)
        except Exception:
            # Not committed: it did not happen. Back to the last committed state.
            log.exception("game %s: the action could not be stored", self.id)
            host.rebuild()
            return protocol.Refused("busy", "the action could not be stored; try again", ref)
        host.committed = host.committed.after(encoded_action, checkpoint)
        self.clock.state = clock
        self.seq += 1
        if result is not None:
            self.presence.absent.clear()
            row = await off_loop(self.rooms.store.game, self.id)  # its result and status
            if row is not None:
                self.row = row
        await host.settle(self.row)
        news = n.Events(
            self.rooms.token,
            self.seq,
            encoded_action,
            encoded_events,
            None if clock is None else clock.to_json(),
            checkpoint is not None,
        )
        await self._announce(news, ref, sender)
        return None

    def _schedule_clock(self) -> None:
        self.clock.schedule(self.seq, self.over)

    async def _time_is_up(self, seq: int) -> None:
        """The clock keeper's timer: the running player's reserve ran out at action
        ``seq``, unless someone moved in time (or another timer ended the game)."""
        async with self.lock:
            if self.seq != seq or self.over:
                return
            late = self.clock.flagged(self.over)
            if late is None:
                self._schedule_clock()
                return
            await self._commit(Forfeit(late, "time"))
        self.bots.schedule()

    # -- absence, rematch and seeds: a two-seat game's -------------------------------------

    def _two_seat(
        self, seat: Player | None, only: str, ref: protocol.Ref
    ) -> int | protocol.Refused:
        """The seat (0 or 1) of a player of a two-player game, or the refusal of what only
        such a player may do (``only`` says what): a spectator's, or a table's person's."""
        if seat is None:
            return protocol.Refused("spectator", "spectators watch; they cannot act", ref)
        mine = self.host.two_seat(seat)
        return protocol.Refused("wrong-phase", only, ref) if mine is None else mine

    async def claim(
        self, seat: Player | None, ref: protocol.Ref = None, sender: str | None = None
    ) -> protocol.Refused | None:
        """A player claims the game of an absent opponent whose grace period is over: the
        opponent forfeits (the match; in money play the game, and leaves the session)."""
        mine = self._two_seat(seat, "only a two-player game can be claimed", ref)
        if isinstance(mine, protocol.Refused):
            return mine
        async with self.lock:
            if self.host.match is None or self.over:
                return protocol.Refused("game-over", "no game is being played", ref)
            refused = self.presence.claim_refusal(mine, ref)
            if refused is None:
                refused = await self._commit(Forfeit(1 - mine, "absent"), ref, sender)
        self.bots.schedule()
        return refused

    async def rematch(
        self, seat: Player | None, ref: protocol.Ref = None
    ) -> protocol.Refused | None:
        """A player offers (or accepts) a rematch of the finished match; once every person
        seated has, the rematch starts and everyone in the room is sent to it."""
        mine = self._two_seat(seat, "only a two-player match has a rematch", ref)
        if isinstance(mine, protocol.Refused):
            return mine
        async with self.lock:
            if not self.over:
                return protocol.Refused("wrong-phase", "a rematch follows a finished match", ref)
            if self.rematches.game is not None:
                self.broadcast(protocol.Rematch(self.rematches.game))
                return None
            self.rematches.offers.add(mine)
            if not self.rematches.agreed(self.row):
                await self._announce(n.RematchOffered(self.rooms.token, mine))
                return None
            try:
                started = await self.rematches.start(self.row, self.rooms.store)
            except Exception:
                log.exception("game %s: the rematch could not be stored", self.id)
                self.rematches.offers.discard(mine)
                return protocol.Refused("busy", "the rematch could not be stored; try again", ref)
            await self._announce(n.RematchStarted(self.rooms.token, started.id))
        await self.rooms.started(started)
        return None

    async def contribute(
        self, seat: Player | None, seed: str, ref: protocol.Ref = None, sender: str | None = None
    ) -> protocol.Refused | None:
        """A player's own seed for the dice of the game under way (or of the first game),
        accepted before its first roll only; stored, then shown to everyone (the sending
        socket ``sender`` hears ``ref`` with the state). Client seeds are two players'
        (docs/dice.md): a table's dice are the server's."""
        if self.host.kind is not GameKind.MATCH:
            return protocol.Refused(
                "not-allowed-by-settings", "client seeds are for two-player games", ref
            )
        mine = self.host.two_seat(seat)
        if mine is None:
            return protocol.Refused("spectator", "spectators watch; they cannot act", ref)
        async with self.lock:
            match = self.host.match
            if match is None or self.over:
                return protocol.Refused("wrong-phase", "no game is waiting for its dice", ref)
            target = gamedice.seed_target(match)
            try:
                target.contribute(mine, seed)  # checks everything before it changes anything
            except NardyError as exc:
                return protocol.Refused(exc.code.value, str(exc), ref)
            # The seed changes what a restore needs, and no action records it: a checkpoint.
            checkpoint = Checkpoint(match.snapshot(), gamedice.dice_state(match))
            assert self.host.committed is not None
            try:
                await off_loop(self.rooms.store.set_checkpoint, self.id, self.seq, checkpoint)
            except Exception:
                log.exception("game %s: a client seed could not be stored", self.id)
                self.host.rebuild()
                return protocol.Refused("busy", "the seed could not be stored; try again", ref)
            self.host.committed = self.host.committed.checkpointed(checkpoint)
            await self._announce(n.Seeded(self.rooms.token, self.seq, mine, seed), ref, sender)
        return None

    # -- telling: this process's sockets now, the others through the publisher --------------

    def broadcast(self, message: protocol.ServerMessage | roomview.PerViewer) -> None:
        """Send a message to everyone in the room: the same text to all, or each viewer's
        own, encoded once per distinct viewer."""
        texts = (
            message if isinstance(message, roomview.PerViewer) else roomview.PerViewer.same(message)
        )
        for member in list(self.members):
            member.send_text(texts.text_for(member.seat, member.key))

    def _tell_events(self, texts: roomview.PerViewer, seq: int) -> None:
        """The events of action ``seq`` to those whose state does not include it yet, each
        as they may hear it (a proposal's text only to its side)."""
        for member in list(self.members):
            if member.seen < seq:
                member.send_text(texts.text_for(member.seat, member.key))
                member.seen = seq

    def _tell_state(self, ref: protocol.Ref = None, sender: str | None = None) -> None:
        """Everyone here gets the whole state as it is now, which includes every action, each
        their own (the socket ``sender`` with the ``ref`` of the message that caused it)."""
        self.delivered = self.seq
        for member in list(self.members):
            member.seen = self.seq
        self.broadcast(roomview.PerViewer.states(self.state(), ref, sender))

    async def _announce(
        self, news: n.News, ref: protocol.Ref = None, sender: str | None = None
    ) -> None:
        """Something was committed here (the lock held): this process's sockets hear it now
        (the socket ``sender`` with ``ref``), and the publisher takes it to the other
        processes afterwards (the sender's socket is here: its ``ref`` stays here too)."""
        await self._take(news, ref, sender)
        self.rooms.publish(self.id, news)

    def follow(self, subscription: Subscription) -> None:
        """Follow the game's channel: what the other processes commit reaches this one's
        sockets."""
        self._follower = asyncio.create_task(self._follow(subscription), name=f"room {self.id}")

    async def _follow(self, subscription: Subscription) -> None:
        async with subscription:
            async for delivery in subscription:
                if isinstance(delivery, BusGap):
                    news: n.News = n.Gap()
                else:
                    try:
                        news = n.parse(delivery.data)
                    except n.NewsError as exc:
                        log.warning("game %s: news dropped: %s", self.id, exc)
                        continue
                    if news.origin == self.rooms.token:
                        continue  # this process's own, told already
                try:
                    async with self.lock:
                        await self._take(news)
                except Exception:  # one bad message must not stop the room hearing the next
                    log.exception("game %s: news %r could not be taken", self.id, news)
                self.bots.schedule()

    async def _take(
        self, news: n.News, ref: protocol.Ref = None, sender: str | None = None
    ) -> None:
        """Pass news of the room to this process's sockets (the lock held): the events of
        each action once and in order, a chat line, a mute, presence, a rematch, a seed, or
        the game read again."""
        mine = news.origin == self.rooms.token
        match news:
            case n.Events(_, seq, action, events):
                if seq <= self.delivered:  # heard already (or included in a reload)
                    return
                # Committed elsewhere: applied here, unless news of an action was lost on
                # the way or this news does not apply; then the game is read again.
                if seq > self.delivered + 1 or (seq > self.seq and not await self._apply(news)):
                    await self._reload()
                    self._tell_state(ref, sender)
                    self._schedule_clock()
                    return
                self.delivered = seq
                state = self.state()
                self._tell_events(
                    roomview.PerViewer.events(seq, action, events, state, ref, sender), seq
                )
                self._schedule_clock()
            case n.ChatLineSaid(_, line_id, said):
                self.chat.heard(line_id, said, self.members, self.over)
            case n.Mute(_, user, muted):
                self.chat.chat.mute(user, muted)
            case n.Presence(origin, seat, here):
                if not mine and origin is not None:
                    self.presence.heard(origin, seat, here)
                    for message in self._presence():
                        self.broadcast(message)
            case n.Watching(origin, spectators):
                if not mine and origin is not None:
                    before = self.watchers.count
                    if self.watchers.heard(origin, spectators) and self.watchers.here:
                        self.rooms.publish(
                            self.id, n.Watching(self.rooms.token, self.watchers.here)
                        )
                    if self.watchers.count != before:
                        self.broadcast(protocol.Watching(self.watchers.count))
            case n.RematchOffered(_, seat):
                if self.rematches.game is None:
                    self.rematches.offers.add(seat)
                    self.broadcast(protocol.RematchOffered(seat))
            case n.RematchStarted(_, game):
                self.rematches.game = game
                self.broadcast(protocol.Rematch(game))
            case n.Seeded(_, seq) | n.Reload(_, seq):
                # Not an action: it never moves the numbering on. Where this process is not
                # at the sender's action, the news of the actions between brings it all.
                if seq != self.seq:
                    return
                if isinstance(news, n.Reload) or (not mine and not self._seeded(news)):
                    row = await off_loop(self.rooms.store.game, self.id)
                    if row is None or row.seq != self.seq:
                        return
                    await self._reload(row)
                self.broadcast(roomview.PerViewer.states(self.state(), ref, sender))
                self._schedule_clock()
            case n.Gap():
                await self._reload(chat=True)
                self._tell_state()
                self._schedule_clock()

    async def _apply(self, news: n.Events) -> bool:
        """Apply the action another process committed as action ``self.seq + 1`` (the lock
        held), leaving the room as reading the game from the database would: the game
        object, what is committed, the clock, and at a checkpoint the stored one with the
        game's row (its next game's dice, its status and result); where the game moved on
        before that was read, the game as it is then. False, the room left to be read
        again, where the news cannot be applied or does not give what it says."""
        host = self.host
        committed = host.committed
        checkpoint, row, moved_on = None, self.row, None
        try:
            if news.checkpoint is None or committed is None or not host.started:
                raise ValueError("news that says too little to apply, or no game yet")
            events = host.apply(action_from_json(news.action))
            if [event.to_json() for event in events] != news.events:
                raise ValueError("the action gives other events here")
            due = committed.due(started=checkpoints.starts_a_game(events), over=self.over)
            if due != news.checkpoint:
                raise ValueError("a checkpoint where its committer wrote none, or the reverse")
            found = await off_loop(self.rooms.store.game, self.id) if due else None
            if found is not None and found.seq > news.seq:
                moved_on = found  # its checkpoint may be a later one
            elif found is not None:
                if found.snapshot_seq != news.seq or found.snapshot is None or found.dice is None:
                    raise ValueError("the checkpoint written with it is not stored")
                checkpoint, row = Checkpoint(found.snapshot, found.dice), found
                host.take_dice(found.dice)
            elif due:
                raise ValueError("the game is gone")
            self.clock.heard(news.clock, host.match)
        except Exception as exc:  # never trusted: the database has the game
            log.warning("game %s: action %d read again, not applied: %s", self.id, news.seq, exc)
            return False
        if moved_on is not None:
            await self._reload(moved_on)
            return True
        host.committed = committed.after(news.action, checkpoint)
        self.row = row
        self.seq = news.seq
        self._seat_people()
        return True

    def _seeded(self, news: n.Seeded) -> bool:
        """Take a player's seed that another process stored (the lock held), as reading
        the game again would: the dice's commitment and the checkpoint written with it.
        False, nothing changed, where it cannot be taken here."""
        match, committed = self.host.match, self.host.committed
        if news.seed is None or match is None or committed is None:
            return False
        try:
            gamedice.seed_target(match).contribute(news.seat, news.seed)
        except NardyError as exc:
            log.warning("game %s: a seed read again, not taken: %s", self.id, exc)
            return False
        checkpoint = Checkpoint(match.snapshot(), gamedice.dice_state(match))
        self.host.committed = committed.checkpointed(checkpoint)
        return True

    async def catch_up(self) -> None:
        """Read the game's row (the bus is down, so news may not come): what another process
        committed meanwhile reaches this one's sockets as the whole state."""
        async with self.lock:
            row = await off_loop(self.rooms.store.game, self.id)
            if row is None or (row.seq, row.status, row.seats) == (
                self.seq,
                self.row.status,
                self.row.seats,
            ):
                return
            await self._reload(row)
            self._tell_state()
            self._schedule_clock()
        self.bots.schedule()

    async def _reload(self, row: GameRow | None = None, *, chat: bool = False) -> None:
        """The game as the database has it (the lock held): its row, its game object, who
        sits where, its clock; with ``chat``, the chat's history and mutes too."""
        if row is None:
            row = await off_loop(self.rooms.store.game, self.id)
            if row is None:
                return
        await self.host.load(row, self.row)
        self.row = row
        self.seq = row.seq
        self.clock.load(row, self.host.match)
        if not self.over:
            self._presence()  # the state says who has not come yet
        self._seat_people()
        for message in self._watching():  # someone sat down at a table, or left it
            self.broadcast(message)
        if chat:
            await self.chat.load(self.members, self.over)
        self._expire_unstarted()

    def _seat_people(self) -> None:
        """The room's people after the game moved on, read again or applied from news (the
        lock held): nobody is absent from a game that is over, and each member sits where
        the game's row seats them now."""
        if self.over:
            self.presence.absent.clear()
        for member in self.members:
            if member.user_id is not None:
                member.seat = self.seat_of(member.user_id)

    def _expire_unstarted(self) -> None:
        """A match being played without its opening roll is withdrawn UNSTARTED_EXPIRY_S
        after it started (its row says when: a restart does not begin the wait again),
        unless somebody rolls it by then (once per room)."""
        row = self.row
        if self._expiry is not None or row.kind != GameKind.MATCH:
            return
        if row.status != GameStatus.PLAYING or self.seq != 0:
            return
        self._expiry = asyncio.create_task(self._expire(), name=f"expiry {self.id}")

    async def _expire(self) -> None:
        started = self.row.started_at
        waited = 0.0 if started is None else (now() - started).total_seconds()
        await asyncio.sleep(max(0.0, UNSTARTED_EXPIRY_S - waited))
        async with self.lock:
            if self.seq != 0:
                return
            row = await off_loop(self.rooms.store.expire_unstarted, self.id)
            if row is None:  # rolled on another process meanwhile: its news will come
                return
            self.row = row
            self._tell_state()
            await self._announce(n.Reload(self.rooms.token, self.seq))

    def close(self) -> None:
        """Stop the bot, the clock, the follower and the expiry of an unstarted match, and
        drop every socket (the server is stopping)."""
        self.bots.stop()
        if self._expiry is not None:
            self._expiry.cancel()
        self.clock.stop()
        if self._follower is not None:
            self._follower.cancel()
        for member in list(self.members):
            member.drop(GOING_AWAY)
