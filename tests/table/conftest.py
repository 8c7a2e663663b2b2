"""Fixtures of the table's tests: an in-process app on a fresh SQLite file, and seat clients."""

from __future__ import annotations

import contextlib
import json
import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

from ludica.table.server import create_app  # noqa: E402

POSTGRES_URL = os.environ.get("LUDICA_TEST_POSTGRES_URL")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Every storage backend: SQLite always, PostgreSQL when LUDICA_TEST_POSTGRES_URL is set."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'table.sqlite3'}"
    if not POSTGRES_URL:
        pytest.skip("PostgreSQL storage tests need LUDICA_TEST_POSTGRES_URL")
    return POSTGRES_URL


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'table.sqlite3'}")
    with TestClient(app) as c:
        yield c


class SeatClient:
    """One browser's WebSocket in tests: says hello, reads states, acts."""

    def __init__(self, client: TestClient, room: str, token: str) -> None:
        self._cm = client.websocket_connect(f"/ws/{room}")
        self.ws = self._cm.__enter__()
        self.closed = False
        stack = getattr(client, "exit_stack", None)  # set while the client is entered (``with``)
        if isinstance(stack, contextlib.ExitStack):
            # Closed before the app shuts down, also when the test failed: starlette's TestClient
            # waits at its exit for every WebSocket session still open, so a failed assertion with
            # a seat open would hang instead of being reported.
            stack.callback(self.close)
        self.next_id = 0
        self.ws.send_text(json.dumps({"type": "hello", "token": token}))
        self.state: dict[str, Any] = self.receive("state")

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._cm.__exit__(None, None, None)

    def receive(self, kind: str | None = None) -> dict[str, Any]:
        while True:
            message = self.ws.receive_json()
            if message.get("type") == "state":
                self.state = message
            if kind is None or message.get("type") == kind:
                return message

    def send(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send, then return the reply (ack, refused, invite...) to this message."""
        self.next_id += 1
        message = {**message, "id": self.next_id}
        self.ws.send_text(json.dumps(message))
        while True:
            reply = self.ws.receive_json()
            if reply.get("type") == "state":
                self.state = reply
                if message["type"] != "sync" or reply.get("id") != message["id"]:
                    continue
            if reply.get("type") == "chat" and reply.get("id") is None:
                continue  # a line the table said meanwhile (undo, the clock), not this message's reply
            return reply

    def act(self, index: int, fields: dict[str, Any] | None = None, narration: str | None = None) -> dict[str, Any]:
        message = {"type": "act", "step": self.state["step"], "index": index, "fields": fields or {}}
        if narration:
            message["narration"] = narration
        reply = self.send(message)
        if reply["type"] == "ack":
            self.receive("state")
        return reply

    def act_type(self, kind: str, look: bool = True, **args: Any) -> dict[str, Any]:
        """Look at the table (sync), then act with the first legal ``kind`` whose fixed args match."""
        if look:
            self.send({"type": "sync"})
        for index, legal in enumerate(self.state["legal"]):
            fixed = legal.get("args", {})
            if legal["type"] == kind and all(fixed.get(k) == v for k, v in args.items()):
                return self.act(index)
        raise AssertionError(f"no legal {kind} {args} in {self.state['legal']}")


def open_room(client: TestClient, game: str = "pig", players: tuple[str, ...] = ("Ann", "Bob"), **extra: Any) -> dict:
    response = client.post("/rooms", json={"game": game, "players": list(players), **extra})
    assert response.status_code == 201, response.text
    data = response.json()
    data["tokens"] = {i["role"]: i["token"] for i in data["invites"]}
    return data


@pytest.fixture
def seat_client() -> Iterator[Any]:
    """A factory of seat clients; every one still open is closed after the test (even a failed one)."""
    opened: list[SeatClient] = []

    def make(client: TestClient, room: str, token: str) -> SeatClient:
        seat = SeatClient(client, room, token)
        opened.append(seat)
        return seat

    yield make
    for seat in opened:
        seat.close()


@pytest.fixture
def opener() -> Any:
    return open_room


# -- a real server in a child process (crash test, browser tests) -----------------------------------
def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """``ludica.table.server.serve`` in a child process on a free loopback port."""

    def __init__(self, db_url: str, port: int | None = None) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.process: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        import subprocess
        import sys
        import time

        import httpx

        code = (
            "import sys; from ludica.table.server import serve; "
            "serve('127.0.0.1', int(sys.argv[1]), sys.argv[2], False)"
        )
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, str(self.port), self.db_url],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
            if self.process.poll() is not None:
                raise RuntimeError(self.process.stderr.read().decode(errors="replace"))
        raise RuntimeError("the table server did not start")

    def kill(self) -> None:
        """``kill -9``: no clean shutdown."""
        import signal

        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except Exception:
                self.kill()
        if self.process is not None and self.process.stderr is not None:
            self.process.stderr.close()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'live.sqlite3'}").start()
    yield server
    server.stop()


@pytest.fixture
def port() -> int:
    return free_port()
