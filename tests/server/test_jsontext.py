"""The JSON a client may send (docs/protocol.md, "Limits"): standard JSON of bounded depth,
each name once, no NaN, no lone surrogate or NUL, UTF-8; everything else a clear error."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy.server.jsontext import MAX_DEPTH, JSONTextError, decode

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\x00")),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(alphabet='[]{}"\\ab', max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


@given(json_values)
def test_json_within_the_depth_reads_as_pythons_json_does(value: Any) -> None:
    """Brackets inside strings (escaped quotes too) do not count towards the depth."""
    text = json.dumps(value)
    assert _depth(value) <= MAX_DEPTH
    assert decode(text) == json.loads(text) == value
    assert decode(text.encode()) == value


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 30000])
def test_deeper_nesting_is_refused_before_it_is_parsed(depth: int) -> None:
    deepest = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert decode(deepest) == json.loads(deepest)
    for text in ("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth, "[" * depth):
        with pytest.raises(JSONTextError, match="nested more than 32"):
            decode(text)


def test_many_brackets_side_by_side_or_in_strings_are_not_depth() -> None:
    """A text with more opening brackets than the depth allows is counted level by level
    (fewer can never be too deep): wide arrays and brackets inside strings are fine."""
    wide = "[" + ",".join(["[]"] * (3 * MAX_DEPTH)) + "]"
    assert decode(wide) == json.loads(wide)
    quoted = json.dumps({"text": "[{" * MAX_DEPTH, "list": [[1]]})
    assert decode(quoted) == json.loads(quoted)
    hidden = '["' + "[" * MAX_DEPTH + '",' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "]"
    with pytest.raises(JSONTextError, match="nested more than 32"):
        decode(hidden)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[NaN]", "NaN is not a JSON number"),
        ('{"a": -Infinity}', "-Infinity is not a JSON number"),
        ("[1e400]", "too large a number"),
        ("1" * 5000, "not JSON"),  # past Python's limit on an integer's digits
        ('{"type": "ping", "type": "chat"}', "'type' appears twice"),
        ('{"text": "\\ud800"}', "lone surrogate"),
        ('{"\\udfff": 1}', "lone surrogate"),
        ('{"text": "a\\u0000b"}', "NUL"),  # PostgreSQL keeps no NUL in text
        (b'{"text": "\xff"}', "not UTF-8"),
        ('{"text": "a"'.encode("utf-16"), "not UTF-8"),  # Python's json would read UTF-16
        ("\ufeff{}", "not JSON"),
        ("", "not JSON"),
    ],
)
def test_json_oddities_are_refused_with_the_reason(text: str | bytes, why: str) -> None:
    with pytest.raises(JSONTextError, match=re.escape(why)):
        decode(text)


def test_a_surrogate_pair_is_one_character() -> None:
    assert decode('"\\ud83d\\ude00"') == "\N{GRINNING FACE}"
