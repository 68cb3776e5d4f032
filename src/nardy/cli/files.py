"""The files the commands read and write. A file to write (``play --record``, ``selfplay
--out``, ``export -o``, ``import -o``) is checked before any work is done, so that no game is
played and no match converted for a file that cannot be written; a file read that is not
text says so with its name."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import TextIO

from nardy.core import NardyError, NotationError


class OutputError(NardyError):
    """A file a command was told to write cannot be written there."""


def write_problem(path: Path) -> str | None:
    """Why a file cannot be written at ``path``, or None where it can.

    The check opens the file as the command will, for appending (which changes nothing in
    a file that exists) and removes it again where it did not exist: ``os.access`` says yes
    to root for ``/sys`` and ``/proc``, which refuse every new file."""
    if path.is_dir():
        return f"{path} is a folder"
    for above in path.parents:  # the nearest one that exists says what is wrong
        if above.exists():
            if not above.is_dir():
                return f"{above} is not a folder"
            break
    if not path.parent.is_dir():
        return f"the folder {path.parent} does not exist"
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        why = exc.strerror or str(exc)
        if existed:
            return f"it is not writable ({why})"
        here = path.parent == Path()
        folder = f"the current folder {Path.cwd()}" if here else str(path.parent)
        return f"{folder} takes no new file ({why})"
    if not existed:
        os.unlink(path)
    return None


def check_writable(path: Path) -> None:
    """Raise :class:`OutputError` saying why a file cannot be written at ``path``, if it
    cannot."""
    problem = write_problem(path)
    if problem is not None:
        raise OutputError(f"cannot write {path}: {problem}")


def read_input(name: str) -> str:
    """The text of the file ``name`` (``-``: standard input); raises
    :class:`~nardy.core.NotationError` naming the file where it is not UTF-8 text, and
    ``OSError`` where it cannot be read."""
    try:
        return sys.stdin.read() if name == "-" else Path(name).read_text("utf-8")
    except UnicodeDecodeError as exc:
        where = "standard input" if name == "-" else name
        raise NotationError(f"{where} is not UTF-8 text (byte {exc.start})") from None


def output(name: str) -> contextlib.AbstractContextManager[TextIO]:
    """The file ``name`` opened to be written over, checked first (:func:`check_writable`);
    ``-`` is standard output, left open."""
    if name == "-":
        return contextlib.nullcontext(sys.stdout)
    check_writable(Path(name))
    return Path(name).open("w", encoding="utf-8")
