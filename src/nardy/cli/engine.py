"""``nardy engine``: the bot behind a line protocol on standard input and output.

In the spirit of chess's UCI, so that GUIs, scripts and other programs can use the bot: the
engine reads one line, writes exactly one line and flushes, until ``quit`` or the end of its
input. Every answer starts with a keyword (``move``, ``eval``, ``cube``, ``error`` …) followed
by ``key=value`` tokens; ``move``'s play comes in standard notation before them. A line that
cannot be answered gets one ``error …`` line and the engine carries on: nothing a client sends
can stop it except ``quit``. The whole protocol is in docs/engine-protocol.md.

:func:`answer` is the protocol as a pure function of one line (tests drive it in-process);
:func:`serve` is the loop over a stream; :func:`add_parser` registers ``nardy engine``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from nardy import __version__
from nardy.cli.options import die
from nardy.core import Position, Variant, variant, variants
from nardy.core.settings import Settings
from nardy.engine.cube import (
    Action,
    CubeDecision,
    CubeState,
    MatchState,
    MoneyRules,
    Owner,
    Response,
    cube_decision,
)
from nardy.engine.evaluator import Evaluator, evaluator, family
from nardy.engine.net import (
    F32,
    LOSE_BACKGAMMON,
    LOSE_GAMMON,
    WIN,
    WIN_BACKGAMMON,
    WIN_GAMMON,
    flip,
)
from nardy.engine.net import equity as cubeless_equity
from nardy.engine.neural import DEFAULT_LEVEL, LEVELS, Level, NeuralBot, level
from nardy.notation import decode_match_id, parse_position, parse_xgid, position_id
from nardy.notation.match_id import CubeOwner, GameState
from nardy.notation.xgid import PREFIX as XGID_PREFIX
from nardy.notation.xgid import CubeAction

PROTOCOL = 1
"""The protocol's version, sent in the ``id`` line; raised when an answer changes meaning."""
BYE = "bye"
"""The answer to ``quit``, the last line the engine writes."""
DOCS = "docs/engine-protocol.md"


class ProtocolError(ValueError):
    """A line the engine cannot answer: its message becomes the ``error`` line."""


# -- levels ------------------------------------------------------------------------------------


def find_level(name: str) -> Level:
    """The neural bot's level called ``name`` (case-insensitive; see ``levels``)."""
    return level(name.strip().lower())  # ValueError names the known levels


# -- reading the arguments ---------------------------------------------------------------------


def _split(args: Sequence[str], options: Iterable[str]) -> tuple[list[str], dict[str, str]]:
    """Positional arguments and ``--name value`` (or ``--name=value``) options."""
    allowed = set(options)
    positional: list[str] = []
    given: dict[str, str] = {}
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if not word.startswith("--"):
            positional.append(word)
            continue
        name, eq, value = word[2:].partition("=")
        if name not in allowed:
            known = ", ".join(f"--{o}" for o in sorted(allowed)) or "none"
            raise ProtocolError(f"unknown option {word!r} (options here: {known})")
        if not eq:
            if i == len(args):
                raise ProtocolError(f"--{name} needs a value")
            value = args[i]
            i += 1
        if name in given:
            raise ProtocolError(f"--{name} given twice")
        given[name] = value
    return positional, given


def _die(text: str) -> int:
    try:
        return die(text)
    except argparse.ArgumentTypeError as exc:
        raise ProtocolError(str(exc)) from None


def _variant(name: str) -> Variant:
    v = variant(name)  # UnknownVariantError names the known variants
    net_for(v)  # refuse a variant without a net before reading anything else
    return v


def net_for(v: Variant) -> Evaluator:
    """The shipped evaluator of ``v``, or a :class:`ProtocolError` saying there is none."""
    try:
        _, _, weights = family(v)
    except (ImportError, ValueError):
        raise ProtocolError(f"no net for {v.key}: nardy has no encoding for it yet") from None
    try:
        return evaluator(v)
    except OSError:  # the weights are not installed (yet)
        raise ProtocolError(
            f"no net for {v.key}: the weights nardy/engine/weights/{weights} are not installed"
        ) from None
    except ValueError as exc:  # a file that is not a net
        raise ProtocolError(f"no net for {v.key}: {exc}") from None


