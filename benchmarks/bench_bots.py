"""Bots' speed per game, printed (never asserted).

For each game, over states met in random play (the deciding seat of each), on one core (CPU
time of this process, so a busy machine does not skew it):
- decisions per second of each registered bot: ``random``, ``heuristic`` (when registered) and
  ``ismcts`` at its default level;
- ISMCTS playouts (iterations) per second, and its CPU seconds per decision at the default level
  (the target: at most 2 s a move in 4-player Euphoria);
- redeals per second (what every ISMCTS iteration starts with).

    python benchmarks/bench_bots.py [GAME ...] [--states N] [--players N] [--ismcts SPEC]

Anchors (issue 22): at least 1,000 ISMCTS playouts/s in 4-player Euphoria, at most 1 s a move at
the default level; each printed beside its figure with the ratio.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from ludica.bots.base import BOTS, make_bot, situation
from ludica.bots.ismcts import DEFAULT_PLAYOUTS, ISMCTSBot
from ludica.bots.random_bot import walk_random
from ludica.bots.samples import GAMES, snapshot
from ludica.core import Config, Match, get_game


def states(game_id: str, players: int | None, count: int, seed: int = 1) -> list[Match[Any]]:
    """``count`` decision points of random games (copies), spread over whole games."""
    game = get_game(game_id)
    n = players or max(game.meta.players_min, min(4, game.meta.players_max))
    out: list[Match[Any]] = []
    rng = random.Random(seed)
    while len(out) < count:
        match: Match[Any] = Match(game, Config(tuple(f"P{i}" for i in range(n)), {}, rng.randrange(10**6)))
        for steps in walk_random(match, rng, check=False):
            pending = match.pending()
            if not pending.is_chance and not pending.is_over and rng.random() < 0.02 and steps:
                out.append(snapshot(match))
                if len(out) >= count:
                    break
    return out


def per_second(bot: Any, points: list[Match[Any]]) -> tuple[float, float]:
    """Decisions per CPU second, and CPU seconds per decision."""
    start = time.process_time()
    for match in points:
        bot.decide(situation(match, match.pending().seats[0]))
    spent = time.process_time() - start
    return len(points) / spent if spent else float("inf"), spent / len(points)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=GAMES)
    parser.add_argument("--states", type=int, default=20, help="decision points per game (default 20)")
    parser.add_argument("--players", type=int, help="players (default: 4 within the game's bounds)")
    parser.add_argument("--ismcts", default="ismcts", help="the ISMCTS level to time (default: its default)")
    args = parser.parse_args()
    make_bot("random", "pig")
    names = ["random", *(["heuristic"] if "heuristic" in BOTS else [])]
    print(f"bots' speed, CPU time on one core; ISMCTS level {args.ismcts!r} (default {DEFAULT_PLAYOUTS} playouts)")
    for game_id in args.games:
        points = states(game_id, args.players, args.states)
        game = get_game(game_id)
        players = len(points[0].config.players)
        print(f"\n{game.meta.title} ({players} players, {len(points)} decision points)")
        for name in names:
            rate, _ = per_second(make_bot(name, game_id, 1), points)
            print(f"  {name:<10} {rate:>10.0f} decisions/s")
        bot = make_bot(args.ismcts, game_id, 1)
        assert isinstance(bot, ISMCTSBot)
        playouts = 0
        start = time.process_time()
        searched = 0
        for match in points:
            sit = situation(match, match.pending().seats[0])
            bot.decide(sit)
            playouts += bot.last_playouts
            searched += bot.last_playouts > 0
        spent = time.process_time() - start
        per_move = spent / max(1, searched)
        rate = playouts / spent
        print(
            f"  {'ismcts':<10} {len(points) / spent:>10.2f} decisions/s  "
            f"{per_move:.2f} s per searched decision (bound 1 s: {per_move:.2f}x of it)  "
            f"{rate:.0f} playouts/s (anchor 1000: {rate / 1000:.2f}x)"
        )
        rng = random.Random(2)
        start = time.process_time()
        redeals = 0
        while time.process_time() - start < 0.5:
            match = points[redeals % len(points)]
            game.redeal(match.state, match.pending().seats[0], rng)
            redeals += 1
        print(f"  redeal     {redeals / (time.process_time() - start):>10.0f} per second")


if __name__ == "__main__":
    main()
