"""What a game on the server is and where it stands: its kind and its status.

The two closed vocabularies of the ``games`` table, as StrEnums: the database keeps their
values as text, the API and the rooms' state send them as text, and a StrEnum compares equal
to its text, so code that still holds a plain string agrees with them. Standard library
only, and nothing of the server imported, so that every layer of the server (the schema,
the store, the lobbies, the rooms) can name them without an import cycle.
"""

from __future__ import annotations

import enum


class GameKind(enum.StrEnum):
    """What a room holds: a two-player match (or money session), a chouette table, or a
    consultation game (two sides of people, each playing one side together)."""

    MATCH = "match"
    CHOUETTE = "chouette"
    CONSULTATION = "consultation"


TABLE_KINDS = (GameKind.CHOUETTE, GameKind.CONSULTATION)
"""The kinds whose people sit at a table (``table_members``), not in the two seats."""


class GameStatus(enum.StrEnum):
    """Where a game stands. A match waits ``open`` (a public seek) or ``invited`` (behind a
    private link) for its second player, a table waits ``open`` for its people; it is
    ``playing`` from then on until it is ``finished`` (its result kept) or, withdrawn by its
    creator while nobody had joined, ``cancelled``.

    ``unavailable`` is never stored: it is what the API shows for a game the server set
    aside because its data cannot be restored (``games.unavailable``), whatever its stored
    status, and what a row whose stored status is none of these reads as."""

    OPEN = "open"
    INVITED = "invited"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    UNAVAILABLE = "unavailable"


WAITING = (GameStatus.OPEN, GameStatus.INVITED)
"""The statuses of a game that waits for its people: a seek or an invitation waiting for
its second player, a table for enough people to start (which its creator may withdraw)."""

SITTING = (GameStatus.OPEN, GameStatus.PLAYING)
"""The statuses of a table that people may still sit at (or watch): waiting, or under way
(a chouette takes newcomers between games)."""
