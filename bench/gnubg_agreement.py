"""How often nardy's analysis picks GNU Backgammon's 2-ply best play, on matches gnubg played.

    python bench/gnubg_agreement.py generate --matches 4 --length 3 --seed 1 --out DIR
    python bench/gnubg_agreement.py compare DIR --ply 1 [--show] [--cubes-only]
    python bench/gnubg_agreement.py sweep DIR [--base 1] [--among 6]

``generate`` has GNU Backgammon (the ``gnubg`` program, GPL, run as a separate program and
never imported) play ``--matches`` matches against itself at 0-ply, each with its own dice
seed, analyse each at its default analysis (2-ply, cubeful) and write the analysis as text
(``DIR/match-SEED.txt``: ``export match text``). The matches are gnubg's, not nardy's, so the
benchmark judges nardy on positions it did not choose (issue 20).

``compare`` reads those files: for every checker play gnubg's analysis lists two or more
candidates for (an unforced decision), gnubg's best (its first candidate) against the best
of nardy's analysis at ``--ply`` (:func:`nardy.engine.analysis.deepened` at the match
score of the Match ID: at 1-ply the best few plays and the play gnubg made again at 2-ply,
and that play rolled out against the best where they mark it bad or very bad,
:func:`nardy.engine.analysis.confirmed`, as ``nardy analyze`` judges it), the two compared
by the positions they reach
(a play nardy values as its best, to :data:`TIE`, counts as its best). gnubg writes each
game of a match to a file of its own (``match-SEED.txt``, ``match-SEED_002.txt``, …). It
prints the agreement, the decisions and the seconds nardy took, and with ``--show`` each
disagreement and each false mark (below).

It also judges the play gnubg made (at 0-ply: the play marked ``*``) as both programs'
analyses do: the equity each says it lost against its own best, the correlation of the two
losses over the decisions, the plays each marks bad or very bad (a loss over 0.08,
:func:`nardy.engine.analysis.skill`), and the false marks, nardy's bad or very bad where
gnubg's loss is under :data:`FALSE_MARK` (issue 20's targets: correlation at least 0.90, no
false marks).

``sweep`` chose :func:`nardy.engine.analysis.deepened`'s setting: for every unforced decision
the ranking at ``--base`` ply and its best ``--among`` plays valued at 2-ply once, then, for
each number of them kept and each margin (:data:`SWEEP_MARGINS`), how often the best of
those kept is gnubg's best and how many plays a decision were valued at 2-ply.

And the cube decisions (alone with ``--cubes-only``): at every roll and every double gnubg
analysed the cube for, its proper action (:class:`CubeDecision`) against nardy's at ``--ply``
(the analysis's, :func:`nardy.engine.analysis.cube_judgement`: the lookahead, rolled out
where close), against nardy's cube model on
gnubg's own cubeless 2-ply chances (which parts the net, and which the model, loses), and
against what gnubg's players did at 0-ply (the reference, as gnubg's 0-ply is for the
checker plays): how often each is a proper action, where either doubles (issue 20's target:
85%), and what each costs by gnubg's cubeful equities.
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

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from nardy.cli.engine import context_stakes, read_position
from nardy.core import Position
from nardy.engine.analysis import (
    DEEPER_PLY,
    cube_action_key,
    cube_judgement,
    judgement,
    load_evaluator,
    rank_plays,
    ranking,
    skill,
)
from nardy.engine.stakes import Stakes
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


_HEADER = re.compile(r"^Move number \d+:\s+\S.*$", re.M)
_CUBE_EQUITY = re.compile(r"^\d\. (No double|Double, take|Double, pass)\s+([+-]?\d+\.\d+)", re.M)
_EQUITY_KEYS = {
    "No double": "no-double",
    "Double, take": "double-take",
    "Double, pass": "double-pass",
}
_PROPER = re.compile(r"^Proper cube action: (.*?),? (take|pass|beaver)\b", re.M)
_ANSWER = re.compile(r"^\* \S+ (accepts|rejects)", re.M)
_CHANCES = re.compile(r"^\s+(\d\.\d+) (\d\.\d+) (\d\.\d+) - (\d\.\d+) (\d\.\d+) (\d\.\d+)$", re.M)


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """One cube decision of a gnubg-played match, the doubler's (before a roll he could
    double at): the position and score as gnubg's IDs give them; the proper actions gnubg's
    analysis allows, as :func:`nardy.engine.analysis.cube_action_key` names them (two where
    it says the double is optional); its cubeful equities of no double, double/take and
    double/pass for the player on roll; what gnubg's players did at 0-ply (``no-double``:
    he rolled; ``double-take`` or ``double-pass``); and gnubg's cubeless 2-ply chances for
    the player on roll, in the order of nardy's nets' outputs."""

    ids: str
    proper: frozenset[str]
    equities: dict[str, float]
    played: str
    chances: tuple[float, float, float, float, float]

    def agrees(self, key: str) -> bool:
        """Whether the action ``key`` is a proper one. Playing on (``no-double``) is right
        where the proper action is too good to double; a program's proper action is judged
        strictly (``no-double`` and ``too-good`` say different things of the answer)."""
        return key in self.proper or (
            key == self.played == "no-double" and "too-good" in self.proper
        )

    def doubles(self, key: str) -> bool:
        """Whether gnubg's proper action or ``key`` is a double: issue 20's cube target counts
        these decisions."""
        return key.startswith("double-") or any(k.startswith("double-") for k in self.proper)

    def cost(self, key: str) -> float:
        """What the action ``key`` loses by gnubg's equities, the doubler's part (doubling or
        not where he should not) and the answer's (taking where it should pass, or passing
        where it should take), together."""
        nd, dt, dp = (self.equities[k] for k in ("no-double", "double-take", "double-pass"))
        double = min(dt, dp)  # the double, answered properly
        if not key.startswith("double-"):
            return max(nd, double) - nd
        answered = dt if key == "double-take" else dp
        return max(nd, double) - double + abs(answered - double)


def _proper(words: str, answer: str) -> frozenset[str]:
    """gnubg's proper cube action (``No redouble``, ``Too good to double``, ``Optional
    double``, ... and the answer) as nardy's keys."""
    double = f"double-{answer}"
    if words.startswith("Too good"):
        return frozenset({"too-good"})
    if words.startswith("No "):
        return frozenset({"no-double"})
    if words.startswith("Optional"):
        return frozenset({"no-double", double})
    return frozenset({double})


