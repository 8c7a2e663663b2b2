"""What each seat may see (docs/rules/euthymia.md, "Hidden information"), the secrets, and the terminal face of a view.

PUBLIC: the hour, the characters and Strengths, glasses, bottle, clock, discard pile, the Conflict
on the table. PRIVATE(p): p's hand, the card p laid face down for who starts, p's identity card
and pass. SHARED({Committee Member, knower}): who the Committee Member is, until the ninth-hour
reveal. SECRET: the order of the deck.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...core import Secret
from . import drink, identity, legal
from .flow import ordinal
from .state import ASPECTS, SUITS, TURN, Character, EuthymiaState


def view(state: EuthymiaState, seat: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "hour": state.hour,
        "phase": state.phase,
        "ideal_citizen": dict(_aspect_texts(tuple(state.ideal_citizen))) if state.ideal_citizen else None,
        "setting_notes": state.setting_notes,
        "players": [_player(state, p, state.names[i]) for i, p in enumerate(state.players)],
        "bottle": {"units": state.bottle_units, "holder": state.bottle_holder, "sealed": state.bottle_sealed},
        "clock": {
            "hour_elapsed_s": state.hour_elapsed_s,
            "final_round_pending": state.final_round_pending,
            "final_round_active": state.final_round_active,
            "final_done": list(state.final_done),
        },
        "deck_count": len(state.deck),
        "discard": list(state.discard),
        "active_player": state.active_player,
        "previous_active_player": state.previous_active_player,
        "turn_kind": state.turn_kind,
        "committee_member": state.committee_member if state.cm_revealed else None,
    }
    if state.phase in (TURN, "CONFLICT"):
        most, tied = _most_drink(state)
        out["most_drink"] = most if most else {"tied": tied}
    if state.conflict is not None:
        out["conflict"] = _conflict(state)
    if state.start is not None:
        out["who_starts"] = {
            "contenders": list(state.start.seats),
            "committed": [p for p in state.start.seats if p in state.start.choices],
            "from_deck": state.start_from_deck,
        }
    if state.vote is not None:
        out["vote"] = {"proposer": state.vote.proposer, "answers": dict(state.vote.answers)}
    if state.endings:
        out["endings"] = dict(state.endings)
    if seat is not None and seat in state.players:
        mine: dict[str, Any] = {"seat": seat, "hand": list(state.hands.get(seat, []))}
        if state.start is not None and seat in state.start.choices and not state.start.revealed:
            mine["start_card"] = state.start.choices[seat]
        identity.add_secret_view(state, seat, mine)
        out["you"] = mine
    return out


_FEEL, _SPEAK, _BELIEVE, _LOVE = ASPECTS


def _by_aspect(values: tuple[Any, ...] | list[Any]) -> dict[str, Any]:
    """``values`` (one per Aspect, in their order) by the Aspects' names."""
    if len(values) != 4:
        return dict(zip(ASPECTS, values, strict=True))  # the same error as ever
    return {_FEEL: values[0], _SPEAK: values[1], _BELIEVE: values[2], _LOVE: values[3]}


def _most_drink(state: EuthymiaState) -> tuple[str | None, list[str]]:
    """**[On conflicts]** the player with the most drink, or the tie: in a turn the rules have
    worked it out already (``legal.Memo.ties``), during a Conflict it is counted here."""
    if state.phase == TURN and not state.dividing and state.vote is None and not state.identity_change:
        most, tied = legal.memo(state).ties
        return most, list(tied)  # the memo's list stays the memo's
    return drink.most_drink_player(state)


@lru_cache(maxsize=256)
def _aspect_texts(aspects: tuple[str, ...]) -> dict[str, Any]:
    """Four Aspect texts (a character's, or the Ideal Citizen's) by the Aspects' names, made once
    per sheet: shared, so the caller hands out a copy."""
    return _by_aspect(aspects)


def _strengths(strength: list[int]) -> dict[str, Any]:
    """A character's four Strengths by the Aspects' names."""
    if len(strength) != 4:
        return _by_aspect(strength)  # the same error as ever
    return {_FEEL: strength[0], _SPEAK: strength[1], _BELIEVE: strength[2], _LOVE: strength[3]}


def _sheet(character: Character) -> dict[str, Any]:
    """A character sheet: the name, the Aspects and the Strengths (``None`` until set)."""
    strength = character.strength
    return {
        "name": character.name,
        "aspects": dict(_aspect_texts(character.aspects)),
        "strength": _strengths(strength) if strength else None,
    }


def _player(state: EuthymiaState, p: str, name: str) -> dict[str, Any]:
    """Seat ``p``'s public face; ``name`` is the seat's name (``state.names``, in the seats' order)."""
    character = state.characters.get(p)
    sheet = None if character is None else _sheet(character)
    return {
        "seat": p,
        "name": name,
        "character": sheet,
        "status": state.status.get(p),
        "glass": state.glass.get(p, 0),
        "retired": p in state.retired,
        "cards": len(state.hands.get(p, [])),
    }


