"""Durable storage of the table: the record is the truth.

Three tables (created and upgraded by the Alembic migrations in ``ludica/table/migrations``):

* ``rooms``: one row per room — game id, config (players and options; the dealer's seed is kept
  apart in ``seed`` and never sent to a browser before the end), the published ``seed_hash``,
  table settings (physical mode, turn timer, link re-issues), the creation time and ``archived``
  (when its game ended; ``NULL`` while it is played);
* ``actions``: the record — ``(room_id, idx)`` and the action as JSON, committed before the table
  acknowledges it; ``act_key`` holds the idempotency key a client sent with it (``<seat>:<key>``,
  unique in a room) so that a repeated message is never applied twice, even after a restart;
* ``tokens``: the SHA-256 of every invite token and the role it grants (a seat, ``*spectator*`` or
  ``*host*``). Tokens themselves are never stored.

SQLite (default, a file in the user's data directory, WAL mode, ``synchronous=FULL``) and
PostgreSQL (``postgresql+psycopg://...``) are both supported through SQLAlchemy 2.
"""

from __future__ import annotations

import hashlib
import json
import queue
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import (
    JSON,
    Column,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import DBAPIError

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(60), nullable=False),
    Column("config", JSON, nullable=False),
    Column("seed", String(100), nullable=False),
    Column("seed_hash", String(64), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("archived", DateTime(timezone=True), nullable=True),
)

