"""Chouette: one player, the box, against a team of everyone else (RULES.md 1.7).

Each game is an ordinary :class:`Game` with the box as side 0 and the team as side 1. The
:class:`Chouette` stands between the participants and that game: every action names the
participant who takes it, and only the box acts for side 0 and only the team's captain for
side 1. It adds what a two-player game cannot know about: the team's unanimous vote before
doubling the box, each member's own take or pass when the box doubles, the settlement of the
box with every member, the rotation of box and captain between games, and running scores.

There is one cube for the board, as in RULES.md 1.7: every member still in the game plays at
its value. A member who passes a double of the box pays the stake before the double and leaves
the game; if the captain passes, the next member still in, in line order, becomes captain.

Decisions where RULES.md is silent:

- Rotation follows the result between the box and the game's first captain (the box keeps
  the box if he beats the captain): a captain who passed the box's double has lost, so the box
  stays even if other members go on to win. A draw (long nardy's last roll) pays nothing and
  counts as a team loss for the rotation.
- The box resigns to the team, and the team's captain accepts or declines for every member
  still in the game. The team resigns through its captain alone (the captain's choice stands,
  as for the checker play); the box accepts or declines, and every member still in pays.
- A box who leaves between games is replaced by the captain; the line moves up.
- Players join (at the end of the line) and leave only between games; with fewer than three
  no new game starts.
- Chouette is money play: a match length, beavers (which would give members different stakes
  on one cube) and the session limits (a score difference means nothing among three or more;
  the session ends when players leave) are refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from nardy.core import actions as act
from nardy.core import events as ev
from nardy.core.awaiting import Awaiting
from nardy.core.dice import Dice, SecretDice
from nardy.core.errors import ErrorCode, InvalidInputError, NardyError, reading
from nardy.core.game import SNAPSHOT_VERSION, Game, GameError, Phase
from nardy.core.moves import Move, Play
from nardy.core.settings import Settings, SettingsError

BOX = 0
"""The box's side in each game."""
TEAM = 1
"""The team's side in each game."""


class ChouetteError(GameError):
    """An action by a participant who may not take it now (not in the chouette, not the
    captain, out of this game, already voted or answered), or out of order between games."""

    code = ErrorCode.NOT_YOUR_TURN


def draw_lot(players: Sequence[str], dice: Dice) -> tuple[list[str], list[dict[str, int]]]:
    """The order of play (RULES.md 1.7): each player rolls one die, the highest first; players
    who tie roll again among themselves only, to order just their group.

    Returns the order (box, captain, then the rest of the team line) and every round of dice,
    each as {player: die} in the order rolled.
    """
    rounds: list[dict[str, int]] = []

    def order(group: list[str]) -> list[str]:
        if len(group) == 1:
            return group
        roll = {name: dice.die() for name in group}
        rounds.append(roll)
        ranked: list[str] = []
        for value in sorted(set(roll.values()), reverse=True):
            ranked += order([name for name in group if roll[name] == value])
        return ranked

    return order(list(players)), rounds


@dataclass
class ChouetteGame:
    """One game of a chouette and the money it moved.

    ``team`` is the team line at the start, its first member the captain; ``in_game`` the
    members still playing, in line order (the first is the captain now); ``passed`` the stake
    each member who passed a double of the box paid; ``settlements`` each participant's net
    result for the game (the box's included, so they sum to zero); ``refused_doubles`` the
    members who voted against a team double, one entry per refused vote.
    """

    box: str
    team: tuple[str, ...]
    game: Game
    in_game: list[str]
    passed: dict[str, int] = field(default_factory=dict)
    settlements: dict[str, int] = field(default_factory=dict)
    refused_doubles: list[str] = field(default_factory=list)

    @property
    def captain(self) -> str:
        """The member who plays for the team now (the next in line after a captain passes)."""
        return self.in_game[0] if self.in_game else self.team[0]

    def pay(self, payer: str, payee: str, amount: int) -> None:
        """Move ``amount`` points from one participant's result to another's."""
        self.settlements[payer] -= amount
        self.settlements[payee] += amount


