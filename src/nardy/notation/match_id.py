"""GNU Backgammon Match ID: the cube, the score and whose turn it is, in 12 characters.

The ID is 9 bytes (72 bits) written in base64 without padding. Bits are numbered from the
least significant bit of the first byte; each field is stored least significant bit first:

=====  ====  ==============================================================================
bits   size  field
=====  ====  ==============================================================================
0-3    4     cube value, as its base-2 logarithm (0 = 1, 1 = 2, … 15 = 32768)
4-5    2     cube owner: 0 = player 0, 1 = player 1, 3 = centred
6      1     player on roll (gnubg's ``fMove``): the player whose roll it is
7      1     Crawford: this game is the Crawford game
8-10   3     game state: 0 no game, 1 playing, 2 over, 3 resigned, 4 ended by a dropped double
11     1     turn (gnubg's ``fTurn``): the player who must act now
12     1     doubled: a double has been offered and awaits an answer
13-14  2     resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15-17  3     first die (0 = not rolled); gnubg writes the larger die first
18-20  3     second die
21-35  15    match length (0 = money play)
36-50  15    score of player 0
51-65  15    score of player 1
66     1     Jacoby rule NOT in force (gnubg writes ``!fJacoby``)
67-71  5     unused, zero
=====  ====  ==============================================================================

Bit 66 (the 67th) is the one GNU Backgammon's manual leaves out: gnubg's ``MatchID()`` sets it
to ``!fJacoby``, and in match play gnubg's match state has ``fJacoby`` off, so gnubg writes
the manual's example ``QYkqASAAIAAA`` as ``QYkqASAAIAAE``. Both decode here; the first says
"Jacoby on", the second "Jacoby off", and each encodes back to itself.

Players are gnubg's: player 1 is the one gnubg draws at the bottom (the user), player 0 the
other. XGID's bottom player X is gnubg's player 1 (see :mod:`nardy.notation.xgid`).
"""

from __future__ import annotations

import base64
import enum
from dataclasses import dataclass

from nardy.core import NotationError

MATCH_ID_LENGTH = 12
MAX_FIELD = (1 << 15) - 1
"""The largest match length or score that the 15-bit fields hold."""
MAX_CUBE = 1 << 15
"""The largest cube value that the 4-bit logarithm holds."""
_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


class CubeOwner(enum.IntEnum):
    """Who holds the cube; the values are the 2-bit field as gnubg writes it."""

    PLAYER_0 = 0
    PLAYER_1 = 1
    CENTRED = 3


class GameState(enum.IntEnum):
    """Where the current game stands (gnubg's ``gamestate``)."""

    NONE = 0
    """No game started yet (a new match or session)."""
    PLAYING = 1
    """A game is in progress."""
    OVER = 2
    """The game ended by bearing off; the score already includes it."""
    RESIGNED = 3
    """The game ended by an accepted resignation."""
    DROPPED = 4
    """The game ended by a dropped (passed) double."""