def _conflict(state: EuthymiaState) -> dict[str, Any]:
    c = state.conflict
    assert c is not None
    return {
        "launcher": c.launcher,
        "launch_type": c.launch_type,
        "aspect": ASPECTS[c.aspect],
        "suit": SUITS[c.aspect],
        "medication": c.medication,
        "text": c.text,
        "order": list(c.order),
        "plays": [{"player": p, "card": card} for p, card in c.plays],
        "to_play": c.order[c.index] if c.order and c.index < len(c.order) else None,
    }


def secrets(state: EuthymiaState) -> list[Secret]:
    out = [Secret(token, holders, what) for token, holders, what in identity.secret_tokens(state)]
    for p, hand in state.hands.items():
        out.extend(Secret(card, frozenset({p}), f"a card in {p}'s hand") for card in hand)
    if state.start is not None and not state.start.revealed:
        out.extend(Secret(card, frozenset({p}), "a card laid face down") for p, card in state.start.choices.items())
    out.extend(Secret(card, frozenset(), "a card in the deck") for card in state.deck)
    return out


# -- the terminal face ----------------------------------------------------------------------------
def _bottle_place(holder: str | None) -> str:
    """Where the bottle is: with a player (a seat the namer names), in the centre, or nowhere yet."""
    if holder == "CENTER":
        return "in the centre of the table"
    if not holder or holder == "NONE":
        return "held by nobody"
    return f"held by {holder}"


def render(v: dict[str, Any]) -> str:
    phase = str(v["phase"]).replace("_", " ").lower()  # the phase in words, not its id ("CONFLICT")
    lines = [f"EUTHYMIA — the {ordinal(v['hour'])} hour — {phase}"]
    ideal = v.get("ideal_citizen")
    if ideal:
        lines.append("Ideal Citizen: " + " · ".join(ideal.values()))
    bottle = v["bottle"]
    clock = v["clock"]
    state_of_bottle = "sealed" if bottle["sealed"] else f"{bottle['units']} units"
    lines.append(
        f"Bottle: {state_of_bottle}, {_bottle_place(bottle['holder'])} · clock {clock['hour_elapsed_s'] // 60} min"
        + (" · final turns called" if clock["final_round_pending"] else "")
        + (" · FINAL ROUND" if clock["final_round_active"] else "")
    )
    if v.get("committee_member"):
        lines.append(f"The Committee Member is {v['committee_member']} (revealed).")
    lines.append("")
    for p in v["players"]:
        mark = ">" if p["seat"] == v.get("active_player") else " "
        glass = "placed in the middle" if p["retired"] else "#" * p["glass"] + "." * max(0, 10 - p["glass"])
        sheet = p["character"]
        who = f"{sheet['name']}" if sheet else "(no character yet)"
        status = str(p["status"]).replace("_", " ").lower()
        lines.append(f"{mark} {p['name']:<6} {who:<20} glass [{glass}] cards {p['cards']} {status}")
        if sheet and sheet["strength"]:
            for aspect, suit in zip(ASPECTS, "♦♠♣♥", strict=True):
                lines.append(f"      {suit} {sheet['strength'][aspect]:>2}  {sheet['aspects'][aspect]}")
    conflict = v.get("conflict")
    if conflict:
        lines.append("")
        lines.append(
            f"CONFLICT by {conflict['launcher']} ({conflict['launch_type']}) on {conflict['aspect']} "
            f"[{conflict['suit']}]: “{conflict['text']}”"
        )
        plays = ", ".join(f"{x['player']} {x['card'] or '—'}" for x in conflict["plays"]) or "no card yet"
        lines.append(f"  order {' > '.join(conflict['order']) or '(tie to settle)'} · played: {plays}")
    if v.get("who_starts"):
        ws = v["who_starts"]
        lines.append(f"Who starts? contenders {', '.join(ws['contenders'])}; face down: {', '.join(ws['committed'])}")
    if v.get("vote"):
        answers = v["vote"]["answers"]
        if isinstance(answers, dict):
            answers = ", ".join(f"{k} {'yes' if a else 'no' if a is not None else '?'}" for k, a in answers.items())
        lines.append(f"Vote to change the Committee Member (by {v['vote']['proposer']}): {answers or 'no answer yet'}")
    lines.append(f"Deck {v['deck_count']} · discard {' '.join(v['discard'][-8:])}")
    you = v.get("you")
    if you:
        lines.append("")
        lines.append(f"You ({you['seat']}): hand {' '.join(you['hand']) or '(empty)'}")
        for key in ("start_card", "identity_card", "received", "passed", "committee_member", "knower"):
            if key in you:
                lines.append(f"  {key.replace('_', ' ')}: {you[key]}")
    if v.get("endings"):
        lines.append("")
        for p, text in v["endings"].items():
            lines.append(f"Ending of {p}: {text}")
    return "\n".join(lines)


__all__ = ["render", "secrets", "view"]
