"""What the action means: the arrow, the resource created, and the five outcomes ([What does it mean?]).

[What does it mean?], [Natural and unnatural resources], [Desires], [Threats], [Promises], [Misery].
"""

from __future__ import annotations

from math import ceil

from ...core import Event
from . import procedure as proc
from .arithmetic import (
    minimal_wipe_subsets,
)
from .blocking import blocks, remove_blocking_die
from .common import (
    S_DESIRES,
    S_MEANING,
    S_MISERY,
    S_OUTCOMES,
    S_PROMISES,
    S_THREATS,
    Args,
    name_of,
    refuse,
    selection_sum,
)
from .state import (
    DESIRE,
    GM,
    ORIENTATIONS,
    OTHERS,
    PROMISE,
    SELF,
    THREAT,
    MiseryState,
    Resource,
)
from .triangle import ARROWS


# -- A7 meaning ----------------------------------------------------------------------------------
def arrow_pair(state: MiseryState) -> tuple[str, str]:
    """The one (resource kind, scope) the meaning-decider may touch (MB-R20)."""
    attempt = state.attempt
    assert attempt is not None and attempt.orientation is not None
    part = state.participant(attempt.meaning_decider or "")
    assert part is not None
    return ARROWS[(part.pool, attempt.orientation)].kind, attempt.orientation


def fits(state: MiseryState, resource: Resource, arrow: tuple[str, str] | None = None) -> bool:
    """True when the resource is of the arrow's kind and scope (MB-R20, MB-R23).

    ``arrow`` is :func:`arrow_pair` when the caller has it already.
    """
    kind, scope = arrow or arrow_pair(state)
    me = state.attempt.meaning_decider if state.attempt else None
    mine = resource.owner == me
    return resource.kind == kind and (mine if scope == SELF else not mine)


def _need_arrow(state: MiseryState) -> None:
    assert state.attempt is not None
    if state.attempt.orientation is None:
        refuse("choose the arrow (others or self) first", "MB-R22", S_MEANING)


def check_choose_arrow(state: MiseryState, seat: str, args: Args) -> None:
    """MB-R22: the meaning-decider always chooses others or self; it drives every reclaim."""
    assert state.attempt is not None
    if state.attempt.orientation is not None:
        refuse("the arrow is already chosen", "MB-R22", S_MEANING)
    if args["orientation"] not in ORIENTATIONS:
        refuse("the arrow points to others or to self", "MB-R1", S_MEANING)


def play_choose_arrow(state: MiseryState, seat: str, args: Args) -> list[Event]:
    attempt = state.attempt
    assert attempt is not None
    attempt.orientation = args["orientation"]
    kind, scope = arrow_pair(state)
    where = "on others" if scope == OTHERS else "on self"
    return [Event("arrow", f"{name_of(state, seat)} follows the arrow {where}: {kind.capitalize()}s")]


def check_create_resource(state: MiseryState, seat: str, args: Args) -> None:
    """MB-R21: one resource per action, of the arrow's kind and scope, at value 1 and inactive."""
    _need_arrow(state)
    assert state.attempt is not None
    if state.attempt.created is not None:
        refuse("one resource is created per action", "MB-R21", S_MEANING)
    owner = args["owner"]
    _, scope = arrow_pair(state)
    if owner not in state.characters:
        refuse(f"{owner!r} is not a player's character", "MB-R23", S_MEANING)
    if (scope == SELF) != (owner == seat):
        refuse(f"the arrow you chose creates resources on {scope}", "MB-R20", S_MEANING)


def play_create_resource(state: MiseryState, seat: str, args: Args) -> list[Event]:
    attempt = state.attempt
    assert attempt is not None
    kind, _ = arrow_pair(state)
    ident = state.new_id("r")
    state.resources[ident] = Resource(ident, kind, args["owner"], seat, args["text"], 1)
    attempt.created = ident
    owner = state.characters[args["owner"]].name
    text = f'{kind.capitalize()} "{args["text"]}" (1, inactive) on {owner}'
    return [Event("create", text, data={"resource": ident})]


