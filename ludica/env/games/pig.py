"""The example game Pig's action catalogue (used by the core's own tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.game import Config, Game
from ..encoding import Shape, shape

MAX_STEPS = 2_000
"""The environments' cap on one game: decisions (PettingZoo, Gymnasium) or moves with chance
included (OpenSpiel's ``max_steps``, its ``max_game_length``); random play ends well within
it; a longer game is truncated."""


def shapes(game: Game[Any], config: Config, seats: Sequence[str]) -> list[Shape]:
    return [shape("wager", amount=(1, 2, 3)), shape("roll"), shape("title", text=None), shape("hold")]


def max_chance_outcomes(config: Config) -> int:
    return 6
