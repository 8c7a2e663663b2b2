"""Which action types each bot takes, against the types random play takes (printed, never asserted).

For each game: ``N`` seeded games with every seat played by ``random``, then ``N`` with every seat
played by ``heuristic`` (the Great City's referee seat is the heuristic in both). An action type
is *reached* by a bot when it took it at least once. The heuristic's coverage is the share of the
types random play reaches that the heuristic reaches too; the types a good player never makes
(``docs/bots-mechanics.md``, :data:`NEVER` in ``tests/bots/test_mechanic_coverage.py``) are
listed apart.

    python benchmarks/bot_coverage.py [GAME ...] [--games 200] [--players N] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from typing import Any

from ludica.bots.base import Bot, Decision, Situation, make_bot
from ludica.bots.play import play_match
from ludica.core import Match, available, get_game
from ludica.lab.playthrough import default_config

PLAYERS = {"euphoria": 4, "great-city": 4, "euthymia": 3, "misery-bubblegum": 3, "lost-days": 3}


class Counting:
    """A bot whose decisions' action types (taken, and legal when it decided) are counted."""

    def __init__(self, bot: Bot, taken: Counter[str], legal: Counter[str]) -> None:
        self.bot = bot
        self.name = bot.name
        self.taken = taken
        self.legal = legal

    def decide(self, situation: Situation) -> Decision:
        decision = self.bot.decide(situation)
        self.taken[decision.action.type] += 1
        for kind in {a.type for a in situation.legal}:
            self.legal[kind] += 1
        return decision


def reached(game_id: str, spec: str, games: int, players: int, seed: int = 0) -> tuple[Counter[str], Counter[str]]:
    """The action types taken and legal (decisions counted) over ``games`` seeded games of ``spec``."""
    game = get_game(game_id)
    taken: Counter[str] = Counter()
    legal: Counter[str] = Counter()
    for g in range(games):
        match: Match[Any] = Match(game, default_config(game_id, players, seed + g))
        seats = game.seats(match.state)
        bots: dict[str, Bot] = {}
        for i, seat in enumerate(seats):
            inner = make_bot(spec if i < players else "heuristic", game_id, (seed + g) * 100 + i)
            bots[seat] = Counting(inner, taken, legal) if i < players else inner
        play_match(match, bots, random.Random(seed + g), check=False)
    return taken, legal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game_ids", nargs="*", metavar="GAME")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bot", default="heuristic", help="the bot measured against random (default heuristic)")
    parser.add_argument("--detail", action="store_true", help="print the counts per action type")
    args = parser.parse_args()
    for game_id in args.game_ids or available():
        players = args.players or PLAYERS.get(game_id, 3)
        start = time.process_time()
        rand, _ = reached(game_id, "random", args.games, players, args.seed)
        heur, heur_legal = reached(game_id, args.bot, args.games, players, args.seed)
        base = set(rand)
        both = base & set(heur)
        share = len(both) / len(base) if base else 1.0
        print(
            f"{game_id} ({players} players, {args.games} games): {args.bot} reaches {len(both)}/{len(base)} "
            f"= {share:.0%} of random's types ({time.process_time() - start:.0f} s CPU)"
        )
        print(f"  not reached: {', '.join(sorted(base - both)) or '-'}")
        extra = set(heur) - base
        if extra:
            print(f"  reached by {args.bot} only: {', '.join(sorted(extra))}")
        never_legal = sorted(k for k in base - both if heur_legal[k] == 0)
        if never_legal:
            print(f"  never even legal under {args.bot}: {', '.join(never_legal)}")
        if args.detail:
            for kind in sorted(base | set(heur)):
                print(f"    {kind:28} random {rand[kind]:7}  {args.bot} {heur[kind]:7} (legal {heur_legal[kind]})")


if __name__ == "__main__":
    main()
