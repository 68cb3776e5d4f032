"""What a room holds: the game object of its kind and everything that kind decides.

A room (:mod:`nardy.server.room.actor`) is the same for every game: it serialises the
actions, commits each one before anyone hears of it, tells its sockets and the other
processes. What it applies the actions to is its :class:`Host`: the two-seat match
(:class:`~nardy.server.room.match_host.MatchHost`) or a chouette table or consultation game
(:class:`~nardy.server.room.table_host.TableHost`), chosen by the game's
:class:`~nardy.server.games.GameKind`
(:func:`nardy.server.room.registry.host_for`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any

from nardy.core.actions import Action, Player
from nardy.core.events import Event
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.server import roomview
from nardy.server.games import GameKind
from nardy.server.http import off_loop
from nardy.server.store.checkpoints import Checkpoint, Committed, Held, ReplayError, played_on
from nardy.server.store.store import GameRow, Store
from nardy.server.variantfacts import facts_of

Stored = tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]
"""What is committed with an action: the game's snapshot, its dice (secret, as stored) and
the result once the whole game (match, session, table) is over."""


class Host(ABC):
    """The game object of one room and the rules of its kind the room follows: who sits
    where, what the state shows, how an action applies and what is committed after it, who
    hears what, which players the computer plays and what is settled for people's records."""

    kind: GameKind

    def __init__(self, store: Store, row: GameRow) -> None:
        self.store = store
        self.game_id = row.id
        # The game object as last committed (a checkpoint and the actions since, not a
        # snapshot): what a failed commit goes back to, and what the bots decide on.
        self.committed: Committed | None = None

    @property
    def match(self) -> Match | None:
        """The match of a two-seat game (None before it starts, and at a table): it alone
        has a clock, players who can be absent and claimed against, client seeds and
        rematches."""
        return None

    def two_seat(self, seat: Player | None) -> int | None:
        """The seat, 0 or 1, that ``seat`` holds in a two-seat game (whose players can be
        absent, claim, offer a rematch and give seeds); None at a table or for a spectator."""
        return None

    @property
    @abstractmethod
    def held(self) -> Held | None:
        """The game object: a match, a chouette or a consultation (None before it starts)."""

    @property
    @abstractmethod
    def started(self) -> bool:
        """Whether the game object exists (the players are seated)."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """Whether the game is over for good (a chouette goes on while players stay)."""

    def rule_facts(self, row: GameRow) -> dict[str, Any]:
        """The rule facts of the variant played here (:mod:`nardy.server.variantfacts`)."""
        return facts_of(str(row.settings.get("variant", Settings().variant)))

    @abstractmethod
    def seat_of(self, row: GameRow, user_id: int) -> Player | None:
        """The seat this user plays here (a table's members by their name there), or None
        for a spectator."""

    @abstractmethod
    def state(self, row: GameRow) -> roomview.RoomState:
        """This kind's part of the room's state (:mod:`nardy.server.roomview`): the board,
        the score, the length, who sits where, the dice, who may act; the room adds the
        game, the action number, its kind and status, the settings, the clock, the
        absences and the rematch."""

    def length(self, row: GameRow) -> int:
        """The match's length in points (0: money play): the game's own once it exists (the
        settings are read only before)."""
        match = self.match
        if match is not None:
            return match.length
        return Settings.from_dict(dict(row.settings)).match_length

    @abstractmethod
    def apply(self, action: Action) -> tuple[Event, ...]:
        """Apply an action to the game object (NardyError: refused, nothing changed)."""

    @abstractmethod
    def stored(self) -> Stored:
        """What a checkpoint keeps after an action (and the result once it is over)."""

    @abstractmethod
    def take_dice(self, dice: Mapping[str, Any]) -> None:
        """After applying an action another process committed with a checkpoint: the next
        game's dice as that checkpoint stores them (``dice``, secret), since a game that
        starts draws its successor's seed where it is committed. :class:`ValueError` where
        the dice dealt here are not the checkpoint's."""

    @abstractmethod
    def rebuild(self) -> None:
        """Back to the last committed state (an action failed half-way or was not stored)."""

    @abstractmethod
    async def load(self, row: GameRow, known: GameRow | None) -> None:
        """Take in the game as the database has it (``row``); ``known`` is the row this host
        last loaded (None: the room is being built)."""

    def behind(self, row: GameRow, known: GameRow) -> bool:
        """Whether the database's ``row`` has news the room has not heard (``known``): an
        action, a start or an end, someone sitting down."""
        return (row.seq, row.status, row.seats) != (known.seq, known.status, known.seats)

    @abstractmethod
    def bot_players(self, row: GameRow) -> list[Player]:
        """The players the computer plays, in the order they are asked."""

    @abstractmethod
    def bot_waits(self, player: Player) -> bool:
        """Whether the game waits for the bot playing ``player``."""

    def bot_delay(self, row: GameRow, player: Player) -> float:
        """Seconds the bot playing ``player`` waits before it acts: its opponent's choice."""
        return row.bot_delay_ms / 1000

    @abstractmethod
    def bot_job(self, row: GameRow, player: Player) -> Callable[[], Action | None]:
        """The decision of the bot playing ``player``, to run in the bots' process pool on the
        game as committed, which the worker restores (None: it lets the decision pass)."""

    @abstractmethod
    async def settle(self, row: GameRow) -> None:
        """Keep for people's records what the game has decided and is not kept yet (a
        match's ratings, a table's results per person)."""

    async def acted(self, row: GameRow, seat: Player, action: Action) -> bool:
        """After ``seat``'s committed ``action``: whether the room's people changed in the
        database (someone left a table), so that every process reads the row again."""
        return False


async def committed_of(store: Store, row: GameRow) -> Committed | None:
    """A started game as its row and log hold it: the last checkpoint and the actions after
    it (:mod:`nardy.server.store.checkpoints`), the time played since counted; None before the
    first checkpoint (the game object is new)."""
    if row.snapshot is None or row.dice is None:
        if row.seq:
            raise ReplayError("actions were committed without a checkpoint")
        return None
    found: list[dict[str, Any]] = []
    snapshot = row.snapshot
    if row.seq > row.snapshot_seq:
        found, seconds = await off_loop(store.actions_between, row.id, row.snapshot_seq, row.seq)
        snapshot = played_on(snapshot, seconds)
    return Committed(
        Checkpoint(snapshot, row.dice), row.snapshot_seq, tuple(found), row.snapshot_seq
    )


def fresh(stored: Stored) -> Committed:
    """A new game object as committed before its first action (no checkpoint stored yet)."""
    return Committed(Checkpoint(stored[0], stored[1]), 0, (), None)
