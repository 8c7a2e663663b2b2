"""Misery Bubblegum's heuristic: satisfy Desires, and keep the Traits it values.

The draft has no winner; it asks "Who will you let influence the person you become?". A player
wants the character's Desires satisfied (only another player can address a Desire: "Desires"),
its Misery low, and the Traits it accepted kept and grown ("Getting Better"). The bot plays from
its seat's view only (everything in this game is public):

* **Calling an action** it rolls from Insight when another character has an active Desire (the
  Insight-to-others arrow is the one that addresses Desires), else from Insight to clear its own
  Threat's blocking dice or from Confidence to fulfil its own active Promise (when that pool holds
  three dice or more), else from its fullest pool, four dice at most, at challenge 4.
* **Deciding the meaning** it follows the arrow on self only when the self arrow's resource has
  work worth more than the extra Misery that arrow's reclaim takes (a Promise on it whose aid dice
  all matched, a Threat's blocking dice it can remove, a Promise or Desire on it that costs Misery),
  else the arrow on others. Then, choosing for each outcome the non-success dice of the least
  total that suffice: it fulfils its Promise; removes its Threat's blocking dice (all of them, so
  the Threat is mitigated, else deactivates the Threat, else removes what it can); addresses the
  others' active Desires, activates their inactive ones and raises one it cannot satisfy now (it
  yields more influence dice when satisfied); deactivates a Desire on itself that penalises it,
  and a Promise on it whose aid dice did not all match; activates a small inactive Promise on
  another character (it binds them) and, with the dice left, raises an active one (a bound
  Promise outlasts its fulfilment), or wakes one on itself when none is active and its Confidence
  pool is full; creates one resource (on another character when it may); spends Misery only on
  Threats (never on Traits). Dice given to an outcome other than a Desire's satisfaction are
  still reclaimed, so an outcome made with dice left over costs nothing.
* **Reclaim**: it reclaims as many dice as it may, and denies a penalising Desire when its Misery
  is at least twice the Desire's value (that Misery goes to Spare); a smaller one it keeps.
* **Traits** offered to it are accepted while it has room (up to the limit of ten); after an
  action it raises its own used Traits with its success dice; it offers a Trait, with a one-die
  bribe, to a character whose dice it holds (influence), so Traits enter play.
* It does not oppose other players (the GM seat opposes now and then, lightly, follows the arrow
  on others and wakes the players' Desires) and lets the session run to its end.

Rulebook: "Getting things done", "Traits", "Getting Better", "Influencing People", "Growing and
changing every day", "What does it mean?", "Natural and unnatural resources", "Desires",
"Threats", "Promises".
"""

from __future__ import annotations

import math
import random
from typing import Any

from ...bots.base import Decision, Situation
from ...bots.text import fill_text
from ...core.actions import Action, IntRange
from .state import CONFIDENCE, DESIRE, GM, INSIGHT, OTHERS, PROMISE, SELF, THREAT
from .triangle import ARROWS

CHALLENGE = 4
MAX_TRAITS = 10
PROMISE_POOL = 5
"""The Confidence pool from which the bot wakes a Promise on itself."""
EXACT_UP_TO = 10
"""Up to this many free dice the least sufficient total is searched exactly (2^n sets)."""


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

    mine = [r for r in me.get("resources", []) if r.get("active")]
    blocked = any(r.get("kind") == THREAT and r.get("blocking") for r in mine)
    aided = any(r.get("kind") == PROMISE and r.get("aid") for r in mine)

    def score(a: Action) -> tuple[int, int]:
        pool = str(a.args.get("pool"))
        size = int(pools.get(pool, 0))
        prefer = 2 if wanted and pool == INSIGHT else 0
        if size >= 3 and ((blocked and pool == INSIGHT) or (aided and pool == CONFIDENCE)):
            prefer = max(prefer, 1)  # Insight clears its own Threat's blocking dice, Confidence fulfils its Promise
        return (prefer, size)

    best = max(calls, key=score)
    dice = best.args.get("dice")
    want_dice = 4
    if isinstance(dice, IntRange):
        want_dice = min(dice.hi, 4)
    return fill_text(best, {}, {"challenge": CHALLENGE, "dice": want_dice})


