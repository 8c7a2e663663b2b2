"""Bots' speed per game, printed (never asserted).

For each game, over states met in random play (the deciding seat of each), on one core (CPU
time of this process, so a busy machine does not skew it):
- decisions per second of each registered bot: ``random``, ``heuristic`` (when registered) and
  ``ismcts`` at its default level;
- ISMCTS playouts (iterations) per second, and its CPU seconds per decision at the default level
  (the target: at most 2 s a move in 4-player Euphoria);
- redeals per second (what every ISMCTS iteration starts with).

    python benchmarks/bench_bots.py [GAME ...] [--states N] [--players N] [--ismcts SPEC]
                                    [--against CHECKOUT]

``--against CHECKOUT`` also times ISMCTS with the ``ludica`` of another checkout (``main``, say)
in a child process of the same run, over the same decision points, and prints both figures and
their ratio (before and after a change).

Anchors (issue 22): at least 1,000 ISMCTS playouts/s in 4-player Euphoria, at most 1 s a move at
the default level; each printed beside its figure with the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
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


def ismcts_rate(spec: str, game_id: str, points: list[Match[Any]]) -> tuple[float, float, float]:
    """ISMCTS at ``spec`` over ``points``: decisions/s, CPU seconds per searched decision, playouts/s."""
    bot = make_bot(spec, game_id, 1)
    assert isinstance(bot, ISMCTSBot)
    playouts = searched = 0
    start = time.process_time()
    for match in points:
        bot.decide(situation(match, match.pending().seats[0]))
        playouts += bot.last_playouts
        searched += bot.last_playouts > 0
    spent = time.process_time() - start
    return len(points) / spent, spent / max(1, searched), playouts / spent


def against(checkout: str, args: argparse.Namespace) -> dict[str, float]:
    """Playouts/s per game of ISMCTS with the ``ludica`` of ``checkout`` (this script, run there)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([checkout, os.environ.get("PYTHONPATH", "")])}
    cmd = [sys.executable, __file__, *args.games, "--states", str(args.states), "--ismcts", args.ismcts, "--only"]
    cmd += ["--players", str(args.players)] if args.players else []
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return {k: float(v) for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=GAMES)
    parser.add_argument("--states", type=int, default=20, help="decision points per game (default 20)")
    parser.add_argument("--players", type=int, help="players (default: 4 within the game's bounds)")
    parser.add_argument("--ismcts", default="ismcts", help="the ISMCTS level to time (default: its default)")
    parser.add_argument("--against", metavar="CHECKOUT", help="also time ISMCTS with another checkout's ludica")
    parser.add_argument("--only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only:  # a child of --against: ISMCTS's playouts/s per game, as one JSON line
        rates = {g: ismcts_rate(args.ismcts, g, states(g, args.players, args.states))[2] for g in args.games}
        print(json.dumps(rates))
        return
    before = against(args.against, args) if args.against else {}
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
        decisions, per_move, rate = ismcts_rate(args.ismcts, game_id, points)
        print(
            f"  {'ismcts':<10} {decisions:>10.2f} decisions/s  "
            f"{per_move:.2f} s per searched decision (bound 1 s: {per_move:.2f}x of it)  "
            f"{rate:.0f} playouts/s (anchor 1000: {rate / 1000:.2f}x)"
        )
        if game_id in before:
            then = before[game_id]
            print(f"  {'':<10} with {args.against}: {then:.0f} playouts/s; here {rate / then:.2f}x")
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