@dataclass(frozen=True, slots=True)
class Context:
    """What POSITION says, from the side on roll ("mine"): the checkers and, from a Match ID
    or an XGID, the dice, cube and score. A bare Position ID is a money game, cube centred
    at 1, not rolled."""

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
    jacoby: bool | None = None
    """The Jacoby rule in money play; None when POSITION does not say (a bare Position ID:
    RULES.md's default then applies, on wherever the variant has the rule)."""
    beavers: bool = False
    doubled: bool = False
    """The side on roll has doubled and the opponent must take or pass."""
    in_play: bool = True
    """A game is in progress (a Match ID can also show one not started or over)."""


def read_position(text: str, v: Variant) -> Context:
    """The :class:`Context` of POSITION: a Position ID, ``PositionID:MatchID`` or an XGID."""
    pos = parse_position(text, v)  # checks the whole text, Match ID included
    text = text.strip()
    parts = text.split(":")
    if text[: len(XGID_PREFIX)].upper() == XGID_PREFIX or len(parts) == 10:
        x = parse_xgid(text, v)
        return Context(
            pos,
            dice=x.dice,
            cube=x.cube,
            cube_mine=x.cube_is_mine,
            score=(x.my_score, x.their_score),
            match_length=x.match_length,
            crawford=x.crawford,
            jacoby=x.jacoby if not x.match_length else False,
            beavers=x.beavers,
            doubled=x.cube_action is not CubeAction.NONE,
        )
    if len(parts) == 2:
        m = decode_match_id(parts[1])
        # The Position ID is from the side of gnubg's player on roll (fMove), who is also the
        # doubler while a double waits for the other player's answer.
        me = m.on_roll
        owner = None if m.cube_owner is CubeOwner.CENTRED else int(m.cube_owner) == me
        return Context(
            pos,
            dice=m.dice,
            cube=m.cube,
            cube_mine=owner,
            score=(m.score[me], m.score[1 - me]),
            match_length=m.match_length,
            crawford=m.crawford,
            jacoby=m.jacoby if m.is_money else False,
            doubled=m.doubled,
            in_play=m.game_state is GameState.PLAYING,
        )
    return Context(pos)


# -- formatting --------------------------------------------------------------------------------


def _signed(x: float) -> str:
    text = f"{x:+.3f}"
    return "+0.000" if text == "-0.000" else text  # no negative zero


def _probabilities(out: F32) -> str:
    """The five cubeless probabilities and the cubeless equity, as the ``eval`` tokens."""
    names = (
        (WIN, "win"),
        (WIN_GAMMON, "wg"),
        (WIN_BACKGAMMON, "wbg"),
        (LOSE_GAMMON, "lg"),
        (LOSE_BACKGAMMON, "lbg"),
    )
    fields = [f"{name}={float(out[i]):.3f}" for i, name in names]
    eq = float(cubeless_equity(out[None, :])[0])
    return " ".join([*fields, f"equity={_signed(eq)}"])


def _one_line(text: str) -> str:
    """Protocol answers are one line whatever an error message holds."""
    return " ".join(text.split())


# -- the commands ------------------------------------------------------------------------------


def probabilities_on_roll(ev: Evaluator, pos: Position, ply: int) -> F32:
    """The five probabilities for the side on roll in ``pos``, before its roll, at ``ply``.

    At 1 ply and more this is :meth:`Evaluator.on_roll`. At 0 ply it is the net's static
    value of the position as the opponent left it (the net values positions after a play,
    and this is one, with the side on roll to roll), seen from the side on roll. A finished
    game gets its exact result.
    """
    if ply >= 1 or pos.outcome() is not None:  # on_roll values a finished game exactly
        return ev.on_roll(pos, max(ply, 1))
    ev.check(pos.variant)
    out: F32 = flip(ev.after(pos.variant, [(pos.theirs, pos.mine)], 0))[0]
    return out


def _seed(text: str | None) -> int | None:
    if text is None:
        return None
    if not text.isdigit():
        raise ProtocolError(f"a seed is a whole number, not {text!r}")
    return int(text)


