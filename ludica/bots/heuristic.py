"""The heuristic bot: plays toward what each game's rulebook tells a player to want.

The play itself lives with each game, as a plugin module ``<game package>.bot`` exposing::

    def decide(situation: Situation, rng: random.Random) -> Decision

so this module never imports a specific game (DESIGN.md principle 9): it finds the package through
the registry (:data:`ludica.core.registry.GAME_MODULES`, and :data:`EXAMPLES` for ``pig``). A game
without a plugin is played at random, and the first decision's narration says so.

The plugin sees only the situation (its seat's view and legal actions); what each game's heuristic
plays toward is written in ``docs/rules/<game>.md`` under "Heuristic bot".
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ..core.actions import fill
from ..core.registry import EXAMPLES, GAME_MODULES
from ..core.values import rebuilt
from .base import Decision, Situation, register_bot

Plugin = Callable[[Situation, random.Random], Decision]


def find_plugin(game_id: str) -> Plugin | None:
    """The game's ``decide`` function from ``<package>.bot``, or ``None`` when it has none."""
    package = GAME_MODULES.get(game_id) or EXAMPLES.get(game_id)
    if package is None:
        return None
    try:
        module: ModuleType = importlib.import_module(f"{package}.bot")
    except ModuleNotFoundError as exc:
        if exc.name == f"{package}.bot":
            return None
        raise
    decide = getattr(module, "decide", None)
    return decide if callable(decide) else None


def search_defaults(game_id: str) -> dict[str, str]:
    """The parameters a game's bot plugin sets for the ``ismcts`` bot's default level
    (``SEARCH_DEFAULTS`` in ``<package>.bot``, e.g. ``{"rivals": "policy"}``); a spec's own
    parameters override them."""
    package = GAME_MODULES.get(game_id) or EXAMPLES.get(game_id)
    if package is None or find_plugin(game_id) is None:
        return {}
    module = importlib.import_module(f"{package}.bot")
    return dict(getattr(module, "SEARCH_DEFAULTS", {}))


class HeuristicBot:
    """Plays by the game's heuristic plugin; random (with a note) for a game without one."""

    name = "heuristic"

    def __init__(self, game_id: str, seed: int = 0) -> None:
        self.game_id = game_id
        self.rng = random.Random(seed)
        self.plugin = find_plugin(game_id)
        self._noted = False

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.game_id)  # see ludica.core.values

    def decide(self, situation: Situation) -> Decision:
        if not situation.legal:
            raise RuntimeError(f"{self.game_id}: seat {situation.seat} has no legal action")
        if self.plugin is not None:
            return self.plugin(situation, self.rng)
        action = fill(self.rng.choice(situation.legal), self.rng)
        if self._noted:
            return Decision(action)
        self._noted = True
        return Decision(action, f"(no heuristic for {self.game_id}: this bot plays at random)")


register_bot("heuristic", lambda game_id, params, seed: HeuristicBot(game_id, seed))
