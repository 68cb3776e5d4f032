"""bench/gnubg_agreement.py reads the cube decisions of GNU Backgammon's analysis text (the
shape ``export match text`` writes, boards left out: the reader does not look at them), and
its ``sweep`` counts what the best few valued again at 2-ply would pick."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from gnubg_agreement import SWEEP_MARGINS, cube_decisions, judge_cube, model_cube, sweep_table

DOUBLE = """Move number 8:  root on roll, cube decision?

 GNU Backgammon  Position ID: 4POJARIzG+IBMA
                 Match ID   : cAlgAAAAAAAE
Pip counts: O 150, X 140

* root doubles


Cube analysis
2-ply cubeless equity +0.637 (Money: +0.508)
  0.639 0.313 0.013 - 0.361 0.091 0.005
Cubeful equities:
1. Double, take        +0.910
2. Double, pass        +1.000  (+0.090)
3. No double           +0.737  (-0.173)
Proper cube action: Double, take
Move number 9:  root doubles to 2

 GNU Backgammon  Position ID: 4POJARIzG+IBMA
                 Match ID   : cBFgAAAAAAAE
Pip counts: O 150, X 140

* gnubg {answer}


Cube analysis
2-ply cubeless equity -0.637 (Money: -0.508)
  0.361 0.091 0.005 - 0.639 0.313 0.013
Cubeful equities:
1. Double, take        -0.910
2. Double, pass        -1.000  (-0.090)
3. No double           -0.737  (+0.173)
Proper cube action: Double, take
"""
"""A double (game 1 of a 3-point match at 0-0), its analysis repeated under the answer."""

TOO_GOOD = """Move number 30:  gnubg to play 64

 GNU Backgammon  Position ID: 4POJARIzG+IBMA
                 Match ID   : cAlgAAAAAAAE
Pip counts: O 150, X 140

Cube analysis
2-ply cubeless equity +1.000 (Money: +1.000)
  0.845 0.359 0.005 - 0.155 0.032 0.001
Cubeful equities:
1. No double           +1.293
2. Double, pass        +1.000  (-0.293)
3. Double, take        +2.399  (+1.106)
Proper cube action: Too good to double, pass (22.7%)
"""
"""A roll that came after no double, where gnubg says the player is too good to double."""


@pytest.mark.parametrize(
    ("answer", "played"), [("accepts", "double-take"), ("rejects", "double-pass")]
)
def test_a_double_is_one_decision_with_the_answer_played(answer: str, played: str) -> None:
    (double, rolled) = cube_decisions(DOUBLE.format(answer=answer) + TOO_GOOD)
    assert double.ids == "4POJARIzG+IBMA:cAlgAAAAAAAE"
    assert double.proper == {"double-take"} and double.played == played
    assert double.equities == {"no-double": 0.737, "double-take": 0.91, "double-pass": 1.0}
    assert double.chances == (0.639, 0.313, 0.013, 0.091, 0.005)
    assert rolled.proper == {"too-good"} and rolled.played == "no-double"


def test_an_action_costs_what_gnubgs_equities_say() -> None:
    (double,) = cube_decisions(DOUBLE.format(answer="accepts"))
    assert double.cost("double-take") == 0.0
    assert double.cost("no-double") == pytest.approx(0.91 - 0.737)
    assert double.cost("double-pass") == pytest.approx(1.0 - 0.91)  # the answer's mistake
    (too_good,) = cube_decisions(TOO_GOOD)
    assert too_good.cost("too-good") == too_good.cost("no-double") == 0.0
    assert too_good.cost("double-pass") == pytest.approx(0.293)
    assert too_good.cost("double-take") == pytest.approx(0.293 + 1.399)


def test_playing_on_is_right_when_too_good_but_a_proper_action_is_judged_strictly() -> None:
    (too_good,) = cube_decisions(TOO_GOOD)
    assert too_good.agrees(too_good.played)  # gnubg's players rolled: right
    assert too_good.agrees("too-good") and not too_good.agrees("double-pass")
    assert not too_good.doubles("too-good") and too_good.doubles("double-pass")


def test_an_optional_double_allows_both() -> None:
    text = TOO_GOOD.replace("Too good to double, pass", "Optional redouble, take")
    (optional,) = cube_decisions(text)
    assert optional.proper == {"no-double", "double-take"}


def test_nardy_judges_each_decision_by_its_net_and_by_gnubgs_chances() -> None:
    (double,) = cube_decisions(DOUBLE.format(answer="accepts"))
    keys = {"no-double", "double-take", "double-pass", "too-good"}
    assert judge_cube(double, 1) in keys
    # gnubg's chances through nardy's cube model: a 64% favourite with 31% gammons at 0-0
    # of a 3-point match doubles, and it is a take (gnubg: +0.910 against +0.737).
    assert model_cube(double) == "double-take"


def test_the_sweep_keeps_the_best_few_within_the_margin_and_judges_by_their_deeper_values() -> None:
    """``sweep``'s arithmetic: a decision whose kept plays are two or more is judged by their
    values at 2-ply, one with a single play kept by the ranking's own; the plays valued
    again are counted per decision."""
    close = (
        [(False, 0.50), (True, 0.45), (False, 0.10)],  # gnubg's second at 1-ply, 0.05 behind
        [(False, 0.30), (True, 0.40)],  # ... and first at 2-ply
    )
    clear = ([(True, 0.20), (False, 0.00)], [(True, 0.10), (False, 0.15)])  # 0.20 ahead
    table = {
        (kept, margin): (agree, again)
        for kept, margin, agree, again in sweep_table([close, clear], 2)
    }
    assert set(table) == {(2, m) for m in SWEEP_MARGINS}
    assert table[2, 0.04] == (0.5, 0.0)  # nothing kept: the 1-ply ranking misses the first
    assert table[2, 0.08] == (1.0, 1.0)  # the first kept two, valued again: both agree
    assert table[2, 0.16] == (1.0, 1.0)  # the second's runner-up is 0.20 behind: kept alone
