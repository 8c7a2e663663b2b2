"""The registry of games by id.

Every game lives in ``ludica.games.<package>`` and exposes ``GAME`` (an instance of
:class:`ludica.core.game.Game`). The registry imports a game only when asked for it.
"""

from __future__ import annotations

import importlib
from typing import Any

from .errors import UnknownGame
from .game import Game

GAME_MODULES: dict[str, str] = {
    "great-city": "ludica.games.great_city",
    "euthymia": "ludica.games.euthymia",
    "misery-bubblegum": "ludica.games.misery_bubblegum",
    "lost-days": "ludica.games.lost_days",
    "euphoria": "ludica.games.euphoria",
}

EXAMPLES: dict[str, str] = {
    "pig": "ludica.games._example",
}
"""Small example games used by the core's own tests; reachable by id but not listed."""

_cache: dict[str, Game[Any]] = {}


def get_game(game_id: str) -> Game[Any]:
    """The game registered under ``game_id``; :class:`UnknownGame` with the known ids otherwise."""
    if game_id in _cache:
        return _cache[game_id]
    module_name = GAME_MODULES.get(game_id) or EXAMPLES.get(game_id)
    if module_name is None:
        known = ", ".join(GAME_MODULES)
        raise UnknownGame(f"no game {game_id!r}; the games are: {known}", rule="registry")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise UnknownGame(f"{game_id!r} is not available in this version of Ludica", rule="registry") from None
        raise
    game: Game[Any] = module.GAME
    _cache[game_id] = game
    return game


def available() -> list[str]:
    """Ids of the games that are installed, in registry order."""
    out = []
    for game_id in GAME_MODULES:
        try:
            get_game(game_id)
        except UnknownGame:
            continue
        out.append(game_id)
    return out
