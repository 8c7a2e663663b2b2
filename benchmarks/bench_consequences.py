"""What it costs to say every option's consequence, and how many options say one.

Along seeded random play of every game, at a sample of decisions, every option offered to the
deciding seat (its legal actions, a field filled with its lowest value) is asked for its
consequence through the namer (``Namer.consequence``: the hand-written effect and the computed
floor, ``ludica.core.consequence``). Prints, per game, the share of options that had a hand-written
effect alone (``action_effect`` or a value's ``effect``: what front ends showed before the floor)
and the share that has a consequence now, and the time to compute all consequences of one
decision (mean and worst, in CPU time of this process, so that other work on the machine does not
count; pure-Python build when ``LUDICA_PURE=1``), and again when the same decision is shown a
second time (remembered per seat's view).

    LUDICA_PURE=1 python benchmarks/bench_consequences.py [--games 3] [--every 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from ludica.bots.random_bot import RandomBot, random_step
from ludica.core import Match, available, get_game
from ludica.core.consequence import filled_in
from ludica.core.names import namer_of
from ludica.lab.playthrough import default_config


def decisions(game_id: str, players: int, seed: int, every: int, steps: int = 400) -> Any:
    """``(match, seat)`` at every ``every``-th decision of one seeded random game."""
    game = get_game(game_id)
    match: Match[Any] = Match(game, default_config(game_id, players, seed))
    rng = random.Random(seed)
    bot = RandomBot(rng)
    for step in range(steps):
        pending = match.pending()
        if pending.is_over:
            return
        if not pending.is_chance and step % every == 0:
            for seat in pending.seats:
                yield match, seat
        random_step(match, bot, rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="seeded games per game")
    parser.add_argument("--every", type=int, default=7, help="look at every n-th step")
    args = parser.parse_args()
    print(
        f"{'game':18} {'options':>7} {'hand-written':>12} {'now':>6} {'ms/decision':>12} {'worst ms':>9}"
        f" {'again ms':>9}"
    )
    totals = [0, 0, 0]
    for game_id in available():
        meta = get_game(game_id).meta
        players = min(4, meta.players_max) if meta.players_min < 4 else meta.players_min
        options = written = said = 0
        times: list[float] = []
        warm: list[float] = []
        for seed in range(args.games):
            for match, seat in decisions(game_id, players, seed, args.every):
                namer = namer_of(match, seat)
                legal = match.legal_actions(seat)
                began = time.process_time()
                for template in legal:
                    action = filled_in(template)
                    options += 1
                    written += bool(namer.action_effect(action) or namer.values_effect(action))
                    said += bool(namer.consequence(action))
                times.append((time.process_time() - began) * 1000)
                began = time.process_time()
                again = namer_of(match, seat)  # the same decision shown again: remembered
                for template in legal:
                    again.consequence(filled_in(template))
                warm.append((time.process_time() - began) * 1000)
        totals = [totals[0] + options, totals[1] + written, totals[2] + said]
        mean = statistics.mean(times) if times else 0.0
        worst = max(times) if times else 0.0
        print(
            f"{game_id:18} {options:7} {written / max(options, 1):12.0%} {said / max(options, 1):6.0%}"
            f" {mean:12.1f} {worst:9.1f} {statistics.mean(warm) if warm else 0.0:9.1f}"
        )
    options, written, said = totals
    print(f"{'all':18} {options:7} {written / max(options, 1):12.0%} {said / max(options, 1):6.0%}")


if __name__ == "__main__":
    main()
