"""Environment throughput: steps per second of every Ludica game beside OpenSpiel's own games.

Every game runs the same loop: the seat to act gets its observation vector and legal indices, a
uniformly random legal index is applied, chance is resolved inside, a finished game restarts.

* ``in-process``: one environment in this process (CPU time of this process, so that other work
  on a shared machine counts less);
* ``vector``: :class:`ludica.env.vector.VectorEnv` with ``--envs`` environments over one worker
  process, then over ``--workers`` processes (steps of all environments per wall second), and
  the scaling between the two (``--workers`` is ideal on an idle machine).

Rows: each Ludica game through its encodings (:class:`~ludica.env.vector.LudicaRunner`), the
same without the observation tensor (the view is still built: the rules' and the catalogue's own
cost, a ceiling for the environments), through
PettingZoo's AEC loop (:func:`ludica.env.aec_env`: ``last()`` with the observation and action
mask, a random legal index from the mask, ``step``; in-process only), through its OpenSpiel
registration (``ludica_<game>``, in-process only), and OpenSpiel's ``backgammon`` and
``kuhn_poker`` (C++ games) through the same runner; the ratio columns divide by backgammon's
figure of the same mode. Figures are printed, never asserted.

    python benchmarks/bench_env.py [GAME ...] [--seconds S] [--envs N] [--workers W]
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from cpucap import CpuCap  # benchmarks/cpucap.py (run from benchmarks/)
from rich.console import Console
from rich.progress import track
from rich.table import Table

from ludica.core.registry import GAME_MODULES
from ludica.env.vector import LudicaRunner, Runner, SpielRunner, VectorEnv

ANCHORS = ("backgammon", "kuhn_poker")


def in_process(runner: Runner, seconds: float) -> float:
    rng = random.Random(0)
    _, legal = runner.reset(0)
    steps, seed = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        _, legal, _, done = runner.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        if done:
            seed += 1
            _, legal = runner.reset(seed)
    return steps / (time.process_time() - start)


def aec_loop(env: Any, until: Callable[[int], bool]) -> int:
    """The AEC loop of :func:`aec` (a random legal index at every decision, a new seeded episode
    when one ends) until ``until(decisions)``; returns the decisions made
    (``benchmarks/env_parts.py`` times and counts the same loop)."""
    rng = random.Random(0)
    env.reset(seed=0)
    steps, seed = 0, 0
    while not until(steps):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            seed += 1
            env.reset(seed=seed)
            continue
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps


def aec(game: str, seconds: float) -> float:
    """Decisions per second through the PettingZoo AEC environment (observation and mask included).

    The legal indices are read from the ``int8`` mask through a ``bool`` view of the same bytes:
    numpy's ``flatnonzero`` on ``int8`` takes a slow generic path (about 250 µs for The Great
    City's 97 000 entries against 14 µs on the view), which would measure numpy, not the game."""
    from ludica.env import aec_env

    env = aec_env(game, seed=0)
    start = time.process_time()
    steps = aec_loop(env, lambda _: time.process_time() - start >= seconds)
    return steps / (time.process_time() - start)


def vectorised(factory: Any, seconds: float, envs: int, workers: int, quota: float | None = None) -> float:
    """Steps of all ``envs`` environments per wall second over ``workers`` processes (each capped
    at ``quota`` cores when given: ``benchmarks/cpucap.py``)."""
    rng = random.Random(0)
    cap = CpuCap(quota) if quota else None
    with VectorEnv(factory, envs, workers) as vec:
        if cap is not None:
            for pid in vec.pids:
                cap.cap(pid)
        _, legal = vec.reset()
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            _, legal, _, _ = vec.step([int(lg[rng.randrange(len(lg))]) for lg in legal])
            steps += envs
        rate = steps / (time.perf_counter() - start)
    if cap:
        cap.release()
    return rate


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game ids (default: all five)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per figure (default 3)")
    parser.add_argument("--envs", type=int, default=8, help="environments in the vector (default 8)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the vector (default 2)")
    parser.add_argument("--no-vector", action="store_true", help="only the in-process figures")
    parser.add_argument(
        "--cpu-quota",
        type=float,
        metavar="CORES",
        help="cap each vector worker at CORES of CPU (a Linux control group; root), so that the scaling "
        "from 1 to --workers processes is the vector's own on a machine whose cores the main process shares",
    )
    args = parser.parse_args(argv)
    games = args.games or list(GAME_MODULES)

    rows: list[tuple[str, str, Any, bool]] = []
    for anchor in ANCHORS:
        rows.append((anchor, "OpenSpiel (C++)", functools.partial(SpielRunner, anchor), True))
    for game in games:
        rows.append((game, "Ludica env", functools.partial(LudicaRunner, game), True))
        rows.append((game, "PettingZoo AEC", functools.partial(aec, game), False))
        rows.append((game, "rules + view, no tensor", functools.partial(LudicaRunner, game, tensor=False), False))
        name = f"ludica_{game.replace('-', '_')}"
        rows.append((name, "Ludica via pyspiel", functools.partial(SpielRunner, name), False))

    results: dict[tuple[str, str], tuple[float, float | None, float | None]] = {}
    for name, how, factory, vector in track(rows, description="measuring"):
        local = factory(args.seconds) if how == "PettingZoo AEC" else in_process(factory(), args.seconds)
        one = many = None
        if vector and not args.no_vector:
            one = vectorised(factory, args.seconds, args.envs, 1, args.cpu_quota)
            many = vectorised(factory, args.seconds, args.envs, args.workers, args.cpu_quota)
        results[name, how] = (local, one, many)

    base_local, _, base_many = results["backgammon", "OpenSpiel (C++)"]
    title = "in-process only" if args.no_vector else f"vector: {args.envs} envs over 1 and {args.workers} workers"
    if args.cpu_quota and not args.no_vector:
        title += f", each capped at {args.cpu_quota:.2f} cores"
    table = Table(title=f"environment steps per second (random legal play, observation included; {title})")
    w = args.workers
    columns = ("game", "how", "in-process", "ratio to backgammon", "vector x1", f"vector x{w}", "scaling", "ratio")
    for col in columns:
        table.add_column(col, justify="left" if col in ("game", "how") else "right", no_wrap=True)
    for name, how, _, _ in rows:
        local, one, many = results[name, how]
        table.add_row(
            name,
            how,
            f"{local:,.0f}",
            f"{local / base_local:.3f}",
            "-" if one is None else f"{one:,.0f}",
            "-" if many is None else f"{many:,.0f}",
            "-" if one is None or many is None else f"{many / one:.2f}",
            "-" if many is None or not base_many else f"{many / base_many:.3f}",
        )
    Console(width=150).print(table)
    print(f"ratio: to backgammon in the same mode (in-process; vector over {w} workers); scaling: x{w} / x1")


if __name__ == "__main__":
    main()
