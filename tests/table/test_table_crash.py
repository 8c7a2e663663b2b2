"""Durability: kill -9 the server mid-game; it restarts with every room as it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from ludica.table.server import MAX_MESSAGE


class WsSeat:
    """A seat over a real WebSocket."""

    def __init__(self, base: str, room: str, token: str) -> None:
        self.ws = connect(base.replace("http", "ws") + f"/ws/{room}", open_timeout=10, proxy=None).__enter__()
        self.story: list[str] = []
        """The story as the page holds it (a state carries the entries from ``log_start`` on)."""
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.state = self.receive("state")

    def seen(self, message: dict[str, Any]) -> None:
        self.state = message
        self.story = self.story[: message["log_start"]] + message["log"]

    def receive(self, kind: str) -> dict[str, Any]:
        while True:
            message = json.loads(self.ws.recv(timeout=10))
            if message.get("type") == "state":
                self.seen(message)
            if message.get("type") == kind:
                return message

    def act(self, kind: str, **args: Any) -> dict[str, Any]:
        index = next(
            i
            for i, a in enumerate(self.state["legal"])
            if a["type"] == kind and all(a.get("args", {}).get(k) == v for k, v in args.items())
        )
        self.ws.send(json.dumps({"type": "act", "step": self.state["step"], "index": index, "id": 1}))
        while True:
            message = json.loads(self.ws.recv(timeout=10))
            if message.get("type") == "state":
                self.seen(message)
            elif message.get("type") in ("ack", "refused"):
                if message["type"] == "ack":
                    self.receive("state")
                return message

    def close(self) -> None:
        self.ws.close()


def test_kill_9_mid_game_and_carry_on(live_server: Any, tmp_path: Path) -> None:
    created = httpx.post(live_server.url + "/rooms", json={"game": "pig", "players": ["Ann", "Bob"]}).json()
    tokens = {i["role"]: i["token"] for i in created["invites"]}
    room = created["room"]
    ann, bob = WsSeat(live_server.url, room, tokens["p1"]), WsSeat(live_server.url, room, tokens["p2"])
    assert ann.act("wager", amount=3)["type"] == "ack"
    bob.receive("state")
    assert bob.act("wager", amount=1)["type"] == "ack"
    ann.receive("state")
    acked = [ann.act("roll")]
    acked_step = ann.state["step"]
    log_before = ann.story
    live_server.kill()
    ann.close(), bob.close()

    live_server.start()
    ann, bob = WsSeat(live_server.url, room, tokens["p1"]), WsSeat(live_server.url, room, tokens["p2"])
    assert acked[0]["type"] == "ack"
    assert ann.state["step"] == bob.state["step"] == acked_step
    assert ann.story == log_before
    mover = ann if ann.state["your_turn"] else bob
    assert mover.act("roll")["type"] == "ack"  # the game carries on
    assert mover.state["step"] > acked_step
    ann.close(), bob.close()


def test_oversized_frames_are_refused_by_the_server(live_server: Any) -> None:
    created = httpx.post(live_server.url + "/rooms", json={"game": "pig", "players": ["Ann", "Bob"]}).json()
    token = next(i["token"] for i in created["invites"] if i["role"] == "p1")
    seat = WsSeat(live_server.url, created["room"], token)
    seat.ws.send(json.dumps({"type": "act", "narration": "x" * (MAX_MESSAGE + 10)}))
    reply = json.loads(seat.ws.recv(timeout=10))
    assert reply["type"] == "refused" and reply["rule"] == "size"
    seat.close()
