"""Batch simulation: many random legal games, one summary per game, a progress bar.

Game *i* of a batch is played with config seed ``seed + i`` and a bot generator seeded the same
way, so any single game of a batch can be replayed alone. ``jobs > 1`` spreads the games over
processes of the standard library's pool.
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..bots.random_bot import play_random
from ..core.game import Config
from ..core.match import Match
from ..core.registry import get_game


def play_one(game_id: str, config: Config, index: int) -> dict[str, Any]:
    """Play game ``index`` of a batch to the end and return its summary."""
    game = get_game(game_id)
    seed = (config.seed or 0) + index
    match: Match[Any] = Match(game, replace(config, seed=seed))
    steps = play_random(match, random.Random(seed), check=False)
    summary = game.summarize(match.state, steps)
    summary.setdefault("steps", steps)
    return summary


def _play_chunk(game_id: str, config: Config, indices: list[int]) -> list[dict[str, Any]]:
    return [play_one(game_id, config, i) for i in indices]


def simulate(
    game_id: str, config: Config, *, games: int, seed: int = 0, jobs: int = 1, console: Console | None = None
) -> list[dict[str, Any]]:
    """Summaries of ``games`` random games, in order, with a progress bar on ``console``."""
    config = replace(config, seed=seed)
    get_game(game_id).validate_config(config)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True, disable=console is None) as progress:
        task = progress.add_task(f"simulating {game_id}", total=games)
        if jobs <= 1:
            out = []
            for i in range(games):
                out.append(play_one(game_id, config, i))
                progress.advance(task)
            return out
        chunks = [list(range(i, min(i + 25, games))) for i in range(0, games, 25)]
        results: dict[int, list[dict[str, Any]]] = {}
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(_play_chunk, game_id, config, c): k for k, c in enumerate(chunks)}
            for future, k in futures.items():
                results[k] = future.result()
                progress.advance(task, len(chunks[k]))
        return [s for k in range(len(chunks)) for s in results[k]]
