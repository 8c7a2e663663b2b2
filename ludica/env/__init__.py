"""Ludica's games as standard environments: PettingZoo (AEC), Gymnasium and OpenSpiel.

An optional extra: ``pip install ludica[env]``. Nothing in core or the games imports this package.

* :func:`aec_env` — a PettingZoo AEC environment, every seat an agent;
* :func:`gym_env` — a Gymnasium environment, one seat learns against Ludica bots;
* :func:`register_openspiel` — each game as a pyspiel Python game (``pyspiel.load_game("ludica_euphoria")``);
* :mod:`ludica.env.vector` — many environments stepped in worker processes.

The encodings (action catalogue, observation vector, rewards) are in :mod:`ludica.env.encoding`
and documented in ``docs/env.md``.
"""

from __future__ import annotations

from typing import Any

_EXTRA = "the environments need the 'env' extra: pip install 'ludica[env]'"


def _need(module: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise ImportError(f"{_EXTRA} ({module} is missing)")


def aec_env(game: str, players: int | None = None, seed: int | str = 0, options: Any = None, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment of ``game`` (see :mod:`ludica.env.aec`)."""
    _need("pettingzoo")
    from .aec import aec_env as make

    return make(game, players, seed, options, **kwargs)


def gym_env(game: str, seat: str = "p1", opponents: Any = "heuristic", **kwargs: Any) -> Any:
    """A Gymnasium environment of ``game``: ``seat`` learns, Ludica bots play the rest."""
    _need("gymnasium")
    from .gym import gym_env as make

    return make(game, seat, opponents, **kwargs)


def register_openspiel() -> list[str]:
    """Register every game with OpenSpiel; returns the short names (``"ludica_euphoria"``...)."""
    _need("pyspiel")
    from .spiel import register

    return register()


__all__ = ["aec_env", "gym_env", "register_openspiel"]
