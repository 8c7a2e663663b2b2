"""Misery Bubblegum's heuristic against a frozen one (an earlier commit's) or random.

The game names no winner, so ``ludica tournament`` cannot rate it; what a player wants is to end
with little Misery. Each game seats the bot under test at one player seat (rotating), the
opponents at the others and the frozen heuristic as GM; it prints the share of games where the
tested seat ends with the least Misery (ties shared; fair share 1/players) with its Wilson
interval, and the mean final Misery of the tested seat and of the others.

    python benchmarks/misery_versus_frozen.py --rev 6f2f7a3 --games 300
    python benchmarks/misery_versus_frozen.py --others random --games 300
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from versus_frozen import FrozenBot, frozen_plugin

from ludica.bots.base import Bot, make_bot
from ludica.bots.play import play_match
from ludica.core import Match, get_game
from ludica.lab.inference import wilson
from ludica.lab.playthrough import default_config

GAME = "misery-bubblegum"


def one_game(index: int, args: argparse.Namespace, plugin: Any) -> tuple[float, int, list[int]]:
    """The tested seat's share of the least Misery, its Misery and the other players'."""
    game = get_game(GAME)
    seed = args.seed + index
    match: Match[Any] = Match(game, default_config(GAME, args.players, seed))
    seats = game.seats(match.state)
    players = seats[: args.players]
    me = players[index % args.players]

    def bot(seat: str, i: int) -> Bot:
        spec = args.me if seat == me else (args.others if i < args.players else "frozen")
        return FrozenBot(plugin, seed * 100 + i) if spec == "frozen" else make_bot(spec, GAME, seed * 100 + i)

    play_match(match, {s: bot(s, i) for i, s in enumerate(seats)}, random.Random(seed), check=False)
    misery = {s: match.state.characters[s].misery for s in players}
    least = [s for s in players if misery[s] == min(misery.values())]
    return (1 / len(least) if me in least else 0.0), misery[me], [misery[s] for s in players if s != me]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rev", default="6f2f7a3", help="the commit whose heuristic is frozen")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--me", default="heuristic", help="the bot under test (default heuristic)")
    parser.add_argument("--others", default="frozen", help="the opponents: frozen, random or any bot spec")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    plugin = frozen_plugin(GAME, args.rev)
    shares, mine, theirs = 0.0, [], []
    for index in range(args.games):
        share, own, others = one_game(index, args, plugin)
        shares += share
        mine.append(own)
        theirs.extend(others)
    low, high = wilson(shares, args.games)
    print(f"{args.me} against {args.others} x{args.players - 1}, {args.games} games from seed {args.seed}:")
    print(
        f"  least Misery (ties shared): {shares / args.games:.1%} [{low:.1%}, {high:.1%}]"
        f" (fair share {1 / args.players:.1%})"
    )
    print(f"  final Misery: the tested seat {statistics.mean(mine):.2f}, the others {statistics.mean(theirs):.2f}")


if __name__ == "__main__":
    main()
