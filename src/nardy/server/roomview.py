"""The room's state as one viewer sees it (protocol version 2, docs/protocol.md): built once
for everybody after each action (:class:`RoomState`), then made into each viewer's own
(:meth:`RoomState.seen_by`): who you are here and what you may do now, and in a
consultation your own side's recent proposals. The core's snapshot, log and records never
cross the wire: the board is :mod:`nardy.core.view`'s, which costs the same deep in a match
as at its start.

A message whose text depends on its reader is encoded once per distinct viewer (a match's
two seats and its spectators; each person at a table), never once per socket
(:class:`PerViewer`); the socket that sent the message gets its ``ref`` in its own copy.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from nardy.core.actions import Player, Propose
from nardy.core.chouette import Chouette
from nardy.core.events import Event, Proposed
from nardy.core.match import Match
from nardy.core.team import Consultation, Proposal
from nardy.core.view import BoardView, chouette_view, consultation_view, match_view
from nardy.server import protocol

RECENT_PROPOSALS = 10
"""How many of a consultation side's latest proposals of the game under way its state
shows."""

Seat = Player | None
"""A viewer: a seat (0 or 1), a person's name at a table, or None for a spectator."""


Actors = tuple[tuple[Player, tuple[str, ...]], ...]
"""Who may act now, each with the action kinds open to them (:attr:`Awaiting.actors`)."""


def board_of(game: Match | Chouette | Consultation) -> tuple[dict[str, Any] | None, Actors]:
    """The board of the game a room plays as everybody sees it (its game under way, or
    between games the last one; None before the first) and who may act now: at a table by
    their names there (the box, the captains, every member's votes, answers and proposals),
    which the board's ``awaiting`` says too."""
    view: BoardView | None
    if isinstance(game, Match):
        view = match_view(game)
    elif isinstance(game, Chouette):
        view = chouette_view(game)
    else:
        view = consultation_view(game)
    if view is None:
        return None, game.awaiting(moves=False).actors
    return view.to_json(), view.awaiting.actors


Shown = tuple[list[dict[str, str]], list[dict[str, str]]]
"""Each consultation side's proposals in their wire form, ``{"player", "text"}``."""


@dataclass(frozen=True, slots=True)
class Proposals:
    """Each consultation side's latest proposals (at most :data:`RECENT_PROPOSALS`), as the
    core made them: those of the game under way are shown to their own side only."""

    sides: tuple[tuple[Proposal, ...], tuple[Proposal, ...]] = ((), ())

    @classmethod
    def of(cls, consultation: Consultation) -> Proposals:
        """The latest proposals of a consultation restored from its snapshot (once: the
        core keeps every proposal of the match)."""
        return cls(
            (
                tuple(consultation.proposals(consultation.captain(0))[-RECENT_PROPOSALS:]),
                tuple(consultation.proposals(consultation.captain(1))[-RECENT_PROPOSALS:]),
            )
        )

    def after(self, consultation: Consultation, events: Iterable[Event]) -> Proposals:
        """These proposals and the ones ``events`` made (the core's :class:`Proposed`)."""
        sides = [list(self.sides[0]), list(self.sides[1])]
        game = len(consultation.match.games) - 1
        turn = 0 if consultation.game is None else len(consultation.game.records)
        for event in events:
            if isinstance(event, Proposed):
                sides[event.side].append(Proposal(event.player, event.side, event.text, game, turn))
        return Proposals((tuple(sides[0][-RECENT_PROPOSALS:]), tuple(sides[1][-RECENT_PROPOSALS:])))

    def shown(self, game: int) -> Shown:
        """Each side's proposals of game ``game`` (0-based), in their wire form."""
        first, second = (
            [{"player": p.member, "text": p.text} for p in side if p.game == game]
            for side in self.sides
        )
        return first, second


