"""XGID, eXtreme Gammon's position text, read and written as GNU Backgammon reads it.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10`` is ten fields separated by colons:

1. the board, 26 characters, drawn from the bottom player's side. Uppercase letters are the
   bottom player X's checkers, lowercase the top player O's (``A``/``a`` = 1 … ``O``/``o`` =
   15), ``-`` an empty point. Character 0 is O's bar, characters 1-24 are X's points 1-24
   (X's point p is O's point 25 - p), character 25 is X's bar. Checkers not shown are off.
2. the cube value's base-2 logarithm (0 = 1, 1 = 2, …);
3. the cube position: 1 = X owns it, -1 = O owns it, 0 = centred;
4. the turn: 1 = X, -1 = O: the player who is on roll (and who has doubled, with ``D``);
5. the dice: two digits 1-6 as rolled (either order), ``00`` = not yet rolled (to roll or
   double), ``D`` = doubled and the opponent must take or pass; ``B`` (beavered) and ``R``
   (raccooned) are eXtreme Gammon's further cube states;
6. X's score; 7. O's score;
8. in a match, 1 = this is the Crawford game; in money play, 1 = Jacoby rule, 2 = beavers
   allowed, 3 = both;
9. the match length, 0 = money play;
10. the maximum cube, as a base-2 logarithm (eXtreme Gammon writes 10).

Verified against GNU Backgammon's own XGID reader (``gnubg.setgnubgid``): uppercase X is
gnubg's player 1 and lowercase O its player 0; the first score is X's; turn 1 makes X the
player on roll; the board gnubg builds, and the Match ID it derives, equal ours. With ``D``
gnubg takes the turn to name the doubler (its ``fMove``; the opponent's ``fTurn`` answers) and
the cube field the value before the double. gnubg rejects ``B`` and ``R``; nardy reads and
writes them unchanged but cannot turn them into a Match ID.

nardy's :class:`~nardy.core.Position` is always seen from the side on roll, so the position
here is from the side the turn field names; :attr:`Xgid.x_on_roll` says which XG player that
is. Only variants with backgammon's geometry (a bar, my point p is the opponent's 25 - p)
fit the layout: backgammon, nackgammon, and acey-deucey once every checker has entered. Long
nardy positions and acey-deucey checkers waiting to enter raise :class:`NotationError`.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass

from nardy.core import CHECKERS, InvalidPositionError, NotationError, Position, Variant, variant
from nardy.core.position import BAR, OFF
from nardy.notation.match_id import (
    MAX_CUBE,
    CubeOwner,
    GameState,
    MatchState,
    validate_score,
)

PREFIX = "XGID="
BOARD_LENGTH = 26
_INT = re.compile(r"^-?[0-9]+$")
_MAX_CUBE_LOG2 = MAX_CUBE.bit_length() - 1
_MAX_SCORE = (1 << 15) - 1


class CubeAction(enum.Enum):
    """A cube decision waiting for an answer, written in the dice field instead of dice."""

    NONE = ""
    """No cube action pending: the dice field shows the roll, or ``00`` before it."""
    DOUBLED = "D"
    """The player on roll has doubled; the opponent must take or pass."""
    BEAVERED = "B"
    """eXtreme Gammon: the double was beavered (gnubg cannot read this)."""
    RACCOONED = "R"
    """eXtreme Gammon: the beaver was raccooned (gnubg cannot read this)."""


@dataclass(frozen=True, slots=True)
class Xgid:
    """Everything an XGID says: the position from the side on roll, and the game around it.

    Scores and cube ownership are kept in XG's own terms (X at the bottom, O at the top) so
    that an XGID reads back exactly as written; :attr:`my_score`, :attr:`their_score` and
    :attr:`cube_is_mine` give them from the side on roll. Construction validates every field
    and raises :class:`NotationError` naming the first that is wrong.
    """

    position: Position
    """The checkers, from the side on roll (the player the turn field names)."""
    x_on_roll: bool = True
    """The turn field: True = 1 = X (bottom, uppercase, gnubg's player 1) is on roll;
    False = -1 = O (top, lowercase, gnubg's player 0)."""
    cube: int = 1
    """The cube value (1, 2, 4, …); with :attr:`CubeAction.DOUBLED`, its value before the
    double."""
    cube_position: int = 0
    """Who owns the cube: 1 = X, -1 = O, 0 = centred."""
    dice: tuple[int, int] | None = None
    """The roll, in the order written; None before rolling (``00``) or with a cube action."""
    cube_action: CubeAction = CubeAction.NONE
    """A double (or beaver, raccoon) waiting for an answer."""
    score_x: int = 0
    """Points X has won (in money play, the session's running score)."""
    score_o: int = 0
    """Points O has won."""
    match_length: int = 0
    """Points needed to win the match; 0 is money play."""
    crawford: bool = False
    """Match play: this game is the Crawford game (no doubling)."""
    jacoby: bool = False
    """Money play: gammons count single until the cube is turned."""
    beavers: bool = False
    """Money play: a player who is doubled may redouble at once and keep the cube."""
    max_cube: int = 1024
    """The largest cube value allowed (eXtreme Gammon's setting; gnubg ignores it)."""

    def __post_init__(self) -> None:
        _check_geometry(self.position)
        try:
            self.position.variant.validate(self.position)
        except InvalidPositionError as exc:
            raise NotationError(f"not a valid position for an XGID: {exc}") from None
        for name in ("x_on_roll", "crawford", "jacoby", "beavers"):
            if not isinstance(getattr(self, name), bool):
                raise NotationError(f"{name} must be True or False, not {getattr(self, name)!r}")
        for name, value, top in (
            ("cube", self.cube, MAX_CUBE),
            ("max cube", self.max_cube, 1 << 31),
        ):
            if not isinstance(value, int) or not 1 <= value <= top or value & (value - 1):
                raise NotationError(f"{name} {value!r} is not a power of two from 1 to {top}")
        if self.cube_position not in (-1, 0, 1):
            raise NotationError(
                f"cube position {self.cube_position!r} is not 1 (X), -1 (O) or 0 (centred)"
            )
        if not isinstance(self.cube_action, CubeAction):
            raise NotationError(f"cube action {self.cube_action!r} is not a CubeAction")
        if self.dice is not None:
            if len(self.dice) != 2 or not all(
                isinstance(d, int) and 1 <= d <= 6 for d in self.dice
            ):
                raise NotationError(f"dice {self.dice!r} are not two dice of 1-6")
            object.__setattr__(self, "dice", tuple(self.dice))  # a list would never compare equal
            if self.cube_action != CubeAction.NONE:
                raise NotationError(
                    f"dice {self.dice} and a cube action {self.cube_action.value!r} "
                    "share one field: a cube action comes before the roll"
                )
        for name, value, top in (
            ("X's score", self.score_x, _MAX_SCORE),
            ("O's score", self.score_o, _MAX_SCORE),
            ("match length", self.match_length, _MAX_SCORE),
        ):
            if not isinstance(value, int) or not 0 <= value <= top:
                raise NotationError(f"{name} {value!r} is not 0-{top}")
        if self.match_length and (self.jacoby or self.beavers):
            raise NotationError("the Jacoby rule and beavers are for money play, not a match")
        if self.match_length and self.cube_action in (CubeAction.BEAVERED, CubeAction.RACCOONED):
            raise NotationError(
                f"a {self.cube_action.name.lower()} cube belongs to money play, not a match"
            )
        # An XGID always shows a game in play, so a score at the match length is impossible.
        validate_score(
            self.match_length, (self.score_x, self.score_o), self.crawford, finished=False
        )
        if self.crawford and (self.cube != 1 or self.cube_position != 0):
            raise NotationError("the cube is out of play in the Crawford game: 1 and centred")
        if self.crawford and self.cube_action != CubeAction.NONE:
            raise NotationError("no double can be offered in the Crawford game")
        if self.cube_action == CubeAction.DOUBLED and self.cube_position == (
            -1 if self.x_on_roll else 1
        ):
            raise NotationError("the doubler cannot double while the opponent owns the cube")

    # -- the game from the side on roll ----------------------------------------------------

    @property
    def my_score(self) -> int:
        """The score of the player on roll."""
        return self.score_x if self.x_on_roll else self.score_o

    @property
    def their_score(self) -> int:
        """The score of the player not on roll."""
        return self.score_o if self.x_on_roll else self.score_x

    @property
    def cube_is_mine(self) -> bool | None:
        """True if the player on roll owns the cube, False if the opponent does, None if
        it is centred."""
        if self.cube_position == 0:
            return None
        return (self.cube_position == 1) == self.x_on_roll

    def to_match_state(self) -> MatchState:
        """The GNU Backgammon match state that gnubg builds from this XGID (X = player 1).

        Raises :class:`NotationError` for a beaver or raccoon, which gnubg cannot read.
        """
        if self.cube_action in (CubeAction.BEAVERED, CubeAction.RACCOONED):
            raise NotationError(
                f"a Match ID cannot express XGID's {self.cube_action.name.lower()} cube "
                "(GNU Backgammon rejects it too)"
            )
        on_roll = 1 if self.x_on_roll else 0
        doubled = self.cube_action == CubeAction.DOUBLED
        owner = {1: CubeOwner.PLAYER_1, -1: CubeOwner.PLAYER_0, 0: CubeOwner.CENTRED}
        return MatchState(
            cube=self.cube,
            cube_owner=owner[self.cube_position],
            on_roll=on_roll,
            crawford=self.crawford,
            game_state=GameState.PLAYING,
            turn=1 - on_roll if doubled else on_roll,
            doubled=doubled,
            dice=self.dice,
            match_length=self.match_length,
            score=(self.score_o, self.score_x),
            jacoby=self.jacoby,
        )

    def __str__(self) -> str:
        return format_xgid(self)


def _check_geometry(pos: Position) -> None:
    v = pos.variant
    if not v.has_bar or any(v.opponent_point(p) != 25 - p for p in (1, 12, 24)):
        raise NotationError(
            f"XGID cannot express a {v.name} position: its board is backgammon's, with a "
            "bar and each side's points mirrored (use a Position ID instead)"
        )
    if pos.waiting(True) or pos.waiting(False):
        raise NotationError(
            f"XGID cannot express checkers waiting to enter ({v.name}): it counts every "
            "checker not on the board as borne off (use a Position ID with its suffix)"
        )


# -- writing ---------------------------------------------------------------------------------


def format_xgid(xgid: Xgid | Position) -> str:
    """The XGID text of ``xgid`` (a bare position gets the defaults: X on roll, money play).

    >>> import nardy
    >>> format_xgid(nardy.BACKGAMMON.start())
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
    """
    if isinstance(xgid, Position):
        xgid = Xgid(xgid)
    pos = xgid.position
    x, o = (pos.mine, pos.theirs) if xgid.x_on_roll else (pos.theirs, pos.mine)
    board = ["-"] * BOARD_LENGTH
    board[0] = _letter(o[BAR], upper=False)
    board[BOARD_LENGTH - 1] = _letter(x[BAR], upper=True)
    for i in range(1, 25):
        if x[i]:
            board[i] = _letter(x[i], upper=True)
        elif o[25 - i]:
            board[i] = _letter(o[25 - i], upper=False)
    if xgid.cube_action != CubeAction.NONE:
        dice = xgid.cube_action.value
    elif xgid.dice is None:
        dice = "00"
    else:
        dice = f"{xgid.dice[0]}{xgid.dice[1]}"
    rules = int(xgid.crawford) if xgid.match_length else int(xgid.jacoby) + 2 * int(xgid.beavers)
    fields = (
        "".join(board),
        xgid.cube.bit_length() - 1,
        xgid.cube_position,
        1 if xgid.x_on_roll else -1,
        dice,
        xgid.score_x,
        xgid.score_o,
        rules,
        xgid.match_length,
        xgid.max_cube.bit_length() - 1,
    )
    return PREFIX + ":".join(str(f) for f in fields)


def _letter(count: int, *, upper: bool) -> str:
    if not count:
        return "-"
    return chr((ord("A") if upper else ord("a")) + count - 1)


# -- reading ---------------------------------------------------------------------------------


def parse_xgid(text: str, variant_name: str | Variant = "backgammon") -> Xgid:
    """Read an XGID (the ``XGID=`` prefix is optional) in ``variant_name``'s geometry.

    Raises :class:`NotationError` naming what is wrong: the number of fields, a board
    character, a count of checkers, a field out of range, or fields that contradict each
    other (a score past the match length, a Crawford flag in money play…).

    >>> x = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:-1:52:0:0:3:0:10")
    >>> x.x_on_roll, x.dice, x.jacoby, x.beavers
    (False, (5, 2), True, True)
    """
    v = variant(variant_name)
    body = text.strip()
    if body[: len(PREFIX)].upper() == PREFIX:
        body = body[len(PREFIX) :]
    parts = body.split(":")
    if len(parts) != 10:
        raise NotationError(
            f"{text!r} is not an XGID: expected the board and 9 fields separated by ':', "
            f"got {len(parts)} parts"
        )

    def fail(reason: str) -> NotationError:
        return NotationError(f"XGID {text.strip()!r}: {reason}")

    board, cube, cube_pos, turn, dice, score_x, score_o, rules, length, max_cube = parts
    x_side, o_side = _read_board(board, fail)

    def number(name: str, field: str, low: int, high: int) -> int:
        if not _INT.match(field):
            raise fail(f"{name} {field!r} is not a number")
        value = int(field)
        if not low <= value <= high:
            raise fail(f"{name} {value} is not {low} to {high}")
        return value

    cube_log = number("cube", cube, 0, _MAX_CUBE_LOG2)
    cube_position = number("cube position", cube_pos, -1, 1)
    turn_value = number("turn", turn, -1, 1)
    if turn_value == 0:
        raise fail("turn 0: the turn is 1 (X, bottom) or -1 (O, top)")
    x_on_roll = turn_value == 1
    roll: tuple[int, int] | None = None
    action = CubeAction.NONE
    if dice in ("D", "B", "R"):
        action = CubeAction(dice)
    elif dice != "00":
        if len(dice) != 2 or not all(c in "123456" for c in dice):
            raise fail(f"dice {dice!r} are not two dice 1-6, '00' (not rolled), 'D', 'B' or 'R'")
        roll = (int(dice[0]), int(dice[1]))
    match_length = number("match length", length, 0, _MAX_SCORE)
    rules_value = number("Crawford/Jacoby field", rules, 0, 1 if match_length else 3)
    scores = (
        number("X's score", score_x, 0, _MAX_SCORE),
        number("O's score", score_o, 0, _MAX_SCORE),
    )
    max_cube_log = number("max cube", max_cube, 0, 31)
    mine, theirs = (x_side, o_side) if x_on_roll else (o_side, x_side)
    pos = Position(v, mine, theirs)
    try:
        return Xgid(
            position=pos,
            x_on_roll=x_on_roll,
            cube=1 << cube_log,
            cube_position=cube_position,
            dice=roll,
            cube_action=action,
            score_x=scores[0],
            score_o=scores[1],
            match_length=match_length,
            crawford=bool(match_length and rules_value),
            jacoby=bool(not match_length and rules_value & 1),
            beavers=bool(not match_length and rules_value & 2),
            max_cube=1 << max_cube_log,
        )
    except NotationError as exc:
        raise fail(str(exc)) from None


def _read_board(board: str, fail: Callable[[str], NotationError]) -> tuple[bytes, bytes]:
    """(X's side, O's side), each in its owner's numbering, from the 26-character board."""
    if len(board) != BOARD_LENGTH:
        raise fail(f"the board {board!r} has {len(board)} characters, not {BOARD_LENGTH}")
    x = [0] * 26
    o = [0] * 26
    for i, c in enumerate(board):
        if c == "-":
            continue
        if not ("A" <= c <= "Z" or "a" <= c <= "z"):
            raise fail(f"board character {i} is {c!r}, not '-', A-O or a-o")
        count = ord(c.lower()) - ord("a") + 1
        if count > CHECKERS:
            raise fail(f"board character {i} is {c!r}: {count} checkers, but a side has {CHECKERS}")
        if c.isupper():
            if i == 0:
                raise fail(f"board character 0 is O's bar, but holds X's checkers ({c!r})")
            x[i] = count  # X's points are the board's numbering; 25 is X's bar
        else:
            if i == BOARD_LENGTH - 1:
                raise fail(f"board character 25 is X's bar, but holds O's checkers ({c!r})")
            o[BAR if i == 0 else 25 - i] = count  # O counts from the other end
    for name, side in (("X", x), ("O", o)):
        total = sum(side)
        if total > CHECKERS:
            raise fail(f"{name} has {total} checkers on the board and bar, more than {CHECKERS}")
        side[OFF] = CHECKERS - total  # XGID shows no tray: the rest are borne off
    return bytes(x), bytes(o)


def position_from_xgid(text: str, variant_name: str | Variant = "backgammon") -> Position:
    """The position, from the side on roll, of an XGID (used by ``parse_position``)."""
    return parse_xgid(text, variant_name).position


__all__ = [
    "CubeAction",
    "Xgid",
    "format_xgid",
    "parse_xgid",
    "position_from_xgid",
]
