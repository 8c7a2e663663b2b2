"""What each seat sees, and the terminal face of it.

Everything on the table is public except a sealed bid before the reveal, which only
its bidder sees (LD-R7): other seats see only who has bid. The bid's secret token
(``sealed-bid:<seat>:<memory>:<amount>``) appears in the bidder's view and private story only.
"""

from __future__ import annotations

from typing import Any

from ...core import Secret
from .conflict import compare
from .creation import bid_token
from .state import OPPOSITION, THEMES, LostDaysState, Memory


def view(state: LostDaysState, seat: str | None) -> dict[str, Any]:
    held = holdings(state)
    out: dict[str, Any] = {
        "phase": state.phase,
        "round": state.round,
        "theme": THEMES[state.round - 1] if state.round <= 4 and state.session == 0 else state.theme,
        "king": state.king,
        "session": state.session,
        "story": state.story,
        "scenes_played": state.scenes_played,
        "players": [player_view(state, s, held[s]) for s in state.seats],
        "memories": [memory_view(state, m) for m in state.memories.values()],
        "bank_out": state.bank_out,
    }
    if state.auction is not None:
        out["auction"] = auction_view(state, seat)
    if state.king_tie is not None:
        out["king_tie"] = state.king_tie.to_json()
    if state.scene is not None:
        out["scene"] = state.scene.to_json()
    if state.conflict is not None:
        out["conflict"] = conflict_view(state)
    if state.trade is not None:
        out["trade"] = state.trade.to_json()
    if state.session == 0:
        out["selector"], out["extra_writer"] = state.selector, state.extra_writer
    if state.survivor is not None or state.epilogue is not None:
        out["survivor"], out["epilogue"] = state.survivor, state.epilogue
    return out


def holdings(state: LostDaysState) -> dict[str, list[Memory]]:
    """Each seat's memory cards, in the table's order (one pass over the memories for all seats)."""
    held: dict[str, list[Memory]] = {s: [] for s in state.seats}
    for m in state.memories.values():
        if m.owner is not None:
            held[m.owner].append(m)
    return held


def player_view(state: LostDaysState, seat: str, owned: list[Memory]) -> dict[str, Any]:
    """A character card and its coins; ``owned`` is the seat's memory cards (:func:`holdings`)."""
    elf = state.elves[seat]
    memory_coins = sum([state.value(m.id) for m in owned])
    purse = state.purse(seat)
    return {
        "seat": seat,
        "name": elf.name,
        "mad": elf.mad,
        "king": seat == state.king,
        "purse": purse,
        "madness": state.madness(seat),
        "memory_coins": memory_coins,
        "wealth": memory_coins + purse,
        "memories": [m.id for m in owned],
        "mok_written": elf.mok_written,
        "won_this_round": elf.won_this_round,
        "to_write": elf.to_write,
        "pending_write_out": elf.pending_write_out,
    }


def memory_view(state: LostDaysState, m: Memory) -> dict[str, Any]:
    """A memory card as seen on the table, as a fresh dict: a copy of what this card showed last
    time when nothing on it has changed since, else its face (what never changes on the card,
    with the keys in their order) with what may have changed since it was written."""
    value = state.value(m.id)
    kingship = m.is_mok or m.mok_candidate
    now = (value, m.place, m.owner, kingship, m.is_mok, m.tainted)
    shown = m.shown
    if shown is not None and shown[0] == now:
        return shown[1].copy()
    out = _memory_face(m)
    out["value"] = value
    out["place"] = m.place
    out["owner"] = m.owner
    out["kingship"] = kingship
    out["is_mok"] = m.is_mok
    out["tainted"] = m.tainted
    m.shown = (now, out)
    return out.copy()


def _memory_face(m: Memory) -> dict[str, Any]:
    """A fresh copy of the card's face (built once, shared by the card's copies)."""
    face = m.face
    if face is None:
        face = m.face = {
            "id": m.id,
            "text": m.text,
            "value": 0,
            "place": m.place,
            "owner": None,
            "author": m.author,
            "origin": m.origin,
            "kingship": False,
            "is_mok": False,
            "tainted": False,
        }
    return face.copy()


def auction_view(state: LostDaysState, seat: str | None) -> dict[str, Any]:
    a = state.auction
    assert a is not None
    out: dict[str, Any] = {
        "lot": a.lot,
        "eligible": list(a.bids.seats),
        "has_bid": [s for s in a.bids.seats if s in a.bids.choices],
        "revealed": dict(a.bids.choices) if a.bids.revealed else None,
        "tied": list(a.tied),
        "still_in": list(a.still_in),
        "turn": a.turn,
        "high": a.high,
        "high_bidder": a.high_bidder,
        "rolloff": list(a.rolloff),
    }
    if seat is not None and seat in a.bids.choices and not a.bids.revealed:
        amount = a.bids.choices[seat]
        out["my_bid"] = {"amount": amount, "seal": bid_token(seat, a.lot, amount)}
    return out


