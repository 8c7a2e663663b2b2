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
