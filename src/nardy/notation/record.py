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

import json
from collections.abc import Callable
from typing import Any

from nardy.core import NardyError, NotationError, variant
from nardy.core import actions as act
from nardy.core.dice import FixedDice
from nardy.core.errors import IllegalPlayError
from nardy.core.events import event_from_json
from nardy.core.fair_dice import FairDice, RevealedDice
from nardy.core.game import Cube, CubeAction, EndKind, Game, Phase, TurnRecord
from nardy.core.log import condensed, replay_log, rolled_dice
from nardy.core.match import Match
from nardy.core.moves import parse_play
from nardy.core.position import ResultKind
from nardy.core.settings import Settings
from nardy.notation.position_id import position_from_id, position_id

CUBE_WORDS = tuple(CubeAction)
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
        return _with_fair_dice(record, _replay(check_record(record, match=False)))
    except RecordError as exc:
        raise NotationError(f"malformed game record: {exc}") from None
    except NotationError:
        raise
    except NardyError as exc:  # settings, a start position or dice the rules refuse
        raise NotationError(f"game record that cannot be replayed: {exc}") from None
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
        raise NotationError(f"malformed game record: {exc!r}") from None


def _start(record: dict[str, Any], dice: FixedDice | None) -> Game:
    """The game as the record's start describes it, before any action."""
    settings = Settings.from_dict(record["settings"], record["variant"])
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
        cube_limits=False,  # history: its doubles stand, even past today's limits (1.5)
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
    settings = Settings.from_dict(record["settings"], record["variant"])
    values = [d for roll in record.get("opening", []) for d in roll]
    plays_opening = bool(values) and settings.resolve().plays_opening_roll
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
        except IllegalPlayError as exc:  # the position it is illegal in, by its ID
            raise NotationError(
                f"turn {i + 1} of the record cannot be replayed: {exc} ({turn['position']})"
            ) from None
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
            difference = _difference(game.records[i], turn, written)
            raise NotationError(f"turn {i + 1} of the record: {difference}")
    if len(turns) != len(game.records):
        raise NotationError(f"the record has {len(turns)} turns, the log {len(game.records)}")
    _check_end(record, game)
    return game


def _difference(done: TurnRecord, turn: dict[str, Any], written: dict[str, Any]) -> str:
    """What the record's ``turn`` says that the log's turn (``written``, made from ``done``)
    does not: a play the rules do not allow in the position named as illegal, another
    legal play by where it leads, else each field that differs."""
    play, logged = turn.get("play"), written.get("play")
    if play != logged and isinstance(play, str) and done.dice is not None:
        try:
            reached = position_id(parse_play(done.before, play, *done.dice).position)
        except NardyError as exc:
            return f"{exc} ({position_id(done.before)}); the log plays {logged!r}"
        return f"it reaches {reached} by {play!r}, the log {written['result']} by {logged!r}"
    differing = [key for key in {**written, **turn} if turn.get(key) != written.get(key)]
    return "; ".join(
        f"{key} {turn.get(key)!r} in the record, {written.get(key)!r} in the log"
        for key in differing
    )


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


# -- checking a record before it is used --------------------------------------------------------


class RecordError(NotationError):
    """A game record whose fields do not have the shape ``docs/records.md`` gives them: a
    missing key, a value of the wrong type or out of range. ``field`` names the field, and
    ``where`` the part of the record that holds it (``turn 3``; empty for the record's own
    fields); both are empty when the record as a whole is wrong."""

    def __init__(self, message: str, field: str = "", where: str = "") -> None:
        named = f"field {field!r}" if field else ""
        place = ", ".join(part for part in (where, named) if part)
        super().__init__(f"{place}: {message}" if place else message)
        self.field = field
        self.where = where


Check = Callable[[Any], str | None]
"""A check of one field's value: None where it is fine, else what the value should be."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # JSON's true is not 1


def _string(value: Any) -> str | None:
    return None if isinstance(value, str) else "a string"


def _flag(value: Any) -> str | None:
    return None if isinstance(value, bool) else "true or false"


def _count(value: Any) -> str | None:
    return None if _is_int(value) and value >= 0 else "a whole number 0 or more"


def _number(value: Any) -> str | None:
    return None if _is_int(value) and value >= 1 else "a whole number from 1"


def _player(value: Any) -> str | None:
    return None if _is_int(value) and value in (0, 1) else "a player, 0 or 1"


def _player_or_none(value: Any) -> str | None:
    if value is None or _player(value) is None:
        return None
    return "a player, 0 or 1, or null"


def _name(value: Any) -> str | None:
    return None if isinstance(value, str) and value.strip() else "a player's name"


def _level(value: Any) -> str | None:
    """A resignation's level: 1-3 a single, gammon or backgammon, 0 a surrender."""
    return None if _is_int(value) and 0 <= value <= 3 else "a level, 0-3"


