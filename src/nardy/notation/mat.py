"""GNU Backgammon / Jellyfish ``.mat`` match files: export and import (NOTATION.md, "Games and
matches").

A ``.mat`` file is the plain-text match transcript that Jellyfish introduced and that GNU
Backgammon, eXtreme Gammon, Snowie and BGBlitz all read and write. :func:`export_mat` writes a
match or money session exactly as GNU Backgammon's ``export match mat`` lays it out::

     5 point match

     Game 1
     Alice : 0                      Bob : 0
      1) 42: 24/22 24/20             65: 8/2 6/1
      2) 32: 6/4 6/3                 64: 8/2 6/2
      3)  Doubles => 2                Takes
      4) 63: 22/16 20/17*            52: 25/23 13/8*
      5) 66:                          Doubles => 4
      6)  Drops                       Wins 2 points

The player named first writes in the left column. A move line numbers a pair of turns and
holds ``d1d2: play`` per side, the play as single checker moves in GNU Backgammon's order
(back checkers first), the bar written 25 and off written 0, a ``*`` on the first move that
hits on a point; a roll with no legal move is the dice alone. Cube actions are
``Doubles => N`` (N: the cube value the double offers), ``Beavers => N``, ``Takes`` and
``Drops``. As GNU Backgammon writes it, a beaver's take is not written: the doubler just
rolls on; a passed beaver is written ``Doubles => N`` in the beaverer's column (a double by
the doubled player, which readers take as a beaver), because GNU Backgammon's reader loses
the rest of the file after ``Beavers`` and ``Drops``. ``Wins N point(s)`` closes a game, in
the winner's column; after neither a drop nor a bear-off it is an accepted resignation.

Settings the transcript cannot show go in the header as eXtreme Gammon's tags
(``; [Crawford "On"]``, ``[Jacoby]``, ``[Beaver]``, ``[CubeLimit "1"]`` for no cube,
``[Variation]``) and, where a setting is not its default, nardy's own tags
(``[AutomaticDoubles]``, ``[BackgammonValue]``, ``[Opening]``, ``[LimitPoints]``,
``[LimitMinutes]``), which other programs keep as a comment.

:func:`import_mat` reads such a file (nardy's, GNU Backgammon's, and other programs' where
they write the same) back into JSON game records (``nardy.notation.record``) by playing every
action through the rules.

What ``.mat`` cannot hold, and how the import fills it in (``docs/records.md``):

- only backgammon: long nardy and acey-deucey are refused. ``nackgammon-ballard`` (RULES.md
  2, Nack Ballard's 2-2-4-3-4) is other programs' NackGammon, ``[Variation "NackGammon"]``
  both ways (and records of backgammon from that start, as nardy wrote them before it had the
  variant, are written so too). nardy's ``nackgammon`` (the seed's 4-1-2-3-5) is written with
  ``[Variation "Nardy Nackgammon"]``: no other program has that start.
- the opening roll: the first play's dice are the deciding roll; opening ties are lost. A
  tie that made an automatic double is restored as 1-1 (the count of automatic doubles is
  worked out from the cube values and points written); with ``opening: reroll`` the deciding
  roll itself is not in the file and is restored as 2-1.
- declined resignations, and the level of an accepted one where two levels score the same
  (Jacoby, backgammon-value 2): the import takes the lowest level that scores the points
  written.
- games from any other chosen position (RULES.md 4) are refused.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from nardy.core import BAR, NardyError, NotationError, Position, variant
from nardy.core import actions as act
from nardy.core.dice import FixedDice
from nardy.core.game import RESIGN_LEVELS, Game, Phase, cube_limit
from nardy.core.match import Match
from nardy.core.moves import Move
from nardy.core.scoring import points
from nardy.core.settings import BOUNDS, Settings
from nardy.notation.position_id import position_id
from nardy.notation.record import game_record, match_records, replay

LEFT_WIDTH = 27
"""Width of the left column's text; the right column starts at character 33."""

_BALLARD = variant("nackgammon-ballard")
BALLARD_NACKGAMMON = Position.from_points(
    variant("backgammon"), _BALLARD.start_points, _BALLARD.start_points
)
"""The NackGammon start of GNU Backgammon and eXtreme Gammon (Nack Ballard's layout) on a
backgammon board: the start of the records that nardy wrote for such files before it had the
variant ``nackgammon-ballard`` (backgammon from a chosen position, RULES.md 4), which are
still written as NackGammon."""

