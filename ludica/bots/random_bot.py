"""The random bot: a uniformly random legal action, free parameters sampled."""

from __future__ import annotations

import random
from typing import Any

from ..core.actions import Action, fill
from ..core.match import Match


class RandomBot:
    """Picks uniformly among the seat's legal actions; fills free text and numbers."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, match: Match[Any], seat: str) -> Action:
        legal = match.game.legal_actions(match.state, seat)
        if not legal:
            raise RuntimeError(f"{match.game.meta.id}: seat {seat} is pending but has no legal action")
        return fill(self.rng.choice(legal), self.rng)


def play_random(
    match: Match[Any], rng: random.Random, *, max_steps: int | None = None, check: bool = True
) -> int:
    """Play ``match`` to the end with random bots and the dealer; return the number of steps.

    With ``check=False`` the listed legal actions are applied without a second validation
    (:meth:`Match.apply` ``trusted``), as search and simulation drivers do.
    """
    bot = RandomBot(rng)
    limit = max_steps if max_steps is not None else match.game.meta.max_steps
    steps = 0
    game = match.game
    while steps < limit:
        pending = game.pending(match.state)
        if pending.is_over:
            return steps
        if pending.is_chance:
            match.deal(trusted=not check)
        else:
            seat = pending.seats[rng.randrange(len(pending.seats))]
            match.apply(bot.choose(match, seat), trusted=not check)
        steps += 1
    raise RuntimeError(f"{game.meta.id}: game did not end within {limit} steps")
