"""What a seat sees, and its plain-text face for the terminal.

Everything is public (docs/rules/misery-bubblegum.md, "Seats and visibility"), so every seat and a spectator
see the same table; the view
only adds which seat is looking.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...core.names import counted
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
        label = die_labels(p.seat, len(p.dice))
        entry: dict[str, Any] = {
            "seat": p.seat,
            "pool": p.pool,
            "challenge": p.challenge,
            "dice": [{"die": label[i], "face": d.face} for i, d in enumerate(p.dice.dice)],
        }
        if counted:
            entry["success"] = [label[i] for i in p.success]
            entry["non_success"] = [label[i] for i in p.non_success]
            entry["blocked"] = [label[i] for i in range(len(label)) if i not in p.counted]
            entry["matched_aid"] = list(p.matched_aid)
            entry["unmatched_aid"] = p.unmatched_aid
            entry["S"] = p.s
            entry["SS"] = p.ss
            entry["N"] = p.n
            entry["penalising_desires"] = list(p.penalising)
            entry["assigned"] = [label[i] for i in p.assigned]
            entry["grown"] = [label[i] for i in p.grown]
            entry["fulfilment_dice"] = list(p.fulfilment)
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


@lru_cache(maxsize=1024)
def die_labels(seat: str, count: int) -> tuple[str, ...]:
    """The names of a player's ``count`` rolled dice, ``<seat>.<index>`` in roll order (made once
    per seat and count: the strings are shared, the lists of the view are built fresh each time)."""
    return tuple(f"{seat}.{i}" for i in range(count))


def render(v: dict[str, Any]) -> str:
    """The table as text: one block per character, then the action under way, in words."""
    names = {c["seat"]: c["name"] for c in v["characters"]}
    names[GM] = "the GM"
    lines = [f"Misery Bubblegum — {str(v['phase']).lower()} — actions so far {v['actions_done']}"]
    for c in v["characters"]:
        rating = ", ".join(f"{a} {c['rating'].get(a, '?')}" for a in ATTRIBUTES)
        pools = ", ".join(f"{a} {c['pool'][a]}" for a in ATTRIBUTES)
        infl = ", ".join(f"{names.get(k, k)} {n}" for k, n in c["influence"].items()) or "none"
        lines.append(f"{c['name']} — ratings {rating} · pools {pools} · Misery {c['misery']} · spare dice {c['spare']}")
        lines.append(f"    influence dice held: {infl}")
        for t in c["traits"]:
            lines.append(f'    Trait "{t["text"]}" {t["value"]} (from {names.get(t["creator"], t["creator"])})')
        for r in c["resources"]:
            state = "active" if r["active"] else "inactive"
            blocking, aid = ", ".join(map(str, r["blocking"])), ", ".join(map(str, r["aid"]))
            dice = f", blocking dice {blocking}" if blocking else (f", aid dice {aid}" if aid else "")
            lines.append(f'    {r["kind"].capitalize()} "{r["text"]}" {r["value"]}, {state}{dice}')
    for p in v["provisional_traits"]:
        target, offerer = names.get(p["target"], p["target"]), names.get(p["offerer"], p["offerer"])
        lines.append(f'Trait offered to {target} by {offerer}: "{p["text"]}" with {p["dice"]} dice')
    if "declaring" in v:
        lines.append(f"{names.get(v['declaring']['seat'], v['declaring']['seat'])} is declaring an action")
    a = v.get("action")
    if a:
        caller = names.get(a["caller"], a["caller"])
        lines.append(f"Action {a['number']} by {caller}: {a['intent']}  ({str(a['stage']).lower()})")
        for p in a["participants"]:
            who = names.get(p["seat"], p["seat"])
            faces = " ".join(f"{d['face'] if d['face'] is not None else '?'}" for d in p["dice"])
            extra = (
                f" — {counted(p['S'], 'success', 'successes')} summing {p['SS']}, meaning {p['N']}" if "S" in p else ""
            )
            lines.append(f"    {who}: {p['pool']}, challenge {p['challenge']}, dice {faces}{extra}")
        if a["selected"]:
            lines.append(f"    chosen dice: {', '.join(a['selected'])}")
        if a["meaning_decider"]:
            success, meaning = names.get(a["success_decider"], "-"), names.get(a["meaning_decider"], "-")
            arrow = {"self": "towards the caller", "others": "towards the others"}.get(a["orientation"], "not chosen")
            lines.append(f"    success decided by {success}, meaning by {meaning}; arrow {arrow}")
    return "\n".join(lines)
