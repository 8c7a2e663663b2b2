"""Table talk (ludica/table/chat.py): said to the table, whispered to one seat, narrated by the
GM; stored with the room, in order with the actions in the story; whispers are secrets (frames
and exports); length- and rate-limited; names, never tokens; text, never markup."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludica.table import chat


def _room(client: TestClient, opener: Any) -> dict[str, Any]:
    return opener(client, "misery-bubblegum", ("Ann", "Bob"))


def _export(client: TestClient, room: dict[str, Any], role: str, name: str = "story.md") -> str:
    reply = client.get(f"/rooms/{room['room']}/{name}", headers={"X-Ludica-Token": room["tokens"][role]})
    assert reply.status_code == 200, reply.text
    return reply.text


def _chat(seat: Any) -> dict[str, Any]:
    return seat.receive("chat")


def _history(seat: Any) -> dict[str, Any]:
    reply = seat.send({"type": "chat_history"})
    assert reply["type"] == "chat" and reply["full"], reply
    return reply


def test_a_line_to_the_table_reaches_everyone_by_name(client: TestClient, opener: Any, seat_client: Any) -> None:
    room = _room(client, opener)
    seats = [r for r in room["tokens"] if not r.startswith("*")]
    conns = {role: seat_client(client, room["room"], room["tokens"][role]) for role in seats}
    history = {role: _history(c) for role, c in conns.items()}
    assert all(h["full"] and h["lines"] == [] for h in history.values())
    speaker = seats[1]
    reply = conns[speaker].send({"type": "chat", "text": "Where are we? <b>now</b>"})
    assert reply["type"] == "chat"
    for role, c in conns.items():
        line = reply["line"] if role == speaker else _chat(c)["line"]
        assert line["text"] == "Where are we? <b>now</b>"  # plain text; the page shows it with textContent
        assert line["who"] not in seats and room["tokens"][speaker] not in str(line)


def test_a_whisper_reaches_only_its_two_seats_and_their_exports(
    client: TestClient, opener: Any, seat_client: Any
) -> None:
    room = _room(client, opener)
    gm, p1, p2 = "gm", "p1", "p2"
    conns = {role: seat_client(client, room["room"], room["tokens"][role]) for role in (gm, p1, p2)}
    watcher = seat_client(client, room["room"], room["tokens"]["*spectator*"])
    for c in (*conns.values(), watcher):
        _history(c)
    said = [
        conns[gm].send({"type": "chat", "text": "The knife is under the bed.", "to": p1})["line"],
        conns[gm].send({"type": "chat", "text": "Rain falls on the arcade.", "narrate": True})["line"],
    ]
    got = {role: [_chat(c)["line"] for _ in range(2 if role == p1 else 1)] for role, c in conns.items() if role != gm}
    assert (said[0]["who"], said[0]["to"]) == (got[p1][0]["who"], got[p1][0]["to"]) == ("GM", "Ann")
    assert got[p1][0]["kind"] == "whisper" and got[p1][0]["text"] == "The knife is under the bed."
    assert got[p2][0]["kind"] == "narrate"  # the next line p2 reads is the narration, not the whisper
    assert _chat(watcher)["line"]["kind"] == "narrate"
    for role in (gm, p1):
        assert "The knife is under the bed." in _export(client, room, role)
        assert "The knife is under the bed." in _export(client, room, role, "story.html")
    for role in (p2, "*spectator*", "*host*"):
        for name in ("story.md", "story.html"):
            text = _export(client, room, role, name)
            assert "knife" not in text and "Rain falls on the arcade." in text
    # a reconnection gets the history it may read, and only that
    again = seat_client(client, room["room"], room["tokens"][p2])
    assert [line["text"] for line in _history(again)["lines"]] == ["Rain falls on the arcade."]


def test_talk_is_stored_with_the_room_and_in_order_in_the_story(
    client: TestClient, opener: Any, seat_client: Any
) -> None:
    room = opener(client)  # pig: Ann and Bob
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    ann.send({"type": "chat", "text": "Here goes."})
    ann.act_type("wager")
    story = _export(client, room, "p2")
    lines = [line for line in story.splitlines() if line.startswith("**")]
    assert "Here goes." in lines[0] and "Here goes." not in "".join(lines[1:]), story
    store = client.app.state.store  # type: ignore[attr-defined]
    assert [line.text for line in chat.lines(store, room["room"])] == ["Here goes."]


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ({"text": ""}, "empty"),
        ({"text": "x" * (chat.MAX_TEXT + 1)}, "at most"),
        ({"text": "hi", "to": "p1"}, "another seat"),
        ({"text": "hi", "to": "nobody"}, "another seat"),
        ({"text": "hi", "narrate": True}, "only the GM"),
        ({"text": 3}, "text"),
    ],
)
def test_a_bad_line_is_refused_in_words(
    client: TestClient, opener: Any, seat_client: Any, message: dict[str, Any], reason: str
) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    reply = ann.send({"type": "chat", **message})
    assert reply["type"] == "refused" and reason in reply["reason"] and reply["rule"] == "chat"


def test_spectators_read_and_do_not_speak(client: TestClient, opener: Any, seat_client: Any) -> None:
    room = opener(client)
    watcher = seat_client(client, room["room"], room["tokens"]["*spectator*"])
    assert _history(watcher)["speak"] is False
    reply = watcher.send({"type": "chat", "text": "hello"})
    assert reply["type"] == "refused" and "spectators" in reply["reason"]


def test_talk_is_rate_limited(client: TestClient, opener: Any, seat_client: Any) -> None:
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    replies = [ann.send({"type": "chat", "text": f"line {i}"})["type"] for i in range(chat.BURST + 1)]
    assert replies.count("refused") == 1 and replies[-1] == "refused"


def test_the_limiter_forgets_after_its_window() -> None:
    limiter = chat.Limiter(burst=2, window=10)
    assert limiter.allow("r", "p1", 0) and limiter.allow("r", "p1", 1)
    assert not limiter.allow("r", "p1", 2) and limiter.allow("r", "p2", 2)
    assert limiter.allow("r", "p1", 11.5)


def test_merged_places_a_line_before_the_action_it_preceded() -> None:
    entries = [{"step": 0, "kind": "roll", "text": "a"}, {"step": 1, "kind": "roll", "text": "b"}]
    talk = [{"step": 1, "kind": "narration", "text": "said", "who": "Ann"}]
    assert [e["text"] for e in chat.merged(entries, talk)] == ["a", "said", "b"]
