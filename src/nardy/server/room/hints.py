"""The practice of a room's game against the bot: its human player switches practice on
(for good: the game is then unrated whatever it was) and asks for the bot's advice, which
is worked out off the event loop in the bots' process pool (:mod:`nardy.server.hintplay`),
one request at a time per player. Nobody else has hints: not a spectator, not the players
of a game between two people, not a table."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Protocol

from nardy.server import protocol
from nardy.server.games import GameKind
from nardy.server.hintplay import NoHint, advise, hint_kind
from nardy.server.http import off_loop
from nardy.server.room.host import Host
from nardy.server.room.member import Member
from nardy.server.store.store import ConflictError, GameRow, Store

log = logging.getLogger(__name__)


class HintRoom(Protocol):
    """What the hints need of their room (:class:`nardy.server.room.actor.Room`)."""

    row: GameRow
    seq: int
    host: Host

    async def refresh(self) -> None: ...


class Hints:
    """A room's practice switch and its players' hint requests in flight."""

    def __init__(self, room: HintRoom, store: Store, pool: Callable[[], Executor]) -> None:
        self._room = room
        self._store = store
        self._pool = pool
        self._asking: set[int] = set()
        """The users whose hint is being worked out: one each at a time."""
        self._tasks: set[asyncio.Task[None]] = set()

    def request(self, member: Member, review: bool, ref: protocol.Ref = None) -> None:
        """A hint asked for on ``member``'s socket: worked out while the socket reads on (the
        player may move meanwhile), and the answer, or the refusal, sent to that socket."""
        task = asyncio.create_task(self._answer(member, review, ref))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, member: Member, review: bool, ref: protocol.Ref) -> None:
        member.send(await self.ask(member, review, ref))

    def _refusal(self, member: Member, ref: protocol.Ref) -> protocol.Refused | None:
        """Why ``member`` may have no practice here: a spectator, or not a game against the
        bot."""
        row = self._room.row
        if member.seat is None or member.user_id is None:
            return protocol.Refused("spectator", "spectators watch; they have no hints", ref)
        if row.kind is not GameKind.MATCH or row.bot is None:
            return protocol.Refused(
                "not-a-bot-game", "hints are for practice games against the bot", ref
            )
        return None

    async def switch_on(self, member: Member, ref: protocol.Ref = None) -> protocol.Refused | None:
        """The player makes the game a practice game, for good; every process holding the
        room reads it again and tells its sockets. Switching it on again changes nothing."""
        refused = self._refusal(member, ref)
        if refused is not None or self._room.row.practice:
            return refused
        try:
            await off_loop(self._store.set_practice, self._room.row.id)
        except ConflictError:
            return protocol.Refused("game-over", "the game is over", ref)
        await self._room.refresh()
        return None

    async def ask(
        self, member: Member, review: bool, ref: protocol.Ref = None
    ) -> protocol.Hint | protocol.Refused:
        """The bot's advice to ``member`` (with ``review``, on their last play), or why not:
        the game is not a practice game against the bot, it is not their decision, or their
        last request is still being worked out."""
        refused = self._refusal(member, ref)
        if refused is not None:
            return refused
        assert member.user_id is not None and isinstance(member.seat, int)
        if not self._room.row.practice:
            return protocol.Refused(
                "not-practice", "hints are for practice games: switch practice on first", ref
            )
        if member.user_id in self._asking:
            return protocol.Refused(
                "hint-pending", "your last hint is still being worked out: wait for it", ref
            )
        match, committed = self._room.host.match, self._room.host.committed
        if match is None or committed is None:
            return protocol.Refused("wrong-phase", "the game has not started", ref)
        try:
            kind = hint_kind(match, member.seat, review)
        except NoHint as exc:
            return protocol.Refused(exc.code, str(exc), ref)
        seq = self._room.seq
        job = functools.partial(advise, committed, member.seat, kind)
        self._asking.add(member.user_id)
        try:
            hint = await asyncio.get_running_loop().run_in_executor(self._pool(), job)
        except NoHint as exc:
            return protocol.Refused(exc.code, str(exc), ref)
        except Exception:
            log.exception("game %s: a hint failed", self._room.row.id)
            return protocol.Refused("internal-error", "the hint could not be worked out", ref)
        finally:
            self._asking.discard(member.user_id)
        return protocol.Hint(seq, hint, ref)
