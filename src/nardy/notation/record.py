"""The JSON game record: one game per JSON object, from which the game replays exactly.

The format is documented in ``docs/records.md``. Positions are written as Position IDs
(with nardy's long-nardy layout and acey-deucey suffix), plays in canonical move notation.
"""

from __future__ import annotations

from typing import Any

from nardy.core import NardyError, NotationError
from nardy.core.dice import Dice, FixedDice
from nardy.core.fair_dice import FairDice, RevealedDice
from nardy.core.game import Cube, Game, Phase, TurnRecord
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.notation.position_id import position_from_id, position_id

FORMAT_VERSION = 1


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
        result = game.result
        record["end"] = {
            "winner": result.winner,
            "kind": result.kind,
            "cube": result.cube,
            "points": result.points,
        }
        if result.level is not None:
            record["end"]["level"] = result.level
    return record


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
        return _replay(record)
    except NotationError:
        raise
    except NardyError as exc:  # settings, a start position or dice the rules refuse
        raise NotationError(f"game record that cannot be replayed: {exc}") from None
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
        raise NotationError(f"malformed game record: {exc!r}") from None


def rolled_dice(record: dict[str, Any]) -> list[int]:
    """Every die a record's game rolled, in the order rolled: each opening roll (player 0's
    die, then player 1's), then each turn's roll. A first turn that plays the opening dice
    and a chosen double (acey-deucey) roll nothing. Malformed records raise the errors of
    the JSON's types (:func:`replay` turns them into :class:`NotationError`)."""
    settings = Settings.from_dict({**record["settings"], "variant": record["variant"]})
    opening = [tuple(r) for r in record.get("opening", [])]
    values = [d for roll in opening for d in roll]
    plays_opening = bool(opening) and settings.resolve().rules.opening_dice_played
    plays_opening = plays_opening and settings.opening == "use-opening-dice"
    for i, turn in enumerate(record["turns"]):
        if "dice" in turn and not turn.get("chosen") and not (plays_opening and i == 0):
            values.extend(turn["dice"])
    return values


def _replay(record: dict[str, Any]) -> Game:
    settings = Settings.from_dict({**record["settings"], "variant": record["variant"]})
    turns = record["turns"]
    opening = [tuple(r) for r in record.get("opening", [])]
    dice: Dice = FixedDice(rolled_dice(record))
    if "server-seed" in record.get("dice", {}):
        # Verifiable dice, revealed: the seeds deal the rolls (so a record whose rolls are not
        # the seeds' does not replay), and the game written again keeps its dice block.
        dice = FairDice(RevealedDice.from_block(record["dice"]).seeds)
    crawford = bool(record.get("crawford", False))
    position = None
    if "start" in record:
        position = position_from_id(record["start"], settings.resolve().rules)
    value, owner = record.get("start-cube", (1, None))
    cube = Cube(value, owner)
    game = Game(
        settings,
        dice,
        crawford=crawford,
        position=position,
        cube=cube,
        first_player=None if opening else record.get("first-player"),
    )
    if opening:
        game.roll_opening()
        first = record.get("first-player", game.first_player)
        if first != game.first_player:
            raise NotationError(
                f"the opening roll makes player {game.first_player} start, not player {first}"
            )
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
    end = record.get("end")
    result = game.result
    if end is not None:
        reached: dict[str, Any] | None = None
        if result is not None:
            reached = {
                "winner": result.winner,
                "kind": result.kind,
                "cube": result.cube,
                "points": result.points,
            }
            if result.level is not None:
                reached["level"] = result.level
        if reached != end:
            raise NotationError(f"the record's end {end} is not what the replay reached: {result}")
    elif result is not None:
        raise NotationError(f"the record has no end, but the replay ends: {result}")
    return game


def _replay_turn(game: Game, turn: dict[str, Any]) -> None:
    player = turn["player"]
    if game.turn != player:
        raise NotationError(f"the record has player {player} on turn, the game player {game.turn}")
    if turn.get("chosen"):
        if turn["dice"][0] != turn["dice"][1]:
            raise NotationError(f"a chosen double, not {turn['dice']}")
        game.choose_double(player, turn["dice"][0])
    if position_id(game.position_for(player)) != turn["position"]:
        raise NotationError(f"position {turn['position']} is not the replayed one")
    # A declined resignation changes nothing and an accepted one ends the game, so replaying
    # the declined ones first and the accepted one last keeps every order the game allows.
    resigns = sorted(turn.get("resign", []), key=lambda r: (r["after-roll"], r["accepted"]))
    _resign(game, player, [r for r in resigns if not r["after-roll"] and not r["accepted"]])
    for action in turn["cube"]:
        doubler = game.turn
        actor = {
            "double": doubler,
            "take": 1 - doubler if game.phase is Phase.DOUBLED else doubler,
            "beaver": 1 - doubler,
            "pass": 1 - doubler if game.phase is Phase.DOUBLED else doubler,
        }[action]
        getattr(game, {"pass": "pass_double"}.get(action, action))(actor)
    _resign(game, player, [r for r in resigns if not r["after-roll"] and r["accepted"]])
    if game.over or "dice" not in turn:
        return
    if game.phase is Phase.ROLL and not turn.get("chosen"):  # a named double passes by itself
        game.roll(player)
    if game.dice is not None and list(game.dice) != turn["dice"]:
        raise NotationError(f"dice {turn['dice']} expected, {list(game.dice)} on the table")
    _resign(game, player, [r for r in resigns if r["after-roll"]])
    if game.over or game.phase is not Phase.MOVING:
        return  # the roll had no legal move and passed by itself
    game.play(player, turn["play"])


def _resign(game: Game, player: int, events: list[dict[str, Any]]) -> None:
    for event in events:
        if event["level"] == 0:
            game.surrender(player)
            continue
        game.resign(player, event["level"])
        if event["accepted"]:
            game.accept_resignation(1 - player)
        else:
            game.decline_resignation(1 - player)
