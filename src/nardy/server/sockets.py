"""The WebSocket of a game room (``/ws/games/{id}``): the transport. It checks the Origin
and who is signed in, holds each user and address to their cap of sockets, decodes each
message with :mod:`nardy.server.protocol`, hands actions to the room, and closes the socket
of a client that keeps sending nonsense or whose session ended. It knows no rules."""

from __future__ import annotations

import asyncio
import contextlib

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from nardy.server import protocol
from nardy.server.accounts.connections import SESSION_ENDED, TOO_MANY_SOCKETS, Connection
from nardy.server.accounts.security import RateLimiter
from nardy.server.accounts.users import hash_token
from nardy.server.config import RateLimit
from nardy.server.lobby.matches import visible_to
from nardy.server.room.actor import Room
from nardy.server.room.member import POLICY_VIOLATION, UNAVAILABLE, Member
from nardy.server.room.registry import GameUnavailable
from nardy.server.site import Site, site_of

CLOSE_REASONS = {
    SESSION_ENDED: "session-ended",
    TOO_MANY_SOCKETS: "too-many-sockets",
    POLICY_VIOLATION: "policy-violation",
}
"""The reason sent with a close code of the server's own (docs/protocol.md)."""
ABUSE_LIMIT = 10
"""Protocol errors a socket may cause before it is closed."""
MESSAGE_RATE = RateLimit(200, 1.0)
"""Messages a socket may send in a second."""


async def game_socket(websocket: WebSocket) -> None:
    """One client in one game room, as a player of their seat or as a spectator."""
    site = site_of(websocket)
    if not site.origin_allowed(websocket) or site.cookie_alone(websocket):
        await websocket.close(POLICY_VIOLATION)  # before accepting: the handshake gets 403
        return
    token = site.session_token(websocket)
    connection = site.connections.open(site.client(websocket), hash_token(token) if token else None)
    try:
        await _serve(websocket, site, connection)
    finally:
        site.connections.close(connection)


async def _serve(websocket: WebSocket, site: Site, connection: Connection) -> None:
    if site.connections.address_full(connection):
        await _refuse(websocket, TOO_MANY_SOCKETS)
        return
    user = await site.user(websocket)
    try:
        room = await site.rooms.get(websocket.path_params["game"])
    except GameUnavailable as exc:  # set aside: whoever may see it hears why, then it ends
        if visible_to(exc.row, user):
            await websocket.accept()
            await websocket.send_text(protocol.encode(protocol.Error(exc.code, str(exc))))
        await websocket.close(UNAVAILABLE)
        return
    if room is None or not visible_to(room.row, user):
        await websocket.close(POLICY_VIOLATION)
        return
    if user is not None and not site.connections.sign_in(connection, user.id):
        await _refuse(websocket, TOO_MANY_SOCKETS)
        return
    await websocket.accept()
    member = Member(
        None if user is None else user.id,
        None if user is None else room.seat_of(user.id),
        None if user is None else user.username,
    )
    connection.attach(member)  # closed at once if the session ended since it was looked up
    await room.join(member)
    writer = asyncio.create_task(_write(websocket, member))
    try:
        await _read(websocket, room, member, connection)
    except WebSocketDisconnect:
        pass
    finally:
        room.leave(member)
        member.finish()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 5)
        writer.cancel()


async def _refuse(websocket: WebSocket, code: int) -> None:
    """Accept only to close with ``code`` and its reason, which a client can read (a
    handshake refused says nothing)."""
    await websocket.accept()
    await websocket.close(code, CLOSE_REASONS[code])


async def _write(websocket: WebSocket, member: Member) -> None:
    while True:
        text = await member.queue.get()
        if isinstance(text, int):  # the end, with the code to close with
            with contextlib.suppress(Exception):
                await websocket.close(text, CLOSE_REASONS.get(text))
            return
        await websocket.send_text(text)


async def _read(websocket: WebSocket, room: Room, member: Member, connection: Connection) -> None:
    abuse = 0
    limiter = RateLimiter(MESSAGE_RATE)
    while True:
        received = await websocket.receive()
        if received["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(received.get("code", 1000))
        if connection.ended:  # signed out: nothing more is done as the user
            return
        data = received.get("text")
        if data is None:
            data = received.get("bytes") or b""
        try:
            message = protocol.parse(data)
            if limiter.hit("socket") is not None:
                raise protocol.ProtocolError(
                    "rate-limited", "too many messages; slow down", message.ref
                )
        except protocol.ProtocolError as exc:
            abuse += 1
            member.send(protocol.Error(exc.code, str(exc), exc.ref))
            if abuse >= ABUSE_LIMIT:
                member.finish(POLICY_VIOLATION)  # the writer sends the error, then closes
                return
            continue
        match message:
            case protocol.ActionMessage(action, named, ref, at):
                refused = await room.act(
                    member.seat, action, ref, named=named, sender=member.key, at=at
                )
                if refused is not None:
                    member.send(refused)
            case protocol.UnreadAction(code, text, ref):
                member.send(protocol.Refused(code, text, ref))
            case protocol.SyncMessage(ref):
                member.send(protocol.State(room.state().seen_by(member.seat), ref))
            case protocol.PingMessage(ref):
                member.send(protocol.Pong(ref))
            case protocol.ChatMessage(text, ref):
                refused = await room.say(member, text, ref)
                if refused is not None:
                    member.send(refused)
            case protocol.SeedMessage(seed, ref):
                refused = await room.contribute(member.seat, seed, ref, member.key)
                if refused is not None:
                    member.send(refused)
            case protocol.ClaimMessage(ref):
                refused = await room.claim(member.seat, ref, member.key)
                if refused is not None:
                    member.send(refused)
            case protocol.RematchMessage(ref):
                refused = await room.rematch(member.seat, ref)
                if refused is not None:
                    member.send(refused)
            case protocol.HintMessage(review, ref):
                room.hints.request(member, review, ref)
            case protocol.PracticeMessage(ref):
                refused = await room.hints.switch_on(member, ref)
                member.send(protocol.Pong(ref) if refused is None else refused)
            case protocol.MuteMessage(muted, ref):
                await room.mute(member, muted)
                member.send(protocol.Pong(ref))


def routes() -> list[BaseRoute]:
    """The room sockets."""
    return [WebSocketRoute("/ws/games/{game}", game_socket)]
