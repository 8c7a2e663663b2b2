"""Each game's heuristic plays the mechanics random play reaches (DESIGN principle 17).

Over a seeded batch of games with every player seat played by the bot (the Great City's GM by
the heuristic in both batches), the action types the heuristic takes are compared with those
random play takes. Every type random play reaches and the heuristic does not must be named in
:data:`NEVER` (a move a good player never makes, with its reason: ``docs/bots-mechanics.md``)
or in :data:`NOT_YET` (a move the heuristic does not make yet, also on that page); the share of
random's types the heuristic reaches must stay at or above :data:`FLOOR` (0.9 where reached).
The batches are small for CI; ``benchmarks/bot_coverage.py --games 200`` prints the full figures.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.bots.base import Bot, Decision, Situation, make_bot
from ludica.bots.play import play_match
from ludica.core import Match, get_game
from ludica.lab.playthrough import default_config

NEVER: dict[str, dict[str, str]] = {
    "great-city": {
        "give_scarabs": "the ranking counts free scarabs only: a gift moves one from the giver to a rival",
        "vest_own": "vested scarabs count for nothing at the end; a vested flip costs the same as a free one",
    },
    "euthymia": {
        "abandon_ideal_citizen": "it gives up the Ideal Citizen's goal for nothing the bot's sheet gains",
    },
    "misery-bubblegum": {
        "unselect_die": "the bot selects only the dice it means to use: nothing to take back",
    },
    "lost-days": {
        "decline_gain": "a victory's gain keeps the elf sane; declining it never helps",
        "veto_memory": "a veto judges a memory's relevance to the stakes (LD-R37), which the bot cannot read",
        "decline_epilogue": "the last sane elf narrates the epilogue: the bot's reward",
    },
    "euphoria": {
        "end_turn": "a double's extra placement is free: the bot makes it (a die kept adds to the knowledge check)",
    },
}
"""Action types a good player (and so the heuristic) never takes, with the reason."""

NOT_YET: dict[str, set[str]] = {
    "great-city": {"flip_city_stone"},  # a rich Nay seat taking the last scene's ante: rare
    "euthymia": {"describe_death"},  # its characters seldom die: reached in larger batches
    "misery-bubblegum": set(),
    "lost-days": set(),
    "euphoria": set(),
}
"""Action types the heuristic does not take in the test's small batch: moves it does not make yet
although a good player might, and rare ones it makes in larger batches (commented)."""

FLOOR = {"great-city": 0.9, "euthymia": 0.85, "misery-bubblegum": 0.9, "lost-days": 0.9, "euphoria": 0.9}
"""The share of random's action types the heuristic must reach in the test's batch."""

BATCH = {
    "great-city": (4, 40),
    "euthymia": (3, 25),
    "misery-bubblegum": (3, 25),
    "lost-days": (3, 25),
    "euphoria": (4, 15),
}
"""Players and games per batch (seeded)."""


class _Counting:
    def __init__(self, bot: Bot, taken: set[str]) -> None:
        self.bot, self.name, self.taken = bot, bot.name, taken

    def decide(self, situation: Situation) -> Decision:
        decision = self.bot.decide(situation)
        self.taken.add(decision.action.type)
        return decision


def _reached(game_id: str, spec: str, players: int, games: int) -> set[str]:
    game = get_game(game_id)
    taken: set[str] = set()
    for g in range(games):
        match: Match[Any] = Match(game, default_config(game_id, players, g))
        bots: dict[str, Bot] = {}
        for i, seat in enumerate(game.seats(match.state)):
            inner = make_bot(spec if i < players else "heuristic", game_id, g * 100 + i)
            bots[seat] = _Counting(inner, taken) if i < players else inner
        play_match(match, bots, random.Random(g), check=False)
    return taken


@pytest.mark.parametrize("game_id", sorted(BATCH))
def test_the_heuristic_reaches_the_mechanics_random_play_reaches(game_id: str) -> None:
    players, games = BATCH[game_id]
    randomly = _reached(game_id, "random", players, games)
    heuristic = _reached(game_id, "heuristic", players, games)
    missing = randomly - heuristic
    unnamed = missing - set(NEVER[game_id]) - NOT_YET[game_id]
    assert not unnamed, f"{game_id}: the heuristic never takes {sorted(unnamed)}: play them or name them"
    share = len(randomly & heuristic) / len(randomly)
    assert share >= FLOOR[game_id], f"{game_id}: {share:.0%} of random's types, missing {sorted(missing)}"


def test_the_never_list_names_real_action_types() -> None:
    """A type named in NEVER is one random play reaches (a stale name would hide nothing)."""
    for game_id, names in NEVER.items():
        players, games = BATCH[game_id]
        randomly = _reached(game_id, "random", players, min(games, 10))
        assert set(names) <= randomly | NOT_YET[game_id] | {"end_turn", "decline_epilogue", "restart_story"}, game_id
