"""Figures for designers of the draft: Misery accumulation, Traits over time, who holds whose dice."""

from __future__ import annotations

from statistics import mean
from typing import Any

from ...core.summary import describe
from .state import ATTRIBUTES, MiseryState


def summarize(state: MiseryState, steps: int) -> dict[str, Any]:
    chars = state.characters
    held_by_others = {p: sum(c.influence.get(p, 0) for c in chars.values()) for p in state.players}
    return {
        "steps": steps,
        "end_reason": end_reason(state) or "unfinished",
        "actions": state.attempts_done,
        "misery_total": sum(c.misery for c in chars.values()),
        "misery_per_player": [c.misery for c in chars.values()],
        "traits": len(state.traits),
        "trait_values": [t.value for t in state.traits.values()],
        "provisional_traits_left": len(state.provisionals),
        "resources": len(state.resources),
        "dice_held_by_others": [held_by_others[p] for p in state.players],
        "influence": [f"{h}>{p}:{n}" for h, c in chars.items() for p, n in c.influence.items() if n],
        "misery_by_action": [h[0] for h in state.history],
        "traits_by_action": [h[1] for h in state.history],
        "trait_value_by_action": [h[2] for h in state.history],
        "influence_by_action": [h[3] for h in state.history],
    }


def _curve(summaries: list[dict[str, Any]], key: str, marks: tuple[int, ...] = (1, 5, 10, 20, 40, 60)) -> str:
    """The mean of a per-action series at a few action numbers."""
    parts = []
    for mark in marks:
        values = [s[key][mark - 1] for s in summaries if len(s.get(key, [])) >= mark]
        if values:
            parts.append(f"after {mark}: {mean(values):.1f}")
    return " · ".join(parts) or "no data"


def report(summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    def pooled(key: str) -> list[float]:
        return [x for s in summaries for x in s.get(key, [])]

    held: dict[str, int] = {}
    for s in summaries:
        for item in s.get("influence", []):
            pair, _, n = item.rpartition(":")
            held[pair] = held.get(pair, 0) + int(n)
    top = sorted(held.items(), key=lambda kv: -kv[1])[:8]
    return [
        ("games", str(len(summaries))),
        ("steps", describe([s["steps"] for s in summaries])),
        ("actions per session", describe([s["actions"] for s in summaries])),
        ("Misery at the end (table)", describe([s["misery_total"] for s in summaries])),
        ("Misery at the end (per player)", describe(pooled("misery_per_player"))),
        ("Misery over time (table)", _curve(summaries, "misery_by_action")),
        ("Traits at the end", describe([s["traits"] for s in summaries])),
        ("Trait values at the end", describe(pooled("trait_values"))),
        ("Traits over time", _curve(summaries, "traits_by_action")),
        ("Trait value total over time", _curve(summaries, "trait_value_by_action")),
        ("dice of a player held by others", describe(pooled("dice_held_by_others"))),
        ("influence dice held over time", _curve(summaries, "influence_by_action")),
        ("who holds whose dice (holder>colour: total)", " · ".join(f"{k}: {v}" for k, v in top) or "nobody"),
    ]


# -- for the lab: how a session ended, and its figures action by action ------------------------
END_REASONS = ("consent", "session_actions")
"""MB-R45: the session ends when every player consents; ``session_actions`` is the option that
ends it after a number of actions."""
COUNTER_BOUNDS = (*((f"{a} pool (mean)", 0, None) for a in ATTRIBUTES), ("spare dice (mean)", 0, None))


def end_reason(state: MiseryState) -> str:
    if not state.over:
        return ""
    if state.end_vote is not None and state.end_vote.status == "accepted":
        return "consent"
    return "session_actions"


def clock(state: MiseryState) -> int:
    """Actions finished."""
    return state.attempts_done


def sample(state: MiseryState) -> dict[str, float]:
    """Misery, Traits and the pools, as the mean over the characters."""
    chars = list(state.characters.values())
    n = len(chars) or 1
    out: dict[str, float] = {
        "Misery (mean)": sum(c.misery for c in chars) / n,
        "Traits (mean)": len(state.traits) / n,
        "Trait value (mean)": sum(t.value for t in state.traits.values()) / n,
    }
    for a in ATTRIBUTES:
        out[f"{a} pool (mean)"] = sum(c.pool[a] for c in chars) / n
    out["spare dice (mean)"] = sum(c.spare for c in chars) / n
    out["dice held by others (mean)"] = sum(sum(c.influence.values()) for c in chars) / n
    return out


# -- for the lab's coverage: the mechanics a designer names, by the actions that realise them -----
MECHANICS: dict[str, tuple[str, ...]] = {
    "Trait reroll": ("use_trait",),
    "promise fulfilled": ("fulfil_promise",),
    "blocking die removed": ("remove_blocking_die",),
    "Trait offered": ("offer_trait",),
    "desire addressed": ("address_desire",),
    "Misery spent": ("spend_misery",),
    "Trait increased": ("increase_trait",),
    "resource activated": ("activate_resource",),
    "resource deactivated": ("deactivate_resource",),
    "resource raised": ("increase_resource",),
    "Desire denied": ("deny_desire",),
}
"""Each mechanic -> the actions that realise it (an action type, or a type with parameter values)."""
OPTION_MECHANICS: dict[str, tuple[str, ...]] = {
    "max_traits": ("Trait offered", "Trait increased"),
    "trait_reroll_scope": ("Trait reroll",),
}
"""Each option or house rule -> the mechanics it touches (the lab warns when none came into play)."""
