"""The JSON game record: one game per JSON object, from which the game replays exactly.

The format is documented in ``docs/records.md``. Positions are written as Position IDs
(with nardy's long-nardy layout and acey-deucey suffix), plays in canonical move notation.

Version 2 (written now) is the start — settings, position, cube, score — and the game's
event ``log``, in which every roll is an event: replay is ``Game.apply`` over the actions of
the log (:func:`nardy.core.log.replay_log`) and never rolls, so a record taken in the middle
of a turn (dice on the table, single moves made, a double or resignation pending) replays to
exactly that moment. The ``turns`` summary beside it (one entry per finished turn, as in
version 1) is checked against the replay. Version 1 records (turns only) still replay, each
turn's actions applied in order.
"""

from __future__ import annotations

from typing import Any

from nardy.core import NardyError, NotationError
from nardy.core import actions as act
from nardy.core.dice import FixedDice
from nardy.core.events import event_from_json
from nardy.core.fair_dice import FairDice, RevealedDice
from nardy.core.game import Cube, Game, Phase, TurnRecord
from nardy.core.log import condensed, replay_log, rolled_dice
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.notation.position_id import position_from_id, position_id

CUBE_WORDS = (act.Double.kind, act.Take.kind, act.Pass.kind, act.Beaver.kind)
"""The cube actions of a version 1 turn, by their action kinds."""

FORMAT_VERSION = 2
"""The version :func:`game_record` writes; :func:`replay` reads 1 and 2."""


def game_record(
    game: Game,
    *,
    number: int = 1,
    players: tuple[str, str] = ("Player 0", "Player 1"),
    score: tuple[int, int] = (0, 0),
) -> dict[str, Any]:
    """The record of ``game`` (finished or not): game ``number`` of its match, played by
    ``players`` from ``score``."""
    # Before the first turn is over, the start is the position under any single moves made
    # so far (``game.position`` would include them).
    start = game.records[0].before if game.records else game.turn_start
    standard = game.variant.start()  # symmetric: the same from either side
    record: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "variant": game.variant.key,
        "settings": game.settings.to_dict(),
        "players": list(players),
        "game": number,
        "score": list(score),
        "crawford": game.crawford,
        "opening": [list(roll) for roll in game.opening_rolls],
        "first-player": game.first_player,
    }
    if start != standard:  # a game from a chosen position (RULES.md 4)
        record["start"] = position_id(start)
    if game.start_cube != (1, None):  # a cube chosen for the start (RULES.md 4)
        record["start-cube"] = list(game.start_cube)
    record["turns"] = [_turn(t) for t in game.records]
    if isinstance(game.dice_source, FairDice):  # the server seed only once the game is over
        record["dice"] = game.dice_source.block(reveal=game.over)
    if game.result is not None:
        record["end"] = _end(game)
    record["log"] = [event.to_json() for event in condensed(game.log)]
    return record


def _end(game: Game) -> dict[str, Any] | None:
    result = game.result
    if result is None:
        return None
    end: dict[str, Any] = {
        "winner": result.winner,
        "kind": result.kind,
        "cube": result.cube,
        "points": result.points,
    }
    if result.level is not None:
        end["level"] = result.level
    return end


def _turn(t: TurnRecord) -> dict[str, Any]:
    turn: dict[str, Any] = {"player": t.player, "cube": list(t.cube)}
    if t.dice is not None:
        turn["dice"] = list(t.dice)
    if t.play is not None:
        turn["play"] = str(t.play)
    turn["position"] = position_id(t.before)
    turn["result"] = position_id(t.after)
    if t.chosen:
        turn["chosen"] = True
    if t.resignations:
        turn["resign"] = [
            {"level": level, "accepted": accepted, "after-roll": rolled}
            for level, accepted, rolled in t.resignations
        ]
    return turn


def match_records(match: Match) -> list[dict[str, Any]]:
    """A record per game of a match or session, in order."""
    records = []
    for i, game in enumerate(match.games):
        records.append(
            game_record(game, number=i + 1, players=match.players, score=match._score(i))
        )
    return records


