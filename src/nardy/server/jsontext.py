"""The JSON a client may send, over HTTP and on a room's socket (docs/protocol.md,
"Limits"): UTF-8 text of standard JSON (RFC 8259) nested at most :data:`MAX_DEPTH` deep,
with no repeated names in an object, no ``NaN`` or ``Infinity``, and no lone surrogate or
NUL in a string.
Anything else is refused before it reaches a handler, so that no odd input can be read two
ways or crash the server later."""

from __future__ import annotations

import json
import math
import re
from typing import Any

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects (the deepest real message is 3 levels: a socket
message's action and its fields)."""

# A string (skipped whole, so brackets inside it do not count) or one bracket.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class JSONTextError(ValueError):
    """Text that is not JSON a client may send; the message says why, for a person."""


def decode(data: str | bytes) -> Any:
    """The value that ``data`` holds; :class:`JSONTextError` for anything else."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise JSONTextError("the text is not UTF-8") from None
    _check_depth(data)
    try:
        value = json.loads(
            data,
            parse_constant=_refuse_constant,
            parse_float=_finite,
            object_pairs_hook=_object,
        )
    except JSONTextError:
        raise
    except ValueError as exc:  # also Python's limit on the digits of an integer
        raise JSONTextError(f"not JSON ({exc})") from None
    _check_text(value)
    return value


def _check_depth(text: str) -> None:
    # Counted before parsing: the parser recurses once per level.
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return  # no deeper than its opening brackets: every message of a game, at C speed
    depth = 0
    for token in _TOKEN.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise JSONTextError(f"nested more than {MAX_DEPTH} deep")
        elif bracket in "]}":
            depth -= 1


def _refuse_constant(name: str) -> Any:
    raise JSONTextError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e400 would be read as infinity
        raise JSONTextError(f"{text} is too large a number")
    return number


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for name, value in pairs:
        if name in obj:  # Python would keep the last, another reader the first
            raise JSONTextError(f"the name {name!r} appears twice in one object")
        obj[name] = value
    return obj


def _check_text(value: Any) -> None:
    # "\ud800" is valid JSON but no Unicode text: it could be neither stored nor sent back;
    # "\u0000" PostgreSQL cannot keep in a text column (SQLite can: the two would differ).
    # The depth is bounded, so the recursion is too.
    if isinstance(value, str):
        if "\x00" in value:
            raise JSONTextError("a string holds the character NUL (\\u0000)")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise JSONTextError("a string holds a lone surrogate (\\ud800-\\udfff)") from None
    elif isinstance(value, dict):
        for name, item in value.items():
            _check_text(name)
            _check_text(item)
    elif isinstance(value, list):
        for item in value:
            _check_text(item)
