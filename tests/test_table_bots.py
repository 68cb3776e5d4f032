"""Bots at a chouette table and in a consultation game (engine.bots.chouette_decision,
consultation_decision): each decides as the participant it is seated as, by name."""

from __future__ import annotations

from collections.abc import Callable

from nardy.core import actions as act
from nardy.core.chouette import TEAM, Chouette
from nardy.core.dice import SeededDice
from nardy.core.game import Game, Phase
from nardy.core.settings import Settings
from nardy.core.team import Consultation
from nardy.engine import HeuristicBot
from nardy.engine.bots import Bot, chouette_decision, consultation_decision


class Cube(HeuristicBot):
    """The heuristic bot's checker play with cube answers fixed by the test."""

    def __init__(self, double: bool = False, take: bool = True) -> None:
        super().__init__()
        self.doubles, self.takes = double, take

    def should_double(self, game: Game, player: int) -> bool:
        return self.doubles

    def should_take(self, game: Game, player: int) -> bool:
        return self.takes


def chouette() -> Chouette:
    return Chouette(["a", "b", "c"], Settings(), SeededDice(3))


def drive(table: Chouette, bots: dict[str, Bot], until: Callable[[Chouette], bool]) -> None:
    """Let every participant's bot act, in the order the table waits for them, until
    ``until`` holds."""
    for _ in range(2000):
        if until(table):
            return
        waiting = table.awaiting(moves=False)
        for name in waiting.players:
            assert isinstance(name, str)
            action = chouette_decision(table, name, bots[name])
            if action is not None:
                table.apply(action)
                break
        else:
            raise AssertionError(f"nobody acts: {waiting}")
    raise AssertionError("not reached")


def team_may_double(table: Chouette) -> bool:
    game = table.game
    return game is not None and game.phase is Phase.ROLL and game.turn == TEAM


def test_between_games_the_box_and_captain_start_the_game() -> None:
    table = chouette()
    assert chouette_decision(table, table.box, HeuristicBot()) == act.RollOpening(table.box)
    assert chouette_decision(table, table.line[0], HeuristicBot()) == act.RollOpening(table.line[0])


def test_a_member_votes_only_to_double_and_the_captain_rolls_once_it_has_voted() -> None:
    table = chouette()
    drive(table, dict.fromkeys(table.players, Cube()), team_may_double)
    captain, member = table.captain, table.line[1]
    assert chouette_decision(table, member, Cube(double=False)) is None  # lets it pass
    assert chouette_decision(table, member, Cube(double=True)) == act.Vote(member, True)
    assert chouette_decision(table, captain, Cube(double=True)) == act.Vote(captain, True)
    table.apply(act.Vote(captain, True))
    assert chouette_decision(table, captain, Cube(double=True)) == act.Roll(captain)
    table.apply(act.Vote(member, True))  # unanimous: the double is offered to the box
    assert chouette_decision(table, table.box, Cube(take=True)) == act.Take(table.box)
    assert chouette_decision(table, table.box, Cube(take=False)) == act.Pass(table.box)


def test_a_vote_under_way_gets_every_bots_answer() -> None:
    """Issue 21: once a person has voted to double, a bot member votes for or against, and a
    bot captain who would not double votes against before it rolls: no vote lapses unheard."""
    table = chouette()
    drive(table, dict.fromkeys(table.players, Cube()), team_may_double)
    captain, member = table.captain, table.line[1]
    table.apply(act.Vote(member, True))
    assert chouette_decision(table, captain, Cube(double=False)) == act.Vote(captain, False)
    table.apply(act.Vote(captain, False))
    assert chouette_decision(table, captain, Cube(double=False)) == act.Roll(captain)
    table.apply(act.Vote(captain, True))
    assert chouette_decision(table, member, Cube(double=False)) == act.Vote(member, False)


def test_each_member_answers_the_boxs_double_by_name() -> None:
    table = chouette()
    box = table.box

    def box_on_roll(t: Chouette) -> bool:
        game = t.game
        return game is not None and game.phase is Phase.ROLL and game.turn != TEAM

    drive(table, dict.fromkeys(table.players, Cube()), box_on_roll)
    assert chouette_decision(table, box, Cube(double=True)) == act.Double(box)
    table.apply(act.Double(box))
    first, second = table.line
    assert chouette_decision(table, first, Cube(take=True)) == act.Take(first)
    assert chouette_decision(table, second, Cube(take=False)) == act.Pass(second)


def test_three_bots_play_a_whole_chouette_game() -> None:
    table = chouette()
    bots: dict[str, Bot] = {"a": Cube(double=True), "b": Cube(take=False), "c": HeuristicBot()}
    drive(table, bots, lambda t: bool(t.games) and t.current is None)
    assert sum(table.scores.values()) == 0 and any(table.scores.values())


def test_a_consultation_bot_acts_as_its_sides_captain_only() -> None:
    table = Consultation((["x", "y"], ["bot1"]), Settings(match_length=1), SeededDice(5))
    assert consultation_decision(table, "bot1", HeuristicBot()) == act.RollOpening("bot1")
    assert consultation_decision(table, "y", HeuristicBot()) is None  # not a captain
    table.apply(act.RollOpening("x"))
    waiting = table.match.awaiting(moves=False)
    if 1 in waiting.players:  # the bot's side won the opening roll: it plays, by name
        decided = consultation_decision(table, "bot1", HeuristicBot())
        assert isinstance(decided, act.Play) and decided.player == "bot1"
        table.apply(decided)
    else:
        assert consultation_decision(table, "bot1", HeuristicBot()) is None
