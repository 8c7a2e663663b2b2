"""Euthymia's heuristic: the character's Aspects, and staying alive.

The rulebook has no winner; a player wants the character to live through the ten hours as
itself: an Aspect at zero never rises again ("On the Strength of Aspects"), a Strength of ten is
death ("Dying"), four zeros make an Ideal Citizen. The bot plays from its seat's view only:

* **As the Active Player** it launches "I want to…" at once (no pouring, no More cards) on the
  Aspect where the Conflict is most likely to leave its Strengths healthier: likelier won the
  higher the Strength (the last card must not exceed it), and safe from ten (outside the final
  turns the other Aspects are capped by Feel, so their rises cannot kill).
* **In another's Conflict** it plays the card (of the suit when it must) that moves the Active
  Player's Aspect toward the middle: a low card to let a weak Aspect win, a high one to stop a
  dangerous rise; it keeps its face cards (they pass the play on and add to the change).
* **The Committee Member** (when the identity card made it one) uses "The Committee demands…"
  when it may, on the Aspect most likely to be won (and so lowered).
* It drinks little, proposes no Committee-Member change and votes against one, never abandons
  its Ideal Citizen, lays its highest card to become the Active Player, and keeps a balanced sheet
  (Feel high, no Aspect low).
* The table seat starts each hour and lets the clock run three minutes at a time.

Rulebook: "The Strength of your Aspects", "The Conflict", "Changing the Strength of the Aspect",
"As the end of the hour approaches", "The final hour", "Dying", "The Committee Member".
"""

from __future__ import annotations

import random
from typing import Any

from ...bots.base import Decision, Situation
from ...bots.text import fill_text
from ...core.actions import Action

ASPECTS = ("FEEL", "SPEAK", "BELIEVE", "LOVE")
DEATH = 10
CLOCK_STEP = 180
"""Seconds the table's clock advances at a time (a few turns an hour)."""


def _rank(card: str) -> int:
    face = card[:-1]
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(face) or int(face)


def _poor_hand(view: dict[str, Any]) -> bool:
    """A hand not worth a Conflict: fewer than three cards, or none above five ([More cards],
    R-EU-24: the turn is spent and six new cards are dealt)."""
    hand = list((view.get("you") or {}).get("hand") or [])
    return len(hand) < 3 or max(_rank(str(c)) for c in hand) <= 5


def _health(s: int) -> float:
    """How good a Strength is for the character: dead at ten, lost at zero, best in the middle."""
    if s >= DEATH:
        return -100.0
    if s == 0:
        return -12.0
    return -abs(s - 5) * 1.0 - (6.0 if s >= 8 else 0.0)


def _player(view: dict[str, Any], seat: str) -> dict[str, Any]:
    return next((p for p in view.get("players", []) if p.get("seat") == seat), {})


def _strengths(view: dict[str, Any], seat: str) -> dict[str, int]:
    char = _player(view, seat).get("character") or {}
    return {a: int(v) for a, v in (char.get("strength") or {}).items()}


def _final_mode(view: dict[str, Any]) -> bool:
    return view.get("turn_kind") == "FINAL" or int(view.get("hour", 0)) == 10


def _after(strength: dict[str, int], aspect: str, up: bool, amount: int, final: bool) -> dict[str, int]:
    """The Strengths after a change (rulebook "Changing the Strength of the Aspect")."""
    out = dict(strength)
    s, feel = out[aspect], out["FEEL"]
    if not up:
        out[aspect] = max(0, s - amount)
        if aspect == "FEEL":
            for other in ASPECTS[1:]:
                out[other] = min(out[other], out["FEEL"])
        return out
    if s == 0:
        return out
    new = min(DEATH, s + amount)
    if aspect == "FEEL" or new <= feel:
        out[aspect] = new
    elif final:
        out[aspect] = out["FEEL"] = new
    return out


def _sheet(strength: dict[str, int]) -> float:
    return sum(_health(v) for v in strength.values())


_FACES = ((0, 0.45), (1, 0.35), (2, 0.15), (3, 0.05))
"""A rough spread of the face cards a Conflict sees (the change is their number)."""


