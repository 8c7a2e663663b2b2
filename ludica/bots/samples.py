"""States met in random playthroughs: what the bots' tests and benchmarks decide from."""

from __future__ import annotations

import random
from typing import Any

from ..core import Config, Match, get_game
from .random_bot import walk_random

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")

GAMES = ["great-city", "euthymia", "misery-bubblegum", "lost-days", "euphoria"]


def player_counts(game_id: str) -> list[int]:
    meta = get_game(game_id).meta
    return list(range(meta.players_min, min(meta.players_max, 5) + 1))


def sampled_states(game_id: str, seed: int, every: int, limit: int) -> list[tuple[Match[Any], int]]:
    """Copies of the match of one random playthrough, every ``every`` steps (at most ``limit``)."""
    counts = player_counts(game_id)
    config = Config(NAMES[: counts[seed % len(counts)]], {}, seed)
    game = get_game(game_id)
    match: Match[Any] = Match(game, config)
    out: list[tuple[Match[Any], int]] = []
    rng = random.Random(seed)
    offset = rng.randrange(every)
    for steps in walk_random(match, rng, check=False):
        if steps % every == offset and not match.pending().is_over:
            out.append((snapshot(match), steps))
            if len(out) >= limit:
                break
    return out


def snapshot(match: Match[Any]) -> Match[Any]:
    """An independent match at the same point (state copied; record and log shared read-only)."""
    copy: Match[Any] = match.restart()  # a real Match (compiled classes cannot be made by __new__)
    copy.dealer = match.dealer
    copy.state = match.game.copy(match.state)
    copy.actions, copy.log = list(match.actions), []
    return copy


def with_state(match: Match[Any], state: Any) -> Match[Any]:
    other = snapshot(match)
    other.state = state
    return other


def deciders(match: Match[Any]) -> list[str]:
    """The seats that must decide now (not the chance seat)."""
    pending = match.pending()
    return [] if pending.is_chance else list(pending.seats)
