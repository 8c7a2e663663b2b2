"""Random legal play of a match, for tests that sample positions along a game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ludica.core.actions import fill
from ludica.core.match import Match


def random_steps(match: Match[Any], rng: random.Random, limit: int) -> Iterator[int]:
    """Play ``match`` at random (a random pending seat, a random legal action, chance dealt by
    its dealer) for at most ``limit`` steps; yield each step's number once it is played."""
    for step in range(limit):
        pending = match.pending()
        if pending.is_over:
            return
        if pending.is_chance:
            match.deal()
        else:
            match.apply(fill(rng.choice(match.legal_actions(rng.choice(pending.seats))), rng))
        yield step


def decisions(match: Match[Any], limit: int) -> Iterator[tuple[str, ...]]:
    """At most ``limit`` steps of ``match`` (chance dealt by its dealer counts as one): at each
    decision, the pending seats, handed to the caller, who applies an action before the next."""
    for _ in range(limit):
        pending = match.game.pending(match.state)
        if pending.is_over:
            return
        if pending.is_chance:
            match.deal()
            continue
        yield pending.seats
