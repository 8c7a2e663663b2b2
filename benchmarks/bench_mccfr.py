"""OpenSpiel's external-sampling MCCFR on Ludica games: iterations a second and memory growth.

    python benchmarks/bench_mccfr.py                       # The Great City, 60 s per configuration
    python benchmarks/bench_mccfr.py --seconds 20 --game lost-days --max-steps 8 0
    python benchmarks/bench_mccfr.py --sim --sim-max-steps 500   # random_sim_test at every game's most players

For each configuration (``--max-steps``: the game cut after that many moves, ``0`` for the game's
own cap) it runs OpenSpiel's Python solver (``open_spiel.python.algorithms.external_sampling_mccfr``)
for ``--seconds`` and prints iterations a second, the information states in its table, their mean
length in characters, and the process's resident memory before and after (and the same run of the
C++ solver, ``pyspiel.ExternalSamplingMCCFRSolver``, with ``--native``). Iterations per CPU second
(the process's own time) compare two runs on a loaded machine better than per wall second. ``--sim`` runs
``pyspiel.random_sim_test`` once per game at its largest player count (with the game's own cap,
or ``--sim-max-steps``) and prints the seconds and memory. ``--lengths`` plays two seeded random
games of each game (fewest players, the game's own cap) and prints the mean and largest length of
the information state strings (every seat, at every fifth decision).

    python benchmarks/bench_mccfr.py --lengths
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import external_sampling_mccfr

from ludica.core.registry import get_game
from ludica.env import register_openspiel
from ludica.env.spiel import short_name

GAMES = ("great-city", "euthymia", "misery-bubblegum", "lost-days", "euphoria")


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def load(game_id: str, max_steps: int, players: int | None = None) -> pyspiel.Game:
    params: dict[str, int] = {}
    if max_steps:
        params["max_steps"] = max_steps
    if players:
        params["players"] = players
    return pyspiel.load_game(short_name(game_id), params)


def mccfr(game_id: str, max_steps: int, seconds: float, native: bool) -> None:
    game = load(game_id, max_steps)
    before = rss_mb()
    solver = external_sampling_mccfr.ExternalSamplingSolver(game)
    start, cpu = time.perf_counter(), time.process_time()
    n = 0
    while time.perf_counter() - start < seconds:
        solver.iteration()
        n += 1
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    table = solver._infostates
    mean = float(np.mean([len(k) for k in table])) if table else 0.0
    cap = max_steps or game.max_game_length()
    print(
        f"{game_id} max_steps={cap}: python solver {n / took:.1f} iterations/s ({n} in {took:.0f} s; "
        f"{n / cpu:.1f} per CPU second), "
        f"{len(table):,} information states of {mean:.0f} characters on average, "
        f"memory {before:.0f} MB -> {rss_mb():.0f} MB",
        flush=True,
    )
    if native:
        solver_c = pyspiel.ExternalSamplingMCCFRSolver(game, 1)
        before = rss_mb()
        start = time.perf_counter()
        n = 0
        while time.perf_counter() - start < seconds:
            solver_c.run_iteration()
            n += 1
        took = time.perf_counter() - start
        print(
            f"{game_id} max_steps={cap}: C++ solver {n / took:.1f} iterations/s, "
            f"memory {before:.0f} MB -> {rss_mb():.0f} MB",
            flush=True,
        )


def sim(game_id: str, max_steps: int) -> None:
    players = get_game(game_id).meta.players_max
    game = load(game_id, max_steps, players)
    before = rss_mb()
    start = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    took = time.perf_counter() - start
    print(
        f"random_sim_test {game_id} {players} players (cap {game.max_game_length():,} moves): {took:.0f} s, "
        f"memory {before:.0f} MB -> {rss_mb():.0f} MB",
        flush=True,
    )


def lengths(game_id: str, games: int = 2, every: int = 5) -> None:
    game = load(game_id, 0)
    found: list[int] = []
    start = time.perf_counter()
    for seed in range(games):
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            decisions += 1
            if decisions % every == 0:
                found.extend(len(state.information_state_string(p)) for p in range(game.num_players()))
            state.apply_action(int(rng.choice(state.legal_actions())))
    print(
        f"{game_id}: information state strings of {np.mean(found):,.0f} characters on average, "
        f"{max(found):,} at most ({len(found)} read over {games} random games, {time.perf_counter() - start:.0f} s)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="great-city", choices=GAMES)
    parser.add_argument("--max-steps", type=int, nargs="*", default=[8, 0], help="configurations (0: the game's cap)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--native", action="store_true", help="also run OpenSpiel's C++ solver")
    parser.add_argument("--sim", action="store_true", help="random_sim_test at every game's most players instead")
    parser.add_argument("--games", nargs="*", default=list(GAMES), help="the games of --sim")
    parser.add_argument("--sim-max-steps", type=int, default=0, help="the cap of --sim (0: the game's own)")
    parser.add_argument("--lengths", action="store_true", help="information state string lengths instead")
    args = parser.parse_args()
    register_openspiel()
    if args.lengths:
        for game_id in args.games:
            lengths(game_id)
        return
    if args.sim:
        for game_id in args.games:
            sim(game_id, args.sim_max_steps)
        return
    for max_steps in args.max_steps:
        mccfr(args.game, max_steps, args.seconds, args.native)


if __name__ == "__main__":
    main()