def _cube_value(value: Any) -> str | None:
    fine = _is_int(value) and value >= 1 and not value & (value - 1)
    return None if fine else "a cube value, 1, 2, 4, 8…"


def _pair(check: Check, what: str = "a pair") -> Check:
    """Two values that each pass ``check``, as a JSON array."""

    def pair(value: Any) -> str | None:
        fine = isinstance(value, list) and len(value) == 2 and not any(map(check, value))
        return None if fine else what

    return pair


def _list_of(check: Check, what: str = "a list") -> Check:
    """A JSON array of values that each pass ``check``."""

    def each(value: Any) -> str | None:
        return None if isinstance(value, list) and not any(map(check, value)) else what

    return each


def _die(value: Any) -> str | None:
    return None if _is_int(value) and 1 <= value <= 6 else "a die, 1-6"


def _one_of(*allowed: str) -> Check:
    def one_of(value: Any) -> str | None:
        return None if value in allowed else f"one of {', '.join(allowed)}"

    return one_of


def _object(value: Any) -> str | None:
    return None if isinstance(value, dict) else "a JSON object"


_NAMES = _pair(_name, "two player names, [player 0, player 1]")
_DICE = _pair(_die, "two dice, [d1, d2], each 1-6")
_SCORE = _pair(_count, "[player 0's points, player 1's points], whole numbers 0 or more")


def _start_cube(value: Any) -> str | None:
    fine = isinstance(value, list) and len(value) == 2
    fine = fine and _cube_value(value[0]) is None and _player_or_none(value[1]) is None
    return None if fine else "[value, owner]: a cube value 1, 2, 4… and a player 0, 1 or null"


_CUBE_ACTIONS = _list_of(_one_of(*CUBE_WORDS), f"a list of {', '.join(CUBE_WORDS)}")
_END_KINDS = tuple(EndKind)
_LEVELS = tuple(ResultKind)


def _field(
    data: dict[str, Any], key: str, check: Check, what: str = "", *, where: str = "", need: bool
) -> None:
    """Check ``data[key]`` (when ``need``, it must be there) of the part ``where`` of a
    record; ``what`` overrides the check's own description of a good value."""
    if key not in data:
        if need:
            raise RecordError("missing", key, where)
        return
    wrong = check(data[key])
    if wrong is not None:
        raise RecordError(f"expected {what or wrong}, not {_show(data[key])}", key, where)


