"""Bots at the web table: seated by the host when the room opens, they think in a worker process
and their moves (with narration) reach every seat like anyone's, to the end of the game."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from ludica.table.bots import parse_bots
from ludica.table.storage import SPECTATOR


def watch_until_over(spectator: Any, seconds: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    state = spectator.state
    while not state["over"]:
        assert time.monotonic() < deadline, "the bots did not finish the game in time"
        state = spectator.receive("state")
    return state


def test_bots_at_every_seat_play_a_game_to_its_end(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client, "pig", ("Ann", "Bob"), bots={"p1": "ismcts:playouts=20", "p2": "random"})
    spectator = seat_client(client, room["room"], room["tokens"][SPECTATOR])
    assert watch_until_over(spectator)["over"]
    token = room["tokens"][SPECTATOR]
    story = client.get(f"/rooms/{room['room']}/story.md", headers={"X-Ludica-Token": token}).text
    assert "futures" in story, "the search bot's narration is in the story, like anyone's"


def test_a_person_plays_against_a_bot(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client, "pig", ("Ann", "Bob"), bots={"p2": "ismcts:playouts=10"})
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    deadline = time.monotonic() + 120
    while not ann.state["over"]:
        assert time.monotonic() < deadline
        if ann.state["your_turn"]:
            kinds = [a["type"] for a in ann.state["legal"]]
            kind = "hold" if "hold" in kinds else ("wager" if "wager" in kinds else "roll")
            reply = ann.act_type(kind, look=False)
            if reply["type"] == "refused" and reply.get("rule") == "stale":
                ann.send({"type": "sync"})
        else:
            ann.receive("state")
    assert ann.state["over"]


def test_bad_bot_seats_are_refused_in_words(client: TestClient) -> None:
    for bots, words in (
        ({"p9": "random"}, "no seat 'p9'"),
        ({"p1": "genius"}, "no bot 'genius'"),
        ("p1", "SEAT=BOT"),
        ({"p1": "ismcts:playouts=0"}, "ismcts"),
    ):
        response = client.post("/rooms", json={"game": "pig", "players": ["Ann", "Bob"], "bots": bots})
        assert response.status_code == 400, response.text
        assert words in response.json()["reason"]


def test_the_lobby_form_seats_bots(client: TestClient) -> None:
    form = {"game": "pig", "player": ["Ann", "Bob"], "bots": "p2=random"}
    response = client.post("/rooms", data=form)
    assert response.status_code == 201, response.text


def test_parse_bots_reads_text_and_objects() -> None:
    seats = ("p1", "p2", "p3")
    assert parse_bots("p2=random  p3=ismcts:playouts=5", seats, "pig") == {"p2": "random", "p3": "ismcts:playouts=5"}
    assert parse_bots({"p1": "random"}, seats, "pig") == {"p1": "random"}
    assert parse_bots("", seats, "pig") == {}


def test_a_bot_out_of_time_plays_on_instinct(client: TestClient, seat_client: Any, opener: Any) -> None:
    """Past the time bound a random legal action is played for the bot, and it says so."""
    client.app.state.table().bots.seconds = 0.001  # type: ignore[attr-defined]
    room = opener(client, "pig", ("Ann", "Bob"), bots={"p1": "ismcts:playouts=3000", "p2": "random"})
    spectator = seat_client(client, room["room"], room["tokens"][SPECTATOR])
    assert watch_until_over(spectator)["over"]
    token = room["tokens"][SPECTATOR]
    story = client.get(f"/rooms/{room['room']}/story.md", headers={"X-Ludica-Token": token}).text
    assert "ran out of time" in story


class _Stub:
    """Stands in for a worker process: the set's bookkeeping is what is under test."""

    def alive(self) -> bool:
        return True

    def stop(self) -> None:
        pass


def test_the_workers_can_be_read_while_the_tables_threads_spawn_and_forget_them(monkeypatch: Any) -> None:
    """Workers are spawned in the table's thread pool while a status reader (or a test) looks at
    them from another thread: the snapshot never fails with "set changed size"."""
    import threading

    from ludica.table import bots as table_bots

    monkeypatch.setattr(table_bots, "Worker", _Stub)
    pool = table_bots.TableBots(run=lambda *a: None)
    stop = threading.Event()

    def churn() -> None:
        while not stop.is_set():
            pool._forget(pool._spawn())

    threads = [threading.Thread(target=churn) for _ in range(2)]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline:
            assert all(w.alive() for w in pool.all())
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    pool.close()
    assert pool.all() == ()
