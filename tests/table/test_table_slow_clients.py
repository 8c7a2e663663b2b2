"""Slow clients (issue 39, point 1): stalled sockets are closed and honest requests still served.

A real ``ludica serve`` in a child process (open-file limit 1,024, a short request deadline):
a few hundred sockets stall — silent, half-sent headers, half-sent bodies — from several
loopback addresses while a client opens a room and plays it over its WebSocket. Every honest
request must succeed and every stalled socket must be closed within the deadline. Loopback only;
it stops by itself. The full attack (1,100 sockets) is ``benchmarks/table_slow_clients.py``.
"""

from __future__ import annotations

import json
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ludica.table.doorman import Doorman, Doors
from tests.by_path import load_script

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 2.0


BENCH = load_script("benchmarks/table_slow_clients.py")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="127.0.0.x source addresses are Linux's")


@pytest.fixture
def door_server(tmp_path: Path) -> Iterator[int]:
    port = BENCH.free_port()
    server = BENCH.start_server(port, f"sqlite:///{tmp_path / 'door.sqlite3'}", seconds=DEADLINE, per_address=40)
    try:
        yield port
    finally:
        server.terminate()
        try:
            server.wait(10)
        except Exception:
            server.kill()


def _play_pig(port: int) -> int:
    """Open a Pig room with a bot at the second seat and play the first seat's turns over its
    WebSocket until the game ends (or 40 acts); the number of acts acknowledged."""
    from websockets.sync.client import connect

    body = json.dumps({"game": "pig", "players": ["Ann", "Bob"], "bots": {"p2": "random"}}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        head = (
            "POST /rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        s.sendall(head.encode() + body)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    assert data.startswith(b"HTTP/1.1 201"), data[:200]
    answer = json.loads(data.split(b"\r\n\r\n", 1)[1])
    acts = 0
    with connect(f"ws://127.0.0.1:{port}/ws/{answer['room']}", open_timeout=5, proxy=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": answer["invites"][1]["token"]}))
        state: dict[str, Any] = {}
        deadline = time.monotonic() + 60
        while acts < 40 and time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=10))
            if message.get("type") == "state":
                state = message
            if message.get("type") == "ack":
                acts += 1
            if state.get("over"):
                break
            if message.get("type") in ("state", "ack", "refused") and state.get("legal"):
                ws.send(json.dumps({"type": "act", "step": state["step"], "index": 0, "id": acts}))
                state = {**state, "legal": []}
    return acts


def test_stalled_sockets_are_closed_while_a_client_plays(door_server: int) -> None:
    port = door_server
    stalls = BENCH.Stalls(port, 240, 6)  # 40 per address: at the per-address cap
    stalls.fill()
    started = time.monotonic()
    try:
        gets = []
        while time.monotonic() - started < DEADLINE + 1.0:  # honest requests while they stall
            gets.append(BENCH.honest_get(port, "/healthz"))
            time.sleep(0.1)  # within the address's request rate
        assert all(gets), gets
        first = [s for s, _since in stalls.sockets]
        assert all(BENCH._closed(s) for s in first), "a stalled socket outlived the deadline"
        stalls.fill()  # as many again, held while a client plays a whole game
        assert len(stalls.sockets) == 240
        acts = _play_pig(port)
        gets = [BENCH.honest_get(port, path) for path in ("/", "/healthz", "/static/table.js") * 3]
        assert acts > 0
        assert all(gets), gets
    finally:
        stalls.close()


def test_one_address_holds_at_most_its_share(door_server: int) -> None:
    port = door_server
    held = []
    try:
        for _ in range(60):
            s = socket.socket()
            s.bind(("127.0.0.9", 0))
            s.connect(("127.0.0.1", port))
            held.append(s)
        time.sleep(0.5)
        open_ones = []
        for s in held:
            s.setblocking(False)
            if not BENCH._closed(s):
                open_ones.append(s)
        assert len(open_ones) == 40
        assert BENCH.honest_get(port, "/healthz")  # another address is served meanwhile
    finally:
        for s in held:
            s.close()


def test_headers_past_the_limit_are_refused_as_they_come(door_server: int) -> None:
    with socket.create_connection(("127.0.0.1", door_server), timeout=5) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        answer = b""
        try:
            for _ in range(200):  # 200 × 1 KiB of one header, far past the 32 KiB limit
                s.sendall(b"X-Big: " + b"a" * 1000 + b"\r\n")
        except OSError:
            pass  # closed by the server: what we want
        try:
            while chunk := s.recv(4096):
                answer += chunk
        except OSError:
            pass
    assert answer.startswith(b"HTTP/1.1 431"), answer[:100]


def test_a_full_table_closes_the_oldest_stalled_connection_first() -> None:
    closed: list[str] = []

    class Conn:
        def __init__(self, name: str) -> None:
            self.name = name

        def shut(self) -> None:
            closed.append(self.name)

    door = Doorman(Doors(total=16, per_address=10), files=1 << 20)
    conns = [Conn(f"c{i}") for i in range(16)]
    for i, conn in enumerate(conns):
        assert door.admit(f"10.0.0.{i % 4}")
        door.wait(conn)
    door.served(conns[0])  # c0's request arrived: it is answered, not stalled
    assert door.admit("10.0.0.99")
    assert closed == ["c1"]
    door.served(conns[1])
    for conn in conns[2:]:
        door.served(conn)
    assert not door.admit("10.0.0.98")  # every connection is busy: the newcomer waits outside
    assert door.refused == 1
