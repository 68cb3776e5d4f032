"""The game settings as command-line flags, shared by ``nardy play`` and ``nardy selfplay``.

Every flag carries its RULES.md name (``--backgammon-value``, ``--first-move-in-series``…)
and defaults to "not given", so :class:`~nardy.core.settings.Settings` fills in the
variant's own default and checks the whole combination (a Jacoby match is refused with the
reason). ``--match N`` plays a match to N points; ``--money`` (the default) is money play, or
an unlimited series in long nardy. :func:`describe_settings` says them back in words.

``nardy play`` also starts a game from a chosen position (RULES.md 4): ``--position`` (a
Position ID, ``PositionID:MatchID`` or an XGID), ``--turn``, ``--dice``, ``--cube
VALUE[:OWNER]`` and ``--score``, read by :func:`start_from_args` into a
:class:`~nardy.core.setup.Start`. Players are numbered as in the game: 0 is the first seat
(You, or Player 1), 1 the second.
"""

from __future__ import annotations

import argparse
from typing import Any

from nardy.core import NotationError, variants
from nardy.core.settings import ENDINGS, FIRST_MOVES, OPENINGS, Settings
from nardy.core.setup import Start
from nardy.notation import MatchState
from nardy.notation.context import Context, read_context
from nardy.notation.match_id import CubeOwner, GameState, Resignation


def _count(text: str) -> int:
    """A whole number of zero or more (points, minutes, doubles)."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}")
    return int(text)


def _length(text: str) -> int:
    """A match length: one point or more."""
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError("a match is played to 1 point or more")
    return value


def seed(text: str) -> int | str:
    """A seed for the dice (and random bots): a number, or any other text."""
    return int(text) if text.isdigit() else text


def die(text: str) -> int:
    """A die's number from the command line (argparse's ``type``)."""
    if not (text.isdigit() and 1 <= int(text) <= 6):
        raise argparse.ArgumentTypeError(f"a die is 1-6, not {text!r}")
    return int(text)


def _start_cube(text: str) -> tuple[int, int | None]:
    """``VALUE[:OWNER]``: a cube value (a power of two) and its owner, 0 or 1 (centred
    without one)."""
    value, colon, owner = text.partition(":")
    if not value.isdigit() or int(value) < 1 or int(value) & (int(value) - 1):
        raise argparse.ArgumentTypeError(f"a cube value is 1, 2, 4, 8…, not {value!r}")
    if not colon:
        return int(value), None
    if owner not in ("0", "1"):
        raise argparse.ArgumentTypeError(f"the cube's owner is player 0 or 1, not {owner!r}")
    if int(value) == 1:
        raise argparse.ArgumentTypeError("a cube on 1 is centred: it has no owner yet")
    return int(value), int(owner)


def _score(text: str) -> tuple[int, int]:
    """``A-B``: the points of players 0 and 1."""
    a, dash, b = text.partition("-")
    if not (dash and a.isdigit() and b.isdigit()):
        raise argparse.ArgumentTypeError(f"expected a score A-B such as 2-4, not {text!r}")
    return int(a), int(b)


class _StartCube(argparse.Action):
    """``--cube [VALUE[:OWNER]]``: the cube on and, with a value, the cube at the start of a
    game from a chosen position (``start_cube``)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, True)
        if values is not None:
            namespace.start_cube = values


