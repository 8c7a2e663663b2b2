"""The door of ``ludica serve``: slow and silent connections are closed, open connections are capped.

uvicorn times out a connection only between two requests (its keep-alive timeout): a client
that connects and sends nothing, or stops halfway through its headers or its body, keeps its
socket — and the process's file descriptors — for ever. With the usual limit of 1,024 open
files, about a thousand such sockets make every honest request fail. The table's HTTP protocol
(:func:`protocol`, uvicorn's own with a :class:`Doorman` at the door) adds:

* **a request deadline**: a request's headers and body must have arrived within
  :attr:`Doors.request_seconds` of the connection opening (or of the previous answer, on a kept
  connection); otherwise the connection is closed. Between requests uvicorn's keep-alive timeout
  (:data:`KEEP_ALIVE_SECONDS`) closes an idle connection sooner;
* **a header size limit** (:attr:`Doors.max_head`): a request whose headers pass it is answered
  431 and closed as soon as they do (headers are never held in memory beyond it);
* **a cap per address** (:attr:`Doors.per_address`): an address's connections beyond it are closed
  at once (WebSockets included, until they close);
* **a cap in all** (:attr:`Doors.total`, lowered to fit the process's open-file limit): when the
  table is full, a new connection closes the one that has waited longest without completing its
  request (a stalled one), so that an honest request still gets in; only when every connection
  is busy (answering, or a live WebSocket) is the new one closed.

A WebSocket keeps its place in the counts until it closes; the table closes one that sends no
``hello`` within its own timeout, and uvicorn one that answers no ping.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

KEEP_ALIVE_SECONDS = 5
"""uvicorn's idle timeout between two requests on one connection."""
RESERVED_FILES = 128
"""Open files kept free of client connections (the database, bot workers, static files, logs)."""


@dataclass(frozen=True, slots=True)
class Doors:
    """The door's settings (``ludica serve`` uses the defaults)."""

    request_seconds: float = 10.0
    """A request's headers and body arrive within this many seconds, or the connection is closed."""
    max_head: int = 32 * 1024
    """The most bytes of request line and headers a request may send."""
    per_address: int = 64
    """Open connections (WebSockets included) one client address may hold."""
    total: int = 4096
    """Open connections in all (lowered to the open-file limit less :data:`RESERVED_FILES`)."""


def _answer_431() -> bytes:
    body = b"the request's headers are too large"
    head = (
        b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    return head + body


def open_file_limit() -> int:
    """The process's open-file limit, raised to its hard limit where the system allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


class Doorman:
    """Counts the open connections of one process and closes those the module's docstring says."""

    def __init__(self, doors: Doors, files: int | None = None) -> None:
        self.doors = doors
        files = open_file_limit() if files is None else files
        self.total = max(16, min(doors.total, files - RESERVED_FILES))
        self.by_address: dict[str, int] = {}
        self.open = 0
        self.waiting: OrderedDict[Any, float] = OrderedDict()
        """Connections whose request has not fully arrived, oldest first (their protocols)."""
        self.refused = 0
        self.timed_out = 0
        self.evicted = 0
        self.too_large = 0

    def admit(self, address: str) -> bool:
        """Room for one more connection from ``address`` (the oldest stalled one may be closed)."""
        if self.by_address.get(address, 0) >= self.doors.per_address:
            self.refused += 1
            return False
        if self.open >= self.total:
            if not self.waiting:
                self.refused += 1
                return False
            stalled, _since = self.waiting.popitem(last=False)
            self.evicted += 1
            stalled.shut()
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.open += 1
        return True

    def release(self, address: str) -> None:
        left = self.by_address.get(address, 0) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)
        self.open = max(0, self.open - 1)

    def wait(self, conn: Any) -> None:
        """``conn`` waits for a request from now on."""
        self.waiting.pop(conn, None)
        self.waiting[conn] = time.monotonic()

    def served(self, conn: Any) -> None:
        """``conn``'s request has arrived whole (or it became a WebSocket, or it closed)."""
        self.waiting.pop(conn, None)


_DOORMEN: dict[Doors, Doorman] = {}