def _launch_value(strength: dict[str, int], aspect: str, launch_type: str, final: bool) -> float:
    """Expected change of the sheet's health from a Conflict on ``aspect``."""
    s = strength.get(aspect, 0)
    p_win = min(0.95, max(0.05, s / 10.0))
    up_if_win = launch_type != "COMMITTEE"
    value = 0.0
    for faces, chance in _FACES:
        amount = faces + 1 if final else faces
        win = _after(strength, aspect, up_if_win, amount, final)
        lose = _after(strength, aspect, not up_if_win, amount, final)
        value += chance * (p_win * _sheet(win) + (1 - p_win) * _sheet(lose))
    return value - _sheet(strength)


def _is_committee_member(view: dict[str, Any], seat: str) -> bool:
    you = view.get("you") or {}
    return str(you.get("committee_member", "")).endswith(f" is {seat}") or view.get("committee_member") == seat


def _choose_launch(
    situation: Situation, launches: list[Action], rng: random.Random, *, kind: bool = False
) -> Action | None:
    """The Active Player's best Conflict for his sheet; the Committee Member's demand; with
    ``kind``, the launch a most-drink player who must act makes for the Active Player's good."""
    view, seat = situation.view, situation.seat
    ap = view.get("active_player")
    strength = _strengths(view, str(ap))
    final = _final_mode(view)
    cm = _is_committee_member(view, seat)
    options = [a for a in launches if a.args.get("medication") is not True] or launches
    if seat != ap and not kind:
        if not cm:
            return None  # the Active Player tells his own story
        demands = [a for a in options if a.args.get("launch_type") == "COMMITTEE"]
        if not demands:
            return None
        return max(demands, key=lambda a: (strength.get(str(a.args["aspect"]), 0), rng.random()))

    def score(a: Action) -> tuple[float, float]:
        kind = str(a.args.get("launch_type"))
        value = _launch_value(strength, str(a.args.get("aspect")), kind, final)
        return (value + (0.5 if kind == "WANT" else 0.0), rng.random())

    return max(options, key=score)


def _play_card(situation: Situation, cards: list[Action]) -> Action:
    """A card for another's Conflict: steer the Active Player's Aspect toward the middle."""
    view = situation.view
    conflict = view.get("conflict") or {}
    ap = str(view.get("active_player"))
    strength = _strengths(view, ap)
    aspect = str(conflict.get("aspect", "FEEL"))
    s = strength.get(aspect, 5)
    kind = str(conflict.get("launch_type", "WANT"))
    want_up = s <= 4 if s > 0 else False
    want_win = want_up if kind != "COMMITTEE" else not want_up
    plain = [a for a in cards if _rank(str(a.args["card"])) <= 10]
    pool = plain or cards
    if want_win:
        winners = [a for a in pool if _rank(str(a.args["card"])) <= s]
        return min(winners or pool, key=lambda a: _rank(str(a.args["card"])))
    losers = [a for a in pool if _rank(str(a.args["card"])) > s]
    return max(losers or pool, key=lambda a: _rank(str(a.args["card"])))


def _texts(situation: Situation, action: Action) -> dict[str, str]:
    view, seat = situation.view, situation.seat
    me = _player(view, seat)
    char = me.get("character") or {}
    name = char.get("name") or f"{seat}'s character"
    ideal = view.get("ideal_citizen") or {}
    args = action.args
    if action.type == "set_ideal_citizen":
        return {
            "speak": "Speaks only in the Committee's approved phrases.",
            "believe": "Believes the Committee knows best.",
            "love": "Loves Euthymia above any person.",
        }
    if action.type == "record_setting":
        return {"answers": "Euthymia is calm, grey and watched; the bottle passes and nobody asks why."}
    if action.type == "create_character":
        return {
            "name": f"Citizen {seat.upper()}-{int(view.get('hour', 1))}",
            "feel_text": "Feels a wild grief nobody sanctioned.",
            "speak_text": "Is tempted to say what everyone thinks.",
            "believe_text": "Is tempted to believe in the old songs.",
            "love_text": "Is tempted to love a stranger.",
        }
    if action.type == "launch_conflict":
        aspect = str(args.get("aspect", "FEEL"))
        ap_char = (_player(view, str(view.get("active_player"))).get("character") or {}).get("name", "you")
        words = ((_player(view, str(view.get("active_player"))).get("character") or {}).get("aspects") or {}).get(
            aspect, aspect.lower()
        )
        kind = args.get("launch_type")
        if kind == "COMMITTEE":
            return {"text": f"The Committee demands {ap_char} give up this: {words}."}
        if kind == "TEMPTED":
            return {"text": f"{ap_char}, you must be tempted: {words}."}
        return {"text": f"I want to hold on to this: {words}."}
    if action.type == "describe_death":
        return {"text": f"{name} goes quiet at last, and the glass stays full."}
    if action.type == "reveal_identity":
        return {"text": f"{name} stands: I have served the Committee all along. {ideal.get('BELIEVE', '')}"}
    if action.type == "narrate_ending":
        strength = _strengths(view, seat)
        kept = [a.lower() for a, v in strength.items() if v > 0]
        return {"text": f"{name} walks on, still able to {', '.join(kept) or 'breathe'}."}
    return {}


