"""Every legal decision of a seat, listed directly (not by trying actions through ``check``).

The lists agree with :mod:`.rules`: each listed action passes ``check`` and each action that
passes ``check`` matches one listed here (free text as :class:`Text`, amounts as :class:`IntRange`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import cache, lru_cache
from math import ceil

from ...core import Action, IntRange, Text
from . import procedure as proc
from . import rules
from .arithmetic import minimal_wipe_subsets
from .blocking import removable_faces
from .state import ATTRIBUTES, GM, ORIENTATIONS, OTHERS, PROMISE, SELF, THREAT, MiseryState

# -- values made once and shared (see memo.py): declarations are frozen and slow to create -------
INTENT = Text("what your character attempts")
TRAIT_TEXT = Text("the Trait")
RESOURCE_TEXT = Text("the resource")


@cache
def amount(lo: int, hi: int) -> IntRange:
    """The declaration of a number from ``lo`` to ``hi``."""
    return IntRange(lo, hi)


CHALLENGE = amount(1, 6)


@lru_cache(maxsize=None, typed=True)
def decision(seat: str, kind: str, name: str = "", value: Hashable = None) -> Action:
    """A listed action with no parameter, or one plain parameter ``name=value``, made once.

    An action is a value (never changed), so the same object is listed wherever it is legal.
    """
    return Action(seat, kind, {name: value} if name else {})


def legal_actions(state: MiseryState, seat: str, ctx: str | None = None) -> list[Action]:
    """``seat``'s legal actions; ``ctx`` is where the table is (:func:`.common.context`) when known."""
    lister = LISTERS.get(rules.context(state) if ctx is None else ctx)
    return [] if lister is None else lister(state, seat)


def setup_actions(state: MiseryState, seat: str) -> list[Action]:
    if seat == GM or state.characters[seat].rating:
        return []
    lo, hi = state.settings.rating_min, state.settings.rating_max
    return [Action(seat, "set_ratings", {a: amount(lo, hi) for a in ATTRIBUTES})]


def success_actions(state: MiseryState, seat: str) -> list[Action]:
    attempt = state.attempt
    assert attempt is not None
    if seat != attempt.success_decider:
        return []
    return [decision(seat, "decide_success", "succeeds", b) for b in (True, False)]


def wipe_actions(state: MiseryState, seat: str) -> list[Action]:
    attempt = state.attempt
    assert attempt is not None and attempt.wipe is not None
    if seat != attempt.meaning_decider:
        return []
    wipe = attempt.wipe
    options = minimal_wipe_subsets(int(wipe["value"]), list(wipe["faces"]))  # type: ignore[call-overload]
    return [Action(seat, "choose_wipe_subset", {"dice": list(o)}) for o in options]


def roll_templates(state: MiseryState, seat: str, kind: str) -> list[Action]:
    """``call_action`` / ``oppose``: one per pool that can supply the dice (MB-R42)."""
    decl = state.declaration
    carried = decl.carried if decl is not None and decl.seat == seat else 0
    lo = 0 if carried else 1
    pools = state.characters[seat].pool
    return [roll_template(seat, kind, attr, lo, pools[attr]) for attr in ATTRIBUTES if pools[attr] >= lo]


@cache
def roll_template(seat: str, kind: str, pool: str, lo: int, hi: int) -> Action:
    """``call_action``, ``oppose`` or ``gm_oppose`` (``pool``: its label) with lo..hi dice, made once."""
    if kind == "gm_oppose":
        return Action(seat, kind, {"challenge": CHALLENGE, "dice": amount(lo, hi), "pool_label": pool})
    args: dict[str, object] = {"pool": pool, "challenge": CHALLENGE, "dice": amount(lo, hi)}
    if kind == "call_action":
        args["intent"] = INTENT
    return Action(seat, kind, args)


