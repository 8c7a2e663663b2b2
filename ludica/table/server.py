"""The web table: FastAPI on uvicorn, one WebSocket per browser, views rendered on the server.

``serve(host, port, db_url, open_browser)`` is what ``ludica serve`` calls. :func:`create_app`
builds the application (tests use it in-process).

Routes
  ``GET /``                          the lobby (rooms of this browser, open a room for any game)
  ``POST /rooms``                    open a room (form or JSON); answers the invite links
  ``GET /play/{room}#<token>``       the table page; the token stays in the fragment (never sent
                                     in a URL the server logs) and is given over the WebSocket
  ``WS  /ws/{room}``                 live play (see ``docs/table.md`` for the messages)
  ``GET /rooms/{room}/story.md|story.html|record.json``  exports, the token in the
                                     ``X-Ludica-Token`` header (or ``POST`` with a ``token`` form
                                     field) — never in the URL; the record only once the game is over
  ``DELETE /rooms/{room}``           the host closes and deletes the room (``X-Ludica-Token``)
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import math
import threading
import time
import webbrowser
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles

from ..core import Action, ConfigError, GameMeta, LudicaError, get_game
from ..core.people import shown
from ..core.records import chance_indices, record_of
from ..core.registry import EXAMPLES, GAME_MODULES, available
from . import chat
from .bots import TableBots
from .doorman import KEEP_ALIVE_SECONDS, Doors
from .doorman import protocol as door_protocol
from .faces import render
from .limits import Bucket, Buckets, Guard, read_body
from .render_cache import drop_renderings, encode
from .rooms import Invite, Room, Rooms, TableError, table_role
from .seatview import part_is_current, payload, seat_of, seat_part, story_entries, story_steps
from .storage import CLOSED, Listener, Store, hash_token
from .wire import WireError, read_json
from .ws_deflate import protocol as ws_protocol

log = logging.getLogger("ludica.table")

MAX_MESSAGE = 16 * 1024
RATE_PER_SECOND = 20.0
RATE_BURST = 40.0
QUEUE_LIMIT = 256
HELLO_TIMEOUT = 15.0
CLOCK_INTERVAL = 15.0
LINK_REISSUED = 4403
"""Close code: the link is not valid (any more); the client does not reconnect."""
ROOM_CLOSED = 4404
"""Close code: the host closed (deleted) the room; the client does not reconnect."""
ROOM_MESSAGES = (100.0, 200.0)
"""Messages per second and burst of all the connections of one room together."""
ROOM_RATE = 0.2
ROOM_BURST = 20.0
"""Rooms one client (address) may open: a burst of 20, then one every 5 seconds."""
IDLE_SECONDS = 600.0
"""A room nobody watched for this long leaves memory (it comes back from storage when asked)."""
SWEEP_INTERVAL = 60.0
CLIENTS_TRACKED = 10_000
"""At most this many client addresses are remembered for the room-creation limit."""
BOT_ROOMS = 4
"""Rooms with bots one address may have in play at once (their bots share one worker)."""
SLOW_CLIENT = 1013
"""Close code: the connection fell too far behind; the client reconnects and resynchronises."""
STATIC = Path(__file__).parent / "static"
T = TypeVar("T")


class RateLimit(Bucket):
    """A token bucket per connection: :class:`ludica.table.limits.Bucket` at the table's message rate."""

    __slots__ = ()

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        super().__init__(rate, burst)


class Connection:
    """One browser's WebSocket, its role and its ordered outbox."""

    __slots__ = ("close_code", "closed", "granted", "limit", "limits", "log_sent", "outbox", "role", "token", "ws")

    def __init__(self, ws: WebSocket, role: str, limit: RateLimit, token: str = "", granted: str = "") -> None:
        self.ws = ws
        self.role = role
        self.log_sent = -1
        """How many story entries the page holds (the last ``log_total`` sent; -1: none yet)."""
        self.closed = False
        self.close_code = 1000
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)
        self.limit = limit
        self.limits: tuple[RateLimit | Bucket, ...] = ()
        """Limits shared with other connections (its token's, its room's): see :meth:`allow`."""
        self.token = token
        """The link's token (checked again before every change: a re-issue may have revoked it)."""
        self.granted = granted or role
        """The role the token grants in storage (a bot's seat is watched as a spectator)."""

    def allow(self) -> bool:
        """One more message within this connection's, its token's and its room's limits."""
        return all(limit.allow() for limit in (self.limit, *self.limits))

    def push(self, text: str) -> bool:
        try:
            self.outbox.put_nowait(text)
            return True
        except asyncio.QueueFull:
            return False

    async def pump(self) -> None:
        while True:
            text = await self.outbox.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.ws.close(code=self.close_code)
                return
            await self.ws.send_text(text)


