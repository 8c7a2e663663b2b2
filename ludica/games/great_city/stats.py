"""Figures for designers: ``ludica simulate great-city`` (summarize one game, report many)."""

from __future__ import annotations

from statistics import mean
from typing import Any

from ...core.summary import describe, distribution
from .state import GreatCityState


def summarize(state: GreatCityState, steps: int) -> dict[str, Any]:
    """One finished game: its length, the peril-pool timeline, the city's fate and the purses."""
    players = state.seats[:-1]
    purses = [state.purse[s] for s in players]
    eg = state.endgame or {}
    return {
        "steps": steps,
        "players": len(players),
        "scenes": len(state.history),
        "pool_timeline": list(state.pool_timeline),
        "rounds_per_scene": [h["rounds"] for h in state.history],
        "flips_per_scene": [h["flips"] for h in state.history],
        "city_survives": bool(eg.get("survives", False)),
        "yea": state.yea,
        "nay": state.nay,
        "final_purses": purses,
        "fattest_purse": max(purses) if purses else 0,
        "gm_purse": state.purse["gm"],
        "characters": len(state.characters),
        "winner": (eg and state.ranking and state.ranking[0][0]) or "none",
        "end_reason": end_reason(state) or "unfinished",
    }


def report(summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Scenes per game, the peril pool averaged by scene index, Yea/Nay outcomes, purses at the end."""
    if not summaries:
        return [("games", "0")]
    lines: list[tuple[str, str]] = [("games", str(len(summaries)))]
    lines.append(("steps per game", describe([s["steps"] for s in summaries])))
    lines.append(("scenes per game", describe([s["scenes"] for s in summaries])))
    by_players: dict[int, list[int]] = {}
    for s in summaries:
        by_players.setdefault(s["players"], []).append(s["scenes"])
    for n in sorted(by_players):
        lines.append((f"scenes per game, {n} players", describe(by_players[n])))
    longest = max(len(s["pool_timeline"]) for s in summaries)
    cells = []
    for i in range(longest):
        values = [s["pool_timeline"][i] for s in summaries if len(s["pool_timeline"]) > i]
        cells.append(f"{i + 1}: {mean(values):.1f} (n={len(values)})")
    lines.append(("peril pool at scene start, by scene", " · ".join(cells)))
    lines.append(("rounds per scene", describe([r for s in summaries for r in s["rounds_per_scene"]])))
    lines.append(("flips per scene", describe([r for s in summaries for r in s["flips_per_scene"]])))
    survives = sum(1 for s in summaries if s["city_survives"])
    lines.append(("city survives (Yea > Nay)", f"{100 * survives / len(summaries):.1f}%"))
    lines.append(("Yea at the end", describe([s["yea"] for s in summaries])))
    lines.append(("Nay at the end", describe([s["nay"] for s in summaries])))
    lines.append(("player purses at the end", describe([p for s in summaries for p in s["final_purses"]])))
    lines.append(("fattest purse at the end", describe([s["fattest_purse"] for s in summaries])))
    lines.append(("GM purse at the end", describe([s["gm_purse"] for s in summaries])))
    lines.append(("fattest purse by seat", distribution(s["winner"] for s in summaries)))
    lines.append(("characters per game", describe([s["characters"] for s in summaries])))
    return lines


# -- for the lab: how a game ended, and its figures scene by scene ----------------------------
END_REASONS = ("city_survives", "city_succumbs")
"""[End Game]: the Mounting Peril is empty; the city survives when Yea outnumbers Nay."""
COUNTER_BOUNDS = (("player purse (mean)", 0, None),)
"""(The peril pool runs dry by design: that is the end.)"""


def end_reason(state: GreatCityState) -> str:
    if state.phase != "over":
        return ""
    return "city_survives" if state.yea > state.nay else "city_succumbs"


def clock(state: GreatCityState) -> int:
    """The scene (0 before the first scene ends)."""
    return state.scene_index


def sample(state: GreatCityState) -> dict[str, float]:
    players = state.seats[:-1]
    return {
        "Yea": state.yea,
        "Nay": state.nay,
        "peril pool": state.pool,
        "player purse (mean)": sum(state.purse[s] for s in players) / len(players),
        "GM purse": state.purse["gm"],
    }


# -- for the lab's coverage: the mechanics a designer names, by the actions that realise them -----
MECHANICS: dict[str, tuple[str, ...]] = {
    "flip with scarabs": ("flip source=free_scarab", "flip source=vested_scarab"),
    "flip with a trait": ("flip source=trait",),
    "flip with a tie": ("flip source=tie",),
    "city stone": ("flip_city_stone", "vest_city_stone"),
    "gift of scarabs": ("give_scarabs",),
    "undo of a flip": ("undo_flip",),
    "tie bought": ("buy_tie",),
    "fate funded": ("fund_fate",),
    "judgment accepted": ("accept_judgment",),
}
"""Each mechanic -> the actions that realise it (an action type, or a type with parameter values)."""
OPTION_MECHANICS: dict[str, tuple[str, ...]] = {
    "undo_random_flip": ("undo of a flip",),
    "hr_trait_cap_3": ("flip with a trait",),
    "gm_may_accept": ("judgment accepted",),
    "reflip_model": ("flip with scarabs", "flip with a trait", "flip with a tie"),
    "fate_contributions": ("fate funded",),
    "ante_increment_source": ("flip with scarabs",),
}
"""Each option or house rule -> the mechanics it touches (the lab warns when none came into play)."""
