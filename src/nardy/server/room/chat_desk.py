"""The chat desk of a room: a member's line stored before anyone hears it, mutes kept, and
who hears which line (:class:`nardy.server.chat.RoomChat`)."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from nardy.core.actions import Player
from nardy.server import protocol
from nardy.server.chat import HISTORY, RoomChat, said_of
from nardy.server.http import off_loop
from nardy.server.room.member import Member
from nardy.server.store.store import ChatLine, Store

log = logging.getLogger(__name__)

_REFUSALS = {
    "not-signed-in": "sign in (or play as a guest) to chat",
    "chat-rate-limited": "too many chat lines; wait a little",
}


class ChatDesk:
    """One room's chat as this process knows it."""

    def __init__(self, store: Store, game_id: str) -> None:
        self.store = store
        self.game_id = game_id
        self.chat = RoomChat()

    async def load(self, members: Iterable[Member] = (), over: bool = False) -> None:
        """The room's chat history and mutes as the database keeps them; the lines this
        process had not heard (said elsewhere while news was lost) reach ``members``."""
        lines = await off_loop(self.store.chat_history, self.game_id, HISTORY)
        muted = await off_loop(self.store.chat_muted, self.game_id)
        known = {line_id for line_id, _ in self.chat.lines}
        self.chat.load(lines, muted)
        members = list(members)
        for line in lines:
            if line.id not in known:
                self._tell(said_of(line), members, over)

    async def say(
        self, member: Member, text: str, ref: protocol.Ref
    ) -> ChatLine | protocol.Refused:
        """A member's line, stored; or why not."""
        refusal = self.chat.refusal(member.user_id, member.username)
        if refusal is not None:
            return protocol.Refused(refusal, _REFUSALS[refusal], ref)
        assert member.user_id is not None and member.username is not None
        try:
            return await off_loop(
                self.store.add_chat_line,
                self.game_id,
                member.user_id,
                member.username,
                member.seat,
                text,
            )
        except Exception:
            log.exception("game %s: a chat line could not be stored", self.game_id)
            return protocol.Refused("busy", "the line could not be stored; try again", ref)

    async def mute(self, user_id: int, muted: bool) -> None:
        """A member stops (or starts again) hearing the chat, at once (the next line may be
        on its way) and kept for every process and after a restart."""
        self.chat.mute(user_id, muted)
        await off_loop(self.store.set_chat_muted, self.game_id, user_id, muted)

    def heard(self, line_id: int, said: protocol.Said, members: set[Member], over: bool) -> None:
        """A stored line reaches everyone here who may hear it (once)."""
        if self.chat.add(line_id, said) is not None:
            self._tell(said, members, over)

    def _tell(self, said: protocol.Said, members: Iterable[Member], over: bool) -> None:
        message = protocol.Chat(said)
        for listener in list(members):
            if self.chat.hears(listener.user_id, listener.seat, said, over):
                listener.send(message)

    def history(
        self, user_id: int | None, seat: Player | None, over: bool
    ) -> tuple[protocol.Said, ...]:
        """The lines so far that this listener may read."""
        return self.chat.history(user_id, seat, over)

    def muted(self, user_id: int | None) -> bool:
        return user_id is not None and user_id in self.chat.muted