_NARDY_NACKGAMMON = "Nardy Nackgammon"
_NACKGAMMON = "NackGammon"
_VARIATIONS = {
    "backgammon": "Backgammon",
    "nackgammon": _NARDY_NACKGAMMON,
    _BALLARD.key: _NACKGAMMON,
}
"""The variants a .mat file can hold, with the header's name for each."""

_ON_OFF = {True: "On", False: "Off"}

# -- export ------------------------------------------------------------------------------------


def export_mat(source: Match | Iterable[Mapping[str, Any]]) -> str:
    """The ``.mat`` text of a match or money session: a :class:`Match`, or its game records
    in order (as :func:`~nardy.notation.record.match_records` gives them).

    Raises :class:`NotationError` for what ``.mat`` cannot express: a variant other than
    backgammon or nackgammon, a game from a chosen position, games of different matches, or
    a player name that would break the file.
    """
    records = match_records(source) if isinstance(source, Match) else [dict(r) for r in source]
    if not records:
        raise NotationError("no games to export")
    first = records[0]
    for record in records[1:]:
        for key in ("variant", "settings", "players"):
            if record.get(key) != first.get(key):
                raise NotationError(
                    f"game {record.get('game')} has other {key} than game {first.get('game')}:"
                    " a .mat file holds one match"
                )
    names = _names(first.get("players"))
    settings = _record_settings(first)
    start = _common_start(records, settings)
    lines = _header(settings, start)
    for record in records:
        lines.append(_export_game(record, names))
    return "".join(lines)


def _names(players: Any) -> tuple[str, str]:
    if not (isinstance(players, list | tuple) and len(players) == 2):
        raise NotationError(f"a game record needs two player names, not {players!r}")
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise NotationError(f"player name {name!r} cannot be written in a .mat file")
        if ":" in name or any(not c.isprintable() for c in name) or name != name.strip():
            raise NotationError(
                f"player name {name!r} cannot be written in a .mat file: no ':', control "
                "characters or surrounding spaces"
            )
    return players[0], players[1]


def _record_settings(record: Mapping[str, Any]) -> Settings:
    try:
        settings = Settings.from_dict(record["settings"], record["variant"])
        return settings.resolve()
    except KeyError as exc:
        raise NotationError(f"game record without {exc}") from None
    except NardyError as exc:
        raise NotationError(f"game record with unusable settings: {exc}") from None


def _common_start(records: list[dict[str, Any]], settings: Settings) -> Position | None:
    """The chosen start of every game (Nack Ballard's layout), or None for the variant's."""
    if settings.variant not in _VARIATIONS:
        raise NotationError(
            f".mat files hold backgammon and nackgammon only (either layout), not "
            f"{settings.rules.name}"
        )
    starts = {record.get("start") for record in records}
    if starts == {None}:
        return None
    ballard = position_id(BALLARD_NACKGAMMON)
    centred = all(tuple(r.get("start-cube", (1, None))) == (1, None) for r in records)
    if settings.variant == "backgammon" and starts == {ballard} and centred:
        return BALLARD_NACKGAMMON
    raise NotationError(
        ".mat games start from the standard layout (or NackGammon's): a game from a chosen "
        "position cannot be written"
    )


def _header(settings: Settings, start: Position | None) -> list[str]:
    variation = _NACKGAMMON if start is not None else _VARIATIONS[settings.variant]
    tags = [
        ("Variation", variation),
        ("Crawford", _ON_OFF[settings.crawford]),
        ("Jacoby", _ON_OFF[bool(settings.jacoby)]),
        ("Beaver", _ON_OFF[settings.beaver]),
    ]
    if not settings.cube:
        tags.append(("CubeLimit", "1"))
    defaults = Settings()
    extra = [
        ("AutomaticDoubles", settings.automatic_doubles, defaults.automatic_doubles),
        ("BackgammonValue", settings.backgammon_value, defaults.backgammon_value),
        ("Opening", settings.opening, defaults.opening),
        ("LimitPoints", settings.limit_points, defaults.limit_points),
        ("LimitMinutes", settings.limit_minutes, defaults.limit_minutes),
    ]
    tags += [(name, str(value)) for name, value, default in extra if value != default]
    lines = [f'; [{name} "{value}"]\n' for name, value in tags]
    return [*lines, "\n", f" {settings.match_length} point match\n\n"]


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


