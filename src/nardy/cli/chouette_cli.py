"""A chouette at the command line (RULES.md 1.7): ``nardy play --chouette`` and the bots that
``nardy selfplay --chouette`` seats.

Everything goes through :class:`~nardy.core.chouette.Chouette`, under the name of the
participant who acts, so that the chouette itself refuses the wrong participant, settles the
box with the team and rotates box and captain. Who is asked at each moment
(:func:`deciding`): the box or the team's captain for the checker play, each member still in
the game in turn for their vote on the team's double and for their own take or pass of the
box's double.

At the terminal every question names the participant it is for, and a line may start with
``NAME:`` to speak as another participant (``Dee: roll``); what that participant may not do
now is refused with the chouette's reason. Each game is saved as a JSON line: the board
game's record and a ``chouette`` object (``docs/records.md``, "Chouette").
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from nardy.cli.entry import HINT_PLAYS
from nardy.cli.options import describe_settings
from nardy.cli.seats import Seat
from nardy.cli.terminal import HELP, Terminal, open_now
from nardy.cli.words import counted, rolled
from nardy.core import actions
from nardy.core.chouette import BOX, TEAM, Chouette, ChouetteError, ChouetteGame
from nardy.core.dice import Dice
from nardy.core.events import CubeOffered, NoLegalMove
from nardy.core.game import Game, GameError, GameResult, Phase
from nardy.core.settings import Settings
from nardy.engine.bots import Bot, make_bot, resigned
from nardy.engine.neural import DEFAULT_LEVEL
from nardy.notation.record import game_record

CHOUETTE_HELP = """\
In a chouette:
  NAME: COMMAND      speak as NAME (the question names who is asked)
  [d]ouble           the box doubles the team; the captain proposes the team's double
  yes  no            a member's vote on the team's double (it must be unanimous)
  [t]ake  [p]ass     each member answers the box's double on their own"""

_YES = ("yes", "y")
_NO = ("no", "n")
_ANSWERS = ("take", "pass", "beaver", "accept", "decline")
"""Commands that answer a double or a resignation: refused in plain words when there is none."""


# -- who plays ----------------------------------------------------------------------------------


BOT_SUFFIX = ":bot"
"""Marks a chouette participant played by the bot: ``--chouette Ann,Bob:bot,Cy``."""


def chouette_players(text: str) -> tuple[tuple[str, bool], ...]:
    """``--chouette``: three or more names separated by commas, each (name, played by the
    bot), a name ending in ``:bot`` being the bot's."""
    players = []
    for item in text.split(","):
        name = item.strip()
        bot = name.lower().endswith(BOT_SUFFIX)
        if bot:
            name = name[: -len(BOT_SUFFIX)].strip()
        if not name or ":" in name:
            raise argparse.ArgumentTypeError(f"expected NAME or NAME{BOT_SUFFIX}, not {item!r}")
        players.append((name, bot))
    if len(players) < 3:
        raise argparse.ArgumentTypeError(f"a chouette needs three or more players, not {text!r}")
    return tuple(players)


# -- who decides ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """The participant the chouette waits for, and the side (BOX or TEAM) they act for;
    ``vote`` marks a team member's vote on the double the team is proposing."""

    name: str
    side: int
    vote: bool = False


def deciding(chouette: Chouette) -> Decision | None:
    """Who decides now, or None where no participant does (between games, and the opening
    roll, which is rolled for both sides), from the chouette's ``awaiting()``.

    The box and the captain roll, move, double and answer resignations for their sides; the
    box answers the team's double. While the team votes on a double, the next member still in
    who has not voted is asked; when the box doubles, the next member who has not answered.
    """
    record = chouette.current
    if record is None:
        return None
    waiting = chouette.awaiting(moves=False)
    if waiting.phase == "opening" or not waiting.actors:
        return None
    if chouette.votes:
        voter = next(name for name, kinds in waiting.actors if actions.Vote.kind in kinds)
        return Decision(str(voter), TEAM, vote=True)
    name = str(waiting.actors[0][0])
    return Decision(name, BOX if name == record.box else TEAM)


