"""What an analysis job computes, in a worker process: ``nardy analyze``'s judgement of every
game of a match (:func:`nardy.engine.analysis.analyze`, written by
:func:`~nardy.engine.analysis_json.analysis_json`: the same document ``nardy analyze --format
json`` prints), and what the replay viewer draws beside it, which the judgement does not
hold: the board after each best play that was not played, and player 0's winning chances
after every turn (the graph)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nardy.core import NardyError
from nardy.core.game import Game
from nardy.core.view import position_view
from nardy.engine.analysis import analyze, evaluate, load_evaluator
from nardy.engine.analysis_json import analysis_json, number
from nardy.engine.evaluator import Evaluator
from nardy.engine.met import match_equity
from nardy.engine.stakes import Stakes
from nardy.notation.record import replay

Progress = Callable[[int, int], None]
"""Called with the turns judged so far and their total."""


def analyse_records(
    records: list[dict[str, Any]], ply: int, progress: Progress | None = None
) -> dict[str, Any]:
    """The stored result of analysing a match's game records at ``ply``: ``analysis``, the
    document ``nardy analyze --ply PLY --format json`` prints for them, and ``boards``, per
    game, what the replay draws: ``best``, the board view after the best play of each turn
    whose play was not the best (by turn number), and ``chances``, player 0's chance of
    winning the match (the game, in money play) before the first turn and after each one.
    :class:`NardyError` when the records cannot be analysed (a variant without a net)."""
    judged = analyze(records, ply=ply, jobs=1, progress=progress)
    doc = analysis_json(judged)
    games = [replay(record) for record in records]
    ev = load_evaluator(games[0].variant)
    boards = [
        {"best": _best_boards(game, played["plays"]), "chances": _chances(ev, game, played)}
        for game, played in zip(games, doc["games"], strict=True)
    ]
    return {"analysis": doc, "boards": boards}


def _best_boards(game: Game, plays: list[dict[str, Any]]) -> dict[str, Any]:
    """The board after the best play of each judged turn where another was played."""
    best: dict[str, Any] = {}
    for judged in plays:
        if judged["best"] == judged["played"] or not judged["best"]:
            continue
        record = game.records[judged["turn"] - 1]
        d1, d2 = judged["dice"]
        try:
            after = record.before.apply(judged["best"], d1, d2)
        except NardyError:  # a play written as the analysis writes it always parses
            continue
        best[str(judged["turn"])] = position_view(after, record.player).to_json()
    return best


def _chances(ev: Evaluator, game: Game, judged: dict[str, Any]) -> list[float | None]:
    """Player 0's winning chances before the first turn and after each turn of the game:
    the 0-ply cubeless chance of the side to roll next, at the score (a match) or of the game
    (money); the game's end counts exactly."""
    settings = game.settings
    length = settings.match_length
    score = judged["score"]
    start = match_equity(length - score[0], length - score[1], game.crawford) if length else 0.5
    chances: list[float | None] = [number(start)]
    last = len(game.records) - 1
    for i, record in enumerate(game.records):
        if i == last:  # the game's end: its result, not an estimate
            chances.append(number(_after_game(game, judged)))
            continue
        on_roll = game.records[i + 1].player  # acey-deucey's 1-2: the roller again
        after = record.after if on_roll == record.player else record.after.swap()
        outputs = evaluate(after, 0, ev)
        value, owner = record.cube_after
        stakes = Stakes.at(settings, (score[0], score[1]), on_roll, game.crawford, value, owner)
        mwc = stakes.mwc(outputs)
        mine = float(outputs[0]) if mwc is None else mwc
        chances.append(number(mine if on_roll == 0 else 1.0 - mine))
    return chances


def _after_game(game: Game, judged: dict[str, Any]) -> float:
    """Player 0's chances once the game is over: 1 or 0 (½ for a draw) in money play, his
    match winning chance at the new score in a match. The next game is the Crawford game
    only where the match has the rule and nobody was one point away before this game: after
    the Crawford game every game is a post-Crawford one."""
    won = judged["winner"]
    length = game.settings.match_length
    if not length:
        return 0.5 if won is None else float(won == 0)
    s0, s1 = judged["score"]
    crawford_next = game.settings.crawford and min(length - s0, length - s1) >= 2
    if won is not None:
        s0, s1 = (s0 + judged["points"], s1) if won == 0 else (s0, s1 + judged["points"])
    return match_equity(length - s0, length - s1, crawford_next)
