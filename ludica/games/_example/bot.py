"""Pig's heuristic, the example of a bot plugin: wager the most, and "hold at 20".

The classic Pig rule of thumb: keep rolling until the turn total reaches 20 (or would win), then
hold. The sealed wager is a bonus for the winner only, so the bot wagers 3. It reads its seat's
view only (scores, turn total) and names each turn once.
"""

from __future__ import annotations

import random

from ...bots.base import Decision, Situation

HOLD_AT = 20


def decide(situation: Situation, rng: random.Random) -> Decision:
    """Wager 3; roll until the turn total reaches 20 or would reach 20 points; then hold."""
    by_type = {a.type: a for a in situation.legal}
    if "wager" in {a.type for a in situation.legal}:
        return Decision(max((a for a in situation.legal if a.type == "wager"), key=lambda a: a.args["amount"]))
    view = situation.view
    total = int(view.get("turn_total", 0))
    score = int(view.get("scores", {}).get(situation.seat, 0))
    if "hold" in by_type and (total >= HOLD_AT or score + total >= HOLD_AT):
        return Decision(by_type["hold"], f"{situation.seat} banks {total}.")
    if "roll" in by_type:
        return Decision(by_type["roll"])
    return Decision(rng.choice(situation.legal))
