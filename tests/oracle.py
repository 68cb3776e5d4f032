"""GNU Backgammon's Python module (``gnubg``, a GPL test oracle) run in a child process.

The module has segfaulted in the test run, and a segfault in-process kills the whole run.
Here every call goes to one child process that imports ``gnubg``: the tests call it as they
would call the module (``gnubg = gnubg_oracle(); gnubg.setgnubgid(text)``), and if the child
dies the call raises :class:`OracleCrash`, which fails that one test; the next call starts a
fresh child. Arguments and results travel pickled, so tuples and dictionaries stay what they
are. (gnubg-nn, stable so far, is still imported in-process where it is used.)

Run as a script, this file is the child: it answers calls read from its standard input.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pickle
import struct
import subprocess
import sys
from collections.abc import Callable
from typing import IO, Any

import pytest

_LENGTH = struct.Struct("<I")


def _send(stream: IO[bytes], value: object) -> None:
    data = pickle.dumps(value)
    stream.write(_LENGTH.pack(len(data)) + data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    """The next pickled value, or raise EOFError where the other side has gone."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError
    data = stream.read(_LENGTH.unpack(head)[0])
    return pickle.loads(data)


class OracleCrash(AssertionError):
    """The oracle's process died during a call (a segfault shows as signal 11)."""


class Oracle:
    """A module imported in a child process, called through attribute access."""

    def __init__(self, module: str) -> None:
        self.module = module
        self._child: subprocess.Popen[bytes] | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        if self._child is None or self._child.poll() is not None:
            self._child = subprocess.Popen(
                [sys.executable, __file__, self.module],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
        return self._child

    def call(self, name: str, *args: object) -> Any:
        """``module.name(*args)`` in the child; its exceptions are raised here by type name
        and message, its death as :class:`OracleCrash`."""
        child = self._start()
        assert child.stdin is not None and child.stdout is not None
        try:
            _send(child.stdin, (name, args))
            ok, value = _receive(child.stdout)
        except (EOFError, BrokenPipeError):
            code = child.wait()
            self._child = None
            raise OracleCrash(
                f"{self.module}.{name}{args!r} killed the oracle process (exit status {code})"
            ) from None
        if not ok:
            raise RuntimeError(f"{self.module}.{name}{args!r} raised {value}")
        return value

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args: self.call(name, *args)

    def close(self) -> None:
        if self._child is not None and self._child.poll() is None:
            assert self._child.stdin is not None
            self._child.stdin.close()
            self._child.wait()
        self._child = None


_ORACLES: dict[str, Oracle] = {}


def gnubg_oracle() -> Oracle:
    """GNU Backgammon's ``gnubg`` module in its own process (one for the whole run); the
    calling test is skipped where the module is not installed."""
    if importlib.util.find_spec("gnubg") is None:
        pytest.skip("the gnubg module is not installed (pip install --pre gnubg)")
    return _ORACLES.setdefault("gnubg", Oracle("gnubg"))


def _serve(module_name: str) -> None:
    """The child: answer ``(name, args)`` calls on standard input until it closes. The
    module's own output (C code printing to file descriptor 1) goes to standard error, so
    that standard output carries only the answers."""
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    module = importlib.import_module(module_name)
    requests = sys.stdin.buffer
    while True:
        try:
            name, args = _receive(requests)
        except EOFError:
            return
        try:
            _send(answers, (True, getattr(module, name)(*args)))
        except Exception as exc:  # the caller sees the oracle's own error
            _send(answers, (False, f"{type(exc).__name__}: {exc}"))


if __name__ == "__main__":
    _serve(sys.argv[1])