@dataclass(frozen=True)
class RoomState:
    """The room's state at one moment, built once for everybody: ``public`` is what every
    viewer sees alike (game, seq, kind, status, settings, rules, board, score, length, the
    players or the table's people, dice, clock, absent, rematch); ``actors`` who may act now
    with the action kinds open to each; ``sides`` the side each person at a table plays on
    the board; ``proposals`` each consultation side's recent proposals (its own side's
    alone reach a viewer)."""

    public: Mapping[str, Any]
    actors: Actors = ()
    sides: Mapping[str, int] = dataclasses.field(default_factory=dict)
    proposals: Shown = ([], [])

    def side_of(self, seat: Seat) -> int | None:
        """The side a viewer plays on the board: a seat's own; a person at a table, the side
        they are on now; a spectator none."""
        if seat is None:
            return None
        if isinstance(seat, int):
            return seat
        return self.sides.get(seat)

    def actions_of(self, seat: Seat) -> list[str]:
        """The action kinds a viewer may send now."""
        return next((list(kinds) for player, kinds in self.actors if player == seat), [])

    def seen_by(self, seat: Seat) -> dict[str, Any]:
        """The state as ``seat`` sees it: the public part, ``you`` (seat, side, the actions
        open to you) and your own side's recent proposals."""
        return {**self.public, **self._own(seat)}

    def read_by(self, seat: Seat) -> protocol.ReaderState:
        """:meth:`seen_by`, ready to encode: the public part's text is encoded once for all
        the viewers of this state."""
        return protocol.ReaderState(self.public_text, self._own(seat))

    @functools.cached_property
    def public_text(self) -> str:
        """The public part's JSON text, encoded once: every viewer's message splices it in."""
        return protocol.ReaderState.shared_text(self.public)

    def _own(self, seat: Seat) -> dict[str, Any]:
        side = self.side_of(seat)
        return {
            "you": {"seat": seat, "side": side, "actions": self.actions_of(seat)},
            "proposals": [] if side is None else self.proposals[side],
        }

    def to_json(self) -> dict[str, Any]:
        """The whole of it (both sides' proposals too) as JSON, for the room's bus: every
        process holding the room tells its own sockets the state as their viewers see it."""
        return {
            "public": dict(self.public),
            "actors": [{"player": p, "actions": list(kinds)} for p, kinds in self.actors],
            "sides": dict(self.sides),
            "proposals": [list(self.proposals[0]), list(self.proposals[1])],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoomState:
        """The state :meth:`to_json` wrote."""
        first, second = data["proposals"]
        return cls(
            dict(data["public"]),
            tuple((a["player"], tuple(a["actions"])) for a in data["actors"]),
            {str(name): int(side) for name, side in data["sides"].items()},
            (list(first), list(second)),
        )


def events_seen_by(
    seq: int,
    action: Mapping[str, Any],
    events: list[dict[str, Any]],
    state: RoomState,
    seat: Seat,
) -> protocol.Events:
    """The ``events`` of action ``seq`` as ``seat`` sees them: a consultation proposal's
    text (its action's ``text`` and its ``proposed`` event) reaches only the proposer's side;
    the others hear that a proposal was made."""
    if action.get("type") == Propose.kind:
        side = state.side_of(seat)
        if side is None or side != state.side_of(action.get("player")):
            hidden = {"type": Propose.kind, "player": action.get("player")}
            return protocol.Events(seq, hidden, [], state.read_by(seat))
    return protocol.Events(seq, dict(action), events, state.read_by(seat))


class PerViewer:
    """One message to a room, encoded once for each distinct viewer who hears it: a
    viewer's own message comes from ``message_for``; the sending socket (``sender``, a
    :attr:`~nardy.server.room.member.Member.key`) gets its own copy with ``ref``."""

    def __init__(
        self,
        message_for: Callable[[Seat], protocol.ServerMessage],
        ref: protocol.Ref = None,
        sender: str | None = None,
    ) -> None:
        self.message_for = message_for
        self.ref = ref
        self.sender = sender
        self._texts: dict[tuple[Seat, bool], str] = {}

    @classmethod
    def same(cls, message: protocol.ServerMessage) -> PerViewer:
        """A message every viewer hears alike (encoded once for the room)."""
        return cls(lambda seat: message)

    @classmethod
    def states(
        cls, state: RoomState, ref: protocol.Ref = None, sender: str | None = None
    ) -> PerViewer:
        """The whole state, each viewer's own."""
        return cls(lambda seat: protocol.State(state.read_by(seat)), ref, sender)

    @classmethod
    def events(
        cls,
        seq: int,
        action: Mapping[str, Any],
        events: list[dict[str, Any]],
        state: RoomState,
        ref: protocol.Ref = None,
        sender: str | None = None,
    ) -> PerViewer:
        """The events of action ``seq``, each viewer's own."""
        return cls(lambda seat: events_seen_by(seq, action, events, state, seat), ref, sender)

    def text_for(self, seat: Seat, key: str) -> str:
        """The text the socket ``key`` of viewer ``seat`` is sent."""
        own = self.sender is not None and key == self.sender and self.ref is not None
        text = self._texts.get((seat, own))
        if text is None:
            message = self.message_for(seat)
            if own and isinstance(message, protocol.Events | protocol.State):
                message = dataclasses.replace(message, ref=self.ref)
            text = self._texts[(seat, own)] = protocol.encode(message)
        return text
