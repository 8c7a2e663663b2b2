"""Two table processes sharing one PostgreSQL: "room advanced" notices over LISTEN/NOTIFY.

Runs when ``LUDICA_TEST_POSTGRES_URL`` is set (``.ci/run`` sets it), otherwise skips.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludica.table.server import create_app

URL = os.environ.get("LUDICA_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not URL, reason="PostgreSQL tests need LUDICA_TEST_POSTGRES_URL")


def test_a_seat_on_another_process_sees_the_action(seat_client: Any, opener: Any) -> None:
    assert URL is not None
    with TestClient(create_app(URL)) as one, TestClient(create_app(URL)) as two:
        room = opener(one)
        ann = seat_client(one, room["room"], room["tokens"]["p1"])
        bob = seat_client(two, room["room"], room["tokens"]["p2"])  # the room, loaded by the second process
        try:
            assert ann.act_type("wager", amount=2)["type"] == "ack"
            seen = bob.receive("state")  # pushed to the other process by NOTIFY
            assert seen["step"] == 1 and "wagered 2" not in str(seen)
            assert bob.act_type("wager", amount=1)["type"] == "ack"
            assert ann.receive("state")["step"] >= 2
        finally:
            ann.close()
            bob.close()


def test_a_room_closed_on_one_process_closes_on_the_other(seat_client: Any, opener: Any) -> None:
    """Issue 14 point 5: the host's close reaches seats served by another process (NOTIFY)."""
    assert URL is not None
    with TestClient(create_app(URL)) as one, TestClient(create_app(URL)) as two:
        room = opener(one)
        host = seat_client(one, room["room"], room["tokens"]["*host*"])
        bob = seat_client(two, room["room"], room["tokens"]["p2"])
        try:
            assert host.send({"type": "close_room"})["type"] == "ack"
            assert "closed" in bob.receive("closed")["reason"]
        finally:
            host.close()
            bob.close()


def test_a_reissue_on_one_process_closes_the_old_link_on_the_other(seat_client: Any, opener: Any) -> None:
    """Issue 23 point 2: the re-issue reaches the other process (NOTIFY): the old link's socket
    there is told and closed, and the others are told."""
    from starlette.websockets import WebSocketDisconnect

    assert URL is not None
    with TestClient(create_app(URL)) as one, TestClient(create_app(URL)) as two:
        room = opener(one)
        host = seat_client(one, room["room"], room["tokens"]["*host*"])
        bob = seat_client(two, room["room"], room["tokens"]["p2"])
        ann = seat_client(two, room["room"], room["tokens"]["p1"])
        try:
            assert host.send({"type": "reissue", "role": "p2"})["type"] == "invite"
            told = bob.receive("refused")
            assert told["rule"] == "links" and "re-issued" in told["reason"]
            with pytest.raises(WebSocketDisconnect):
                bob.receive()
            assert "new link" in ann.receive("notice")["text"]
        finally:
            for seat in (host, bob, ann):
                seat.close()


def test_an_old_link_cannot_act_on_another_process_even_unnotified(seat_client: Any, opener: Any) -> None:
    """Issue 23 point 2: even if the notice is late or lost, every change checks the link in
    storage first: the old link's act is refused, nothing is recorded."""
    assert URL is not None
    with TestClient(create_app(URL)) as one, TestClient(create_app(URL)) as two:
        table_two = two.app.state.table()  # type: ignore[attr-defined]
        table_two.listener.close()  # the second process hears nothing any more
        room = opener(one)
        host = seat_client(one, room["room"], room["tokens"]["*host*"])
        bob = seat_client(two, room["room"], room["tokens"]["p2"])
        try:
            assert host.send({"type": "reissue", "role": "p2"})["type"] == "invite"
            reply = bob.send({"type": "act", "step": 0, "action": {"type": "wager", "args": {"amount": 1}}})
            assert reply["type"] == "refused" and reply["rule"] == "links"
            assert table_two.store.count(room["room"]) == 0
        finally:
            host.close()
            bob.close()