def vote(chouette: Chouette, name: str, agree: bool) -> str:
    """``name`` votes on the team's double (the first vote proposes it); says what came of
    it, without the name ("votes yes", "proposes to double to 2; every member must agree")."""
    game = chouette.game
    assert game is not None
    value = 2 * game.cube.value
    first = not chouette.votes
    events = chouette.apply(actions.Vote(name, agree))
    if any(isinstance(event, CubeOffered) for event in events):
        return f"{'doubles' if first else 'votes yes: the team doubles'} to {value}"
    if not agree:
        return "votes no: the team does not double"
    if first:
        return f"proposes to double to {value}; every member still in must agree"
    return "votes yes"


class ChouetteBots:
    """The bots seated in a chouette, by participant name, and the decisions they make.

    A bot in the box or as captain plays the board like any bot, and resigns a hopeless
    position before its roll as the two-player bot does; a bot member votes for the
    team's double when it would double itself, and takes the box's double when it would
    take. A bot captain whose proposal was voted down rolls rather than propose again in
    the same turn.
    """

    def __init__(self, bots: Mapping[str, Bot]) -> None:
        self.bots = dict(bots)
        self._proposed: tuple[int, int] | None = None  # (game, turn) of the last proposal

    def __contains__(self, name: object) -> bool:
        return name in self.bots

    def act(self, chouette: Chouette, who: Decision) -> str:
        """Make the decision ``who`` is asked for, with their bot, through the chouette; says
        what was done, without the name ("rolls 6-5", "plays 24/13", "votes yes")."""
        bot = self.bots[who.name]
        game = chouette.game
        assert game is not None
        if who.vote:
            return vote(chouette, who.name, bot.should_double(game, TEAM))
        seat = Seat(chouette, who.name)
        phase = game.phase
        if phase is Phase.ROLL:
            if level := bot.resign_level(game, who.side):  # a hopeless position, as in step()
                seat.act(actions.Resign, level)
                return resigned(level)
            turn = (len(chouette.games), len(game.records))
            doubling = game.can_double(who.side) and self._proposed != turn
            if doubling and bot.should_double(game, who.side):
                if who.side == BOX:
                    seat.act(actions.Double)
                    return f"doubles to {2 * game.cube.value}"
                self._proposed = turn
                return vote(chouette, who.name, True)
            seat.act(actions.Roll)
            return f"rolls {rolled(game)}"
        if phase is Phase.MOVING:
            for _ in game.moves_made:  # a bot plays whole plays from the start of the turn
                seat.act(actions.Undo)
            dice = game.dice
            assert dice is not None
            play = bot.choose_play(game.position, *dice, chosen=game.dice_chosen)
            seat.act(actions.Play, str(play))
            return f"plays {play}" if play.moves else "cannot move"
        if phase is Phase.CHOOSE_DOUBLE:
            die = bot.choose_double(game.position)
            events = seat.act(actions.ChooseDouble, die)
            passed = any(isinstance(event, NoLegalMove) for event in events)
            return f"names {die}-{die}" + (": no legal move" if passed else "")
        if phase is Phase.DOUBLED:
            if bot.should_take(game, who.side):
                seat.act(actions.Take)
                return "takes"
            seat.act(actions.Pass)
            return "passes"
        pending = game.resignation()
        assert phase is Phase.RESIGNED and pending is not None
        if bot.accept_resignation(game, who.side, pending[1]):
            seat.act(actions.Accept)
            return "accepts the resignation"
        seat.act(actions.Decline)
        return "declines the resignation"

    def play_game(self, chouette: Chouette) -> ChouetteGame:
        """Play a new game of ``chouette`` to its end, every participant a bot here."""
        game = chouette.new_game()
        while not game.over:
            who = deciding(chouette)
            if who is None:
                chouette.apply(actions.RollOpening(chouette.games[-1].box))
            else:
                self.act(chouette, who)
        return chouette.games[-1]


# -- records and reports ----------------------------------------------------------------------


