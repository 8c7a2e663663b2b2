"""Storage: the record is the truth, on SQLite (always) and PostgreSQL (LUDICA_TEST_POSTGRES_URL)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from ludica.core import Action
from ludica.table.rooms import Rooms
from ludica.table.storage import HOST, SPECTATOR, Store, normalize_url


def test_room_survives_a_new_process(db_url: str) -> None:
    store = Store(db_url)
    room, invites = Rooms(store).create("pig", ["Ann", "Bob"], {"target": 10})
    tokens = {i.role: i.token for i in invites}
    room.act("p1", {"step": 0, "action": {"type": "wager", "args": {"amount": 2}}, "narration": "two"})
    room.act("p2", {"step": 1, "action": {"type": "wager", "args": {"amount": 3}}})
    room.act("p1", {"step": 2, "action": {"type": "roll", "args": {}}})
    digest, step = room.match.digest(), room.step
    store.close()

    again = Store(db_url)
    reborn = Rooms(again).get(room.id)
    assert reborn is not None
    assert reborn.step == step and reborn.match.digest() == digest
    assert [a.to_json() for a in reborn.match.actions] == [a.to_json() for a in room.match.actions]
    assert again.role_of(room.id, tokens["p1"]) == "p1"
    assert again.role_of(room.id, tokens[HOST]) == HOST
    assert again.role_of(room.id, tokens[SPECTATOR]) == SPECTATOR
    assert again.role_of(room.id, "not-a-token") is None
    again.close()


def test_a_second_writer_cannot_overwrite_the_record(db_url: str) -> None:
    store = Store(db_url)
    room, _ = Rooms(store).create("pig", ["Ann", "Bob"], {})
    store.append(room.id, 0, [Action("p1", "wager", {"amount": 1}).to_json()])
    with pytest.raises(IntegrityError):
        store.append(room.id, 0, [Action("p1", "wager", {"amount": 3}).to_json()])
    assert store.actions(room.id) == [{"seat": "p1", "type": "wager", "args": {"amount": 1}}]
    store.close()


def test_undo_truncates_the_record(db_url: str) -> None:
    store = Store(db_url)
    room, _ = Rooms(store).create("pig", ["Ann", "Bob"], {})
    room.act("p1", {"step": 0, "action": {"type": "wager", "args": {"amount": 2}}})
    room.undo_own("p1")
    assert store.count(room.id) == 0 and room.step == 0
    store.close()


def test_tokens_are_stored_hashed_and_sqlite_is_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    store = Store(f"sqlite:///{path}")
    _, invites = Rooms(store).create("pig", ["Ann", "Bob"], {})
    store.close()
    raw = path.read_bytes() + (path.with_name(path.name + "-wal").read_bytes() if Path(f"{path}-wal").exists() else b"")
    assert all(i.token.encode() not in raw for i in invites)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_postgres_urls_use_psycopg() -> None:
    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("sqlite:///x") == "sqlite:///x"


def test_the_tables_lines_of_an_act_are_committed_with_it(db_url: str) -> None:
    """A line the table says of an action (a silent act, the clock) is written in the action's own
    transaction: stored with the record, told at the next broadcast, in the story's order."""
    from ludica.table import chat

    store = Store(db_url)
    room, _ = Rooms(store).create("pig", ["Ann", "Bob"], {})
    first = store.append(room.id, 0, [{"seat": "x"}], None, chat.table_lines(room.id, [(0, "one"), (1, "two")]))
    assert [(line.step, line.text, line.kind) for line in first] == [(0, "one", "table"), (1, "two", "table")]
    assert [line.text for line in chat.lines(store, room.id)] == ["one", "two"]
    with pytest.raises(IntegrityError):  # the same step again: neither the action nor its line
        store.append(room.id, 0, [{"seat": "x"}], None, chat.table_lines(room.id, [(0, "three")]))
    assert [line.text for line in chat.lines(store, room.id)] == ["one", "two"]
    assert store.count(room.id) == 1
    store.close()


class _WriterFault(BaseException):
    """A fault of the commit thread itself (not a database refusal, which is an ``Exception``)."""


def test_a_fault_of_the_commit_thread_reaches_its_callers_and_the_thread_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'table.db'}")
    room, _ = Rooms(store).create("pig", ["Ann", "Bob"], {})
    writer = store.writer

    def broken(batch: list[object]) -> list[object]:
        raise _WriterFault("the writer broke")

    monkeypatch.setattr(writer, "_write", broken)
    with pytest.raises(_WriterFault):  # never a caller waiting forever
        room.act("p1", {"step": 0, "action": {"type": "wager", "args": {"amount": 2}}})
    monkeypatch.undo()
    assert writer.thread.is_alive()
    assert room.step == 0 and not room.match.actions[1:]  # the room is back to its record
    fresh = Rooms(store).get(room.id)
    assert fresh is not None and fresh.step == 0
    fresh.act("p1", {"step": 0, "action": {"type": "wager", "args": {"amount": 2}}})
    assert fresh.step == 1
    store.close()
