"""Every question Euphoria asks says what it is about (the namer's situation, issue 20)."""

from __future__ import annotations

import random

import pytest

from ludica.core import Match, get_game
from ludica.games.euphoria.state import Prompt
from ludica.lab.playthrough import default_config
from tests.random_play import random_steps

GAME = get_game("euphoria")


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (6, 4)])
def test_every_question_along_random_play_says_its_situation(players: int, seed: int) -> None:
    match: Match = Match(GAME, default_config("euphoria", players, seed))
    for _ in random_steps(match, random.Random(seed), 800):
        prompt = match.state.prompt
        if prompt is None:
            continue
        for viewer in (prompt.seat, None):
            assert GAME.namer(match.state, viewer).situation(), (prompt.kind, prompt.context)


def test_maggie_the_outlaws_gift_names_her() -> None:
    """Maggie the Outlaw (her recruit card): her question's context is the short tag ``maggie``: the page
    names her, as every other recruit's gift is named."""
    match: Match = Match(GAME, default_config("euphoria", 3, 1))
    state = match.state.copy()
    state.prompt = Prompt("p1", "take", ["stone", "water"], ["maggie"])
    assert GAME.namer(state, "p1").situation() == "Your recruit Maggie the Outlaw gives something: choosing what"
    assert GAME.namer(state, "p2").situation().endswith("recruit Maggie the Outlaw gives something: choosing what")