def _untouched(state: MiseryState, ident: str) -> None:
    assert state.attempt is not None
    if ident in state.attempt.touched:
        refuse("it has already had an outcome in this action", "MB-R25", S_OUTCOMES)


def _resource(state: MiseryState, ident: object, kind: str | None = None) -> Resource:
    _need_arrow(state)
    res = state.resources.get(ident) if isinstance(ident, str) else None
    if res is None or (kind is not None and res.kind != kind):
        refuse(f"there is no {kind or 'resource'} {ident!r}", "resources", S_MEANING)
    if not fits(state, res):
        k, scope = arrow_pair(state)
        refuse(f"your arrow lets you touch only {k.capitalize()}s on {scope}", "MB-R20", S_MEANING)
    _untouched(state, res.id)
    return res


def _player_decider(state: MiseryState, seat: str) -> None:
    if seat == GM:
        refuse("the GM may only create, activate, deactivate or raise resources", "MB-R36", S_MEANING)


def _selected_total_at_least(state: MiseryState, value: int, what: str) -> None:
    total = selection_sum(state)
    if total < value:
        refuse(f"the chosen non-success dice total {total}, less than {value} {what}", "MB-R24", S_OUTCOMES)


def check_spend_misery(state: MiseryState, seat: str, args: Args) -> None:
    """MB-R17, MB-R18, MB-R19: one Misery die per chosen non-success die, on a Trait or a Threat."""
    _need_arrow(state)
    _player_decider(state, seat)
    attempt = state.attempt
    assert attempt is not None
    k = len(attempt.selected)
    if k < 1:
        refuse("choose the non-success dice that buy Misery dice first", "MB-R19", S_OUTCOMES)
    me = state.characters[seat]
    if me.misery < k:
        refuse(f"you have {me.misery} Misery dice, not {k}", "MB-R19", S_MISERY)
    target = args["target"]
    if target in state.traits:
        owner = state.traits[target].owner
        _untouched(state, target)
    else:
        if target not in state.resources or state.resources[target].kind != THREAT:
            refuse(f"Misery is spent on a Trait or a Threat, not {target!r}", "MB-R18", S_MISERY)
        owner = _resource(state, target, THREAT).owner
    if owner != seat and me.influence.get(owner, 0) < 1:
        refuse("you spend Misery on another character only through influence over them", "MB-R17", S_OUTCOMES)


def _assign(state: MiseryState) -> list[int]:
    attempt = state.attempt
    assert attempt is not None
    part = state.participant(attempt.meaning_decider or "")
    assert part is not None
    indexes = [int(ref.rpartition(".")[2]) for ref in attempt.selected]
    part.assigned.extend(indexes)
    attempt.selected.clear()
    return indexes


def play_spend_misery(state: MiseryState, seat: str, args: Args) -> list[Event]:
    attempt = state.attempt
    assert attempt is not None
    k = len(_assign(state))
    state.characters[seat].misery -= k
    attempt.touched[args["target"]] = "misery"
    attempt.chance = {"type": "roll_misery", "target": args["target"], "k": k}
    return [Event("misery", f"{name_of(state, seat)} spends {k} Misery dice on {args['target']}")]


def check_activate_resource(state: MiseryState, seat: str, args: Args) -> None:
    """Outcome 2: an inactive resource becomes active for non-success dice totalling its value."""
    res = _resource(state, args["resource"])
    if res.active:
        refuse("it is already active", "MB-R26", S_OUTCOMES)
    _selected_total_at_least(state, res.value, "(its value)")


def play_activate_resource(state: MiseryState, seat: str, args: Args) -> list[Event]:
    attempt = state.attempt
    assert attempt is not None
    res = state.resources[args["resource"]]
    _assign(state)
    attempt.touched[res.id] = "activate"
    res.active = True
    if res.kind in (THREAT, PROMISE):
        attempt.chance = {"type": "roll_unaligned_until", "resource": res.id, "faces": []}
    return [Event("activate", f'{res.kind.capitalize()} "{res.text}" ({res.value}) is active')]


def check_deactivate_resource(state: MiseryState, seat: str, args: Args) -> None:
    """Outcome 3: an active resource becomes inactive for non-success dice totalling its value."""
    res = _resource(state, args["resource"])
    if not res.active:
        refuse("it is not active", "MB-R26", S_OUTCOMES)
    _selected_total_at_least(state, res.value, "(its value)")


