"""``nardy export`` and ``nardy import``: game records to and from other programs' files.

nardy export FILE.jsonl --to mat [-o OUT.mat]   JSON game records (one per line, as
                                                ``nardy selfplay`` writes them) to .mat
nardy import FILE.mat [-o OUT.jsonl]            a .mat match to JSON game records

Consecutive lines of one match share players, variant and settings and number their games
1, 2, 3…; a line that breaks the run starts the next match. A .mat file holds one match: with
several, ``-o OUT`` writes ``OUT_001.mat``, ``OUT_002.mat``… (OUT's extension where it has one;
``-`` or no ``-o``: standard output, for one match only). One match goes to OUT as named.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from nardy.cli.files import OutputError, check_writable, read_input
from nardy.cli.words import counted
from nardy.core import NardyError, NotationError
from nardy.notation.mat import export_mat, import_mat
from nardy.notation.record import parse_records, replay


def add_parsers(subparsers: Any) -> None:
    """Register ``nardy export`` and ``nardy import``."""
    export = subparsers.add_parser(
        "export",
        help="write JSON game records as a GNU Backgammon .mat match file",
        description="Write the games of a JSON-lines file (one game record per line, as "
        "'nardy selfplay' writes them) as GNU Backgammon / Jellyfish .mat match files. Lines "
        "with the same players and settings and game numbers 1, 2, 3… form one match. "
        "Backgammon and nackgammon only (nackgammon-ballard as GNU Backgammon's NackGammon).",
    )
    export.add_argument(
        "file", metavar="FILE.jsonl", help="game records, one per line ('-': stdin)"
    )
    export.add_argument("--to", choices=["mat"], default="mat", help="the format to write (mat)")
    export.add_argument(
        "-o",
        "--out",
        default="-",
        metavar="OUT",
        help="where to write: one match to the file OUT as named ('-': standard output, the "
        "default); several to OUT_001.mat, OUT_002.mat… (OUT's extension where it has one)",
    )
    export.set_defaults(handler=run_export)

    imp = subparsers.add_parser(
        "import",
        help="read a .mat match file into JSON game records",
        description="Read a GNU Backgammon / Jellyfish .mat match file, replay every game "
        "through the rules, and write one JSON game record per line.",
    )
    imp.add_argument("file", metavar="FILE.mat", help="the match file ('-': stdin)")
    imp.add_argument(
        "-o", "--out", default="-", metavar="OUT.jsonl", help="where to write ('-': stdout)"
    )
    imp.set_defaults(handler=run_import)


def group_matches(records: Iterable[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Consecutive records of one match: the same players, variant and settings, and game
    numbers that follow each other."""
    matches: list[list[dict[str, Any]]] = []
    for record in records:
        if matches:
            last = matches[-1][-1]
            same = all(record.get(k) == last.get(k) for k in ("players", "variant", "settings"))
            following = record.get("game") == last.get("game", 0) + 1
            if same and following:
                matches[-1].append(record)
                continue
        matches.append([record])
    return matches


def run_export(args: argparse.Namespace) -> int:
    """``nardy export``: JSON lines in, one .mat file per match out."""
    try:
        numbered = _read_jsonl(args.file)
        if not numbered:
            raise NotationError(f"{args.file} holds no game records")
        matches = group_matches(record for _, record in numbered)
        texts = []
        first = 0  # index of the match's first record
        for match in matches:
            try:
                texts.append(export_mat(match))
            except NardyError as exc:
                line = numbered[first][0]
                failed = replay_failure(args.file, numbered[first : first + len(match)])
                raise failed or NotationError(
                    f"{args.file}: the match from line {line} cannot be written: {exc}"
                ) from None
            first += len(match)
        if args.out == "-":
            if len(texts) > 1:
                raise NotationError(
                    f"{args.file} holds {len(texts)} matches and a .mat file holds one: "
                    "give -o OUT.mat to write OUT_001.mat, OUT_002.mat…"
                )
            sys.stdout.write(texts[0])
            return 0
        if Path(args.out).is_dir() or args.out.endswith("/"):  # OUT names files, not a folder
            raise OutputError(
                f"cannot write {args.out}: {args.out} is a folder; name the file in it, "
                f"-o {args.out.rstrip('/')}/NAME.mat"
            )
        paths = match_paths(Path(args.out), len(texts))
        for path in paths:  # every one before any is written
            check_writable(path)
        for path, text in zip(paths, texts, strict=True):
            path.write_text(text, encoding="utf-8")
        written = ", ".join(map(str, paths))
        print(f"{counted(len(texts), 'match')} written: {written}", file=sys.stderr)
    except (NardyError, OSError, UnicodeDecodeError) as exc:
        return _fail("export", exc)
    return 0


def match_paths(out: Path, matches: int) -> list[Path]:
    """The files ``-o OUT`` names for ``matches`` matches: OUT itself for one, else
    ``OUT_001.mat``, ``OUT_002.mat``… (OUT's own extension where it has one)."""
    if matches == 1:
        return [out]
    suffix = out.suffix or ".mat"
    return [out.with_name(f"{out.stem}_{i:03d}{suffix}") for i in range(1, matches + 1)]


def run_import(args: argparse.Namespace) -> int:
    """``nardy import``: a .mat file in, JSON lines out."""
    try:
        if args.out != "-":
            check_writable(Path(args.out))
        text = read_input(args.file)
        try:
            records = import_mat(text)
        except NotationError as exc:
            raise NotationError(f"{args.file}: {exc}") from None
        lines = "".join(json.dumps(record) + "\n" for record in records)
        if args.out == "-":
            sys.stdout.write(lines)
        else:
            Path(args.out).write_text(lines, encoding="utf-8")
    except (NardyError, OSError, UnicodeDecodeError) as exc:
        return _fail("import", exc)
    return 0


def replay_failure(name: str, numbered: Iterable[tuple[int, dict[str, Any]]]) -> NardyError | None:
    """Why the first record of the file ``name`` (with the lines they start on) that does
    not replay does not, naming the file, the line and the game; None where all replay.
    Called once a command has failed, to say where: the commands replay without lines."""
    for line, record in numbered:
        try:
            replay(record)
        except NardyError as exc:
            return NotationError(f"{name} line {line}, game {record.get('game', '?')}: {exc}")
    return None


def _read_jsonl(name: str) -> list[tuple[int, dict[str, Any]]]:
    """The checked records of a JSON-lines file, each with its line number."""
    return parse_records(read_input(name), name)


def _fail(command: str, exc: Exception) -> int:
    """Report ``exc`` as ``nardy COMMAND: error: …``; the exit status 2."""
    message = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    if isinstance(exc, OSError) and exc.filename:
        message = f"{exc.filename}: {message}"
    print(f"nardy {command}: error: {message}", file=sys.stderr)
    return 2