def replay(record: dict[str, Any]) -> Game:
    """The game a record describes, replayed action by action through the rules.

    Every play is re-checked; a record that the rules do not allow, or whose positions do
    not match what the replay reaches, raises :class:`NotationError` naming the turn.
    """
    try:
        return _with_fair_dice(record, _replay(record))
    except NotationError:
        raise
    except NardyError as exc:  # settings, a start position or dice the rules refuse
        raise NotationError(f"game record that cannot be replayed: {exc}") from None
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
        raise NotationError(f"malformed game record: {exc!r}") from None


def _start(record: dict[str, Any], dice: FixedDice | None) -> Game:
    """The game as the record's start describes it, before any action."""
    settings = Settings.from_dict({**record["settings"], "variant": record["variant"]})
    position = None
    if "start" in record:
        position = position_from_id(record["start"], settings.resolve().rules)
    value, owner = record.get("start-cube", (1, None))
    return Game(
        settings,
        dice,
        crawford=bool(record.get("crawford", False)),
        position=position,
        cube=Cube(value, owner),
        first_player=None if record.get("opening") else record.get("first-player"),
    )


def _check_first_player(record: dict[str, Any], game: Game) -> None:
    first = record.get("first-player", game.first_player)
    if first != game.first_player:
        raise NotationError(
            f"the opening roll makes player {game.first_player} start, not player {first}"
        )


def record_dice(record: dict[str, Any]) -> list[int]:
    """Every die a record's game rolled, in the order rolled: each opening roll (player 0's
    die, then player 1's), then each roll of a turn. Version 2 reads them from the log;
    version 1 from ``opening`` and the turns, where a first turn that plays the opening dice
    and a chosen double (acey-deucey) roll nothing. Malformed records raise the errors of
    the JSON's types (:func:`replay` turns them into :class:`NotationError`)."""
    if "log" in record:
        return rolled_dice([event_from_json(e) for e in record["log"]])
    settings = Settings.from_dict({**record["settings"], "variant": record["variant"]})
    values = [d for roll in record.get("opening", []) for d in roll]
    plays_opening = bool(values) and settings.resolve().rules.opening_dice_played
    plays_opening = plays_opening and settings.opening == "use-opening-dice"
    for i, turn in enumerate(record["turns"]):
        if "dice" in turn and not turn.get("chosen") and not (plays_opening and i == 0):
            values.extend(turn["dice"])
    return values


def _with_fair_dice(record: dict[str, Any], game: Game) -> Game:
    """A game with verifiable dice, revealed: its rolls must be the seeds' (docs/dice.md),
    and the game keeps the dice, so that its record written again has the same block."""
    if "server-seed" not in record.get("dice", {}):
        return game
    revealed = RevealedDice.from_block(record["dice"])
    dice = record_dice(record)
    problems = revealed.check(dice)
    if problems:
        raise NotationError(f"the record's dice are not its seeds': {problems[0]}")
    game.dice_source = FairDice(revealed.seeds, dealt=len(dice))
    return game


def _replay(record: dict[str, Any]) -> Game:
    if "log" in record:
        return _replay_log(record)
    turns = record["turns"]
    opening = [tuple(r) for r in record.get("opening", [])]
    game = _start(record, FixedDice(record_dice(record)))
    if opening:
        game.apply(act.RollOpening(0))
        _check_first_player(record, game)
    for i, turn in enumerate(turns):
        try:
            if game.over:
                raise NotationError("the game is already over")
            _replay_turn(game, turn)
            if len(game.records) != i + 1:
                raise NotationError("it does not finish a turn (no roll, pass or resignation)")
            after = position_id(game.records[-1].after)
            if after != turn["result"]:
                raise NotationError(f"it reaches {after}, not {turn['result']}")
        except NardyError as exc:
            raise NotationError(f"turn {i + 1} of the record cannot be replayed: {exc}") from None
        except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
            raise NotationError(f"turn {i + 1} of the record is malformed: {exc!r}") from None
    _check_end(record, game)
    return game


def _check_end(record: dict[str, Any], game: Game) -> None:
    end = record.get("end")
    result = game.result
    if end is not None:
        if _end(game) != end:
            raise NotationError(f"the record's end {end} is not what the replay reached: {result}")
    elif result is not None:
        raise NotationError(f"the record has no end, but the replay ends: {result}")


