"""The process vector: environments stepped in workers, legal indices back, auto-reset."""

from __future__ import annotations

import functools
import os
import random

from ludica.env.vector import LudicaRunner, SpielRunner, VectorEnv


def test_vector_of_ludica_games_steps_and_restarts() -> None:
    rng = random.Random(0)
    with VectorEnv(functools.partial(LudicaRunner, "misery-bubblegum"), 3, workers=2) as vec:
        obs, legal = vec.reset()
        assert obs.shape[0] == 3 and len(legal) == 3
        for _ in range(200):
            obs, legal, _, _ = vec.step([int(lg[rng.randrange(len(lg))]) for lg in legal])
            assert all(len(lg) for lg in legal), "after auto-reset every environment has a legal action"
        assert vec.masks(legal, 10_000).sum() == sum(len(lg) for lg in legal)


def test_openspiel_games_run_through_the_same_runner() -> None:
    runner = SpielRunner("kuhn_poker")
    _, legal = runner.reset(1)
    done = False
    while not done:
        _, legal, _, done = runner.step(int(legal[0]))


def test_the_vector_names_its_worker_processes() -> None:
    """``pids``: one live process per worker (``benchmarks/bench_env.py --cpu-quota`` caps each)."""
    with VectorEnv(functools.partial(LudicaRunner, "misery-bubblegum"), 3, workers=2) as vec:
        pids = vec.pids
        assert len(pids) == 2 and len(set(pids)) == 2
        for pid in pids:
            os.kill(pid, 0)  # alive: raises if there is no such process