class Resignation(enum.IntEnum):
    """A resignation on offer: how much the resigning player offers to lose, per cube."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


_FINISHED = frozenset({GameState.OVER, GameState.RESIGNED, GameState.DROPPED})


@dataclass(frozen=True, slots=True)
class MatchState:
    """Every field of a GNU Backgammon Match ID, validated on construction.

    Players are numbered as gnubg numbers them (0 and 1). Construction raises
    :class:`~nardy.core.NotationError` naming the first field that is out of range or that
    contradicts another (see :func:`validate_score` for the score rules).
    """

    cube: int = 1
    """The cube value: 1, 2, 4, … 32768 (a centred cube above 1 follows automatic doubles)."""
    cube_owner: CubeOwner = CubeOwner.CENTRED
    """Who may double next: the owner, or either player while the cube is centred."""
    on_roll: int = 0
    """The player whose turn it is to roll (or who has rolled ``dice``): 0 or 1."""
    crawford: bool = False
    """This game is the Crawford game: a player is one point from winning the match and
    the cube may not be used this game (match play only)."""
    game_state: GameState = GameState.PLAYING
    """Whether a game is in progress, and how the last one ended."""
    turn: int = 0
    """The player who must act now: the player on roll, except while a double or a
    resignation waits for the opponent's answer."""
    doubled: bool = False
    """A double (or beaver) has been offered and not yet taken or passed."""
    resigned: Resignation = Resignation.NONE
    """A resignation on offer, waiting for ``turn`` to accept or reject it."""
    dice: tuple[int, int] | None = None
    """The dice rolled, larger first as gnubg stores them; None before the roll."""
    match_length: int = 0
    """Points needed to win the match; 0 is money play (a session of single games)."""
    score: tuple[int, int] = (0, 0)
    """Points won so far by player 0 and player 1."""
    jacoby: bool = False
    """The Jacoby rule is in force (money play: gammons count single until the cube is
    turned). gnubg's match states have it off, so False gives gnubg's IDs in match play."""

    def __post_init__(self) -> None:
        set_ = object.__setattr__  # frozen: normalise through the back door, once
        try:
            set_(self, "cube_owner", CubeOwner(self.cube_owner))
        except ValueError:
            raise NotationError(
                f"cube owner {self.cube_owner!r} is not 0 (player 0), 1 (player 1) or 3 (centred)"
            ) from None
        try:
            set_(self, "game_state", GameState(self.game_state))
        except ValueError:
            raise NotationError(
                f"game state {self.game_state!r} is not 0-4 "
                "(none, playing, over, resigned, dropped)"
            ) from None
        try:
            set_(self, "resigned", Resignation(self.resigned))
        except ValueError:
            raise NotationError(
                f"resignation {self.resigned!r} is not 0-3 (none, single, gammon, backgammon)"
            ) from None
        for name in ("crawford", "doubled", "jacoby"):
            value = getattr(self, name)
            if value not in (0, 1):  # True and False are 1 and 0
                raise NotationError(f"{name} must be True or False, not {value!r}")
            set_(self, name, bool(value))
        for name in ("on_roll", "turn"):
            if getattr(self, name) not in (0, 1):
                raise NotationError(f"{name} must be player 0 or 1, not {getattr(self, name)!r}")
        if not _is_int(self.cube) or not 1 <= self.cube <= MAX_CUBE:
            raise NotationError(f"cube value {self.cube!r} is not 1-{MAX_CUBE}")
        if self.cube & (self.cube - 1):
            raise NotationError(f"cube value {self.cube} is not a power of two")
        if self.dice is not None:
            if len(self.dice) != 2 or not all(_is_int(d) and 1 <= d <= 6 for d in self.dice):
                raise NotationError(f"dice {self.dice!r} are not two dice of 1-6")
            # gnubg's MatchID() writes the larger die first; storing them so keeps
            # decode(encode(state)) == state.
            set_(self, "dice", (max(self.dice), min(self.dice)))
        if not _is_int(self.match_length) or not 0 <= self.match_length <= MAX_FIELD:
            raise NotationError(f"match length {self.match_length!r} is not 0-{MAX_FIELD}")
        if len(self.score) != 2 or not all(_is_int(s) and 0 <= s <= MAX_FIELD for s in self.score):
            raise NotationError(f"score {self.score!r} is not two numbers 0-{MAX_FIELD}")
        set_(self, "score", tuple(self.score))
        finished = self.game_state in _FINISHED
        validate_score(self.match_length, self.score, self.crawford, finished=finished)
        if self.crawford and (self.cube != 1 or self.cube_owner != CubeOwner.CENTRED):
            where = (
                "centred"
                if self.cube_owner == CubeOwner.CENTRED
                else f"owned by player {int(self.cube_owner)}"
            )
            raise NotationError(
                f"the cube is out of play in the Crawford game (1, centred), but it is on "
                f"{self.cube}, {where}"
            )
        if self.crawford and self.doubled:
            raise NotationError("no double can be offered in the Crawford game")
        if self.doubled and self.dice is not None:
            raise NotationError(f"a double is offered before rolling, but dice {self.dice} show")
        if (
            self.game_state == GameState.PLAYING
            and not self.doubled
            and self.resigned == Resignation.NONE
            and self.turn != self.on_roll
        ):
            raise NotationError(
                f"turn is player {self.turn} but player {self.on_roll} is on roll, "
                "with no double or resignation waiting for an answer"
            )

    @property
    def is_money(self) -> bool:
        """True for money play (no match length)."""
        return self.match_length == 0


def validate_score(
    match_length: int, score: tuple[int, int], crawford: bool, *, finished: bool
) -> None:
    """Raise :class:`NotationError` unless a score can stand in this kind of play.

    Money play has no Crawford game (gnubg refuses one too). In a match, while a game is to
    be played or in play, both scores are below the match length; once a game is over, the
    winner's score may reach or pass it (gnubg adds the points won without a cap) but only
    one player can have won. The Crawford game, in play, is the game right after one player
    reaches one point short of the match, so exactly one score is ``match_length - 1``.
    """
    if match_length == 0:
        if crawford:
            raise NotationError("money play has no Crawford game")
        return
    won = [s for s in score if s >= match_length]
    if finished:
        if len(won) == 2:
            raise NotationError(
                f"both scores {score[0]}-{score[1]} reach the match length {match_length}"
            )
        return
    if won:
        raise NotationError(
            f"score {score[0]}-{score[1]}: a player has already won the {match_length}-point "
            "match, so no game can be in play"
        )
    if crawford and sorted(score)[1] != match_length - 1:
        raise NotationError(
            f"the Crawford game needs a player at {match_length - 1} in a {match_length}-point "
            f"match, not {score[0]}-{score[1]}"
        )
    if crawford and sorted(score)[0] == match_length - 1:
        raise NotationError(
            f"at {score[0]}-{score[1]} both players need one point: the Crawford game "
            "is over (a 1-point match has none)"
        )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# (first bit, width) of each field, in the order of the ID.
