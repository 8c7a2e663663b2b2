"""Play a match to its end with one bot per seat and the match's dealer for chance.

This is the one driver the lab, the tournament and the tests use to let bots play::

    bots = {seat: make_bot("heuristic", game.meta.id, seed=i) for i, seat in enumerate(seats)}
    steps = play_match(match, bots, random.Random(7))

Each bot sees only its seat's :func:`~ludica.bots.base.situation` (view and legal actions); its
decision is applied with the full check (:meth:`Match.apply`) unless ``check=False``. When several
seats must decide at once (sealed bids, simultaneous choices), ``rng`` picks which one acts first,
so the same seeds always give the same game.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any

from mypy_extensions import mypyc_attr

from ..core.game import Pending
from ..core.match import Match
from .base import Bot, situation


@mypyc_attr(native_class=False)  # compiled, an exception class stays a Python class
class BotRefused(RuntimeError):
    """A bot returned an action the rules refused (a bug in the bot, never the player's fault)."""


def bot_step(
    match: Match[Any],
    bots: Mapping[str, Bot],
    rng: random.Random,
    *,
    check: bool = True,
    pending: Pending | None = None,
) -> str:
    """One step: the dealer fills a chance step, else one pending seat's bot acts.

    Returns the seat that acted (``"chance"`` for the dealer). Raises :class:`KeyError` naming the
    seat when a pending seat has no bot, and :class:`BotRefused` when the rules refuse a decision.
    ``pending``: the game's :meth:`~ludica.core.game.Game.pending` for the current state when the
    caller has just asked it (:func:`walk_match`), to save asking twice (and for the check).
    """
    if pending is None:
        pending = match.game.pending(match.state)
    if pending.is_chance:
        match.deal(trusted=not check, pending=pending)
        return "chance"
    seats = pending.seats
    seat = seats[0] if len(seats) == 1 else seats[rng.randrange(len(seats))]
    bot = bots.get(seat)
    if bot is None:
        raise KeyError(f"seat {seat!r} must decide but has no bot (bots sit at: {', '.join(sorted(bots))})")
    decision = bot.decide(situation(match, seat))
    action = decision.as_action()
    try:
        match.apply(action, trusted=not check, pending=pending)
    except Exception as exc:  # the rules' refusal, re-raised with who did it
        raise BotRefused(f"bot {bot.name!r} at seat {seat} played {action.notation()!r}: {exc}") from exc
    return seat


def walk_match(
    match: Match[Any],
    bots: Mapping[str, Bot],
    rng: random.Random,
    *,
    max_steps: int | None = None,
    check: bool = True,
) -> Iterator[int]:
    """Play ``match`` to the end, yielding the number of steps taken before each step and once
    more at the end, so the caller can look at the match between steps (plots over time).

    Stops silently after ``max_steps`` steps when given; otherwise raises :class:`RuntimeError`
    if the game does not end within the game's own bound (``meta.max_steps``).
    """
    limit = max_steps if max_steps is not None else match.game.meta.max_steps
    for steps in range(limit + 1):
        yield steps
        pending = match.game.pending(match.state)
        if pending.is_over:
            return
        if steps == limit:
            break
        bot_step(match, bots, rng, check=check, pending=pending)
    if max_steps is None:
        raise RuntimeError(f"{match.game.meta.id}: game did not end within {limit} steps")


def play_match(
    match: Match[Any],
    bots: Mapping[str, Bot],
    rng: random.Random,
    *,
    max_steps: int | None = None,
    check: bool = True,
) -> int:
    """Play ``match`` to its end with ``bots`` (seat -> bot) and the match's dealer; return the
    number of steps taken (chance steps included).

    Every seat that ever has to decide (the referee seat too, when the game has one) needs a bot.
    ``max_steps`` stops early (the match is then left unfinished); ``check=False`` applies the
    decisions without the second validation, as fast simulations do.
    """
    (steps,) = deque(walk_match(match, bots, rng, max_steps=max_steps, check=check), maxlen=1)
    return steps