def _pick_table(legal: list[Action], rng: random.Random) -> Action:
    """The group: the Ideal Citizen, the setting, the next hour, else the clock ticks on."""
    for kind in ("set_ideal_citizen", "record_setting", "start_hour"):
        for action in legal:
            if action.type == kind:
                return action
    for action in legal:
        if action.type == "clock":
            return _tick(action)
    return rng.choice(legal)


_TICKS: list[tuple[Action, Action]] = []
"""The last clock action listed and its tick of ``CLOCK_STEP`` seconds: the rules list the same
action at every step, and an action is a value (never changed), so the tick is filled once."""


def _tick(clock: Action) -> Action:
    """``clock`` filled with ``CLOCK_STEP`` seconds."""
    if not _TICKS or _TICKS[0][0] is not clock:
        _TICKS[:] = [(clock, fill_text(clock, {}, {"seconds": CLOCK_STEP}))]
    return _TICKS[0][1]


def _pick(situation: Situation, rng: random.Random) -> Action:
    seat, legal = situation.seat, situation.legal  # the view is read where needed (the table needs none)
    if seat == "table":
        return _pick_table(legal, rng)
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action.type, []).append(action)
    if "vote_cm_change" in by_type:
        return next((a for a in by_type["vote_cm_change"] if a.args.get("yes") is False), legal[0])
    if "play_conflict_card" in by_type:
        return _play_card(situation, by_type["play_conflict_card"])
    if "set_starting_strengths" in by_type:
        return max(
            by_type["set_starting_strengths"],
            key=lambda a: (min(a.args["S"], a.args["B"], a.args["L"]), a.args["F"], rng.random()),
        )
    for kind in ("create_character", "describe_death", "reveal_identity", "narrate_ending", "fill_all_and_reseal"):
        if kind in by_type:
            return by_type[kind][0]
    if "designate_drink_order" in by_type:
        return by_type["designate_drink_order"][0]
    if "commit_start_card" in by_type:
        return max(by_type["commit_start_card"], key=lambda a: _rank(str(a.args["card"])))
    if "divide_bottle" in by_type:
        action = rng.choice(by_type["divide_bottle"])
        return fill_text(action, {}, {"units": 10})
    if "declare_more_cards" in by_type and _poor_hand(situation.view):
        return by_type["declare_more_cards"][0]
    if "launch_conflict" in by_type:
        launch = _choose_launch(situation, by_type["launch_conflict"], rng)
        if launch is not None:
            return launch
    quiet = [a for a in legal if a.type not in ("propose_cm_change", "abandon_ideal_citizen", "declare_more_cards")]
    if "drink" in by_type:
        return fill_text(by_type["drink"][0], {}, {"units": 1})
    if "pour" in by_type and situation.view.get("active_player") == seat:
        return fill_text(rng.choice(by_type["pour"]), {}, {"units": 1})
    if "launch_conflict" in by_type:
        return _choose_launch(situation, by_type["launch_conflict"], rng, kind=True) or by_type["launch_conflict"][0]
    return rng.choice(quiet or legal)


def decide(situation: Situation, rng: random.Random) -> Decision:
    """The heuristic's decision for ``situation`` (its seat's view and legal actions only)."""
    action = _pick(situation, rng)
    if action.is_template:
        action = fill_text(action, _texts(situation, action))
    narration = ""
    if action.type == "launch_conflict":
        narration = str(action.args.get("text", ""))[:120]
    return Decision(action, narration)
