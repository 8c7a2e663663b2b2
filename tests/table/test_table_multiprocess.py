"""Several table processes on one PostgreSQL (issue 24 point 3): a game played across them, one
address for N workers, and the reverse-proxy configuration of ``docs/table.md`` run by nginx.

Needs ``LUDICA_TEST_POSTGRES_URL`` (``.ci/run`` sets it); the nginx test also needs ``nginx``
(``.ci/run`` installs it).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from .conftest import free_port

URL = os.environ.get("LUDICA_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not URL, reason="multi-process tests need LUDICA_TEST_POSTGRES_URL")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "table.md"


def start(port: int, *extra: str) -> subprocess.Popen[bytes]:
    """``ludica serve`` on ``port`` (the table's own command), once it answers."""
    assert URL is not None
    command = [sys.executable, "-m", "ludica.cli", "serve", "--port", str(port), "--db", URL, "--no-browser", *extra]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for(f"http://127.0.0.1:{port}/healthz", process)
    return process


def wait_for(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
        if process.poll() is not None:
            raise RuntimeError((process.stderr.read() if process.stderr else b"").decode(errors="replace"))
    raise RuntimeError(f"{url} did not answer")


def stop(*processes: subprocess.Popen[bytes]) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
        if process.stderr is not None:
            process.stderr.close()


def open_room(base: str) -> tuple[str, dict[str, str]]:
    r = httpx.post(f"{base}/rooms", json={"game": "pig", "players": ["Ann", "Bob"], "options": {"target": 10}})
    assert r.status_code == 201, r.text
    data = r.json()
    return data["room"], {i["role"]: i["token"] for i in data["invites"]}


class Seat:
    def __init__(self, ws_base: str, room: str, token: str) -> None:
        self.ws: ClientConnection = connect(f"{ws_base}/ws/{room}", proxy=None, open_timeout=30).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.state = self.next_state()

    def next_state(self) -> dict[str, Any]:
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message["type"] == "state":
                return message

    def until(self, step: int) -> dict[str, Any]:
        while self.state["step"] < step:
            self.state = self.next_state()
        return self.state


def play(seats: list[Seat], rng: random.Random, limit: int = 400) -> int:
    """Play Pig to its end, each seat acting on its own connection; every seat must see every
    step (pushed by the process that holds it). Returns the number of actions."""
    acted = 0
    while not seats[0].state["over"] and acted < limit:
        mover = next(s for s in seats if s.state["your_turn"])
        legal = mover.state["legal"]
        index = rng.choice([i for i, a in enumerate(legal) if a["type"] != "title"])
        mover.ws.send(json.dumps({"type": "act", "step": mover.state["step"], "index": index}))
        step = mover.state["step"] + 1
        views = [s.until(step) for s in seats]
        assert len({v["step"] for v in views}) == 1, "every seat sees the same step"
        acted += 1
    assert seats[0].state["over"], "the game ended"
    for seat in seats:
        seat.ws.close()
    return acted


@pytest.fixture
def two_processes() -> Iterator[tuple[int, int]]:
    one, two = free_port(), free_port()
    first = start(one)
    second = start(two)
    yield one, two
    stop(first, second)


def test_a_game_played_across_two_processes_a_seat_on_each(two_processes: tuple[int, int]) -> None:
    one, two = two_processes
    room, tokens = open_room(f"http://127.0.0.1:{one}")
    ann = Seat(f"ws://127.0.0.1:{one}", room, tokens["p1"])
    bob = Seat(f"ws://127.0.0.1:{two}", room, tokens["p2"])  # loaded from PostgreSQL by the second
    acted = play([ann, bob], random.Random(7))
    assert acted >= 4
    record = httpx.get(f"http://127.0.0.1:{two}/rooms/{room}/record.json", headers={"X-Ludica-Token": tokens["p2"]})
    assert record.status_code == 200 and len(record.json()["actions"]) >= acted


def test_workers_share_one_address() -> None:
    port = free_port()
    server = start(port, "--workers", "2")
    try:
        for seed in range(3):  # each connection lands on either process
            room, tokens = open_room(f"http://127.0.0.1:{port}")
            seats = [Seat(f"ws://127.0.0.1:{port}", room, tokens[s]) for s in ("p1", "p2")]
            play(seats, random.Random(seed))
    finally:
        stop(server)


def test_workers_refuse_sqlite(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "ludica.cli", "serve", "--workers", "2", "--db", f"sqlite:///{tmp_path}/t.db"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "needs PostgreSQL" in done.stderr and "Traceback" not in done.stderr


def proxy_config(listen: int, upstreams: tuple[int, int], folder: Path) -> str:
    """The nginx configuration of ``docs/table.md`` (its first ``nginx`` block) on these ports,
    inside the minimal main context nginx needs to run from a folder."""
    block = re.search(r"```nginx\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert block is not None, "docs/table.md gives the nginx configuration"
    text = block.group(1).replace("8001", str(upstreams[0])).replace("8002", str(upstreams[1]))
    text = text.replace("listen 8000", f"listen 127.0.0.1:{listen}")
    user = "user root;\n" if os.geteuid() == 0 else ""
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}worker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
        f"events {{ worker_connections 256; }}\nhttp {{\n    access_log off;\n{temp}\n{text}\n}}\n"
    )


def test_the_documented_nginx_configuration_serves_a_game(two_processes: tuple[int, int], tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        pytest.skip("nginx is not installed (.ci/run installs it)")
    listen = free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(proxy_config(listen, two_processes, tmp_path), encoding="utf-8")
    proxy = subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(conf), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for(f"http://127.0.0.1:{listen}/healthz", proxy)
        for seed in range(2):
            room, tokens = open_room(f"http://127.0.0.1:{listen}")
            page = httpx.get(f"http://127.0.0.1:{listen}/play/{room}")
            assert page.status_code == 200
            seats = [Seat(f"ws://127.0.0.1:{listen}", room, tokens[s]) for s in ("p1", "p2")]
            play(seats, random.Random(seed))
    finally:
        stop(proxy)
