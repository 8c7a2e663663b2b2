"""Whether the 'env' extra is installed (the other environment tests need it)."""

from __future__ import annotations

import pytest

from .conftest import MISSING


def test_the_env_extra_is_installed() -> None:
    if MISSING:
        pytest.skip(f"the 'env' extra is not installed ({', '.join(MISSING)} missing): pip install 'ludica[env]'")


def test_ludica_imports_without_touching_the_extra() -> None:
    import subprocess
    import sys

    code = (
        "import sys; import ludica.env, ludica.core, ludica.games.euphoria; "
        "print(sorted(m for m in ('pyspiel', 'pettingzoo', 'gymnasium') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_neither_core_nor_the_games_import_the_environments() -> None:
    from pathlib import Path

    root = Path(__file__).parents[2] / "ludica"
    for folder in ("core", "games", "bots", "lab"):
        for path in (root / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "ludica.env" not in text and "from ..env" not in text and "from ...env" not in text, path
