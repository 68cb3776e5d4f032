"""Playing strength: duplicate-dice duels of cubeless money games, and move-choice speed.

    python bench/strength.py --variant backgammon --a heuristic --b pubeval --pairs 400 --seed 1
    python bench/strength.py --variant long --a heuristic --b random --pairs 200
    python bench/strength.py --speed heuristic pubeval gnubg0 --positions 300

A duel plays ``--pairs`` pairs of games. Both games of a pair use the same dice: the same
sequence of rolls, turn by turn, with the sides swapped — in the first game A moves first, in
the second B does and gets the rolls A had. Luck largely cancels within a pair, so the points
per game converge much faster than over independent games. Games are cubeless money games
under the variant's rules, every play from nardy's legal-play generator: a backgammon game
ends in a single (1 point), gammon (2) or backgammon (3), a long nardy game in an oin (1) or
a mars (2). The opening roll of backgammon is played, so the first roll of every game is a
non-double; in long nardy it only decides who starts, and the starter rolls afresh.

The result is A's points per game with a 95% interval, 1.96 standard errors of the per-pair
mean (pairs are independent; the two games of a pair are not), then the win rate, the
gammon (or mars) and backgammon rates of each side, and the games per second.

``--speed`` times each player's move choice, one call per fixed position (positions from
random games with at least two legal plays), and prints the median and 95th percentile.

Players (``--a``, ``--b``, ``--speed``) are named in :data:`PLAYERS`; ``name:argument`` passes
an argument (``gnubg:2`` is GNU Backgammon at 2-ply). A player is anything with
``choose(position, d1, d2) -> (mine, theirs)`` (the position after its play, still from its
side) or a nardy :class:`~nardy.engine.bots.Bot` (``choose_play``); :func:`register` adds
one. gnubg-nn is a benchmark-only dependency (GPL), imported here only when a gnubg player
is built; the nardy package never imports it.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gnubg_crosscheck import gnubg_board
from pubeval import PubEvalBot, apply_steps

from nardy.core import CHECKERS, OFF, Play, Position, ResultKind, Variant, variant
from nardy.core.position import Side
from nardy.engine.bots import HeuristicBot, RandomBot
from nardy.engine.neural import NeuralBot

VARIANTS = ("backgammon", "nackgammon", "acey-deucey", "long")
"""The variants a duel can play."""
BACKGAMMON_RULES = frozenset({"backgammon", "nackgammon"})
POINTS = {
    ResultKind.SINGLE: 1,
    ResultKind.GAMMON: 2,
    ResultKind.BACKGAMMON: 3,
    ResultKind.OIN: 1,
    ResultKind.MARS: 2,
}
"""Cubeless money points of each kind of win (RULES.md 1.4, 3.4 with the default settings)."""
GAMMONISH = frozenset({ResultKind.GAMMON, ResultKind.BACKGAMMON, ResultKind.MARS})
MAX_TURNS = 5000
"""A game longer than this is a bug in a player or the rules, not a long game."""
Z95 = 1.959964


# -- players ---------------------------------------------------------------------------------


@runtime_checkable
class Player(Protocol):
    """What a duel asks of a player: its checker play."""

    name: str

    def choose(
        self, position: Position, d1: int, d2: int, chosen: bool = False
    ) -> tuple[Side, Side]:
        """The (mine, theirs) one legal play of ``d1``-``d2`` reaches, from the mover's side
        (``chosen``: the dice are acey-deucey's double named after a 1-2)."""
        ...


@runtime_checkable
class NamesDoubles(Protocol):
    """A player of acey-deucey: the double it names after playing a 1-2 (RULES.md 2)."""

    def choose_double(self, position: Position) -> int:
        """The die of the double to play from ``position`` (the mover's side, after the 1-2)."""
        ...


class PlaysChooser(Protocol):
    """The checker-play part of nardy's ``Bot`` protocol."""

    name: str

    def choose_play(self, position: Position, d1: int, d2: int, chosen: bool = False) -> Play:
        """One of ``position.legal_plays(d1, d2)``."""
        ...


class BotPlayer:
    """A nardy :class:`~nardy.engine.bots.Bot` (anything with ``choose_play``) as a Player."""

    def __init__(self, bot: PlaysChooser) -> None:
        self.bot = bot
        self.name = bot.name

    def choose(
        self, position: Position, d1: int, d2: int, chosen: bool = False
    ) -> tuple[Side, Side]:
        after = self.bot.choose_play(position, d1, d2, chosen=chosen).position
        return after.mine, after.theirs


class GnubgPlayer:
    """GNU Backgammon's neural net (gnubg-nn), cubeless money play at ``plies`` (0 = the
    plain net). Its chosen moves are replayed on nardy's position and must reach one of
    nardy's legal plays."""

    def __init__(self, plies: int = 0) -> None:
        import gnubg_nn  # benchmark-only dependency

        self._best_move = gnubg_nn.best_move
        self.plies = plies
        self.name = f"gnubg{plies}"

    def choose(
        self, position: Position, d1: int, d2: int, chosen: bool = False
    ) -> tuple[Side, Side]:
        del chosen  # backgammon only: no double is ever named
        v = position.variant
        paths = v.play_paths(position.mine, position.theirs, d1, d2)
        if len(paths) == 1:
            return next(iter(paths))
        steps = self._best_move(gnubg_board(position), d1, d2, n=self.plies)
        after = apply_steps(position.mine, position.theirs, steps)
        if after in paths:
            return after
        if after[0][OFF] == CHECKERS:  # the last checker off: plays differing by hits are one
            return next(p for p in paths if p[0][OFF] == CHECKERS)
        raise RuntimeError(f"gnubg's move {steps} for {d1}-{d2} is not legal in {position}")


def as_player(obj: Player | PlaysChooser) -> Player:
    """``obj`` as a :class:`Player`: as it is if it has ``choose``, else through
    :class:`BotPlayer`."""
    return obj if isinstance(obj, Player) else BotPlayer(obj)


Builder = Callable[[str | None, str], Player | PlaysChooser]
"""Builds a player from the argument after ``name:`` (or None) and a seed string; called once
per game, so a random player is reproducible and a costly one should cache what it loads."""


@dataclass(frozen=True)
class PlayerSpec:
    """A registered player: how to build it and the variants it can play (None: all)."""

    build: Builder
    variants: frozenset[str] | None
    about: str


PLAYERS: dict[str, PlayerSpec] = {}


def register(
    name: str, build: Builder, variants: Iterable[str] | None = None, about: str = ""
) -> None:
    """Make a player available to ``--a``, ``--b`` and ``--speed`` under ``name``; it plays
    only ``variants`` (None: every variant a duel plays)."""
    PLAYERS[name] = PlayerSpec(build, None if variants is None else frozenset(variants), about)


register("random", lambda arg, seed: RandomBot(seed), about="a uniformly random legal play")
register("heuristic", lambda arg, seed: HeuristicBot(), about="nardy's hand-made evaluation")
register("pubeval", lambda arg, seed: PubEvalBot(), BACKGAMMON_RULES, "Tesauro's PubEval")
register("gnubg0", lambda arg, seed: GnubgPlayer(0), BACKGAMMON_RULES, "gnubg-nn at 0-ply")
register("gnubg", lambda arg, seed: GnubgPlayer(int(arg or 0)), BACKGAMMON_RULES, "gnubg:PLIES")


def _net_player(arg: str | None, seed: str) -> NeuralBot:
    """``net`` (the shipped nets), ``net:PATH`` or ``net:PATH,RACE`` (a race net with it)."""
    path, _, race = (arg or "").partition(",")
    return NeuralBot.load(path or None, race=race or None)


register("net", _net_player, VARIANTS, "net[:PATH[,RACE]], nardy's nets (RACE: its race net)")
register(
    "level",
    lambda arg, seed: NeuralBot(arg or "advanced", seed=seed),
    VARIANTS,
    "level:NAME, the neural bot at a level (beginner … world-class)",
)


def make_player(spec: str, seed: str, variant_key: str) -> Player:
    """The player ``spec`` (``name`` or ``name:argument``) for one game of ``variant_key``."""
    name, _, arg = spec.partition(":")
    if name not in PLAYERS:
        raise ValueError(f"unknown player {name!r}; known: {', '.join(sorted(PLAYERS))}")
    entry = PLAYERS[name]
    if entry.variants is not None and variant_key not in entry.variants:
        raise ValueError(f"player {name!r} plays only {', '.join(sorted(entry.variants))}")
    return as_player(entry.build(arg or None, seed))


# -- games -----------------------------------------------------------------------------------


def dice_stream(seed: int, pair: int, v: Variant) -> Iterator[tuple[int, int]]:
    """The rolls of both games of pair ``pair``, turn by turn (:func:`rolls`)."""
    return rolls(random.Random(f"dice:{seed}:{pair}"), v)


def rolls(rng: random.Random, v: Variant) -> Iterator[tuple[int, int]]:
    """A game's rolls drawn from ``rng``; the first is not a double where the opening roll
    is played (backgammon)."""
    first = v.opening_dice_played
    while True:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if first and d1 == d2:
            continue
        first = False
        yield d1, d2


@dataclass(frozen=True)
class GameResult:
    """One game of a duel, for player A: points won (negative when lost) and the win kind."""

    a_points: int
    a_first: bool
    kind: str
    turns: int


def play_turn(
    v: Variant,
    player: Player,
    pos: Position,
    dice: Iterator[tuple[int, int]],
    check: bool = False,
) -> tuple[Side, Side]:
    """One whole turn of ``player`` from ``pos`` (the mover's side): the (mine, theirs) it
    ends with. In acey-deucey a 1-2 played in full goes on with the double the player names
    and, that played in full, another roll (:meth:`Variant.after_play`, RULES.md 2).
    ``check`` verifies that every chosen play is legal (slower)."""
    d1, d2 = next(dice)
    chosen = False
    while True:
        mine, theirs = player.choose(pos, d1, d2, chosen=chosen)
        goes_on = None
        if check or chosen or v.earns_chosen_double(d1, d2):
            paths = v.play_paths(pos.mine, pos.theirs, d1, d2)
            if (mine, theirs) not in paths:
                raise RuntimeError(f"{player.name} played illegally with {d1}-{d2}: {pos}")
            if mine[OFF] < CHECKERS:
                goes_on = v.after_play(d1, d2, len(paths[(mine, theirs)]), chosen)
        if goes_on is None:
            return mine, theirs
        pos = Position(v, mine, theirs)
        if goes_on == "name":
            namer = player.bot if isinstance(player, BotPlayer) else player
            if not isinstance(namer, NamesDoubles):
                raise TypeError(f"{player.name} cannot name a double")
            d1 = d2 = namer.choose_double(pos)
            chosen = True
        else:
            d1, d2 = next(dice)
            chosen = False


def play_game(
    v: Variant,
    first: Player,
    second: Player,
    dice: Iterator[tuple[int, int]],
    check: bool = False,
) -> tuple[bool, ResultKind, int]:
    """Play one game to the end: (whether ``first`` won, the kind of win, turns played).
    ``check`` verifies that every chosen play is legal (slower)."""
    players = (first, second)
    pos = v.start()
    seat = 0
    for turn in range(1, MAX_TURNS + 1):
        mine, theirs = play_turn(v, players[seat], pos, dice, check)
        if mine[OFF] == CHECKERS:
            return seat == 0, v.result_kind(theirs, mine), turn
        pos = Position(v, theirs, mine)
        seat ^= 1
    raise RuntimeError(f"no result after {MAX_TURNS} turns")


def play_pair(
    variant_key: str, a: str, b: str, seed: int, pair: int, check: bool = False
) -> tuple[GameResult, GameResult]:
    """Both games of one duplicate pair: A first, then B first with the same rolls.

    The player moving first gets the same seed in both games (and so does the one moving
    second), so two identical players replay the first game exactly in the second.
    """
    v = variant(variant_key)
    seeds = (f"player:{seed}:{pair}:first", f"player:{seed}:{pair}:second")
    games = []
    for a_first in (True, False):
        first, second = (a, b) if a_first else (b, a)
        p1 = make_player(first, seeds[0], v.key)
        p2 = make_player(second, seeds[1], v.key)
        first_won, kind, turns = play_game(v, p1, p2, dice_stream(seed, pair, v), check)
        points = POINTS[kind] if first_won == a_first else -POINTS[kind]
        games.append(GameResult(points, a_first, kind.value, turns))
    return games[0], games[1]


def _play_pairs(
    variant_key: str, a: str, b: str, seed: int, check: bool, pairs: Sequence[int]
) -> list[tuple[int, GameResult, GameResult]]:
    return [(i, *play_pair(variant_key, a, b, seed, i, check)) for i in pairs]


# -- duels -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DuelResult:
    """The summary of a duel, every rate per game and from player A's side unless named."""

    variant: str
    a: str
    b: str
    seed: int
    pairs: int
    games: int
    ppg: float
    """A's points per game."""
    ci95: float
    """Half-width of the 95% interval of ``ppg``, from the spread of the per-pair means."""
    game_sd: float
    """Standard deviation of one game's points (what independent games would give)."""
    win_rate: float
    a_gammon_rate: float
    """A's wins of a gammon or backgammon (long nardy: mars) per game."""
    a_backgammon_rate: float
    b_gammon_rate: float
    b_backgammon_rate: float
    mean_turns: float
    seconds: float
    games_per_second: float
    jobs: int


def summarize(
    variant_key: str,
    a: str,
    b: str,
    seed: int,
    results: Sequence[tuple[GameResult, GameResult]],
    seconds: float,
    jobs: int,
) -> DuelResult:
    """The :class:`DuelResult` of pairs already played."""
    n = len(results)
    games = [g for pair in results for g in pair]
    pair_means = [(g1.a_points + g2.a_points) / 2 for g1, g2 in results]
    points = [g.a_points for g in games]
    ci = Z95 * statistics.stdev(pair_means) / math.sqrt(n) if n > 1 else math.inf

    def rate(test: Callable[[GameResult], bool]) -> float:
        return sum(1 for g in games if test(g)) / len(games)

    gammonish = {k.value for k in GAMMONISH}
    backgammon = ResultKind.BACKGAMMON.value
    return DuelResult(
        variant=variant_key,
        a=a,
        b=b,
        seed=seed,
        pairs=n,
        games=len(games),
        ppg=statistics.fmean(pair_means),
        ci95=ci,
        game_sd=statistics.stdev(points) if len(points) > 1 else math.inf,
        win_rate=rate(lambda g: g.a_points > 0),
        a_gammon_rate=rate(lambda g: g.a_points > 0 and g.kind in gammonish),
        a_backgammon_rate=rate(lambda g: g.a_points > 0 and g.kind == backgammon),
        b_gammon_rate=rate(lambda g: g.a_points < 0 and g.kind in gammonish),
        b_backgammon_rate=rate(lambda g: g.a_points < 0 and g.kind == backgammon),
        mean_turns=statistics.fmean(g.turns for g in games),
        seconds=seconds,
        games_per_second=len(games) / seconds if seconds > 0 else math.inf,
        jobs=jobs,
    )


def duel(
    variant_key: str,
    a: str,
    b: str,
    pairs: int,
    seed: int = 1,
    jobs: int | None = None,
    check: bool = False,
) -> DuelResult:
    """Play ``pairs`` duplicate pairs of A against B on ``jobs`` processes (default: every
    core; 1 plays in this process). The same seed gives the same games whatever ``jobs``."""
    v = variant(variant_key)
    if v.key not in VARIANTS:
        raise ValueError(f"duels play {', '.join(VARIANTS)}, not {v.key}")
    if pairs < 1:
        raise ValueError("a duel needs at least one pair")
    for spec in (a, b):
        make_player(spec, "probe", v.key)  # unknown names and wrong variants fail here
    jobs = max(1, min(jobs or os.cpu_count() or 1, pairs))
    work = functools.partial(_play_pairs, v.key, a, b, seed, check)
    started = time.perf_counter()
    if jobs == 1:
        played = work(range(pairs))
    else:
        size = max(1, min(25, pairs // (4 * jobs)))  # small chunks balance the processes
        chunks = [range(i, min(i + size, pairs)) for i in range(0, pairs, size)]
        with multiprocessing.Pool(jobs) as pool:
            played = [r for part in pool.imap_unordered(work, chunks) for r in part]
    seconds = time.perf_counter() - started
    played.sort(key=lambda r: r[0])
    return summarize(v.key, a, b, seed, [(g1, g2) for _, g1, g2 in played], seconds, jobs)


def report(r: DuelResult) -> str:
    """The human-readable summary of a duel."""
    kinds = "mars" if r.variant == "long" else "gammons (incl. backgammons)"
    lines = [
        f"{r.variant}: {r.a} (A) vs {r.b} (B), {r.pairs} duplicate pairs = {r.games} cubeless "
        f"money games, seed {r.seed}",
        f"A points per game: {r.ppg:+.3f} ± {r.ci95:.3f} (95%; one game's sd {r.game_sd:.2f})",
        f"A wins {100 * r.win_rate:.1f}% of games; {kinds}: A {100 * r.a_gammon_rate:.1f}%, "
        f"B {100 * r.b_gammon_rate:.1f}% of games",
    ]
    if r.variant != "long":
        lines.append(
            f"backgammons: A {100 * r.a_backgammon_rate:.1f}%, B {100 * r.b_backgammon_rate:.1f}%"
        )
    lines.append(
        f"{r.games} games ({r.mean_turns:.0f} turns on average) in {r.seconds:.1f} s on "
        f"{r.jobs} process(es): {r.games_per_second:.2f} games/s"
    )
    return "\n".join(lines)


# -- speed -----------------------------------------------------------------------------------


def speed_positions(variant_key: str, count: int, seed: int) -> list[tuple[Position, int, int]]:
    """``count`` (position, d1, d2) from random games, each with two or more legal plays."""
    rng = random.Random(f"speed:{seed}")
    v = variant(variant_key)
    out: list[tuple[Position, int, int]] = []
    while len(out) < count:
        pos = v.start()
        while pos.outcome() is None and len(out) < count:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            paths = v.play_paths(pos.mine, pos.theirs, d1, d2)
            if len(paths) > 1:
                out.append((pos, d1, d2))
            mine, theirs = rng.choice(sorted(paths))
            pos = Position(v, theirs, mine)
    return out


@dataclass(frozen=True)
class SpeedResult:
    """Time per move choice of one player over fixed positions, in milliseconds."""

    player: str
    positions: int
    median_ms: float
    p95_ms: float
    mean_ms: float


def time_choices(spec: str, positions: Sequence[tuple[Position, int, int]]) -> SpeedResult:
    """Time ``spec``'s choice at each position, one call each, in this process."""
    key = positions[0][0].variant.key
    player = make_player(spec, "speed", key)
    player.choose(*positions[0])  # warm up: imports, caches, loaded weights
    times = []
    for pos, d1, d2 in positions:
        started = time.perf_counter()
        player.choose(pos, d1, d2)
        times.append(1000 * (time.perf_counter() - started))
    p95 = statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]
    return SpeedResult(spec, len(times), statistics.median(times), p95, statistics.fmean(times))


# -- the command line ------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    players = "; ".join(f"{name} ({spec.about})" for name, spec in PLAYERS.items())
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=f"players: {players}"
    )
    parser.add_argument("--variant", default="backgammon", choices=VARIANTS)
    parser.add_argument("--a", default="heuristic", help="player A (whose points are reported)")
    parser.add_argument("--b", default="random", help="player B")
    parser.add_argument("--pairs", type=int, default=100, help="duplicate pairs (2 games each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count(), help="processes")
    parser.add_argument("--check", action="store_true", help="verify every play is legal")
    parser.add_argument("--json", action="store_true", help="also print the result as JSON")
    parser.add_argument(
        "--speed", nargs="+", metavar="PLAYER", help="time these players' move choice instead"
    )
    parser.add_argument("--positions", type=int, default=300, help="positions for --speed")
    args = parser.parse_args(argv)

    try:
        for spec in args.speed or (args.a, args.b):
            make_player(spec, "probe", args.variant)
    except ValueError as e:
        parser.error(str(e))
    results: list[Any]
    if args.speed:
        positions = speed_positions(args.variant, args.positions, args.seed)
        results = []
        print(f"{args.variant}: {len(positions)} positions from random games, seed {args.seed}")
        for spec in args.speed:
            timing = time_choices(spec, positions)
            results.append(timing)
            print(
                f"{timing.player:>12}: median {timing.median_ms:8.3f} ms, 95th percentile "
                f"{timing.p95_ms:8.3f} ms, mean {timing.mean_ms:8.3f} ms per move"
            )
    else:
        result = duel(args.variant, args.a, args.b, args.pairs, args.seed, args.jobs, args.check)
        results = [result]
        print(report(result))
    if args.json:
        print(json.dumps([asdict(r) for r in results]))


if __name__ == "__main__":
    main()
