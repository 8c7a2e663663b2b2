"""Whatever a browser sends, the table answers in words, changes nothing it should not, and leaks nothing."""

from __future__ import annotations

import json
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
    with TestClient(create_app(f"sqlite:///{tmp_path / 'fuzz.sqlite3'}", rate=(1e6, 1e6))) as client:
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
