"""Misery Bubblegum's heuristic: satisfy Desires, and keep the Traits it values.

The draft has no winner; it asks "Who will you let influence the person you become?". A player
wants the character's Desires satisfied (only another player can address a Desire: "Desires"),
its Misery low, and the Traits it accepted kept and grown ("Getting Better"). The bot plays from
its seat's view only (everything in this game is public):

* **Calling an action** it rolls from Insight when another character has an active Desire (the
  Insight-to-others arrow is the one that addresses Desires), else from its fullest pool, four
  dice at most, at challenge 4 (dice under the challenge decide the meaning).
* **Deciding the meaning** it addresses an active Desire of another character when it can
  (selecting exactly the dice it takes), activates Desires so they can be pursued, creates one
  resource (a Desire or a Promise for another character, or its own), spends Misery only on Threats
  (never on Traits), and reclaims as many dice as it may.
* **Traits** offered to it are accepted while it has room (up to the limit of ten); after an
  action it raises its own used Traits with its success dice; it offers a Trait, with a one-die
  bribe, to a character whose dice it holds (influence), so Traits enter play.
* It does not oppose other players (the GM seat opposes now and then, lightly), never denies a
  Desire, and lets the session run to its end.

Rulebook: "Getting things done", "Traits", "Getting Better", "Influencing People", "Growing and
changing every day", "What does it mean?", "Desires".
"""

from __future__ import annotations

import math
import random
from typing import Any

from ...bots.base import Decision, Situation
from ...bots.text import fill_text
from ...core.actions import Action, IntRange

CHALLENGE = 4
MAX_TRAITS = 10


def _character(view: dict[str, Any], seat: str) -> dict[str, Any]:
    return next((c for c in view.get("characters", []) if c.get("seat") == seat), {})


def _desires(view: dict[str, Any], seat: str, *, others: bool, active: bool) -> list[dict[str, Any]]:
    out = []
    for c in view.get("characters", []):
        if (c.get("seat") != seat) != others:
            continue
        for r in c.get("resources", []):
            if r.get("kind") == "desire" and bool(r.get("active")) == active:
                out.append({**r, "owner": c.get("seat")})
    return out


def _resources(view: dict[str, Any], seat: str, kind: str) -> list[dict[str, Any]]:
    """The active resources of ``kind`` on the bot's own character."""
    me = _character(view, seat)
    return [r for r in me.get("resources", []) if r.get("kind") == kind and r.get("active")]


def _texts(situation: Situation, action: Action) -> dict[str, str]:
    view, seat = situation.view, situation.seat
    me = _character(view, seat)
    name = me.get("name", seat)
    if action.type == "call_action":
        pool = action.args.get("pool", "heart")
        wanted = _desires(view, seat, others=True, active=True)
        if wanted:
            return {"intent": f"{name} tries, with {pool}, to give {wanted[0]['owner']} what they want."}
        return {"intent": f"{name} acts on {pool}, hoping it is enough this time."}
    if action.type == "offer_trait":
        target = _character(view, str(action.args.get("target")))
        return {"text": f"{target.get('name', 'You')} cannot let anything go"}
    if action.type == "create_resource":
        owner = _character(view, str(action.args.get("owner")))
        if owner.get("seat") == seat:
            return {"text": f"{name} wants someone to notice the effort"}
        return {"text": f"{owner.get('name', 'They')} wants {name} to understand them"}
    return {}


def _call(situation: Situation, calls: list[Action]) -> Action:
    view, seat = situation.view, situation.seat
    me = _character(view, seat)
    pools = me.get("pool", {})
    wanted = _desires(view, seat, others=True, active=True)

    def score(a: Action) -> tuple[int, int]:
        pool = str(a.args.get("pool"))
        prefer = 1 if wanted and pool == "insight" else 0
        return (prefer, int(pools.get(pool, 0)))

    best = max(calls, key=score)
    dice = best.args.get("dice")
    want_dice = 4
    if isinstance(dice, IntRange):
        want_dice = min(dice.hi, 4)
    return fill_text(best, {}, {"challenge": CHALLENGE, "dice": want_dice})


def _meaning(situation: Situation, by_type: dict[str, list[Action]], rng: random.Random) -> Action:
    view, seat = situation.view, situation.seat
    attempt = view.get("action") or {}
    selected = list(attempt.get("selected", []))
    if "choose_arrow" in by_type:
        if _resources(view, seat, "threat") or _resources(view, seat, "promise"):
            inward = [a for a in by_type["choose_arrow"] if a.args.get("orientation") == "self"]
            if inward:
                return inward[0]  # to quiet a Threat on itself, or to grow a Promise made to it
        return next(
            (a for a in by_type["choose_arrow"] if a.args.get("orientation") == "others"), by_type["choose_arrow"][0]
        )
    if "address_desire" in by_type:
        return by_type["address_desire"][0]
    if "fulfil_promise" in by_type:
        return by_type["fulfil_promise"][0]
    if "remove_blocking_die" in by_type:
        return by_type["remove_blocking_die"][0]
    if "activate_resource" in by_type:
        desires = {r["id"] for r in _desires(view, "", others=True, active=False)}
        wanted = [a for a in by_type["activate_resource"] if a.args.get("resource") in desires]
        if wanted:
            return wanted[0]
    if "deactivate_resource" in by_type:
        threats_on_me = {r["id"] for r in _resources(view, seat, "threat")}
        calm = [a for a in by_type["deactivate_resource"] if a.args.get("resource") in threats_on_me]
        if calm:
            return calm[0]  # an inactive Threat blocks none of its owner's dice
    if "increase_resource" in by_type:
        promises = {r["id"] for r in _resources(view, seat, "promise")}
        grow = [a for a in by_type["increase_resource"] if a.args.get("resource") in promises]
        if grow:
            return grow[0]  # a Promise made to the bot grows
    if "create_resource" in by_type and not attempt.get("created"):
        others = [a for a in by_type["create_resource"] if a.args.get("owner") != seat]
        return rng.choice(others or by_type["create_resource"])
    threats = {r["id"] for c in view.get("characters", []) for r in c.get("resources", []) if r.get("kind") == "threat"}
    spend = [a for a in by_type.get("spend_misery", []) if a.args.get("target") in threats]
    if spend:
        return spend[0]
    active = _desires(view, seat, others=True, active=True)
    inactive = _desires(view, "", others=True, active=False)
    if "select_die" in by_type:
        if active and len(selected) < math.ceil(int(active[0]["value"]) / 2):
            return by_type["select_die"][0]
        if inactive and not active and len(selected) < int(inactive[0]["value"]):
            return by_type["select_die"][-1]
    return by_type["end_meaning"][0]


