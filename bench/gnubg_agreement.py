"""How often nardy's analysis picks GNU Backgammon's 2-ply best play, on matches gnubg played.

    python bench/gnubg_agreement.py generate --matches 4 --length 3 --seed 1 --out DIR
    python bench/gnubg_agreement.py compare DIR --ply 1

``generate`` has GNU Backgammon (the ``gnubg`` program, GPL, run as a separate program and
never imported) play ``--matches`` matches against itself at 0-ply, each with its own dice
seed, analyse each at its default analysis (2-ply, cubeful) and write the analysis as text
(``DIR/match-SEED.txt``: ``export match text``). The matches are gnubg's, not nardy's, so the
benchmark judges nardy on positions it did not choose (issue 20).

``compare`` reads those files: for every checker play gnubg's analysis lists two or more
candidates for (an unforced decision), gnubg's best (its first candidate) against the best
of nardy's analysis at ``--ply`` (:func:`nardy.engine.analysis.confirmed` at the match
score of the Match ID: ``nardy hint``'s ranking, again at 2-ply where the play gnubg made
is marked, as ``nardy analyze`` judges it), the two compared by the positions they reach
(a play nardy values as its best, to :data:`TIE`, counts as its best). gnubg writes each
game of a match to a file of its own (``match-SEED.txt``, ``match-SEED_002.txt``, …). It
prints the agreement, the decisions and the seconds nardy took, and with ``--show`` each
disagreement.

It also judges the play gnubg made (at 0-ply: the play marked ``*``) as both programs'
analyses do: the equity each says it lost against its own best, the correlation of the two
losses over the decisions, the plays each marks bad or very bad (a loss over 0.08,
:func:`nardy.engine.analysis.skill`), and the false marks, nardy's bad or very bad where
gnubg's loss is under :data:`FALSE_MARK` (issue 20's targets: correlation at least 0.90, no
false marks).
"""

from __future__ import annotations

import argparse
import itertools
import math
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from nardy.cli.engine import context_stakes, read_position
from nardy.engine.analysis import confirmed, rank_plays, skill
from nardy.notation import parse_position

GNUBG = "/usr/games/gnubg"
COMMANDS = """set sound enable off
set display off
set player 0 gnubg
set player 1 gnubg
set player 0 chequerplay evaluation plies 0
set player 1 chequerplay evaluation plies 0
set player 0 cubedecision evaluation plies 0
set player 1 cubedecision evaluation plies 0
set seed {seed}
new match {length}
analyse match
export match text {path}
quit
y
"""
"""gnubg's commands for one match: both players gnubg at 0-ply, its default analysis."""

_MOVE = re.compile(r"^Move number \d+:\s+\S.* to play (\d)(\d)\s*$", re.M)
_IDS = re.compile(r"Position ID: (\S+)\s+Match ID\s*: (\S+)")
_CANDIDATE = re.compile(r"^(\*?)\s+\d+\. .*?\d-ply\s+(\S.*?)\s+Eq\.: ([+-]?\d+\.\d+)", re.M)


@dataclass(frozen=True, slots=True)
class Decision:
    """One unforced checker play of a gnubg-played match: the position and score as gnubg's
    IDs give them, the dice, gnubg's best play in its own notation, and the play made with
    the equity gnubg's analysis says it lost (None where the analysis does not list it)."""

    ids: str
    dice: tuple[int, int]
    best: str
    played: str | None
    played_loss: float | None


def generate(matches: int, length: int, seed: int, out: Path) -> None:
    """gnubg plays and analyses ``matches`` matches of ``length`` points (dice seeds
    ``seed``, ``seed + 1``, …) into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    for i in range(matches):
        path = out / f"match-{seed + i}.txt"
        script = COMMANDS.format(seed=seed + i, length=length, path=path)
        subprocess.run(
            [GNUBG, "-t", "-q"], input=script, text=True, capture_output=True, check=True
        )
        if not path.is_file():
            raise SystemExit(f"gnubg wrote no analysis for seed {seed + i}")
        games = sorted(out.glob(f"match-{seed + i}*.txt"))
        plays = sum(len(decisions(game.read_text())) for game in games)
        print(f"seed {seed + i}: {len(games)} games, {plays} unforced checker plays")


def decisions(text: str) -> list[Decision]:
    """The unforced checker plays of one match's analysis text, in order."""
    found = []
    starts = [m.start() for m in _MOVE.finditer(text)] + [len(text)]
    for start, end in itertools.pairwise(starts):
        block = text[start:end]
        move, ids = _MOVE.match(block), _IDS.search(block)
        candidates = _CANDIDATE.findall(block)
        if move is None or ids is None or len(candidates) < 2:
            continue  # forced, no roll (a cube decision), or the game over
        dice = (int(move.group(1)), int(move.group(2)))
        best = float(candidates[0][2])
        made = [(play, best - float(eq)) for star, play, eq in candidates if star]
        played, loss = made[0] if made else (None, None)
        found.append(
            Decision(f"{ids.group(1)}:{ids.group(2)}", dice, candidates[0][1], played, loss)
        )
    return found


