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
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, TextIO

from nardy import __version__
from nardy.cli.options import die
from nardy.core import NotationError, Variant, scoring, variant, variants
from nardy.core.settings import Settings
from nardy.engine.analysis import cube_action_key, cube_analysis, evaluate
from nardy.engine.cube import (
    CUBE_AT_LIMIT,
    DEAD_CUBE,
    NO_CUBE,
    Action,
    CubeDecision,
    CubeState,
    MatchState,
    MoneyRules,
    Owner,
)
from nardy.engine.evaluator import Evaluator, evaluator, family
from nardy.engine.net import (
    F32,
    LOSE_BACKGAMMON,
    LOSE_GAMMON,
    WIN,
    WIN_BACKGAMMON,
    WIN_GAMMON,
)
from nardy.engine.net import equity as cubeless_equity
from nardy.engine.neural import DEFAULT_LEVEL, LEVELS, Level, NeuralBot, level
from nardy.engine.stakes import Stakes
from nardy.notation import decode_match_id, position_id
from nardy.notation.context import Context, read_context
from nardy.notation.match_id import MATCH_ID_LENGTH
from nardy.notation.position_id import ID_LENGTH, position_from_id

PROTOCOL = 1
"""The protocol's version, sent in the ``id`` line; raised when an answer changes meaning."""
BYE = "bye"
"""The answer to ``quit``, the last line the engine writes."""
DOCS = "docs/engine-protocol.md"


class ProtocolError(ValueError):
    """A line the engine cannot answer: its message becomes the ``error`` line."""


@dataclass(frozen=True, slots=True)
class Defaults:
    """What a command leaves unsaid, set when the engine starts (``nardy engine --level L
    --seed S``): the level of a command without ``--level`` and the seed of one without
    ``--seed`` (None: the weaker levels draw their noise afresh for each answer)."""

    level: str = DEFAULT_LEVEL
    seed: int | None = None


DEFAULTS = Defaults()
"""The defaults of an engine started without options."""


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
    """The shipped evaluator of ``v``, or a :class:`ProtocolError` saying there is none.

    Which variants have a net is the evaluator's to say, not the engine's:
    :func:`nardy.engine.evaluator.evaluator` raises ValueError for a variant outside every
    family or whose weights are not installed, and the evaluator it returns refuses a
    variant its net does not play. ``variants`` asks the same question.
    """
    try:
        ev = evaluator(v)
        ev.check(v)
    except ImportError:  # a family whose encoding is not written yet
        raise ProtocolError(f"no net for {v.key}: nardy has no encoding for it yet") from None
    except OSError as exc:  # the weights file is missing or unreadable
        try:
            weights = f"nardy/engine/weights/{family(v)[2]}"
        except (ImportError, ValueError):
            weights = "file"
        raise ProtocolError(
            f"no net for {v.key}: the weights {weights} cannot be read ({exc.strerror or exc})"
        ) from None
    except ValueError as exc:  # no family, no weights installed, or a file that is not a net
        raise ProtocolError(f"no net for {v.key}: {exc}") from None
    return ev


_BASE64 = re.compile(r"[A-Za-z0-9+/]+")


def _detail(exc: NotationError, text: str) -> str:
    """A notation error's message without the text it names, which the engine names itself."""
    message = str(exc)
    for prefix in (f"Match ID {text!r}", repr(text)):
        if message.startswith(prefix):
            message = message[len(prefix) :].lstrip(": ")
            break
    return f"it {message}" if message.startswith("is ") else message


def _case_sensitive(text: str, v: Variant) -> ProtocolError | None:
    """A clearer error for an ID of the right shape that does not decode: most often one whose
    letters changed case on the way (``4hpwatdgc/abma``), since Position IDs and Match IDs
    are base64, where ``a`` and ``A`` are different digits. None where the text is not such
    an ID (an XGID, a wrong length, a character outside base64: the error says that)."""
    parts = text.split(":")
    if len(parts) > 2:
        return None
    position_part = parts[0].strip()
    body = position_part.partition("-")[0]
    if len(body) == ID_LENGTH and _BASE64.fullmatch(body):
        try:
            position_from_id(position_part, v)
        except NotationError as bad:
            return ProtocolError(
                f"{position_part!r} is not a valid Position ID: {_detail(bad, position_part)}; "
                "Position IDs are case-sensitive (base64): give them exactly as written"
            )
    if len(parts) == 2:
        match_part = parts[1].strip()
        if len(match_part) == MATCH_ID_LENGTH and _BASE64.fullmatch(match_part):
            try:
                decode_match_id(match_part)
            except NotationError as bad:
                return ProtocolError(
                    f"{match_part!r} is not a valid Match ID: {_detail(bad, match_part)}; "
                    "Match IDs are case-sensitive (base64): give them exactly as written"
                )
    return None