def _settle(res: Resource) -> None:
    """Inactive: blocking and aid dice return to the supply (MB-R50)."""
    res.active = False
    res.blocking = []
    res.aid = []


def play_deactivate_resource(state: MiseryState, seat: str, args: Args) -> list[Event]:
    assert state.attempt is not None
    res = state.resources[args["resource"]]
    _assign(state)
    state.attempt.touched[res.id] = "deactivate"
    _settle(res)
    return [Event("deactivate", f'{res.kind.capitalize()} "{res.text}" is no longer active')]


def check_increase_resource(state: MiseryState, seat: str, args: Args) -> None:
    """Outcome 4: an active resource rises by one for non-success dice totalling its value."""
    res = _resource(state, args["resource"])
    if not res.active:
        refuse("only an active resource can be raised", "MB-R26", S_OUTCOMES)
    _selected_total_at_least(state, res.value, "(its value)")


def play_increase_resource(state: MiseryState, seat: str, args: Args) -> list[Event]:
    assert state.attempt is not None
    res = state.resources[args["resource"]]
    _assign(state)
    state.attempt.touched[res.id] = "increase"
    res.value += 1
    return [Event("increase", f'{res.kind.capitalize()} "{res.text}" rises to {res.value}')]


def check_address_desire(state: MiseryState, seat: str, args: Args) -> None:
    """[Desires] Addressing, MB-R31: half the Desire (rounded up) in non-success dice go to your Spare."""
    _player_decider(state, seat)
    res = _resource(state, args["desire"], DESIRE)
    if res.owner == seat:
        refuse("only another player can satisfy a Desire", "MB-R31", S_DESIRES)
    if not res.active:
        refuse("only an active Desire can be addressed", "MB-R26", S_OUTCOMES)
    assert state.attempt is not None
    need = ceil(res.value / 2)
    if len(state.attempt.selected) != need:
        refuse(f"addressing this Desire takes exactly {need} non-success dice", "MB-R31", S_DESIRES)


def play_address_desire(state: MiseryState, seat: str, args: Args) -> list[Event]:
    attempt = state.attempt
    assert attempt is not None
    res = state.resources[args["desire"]]
    part = state.participant(seat)
    assert part is not None
    indexes = _assign(state)
    part.spent.extend(indexes)
    me, owner = state.characters[seat], state.characters[res.owner]
    me.spare += len(indexes)
    taken = min(res.value, owner.spare)
    owner.spare -= taken
    me.influence[res.owner] = me.influence.get(res.owner, 0) + taken
    attempt.touched[res.id] = "address"
    res.value += 1
    _settle(res)
    text = (
        f'{me.name} satisfies "{res.text}": takes {taken} of {owner.name}\'s dice as influence; it rises to {res.value}'
    )
    return [Event("address", text)]


def check_remove_blocking_die(state: MiseryState, seat: str, args: Args) -> None:
    """[Threats] Addressing: your non-success dice totalling a blocking die remove it (MB-R2, MB-R25)."""
    _need_arrow(state)
    _player_decider(state, seat)
    attempt = state.attempt
    assert attempt is not None
    ident = args["threat"]
    res = state.resources.get(ident) if isinstance(ident, str) else None
    if res is None or res.kind != THREAT or res.owner != seat:
        refuse(f"{ident!r} is not a Threat on your character", "MB-R20", S_THREATS)
    if arrow_pair(state) != (THREAT, SELF):
        refuse("Threats are addressed after rolling Insight with the arrow on self", "MB-R20", S_MEANING)
    if attempt.touched.get(res.id, "remove") != "remove":
        refuse("it has already had another outcome in this action", "MB-R25", S_OUTCOMES)
    if not blocks(res, args["blocking"]):
        refuse(f"the Threat has no blocking die showing {args['blocking']}", "MB-R28", S_THREATS)
    _selected_total_at_least(state, args["blocking"], "(the blocking die)")


