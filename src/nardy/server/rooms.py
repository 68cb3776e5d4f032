"""One authoritative room per game: it applies the players' actions with the core, commits
each accepted action to the database before anyone hears of it, and fans the events out to
everyone in the room (players and spectators), each through their own outgoing queue so a
slow socket never holds up the game.

A room is rebuilt from the database at start-up from the core's snapshot committed with its
last action, so a crash or a restart loses no confirmed move and re-rolls nothing. The bot
of a game against the computer decides in a process pool, off the event loop, and moves
after the delay its opponent chose.

Several server processes may hold the same room (its players' sockets on different
processes). The database serialises the game: :meth:`Store.append_action` commits action
``seq + 1`` only while the game is at ``seq``, so of two processes racing (two bots, or a
player and a bot) one commits and the other reloads. Every committed action, chat line and
change of the room goes out on the game's bus channel (:mod:`nardy.server.bus`); each
process holding the room follows the channel and tells its own sockets, in the order of the
actions, reloading the game from the database when it missed something. With one process
the bus is in-process and the path is the same.

A room also keeps the game's clock (:mod:`nardy.server.clocks`): its state is committed with
each action, and when a player's reserve runs out the room commits the core's ``Forfeit``
through the same seq-checked :meth:`Store.append_action`, so of several processes holding
the room only one timer's forfeit is accepted. A player whose sockets are all gone is
absent: after the grace period the opponent may claim the game (the absent player forfeits)
or wait. Once the match is over either player may offer a rematch; when both have (the bot
always agrees) a new game with the same settings and the seats swapped starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from nardy.core.actions import Action, Forfeit, Player
from nardy.core.errors import NardyError
from nardy.core.events import Event
from nardy.core.fair_dice import FairDice
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.server import botplay, clocks, gamedice, protocol, roomview
from nardy.server.bus import Bus, BusError, Gap, LocalBus, Subscription, game_channel
from nardy.server.chat import HISTORY, RoomChat, line_message
from nardy.server.games import GameStatus
from nardy.server.http import HTTPError, off_loop
from nardy.server.lobby import new_game_id, seats_view, unavailable_message
from nardy.server.ratings import rated_outcomes, rating_rule
from nardy.server.store import ConflictError, GameRow, Store
from nardy.server.variantfacts import facts_of

log = logging.getLogger(__name__)
QUEUE_LIMIT = 256
"""Messages a member may fall behind by before the room drops their socket."""
GRACE_SECONDS = 60.0
"""How long an absent player has to come back before the opponent may claim the game."""


_CHAT_REFUSALS = {
    "not-signed-in": "sign in (or play as a guest) to chat",
    "chat-rate-limited": "too many chat lines; wait a little",
}

NORMAL_CLOSURE = 1000
"""A socket's close code when it ends normally (the client left)."""
POLICY_VIOLATION = 1008
"""A socket's close code when its client broke the protocol's rules too often."""
GOING_AWAY = 1001
"""A socket's close code when the server stops."""
UNAVAILABLE = 1011
"""A socket's close code when its game is set aside (its data cannot be restored)."""
TRY_AGAIN_LATER = 1013
"""A socket's close code when its client fell too far behind the room's messages."""


DAMAGED = (NardyError, LookupError, TypeError, ValueError, ArithmeticError, AttributeError)
"""What a game's own data raises when the core or the room cannot be built from it (a
snapshot, settings or clock damaged, or stored before their bounds); not the database's own
errors: a game is never set aside because the database could not be reached."""


class GameUnavailable(HTTPError):
    """A game set aside: its data cannot be restored (``row.unavailable`` says why), so it
    has no room; the lobby answers 503 ``game-unavailable`` and its socket says so."""

    def __init__(self, row: GameRow) -> None:
        super().__init__(503, "game-unavailable", unavailable_message(row))
        self.row = row


