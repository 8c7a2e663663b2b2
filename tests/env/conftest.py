"""The environment tests need the optional 'env' extra; without it they are not collected, and
``test_env_extra.py`` reports one skip saying what is missing."""

from __future__ import annotations

import importlib

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
