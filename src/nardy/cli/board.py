"""A text drawing of a position, in the style of GNU Backgammon's ``show board``.

X is always the side on roll and O the opponent; the points are numbered from X's side
(13-24 along one edge, 12-1 along the other). Each point is a column three characters wide;
a stack taller than five shows four checkers and then its count. Checkers on the bar stand
in the bar column, each side's in the half where it enters. Long nardy has no bar; its two
heads (where each side's checkers start) are marked ``H`` outside the frame.

``home`` puts X's home board (points 1-6) in any corner (RULES.md 4): the drawing is
mirrored left-right and/or top-bottom, numbers, checkers and side notes alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from nardy.core import BAR, CHECKERS, OFF, Position
from nardy.core.game import Game, Phase
from nardy.notation import MatchState, encode_match_id, position_id
from nardy.notation.match_id import CubeOwner, Resignation

HOME_CORNERS = ("bottom-right", "bottom-left", "top-right", "top-left")
TALL = 5
"""Rows of checkers in each half; a taller stack shows its count in the row next to the middle."""
EMPTY = "   "


def render(
    position: Position,
    *,
    home: str = "bottom-right",
    on_roll: bool = True,
    cube: tuple[int, bool | None] | None = None,
    match_id: str | None = None,
) -> str:
    """The board of ``position`` as lines of text, X (``position``'s own side) at home in
    ``home``. ``on_roll`` False draws it for X waiting while O is on roll (a player watching
    the opponent's turn): the notes say so and the Position ID is O's, as IDs always are
    from the side on roll.

    ``cube`` (value, owned by X: True, by O: False, centred: None) draws the cube beside
    its owner's half, or beside the middle row while centred, as GNU Backgammon does;
    ``match_id`` (:func:`game_match_id`) is shown beside the Position ID, so that the two
    paste into GNU Backgammon as ``PositionID:MatchID``."""
    if home not in HOME_CORNERS:
        raise ValueError(f"home must be one of {', '.join(HOME_CORNERS)}, not {home!r}")
    v = position.variant
    mine, theirs = position.mine, v.to_mine(position.theirs)

    # X's far side (13-24, where O is at home in backgammon) and near side (12-1), each
    # listed left to right as drawn with the home board at the bottom right.
    far, near = list(range(13, 25)), list(range(12, 0, -1))
    if home.endswith("left"):
        far.reverse()
        near.reverse()
    home_on_top = home.startswith("top")

    def stacks(points: Sequence[int]) -> list[tuple[str, int]]:
        return [("X", mine[p]) if mine[p] else ("O", theirs[p]) for p in points]

    def notes(side: str) -> list[str]:
        """The side notes of X or O, from the edge of the board inwards."""
        counts = mine if side == "X" else theirs
        lines = [
            f"{side}  {_role(side == 'X', on_roll)}",
            f"{side}  off: {counts[OFF]}",
        ]
        if v.enters_from_outside:
            lines.append(f"{side}  waiting: {position.waiting(side == 'X')}")
        if cube is not None and cube[1] is not None and cube[1] == (side == "X"):
            lines.append(f"{side}  cube: {cube[0]}")
        return lines

    # A checker on the bar enters on the far side for X and on the near side for O.
    far_half = _half(stacks(far), ("X", mine[BAR]), notes("O"))
    near_half = _half(stacks(near), ("O", theirs[BAR]), notes("X"))
    top_points, bottom_points = (near, far) if home_on_top else (far, near)
    top_rows, bottom_rows = (near_half, far_half) if home_on_top else (far_half, near_half)

    # Long nardy's heads: the point where all 15 start, for X and (in X's numbering) for O.
    head = next((p for p, n in v.start_points.items() if n == CHECKERS), None)
    heads: list[int] = []
    if head is not None:
        heads = [head, *(p for p in range(1, 25) if v.opponent_point(p) == head)]

    shown_id = position_id(position if on_roll else position.swap())
    ids = f"Position ID: {shown_id}" + (f"   Match ID: {match_id}" if match_id else "")
    lines = [f" {v.name}   {ids}"]
    if heads:
        lines.append(_marks(top_points, heads))
    lines.append(_border(top_points))
    lines += top_rows
    middle = " |" + EMPTY * 6 + ("|BAR|" if v.has_bar else "|   |") + EMPTY * 6 + "|"
    if cube is not None and cube[1] is None:
        middle += f"     cube: {cube[0]} (centred)"
    lines.append(middle)
    lines += reversed(bottom_rows)
    lines.append(_border(bottom_points))
    if heads:
        lines.append(_marks(bottom_points, heads))
    pips_x, pips_o = position.pips()
    lines.append(f" Pip count  X: {pips_x}  O: {pips_o}")
    corner = home.replace("-", " ")
    role = "on roll" if on_roll else "not on roll"
    lines.append(f" X = {role} (points numbered from X's side; X's home board {corner})")
    if heads:
        lines.append(f" H = head: X's on {heads[0]}, O's on {heads[1]} (O's own {head})")
    return "\n".join(line.rstrip() for line in lines)


def game_match_id(game: Game) -> str | None:
    """The GNU Backgammon Match ID of ``game`` as it stands (cube, score, match length,
    dice, a double or resignation waiting), to go with the Position ID from the side on
    roll; None for a variant GNU Backgammon does not play, or a finished game. GNU
    Backgammon's player 1 is our player 0, the player at the bottom (as when an ID is read,
    :mod:`nardy.cli.options`)."""
    if not game.variant.gnubg_plays or game.over:
        return None
    phase = game.phase
    on_roll = game.turn
    acting = on_roll
    resigned = Resignation.NONE
    if phase in (Phase.DOUBLED, Phase.BEAVERED):
        acting = 1 - on_roll if phase is Phase.DOUBLED else on_roll
    elif phase is Phase.RESIGNED:
        pending = game.resignation()
        assert pending is not None
        acting, resigned = 1 - pending[0], Resignation(pending[1])
    cube = game.cube
    settings = game.settings
    state = MatchState(
        cube=cube.value,
        cube_owner=CubeOwner.CENTRED if cube.owner is None else CubeOwner(1 - cube.owner),
        on_roll=1 - on_roll,
        crawford=game.crawford,
        turn=1 - acting,
        doubled=phase in (Phase.DOUBLED, Phase.BEAVERED),
        resigned=resigned,
        dice=(max(game.dice), min(game.dice)) if game.dice and phase is Phase.MOVING else None,
        match_length=settings.match_length,
        score=(game.score[1], game.score[0]),
        jacoby=bool(settings.jacoby) and settings.money,
    )
    return encode_match_id(state)


def _role(is_x: bool, x_on_roll: bool) -> str:
    """The side note naming a side's part: X is "on roll" or "not on roll", O "opponent" or
    "on roll"."""
    if is_x:
        return "on roll" if x_on_roll else "not on roll"
    return "opponent" if x_on_roll else "on roll"


def _cell(side: str, count: int, level: int) -> str:
    """Row ``level`` (0 = outermost) of a stack of ``count`` checkers of ``side``."""
    if count > TALL and level == TALL - 1:
        return f"{count:>2} "
    return f" {side} " if level < count else EMPTY


def _half(stacks: list[tuple[str, int]], bar: tuple[str, int], notes: list[str]) -> list[str]:
    """The rows of one half from the edge of the board inwards; bar checkers stack from the
    middle outwards."""
    rows = []
    for level in range(TALL):
        cells = [_cell(side, n, level) for side, n in stacks]
        note = notes[level] if level < len(notes) else ""
        bar_cell = _cell(*bar, TALL - 1 - level)
        rows.append(f" |{''.join(cells[:6])}|{bar_cell}|{''.join(cells[6:])}|     {note}")
    return rows


def _border(points: Sequence[int]) -> str:
    def numbers(half: Sequence[int]) -> str:
        return "".join(f"{p:->2}-" for p in half)

    return f" +{numbers(points[:6])}-----{numbers(points[6:])}+"


def _marks(points: Sequence[int], heads: Sequence[int]) -> str:
    def cells(half: Sequence[int]) -> str:
        return "".join(" H " if p in heads else EMPTY for p in half)

    return f"  {cells(points[:6])}     {cells(points[6:])}"