def _replay_log(record: dict[str, Any]) -> Game:
    """Version 2: apply over the log, then check the turns, the opening and the end that
    the record states against what the replay reached."""
    log = record["log"]
    if not isinstance(log, list):
        raise NotationError(f"the record's log is a list of events, not {log!r}")
    events = [event_from_json(e) for e in log]
    game = replay_log(_start(record, None), events)
    if (
        record.get("opening") is not None
        and [list(r) for r in game.opening_rolls] != record["opening"]
    ):
        raise NotationError(f"the record's opening {record['opening']} is not the log's")
    _check_first_player(record, game)
    turns = record["turns"]
    for i, turn in enumerate(turns):
        if i >= len(game.records):
            raise NotationError(
                f"turn {i + 1} of the record is not in the log: the game is over or under way"
            )
        written = _turn(game.records[i])
        for field in ("player", "cube", "dice", "play", "position", "result"):
            if field in written and field not in turn:
                raise NotationError(f"turn {i + 1} of the record is malformed: no {field!r}")
        if turn.get("dice") != written.get("dice"):
            recorded, logged = turn.get("dice"), written.get("dice")
            raise NotationError(f"turn {i + 1}: dice {recorded} in the record, {logged} in the log")
        if turn != written:
            raise NotationError(
                f"turn {i + 1} of the record: it reaches {turn['result']} by "
                f"{turn.get('play')!r}, the log {written['result']} by {written.get('play')!r}"
            )
    if len(turns) != len(game.records):
        raise NotationError(f"the record has {len(turns)} turns, the log {len(game.records)}")
    _check_end(record, game)
    return game


def _replay_turn(game: Game, turn: dict[str, Any]) -> None:
    player = turn["player"]
    if game.turn != player:
        raise NotationError(f"the record has player {player} on turn, the game player {game.turn}")
    if turn.get("chosen"):
        if turn["dice"][0] != turn["dice"][1]:
            raise NotationError(f"a chosen double, not {turn['dice']}")
        game.apply(act.ChooseDouble(player, turn["dice"][0]))
    if position_id(game.position_for(player)) != turn["position"]:
        raise NotationError(f"position {turn['position']} is not the replayed one")
    # A declined resignation changes nothing and an accepted one ends the game, so replaying
    # the declined ones first and the accepted one last keeps every order the game allows.
    resigns = sorted(turn.get("resign", []), key=lambda r: (r["after-roll"], r["accepted"]))
    _resign(game, player, [r for r in resigns if not r["after-roll"] and not r["accepted"]])
    for word in turn["cube"]:  # the cube words are the actions' own kinds
        action = act.ACTIONS.get(word) if word in CUBE_WORDS else None
        if action is None:
            raise NotationError(f"{word!r} is not a cube action ({', '.join(CUBE_WORDS)})")
        # The doubler acts first; the doubled player answers a double, the doubler a beaver.
        answering = game.phase is Phase.DOUBLED or action is act.Beaver
        game.apply(action(1 - game.turn if answering else game.turn))
    _resign(game, player, [r for r in resigns if not r["after-roll"] and r["accepted"]])
    if game.over or "dice" not in turn:
        return
    if game.phase is Phase.ROLL and not turn.get("chosen"):  # a named double passes by itself
        game.apply(act.Roll(player))
    if game.dice is not None and list(game.dice) != turn["dice"]:
        raise NotationError(f"dice {turn['dice']} expected, {list(game.dice)} on the table")
    _resign(game, player, [r for r in resigns if r["after-roll"]])
    if game.over or game.phase is not Phase.MOVING:
        return  # the roll had no legal move and passed by itself
    game.apply(act.Play(player, turn["play"]))


def _resign(game: Game, player: int, events: list[dict[str, Any]]) -> None:
    for event in events:
        if event["level"] == 0:
            game.apply(act.Surrender(player))
            continue
        game.apply(act.Resign(player, event["level"]))
        game.apply((act.Accept if event["accepted"] else act.Decline)(1 - player))