def _meaning(situation: Situation, by_type: dict[str, list[Action]], rng: random.Random) -> Action:
    if situation.seat == GM:
        return _gm_meaning(situation, by_type, rng)
    table = _Table(situation)
    if "choose_arrow" in by_type:
        return _arrow(table, by_type["choose_arrow"])
    if "fulfil_promise" in by_type:
        return by_type["fulfil_promise"][0]  # the aid dice join the roll as the bot's own (MB-R33)
    if "create_resource" in by_type and not table.attempt.get("created"):
        others = [a for a in by_type["create_resource"] if a.args.get("owner") != table.seat]
        return rng.choice(others or by_type["create_resource"])
    for goal in _goals(table):
        step = _towards(table, goal, by_type)
        if step is not None:
            return step
    return by_type["end_meaning"][0]


class _Table:
    """What the meaning-decider reads of the view: its dice, its arrow and the resources."""

    def __init__(self, situation: Situation) -> None:
        view, seat = situation.view, situation.seat
        self.seat = seat
        self.view = view
        self.attempt: dict[str, Any] = view.get("action") or {}
        me: dict[str, Any] = next((p for p in self.attempt.get("participants", []) if p.get("seat") == seat), {})
        self.me = me
        faces = {d["die"]: int(d.get("face") or 0) for d in me.get("dice", [])}
        self.faces = faces
        blocked = set(me.get("blocked", []))
        self.counted = {faces[d] for d in faces if d not in blocked}
        assigned = set(me.get("assigned", []))
        self.selected: list[str] = list(self.attempt.get("selected", []))
        self.free = [d for d in me.get("non_success", []) if d not in assigned]  # selected ones included
        self.pool = str(me.get("pool", ""))
        self.sheet = _character(view, seat)
        self.aided = any(r.get("kind") == PROMISE and r.get("active") for r in self.sheet.get("resources", []))
        self.touched: dict[str, str] = dict(self.attempt.get("outcomes", {}))
        orientation = self.attempt.get("orientation")
        self.pair = (ARROWS[(self.pool, orientation)].kind, orientation) if orientation else ("", "")

    def resources(self, kind: str, *, mine: bool) -> list[dict[str, Any]]:
        out = []
        for c in self.view.get("characters", []):
            if (c.get("seat") == self.seat) != mine:
                continue
            for r in c.get("resources", []):
                if r.get("kind") == kind:
                    out.append({**r, "owner": c.get("seat")})
        return out

    def fulfillable(self, promise: dict[str, Any]) -> bool:
        """Every aid die of the active Promise matched a counted die of the bot's (MB-R33)."""
        aid = promise.get("aid") or []
        return bool(promise.get("active")) and bool(aid) and all(a in self.counted for a in aid)


def _misery_if(table: _Table, orientation: str) -> int:
    """The Misery the bot's reclaim takes with ``orientation`` (its base split, [What does it mean?])."""
    n = len(table.faces)
    rating = int(table.sheet.get("rating", {}).get(table.pool, 0))
    if orientation == OTHERS:
        return n - min(rating, n)
    left = int(table.sheet.get("pool", {}).get(table.pool, 0))
    return min(max(0, rating - left), n)


def _removals(faces: list[int], blocking: list[int]) -> list[list[int]] | None:
    """Disjoint sets of ``faces``, one per blocking die (largest first), each totalling at least
    it; ``None`` when the dice cannot remove them all."""
    left = sorted(faces)
    out = []
    for face in sorted(blocking, reverse=True):
        pick = _cheapest(left, face)
        if pick is None:
            return None
        for f in pick:
            left.remove(f)
        out.append(pick)
    return out


def _cheapest(faces: list[int], need: int) -> list[int] | None:
    """The faces totalling at least ``need`` with the least total (then the fewest), or ``None``."""
    if len(faces) > EXACT_UP_TO:  # many dice: the largest first, then the smallest that still suffice
        pick: list[int] = []
        for f in sorted(faces, reverse=True):
            if sum(pick) < need:
                pick.append(f)
        return sorted(pick) if sum(pick) >= need else None
    best: list[int] | None = None
    for mask in range(1, 1 << len(faces)):
        pick = [f for i, f in enumerate(faces) if mask >> i & 1]
        total = sum(pick)
        if total >= need and (best is None or (total, len(pick)) < (sum(best), len(best))):
            best = pick
    return best


