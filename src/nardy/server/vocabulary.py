"""The browser client's vocabulary, written from the Python that defines it.

The client speaks the server's closed sets of names: the kinds of action it sends and of
event it hears (the core's wire ``type``), the variants, the phases a game waits in, how a
game ends, the kinds and statuses of a game, the bots' levels, the clocks, and the
preferences a new user starts with. Rather than copy each list by hand into the scripts
(and let it drift), ``python3 -m nardy.server.vocabulary`` writes them all into one ES
module, ``nardy/web/static/js/vocab.js``, which the scripts import; ``tests/test_vocab.py``
fails while the committed file differs from what this module writes.

It lives in the server, not in ``nardy.web``, because the server is the lowest layer that
sees every one of these names: the core's actions, events and variants, the engine's bot
levels, and the server's own words (game kinds and statuses, clock presets, account
preferences), which belong to the server and are not moved down a layer for a file.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from nardy.core.actions import ACTIONS
from nardy.core.events import EVENTS
from nardy.core.fair_dice import SCHEME
from nardy.core.game import EndKind, Phase
from nardy.core.variants import VARIANTS
from nardy.engine.heuristic import LEVELS
from nardy.server.accounts.users import HOME_CORNERS, Preferences
from nardy.server.clocks import DELAY_RANGE, PRESETS, RESERVE_RANGE
from nardy.server.games import GameKind, GameStatus
from nardy.server.hintplay import HintKind
from nardy.server.lobby.matches import OPPONENTS
from nardy.server.lobby.tables import CHOUETTE_SEATS, MAX_SIDE, MIN_SIDE
from nardy.server.ratings import MONEY_POOL_SUFFIX
from nardy.web.assets import STATIC

TARGET = STATIC / "js" / "vocab.js"
"""Where the module is written: beside the scripts that import it."""

COMMAND = "python3 -m nardy.server.vocabulary"

Json: TypeAlias = "bool | int | float | str | Sequence[Json] | Mapping[str, Json] | None"
"""A value the module can write: JSON's."""


@dataclass(frozen=True, slots=True)
class Constant:
    """One exported constant of the module: its name, what it means (the comment written
    above it) and its value (frozen in JavaScript)."""

    name: str
    doc: str
    value: Json


def _by_name(names: Sequence[str]) -> dict[str, str]:
    """Wire names under constant names: ``"roll-opening"`` as ``ROLL_OPENING``."""
    return {name.upper().replace("-", "_"): name for name in names}


