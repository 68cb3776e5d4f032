"""What the HTTP endpoints share: JSON replies and errors, the signed-in user, the CSRF
check, work off the event loop."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

from anyio import to_thread
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from nardy.server.jsontext import JSONTextError, decode

P = ParamSpec("P")
T = TypeVar("T")
MAX_BODY = 64 * 1024


class HTTPError(Exception):
    """An answer other than success: the status, a code a program can act on, and the
    text for a person."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.headers = headers or {}

    def response(self) -> Response:
        """This error as the JSON reply ``{"error": code, "message": text}``."""
        return JSONResponse(
            {"error": self.code, "message": str(self)}, self.status, headers=self.headers
        )


async def off_loop(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run a blocking call (the database, argon2) in a worker thread."""
    return await to_thread.run_sync(lambda: fn(*args, **kwargs))


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object; 400 for anything else, 413 as soon as it is too large."""
    body = await _body(request)
    if not body:
        return {}
    try:
        data = decode(body)
    except JSONTextError as exc:
        raise HTTPError(400, "malformed", f"the body is not a JSON object: {exc}") from None
    if not isinstance(data, dict):
        raise HTTPError(400, "malformed", "the body is a JSON object")
    return data


async def _body(request: Request) -> bytes:
    # Refused before it is read (a Content-Length over the limit) or as soon as the part
    # read passes the limit (a chunked body): a large body never sits in memory.
    too_large = HTTPError(413, "too-large", f"a request body has at most {MAX_BODY} bytes")
    length = request.headers.get("content-length", "")
    if length.isascii() and length.isdigit() and int(length) > MAX_BODY:
        raise too_large
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise too_large
    except ClientDisconnect:  # nobody hears the answer, but it is no error of the server's
        raise HTTPError(400, "malformed", "the client went away before its body ended") from None
    return bytes(body)


Handler = Callable[[Request], Awaitable[Response]]


def handles_errors(fn: Handler) -> Handler:
    """Turn an :class:`HTTPError` raised by an endpoint into its JSON reply."""

    async def endpoint(request: Request) -> Response:
        try:
            return await fn(request)
        except HTTPError as exc:
            return exc.response()

    endpoint.__name__ = fn.__name__
    endpoint.__doc__ = fn.__doc__
    return endpoint