def _worth(table: _Table, r: dict[str, Any], faces: list[int]) -> int:
    """What the bot's free non-success ``faces`` can do with resource ``r`` under its arrow."""
    mine, kind, value = r["owner"] == table.seat, r.get("kind"), int(r["value"])
    if mine and kind == PROMISE and table.fulfillable(r):
        return 3
    if mine and kind == THREAT and r.get("blocking") and faces and min(r["blocking"]) <= sum(faces):
        return 3
    if mine and kind == PROMISE and r.get("active") and r.get("aid") and sum(faces) >= value:
        return 2  # unmatched aid dice cost Misery at every action: it rests
    if mine and kind == PROMISE and not r.get("active") and _promising(table, r, faces):
        return 1  # its aid dice, matched later, let the bot fulfil it
    if mine and kind == DESIRE and r.get("active") and r["id"] in table.me.get("penalising_desires", []):
        return 1 if sum(faces) >= value else 0  # a Desire that costs Misery at every action rests
    if not mine and kind == DESIRE:
        if r.get("active"):
            return 3 if len(faces) >= math.ceil(value / 2) else 0
        return 1 if sum(faces) >= value else 0
    return 0


def _promising(table: _Table, promise: dict[str, Any], faces: list[int]) -> bool:
    """A small inactive Promise on the bot is worth waking when no other Promise of its is active
    and its Confidence pool will roll again (the one pool whose arrow on self fulfils it)."""
    value = int(promise["value"])
    big = int(table.sheet.get("pool", {}).get(CONFIDENCE, 0)) >= PROMISE_POOL
    return value <= 2 and sum(faces) >= value and not table.aided and big


def _arrow(table: _Table, arrows: list[Action]) -> Action:
    """Self when the self arrow's resource has work worth its reclaim (a Promise to fulfil, a
    Threat's blocking dice to clear), else others: Desires to address or to wake in others."""
    by = {a.args.get("orientation"): a for a in arrows}
    faces = [table.faces[d] for d in table.free]
    worth = {OTHERS: 0, SELF: 0}
    for orientation in (OTHERS, SELF):
        if orientation not in by:
            continue
        kind = ARROWS[(table.pool, orientation)].kind
        worth[orientation] = sum(_worth(table, r, faces) for r in table.resources(kind, mine=orientation == SELF))
    cost = _misery_if(table, SELF) - _misery_if(table, OTHERS)
    if SELF in by and worth[SELF] > 0 and worth[SELF] - cost > worth[OTHERS]:
        return by[SELF]
    if OTHERS in by:
        return by[OTHERS]
    return arrows[0]


def _goals(table: _Table) -> list[tuple[str, str, str, int, dict[str, Any]]]:
    """The outcomes the bot wants under its arrow, best first: (action type, argument name,
    resource, need, args) where ``need`` > 0 is a total of non-success dice and < 0 an exact
    count of them."""
    kind, scope = table.pair
    mine = scope == SELF
    goals: list[tuple[str, str, str, int, dict[str, Any]]] = []
    faces = [table.faces[d] for d in table.free]
    if kind == THREAT and mine:
        for r in table.resources(THREAT, mine=True):
            if not r.get("active") or table.touched.get(r["id"], "remove") != "remove" or not r.get("blocking"):
                continue
            plan = _removals(faces, r["blocking"])
            if plan is not None or table.touched.get(r["id"]) == "remove":
                for face in sorted(r["blocking"], reverse=True):  # clears the Threat: spare dice to the pool
                    goals.append(("remove_blocking_die", "threat", r["id"], face, {"blocking": face}))
                break
            goals.append(("deactivate_resource", "resource", r["id"], int(r["value"]), {}))  # all its dice go
            goals.extend(("remove_blocking_die", "threat", r["id"], f, {"blocking": f}) for f in sorted(r["blocking"]))
            break
    if kind == DESIRE and not mine:
        wanted = [r for r in table.resources(DESIRE, mine=False) if r.get("active")]
        wanted.sort(key=lambda r: -int(r["value"]))
        goals.extend(("address_desire", "desire", r["id"], -math.ceil(int(r["value"]) / 2), {}) for r in wanted)
        asleep = [r for r in table.resources(DESIRE, mine=False) if not r.get("active")]
        goals.extend(("activate_resource", "resource", r["id"], int(r["value"]), {}) for r in asleep)
        # a Desire the bot cannot satisfy now grows: satisfied later, it yields more influence dice
        goals.extend(("increase_resource", "resource", r["id"], int(r["value"]), {}) for r in wanted)
    if kind == DESIRE and mine:
        penalising = set(table.me.get("penalising_desires", []))
        costly = [r for r in table.resources(DESIRE, mine=True) if r.get("active") and r["id"] in penalising]
        goals.extend(("deactivate_resource", "resource", r["id"], int(r["value"]), {}) for r in costly)
    if kind == PROMISE and mine:
        for r in table.resources(PROMISE, mine=True):
            if r.get("active") and not table.fulfillable(r):
                goals.append(("deactivate_resource", "resource", r["id"], int(r["value"]), {}))  # unmatched: Misery
            elif not r.get("active") and _promising(table, r, faces):
                goals.append(("activate_resource", "resource", r["id"], int(r["value"]), {}))  # aid dice to fulfil
    if kind == PROMISE and not mine:
        theirs = table.resources(PROMISE, mine=False)
        asleep = [r for r in theirs if not r.get("active") and int(r["value"]) <= 2]
        goals.extend(("activate_resource", "resource", r["id"], int(r["value"]), {}) for r in asleep)  # binds them
        # with the dice left (an outcome's dice are still reclaimed): a bound Promise outlasts its fulfilment
        goals.extend(("increase_resource", "resource", r["id"], int(r["value"]), {}) for r in theirs if r.get("active"))
    if kind == THREAT:
        misery = int(table.sheet.get("misery", 0))
        held = table.sheet.get("influence", {})
        for r in table.resources(THREAT, mine=mine):
            if misery and (mine or held.get(r["owner"])) and len(faces):
                goals.append(("spend_misery", "target", r["id"], -min(misery, len(faces)), {}))
    return goals