def cube_decisions(text: str) -> list[CubeDecision]:
    """The cube decisions of one match's analysis text, in order: each roll (``to play``)
    and each double (``cube decision?``) of a player gnubg analysed the cube for (the cube
    his or in the middle, not the Crawford game). The analysis repeated under a double's
    answer (``doubles to``, the next block) is the same decision: the answer is read there."""
    found = []
    starts = [m.start() for m in _HEADER.finditer(text)] + [len(text)]
    blocks = [text[a:b] for a, b in itertools.pairwise(starts)]
    for block, after in itertools.zip_longest(blocks, blocks[1:], fillvalue=""):
        header = block.splitlines()[0]
        if "to play" in header:
            played = "no-double"
        elif "cube decision?" in header and (answer := _ANSWER.search(after)):
            played = "double-take" if answer.group(1) == "accepts" else "double-pass"
        else:
            continue
        ids, proper, chances = _IDS.search(block), _PROPER.search(block), _CHANCES.search(block)
        equities = {_EQUITY_KEYS[m[0]]: float(m[1]) for m in _CUBE_EQUITY.findall(block)}
        if ids is None or proper is None or chances is None or len(equities) != 3:
            continue
        win, win_g, win_bg, _, lose_g, lose_bg = map(float, chances.groups())
        found.append(
            CubeDecision(
                f"{ids.group(1)}:{ids.group(2)}",
                _proper(proper.group(1), proper.group(2)),
                equities,
                played,
                (win, win_g, win_bg, lose_g, lose_bg),
            )
        )
    return found


def judge_cube(decision: CubeDecision, ply: int) -> str:
    """nardy's proper cube action at ``ply``, as the analysis judges a player's (its cube
    decision at least one roll ahead, at the score of the Match ID, and rolled out where
    close: :func:`nardy.engine.analysis.cube_judgement`)."""
    position, stakes = _on_roll(decision)
    return cube_action_key(cube_judgement(position, stakes, ply)[0])


def model_cube(decision: CubeDecision) -> str:
    """The proper cube action of nardy's cube model on gnubg's cubeless chances, not its
    net's: what the model alone loses."""
    position, stakes = _on_roll(decision)
    return cube_action_key(stakes.decision(np.array(decision.chances, np.float32), position))


