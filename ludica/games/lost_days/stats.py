"""Figures for designers (``ludica simulate lost-days``): game length in scenes, when each elf goes
mad, how value concentrates in memories, how often the crown changes hands."""

from __future__ import annotations

from typing import Any

from ...core.summary import describe
from .state import GAME_OVER, LostDaysState


def gini(values: list[int]) -> float:
    """0 when every memory is worth the same, towards 1 when one memory holds all the value."""
    xs = sorted(values)
    total = sum(xs)
    if not xs or not total:
        return 0.0
    weighted = sum((i + 1) * x for i, x in enumerate(xs))
    return (2 * weighted) / (len(xs) * total) - (len(xs) + 1) / len(xs)


def summarize(state: LostDaysState, steps: int) -> dict[str, Any]:
    values = [state.value(m.id) for m in state.memories.values() if m.place != "set_aside"]
    total = sum(values)
    madness_scenes = sorted(e.mad_at_scene for e in state.elves.values() if e.mad)
    return {
        "steps": steps,
        "end_reason": end_reason(state) or "unfinished",
        "players": len(state.seats),
        "scenes": state.scenes_played,
        "conflicts": state.conflicts_fought,
        "madness_scenes": madness_scenes,
        "first_madness_scene": madness_scenes[0] if madness_scenes else -1,
        "survivor": state.survivor is not None,
        "crown_changes": state.crown_changes,
        "top_memory_value": max(values, default=0),
        "top_memory_share": round(max(values, default=0) / total, 3) if total else 0.0,
        "memory_value_gini": round(gini(values), 3),
        "memories": len(state.memories),
    }


def report(summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    def pick(key: str) -> list[float]:
        return [s[key] for s in summaries if key in s]

    pooled = [x for s in summaries for x in s.get("madness_scenes", [])]
    survivors = sum(1 for s in summaries if s.get("survivor"))
    n = len(summaries) or 1
    return [
        ("games", str(len(summaries))),
        ("game length (scenes)", describe(pick("scenes"))),
        ("game length (steps)", describe(pick("steps"))),
        ("conflicts per game", describe(pick("conflicts"))),
        ("scene when an elf goes mad", describe(pooled)),
        ("scene of the first madness", describe([x for x in pick("first_madness_scene") if x >= 0])),
        ("games ending with a last elf standing", f"{100 * survivors / n:.1f}%"),
        ("crown changes per game", describe(pick("crown_changes"))),
        ("most valuable memory at the end", describe(pick("top_memory_value"))),
        ("its share of all coins on memories", describe(pick("top_memory_share"))),
        ("Gini of memory values", describe(pick("memory_value_gini"))),
    ]


# -- for the lab: how a game ended, and its figures scene by scene ----------------------------
END_REASONS = ("last_elf_standing", "no_survivor", "scene_limit")
"""[Ending; LD-R38]: one sane elf left (the epilogue), or none; ``scene_limit`` is the bound for
elves who never go mad (an option), not an end the rulebook gives."""
BOUND_REASONS = ("scene_limit",)
COUNTER_BOUNDS = (("purse (mean)", 0, None), ("sane elves", 0, None))


def end_reason(state: LostDaysState) -> str:
    if state.phase != GAME_OVER:
        return ""
    if state.survivor is not None:
        return "last_elf_standing"
    return "no_survivor" if not state.sane() else "scene_limit"


def clock(state: LostDaysState) -> int:
    """Scenes played."""
    return state.scenes_played


def sample(state: LostDaysState) -> dict[str, float]:
    """Madness and coins, as the mean over the elves, and how many are still sane."""
    n = len(state.seats)
    return {
        "madness coins (mean)": sum(state.madness(s) for s in state.seats) / n,
        "purse (mean)": sum(state.purse(s) for s in state.seats) / n,
        "coins on own memories (mean)": sum(state.memory_coins(s) for s in state.seats) / n,
        "sane elves": len(state.sane()),
    }


# -- for the lab's coverage: the mechanics a designer names, by the actions that realise them -----
MECHANICS: dict[str, tuple[str, ...]] = {
    "memory sold": ("sell_memory",),
    "trade accepted": ("accept_trade",),
    "reroll influence": ("influence effect=reroll",),
    "extra die influence": ("influence effect=extra_die",),
    "bid raised": ("raise_bid",),
    "memory vetoed": ("veto_memory",),
    "tribute paid with a memory": ("pay_tribute_memory",),
    "conflict withdrawn": ("withdraw_conflict",),
}
"""Each mechanic -> the actions that realise it (an action type, or a type with parameter values)."""
OPTION_MECHANICS: dict[str, tuple[str, ...]] = {
    "market_minimum": ("memory sold",),
    "opposition_dice_min": ("reroll influence", "extra die influence"),
    "tie_rule": ("reroll influence",),
}
"""Each option or house rule -> the mechanics it touches (the lab warns when none came into play)."""
