"""What a seat sees, and its plain-text face for the terminal.

Everything is public (spec §1.7), so every seat and a spectator see the same table; the view
only adds which seat is looking.
"""

from __future__ import annotations

from typing import Any

from . import rules
from .state import ATTRIBUTES, GM, MiseryState


def view(state: MiseryState, seat: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "you": seat,
        "phase": rules.PHASES.get(rules.context(state)) or (state.attempt.stage if state.attempt else ""),
        "actions_done": state.attempts_done,
        "characters": [_sheet(state, s) for s in state.players],
        "provisional_traits": [
            {"id": p.id, "target": p.target, "offerer": p.offerer, "text": p.text, "dice": p.dice}
            for p in state.provisionals.values()
        ],
    }
    if state.settings.calling_order == "round_robin":
        out["turn"] = state.turn
    if state.declaration is not None:
        decl = state.declaration
        out["declaring"] = {"seat": decl.seat, "accepted": list(decl.accepted), "dice": decl.carried}
    if state.end_vote is not None:
        out["ready_to_end"] = sorted(state.end_vote.answers)
    if state.attempt is not None:
        out["action"] = _attempt(state)
    return out


def _sheet(state: MiseryState, seat: str) -> dict[str, Any]:
    c = state.characters[seat]
    return {
        "seat": seat,
        "name": c.name,
        "rating": dict(c.rating),
        "pool": dict(c.pool),
        "misery": c.misery,
        "spare": c.spare,
        "influence": {k: v for k, v in c.influence.items() if v},
        "traits": [{"id": t.id, "text": t.text, "value": t.value, "creator": t.creator} for t in state.traits_of(seat)],
        "resources": [
            {
                "id": r.id,
                "kind": r.kind,
                "text": r.text,
                "value": r.value,
                "active": r.active,
                "blocking": list(r.blocking),
                "aid": list(r.aid),
            }
            for r in state.resources.values()
            if r.owner == seat
        ],
    }


def _attempt(state: MiseryState) -> dict[str, Any]:
    a = state.attempt
    assert a is not None
    counted = a.stage not in ("OPPOSITION", "ROLLED", "REROLL")
    parts = []
    for p in a.participants:
        entry: dict[str, Any] = {
            "seat": p.seat,
            "pool": p.pool,
            "challenge": p.challenge,
            "dice": [{"die": f"{p.seat}.{i}", "face": d.face} for i, d in enumerate(p.dice.dice)],
        }
        if counted:
            entry.update(
                {
                    "success": [f"{p.seat}.{i}" for i in p.success],
                    "non_success": [f"{p.seat}.{i}" for i in p.non_success],
                    "blocked": [f"{p.seat}.{i}" for i in range(len(p.dice)) if i not in p.counted],
                    "matched_aid": list(p.matched_aid),
                    "unmatched_aid": p.unmatched_aid,
                    "S": p.s,
                    "SS": p.ss,
                    "N": p.n,
                    "penalising_desires": list(p.penalising),
                    "assigned": [f"{p.seat}.{i}" for i in p.assigned],
                    "grown": [f"{p.seat}.{i}" for i in p.grown],
                    "fulfilment_dice": list(p.fulfilment),
                }
            )
        parts.append(entry)
    out: dict[str, Any] = {
        "number": a.number,
        "caller": a.caller,
        "intent": a.intent,
        "stage": a.stage,
        "participants": parts,
        "still_to_answer": list(a.answering),
        "traits_used": list(a.traits_used),
        "selected": list(a.selected),
        "success_decider": a.success_decider,
        "meaning_decider": a.meaning_decider,
        "succeeded": a.succeeded,
        "orientation": a.orientation,
        "created": a.created,
        "outcomes": dict(a.touched),
        "denied": list(a.denied),
    }
    if a.chance is not None:
        out["rolling"] = dict(a.chance)
    if a.wipe is not None:
        out["wipe"] = dict(a.wipe)
    return out


def render(v: dict[str, Any]) -> str:
    """The table as text: one block per character, then the action under way."""
    lines = [f"Misery Bubblegum - phase {v['phase']} - actions so far {v['actions_done']}"]
    for c in v["characters"]:
        rating = " ".join(f"{a[0].upper()}{c['rating'].get(a, '?')}" for a in ATTRIBUTES)
        pools = " ".join(f"{a}:{c['pool'][a]}" for a in ATTRIBUTES)
        infl = ", ".join(f"{k}:{n}" for k, n in c["influence"].items()) or "none"
        lines.append(f"{c['seat']} {c['name']}  ({rating})  {pools}  misery:{c['misery']}  spare:{c['spare']}")
        lines.append(f"    holds influence: {infl}")
        for t in c["traits"]:
            lines.append(f'    Trait {t["id"]} "{t["text"]}" {t["value"]} (from {t["creator"]})')
        for r in c["resources"]:
            state = "active" if r["active"] else "inactive"
            dice = f" blocking {r['blocking']}" if r["blocking"] else (f" aid {r['aid']}" if r["aid"] else "")
            lines.append(f'    {r["kind"].capitalize()} {r["id"]} "{r["text"]}" {r["value"]} {state}{dice}')
    for p in v["provisional_traits"]:
        lines.append(f'Offered to {p["target"]} by {p["offerer"]}: {p["id"]} "{p["text"]}" with {p["dice"]} dice')
    if "declaring" in v:
        lines.append(f"{v['declaring']['seat']} is declaring an action")
    a = v.get("action")
    if a:
        lines.append(f"Action {a['number']} by {a['caller']}: {a['intent']}  ({a['stage']})")
        for p in a["participants"]:
            faces = " ".join(f"{d['die']}={d['face'] if d['face'] is not None else '?'}" for d in p["dice"])
            who = "GM" if p["seat"] == GM else p["seat"]
            extra = f"  S{p['S']} SS{p['SS']} N{p['N']}" if "S" in p else ""
            lines.append(f"    {who} {p['pool']} c{p['challenge']}: {faces}{extra}")
        if a["selected"]:
            lines.append(f"    chosen dice: {', '.join(a['selected'])}")
        if a["meaning_decider"]:
            lines.append(
                f"    success decided by {a['success_decider']}, meaning by {a['meaning_decider']}"
                f", arrow {a['orientation'] or '-'}"
            )
    return "\n".join(lines)