def _reroll(situation: Situation, by_type: dict[str, list[Action]]) -> Action:
    """[Obnoxious]: a Trait rerolls one of the bot's own dice that failed its challenge, the fee
    (one die) given to the Trait's creator rather than to Misery; else it passes."""
    uses = by_type.get("use_trait")
    if uses:
        me = _character(situation.view, situation.seat)
        mine = {t.get("id"): int(t.get("value", 0)) for t in me.get("traits", [])}
        pools = me.get("pool", {})
        gift = [a for a in uses if a.args.get("fee_mode") == "give_creator"] or uses
        return min(gift, key=lambda a: (mine.get(a.args.get("trait"), 99), -int(pools.get(a.args.get("fee_pool"), 0))))
    selects = by_type.get("select_die")
    attempt = situation.view.get("action") or {}
    if selects and not attempt.get("selected"):
        who: dict[str, Any] = next((p for p in attempt.get("participants", []) if p.get("seat") == situation.seat), {})
        if who:
            failed = {d["die"] for d in who.get("dice", []) if int(d.get("face") or 0) < int(who.get("challenge", 0))}
            pick = [a for a in selects if a.args.get("die") in failed]
            if pick:
                return pick[0]
    unselect = by_type.get("unselect_die")
    return unselect[0] if unselect and not by_type.get("use_trait") else by_type["pass_reroll"][0]


def _pick(situation: Situation, rng: random.Random) -> Action:
    seat, legal = situation.seat, situation.legal  # the view is read where needed (not to oppose or pass)
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action.type, []).append(action)
    if "set_ratings" in by_type:
        return fill_text(by_type["set_ratings"][0], {}, {"passion": 3, "confidence": 3, "insight": 4})
    if "accept_trait" in by_type or "refuse_trait" in by_type:
        me = _character(situation.view, seat)
        if len(me.get("traits", [])) < MAX_TRAITS and "accept_trait" in by_type:
            return by_type["accept_trait"][0]
        if "refuse_trait" in by_type:
            return by_type["refuse_trait"][0]
    if "offer_trait" in by_type and rng.random() < 0.5:
        return fill_text(rng.choice(by_type["offer_trait"]), _texts(situation, by_type["offer_trait"][0]), {"dice": 1})
    if "call_action" in by_type:
        return _call(situation, by_type["call_action"])
    if "gm_oppose" in by_type:
        if rng.random() < 0.4:
            return fill_text(rng.choice(by_type["gm_oppose"]), {}, {"challenge": 3, "dice": 2})
        return by_type["pass_opposition"][0]
    if "pass_opposition" in by_type:
        return by_type["pass_opposition"][0]
    if "pass_reroll" in by_type:
        return _reroll(situation, by_type)
    if "decide_success" in by_type:
        caller = (situation.view.get("action") or {}).get("caller")
        want = caller == seat or seat == "gm" or rng.random() < 0.5
        return next((a for a in by_type["decide_success"] if a.args.get("succeeds") is want), legal[0])
    if "end_meaning" in by_type or "choose_arrow" in by_type:
        return _meaning(situation, by_type, rng)
    if "end_growth" in by_type:
        if "increase_trait" in by_type:
            mine = {t.get("id") for t in _character(situation.view, seat).get("traits", [])}
            own = [a for a in by_type["increase_trait"] if a.args.get("trait") in mine]
            if own or "select_die" not in by_type:
                return (own or by_type["increase_trait"])[0]
            return by_type["end_growth"][0]  # success dice are not spent on others' Traits
        if "select_die" in by_type:
            return by_type["select_die"][0]
        return by_type["end_growth"][0]
    if "reclaim" in by_type:
        return fill_text(by_type["reclaim"][0], {}, {"reclaim_count": 99})
    if "choose_wipe_subset" in by_type:
        return by_type["choose_wipe_subset"][0]
    if "end_game" in by_type:
        return by_type["end_game"][0]
    quiet = [a for a in legal if a.type not in ("deny_desire", "unselect_die")]
    return rng.choice(quiet or legal)


def decide(situation: Situation, rng: random.Random) -> Decision:
    """The heuristic's decision for ``situation`` (its seat's view and legal actions only)."""
    action = _pick(situation, rng)
    if action.is_template:
        action = fill_text(action, _texts(situation, action))
    narration = ""
    if action.type == "call_action":
        narration = str(action.args.get("intent", ""))
    elif action.type == "address_desire":
        narration = "At last, someone gives them what they wanted."
    return Decision(action, narration)
