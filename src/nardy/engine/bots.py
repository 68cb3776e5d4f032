"""Bots: players that choose plays and cube actions, and the driver that lets them play.

A :class:`Bot` answers every decision a :class:`~nardy.core.game.Game` asks of a player: which
legal play to make with a roll, whether to double, take, pass or beaver, whether to accept a
resignation, and in acey-deucey which double to name after a 1-2 (RULES.md 1.5, 1.4, 2). The
bots without a net, :class:`RandomBot` and :class:`HeuristicBot`, live in
:mod:`nardy.engine.heuristic` (and are importable from here), the neural bot in
:mod:`nardy.engine.neural`; :func:`make_bot` makes any of them by name.

:func:`step` makes the one action the game waits for, :func:`play_game` and
:func:`play_match` play to the end. They are what self-play, the terminal client and the
server drive bots with.

    >>> from nardy.core.game import Game
    >>> from nardy.core.dice import SeededDice
    >>> game = Game(dice=SeededDice(1))
    >>> result = play_game(game, (HeuristicBot(), RandomBot(seed=1)))
    >>> result.winner in (0, 1)
    True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Protocol

from nardy.core import Play, Position, actions
from nardy.core import events as ev
from nardy.core.chouette import BOX, TEAM, Chouette
from nardy.core.errors import ErrorCode
from nardy.core.game import RESIGN_LEVELS, Game, GameError, GameResult
from nardy.core.match import Match
from nardy.core.team import Consultation
from nardy.engine.errors import EngineError

# The bots without a net live in engine.heuristic; importable from here as before.
from nardy.engine.heuristic import LEVELS as LEVELS
from nardy.engine.heuristic import HeuristicBot as HeuristicBot
from nardy.engine.heuristic import RandomBot as RandomBot
from nardy.engine.heuristic import keith_count as keith_count
from nardy.engine.stakes import Stakes


class Bot(Protocol):
    """A player that a program drives: every decision a game can ask of a player.

    ``player`` (0 or 1) is always the bot's own seat; positions passed in are from the side
    that is to play them.
    """

    name: str
    """A short name for the bot, as ``--bots`` and records name it."""

    def choose_play(
        self,
        position: Position,
        d1: int,
        d2: int,
        stakes: Stakes | None = None,
        chosen: bool = False,
    ) -> Play:
        """One of ``position.legal_plays(d1, d2)``: what to play with this roll, for what
        the game is played for (``stakes``, from the mover's side; None: money play);
        ``chosen``: the dice are acey-deucey's double named after a 1-2."""
        ...

    def should_double(self, game: Game, player: int) -> bool:
        """Whether to offer the cube now (asked only when ``game.can_double(player)``)."""
        ...

    def should_take(self, game: Game, player: int) -> bool:
        """Whether to take the double offered to ``player`` (or, as the doubler, the beaver
        the opponent answered with); False passes and loses the game at the old stake."""
        ...

    def should_beaver(self, game: Game, player: int) -> bool:
        """Whether to answer a double with a beaver (asked only where beavers are allowed)."""
        ...

    def accept_resignation(self, game: Game, player: int, level: int) -> bool:
        """Whether to accept the opponent's offer to resign a single (1), gammon (2) or
        backgammon (3); declining plays on."""
        ...

    def resign_level(self, game: Game, player: int) -> int:
        """The resignation to offer on one's turn before rolling: a single (1), gammon (2)
        or backgammon (3), or 0 to play on (asked only where the variant has the levels)."""
        ...

    def choose_double(self, position: Position, stakes: Stakes | None = None) -> int:
        """Acey-deucey: the double (1-6) to name and play after the 1-2 (RULES.md 2)."""
        ...


# -- the driver ------------------------------------------------------------------------------


def resigned(level: int) -> str:
    """What a resignation at ``level`` (1-3) offered is said to be: "resigns a gammon"."""
    return f"resigns a {RESIGN_LEVELS[level].value}"


def step(game: Game | Match, bots: Sequence[Bot | None]) -> str:
    """Make the one action ``game`` (or the match's game under way) waits for, through
    ``apply``, asking the bot of the deciding seat, and say what was done ("rolls 6-5",
    "plays 24/13", "doubles to 2"…), without the player's name.

    ``bots`` has one entry per seat; a seat whose decision is asked must hold a bot. A roll
    with no legal move passes by itself, which the answer says (from the events).
    """
    waiting = game.awaiting(moves=False)
    if not waiting.actors:
        raise GameError("the game is over: there is nothing to do")
    if waiting.player is None:  # the opening roll, rolled for both
        events = game.apply(actions.RollOpening(0))
        roll = next(
            e.dice for e in events if isinstance(e, ev.OpeningRolled) and e.first is not None
        )
        return f"opening roll {roll[0]}-{roll[1]}"
    player = waiting.player
    assert isinstance(player, int)
    bot = bots[player]
    if bot is None:
        raise GameError(f"player {player} is not a bot", code=ErrorCode.NOT_YOUR_TURN)
    current = game.game if isinstance(game, Match) else game
    assert current is not None
    action = decision(game, player, bot)
    if isinstance(action, actions.Play):
        for _ in current.moves_made:  # a bot plays whole plays from the start of the turn
            game.apply(actions.Undo(player))
    doubled_to = 2 * current.cube.value
    events = game.apply(action)
    passed = ": no legal move" if _passed(events) else ""
    beaver = waiting.phase == "beavered"
    match action:
        case actions.Resign(level=level):
            return resigned(level)
        case actions.Double():
            return f"doubles to {doubled_to}"
        case actions.Roll():
            d1, d2 = current.dice or _rolled(events)
            return f"rolls {d1}-{d2}{passed}"
        case actions.Play(moves=moves):
            return f"plays {moves}" if moves else "cannot move"
        case actions.ChooseDouble(die=die):
            return f"names {die}-{die}{passed}"
        case actions.Accept():
            return "accepts the resignation"
        case actions.Decline():
            return "declines the resignation"
        case actions.Beaver():
            return f"beavers: the cube is on {current.cube.value}"
        case actions.Take():
            return "takes the beaver" if beaver else "takes"
    return "passes the beaver" if beaver else "passes"


def decision(game: Game | Match, player: int, bot: Bot) -> actions.Action:
    """The action ``bot`` takes as ``player`` where ``game`` (or the match's game under way)
    waits for that player, not yet applied: the one choice of every driver of a bot (the
    drivers here, and the server's worker process)."""
    waiting = game.awaiting(moves=False)
    kinds = waiting.kinds(player)
    if not kinds:
        raise GameError(f"the game does not wait for player {player}", code=ErrorCode.NOT_YOUR_TURN)
    current = game.game if isinstance(game, Match) else game
    if actions.RollOpening.kind in kinds or current is None:
        return actions.RollOpening(player)
    if actions.Roll.kind in kinds:
        if actions.Resign.kind in kinds and (level := bot.resign_level(current, player)):
            return actions.Resign(player, level)
        if actions.Double.kind in kinds and bot.should_double(current, player):
            return actions.Double(player)
        return actions.Roll(player)
    if actions.Play.kind in kinds:
        dice = current.dice
        assert dice is not None
        stakes = Stakes.of(current, player)
        play = bot.choose_play(current.turn_start, *dice, stakes, current.dice_chosen)
        return actions.Play(player, str(play))
    if actions.ChooseDouble.kind in kinds:
        die = bot.choose_double(current.position, Stakes.of(current, player))
        return actions.ChooseDouble(player, die)
    if actions.Accept.kind in kinds:
        pending = current.resignation()
        assert pending is not None
        if bot.accept_resignation(current, player, pending[1]):
            return actions.Accept(player)
        return actions.Decline(player)
    if actions.Beaver.kind in kinds and bot.should_beaver(current, player):
        return actions.Beaver(player)
    if actions.Take.kind in kinds:
        return actions.Take(player) if bot.should_take(current, player) else actions.Pass(player)
    raise GameError(f"a bot cannot answer {', '.join(kinds)}", code=ErrorCode.WRONG_PHASE)


def _rolled(events: Sequence[ev.Event]) -> tuple[int, int]:
    return next(e.dice for e in events if isinstance(e, ev.DiceRolled))


def _passed(events: Sequence[ev.Event]) -> bool:
    """Whether the turn passed by itself: the roll (or named double) had no legal move."""
    return any(isinstance(e, ev.NoLegalMove) for e in events)


def play_game(game: Game, bots: tuple[Bot, Bot]) -> GameResult:
    """Play ``game`` to its end through ``apply``, player 0 as ``bots[0]`` and player 1 as
    ``bots[1]``."""
    while not game.over:
        step(game, bots)
    assert game.result is not None
    return game.result


def play_match(match: Match, bots: tuple[Bot, Bot]) -> Match:
    """Play every remaining game of ``match`` through ``apply`` (a money session must have a
    limit, or this never ends) and return it."""
    while not match.over:
        step(match, bots)
    return match


BOTS = (HeuristicBot.name, RandomBot.name, "neural", *LEVELS)
"""The bots' names, as ``--bots`` names them: "neural" is the neural bot at its default level
("advanced", the net alone); a level's name is the neural bot at that level."""


def make_bot(name: str, seed: int | str | None = None) -> Bot:
    """The bot called ``name`` (see :data:`BOTS`); ``seed`` makes a random one reproducible."""
    if name == RandomBot.name:
        return RandomBot(seed)
    if name == HeuristicBot.name:
        return HeuristicBot()
    if name == "neural" or name in LEVELS:
        from nardy.engine.neural import NeuralBot  # numpy and the weights load only when asked

        return NeuralBot(name, seed=seed)
    raise EngineError(f"unknown bot {name!r}; known: {', '.join(BOTS)}")


def chouette_decision(chouette: Chouette, name: str, bot: Bot) -> actions.Action | None:
    """The action ``bot`` takes as the chouette participant ``name`` where the chouette waits
    for them, not yet applied; None where the bot lets a decision that is not its to force
    pass (a team member who would not double while nobody has proposed to: no vote to answer).

    The box and the captain decide as the player of their side (:func:`decision`); the
    captain's wish to double is its vote (RULES.md 1.7: the team doubles only unanimously),
    and once it has voted and the team has not followed, it rolls. A vote under way gets the
    bot's answer, for or against, from a member and from a captain who would not double
    (then it rolls): a person's vote never lapses unanswered. A member answers the box's
    double by the same take-or-pass judgment, each on their own."""
    waiting = chouette.awaiting(moves=False)
    kinds = waiting.kinds(name)
    if not kinds:
        raise GameError(f"the chouette does not wait for {name}", code=ErrorCode.NOT_YOUR_TURN)
    record = chouette.current
    if actions.RollOpening.kind in kinds or record is None:
        return actions.RollOpening(name)
    side = BOX if name == record.box else TEAM
    under_way = bool(chouette.votes)  # somebody has voted to double: the vote awaits us
    if kinds == (actions.Vote.kind,):  # a member asked to join a team double
        wants = bot.should_double(record.game, TEAM)
        return actions.Vote(name, wants) if wants or under_way else None
    action = decision(record.game, side, bot)
    if isinstance(action, actions.Double) and side == TEAM:
        if actions.Vote.kind in kinds:
            return actions.Vote(name, True)
        return actions.Roll(name)  # voted already and the team did not follow
    if side == TEAM and under_way and actions.Vote.kind in kinds:
        return actions.Vote(name, False)  # the captain would not double: it says so first
    return dataclasses.replace(action, player=name)


def consultation_decision(consultation: Consultation, name: str, bot: Bot) -> actions.Action | None:
    """The action ``bot`` takes as member ``name`` of a consultation side, not yet applied:
    as its side's captain the side's decision (:func:`decision`); None where the game waits
    for nothing of it but a proposal, which a bot does not make."""
    side = consultation.side_of(name)
    if side is None or consultation.captain(side) != name:
        return None
    if side not in consultation.match.awaiting(moves=False).players:
        return None
    return dataclasses.replace(decision(consultation.match, side, bot), player=name)
