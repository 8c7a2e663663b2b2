"""Redeal: a state one seat cannot tell apart from the true one (for search bots).

Hidden until the end game reveals everything (spec §1.3, R-GC-38): every purse but one's own,
and, with secret fate contributions, the Yea and Nay purses and what each other player put in
them. What the table knows is the sum of those hidden scarabs: every scarab the bank issued is
somewhere, and all the rest (the Peril pool, the ante, every vested scarab) lies in the open.
The redeal spreads that sum again at random over the other purses and the other contributors'
Yea and Nay shares (each contributor gave at least one scarab; the Nay purse keeps its starting
scarabs), then recounts Yea and Nay.

Known limitation: the public record of payments (antes, buy-ins, flips, vesting) bounds each
purse more tightly than the sum does; the redeal does not follow it yet, so a search bot imagines
purses of about equal size.

The result depends only on what ``seat`` sees and on the generator.
"""

from __future__ import annotations

import random

from ...core.redeal import split_total
from .memo import forget
from .state import GreatCityState


def redeal(state: GreatCityState, seat: str | None, rng: random.Random) -> GreatCityState:
    new = state.copy()
    if new.endgame is not None:
        return new
    forget(new)
    secret_fate = new.options["fate_contributions"] == "secret"
    others = [s for s in new.seats if s != seat]
    contributors = [s for s in others if s in new.contributions] if secret_fate else []
    hidden = sum(new.purse[s] for s in others)
    if secret_fate:
        hidden += sum(sum(new.contributions[s]) for s in contributors)
    minimum = [0] * len(others)
    for _ in contributors:
        minimum += [1, 0] if rng.random() < 0.5 else [0, 1]
    parts = split_total(hidden, len(minimum), rng, minimum=minimum)
    for s, n in zip(others, parts, strict=False):
        new.purse[s] = n
    shares = parts[len(others) :]
    for i, s in enumerate(contributors):
        new.contributions[s] = [shares[2 * i], shares[2 * i + 1]]
    if secret_fate:
        new.yea = sum(y for y, _n in new.contributions.values())
        new.nay = len(new.players) + 1 + sum(n for _y, n in new.contributions.values())
    return new
