"""Team play (RULES.md 1.8): consultation sides on one board, and team matches on three.

In a :class:`Consultation` each side has several members and a captain (the first member
named) who alone acts for the side; the others may propose moves, which only their own side
ever sees. A :class:`TeamMatch` pairs the members of two teams of three in three ordinary
matches; the team that wins two of them wins.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from nardy.core import actions as act
from nardy.core import events as ev
from nardy.core.awaiting import Awaiting
from nardy.core.dice import Dice
from nardy.core.errors import ErrorCode, InvalidInputError, NardyError
from nardy.core.game import SNAPSHOT_VERSION, Game, GameError
from nardy.core.match import Match
from nardy.core.moves import Move, Play
from nardy.core.settings import Settings, SettingsError


class TeamError(GameError):
    """An action by someone who may not take it: not a member of a side, or a member acting
    for the side who is not its captain."""

    code = ErrorCode.NOT_YOUR_TURN


@dataclass(frozen=True, slots=True)
class Proposal:
    """A move suggested by a member to their own side, in game ``game`` (0-based) at turn
    ``turn`` (the number of turns finished in that game when it was made)."""

    member: str
    side: int
    text: str
    game: int
    turn: int


class Consultation:
    """A match or money session between two sides of one or more members each (RULES.md
    1.8). ``sides`` lists each side's members, its captain first.

    The games are those of :attr:`match`; drive them through the methods here, each naming
    the member who acts. Only a side's captain is accepted for the side (:class:`TeamError`
    otherwise); out of turn the game refuses as usual. Neither changes anything.
    """

    def __init__(
        self,
        sides: tuple[Sequence[str], Sequence[str]],
        settings: Settings | None = None,
        dice: Dice | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.sides = (tuple(sides[0]), tuple(sides[1]))
        if not (self.sides[0] and self.sides[1]):
            raise TeamError("each side needs at least one member")
        _check_names([*self.sides[0], *self.sides[1]])
        names = (" & ".join(self.sides[0]), " & ".join(self.sides[1]))
        self.match = Match(settings, dice, names, clock)
        self._proposals: list[Proposal] = []

    def captain(self, side: int) -> str:
        """The member who makes the moves and cube decisions of ``side``."""
        return self.sides[side][0]

    def side_of(self, member: str) -> int | None:
        """The side ``member`` plays on; None for a spectator."""
        for side, members in enumerate(self.sides):
            if member in members:
                return side
        return None

    @property
    def game(self) -> Game | None:
        """The game being played, or the last one."""
        return self.match.game

    def new_game(self) -> Game:
        """Start the next game of the match or session."""
        return self.match.new_game()

    # -- the one entry point ------------------------------------------------------------

    def apply(self, action: act.Action) -> tuple[ev.Event, ...]:
        """Take ``action`` by the member it names: a proposal by any member (a
        :class:`~nardy.core.events.Proposed` event, for that side's eyes only), anything else
        by a side's captain, which is the match's action for that side (:meth:`Match.apply`:
        games start by themselves). A refused action changes nothing."""
        member = action.player
        if not isinstance(member, str):
            raise TeamError(f"members are names, not {member!r}", code=ErrorCode.INVALID_INPUT)
        if isinstance(action, act.Propose):
            proposal = self.propose(member, action.text)
            return (ev.Proposed(member, proposal.side, proposal.text),)
        side = self._side(member)
        return self.match.apply(dataclasses.replace(action, player=side))

    def awaiting(self, *, moves: bool = True) -> Awaiting:
        """Who must act now: each side's captain in place of the side; every member of a
        side may also propose while a game is under way."""
        waiting = self.match.awaiting(moves=moves)
        actors: list[tuple[act.Player, tuple[str, ...]]] = []
        for side, kinds in waiting.actors:
            assert isinstance(side, int)
            actors.append((self.captain(side), kinds))
        game = self.game
        if game is not None and not game.over:
            for members in self.sides:
                for member in members:
                    kinds = next((k for m, k in actors if m == member), ())
                    entry = (member, (*kinds, act.Propose.kind))
                    if kinds:
                        actors = [entry if m == member else (m, k) for m, k in actors]
                    else:
                        actors.append(entry)
        return Awaiting(waiting.phase, tuple(actors), waiting.moves, waiting.dice)

    def snapshot(self) -> dict[str, Any]:
        """The consultation as JSON-serialisable data: the sides, the match's
        :meth:`Match.snapshot` and every proposal."""
        return {
            "snapshot": SNAPSHOT_VERSION,
            "sides": [list(self.sides[0]), list(self.sides[1])],
            "match": self.match.snapshot(),
            "proposals": [[p.member, p.side, p.text, p.game, p.turn] for p in self._proposals],
        }

    @classmethod
    def restore(
        cls,
        snapshot: dict[str, Any],
        dice: Dice | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Consultation:
        """The consultation a :meth:`snapshot` describes, going on with ``dice``. Raises
        :class:`InvalidInputError` for data that is not a consultation snapshot."""
        try:
            if snapshot.get("snapshot") != SNAPSHOT_VERSION:
                raise InvalidInputError(
                    f"not a consultation snapshot of version {SNAPSHOT_VERSION}"
                )
            a, b = snapshot["sides"]
            match = Match.restore(snapshot["match"], dice, clock)
            consultation = cls((a, b), match.settings, match.dice, clock)
            consultation.match = match
            consultation._proposals = [
                Proposal(str(m), int(side), str(text), int(g), int(t))
                for m, side, text, g, t in snapshot["proposals"]
            ]
        except NardyError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise InvalidInputError(f"not a consultation snapshot: {exc!r}") from None
        return consultation

    # -- consulting -----------------------------------------------------------------------

    def propose(self, member: str, text: str) -> Proposal:
        """A member suggests a move (or any decision) to their side during a game."""
        side = self.side_of(member)
        if side is None:
            raise TeamError(f"{member!r} is not on either side and cannot propose")
        game = self._game()
        if not text.strip():
            raise TeamError("a proposal needs some text")
        proposal = Proposal(member, side, text, len(self.match.games) - 1, len(game.records))
        self._proposals.append(proposal)
        return proposal

    def proposals(self, viewer: str) -> list[Proposal]:
        """The proposals ``viewer`` may see: their own side's, in order; a spectator sees
        none, and neither side ever sees the other's."""
        side = self.side_of(viewer)
        return [p for p in self._proposals if side is not None and p.side == side]

    # -- the game, by the captains: each is the Game's action of the same name ------------

    def roll_opening(self) -> tuple[int, int]:
        """Each side rolls one die (RULES.md 1.1)."""
        return self._game().roll_opening()

    def double(self, member: str) -> None:
        self._game().double(self._side(member))

    def take(self, member: str) -> None:
        self._game().take(self._side(member))

    def pass_double(self, member: str) -> None:
        self._game().pass_double(self._side(member))

    def beaver(self, member: str) -> None:
        self._game().beaver(self._side(member))

    def roll(self, member: str) -> tuple[int, int]:
        return self._game().roll(self._side(member))

    def move(self, member: str, start: int, end: int) -> Move:
        return self._game().move(self._side(member), start, end)

    def undo(self, member: str) -> None:
        self._game().undo(self._side(member))

    def confirm(self, member: str) -> None:
        self._game().confirm(self._side(member))

    def play(self, member: str, play: Play | str) -> Play:
        return self._game().play(self._side(member), play)

    def choose_double(self, member: str, die: int) -> None:
        self._game().choose_double(self._side(member), die)

    def resign(self, member: str, level: int = 1) -> None:
        self._game().resign(self._side(member), level)

    def accept_resignation(self, member: str) -> None:
        self._game().accept_resignation(self._side(member))

    def decline_resignation(self, member: str) -> None:
        self._game().decline_resignation(self._side(member))

    def surrender(self, member: str) -> None:
        self._game().surrender(self._side(member))

    def _side(self, member: str) -> int:
        side = self.side_of(member)
        if side is None:
            raise TeamError(f"{member!r} is not on either side")
        if member != self.captain(side):
            raise TeamError(f"{self.captain(side)} is the captain and acts for the side")
        return side

    def _game(self) -> Game:
        if self.game is None:
            raise TeamError("no game has started: start one with new_game")
        return self.game


class TeamMatch:
    """Two teams of three play three matches at once, member i of one team against member i
    of the other, each an ordinary :class:`Match` under ``settings`` (RULES.md 1.8). The team
    that wins two of the three matches wins, as soon as it has."""

    def __init__(
        self,
        teams: tuple[Sequence[str], Sequence[str]],
        settings: Settings,
        dice: Dice | None = None,
    ) -> None:
        self.teams = (tuple(teams[0]), tuple(teams[1]))
        if len(self.teams[0]) != 3 or len(self.teams[1]) != 3:
            raise TeamError("a team match is two teams of three")
        _check_names([*self.teams[0], *self.teams[1]])
        if settings.resolve().money:
            raise SettingsError("a team match is three matches: match-length must be 1 or more")
        self.matches = tuple(
            Match(settings, dice, (self.teams[0][i], self.teams[1][i])) for i in range(3)
        )

    def board(self, player: str) -> tuple[Match, int]:
        """The match ``player`` plays and their side (0 or 1) in it."""
        for side, team in enumerate(self.teams):
            if player in team:
                return self.matches[team.index(player)], side
        raise TeamError(f"{player!r} is not in this team match")

    @property
    def wins(self) -> tuple[int, int]:
        """Matches won so far by each team."""
        winners = [m.winner for m in self.matches]  # None while a match goes on
        return winners.count(0), winners.count(1)

    @property
    def winner(self) -> int | None:
        """The team (0 or 1) that has won two matches, or None while neither has."""
        wins = self.wins
        if max(wins) < 2:
            return None
        return 0 if wins[0] >= 2 else 1

    @property
    def over(self) -> bool:
        """Whether a team has won; the third match, if still going, decides nothing."""
        return self.winner is not None


def _check_names(names: Sequence[str]) -> None:
    if any(not isinstance(n, str) or not n.strip() for n in names):
        raise TeamError("every member needs a name")
    if len(set(names)) != len(names):
        raise TeamError("a name appears twice")
