"""How each player stands before the end, for search bots that stop looking ahead early.

The rulebook's own measure ("End of Game"): authority stars placed, then its tie-breakers in
order (higher morale, lower knowledge, more markets and more territories with your star), each
worth less than one star.
"""

from __future__ import annotations

from .ending import markets_with_star, territories_with_star
from .state import EuphoriaState


def standing(st: EuphoriaState) -> dict[str, float]:
    out = {}
    for seat, p in st.players.items():
        ties = 0.04 * p.morale - 0.02 * p.knowledge + 0.1 * markets_with_star(st, seat)
        out[seat] = 10 - p.stars + ties + 0.05 * territories_with_star(st, seat)
    return out
