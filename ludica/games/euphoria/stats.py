"""Figures of finished games for ``ludica simulate``: game length in turns, win rate by seat, by
starting (active) recruit and by faction, and how games end."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...lab.stats import describe, distribution
from .oracle import RECRUITS
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
        "markets_built": len(st.built),
    }


def _rate(wins: Counter[str], plays: Counter[str], top: int = 10) -> str:
    rows = sorted(plays, key=lambda k: (-wins[k] / plays[k], k))[:top]
    return " · ".join(f"{k} {100 * wins[k] / plays[k]:.0f}% of {plays[k]}" for k in rows)


def report_lines(summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    lines: list[tuple[str, str]] = [("games", str(len(summaries)))]
    lines.append(("game length (turns)", describe([s["turns"] for s in summaries])))
    lines.append(("game length (steps)", describe([s["steps"] for s in summaries])))
    seat_wins: Counter[str] = Counter()
    seat_plays: Counter[str] = Counter()
    rec_wins: Counter[str] = Counter()
    rec_plays: Counter[str] = Counter()
    fac_wins: Counter[str] = Counter()
    fac_plays: Counter[str] = Counter()
    for s in summaries:
        for i in range(s["players"]):
            seat_plays[f"p{i + 1}"] += 1
        for w in s["winner_seat"].split(","):
            seat_wins[w] += 1
        for r in s["starting_recruits"]:
            rec_plays[r] += 1
            fac_plays[RECRUITS[r].faction] += 1
        for r in s["winner_recruit"].split(","):
            rec_wins[r] += 1
        for f in s["winner_faction"].split(","):
            fac_wins[f] += 1
    lines.append(("win rate by seat", _rate(seat_wins, seat_plays)))
    lines.append(("win rate by faction (active recruit)", _rate(fac_wins, fac_plays)))
    lines.append(("win rate by starting recruit (top 10)", _rate(rec_wins, rec_plays)))
    lines.append(("how games end", distribution(s["end"] for s in summaries)))
    lines.append(("markets built", describe([s["markets_built"] for s in summaries])))
    return lines
