"""Redeal: a state one seat cannot tell apart from the true one (for search bots).

The only hidden items of Lost Days are the sealed bids of an auction before the reveal (LD-R7):
each other bidder who has committed gets a bid drawn again, uniformly from what that player may
bid (1 to its purse, which is public, LD-R2). Everything else is on the table.
"""

from __future__ import annotations

import random

from ...core.redeal import redraw_sealed
from .state import LostDaysState


def redeal(state: LostDaysState, seat: str | None, rng: random.Random) -> LostDaysState:
    new = state.copy()
    if new.auction is not None:
        redraw_sealed(new.auction.bids, seat, lambda other: range(1, max(1, new.purse(other)) + 1), rng)
    return new
