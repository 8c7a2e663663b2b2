"""Whatever a browser sends, the table answers in words, changes nothing it should not, and leaks nothing."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludica.table.server import create_app

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
MESSAGES = st.fixed_dictionaries(
    {"type": st.sampled_from(["act", "undo", "reissue", "hello", "nope"])},
    optional={
        "step": JSON,
        "index": JSON,
        "fields": JSON,
        "action": JSON,
        "chance": JSON,
        "narration": JSON,
        "mode": JSON,
        "role": JSON,
    },
)


def test_random_messages_are_refused_or_accepted_never_crash(tmp_path: Path, seat_client: Any, opener: Any) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'fuzz.sqlite3'}", rate=(1e6, 1e6), room_messages=(1e6, 1e6))
    with TestClient(app) as client:
        fuzz_one_room(client, seat_client, opener)


def fuzz_one_room(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client)
    bob = seat_client(client, room["room"], room["tokens"]["p2"])
    bob.act_type("wager", amount=3)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(MESSAGES)
    def fuzz(message: dict[str, Any]) -> None:
        reply = ann.send(message)
        assert reply["type"] in ("ack", "refused", "invite", "pong")
        text = json.dumps(reply)
        assert "Traceback" not in text and "wagered 3" not in text
        if reply["type"] == "refused":
            assert reply["reason"]

    try:
        fuzz()
        assert "wagered 3" not in json.dumps(ann.send({"type": "sync"}))
    finally:
        ann.close()
        bob.close()


# -- issue 14: random legal play interleaved with ill-formed acts, for every game ---------------------
SECONDS_PER_GAME = 2.0


def _other_type(value: Any) -> Any:
    """A value of another JSON type than ``value`` (never equal to it under the strict rules)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return {"items": value}
    if isinstance(value, dict):
        return [value]
    return "nothing"


def ill_formed(rng: random.Random, action: dict[str, Any], step: int, others: list[str]) -> tuple[str, str]:
    """One act message that must be refused (as the text sent) and what is wrong with it."""
    args = dict(action.get("args", {}))
    base = {"type": "act", "step": step, "action": {"type": action["type"], "args": args}}

    def with_args(new: Any) -> dict[str, Any]:
        return {**base, "action": {"type": action["type"], "args": new}}

    cases: list[tuple[str, Any]] = [
        ("no step and no key", {"type": "act", "action": base["action"]}),
        ("a stale step", {**base, "step": step + 1 + rng.randrange(5)}),
        ("a step that is not a number", {**base, "step": rng.choice([str(step), float(step), True, None, [step]])}),
        ("an unknown action type", {**base, "action": {"type": "zz_" + action["type"], "args": args}}),
        ("args that are not an object", with_args(rng.choice([[], "x", 3, None]))),
        ("an extra parameter", with_args({**args, "zz_extra": 1})),
        ("a forged seat", {**base, "action": {**base["action"], "seat": rng.choice(others or ["nobody"])}}),
        ("a deeply nested parameter", with_args({**args, "deep": json.loads("[" * 60 + "]" * 60)})),
        ("narration that is not text", {**base, "narration": rng.choice([3, ["x"], {"a": 1}, True])}),
        ("narration over its limit", {**base, "narration": "x" * 2001}),
        ("an index not offered", {"type": "act", "step": step, "index": rng.choice([-1, 10**6, True, "0", 1.5])}),
        ("fields that are not an object", {"type": "act", "step": step, "index": 0, "fields": [1]}),
        ("a chance outcome at a table that deals", {**base, "chance": {"dice": [rng.randrange(1, 7)]}}),
        ("a key that is not text", {**base, "key": rng.choice([[1], 5, {"k": 1}, ""])}),
        ("no action at all", {"type": "act", "step": step, "action": None}),
    ]
    if args:
        name = rng.choice(sorted(args))
        missing = {k: v for k, v in args.items() if k != name}
        cases.append(("a missing parameter", with_args(missing)))
        cases.append(("a parameter of the wrong type", with_args({**args, name: _other_type(args[name])})))
    what, message = rng.choice(cases)
    if rng.random() < 0.15:  # the same, with a lone surrogate in its narration (only escapes can carry one)
        return json.dumps(message)[:-1] + ', "narration": "\\ud83d"}', "a lone surrogate"
    return json.dumps(message), what


def test_ws_fuzz_every_game_refuses_ill_formed_acts_and_changes_nothing(
    tmp_path: Path, seat_client: Any, opener: Any
) -> None:
    """Issue 14: through the WebSocket, for every game, random legal play interleaved with random
    ill-formed acts; each ill-formed act is refused with a reason and changes nothing."""
    from ludica.bots.random_bot import RandomBot
    from ludica.core import fill

    app = create_app(f"sqlite:///{tmp_path / 'ws-fuzz.sqlite3'}", rate=(1e6, 1e6), room_messages=(1e6, 1e6))
    with TestClient(app) as client:
        table = app.state.table()
        for meta in client.get("/api/games").json():
            rng = random.Random(meta["id"])
            bot = RandomBot(random.Random(rng.random()))
            players = tuple(f"P{i + 1}" for i in range(meta["players"][0]))
            created = opener(client, game=meta["id"], players=players)
            room = table.rooms.live[created["room"]]
            seats = {s: seat_client(client, room.id, created["tokens"][s]) for s in room.seats()}
            refused = legal = 0
            deadline = time.monotonic() + SECONDS_PER_GAME
            while time.monotonic() < deadline and not room.is_over():
                waiting = [s for s in room.match.pending().seats if s in seats]
                seat = rng.choice(waiting)
                offered = room.seat_legal(seat)  # never the clock: only the table's clock gives time (issue 23)
                if not offered:
                    continue
                action = fill(bot.rng.choice(offered), bot.rng)
                if rng.random() < 0.4:
                    reply = seats[seat].send({"type": "act", "step": room.step, "action": action.to_json()})
                    assert reply["type"] == "ack", (meta["id"], action.notation(), reply)
                    legal += 1
                    continue
                before = (room.step, room.match.digest(), table.store.count(room.id), len(room.match.log))
                others = [s for s in seats if s != seat]
                text, what = ill_formed(rng, action.to_json(), room.step, others)
                seats[seat].ws.send_text(text)
                reply = seats[seat].ws.receive_json()
                while reply["type"] in ("state", "notice", "chat"):
                    reply = seats[seat].ws.receive_json()
                assert reply["type"] == "refused", (meta["id"], what, text[:200], reply)
                assert reply["reason"] and "Traceback" not in reply["reason"], (meta["id"], what)
                assert reply["rule"] != "server", (meta["id"], what, text[:200], reply)
                after = (room.step, room.match.digest(), table.store.count(room.id), len(room.match.log))
                assert after == before, (meta["id"], what, text[:200])
                refused += 1
            assert refused > 0 and legal > 0, meta["id"]
            for seat_conn in seats.values():
                seat_conn.close()
