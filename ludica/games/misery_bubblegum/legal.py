"""Every legal decision of a seat, listed directly (not by trying actions through ``check``).

The lists agree with :mod:`.rules`: each listed action passes ``check`` and each action that
passes ``check`` matches one listed here (free text as :class:`Text`, amounts as :class:`IntRange`).
"""

from __future__ import annotations

from math import ceil

from ...core import Action, IntRange, Text
from . import procedure as proc
from . import rules
from .arithmetic import minimal_wipe_subsets
from .state import ATTRIBUTES, GM, ORIENTATIONS, OTHERS, PROMISE, SELF, THREAT, MiseryState


def legal_actions(state: MiseryState, seat: str) -> list[Action]:
    ctx = rules.context(state)
    if ctx in ("over", "chance"):
        return []
    if ctx == "setup":
        if seat == GM or state.characters[seat].rating:
            return []
        lo, hi = state.settings.rating_min, state.settings.rating_max
        return [Action(seat, "set_ratings", {a: IntRange(lo, hi) for a in ATTRIBUTES})]
    if ctx in ("idle", "declaring"):
        return idle_actions(state, seat)
    attempt = state.attempt
    assert attempt is not None
    if ctx == "opposition":
        return opposition_actions(state, seat) if attempt.answering[0] == seat else []
    if ctx in ("reroll", "growth", "reclaim"):
        if proc.current_player(attempt) != seat:
            return []
        return {"reroll": reroll_actions, "growth": growth_actions, "reclaim": reclaim_actions}[ctx](state, seat)
    if ctx == "success":
        if seat != attempt.success_decider:
            return []
        return [Action(seat, "decide_success", {"succeeds": b}) for b in (True, False)]
    if seat != attempt.meaning_decider:
        return []
    if ctx == "wipe":
        wipe = attempt.wipe
        assert wipe is not None
        options = minimal_wipe_subsets(int(wipe["value"]), list(wipe["faces"]))  # type: ignore[call-overload]
        return [Action(seat, "choose_wipe_subset", {"dice": list(o)}) for o in options]
    return meaning_actions(state, seat)


def roll_templates(state: MiseryState, seat: str, kind: str) -> list[Action]:
    """``call_action`` / ``oppose``: one per pool that can supply the dice (MB-R42)."""
    decl = state.declaration
    carried = decl.carried if decl is not None and decl.seat == seat else 0
    lo = 0 if carried else 1
    pools = state.characters[seat].pool
    out = []
    for attr in ATTRIBUTES:
        if pools[attr] >= lo:
            args: dict[str, object] = {"pool": attr, "challenge": IntRange(1, 6), "dice": IntRange(lo, pools[attr])}
            if kind == "call_action":
                args["intent"] = Text("what your character attempts")
            out.append(Action(seat, kind, args))
    return out


def trait_choices(state: MiseryState, seat: str) -> list[Action]:
    """Accepting or refusing provisional Traits while declaring (MB-R38, MB-R39)."""
    out = []
    room = len(state.traits_of(seat)) < state.settings.max_traits
    rolls = rules.can_still_roll(state, seat)
    for prov in state.provisionals_of(seat):
        if room:
            out.append(Action(seat, "accept_trait", {"trait": prov.id}))
        if rolls:
            out.append(Action(seat, "refuse_trait", {"trait": prov.id}))
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
            out.append(
                Action(seat, "offer_trait", {"target": colour, "text": Text("the Trait"), "dice": IntRange(1, held)})
            )
    if state.end_vote is None or seat not in state.end_vote.answers:
        out.append(Action(seat, "end_game"))
    if round_robin:
        out.append(Action(seat, "pass_turn"))
    return out


def opposition_actions(state: MiseryState, seat: str) -> list[Action]:
    if seat == GM:
        top = state.settings.gm_max_dice
        out = [
            Action(seat, "gm_oppose", {"challenge": IntRange(1, 6), "dice": IntRange(1, top), "pool_label": attr})
            for attr in ATTRIBUTES
        ]
        return [*out, Action(seat, "pass_opposition")]
    out = roll_templates(state, seat, "oppose") + trait_choices(state, seat)
    decl = state.declaration
    if decl is None or decl.seat != seat:
        out.append(Action(seat, "pass_opposition"))
    return out


