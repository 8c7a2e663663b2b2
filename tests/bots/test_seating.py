"""Bots in the terminal: ``ludica play GAME --bot SEAT=BOT``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ludica.cli import main


def test_bots_play_a_whole_game_in_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "pig.json"
    argv = ["play", "pig", "--players", "2", "--seed", "4", "--save", str(save)]
    assert main([*argv, "--bot", "p1=random", "--bot", "p2=ismcts:playouts=10"]) == 0
    out = capsys.readouterr().out
    assert "The game is over" in out
    assert "futures" in out, "the search bot's narration is printed"
    record = json.loads(save.read_text())
    assert record["actions"]


@pytest.mark.parametrize(
    ("bot", "words"),
    [("p9=random", "no seat 'p9'"), ("p1=genius", "no bot 'genius'"), ("p1", "SEAT=BOT")],
)
def test_bad_bot_seats_are_refused_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bot: str, words: str
) -> None:
    assert main(["play", "pig", "--players", "2", "--save", str(tmp_path / "x.json"), "--bot", bot]) == 2
    assert words in capsys.readouterr().out
