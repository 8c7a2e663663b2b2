"""Euphoria's bot-facing view (``ludica/games/euphoria/bot_view.py``) shows a seat what its view
shows, and nothing it may not see (DESIGN.md principle 12; rulebook "Icons & Tokens").

Over states of random games of two to four players: for every seat, the facts read from the
state equal the facts read from the seat's view, and equal the facts of every redeal of the state
for that seat (what the others hold drawn anew); the heuristic decides alike from either."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from ludica.bots.base import Situation
from ludica.core import Match, get_game
from ludica.games.euphoria import bot
from ludica.games.euphoria.bot_view import FACTS, seen_of_state, seen_of_view
from ludica.lab.playthrough import default_config
from tests.random_play import random_steps

ROOT = Path(__file__).resolve().parents[2]


def states(players: int, seed: int, every: int = 7, limit: int = 600) -> list[Any]:
    """Copies of the state of one random game, every ``every`` steps."""
    match: Match[Any] = Match(get_game("euphoria"), default_config("euphoria", players, seed))
    rng = random.Random(seed)
    return [match.state.copy() for step, _ in enumerate(random_steps(match, rng, limit)) if step % every == 0]


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (4, 4)])
def test_the_facts_of_the_state_are_the_facts_of_the_view(players: int, seed: int) -> None:
    game = get_game("euphoria")
    seen = 0
    for state in states(players, seed):
        for seat in state.seats:
            from_state = seen_of_state(state, seat).facts()
            assert from_state == seen_of_view(game.view(state, seat), seat).facts(), seat
            seen += 1
    assert seen > 100


@pytest.mark.parametrize(("players", "seed"), [(3, 5), (4, 6)])
def test_a_redeal_for_the_seat_shows_it_the_same_facts(players: int, seed: int) -> None:
    game = get_game("euphoria")
    rng = random.Random(seed)
    for state in states(players, seed, every=17):
        for seat in state.seats:
            facts = seen_of_state(state, seat).facts()
            for _ in range(2):
                assert seen_of_state(game.redeal(state, seat, rng), seat).facts() == facts


def test_the_heuristic_decides_alike_from_the_state_or_the_view() -> None:
    game = get_game("euphoria")
    for state in states(4, 8, every=5):
        pending = game.pending(state)
        if pending.is_over or pending.is_chance:
            continue
        seat = pending.seats[0]
        legal = game.legal_actions(state, seat)
        by_state = bot.decide(Situation(game, seat, None, legal, state=state), random.Random(1))
        by_view = bot.decide(Situation(game, seat, game.view(state, seat), legal), random.Random(1))
        assert by_state == by_view


def test_the_facts_are_every_attribute_but_the_heuristics_own() -> None:
    """The comparisons above cover every fact :class:`Seen` declares (read from its source: a
    compiled class keeps no annotations)."""
    tree = ast.parse((ROOT / "ludica/games/euphoria/bot_view.py").read_text())
    seen = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Seen")
    declared = {n.target.id for n in seen.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    assert set(FACTS) == declared - {"needs", "star"}