def add_settings_arguments(parser: argparse.ArgumentParser, *, start: bool = False) -> None:
    """Add ``--variant``, ``--match N`` / ``--money`` and every game setting to ``parser``;
    with ``start``, also the flags of a game from a chosen position (:class:`Start`)."""
    names = ", ".join(sorted(v.key for v in variants()))
    parser.add_argument(
        "--variant", default="backgammon", help=f"the game: {names} (default backgammon)"
    )
    length = parser.add_mutually_exclusive_group()
    length.add_argument(
        "--match", type=_length, metavar="N", dest="match_length", help="a match to N points"
    )
    length.add_argument(
        "--money",
        action="store_const",
        const=0,
        dest="match_length",
        help="money play, or an unlimited series in long nardy (the default)",
    )
    group = parser.add_argument_group("game settings (nardy rules 5; default: the variant's)")
    flag = argparse.BooleanOptionalAction
    group.add_argument("--crawford", action=flag, help="the Crawford rule in a match (on)")
    if start:
        group.add_argument(
            "--cube",
            action=_StartCube,
            nargs="?",
            type=_start_cube,
            metavar="VALUE[:OWNER]",
            help="the doubling cube (on in backgammon); with VALUE[:OWNER], also the cube at "
            "the start of a game from a chosen position (2:0 = on 2, owned by player 0)",
        )
        group.add_argument("--no-cube", dest="cube", action="store_false", help="no cube")
    else:
        group.add_argument("--cube", action=flag, help="the doubling cube (on in backgammon)")
    group.add_argument("--beaver", action=flag, help="beavers in money play (off)")
    group.add_argument("--jacoby", action=flag, help="the Jacoby rule (on in money play)")
    group.add_argument(
        "--automatic-doubles",
        type=_count,
        metavar="N",
        help="money play: at most N automatic doubles a game on equal opening dice (0 = off)",
    )
    group.add_argument(
        "--backgammon-value", type=int, choices=(2, 3), help="what a backgammon counts (3)"
    )
    group.add_argument("--opening", choices=OPENINGS, help="the first player's opening roll")
    group.add_argument(
        "--first-move-in-series",
        choices=FIRST_MOVES,
        help="long nardy: who starts the next game (loser)",
    )
    group.add_argument("--ending", choices=ENDINGS, help="long nardy: whether a mars counts 2")
    group.add_argument(
        "--last-roll", action=flag, help="long nardy: the second player's last roll (off)"
    )
    group.add_argument(
        "--limit-points",
        type=_count,
        metavar="N",
        help="money play: end the session at a difference of N points",
    )
    group.add_argument(
        "--limit-minutes",
        type=_count,
        metavar="N",
        help="money play: end the session after N minutes",
    )
    if start:
        _add_start_arguments(parser)


def _add_start_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "a game from a chosen position (rules 4; players 0 = You / Player 1, 1 = Bot / Player 2)"
    )
    group.add_argument(
        "--position",
        metavar="POSITION",
        help="a Position ID (from the side on roll), PositionID:MatchID or an XGID; the dice, "
        "cube, score, match length and player on roll of a Match ID or XGID are used unless "
        "the flags below say otherwise",
    )
    group.add_argument(
        "--turn", type=int, choices=(0, 1), help="the player on roll (default: the ID's, else 0)"
    )
    group.add_argument(
        "--dice",
        type=die,
        nargs=2,
        metavar=("D1", "D2"),
        help="the dice the player on roll has to play (default: the ID's, else a roll)",
    )
    group.add_argument(
        "--score",
        type=_score,
        metavar="A-B",
        help="the score of players 0 and 1 when the game starts (default: the ID's, or 0-0)",
    )
    parser.set_defaults(start_cube=None)


_SETTING_FLAGS = (
    "crawford",
    "cube",
    "beaver",
    "jacoby",
    "automatic_doubles",
    "backgammon_value",
    "opening",
    "first_move_in_series",
    "ending",
    "last_roll",
    "limit_points",
    "limit_minutes",
)


def settings_from_args(args: argparse.Namespace, start: Start | None = None) -> Settings:
    """The checked settings that the flags name (a chosen ``start`` from a Match ID or XGID
    gives the match length where neither ``--match`` nor ``--money`` does); raises
    :class:`~nardy.core.settings.SettingsError` (or ``UnknownVariantError``) saying why a
    combination is not allowed."""
    given = {name: getattr(args, name) for name in _SETTING_FLAGS}
    chosen: dict[str, Any] = {name: value for name, value in given.items() if value is not None}
    length = args.match_length
    if length is None and start is not None:
        length = start.match_length
    return Settings(variant=args.variant, match_length=length or 0, **chosen).resolve()


