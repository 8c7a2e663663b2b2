"""Names are text (issue 39, point 4): one check for every entry point, old names shown escaped.

The crafted names of the attack — escape sequences that set the window title (OSC 0) and write
the clipboard (OSC 52), a newline, a zero-width space, a bidi override, ``*host*``, a lone
surrogate, a name too long — are refused by the web table (``POST /rooms``, JSON and form), the
command line (``--names``) and record and position files (``ludica position``, ``play --load``,
``replay``: one line, status 2, no traceback, nothing of the name printed raw); a story exported
from a room stored before the check shows them as visible escapes. Good names pass everywhere.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludica.core import ConfigError
from ludica.core.people import MAX_NAME, check_name, name_problem, shown
from ludica.table.server import create_app

from .test_untrusted_records import a_record, ludica

CRAFTED = {
    "window title": "Ann\x1b]0;pwned\x07",
    "clipboard": "Ann\x1b]52;c;cm0gLXJmIH4=\x07",
    "colour": "\x1b[31mRed",
    "newline": "Ann\nHost: you lose",
    "carriage return": "Ann\rBob",
    "zero-width": "B\u200bob",
    "bidi override": "Ann\u202eboB",
    "line separator": "Ann\u2028Bob",
    "host": "*host*",
    "spectator": "*spectator*",
    "table": "@table",
    "the host": "The  Host",
    "lone surrogate": "Ann\ud800",
    "too long": "A" * (MAX_NAME + 1),
}
GOOD = ["Ann", "Zoë", "李雷", "Anne-Marie O'Neil", "🎲 Dice", "J. R. R."]


@pytest.mark.parametrize("kind", sorted(CRAFTED))
def test_the_check_refuses_every_crafted_name(kind: str) -> None:
    name = CRAFTED[kind]
    assert name_problem(name) is not None
    with pytest.raises(ConfigError) as caught:
        check_name(name)
    said = caught.value.reason
    assert all(ord(c) >= 0x20 and not 0xD800 <= ord(c) < 0xE000 for c in said), said  # the reason prints safely
    assert "\x1b" not in shown(name) and "\n" not in shown(name) and "\u200b" not in shown(name)


@pytest.mark.parametrize("name", GOOD)
def test_good_names_pass_everywhere(name: str, tmp_path: Path) -> None:
    assert check_name(f"  {name} ") == name and shown(name) == name
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.sqlite3'}")) as client:
        answer = client.post("/rooms", json={"game": "pig", "players": [name, "Bob"]})
        assert answer.status_code == 201, answer.text


def test_the_web_table_refuses_crafted_names(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 't.sqlite3'}", room_rate=(100.0, 100.0))
    with TestClient(app) as client:
        table = app.state.table()
        for kind, name in CRAFTED.items():
            body = json.dumps({"game": "pig", "players": ["Bob", name]})  # ASCII: \ud800 as an escape
            answer = client.post("/rooms", content=body, headers={"content-type": "application/json"})
            assert answer.status_code == 400, (kind, answer.text)
            reason = answer.json()["reason"]
            assert "player 2's name" in reason or "players[1]" in reason, kind
            if "\ud800" not in name:
                form = client.post("/rooms", data={"game": "pig", "player": [name, "Bob"]})
                assert form.status_code == 400, (kind, form.text)
        assert table.store.room_ids() == []


def _record_named(name: str) -> dict[str, Any]:
    data = a_record()
    data["config"]["players"][1] = name
    return data


@pytest.mark.parametrize("command", ["position", "play", "replay"])
def test_record_files_with_crafted_names_are_refused_in_one_line(command: str, tmp_path: Path) -> None:
    for kind in ("window title", "clipboard", "newline", "zero-width", "host", "lone surrogate"):
        path = tmp_path / f"{command}.json"
        path.write_text(json.dumps(_record_named(CRAFTED[kind])), encoding="utf-8")  # ensure_ascii keeps \ud800
        args = ["play", "--load", str(path)] if command == "play" else [command, str(path)]
        done = ludica(*args)
        assert done.returncode == 2, (kind, done.stdout[-300:], done.stderr[-500:])
        assert "Traceback" not in done.stderr and "config.players[1]" in done.stderr + done.stdout, kind
        assert "\x1b" not in done.stdout + done.stderr and "\u200b" not in done.stdout + done.stderr


def test_the_command_line_refuses_crafted_names() -> None:
    for kind in ("window title", "zero-width", "host", "too long"):
        done = ludica("play", "pig", "--names", f"Ann,{CRAFTED[kind]}")
        assert done.returncode == 2 and "player 2's name" in done.stderr + done.stdout, (kind, done.stderr)
        assert "Traceback" not in done.stderr


def test_old_rooms_export_their_names_escaped(tmp_path: Path) -> None:
    """A room stored before names were checked keeps its names; story.md shows them escaped."""
    app = create_app(f"sqlite:///{tmp_path / 't.sqlite3'}")
    with TestClient(app) as client:
        opened = client.post("/rooms", json={"game": "pig", "players": ["Ann", "Bob"]}).json()
        table = app.state.table()
        row = table.store.room(opened["room"])
        crafted = CRAFTED["window title"] + CRAFTED["zero-width"]
        with table.store.engine.begin() as conn:
            from ludica.table.storage import rooms

            config = {**row.config, "players": [crafted, "Bob"]}
            conn.execute(rooms.update().where(rooms.c.id == row.id).values(config=config))
        table.forget(row.id)
        ann = next(i["token"] for i in opened["invites"] if i["role"] == "p1")
        story = client.get(f"/rooms/{row.id}/story.md", headers={"X-Ludica-Token": ann})  # "as seen by <name>"
        assert story.status_code == 200
        assert "\x1b" not in story.text and "\u200b" not in story.text and "\x07" not in story.text
        assert "Ann\\x1b]0;pwned\\x07B\\u200bob" in story.text