_CUBE = (0, 4)
_OWNER = (4, 2)
_ON_ROLL = (6, 1)
_CRAWFORD = (7, 1)
_STATE = (8, 3)
_TURN = (11, 1)
_DOUBLED = (12, 1)
_RESIGNED = (13, 2)
_DIE_1 = (15, 3)
_DIE_2 = (18, 3)
_LENGTH = (21, 15)
_SCORE_0 = (36, 15)
_SCORE_1 = (51, 15)
_NO_JACOBY = (66, 1)
_USED_BITS = 67


def encode_match_id(state: MatchState) -> str:
    """The 12-character Match ID of ``state``, bit for bit as GNU Backgammon writes it.

    >>> encode_match_id(MatchState(cube=2, cube_owner=CubeOwner.PLAYER_0, on_roll=1, turn=1,
    ...                            dice=(5, 2), match_length=9, score=(2, 4)))
    'QYkqASAAIAAE'
    """
    d1, d2 = state.dice or (0, 0)
    fields = (
        (_CUBE, state.cube.bit_length() - 1),
        (_OWNER, state.cube_owner),
        (_ON_ROLL, state.on_roll),
        (_CRAWFORD, state.crawford),
        (_STATE, state.game_state),
        (_TURN, state.turn),
        (_DOUBLED, state.doubled),
        (_RESIGNED, state.resigned),
        (_DIE_1, d1),
        (_DIE_2, d2),
        (_LENGTH, state.match_length),
        (_SCORE_0, state.score[0]),
        (_SCORE_1, state.score[1]),
        (_NO_JACOBY, not state.jacoby),
    )
    bits = 0
    for (start, _width), value in fields:
        bits |= int(value) << start
    return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchState:
    """The :class:`MatchState` of a 12-character Match ID.

    Raises :class:`NotationError` naming what is wrong: the length, a character outside
    base64, a field out of range (a die of 7, a game state above 4, cube owner 2, bits set
    past bit 66) or fields that contradict each other (a score past the match length while a
    game is in play, a Crawford game in money play…).

    >>> decode_match_id("QYkqASAAIAAA").jacoby, decode_match_id("QYkqASAAIAAE").jacoby
    (True, False)
    """
    text = text.strip()
    if len(text) != MATCH_ID_LENGTH:
        raise NotationError(
            f"{text!r} is not a Match ID: expected {MATCH_ID_LENGTH} characters, got {len(text)}"
        )
    bad = sorted(set(text) - _ALPHABET)
    if bad:
        raise NotationError(
            f"{text!r} is not a Match ID: {''.join(bad)!r} not in base64 (A-Z a-z 0-9 + /)"
        )
    bits = int.from_bytes(base64.b64decode(text), "little")

    def field(spec: tuple[int, int]) -> int:
        start, width = spec
        return (bits >> start) & ((1 << width) - 1)

    def fail(reason: str) -> NotationError:
        return NotationError(f"Match ID {text!r}: {reason}")

    if bits >> _USED_BITS:
        raise fail(f"bits above bit {_USED_BITS - 1} are set; GNU Backgammon leaves them zero")
    owner = field(_OWNER)
    if owner == 2:
        raise fail("cube owner field is 2; gnubg writes 0 (player 0), 1 (player 1), 3 (centred)")
    state = field(_STATE)
    if state > GameState.DROPPED:
        raise fail(f"game state {state} is not 0-4 (none, playing, over, resigned, dropped)")
    d1, d2 = field(_DIE_1), field(_DIE_2)
    for die in (d1, d2):
        if die > 6:
            raise fail(f"a die of {die}; dice are 1-6 (0 = not rolled)")
    if (d1 == 0) != (d2 == 0):
        raise fail(f"dice {d1} and {d2}: either both are rolled or neither")
    try:
        return MatchState(
            cube=1 << field(_CUBE),
            cube_owner=CubeOwner(owner),
            on_roll=field(_ON_ROLL),
            crawford=bool(field(_CRAWFORD)),
            game_state=GameState(state),
            turn=field(_TURN),
            doubled=bool(field(_DOUBLED)),
            resigned=Resignation(field(_RESIGNED)),
            dice=(d1, d2) if d1 else None,
            match_length=field(_LENGTH),
            score=(field(_SCORE_0), field(_SCORE_1)),
            jacoby=not field(_NO_JACOBY),
        )
    except NotationError as exc:
        raise fail(str(exc)) from None


__all__ = [
    "MATCH_ID_LENGTH",
    "CubeOwner",
    "GameState",
    "MatchState",
    "Resignation",
    "decode_match_id",
    "encode_match_id",
    "validate_score",
]