def play_remove_blocking_die(state: MiseryState, seat: str, args: Args) -> list[Event]:
    attempt = state.attempt
    assert attempt is not None
    res = state.resources[args["threat"]]
    _assign(state)
    attempt.touched[res.id] = "remove"
    mitigated = remove_blocking_die(res, args["blocking"])
    events = [Event("unblock", f'Threat "{res.text}" no longer blocks a {args["blocking"]}')]
    if mitigated:
        events.append(Event("address", f'Threat "{res.text}" is mitigated'))
        attempt.chance = {"type": "roll_spare_until", "threat": res.id, "faces": []}
        if state.characters[seat].spare == 0:
            finish_threat_address(state)
    return events


def finish_threat_address(state: MiseryState) -> None:
    """MB-R32: the spare dice rolled go to the arrow's pool; the Threat halves and is inactive."""
    attempt = state.attempt
    assert attempt is not None and attempt.chance is not None
    res = state.resources[str(attempt.chance["threat"])]
    faces: list[int] = attempt.chance["faces"]  # type: ignore[assignment]
    me = state.participant(res.owner)
    assert me is not None
    dest = ARROWS[(me.pool, attempt.orientation or SELF)].dest
    state.characters[res.owner].pool[dest] += len(faces)
    attempt.chance = None
    _halve(state, res)


def _halve(state: MiseryState, res: Resource) -> None:
    """MB-R51, MB-R27: halve rounding down; at 0 it is gone."""
    _settle(res)
    res.value //= 2
    if res.value == 0:
        del state.resources[res.id]


def check_fulfil_promise(state: MiseryState, seat: str, args: Args) -> None:
    """[Promises] Addressing, MB-R33: when every aid die matched, the Promise is fulfilled (in part)."""
    _player_decider(state, seat)
    res = _resource(state, args["promise"], PROMISE)
    part = state.participant(seat)
    assert part is not None
    if not res.active or res.id not in part.fulfillable:
        refuse("a Promise is fulfilled only when every one of its aid dice matched", "MB-R33", S_PROMISES)


def play_fulfil_promise(state: MiseryState, seat: str, args: Args) -> list[Event]:
    attempt = state.attempt
    assert attempt is not None
    res = state.resources[args["promise"]]
    part = state.participant(seat)
    assert part is not None
    me = state.characters[seat]
    k = min(len(res.aid), me.spare)
    me.spare -= k
    part.fulfilment.extend(res.aid[:k])
    attempt.touched[res.id] = "fulfil"
    text = f'{me.name} fulfils "{res.text}": {k} own dice join the roll'
    _halve(state, res)
    return [Event("address", text)]


def check_end_meaning(state: MiseryState, seat: str, args: Args) -> None:
    _need_arrow(state)


def play_end_meaning(state: MiseryState, seat: str, args: Args) -> list[Event]:
    proc.start_growth(state)
    return []


def check_choose_wipe_subset(state: MiseryState, seat: str, args: Args) -> None:
    """MB-R16: keep only the Misery dice the wipe-out needs; the rest return to Misery."""
    attempt = state.attempt
    assert attempt is not None and attempt.wipe is not None
    dice = args["dice"]
    if not all(isinstance(d, int) and not isinstance(d, bool) for d in dice):
        refuse("list the faces of the Misery dice you use", "MB-R16", S_MISERY)
    options = minimal_wipe_subsets(int(attempt.wipe["value"]), list(attempt.wipe["faces"]))  # type: ignore[call-overload]
    if tuple(dice) not in options:
        refuse(
            f"use a smallest set of the rolled dice that wipes the Trait out, faces in rising order:"
            f" one of {[list(o) for o in options]}",
            "MB-R16",
            S_MISERY,
        )


def play_choose_wipe_subset(state: MiseryState, seat: str, args: Args) -> list[Event]:
    attempt = state.attempt
    assert attempt is not None and attempt.wipe is not None
    trait = state.traits.pop(str(attempt.wipe["trait"]))
    k = len(attempt.wipe["faces"])  # type: ignore[arg-type]
    used = len(args["dice"])
    me = state.characters[seat]
    me.spare += used
    me.misery += k - used
    attempt.wipe = None
    return [Event("wipe", f'"{trait.text}" is wiped out; {k - used} Misery dice return to Misery')]