TIE = 0.0005
"""Plays nardy values within this of each other (its printed precision, EMG) are as good as
each other to it: where gnubg's best is one of them, nardy agrees (a bear-off's plays often
tie exactly)."""


FALSE_MARK = 0.02
"""A nardy mark of bad or very bad on a play gnubg says loses less than this is false."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """nardy's view of one decision: whether its best is gnubg's best, and the equity it says
    the play made lost against its best (None where gnubg's analysis does not list it)."""

    agrees: bool
    played_loss: float | None


def judge(decision: Decision, ply: int) -> Judgement:
    """nardy's analysis at ``ply`` on ``decision``: its best play against gnubg's best (a
    play worth as much to nardy as its best counts as its best), and the loss of the play
    made, from the ranking the analysis judges that play by
    (:func:`nardy.engine.analysis.confirmed`: again at 2-ply where it marks the play);
    where gnubg's analysis does not list the play made, from the plain ranking (the hint's)."""
    position = parse_position(decision.ids, "backgammon")
    stakes = context_stakes(read_position(decision.ids, position.variant))
    ranked = rank_plays(position, *decision.dice, ply, stakes=stakes)
    if decision.played is not None:
        made = position.parse_play(decision.played, *decision.dice).position
        reached = (made.mine, made.theirs)
        ranked = confirmed(position, *decision.dice, ranked, reached, stakes=stakes)

    def value(play: str) -> float | None:
        """nardy's equity of a play; None for one its judgement did not value again (not
        among its best at ``ply``, so not its best)."""
        reached = position.parse_play(play, *decision.dice).position
        sides = (reached.mine, reached.theirs)
        found = (
            r.equity for r in ranked if (r.play.position.mine, r.play.position.theirs) == sides
        )
        return next(found, None)

    top = ranked[0].equity
    theirs = value(decision.best)
    played = None if decision.played is None else value(decision.played)
    loss = None if played is None else max(0.0, top - played)
    return Judgement(theirs is not None and top - theirs <= TIE, loss)


def correlation(xs: list[float], ys: list[float]) -> float:
    """Pearson's correlation of two equally long series (nan where either is constant)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else math.nan


def compare(folder: Path, ply: int, show: bool) -> None:
    files = sorted(folder.glob("match-*.txt"))  # a file a game
    if not files:
        raise SystemExit(f"no match-*.txt in {folder}: run generate first")
    total = same = 0
    theirs: list[float] = []  # the losses of the plays made, gnubg's and nardy's
    ours: list[float] = []
    started = time.perf_counter()
    for path in files:
        for decision in decisions(path.read_text()):
            total += 1
            judged = judge(decision, ply)
            if judged.agrees:
                same += 1
            elif show:
                print(
                    f"  {decision.ids} {decision.dice[0]}-{decision.dice[1]}: gnubg {decision.best}"
                )
            if decision.played_loss is not None and judged.played_loss is not None:
                theirs.append(decision.played_loss)
                ours.append(judged.played_loss)
    seconds = time.perf_counter() - started
    print(
        f"{len(files)} games, {total} unforced checker plays: nardy {ply}-ply picks gnubg "
        f"2-ply's best in {same} ({100 * same / max(total, 1):.1f}%), {seconds:.0f} s"
    )
    if not theirs:
        return
    bad = {"bad", "very bad"}
    marked_theirs = sum(skill(loss) in bad for loss in theirs)
    marked_ours = sum(skill(loss) in bad for loss in ours)
    both = sum(skill(a) in bad and skill(b) in bad for a, b in zip(theirs, ours, strict=True))
    false = sum(skill(b) in bad and a < FALSE_MARK for a, b in zip(theirs, ours, strict=True))
    print(
        f"the plays made ({len(theirs)} judged): correlation of the two losses "
        f"{correlation(theirs, ours):.3f}; bad or very bad: gnubg {marked_theirs}, nardy "
        f"{marked_ours}, both {both}; nardy's false marks (gnubg's loss < {FALSE_MARK}): "
        f"{false}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="gnubg plays and analyses matches")
    gen.add_argument("--matches", type=int, default=4)
    gen.add_argument("--length", type=int, default=3)
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--out", type=Path, required=True)
    cmp = sub.add_parser("compare", help="nardy's best plays against gnubg's")
    cmp.add_argument("folder", type=Path)
    cmp.add_argument("--ply", type=int, default=1)
    cmp.add_argument("--show", action="store_true", help="print each disagreement")
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.matches, args.length, args.seed, args.out)
    else:
        compare(args.folder, args.ply, args.show)


if __name__ == "__main__":
    main()