class _Layout:
    """The two-column move list, laid out as GNU Backgammon's exporter does.

    ``half`` counts the cells written: even is the left column (the first player named),
    odd the right. ``rolled`` is set after dice written without a play (a resignation
    follows). A game that player 1 opens starts with an empty left cell; GNU Backgammon's
    exporter does that for a play only, nardy for any action (with ``opening: reroll`` the
    first action may be a double), and would do the same wherever one player acted twice.
    """

    def __init__(self) -> None:
        self.out: list[str] = []
        self.half = 0
        self.rolled = False

    @property
    def column(self) -> int:
        return self.half % 2

    def _align(self, player: int) -> None:
        if self.column != player:
            if self.column:  # the left player acts again: close the row
                self.out.append("\n")
            else:  # the right player acts first in a row: an empty left cell
                self.out.append(f"{self.half // 2 + 1:3d}) {'':<{LEFT_WIDTH}} ")
            self.half += 1

    def _write(self, text: str) -> None:
        if self.column:
            self.out.append(text + "\n")
        else:
            self.out.append(f"{self.half // 2 + 1:3d}) {text:<{LEFT_WIDTH}} ")
        self.half += 1
        self.rolled = False

    def cell(self, player: int, text: str) -> None:
        """A play, a double, a beaver or a take."""
        self._align(player)
        self._write(text)

    def dice_only(self, player: int, text: str) -> None:
        """Dice rolled and then a resignation, with no play."""
        self._align(player)
        if self.column:
            self.out.append(text)
        else:
            self.out.append(f"{self.half // 2 + 1:3d}) {text:<3}")
        self.half += 1
        self.rolled = True

    def bear_off_win(self, winner: int, points: int) -> None:
        """The winner's last play has just been written."""
        prefix = " " * 34 if winner else "\n      "
        self.out.append(f"{prefix}Wins {_points(points)}\n\n")

    def drop(self, player: int, points: int) -> None:
        self._align(player)
        right = bool(self.column)
        gap = "\n      " if right else " " * 23
        self._write(f" Drops{gap}Wins {_points(points)}")
        self.out.append("\n" if right else "\n\n")

    def resign_win(self, winner: int, points: int) -> None:
        """An accepted resignation: the winner's ``Wins`` line, placed as GNU Backgammon
        places it after whatever the row holds so far."""
        open_row = bool(self.column) ^ self.rolled
        if winner == 0:
            prefix = "\n      " if open_row else "      "
        elif self.column:
            prefix = " " if open_row else " " * 24
        else:
            prefix = " " if open_row else " " * 34
        self.out.append(f"{prefix}Wins {_points(points)}\n\n")

    def close(self) -> None:
        """End an unfinished game's move list (the file's last game): end the open row."""
        if self.column or self.rolled:
            self.out.append("\n")


def _highest_cube(settings: Settings) -> int:
    """The highest cube a game reaches under RULES.md 1.5 (:func:`cube_limit`) in the longest
    match, or in money play. An old record within it exports whatever its own match length
    (GNU Backgammon reads a 3-point match's cube of 64); one past it may crash GNU Backgammon
    1.07 (a 3-point match with a 256 cube, a 64-point one at 4096)."""
    away = None if settings.money else BOUNDS["match_length"][1]
    value = 1
    while cube_limit(value, away) is None:
        value *= 2
    return value


