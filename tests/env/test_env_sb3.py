"""The Stable-Baselines3 example (examples/train_sb3.py) trains and evaluates for a few steps.

It needs the ``learn`` extra (torch, stable-baselines3, sb3-contrib): without it this test skips."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="the 'learn' extra is not installed (torch)")
pytest.importorskip("sb3_contrib", reason="the 'learn' extra is not installed (sb3-contrib)")

SCRIPT = Path(__file__).parents[2] / "examples" / "train_sb3.py"


@pytest.mark.parametrize("game_id", ["great-city", "euphoria"])
def test_maskable_ppo_trains_on_the_action_heads_for_a_few_steps(game_id: str, tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_sb3", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.main(
        [game_id, "--steps", "64", "--n-steps", "32", "--eval", "1", "--block", "1", "--max-steps", "40",
         "--opponents", "random", "--plot", str(tmp_path / "curve.png"), "--json", str(tmp_path / "out.json")]
    )  # fmt: skip
    assert out["steps"] >= 64
    assert [row["opponents"] for row in out["eval"]] == ["random", "heuristic"]
    assert (tmp_path / "curve.png").stat().st_size > 0 and (tmp_path / "out.json").stat().st_size > 0


def test_wilson_and_newcombe_intervals() -> None:
    spec = importlib.util.spec_from_file_location("train_sb3", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    lo, hi = module.wilson(50, 100)
    assert lo == pytest.approx(0.404, abs=1e-3) and hi == pytest.approx(0.596, abs=1e-3)
    lo, hi = module.newcombe((60, 100), (20, 100))
    assert 0.26 < lo < 0.4 < hi < 0.52