def cmd_move(args: Sequence[str]) -> str:
    """``move VARIANT POSITION [D1 D2] [--level L] [--seed S]``: the play the neural bot
    chooses at level L, the Position ID it reaches (from the mover's side, and as ``next``
    from the opponent's, who is on roll next) and its cubeless equity for the mover."""
    positional, opts = _split(args, ["level", "seed"])
    if len(positional) not in (2, 4):
        raise ProtocolError(f"usage: {USAGE['move']}")
    v = _variant(positional[0])
    ctx = read_position(positional[1], v)
    if len(positional) == 4:
        dice = (_die(positional[2]), _die(positional[3]))
    elif ctx.dice is not None:
        dice = ctx.dice
    else:
        raise ProtocolError("move needs the dice: POSITION shows no roll, so give D1 D2")
    lvl = find_level(opts.get("level", DEFAULT_LEVEL))
    seed = _seed(opts.get("seed"))
    pos = ctx.position
    if pos.outcome() is not None:
        raise ProtocolError("the game is over: a side has borne off all its checkers")
    ranked = net_for(v).rank(pos, dice[0], dice[1], lvl.ply)
    # Without noise the bot plays the best play ranked (no need to rank twice); with noise it
    # draws, and only the bot knows how: ask it, at 0 ply the second ranking is cheap.
    after = NeuralBot(lvl.name, seed=seed).choose(pos, *dice) if lvl.noise else ranked[0].after
    chosen = next(c for c in ranked if c.after == after)
    play = next(p for p in pos.legal_plays(*dice) if (p.position.mine, p.position.theirs) == after)
    return (
        f"move {play if play.moves else 'none'} id={position_id(play.position)} "
        f"next={position_id(play.position.swap())} equity={_signed(chosen.equity)} "
        f"level={lvl.name}"
    )


def cmd_eval(args: Sequence[str]) -> str:
    """``eval VARIANT POSITION [--level L]``: the cubeless probabilities before the roll."""
    positional, opts = _split(args, ["level"])
    if len(positional) != 2:
        raise ProtocolError(f"usage: {USAGE['eval']}")
    v = _variant(positional[0])
    ctx = read_position(positional[1], v)
    lvl = find_level(opts.get("level", DEFAULT_LEVEL))
    out = probabilities_on_roll(net_for(v), ctx.position, lvl.ply)
    return f"eval {_probabilities(out)} level={lvl.name}"


def cube_rules(ctx: Context) -> tuple[CubeState, MoneyRules | MatchState]:
    """The cube and the game (money rules or match score) of a :class:`Context`, from the
    side on roll, as :func:`nardy.engine.cube.cube_decision` takes them."""
    owner = {None: Owner.CENTRED, True: Owner.ME, False: Owner.OPPONENT}[ctx.cube_mine]
    v = ctx.position.variant
    defaults = Settings(variant=v.key).resolve()  # what POSITION cannot say: RULES.md's
    # defaults. Long nardy has no backgammon: its wins count 1 or 2 (as NeuralBot counts).
    backgammon_value = defaults.backgammon_value if v.has_bar else 1
    if ctx.match_length:
        my_score, their_score = ctx.score
        return CubeState(ctx.cube, owner), MatchState(
            ctx.match_length,
            my_score,
            their_score,
            crawford=ctx.crawford,
            backgammon_value=backgammon_value,
        )
    # Unsaid (a bare Position ID): the Jacoby rule is on in money play wherever the variant
    # has it (RULES.md 1.5).
    jacoby = ctx.jacoby if ctx.jacoby is not None else bool(defaults.jacoby)
    rules = MoneyRules(jacoby=jacoby, beaver=ctx.beavers, backgammon_value=backgammon_value)
    return CubeState(ctx.cube, owner), rules


_ACTIONS = {
    (Action.DOUBLE, Response.TAKE): "double-take",
    (Action.DOUBLE, Response.PASS): "double-pass",
    (Action.DOUBLE, Response.BEAVER): "double-beaver",
}


