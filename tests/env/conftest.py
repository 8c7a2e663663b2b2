"""The environment tests need the optional 'env' extra; without it they are skipped."""

from __future__ import annotations

import pytest

for _module in ("numpy", "gymnasium", "pettingzoo", "pyspiel"):
    pytest.importorskip(_module, reason="the 'env' extra is not installed (pip install 'ludica[env]')")

GAMES = ["great-city", "euthymia", "misery-bubblegum", "lost-days", "euphoria"]