def trait_choices(state: MiseryState, seat: str) -> list[Action]:
    """Accepting or refusing provisional Traits while declaring (MB-R38, MB-R39)."""
    out = []
    room = len(state.traits_of(seat)) < state.settings.max_traits
    rolls = rules.can_still_roll(state, seat)
    for prov in state.provisionals_of(seat):
        if room:
            out.append(decision(seat, "accept_trait", "trait", prov.id))
        if rolls:
            out.append(decision(seat, "refuse_trait", "trait", prov.id))
    return out


def idle_actions(state: MiseryState, seat: str) -> list[Action]:
    if seat == GM:
        return []
    decl = state.declaration
    if decl is not None and decl.seat != seat:
        return []
    round_robin = state.settings.calling_order == "round_robin"
    if round_robin and seat != state.turn:
        return []
    out = roll_templates(state, seat, "call_action") + trait_choices(state, seat)
    if decl is not None:
        return out
    for colour, held in state.characters[seat].influence.items():
        if held:
            out.append(Action(seat, "offer_trait", {"target": colour, "text": TRAIT_TEXT, "dice": amount(1, held)}))
    if state.end_vote is None or seat not in state.end_vote.answers:
        out.append(decision(seat, "end_game"))
    if round_robin:
        out.append(decision(seat, "pass_turn"))
    return out


def opposition_actions(state: MiseryState, seat: str) -> list[Action]:
    assert state.attempt is not None
    if state.attempt.answering[0] != seat:
        return []
    if seat == GM:
        top = state.settings.gm_max_dice
        out = [roll_template(seat, "gm_oppose", attr, 1, top) for attr in ATTRIBUTES]
        return [*out, decision(seat, "pass_opposition")]
    out = roll_templates(state, seat, "oppose") + trait_choices(state, seat)
    decl = state.declaration
    if decl is None or decl.seat != seat:
        out.append(decision(seat, "pass_opposition"))
    return out


def selection_actions(state: MiseryState, seat: str) -> list[Action]:
    attempt = state.attempt
    assert attempt is not None
    out = [decision(seat, "select_die", "die", ref) for ref in rules.selectable(state, seat)]
    if attempt.selected:
        out.extend([decision(seat, "unselect_die", "die", ref) for ref in attempt.selected])
    return out


def reroll_actions(state: MiseryState, seat: str) -> list[Action]:
    attempt = state.attempt
    assert attempt is not None
    if proc.current_player(attempt) != seat:
        return []
    out = selection_actions(state, seat)
    if attempt.selected:
        total = rules.selection_sum(state)
        pools = [a for a in ATTRIBUTES if state.characters[seat].pool[a] > 0]
        for trait in state.traits_of(seat):
            if trait.id in attempt.traits_used or trait.value < total:
                continue
            for pool in pools:
                for mode in rules.FEE_MODES:
                    out.append(Action(seat, "use_trait", {"trait": trait.id, "fee_pool": pool, "fee_mode": mode}))
    out.append(decision(seat, "pass_reroll"))
    return out


def meaning_actions(state: MiseryState, seat: str) -> list[Action]:
    """The decider's outcomes, in any order they like; a roll an outcome needs resolves before
    the next is offered.

    Rule: MB-R47
    """
    attempt = state.attempt
    assert attempt is not None
    if seat != attempt.meaning_decider:
        return []
    if attempt.orientation is None:
        return [decision(seat, "choose_arrow", "orientation", o) for o in ORIENTATIONS]
    out = selection_actions(state, seat)
    arrow = rules.arrow_pair(state)
    _, scope = arrow
    if attempt.created is None:
        owners = [seat] if scope == SELF and seat != GM else []
        if scope == OTHERS:
            owners = [p for p in state.players if p != seat]
        out.extend(Action(seat, "create_resource", {"owner": o, "text": RESOURCE_TEXT}) for o in owners)
    k = len(attempt.selected)
    total = rules.selection_sum(state) if k else 0
    touched = attempt.touched
    for res in state.resources.values():
        if res.kind != arrow[0] or not rules.fits(state, res, arrow):
            continue
        if res.id not in touched and k and total >= res.value:
            verb = "deactivate_resource" if res.active else "activate_resource"
            out.append(decision(seat, verb, "resource", res.id))
            if res.active:
                out.append(decision(seat, "increase_resource", "resource", res.id))
        if seat != GM:
            out.extend(_address_actions(state, seat, res.id, k, total))
    if seat != GM:
        out.extend(_misery_actions(state, seat, k, arrow))
    out.append(decision(seat, "end_meaning"))
    return out