def conflict_view(state: LostDaysState) -> dict[str, Any]:
    c = state.conflict
    assert c is not None
    out = c.to_json()
    winner, margin = compare(c.dice["a"], c.dice["b"], state.rules.tie_rule)
    out["leading"] = {"side": winner, "margin": margin}
    out["opposition"] = c.side_b == OPPOSITION
    return out


def secrets(state: LostDaysState) -> list[Secret]:
    """Sealed bids before the reveal: each seen by its bidder only (LD-R7)."""
    a = state.auction
    if a is None or a.bids.revealed:
        return []
    return [
        Secret(bid_token(s, a.lot, v), frozenset({s}), f"{s}'s sealed bid on {a.lot}")
        for s, v in a.bids.choices.items()
    ]


# -- the terminal face -------------------------------------------------------------------------
def render(v: dict[str, Any]) -> str:
    phase = str(v["phase"]).replace("_", " ").lower()  # the phase in words, not its id ("INFLUENCE")
    lines = [f"== Lost Days of Memories and Madness · {phase} · scene {v['scenes_played']} =="]
    if v.get("theme"):
        lines.append(f"theme: {v['theme']}")
    if v["story"]:
        lines.append(f"story: {v['story']}")
    memories = {m["id"]: m for m in v["memories"]}
    for p in v["players"]:
        crown = " (King)" if p["king"] else ""
        state = "MAD" if p["mad"] else "sane"
        lines.append(
            f"{p['name']}{crown} [{state}] purse {p['purse']} · madness {p['madness']} · "
            f"on memories {p['memory_coins']}"
        )
        for mid in p["memories"]:
            lines.append("    " + memory_line(memories[mid]))
    for place, title in (("centre", "on the table"), ("market", "market of memories")):
        cards = [m for m in v["memories"] if m["place"] == place]
        if cards:
            lines.append(f"{title}:")
            lines.extend("    " + memory_line(m) for m in cards)
    if "auction" in v:
        a = v["auction"]
        lines.append(f"auction of {a['lot']}: bid so far {', '.join(a['has_bid']) or 'nobody'}")
        if "my_bid" in a:
            lines.append(f"    your sealed bid: {a['my_bid']['amount']}")
        if a["revealed"]:
            bids = ", ".join(f"{seat} {amount}" for seat, amount in a["revealed"].items())
            lines.append(f"    bids: {bids}; high {a['high']} ({a['high_bidder'] or 'tied'})")
    if "scene" in v:
        s = v["scene"]
        lines.append(f"scene: {s['kind'].lower()} of {s['framer']}{'' if s['framed'] else ' (to be framed)'}")
    if "conflict" in v:
        lines.extend(conflict_lines(v["conflict"]))
    if "trade" in v:
        content = v["trade"]["content"]
        terms = content
        if isinstance(content, dict):
            terms = "; ".join(f"{k.replace('_', ' ')} {_plain(x)}" for k, x in content.items())
        lines.append(f"deal offered by {v['trade']['proposer']}: {terms}")
    if v.get("survivor"):
        lines.append(f"the last elf standing: {v['survivor']}")
    return "\n".join(lines)


def memory_line(m: dict[str, Any]) -> str:
    marks = ("♛ " if m["is_mok"] else "♔? " if m["kingship"] else "") + ("(tainted) " if m["tainted"] else "")
    return f"[{m['value']}] {marks}{m['text']}"


def _plain(value: Any) -> str:
    """A list as words (``a, b``), anything else as itself: no Python reprs on the face."""
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value)) or "none"
    return str(value)


def conflict_lines(c: dict[str, Any]) -> list[str]:
    staked = c["staked"] or "nothing"
    lines = [f"conflict: {c['side_a']} against {c['side_b']} ({c['controller_b']}), at stake {staked}: {c['stakes']}"]
    narrated = c["narrated"]
    lines.append(f"    memories: {c['side_a']}: {_plain(narrated['a'])} · {c['side_b']}: {_plain(narrated['b'])}")
    if c["dice"]["a"] or c["dice"]["b"]:
        lead = c["leading"]
        who = {"a": c["side_a"], "b": c["side_b"]}.get(lead["side"] or "", "nobody")
        dice = c["dice"]
        rolled = f"{c['side_a']} {_plain(dice['a'])} · {c['side_b']} {_plain(dice['b'])}"
        lines.append(f"    dice: {rolled} · {who} leads by {lead['margin']}")
    return lines
