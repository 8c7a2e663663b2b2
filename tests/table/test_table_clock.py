"""Clocks: the table feeds time to the rules as the game's ``clock`` action (DESIGN principle 3).

The game here is a tiny hourglass written for the test, registered only for its duration.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludica.core import Action, Config, Event, Game, GameMeta, IntRange, Outcome, Pending, registry
from ludica.table.server import create_app


@dataclass(slots=True)
class Glass:
    elapsed: int = 0


class Hourglass(Game[Glass]):
    meta = GameMeta("hourglass", "Hourglass", "Wait for the sand.", 1, 1, "1", chance=False)

    def setup(self, config: Config) -> Glass:
        return Glass()

    def seats(self, state: Glass) -> tuple[str, ...]:
        return ("p1", "table")

    def pending(self, state: Glass) -> Pending:
        return Pending((), "over") if state.elapsed >= 3 else Pending(("p1", "table"), "waiting")

    def legal_actions(self, state: Glass, seat: str) -> list[Action]:
        if state.elapsed >= 3:
            return []
        return [Action("table", "clock", {"seconds": IntRange(1, 600)})] if seat == "table" else []

    def check(self, state: Glass, action: Action) -> None:
        return None

    def play(self, state: Glass, action: Action) -> Sequence[Event]:
        state.elapsed += action.args["seconds"]
        return [Event("clock", f"{state.elapsed} s have passed")]

    def view(self, state: Glass, seat: str | None) -> dict[str, Any]:
        return {"elapsed": state.elapsed}

    def outcome(self, state: Glass) -> Outcome | None:
        return Outcome(("p1",)) if state.elapsed >= 3 else None

    def to_position(self, state: Glass) -> dict[str, Any]:
        return {"elapsed": state.elapsed}

    def from_position(self, data: dict[str, Any], config: Config) -> Glass:
        return Glass(data["elapsed"])


@pytest.fixture
def hourglass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._cache, "hourglass", Hourglass())
    monkeypatch.setitem(registry.EXAMPLES, "hourglass", __name__)


def test_the_table_drives_the_clock(hourglass: None, tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'clock.sqlite3'}", clock_interval=0.2)
    with TestClient(app) as client:
        created = client.post("/rooms", json={"game": "hourglass", "players": ["Ann"]}).json()
        token = next(i["token"] for i in created["invites"] if i["role"] == "p1")
        with client.websocket_connect(f"/ws/{created['room']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            for _ in range(200):
                state = ws.receive_json()
                if state.get("over"):
                    break
            assert state["over"] and "have passed" in json.dumps(state["log"])
            assert state["step"] >= 1
