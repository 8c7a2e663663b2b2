"""Non-interference (DESIGN principle 12): a bot's decision never depends on what its seat may not
see. Two states that differ only in what the seat cannot see (the second made by the game's
redeal for that seat) give the same decision, narration included, for the same seed."""

from __future__ import annotations

import random

import pytest

from ludica.bots.base import BOTS, make_bot, situation
from ludica.bots.samples import GAMES, deciders, sampled_states, with_state
from ludica.core import get_game
from ludica.core.match import canonical_json

make_bot("random", "pig")  # registers the bots make_bot knows of
SPECS = {"random": "random", "ismcts": "ismcts:playouts=12,horizon=15"}
if "heuristic" in BOTS:
    SPECS["heuristic"] = "heuristic"


@pytest.mark.parametrize("bot", sorted(SPECS))
@pytest.mark.parametrize("game_id", GAMES)
def test_what_the_seat_cannot_see_does_not_change_the_decision(game_id: str, bot: str) -> None:
    game = get_game(game_id)
    checked = 0
    for match, _steps in sampled_states(game_id, 21, every=5, limit=16):
        for seat in deciders(match):
            other = with_state(match, game.redeal(match.state, seat, random.Random(checked)))
            assert game.view(other.state, seat) == game.view(match.state, seat)
            a = make_bot(SPECS[bot], game_id, seed=5).decide(situation(match, seat))
            b = make_bot(SPECS[bot], game_id, seed=5).decide(situation(other, seat))
            assert a.as_action() == b.as_action(), f"{bot} at {seat}: {a.as_action()} vs {b.as_action()}"
            checked += 1
    assert checked


@pytest.mark.parametrize("game_id", GAMES)
def test_the_hidden_part_really_differs(game_id: str) -> None:
    """The test above is not empty: for games with hidden information, redeals do change states."""
    game = get_game(game_id)
    if not game.meta.hidden_information:
        pytest.skip(f"{game_id} has no hidden information")
    changed = 0
    for match, _steps in sampled_states(game_id, 21, every=3, limit=60):
        for seat in deciders(match):
            new = game.redeal(match.state, seat, random.Random(1))
            changed += canonical_json(game.to_position(new)) != canonical_json(game.to_position(match.state))
    assert changed
