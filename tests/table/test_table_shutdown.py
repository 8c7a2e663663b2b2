"""The table's shutdown always ends: with a bot thinking and a request to take back still open,
its tasks end, its workers are killed and none is spawned afterwards; and a test that fails with
a seat's WebSocket open is reported, not hung at the test client's exit."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludica.table.server import create_app


def test_shutdown_ends_with_a_bot_thinking_and_an_undo_request_open(
    tmp_path: Path, seat_client: Any, opener: Any
) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'shutdown.sqlite3'}")
    with TestClient(app) as client:
        table = app.state.table()
        room = opener(client, "pig", ("Ann", "Bob", "Cy"), bots={"p3": "ismcts:seconds=20"})
        ann = seat_client(client, room["room"], room["tokens"]["p1"])
        bob = seat_client(client, room["room"], room["tokens"]["p2"])
        ann.act_type("wager", amount=1)
        bob.act_type("wager", amount=2)
        assert ann.send({"type": "undo", "mode": "request"})["type"] == "ack"
        live = table.rooms.live[room["room"]]
        assert live.undo_request is not None, "Bob has not answered: the request stays open"
        deadline = time.monotonic() + 60
        while not (table.bots.thinking and any(w.alive() for w in table.bots.all())):
            assert time.monotonic() < deadline, "the bot did not start thinking"
            time.sleep(0.05)
        tasks = list(table.bots.thinking.values())
        workers = list(table.bots.all())
    # the client's exit waited for the app's shutdown: it ended while the bot thought (20 s)
    assert all(task.done() and task.cancelled() for task in tasks), [t for t in tasks if not t.cancelled()]
    assert not any(worker.alive() for worker in workers), "every worker is killed"
    assert not table.bots.all() and not table.bots.thinking, "no worker spawned after the shutdown"


def test_a_failure_with_a_seat_open_is_reported_not_hung(tmp_path: Path, seat_client: Any, opener: Any) -> None:
    """starlette's test client waits at its exit for every WebSocket session still open: the seat
    clients close first (tests/table/conftest.py), so the failure reaches the report."""
    app = create_app(f"sqlite:///{tmp_path / 'failed.sqlite3'}")
    with pytest.raises(AssertionError, match="reported"), TestClient(app) as client:
        room = opener(client)
        seat_client(client, room["room"], room["tokens"]["p1"])
        raise AssertionError("reported")
