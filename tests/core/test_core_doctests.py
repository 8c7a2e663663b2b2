"""The runnable examples in the core's docstrings are tests too."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "ludica.core.errors",
    "ludica.core.actions",
    "ludica.core.chance",
    "ludica.core.mechanisms.seats",
    "ludica.core.mechanisms.purse",
    "ludica.core.mechanisms.dice",
    "ludica.core.mechanisms.cards",
    "ludica.core.mechanisms.sealed",
    "ludica.core.mechanisms.proposals",
    "ludica.core.mechanisms.referee",
    "ludica.core.redeal",
    "ludica.core.composer",
    "ludica.core.names",
    "ludica.core.summary",
    "ludica.core.values",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