def _export_game(record: dict[str, Any], names: tuple[str, str]) -> str:
    number = record.get("game", 1)
    score = record.get("score", [0, 0])
    left = f"{names[0]} : {score[0]}"
    left = left.ljust(31) if len(left) < 31 else left + " "  # the reader needs a space
    head = f" Game {number}\n {left}{names[1]} : {score[1]}\n"
    game = replay(record)
    result = game.result
    layout = _Layout()
    cube = 1 << _automatic_doubles(game)
    highest = _highest_cube(game.settings)
    for done in game.records:
        player = done.player
        offered = cube
        for action in done.cube:
            if action == "double":
                offered = 2 * cube
                layout.cell(player, f" Doubles => {offered}")
            elif action == "beaver":
                offered *= 2
                # A passed beaver is written as a double by the doubled player, which readers
                # take as a beaver: GNU Backgammon 1.07 loses every later roll of the file
                # after "Beavers" and "Drops".
                word = "Doubles" if "pass" in done.cube else "Beavers"
                layout.cell(1 - player, f" {word} => {offered}")
            elif action == "take":
                cube = offered
                if "beaver" not in done.cube:  # a beaver's take is not written
                    layout.cell(1 - player, " Takes")
            else:  # pass: the game ends at the value before the double
                passer = player if "beaver" in done.cube else 1 - player
                assert result is not None
                layout.drop(passer, result.points)
            if offered > highest:
                raise NotationError(
                    f"game {number}: the cube went to {offered}, past the"
                    f" {highest} that RULES.md 1.5 allows here, and GNU"
                    " Backgammon may crash reading such a file: not exported"
                )
        if done.dice is None:
            continue
        dice = f"{done.dice[0]}{done.dice[1]}: "
        if done.play is None:  # rolled, then resigned
            layout.dice_only(player, dice)
        else:
            layout.cell(player, dice + _mat_moves(done.play.moves, done.before))
    if result is None:
        layout.close()
    elif result.kind in ("single", "gammon", "backgammon"):
        assert result.winner is not None
        layout.bear_off_win(result.winner, result.points)
    elif result.kind in ("resign", "forfeit"):  # .mat has no word for a forfeit: a win
        assert result.winner is not None
        layout.resign_win(result.winner, result.points)
    return head + "".join(layout.out)


def _automatic_doubles(game: Game) -> int:
    """How many automatic doubles the opening ties made (RULES.md 1.5)."""
    ties = sum(1 for a, b in game.opening_rolls if a == b)
    return min(ties, game.settings.automatic_doubles)


def _mat_moves(moves: Sequence[Move], before: Position) -> str:
    """A play as ``.mat`` writes it: single moves, back checkers first, bar 25 and off 0,
    ``*`` on the first move onto each point an opponent's blot held; a space after each of
    the first three moves (GNU Backgammon's ``FormatMovePlain``)."""
    blots = before.variant.to_mine(before.theirs)
    ordered = sorted(moves, key=lambda m: (-m.start, -m.end))
    starred: set[int] = set()
    text = ""
    for i, move in enumerate(ordered):
        hit = 0 < move.end < BAR and blots[move.end] > 0 and move.end not in starred
        if hit:
            starred.add(move.end)
        text += f"{move.start}/{move.end}{'*' if hit else ''}{' ' if i < 3 else ''}"
    return text


# -- import ------------------------------------------------------------------------------------


_MATCH_LINE = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
_TAG = re.compile(r'^\[\s*([A-Za-z][\w ]*?)\s+"(.*)"\s*\]$')
_GAME_LINE = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORE_LINE = re.compile(r"^\s*([^:]+?)\s*:\s*(\d+)\s+([^:]+?)\s*:\s*(\d+)\s*$")
_ROW = re.compile(r"^\s*(\d+)\)")
_CELL = re.compile(
    r"(?<!\S)(?:[1-6][1-6]:"
    r"|(?:Doubles|Beavers|Raccoons)\s*=>\s*\d+"
    r"|Takes|Drops"
    r"|Wins\s+\d+\s+points?(?:\s+and\s+the\s+match)?)",
    re.IGNORECASE,
)
_RIGHT_COLUMN = 15
"""A lone cell starting further right than this is in the right column (GNU Backgammon's
reader splits the same way)."""


@dataclass
class _Cell:
    """One action of the move list: who, what, and the line it came from."""

    player: int
    kind: str  # roll, double, beaver, raccoon, take, drop, wins
    line: int
    dice: tuple[int, int] = (0, 0)
    play: str = ""
    value: int = 0


@dataclass
class _MatGame:
    number: int
    line: int
    names: tuple[str, str]
    score: tuple[int, int]
    cells: list[_Cell] = field(default_factory=list)


def import_mat(text: str) -> list[dict[str, Any]]:
    """The game records of a ``.mat`` match file, in order; each replays with
    :func:`~nardy.notation.record.replay`.

    Every action is played through the rules: an illegal play, a cube action out of turn, a
    ``Wins`` line that does not fit the game, a score line that does not follow from the
    games before, or text that is not ``.mat`` raises :class:`NotationError` naming the line.
    """
    tags, length, games = _parse(text)
    settings = _settings(tags, length, games)
    for mat_game in games:
        if mat_game.names != games[0].names:
            raise NotationError(
                f"line {mat_game.line}: game {mat_game.number} has other players than game "
                f"{games[0].number}"
            )
        if length and max(mat_game.score) >= length:
            raise NotationError(
                f"line {mat_game.line}: game {mat_game.number} starts after the "
                f"{length}-point match is over"
            )
    records: list[dict[str, Any]] = []
    crawford_seen = False
    for index, mat_game in enumerate(games):
        someone_away = length > 1 and length - 1 in mat_game.score
        crawford = settings.crawford and bool(settings.cube) and someone_away and not crawford_seen
        crawford_seen = crawford_seen or someone_away
        following = games[index + 1] if index + 1 < len(games) else None
        records.append(_import_game(mat_game, settings, crawford, following))
    return records


