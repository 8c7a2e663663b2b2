"""Slow clients against ``ludica serve``: stalled sockets while an honest client plays (loopback only).

Starts the table in a child process whose open-file limit is 1,024 (the usual default), opens
``--sockets`` connections that stall — a third send nothing, a third stop halfway through their
headers, a third send whole headers and half a body — from ``--addresses`` loopback addresses
(127.0.0.2, 127.0.0.3, …: all of 127/8 is loopback on Linux), keeps them open (re-opening what
the server closes) for ``--seconds``, and meanwhile counts the honest requests (the lobby, the
health check, opening a room, a WebSocket hello) from 127.0.0.1 that succeed.

    python benchmarks/table_slow_clients.py                  # the table as ``ludica serve`` runs it
    python benchmarks/table_slow_clients.py --plain          # uvicorn without the door, for comparison

It prints the honest requests served and failed, their slowest answer, and how many stalled
sockets the server closed (and how soon). It stops by itself.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

SERVER = """
import sys
from ludica.table.doorman import Doors
from ludica.table.server import serve, create_app
port, db, plain, seconds, per_address, total = sys.argv[1:7]
if plain == "1":
    import uvicorn
    uvicorn.run(create_app(db), host="127.0.0.1", port=int(port), log_level="critical")
else:
    doors = Doors(request_seconds=float(seconds), per_address=int(per_address), total=int(total))
    serve("127.0.0.1", int(port), db, False, doors=doors)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    port: int, db: str, *, plain: bool = False, seconds: float = 10, per_address: int = 64, total: int = 4096,
    files: int = 1024,
) -> subprocess.Popen[bytes]:  # fmt: skip
    """The table in a child process with an open-file limit of ``files``; waits until it answers."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    args = [str(port), db, "1" if plain else "0", str(seconds), str(per_address), str(total)]
    process = subprocess.Popen(
        [sys.executable, "-c", SERVER, *args],
        preexec_fn=limit,  # the child's open-file limit, set before it runs Python
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if honest_get(port, "/healthz", timeout=1):
            return process
        if process.poll() is not None:
            raise RuntimeError("the table did not start")
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("the table did not answer")


def honest_get(port: int, path: str, timeout: float = 5) -> bool:
    """One GET from 127.0.0.1 on a fresh connection; True when answered 200."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while b"\r\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            return data.startswith(b"HTTP/1.1 200")
    except OSError:
        return False


STALLS = (
    b"",  # silent
    b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ",  # half-sent headers
    b'POST /rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"game":',
)


class Stalls:
    """``count`` stalled sockets from ``addresses`` loopback addresses, re-opened when closed."""

    def __init__(self, port: int, count: int, addresses: int) -> None:
        self.port, self.count, self.addresses = port, count, addresses
        self.sockets: list[tuple[socket.socket, float]] = []
        self.closed_after: list[float] = []
        self.opened = 0
        self.failed = 0

    def _open(self, i: int) -> tuple[socket.socket, float] | None:
        s = socket.socket()
        try:
            s.bind((f"127.0.0.{2 + i % self.addresses}", 0))
            s.settimeout(2)
            s.connect(("127.0.0.1", self.port))
            s.sendall(STALLS[i % len(STALLS)])
            s.setblocking(False)
        except OSError:
            s.close()
            self.failed += 1
            return None
        self.opened += 1
        return s, time.monotonic()

    def fill(self) -> None:
        """Open sockets until ``count`` are held (closed ones are noted with how long they lived)."""
        alive = []
        for s, since in self.sockets:
            if _closed(s):
                self.closed_after.append(time.monotonic() - since)
                s.close()
            else:
                alive.append((s, since))
        self.sockets = alive
        i = self.opened + self.failed
        while len(self.sockets) < self.count:
            found = self._open(i)
            i += 1
            if found is not None:
                self.sockets.append(found)
            elif self.failed > 50 * self.count:
                break

    def close(self) -> None:
        for s, _ in self.sockets:
            s.close()
        self.sockets = []


def _closed(s: socket.socket) -> bool:
    try:
        return s.recv(4096, socket.MSG_PEEK) == b"" or _drain(s)
    except BlockingIOError:
        return False
    except OSError:
        return True


def _drain(s: socket.socket) -> bool:
    """The server answered (e.g. 429, 431): read it; True once the server has closed."""
    try:
        while s.recv(4096):
            pass
    except BlockingIOError:
        return False
    except OSError:
        return True
    return True


def open_pig(port: int) -> tuple[str, str] | None:
    """A Pig room opened over HTTP: its id and the first seat's token (``None``: refused)."""
    body = json.dumps({"game": "pig", "players": ["Ann", "Bob"]}).encode()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            head = (
                f"POST /rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            )
            s.sendall(head.encode() + body)
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        if not data.startswith(b"HTTP/1.1 201"):
            return False
        answer = json.loads(data.split(b"\r\n\r\n", 1)[1])
        return str(answer["room"]), str(answer["invites"][1]["token"])
    except Exception:
        return None


def honest_play(port: int, room: tuple[str, str]) -> bool:
    """A seat's WebSocket: hello, its state, a sync answered; True when all came."""
    from websockets.sync.client import connect

    try:
        with connect(f"ws://127.0.0.1:{port}/ws/{room[0]}", open_timeout=5, proxy=None) as ws:
            ws.send(json.dumps({"type": "hello", "token": room[1]}))
            if json.loads(ws.recv(timeout=5)).get("type") != "state":
                return False
            ws.send(json.dumps({"type": "ping", "id": 1}))
            return bool(json.loads(ws.recv(timeout=5)).get("type") == "pong")
    except Exception:
        return False


def attack(port: int, sockets: int, addresses: int, seconds: float) -> dict[str, Any]:
    """Hold the stalled sockets for ``seconds`` while honest requests run; the figures."""
    room = open_pig(port)
    assert room is not None, "the table opened no room"
    stalls = Stalls(port, sockets, addresses)
    stop = threading.Event()

    def hold() -> None:
        while not stop.is_set():
            stalls.fill()
            time.sleep(0.2)

    stalls.fill()
    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    served = failed = 0
    slowest = 0.0
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        start = time.monotonic()
        ok = honest_play(port, room) if i % 4 == 0 else honest_get(port, "/" if i % 4 == 2 else "/healthz")
        slowest = max(slowest, time.monotonic() - start)
        served, failed = served + ok, failed + (not ok)
        i += 1
        time.sleep(0.05)
    stop.set()
    holder.join(5)
    held = len(stalls.sockets)
    closed = sorted(stalls.closed_after)
    stalls.close()
    return {
        "honest_served": served,
        "honest_failed": failed,
        "slowest_s": round(slowest, 2),
        "stalled_opened": stalls.opened,
        "stalled_refused_at_connect": stalls.failed,
        "stalled_held_at_end": held,
        "stalled_closed": len(closed),
        "closed_median_s": round(closed[len(closed) // 2], 1) if closed else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=1100)
    parser.add_argument("--addresses", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--plain", action="store_true", help="uvicorn without the door (the table before)")
    args = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(port, f"sqlite:///{tmp}/slow.sqlite3", plain=args.plain)
        try:
            figures = attack(port, args.sockets, args.addresses, args.seconds)
        finally:
            server.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(10)
            if server.poll() is None:
                server.kill()
    print(json.dumps({"server": "plain uvicorn" if args.plain else "ludica serve", **vars(args), **figures}))


if __name__ == "__main__":
    main()