def chouette_record(chouette: Chouette, index: int) -> dict[str, Any]:
    """The JSON record of game ``index`` (from 0) of ``chouette``: the board game's
    :func:`~nardy.notation.record.game_record`, the box as player 0 and the team, under its
    first captain, as player 1, with a ``chouette`` object (docs/records.md, "Chouette")."""
    record = chouette.games[index]
    scores = dict.fromkeys(chouette.scores, 0)
    for earlier in chouette.games[:index]:
        for name, amount in earlier.settlements.items():
            scores[name] += amount
    line = game_record(record.game, number=index + 1, players=(record.box, record.team[0]))
    line["chouette"] = {
        "box": record.box,
        "team": list(record.team),
        "in-game": list(record.in_game),
        "passed": dict(record.passed),
        "refused-doubles": list(record.refused_doubles),
        "settlements": dict(record.settlements),
        "scores": scores,
    }
    return line


def chouette_records(chouette: Chouette) -> list[dict[str, Any]]:
    """The record of every game of ``chouette`` so far, in order."""
    return [chouette_record(chouette, i) for i in range(len(chouette.games))]


def signed(amount: int) -> str:
    """A result as money: ``+3``, ``-1``, ``0``."""
    return f"{amount:+d}" if amount else "0"


def scores_text(scores: Mapping[str, int]) -> str:
    """Running results, ``Ann +3, Bob -1, Cy -2, Dee 0``."""
    return ", ".join(f"{name} {signed(amount)}" for name, amount in scores.items())


