"""The replay's turns (docs/protocol.md, "Replay"): each turn's checkers before and after it,
per seat as the board view counts them (``nardy.core.view``), so that the replay page draws
every step without the rules: matches of every variant played by random legal actions."""

from __future__ import annotations

import itertools
import random

import pytest

from nardy.core.dice import SeededDice
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.core.view import position_view, seat_sides
from nardy.server.lobby.replay import replay_view
from tests.gameutil import random_action

CHECKERS = 15


def _seats(hexed: str, mover: int) -> list[list[int]]:
    """Each seat's counts of a position written in hex from ``mover``'s side, the checkers
    not entered yet (acey-deucey, RULES.md 2) at 25."""
    raw = bytes.fromhex(hexed)
    sides = [list(raw[:26]), list(raw[26:])]
    for side in sides:
        side[25] += CHECKERS - sum(side)
    return sides if mover == 0 else sides[::-1]


@pytest.mark.parametrize("name", ["backgammon", "nackgammon", "acey-deucey", "long"])
def test_each_turn_has_the_board_before_and_after_it(name: str) -> None:
    match = Match(Settings(variant=name, match_length=3), SeededDice(name))
    rng = random.Random(name)
    while not match.over:
        match.apply(random_action(rng, match.awaiting(), match.game))
    games = replay_view(match)
    assert len(games) == len(match.games)
    for game, shown in zip(match.games, games, strict=True):
        turns = shown["turns"]
        assert len(turns) == len(game.records)
        start = shown["start"]
        if turns:
            assert turns[0]["before"]["sides"] == _seats(start["position"], start["player"])
        for record, turn in zip(game.records, turns, strict=True):
            for when, position in (("before", record.before), ("after", record.after)):
                board = turn[when]
                assert set(board) == {"sides", "pips", "off"}
                assert board == position_view(position, record.player).to_json()
                sides = board["sides"]
                assert all(sum(side) == CHECKERS for side in sides)
                assert [list(s) for s in seat_sides(position, record.player)] == sides
                assert board["off"] == [side[0] for side in sides]
                mine = game.variant.pips(position.mine), game.variant.pips(position.theirs)
                assert board["pips"] == list(mine if record.player == 0 else mine[::-1])
        # each turn starts where the last one left the board: the seats need no swapping
        for last, turn in itertools.pairwise(turns):
            assert turn["before"] == last["after"]
