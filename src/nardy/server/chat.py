"""The chat of a room: short lines, a rate limit per person, a mute per person, and the
spectators' chat kept from the players while the game runs (so that nobody watching can
advise a player).

The database keeps every line and every mute (so a restarted server, or another server
process holding the same room, shows the same history); each process keeps the room's last
lines in memory, filled from the database when the room loads and from the bus as lines are
said anywhere."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from nardy.core.actions import Player
from nardy.server import protocol
from nardy.server.accounts.security import RateLimiter
from nardy.server.config import RateLimit
from nardy.server.store.store import ChatLine

HISTORY = 100
"""Chat lines a room keeps for those who join later."""
CHAT_RATE = RateLimit(5, 10.0)
"""Lines one person may say in ten seconds (counted by the process the person's socket is
on)."""


def said_of(line: ChatLine) -> protocol.Said:
    """The line as the protocol shows it."""
    return protocol.Said(line.seat, line.username, line.text, line.said_at.isoformat())


class RoomChat:
    """What has been said in one room, and who does not want to hear it."""

    def __init__(self) -> None:
        # (the line's id in the database, the line): the id tells a line heard twice (from
        # the bus and from a reload) and keeps every process's history in the same order.
        self.lines: deque[tuple[int, protocol.Said]] = deque(maxlen=HISTORY)
        self.muted: set[int] = set()
        self._limiter = RateLimiter(CHAT_RATE)

    def refusal(self, user_id: int | None, username: str | None) -> str | None:
        """Why this person may not say a line now (the refusal's code), or None; a line
        allowed counts towards the rate limit."""
        if user_id is None or username is None:
            return "not-signed-in"
        if self._limiter.hit(str(user_id)) is not None:
            return "chat-rate-limited"
        return None

    def load(self, lines: Iterable[ChatLine], muted: Iterable[int]) -> None:
        """Replace what this process knows by what the database holds."""
        self.lines.clear()
        self.lines.extend((line.id, said_of(line)) for line in lines)
        self.muted = set(muted)

    def add(self, line_id: int, said: protocol.Said) -> protocol.Said | None:
        """A line stored with the database id ``line_id`` (said here or heard on the bus):
        the line, or None when this process has it already."""
        if any(known == line_id for known, _ in self.lines):
            return None
        if self.lines and self.lines[-1][0] > line_id:  # said earlier, in another process
            ordered = sorted([*self.lines, (line_id, said)], key=lambda pair: pair[0])
            self.lines.clear()
            self.lines.extend(ordered)
        else:
            self.lines.append((line_id, said))
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
        return tuple(s for _, s in self.lines if self.hears(user_id, seat, s, over))

    def mute(self, user_id: int, muted: bool) -> None:
        """Stop (or start again) sending this user the chat."""
        if muted:
            self.muted.add(user_id)
        else:
            self.muted.discard(user_id)
