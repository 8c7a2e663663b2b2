"""The random bot: a uniformly random legal action, free parameters sampled."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from typing import Any

from ..core.actions import Action, fill
from ..core.game import Pending
from ..core.match import Match
from .base import Decision, Situation, register_bot


class RandomBot:
    """Picks uniformly among the seat's legal actions; fills free text and numbers."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, match: Match[Any], seat: str) -> Action:
        legal = match.game.legal_actions(match.state, seat)
        if not legal:
            raise RuntimeError(f"{match.game.meta.id}: seat {seat} is pending but has no legal action")
        return fill(self.rng.choice(legal), self.rng)

    def decide(self, situation: Situation) -> Decision:
        """The :class:`~ludica.bots.base.Bot` interface: a uniformly random legal action."""
        if not situation.legal:
            raise RuntimeError(f"{situation.game.meta.id}: seat {situation.seat} has no legal action")
        return Decision(fill(self.rng.choice(situation.legal), self.rng))


register_bot("random", lambda game_id, params, seed: RandomBot(random.Random(seed)))


def random_step(
    match: Match[Any], bot: RandomBot, rng: random.Random, *, check: bool = True, pending: Pending | None = None
) -> None:
    """One step of random play: the dealer fills a chance step, else a random pending seat's bot
    acts. ``check=False`` applies the listed action as trusted (:meth:`Match.apply`); ``pending``
    is the match's pending decision when the caller already has it."""
    if pending is None:
        pending = match.game.pending(match.state)
    if pending.is_chance:
        match.deal(trusted=not check, pending=pending)
    else:
        seat = pending.seats[rng.randrange(len(pending.seats))]
        match.apply(bot.choose(match, seat), trusted=not check, pending=pending)


def walk_random(
    match: Match[Any], rng: random.Random, *, max_steps: int | None = None, check: bool = True
) -> Iterator[int]:
    """Play ``match`` to the end with random bots and the dealer, yielding the number of steps
    taken before each step and once more at the end, so the caller can look at the match between
    steps. Raises if the game does not end within ``max_steps`` (default: the game's bound)."""
    bot = RandomBot(rng)
    limit = max_steps if max_steps is not None else match.game.meta.max_steps
    for steps in range(limit + 1):
        yield steps
        pending = match.game.pending(match.state)
        if pending.is_over:
            return
        if steps == limit:
            break
        random_step(match, bot, rng, check=check, pending=pending)
    raise RuntimeError(f"{match.game.meta.id}: game did not end within {limit} steps")


def play_random(match: Match[Any], rng: random.Random, *, max_steps: int | None = None, check: bool = True) -> int:
    """Play ``match`` to the end with random bots and the dealer; return the number of steps.

    With ``check=False`` the listed legal actions are applied without a second validation
    (:meth:`Match.apply` ``trusted``), as search and simulation drivers do.
    """
    (steps,) = deque(walk_random(match, rng, max_steps=max_steps, check=check), maxlen=1)
    return steps
