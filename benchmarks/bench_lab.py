"""The lab's own cost: games per CPU second of ``ludica simulate`` beside the bots alone, printed
(never asserted), in one run so that the machine's load weighs on both alike.

* **bots alone**: what ``benchmarks/bench_heuristic.py`` measures, every seat's bot playing to the
  end with :func:`ludica.bots.play.play_match` (no bookkeeping, no check of the bots' actions);
* **simulate**: :func:`ludica.lab.batch.play_game`, what ``ludica simulate --jobs 1`` runs for each
  game (the record: actions offered and taken, the time series, the summary; each action checked).

The two alternate game by game (same seeds), and each figure is the CPU time of whole games.

    python benchmarks/bench_lab.py [GAME] [--games N] [--players N] [--bot SPEC]

The target: simulate within 10% of the bots alone (a ratio of at least 0.90).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from ludica.bots.base import Bot, make_bot
from ludica.bots.play import play_match
from ludica.core import Match, get_game
from ludica.lab.batch import Batch, play_game
from ludica.lab.playthrough import NAMES, default_config


def bots_alone(game_id: str, players: int, seed: int, spec: str) -> None:
    game = get_game(game_id)
    match: Match[Any] = Match(game, default_config(game_id, players, seed))
    seats = game.seats(match.state)
    bots: dict[str, Bot] = {s: make_bot(spec, game_id, seed * 100 + i) for i, s in enumerate(seats)}
    play_match(match, bots, random.Random(seed), check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="euphoria")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="heuristic")
    args = parser.parse_args()
    batch = Batch(args.game, NAMES[: args.players], bots={"*": args.bot}, games=args.games)
    alone = lab = 0.0
    for i in range(args.games):
        start = time.process_time()
        bots_alone(args.game, args.players, i, args.bot)
        alone += time.process_time() - start
        start = time.process_time()
        play_game(batch, i)
        lab += time.process_time() - start
    print(f"{args.game}, {args.players} players, {args.bot} at every seat, {args.games} games of each")
    print(f"  bots alone (play_match):     {args.games / alone:7.1f} games per CPU second")
    print(f"  simulate (lab's play_game):  {args.games / lab:7.1f} games per CPU second")
    print(f"  ratio simulate / bots alone: {alone / lab:7.2f} (target: at least 0.90)")


if __name__ == "__main__":
    main()