def _address_actions(state: MiseryState, seat: str, ident: str, k: int, total: int) -> list[Action]:
    """Outcome 5 for each kind of resource [Desires], [Threats], [Promises]."""
    attempt = state.attempt
    assert attempt is not None
    res = state.resources[ident]
    if not res.active:
        return []
    touched = attempt.touched.get(ident)
    if res.kind == THREAT:
        if res.owner != seat or touched not in (None, "remove") or not k:
            return []
        faces = removable_faces(res, total)
        return [Action(seat, "remove_blocking_die", {"threat": ident, "blocking": f}) for f in faces]
    if touched is not None:
        return []
    if res.kind == PROMISE:
        part = state.participant(seat)
        ok = part is not None and res.owner == seat and ident in part.fulfillable
        return [decision(seat, "fulfil_promise", "promise", ident)] if ok else []
    if res.owner != seat and k == ceil(res.value / 2):
        return [decision(seat, "address_desire", "desire", ident)]
    return []


def _misery_actions(state: MiseryState, seat: str, k: int, arrow: tuple[str, str]) -> list[Action]:
    """Outcome 1: Misery on a Trait or a Threat, through influence on others (MB-R17, MB-R18)."""
    attempt = state.attempt
    assert attempt is not None
    me = state.characters[seat]
    if not k or me.misery < k:
        return []
    out = []
    for trait in state.traits.values():
        if trait.id not in attempt.touched and (trait.owner == seat or me.influence.get(trait.owner, 0) > 0):
            out.append(decision(seat, "spend_misery", "target", trait.id))
    if arrow[0] == THREAT:
        for res in state.resources.values():
            if res.kind != THREAT or res.id in attempt.touched or not rules.fits(state, res, arrow):
                continue
            if res.owner == seat or me.influence.get(res.owner, 0) > 0:
                out.append(decision(seat, "spend_misery", "target", res.id))
    return out


def growth_actions(state: MiseryState, seat: str) -> list[Action]:
    attempt = state.attempt
    assert attempt is not None
    if proc.current_player(attempt) != seat:
        return []
    out = selection_actions(state, seat)
    if attempt.selected:
        total = rules.selection_sum(state)
        for ident in attempt.traits_used:
            trait = state.traits.get(ident)
            if trait is not None and trait.value <= total:
                out.append(decision(seat, "increase_trait", "trait", ident))
    out.append(decision(seat, "end_growth"))
    return out


def reclaim_actions(state: MiseryState, seat: str) -> list[Action]:
    attempt = state.attempt
    assert attempt is not None
    if proc.current_player(attempt) != seat:
        return []
    part = state.participant(seat)
    assert part is not None
    out = []
    others = rules.reclaim_orientation(state, seat) == OTHERS
    for ident in part.penalising:
        if ident in state.resources and ident not in attempt.denied:
            denied = [*attempt.denied, ident]
            rc = 0 if others else None
            if rules.misery_after(state, part, rc, denied) >= rules.denial_cost(state, denied):
                out.append(decision(seat, "deny_desire", "desire", ident))
    if others:
        out.append(Action(seat, "reclaim", {"reclaim_count": amount(0, rules.reclaim_limit(state, part))}))
    else:
        out.append(decision(seat, "reclaim"))
    return out


LISTERS: dict[str, Callable[[MiseryState, str], list[Action]]] = {
    "setup": setup_actions,
    "idle": idle_actions,
    "declaring": idle_actions,
    "opposition": opposition_actions,
    "reroll": reroll_actions,
    "success": success_actions,
    "wipe": wipe_actions,
    "meaning": meaning_actions,
    "growth": growth_actions,
    "reclaim": reclaim_actions,
}
"""Who lists the legal actions in each context (none while dice roll or after the end)."""