def _parse(text: str) -> tuple[dict[str, str], int, list[_MatGame]]:
    lines = text.lstrip("\ufeff").splitlines()
    tags: dict[str, str] = {}
    length: int | None = None
    n = 0
    while n < len(lines) and length is None:
        line = lines[n].strip()
        n += 1
        if line.startswith((";", "#")):
            tag = _TAG.match(line[1:].strip())
            if tag:
                tags[tag[1].lower()] = tag[2]
        elif match := _MATCH_LINE.match(line):
            length = int(match[1])
        elif line.startswith(("{", "[")):
            raise NotationError(
                f"line {n}: this is JSON, not a .mat match file (' N point match', then the "
                "games); JSON game records are written as .mat by 'nardy export'"
            )
        elif line:
            raise NotationError(f"line {n}: expected ' N point match', found {_cut(line)}")
    if length is None:
        raise NotationError("not a .mat file: no ' N point match' line")
    games: list[_MatGame] = []
    while n < len(lines):
        line = lines[n]
        n += 1
        if not line.strip():
            continue
        if game_line := _GAME_LINE.match(line):
            while n < len(lines) and not lines[n].strip():
                n += 1
            score = _SCORE_LINE.match(lines[n]) if n < len(lines) else None
            if score is None:
                raise NotationError(
                    f"line {n + 1}: expected the players and scores of game {game_line[1]}, "
                    "as in ' Alice : 0    Bob : 0'"
                )
            n += 1
            games.append(
                _MatGame(
                    int(game_line[1]),
                    n,  # the line of the players and scores
                    (score[1], score[3]),
                    (int(score[2]), int(score[4])),
                )
            )
        elif not games:
            raise NotationError(f"line {n}: expected ' Game 1', found {_cut(line)}")
        else:
            games[-1].cells.extend(_cells(line, n))
    if not games:
        raise NotationError("the .mat file holds no games")
    return tags, length, games


def _cut(line: str, width: int = 60) -> str:
    """A line of the file as an error quotes it: stripped, and cut where it is long (a file
    of the wrong kind can have lines of many kilobytes)."""
    text = line.strip()
    return repr(text if len(text) <= width else f"{text[: width - 3]}...")


def _cells(line: str, number: int) -> list[_Cell]:
    """The actions of one move-list line, each with its column."""
    line = line.expandtabs(8).rstrip()
    row = _ROW.match(line)
    begin = row.end() if row else 0
    starts = [m.start() for m in _CELL.finditer(line, begin)]
    if not starts:
        raise NotationError(f"line {number}: cannot read {_cut(line)} as a .mat move line")
    if line[begin : starts[0]].strip():
        raise NotationError(
            f"line {number}: cannot read {line[begin : starts[0]].strip()!r} as a .mat action"
        )
    if len(starts) > 2:
        raise NotationError(f"line {number}: more than two actions in one row: {_cut(line)}")
    texts = [line[a:b].strip() for a, b in zip(starts, [*starts[1:], len(line)], strict=True)]
    columns = [0, 1] if len(texts) == 2 else [int(starts[0] - begin > _RIGHT_COLUMN)]
    return [_cell(text, column, number) for text, column in zip(texts, columns, strict=True)]


def _cell(text: str, player: int, line: int) -> _Cell:
    head = text.split()[0].lower()
    if head[0].isdigit():
        play = text[3:].strip()
        if re.fullmatch(r"(?i)(cannot\s+move|\?+)?", play):
            play = ""
        return _Cell(player, "roll", line, (int(text[0]), int(text[1])), play)
    value = int(re.findall(r"\d+", text)[0]) if head != "takes" and head != "drops" else 0
    kind = {
        "doubles": "double",
        "beavers": "beaver",
        "raccoons": "raccoon",
        "takes": "take",
        "drops": "drop",
        "wins": "wins",
    }[head]
    return _Cell(player, kind, line, value=value)


