"""``ludica replay`` and the web's end screen speak words (issue 35): the final view a replay
prints names every seat and component as the terminal does (no ``p1``, ``c2``, ``2H``,
``GAME_OVER``), and "Nobody wins." is a sentence of its own."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from ludica.bots.random_bot import RandomBot, random_step
from ludica.cli import main
from ludica.core import Match, available, get_game
from ludica.core.names import namer_of, raw_ids
from ludica.core.records import save_record
from ludica.lab.playthrough import default_config
from ludica.table.faces import render
from tests.conformance.test_names import word_kinds

STEPS = 400


def _played(game_id: str, seed: int) -> Match[Any]:
    game = get_game(game_id)
    match: Match[Any] = Match(game, default_config(game_id, min(4, game.meta.players_max), seed))
    rng = random.Random(seed)
    bot = RandomBot(rng)
    for _ in range(STEPS):
        if match.pending().is_over:
            break
        random_step(match, bot, rng)
    return match


@pytest.mark.parametrize("game_id", available())
def test_replay_prints_names_not_ids(game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = _played(game_id, 3)
    save_record(match, tmp_path / "r.json")
    seats = match.game.seats(match.state)
    for seat in [None, seats[0]]:
        assert main(["replay", str(tmp_path / "r.json"), *(["--as", seat] if seat else [])]) == 0
        printed = capsys.readouterr().out.split("\n", 1)[1]  # after "Record verified: … digest …"
        named = {k for k, v in namer_of(match, seat).ids().items() if v != k and len(k) >= 2}
        assert not raw_ids(printed, sorted(named)), (seat, raw_ids(printed, sorted(named))[:5])
        assert not word_kinds(printed), (seat, word_kinds(printed))


def test_the_end_screen_says_nobody_wins_as_a_sentence() -> None:
    outcome = {"winners": [], "summary": "the session ends after 30 actions", "scores": {}}
    page = render("pending.html", pending={}, seat=None, seat_names={}, step=9, over=True, outcome=outcome)
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "Nobody wins. The session ends" in text, text
    assert not word_kinds(text), word_kinds(text)