def selection_actions(state: MiseryState, seat: str) -> list[Action]:
    attempt = state.attempt
    assert attempt is not None
    out = [Action(seat, "select_die", {"die": ref}) for ref in rules.selectable(state, seat)]
    out.extend(Action(seat, "unselect_die", {"die": ref}) for ref in attempt.selected)
    return out


def reroll_actions(state: MiseryState, seat: str) -> list[Action]:
    attempt = state.attempt
    assert attempt is not None
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
    out.append(Action(seat, "pass_reroll"))
    return out


def meaning_actions(state: MiseryState, seat: str) -> list[Action]:
    attempt = state.attempt
    assert attempt is not None
    if attempt.orientation is None:
        return [Action(seat, "choose_arrow", {"orientation": o}) for o in ORIENTATIONS]
    out = selection_actions(state, seat)
    _, scope = rules.arrow_pair(state)
    if attempt.created is None:
        owners = [seat] if scope == SELF and seat != GM else []
        if scope == OTHERS:
            owners = [p for p in state.players if p != seat]
        out.extend(Action(seat, "create_resource", {"owner": o, "text": Text("the resource")}) for o in owners)
    total = rules.selection_sum(state)
    k = len(attempt.selected)
    touched = attempt.touched
    for res in state.resources.values():
        if not rules.fits(state, res):
            continue
        if res.id not in touched and k and total >= res.value:
            verb = "deactivate_resource" if res.active else "activate_resource"
            out.append(Action(seat, verb, {"resource": res.id}))
            if res.active:
                out.append(Action(seat, "increase_resource", {"resource": res.id}))
        if seat != GM:
            out.extend(_address_actions(state, seat, res.id, k, total))
    if seat != GM:
        out.extend(_misery_actions(state, seat, k))
    out.append(Action(seat, "end_meaning"))
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
        faces = sorted(set(res.blocking))
        return [Action(seat, "remove_blocking_die", {"threat": ident, "blocking": f}) for f in faces if f <= total]
    if touched is not None:
        return []
    if res.kind == PROMISE:
        part = state.participant(seat)
        ok = part is not None and res.owner == seat and ident in part.fulfillable
        return [Action(seat, "fulfil_promise", {"promise": ident})] if ok else []
    if res.owner != seat and k == ceil(res.value / 2):
        return [Action(seat, "address_desire", {"desire": ident})]
    return []


def _misery_actions(state: MiseryState, seat: str, k: int) -> list[Action]:
    """Outcome 1: Misery on a Trait or a Threat, through influence on others (MB-R17, MB-R18)."""
    attempt = state.attempt
    assert attempt is not None
    me = state.characters[seat]
    if not k or me.misery < k:
        return []
    out = []
    for trait in state.traits.values():
        if trait.id not in attempt.touched and (trait.owner == seat or me.influence.get(trait.owner, 0) > 0):
            out.append(Action(seat, "spend_misery", {"target": trait.id}))
    kind, _ = rules.arrow_pair(state)
    if kind == THREAT:
        for res in state.resources.values():
            if res.kind != THREAT or res.id in attempt.touched or not rules.fits(state, res):
                continue
            if res.owner == seat or me.influence.get(res.owner, 0) > 0:
                out.append(Action(seat, "spend_misery", {"target": res.id}))
    return out


def growth_actions(state: MiseryState, seat: str) -> list[Action]:
    attempt = state.attempt
    assert attempt is not None
    out = selection_actions(state, seat)
    if attempt.selected:
        total = rules.selection_sum(state)
        for ident in attempt.traits_used:
            trait = state.traits.get(ident)
            if trait is not None and trait.value <= total:
                out.append(Action(seat, "increase_trait", {"trait": ident}))
    out.append(Action(seat, "end_growth"))
    return out


def reclaim_actions(state: MiseryState, seat: str) -> list[Action]:
    attempt = state.attempt
    assert attempt is not None
    part = state.participant(seat)
    assert part is not None
    out = []
    others = rules.reclaim_orientation(state, seat) == OTHERS
    for ident in part.penalising:
        if ident in state.resources and ident not in attempt.denied:
            denied = [*attempt.denied, ident]
            rc = 0 if others else None
            if rules.misery_after(state, part, rc, denied) >= rules.denial_cost(state, denied):
                out.append(Action(seat, "deny_desire", {"desire": ident}))
    if others:
        out.append(Action(seat, "reclaim", {"reclaim_count": IntRange(0, rules.reclaim_limit(state, part))}))
    else:
        out.append(Action(seat, "reclaim"))
    return out
