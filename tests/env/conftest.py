"""The environment tests need the optional 'env' extra; without it they are not collected, and
``test_env_extra.py`` reports one skip saying what is missing."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from typing import Any

EXTRA = ("numpy", "gymnasium", "pettingzoo", "pyspiel")


def _missing() -> list[str]:
    out = []
    for module in EXTRA:
        try:
            importlib.import_module(module)
        except ImportError:
            out.append(module)
    return out


MISSING = _missing()
if MISSING:
    collect_ignore_glob = ["test_env_[!e]*.py", "test_env_e[!x]*.py"]

GAMES = ["great-city", "euthymia", "misery-bubblegum", "lost-days", "euphoria"]


def walk(driver: Any, steps: int, seed: int) -> Iterator[None]:
    """Yield, then play one decision (an index by action type, :meth:`Catalogue.sample_by_type`),
    at most ``steps`` times, stopping when the game ends: the caller looks at every position."""
    rng = random.Random(seed)
    for _ in range(steps):
        yield
        if driver.over:
            return
        seat = driver.current()
        assert seat is not None
        driver.act(seat, driver.catalogue.sample_by_type(driver.legal(seat).indices, rng))
