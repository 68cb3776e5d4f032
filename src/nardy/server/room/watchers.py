"""How many are watching a game: the spectators (anonymous visitors included) with a
socket in its room on any process. Each process counts its own sockets and tells the others
its count on the game's channel (:class:`nardy.server.room.news.Watching`); a process that
hears a count from a process new to it answers with its own, so one that took the room up
late learns the others' counts too."""

from __future__ import annotations


class Watchers:
    """The spectators of one room: this process's, and each other process's as it said."""

    def __init__(self) -> None:
        self.here = 0
        self.elsewhere: dict[str, int] = {}  # process token -> its spectators' count

    @property
    def count(self) -> int:
        """Everybody watching, on every process."""
        return self.here + sum(self.elsewhere.values())

    def counted(self, here: int) -> bool:
        """This process now has ``here`` spectators; whether that changes its count."""
        changed = here != self.here
        self.here = here
        return changed

    def heard(self, origin: str, count: int) -> bool:
        """Process ``origin`` says it has ``count`` spectators; whether it was new to this
        one (which then tells its own count back, where it has any)."""
        new = origin not in self.elsewhere
        if count:
            self.elsewhere[origin] = count
        else:  # a process with nobody watching is forgotten (it may have stopped)
            self.elsewhere.pop(origin, None)
        return new and count > 0