def _towards(
    table: _Table, goal: tuple[str, str, str, int, dict[str, Any]], by_type: dict[str, list[Action]]
) -> Action | None:
    """The next step to ``goal``: its action once the chosen dice suffice, else one more die."""
    kind, name, ident, need, extra = goal
    if ident in table.touched and kind != "remove_blocking_die":
        return None
    chosen = [table.faces[d] for d in table.selected]
    if (need > 0 and sum(chosen) >= need) or (need < 0 and len(chosen) == -need):
        want = {name: ident, **extra}
        return next((a for a in by_type.get(kind, []) if all(a.args.get(k) == v for k, v in want.items())), None)
    rest = [d for d in table.free if d not in table.selected]
    if need < 0:
        if len(chosen) > -need or len(chosen) + len(rest) < -need:
            return None
        pick_die = min(rest, key=lambda d: table.faces[d])  # the smallest: larger ones serve other outcomes
    else:
        plan = _cheapest([table.faces[d] for d in rest], need - sum(chosen))
        if plan is None:
            return None
        pick_die = next(d for d in rest if table.faces[d] == plan[0])
    return next((a for a in by_type.get("select_die", []) if a.args.get("die") == pick_die), None)


def _gm_meaning(situation: Situation, by_type: dict[str, list[Action]], rng: random.Random) -> Action:
    """The GM (no character: no Desire, Threat or Promise of its own, no Misery) follows the arrow
    on others, wakes the players' Desires so that they can be pursued, and creates a resource."""
    view = situation.view
    attempt = view.get("action") or {}
    selected = list(attempt.get("selected", []))
    if "choose_arrow" in by_type:
        return next(
            (a for a in by_type["choose_arrow"] if a.args.get("orientation") == OTHERS), by_type["choose_arrow"][0]
        )
    inactive = _desires(view, GM, others=True, active=False)
    if "activate_resource" in by_type:
        ids = {r["id"] for r in inactive}
        wanted = [a for a in by_type["activate_resource"] if a.args.get("resource") in ids]
        if wanted:
            return wanted[0]
    if "create_resource" in by_type and not attempt.get("created"):
        return rng.choice(by_type["create_resource"])
    active = _desires(view, GM, others=True, active=True)
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


def _deny(situation: Situation, denials: list[Action]) -> Action | None:
    """[Desires]: a Desire the bot's roll fell short of is denied when the bot's Misery is at least
    twice its value (that much Misery goes to Spare and the Desire halves); a smaller one is kept."""
    me = _character(situation.view, situation.seat)
    value = {r.get("id"): int(r.get("value", 0)) for r in me.get("resources", [])}
    misery = int(me.get("misery", 0))
    heavy = [a for a in denials if misery >= 2 * value.get(a.args.get("desire"), 99)]
    return max(heavy, key=lambda a: value.get(a.args.get("desire"), 0)) if heavy else None


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
    if "deny_desire" in by_type:
        deny = _deny(situation, by_type["deny_desire"])
        if deny is not None:
            return deny
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
