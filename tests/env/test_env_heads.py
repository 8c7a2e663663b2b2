"""The action heads (``action="heads"``, the environments' default): small masks, exact legality."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludica.core.registry import get_game
from ludica.env import aec_env, gym_env
from ludica.env.driver import Driver
from ludica.env.heads import Choice, Heads

from .conftest import GAMES, walk

WIDEST = 512
"""No mask of the heads form is longer (Euphoria's ranked payments)."""


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("players", ["fewest", "most"])
def test_every_legal_action_is_reached_head_by_head_and_nothing_else(game_id: str, players: str) -> None:
    """Along seeded play: the rows are the catalogue's own factoring of every legal index; walking
    the heads with each legal action's picks reaches exactly that index, every head's mask holds
    the pick and only values that lead to a legal action; random walks always end on a legal index."""
    driver = Driver(game_id, None if players == "fewest" else get_game(game_id).meta.players_max, seed=5)
    heads = Heads(driver.catalogue)
    assert heads.width == max(driver.catalogue.heads) <= WIDEST
    rng = random.Random(1)
    for _ in walk(driver, 120, seed=2):
        seat = driver.current()
        if seat is None:
            break
        legal = driver.legal(seat)
        indices, rows = heads.rows(legal)
        assert indices.tolist() == legal.indices
        sample = rng.sample(legal.indices, min(12, len(legal.indices)))
        assert [tuple(rows[legal.indices.index(i)]) for i in sample] == [driver.catalogue.factor(i) for i in sample]
        for index in sample:
            choice = Choice(heads, legal)
            for h, value in enumerate(driver.catalogue.factor(index)):
                if h < choice.head:
                    assert choice.picks[h] == value, "filled in: the one legal value"
                elif choice.done:
                    assert value == 0, "a head past the shape's parameters is 0"
                else:
                    assert choice.mask()[value] == 1 and choice.pick(value)
            assert choice.done and choice.index == index
        choice = Choice(heads, legal)
        while not choice.done:
            mask = choice.mask()
            assert len(mask) == heads.width and mask.any()
            assert not choice.pick(int(np.flatnonzero(mask == 0)[0])) if (mask == 0).any() else True
            assert choice.pick(rng.choice(np.flatnonzero(mask).tolist()))
        assert legal.entry(choice.index) is not None


@pytest.mark.parametrize("game_id", GAMES)
def test_the_pettingzoo_loop_plays_whole_games_from_small_masks(game_id: str) -> None:
    """PettingZoo's documented loop (a random one of ``obs["action_mask"]``) over the default heads:
    every mask is at most :data:`WIDEST` long, the same agent acts until its decision is made."""
    env = aec_env(game_id, seed=4, max_steps=300)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    assert env.action_space(env.possible_agents[0]).n <= WIDEST
    for agent in env.agent_iter(max_iter=3000):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.shape == (env.heads.width,) and np.flatnonzero(mask).tolist() == info["legal_moves"]
        assert obs["observation"].shape == env.observation_space(agent)["observation"].shape
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert env.driver.steps > 0


def test_flat_and_factored_forms_stay_available() -> None:
    flat = aec_env("great-city", action="flat")
    assert flat.action_space("p1").n == flat.driver.catalogue.size == 96_927
    gym = gym_env("great-city", opponents="random", action="factored")
    gym.reset(seed=1)
    mask = gym.action_masks()
    assert len(mask) == sum(gym.driver.catalogue.heads) == 625, "MaskablePPO's MultiDiscrete layout"
    with pytest.raises(ValueError, match="heads, flat, factored"):
        aec_env("great-city", action="tree")


def test_an_illegal_head_value_ends_the_episode_as_an_illegal_index_does() -> None:
    env = gym_env("euphoria", opponents="random", illegal_reward=-3.0)
    _, info = env.reset(seed=2)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(bad)
    assert terminated and reward == -3.0 and info["illegal_action"] == bad


def test_the_learners_loop_of_the_docs_runs() -> None:
    """docs/env-learning.md's PettingZoo loop over the default heads plays a game to its end or cap."""
    import re
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "env-learning.md").read_text(encoding="utf-8")
    block = re.search(r"## The learner's loop\n.*?```python\n(.*?)```", text, re.S)
    assert block, "docs/env-learning.md shows the learner's loop"
    scope: dict[str, object] = {}
    exec(compile(block.group(1), "docs/env-learning.md", "exec"), scope)
    env = scope["env"]
    assert not env.agents or all(env.terminations[a] or env.truncations[a] for a in env.agents)  # type: ignore[attr-defined]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_aec_heads_hand_out_read_only_arrays_once_per_head(game_id: str) -> None:
    """docs/env-learning.md, "Nothing returned changes afterwards": in the heads form the
    observation and mask are read-only, the same arrays when observed again before the next step,
    and a new observation at the next head (its prefix slots say which head is asked)."""
    env = aec_env(game_id, seed=5, max_steps=200)
    env.reset(seed=5)
    rng = random.Random(0)
    heads_seen = 0
    for agent in env.agent_iter(max_iter=600):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        again = env.observe(agent)
        assert again["observation"] is obs["observation"] and again["action_mask"] is obs["action_mask"]
        for array in obs.values():
            assert not array.flags.writeable
            with pytest.raises(ValueError, match="read-only"):
                array[0] = 1
        before = obs["observation"].copy()
        env.step(rng.choice(info["legal_moves"]))
        if env.agent_selection == agent and env._choice is not None and env._choice.asked:
            heads_seen += 1
            after = env.observe(agent)["observation"]
            assert after is not obs["observation"] and not np.array_equal(after, before)
        assert np.array_equal(obs["observation"], before)
    assert heads_seen > 0


def test_making_an_environment_freezes_what_is_alive() -> None:
    """docs/env.md, Throughput: the first driver of a game collects once and freezes the heap (gc.freeze)."""
    import gc

    from ludica.env import driver

    gc.unfreeze()
    driver.FROZEN.discard("euthymia")
    assert gc.get_freeze_count() == 0
    marker = [object()]
    try:
        aec_env("euthymia", seed=1)
        assert gc.get_freeze_count() > 0
        assert all(found is not marker for found in gc.get_objects()), "a list made before is frozen too"
    finally:
        gc.unfreeze()
