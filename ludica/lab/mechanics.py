"""A game's declared mechanics (its stats plugin's ``MECHANICS`` and ``OPTION_MECHANICS``) and how
one decision counts them; :mod:`ludica.lab.coverage` reads the counts of a batch."""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..core.actions import Action
from ..core.registry import EXAMPLES, GAME_MODULES

Pattern = tuple[str, tuple[tuple[str, str], ...]]
"""An action type and the parameter values (as text) an action of it must have."""


def parse(pattern: str) -> Pattern:
    """``"flip source=free_scarab"`` -> ``("flip", (("source", "free_scarab"),))``."""
    kind, *pairs = pattern.split()
    return kind, tuple((k, v) for k, _, v in (pair.partition("=") for pair in pairs))


@dataclass(frozen=True, slots=True)
class Mechanics:
    """A game's declared mechanics and the options that touch them."""

    patterns: dict[str, tuple[Pattern, ...]]
    options: dict[str, tuple[str, ...]]

    def count(self, legal: Sequence[Action], types: Iterable[str], offered: Counter[str]) -> None:
        """Add to ``offered`` the mechanics legal at one decision (``types``: its legal types)."""
        present = set(types)
        for name, patterns in self.patterns.items():
            for kind, params in patterns:
                if kind in present and (not params or any(_matches(a, kind, params) for a in legal)):
                    offered[name] += 1
                    break

    def taken(self, action: Action) -> list[str]:
        """The mechanics ``action`` realises."""
        return [
            name
            for name, patterns in self.patterns.items()
            if any(action.type == kind and _matches(action, kind, params) for kind, params in patterns)
        ]


def _matches(action: Action, kind: str, params: tuple[tuple[str, str], ...]) -> bool:
    if action.type != kind or not isinstance(action.args, dict):
        return False
    return all(str(action.args.get(k)) == v for k, v in params)


_cache: dict[str, Mechanics] = {}


def mechanics_of(game_id: str) -> Mechanics:
    """The mechanics a game declares in its stats plugin (none when it declares none)."""
    if game_id not in _cache:
        package = GAME_MODULES.get(game_id) or EXAMPLES.get(game_id, "")
        try:
            stats = importlib.import_module(f"{package}.stats")
        except ImportError:
            stats = None
        declared: dict[str, tuple[str, ...]] = getattr(stats, "MECHANICS", {})
        _cache[game_id] = Mechanics(
            {name: tuple(parse(p) for p in patterns) for name, patterns in declared.items()},
            dict(getattr(stats, "OPTION_MECHANICS", {})),
        )
    return _cache[game_id]
