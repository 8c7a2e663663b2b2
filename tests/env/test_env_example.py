"""The numpy learning baseline in examples/ runs (a few episodes)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

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
