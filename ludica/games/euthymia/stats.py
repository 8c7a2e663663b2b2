"""Figures for designers (``ludica simulate euthymia``).

Per game: deaths, Ideal Citizens, Conflicts by launch type, how often the Committee Member
launched, and the mean Strength of each Aspect at the end of every hour 2–10. Over many games the
report prints the four Strength trajectories, so the rulebook's claim **[On the Strength of
Aspects]** — "the Strengths of most Aspects will be driven towards zero" — can be read off.
"""

from __future__ import annotations

from statistics import mean
from typing import Any

from ...core.summary import aggregate
from .state import ASPECTS, COMMITTEE, GAME_OVER, TEMPTED, WANT, EuthymiaState

HOURS = range(2, 11)


def summarize(state: EuthymiaState, steps: int) -> dict[str, Any]:
    stats = state.stats
    conflicts = stats["conflicts"]
    out: dict[str, Any] = {
        "steps": steps,
        "end_reason": end_reason(state) or "unfinished",
        "deaths": stats["deaths"],
        "ideal_citizens": stats["ideal_citizens"],
        "conflicts": conflicts,
        "cm_launches": stats["cm_launches"],
        "cm_launch_share": stats["cm_launches"] / conflicts if conflicts else 0.0,
        "final_hour_cm_launch_share": (
            stats["final_hour_cm_launches"] / stats["final_hour_conflicts"] if stats["final_hour_conflicts"] else 0.0
        ),
        "want_launches": stats["launches"][WANT],
        "tempted_launches": stats["launches"][TEMPTED],
        "committee_launches": stats["launches"][COMMITTEE],
        "active_player_win_share": stats["wins"] / conflicts if conflicts else 0.0,
        "cm_changes": stats["cm_changes"],
    }
    final = [s for _, sheets in stats["strengths_by_hour"][-1:] for s in sheets]
    values = [v for sheet in final for v in sheet]
    out["aspects_at_zero_share"] = sum(1 for v in values if v == 0) / len(values) if values else 0.0
    by_hour = {hour: sheets for hour, sheets in stats["strengths_by_hour"]}
    for i, aspect in enumerate(ASPECTS):
        out[f"{aspect.lower()}_by_hour"] = [
            round(mean(sheet[i] for sheet in by_hour[h]), 3) if by_hour.get(h) else None for h in HOURS
        ]
    return out


def report(summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    scalars = [{k: v for k, v in s.items() if not k.endswith("_by_hour")} for s in summaries]
    lines = aggregate(scalars)
    lines.append(("Strength at the end of hour", " ".join(f"{h:>4}" for h in HOURS)))
    for aspect in ASPECTS:
        key = f"{aspect.lower()}_by_hour"
        cells = []
        for i, _ in enumerate(HOURS):
            values = [s[key][i] for s in summaries if key in s and s[key][i] is not None]
            cells.append(f"{mean(values):4.1f}" if values else "   -")
        lines.append((f"  {aspect} (mean)", " ".join(cells)))
    return lines


# -- for the lab: how a game ended, and its figures hour by hour -------------------------------
END_REASONS = ("final_hour",)
"""[The final hour]: the game ends once every player has told the end of the story; no other end."""
COUNTER_BOUNDS = tuple((f"{aspect} Strength (mean)", 0, None) for aspect in ASPECTS)


def end_reason(state: EuthymiaState) -> str:
    return "final_hour" if state.phase == GAME_OVER else ""


def clock(state: EuthymiaState) -> int:
    """The hour (1 to 10)."""
    return state.hour


def sample(state: EuthymiaState) -> dict[str, float]:
    """The mean Strength of each Aspect over the living characters with a sheet, glasses, deaths."""
    sheets = [c.strength for c in state.characters.values() if c is not None and c.strength is not None]
    out: dict[str, float] = {}
    if sheets:
        for i, aspect in enumerate(ASPECTS):
            out[f"{aspect} Strength (mean)"] = sum(sheet[i] for sheet in sheets) / len(sheets)
    out["glass (mean)"] = sum(state.glass.values()) / len(state.players) if state.glass else 0.0
    out["deaths so far"] = state.stats["deaths"]
    return out


# -- for the lab's coverage: the mechanics a designer names, by the actions that realise them -----
MECHANICS: dict[str, tuple[str, ...]] = {
    "pour": ("pour",),
    "more cards declared": ("declare_more_cards",),
    "final round triggered": ("trigger_final_round",),
    "Committee Member change proposed": ("propose_cm_change",),
    "conflict launched": ("launch_conflict",),
    "drink": ("drink",),
}
"""Each mechanic -> the actions that realise it (an action type, or a type with parameter values)."""
OPTION_MECHANICS: dict[str, tuple[str, ...]] = {
    "TIE_BREAK_POURS": ("pour",),
    "CM_PROPOSALS_PER_HOUR": ("Committee Member change proposed",),
    "HR_FORCED_LAUNCH": ("conflict launched",),
    "FINAL_ROUND_AT_S": ("final round triggered",),
}
"""Each option or house rule -> the mechanics it touches (the lab warns when none came into play)."""
