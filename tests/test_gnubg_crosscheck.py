"""Cross-checks against GNU Backgammon's own move generator and move formatter.

gnubg-nn and gnubg are GPL test oracles (``pip install --pre gnubg-nn gnubg``), never imported
by the package. ``bench/gnubg_crosscheck.py`` runs the same comparison on millions of positions.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

gnubg_nn = pytest.importorskip("gnubg_nn")

from gnubg_crosscheck import crosscheck, gnubg_board, random_game_positions  # noqa: E402
from oracle import gnubg_oracle  # noqa: E402

from nardy import BACKGAMMON, position_id  # noqa: E402
from nardy.notation.position_id import encode_sides  # noqa: E402

pytestmark = pytest.mark.gnubg


@pytest.mark.parametrize(
    ("variant", "count", "seed"), [("backgammon", 20_000, 2026), ("nackgammon", 3_000, 7)]
)
def test_1_2_legal_plays_equal_gnubg_on_random_games(variant: str, count: int, seed: int) -> None:
    """RULES.md 1.2-1.3: the set of positions reached equals gnubg's on random-game positions."""
    assert crosscheck(count, seed, variant) == []


def test_opening_6_5_is_gnubgs_list() -> None:
    """NOTATION.md: ``nardy moves 4HPwATDgc/ABMA 6 5`` gives gnubg's 7 plays."""
    ours = {position_id(p.position) for p in BACKGAMMON.start().legal_plays(6, 5)}
    keys = gnubg_nn.moves(gnubg_board(BACKGAMMON.start()), 6, 5, 0)
    theirs = {
        gnubg_nn.position_id([list(s) for s in gnubg_nn.board_from_position_key(k)]) for k in keys
    }
    assert len(ours) == 7
    assert ours == theirs


def test_notation_equals_gnubg_formatter() -> None:
    """NOTATION.md, Moves: canonical notation is exactly what gnubg prints for the same play."""
    gnubg = gnubg_oracle()
    compared = 0
    for pos, d1, d2 in random_game_positions("backgammon", 1_500, 99):
        ours = {
            encode_sides(p.position.mine, p.position.theirs): str(p)
            for p in pos.legal_plays(d1, d2)
        }
        board = gnubg_board(pos)
        for key, steps in gnubg_nn.moves(board, d1, d2, 1):
            theirs, mine = gnubg_nn.board_from_position_key(key)
            result = encode_sides(bytes([0, *mine]), bytes([0, *theirs]))
            flat = tuple(x for step in steps for x in step)
            if result in ours:
                assert ours[result] == gnubg.movetupletostring(
                    flat, (tuple(board[0]), tuple(board[1]))
                )
                compared += 1
    assert compared > 10_000


def test_position_id_equals_gnubg() -> None:
    """NOTATION.md, Positions: our Position ID is gnubg's, side not on roll first."""
    for pos, _, _ in random_game_positions("backgammon", 2_000, 5):
        assert position_id(pos) == gnubg_nn.position_id(gnubg_board(pos))
