"""The lobby's options and house rules speak words (issue 35): every option of every game is
labelled without an engine abbreviation ("Hr scene guard", "Cm pass mode"), its note keeps no
empty rule parenthesis ("(reading (B) of ):"), and a seat option offers players, not "0"."""

from __future__ import annotations

import html
import re
from pathlib import Path

from fastapi.testclient import TestClient

from ludica.core import available, get_game
from ludica.table.server import create_app


def test_every_option_is_labelled_in_words(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.sqlite3'}")) as client:
        page = client.get("/").text
    labels = [html.unescape(m) for m in re.findall(r"<label>([^<\n]+)", page)]
    notes = [html.unescape(m) for m in re.findall(r"<small>([^<]*)</small>", page)]
    options = [o for g in available() for o in get_game(g).meta.options]
    assert len(labels) >= len(options)
    for label in labels:
        assert not re.match(r"(?i)(hr|cm)\b", label.strip()), label
    for note in notes:
        assert not re.search(r"\(\s*\)|\bof \)|^\W|HOUSE RULE", note.strip()), note
    seat_fields = re.findall(r'<select name="opt:first_seat">(.*?)</select>', page, re.S)
    assert seat_fields and all("Player 1" in field for field in seat_fields)
