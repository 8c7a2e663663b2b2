"""The numpy learning baseline in examples/ runs (a few episodes)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

from ludica.env import gym_env

SCRIPT = Path(__file__).parents[2] / "examples" / "train_numpy.py"


def test_the_training_example_runs_tiny(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_numpy", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.main(
        ["great-city", "--episodes", "2", "--eval", "1", "--block", "1", "--max-steps", "80",
         "--opponents", "random", "--plot", str(tmp_path / "curve.png")]
    )  # fmt: skip
    assert out["episodes"] == 2 and len(out["curve"]) == 2
    assert [e["opponents"] for e in out["eval"]] == ["random", "heuristic"]
    assert (tmp_path / "curve.png").stat().st_size > 0


def test_a_game_cut_at_the_cap_can_return_who_stands_first() -> None:
    spec = importlib.util.spec_from_file_location("train_numpy", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.main(
        ["lost-days", "--episodes", "2", "--eval", "1", "--block", "1", "--max-steps", "30",
         "--opponents", "random", "--at-cap", "standing"]
    )  # fmt: skip
    assert all(c in (-1.0, 1.0) for c in out["curve"]), "every game is cut at 30 decisions: +1 or -1"
    assert all(e["cut_at_cap"] == 1 for e in out["eval"])


def _module() -> Any:
    spec = importlib.util.spec_from_file_location("train_numpy", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_game_cut_at_the_cap_is_a_loss_by_default_and_never_an_evaluation_win() -> None:
    out = _module().main(
        ["lost-days", "--episodes", "2", "--eval", "1", "--block", "1", "--max-steps", "30", "--opponents", "random"]
    )
    assert out["at_cap"] == "loss" and out["curve"] == [-1.0, -1.0] and out["cut_curve"] == [1.0, 1.0]
    assert all(e["cut_at_cap"] == 1 and e["wins"] == 0 for e in out["eval"])


def test_the_learner_proposes_at_most_max_proposals_trades_unless_nothing_else_is_legal() -> None:
    """A bystander with nothing to sell may only propose (the driver asks every pending seat in
    turn), so the bound bars proposals only where another action type is legal."""
    module = _module()
    mask = np.array([1, 1, 0, 1], dtype=np.int8)
    assert module.bar(mask, frozenset({1, 3})).tolist() == [1, 0, 0, 0]
    assert module.bar(np.array([0, 1, 0, 0], dtype=np.int8), frozenset({1})).tolist() == [0, 1, 0, 0]
    env = gym_env("lost-days", opponents="random", action="factored", players=3, max_steps=400)
    offers = module.proposal_types(env)
    assert [env.driver.catalogue.shapes[i].type for i in offers] == ["propose_trade"]
    policy = module.Policy(env.observation_space.shape[0], env.driver.catalogue.heads, np.random.default_rng(0))
    free: list[bool] = []  # per proposal: was another type legal?
    act = policy.act

    def counting(env_: Any, obs: np.ndarray, explore: bool = True, barred: frozenset[int] = frozenset()) -> Any:
        others = set(np.flatnonzero(env_.head_mask([]))) - offers
        picks, grads = act(env_, obs, explore, barred)
        if picks[0] in offers:
            free.append(bool(others))
        return picks, grads

    policy.act = counting  # type: ignore[method-assign]
    for seed in range(3):
        free.clear()
        module.episode(env, policy, seed, max_proposals=2)
        assert sum(free) <= 2, "beyond the bound, a proposal only where nothing else is legal"
        assert len(free) > 2, "the random seeds make the learner propose past the bound (forced)"


def test_eval_sampled_also_evaluates_the_policy_as_it_trains() -> None:
    """Where an untrained policy's greedy choice is already strong (Euphoria: the first legal type and
    value beats random), the sampled policy is what shows learning; both are evaluated on request."""
    out = _module().main(
        ["great-city", "--episodes", "1", "--eval", "1", "--block", "1", "--max-steps", "60",
         "--opponents", "random", "--eval-sampled"]
    )  # fmt: skip
    kinds = [(e["opponents"], e["policy"]) for e in out["eval"]]
    assert kinds == [("random", "greedy"), ("random", "sampled"), ("heuristic", "greedy"), ("heuristic", "sampled")]


def test_the_lost_days_turns_example_runs_and_subclasses_the_driver() -> None:
    """``python examples/lost_days_turns.py`` (docs/env.md) subclasses the driver, which is compiled
    in the compiled build: both drivers play a short game."""
    script = SCRIPT.parent / "lost_days_turns.py"
    args = ["--games", "1", "--players", "3", "--bot", "random", "--cap", "120"]
    out = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "counting every action (before)" in out.stdout and "as shipped" in out.stdout
