"""The process vector: environments stepped in workers, legal indices back, auto-reset."""

from __future__ import annotations

import functools
import os
import random
from multiprocessing import shared_memory

import numpy as np
import pytest

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


def _in_process(game: str, n: int, steps: int, tensor: bool = True) -> list[tuple[np.ndarray, list[np.ndarray]]]:
    """What the vector must return, stepped here: env ``i`` from seed ``i``, then ``i + n``, ..."""
    runners = [LudicaRunner(game, tensor=tensor) for _ in range(n)]
    seeds = list(range(n))
    now = [r.reset(s) for r, s in zip(runners, seeds, strict=True)]
    rng = random.Random(1)
    seen = [(np.stack([o for o, _ in now]), [lg for _, lg in now])]
    for _ in range(steps):
        picks = [int(lg[rng.randrange(len(lg))]) for _, lg in now]
        for i, (runner, pick) in enumerate(zip(runners, picks, strict=True)):
            obs, legal, _, done = runner.step(pick)
            if done:
                seeds[i] += n
                obs, legal = runner.reset(seeds[i])
            now[i] = (obs, legal)
        seen.append((np.stack([o for o, _ in now]), [lg for _, lg in now]))
    return seen


@pytest.mark.parametrize("tensor", [True, False])
def test_the_vector_returns_exactly_what_its_runners_give(tensor: bool) -> None:
    """Observations through the shared block, legal indices packed in one array: every step equals
    the same runners stepped in this process (and an empty observation needs no block)."""
    expected = _in_process("lost-days", 3, 120, tensor)
    rng = random.Random(1)
    with VectorEnv(functools.partial(LudicaRunner, "lost-days", tensor=tensor), 3, workers=2) as vec:
        obs, legal = vec.reset()
        for want_obs, want_legal in expected:
            assert obs.dtype == np.float32 and np.array_equal(obs, want_obs)
            assert all(np.array_equal(a, b) for a, b in zip(legal, want_legal, strict=True))
            obs, legal, _, _ = vec.step([int(lg[rng.randrange(len(lg))]) for lg in legal])


def test_a_returned_observation_is_the_caller_s_own() -> None:
    """The next step does not write into an observation already returned, and the shared block is
    gone once the vector is closed."""
    with VectorEnv(functools.partial(LudicaRunner, "misery-bubblegum"), 2, workers=2) as vec:
        first, legal = vec.reset()
        kept = first.copy()
        vec.step([int(lg[0]) for lg in legal])
        assert np.array_equal(first, kept)
        name = vec._block.name if vec._block else None
    assert name is not None
    with pytest.raises(FileNotFoundError):
        shared_memory.SharedMemory(name=name)


class FrozenCount:
    """A runner whose observation is how many objects its process's collector has frozen."""

    size = 1

    def reset(self, seed: int) -> tuple[np.ndarray, np.ndarray]:
        import gc

        return np.array([gc.get_freeze_count()], np.float32), np.zeros(1, np.int64)

    def step(self, index: int) -> tuple[np.ndarray, np.ndarray, float, bool]:
        obs, legal = self.reset(0)
        return obs, legal, 0.0, False


def test_a_worker_freezes_what_it_built_before_it_steps() -> None:
    """The vector's workers are its own processes: once their runners are built, what they hold
    is frozen (``gc.freeze``), so the collector's full passes skip it."""
    with VectorEnv(FrozenCount, 2, workers=2) as vec:
        obs, _ = vec.reset()
    assert (obs[:, 0] > 1000).all(), obs
