"""The Stable-Baselines3 example (examples/train_sb3.py) clones the heuristic, trains and evaluates for a few steps.

It needs the ``learn`` extra (torch, stable-baselines3, sb3-contrib): without it this test skips."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch", reason="the 'learn' extra is not installed (torch)")
pytest.importorskip("sb3_contrib", reason="the 'learn' extra is not installed (sb3-contrib)")

SCRIPT = Path(__file__).parents[2] / "examples" / "train_sb3.py"


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("train_sb3", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game_id", ["great-city", "euphoria"])
def test_maskable_ppo_trains_on_the_action_heads_for_a_few_steps(game_id: str, tmp_path: Path) -> None:
    module = _example()
    out = module.main(
        [game_id, "--steps", "64", "--n-steps", "32", "--eval", "1", "--block", "1", "--max-steps", "40",
         "--opponents", "random", "--plot", str(tmp_path / "curve.png"), "--json", str(tmp_path / "out.json")]
    )  # fmt: skip
    assert out["steps"] >= 64
    assert [row["opponents"] for row in out["eval"]] == ["random", "heuristic"]
    assert (tmp_path / "curve.png").stat().st_size > 0 and (tmp_path / "out.json").stat().st_size > 0


def test_cloning_the_heuristic_then_fine_tuning_runs_for_a_few_steps(tmp_path: Path) -> None:
    module = _example()
    out = module.main(
        ["euphoria", "--players", "2", "--imitate", "2", "--imitate-epochs", "2", "--net", "16", "--steps", "32",
         "--n-steps", "32", "--eval", "1", "--eval-teacher", "--eval-opponents", "heuristic", "--max-steps", "30",
         "--shape-stars", "1.0", "--plot", str(tmp_path / "curve.png"), "--json", str(tmp_path / "out.json")]
    )  # fmt: skip
    imitation = out["imitation"]
    assert imitation["games"] == 2 and imitation["heads"] > 30 and len(imitation["curve"]) == 2
    assert 0.0 <= imitation["curve"][-1]["held_out_agreement"] <= 1.0
    (row,) = out["eval"]
    assert {"untrained", "cloned", "trained", "heuristic", "cloned_difference_ci95"} <= set(row)
    assert (tmp_path / "curve.png").stat().st_size > 0 and (tmp_path / "out.json").stat().st_size > 0


def test_the_heuristic_picks_are_legal_heads_and_name_its_action() -> None:
    """Walking the heuristic's head picks through the environment takes the heuristic's action."""
    module = _example()
    from ludica.bots.base import make_bot, situation
    from ludica.env import gym_env

    env = gym_env("euphoria", opponents="heuristic", players=2, max_steps=20)
    obs, info = env.reset(seed=5)
    for _ in range(10):
        bot = make_bot("heuristic", "euphoria", 1)
        expected = bot.decide(situation(env.driver.match, env.seat)).action
        before = len(env.driver.match.actions)
        act = module.heuristic_act("euphoria", 1)  # the same bot, in the same state: the same decision
        while True:
            pick = act(env, obs, info)
            assert info["action_mask"][pick]
            obs, _, terminated, truncated, info = env.step(pick)
            if terminated or truncated or info["asked"] == 0:
                break
        assert env.driver.match.actions[before].without_narration() == expected.without_narration()
        if terminated or truncated:
            break


def test_wilson_and_newcombe_intervals() -> None:
    module = _example()
    lo, hi = module.wilson(50, 100)
    assert lo == pytest.approx(0.404, abs=1e-3) and hi == pytest.approx(0.596, abs=1e-3)
    lo, hi = module.newcombe((60, 100), (20, 100))
    assert 0.26 < lo < 0.4 < hi < 0.52