VOTE_ENDS = ("doubled", "against", "rolled")
"""How a team vote on doubling the box ends: every member still in voted for it (the double
is offered), a member voted against, or the captain rolled before everyone had voted."""


@dataclass(frozen=True, slots=True)
class VoteResult:
    """How the team's last vote on doubling the box ended (one of :data:`VOTE_ENDS`):
    ``agreed`` the members who had voted for it, in the order they voted, and ``by`` who
    ended it (the member who voted against, the captain who rolled, the last to agree)."""

    agreed: tuple[str, ...]
    by: str
    ended: str

    def to_dict(self) -> dict[str, Any]:
        """``{"agreed": [...], "by", "ended"}``, as snapshots and the room's state keep it."""
        return {"agreed": list(self.agreed), "by": self.by, "ended": self.ended}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> VoteResult:
        """The result :meth:`to_dict` wrote."""
        ended = str(data["ended"])
        if ended not in VOTE_ENDS:
            raise InvalidInputError(f"a vote ends {', '.join(VOTE_ENDS)}, not {ended!r}")
        return cls(tuple(str(n) for n in data["agreed"]), str(data["by"]), ended)


class Chouette:
    """A chouette session among three or more named players under money-play settings.

    The lot decides the first box and the team line at creation (:attr:`lot` keeps its dice).
    Start each game with :meth:`new_game`, then drive it through the methods here, each naming
    the participant who acts; they raise :class:`ChouetteError` for the wrong participant and
    the game's own :class:`GameError` for an action out of turn, and change nothing then.
    """

    def __init__(
        self,
        players: Sequence[str],
        settings: Settings | None = None,
        dice: Dice | None = None,
    ) -> None:
        self.settings = (settings or Settings()).resolve()
        _check_settings(self.settings)
        names = list(players)
        _check_names(names)
        if len(names) < 3:
            raise ChouetteError("a chouette needs three or more players")
        self.dice = dice or SecretDice()
        order, self.lot = draw_lot(names, self.dice)
        self.box: str = order[0]
        self.line: list[str] = order[1:]
        """The team line: the captain of the next (or current) game first."""
        self.games: list[ChouetteGame] = []
        self._everyone = list(order)  # every player ever seated, for the scores
        self._votes: list[str] = []  # in the order voted
        self._answers: dict[str, bool] = {}
        self._last_vote: VoteResult | None = None
        self._events: list[ev.Event] = []  # the chouette's own events of the action under way

    # -- what the session looks like ------------------------------------------------------

    @property
    def players(self) -> list[str]:
        """Everyone seated: the box, then the team line."""
        return [self.box, *self.line]

    @property
    def current(self) -> ChouetteGame | None:
        """The game under way, if any."""
        if self.games and not self.games[-1].game.over:
            return self.games[-1]
        return None

    @property
    def game(self) -> Game | None:
        """The :class:`Game` under way, if any (drive it through the chouette, not directly)."""
        current = self.current
        return current.game if current else None

    @property
    def captain(self) -> str:
        """Who plays for the team: in a game the captain now, between games the next one."""
        current = self.current
        return current.captain if current else self.line[0]

    @property
    def scores(self) -> dict[str, int]:
        """Each player's running result over all games, departed players included; the sum is
        always zero, since every point is paid by one player to another."""
        scores = dict.fromkeys(self._everyone, 0)
        for record in self.games:
            for name, amount in record.settlements.items():
                scores[name] += amount
        return scores

    @property
    def votes(self) -> set[str]:
        """The members who have voted for the team double now being decided."""
        return set(self._votes)

    @property
    def last_vote(self) -> VoteResult | None:
        """How the team's last vote on doubling ended, until the next vote begins or the box
        rolls (the team's turn it was for is over); None when there is none to tell."""
        return self._last_vote

    @property
    def answers(self) -> dict[str, bool]:
        """The members who have answered the box's double so far: True take, False pass."""
        return dict(self._answers)

    # -- the one entry point ------------------------------------------------------------

    def apply(self, action: act.Action) -> tuple[ev.Event, ...]:
        """Take ``action`` by the participant it names and return the events: the chouette's
        own (:class:`~nardy.core.events.VoteCast`, :class:`~nardy.core.events.DoubleAnswered`,
        a player joining or leaving) and the game's, whose players are the sides (0 the box,
        1 the team). Between games, ``Join`` and ``Leave`` seat and unseat players and the
        first game action starts the next game (:class:`~nardy.core.events.GameStarted`).
        A refused action changes nothing."""
        name = action.player
        if not isinstance(name, str):
            raise ChouetteError(
                f"a chouette's players are names, not {name!r}", code=ErrorCode.INVALID_INPUT
            )
        if isinstance(action, act.Join):
            self.join(name)
            return (ev.PlayerJoined(name),)
        if isinstance(action, act.Leave):
            self.leave(name)
            return (ev.PlayerLeft(name),)
        self._events = []
        events: list[ev.Event] = []
        fresh = self.current is None
        if fresh:
            game = self.new_game()
            events.append(ev.GameStarted(len(self.games), (0, 0), False, None))
        else:
            game = self._game()
        start = len(game.log)
        try:
            self._dispatch(action, name)
        except NardyError:
            if fresh:
                self.games.pop()  # refused: as if nothing had started
            raise
        return (*events, *self._events, *game.log[start:])

    def _dispatch(self, action: act.Action, name: str) -> None:
        match action:
            case act.RollOpening():
                self._side(name)
                self.roll_opening()
            case act.Roll():
                self.roll(name)
            case act.Move(start=a, end=b):
                self.move(name, a, b)
            case act.Undo():
                self.undo(name)
            case act.Confirm():
                self.confirm(name)
            case act.Play(moves=text):
                self.play(name, text)
            case act.ChooseDouble(die=die):
                self.choose_double(name, die)
            case act.Double():
                self.double(name)
            case act.Vote(agree=agree):
                self.vote_double(name, agree)
            case act.Take():
                self.take(name)
            case act.Pass():
                self.pass_double(name)
            case act.Resign(level=level):
                self.resign(name, level)
            case act.Accept():
                self.accept_resignation(name)
            case act.Decline():
                self.decline_resignation(name)
            case act.Surrender():
                self.surrender(name)
            case _:
                raise ChouetteError(
                    f"a chouette has no {action.kind!r} action",
                    code=ErrorCode.NOT_ALLOWED_BY_SETTINGS,
                )

    def awaiting(self, *, moves: bool = True) -> Awaiting:
        """Who must act now, by name: the box or the captain for their side; every team
        member still in for a team double (their votes) and for the box's double (their own
        answers). Between games the box and the next captain may start the next game."""
        record = self.current
        if record is None:
            start = (act.RollOpening.kind,)
            return Awaiting("opening", ((self.box, start), (self.line[0], start)))
        game = record.game
        waiting = game.awaiting(moves=moves)
        names = {BOX: record.box, TEAM: record.captain}
        if game.phase is Phase.DOUBLED and game.turn == BOX:  # each member answers
            answer = (act.Take.kind, act.Pass.kind)
            actors = tuple((m, answer) for m in record.in_game if m not in self._answers)
            return Awaiting(waiting.phase, actors, waiting.moves, waiting.dice)
        actors_list: list[tuple[act.Player, tuple[str, ...]]] = []
        for side, kinds in waiting.actors:
            assert isinstance(side, int)
            own = tuple(k for k in kinds if not (side == TEAM and k == act.Double.kind))
            actors_list.append((names[side], own))
        if game.phase is Phase.ROLL and game.turn == TEAM and game.can_double(TEAM):
            vote = (act.Vote.kind,)
            actors_list += [
                (m, vote) for m in record.in_game if m not in self._votes and m != record.captain
            ]
            if record.captain not in self._votes:
                actors_list[0] = (actors_list[0][0], (*actors_list[0][1], act.Vote.kind))
        return Awaiting(waiting.phase, tuple(actors_list), waiting.moves, waiting.dice)

    # -- snapshots ------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The whole session as JSON-serialisable data: the lot, the box and the line, every
        game (each with its :meth:`Game.snapshot`, who is still in, who passed, the
        settlements) and a team vote or the members' answers under way."""
        return {
            "snapshot": SNAPSHOT_VERSION,
            "settings": self.settings.to_dict(),
            "variant": self.settings.variant,
            "lot": [dict(r) for r in self.lot],
            "box": self.box,
            "line": list(self.line),
            "everyone": list(self._everyone),
            "games": [
                {
                    "box": r.box,
                    "team": list(r.team),
                    "game": r.game.snapshot(),
                    "in-game": list(r.in_game),
                    "passed": dict(r.passed),
                    "settlements": dict(r.settlements),
                    "refused-doubles": list(r.refused_doubles),
                }
                for r in self.games
            ],
            "votes": list(self._votes),
            "answers": dict(self._answers),
            "last-vote": None if self._last_vote is None else self._last_vote.to_dict(),
        }

    @classmethod
    def restore(cls, snapshot: dict[str, Any], dice: Dice | None = None) -> Chouette:
        """The chouette a :meth:`snapshot` describes, going on with ``dice``; nothing is
        rolled (not even the lot). Raises :class:`InvalidInputError` for data that is not a
        chouette snapshot."""
        with reading("a chouette snapshot"):
            if snapshot.get("snapshot") != SNAPSHOT_VERSION:
                raise InvalidInputError(f"not a chouette snapshot of version {SNAPSHOT_VERSION}")
            chouette = cls.__new__(cls)
            settings = Settings.from_dict(snapshot["settings"], snapshot["variant"])
            chouette.settings = settings.resolve()
            _check_settings(chouette.settings)
            chouette.dice = dice or SecretDice()
            chouette.lot = [{str(k): int(v) for k, v in r.items()} for r in snapshot["lot"]]
            chouette.box = str(snapshot["box"])
            chouette.line = [str(n) for n in snapshot["line"]]
            _check_names([chouette.box, *chouette.line])
            chouette._everyone = [str(n) for n in snapshot["everyone"]]
            chouette.games = [
                ChouetteGame(
                    str(g["box"]),
                    tuple(str(n) for n in g["team"]),
                    Game.restore(g["game"], chouette.dice),
                    [str(n) for n in g["in-game"]],
                    {str(k): int(v) for k, v in g["passed"].items()},
                    {str(k): int(v) for k, v in g["settlements"].items()},
                    [str(n) for n in g["refused-doubles"]],
                )
                for g in snapshot["games"]
            ]
            chouette._votes = [str(n) for n in snapshot["votes"]]
            chouette._answers = {str(k): bool(v) for k, v in snapshot["answers"].items()}
            last = snapshot.get("last-vote")  # absent from snapshots written before it
            chouette._last_vote = None if last is None else VoteResult.from_dict(last)
            chouette._events = []
        return chouette

    # -- between games --------------------------------------------------------------------

    def new_game(self) -> Game:
        """Start the next game, the box against the team led by the first in line."""
        if self.current is not None:
            raise ChouetteError("the current game is not over")
        if len(self.players) < 3:
            raise ChouetteError("a chouette needs three or more players")
        game = Game(self.settings, self.dice)
        record = ChouetteGame(self.box, tuple(self.line), game, list(self.line))
        record.settlements = dict.fromkeys(self.players, 0)
        self.games.append(record)
        self._votes.clear()
        self._answers.clear()
        self._last_vote = None
        return game

    def join(self, name: str) -> None:
        """A new player sits down at the end of the team line (between games)."""
        self._between_games("join")
        _check_names([*self.players, name])
        self.line.append(name)
        if name not in self._everyone:
            self._everyone.append(name)

    def leave(self, name: str) -> None:
        """A player leaves (between games); a leaving box is replaced by the captain."""
        self._between_games("leave")
        if name == self.box:
            if not self.line:
                raise ChouetteError("the last player cannot leave the box empty")
            self.box = self.line.pop(0)
        elif name in self.line:
            self.line.remove(name)
        else:
            raise ChouetteError(f"{name!r} is not seated in this chouette")

    def _between_games(self, action: str) -> None:
        if self.current is not None:
            raise ChouetteError(f"players {action} between games, not during one")

    # -- checker play, by the box or the captain ------------------------------------------

    def roll_opening(self) -> tuple[int, int]:
        """The box and the captain each roll one die (RULES.md 1.1): (box's, team's)."""
        return self._game().roll_opening()

    def roll(self, name: str) -> tuple[int, int]:
        """The box or the captain rolls; a team vote not carried by now lapses (the last
        vote's result says so), and the box's roll ends the turn the last vote was for."""
        side = self._mover(name)
        dice = self._game().roll(side)
        if side == BOX:
            self._last_vote = None
        elif self._votes:
            self._last_vote = VoteResult(tuple(self._votes), name, "rolled")
        self._votes.clear()
        self._after()
        return dice

    def move(self, name: str, start: int, end: int) -> Move:
        """One single move by the box or the captain."""
        return self._game().move(self._mover(name), start, end)

    def undo(self, name: str) -> None:
        """Take back the last single move of this turn."""
        self._game().undo(self._mover(name))

    def confirm(self, name: str) -> None:
        """End the turn; settles and rotates if it ended the game."""
        self._game().confirm(self._mover(name))
        self._after()

    def play(self, name: str, play: Play | str) -> Play:
        """A whole play by the box or the captain; settles and rotates if it ended the game."""
        chosen = self._game().play(self._mover(name), play)
        self._after()
        return chosen

    def choose_double(self, name: str, die: int) -> None:
        """Acey-deucey: name the double after a 1-2 (RULES.md 2)."""
        self._game().choose_double(self._mover(name), die)
        self._after()

    # -- the cube -------------------------------------------------------------------------

    def double(self, name: str) -> None:
        """The box doubles the team; each member then takes or passes on their own."""
        game = self._game()
        if name != self.box:
            self._participant(name)
            raise ChouetteError("the team doubles only by a unanimous vote (vote_double)")
        game.double(BOX)
        self._answers.clear()

    def vote_double(self, name: str, agree: bool = True) -> bool:
        """A team member's vote on doubling the box (RULES.md 1.7: it must be unanimous).

        The double is offered once every member still in the game has voted for it; returns
        whether it was offered now. A vote against is recorded in the game's
        ``refused_doubles`` and ends this vote (the members may vote again later).
        """
        record = self._record()
        self._member_in_game(name, record)
        if not record.game.can_double(TEAM):
            raise ChouetteError("the team cannot double now")
        if name in self._votes:
            raise ChouetteError(f"{name} has already voted for this double")
        self._events.append(ev.VoteCast(name, agree))
        if not self._votes:
            self._last_vote = None  # a new vote begins
        if not agree:
            record.refused_doubles.append(name)
            self._last_vote = VoteResult(tuple(self._votes), name, "against")
            self._votes.clear()
            return False
        self._votes.append(name)
        if not set(self._votes).issuperset(record.in_game):
            return False
        record.game.double(TEAM)
        self._last_vote = VoteResult(tuple(self._votes), name, "doubled")
        self._votes.clear()
        return True

    def take(self, name: str) -> None:
        """Accept a double: the box's answer to the team, or one member's to the box."""
        self._answer(name, True)

    def pass_double(self, name: str) -> None:
        """Refuse a double: the box loses the game to every member still in; a member pays the
        stake before the double to the box and leaves this game."""
        self._answer(name, False)

    def _answer(self, name: str, take: bool) -> None:
        record = self._record()
        game = record.game
        if game.phase is not Phase.DOUBLED:
            raise ChouetteError(f"there is no double to answer now ({game.phase.value})")
        if game.turn == TEAM:  # the team doubled: the box answers
            if name != self.box:
                self._participant(name)
                raise ChouetteError(f"the team doubled: {self.box}, the box, answers")
            if take:
                game.take(BOX)
            else:
                game.pass_double(BOX)
                self._after()
            return
        self._member_in_game(name, record)
        if name in self._answers:
            raise ChouetteError(f"{name} has already answered this double")
        self._events.append(ev.DoubleAnswered(name, take))
        self._answers[name] = take
        if len(self._answers) < len(record.in_game):
            return
        stake = game.cube.value  # before the double: what a passer pays
        for member, took in self._answers.items():
            if not took:
                record.passed[member] = stake
                record.pay(member, record.box, stake)
                record.in_game.remove(member)
        self._answers.clear()
        if record.in_game:
            game.take(TEAM)
        else:  # everyone passed and has paid: the game ends as a pass
            game.pass_double(TEAM)
            self._after()

    # -- resigning ------------------------------------------------------------------------

    def resign(self, name: str, level: int = 1) -> None:
        """The box, or the captain for the whole team, offers to resign (RULES.md 1.4)."""
        self._game().resign(self._side(name), level)

    def accept_resignation(self, name: str) -> None:
        """The other side accepts: the box, or the captain for the whole team."""
        self._game().accept_resignation(self._resignation_answerer(name))
        self._after()

    def decline_resignation(self, name: str) -> None:
        """The other side declines: play goes on."""
        self._game().decline_resignation(self._resignation_answerer(name))

    def surrender(self, name: str) -> None:
        """Long nardy: the box, or the captain for the whole team, gives up (RULES.md 3.4)."""
        self._game().surrender(self._side(name))
        self._after()

    def _resignation_answerer(self, name: str) -> int:
        offer = self._game().resignation()
        side = self._side(name)
        if offer is not None and side == offer[0]:
            raise ChouetteError(f"{name} cannot answer their own side's resignation")
        return side

    # -- internals ------------------------------------------------------------------------

    def _record(self) -> ChouetteGame:
        current = self.current
        if current is None:
            raise ChouetteError("no game is under way: start one with new_game")
        return current

    def _game(self) -> Game:
        return self._record().game

    def _participant(self, name: str) -> None:
        if name not in self.players:
            raise ChouetteError(f"{name!r} is not playing in this chouette")

    def _side(self, name: str) -> int:
        """The side ``name`` plays for in checker play and resignations: only the box and the
        team's captain act for a side."""
        record = self._record()
        if name == record.box:
            return BOX
        if name == record.captain:
            return TEAM
        self._participant(name)
        raise ChouetteError(f"{record.captain} is the captain and plays for the team, not {name}")

    def _mover(self, name: str) -> int:
        """The side of ``name``, who must be the one whose turn it is to play."""
        side = self._side(name)
        game = self._game()
        if game.phase in (Phase.ROLL, Phase.MOVING, Phase.CHOOSE_DOUBLE) and game.turn != side:
            record = self._record()
            team = f"the team's (captain {record.captain})"
            on_turn = f"{record.box}'s" if game.turn == BOX else team
            raise ChouetteError(f"it is {on_turn} turn, not {name}'s")
        return side

    def _member_in_game(self, name: str, record: ChouetteGame) -> None:
        if name in record.in_game:
            return
        self._participant(name)
        if name == record.box:
            raise ChouetteError(f"{name} is the box, not a team member")
        raise ChouetteError(f"{name} passed and is out of this game")

    def _after(self) -> None:
        """Once the game is over: settle the box with each member still in, then rotate."""
        record = self.games[-1]
        result = record.game.result
        if result is None:
            return
        self._votes.clear()
        if result.winner is not None:
            for member in record.in_game:
                if result.winner == BOX:
                    record.pay(member, record.box, result.points)
                else:
                    record.pay(record.box, member, result.points)
        captain = record.team[0]
        if result.winner == TEAM and captain in record.in_game:
            self.box, self.line = captain, [*self.line[1:], record.box]
        else:
            self.line = [*self.line[1:], captain]


def _check_settings(settings: Settings) -> None:
    if not settings.money:
        raise SettingsError("a chouette is money play: match-length must be 0")
    if settings.beaver:
        raise SettingsError("no beavers in a chouette: the members share one cube")
    if settings.limit_points or settings.limit_minutes:
        raise SettingsError("a chouette has no session limits: it ends when players leave")


def _check_names(names: Iterable[str]) -> None:
    seen: set[str] = set()
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ChouetteError(f"a player needs a name, not {name!r}")
        if name in seen:
            raise ChouetteError(f"two players named {name!r}")
        seen.add(name)
