"""Bounded work per request: bodies read as they stream, every endpoint rate-limited, safe headers.

:class:`Guard` is an ASGI middleware in front of the whole table (issue 23):

* **Bodies** are counted while they arrive: a ``Content-Length`` above :data:`MAX_BODY` is refused
  with 413 before a byte is read, and a body sent without one (chunked) is cut off with 413 as
  soon as it passes the limit — nothing larger than the limit is ever held in memory.
  :func:`read_body` is how an endpoint reads its body (it stops at the limit too).
* **Every request is rate-limited** (429 with ``Retry-After``), by what it carries, so that people
  who share an address (a NAT, an office) cannot be kept out by one of them: a request carrying a
  seat's token (``X-Ludica-Token``) counts against that token alone — once the token is known to
  open a seat (``known``): a made-up token counts against its address; a WebSocket handshake counts
  against its address *and room*; anything else (the lobby, static files, opening a room, a guess)
  against its address, with a budget wide enough for everyone behind one address. A seat's
  messages are limited per connection, per token and per room by the server.
* **The client's address** is the TCP peer's; a proxy's ``X-Forwarded-For`` counts only when
  ``ludica serve --forwarded-allow-ips`` names that proxy (uvicorn then puts the client's address
  in the request); by default nobody is trusted.
* **Headers**: every answer carries a Content-Security-Policy without inline script
  (:data:`CSP`), ``frame-ancestors 'none'``, ``X-Frame-Options: DENY``, ``Referrer-Policy:
  no-referrer`` and ``X-Content-Type-Options: nosniff``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.requests import Request

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 16 * 1024
"""The largest request body the table reads (a room's settings, a posted token)."""
ADDRESS_RATE = (20.0, 200.0)
"""Requests per second and burst per client address (requests without a seat's token)."""
TOKEN_RATE = (10.0, 60.0)
"""Requests per second and burst per seat's token (exports, closing a room)."""
HANDSHAKE_RATE = (2.0, 30.0)
"""WebSocket handshakes per second and burst per client address and room."""
TRACKED = 10_000
"""At most this many buckets of each kind are remembered (the oldest are forgotten)."""
KNOWN = 4096
"""At most this many tokens known to open a seat are remembered by the guard."""
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
]


class BodyTooLarge(Exception):
    """A request body passed :data:`MAX_BODY` while it was being read."""


class Bucket:
    """A token bucket: ``rate`` per second, at most ``burst`` at once."""

    __slots__ = ("allowance", "burst", "last", "rate")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.allowance = burst
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.last) * self.rate)
        self.last = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    def wait(self) -> float:
        """Seconds until the next request would be allowed."""
        return max(0.0, (1 - self.allowance) / self.rate)


class Buckets:
    """Buckets by key, the least recently used forgotten past :data:`TRACKED`."""

    def __init__(self, rate: tuple[float, float], limit: int = TRACKED) -> None:
        self.rate = rate
        self.limit = limit
        self.buckets: OrderedDict[str, Bucket] = OrderedDict()

    def get(self, key: str) -> Bucket:
        bucket = self.buckets.pop(key, None) or Bucket(*self.rate)
        self.buckets[key] = bucket
        while len(self.buckets) > self.limit:
            self.buckets.popitem(last=False)
        return bucket

    def allow(self, key: str) -> float:
        """0 if a request under ``key`` may go now, else the seconds to wait."""
        bucket = self.get(key)
        return 0.0 if bucket.allow() else max(bucket.wait(), 0.001)


def client_address(scope: Scope) -> str:
    """The client's address as the server was told it (the TCP peer, or what a trusted proxy said)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _header(scope: Scope, name: bytes) -> bytes | None:
    return next((v for k, v in scope.get("headers", ()) if k == name), None)


class Guard:
    """The ASGI middleware described in the module's docstring."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body: int = MAX_BODY,
        address_rate: tuple[float, float] = ADDRESS_RATE,
        token_rate: tuple[float, float] = TOKEN_RATE,
        handshake_rate: tuple[float, float] = HANDSHAKE_RATE,
        known: Callable[[str], bool] | None = None,
    ) -> None:
        self.app = app
        self.known = known
        """Whether a token's hash opens a seat anywhere (asked in a thread; ``None``: believed)."""
        self.seen: OrderedDict[str, bool] = OrderedDict()
        self.lookups = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ludica-guard")
        self.max_body = max_body
        self.addresses = Buckets(address_rate)
        self.tokens = Buckets(token_rate)
        self.handshakes = Buckets(handshake_rate)

    async def key_of(self, scope: Scope) -> tuple[Buckets, str]:
        """Which bucket a request counts against (see the module's docstring)."""
        address = client_address(scope)
        if scope["type"] == "websocket":
            return self.handshakes, f"{address} {scope.get('path', '')}"
        token = _header(scope, b"x-ludica-token")
        if token:
            digest = hashlib.sha256(token).hexdigest()
            if await self._is_known(digest):
                return self.tokens, digest
        return self.addresses, address

    async def _is_known(self, digest: str) -> bool:
        """True when the token (its hash) opens a seat; a made-up token never gets a bucket."""
        if self.known is None or self.seen.get(digest):
            return True
        known = await asyncio.get_running_loop().run_in_executor(self.lookups, self.known, digest)
        if known:
            self.seen[digest] = True
            while len(self.seen) > KNOWN:
                self.seen.popitem(last=False)
        return bool(known)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        buckets, key = await self.key_of(scope)
        wait = buckets.allow(key)
        if wait:
            await _too_many(scope, send, wait)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _answer(send, 413, f"the request is too large (limit {self.max_body} bytes)")
            return
        await self._bounded(scope, receive, send)

    async def _bounded(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the app with every answer's headers added and the body counted as it streams."""
        read = 0
        started = False

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > self.max_body:
                    raise BodyTooLarge
            return message

        async def headed(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        try:
            await self.app(scope, counted, headed)
        except BodyTooLarge:
            if not started:
                await _answer(send, 413, f"the request is too large (limit {self.max_body} bytes)")


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes | None:
    """The request's body, read as it streams; ``None`` as soon as it passes ``limit`` bytes."""
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                return None
            chunks.append(chunk)
    except BodyTooLarge:
        return None
    return b"".join(chunks)


async def _answer(send: Send, status: int, reason: str, extra: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"error": "TableError", "reason": reason}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *SECURITY_HEADERS,
        *(extra or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _too_many(scope: Scope, send: Send, wait: float) -> None:
    seconds = max(1, math.ceil(wait))
    reason = f"too many requests from you: wait {seconds} s"
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1013, "reason": reason})
        return
    await _answer(send, 429, reason, [(b"retry-after", str(seconds).encode())])
