"""What an environment returns stays as it was returned: observations, masks, rewards, infos, views.

A replay buffer keeps what it is given; an environment that went on changing a returned object
(a view sharing a list with the game's state) would make it store the wrong past. Every object
returned over 1 000 steps of play is kept, with a deep copy made when it was returned, and
compared with that copy at the end.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pytest

from ludica.env import aec_env, gym_env

from .conftest import GAMES

STEPS = 1_000


def _same(now: Any, then: Any, where: str) -> None:
    if isinstance(then, np.ndarray):
        assert isinstance(now, np.ndarray) and now.dtype == then.dtype and np.array_equal(now, then), where
    elif isinstance(then, dict):
        assert isinstance(now, dict) and now.keys() == then.keys(), where
        for key in then:
            _same(now[key], then[key], f"{where}.{key}")
    elif isinstance(then, list | tuple):
        assert type(now) is type(then) and len(now) == len(then), where
        for i, (a, b) in enumerate(zip(now, then, strict=True)):
            _same(a, b, f"{where}[{i}]")
    else:
        assert now == then, where


@pytest.mark.parametrize(("game_id", "action"), [*((g, "heads") for g in GAMES), ("lost-days", "flat")])
def test_nothing_the_aec_env_returned_changes_afterwards(game_id: str, action: str) -> None:
    env = aec_env(game_id, seed=1, action=action, max_steps=400)
    env.reset(seed=1)
    rng = random.Random(0)
    kept: list[tuple[Any, Any]] = []
    episode = 1
    for _ in range(STEPS):
        returned = env.last()
        kept.append((returned, copy.deepcopy(returned)))
        _, _, term, trunc, info = returned
        if term or trunc:
            episode += 1
            env.reset(seed=episode)
            continue
        env.step(rng.choice(info["legal_moves"]))
    for n, (now, then) in enumerate(kept):
        _same(now, then, f"step {n}")


@pytest.mark.parametrize("game_id", GAMES)
def test_nothing_the_gym_env_returned_changes_afterwards(game_id: str) -> None:
    env = gym_env(game_id, opponents="random", max_steps=400)
    returned: Any = env.reset(seed=1)
    rng = random.Random(0)
    kept = [(returned, copy.deepcopy(returned))]
    for _ in range(STEPS):
        info = returned[-1]
        returned = env.step(rng.choice(info["legal_moves"]))
        kept.append((returned, copy.deepcopy(returned)))
        if returned[2] or returned[3]:
            returned = env.reset()
            kept.append((returned, copy.deepcopy(returned)))
    for n, (now, then) in enumerate(kept):
        _same(now, then, f"return {n}")
