"""``nardy verify-dice RECORD``: recompute every roll of a downloaded game record.

The record's ``dice`` block (docs/records.md) carries the scheme, the commitment, the revealed
server seed, the client seeds and the game id; the rolls are read from the record itself (its
event log, or in a version 1 record its opening and turns).
Each game is checked: the seed must hash to the commitment, and every roll must be the one
the seeds give (docs/dice.md). Exit status 0 when everything holds, 1 when a commitment or a
roll does not, 2 for a file that is not a record with a revealed dice block.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from nardy.cli.files import read_input
from nardy.cli.records import _fail as fail
from nardy.core import NardyError, NotationError
from nardy.core.fair_dice import RevealedDice, rolls_of
from nardy.notation.record import parse_records, record_dice


def add_parser(subparsers: Any) -> None:
    """Register ``nardy verify-dice``."""
    parser = subparsers.add_parser(
        "verify-dice",
        help="recompute the dice of a game record from the server's revealed seeds",
        description="Check a game record from the nardy server: the revealed server seed "
        "must hash to the commitment shown at the start, and every roll must be the one "
        "that the seeds give (docs/dice.md). RECORD is one JSON game record, a JSON list of "
        "them, or JSON lines ('-': standard input). Exit status 0: all dice verified; 1: "
        "a roll or a commitment differs; 2: not a record with revealed dice.",
    )
    parser.add_argument("record", metavar="RECORD", help="the game record file ('-': stdin)")
    parser.set_defaults(handler=run)


def read_records(text: str, name: str) -> list[tuple[str, dict[str, Any]]]:
    """The records of ``text``, each with how to name it in messages: a single JSON object
    (as downloaded, pretty-printed or not), a JSON list of them, or JSON lines."""
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        return [(f"line {n}", record) for n, record in parse_records(text, name)]
    items = whole if isinstance(whole, list) else [whole]
    if not items or not all(isinstance(item, dict) for item in items):
        raise NotationError(f"{name}: a game record is a JSON object (or a list of them)")
    if len(items) == 1:
        return [("the record", items[0])]
    return [(f"record {i}", item) for i, item in enumerate(items, 1)]


def verify(record: dict[str, Any]) -> tuple[RevealedDice, list[tuple[int, int]], list[str]]:
    """The dice block, the rolls and a line for each thing that does not hold (none when the
    dice are verified). Raises :class:`NardyError` for a record that cannot be checked."""
    if "dice" not in record:
        raise NotationError("no dice block: not a game from a server with verifiable dice")
    revealed = RevealedDice.from_block(record["dice"])
    try:
        dice = record_dice(record)
    except NardyError:
        raise
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
        raise NotationError(f"malformed game record: {exc!r}") from None
    return revealed, rolls_of(dice), revealed.check(dice)


def run(args: argparse.Namespace) -> int:
    """``nardy verify-dice``: a report per game; the exit status says whether all held."""
    name = args.record
    try:
        text = read_input(name)
        records = read_records(text, name)
        results = []
        for where, record in records:
            try:
                results.append((where, *verify(record)))
            except NardyError as exc:
                raise NotationError(f"{name}, {where}: {exc}") from None
    except (NardyError, OSError, UnicodeDecodeError) as exc:
        return fail("verify-dice", exc)
    failed = False
    for where, revealed, rolls, problems in results:
        game = f"game {revealed.seeds.game_id} ({where})"
        if problems:
            failed = True
            print(f"{game}: FAILED, {len(problems)} problem(s):")
            for problem in problems:
                print(f"  {problem}")
        else:
            print(f"{game}: the commitment holds and all {len(rolls)} rolls match the seeds")
    return 1 if failed else 0
