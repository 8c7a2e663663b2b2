"""Issue 14, the web table: each point as a hostile or unlucky user found it, mended.

Every test is named after its point (``test_p1_...`` for point 1, and so on).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ludica.bots.random_bot import RandomBot
from ludica.table.rooms import Room, Rooms, TableError, UndoRequest
from ludica.table.seatview import payload
from ludica.table.server import create_app
from ludica.table.storage import HOST, SPECTATOR, Store


def table_of(client: TestClient) -> Any:
    return client.app.state.table()  # type: ignore[attr-defined]


def min_players(client: TestClient, game: str) -> tuple[str, ...]:
    meta = next(m for m in client.get("/api/games").json() if m["id"] == game)
    return tuple(f"Player {i + 1}" for i in range(meta["players"][0]))


def play_pig_to_the_end(seats: dict[str, Any]) -> None:
    """Both wager, then whoever is waited for rolls until 6 points in the turn, then holds."""
    for seat in seats.values():
        assert seat.act_type("wager", amount=2)["type"] == "ack"
    for _ in range(500):
        for seat in seats.values():
            seat.send({"type": "sync"})
        acting = next((s for s in seats.values() if s.state["your_turn"]), None)
        if acting is None:
            break
        view = acting.state["html"]["view"]
        total = int(view.split('class="turn-total">')[1].split("<")[0])
        kinds = {a["type"] for a in acting.state["legal"]}
        assert acting.act_type("hold" if total >= 6 and "hold" in kinds else "roll", look=False)["type"] == "ack"
    for seat in seats.values():
        seat.send({"type": "sync"})
    assert all(s.state["over"] for s in seats.values())


# -- 1. only the host re-issues a link --------------------------------------------------------------
@pytest.mark.parametrize(("game", "referee"), [("great-city", "gm"), ("euthymia", "table")])
def test_p1_a_referee_seat_cannot_reissue_a_player_s_link(
    client: TestClient, seat_client: Any, opener: Any, game: str, referee: str
) -> None:
    room = opener(client, game=game, players=min_players(client, game))
    gm = seat_client(client, room["room"], room["tokens"][referee])
    assert not gm.state["manage"] and gm.state["seats"] == []
    reply = gm.send({"type": "reissue", "role": "p1"})
    assert reply["type"] == "refused" and reply["rule"] == "links" and "host" in reply["reason"]
    assert "token" not in reply
    p1 = seat_client(client, room["room"], room["tokens"]["p1"])  # p1's link still works
    assert p1.state["seat"] == "p1"


def test_p1_a_reissue_goes_to_the_host_alone_and_is_announced(
    client: TestClient, seat_client: Any, opener: Any
) -> None:
    room = opener(client)
    rid = room["room"]
    host = seat_client(client, rid, room["tokens"][HOST])
    ann = seat_client(client, rid, room["tokens"]["p1"])
    bob = seat_client(client, rid, room["tokens"]["p2"])
    watcher = seat_client(client, rid, room["tokens"][SPECTATOR])
    invite = host.send({"type": "reissue", "role": "p2"})
    assert invite["type"] == "invite" and invite["role"] == "p2"
    told = bob.receive("refused")  # the seat whose link changed is told, then its socket closed
    assert told["rule"] == "links" and "re-issued" in told["reason"]
    with pytest.raises(WebSocketDisconnect):
        bob.receive()
    for other in (ann, watcher, host):
        notice = other.receive("notice")
        assert "Bob" in notice["text"] and "new link" in notice["text"]
        assert invite["token"] not in json.dumps(notice)
    for other in (ann, watcher):
        synced = other.send({"type": "sync"})
        assert invite["token"] not in json.dumps(synced)
        assert any("Bob" in n for n in synced["notices"])  # a later look still shows it
    again = seat_client(client, rid, invite["token"])
    assert any("Bob" in n for n in again.state["notices"])


# -- 2. nothing is taken back once the game is over --------------------------------------------------
def test_p2_no_undo_request_or_consent_after_the_end(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client, options={"target": 10})
    seats = {s: seat_client(client, room["room"], room["tokens"][s]) for s in ("p1", "p2")}
    play_pig_to_the_end(seats)
    step = seats["p1"].state["step"]
    assert seats["p1"].state["fairness"]["seed"]  # the seed is public now
    for mode in ("own", "request", "consent", "decline"):
        reply = seats["p2"].send({"type": "undo", "mode": mode})
        assert reply["type"] == "refused" and reply["rule"] == "undo" and "over" in reply["reason"], mode
    assert seats["p1"].send({"type": "sync"})["step"] == step
    assert "data-undo" not in seats["p1"].state["html"]["actions"]


def test_p2_an_open_undo_request_cannot_be_completed_after_the_end(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 't.sqlite3'}")
    room, _ = Rooms(store).create("pig", ["Ann", "Bob"], {"target": 10})
    bot = RandomBot(random.Random(4))
    while not room.is_over():
        seat = room.match.pending().seats[0]
        room.act(seat, {"step": room.step, "action": bot.choose(room.match, seat).to_json()})
    step = room.step
    room.undo_request = UndoRequest("p1", room.undo_target() or 0, {"p1"})  # opened just before the end
    with pytest.raises(TableError, match="over"):
        room.consent_undo("p2", True)
    assert room.is_over() and room.step == step == room.store.count(room.id)
    store.close()


# -- 4. no seat credential in an export URL -------------------------------------------------------
def test_p4_exports_refuse_a_token_in_the_query_string(client: TestClient, opener: Any) -> None:
    room = opener(client)
    token = room["tokens"]["p1"]
    for name in ("story.md", "story.html", "record.json"):
        r = client.get(f"/rooms/{room['room']}/{name}?t={token}")
        assert r.status_code == 400 and "X-Ludica-Token" in r.json()["reason"], name
    ok = client.get(f"/rooms/{room['room']}/story.md", headers={"X-Ludica-Token": token})
    assert ok.status_code == 200
    posted = client.post(f"/rooms/{room['room']}/story.md", data={"token": token})
    assert posted.status_code == 200 and posted.text.startswith("# Pig")


def test_p4_the_client_never_puts_a_token_in_a_url() -> None:
    script = (Path(__file__).parents[2] / "ludica" / "table" / "static" / "table.js").read_text()
    assert "?t=" not in script and "X-Ludica-Token" in script


# -- 5. memory stays bounded -------------------------------------------------------------------------
def test_p5_unknown_room_ids_leave_nothing_behind(client: TestClient) -> None:
    t = table_of(client)
    before = (len(t.locks), len(t.rooms.live), len(t.connections), len(t.last_tick))
    for i in range(50):
        rid = f"nope{i}"
        assert client.get(f"/play/{rid}").status_code == 404
        assert client.get(f"/rooms/{rid}/story.md", headers={"X-Ludica-Token": "x"}).status_code == 403
        with client.websocket_connect(f"/ws/{rid}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": "guess"}))
            assert ws.receive_json()["type"] == "refused"
    assert (len(t.locks), len(t.rooms.live), len(t.connections), len(t.last_tick)) == before


def test_p5_idle_rooms_leave_memory_and_come_back(client: TestClient, seat_client: Any, opener: Any) -> None:
    t = table_of(client)
    room = opener(client)
    rid = room["room"]
    ann = seat_client(client, rid, room["tokens"]["p1"])
    ann.act_type("wager", amount=2)
    client.portal.call(t.sweep, 10**9)  # a watched room stays
    assert rid in t.rooms.live
    ann.close()
    client.portal.call(t.sweep, 0.0)  # not idle long enough yet (idle_seconds > 0)
    assert rid in t.rooms.live
    client.portal.call(t.sweep, 10**9)
    assert rid not in t.rooms.live and rid not in t.locks and rid not in t.connections
    again = seat_client(client, rid, room["tokens"]["p1"])  # back from storage on demand
    assert again.state["step"] == 1 and "wagered 2" in json.dumps(again.state["log"])


def test_p5_room_creation_is_rate_limited_per_client(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.sqlite3'}", room_rate=(0.001, 3))) as client:
        for _ in range(3):
            assert client.post("/rooms", json={"game": "pig", "players": ["A", "B"]}).status_code == 201
        r = client.post("/rooms", json={"game": "pig", "players": ["A", "B"]})
        assert r.status_code == 429 and "too many rooms" in r.json()["reason"]
        assert int(r.headers["retry-after"]) > 0
        form = client.post("/rooms", content="game=pig&player=A&player=B", headers={"content-type": "x-www-form"})
        assert form.status_code == 429 and "too many rooms" in form.text
        assert len(table_of(client).store.room_ids()) == 3


def test_p5_the_host_closes_and_deletes_a_room(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    rid, tokens = room["room"], room["tokens"]
    ann = seat_client(client, rid, tokens["p1"])
    refused = ann.send({"type": "close_room"})
    assert refused["type"] == "refused" and "host" in refused["reason"]
    host = seat_client(client, rid, tokens[HOST])
    assert host.send({"type": "close_room"})["type"] == "ack"
    closed = ann.receive("closed")
    assert "closed" in closed["reason"]
    with pytest.raises(WebSocketDisconnect):
        ann.receive()
    t = table_of(client)
    assert t.store.room(rid) is None and t.store.actions(rid) == [] and t.store.role_of(rid, tokens["p1"]) is None
    assert rid not in t.rooms.live and rid not in t.locks
    assert client.get(f"/play/{rid}").status_code == 404


def test_p5_the_host_deletes_a_room_over_http(client: TestClient, opener: Any) -> None:
    room = opener(client)
    rid, tokens = room["room"], room["tokens"]
    assert client.delete(f"/rooms/{rid}", headers={"X-Ludica-Token": tokens["p1"]}).status_code == 403
    assert client.delete(f"/rooms/{rid}", headers={"X-Ludica-Token": tokens[HOST]}).status_code == 204
    assert table_of(client).store.room(rid) is None


def test_p5_finished_rooms_are_archived(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client, options={"target": 10})
    rid, tokens = room["room"], room["tokens"]
    seats = {s: seat_client(client, rid, tokens[s]) for s in ("p1", "p2")}
    play_pig_to_the_end(seats)
    t = table_of(client)
    assert t.store.room(rid).archived is not None
    for seat in seats.values():
        seat.close()
    client.portal.call(t.sweep, 0.0)  # a finished room leaves memory as soon as nobody watches it
    assert rid not in t.rooms.live
    story = client.get(f"/rooms/{rid}/story.md", headers={"X-Ludica-Token": tokens["p1"]})
    assert story.status_code == 200 and "wins" in story.text  # still exported from the archive
    late = seat_client(client, rid, tokens["p2"])
    assert late.state["over"] and late.state["archived"]


# -- 6. a repeated act is never applied twice -----------------------------------------------------
def test_p6_an_act_without_step_or_key_is_refused(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    message = {"type": "act", "action": {"type": "wager", "args": {"amount": 1}}}
    reply = ann.send(message)
    assert reply["type"] == "refused" and reply["rule"] == "step" and "step" in reply["reason"]
    assert ann.send({"type": "sync"})["step"] == 0


def test_p6_an_act_sent_twice_is_applied_once(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    message = {"type": "act", "key": "ann-1", "action": {"type": "wager", "args": {"amount": 1}}}
    first = ann.send({**message, "step": 0})
    assert first["type"] == "ack" and first["step"] == 1 and not first.get("repeat")
    second = ann.send(message)  # a key alone recognises a repeat (issue 23: it never acts anew)
    assert second["type"] == "ack" and second["repeat"] and second["step"] == 1
    again = ann.send({**message, "step": 0})  # the key wins over the step: still a repeat
    assert again["type"] == "ack" and again["repeat"]
    by_step = {"type": "act", "step": 1, "action": {"type": "roll", "args": {}}}
    assert ann.send(by_step)["type"] in ("ack", "refused")
    assert ann.send({"type": "sync"})["step"] >= 1
    bad = ann.send({**message, "key": ["x"]})
    assert bad["type"] == "refused" and bad["rule"] == "step"


def test_p6_a_key_is_remembered_across_a_restart(tmp_path: Path, seat_client: Any, opener: Any) -> None:
    url = f"sqlite:///{tmp_path / 't.sqlite3'}"
    message = {"type": "act", "key": "k", "action": {"type": "wager", "args": {"amount": 1}}}
    with TestClient(create_app(url)) as client:
        room = opener(client)
        ann = seat_client(client, room["room"], room["tokens"]["p1"])
        assert ann.send({**message, "step": 0})["type"] == "ack"
        ann.close()
    with TestClient(create_app(url)) as client:
        ann = seat_client(client, room["room"], room["tokens"]["p1"])
        reply = ann.send(message)
        ann.close()
        assert reply["type"] == "ack" and reply["repeat"] and reply["step"] == 1


# -- 7. deep nesting is refused in words ------------------------------------------------------------
def test_p7_deeply_nested_json_is_refused_not_dropped(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    deep = "[" * 1000 + "]" * 1000
    text = '{"type":"act","step":0,"action":{"type":"wager","args":{"amount":' + deep + "}}}"
    ann.ws.send_text(text)
    reply = ann.receive("refused")
    assert reply["rule"] == "protocol" and "nested" in reply["reason"]
    ann.ws.send_text('{"type":"act","step":0,"narration":' + "[" * 40 + "]" * 40 + ',"index":0}')
    assert "nested" in ann.receive("refused")["reason"]
    assert ann.send({"type": "ping"})["type"] == "pong"  # the socket is still open
    assert ann.send({"type": "sync"})["step"] == 0
    r = client.post(
        "/rooms", content='{"game":"pig","players":' + deep + "}", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400 and "nested" in r.json()["reason"]
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        ws.send_text('{"type":"hello","token":' + deep + "}")
        assert ws.receive_json()["type"] == "refused"


# -- 8. a lone surrogate is a 400 and stores nothing ------------------------------------------------
def test_p8_a_lone_surrogate_in_a_player_name_is_a_400_and_stores_nothing(client: TestClient) -> None:
    body = '{"game": "pig", "players": ["\\ud800Ann", "Bob"]}'
    r = client.post("/rooms", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "player" in r.json()["reason"] and "Unicode" in r.json()["reason"]
    body = '{"game": "pig", "players": ["Ann", "Bob"], "options": {"\\udc00": 1}}'
    r = client.post("/rooms", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "Unicode" in r.json()["reason"]
    assert table_of(client).store.room_ids() == []


def test_p8_a_lone_surrogate_in_an_act_is_refused(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    ann.ws.send_text('{"type":"act","step":0,"index":0,"narration":"hi \\ud800"}')
    reply = ann.receive("refused")
    assert "Unicode" in reply["reason"]
    assert ann.send({"type": "sync"})["step"] == 0
    assert table_of(client).store.actions(room["room"]) == []


# -- 17. the cost of an action does not grow with the game ------------------------------------------
def _count_plays(room: Room, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    play = room.game.play

    def counting(state: Any, action: Any) -> Any:
        calls[0] += 1
        return play(state, action)

    monkeypatch.setattr(room.game, "play", counting)
    return calls


def _random_act(room: Room, bot: RandomBot) -> None:
    seat = room.match.pending().seats[0]
    room.act(seat, {"step": room.step, "action": bot.choose(room.match, seat).to_json()})


def test_p17_an_action_and_its_broadcast_never_replay_the_record(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 't.sqlite3'}")
    room, _ = Rooms(store).create("euphoria", ["Ann", "Bob", "Cat"], {})
    bot = RandomBot(random.Random(7))
    roles = [*room.seats(), SPECTATOR, HOST]
    for _ in range(80):
        _random_act(room, bot)
    for _ in range(20):
        # a replay builds a new state from the record: the state played on must stay the same object
        # (counting calls by patching ``game.play`` sees nothing on the compiled build, whose
        # kernels call their methods directly)
        state, start = room.match.state, room.step
        _random_act(room, bot)
        for role in roles:
            payload(room, role, full_log=False)
        assert room.step > start and room.match.state is state, "a broadcast replayed the record"
    store.close()


def test_p17_taking_back_one_s_own_action_does_not_replay_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(f"sqlite:///{tmp_path / 't.sqlite3'}")
    room, _ = Rooms(store).create("pig", ["Ann", "Bob"], {"target": 30})
    bot = RandomBot(random.Random(1))
    for _ in range(20):
        _random_act(room, bot)
    taken = 0
    for _ in range(200):
        if room.is_over():
            break
        seat = room.match.pending().seats[0]
        before = (room.match.digest(), len(room.match.log), room.step)
        calls = _count_plays(room, monkeypatch)
        room.act(seat, {"step": room.step, "action": bot.choose(room.match, seat).to_json()})
        if room.can_undo_own(seat):
            played = calls[0]
            room.undo_own(seat)
            assert calls[0] == played, "an own undo replayed the record"
            assert (room.match.digest(), len(room.match.log), room.step) == before
            assert store.count(room.id) == room.step
            taken += 1
        monkeypatch.undo()
    assert taken > 0
    store.close()