def _settings(tags: dict[str, str], length: int, games: list[_MatGame]) -> Settings:
    variation = tags.get("variation", "Backgammon")
    if variation == _NARDY_NACKGAMMON:
        name = "nackgammon"
    elif variation.startswith(_NACKGAMMON):
        name = _BALLARD.key
    elif variation.startswith("Backgammon"):
        name = "backgammon"
    else:
        raise NotationError(f"the .mat variation {variation!r} is not one nardy plays")

    def on(tag: str, default: bool | None) -> bool | None:
        value = tags.get(tag)
        if value is None:
            return default
        if value.lower() not in ("on", "off"):
            raise NotationError(f'the [{tag}] tag must be "On" or "Off", not {value!r}')
        return value.lower() == "on"

    def number(tag: str, default: int) -> int:
        value = tags.get(tag.lower(), str(default))
        if not value.isdigit():
            raise NotationError(f"the [{tag}] tag must be a number, not {value!r}")
        return int(value)

    beavers = any(
        cell.kind == "beaver"
        or (cell.kind == before.kind == "double" and cell.player != before.player)
        for g in games
        for before, cell in itertools.pairwise(g.cells)
    )
    try:
        return Settings(
            variant=name,
            match_length=length,
            crawford=bool(on("crawford", True)),
            cube=tags.get("cubelimit") != "1",
            beaver=bool(on("beaver", beavers and not length)),
            jacoby=on("jacoby", None),
            automatic_doubles=number("AutomaticDoubles", 0),
            backgammon_value=number("BackgammonValue", 3),
            opening=tags.get("opening", "use-opening-dice"),
            limit_points=number("LimitPoints", 0),
            limit_minutes=number("LimitMinutes", 0),
        ).resolve()
    except NotationError:
        raise
    except NardyError as exc:
        raise NotationError(f"the .mat header gives settings nardy cannot play: {exc}") from None


def _import_game(
    mat_game: _MatGame,
    settings: Settings,
    crawford: bool,
    following: _MatGame | None,
) -> dict[str, Any]:
    """The record of one game, trying each possible count of automatic doubles (the file
    does not say) until the cube values and points written fit."""
    first_error: NotationError | None = None
    for automatic in range(settings.automatic_doubles + 1):
        try:
            game = _play(mat_game, settings, crawford, automatic, following)
        except NotationError as exc:
            first_error = first_error or exc
            continue
        return game_record(
            game, number=mat_game.number, players=mat_game.names, score=mat_game.score
        )
    assert first_error is not None
    raise first_error


def _play(
    mat_game: _MatGame,
    settings: Settings,
    crawford: bool,
    automatic: int,
    following: _MatGame | None,
) -> Game:
    cells = mat_game.cells
    where = f"game {mat_game.number}"
    rolls = [c for c in cells if c.kind == "roll"]
    opening: list[tuple[int, int]] = []
    if cells:
        first = cells[0].player
        if settings.plays_opening_roll:
            d1, d2 = rolls[0].dice if cells[0].kind == "roll" else (0, 0)
            if d1 == d2:
                raise NotationError(
                    f"line {cells[0].line}: {where}: the first play must be of two different "
                    "dice (the opening roll)"
                )
            deciding = (max(d1, d2), min(d1, d2))
            rolls = rolls[1:]
        else:
            deciding = (2, 1)
        opening = [(1, 1)] * automatic + [deciding if first == 0 else deciding[::-1]]
    values = [d for roll in opening for d in roll] + [d for c in rolls for d in c.dice]
    # History: the file's doubles stand, even past the limits of RULES.md 1.5 (another
    # program's, or nardy's from before them).
    game = Game(settings, FixedDice(values), crawford=crawford, cube_limits=False)
    if opening:
        game.apply(act.RollOpening(0))
    waiting: _Cell | None = None  # dice written without a play: a resignation must follow
    for cell in cells:
        try:
            waiting = _act(game, cell, waiting)
        except NardyError as exc:  # NotationError, or the rules refusing the action
            raise NotationError(f"line {cell.line}: {where}: {exc}") from None
    if waiting is not None:
        raise NotationError(
            f"line {waiting.line}: {where}: the dice {waiting.dice[0]}{waiting.dice[1]} have "
            "legal plays but no play is written (and no resignation follows)"
        )
    if following is not None:
        result = game.result
        if result is None:
            raise NotationError(
                f"line {following.line}: {where} is not finished, yet game {following.number} "
                "follows"
            )
        expected = list(mat_game.score)
        if result.winner is not None:
            expected[result.winner] += result.points
        if tuple(expected) != following.score:
            raise NotationError(
                f"line {following.line}: {where} ends {expected[0]}-{expected[1]}, but "
                f"game {following.number} starts {following.score[0]}-{following.score[1]}"
            )
    return game