class Member:
    """Someone in a room: a player's seat (0 or 1; at a chouette table or in a consultation
    their name there) or a spectator (None), and the queue of encoded messages their
    socket's writer sends."""

    def __init__(
        self, user_id: int | None, seat: Player | None, username: str | None = None
    ) -> None:
        self.user_id = user_id
        self.seat = seat
        self.username = username
        self.seen = 0
        """The last action this member's state includes: older events are not sent again."""
        self.key = secrets.token_hex(8)
        """This socket among all the room's, on every process: the one that sent a message
        hears its ``ref`` in the replies it causes."""
        # Encoded messages, and at the end the code to close the socket with.
        self.queue: asyncio.Queue[str | int] = asyncio.Queue(QUEUE_LIMIT)

    def send(self, message: protocol.ServerMessage) -> None:
        """Queue a message; a member too far behind is told to go."""
        self.send_text(protocol.encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (one encoding for a whole room)."""
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop(TRY_AGAIN_LATER)

    def finish(self, code: int = NORMAL_CLOSURE) -> None:
        """End this member's writer after the messages already queued; the socket closes
        with ``code``."""
        try:
            self.queue.put_nowait(code)
        except asyncio.QueueFull:
            self.drop(code)

    def drop(self, code: int) -> None:
        """End this member's writer now, which closes the socket with ``code``."""
        with contextlib.suppress(asyncio.QueueEmpty):
            while True:
                self.queue.get_nowait()
        self.queue.put_nowait(code)


class Room:
    """The live state of one game and the people watching it."""

    def __init__(self, rooms: Rooms, row: GameRow, match: Match | None) -> None:
        self.rooms = rooms
        self.row = row
        self.match = match
        self.seq = row.seq
        self.delivered = row.seq
        """The last action this process's sockets have been told of (``seq`` may be ahead
        while its news travels the bus)."""
        # The match and its dice as last committed: what a failed commit goes back to.
        self.committed = None if match is None else match.snapshot()
        self.committed_dice = None if match is None else gamedice.dice_state(match)
        self.members: set[Member] = set()
        self.lock = asyncio.Lock()
        self.names: tuple[str | None, str | None] = (None, None)
        self.chat = RoomChat()
        self.rated = 0  # the outcomes of this game already rated (nardy.server.ratings)
        self._bot_task: asyncio.Task[None] | None = None
        # A bot that let a decision pass (a chouette member who would not double), by the
        # action number it decided at: not asked again until the game moves on.
        self.resting: dict[Player, int] = {}
        self._follower: asyncio.Task[None] | None = None
        self.clock = clocks.stored_clock(row.clock)
        self.clock_state: clocks.ClockState | None = None
        self._start_clock()
        self._clock_task: asyncio.Task[None] | None = None
        self.absent: dict[int, float] = {}  # seat -> when the opponent may claim the game
        # The seats that other processes say have a socket there (their tokens): present,
        # though not here.
        self.elsewhere: dict[int, set[str]] = {0: set(), 1: set()}
        # The seats whose player has been in the room (or, after a restart, was playing): only
        # they can be absent; a player on the way in from the lobby is not.
        self.arrived: set[int] = set()
        self.rematch_offers: set[int] = set()
        self.rematch_game: str | None = None

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def over(self) -> bool:
        return self.match is not None and self.match.over

    @property
    def rule_facts(self) -> dict[str, Any]:
        """The rule facts of the variant played here (:mod:`nardy.server.variantfacts`), by
        which a client draws the board and its moves."""
        return facts_of(str(self.row.settings.get("variant", Settings().variant)))

    def _start_clock(self) -> None:
        """The clock as committed with the last action, or full before the first."""
        if self.clock is None or self.match is None:
            return
        if self.row.clock_state is not None:
            self.clock_state = clocks.ClockState.from_json(self.row.clock_state)
        else:
            self.clock_state = clocks.start(self.clock, self.match.length)

    def state(self) -> roomview.RoomState:
        """The room's state now as everybody sees it (each viewer's own part is added by
        :meth:`~nardy.server.roomview.RoomState.seen_by`): who sits where, the board, the
        score, who may act, the dice's commitments, the clock, who is absent, the rematch."""
        players = seats_view(self.row, dict(zip(self.row.seats, self.names, strict=True)))
        public: dict[str, Any] = {
            **self._heading(),
            "board": None,
            "score": None,
            "length": self._length(),
            "players": players,
            "dice": None,
        }
        actors: roomview.Actors = ()
        if self.match is not None:
            public["board"], actors = roomview.board_of(self.match)
            public["score"] = list(self.match.score)
            public["dice"] = gamedice.public(self.match)
        return roomview.RoomState(self._timing(public), actors)

    def _heading(self) -> dict[str, Any]:
        """What every room's state begins with: which game, at which action, its kind and
        status, its settings and its variant's rule facts."""
        return {
            "game": self.id,
            "seq": self.seq,
            "kind": self.row.kind,
            "status": "finished" if self.over else self.row.status,
            "settings": dict(self.row.settings),
            "rules": self.rule_facts,
        }

    def _length(self) -> int:
        """The match's length in points (0: money play): the match's own once it exists
        (the settings are read only before)."""
        if self.match is not None:
            return self.match.length
        return Settings.from_dict(dict(self.row.settings)).match_length

    def _timing(self, public: dict[str, Any]) -> dict[str, Any]:
        """``public`` with what every room's state ends with: the clock, who is absent and
        for how long more, and the rematch's offers."""
        now = time.time()
        public["clock"] = (
            None
            if self.clock is None or self.clock_state is None
            else clocks.view(self.clock, self.clock_state, now)
        )
        public["absent"] = [
            {"seat": seat, "claim-in": round(max(0.0, until - now), 3)}
            for seat, until in sorted(self.absent.items())
        ]
        public["rematch"] = {"offers": sorted(self.rematch_offers), "game": self.rematch_game}
        return public

    async def join(self, member: Member) -> None:
        """Someone enters the room and gets the whole state, as the database has it: a
        process that missed news of the game (another process died before telling it)
        catches up first."""
        async with self.lock:
            row = await off_loop(self.rooms.store.game, self.id)
            if row is not None and self._behind(row):
                await self._reload(row)
            if member.user_id is not None:
                member.seat = self.seat_of(member.user_id)
            member.seen = self.seq
            arrives = member.seat is not None and all(m.seat != member.seat for m in self.members)
            self.members.add(member)
            if isinstance(member.seat, int):  # a table's members are never absent
                self.arrived.add(member.seat)
            changes = self._presence()
            chat = self.chat.history(member.user_id, member.seat, self.over)
            muted = member.user_id in self.chat.muted
            state = self.state().seen_by(member.seat)
            member.send(protocol.Welcome(self.id, member.seat, state, chat, muted))
            for message in changes:
                for other in list(self.members - {member}):
                    other.send(message)
            if arrives and isinstance(member.seat, int):
                await self._tell_presence(member.seat, True)
        self.schedule_bot()

    def _behind(self, row: GameRow) -> bool:
        """Whether the database's row of the game (``row``) has news this room has not
        heard: an action, a start or end, someone sitting down."""
        return (row.seq, row.status, row.seats) != (self.seq, self.row.status, self.row.seats)

    def leave(self, member: Member) -> None:
        """Someone's socket closed."""
        self.members.discard(member)
        for message in self._presence():
            self.broadcast(message)
        if isinstance(member.seat, int) and all(m.seat != member.seat for m in self.members):
            # The other processes judge presence by their own sockets and this news.
            task = asyncio.create_task(self._tell_presence(member.seat, False))
            self.rooms.background.add(task)
            task.add_done_callback(self.rooms.background.discard)

    async def _tell_presence(self, seat: int, here: bool) -> None:
        """Tell the other processes holding the room whether this one has a socket of
        ``seat``'s player."""
        news = {"kind": "presence", "seat": seat, "here": here, "from": self.rooms.token}
        try:
            await self.rooms.bus.publish(game_channel(self.id), news)
        except Exception:  # they go on judging by what they heard last
            log.exception("game %s: presence news could not be published", self.id)

    def _presence(self) -> list[protocol.ServerMessage]:
        """Mark the players of a game between two people who have been in the room and have
        no socket in it now as absent (their grace period starts now) and those back as
        present; the messages that say so. Nobody is absent before the game starts, after it
        ends or against the bot."""
        if self.match is None or self.over or None in self.row.seats:
            self.absent.clear()
            return []
        here = {m.seat for m in self.members if m.seat is not None}
        here |= {seat for seat, tokens in self.elsewhere.items() if tokens}
        changes: list[protocol.ServerMessage] = []
        for seat in (0, 1):
            if seat in here and seat in self.absent:
                del self.absent[seat]
                changes.append(protocol.Present(seat))
            elif seat not in here and seat not in self.absent and seat in self.arrived:
                grace = self.rooms.grace
                self.absent[seat] = time.time() + grace
                changes.append(protocol.Absent(seat, grace))
        return changes

    async def say(
        self, member: Member, text: str, ref: protocol.Ref = None
    ) -> protocol.Refused | None:
        """A chat line from a member: stored, then heard (through the bus) by everyone in
        the room, on any process, who may hear it."""
        refusal = self.chat.refusal(member.user_id, member.username)
        if refusal is not None:
            return protocol.Refused(refusal, _CHAT_REFUSALS[refusal], ref)
        assert member.user_id is not None and member.username is not None
        try:
            line = await off_loop(
                self.rooms.store.add_chat_line,
                self.id,
                member.user_id,
                member.username,
                member.seat,
                text,
            )
        except Exception:
            log.exception("game %s: a chat line could not be stored", self.id)
            return protocol.Refused("busy", "the line could not be stored; try again", ref)
        await self._publish(line_message(line))
        return None

    async def mute(self, member: Member, muted: bool) -> None:
        """A member stops (or starts again) hearing the chat, in this room on every
        process and after a restart. Anonymous spectators have no mute to keep."""
        if member.user_id is None:
            return
        self.chat.mute(member.user_id, muted)  # at once: the next line may be on its way
        await off_loop(self.rooms.store.set_chat_muted, self.id, member.user_id, muted)
        await self._publish({"kind": "mute", "user": member.user_id, "muted": muted})

    def broadcast(
        self, message: protocol.ServerMessage | roomview.PerViewer, seq: int | None = None
    ) -> None:
        """Send a message to everyone in the room (for the events of action ``seq``, to
        those whose state does not include it yet): the same text to all, or each viewer's
        own, encoded once per distinct viewer."""
        texts = (
            message if isinstance(message, roomview.PerViewer) else roomview.PerViewer.same(message)
        )
        for member in list(self.members):
            if seq is None or member.seen < seq:
                member.send_text(texts.text_for(member.seat, member.key))
                if seq is not None:
                    member.seen = seq

    async def act(
        self,
        seat: Player | None,
        action: Action,
        ref: protocol.Ref = None,
        *,
        named: bool = True,
        sender: str | None = None,
    ) -> protocol.Refused | None:
        """Apply a player's action: refused (and nothing changed) or committed and broadcast.

        ``seat`` is the sender's seat (None for a spectator), ``sender`` their socket's
        :attr:`Member.key` (it hears ``ref`` with the events). The action's ``player`` is the
        sender's seat, put in here where the message named none (``named`` false); naming
        another seat is refused."""
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
            late = self._flagged()
            if late is not None:  # the timer has not fired yet, but the time is up
                refused = await self._commit(Forfeit(late, "time"))
                if refused is None:
                    refused = protocol.Refused("game-over", "the time ran out", ref)
            else:
                refused = await self._commit(replace(action, player=seat), ref, sender)
        self.schedule_bot()
        return refused

    async def _commit(
        self, parsed: Action, ref: protocol.Ref = None, sender: str | None = None
    ) -> protocol.Refused | None:
        """Apply an action (the room's lock held) and commit it with the match, the dice and
        the clock after it, then tell everyone; refused, or not stored, it changes nothing."""
        try:
            events = self._apply(parsed)
        except NardyError as exc:
            return protocol.Refused(exc.code.value, str(exc), ref)
        except Exception:  # a bug in the core must not take the room down
            log.exception("game %s: the core failed on %r", self.id, parsed)
            self._rebuild()
            return protocol.Refused("internal-error", "the server could not apply this", ref)
        encoded_action = parsed.to_json()
        encoded_events = [e.to_json() for e in events]
        snapshot, dice, result = self._stored()
        clock = self._clock_after(events)
        try:
            await off_loop(
                self.rooms.store.append_action,
                self.id,
                self.seq,
                encoded_action,
                encoded_events,
                snapshot,
                dice,
                result,
                None if clock is None else clock.to_json(),
            )
        except ConflictError:
            # Another process committed an action of this game first: this one did not
            # happen; the game as that process left it (whose news is on its way).
            await self._reload()
            self.schedule_clock()
            return protocol.Refused("busy", "the game moved on; look and try again", ref)
        except Exception:
            # Not committed: it did not happen. Back to the last committed state.
            log.exception("game %s: the action could not be stored", self.id)
            self._rebuild()
            return protocol.Refused("busy", "the action could not be stored; try again", ref)
        self.committed, self.committed_dice = snapshot, dice
        self.clock_state = clock
        self.seq += 1
        if result is not None:
            self.absent.clear()
            await self.rooms.finished(self)
        await self.rate()
        news = {
            "kind": "events",
            "seq": self.seq,
            "action": encoded_action,
            "events": encoded_events,
            "state": self.state().to_json(),
            "ref": ref,
            "sender": sender,
        }
        await self._publish(news, locked=True)
        self.schedule_clock()
        return None

    # -- the clock -----------------------------------------------------------------------------

    def _clock_after(self, events: tuple[Event, ...]) -> clocks.ClockState | None:
        """The clock once this action's events have happened (None: the game has none)."""
        if self.clock is None or self.clock_state is None or self.match is None:
            return None
        awaited = None if self.match.over else self.match.awaiting(moves=False).player
        assert awaited is None or type(awaited) is int
        return clocks.after(
            self.clock, self.clock_state, self.match.length, time.time(), awaited, events
        )

    def _flagged(self) -> int | None:
        """The player whose reserve has run out, if one has."""
        if self.clock is None or self.clock_state is None or self.over:
            return None
        return clocks.flagged(self.clock, self.clock_state, time.time())

    def schedule_clock(self) -> None:
        """Wake up when the running player's reserve runs out (the last timer is dropped)."""
        if self._clock_task is not None and self._clock_task is not asyncio.current_task():
            self._clock_task.cancel()
        self._clock_task = None
        if self.clock is None or self.clock_state is None or self.over:
            return
        end = clocks.deadline(self.clock, self.clock_state)
        if end is not None:
            self._clock_task = asyncio.create_task(self._clock_runs_out(self.seq, end))

    async def _clock_runs_out(self, seq: int, end: float) -> None:
        # A little past the deadline, so that the time is surely up when it is checked.
        await asyncio.sleep(max(0.0, end - time.time()) + 0.01)
        async with self.lock:
            if self.seq != seq or self.over:
                return  # someone moved in time (or another timer ended it)
            late = self._flagged()
            if late is None:
                self.schedule_clock()
                return
            await self._commit(Forfeit(late, "time"))
        self.schedule_bot()

    # -- absence and rematch -------------------------------------------------------------------

    async def claim(
        self, seat: Player | None, ref: protocol.Ref = None, sender: str | None = None
    ) -> protocol.Refused | None:
        """A player claims the game of an absent opponent whose grace period is over: the
        opponent forfeits (the match; in money play the game, and leaves the session)."""
        if seat is None:
            return protocol.Refused("spectator", "spectators watch; they cannot act", ref)
        if not isinstance(seat, int):
            return protocol.Refused("wrong-phase", "only a two-player game can be claimed", ref)
        async with self.lock:
            if self.match is None or self.over:
                return protocol.Refused("game-over", "no game is being played", ref)
            until = self.absent.get(1 - seat)
            if until is None:
                return protocol.Refused("not-absent", "your opponent is here", ref)
            left = until - time.time()
            if left > 0:
                return protocol.Refused(
                    "grace-period", f"your opponent has {left:.0f} s more to come back", ref
                )
            refused = await self._commit(Forfeit(1 - seat, "absent"), ref, sender)
        self.schedule_bot()
        return refused

    async def rematch(
        self, seat: Player | None, ref: protocol.Ref = None
    ) -> protocol.Refused | None:
        """A player offers (or accepts) a rematch of the finished match; once every person
        seated has, a new game with the same settings and clock starts with the seats
        swapped, and everyone in the room is sent to it."""
        if seat is None:
            return protocol.Refused("spectator", "spectators watch; they cannot act", ref)
        if not isinstance(seat, int):
            return protocol.Refused("wrong-phase", "only a two-player match has a rematch", ref)
        started: GameRow | None = None
        async with self.lock:
            if not self.over:
                return protocol.Refused("wrong-phase", "a rematch follows a finished match", ref)
            if self.rematch_game is not None:
                self.broadcast(protocol.Rematch(self.rematch_game))
                return None
            self.rematch_offers.add(seat)
            people = {s for s, holder in enumerate(self.row.seats) if holder is not None}
            if not people <= self.rematch_offers:
                # Every process holding the room hears the offer (the other player may be
                # on another one).
                await self._publish({"kind": "rematch", "seat": seat}, locked=True)
                return None
            first, second = self.row.seats
            try:
                started = await off_loop(
                    self.rooms.store.create_game,
                    new_game_id(),
                    self.row.settings,
                    self.row.creator_id,
                    (second, first),
                    status=GameStatus.PLAYING,
                    private=self.row.private,
                    bot=self.row.bot,
                    bot_delay_ms=self.row.bot_delay_ms,
                    clock=self.row.clock,
                )
            except Exception:
                log.exception("game %s: the rematch could not be stored", self.id)
                self.rematch_offers.discard(seat)
                return protocol.Refused("busy", "the rematch could not be stored; try again", ref)
            self.rematch_game = started.id
            await self._publish({"kind": "rematch", "seat": seat, "game": started.id}, locked=True)
        await self.rooms.started(started)
        return None

    # -- what the room holds: a Match here, a chouette or consultation in TableRoom -------

    def seat_of(self, user_id: int) -> Player | None:
        """The seat this user plays here, or None for a spectator."""
        return self.row.seat_of(user_id)

    @property
    def started(self) -> bool:
        """Whether the game object exists (the players are seated)."""
        return self.match is not None

    def _apply(self, action: Action) -> tuple[Event, ...]:
        """Apply an action to the game object (NardyError: refused, nothing changed)."""
        assert self.match is not None
        events = self.match.apply(action)
        gamedice.prepare_next(self.match, self.id)
        return events

    def _stored(self) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
        """What is committed after an action: the snapshot, the dice, and the result when
        the whole game (match, session, table) is over."""
        assert self.match is not None
        result = self._result() if self.match.over else None
        return self.match.snapshot(), gamedice.dice_state(self.match), result

    def _bot_waits(self, player: Player) -> bool:
        """Whether the game waits for the bot playing ``player``."""
        return self.match is not None and not self.over and player in self.match.awaiting().players

    def _bot_job(self, player: Player) -> Callable[[], Action | None]:
        """The decision of the bot playing ``player``, to run in the bots' process pool on
        the committed snapshot (None: it lets the decision pass)."""
        assert self.committed is not None and self.row.bot is not None
        assert isinstance(player, int)
        return functools.partial(botplay.decide, self.committed, player, self.row.bot)

    async def rate(self) -> None:
        """Rate what the match has decided and is not rated yet: the match once it is won,
        or each game won in money play (docs/ratings.md). Games against the bot are not
        rated."""
        if self.match is None:
            return
        outcomes = rated_outcomes(self.match)
        first, second = self.row.seats
        if first is None or second is None:
            self.rated = len(outcomes)
            return
        rule = rating_rule(self.match.settings)
        for index in range(self.rated, len(outcomes)):
            winner, loser = (first, second) if outcomes[index] == 0 else (second, first)
            try:
                await off_loop(
                    self.rooms.store.rate, self.id, index, rule.pool, rule.length, winner, loser
                )
            except Exception:  # the game stands; the rating is caught up when the room loads
                log.exception("game %s: outcome %d could not be rated", self.id, index)
                return
            self.rated = index + 1

    def _rebuild(self) -> None:
        """Back to the last committed state (an action failed half-way or was not stored)."""
        assert self.committed is not None and self.committed_dice is not None
        self.match = gamedice.restore(self.committed, self.committed_dice)

    async def contribute(
        self, seat: Player | None, seed: str, ref: protocol.Ref = None, sender: str | None = None
    ) -> protocol.Refused | None:
        """A player's own seed for the dice of the game under way (or of the first game),
        accepted before its first roll only; stored, then shown to everyone (the sending
        socket ``sender`` hears ``ref`` with the state)."""
        if seat is None:
            return protocol.Refused("spectator", "spectators watch; they cannot act", ref)
        assert isinstance(seat, int)  # a two-player room's seats are 0 and 1
        async with self.lock:
            if self.match is None or self.over:
                return protocol.Refused("wrong-phase", "no game is waiting for its dice", ref)
            target = gamedice.seed_target(self.match)
            try:
                target.contribute(seat, seed)  # checks everything before it changes anything
            except NardyError as exc:
                return protocol.Refused(exc.code.value, str(exc), ref)
            dice = gamedice.dice_state(self.match)
            try:
                await off_loop(self.rooms.store.set_dice, self.id, dice)
            except Exception:
                log.exception("game %s: a client seed could not be stored", self.id)
                self._rebuild()
                return protocol.Refused("busy", "the seed could not be stored; try again", ref)
            self.committed_dice = dice
            await self._publish({"kind": "reload", "ref": ref, "sender": sender}, locked=True)
        return None

    # -- news of the room, through the bus ----------------------------------------------------

    async def _publish(self, news: dict[str, Any], *, locked: bool = False) -> None:
        """Tell every process holding the room (this one too, through its follower). If the
        bus cannot take it, this process's sockets still hear it now; the others catch up
        from the database (a gap in the actions, or a socket joining, reloads the game)."""
        try:
            await self.rooms.bus.publish(game_channel(self.id), news)
        except Exception:
            log.exception("game %s: the bus did not take %s", self.id, news.get("kind"))
            if locked:
                await self._take(news)
            else:
                async with self.lock:
                    await self._take(news)

    def follow(self, subscription: Subscription) -> None:
        """Follow the game's channel: what any process publishes reaches this one's
        sockets."""
        self._follower = asyncio.create_task(self._follow(subscription), name=f"room {self.id}")

    async def _follow(self, subscription: Subscription) -> None:
        async with subscription:
            async for delivery in subscription:
                news = {"kind": "gap"} if isinstance(delivery, Gap) else delivery.data
                try:
                    async with self.lock:
                        await self._take(news)
                except Exception:  # one bad message must not stop the room hearing the next
                    log.exception("game %s: news %r could not be taken", self.id, news)
                self.schedule_bot()

    async def _take(self, news: Mapping[str, Any]) -> None:
        """Pass news of the room to this process's sockets (the lock held): the events of
        each action once and in order, a chat line, a mute, or a reload."""
        kind = news.get("kind")
        if kind == "events":
            seq = int(news["seq"])
            if seq <= self.delivered:  # heard already (or included in a reload)
                return
            if seq > self.delivered + 1:  # news of an action lost on the way: reload
                await self._reload()
                self._tell_state()
                return
            if seq > self.seq:  # another process committed it
                await self._reload()
            self.delivered = seq
            action, events = dict(news["action"]), list(news["events"])
            state = roomview.RoomState.from_json(news["state"])
            ref, sender = news.get("ref"), news.get("sender")
            self.broadcast(roomview.PerViewer.events(seq, action, events, state, ref, sender), seq)
            self.schedule_clock()
        elif kind == "chat":
            said = self.chat.add(dict(news))
            if said is not None:
                for listener in list(self.members):
                    if self.chat.hears(listener.user_id, listener.seat, said, self.over):
                        listener.send(protocol.Chat(said))
        elif kind == "mute":
            self.chat.mute(int(news["user"]), bool(news["muted"]))
        elif kind == "presence":
            if news.get("from") != self.rooms.token:
                tokens = self.elsewhere[int(news["seat"])]
                (tokens.add if news["here"] else tokens.discard)(str(news["from"]))
                for message in self._presence():
                    self.broadcast(message)
        elif kind == "rematch":
            if news.get("game") is not None:
                self.rematch_game = str(news["game"])
                self.broadcast(protocol.Rematch(self.rematch_game))
            elif self.rematch_game is None:
                self.rematch_offers.add(int(news["seat"]))
                self.broadcast(protocol.RematchOffered(int(news["seat"])))
        elif kind in ("reload", "gap"):
            await self._reload(chat=kind == "gap")
            self._tell_state(news.get("ref"), news.get("sender"))
            self.schedule_clock()
        else:
            log.warning("game %s: unknown news %r dropped", self.id, kind)

    def _tell_state(self, ref: protocol.Ref = None, sender: str | None = None) -> None:
        """Everyone here gets the whole state as it is now, each their own (the socket
        ``sender`` with the ``ref`` of the message that caused it)."""
        self.delivered = self.seq
        for member in list(self.members):
            member.seen = self.seq
        self.broadcast(roomview.PerViewer.states(self.state(), ref, sender))

    async def _reload(self, row: GameRow | None = None, *, chat: bool = False) -> None:
        """The game as the database has it (the lock held): its row, its match, who sits
        where; with ``chat``, the chat's history and mutes too."""
        if row is None:
            row = await off_loop(self.rooms.store.game, self.id)
            if row is None:
                return
        if row.seats != self.row.seats or self.names == (None, None):
            self.names = await self.rooms.names(row)
        self.row = row
        if row.status in ("playing", "finished"):
            self.match = await self.rooms.match(row, self.names)
            self.committed = self.match.snapshot()
            self.committed_dice = gamedice.dice_state(self.match)
        self.seq = row.seq
        self.clock = clocks.stored_clock(row.clock)
        self.clock_state = None
        self._start_clock()
        if self.over:
            self.absent.clear()
        else:
            self._presence()  # the state says who has not come yet
        for member in self.members:
            if member.user_id is not None:
                member.seat = row.seat_of(member.user_id)
        if chat:
            await self.rooms.load_chat(self)

    def _result(self) -> dict[str, Any]:
        assert self.match is not None
        return {"winner": self.match.winner, "score": list(self.match.score)}

    # -- the bot -------------------------------------------------------------------------------

    @property
    def bot_seat(self) -> int | None:
        """The seat the computer plays, if it plays one."""
        if self.row.bot is None:
            return None
        return next((s for s, holder in enumerate(self.row.seats) if holder is None), None)

    def schedule_bot(self) -> None:
        """Let the bot act after its delay when the game waits for it."""
        seat = self.bot_seat
        if seat is None or not self._bot_waits(seat):
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.create_task(self._bot_turn(seat))

    def _bot_delay(self, player: Player) -> float:
        """Seconds the bot playing ``player`` waits before it acts: its opponent's choice."""
        return self.row.bot_delay_ms / 1000

    async def _bot_turn(self, seat: Player) -> None:
        await asyncio.sleep(self._bot_delay(seat))
        if not self._bot_waits(seat):
            # The game moved on while the bot waited (the person won the opening roll):
            # nothing to decide; the person's next action schedules the bot again.
            self._bot_task = None
            return
        seq = self.seq
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(self.rooms.bot_pool(), self._bot_job(seat))
        except Exception:
            log.exception("game %s: the bot failed", self.id)
            self._bot_task = None
            if self.seq != seq:  # asked about a moment that has passed: ask about this one
                self.schedule_bot()
            return
        self._bot_task = None  # this turn is done thinking: the next may be scheduled
        if self.seq != seq:  # the human acted meanwhile (the opening roll): think again
            self.schedule_bot()
            return
        if action is None:  # it lets this decision pass: ask again after the next action
            self.resting[seat] = seq
            self.schedule_bot()  # another bot may be the one the game waits for
            return
        refused = await self.act(seat, action)
        if refused is None:
            return
        if self.seq != seq:  # the human's action got in first: think again on the new state
            self.schedule_bot()
        else:
            log.error("game %s: the bot's %r was refused: %s", self.id, action, refused.message)

    def close(self) -> None:
        """Stop the bot, the clock and the follower and drop every socket (the server is
        stopping)."""
        for task in (self._bot_task, self._clock_task, self._follower):
            if task is not None:
                task.cancel()
        for member in list(self.members):
            member.drop(GOING_AWAY)


class Rooms:
    """Every room of this process, created on first use from the database."""

    def __init__(self, store: Store, bus: Bus | None = None, grace: float = GRACE_SECONDS) -> None:
        self.store = store
        self.bus: Bus = LocalBus() if bus is None else bus
        self.grace = grace
        """Seconds an absent player has to come back before the game may be claimed."""
        self.token = secrets.token_hex(8)
        """This process among those holding the same rooms (in the presence news)."""
        self.background: set[asyncio.Task[None]] = set()  # news on its way, kept from the GC
        self.rooms: dict[str, Room] = {}
        self._load = asyncio.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def bot_pool(self) -> ProcessPoolExecutor:
        """The processes the bots think in (started on first use)."""
        if self._pool is None:
            import multiprocessing

            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    async def get(self, game_id: str) -> Room | None:
        """The room of a game, loaded (or restored) from the database; None for no game.
        :class:`GameUnavailable` for a game whose data cannot be restored: it is set aside
        (:meth:`Store.set_aside`) and logged the first time."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        async with self._load:
            room = self.rooms.get(game_id)
            if room is None:
                # Following the channel before reading the game: nothing committed after
                # the read can pass unheard.
                try:
                    subscription = await self.bus.subscribe(game_channel(game_id))
                except BusError:  # not a name the lobby gives a game (nor a channel)
                    return None
                try:
                    row = await off_loop(self.store.game, game_id)
                    room = None if row is None else await self._build_or_set_aside(row)
                except BaseException:
                    await subscription.close()
                    raise
                if room is None:
                    await subscription.close()
                    return None
                room.follow(subscription)
                self.rooms[game_id] = room
                room.schedule_clock()
        room.schedule_bot()
        return room

    async def _build_or_set_aside(self, row: GameRow) -> Room:
        reason = row.unavailable
        if reason is None:
            try:
                return await self._build(row)
            except DAMAGED as exc:
                reason = f"{type(exc).__name__}: {exc}"[:200]
                log.exception("game %s cannot be restored from its data", row.id)
        if await off_loop(self.store.set_aside, row.id, reason):
            log.error("game %s is set aside, unavailable: %s", row.id, reason)
        raise GameUnavailable(replace(row, unavailable=reason))

    async def _build(self, row: GameRow) -> Room:
        if row.kind != "match":  # a chouette table or consultation game: its own room
            from nardy.server.table_room import build_table_room  # it builds on Room

            return await build_table_room(self, row)
        names = await self.names(row)
        match = None
        if row.status in ("playing", "finished"):
            match = await self.match(row, names)
        room = Room(self, row, match)
        room.names = names
        await self.load_chat(room)
        room.rated = await off_loop(self.store.rated_outcomes, row.id)
        await room.rate()  # a crash between a game's end and its rating: rate it now
        return room

    async def load_chat(self, room: Room) -> None:
        """The room's chat history and mutes as the database keeps them."""
        lines = await off_loop(self.store.chat_history, room.id, HISTORY)
        muted = await off_loop(self.store.chat_muted, room.id)
        room.chat.load(lines, muted)

    async def names(self, row: GameRow) -> tuple[str | None, str | None]:
        """The usernames of the people in the two seats (None for a free seat or the
        bot)."""
        names = await off_loop(self.store.usernames, [u for u in row.seats if u is not None])
        first, second = (None if u is None else names.get(u) for u in row.seats)
        return first, second

    async def match(self, row: GameRow, names: tuple[str | None, str | None]) -> Match:
        """The match of a started game: restored from the snapshot committed with its last
        action (nothing re-rolled), or new before the first action, its players named as
        the records write them (a bot by its level)."""
        if row.snapshot is not None and row.dice is not None:
            return gamedice.restore(row.snapshot, row.dice)
        settings = Settings.from_dict(dict(row.settings))
        first, second = (
            name or (f"nardy ({row.bot})" if row.bot else f"Player {seat}")
            for seat, name in enumerate(names)
        )
        match = Match(settings, players=(first, second))
        dice = row.dice
        if dice is None:
            # The first game's commitment is kept before its first roll can be made; of
            # two processes preparing it at once, both deal from the one kept first.
            match.dice = gamedice.first_dice(row.id)
            dice = await off_loop(self.store.first_dice, row.id, gamedice.dice_state(match))
        match.dice = FairDice.from_state(dice["next"])
        return match

    async def started(self, row: GameRow) -> None:
        """A waiting game found its players: its room starts on every process that holds
        it (where the waiting player's socket is), and here, so that a bot can begin."""
        room = await self.get(row.id)
        if room is not None:
            await room._publish({"kind": "reload"})

    async def cancelled(self, row: GameRow) -> None:
        """A waiting game was withdrawn: whoever waits in its room hears it."""
        room = self.rooms.get(row.id)
        if room is None:
            return
        async with room.lock:
            room.row = row
            room.broadcast(roomview.PerViewer.states(room.state()))

    async def finished(self, room: Room) -> None:
        """A match ended: refresh the row (its result and status)."""
        row = await off_loop(self.store.game, room.id)
        if row is not None:
            room.row = row

    async def restore(self) -> None:
        """At start-up: bring back every game being played, so bots resume their turns. A
        game that cannot be restored is set aside (:meth:`get`), and any other failure of
        one game is logged: neither stops the others, nor the server, from starting."""
        for row in await off_loop(self.store.playing_games):
            try:
                room = await self.get(row.id)
            except GameUnavailable:
                continue
            except Exception:
                log.exception("game %s was not restored at start-up", row.id)
                continue
            if room is not None:  # both were playing: whoever does not come back is absent
                room.arrived.update((0, 1))

    async def close(self) -> None:
        """Stop every room, the bus and the bots' processes."""
        for room in self.rooms.values():
            room.close()
        await self.bus.close()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
