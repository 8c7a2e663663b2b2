"""Random legal play of a match, for tests that sample positions along a game."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from ludica.core.actions import Action, fill
from ludica.core.match import Match

Choose = Callable[[list[Action], random.Random], Action]


def random_steps(
    match: Match[Any], rng: random.Random, limit: int, choose: Choose | None = None
) -> Iterator[Action | None]:
    """Play ``match`` at random (a random pending seat, a random legal action, or the one
    ``choose`` picks among them; chance dealt by its dealer) for at most ``limit`` steps; yield
    each step's action (``None`` for chance) once it is played."""
    for _ in range(limit):
        pending = match.pending()
        if pending.is_over:
            return
        if pending.is_chance:
            match.deal()
            yield None
            continue
        legal = match.legal_actions(rng.choice(pending.seats))
        action = fill(choose(legal, rng) if choose else rng.choice(legal), rng)
        match.apply(action)
        yield action


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
