"""Per-game throughput and size figures, printed (never asserted).

For each registered game, on one core:
- random legal play: steps/s (each step lists the deciding seat's legal actions, picks one, checks
  and applies it; chance steps are dealt) and games/s;
- replay: actions/s re-applying a record with every check;
- state size: the position JSON in bytes, and peak memory of one game (tracemalloc).

    python benchmarks/bench_games.py [GAME ...] [--seconds S] [--players N]
"""

from __future__ import annotations

import argparse
import json
import random
import time
import tracemalloc
from dataclasses import replace
from typing import Any

from ludica.bots.random_bot import play_random
from ludica.core import Match, available, get_game
from ludica.core.records import record_of, replay_record
from ludica.lab.playthrough import default_config


def random_play(game_id: str, players: int | None, seconds: float) -> tuple[int, int, float, list[Match[Any]]]:
    game = get_game(game_id)
    config = default_config(game_id, players)
    steps = games = 0
    matches: list[Match[Any]] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        match: Match[Any] = Match(game, replace(config, seed=games))
        steps += play_random(match, random.Random(games))
        games += 1
        if len(matches) < 5:
            matches.append(match)
    return steps, games, time.perf_counter() - start, matches


def replay_speed(matches: list[Match[Any]]) -> float:
    records = [json.loads(json.dumps(record_of(m))) for m in matches]
    n = sum(len(r["actions"]) for r in records)
    start = time.perf_counter()
    for record in records:
        replay_record(record)
    return n / (time.perf_counter() - start)


def state_size(match: Match[Any]) -> tuple[int, int]:
    size = len(json.dumps(match.game.to_position(match.state), separators=(",", ":")))
    tracemalloc.start()
    fresh: Match[Any] = Match(match.game, match.config)
    fresh.replay(match.actions, check=False)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return size, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game ids (default: every registered game)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per game for random play")
    parser.add_argument("--players", type=int, help="player count (default: the game's minimum; euphoria 4)")
    args = parser.parse_args()
    ids = args.games or available()
    header = f"{'game':<18}{'players':>8}{'steps/s':>12}{'games/s':>10}{'steps/game':>12}{'replay act/s':>14}"
    print(header + f"{'state KB':>10}{'peak KB':>10}")
    for game_id in ids:
        players = args.players or (4 if game_id == "euphoria" else None)
        players = players or get_game(game_id).meta.players_min
        steps, games, elapsed, matches = random_play(game_id, players, args.seconds)
        replay = replay_speed(matches)
        size, peak = state_size(matches[0])
        print(
            f"{game_id:<18}{players:>8}{steps / elapsed:>12,.0f}{games / elapsed:>10,.1f}{steps / games:>12,.0f}"
            f"{replay:>14,.0f}{size / 1024:>10.1f}{peak / 1024:>10.0f}"
        )


if __name__ == "__main__":
    main()
