"""Figures of finished games for ``ludica simulate``: game length in turns, how games end, the
markets built; and for the lab's own tables, the turn order (the opening roll's first player) and
each seat's starting recruit and its faction (``by_seat``: win rates ranked with intervals)."""

from __future__ import annotations

from typing import Any

from ...core.summary import describe, distribution
from .oracle import COMMODITIES, RECRUITS, RESOURCES
from .setup import first_player
from .state import EuphoriaState


def summary(st: EuphoriaState, steps: int) -> dict[str, Any]:
    winners = st.winners
    return {
        "steps": steps,
        "turns": st.turn_number,
        "players": len(st.seats),
        "winner_seat": ",".join(winners) or "none",
        "winner_recruit": ",".join(st.players[w].active[0] for w in winners) if winners else "none",
        "winner_faction": ",".join(RECRUITS[st.players[w].active[0]].faction for w in winners) if winners else "none",
        "starting_recruits": [st.players[s].active[0] for s in st.seats if st.players[s].active],
        "end": st.end_reason or "unfinished",
        "end_reason": end_reason(st) or "unfinished",
        "markets_built": len(st.built),
        "turn_order": turn_order(st),
        "by_seat": {
            "starting recruit": {s: st.players[s].active[0] for s in st.seats if st.players[s].active},
            "faction (starting recruit)": {
                s: RECRUITS[st.players[s].active[0]].faction for s in st.seats if st.players[s].active
            },
        },
    }


def turn_order(st: EuphoriaState) -> list[str]:
    """The seats in the order they play: from the first player (the opening roll's) clockwise,
    for the lab's win rate by turn order (a seat is not a place in the turn order here)."""
    first = st.seats.index(first_player(st))
    return [*st.seats[first:], *st.seats[:first]]


def report_lines(summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    lines: list[tuple[str, str]] = [("games", str(len(summaries)))]
    lines.append(("game length (turns)", describe([s["turns"] for s in summaries])))
    lines.append(("game length (steps)", describe([s["steps"] for s in summaries])))
    # Win rates by seat, by turn order, by faction and by starting recruit: the lab's tables, with
    # their intervals and the correction for how many are ranked (the summary's ``by_seat``).
    lines.append(("how games end", distribution(s["end"] for s in summaries)))
    lines.append(("markets built", describe([s["markets_built"] for s in summaries])))
    return lines


# -- for the lab: how a game ended, and its figures round by round ----------------------------
END_REASONS = ("ten_stars", "round_limit")
"""Rulebook "End of Game": the first player to place all ten stars; ``round_limit`` is the bound
for endless play (an option), not an end the rulebook gives."""
BOUND_REASONS = ("round_limit",)
COUNTER_BOUNDS = (
    ("stars placed (mean)", 0, 10),
    ("morale (mean)", 1, 6),
    ("knowledge (mean)", 1, 6),
)


def end_reason(st: EuphoriaState) -> str:
    """From the stars on the board, not from the winner's words: a tie broken by morale or by a
    roll still ended by ten stars (or by the round limit)."""
    if st.phase != "over":
        return ""
    return "ten_stars" if any(p.stars == 0 for p in st.players.values()) else "round_limit"


def clock(st: EuphoriaState) -> int:
    """The round: every seat has had this many turns."""
    return st.turn_number // len(st.seats)


def sample(st: EuphoriaState) -> dict[str, float]:
    """Stars, tracks and goods, as the mean over the players (and the leader's stars)."""
    players = list(st.players.values())
    n = len(players)
    placed = [10 - p.stars for p in players]
    return {
        "stars placed (mean)": sum(placed) / n,
        "stars placed (leader)": max(placed),
        "morale (mean)": sum(p.morale for p in players) / n,
        "knowledge (mean)": sum(p.knowledge for p in players) / n,
        "workers (mean)": sum(p.workers for p in players) / n,
        "commodities (mean)": sum(p.goods.get(g, 0) for p in players for g in COMMODITIES) / n,
        "resources (mean)": sum(p.goods.get(g, 0) for p in players for g in RESOURCES) / n,
        "artifacts (mean)": sum(len(p.hand) for p in players) / n,
        "markets built": len(st.built),
    }


# -- for the lab's coverage: the mechanics a designer names, by the actions that realise them -----
MECHANICS: dict[str, tuple[str, ...]] = {
    "trade offered": ("offer_trade",),
    "trade accepted": ("answer_trade answer=accept",),
    "second recruit kept": ("keep_recruit",),
    "recruit ability used": ("use_ability",),
    "dilemma resolved": ("resolve_dilemma",),
    "artifact discarded": ("discard_artifact",),
    "worker sacrificed": ("sacrifice",),
    "star placed": ("place_star",),
}
"""Each mechanic -> the actions that realise it (an action type, or a type with parameter values)."""
OPTION_MECHANICS: dict[str, tuple[str, ...]] = {
    "trades_per_turn": ("trade offered", "trade accepted"),
    "recruit_draft": ("second recruit kept",),
    "printing": ("recruit ability used", "second recruit kept"),
}
"""Each option or house rule -> the mechanics it touches (the lab warns when none came into play)."""
