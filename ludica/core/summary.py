"""Figures over many games' summaries: what ``ludica simulate`` prints for every game
(:meth:`Game.report <ludica.core.game.Game.report>`), and what each game's own report builds on.

In the core so that games use them without importing the lab (dependencies flow one way);
:mod:`ludica.lab.stats` gives the same functions to the lab.

>>> describe([1, 2, 3, 10])
'mean 4.00 · median 2.5 · min 1 · max 10'
>>> distribution(["a", "b", "a", "a"])
'a 75% · b 25%'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from statistics import mean, median
from typing import Any


def describe(values: Sequence[float]) -> str:
    """``mean 3.2 · median 3 · min 1 · max 9`` for a list of numbers."""
    if not values:
        return "no data"
    return f"mean {mean(values):.2f} · median {median(values):g} · min {min(values):g} · max {max(values):g}"


def distribution(values: Iterable[Any], *, top: int = 8) -> str:
    """``a 55% · b 40% · c 5%``: the share of each value, most common first."""
    counts = Counter(values)
    total = sum(counts.values()) or 1
    return " · ".join(f"{k} {100 * v / total:.0f}%" for k, v in counts.most_common(top))


def aggregate(summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Numbers → mean/median/min/max; text → shares; lists of numbers → pooled figures."""
    lines: list[tuple[str, str]] = [("games", str(len(summaries)))]
    keys: list[str] = []
    for s in summaries:
        keys.extend(k for k in s if k not in keys)
    for key in keys:
        values = [s[key] for s in summaries if key in s]
        if all(isinstance(v, bool) for v in values):
            lines.append((key, f"{100 * sum(values) / len(values):.1f}% true"))
        elif all(isinstance(v, int | float) for v in values):
            lines.append((key, describe(values)))
        elif all(isinstance(v, str) for v in values):
            lines.append((key, distribution(values)))
        elif all(isinstance(v, list) for v in values):
            pooled = [x for v in values for x in v]
            if all(isinstance(x, int | float) for x in pooled):
                lines.append((key, describe(pooled)))
            else:
                lines.append((key, distribution(map(str, pooled))))
    return lines
