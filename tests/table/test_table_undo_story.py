"""Undo at the table like the best sites (issue 20, point 5): bots answer a request at once, the
one who asked may withdraw it, undo and declines are said in the story, an action that left
nothing in the story is said in words, and the table's clock is no one acting (own undo holds
across it; its steps are said in the story)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludica.core import Action, Config, Event, Game, GameMeta, IntRange, Outcome, Pending, registry
from ludica.table import chat
from ludica.table.rooms import Room, Rooms
from ludica.table.storage import Store


def story(client: TestClient, room: dict[str, Any], role: str) -> str:
    headers = {"X-Ludica-Token": room["tokens"][role]}
    return client.get(f"/rooms/{room['room']}/story.md", headers=headers).text


def test_a_bot_agrees_to_an_undo_request_at_once(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client, "pig", ("Ann", "Bob"), bots={"p2": "random"})
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    ann.act_type("wager", amount=1)
    deadline = time.monotonic() + 60
    while not ann.state["your_turn"]:  # the bot wagers
        assert time.monotonic() < deadline, "the bot did not answer"
        ann.receive("state")
    step = ann.state["step"]
    assert ann.send({"type": "undo", "mode": "request"})["type"] == "ack"
    assert ann.receive("state")["step"] < step, "the bot agreed at once: the request resolved"
    assert "everyone agreed" in story(client, room, "p1")


def test_the_one_who_asked_withdraws_the_request(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    bob = seat_client(client, room["room"], room["tokens"]["p2"])
    ann.act_type("wager", amount=1)
    bob.act_type("wager", amount=2)
    assert ann.send({"type": "undo", "mode": "request"})["type"] == "ack"
    state = ann.receive("state")
    assert "Withdraw my request" in state["html"]["actions"]
    bob.send({"type": "sync"})
    assert "Withdraw my request" not in bob.state["html"]["actions"]
    refused = bob.send({"type": "undo", "mode": "withdraw"})
    assert refused["type"] == "refused" and refused["rule"] == "undo" and "who asked" in refused["reason"]
    assert ann.send({"type": "undo", "mode": "withdraw"})["type"] == "ack"
    state = ann.receive("state")
    assert "asks to take back" not in state["html"]["pending"] and "Withdraw" not in state["html"]["actions"]
    assert "Ann withdrew their request to take back the last action" in story(client, room, "p2")
    assert "withdrew their request" in state["html"]["news"], "said in Just now"


def test_undo_and_a_declined_request_are_in_the_story(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    bob = seat_client(client, room["room"], room["tokens"]["p2"])
    ann.act_type("wager", amount=1)
    assert ann.send({"type": "undo", "mode": "own"})["type"] == "ack"
    ann.act_type("wager", amount=1)
    bob.act_type("wager", amount=2)
    assert ann.send({"type": "undo", "mode": "request"})["type"] == "ack"
    assert bob.send({"type": "undo", "mode": "decline"})["type"] == "ack"
    told = bob.receive("state")["html"]["news"]
    assert "Bob declined Ann" in told, "Just now says the decline"
    text = story(client, room, "p1")
    assert "Ann took back their last action" in text
    assert "Bob declined Ann’s request" in text or "Bob declined Ann's request" in text


# -- the table's clock is no one acting ---------------------------------------------------------------
@dataclass(slots=True)
class Tally:
    marks: int = 0
    elapsed: int = 0


class Tick(Game[Tally]):
    """Two players mark (or wait, which says nothing); the table's clock runs beside them."""

    meta = GameMeta("tick", "Tick", "Mark while the clock runs.", 2, 2, "1", chance=False)

    def setup(self, config: Config) -> Tally:
        return Tally()

    def seats(self, state: Tally) -> tuple[str, ...]:
        return ("p1", "p2", "table")

    def pending(self, state: Tally) -> Pending:
        return Pending((), "over") if state.marks >= 9 else Pending(("p1", "p2", "table"), "marking")

    def legal_actions(self, state: Tally, seat: str) -> list[Action]:
        if state.marks >= 9:
            return []
        if seat == "table":
            return [Action("table", "clock", {"seconds": IntRange(1, 600)})]
        return [Action(seat, "mark", {}), Action(seat, "wait", {})]

    def check(self, state: Tally, action: Action) -> None:
        return None

    def play(self, state: Tally, action: Action) -> Sequence[Event]:
        if action.type == "clock":
            state.elapsed += action.args["seconds"]
            return []
        if action.type == "wait":
            return []
        state.marks += 1
        return [Event("mark", f"{action.seat} marks")]

    def view(self, state: Tally, seat: str | None) -> dict[str, Any]:
        return {"marks": state.marks, "elapsed": state.elapsed}

    def outcome(self, state: Tally) -> Outcome | None:
        return Outcome(("p1",)) if state.marks >= 9 else None

    def to_position(self, state: Tally) -> dict[str, Any]:
        return {"marks": state.marks, "elapsed": state.elapsed}

    def from_position(self, data: dict[str, Any], config: Config) -> Tally:
        return Tally(data["marks"], data["elapsed"])


@pytest.fixture
def tick_room(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Room:
    monkeypatch.setitem(registry._cache, "tick", Tick())
    monkeypatch.setitem(registry.EXAMPLES, "tick", __name__)
    room, _ = Rooms(Store(f"sqlite:///{tmp_path / 'tick.sqlite3'}")).create("tick", ["Ann", "Bob"], {})
    return room


def run_clock(room: Room, seconds: int) -> None:
    """``seconds`` of real time passed (the table never feeds faster than real time)."""
    room._set_clock_at(time.time() - seconds)
    assert room.tick(seconds), "the clock fed the time"


def mark(room: Room, seat: str, kind: str = "mark") -> None:
    index = [a.type for a in room.seat_legal(seat)].index(kind)
    room.act(seat, {"step": room.step, "index": index})


def test_own_undo_holds_across_the_table_s_clock(tick_room: Room) -> None:
    room = tick_room
    mark(room, "p1")
    before = room.step - 1
    run_clock(room, 30)
    run_clock(room, 30)
    assert room.can_undo_own("p1"), "the clock is no one: Ann may still take back her mark"
    assert not room.can_undo_own("p2")
    clock_at = room.row.settings["clock_at"]
    room.undo_own("p1")
    assert room.step == before and room.match.state.marks == 0
    assert room.row.settings["clock_at"] == pytest.approx(clock_at - 60), "the time is fed again, not lost"
    mark(room, "p1")
    mark(room, "p2")
    assert not room.can_undo_own("p1"), "someone else acted"


def test_an_open_request_survives_the_clock(tick_room: Room) -> None:
    room = tick_room
    mark(room, "p1")
    mark(room, "p2")
    room.request_undo("p1")
    run_clock(room, 5)
    assert room.undo_request is not None, "a clock step does not cancel the request"
    room.consent_undo("p2", True)
    room.consent_undo("table", True)  # the seat that keeps the table (a person here)
    assert room.match.state.marks == 1 and room.match.state.elapsed == 0


def test_the_clock_and_a_silent_action_are_said_in_words(tick_room: Room) -> None:
    room = tick_room
    mark(room, "p1")
    run_clock(room, 600)
    run_clock(room, 120)
    mark(room, "p2", "wait")
    said = [line.text for line in chat.lines(room.store, room.id) if line.kind == "table"]
    assert "the clock: 12 minutes passed before this move" in said
    assert "Bob: wait" in said, "an action that left nothing in the story is said in words"
    from ludica.table.seatview import news

    assert any("12 minutes" in e["text"] for e in news(room, None)), "and in Just now"
