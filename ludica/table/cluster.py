"""Several table processes behind one address (issue 24).

``ludica serve --workers N --db postgresql://…`` starts N table processes that share one
listening socket (uvicorn's process manager); the kernel hands each new connection to one of
them. Any process serves any room: the record in PostgreSQL is the truth, every commit sends
``NOTIFY ludica_rooms`` and every process that has browsers in the room applies the new actions
(:meth:`ludica.table.rooms.Room.catch_up`) and sends them their views. Two processes never both
write step *n* of a room: the record's primary key lets the first commit win, and the other seat
is told to look again — one writer per room and step, whichever process it runs in.

Behind a reverse proxy (``docs/table.md``, "Several processes") the proxy may also keep every
browser of a room on one process (hashing the room id in the path), so that a room's views are
rendered in one place; correctness never depends on it.

SQLite is refused: it has no NOTIFY, so one process would never learn what another did.
"""

from __future__ import annotations

import os

from fastapi import FastAPI

DB_VARIABLE = "LUDICA_TABLE_DB"
RATE_VARIABLE = "LUDICA_TABLE_ROOM_RATE"
"""``"<rooms per second>,<burst>"`` for the worker processes (a load test on loopback raises it)."""


class ClusterError(ValueError):
    """A setting that several processes cannot run with (said in one line)."""


def check_url(db_url: str | None, workers: int) -> str:
    """The database URL several processes may share, or a :class:`ClusterError`."""
    if workers < 1:
        raise ClusterError("--workers is a number of processes, at least 1")
    if not db_url or not db_url.startswith(("postgresql", "postgres:")):
        raise ClusterError(
            "--workers needs PostgreSQL (--db postgresql://user@host/db): processes learn what the "
            "others did through its NOTIFY; SQLite serves one process"
        )
    return db_url


def app_from_environment() -> FastAPI:
    """The ASGI app of one worker process (uvicorn calls this factory in each of them)."""
    from .server import ROOM_BURST, ROOM_RATE, create_app, steady_collector

    rate, burst = ROOM_RATE, ROOM_BURST
    raw = os.environ.get(RATE_VARIABLE)
    if raw:
        first, _, second = raw.partition(",")
        rate, burst = float(first), float(second or first)
    app = create_app(os.environ[DB_VARIABLE], room_rate=(rate, burst))
    steady_collector()
    return app


def run_workers(
    host: str, port: int, db_url: str, workers: int, room_rate: tuple[float, float], **uvicorn_args: object
) -> None:
    """Start ``workers`` processes sharing ``host:port`` (blocks until interrupted)."""
    import uvicorn

    from .storage import migrate

    migrate(db_url)  # once, before the workers start (each then finds the schema current)
    os.environ[DB_VARIABLE] = db_url
    os.environ[RATE_VARIABLE] = f"{room_rate[0]},{room_rate[1]}"
    uvicorn.run(
        "ludica.table.cluster:app_from_environment",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        **uvicorn_args,  # type: ignore[arg-type]
    )
