"""Why Lost Days games played through the environments' driver ran to the step cap, and the fix.

In a Lost Days scene every sane elf may trade at any time, so the framer and the bystanders are all
pending, and the driver lets the pending seat that acted longest ago go next
(:func:`ludica.env.driver.next_seat`). A bystander's proposal must be answered by the seat it names;
when that is the framer, his answer used to count as his move, so he was never the seat that waited
longest and never got back to his scene. With two sane elves (the end of every game) the framer
is the only partner there is, and the scene, and the game, never ended — whatever the bots did.
The driver now does not count an action its seat alone was asked for (an answer) as a turn taken
(:func:`ludica.env.driver.took_turn`). ``play_match`` (the lab, the tournaments) picks a pending
seat at random and never stalled.

This script plays bots at every seat through the driver as it was (every action counted) and as
shipped, and prints how many games end before the cap, steps per game, the share of trade actions
and the wins::

    python examples/lost_days_turns.py --games 20 --players 3 --bot heuristic
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Any

from ludica.bots.base import make_bot, situation
from ludica.env.driver import Driver

TRADES = ("propose_trade", "accept_trade", "decline_trade")


class EveryActionCounted(Driver):
    """The driver as it was before the fix: every action counts as its seat's turn, answers too."""

    def apply(self, action: Any) -> None:
        super().apply(action)
        self._last_acted[action.seat] = self.steps - 1


def play(driver: Driver, bot: str, seed: int) -> Counter[str]:
    """One game with ``bot`` at every seat; the count of each action type."""
    driver.reset(seed)
    bots = {s: make_bot(bot, "lost-days", seed * 1000 + i) for i, s in enumerate(driver.seats)}
    while not driver.over and not driver.truncated:
        seat = driver.current()
        assert seat is not None
        driver.apply(bots[seat].decide(situation(driver.match, seat)).as_action())
    return Counter(a.type for a in driver.match.actions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--cap", type=int, default=3000)
    args = parser.parse_args()
    for name, kind in (("counting every action (before)", EveryActionCounted), ("as shipped", Driver)):
        start, ended, steps, types, wins = time.time(), 0, [], Counter[str](), Counter[str]()
        for seed in range(args.games):
            driver = kind("lost-days", args.players, max_steps=args.cap, seed=seed)
            types += play(driver, args.bot, seed)
            ended += driver.over
            steps.append(driver.steps)
            if driver.over:
                wins.update(driver.game.outcome(driver.match.state).winners)
        trade = sum(types[t] for t in TRADES) / sum(types.values())
        print(
            f"{args.bot} x{args.players}, driver {name}: {ended}/{args.games} end before the cap of {args.cap};"
            f" steps per game mean {sum(steps) / len(steps):.0f}, median {sorted(steps)[len(steps) // 2]};"
            f" trade actions {trade:.2f} of all; wins {dict(sorted(wins.items()))}; {time.time() - start:.0f} s"
        )


if __name__ == "__main__":
    main()