class Table:
    """Rooms, their live connections and per-room locks (one writer per room).

    Memory stays bounded: a lock, a clock entry or a cached room exists only for a room that
    exists in storage; a room nobody watches leaves memory after ``idle_seconds`` (at once when
    its game is over) and comes back from storage when asked (:meth:`sweep`); each client address
    may open rooms only at ``room_rate`` (a token bucket per address, at most
    :data:`CLIENTS_TRACKED` addresses remembered).
    """

    def __init__(
        self,
        store: Store,
        clock_interval: float = CLOCK_INTERVAL,
        rate: tuple[float, float] = (RATE_PER_SECOND, RATE_BURST),
        room_rate: tuple[float, float] = (ROOM_RATE, ROOM_BURST),
        idle_seconds: float = IDLE_SECONDS,
        room_messages: tuple[float, float] = ROOM_MESSAGES,
    ) -> None:
        self.store = store
        self.clock_interval = clock_interval
        self.rate = rate
        self.room_rate = room_rate
        self.idle_seconds = idle_seconds
        self.listener: Listener | None = None
        self.last_tick: dict[str, float] = {}
        self.last_seen: dict[str, float] = {}
        self.rooms = Rooms(store)
        self.connections: dict[str, set[Connection]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.openers: OrderedDict[str, RateLimit] = OrderedDict()
        self.create_lock = asyncio.Lock()
        self.executor = ThreadPoolExecutor(max_workers=16, thread_name_prefix="ludica-db")
        self.owners: OrderedDict[str, str] = OrderedDict()
        """The address that opened each room (this process's memory; a room loaded from storage
        is its own owner)."""
        self.bots = TableBots(self.run, present=self.present, owner=self.owner_of)
        self.token_limits = Buckets(rate)
        """Messages of every connection of one link together (opening more sockets gains nothing)."""
        self.room_limits = Buckets(room_messages)
        """Messages of every connection of one room together."""

    def present(self, room_id: str) -> bool:
        """A person (a seat, the host or a spectator) is connected to the room here."""
        return bool(self.connections.get(room_id))

    def owner_of(self, room_id: str) -> str:
        return self.owners.get(room_id) or room_id

    def bot_rooms_of(self, address: str) -> int:
        """Rooms with bots opened from ``address`` and still in play (in this process's memory)."""
        count = 0
        for room_id, owner in self.owners.items():
            room = self.rooms.live.get(room_id)
            if owner == address and room is not None and not room.is_over() and room.row.settings.get("bots"):
                count += 1
        return count

    def opened(self, room_id: str, address: str) -> None:
        self.owners[room_id] = address
        while len(self.owners) > CLIENTS_TRACKED:
            self.owners.popitem(last=False)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    def lock(self, room_id: str) -> asyncio.Lock:
        """The room's lock (only ever asked for a room that exists)."""
        return self.locks.setdefault(room_id, asyncio.Lock())

    async def room(self, room_id: str) -> Room | None:
        """The room, from memory or else from storage; an unknown id leaves nothing behind."""
        room = self.rooms.live.get(room_id)
        if room is not None:
            return room
        row = await self.run(self.store.room, room_id)
        if row is None:
            return None
        async with self.lock(room_id):
            room = self.rooms.live.get(room_id)
            if room is None:
                room = await self.run(self.rooms.load, row)
                self.last_seen[room_id] = time.monotonic()
            return room

    def may_open_room(self, client: str) -> float:
        """0 if ``client`` may open a room now, else the seconds to wait."""
        limit = self.openers.pop(client, None) or RateLimit(*self.room_rate)
        self.openers[client] = limit
        while len(self.openers) > CLIENTS_TRACKED:
            self.openers.popitem(last=False)
        return 0.0 if limit.allow() else limit.wait()

    async def sweep(self, now: float | None = None) -> list[str]:
        """Forget every room nobody watches that is finished or idle since ``idle_seconds``
        (``now``: a monotonic time, for tests); returns their ids."""
        now = time.monotonic() if now is None else now
        gone = []
        for room_id, room in list(self.rooms.live.items()):
            lock = self.locks.get(room_id)
            if self.connections.get(room_id) or (lock is not None and lock.locked()):
                continue
            if room.archived or now - self.last_seen.setdefault(room_id, now) >= self.idle_seconds:
                self.forget(room_id)
                gone.append(room_id)
        return gone

    def unwatched(self, room_id: str) -> None:
        """Nobody watches the room any more: its renderings leave memory (the match stays)."""
        room = self.rooms.live.get(room_id)
        if room is not None and not self.connections.get(room_id):
            drop_renderings(room)

    def forget(self, room_id: str) -> None:
        """Drop everything this process keeps of a room (storage keeps the room)."""
        self.rooms.forget(room_id)
        for table in (self.locks, self.last_tick, self.last_seen, self.connections):
            table.pop(room_id, None)
        if room_id not in self.rooms.live:
            self.owners.pop(room_id, None)

    async def sweeper(self, interval: float = SWEEP_INTERVAL) -> None:
        while True:
            await asyncio.sleep(interval)
            with contextlib.suppress(Exception):
                await self.sweep()

    async def close_room(self, room_id: str) -> None:
        """The host closes the room: deleted from storage; every browser told and disconnected."""
        async with self.lock(room_id):
            await self.run(self.store.delete_room, room_id)
            self.closed_here(room_id)

    def closed_here(self, room_id: str) -> None:
        text = json.dumps({"type": "closed", "reason": "the host closed this room: it and its record are deleted"})
        for conn in list(self.connections.get(room_id, ())):
            conn.push(text)
            self.drop(room_id, conn, ROOM_CLOSED)
        self.forget(room_id)

    def reissued_here(self, room_id: str, role: str, notice: str) -> None:
        """The link of ``role`` was re-issued: its sockets here are told and closed, the others
        get the ``notice``."""
        for other in list(self.connections.get(room_id, ())):
            if other.granted == role:
                other.push(json.dumps(_error(REISSUED, "links")))
                self.drop(room_id, other, LINK_REISSUED)
            else:
                other.push(notice)

    def broadcast(self, room: Room) -> None:
        """Each connection gets its own role's view, in order (called with the room's lock held).

        A view is rendered once per seat (spectators and the host share theirs) and encoded
        once per role and story position; the story carries only the entries the page lacks."""
        self.told(room)
        texts: dict[tuple[str, int], tuple[str, int]] = {}
        for conn in list(self.connections.get(room.id, ())):
            key = (conn.role, conn.log_sent)
            found = texts.get(key)
            if found is None:
                start = conn.log_sent if conn.log_sent >= 0 else None
                message = payload(room, conn.role, full_log=False, log_from=start)
                found = texts[key] = encode(message), int(message["log_total"])
            if not conn.push(found[0]):
                self.drop(room.id, conn, SLOW_CLIENT, drain=True)  # it reconnects and resynchronises
                continue
            conn.log_sent = found[1]
        self.wake_bots(room)

    def told(self, room: Room) -> None:
        """The lines said since the last broadcast that are talk (:attr:`chat.Line.talk`) go to
        every page; the table's own (undo, declines, the clock, an action that left no story line:
        :meth:`Room.say`) are read in each seat's news and the story, never in the talk panel."""
        said, room.said = room.said, []
        for line in said:
            if not line.talk:
                continue
            frame = json.dumps({"type": "chat", "line": chat.line_json(room, line)}, ensure_ascii=False)
            for conn in list(self.connections.get(room.id, ())):
                conn.push(frame)

    def watched(self, room: Room) -> set[str | None]:
        """The seats whose views are watched here (``None``: spectators and the host)."""
        return {seat_of(conn.role) for conn in self.connections.get(room.id, ())}

    async def rendered(self, room: Room) -> None:
        """Render the seats' views of the watched roles off the event loop (the room's lock is
        held), so that :meth:`broadcast` only encodes and sends; no thread call when they are
        rendered already (an act renders them in its own thread call, :func:`_act_if_valid`)."""
        seats = self.watched(room)
        if seats and not all(part_is_current(room, seat) for seat in seats):
            await self.run(render_parts, room, seats)

    def sent(self, conn: Connection, message: dict[str, Any]) -> str:
        """A whole state for one connection (a (re)connection or a sync), noting its story."""
        conn.log_sent = int(message.get("log_total", conn.log_sent))
        return encode(message)

    def wake_bots(self, room: Room) -> None:
        """A bot seated in the room thinks if it must decide (:mod:`ludica.table.bots`)."""
        self.bots.wake(room, self.lock(room.id), self.broadcast)

    def drop(self, room_id: str, conn: Connection, code: int = 1000, *, drain: bool = False) -> None:
        """Stop serving a connection and close its socket once its outbox is sent (or drained)."""
        self.connections.get(room_id, set()).discard(conn)
        if conn.closed:
            return
        conn.closed, conn.close_code = True, code
        while drain and not conn.outbox.empty():
            conn.outbox.get_nowait()
        with contextlib.suppress(asyncio.QueueFull):
            conn.outbox.put_nowait(None)

    def listen(self) -> None:
        """With PostgreSQL, follow the rooms other table processes advance (LISTEN/NOTIFY)."""
        if self.store.is_sqlite:
            return
        loop = asyncio.get_running_loop()

        def on_notice(room_id: str, length: int) -> None:
            if room_id in self.rooms.live:
                loop.call_soon_threadsafe(lambda: loop.create_task(self._advanced(room_id, length)))

        def on_reissue(room_id: str, role: str) -> None:
            if room_id in self.rooms.live:
                loop.call_soon_threadsafe(lambda: loop.create_task(self._reissued(room_id, role)))

        self.listener = Listener(self.store.url, on_notice, on_reissue)

    async def _reissued(self, room_id: str, role: str) -> None:
        """Another process re-issued ``role``'s link: tell and close its sockets here, announce it
        to the others (issue 23, point 2)."""
        async with self.lock(room_id):
            room = self.rooms.live.get(room_id)
            if room is None:
                return
            row = await self.run(self.store.room, room_id)
            if row is not None:
                room.row = row  # the re-issue's notice is in its settings
            notices = room.notices()
            text = notices[-1] if notices else "the host issued a new link; the old one no longer works"
            self.reissued_here(room_id, role, json.dumps({"type": "notice", "text": text}, ensure_ascii=False))

    async def _advanced(self, room_id: str, length: int) -> None:
        if room_id not in self.rooms.live:
            return
        async with self.lock(room_id):
            room = self.rooms.live.get(room_id)
            if room is None or room.step == length:
                return
            if length == CLOSED:
                self.closed_here(room_id)  # the host closed it through another process
                return
            if not self.connections.get(room_id):
                self.forget(room_id)  # nobody watches it here: load it afresh when asked
                return
            if length > room.step:  # the usual case: another process appended to the record
                changed = await self.run(room.catch_up)
            else:  # an undo elsewhere (or a late notice of our own commit): look at the record
                changed = await self.run(self.store.count, room_id) != room.step
                if changed:
                    await self.run(room.reload)
            if changed:
                await self.rendered(room)
                self.broadcast(room)

    async def clock(self) -> None:
        """Every few seconds, feed the time that passed to each watched room whose game takes it."""
        while True:
            await asyncio.sleep(self.clock_interval)
            for room_id in [r for r, conns in self.connections.items() if conns]:
                with contextlib.suppress(Exception):
                    await self._tick(room_id)

    async def _tick(self, room_id: str) -> None:
        if room_id not in self.rooms.live:
            return
        now = time.monotonic()
        last = self.last_tick.setdefault(room_id, now)
        async with self.lock(room_id):
            room = self.rooms.live.get(room_id)
            if room is None or room.clock_template() is None:
                self.last_tick[room_id] = now
                return
            try:
                done = await self.run(room.tick, now - last)
            except LudicaError:
                return
            if done:
                self.last_tick[room_id] = now
                await self.rendered(room)
                self.broadcast(room)

    async def aclose(self) -> None:
        """Shut down, always to the end: the bots' tasks are cancelled and awaited (bounded), their
        workers killed, then the blocking work still running is let finish and storage closed."""
        await self.bots.aclose()
        self.close()

    def close(self) -> None:
        self.bots.close()
        if self.listener is not None:
            self.listener.close()
        self.executor.shutdown(wait=True)
        self.bots.close()  # a worker spawned by a thread that was still running is killed too
        self.store.close()


def create_app(
    db_url: str | None = None,
    *,
    clock_interval: float = CLOCK_INTERVAL,
    rate: tuple[float, float] = (RATE_PER_SECOND, RATE_BURST),
    room_rate: tuple[float, float] = (ROOM_RATE, ROOM_BURST),
    idle_seconds: float = IDLE_SECONDS,
    sweep_interval: float = SWEEP_INTERVAL,
    guard: dict[str, Any] | None = None,
    room_messages: tuple[float, float] = ROOM_MESSAGES,
) -> FastAPI:
    """The table over the database at ``db_url`` (default: SQLite in the user's data directory).

    ``clock_interval``: seconds between clock ticks; ``rate``: messages per second and burst
    allowed per connection (``room_messages``: all the connections of one room together);
    ``room_rate``: rooms per second and burst one client address may
    open; ``idle_seconds``: how long a room nobody watches stays in memory (checked every
    ``sweep_interval`` seconds); ``guard``: keyword arguments of :class:`~ludica.table.limits.Guard`
    (body limit, request rates).
    """
    store = Store(db_url)
    holder: dict[str, Table] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> Any:
        holder["table"] = Table(store, clock_interval, rate, room_rate, idle_seconds, room_messages)
        holder["table"].listen()
        tasks = [
            asyncio.create_task(holder["table"].clock()),
            asyncio.create_task(holder["table"].sweeper(sweep_interval)),
        ]
        yield
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await holder["table"].aclose()

    app = FastAPI(title="Ludica table", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.add_middleware(Guard, **{"known": store.knows_token, **(guard or {})})  # type: ignore[arg-type]
    app.state.store = store

    def table() -> Table:
        return holder["table"]

    app.state.table = table

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> Response:
        log.error("unexpected %s on a request", type(exc).__name__)
        return JSONResponse({"error": "InternalError", "reason": "the table could not do that"}, status_code=500)

    @app.get("/", response_class=HTMLResponse)
    async def lobby(examples: bool = False) -> str:
        """The example games (Pig) are for developers: listed only with ``/?examples=1``."""
        return render("lobby.html", games=_games(examples=examples))

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return _games()

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/rooms")
    async def create_room(request: Request) -> Response:
        wants_json = "application/json" in request.headers.get("content-type", "")
        t = table()
        address = request.client.host if request.client else "unknown"
        wait = t.may_open_room(address)
        if wait:
            seconds = max(1, math.ceil(wait))
            reason = f"too many rooms opened from your address: wait {seconds} s before opening another"
            refused = _refuse(wants_json, reason, 429)
            refused.headers["Retry-After"] = str(seconds)
            return refused
        body = await read_body(request, MAX_MESSAGE)
        if body is None:
            return _refuse(wants_json, "the request is too large", 413)
        try:
            game_id, players, options, table_settings = _room_request(body, wants_json)
            if table_settings.get("bots") and t.bot_rooms_of(address) >= BOT_ROOMS:
                reason = f"you have {BOT_ROOMS} rooms with bots in play: finish or close one before opening another"
                return _refuse(wants_json, reason, 429)
            async with t.create_lock:
                room, invites = await t.run(lambda: t.rooms.create(game_id, players, options, **table_settings))
        except LudicaError as exc:
            return _refuse(wants_json, exc.reason, 400)
        t.last_seen[room.id] = time.monotonic()
        t.opened(room.id, address)
        t.wake_bots(room)
        links = [_invite_json(room.id, i) for i in invites]
        if wants_json:
            return JSONResponse({"room": room.id, "seed_hash": room.row.seed_hash, "invites": links}, status_code=201)
        page = render(
            "created.html", room_id=room.id, title=room.game.meta.title, seed_hash=room.row.seed_hash, invites=links
        )
        return HTMLResponse(page, status_code=201)

    @app.get("/play/{room_id}", response_class=HTMLResponse)
    async def play(room_id: str) -> Response:
        room = await table().room(room_id)
        if room is None:
            return HTMLResponse(render("error.html", heading="No such room", reason="Check the link."), 404)
        return HTMLResponse(render("play.html", room_id=room.id, title=room.game.meta.title))

    @app.api_route("/rooms/{room_id}/story.md", methods=["GET", "POST"])
    async def story_md(room_id: str, request: Request) -> Response:
        found = await _authorise(room_id, request)
        if isinstance(found, Response):
            return found
        room, role = found
        return PlainTextResponse(_story_markdown(room, role), media_type="text/markdown; charset=utf-8")

    @app.api_route("/rooms/{room_id}/story.html", methods=["GET", "POST"])
    async def story_html(room_id: str, request: Request) -> Response:
        found = await _authorise(room_id, request)
        if isinstance(found, Response):
            return found
        room, role = found
        steps = await table().run(_story_with_talk, room, role)
        page = render("story.html", title=room.game.meta.title, room_id=room.id, who=room.label(role), steps=steps)
        return HTMLResponse(page)

    @app.api_route("/rooms/{room_id}/record.json", methods=["GET", "POST"])
    async def record_json(room_id: str, request: Request) -> Response:
        found = await _authorise(room_id, request)
        if isinstance(found, Response):
            return found
        room, _role = found
        if not room.is_over():
            return JSONResponse(
                {"error": "TableError", "reason": "the record holds every secret: it is exported after the game"},
                status_code=409,
            )
        return JSONResponse(export_record(room))

    @app.delete("/rooms/{room_id}")
    async def delete_room(room_id: str, request: Request) -> Response:
        found = await _authorise(room_id, request)
        if isinstance(found, Response):
            return found
        room, role = found
        if not room.can_manage(role):
            return JSONResponse({"error": "TableError", "reason": "only the host may close the room"}, 403)
        await table().close_room(room_id)
        return Response(status_code=204)

    async def _authorise(room_id: str, request: Request) -> tuple[Room, str] | Response:
        """The room and the role of the token given in the ``X-Ludica-Token`` header (or, for a
        POST, the ``token`` form field). A token in the URL is refused: a link that holds it
        shares the seat, and lands in browser histories and logs."""
        if "t" in request.query_params or "token" in request.query_params:
            reason = (
                "a seat's token never goes in a URL (sharing the link would share the seat): "
                "send it in the X-Ludica-Token header, or POST it as the form field 'token'"
            )
            return JSONResponse({"error": "TableError", "reason": reason}, 400)
        token = request.headers.get("x-ludica-token") or ""
        if not token and request.method == "POST":
            posted = await _posted_token(request)
            if posted is None:
                return JSONResponse({"error": "TableError", "reason": "the request is too large"}, 413)
            token = posted
        t = table()
        room = await t.room(room_id)
        role = await t.run(t.store.role_of, room_id, token) if room is not None and token else None
        if room is None or role is None:
            return JSONResponse({"error": "TableError", "reason": "no such room, or the link is not valid"}, 403)
        return room, table_role(room, role)

    @app.websocket("/ws/{room_id}")
    async def websocket(ws: WebSocket, room_id: str) -> None:
        await ws.accept()
        await _session(table(), ws, room_id)

    return app


# -- the WebSocket session -------------------------------------------------------------------------
async def _session(t: Table, ws: WebSocket, room_id: str) -> None:
    hello = await _hello(t, ws, room_id)
    if hello is None:
        return
    room, conn = hello
    pump = asyncio.create_task(conn.pump())
    try:
        if not await _register(t, room_id, room, conn):
            await asyncio.wait_for(pump, HELLO_TIMEOUT)  # the refusal is sent, then the socket closed
            return
        while True:
            text = await ws.receive_text()
            await _handle(t, room_id, conn, text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    except Exception as exc:  # a binary frame, a broken socket...: no trace, no value in the log
        log.warning("room %s: connection ended by %s", room_id, type(exc).__name__)
        with contextlib.suppress(Exception):
            await ws.close(code=1003)
    finally:
        t.drop(room_id, conn)
        if room_id in t.rooms.live:
            t.last_seen[room_id] = time.monotonic()  # idle from now on, unless others still watch
            t.unwatched(room_id)
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pump


async def _register(t: Table, room_id: str, room: Room, conn: Connection) -> bool:
    """Serve ``conn`` from now on, if its link is still valid *under the room's lock*: a re-issue
    holds the same lock, so a link is either re-issued before (refused here) or after (then the
    re-issue finds this connection and closes it) — never kept (issue 23, point 1)."""
    async with t.lock(room_id):
        room = t.rooms.live.get(room_id) or room
        if await t.run(t.store.role_of, room_id, conn.token) != conn.granted:
            conn.push(json.dumps(_error(LINK_INVALID, "link")))
            conn.closed, conn.close_code = True, LINK_REISSUED
            conn.outbox.put_nowait(None)
            return False
        t.connections.setdefault(room_id, set()).add(conn)
        conn.push(t.sent(conn, payload(room, conn.role)))
        t.wake_bots(room)
    return True


LINK_INVALID = "no such room, or the link is not valid (ask for a new one)"


async def _hello(t: Table, ws: WebSocket, room_id: str) -> tuple[Room, Connection] | None:
    try:
        text = await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT)
        message = read_json(text) if len(text) <= MAX_MESSAGE else None
    except (TimeoutError, WebSocketDisconnect, WireError, RuntimeError, KeyError):
        message = None
    token = message.get("token") if isinstance(message, dict) and message.get("type") == "hello" else None
    room = await t.room(room_id) if isinstance(token, str) and token else None
    role = await t.run(t.store.role_of, room_id, token) if room is not None and isinstance(token, str) else None
    if room is None or role is None or not isinstance(token, str):
        with contextlib.suppress(Exception):
            await ws.send_text(json.dumps(_error(LINK_INVALID, "link")))
            await ws.close(code=LINK_REISSUED)
        return None
    conn = Connection(ws, table_role(room, role), RateLimit(*t.rate), token, role)
    conn.limits = (t.token_limits.get(hash_token(token)), t.room_limits.get(room_id))
    return room, conn


async def _handle(t: Table, room_id: str, conn: Connection, text: str) -> None:
    if conn.closed:
        return
    if len(text) > MAX_MESSAGE:
        conn.push(json.dumps(_error(f"message too large (limit {MAX_MESSAGE} bytes)", "size")))
        return
    if not conn.allow():
        conn.push(json.dumps(_error("too many messages: slow down", "rate limit")))
        return
    try:
        message = read_json(text)
    except WireError as exc:
        conn.push(json.dumps(_error(exc.reason, "protocol")))
        return
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        conn.push(json.dumps(_error("a message is a JSON object with a 'type'", "protocol")))
        return
    handler = HANDLERS.get(message["type"])
    if handler is None:
        conn.push(json.dumps(_error(f"unknown message type {message['type']!r}", "protocol")))
        return
    room = await t.room(room_id)
    if room is None:  # closed meanwhile
        conn.push(json.dumps(_error("this room was closed", "room")))
        return
    async with t.lock(room_id):
        room = t.rooms.live.get(room_id) or room
        t.last_seen[room_id] = time.monotonic()
        if message["type"] in CHECKED_APART and not await _still_valid(t, room_id, conn):
            return
        try:
            reply, changed = await handler(t, room, conn, message)
        except LudicaError as exc:
            conn.push(json.dumps({"type": "refused", "id": message.get("id"), **exc.to_json()}, ensure_ascii=False))
            return
        except Exception as exc:  # never a trace (nor a hidden value) to a browser or the log
            log.error("room %s: unexpected %s", room_id, type(exc).__name__)
            conn.push(json.dumps(_error("the table could not do that (nothing was changed)", "server")))
            await t.run(room.reload)
            return
        if reply is not None:
            conn.push(json.dumps({**reply, "id": message.get("id")}, ensure_ascii=False))
        if changed:
            await t.rendered(room)
            t.broadcast(room)


Reply = tuple[dict[str, Any] | None, bool]
CHANGES = frozenset({"act", "undo", "reissue", "close_room"})
"""Messages that change the room: their link is checked again in storage first."""
CHECKED_APART = CHANGES - {"act"}
"""The changes whose link is checked in a thread call of its own; an act's link is checked in
the act's own thread call (:func:`_act_if_valid`), the most frequent message paying one hop."""
REISSUED = "your link was re-issued by the host; ask the host for the new one"


async def _still_valid(t: Table, room_id: str, conn: Connection) -> bool:
    """True when ``conn``'s link still grants its role; else it is told and closed. A re-issue
    made by another table process (or before this process heard of it) is caught here."""
    if await t.run(t.store.role_of, room_id, conn.token) == conn.granted:
        return True
    _refuse_reissued(t, room_id, conn)
    return False


def _refuse_reissued(t: Table, room_id: str, conn: Connection) -> None:
    conn.push(json.dumps(_error(REISSUED, "links")))
    t.drop(room_id, conn, LINK_REISSUED)


def _player(conn: Connection) -> str:
    seat = seat_of(conn.role)
    if seat is None:
        raise TableError("spectators and the host watch; only seats act", rule="seat")
    return seat


def render_parts(room: Room, seats: set[str | None]) -> None:
    """Render the parts of ``seats`` at the room's step (in a table thread)."""
    for seat in seats:
        seat_part(room, seat)


def _act_if_valid(
    t: Table, room: Room, conn: Connection, message: dict[str, Any], seats: set[str | None]
) -> list[Action] | None:
    """In one table thread: ``conn``'s link checked in storage (as :func:`_still_valid` does),
    then the act; ``None`` (nothing done) when the link no longer grants its role. The watched
    ``seats``' views of the new step are rendered in the same thread call (one hop per act);
    a failure there is left to :meth:`Table.rendered`, which renders again and reports it."""
    if t.store.role_of(room.id, conn.token) != conn.granted:
        return None
    done = room.act(_player(conn), message)
    if done:
        with contextlib.suppress(Exception):
            render_parts(room, seats)
    return done


async def _on_act(t: Table, room: Room, conn: Connection, message: dict[str, Any]) -> Reply:
    done = await t.run(_act_if_valid, t, room, conn, message, t.watched(room))
    if done is None:
        _refuse_reissued(t, room.id, conn)
        return None, False
    if not done:  # its key was applied before: a repeat changes nothing
        return {"type": "ack", "step": room.step, "actions": 0, "repeat": True}, False
    return {"type": "ack", "step": room.step, "actions": len(done)}, True


async def _on_undo(t: Table, room: Room, conn: Connection, message: dict[str, Any]) -> Reply:
    seat = _player(conn)
    kind = message.get("mode", "own")
    if kind == "own":
        await t.run(room.undo_own, seat)
    elif kind == "request":
        await t.run(room.request_undo, seat)
    elif kind in ("consent", "decline"):
        await t.run(room.consent_undo, seat, kind == "consent")
    elif kind == "withdraw":
        await t.run(room.withdraw_undo, seat)
    else:
        raise TableError("undo mode is own, request, consent, decline or withdraw", rule="undo")
    return {"type": "ack", "step": room.step}, True


async def _on_reissue(t: Table, room: Room, conn: Connection, message: dict[str, Any]) -> Reply:
    """Host only: the new link goes to the host alone; the seat whose link changed is told and
    disconnected; everyone else gets a ``notice`` (and sees it in ``notices`` from then on)."""
    role = message.get("role")
    if not isinstance(role, str):
        raise TableError("say which seat's link to re-issue", rule="links")
    invite = await t.run(room.reissue, conn.role, role)
    conn.push(json.dumps({"type": "invite", **_invite_json(room.id, invite), "id": message.get("id")}))
    notice = json.dumps({"type": "notice", "text": room.notices()[-1]}, ensure_ascii=False)
    t.reissued_here(room.id, role, notice)
    return None, False


async def _on_close_room(t: Table, room: Room, conn: Connection, message: dict[str, Any]) -> Reply:
    """Host only: the room and its record are deleted; every browser is told and disconnected."""
    if not room.can_manage(conn.role):
        raise TableError("only the host may close the room", rule="room")
    await t.run(t.store.delete_room, room.id)
    conn.push(json.dumps({"type": "ack", "step": room.step, "id": message.get("id")}))
    t.closed_here(room.id)
    return None, False


async def _on_sync(t: Table, room: Room, conn: Connection, message: dict[str, Any]) -> Reply:
    conn.push(t.sent(conn, {**payload(room, conn.role), "id": message.get("id")}))
    return None, False


async def _on_ping(t: Table, room: Room, conn: Connection, message: dict[str, Any]) -> Reply:
    return {"type": "pong"}, False


async def _on_chat(t: Table, room: Room, conn: Connection, message: dict[str, Any]) -> Reply:
    """Table talk (:mod:`ludica.table.chat`): stored, then sent to the connections that may read it."""
    kind, recipient, text = chat.check(room, conn.role, message)
    if not chat.LIMITER.allow(room.id, conn.role):
        raise TableError(f"at most {chat.BURST} lines every {chat.WINDOW:g} seconds: wait a moment", rule="chat")
    line = await t.run(chat.add_checked, t.store, room.id, room.step, conn.role, kind, recipient, text)
    said = {"type": "chat", "line": chat.line_json(room, line)}
    frame = json.dumps(said, ensure_ascii=False)
    for other in list(t.connections.get(room.id, ())):
        if other is not conn and line.visible(other.role):
            other.push(frame)
    return said, False  # the speaker's own copy answers its message (it carries the message's id)


async def _on_chat_history(t: Table, room: Room, conn: Connection, message: dict[str, Any]) -> Reply:
    """The table talk this connection may read so far (asked once connected, and after a
    reconnection): the latest :data:`chat.PAGE` lines, older ones page by page (``before``)."""
    return await t.run(chat.history_page, t.store, room, conn.role, message.get("before")), False


def _story_with_talk(room: Room, role: str) -> list[dict[str, Any]]:
    """The story ``role`` may read, with the table talk it may read in order with the actions."""
    talk = chat.story_lines(room, role, chat.lines(room.store, room.id))
    return story_steps(chat.merged(story_entries(room, seat_of(role)), talk))


HANDLERS: dict[str, Callable[[Table, Room, Connection, dict[str, Any]], Awaitable[Reply]]] = {
    "act": _on_act,
    "undo": _on_undo,
    "reissue": _on_reissue,
    "close_room": _on_close_room,
    "sync": _on_sync,
    "ping": _on_ping,
    "chat": _on_chat,
    "chat_history": _on_chat_history,
}


# -- helpers ---------------------------------------------------------------------------------------
def _error(reason: str, rule: str) -> dict[str, Any]:
    return {"type": "refused", "error": "TableError", "reason": reason, "rule": rule, "section": None}


def _refuse(wants_json: bool, reason: str, status: int) -> Response:
    if wants_json:
        return JSONResponse({"error": "TableError", "reason": reason}, status_code=status)
    return HTMLResponse(render("error.html", heading="The room was not opened", reason=reason), status_code=status)


def _games(examples: bool = True) -> list[dict[str, Any]]:
    """Every game that imports now (a game still being written is skipped, not fatal); the
    example games only when ``examples``."""
    extra = [*EXAMPLES] if examples else []
    try:
        ids = [*available(), *extra]
    except Exception:  # a game package that is half-written must not take the lobby down
        ids = [*GAME_MODULES, *extra]
    out = []
    for game_id in ids:
        try:
            out.append(get_game(game_id).meta.to_json())
        except Exception:
            log.warning("game %s is not available", game_id)
    return out


def _invite_json(room_id: str, invite: Invite) -> dict[str, str]:
    return {"role": invite.role, "label": invite.label, "token": invite.token, "url": f"/play/{room_id}#{invite.token}"}


TABLE_SETTINGS = {
    "physical": "a player number (0: the server deals)",
    "turn_timer": "a number of seconds (0: no turn timer)",
}


def _room_request(body: bytes, is_json: bool) -> tuple[str, list[str], dict[str, Any], dict[str, Any]]:
    if is_json:
        data = read_json(body, "the request")
        if not isinstance(data, dict):
            raise ConfigError("the request is a JSON object", rule="room")
        players, options = data.get("players"), data.get("options", {})
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ConfigError("'players' is a list of names", rule="room")
        if not isinstance(options, dict):
            raise ConfigError("'options' is an object", rule="room")
        table: dict[str, Any] = {key: data.get(key, 0) for key in TABLE_SETTINGS}
        for key, value in table.items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ConfigError(f"{key!r} is {TABLE_SETTINGS[key]}", rule="room")
        table["bots"] = data.get("bots")
        return str(data.get("game", "")), players, options, table
    form = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    game_id = (form.get("game") or [""])[0]
    meta = get_game(game_id).meta
    options = {key[4:]: _option_value(meta, key[4:], values[0]) for key, values in form.items() if key[:4] == "opt:"}
    table = {"bots": (form.get("bots") or [""])[0]}
    for key, meaning in TABLE_SETTINGS.items():
        try:
            table[key] = int((form.get(key) or ["0"])[0] or 0)
        except ValueError:
            raise ConfigError(f"{key!r} is {meaning}", rule="room") from None
    return game_id, form.get("player", []), options, table


def _option_value(meta: GameMeta, name: str, raw: str) -> Any:
    """A form field as the option's own type (the lobby sends text)."""
    spec = meta.option(name)
    if spec.choices is not None:
        return next((c for c in spec.choices if raw in (json.dumps(c), str(c))), raw)
    if isinstance(spec.default, bool):
        return raw.strip().lower() in ("true", "yes", "on", "1")
    if isinstance(spec.default, str):
        return raw
    try:
        return json.loads(raw)  # numbers, lists, objects are written as JSON
    except json.JSONDecodeError:
        reason = f"option {name!r} must be written as JSON (like its default), not {raw!r}"
        raise ConfigError(reason, rule="config") from None


async def _posted_token(request: Request) -> str | None:
    """The ``token`` field of a posted form (``application/x-www-form-urlencoded``); ``None``
    when the body passes :data:`MAX_MESSAGE` (it is not read further)."""
    body = await read_body(request, MAX_MESSAGE)
    if body is None:
        return None
    values = parse_qs(body.decode("utf-8", "replace")).get("token") or [""]
    return values[0]


def _story_markdown(room: Room, role: str) -> str:
    """The story in names: each step's narration first, its mechanical events folded beneath."""
    lines = [f"# {room.game.meta.title} — the story", "", f"Room `{room.id}`, as seen by {room.label(role)}.", ""]
    for step in _story_with_talk(room, role):
        said = [f"**{e['who']}**: “{e['text']}”" for e in step["narration"]]
        events = [e["text"] for e in step["events"]]
        head = " ".join(said) if said else events.pop(0) if events else ""
        lines.append(f"**{step['step']}.** {head}")
        lines.extend(f"  - {text}" for text in events)
        lines.append("")
    return "\n".join(shown(line) for line in lines)  # names of rooms opened before names were checked


def export_record(room: Room) -> dict[str, Any]:
    """The record of a finished room, with the revealed seed and the published hash."""
    data = record_of(room.match)
    if room.physical_seat is not None:  # a physical table types every chance outcome (the dealer never deals)
        data["typed"] = chance_indices(room.match.actions)
    data["table"] = {
        "room": room.id,
        "seed_hash": room.row.seed_hash,
        "physical_seat": room.physical_seat,
        "created": room.row.created.isoformat(),
    }
    return data


COLLECTOR_THRESHOLD = 10_000
"""Allocations (net of frees) between two young collections of a serving process (Python's
default is 700); see :func:`steady_collector`."""
OLD_COLLECTOR_THRESHOLD = 100
"""Collections of the middle generation before the old one may be collected (Python's is 10)."""


def steady_collector(threshold: int = COLLECTOR_THRESHOLD, old: int = OLD_COLLECTOR_THRESHOLD) -> None:
    """Ready a serving process's cyclic garbage collector (issue 24), once its application is built.

    What was imported and made at start-up (modules, classes, the engine) lives as long as the
    process: it is collected once, then frozen out of every later collection (``gc.freeze``). The
    young generation is collected every ``threshold`` allocations instead of every 700: with the
    default, the objects a step keeps until the next step (its renderings and their keys) were
    collected as young several times over and reached the old generation, whose full collection
    scanned some 300,000 objects every few seconds with every thread stopped (150–330 ms each at
    1,000 Pig seats: the 99th percentile of latency). The old generation is looked at after
    ``old`` collections of the middle one instead of 10 (still collected only once it has grown
    by a quarter, as Python does), so that such a collection comes every few minutes, not every
    minute. Nothing the table sends or stores changes; only when the collector runs. Objects
    freed by reference counting (nearly all) are freed at once as before."""
    gc.collect()
    gc.freeze()
    _young, middle, _old = gc.get_threshold()
    gc.set_threshold(threshold, middle, old)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    open_browser: bool = True,
    *,
    room_rate: tuple[float, float] = (ROOM_RATE, ROOM_BURST),
    workers: int = 1,
    forwarded_allow_ips: str | None = None,
    guard: dict[str, Any] | None = None,
    doors: Doors | None = None,
) -> None:
    """Run the table until interrupted (what ``ludica serve`` calls); prints and opens the URL.

    ``room_rate``: rooms per second and burst one client address may open (a load test on
    loopback raises it). ``workers``: processes sharing the address (PostgreSQL only; see
    :mod:`ludica.table.cluster`). ``forwarded_allow_ips``: the proxies (comma-separated addresses,
    as uvicorn takes them) whose ``X-Forwarded-For`` names the client; by default nobody's is
    believed and a client is its TCP peer (uvicorn itself would trust 127.0.0.1). ``doors``: the
    deadlines and connection caps of :mod:`ludica.table.doorman` (default: its :class:`Doors`)."""
    import uvicorn

    proxies: dict[str, Any] = {
        "proxy_headers": bool(forwarded_allow_ips),
        "forwarded_allow_ips": forwarded_allow_ips or "",
        "http": door_protocol(doors),
        "h11_max_incomplete_event_size": (doors or Doors()).max_head,
    }
    if workers != 1:
        from .cluster import check_url, run_workers

        url = check_url(db_url, workers)
        print(f"Ludica table at http://{host}:{port}/  ({workers} processes; database: {_safe_url(url)})", flush=True)
        run_workers(host, port, url, workers, room_rate, **_UVICORN, **proxies)
        return
    app = create_app(db_url, room_rate=room_rate, guard=guard)
    steady_collector()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}/"
    print(f"Ludica table at {url}  (database: {_safe_url(app.state.store.url)}; Ctrl+C to stop)", flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=port, **_UVICORN, **proxies)


_UVICORN: dict[str, Any] = {
    "log_level": "warning",
    "access_log": False,
    "ws_max_size": 4 * MAX_MESSAGE,
    "timeout_keep_alive": KEEP_ALIVE_SECONDS,
    "ws": ws_protocol(),  # per-message deflate at a faster level (ws_deflate.py)
}


def _safe_url(url: str) -> str:
    """The database URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, tail = rest.rsplit("@", 1)
        return f"{scheme}://{creds.split(':', 1)[0]}@{tail}"
    return url