def read_position(text: str, v: Variant) -> Context:
    """The :class:`~nardy.notation.context.Context` of POSITION: a Position ID,
    ``PositionID:MatchID`` or an XGID; an ID whose letters changed case gets the error that
    says so."""
    try:
        return read_context(text, v)
    except NotationError:
        clearer = _case_sensitive(text.strip(), v)
        if clearer is None:
            raise
        raise clearer from None


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


def parse_seed(text: str) -> int:
    """A seed: a whole number (of the line's ``--seed`` or the engine's)."""
    if not text.isdigit():
        raise ProtocolError(f"a seed is a whole number, not {text!r}")
    return int(text)


def cmd_move(args: Sequence[str], defaults: Defaults = DEFAULTS) -> str:
    """``move VARIANT POSITION [D1 D2] [--level L] [--seed S]``: the play the neural bot
    chooses at level L, the Position ID it reaches (from the mover's side, and as ``next``
    from the opponent's, who is on roll next) and its cubeless equity for the mover. Without
    ``--level`` or ``--seed``, the engine's ``defaults``."""
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
    lvl = find_level(opts.get("level", defaults.level))
    seed = parse_seed(opts["seed"]) if "seed" in opts else defaults.seed
    pos = ctx.position
    if pos.outcome() is not None:
        raise ProtocolError("the game is over: a side has borne off all its checkers")
    # Plays are ranked by what they are worth at the score of a Match ID or XGID, as the bot
    # ranks them in a game.
    stakes = context_stakes(ctx)
    ranked = net_for(v).rank(pos, dice[0], dice[1], lvl.ply, stakes.equities)
    # Without noise the bot plays the best play ranked (no need to rank twice); with noise it
    # draws, and only the bot knows how: ask it, at 0 ply the second ranking is cheap.
    bot = NeuralBot(lvl.name, seed=seed)
    after = bot.choose(pos, *dice, stakes) if lvl.noise else ranked[0].after
    chosen = next(c for c in ranked if c.after == after)
    play = next(p for p in pos.legal_plays(*dice) if (p.position.mine, p.position.theirs) == after)
    return (
        f"move {play if play.moves else 'none'} id={position_id(play.position)} "
        f"next={position_id(play.position.swap())} equity={_signed(chosen.equity)} "
        f"level={lvl.name}"
    )


def cmd_eval(args: Sequence[str], defaults: Defaults = DEFAULTS) -> str:
    """``eval VARIANT POSITION [--level L]``: the cubeless probabilities before the roll."""
    positional, opts = _split(args, ["level"])
    if len(positional) != 2:
        raise ProtocolError(f"usage: {USAGE['eval']}")
    v = _variant(positional[0])
    ctx = read_position(positional[1], v)
    lvl = find_level(opts.get("level", defaults.level))
    out = evaluate(ctx.position, lvl.ply, net_for(v))
    return f"eval {_probabilities(out)} level={lvl.name}"


def cube_rules(ctx: Context) -> tuple[CubeState, MoneyRules | MatchState]:
    """The cube and the game (money rules or match score) of a :class:`Context`, from the
    side on roll, as :func:`nardy.engine.cube.cube_decision` takes them."""
    owner = {None: Owner.CENTRED, True: Owner.ME, False: Owner.OPPONENT}[ctx.cube_mine]
    v = ctx.position.variant
    defaults = Settings(variant=v.key).resolve()  # what POSITION cannot say: RULES.md's
    # defaults. Long nardy has no backgammon: its wins count 1 or 2 (as NeuralBot counts).
    backgammon_value = scoring.backgammon_value(defaults)
    # A variant played without the cube by default (long nardy, RULES.md 3.4) has one only
    # where POSITION shows it in use: turned, owned, or a double pending. Every ID carries
    # a cube field, so a centred cube at 1 says nothing.
    cube = bool(defaults.cube) or ctx.cube > 1 or ctx.cube_mine is not None or ctx.doubled
    if ctx.match_length:
        my_score, their_score = ctx.score
        return CubeState(ctx.cube, owner), MatchState(
            ctx.match_length,
            my_score,
            their_score,
            crawford=ctx.crawford,
            backgammon_value=backgammon_value,
            cube=cube,
        )
    # Unsaid (a bare Position ID): the Jacoby rule is on in money play wherever the variant
    # has it and the cube is used (RULES.md 1.5).
    jacoby = cube and (ctx.jacoby if ctx.jacoby is not None else bool(defaults.jacoby))
    rules = MoneyRules(jacoby, ctx.beavers and cube, backgammon_value, cube)
    return CubeState(ctx.cube, owner), rules