def constants() -> list[Constant]:
    """Everything the module exports, in the order it is written."""
    return [
        Constant(
            "ACTION",
            "Each action's JSON \"type\", the core's action kinds (nardy.core.actions.ACTIONS).",
            _by_name(list(ACTIONS)),
        ),
        Constant(
            "EVENT",
            "Each event's JSON \"type\", the core's event kinds (nardy.core.events.EVENTS).",
            _by_name(list(EVENTS)),
        ),
        Constant(
            "VARIANT_KEYS",
            "Every variant's key, in the order nardy lists them (nardy.core.variants.VARIANTS).",
            [v.key for v in VARIANTS],
        ),
        Constant(
            "PHASE",
            'What a game waits for: awaiting\'s "phase" (nardy.core.game.Phase).',
            _by_name([p.value for p in Phase]),
        ),
        Constant(
            "END_KIND",
            'How a game ended: a result\'s "kind" (nardy.core.game.EndKind).',
            _by_name([k.value for k in EndKind]),
        ),
        Constant(
            "GAME_KIND",
            'What a room holds: a game\'s "kind" (nardy.server.games.GameKind).',
            _by_name([k.value for k in GameKind]),
        ),
        Constant(
            "GAME_STATUS",
            'Where a game stands: a game\'s "status" (nardy.server.games.GameStatus).',
            _by_name([s.value for s in GameStatus]),
        ),
        Constant(
            "BOT_LEVELS",
            "The bot's levels a player may choose, weakest first (nardy.engine.heuristic.LEVELS).",
            list(LEVELS),
        ),
        Constant(
            "CLOCK_PRESETS",
            'The lobby\'s named clocks, in seconds (nardy.server.clocks.PRESETS); "none" is '
            "no clock.",
            {name: clock.to_json() for name, clock in PRESETS.items()},
        ),
        Constant(
            "CLOCK_LIMITS",
            "The fewest and most seconds of a clock's delay, and of its reserve (per point or "
            "per game), that the lobby takes (nardy.server.clocks).",
            {"delay": list(DELAY_RANGE), "reserve": list(RESERVE_RANGE)},
        ),
        Constant(
            "OPPONENT",
            "Whom a new match is for: anyone (a seek), an invited player, or the bot "
            "(nardy.server.lobby.OPPONENTS).",
            _by_name(list(OPPONENTS)),
        ),
        Constant(
            "HINT_KIND",
            "What a practice game's hint is about: a hint's \"kind\" "
            "(nardy.server.hintplay.HintKind).",
            _by_name([k.value for k in HintKind]),
        ),
        Constant(
            "CHOUETTE_SEATS",
            "The fewest and most players at a chouette table (nardy.server.lobby.tables).",
            list(CHOUETTE_SEATS),
        ),
        Constant(
            "CONSULTATION_SIDE",
            "The fewest and most people on a side of a consultation game, unless the side is "
            "the bot (nardy.server.lobby.tables).",
            [MIN_SIDE, MAX_SIDE],
        ),
        Constant(
            "DICE_SCHEME",
            "The name of the scheme the server's dice are dealt by (nardy.core.fair_dice).",
            SCHEME,
        ),
        Constant(
            "MONEY_POOL_SUFFIX",
            "What a money play rating pool's name adds to its variant's key "
            "(nardy.server.ratings).",
            MONEY_POOL_SUFFIX,
        ),
        Constant(
            "HOME_CORNERS",
            "Where a player may have their home board drawn (nardy.server.accounts.HOME_CORNERS).",
            list(HOME_CORNERS),
        ),
        Constant(
            "PREFERENCES",
            "A new user's preferences under their wire names, in their order "
            "(nardy.server.accounts.Preferences).",
            Preferences().to_dict(),
        ),
    ]


def _literal(value: Json, top: bool = True) -> str:
    """The value as a JavaScript literal, frozen all the way down; at the top an object
    has one entry a line, so that a change shows as a one-line diff."""
    if isinstance(value, Mapping):
        entries = [f"{_key(k)}: {_literal(v, top=False)}" for k, v in value.items()]
        if top:
            return "Object.freeze({\n" + "".join(f"  {e},\n" for e in entries) + "})"
        return "Object.freeze({ " + ", ".join(entries) + " })"
    if isinstance(value, Sequence) and not isinstance(value, str):
        return "Object.freeze([" + ", ".join(_literal(v, top=False) for v in value) + "])"
    return json.dumps(value)


def _key(name: str) -> str:
    """An object key: bare where JavaScript allows it, quoted otherwise."""
    bare = name.replace("_", "a").isalnum() and not name[0].isdigit()
    return name if bare else json.dumps(name)


def render() -> str:
    """The whole module's text."""
    parts = [
        f"// GENERATED by `{COMMAND}` (src/nardy/server/vocabulary.py)\n"
        "// from the Python that defines each name below. Do not edit it by hand: run that\n"
        "// command after changing them (tests/test_vocab.py fails while this file is stale).\n"
    ]
    for constant in constants():
        doc = "\n * ".join(textwrap.wrap(constant.doc, 92))
        value = _literal(constant.value)
        parts.append(f"/** {doc} */\nexport const {constant.name} = {value};\n")
    return "\n".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    """Write the module (or, with ``--check``, say whether the file written is current)."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 when stale")
    parser.add_argument("--output", type=Path, default=TARGET, help="where to write it")
    args = parser.parse_args(argv)
    text = render()
    current = args.output.read_text(encoding="utf-8") if args.output.exists() else None
    if args.check:
        if current != text:
            print(f"{args.output} is stale: run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    if current != text:
        args.output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
