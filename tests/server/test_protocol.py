"""The WebSocket protocol's messages: parsed in one place, written in one place
(docs/protocol.md)."""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy.core.actions import Move, Roll
from nardy.server import protocol

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)


def test_each_client_message_parses() -> None:
    assert protocol.parse(
        '{"type": "action", "action": {"type": "roll", "player": 1}, "ref": 7}'
    ) == (protocol.ActionMessage(Roll(1), named=True, ref=7))
    assert protocol.parse(
        '{"type": "action", "action": {"type": "move", "from": 24, "to": 18}}'
    ) == (protocol.ActionMessage(Move(0, 24, 18), named=False))
    assert protocol.parse('{"type": "sync"}') == protocol.SyncMessage()
    assert protocol.parse(b'{"type": "ping", "ref": "a"}') == protocol.PingMessage("a")


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "dance"}, "invalid-input"),
        ({"type": "move", "from": 24}, "invalid-input"),
        ({"type": "roll", "player": [0]}, "invalid-input"),
        ({"type": "roll", "extra": 1}, "invalid-input"),
    ],
)
def test_an_action_the_core_cannot_read_is_its_refusal_not_an_error(
    action: dict[str, object], code: str
) -> None:
    """The core reads the action once, here; what it refuses is answered ``refused`` with
    the core's code (as a refusal of the game), not a protocol ``error``."""
    message = protocol.parse(json.dumps({"type": "action", "action": action, "ref": 3}))
    assert isinstance(message, protocol.UnreadAction)
    assert (message.code, message.ref) == (code, 3)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        ('{"type": "dance"}', "unknown-type"),
        ('{"kind": "ping"}', "unknown-type"),
        ('{"type": 5}', "malformed"),  # a field of the wrong type, not an unknown type
        ('{"type": ["ping"], "ref": 1}', "malformed"),
        ('{"type": "ping", "extra": 1}', "malformed"),
        ('{"type": "action", "action": "roll"}', "malformed"),
        ('{"type": "ping", "ref": [1]}', "malformed"),
        ('{"type": "ping", "ref": "' + "x" * 65 + '"}', "malformed"),
        ('{"type": "ping", "pad": "' + "x" * protocol.MAX_MESSAGE + '"}', "too-large"),
    ],
)
def test_anything_else_is_a_protocol_error(text: str, code: str) -> None:
    with pytest.raises(protocol.ProtocolError) as error:
        protocol.parse(text)
    assert error.value.code == code


@given(json_values)
def test_no_json_value_breaks_the_parser(value: object) -> None:
    """Every JSON value is either a client message or a ProtocolError, nothing else."""
    try:
        message = protocol.parse(json.dumps(value))
    except protocol.ProtocolError as exc:
        assert exc.code in ("malformed", "unknown-type", "too-large")
    else:
        assert isinstance(message, get_args(protocol.ClientMessage))


@given(st.binary(max_size=200) | st.text(max_size=200))
def test_no_bytes_break_the_parser(data: bytes | str) -> None:
    """Whatever arrives on the socket is a client message or a ProtocolError."""
    try:
        message = protocol.parse(data)
    except protocol.ProtocolError:
        return
    assert isinstance(message, get_args(protocol.ClientMessage))


def test_every_server_message_is_versioned_json() -> None:
    messages: list[protocol.ServerMessage] = [
        protocol.Welcome("g", 0, {"seq": 0}),
        protocol.Events(1, {"type": "roll"}, [{"type": "dice-rolled"}], {"seq": 1}, 2),
        protocol.State({"seq": 1}, 3),
        protocol.Refused("not-your-turn", "wait", 4),
        protocol.Error("malformed", "bad", None),
        protocol.Pong("x"),
    ]
    kinds = [json.loads(protocol.encode(m)) for m in messages]
    assert [k["type"] for k in kinds] == ["welcome", "events", "state", "refused", "error", "pong"]
    assert all(k["v"] == protocol.VERSION for k in kinds)
    assert kinds[1]["ref"] == 2
    assert kinds[3] == {
        "v": 2,
        "type": "refused",
        "code": "not-your-turn",
        "message": "wait",
        "ref": 4,
    }


@given(
    st.dictionaries(st.text(max_size=8).map(lambda k: f"s{k}"), json_values, max_size=5),
    st.dictionaries(st.text(max_size=8).map(lambda k: f"o{k}"), json_values, max_size=3),
    st.none() | st.integers() | st.text(max_size=10),
)
def test_a_state_spliced_from_its_shared_text_reads_as_the_whole(
    shared: dict[str, Any], own: dict[str, Any], ref: protocol.Ref
) -> None:
    """A reader's state encoded from the room's shared text and its own fields reads
    exactly as the same state encoded whole, in both messages that carry one."""
    spliced = protocol.ReaderState(json.dumps(shared), own)
    whole = {**shared, **own}
    pairs: list[tuple[protocol.ServerMessage, protocol.ServerMessage]] = [
        (protocol.State(spliced, ref), protocol.State(whole, ref)),
        (
            protocol.Events(3, {"type": "roll"}, [], spliced, ref),
            protocol.Events(3, {"type": "roll"}, [], whole, ref),
        ),
    ]
    for message, plain in pairs:
        assert json.loads(protocol.encode(message)) == json.loads(protocol.encode(plain))


@pytest.mark.parametrize(
    "text",
    [
        "[" * 3000 + "]" * 3000,  # 6 KB, under the size limit
        '{"type": "action", "action": ' + '{"a": ' * 1000 + "1" + "}" * 1000 + "}",
        '{"type": "ping", "ref": NaN}',
        '{"type": "ping", "type": "chat", "text": "hi"}',
        '{"type": "chat", "text": "\\ud800"}',
    ],
    ids=["deep-array", "deep-action", "nan", "a-name-twice", "lone-surrogate"],
)
def test_odd_json_is_malformed_not_a_crash(text: str) -> None:
    """Issue 17 item 2: deep nesting raised RecursionError out of the parser."""
    with pytest.raises(protocol.ProtocolError) as error:
        protocol.parse(text)
    assert error.value.code == "malformed"


def test_the_size_limit_counts_bytes() -> None:
    text = '{"type": "chat", "text": "' + "\N{CYRILLIC SMALL LETTER A}" * 4500 + '"}'
    assert len(text) < protocol.MAX_MESSAGE < len(text.encode())
    with pytest.raises(protocol.ProtocolError) as error:
        protocol.parse(text)
    assert error.value.code == "too-large"
