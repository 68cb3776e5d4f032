"""Someone in a room, and the close codes with which the room ends their socket."""

from __future__ import annotations

import asyncio
import contextlib
import secrets

from nardy.core.actions import Player
from nardy.server import protocol

QUEUE_LIMIT = 256
"""Messages a member may fall behind by before the room drops their socket."""

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
        """This socket among all the room's: the one that sent a message hears its ``ref``
        in the replies it causes."""
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