def _and(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _line_text(box: str, line: Sequence[str]) -> str:
    """``Box: Ann. Team: Bob (captain), Cy, Dee.``"""
    team = ", ".join([f"{line[0]} (captain)", *line[1:]])
    return f"Box: {box}. Team: {team}."


# -- the terminal -----------------------------------------------------------------------------


class ChouetteSession(Terminal):
    """A chouette at one terminal: people typing, bots by name in ``bots``, ``games`` games
    (None: until quit or the end of the input).

    Side 0 of each board is the box, side 1 the team; :meth:`name` is the participant who
    speaks for a side now: the one asked (a voting or answering member) or, for the other
    side, the box or the captain.
    """

    help_text = f"{HELP}\n{CHOUETTE_HELP}"

    def __init__(
        self,
        chouette: Chouette,
        bots: Mapping[str, Bot],
        inp: TextIO,
        out: TextIO,
        *,
        home: str = "bottom-right",
        record: Path | None = None,
        games: int | None = None,
        notes: Sequence[str] = (),
    ) -> None:
        super().__init__(inp, out, home=home, record=record, notes=notes)
        self.chouette = chouette
        self.bots = ChouetteBots(bots)
        self.games = games
        self._speaker: str | None = None  # the participant asked, or speaking, now

    @classmethod
    def start(
        cls,
        players: Sequence[tuple[str, bool]],
        settings: Settings,
        dice: Dice,
        inp: TextIO,
        out: TextIO,
        *,
        home: str = "bottom-right",
        record: Path | None = None,
        games: int | None = None,
        bot: str = DEFAULT_LEVEL,
        notes: Sequence[str] = (),
    ) -> ChouetteSession:
        """Draw the lot among ``players`` (name, whether the bot called ``bot`` plays them)
        and seat them."""
        chouette = Chouette([name for name, _ in players], settings, dice)
        bots = {name: make_bot(bot, seed=name) for name, is_bot in players if is_bot}
        return cls(chouette, bots, inp, out, home=home, record=record, games=games, notes=notes)

    # -- who is who ----------------------------------------------------------------------

    def _board(self) -> ChouetteGame:
        """The game under way, or the last one."""
        return self.chouette.games[-1]

    def _side(self, name: str) -> int:
        return BOX if name == self._board().box else TEAM

    def name(self, player: int) -> str:
        if self._speaker is not None and self._side(self._speaker) == player:
            return self._speaker
        board = self._board()
        return board.box if player == BOX else board.captain

    def _label(self, player: int) -> str:
        board = self._board()
        if player == BOX:
            return f"{board.box} (box)"
        return f"the team (captain {board.captain})"

    def _score(self) -> str:
        return scores_text(self.chouette.scores)

    def _records(self) -> list[dict[str, Any]]:
        return chouette_records(self.chouette)

    def _voting(self, game: Game) -> bool:
        return game.phase is Phase.ROLL and game.turn == TEAM and bool(self.chouette.votes)

    # -- the session ---------------------------------------------------------------------

    def _session(self) -> None:
        chouette = self.chouette
        settings = chouette.settings
        entered = list(chouette.lot[0])  # everyone rolls in the first round, as entered
        seated = [f"{name} (bot)" if name in self.bots else name for name in entered]
        self.say(f"Chouette ({settings.rules.name}, money play): {', '.join(seated)}.")
        self.say(f"Settings: {describe_settings(settings)}.")
        self._introduce()
        for i, roll in enumerate(chouette.lot):
            dice = ", ".join(f"{name} {die}" for name, die in roll.items())
            self.say(
                f"The lot: {dice}." if i == 0 else f"Tie: {_and(list(roll))} roll again: {dice}."
            )
        self.say(_line_text(chouette.box, chouette.line))
        while True:
            self._play(chouette.new_game())
            self.save()
            played = len(chouette.games)
            if self.games is not None and played >= self.games:
                break
            self._between_games(played + 1)
        games = counted(played, "game")
        self.say(f"The chouette is over after {games}. Scores: {self._score()}.")

    def _play(self, game: Game) -> None:
        chouette = self.chouette
        board = self._board()
        self._speaker = None
        self.say(f"\nGame {len(chouette.games)}. {_line_text(board.box, board.team)}")
        while not game.over:
            who = deciding(chouette)
            if who is None:
                self._opening(game)
                continue
            self._announce_last_roll(game)
            self._speaker = who.name
            answering = game.phase is Phase.DOUBLED and game.turn == BOX
            before = list(board.in_game)
            if who.name in self.bots:
                self.say(f"{who.name} {self.bots.act(chouette, who)}.")
            else:
                self._human(game, who.side)
            if answering and game.phase is not Phase.DOUBLED and board.in_game:
                self.say(self._answered(board, before))
        self._speaker = None
        self._show(game, self._viewer(game))
        self._settle(board)

    def _answered(self, board: ChouetteGame, before: list[str]) -> str:
        """Every member has answered the box's double and some play on: who, and who paid
        and left (``before``: the members in the game before the answers)."""
        passed = [name for name in before if name not in board.in_game]
        takes = "takes" if len(board.in_game) == 1 else "take"
        said = [f"{_and(board.in_game)} {takes}: the cube is on {board.game.cube.value}"]
        if passed:
            stake = counted(board.passed[passed[0]], "point") + (" each" if len(passed) > 1 else "")
            said.append(f"{_and(passed)} passed, paying {stake} to {board.box}")
        if board.captain != before[0]:
            said.append(f"{board.captain} is the captain now")
        return "; ".join(said) + "."

    def _settle(self, board: ChouetteGame) -> None:
        """The result, the settlements, the running scores and the rotation."""
        result = board.game.result
        assert result is not None
        self.say(self._last_roll_outcome(board.game, result) + _result(board, result))
        settled = []
        for name in (board.box, *board.team):
            passed = " (passed)" if name in board.passed else ""
            settled.append(f"{name} {signed(board.settlements[name])}{passed}")
        self.say(f"Settlements: {', '.join(settled)}.")
        self.say(f"Scores: {self._score()}.")
        chouette = self.chouette
        captain = board.team[0]
        if chouette.box == board.box:
            moved = f"{board.box} keeps the box; {captain} goes to the end of the line"
        else:
            moved = f"{chouette.box} takes the box; {board.box} goes to the end of the line"
        self.say(f"Rotation: {moved}. {_line_text(chouette.box, chouette.line)}")

    # -- a person's decision -------------------------------------------------------------

    def _situation(self, game: Game, player: int) -> str:
        board = self._board()
        cube = game.cube.value
        if self._voting(game) and player == TEAM:
            voted = [name for name in board.in_game if name in self.chouette.votes]
            return (
                f"{_and(voted)} voted to double the box to {2 * cube}; the team doubles only "
                f"if every member still in agrees. {self.name(TEAM)}, yes or no?"
            )
        if game.phase is Phase.DOUBLED and game.turn == BOX:
            return (
                f"{board.box} (box) doubles to {2 * cube}. {self.name(TEAM)}: take to play on "
                f"for {2 * cube}, or pass, paying {cube} and leaving this game."
            )
        if game.phase is Phase.DOUBLED:
            return (
                f"The team doubles to {2 * cube}. {board.box}: take to play on for {2 * cube} "
                f"against each of {_and(board.in_game)}, or pass, paying {cube} to each."
            )
        return super()._situation(game, player)

    def _prompt(self, game: Game, player: int) -> str:
        if self._voting(game) and player == TEAM:
            return f"{self.name(TEAM)}: yes or no> "
        return super()._prompt(game, player)

    def _hint(self, game: Game, player: int, count: int = HINT_PLAYS) -> str:
        if self._voting(game) and player == TEAM:
            return "yes" if self.adviser.should_double(game, TEAM) else "no"
        return super()._hint(game, player, count)

    def _command(self, game: Game, player: int, line: str) -> None:
        """A line typed by the participant asked, or by ``NAME:`` at its start."""
        asked = self._speaker
        speaker, text = self._speaking(line)
        self._speaker = speaker
        try:
            side = self._side(speaker)
            words = text.lower().split()
            word = words[0] if words else ""
            if word in _YES + _NO or (word in ("double", "d") and side == TEAM):
                agree = word not in _NO
                if not agree and not self.chouette.votes:
                    raise ChouetteError("there is no vote on a double now")
                self.say(f"  {speaker} {vote(self.chouette, speaker, agree)}.")
                return
            self._carry_out(game, side, text, Seat(self.chouette, speaker))
            if word in ("double", "d"):  # the box has doubled: say so before anyone answers
                value = game.cube.value
                self.say(f"  {speaker} doubles to {2 * value}: each member takes or passes.")
        finally:
            self._speaker = asked

    def _plain_refusal(self, game: Game, player: int, command: str, exc: GameError) -> str | None:
        """As for two players, except that the chouette's own refusals are kept where they
        say more: there are no beavers at all, and a participant who is not the one asked
        now is told who may act."""
        if command == actions.Beaver.kind:
            return "no beavers in a chouette: the members share one cube"
        if not isinstance(exc, ChouetteError):
            return super()._plain_refusal(game, player, command, exc)
        if open_now(game, command):
            return None  # the right moment, the wrong participant: the chouette says who
        asked = deciding(self.chouette)
        if command in _ANSWERS or (asked is not None and asked.name == self._speaker):
            return self._not_now(game, player, command)
        return None

    def _speaking(self, line: str) -> tuple[str, str]:
        """Who speaks (``NAME:`` at the start, else the participant asked) and what."""
        assert self._speaker is not None
        head, colon, rest = line.partition(":")
        if not colon:
            return self._speaker, line
        for name in self.chouette.players:
            if name.lower() == head.strip().lower():
                if name in self.bots:
                    raise ChouetteError(f"{name} is played by the bot")
                return name, rest.strip()
        raise ChouetteError(f"{head.strip()!r} is not playing in this chouette")


def _result(board: ChouetteGame, result: GameResult) -> str:
    """How the game ended and what it is worth to each member still in."""
    if result.winner is None:
        return "The game is a draw: the last roll bore every checker off."
    box = f"{board.box} (box)"
    if not board.in_game:  # the box doubled and every member passed, each paying the box
        return f"Every member passed the double of {box}."
    label = {BOX: box, TEAM: "the team"}
    winner, loser = label[result.winner], label[1 - result.winner]
    if result.kind == "pass":
        how = f"{loser} passes the double; {winner} wins"
    elif result.kind == "resign":
        gave_up = "surrenders" if not board.game.variant.resignation_levels else "resigns"
        how = f"{loser} {gave_up} ({result.level}); {winner} wins"
    else:
        article = "an" if result.kind[0] in "aeiou" else "a"
        how = f"{winner} wins {article} {result.kind}"
    how = how[0].upper() + how[1:]
    members = _and(board.in_game)
    points = counted(result.points, "point")
    if result.winner == BOX:
        return f"{how}: {points} from each of {members}."
    return f"{how}: {points} from {board.box} to each of {members}."
