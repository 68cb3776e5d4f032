"""The JSON form of the game API's values (actions and events): a flat object with a
``type`` and one entry per field, read back with every field's type checked.

Shared by :mod:`nardy.core.actions` and :mod:`nardy.core.events` so that both are written,
and refused, the same way. Fields are plain values: whole numbers, text, booleans, tuples of
whole numbers (JSON lists) and optional ones (``None`` is JSON ``null``).
"""

import types
from dataclasses import MISSING, fields
from typing import Any, TypeVar, Union, get_args, get_origin

from nardy.core.errors import InvalidInputError

WIRE_NAMES = {"start": "from", "end": "to"}
"""Fields whose JSON name differs from the Python one (``from`` is a Python keyword)."""

T = TypeVar("T")


_WIRE_FIELDS: dict[type, tuple[tuple[str, str], ...]] = {}


def _wire_fields(cls: type) -> tuple[tuple[str, str], ...]:
    # Each field's Python and JSON name, found once a class: dataclasses.fields() costs more
    # than the rest of to_json, which a room's snapshot calls for every event of the game.
    names = _WIRE_FIELDS.get(cls)
    if names is None:
        names = _WIRE_FIELDS[cls] = tuple(
            (f.name, WIRE_NAMES.get(f.name, f.name)) for f in fields(cls)
        )
    return names


def to_json(value: Any, kind: str) -> dict[str, Any]:
    """``{"type": kind, field: value...}`` for a dataclass value; tuples become lists."""
    obj: dict[str, Any] = {"type": kind}
    for name, wire_name in _wire_fields(type(value)):
        item = getattr(value, name)
        if isinstance(item, tuple):
            item = list(item)
        elif isinstance(item, str):
            item = str(item)  # a StrEnum's plain value
        obj[wire_name] = item
    return obj


def from_json(obj: Any, registry: dict[str, type[T]], what: str) -> T:
    """The value of ``registry[obj["type"]]`` that ``obj`` describes; raises
    :class:`InvalidInputError` for an unknown type, a missing, extra or mistyped field."""
    if not isinstance(obj, dict):
        raise InvalidInputError(f"an {what} is a JSON object, not {obj!r}")
    kind = obj.get("type")
    cls = registry.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidInputError(f"unknown {what} type {kind!r}; known: {', '.join(registry)}")
    values: dict[str, Any] = {}
    wanted = {"type"}
    for f in fields(cls):  # type: ignore[arg-type]
        wire = WIRE_NAMES.get(f.name, f.name)
        wanted.add(wire)
        if wire not in obj:
            if f.default is not MISSING:  # a field with a default may be left out
                continue
            raise InvalidInputError(f"a {kind!r} {what} needs {wire!r}")
        value = _typed(obj[wire], f.type)
        if value is _WRONG:
            raise InvalidInputError(
                f"{wire!r} of a {kind!r} {what} must be {_describe(f.type)}, not {obj[wire]!r}"
            )
        values[f.name] = value
    extra = sorted(set(obj) - wanted)
    if extra:
        raise InvalidInputError(f"a {kind!r} {what} has no field(s) {', '.join(extra)}")
    return cls(**values)


_WRONG = object()


def _typed(value: Any, annotation: Any) -> Any:
    """``value`` as the annotation's type, or ``_WRONG`` (a bool is not a whole number)."""
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        for option in get_args(annotation):
            typed = _typed(value, option)
            if typed is not _WRONG:
                return typed
        return _WRONG
    if origin is tuple:
        if not isinstance(value, list):
            return _WRONG
        args = get_args(annotation)
        item_types = [args[0]] * len(value) if args[-1] is Ellipsis else list(args)
        if len(item_types) != len(value):
            return _WRONG
        items = tuple(_typed(v, t) for v, t in zip(value, item_types, strict=True))
        return _WRONG if _WRONG in items else items
    if annotation is type(None):
        return None if value is None else _WRONG
    if annotation is str:
        return str(value) if isinstance(value, str) else _WRONG  # a StrEnum too
    return value if type(value) is annotation else _WRONG


def _describe(annotation: Any) -> str:
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(a) for a in get_args(annotation))
    if origin is tuple:
        return "a list of whole numbers"
    names = {int: "a whole number", str: "text", bool: "true or false", type(None): "null"}
    return names.get(annotation, str(annotation))
