"""Who of a two-seat game's players is here: a player whose sockets are all gone, on every
process holding the room, is absent; after the grace period the opponent may claim the game
(the absent player forfeits) or wait."""

from __future__ import annotations

import time
from typing import Any

from nardy.server import protocol


class Presence:
    """The absent players of a game between two people and when each may be claimed."""

    def __init__(self, grace: float) -> None:
        self.grace = grace
        self.absent: dict[int, float] = {}  # seat -> when the opponent may claim the game
        # The seats that other processes say have a socket there (their tokens): present,
        # though not here.
        self.elsewhere: dict[int, set[str]] = {0: set(), 1: set()}
        # The seats whose player has been in the room (or, after a restart, was playing): only
        # they can be absent; a player on the way in from the lobby is not.
        self.arrived: set[int] = set()

    def changes(self, applies: bool, here: set[int]) -> list[protocol.ServerMessage]:
        """Mark the players who have been in the room and have no socket in it (``here``:
        the seats with a socket in this process) nor elsewhere as absent (their grace
        period starts now) and those back as present; the messages that say so. Nobody is
        absent where presence does not apply (before the game starts, after it ends,
        against the bot)."""
        if not applies:
            self.absent.clear()
            return []
        here = here | {seat for seat, tokens in self.elsewhere.items() if tokens}
        messages: list[protocol.ServerMessage] = []
        for seat in (0, 1):
            if seat in here and seat in self.absent:
                del self.absent[seat]
                messages.append(protocol.Present(seat))
            elif seat not in here and seat not in self.absent and seat in self.arrived:
                self.absent[seat] = time.time() + self.grace
                messages.append(protocol.Absent(seat, self.grace))
        return messages

    def heard(self, origin: str, seat: int, here: bool) -> None:
        """Another process (``origin``) has, or no longer has, a socket of ``seat``."""
        tokens = self.elsewhere[seat]
        (tokens.add if here else tokens.discard)(origin)

    def claim_refusal(self, seat: int, ref: protocol.Ref) -> protocol.Refused | None:
        """Why the player in ``seat`` may not claim the game now, or None: the opponent is
        absent and their grace period is over."""
        until = self.absent.get(1 - seat)
        if until is None:
            return protocol.Refused("not-absent", "your opponent is here", ref)
        left = until - time.time()
        if left > 0:
            return protocol.Refused(
                "grace-period", f"your opponent has {left:.0f} s more to come back", ref
            )
        return None

    def view(self, now: float) -> list[dict[str, Any]]:
        """The absent players as the room's state shows them."""
        return [
            {"seat": seat, "claim-in": round(max(0.0, until - now), 3)}
            for seat, until in sorted(self.absent.items())
        ]
