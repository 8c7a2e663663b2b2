"""MB-R6: "2 or more players plus an optional GM" — seven and more players are seated."""

from __future__ import annotations

import random

import pytest

from ludica.cli import main
from ludica.core import Config, Match, get_game
from ludica.core.actions import fill

NAMES = tuple(f"P{i}" for i in range(1, 13))


@pytest.mark.parametrize("players", [2, 7, 12])
def test_seats_two_or_more_players(players: int) -> None:
    game = get_game("misery-bubblegum")
    match = Match(game, Config(NAMES[:players], {"session_actions": 20}, 7))
    seats = game.seats(match.state)
    assert len([s for s in seats if s != "gm"]) == players
    rng = random.Random(7)
    for _ in range(3000):  # random legal play to the session's end
        pending = match.pending()
        if pending.is_over:
            break
        if pending.is_chance:
            match.deal()
        else:
            seat = pending.seats[0]
            match.apply(fill(rng.choice(match.legal_actions(seat)), rng))
    assert match.is_over()
    assert not game.invariants(match.state)


def test_the_software_bound_is_documented(capsys: pytest.CaptureFixture[str]) -> None:
    meta = get_game("misery-bubblegum").meta
    assert meta.players_min == 2 and meta.players_max >= 7
    assert main(["games", "misery-bubblegum"]) == 0
    out = capsys.readouterr().out
    assert f"2-{meta.players_max} players" in out and "MB-R6" in out
