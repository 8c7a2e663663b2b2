"""PettingZoo's api_test and seed test and Gymnasium's check_env, for every game."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from ludica.env import aec_env, gym_env

from .conftest import GAMES


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_api(game_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(game_id, seed=3), num_cycles=150, verbose_progress=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_seed(game_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: aec_env(game_id), num_cycles=40)


@pytest.mark.parametrize("game_id", GAMES)
def test_gymnasium_check_env(game_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gym_env(game_id, opponents="random"), skip_render_check=True)


def test_a_whole_game_through_the_aec_api_ends_with_outcome_rewards() -> None:
    env = aec_env("lost-days", players=3, seed=5, max_steps=3000)
    env.reset()
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=10_000):
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert info["view"], "the acting seat gets its JSON view"
        env.step(int(obs["action_mask"].nonzero()[0][0]))
    assert not env.agents


def test_render_prints_the_terminal_face(capsys: pytest.CaptureFixture[str]) -> None:
    env = aec_env("misery-bubblegum", render_mode="human")
    env.reset()
    env.render()
    assert capsys.readouterr().out.strip()
    assert aec_env("euphoria", render_mode="ansi").render is not None


def test_unknown_opponent_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no bot 'nobody'"):
        gym_env("euphoria", opponents="nobody")


def test_an_illegal_index_ends_the_episode_with_the_penalty() -> None:
    env = gym_env("misery-bubblegum", opponents="random", illegal_reward=-5.0)
    _, info = env.reset(seed=2)
    illegal = int((info["action_mask"] == 0).nonzero()[0][0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-5.0, True, illegal)


def test_bad_players_and_seats_are_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        aec_env("euphoria", players=9)
    with pytest.raises(ValueError, match="no seat"):
        gym_env("euphoria", seat="p7", opponents="random")


def test_each_reset_without_a_seed_deals_a_new_game_and_a_seed_repeats_one() -> None:
    env = gym_env("euphoria", opponents="random", seed=4)
    first = env.reset()[1]["view"]
    second = env.reset()[1]["view"]
    again = gym_env("euphoria", opponents="random", seed=4).reset()[1]["view"]
    assert first == again and first != second
    aec = aec_env("euphoria", seed=4)
    aec.reset()
    one = aec.observe("p1")["observation"].copy()
    aec.reset()
    assert not (aec.observe("p1")["observation"] == one).all()
    aec.reset(seed=4)
    assert (aec.observe("p1")["observation"] == one).all()


def test_an_illegal_index_ends_the_aec_game_as_pettingzoo_classic() -> None:
    env = aec_env("lost-days", seed=1)
    env.reset()
    agent = env.agent_selection
    obs, *_ = env.last()
    illegal = int((obs["action_mask"] == 0).nonzero()[0][0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0 and all(r == 0.0 for a, r in env.rewards.items() if a != agent)
    assert env.infos[agent]["illegal_action"] == illegal


def _factored_pick(env: Any, rng: random.Random, prefix_mask: Any) -> list[int]:
    picks: list[int] = []
    for _ in env.driver.catalogue.heads:
        mask = prefix_mask(picks)
        picks.append(int(rng.choice(mask.nonzero()[0])))
    return picks


@pytest.mark.parametrize("game_id", ["great-city", "euphoria"])
def test_factored_actions_play_a_game_head_by_head(game_id: str) -> None:
    env = gym_env(game_id, opponents="random", action="factored", max_steps=80)
    _, info = env.reset(seed=3)
    assert env.action_space.nvec.tolist() == list(env.driver.catalogue.heads)
    rng = random.Random(0)
    done = False
    while not done:
        picks = _factored_pick(env, rng, env.head_mask)
        assert any((row == picks).all() for row in info["legal_factored"])
        _, _, terminated, truncated, info = env.step(picks)
        assert "illegal_action" not in info
        done = terminated or truncated
    aec = aec_env(game_id, action="factored", max_steps=60)
    aec.reset(seed=1)
    for agent in aec.agent_iter():
        _, _, term, trunc, _ = aec.last()
        aec.step(None if term or trunc else _factored_pick(aec, rng, lambda p, a=agent: aec.head_mask(a, p)))


def test_gymnasium_make_ids_work_without_a_prior_import() -> None:
    import subprocess
    import sys

    code = (
        "import gymnasium; env = gymnasium.make('ludica.env.gym:ludica/Euphoria-v0', opponents='random'); "
        "obs, info = env.reset(seed=1); print(obs.shape[0] > 0, 'action_mask' in info)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True True"


def test_pyspiel_loads_a_game_after_importing_the_module_and_options_may_hold_commas() -> None:
    import subprocess
    import sys

    code = (
        "import pyspiel, ludica.env.spiel; "
        'g = pyspiel.load_game(\'ludica_lost_days(options={"starting_purse":9;"tie_rule":"stalemate"})\'); '
        "print(g.num_players())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "3"


@pytest.mark.parametrize("game_id", GAMES)
def test_environments_pickle_and_deepcopy_and_go_on_the_same(game_id: str) -> None:
    import copy
    import pickle

    from ludica.env.vector import LudicaRunner

    aec = aec_env(game_id, seed=2)
    aec.reset()
    gym = gym_env(game_id, opponents="heuristic", seed=2)
    _, info = gym.reset()
    runner = LudicaRunner(game_id)
    runner.reset(3)
    for env in (aec, gym, runner):
        for twin in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
            assert twin.driver.match.actions == env.driver.match.actions
    action = int(info["action_mask"].nonzero()[0][0])
    twin_gym = pickle.loads(pickle.dumps(gym))
    a = gym.step(action)
    b = twin_gym.step(action)
    assert (a[0] == b[0]).all() and a[1:4] == b[1:4]


def test_the_referee_seat_is_a_bot_unless_asked_to_be_an_agent() -> None:
    env = aec_env("great-city", seed=1, max_steps=150)
    env.reset()
    assert "gm" not in env.possible_agents
    for agent in env.agent_iter(max_iter=400):
        assert agent != "gm"
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
    assert "gm" in aec_env("great-city", referee="agent").possible_agents
    with pytest.raises(ValueError, match="referee seat gm"):
        aec_env("great-city", referee="nobody")


@pytest.mark.parametrize("game_id", GAMES)
def test_legal_moves_in_the_info_are_the_masks_ones(game_id: str) -> None:
    """``infos[agent]["legal_moves"]`` (PettingZoo) and ``info["legal_moves"]`` (Gymnasium) list
    exactly the indices the action mask marks, sorted, at every decision."""
    rng = random.Random(3)
    env = aec_env(game_id, seed=3)
    env.reset(seed=3)
    for _ in range(120):
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            break
        legal = info["legal_moves"]
        assert legal == np.flatnonzero(obs["action_mask"]).tolist()
        env.step(legal[rng.randrange(len(legal))])
    gym = gym_env(game_id, seed=3)
    _, info = gym.reset(seed=3)
    for _ in range(60):
        legal = info["legal_moves"]
        assert legal == np.flatnonzero(info["action_mask"]).tolist()
        _, _, terminated, truncated, info = gym.step(legal[rng.randrange(len(legal))])
        if terminated or truncated:
            break
