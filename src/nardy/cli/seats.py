"""The hands of whoever decides at the terminal: a :class:`Seat` hands every action a person
types to the table (a game, or a chouette around it) in the name of the one who speaks,
through the table's one entry point, ``apply``. The table refuses, with a
:class:`~nardy.core.errors.NardyError` and changing nothing, an action that one may not take
now.

The actions themselves are :mod:`nardy.core.actions`' (the one place where the vocabulary
is written); a seat only adds the acting player.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from nardy.core.actions import Action, Player
from nardy.core.events import Event


class Table(Protocol):
    """What a seat acts on: anything that takes actions and says what happened."""

    def apply(self, action: Action) -> tuple[Event, ...]: ...


@dataclass(frozen=True, slots=True)
class Seat:
    """``player`` (seat 0 or 1 of a game; a participant's name in a chouette) at ``table``."""

    table: Table
    player: Player

    def act(self, kind: Callable[..., Action], *fields: int | str | bool) -> tuple[Event, ...]:
        """Take the action of class ``kind`` with its ``fields`` after the player (``Move``,
        24, 18): the events it caused."""
        return self.table.apply(kind(self.player, *fields))