def _on_roll(decision: CubeDecision) -> tuple[Position, Stakes]:
    """The position of a cube decision and what its game is played for, from its IDs."""
    position = parse_position(decision.ids, "backgammon")
    return position, context_stakes(read_position(decision.ids, position.variant))


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
    (:func:`nardy.engine.analysis.deepened`: at 1-ply the best few and the play made again
    at 2-ply); where gnubg's analysis does not list the play made, the hint's."""
    position = parse_position(decision.ids, "backgammon")
    stakes = context_stakes(read_position(decision.ids, position.variant))
    reached = None
    if decision.played is not None:
        made = position.parse_play(decision.played, *decision.dice).position
        reached = (made.mine, made.theirs)
    ranked = (
        ranking(position, *decision.dice, ply, stakes=stakes)
        if reached is None
        else judgement(position, *decision.dice, reached, ply, stakes=stakes)
    )
    depth = (ranked[0].ply, ranked[0].rollout)

    def value(play: str) -> float | None:
        """nardy's equity of a play; None for one its judgement did not value at the depth
        of its best (not among its best few, or not rolled out with it: not its best)."""
        reached = position.parse_play(play, *decision.dice).position
        sides = (reached.mine, reached.theirs)
        found = (
            r.equity
            for r in ranked
            if (r.ply, r.rollout) == depth
            and (r.play.position.mine, r.play.position.theirs) == sides
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


def compare(folder: Path, ply: int, show: bool, cubes_only: bool = False) -> None:
    files = sorted(folder.glob("match-*.txt"))  # a file a game
    if not files:
        raise SystemExit(f"no match-*.txt in {folder}: run generate first")
    if cubes_only:
        _compare_cubes(files, ply, show)
        return
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
                if show and _false_mark(decision.played_loss, judged.played_loss):
                    print(
                        f"  false mark {decision.ids} {decision.dice[0]}-{decision.dice[1]}: "
                        f"nardy {judged.played_loss:.3f}, gnubg {decision.played_loss:.3f}"
                    )
    seconds = time.perf_counter() - started
    print(
        f"{len(files)} games, {total} unforced checker plays: nardy {ply}-ply picks gnubg "
        f"2-ply's best in {same} ({100 * same / max(total, 1):.1f}%), {seconds:.0f} s"
    )
    if theirs:
        _print_plays_made(theirs, ours)
    _compare_cubes(files, ply, show)


def _compare_cubes(files: list[Path], ply: int, show: bool) -> None:
    """nardy's proper cube actions against gnubg 2-ply's, and gnubg's own 0-ply play (the
    actions its players took) as the reference: how often each is a proper action, where
    either doubles (issue 20's target: 85%), and what gnubg's equities say each costs."""
    started = time.perf_counter()
    cubes = [c for path in files for c in cube_decisions(path.read_text())]
    ours = [judge_cube(cube, ply) for cube in cubes]
    seconds = time.perf_counter() - started
    for name, keys in (
        (f"nardy {ply}-ply's proper action", ours),
        ("nardy's cube model on gnubg's 2-ply chances", [model_cube(c) for c in cubes]),
        ("gnubg 0-ply's play", [c.played for c in cubes]),
    ):
        same = sum(c.agrees(k) for c, k in zip(cubes, keys, strict=True))
        doubling = [(c, k) for c, k in zip(cubes, keys, strict=True) if c.doubles(k)]
        doubles_same = sum(c.agrees(k) for c, k in doubling)
        cost = sum(c.cost(k) for c, k in zip(cubes, keys, strict=True))
        print(
            f"{len(cubes)} cube decisions, {name}: gnubg 2-ply's proper action in {same} "
            f"({100 * same / max(len(cubes), 1):.1f}%); where either doubles, {doubles_same} of "
            f"{len(doubling)} ({100 * doubles_same / max(len(doubling), 1):.1f}%); costs "
            f"{1000 * cost / max(len(cubes), 1):.1f} mEMG a decision by gnubg's equities"
        )
    print(f"nardy's cube decisions took {seconds:.0f} s")
    if show:
        for cube, key in zip(cubes, ours, strict=True):
            if not cube.agrees(key):
                proper = "/".join(sorted(cube.proper))
                print(f"  cube {cube.ids}: gnubg {proper}, nardy {key} ({cube.cost(key):.3f})")


def _false_mark(theirs: float, ours: float) -> bool:
    """Whether nardy marks a play bad or very bad that gnubg finds (almost) no error in."""
    return skill(ours) in {"bad", "very bad"} and theirs < FALSE_MARK


def _print_plays_made(theirs: list[float], ours: list[float]) -> None:
    """The two programs' losses of the plays made: their correlation, the marks, the false
    marks."""
    bad = {"bad", "very bad"}
    marked_theirs = sum(skill(loss) in bad for loss in theirs)
    marked_ours = sum(skill(loss) in bad for loss in ours)
    both = sum(skill(a) in bad and skill(b) in bad for a, b in zip(theirs, ours, strict=True))
    false = sum(_false_mark(a, b) for a, b in zip(theirs, ours, strict=True))
    print(
        f"the plays made ({len(theirs)} judged): correlation of the two losses "
        f"{correlation(theirs, ours):.3f}; bad or very bad: gnubg {marked_theirs}, nardy "
        f"{marked_ours}, both {both}; nardy's false marks (gnubg's loss < {FALSE_MARK}): "
        f"{false}"
    )


SWEEP_MARGINS = (0.04, 0.08, 0.16)
"""The margins behind the ranking's best within which ``sweep`` keeps plays to value again."""

Valued = list[tuple[bool, float]]
"""Plays of one decision in a ranking's order: whether each is gnubg's best, and its value."""


def _agrees(plays: Valued) -> bool:
    """Whether gnubg's best is worth as much as the best of ``plays`` (to :data:`TIE`)."""
    top = max(value for _, value in plays)
    return any(best and top - value <= TIE for best, value in plays)


def sweep_decision(decision: Decision, base: int, among: int) -> tuple[Valued, Valued]:
    """One decision's ranking at ``base`` ply and its best ``among`` plays at 2-ply."""
    position = parse_position(decision.ids, "backgammon")
    stakes = context_stakes(read_position(decision.ids, position.variant))
    ranked = rank_plays(position, *decision.dice, base, stakes=stakes)
    theirs = position.parse_play(decision.best, *decision.dice).position
    gnubgs = (theirs.mine, theirs.theirs)
    top = ranked[:among]
    then = position.variant.after_play(*decision.dice, len(top[0].play.moves), False)
    pairs = [(r.play.position.mine, r.play.position.theirs) for r in top]
    ev = load_evaluator(position.variant)
    values = stakes.equities(ev.played(position.variant, pairs, DEEPER_PLY, then, stakes.equities))
    shallow = [(pair == gnubgs, r.equity) for pair, r in zip(pairs, top, strict=True)]
    shallow += [
        ((r.play.position.mine, r.play.position.theirs) == gnubgs, r.equity) for r in ranked[among:]
    ]
    return shallow, [(pair == gnubgs, float(v)) for pair, v in zip(pairs, values, strict=True)]


def sweep_table(
    rows: list[tuple[Valued, Valued]], among: int
) -> list[tuple[int, float, float, float]]:
    """For each number kept (2 to ``among``) and each margin: the share of decisions whose
    best, among the plays kept valued again (the ranking's alone where one is kept), is
    gnubg's, and the plays a decision valued again."""
    table = []
    for kept in range(2, among + 1):
        for margin in SWEEP_MARGINS:
            agree = again = 0
            for shallow, deep in rows:
                best = shallow[0][1]
                chosen = [i for i in range(min(kept, len(deep))) if best - shallow[i][1] <= margin]
                if len(chosen) < 2:
                    agree += _agrees(shallow)
                else:
                    again += len(chosen)
                    agree += _agrees([deep[i] for i in chosen])
            table.append((kept, margin, agree / len(rows), again / len(rows)))
    return table


def sweep(folder: Path, base: int, among: int) -> None:
    files = sorted(folder.glob("match-*.txt"))
    if not files:
        raise SystemExit(f"no match-*.txt in {folder}: run generate first")
    started = time.perf_counter()
    rows = [sweep_decision(d, base, among) for f in files for d in decisions(f.read_text())]
    alone = sum(_agrees(shallow) for shallow, _ in rows) / max(len(rows), 1)
    print(
        f"{len(rows)} unforced checker plays, {time.perf_counter() - started:.0f} s: nardy "
        f"{base}-ply alone picks gnubg 2-ply's best in {100 * alone:.1f}%"
    )
    for kept, margin, agree, again in sweep_table(rows, among) if rows else []:
        print(
            f"  the best {kept} within {margin:.2f} again at {DEEPER_PLY}-ply: {100 * agree:.1f}%,"
            f" {again:.2f} plays a decision valued again"
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
    cmp.add_argument("--cubes-only", action="store_true", help="only the cube decisions")
    swp = sub.add_parser("sweep", help="the setting of the best few valued again at 2-ply")
    swp.add_argument("folder", type=Path)
    swp.add_argument("--base", type=int, default=1, help="the ranking's ply (1)")
    swp.add_argument("--among", type=int, default=6, help="plays valued at 2-ply at most (6)")
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.matches, args.length, args.seed, args.out)
    elif args.command == "sweep":
        sweep(args.folder, args.base, args.among)
    else:
        compare(args.folder, args.ply, args.show, args.cubes_only)


if __name__ == "__main__":
    main()