def _act(game: Game, cell: _Cell, waiting: _Cell | None) -> _Cell | None:
    """Play one action; returns the roll still waiting for its play or resignation."""
    player = cell.player
    if game.over:
        if cell.kind != "wins":
            raise NotationError("the game is already over")
        _check_end(game, cell)
        return None
    if waiting is not None and cell.kind != "wins":
        raise NotationError(
            f"the dice {waiting.dice[0]}{waiting.dice[1]} have legal plays but no play is written"
        )
    if game.phase is Phase.BEAVERED and cell.kind in ("roll", "wins"):
        game.apply(act.Take(game.turn))  # a beaver's take is not written: the doubler plays on
    if cell.kind == "roll":
        if game.phase is Phase.MOVING and game.dice is not None:  # the opening roll
            if sorted(game.dice) != sorted(cell.dice) or game.turn != player:
                raise NotationError(f"the opening roll is not {cell.dice[0]}{cell.dice[1]}")
        else:
            game.apply(act.Roll(player))
        if game.phase is not Phase.MOVING or game.turn != player:
            if cell.play:
                raise NotationError(f"{cell.dice[0]}{cell.dice[1]} has no legal move here")
            return None
        if not cell.play:
            return cell
        game.apply(act.Play(player, cell.play))
    elif cell.kind == "double" and game.phase is Phase.DOUBLED and player != game.turn:
        if cell.value != 4 * game.cube.value:  # a double by the doubled player: a beaver
            raise NotationError(f"a beaver to {cell.value} with the cube at {game.cube.value}")
        game.apply(act.Beaver(player))
    elif cell.kind == "double":
        if cell.value != 2 * game.cube.value:
            raise NotationError(f"a double to {cell.value} with the cube at {game.cube.value}")
        game.apply(act.Double(player))
    elif cell.kind == "beaver":
        if cell.value != 4 * game.cube.value:
            raise NotationError(f"a beaver to {cell.value} with the cube at {game.cube.value}")
        game.apply(act.Beaver(player))
    elif cell.kind == "raccoon":
        raise NotationError("raccoons are not in the rules (RULES.md 1.5)")
    elif cell.kind == "take":
        game.apply(act.Take(player))
    elif cell.kind == "drop":
        game.apply(act.Pass(player))
    else:
        _resign(game, cell)
        _check_end(game, cell)
    return None


def _resign(game: Game, cell: _Cell) -> None:
    """``Wins N`` with the game still on: the other player resigned, at the lowest level
    that scores N (RULES.md 1.4)."""
    loser = 1 - cell.player
    if game.turn != loser or game.phase not in (Phase.ROLL, Phase.MOVING):
        raise NotationError(f"a resignation by player {loser}, who is not on turn")
    for level, kind in RESIGN_LEVELS.items():
        if points(kind, game.cube.value, game.settings, cube_turned=game.cube.turned) == cell.value:
            game.apply(act.Resign(loser, level))
            game.apply(act.Accept(cell.player))
            return
    raise NotationError(
        f"no resignation scores {_points(cell.value)} with the cube at {game.cube.value}"
    )


def _check_end(game: Game, cell: _Cell) -> None:
    """A ``Wins N`` line after the game has ended: the winner and points must fit."""
    result = game.result
    assert result is not None
    if result.winner != cell.player:
        raise NotationError(
            f"'Wins' is written for player {cell.player}; player {result.winner} won"
        )
    written = {result.points}
    if result.kind in ("single", "gammon", "backgammon"):  # GNU Backgammon ignores Jacoby here
        written.add({"single": 1, "gammon": 2, "backgammon": 3}[result.kind] * result.cube)
    if cell.value not in written:
        raise NotationError(f"'Wins {_points(cell.value)}', but the game scores {result.points}")


__all__ = ["BALLARD_NACKGAMMON", "export_mat", "import_mat"]