def cmd_cube(args: Sequence[str]) -> str:
    """``cube VARIANT POSITION[:MATCHID] [--level L]``: the cube decision of the player on
    roll, or, with a double waiting in POSITION, the doubled player's answer. Equities are
    for the player who decides, normalised to the cube (money) or EMG (match)."""
    positional, opts = _split(args, ["level"])
    if len(positional) != 2:
        raise ProtocolError(f"usage: {USAGE['cube']}")
    v = _variant(positional[0])
    ctx = read_position(positional[1], v)
    lvl = find_level(opts.get("level", DEFAULT_LEVEL))
    pos = ctx.position
    if not ctx.in_play:
        raise ProtocolError("the Match ID shows no game in play")
    if pos.outcome() is not None:
        raise ProtocolError("the game is over: a side has borne off all its checkers")
    # The bot's cube decisions look at least one roll ahead (NeuralBot.cube_decision).
    probs = probabilities_on_roll(net_for(v), pos, max(lvl.ply, 1))
    cube, rules = cube_rules(ctx)
    money, match = (rules, None) if isinstance(rules, MoneyRules) else (None, rules)
    d = cube_decision(probs, cube, money=money, match=match, race=pos.is_race(), pips=pos.pips()[0])
    return cube_answer(d, doubled=ctx.doubled, crawford=ctx.crawford) + f" level={lvl.name}"


def cube_answer(d: CubeDecision, *, doubled: bool, crawford: bool) -> str:
    """The ``cube`` answer of a decision made for the player on roll (the doubler)."""
    mwc = {"nodouble": d.mwc_no_double, "take": d.mwc_double_take, "pass": d.mwc_double_pass}
    if doubled:  # the opponent decides: his equities are the doubler's, negated
        if d.response is None or d.double_take is None or d.double_pass is None:
            raise ProtocolError(f"no double can be offered here: {d.reason}")
        fields = [f"take={_signed(-d.double_take)}", f"pass={_signed(-d.double_pass)}"]
        if d.double_beaver is not None:
            fields.append(f"beaver={_signed(-d.double_beaver)}")
        fields += [
            f"mwc-{k}={1.0 - m:.3f}" for k, m in mwc.items() if m is not None and k != "nodouble"
        ]
        return f"cube action={d.response.value} {' '.join(fields)}"
    fields = [f"nodouble={_signed(d.no_double)}"]
    if d.action is Action.UNAVAILABLE:
        reason = "crawford" if crawford else "opponent-owns-cube"
        fields += [f"mwc-{k}={m:.3f}" for k, m in mwc.items() if m is not None]
        return f"cube action=cannot-double {' '.join(fields)} reason={reason}"
    assert d.response is not None and d.double_take is not None and d.double_pass is not None
    fields += [f"take={_signed(d.double_take)}", f"pass={_signed(d.double_pass)}"]
    if d.double_beaver is not None:
        fields.append(f"beaver={_signed(d.double_beaver)}")
    fields += [f"mwc-{k}={m:.3f}" for k, m in mwc.items() if m is not None]
    action = _ACTIONS.get((d.action, d.response))
    if action is None:
        action = "too-good" if d.action is Action.TOO_GOOD else "no-double"
    return f"cube action={action} response={d.response.value} {' '.join(fields)}"


def _no_arguments(name: str, reply: str) -> Callable[[Sequence[str]], str]:
    def command(args: Sequence[str]) -> str:
        if args:
            raise ProtocolError(f"{name} takes no arguments")
        return reply

    return command


def cmd_ping(args: Sequence[str]) -> str:
    """``ping [TOKEN …]``: ``pong`` and the same tokens, once every earlier line is answered."""
    return " ".join(["pong", *args])


def cmd_variants(args: Sequence[str]) -> str:
    """``variants``: every variant and whether the engine has a net for it."""
    if args:
        raise ProtocolError("variants takes no arguments")
    fields = []
    for v in variants():
        try:
            net_for(v)
            state = "ready"
        except ProtocolError:
            state = "no-net"
        fields.append(f"{v.key}={state}")
    return "variants " + " ".join(fields)