def describe_settings(settings: Settings) -> str:
    """The settings that shape play, in words, for the header of a session: ``Jacoby on,
    beavers off, no automatic doubles, no limit``."""
    rules = settings.rules
    said = []
    if not settings.cube:
        said.append("no cube")
    elif settings.money:
        doubles = settings.automatic_doubles
        said += [
            f"Jacoby {_on(bool(settings.jacoby))}" if "jacoby" in rules.own_settings else "",
            f"beavers {_on(settings.beaver)}",
            f"automatic doubles up to {doubles} a game" if doubles else "no automatic doubles",
        ]
    else:
        said.append(f"Crawford rule {_on(settings.crawford)}")
    if settings.money:
        limits = []
        if settings.limit_points:
            limits.append(f"a difference of {settings.limit_points} points")
        if settings.limit_minutes:
            limits.append(f"{settings.limit_minutes} minutes")
        said.append(f"ends at {' or '.join(limits)}" if limits else "no limit")
    own = rules.own_settings
    if "backgammon-value" in own and settings.backgammon_value != 3:
        said.append(f"a backgammon counts {settings.backgammon_value}")
    if "opening" in own and settings.opening == "reroll":
        said.append("the first player rolls afresh")
    if "ending" in own:
        said.append("a mars counts 2" if settings.ending == "mars" else "every game counts 1 (oin)")
    if "last-roll" in own:
        said.append(f"last roll {_on(settings.last_roll)}")
    if "first-move-in-series" in own:
        loser = settings.first_move_in_series == "loser"
        said.append(
            "the loser starts the next game" if loser else "the players take turns to start a game"
        )
    return ", ".join(s for s in said if s)


def _on(value: bool) -> str:
    return "on" if value else "off"


# -- a game from a chosen position (RULES.md 4) --------------------------------------------------


_NO_ID = MatchState(on_roll=1, turn=1)
"""What a bare Position ID says of the game around it: nothing, the user on roll."""


def start_from_args(args: argparse.Namespace) -> Start | None:
    """The chosen start that ``--position``, ``--turn``, ``--dice``, ``--cube VALUE[:OWNER]``
    and ``--score`` name, or None where none is given. The flags win over the fields of a
    Match ID or XGID. Raises :class:`~nardy.core.NardyError` (a position that cannot be
    read) saying why."""
    chosen = (args.position, args.turn, args.dice, args.start_cube, args.score)
    if all(value is None for value in chosen):
        return None
    position, state = None, _NO_ID
    if args.position is not None:
        context = read_context(args.position, args.variant)
        position, state = context.position, _match_state(context)
    # gnubg's player 1 (XGID's X), the one at the bottom, is the user: our player 0.
    notes = []
    score = (state.score[1], state.score[0]) if args.score is None else tuple(args.score)
    # A player one point away without the Crawford flag: the Crawford game has been played.
    away = state.match_length - 1
    crawford_played = args.score is None and away in state.score and not state.crawford
    if state.resigned != Resignation.NONE:
        notes.append("the resignation offered in the ID is not carried over")
    owner = None if state.cube_owner == CubeOwner.CENTRED else 1 - int(state.cube_owner)
    return Start(
        position,
        1 - state.on_roll if args.turn is None else args.turn,
        state.dice if args.dice is None else (args.dice[0], args.dice[1]),
        args.start_cube or (state.cube, owner),
        state.doubled and args.dice is None,
        state.match_length,
        tuple(notes),
        (score[0], score[1]),
        crawford_played,
    )


def _match_state(context: Context) -> MatchState:
    """What the Match ID or XGID of a chosen start says in a Match ID's terms (a bare
    Position ID: nothing, the user on roll)."""
    try:
        state = context.match_state()
    except NotationError as exc:
        raise NotationError(f"cannot start a game from this XGID: {exc}") from None
    if state.game_state not in (GameState.NONE, GameState.PLAYING):
        raise NotationError("the Match ID shows a finished game: there is nothing to play")
    return state
