"""The table in-process: rooms, invites, live per-seat views, refusals, undo, physical mode, exports."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ludica.core import get_game
from ludica.table.fairness import verify_data


def test_lobby_offers_the_example_game_to_developers_only(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'name="player"' in page.text and "Euthymia" in page.text
    assert "data-game='pig'" not in page.text and 'data-game="pig"' not in page.text and "Pig" not in page.text
    dev = client.get("/?examples=1")
    assert dev.status_code == 200 and 'data-game="pig"' in dev.text
    assert any(g["id"] == "pig" for g in client.get("/api/games").json())


def test_pages_name_their_icon_inline(client: TestClient) -> None:
    """No favicon fetch (and no 404): every page carries its icon as a data: URL."""
    page = client.get("/")
    assert '<link rel="icon" href="data:image/svg+xml,' in page.text


def test_open_a_room_from_the_lobby_form(client: TestClient) -> None:
    body = "game=pig&player=Ann&player=Bob&player=&player=&opt%3Atarget=10&physical=0"
    page = client.post("/rooms", content=body, headers={"content-type": "application/x-www-form-urlencoded"})
    assert page.status_code == 201
    assert page.text.count("/play/") >= 4 * 2  # host, 2 seats, spectators (href and text)
    assert "Ann" in page.text and "Seed hash" in page.text


def test_bad_room_requests_are_refused_in_words(client: TestClient) -> None:
    r = client.post("/rooms", json={"game": "pig", "players": ["Solo"]})
    assert r.status_code == 400 and "2-4 players" in r.json()["reason"]
    r = client.post("/rooms", json={"game": "chess", "players": ["A", "B"]})
    assert r.status_code == 400 and "no game" in r.json()["reason"]
    r = client.post("/rooms", json={"game": "pig", "players": ["A", "B"], "options": {"target": 7}})
    assert r.status_code == 400 and "target" in r.json()["reason"]


def test_each_seat_sees_only_its_own_view(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client, options={"target": 10})
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    bob = seat_client(client, room["room"], room["tokens"]["p2"])
    watcher = seat_client(client, room["room"], room["tokens"]["*spectator*"])
    assert ann.state["your_turn"] and bob.state["your_turn"]  # sealed wagers: both decide
    assert watcher.state["legal"] == [] and not watcher.state["your_turn"]
    ann.act_type("wager", amount=3)
    seen_by_bob = bob.receive("state")
    seen_by_watcher = watcher.receive("state")
    assert "wagered 3" in json.dumps(ann.state)
    for other in (seen_by_bob, seen_by_watcher):
        text = json.dumps(other)
        assert "wagered 3" not in text and "only you see it" not in text
        assert other["step"] == ann.state["step"] == 1
    assert "Bob" in seen_by_bob["html"]["pending"]  # everyone sees whose decision it is
    mine = client.get(f"/rooms/{room['room']}/story.md", headers={"X-Ludica-Token": room["tokens"]["p1"]}).text
    theirs = client.get(f"/rooms/{room['room']}/story.md", headers={"X-Ludica-Token": room["tokens"]["p2"]}).text
    assert "wagered 3" in mine and "wagered 3" not in theirs  # exports hold only the seat's own private events
    ann.close(), bob.close(), watcher.close()


def test_refusals_carry_the_reason_and_change_nothing(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    step = ann.state["step"]
    stale = ann.send({"type": "act", "step": step + 5, "index": 0})
    assert stale["type"] == "refused" and stale["rule"] == "stale"
    forged = ann.send({"type": "act", "step": step, "action": {"seat": "p2", "type": "wager", "args": {"amount": 1}}})
    assert forged["type"] == "refused" and "your own seat" in forged["reason"]
    illegal = ann.send({"type": "act", "step": step, "action": {"type": "wager", "args": {"amount": 9}}})
    assert illegal["type"] == "refused" and illegal["rule"] == "wager"
    unknown = ann.send({"type": "act", "step": step, "action": {"type": "fly", "args": {}}})
    assert unknown["type"] == "refused" and unknown["error"] == "MalformedAction"
    bad_index = ann.send({"type": "act", "step": step, "index": 99})
    assert bad_index["type"] == "refused"
    huge = ann.send({"type": "act", "step": step, "index": 0, "narration": "x" * 20000})
    assert huge["type"] == "refused" and huge["rule"] == "size"
    garbage = ann.send({"nope": 1})
    assert garbage["type"] == "refused" and garbage["rule"] == "protocol"
    assert ann.send({"type": "sync"})["step"] == step
    ann.close()


def test_a_wrong_token_gets_nothing(client: TestClient, opener: Any) -> None:
    room = opener(client)
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": "guess"}))
        reply = ws.receive_json()
        assert reply["type"] == "refused" and "state" not in json.dumps(reply)
    assert client.get(f"/rooms/{room['room']}/story.md", headers={"X-Ludica-Token": "guess"}).status_code == 403


def test_rate_limit_per_connection(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    for _ in range(60):
        ann.ws.send_text(json.dumps({"type": "ping"}))
    replies = [ann.ws.receive_json() for _ in range(60)]
    assert any(r.get("rule") == "rate limit" for r in replies)
    ann.close()


def play_pig_to_the_end(seats: dict[str, Any]) -> None:
    """Both wager, then whoever is waited for rolls until 6 points in the turn, then holds."""

    def act(acting: Any, kind: str, **args: Any) -> None:
        assert acting.act_type(kind, look=False, **args)["type"] == "ack"
        for other in seats.values():
            if other is not acting:
                other.receive("state")  # exactly one new view per accepted action, in order

    for seat in seats.values():
        act(seat, "wager", amount=2)
    for _ in range(500):
        acting = next((s for s in seats.values() if s.state["your_turn"]), None)
        if acting is None:
            break
        view = acting.state["html"]["view"]
        total = int(view.split('class="turn-total">')[1].split("<")[0])
        kinds = {a["type"] for a in acting.state["legal"]}
        act(acting, "hold" if total >= 6 and "hold" in kinds else "roll")
    assert all(s.state["over"] for s in seats.values())
    assert len({s.state["step"] for s in seats.values()}) == 1


def test_a_whole_game_then_exports_and_a_fair_record(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client, options={"target": 10})
    rid, tokens = room["room"], room["tokens"]
    seats = {s: seat_client(client, rid, tokens[s]) for s in ("p1", "p2")}
    early = client.get(f"/rooms/{rid}/record.json", headers={"X-Ludica-Token": tokens["p1"]})
    assert early.status_code == 409  # the record holds every secret until the end
    play_pig_to_the_end(seats)
    assert seats["p1"].state["fairness"]["seed"]  # revealed at the end
    md = client.get(f"/rooms/{rid}/story.md", headers={"X-Ludica-Token": tokens["p1"]})
    assert md.status_code == 200 and md.text.startswith("# Pig") and "wins" in md.text
    html = client.get(f"/rooms/{rid}/story.html", headers={"X-Ludica-Token": tokens["*spectator*"]})
    assert html.status_code == 200 and '<section class="step"' in html.text
    record = client.get(f"/rooms/{rid}/record.json", headers={"X-Ludica-Token": tokens["p2"]}).json()
    report = verify_data(record)
    assert report.over and report.chance_steps == report.dealt_verified > 0
    assert report.seed_hash == room["seed_hash"]
    for seat in seats.values():
        seat.close()


def test_text_fields_and_narration_are_escaped(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    bob = seat_client(client, room["room"], room["tokens"]["p2"])
    ann.act_type("wager", amount=1)
    bob.act_type("wager", amount=1)
    ann.send({"type": "sync"})
    index = next(i for i, a in enumerate(ann.state["legal"]) if a["type"] == "title")
    assert 'data-kind="text"' in ann.state["html"]["actions"]
    reply = ann.act(index, {"text": "<script>alert(1)</script>"}, narration="<b>bold</b> move")
    assert reply["type"] == "ack"
    text = json.dumps(ann.state)
    assert "<script>alert" not in text and "&lt;script&gt;" in text and "&lt;b&gt;bold" in text
    ann.close(), bob.close()


def test_undo_own_action_before_anyone_else_acts(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    bob = seat_client(client, room["room"], room["tokens"]["p2"])
    ann.act_type("wager", amount=3)
    assert 'data-undo="own"' in ann.state["html"]["actions"]
    assert ann.send({"type": "undo", "mode": "own"})["type"] == "ack"
    assert ann.receive("state")["step"] == 0
    ann.act_type("wager", amount=1)
    bob.act_type("wager", amount=2)  # reveals the wagers: nobody may take back alone now
    refused = ann.send({"type": "undo", "mode": "own"})
    assert refused["type"] == "refused" and refused["rule"] == "undo"
    ann.close(), bob.close()


def test_undo_by_everyone_s_consent(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    bob = seat_client(client, room["room"], room["tokens"]["p2"])
    ann.act_type("wager", amount=1)
    bob.act_type("wager", amount=2)
    ann.send({"type": "sync"})
    ann.act_type("roll")  # a chance step follows at once
    step = ann.state["step"]
    assert bob.send({"type": "undo", "mode": "request"})["type"] == "ack"
    assert ann.receive("state")["html"]["pending"].count("asks to take back") == 1
    assert ann.send({"type": "undo", "mode": "consent"})["type"] == "ack"
    assert ann.receive("state")["step"] == step - 2  # the roll and its die are gone
    ann.close(), bob.close()


def test_physical_mode_a_seat_types_the_die(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client, physical=2)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    bob = seat_client(client, room["room"], room["tokens"]["p2"])
    ann.act_type("wager", amount=1)
    bob.act_type("wager", amount=1)
    ann.send({"type": "sync"})
    ann.act_type("roll")
    bob.send({"type": "sync"})
    assert bob.state["chance"]["kind"] == "roll" and 'data-list="dice"' in bob.state["html"]["actions"]
    wrong = ann.send({"type": "act", "step": ann.state["step"], "chance": {"dice": [4]}})
    assert wrong["type"] == "refused" and wrong["rule"] == "physical"
    bad = bob.send({"type": "act", "step": bob.state["step"], "chance": {"dice": [7]}})
    assert bad["type"] == "refused" and "d6" in bad["reason"]
    ok = bob.send({"type": "act", "step": bob.state["step"], "chance": {"dice": [4]}})
    assert ok["type"] == "ack"
    assert "rolled 4" in json.dumps(bob.receive("state")["log"])
    ann.close(), bob.close()


def test_host_reissues_a_seat_link(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    host = seat_client(client, room["room"], room["tokens"]["*host*"])
    assert host.state["manage"] and host.state["legal"] == []
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    assert ann.send({"type": "reissue", "role": "p2"})["type"] == "refused"
    old_bob = seat_client(client, room["room"], room["tokens"]["p2"])
    invite = host.send({"type": "reissue", "role": "p2"})
    assert invite["type"] == "invite" and invite["token"] != room["tokens"]["p2"]
    assert old_bob.receive("refused")["rule"] == "links"
    with pytest.raises(WebSocketDisconnect):  # the old link's open socket is closed, and acts no more
        old_bob.receive()
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": room["tokens"]["p2"]}))
        assert ws.receive_json()["type"] == "refused"
    bob = seat_client(client, room["room"], invite["token"])
    assert bob.state["seat"] == "p2"
    host.close(), ann.close(), bob.close()


def test_reconnecting_browser_is_resynchronised(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    ann.act_type("wager", amount=2)
    ann.close()
    again = seat_client(client, room["room"], room["tokens"]["p1"])
    assert again.state["step"] == 1 and "wagered 2" in json.dumps(again.state["log"])
    again.close()


def test_every_registered_game_opens_and_renders(client: TestClient, seat_client: Any, opener: Any) -> None:
    """Every game that imports today gets a room and a complete face for each seat."""
    for meta in client.get("/api/games").json():
        game = get_game(meta["id"])
        players = tuple(f"P{i + 1}" for i in range(game.meta.players_min))
        room = opener(client, game=meta["id"], players=players)
        for role, token in room["tokens"].items():
            if role == "*host*":
                continue
            seat = seat_client(client, room["room"], token)
            assert seat.state["html"]["view"].strip()
            seat.close()


def test_a_physical_game_s_record_says_its_dice_were_typed(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client, physical=1, options={"target": 10})
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    bob = seat_client(client, room["room"], room["tokens"]["p2"])
    ann.act_type("wager", amount=1)
    bob.act_type("wager", amount=1)
    for _ in range(200):
        ann.send({"type": "sync"})
        bob.send({"type": "sync"})
        if ann.state["over"]:
            break
        if ann.state["chance"]:
            assert ann.send({"type": "act", "step": ann.state["step"], "chance": {"dice": [6]}})["type"] == "ack"
            continue
        mover = ann if ann.state["your_turn"] else bob
        kinds = {a["type"] for a in mover.state["legal"]}
        mover.act_type("hold" if "hold" in kinds else "roll", look=False)
    record = client.get(f"/rooms/{room['room']}/record.json", headers={"X-Ludica-Token": room["tokens"]["p1"]}).json()
    report = verify_data(record)
    assert report.over and report.typed_by_hand > 0 and "typed by hand" in str(report)
    assert report.typed_by_hand == len(record["typed"]) == report.chance_steps  # every step typed, each marked


def test_turn_timer_counts_each_decision(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client, turn_timer=90)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    assert ann.state["timer"]["seconds"] == 90 and 0 < ann.state["timer"]["left"] <= 90
    plain = opener(client)
    assert seat_client(client, plain["room"], plain["tokens"]["p1"]).state["timer"] is None
    bad = client.post("/rooms", json={"game": "pig", "players": ["A", "B"], "turn_timer": -5})
    assert bad.status_code == 400 and "seconds" in bad.json()["reason"]


class LobbyForms(HTMLParser):
    """Collects what each lobby form would send with its defaults (inputs, selected options)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[list[tuple[str, str]]] = []
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and "create-room" in a.get("class", ""):
            self.forms.append([])
        elif tag == "input" and self.forms and "name" in a:
            self.forms[-1].append((a["name"], a.get("value", "")))
        elif tag == "select":
            self.select = a.get("name")
        elif tag == "option" and self.select and "selected" in a:
            self.forms[-1].append((self.select, a.get("value", "")))


def test_every_game_opens_from_the_lobby_form_with_its_defaults(client: TestClient) -> None:
    """What the lobby's form sends for each game's defaults is read back as valid options."""
    parser = LobbyForms()
    parser.feed(client.get("/").text)
    assert parser.forms
    for fields in parser.forms:
        body = "&".join(f"{quote(n)}={quote(v)}" for n, v in fields)
        r = client.post("/rooms", content=body, headers={"content-type": "application/x-www-form-urlencoded"})
        assert r.status_code == 201, (dict(fields)["game"], r.text[-300:])


def test_a_binary_frame_ends_only_that_connection(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    ann.ws.send_bytes(b"\x00\x01")
    with pytest.raises(WebSocketDisconnect):
        ann.receive()
    again = seat_client(client, room["room"], room["tokens"]["p1"])
    assert again.state["step"] == 0
