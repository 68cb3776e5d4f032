"""A position with what GNU Backgammon's IDs say around it: the cube, the score, the match,
the dice and who is on roll (NOTATION.md).

A Position ID gives the checkers only. ``PositionID:MatchID`` and an XGID also give the
cube (value and owner), the score and match length, the Crawford flag, the dice rolled, a
double (or an eXtreme Gammon beaver or raccoon) waiting for an answer, a resignation on
offer and, for a Match ID, whether the game is under way. :func:`read_context` reads any of
the three into one :class:`Context`, from the side on roll as the Position ID is, so that
every command that takes a position (``nardy show``, ``moves``, ``play --position``, ``hint``,
the engine) reads it the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from nardy.core import NotationError, Position, Variant
from nardy.notation.match_id import (
    CubeOwner,
    GameState,
    MatchState,
    Resignation,
    decode_match_id,
)
from nardy.notation.position_text import parse_position
from nardy.notation.xgid import CubeAction, parse_xgid


@dataclass(frozen=True, slots=True)
class Context:
    """What a position text says, from the side on roll ("mine"): the checkers and, from a
    Match ID or an XGID, the dice, cube, score and match. A bare Position ID is a money game
    about to be rolled, the cube centred at 1, with the player at the bottom on roll."""

    position: Position
    dice: tuple[int, int] | None = None
    """The roll shown, if any."""
    cube: int = 1
    """The cube's value (with a double pending, its value before the double)."""
    cube_mine: bool | None = None
    """True if the side on roll owns the cube, False if the opponent does, None: centred."""
    score: tuple[int, int] = (0, 0)
    """(the side on roll's score, the opponent's)."""
    match_length: int = 0
    """Points needed to win the match; 0 is money play."""
    crawford: bool = False
    """This game is the Crawford game (no doubling)."""
    jacoby: bool | None = None
    """The Jacoby rule in money play; None when the text does not say (a bare Position ID:
    the variant's default then applies). Always False in a match."""
    beavers: bool = False
    """Beavers are allowed (an XGID's own setting; a Match ID cannot say)."""
    cube_action: str = ""
    """What is pending, as an XGID writes it: "D" doubled, "B" beavered, "R" raccooned."""
    on_roll: int = 1
    """The player on roll as GNU Backgammon numbers them: 1 is the player at the bottom
    (XGID's X), 0 the one at the top."""
    turn: int = 1
    """The player who must act now, numbered as :attr:`on_roll`: the player on roll, except
    while a double or a resignation waits for the other player's answer."""
    resigned: Resignation = Resignation.NONE
    """A resignation on offer in a Match ID, waiting for an answer."""
    game_state: GameState = GameState.PLAYING
    """Whether the game is under way (a Match ID can also show one not started, or over)."""

    @property
    def doubled(self) -> bool:
        """The side on roll has doubled (or a beaver is pending) and waits for the answer."""
        return self.cube_action != ""

    @property
    def in_play(self) -> bool:
        """A game is under way."""
        return self.game_state is GameState.PLAYING

    def match_state(self) -> MatchState:
        """What a Match ID says of this context, players numbered as GNU Backgammon numbers
        them (:attr:`on_roll`); a bare Position ID gives a money game, the bottom player on
        roll. Raises :class:`~nardy.core.NotationError` for an XGID's beaver or raccoon,
        which a Match ID cannot hold (GNU Backgammon refuses them too)."""
        if self.cube_action in (CubeAction.BEAVERED.value, CubeAction.RACCOONED.value):
            pending = CubeAction(self.cube_action).name.lower()
            raise NotationError(f"a Match ID cannot express XGID's {pending} cube")
        me = self.on_roll
        owner = {None: CubeOwner.CENTRED, True: CubeOwner(me), False: CubeOwner(1 - me)}
        return MatchState(
            cube=self.cube,
            cube_owner=owner[self.cube_mine],
            on_roll=me,
            crawford=self.crawford,
            game_state=self.game_state,
            turn=self.turn,
            doubled=self.doubled,
            resigned=self.resigned,
            dice=self.dice,
            match_length=self.match_length,
            score=(self.score[1], self.score[0]) if me else self.score,
            jacoby=bool(self.jacoby),
        )


def read_context(text: str, variant: Variant | str = "backgammon") -> Context:
    """The :class:`Context` of a Position ID, ``PositionID:MatchID`` or XGID of ``variant``.

    Raises :class:`~nardy.core.NotationError` naming what does not read."""
    text = text.strip()
    position = parse_position(text, variant)  # checks the whole text, the Match ID included
    parts = text.split(":")
    if len(parts) > 2:  # read as an XGID: a Position ID has at most one ':'
        x = parse_xgid(text, variant)
        x_player = 1 if x.x_on_roll else 0  # gnubg's player 1 is XGID's X
        pending = x.cube_action is not CubeAction.NONE  # the other player answers
        return Context(
            position,
            dice=x.dice,
            cube=x.cube,
            cube_mine=x.cube_is_mine,
            score=(x.my_score, x.their_score),
            match_length=x.match_length,
            crawford=x.crawford,
            jacoby=x.jacoby if not x.match_length else False,
            beavers=x.beavers,
            cube_action=x.cube_action.value,
            on_roll=x_player,
            turn=1 - x_player if pending else x_player,
        )
    if len(parts) == 2:
        m = decode_match_id(parts[1].strip())
        # The Position ID is from the side of gnubg's player on roll (fMove), who is also the
        # doubler while a double waits for the other player's answer.
        me = m.on_roll
        owner = None if m.cube_owner is CubeOwner.CENTRED else int(m.cube_owner) == me
        return Context(
            position,
            dice=m.dice,
            cube=m.cube,
            cube_mine=owner,
            score=(m.score[me], m.score[1 - me]),
            match_length=m.match_length,
            crawford=m.crawford,
            jacoby=m.jacoby if m.is_money else False,
            cube_action=CubeAction.DOUBLED.value if m.doubled else "",
            on_roll=me,
            turn=m.turn,
            resigned=m.resigned,
            game_state=m.game_state,
        )
    return Context(position)
