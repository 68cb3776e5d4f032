"""Replaying a game from its event log: ``apply`` over the actions the events stand for.

Every event that a player's action caused names that action (a :class:`DiceRolled` is a
``Roll``, a :class:`CubeOffered` a ``Double``…); the events that follow by themselves (a turn
passed with no legal move, the last roll, an automatic double, the end of the game) come out
of the replayed actions again. The dice are the log's own rolls, so nothing is rolled: a
record or a server's log replays to exactly the state it describes, in the middle of a turn
too.
"""

from __future__ import annotations

from collections.abc import Sequence

from nardy.core import actions as act
from nardy.core import events as ev
from nardy.core.dice import FixedDice
from nardy.core.errors import NardyError
from nardy.core.game import Game


class LogError(NardyError):
    """An event log that the rules do not replay to itself; the message names the event
    (1-based)."""


def rolled_dice(events: Sequence[ev.Event]) -> list[int]:
    """Every die the log rolled, in order: each opening round's two, then two per roll."""
    values: list[int] = []
    for event in events:
        if isinstance(event, ev.OpeningRolled | ev.DiceRolled):
            values.extend(event.dice)
    return values


def action_for(event: ev.Event, moves_made: bool) -> act.Action | None:
    """The action ``event`` stands for, or None for an event that follows by itself.
    ``moves_made`` says whether single moves are on the board (a confirmed play is then a
    ``Confirm``, else a whole ``Play``)."""
    match event:
        case ev.OpeningRolled(first=first):  # ties included: one action rolls every round
            return act.RollOpening(0 if first is None else first)
        case ev.DiceRolled(player=p):
            return act.Roll(p)
        case ev.CheckerMoved(player=p, start=a, end=b):
            return act.Move(p, a, b)
        case ev.MoveUndone(player=p):
            return act.Undo(p)
        case ev.PlayConfirmed(player=p, play=text):
            return act.Confirm(p) if moves_made else act.Play(p, text)
        case ev.DoubleChosen(player=p, die=die):
            return act.ChooseDouble(p, die)
        case ev.CubeOffered(player=p):
            return act.Double(p)
        case ev.Beavered(player=p):
            return act.Beaver(p)
        case ev.CubeTaken(player=p):
            return act.Take(p)
        case ev.CubePassed(player=p):
            return act.Pass(p)
        case ev.ResignationOffered(player=p, level=level):
            return act.Resign(p, level)
        case ev.ResignationAccepted(player=p):
            return act.Accept(p)
        case ev.ResignationDeclined(player=p):
            return act.Decline(p)
        case ev.Surrendered(player=p):
            return act.Surrender(p)
        case ev.Forfeited(player=p, reason=reason):
            return act.Forfeit(p, reason)
    return None


def condensed(events: Sequence[ev.Event]) -> list[ev.Event]:
    """The log as a record keeps it: the single moves (and undos) of each confirmed play
    are left out, the play itself says what was played; those of a turn still under way
    stay. A game replayed from it is the same game, whichever way its plays were entered."""
    kept: list[ev.Event] = []
    confirmed = False  # scanning backwards: a confirmed play follows in this turn
    for event in reversed(events):
        if isinstance(event, ev.PlayConfirmed):
            confirmed = True
        elif isinstance(event, ev.DiceRolled | ev.DoubleChosen | ev.OpeningRolled):
            confirmed = False
        elif confirmed and isinstance(event, ev.CheckerMoved | ev.MoveUndone):
            continue
        kept.append(event)
    kept.reverse()
    return kept


def replay_log(game: Game, events: Sequence[ev.Event]) -> Game:
    """Apply to ``game`` (fresh, as the log's game started) the actions of ``events``, with
    the log's own dice, and check that each action gives exactly the logged events; raises
    :class:`LogError` naming the first event that does not replay."""
    game.dice_source = FixedDice(rolled_dice(events))
    i = 0
    while i < len(events):
        event = events[i]
        action = action_for(event, bool(game.moves_made))
        if action is None:
            raise LogError(f"event {i + 1} of the log ({event.kind}) follows from no action")
        try:
            produced = game.apply(action)
        except NardyError as exc:
            raise LogError(
                f"event {i + 1} of the log ({event.kind}) does not replay: {exc}"
            ) from None
        expected = list(events[i : i + len(produced)])
        if list(produced) != expected:
            gives, logged = (", ".join(e.kind for e in es) for es in (produced, expected))
            raise LogError(f"event {i + 1} of the log: the replay gives {gives}, the log {logged}")
        i += len(produced)
    return game