def _show(value: Any) -> str:
    """A value as the message quotes it: its JSON, cut where it is long."""
    text = json.dumps(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


RECORD_KEYS = ("variant", "settings", "turns")
"""The keys without which a JSON object is not a game record at all, in every version."""


def _check_fields(record: dict[str, Any], match: bool) -> None:
    """The fields of a version 1 or 2 record (``docs/records.md``, "The fields"); without
    ``match``, not those that place the game in its match. Version 2 adds the event ``log``,
    each entry an event as :mod:`nardy.core.events` writes it; a record of either version
    without one replays from its turns, as :func:`replay` reads it."""
    _field(record, "variant", _string, need=True)
    try:
        rules = variant(record["variant"])
    except NardyError as exc:
        raise RecordError(str(exc), "variant") from None
    _field(record, "settings", _object, need=True)
    try:
        Settings.from_dict(record["settings"], rules.key).resolve()
    except NardyError as exc:
        raise RecordError(str(exc), "settings") from None
    if match:
        _field(record, "players", _NAMES, need=True)
        _field(record, "game", _number, need=True)
        _field(record, "score", _SCORE, need=True)
    _field(record, "crawford", _flag, need=False)
    _field(record, "opening", _list_of(_DICE, "a list of opening rolls [d0, d1]"), need=False)
    _field(record, "first-player", _player_or_none, need=False)
    _field(record, "start", _string, "a Position ID", need=False)
    _field(record, "start-cube", _start_cube, need=False)
    _field(record, "turns", _list_of(_object, "a list of turns (JSON objects)"), need=True)
    for number, turn in enumerate(record["turns"], 1):
        _check_turn(turn, f"turn {number}")
    _field(record, "end", lambda v: None if v is None else _object(v), need=False)
    if record.get("end") is not None:
        end = record["end"]
        _field(end, "winner", _player_or_none, where="the end", need=True)
        _field(end, "kind", _one_of(*_END_KINDS), where="the end", need=True)
        _field(end, "cube", _cube_value, where="the end", need=True)
        _field(end, "points", _count, where="the end", need=True)
        _field(end, "level", _one_of(*_LEVELS), where="the end", need=False)
    _field(record, "chouette", _object, need=False)
    _field(record, "log", _list_of(_object, "a list of events (JSON objects)"), need=False)
    for number, event in enumerate(record.get("log", []), 1):
        try:
            event_from_json(event)
        except NardyError as exc:
            raise RecordError(f"event {number}: {exc}", "log") from None


def _check_turn(turn: dict[str, Any], where: str) -> None:
    """The fields of one turn of a format 1 record (``docs/records.md``, "A turn")."""
    _field(turn, "player", _player, where=where, need=True)
    _field(turn, "cube", _CUBE_ACTIONS, where=where, need=True)
    _field(turn, "dice", _DICE, where=where, need=False)
    _field(turn, "play", _string, "a play in move notation", where=where, need=False)
    _field(turn, "position", _string, "a Position ID", where=where, need=True)
    _field(turn, "result", _string, "a Position ID", where=where, need=True)
    _field(turn, "chosen", _flag, where=where, need=False)
    _field(turn, "resign", _list_of(_object, "a list of resignations"), where=where, need=False)
    for number, offer in enumerate(turn.get("resign", []), 1):
        offered = f"{where}, resignation {number}"
        _field(offer, "level", _level, where=offered, need=True)
        _field(offer, "accepted", _flag, where=offered, need=True)
        _field(offer, "after-roll", _flag, where=offered, need=True)


_VERSIONS: dict[int, Callable[[dict[str, Any], bool], None]] = {1: _check_fields, 2: _check_fields}
"""The check of each record format version that nardy reads."""


def check_record(record: Any, *, match: bool = True) -> dict[str, Any]:
    """``record`` itself, once every field has the shape its format version gives it
    (``docs/records.md``). A record without ``format`` is read as version 1. Without
    ``match``, the fields that place the game in its match (``players``, ``game``, ``score``)
    are not checked: the game replays without them.

    Raises :class:`RecordError` naming the first field that is missing or wrong. The check
    is of shape only: whether the game replays through the rules is :func:`replay`'s."""
    if not isinstance(record, dict):
        raise RecordError(f"a game record is a JSON object, not {_show(record)}")
    missing = [key for key in RECORD_KEYS if key not in record]
    if missing:
        raise RecordError(
            f"not a game record: it has no {' or '.join(map(repr, missing))} (a game record "
            f"has {', '.join(map(repr, RECORD_KEYS))} and more: docs/records.md)",
        )
    version = record.get("format", FORMAT_VERSION)
    check = _VERSIONS.get(version) if _is_int(version) else None
    if check is None:
        known = ", ".join(map(str, _VERSIONS))
        raise RecordError(
            f"expected a record format version ({known}), not {_show(version)}", "format"
        )
    check(record, match)
    return record


def parse_records(text: str, name: str) -> list[tuple[int, dict[str, Any]]]:
    """The game records of the file ``name`` whose text is ``text``, each with the line it
    starts on, each checked by :func:`check_record`: JSON lines (one record a line, as
    ``nardy selfplay`` writes them; blank lines skipped), or one JSON object, or a JSON
    array of records.

    Raises :class:`NotationError` saying the file, the line and the field."""
    stripped = text.lstrip()
    whole: Any = None
    if stripped.startswith(("{", "[")):
        try:
            whole = json.loads(text)
        except json.JSONDecodeError:
            whole = None  # JSON lines, or not JSON at all: read line by line
    if whole is not None:
        first = text[: len(text) - len(stripped)].count("\n") + 1
        items = whole if isinstance(whole, list) else [whole]
        numbered = [(first, item) for item in items]
    else:
        numbered = []
        for line, row in enumerate(text.splitlines(), 1):
            if not row.strip():
                continue
            try:
                numbered.append((line, json.loads(row)))
            except json.JSONDecodeError as exc:
                raise NotationError(
                    f"{name} line {line}: not JSON ({exc.msg}): a file of game records "
                    "holds one JSON object a line"
                ) from None
    records = []
    for index, (line, record) in enumerate(numbered, 1):
        try:
            records.append((line, check_record(record)))
        except RecordError as exc:
            where = f"{name} line {line}"
            if isinstance(record, dict):  # which game: its number, else its place in the file
                number = record.get("game")
                where += f", game {number if _number(number) is None else index}"
            raise NotationError(f"{where}: {exc}") from None
    return records
