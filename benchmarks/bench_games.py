"""Per-game throughput and size figures, printed (never asserted).

For each registered game, on one core (CPU time of this process, so a busy machine does not skew it):
- random legal play: steps/s (each step lists the deciding seat's legal actions, picks one and
  applies it; chance steps are dealt) and games/s, both with the full check of every action
  ("checked") and applying listed actions as trusted ("trusted", what simulations do);
- kernel: steps/s of the game's own functions alone (pending, legal actions, play; chance outcomes
  sampled from one generator), the figure comparable to OpenSpiel's ``legal_actions`` +
  ``apply_action`` loop, without the match driver's record, story log and per-step dealer;
- replay: actions/s re-applying a record with every check ("checked"), and without ("trusted": a
  record the installation wrote itself; the digest is still compared);
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
from ludica.core import CHANCE, Action, Match, available, fill, get_game
from ludica.core.records import record_of, replay_record
from ludica.lab.playthrough import default_config


def random_play(
    game_id: str, players: int | None, seconds: float, *, check: bool = True
) -> tuple[int, int, float, list[Match[Any]]]:
    game = get_game(game_id)
    config = default_config(game_id, players)
    steps = games = 0
    matches: list[Match[Any]] = []
    start = time.process_time()
    while time.process_time() - start < seconds or games == 0:
        match: Match[Any] = Match(game, replace(config, seed=games))
        steps += play_random(match, random.Random(games), check=check)
        games += 1
        if len(matches) < 5:
            matches.append(match)
    return steps, games, time.process_time() - start, matches


def kernel_play(game_id: str, players: int | None, seconds: float) -> float:
    """Steps/s of the bare rules kernel: no Match, no record, no log, one generator for chance."""
    game = get_game(game_id)
    config = default_config(game_id, players)
    rng = random.Random(0)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds or games == 0:
        state = game.setup(replace(config, seed=games))
        while True:
            pending = game.pending(state)
            if not pending.seats:
                break
            seat = pending.seats[rng.randrange(len(pending.seats))]
            if seat == CHANCE:
                step = game.chance_step(state)
                action = Action(CHANCE, step.type, {**step.extra, **step.sample(rng)})
            else:
                action = fill(rng.choice(game.legal_actions(state, seat)), rng)
            game.play(state, action)
            steps += 1
        games += 1
    return steps / (time.process_time() - start)


def replay_speed(matches: list[Match[Any]], *, check: bool = True) -> float:
    records = [json.loads(json.dumps(record_of(m))) for m in matches]
    n = sum(len(r["actions"]) for r in records)
    start = time.process_time()
    for record in records:
        replay_record(record, check=check)
    return n / (time.process_time() - start)


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
    header = f"{'game':<18}{'players':>8}{'kernel st/s':>13}{'checked st/s':>14}{'trusted st/s':>14}"
    header += f"{'games/s':>10}{'steps/game':>12}"
    print(header + f"{'replay act/s':>14}{'trusted':>10}{'state KB':>10}{'peak KB':>10}")
    for game_id in ids:
        players = args.players or (4 if game_id == "euphoria" else None)
        players = players or get_game(game_id).meta.players_min
        steps, _, elapsed, matches = random_play(game_id, players, args.seconds)
        fast_steps, fast_games, fast_elapsed, _ = random_play(game_id, players, args.seconds, check=False)
        kernel = kernel_play(game_id, players, args.seconds)
        replay = replay_speed(matches)
        fast_replay = replay_speed(matches, check=False)
        size = max(state_size(m)[0] for m in matches)
        peak = state_size(matches[0])[1]
        print(
            f"{game_id:<18}{players:>8}{kernel:>13,.0f}{steps / elapsed:>14,.0f}{fast_steps / fast_elapsed:>14,.0f}"
            f"{fast_games / fast_elapsed:>10,.1f}{fast_steps / fast_games:>12,.0f}"
            f"{replay:>14,.0f}{fast_replay:>10,.0f}{size / 1024:>10.1f}{peak / 1024:>10.0f}"
        )


if __name__ == "__main__":
    main()