def doorman(doors: Doors) -> Doorman:
    """The process's doorman for these settings (one per process and settings)."""
    found = _DOORMEN.get(doors)
    if found is None:
        found = _DOORMEN[doors] = Doorman(doors)
    return found


def protocol(doors: Doors | None = None) -> type | str:
    """What ``uvicorn.run(http=...)`` is given: uvicorn's httptools protocol behind the door (by
    name for the defaults, so that worker processes import it), or ``"auto"`` where httptools is
    not installed (uvicorn's h11 then bounds the headers alone)."""
    try:
        found = _protocol_class(doors or Doors())
    except ImportError:
        return "auto"
    return "ludica.table.doorman:DoorProtocol" if doors is None else found


def __getattr__(name: str) -> Any:
    """``DoorProtocol``: the protocol at the default settings (uvicorn imports it by name)."""
    if name == "DoorProtocol":
        return _protocol_class(Doors())
    raise AttributeError(name)


_PROTOCOLS: dict[Doors, type] = {}


def _protocol_class(doors: Doors) -> type:
    found = _PROTOCOLS.get(doors)
    if found is None:
        found = _PROTOCOLS[doors] = _make_protocol(doors)
    return found


def _make_protocol(doors: Doors) -> type:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class DoorProtocol(HttpToolsProtocol):  # type: ignore[misc]
        """uvicorn's HTTP protocol with the :class:`Doorman`'s deadline, header limit and caps."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.door = doorman(doors)
            self.address = ""
            self.admitted = False
            self.head = 0
            self.head_done = False
            self.deadline: asyncio.TimerHandle | None = None
            if self.ws_protocol_class is not None:
                self.ws_protocol_class = _counted_ws(self.ws_protocol_class, self.door)

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.address = str(self.client[0]) if self.client else "unknown"
            if not self.door.admit(self.address):
                transport.abort()
                return
            self.admitted = True
            self._wait()

        def _wait(self) -> None:
            self.head, self.head_done = 0, False
            self.door.wait(self)
            if self.deadline is not None:
                self.deadline.cancel()
            self.deadline = self.loop.call_later(doors.request_seconds, self._late)

        def _late(self) -> None:
            self.deadline = None
            if self in self.door.waiting:
                self.door.timed_out += 1
                self.shut()

        def shut(self) -> None:
            """Close at once (a stalled connection: nothing is owed to it)."""
            self.door.served(self)
            if self.transport is not None and not self.transport.is_closing():
                self.transport.abort()

        def data_received(self, data: bytes) -> None:
            if not self.admitted:
                return
            if not self.head_done:
                self.head += len(data)
            super().data_received(data)
            if not self.head_done and self.head > doors.max_head and not self.transport.is_closing():
                self.door.too_large += 1
                self.door.served(self)
                self.transport.write(_answer_431())
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self.head_done = False

        def on_headers_complete(self) -> None:
            self.head_done = True
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self.door.served(self)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.admitted and not self.transport.is_closing():
                self._wait()

        def handle_websocket_upgrade(self) -> None:
            self.door.served(self)
            if self.deadline is not None:
                self.deadline.cancel()
            self.admitted = False  # the WebSocket protocol releases the place when it closes
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            self.door.served(self)
            if self.deadline is not None:
                self.deadline.cancel()
            if self.admitted:
                self.admitted = False
                self.door.release(self.address)

    DoorProtocol.__name__ = "DoorProtocol"
    return DoorProtocol


_COUNTED: dict[tuple[type, int], type] = {}


def _counted_ws(base: type, door: Doorman) -> type:
    """``base`` (a uvicorn WebSocket protocol) releasing its connection's place when it closes."""
    found = _COUNTED.get((base, id(door)))
    if found is not None:
        return found

    class Counted(base):  # type: ignore[misc, valid-type]
        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            client = transport.get_extra_info("peername")
            self.door_address: str | None = str(client[0]) if client else "unknown"

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            address = getattr(self, "door_address", None)
            if address is not None:
                self.door_address = None
                door.release(address)

    _COUNTED[(base, id(door))] = Counted
    return Counted
