"""The chat of a room: short lines, a rate limit per person, a mute per person, and the
spectators' chat kept from the players while the game runs (so that nobody watching can
advise a player)."""

from __future__ import annotations

import datetime
from collections import deque

from nardy.core.actions import Player
from nardy.server import protocol
from nardy.server.config import RateLimit
from nardy.server.security import RateLimiter

HISTORY = 100
"""Chat lines a room keeps for those who join later."""
CHAT_RATE = RateLimit(5, 10.0)
"""Lines one person may say in ten seconds."""


class RoomChat:
    """What has been said in one room, and who does not want to hear it."""

    def __init__(self) -> None:
        self.lines: deque[protocol.Said] = deque(maxlen=HISTORY)
        self.muted: set[int] = set()
        self._limiter = RateLimiter(CHAT_RATE)

    def say(
        self, user_id: int | None, username: str | None, seat: Player | None, text: str
    ) -> protocol.Said | str:
        """The line said, or why it was refused (the refusal's code)."""
        if user_id is None or username is None:
            return "not-signed-in"
        if self._limiter.hit(str(user_id)) is not None:
            return "chat-rate-limited"
        said = protocol.Said(seat, username, text, datetime.datetime.now(datetime.UTC).isoformat())
        self.lines.append(said)
        return said

    def hears(
        self, user_id: int | None, seat: Player | None, said: protocol.Said, over: bool
    ) -> bool:
        """Whether this listener gets this line: not when they muted the chat, and a
        spectator's line reaches the players only once the game is over."""
        if user_id is not None and user_id in self.muted:
            return False
        return not (said.seat is None and seat is not None and not over)

    def history(
        self, user_id: int | None, seat: Player | None, over: bool
    ) -> tuple[protocol.Said, ...]:
        """The lines so far that this listener may read."""
        return tuple(s for s in self.lines if self.hears(user_id, seat, s, over))

    def mute(self, user_id: int | None, muted: bool) -> None:
        """Stop (or start again) sending this user the chat."""
        if user_id is None:
            return
        if muted:
            self.muted.add(user_id)
        else:
            self.muted.discard(user_id)