actions = Table(
    "actions",
    metadata,
    Column("room_id", String(40), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("action", Text, nullable=False),
    Column("act_key", String(200), nullable=True),
    Index("ix_actions_room_key", "room_id", "act_key", unique=True),
)

tokens = Table(
    "tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("room_id", String(40), ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("role", String(60), nullable=False),
)

SPECTATOR = "*spectator*"
HOST = "*host*"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def default_db_url() -> str:
    """The SQLite file in the user's data directory (created if missing)."""
    folder = Path(platformdirs.user_data_dir("ludica"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'table.sqlite3'}"


def normalize_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` as the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@dataclass(frozen=True, slots=True)
class RoomRow:
    id: str
    game: str
    config: dict[str, Any]
    seed: str
    seed_hash: str
    settings: dict[str, Any]
    created: datetime
    archived: datetime | None = None


POOL_SIZE = 20
"""SQLite connections kept open: the table's 16 threads and the commit thread each keep one (an
overflow connection would be opened, set up and closed again for a single query)."""


def make_engine(url: str) -> Engine:
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            pool_size=POOL_SIZE,  # one connection per table thread is kept, never opened per query
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def migrate(url: str) -> None:
    """Bring the database at ``url`` to the newest schema with Alembic."""
    from alembic import command
    from alembic.config import Config as AlembicConfig

    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    cfg.attributes["configure_logger"] = False
    command.upgrade(cfg, "head")


Also = Callable[[Connection], Any]
"""More rows written in the same transaction as an append (the table's lines said of an action,
:meth:`ludica.table.rooms.Room.act`); its result is handed back to the caller of the append."""


@dataclass(slots=True)
class _Job:
    """One caller's rows in the writer's queue, and what it waits for."""

    rows: list[dict[str, Any]]
    also: Also | None
    done: threading.Event
    result: Any = None
    failure: BaseException | None = None


class GroupCommit:
    """One writer thread that commits the actions of many rooms in one transaction.

    Every caller blocks until the transaction holding its rows is committed (so an action is
    still acknowledged only once durable), but concurrent rooms share one fsync. If a batch
    fails, its parts are retried one by one so that only the faulty one fails.
    """

    def __init__(self, engine: Engine, limit: int = 512) -> None:
        self.engine = engine
        self.limit = limit
        self.notify = engine.dialect.name == "postgresql"
        self.insert = Compiled(insert(actions), engine)
        """The insert of the record's rows, compiled once."""
        self.queue: queue.Queue[_Job | None] = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="ludica-commit", daemon=True)
        self.thread.start()

    def submit(self, rows: list[dict[str, Any]], also: Also | None = None) -> Any:
        """Commit ``rows`` (and whatever ``also`` writes, in the same transaction); returns the
        result of ``also``."""
        job = _Job(rows, also, threading.Event())
        self.queue.put(job)
        job.done.wait()
        if job.failure is not None:
            raise job.failure
        return job.result

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join(10)

    def _notify(self, conn: Connection, batches: list[list[dict[str, Any]]]) -> None:
        """PostgreSQL: tell the other table processes which rooms advanced (sent at commit)."""
        if not self.notify:
            return
        last: dict[str, int] = {}
        for rows in batches:
            for row in rows:
                last[row["room_id"]] = max(last.get(row["room_id"], 0), row["idx"] + 1)
        for room_id, length in last.items():
            notify_room(conn, room_id, length)

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < self.limit:
                try:
                    more = self.queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self.queue.put(None)
                    break
                batch.append(more)
            try:
                self._commit(batch)
            except BaseException as exc:  # a fault of the writer itself: its callers hear of it, none waits forever
                self._fail(batch, exc)

    @staticmethod
    def _fail(batch: list[_Job], exc: BaseException) -> None:
        for job in batch:
            if not job.done.is_set():
                job.failure = exc
                job.done.set()

    def _write(self, batch: list[_Job]) -> list[Any]:
        """The batch's rows and the rows each job writes besides, in one transaction."""
        with self.engine.begin() as conn:
            self._insert(conn, [row for job in batch for row in job.rows])
            results = [job.also(conn) if job.also is not None else None for job in batch]
            self._notify(conn, [job.rows for job in batch])
        return results

    def _insert(self, conn: Connection, rows: list[dict[str, Any]]) -> None:
        """The rows inserted by the driver's own ``executemany`` in ``conn``'s transaction (about
        0.1 ms of CPU a commit less than SQLAlchemy's execution of the same statement)."""
        self.insert.run(conn, rows, many=True)

    def _commit(self, batch: list[_Job]) -> None:
        try:
            results = self._write(batch)
        except Exception:
            for job in batch:
                try:
                    job.result = self._write([job])[0]
                except Exception as exc:
                    job.failure = exc
                job.done.set()
            return
        for job, result in zip(batch, results, strict=True):
            job.result = result
            job.done.set()


class Compiled:
    """A SQLAlchemy statement compiled once for an engine's database, run by the driver itself.

    The same SQL SQLAlchemy sends, in the database's own parameter style (SQLite's ``?``,
    psycopg's ``%(name)s``), without building an execution context at every call: the table's
    two statements of every act (the link's role, the record's insert) cost several times their
    run on SQLite that way. A refusal of the database is raised as SQLAlchemy raises it (a second
    writer of a step meets :class:`sqlalchemy.exc.IntegrityError`). Only for statements whose
    parameters and results need no conversion (strings and integers)."""

    __slots__ = ("error", "order", "sql")

    def __init__(self, statement: Any, engine: Engine) -> None:
        compiled = statement.compile(dialect=engine.dialect)
        self.sql = str(compiled)
        self.order: list[str] | None = compiled.positiontup
        """The order of the parameters when they are positional; ``None``: named."""
        self.error: type[Exception] = engine.dialect.loaded_dbapi.Error

    def run(self, conn: Connection, params: list[dict[str, Any]], *, many: bool = False) -> list[Any]:
        """Execute with ``params`` (each a dict of the statement's parameters; several only when
        ``many``) in ``conn``'s transaction; the rows it returns (none for ``many``)."""
        order = self.order
        args: list[Any] = [tuple(p[name] for name in order) for p in params] if order is not None else params
        driver = conn.connection.driver_connection
        assert driver is not None  # an open connection of the pool
        cursor = driver.cursor()
        try:
            if many:
                cursor.executemany(self.sql, args)
                return []
            cursor.execute(self.sql, args[0])
            return list(cursor.fetchall())
        except self.error as exc:
            raise DBAPIError.instance(self.sql, args, exc, self.error) from exc
        finally:
            cursor.close()


class Store:
    """All reads and writes of the table's database (synchronous; the server calls it off-loop)."""

    def __init__(self, url: str | None = None, *, run_migrations: bool = True) -> None:
        self.url = normalize_url(url or default_db_url())
        if run_migrations:
            migrate(self.url)
        self.engine = make_engine(self.url)
        self.is_sqlite = self.url.startswith("sqlite")
        self.writer = GroupCommit(self.engine)
        self.role_query = Compiled(_ROLE_OF, self.engine)

    def close(self) -> None:
        self.writer.close()
        self.engine.dispose()

    # -- rooms --------------------------------------------------------------------------------
    def create_room(self, row: RoomRow, role_tokens: Iterable[tuple[str, str]]) -> None:
        """Insert a room and its tokens (``(role, token)``) in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(rooms).values(
                    id=row.id,
                    game=row.game,
                    config=row.config,
                    seed=row.seed,
                    seed_hash=row.seed_hash,
                    settings=row.settings,
                    created=row.created,
                )
            )
            conn.execute(
                insert(tokens), [{"token_hash": hash_token(t), "room_id": row.id, "role": r} for r, t in role_tokens]
            )

    def room(self, room_id: str) -> RoomRow | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(rooms).where(rooms.c.id == room_id)).first()
        if found is None:
            return None
        return RoomRow(
            found.id,
            found.game,
            dict(found.config),
            found.seed,
            found.seed_hash,
            dict(found.settings),
            _aware(found.created),
            None if found.archived is None else _aware(found.archived),
        )

    def room_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(select(rooms.c.id).order_by(rooms.c.created))]

    def update_settings(self, room_id: str, settings: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(rooms).where(rooms.c.id == room_id).values(settings=settings))

    def archive(self, room_id: str, when: datetime) -> None:
        """Mark a room whose game ended: it stays exportable, and leaves memory once unwatched."""
        with self.engine.begin() as conn:
            conn.execute(update(rooms).where(rooms.c.id == room_id).values(archived=when))

    def delete_room(self, room_id: str) -> bool:
        """Delete a room, its record and its links (the host closed it); False if there was none."""
        with self.engine.begin() as conn:
            conn.execute(delete(actions).where(actions.c.room_id == room_id))
            conn.execute(delete(tokens).where(tokens.c.room_id == room_id))
            gone = conn.execute(delete(rooms).where(rooms.c.id == room_id)).rowcount
            if not self.is_sqlite:
                notify_room(conn, room_id, CLOSED)
        return bool(gone)

    # -- the record ----------------------------------------------------------------------------
    def actions(self, room_id: str, start: int = 0) -> list[dict[str, Any]]:
        """The room's record, from action ``start`` on (another process's new actions)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions.c.action)
                .where(actions.c.room_id == room_id, actions.c.idx >= start)
                .order_by(actions.c.idx)
            )
            return [json.loads(r.action) for r in rows]

    def count(self, room_id: str) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).where(actions.c.room_id == room_id)).scalar_one())

    def keys(self, room_id: str, start: int = 0) -> dict[str, int]:
        """The idempotency keys of the room's record: ``{"<seat>:<key>": index of the action}``
        (of the actions from ``start`` on)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions.c.act_key, actions.c.idx).where(
                    actions.c.room_id == room_id, actions.c.act_key.is_not(None), actions.c.idx >= start
                )
            )
            return {str(r.act_key): int(r.idx) for r in rows}

    def append(
        self, room_id: str, start: int, new: Sequence[dict[str, Any]], key: str | None = None, also: Also | None = None
    ) -> Any:
        """Commit actions ``start, start+1, ...``; the primary key refuses a second writer.

        ``key`` (the client's idempotency key) goes with the first of them, the seat's own action;
        the unique index refuses the same key twice in a room. ``also`` writes more rows in the
        same transaction (its result is returned).
        """
        if not new:
            return None
        rows = [
            {
                "room_id": room_id,
                "idx": start + i,
                "action": json.dumps(a, ensure_ascii=False, sort_keys=True),
                "act_key": key if i == 0 else None,
            }
            for i, a in enumerate(new)
        ]
        return self.writer.submit(rows, also)

    def truncate(self, room_id: str, length: int) -> None:
        """Drop every action from index ``length`` on (an undo)."""
        with self.engine.begin() as conn:
            conn.execute(delete(actions).where(actions.c.room_id == room_id, actions.c.idx >= length))
            if not self.is_sqlite:
                notify_room(conn, room_id, length)

    # -- tokens --------------------------------------------------------------------------------
    def role_of(self, room_id: str, token: str) -> str | None:
        """The role a link grants in a room (``None``: none); asked before every act."""
        with self.engine.connect() as conn:
            found = self.role_query.run(conn, [{"token_hash": hash_token(token), "room_id": room_id}])
        return str(found[0][0]) if found else None

    def knows_token(self, token_hash: str) -> bool:
        """True when the token of this hash opens a seat (or watches) in some room."""
        with self.engine.connect() as conn:
            found = conn.execute(select(tokens.c.role).where(tokens.c.token_hash == token_hash).limit(1)).first()
        return found is not None

    def reissue(self, room_id: str, role: str, token: str, settings: dict[str, Any] | None = None) -> None:
        """Replace every token of ``role`` in the room by ``token`` (old links stop working), and
        store the room's ``settings`` (the re-issue's notice) in the same transaction; with
        PostgreSQL the other table processes are told at commit (``<room> reissued <role>``), so
        that the notice is there when they read it."""
        with self.engine.begin() as conn:
            conn.execute(delete(tokens).where(tokens.c.room_id == room_id, tokens.c.role == role))
            conn.execute(insert(tokens).values(token_hash=hash_token(token), room_id=room_id, role=role))
            if settings is not None:
                conn.execute(update(rooms).where(rooms.c.id == room_id).values(settings=settings))
            if not self.is_sqlite:
                said = f"{room_id} reissued {role}"
                conn.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": said})


_ROLE_OF = select(tokens.c.role).where(
    tokens.c.token_hash == bindparam("token_hash"), tokens.c.room_id == bindparam("room_id")
)
"""The statement of :meth:`Store.role_of`, built once (building it cost three times its run on SQLite)."""


def now() -> datetime:
    return datetime.now(UTC)


def _aware(when: datetime) -> datetime:
    """SQLite gives naive datetimes back: they were written in UTC."""
    return when if when.tzinfo else when.replace(tzinfo=UTC)


CHANNEL = "ludica_rooms"
"""The PostgreSQL channel of "room advanced" notices: payload ``<room id> <record length>``,
``<room id> closed`` when the host deleted the room, ``<room id> reissued <role>`` when the host
re-issued a link."""
CLOSED = -1
"""The length a notice gives for a room that was deleted."""


def notify_room(conn: Connection, room_id: str, length: int) -> None:
    said = "closed" if length == CLOSED else str(length)
    conn.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": f"{room_id} {said}"})


class Listener:
    """PostgreSQL LISTEN in a thread: calls ``on_notice(room_id, length)`` for every notice
    (``length`` is :data:`CLOSED` for a deleted room) and ``on_reissue(room_id, role)`` for a
    re-issued link."""

    def __init__(
        self,
        url: str,
        on_notice: Callable[[str, int], None],
        on_reissue: Callable[[str, str], None] | None = None,
    ) -> None:
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.on_notice = on_notice
        self.on_reissue = on_reissue
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="ludica-listen", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        import psycopg

        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self.stopping.is_set():
                        for notice in conn.notifies(timeout=0.5):
                            room_id, _, length = notice.payload.partition(" ")
                            if length.isdigit():
                                self.on_notice(room_id, int(length))
                            elif length == "closed":
                                self.on_notice(room_id, CLOSED)
                            elif length.startswith("reissued ") and self.on_reissue is not None:
                                self.on_reissue(room_id, length.partition(" ")[2])
            except Exception:
                self.stopping.wait(1.0)

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(5)