def context_stakes(ctx: Context) -> Stakes:
    """What the game of a :class:`Context` is played for, from the side on roll: the
    :class:`~nardy.engine.stakes.Stakes` by which the bot, ``hint`` and ``analyze`` value
    plays and cube decisions."""
    cube, rules = cube_rules(ctx)
    if isinstance(rules, MoneyRules):
        return Stakes(cube.value, cube.owner, rules, None, rules.cube)
    in_use = rules.cube and not rules.crawford_game
    return Stakes(cube.value, cube.owner, MoneyRules(cube=rules.cube), rules, in_use)


def cmd_cube(args: Sequence[str], defaults: Defaults = DEFAULTS) -> str:
    """``cube VARIANT POSITION[:MATCHID] [--level L]``: the cube decision of the player on
    roll, or, with a double waiting in POSITION, the doubled player's answer. Equities are
    for the player who decides, normalised to the cube (money) or EMG (match)."""
    positional, opts = _split(args, ["level"])
    if len(positional) != 2:
        raise ProtocolError(f"usage: {USAGE['cube']}")
    v = _variant(positional[0])
    ctx = read_position(positional[1], v)
    lvl = find_level(opts.get("level", defaults.level))
    pos = ctx.position
    if not ctx.in_play:
        raise ProtocolError("the Match ID shows no game in play")
    if pos.outcome() is not None:
        raise ProtocolError("the game is over: a side has borne off all its checkers")
    # The bot's decision (NeuralBot.cube_decision): at least one roll ahead, looked ahead;
    # the stakes know the cube's limits (RULES.md 1.5): a dead cube in a match.
    _, d = cube_analysis(pos, context_stakes(ctx), lvl.ply, net_for(v), doubled=ctx.doubled)
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
        if d.reason == NO_CUBE:
            reason = "no-cube"
        elif crawford:
            reason = "crawford"
        elif d.reason in (DEAD_CUBE, CUBE_AT_LIMIT):  # the cube's limits (RULES.md 1.5)
            reason = "dead-cube"
        else:
            reason = "opponent-owns-cube"
        fields += [f"mwc-{k}={m:.3f}" for k, m in mwc.items() if m is not None]
        return f"cube action=cannot-double {' '.join(fields)} reason={reason}"
    assert d.response is not None and d.double_take is not None and d.double_pass is not None
    fields += [f"take={_signed(d.double_take)}", f"pass={_signed(d.double_pass)}"]
    if d.double_beaver is not None:
        fields.append(f"beaver={_signed(d.double_beaver)}")
    fields += [f"mwc-{k}={m:.3f}" for k, m in mwc.items() if m is not None]
    return f"cube action={cube_action_key(d)} response={d.response.value} {' '.join(fields)}"


Command = Callable[[Sequence[str], Defaults], str]
"""A command: its arguments and the engine's defaults in, its answer out."""


def _no_arguments(name: str, reply: str) -> Command:
    def command(args: Sequence[str], defaults: Defaults = DEFAULTS) -> str:
        del defaults
        if args:
            raise ProtocolError(f"{name} takes no arguments")
        return reply

    return command


def cmd_ping(args: Sequence[str], defaults: Defaults = DEFAULTS) -> str:
    """``ping [TOKEN …]``: ``pong`` and the same tokens, once every earlier line is answered."""
    del defaults
    return " ".join(["pong", *args])


def cmd_variants(args: Sequence[str], defaults: Defaults = DEFAULTS) -> str:
    """``variants``: every variant and whether the engine has a net for it, as the evaluator
    says (:func:`net_for`)."""
    del defaults
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


def cmd_levels(args: Sequence[str], defaults: Defaults = DEFAULTS) -> str:
    """``levels``: the engine's default level, then each level as ``NAME=PLY:NOISE``, weakest
    first."""
    if args:
        raise ProtocolError("levels takes no arguments")
    fields = [f"{lvl.name}={lvl.ply}:{lvl.noise:.3f}" for lvl in LEVELS.values()]
    return f"levels default={find_level(defaults.level).name} " + " ".join(fields)


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


def cmd_help(args: Sequence[str], defaults: Defaults = DEFAULTS) -> str:
    """``help``: the commands; ``help COMMAND``: its usage."""
    del defaults
    if not args:
        return f"help commands={','.join(USAGE)} docs={DOCS}"
    if len(args) == 1 and args[0].lower() in USAGE:
        return f"help {USAGE[args[0].lower()]}"
    raise ProtocolError(f"help takes one of {', '.join(USAGE)}")