def cmd_levels(args: Sequence[str]) -> str:
    """``levels``: the default level, then each level as ``NAME=PLY:NOISE``, weakest first."""
    if args:
        raise ProtocolError("levels takes no arguments")
    fields = [f"{lvl.name}={lvl.ply}:{lvl.noise:.3f}" for lvl in LEVELS.values()]
    return f"levels default={DEFAULT_LEVEL} " + " ".join(fields)


USAGE = {
    "hello": "hello",
    "nardy": "nardy",
    "ping": "ping [TOKEN ...]",
    "variants": "variants",
    "levels": "levels",
    "move": "move VARIANT POSITION [D1 D2] [--level L] [--seed S]",
    "eval": "eval VARIANT POSITION [--level L]",
    "cube": "cube VARIANT POSITION[:MATCHID] [--level L]",
    "help": "help [COMMAND]",
    "quit": "quit",
}
"""One line of usage per command, for ``help COMMAND``."""


def cmd_help(args: Sequence[str]) -> str:
    """``help``: the commands; ``help COMMAND``: its usage."""
    if not args:
        return f"help commands={','.join(USAGE)} docs={DOCS}"
    if len(args) == 1 and args[0].lower() in USAGE:
        return f"help {USAGE[args[0].lower()]}"
    raise ProtocolError(f"help takes one of {', '.join(USAGE)}")


IDENTITY = f"id name=nardy version={__version__} protocol={PROTOCOL}"

COMMANDS: dict[str, Callable[[Sequence[str]], str]] = {
    "hello": _no_arguments("hello", IDENTITY),
    "nardy": _no_arguments("nardy", IDENTITY),
    "ping": cmd_ping,
    "variants": cmd_variants,
    "levels": cmd_levels,
    "move": cmd_move,
    "eval": cmd_eval,
    "cube": cmd_cube,
    "help": cmd_help,
    "quit": _no_arguments("quit", BYE),
}


def answer(line: str) -> str:
    """The engine's one-line answer to one line of input (without its line end).

    A line without a command (blank, or only a ``#`` comment) is answered by itself, stripped,
    so that answers stay line for line with the input; text from a ``#`` on is a comment.
    Never raises on any input: bad input, and even a bug, become one ``error …`` line.
    """
    text = line.strip()
    if not text or text.startswith("#"):
        return _one_line(text)
    words = text.partition("#")[0].split()
    name = words[0].lower()
    command = COMMANDS.get(name)
    if command is None:
        return _one_line(f"error unknown command {words[0]!r} (try 'help')")
    try:
        return _one_line(command(words[1:]))
    except ValueError as exc:  # ProtocolError and every nardy error (NardyError is one)
        return _one_line(f"error {exc}")
    except Exception as exc:  # a bug, not the client's fault: still one line, and carry on
        return _one_line(f"error internal {type(exc).__name__}: {exc}")


def serve(lines: Iterable[str], out: TextIO) -> int:
    """Answer every line of ``lines`` on ``out``, flushing after each, until ``quit`` or the
    end of the input. Returns the exit status (0)."""
    for line in lines:
        reply = answer(line)
        out.write(reply + "\n")
        out.flush()  # a client waits for each answer before it sends the next line
        if reply == BYE:
            break
    return 0


# -- the command line --------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    """``nardy engine``: serve standard input on standard output."""
    del args
    # Undecodable bytes must become an error line, not a UnicodeDecodeError that ends the
    # engine; and an answer echoing them must be writable whatever the locale.
    for stream in (sys.stdin, sys.stdout):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="replace")
    try:
        return serve(sys.stdin, sys.stdout)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The client went away: nobody is left to answer. Point stdout at nothing so that
        # the interpreter's last flush does not complain about the pipe either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def add_parser(subparsers: Any) -> None:
    """Register ``nardy engine``."""
    parser = subparsers.add_parser(
        "engine",
        help="serve the bot over a line protocol on standard input/output",
        description="Read commands from standard input, one a line, and answer each with "
        "exactly one line on standard output (move, eval, cube, levels, variants, ping, "
        f"help, quit): a UCI-like protocol for GUIs and scripts, described in {DOCS}.",
    )
    parser.set_defaults(handler=run)


if __name__ == "__main__":
    sys.exit(run(argparse.Namespace()))