IDENTITY = f"id name=nardy version={__version__} protocol={PROTOCOL}"

COMMANDS: dict[str, Command] = {
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


def answer(line: str, defaults: Defaults = DEFAULTS) -> str:
    """The engine's one-line answer to one line of input (without its line end).

    A line without a command (blank, or only a ``#`` comment) is answered by itself, stripped,
    so that answers stay line for line with the input; text from a ``#`` on is a comment.
    ``defaults`` are the engine's start-up options (the level and seed of a command that
    names none). Never raises on any input: bad input, and even a bug, become one
    ``error …`` line.
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
        return _one_line(command(words[1:], defaults))
    except ValueError as exc:  # ProtocolError and every nardy error (NardyError is one)
        return _one_line(f"error {exc}")
    except Exception as exc:  # a bug, not the client's fault: still one line, and carry on
        return _one_line(f"error internal {type(exc).__name__}: {exc}")


_LINE_END = re.compile(rb"\r\n|\r|\n")


def split_lines(chunks: Iterable[bytes]) -> Iterator[str]:
    """The lines of a byte stream read in pieces, as soon as each line end arrives.

    ``\n``, ``\r\n`` and ``\r`` each end a line, also when a ``\r\n`` is split between two
    pieces: a line ending in ``\r`` is given at once (a client that ends its lines with
    ``\r`` must not wait for its answer), and a ``\n`` starting the next piece is then that
    line's end, not an empty line. A last line without a line end is given at the end. Bytes
    that are not UTF-8 become U+FFFD (a line end is never part of a UTF-8 character, so
    splitting the bytes first is safe).
    """
    pending = b""
    after_cr = False
    for chunk in chunks:
        if not chunk:
            continue
        if after_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        after_cr = chunk.endswith(b"\r")
        *lines, pending = _LINE_END.split(pending + chunk)
        for line in lines:
            yield line.decode("utf-8", errors="replace")
    if pending:
        yield pending.decode("utf-8", errors="replace")


def read_chunks(stream: BinaryIO, size: int = 65536) -> Iterator[bytes]:
    """What ``stream`` holds, piece by piece as it arrives: each piece is what one read
    returns (``read1``: what is there, never waiting to fill ``size``), until the end."""
    read = getattr(stream, "read1", stream.read)
    while chunk := read(size):
        yield chunk


def serve(lines: Iterable[str], out: TextIO, defaults: Defaults = DEFAULTS) -> int:
    """Answer every line of ``lines`` on ``out``, flushing after each, until ``quit`` or the
    end of the input. Returns the exit status (0)."""
    for line in lines:
        reply = answer(line, defaults)
        out.write(reply + "\n")
        out.flush()  # a client waits for each answer before it sends the next line
        if reply == BYE:
            break
    return 0


# -- the command line --------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    """``nardy engine [--level L] [--seed S]``: serve standard input on standard output."""
    defaults = Defaults(
        level=getattr(args, "level", None) or DEFAULT_LEVEL, seed=getattr(args, "seed", None)
    )
    # An answer echoing undecodable input (read as U+FFFD) must be writable whatever the
    # locale.
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(encoding="utf-8", errors="replace")
    # The input is read as bytes, piece by piece as it arrives, and split here: text mode's
    # universal newlines would hold back a line ended by a bare \r until more input came.
    stdin = getattr(sys.stdin, "buffer", None)
    lines = split_lines(read_chunks(stdin)) if stdin is not None else sys.stdin
    try:
        return serve(lines, sys.stdout, defaults)
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
    parser.add_argument(
        "--level",
        type=_level_option,
        default=DEFAULT_LEVEL,
        metavar="L",
        help="the level of move, eval and cube when a command names none (its own --level "
        f"wins): one of {', '.join(LEVELS)}, weakest first (default: {DEFAULT_LEVEL})",
    )
    parser.add_argument(
        "--seed",
        type=_seed_option,
        default=None,
        metavar="S",
        help="a whole number: the seed of the noise of the weaker levels when a move names "
        "none (its own --seed wins), so that the same line always gets the same answer "
        "(default: the noise is drawn afresh for each answer)",
    )
    parser.set_defaults(handler=run)


def _level_option(text: str) -> str:
    try:
        return find_level(text).name
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _seed_option(text: str) -> int:
    try:
        return parse_seed(text)
    except ProtocolError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


if __name__ == "__main__":
    sys.exit(run(argparse.Namespace()))
