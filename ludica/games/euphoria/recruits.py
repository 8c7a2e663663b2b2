"""The recruits' abilities, each at its trigger (``data/recruits.yaml``).

Only active recruits work, and none for a player under the Academy of Mandatory Equality
(:func:`.status.has`). Optional abilities are offered as a ``use_ability`` question whose first
option is ``decline``; exchanges are one exchange per trigger; a price in morale needs morale
above it, a price in knowledge room below 6 (rulebook "A few notes about recruits").
Cost modifiers (Josh, Brian, Michael, Flartner, Matthew, Kadan, revised Jacko) live in
:mod:`.payments`; retrieval modifiers (Jefferson, Gidgit, Yordy, Pete, Sheppard, Maggie) and
Steven in :mod:`.turn`; Curtis and Nick in :mod:`.tracks`; Ray in :mod:`.markets`; Andrew in
:mod:`.spaces`.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core import Event
from .agenda import Events, answer, ask, push, task
from .oracle import COMMODITIES, FACTIONS, ICARUS, RECRUITS, RESOURCES, SPACES, artifact_kind
from .payments import outstanding, still_payable
from .spaces import faction_of, kind_of, site_of
from .state import EuphoriaState, Task
from .status import has, revised
from .tracks import (
    advance_allegiance,
    advance_miner,
    can_pay_knowledge,
    can_pay_morale,
    discard_kind,
    draw,
    gain,
    hand_kinds,
    knowledge,
    morale,
    place_star,
    territory_room,
)
from .turn import settle_dice

Answer = Callable[[EuphoriaState, str, str, list, Events], None]
ABILITY: dict[str, Answer] = {}
MARKET_KINDS = ("artifact_market", "market_visit")


def ability(rid: str) -> Callable[[Answer], Answer]:
    assert rid in RECRUITS, rid

    def register(fn: Answer) -> Answer:
        ABILITY[rid] = fn
        return fn

    return register


def offer(st: EuphoriaState, seat: str, rid: str, options: list[str], ctx: list, ev: Events) -> None:
    """An optional ability: ``decline`` or one of ``options`` (those that leave the placement
    being settled payable in full: issue 14)."""
    if outstanding(st, seat) is not None:
        options = [o for o in options if _keeps_cost_payable(st, seat, rid, o, ctx)]
        if not options:
            return
    ask(st, seat, "use_ability", ["decline", *options], [rid, *ctx], ev)


def _keeps_cost_payable(st: EuphoriaState, seat: str, rid: str, option: str, ctx: list) -> bool:
    """Tried on a copy: after the ability (what it spends, the morale it costs, so the hand limit),
    the cost of the seat's placement can still be paid in full from a hand within its morale."""
    trial = st.copy()
    ABILITY[rid](trial, seat, option, list(ctx), [])
    return still_payable(trial, seat, limit=trial.players[seat].morale)


def must(st: EuphoriaState, seat: str, rid: str, options: list[str], ctx: list, ev: Events) -> None:
    """A mandatory ability with a choice (a single option is applied at once)."""
    ask(st, seat, "use_ability", options, [rid, *ctx], ev)


@answer("use_ability")
def _use(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    if option == "decline":
        return
    rid = ctx[0]
    ev.append(
        Event(
            "ability",
            f"{seat} uses {RECRUITS[rid].name}" + ("" if option == "use" else f": {option}"),
            data={"seat": seat},
        )
    )
    ABILITY[rid](st, seat, option, ctx[1:], ev)


@task("ability")
def _ability(st: EuphoriaState, t: Task, ev: Events) -> None:
    """``Task("ability", (recruit, seat, *context))``: offer or apply one recruit's trigger."""
    TRIGGERS[t.args[0]](st, t.args[1], list(t.args[2:]), ev)


Trigger = Callable[[EuphoriaState, str, list, Events], None]
TRIGGERS: dict[str, Trigger] = {}


def trigger(rid: str) -> Callable[[Trigger], Trigger]:
    assert rid in RECRUITS, rid

    def register(fn: Trigger) -> Trigger:
        TRIGGERS[rid] = fn
        return fn

    return register


def _queue(st: EuphoriaState, seat: str, rids: list[str] | tuple[str, ...], ctx: list) -> None:
    """Push the ``ability`` task of each of ``rids`` the seat may use now, in their order (only
    its active recruits are asked :func:`has`: a placement's list names twenty)."""
    active = st.players[seat].active
    tasks = [Task("ability", (rid, seat, *ctx)) for rid in rids if rid in active and has(st, seat, rid)]
    if tasks:
        push(st, *tasks)


# ================================================================================================
# Bumps: the bumped worker returns (Amanda), then the placer's bump exchanges (rulebook: the bump
# and its exchange come first, then everything else of the action space).
# ================================================================================================
@task("bumped")
def _bumped(st: EuphoriaState, t: Task, ev: Events) -> None:
    owner, face, bumper, space = t.args[0], t.args[1], t.args[2], t.args[3]
    amanda = has(st, owner, "amanda_the_broker") and st.players[owner].goods["bliss"] > 0
    if amanda and (bumper != owner or revised(st, "amanda_the_broker")):
        offer(st, owner, "amanda_the_broker", [f"face-{n}" for n in range(1, 7)], [bumper], ev)
        push(st, Task("roll_unless_set", (owner,)))
        st.flags["amanda_set"] = False
        return
    if (
        bumper != owner
        and has(st, bumper, "julia_the_thought_inspector")
        and revised(st, "julia_the_thought_inspector")
    ) and can_pay_morale(st, bumper, 1):
        offer(st, bumper, "julia_the_thought_inspector", list(RESOURCES), [owner, face, space], ev)
        push(st, Task("roll_unless_set", (owner,)))
        st.flags["amanda_set"] = False
        return
    push(st, Task("roll", (owner, 1, "bumped")))


@task("roll_unless_set")
def _roll_unless_set(st: EuphoriaState, t: Task, ev: Events) -> None:
    if not st.flags.pop("amanda_set", False):
        push(st, Task("roll", (t.args[0], 1, "bumped")))


@ability("amanda_the_broker")
def _amanda(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    """Pay a bliss (to the bumping player; revised: to the supply) and set the returning die."""
    bumper = ctx[0]
    st.players[seat].goods["bliss"] -= 1
    if not revised(st, "amanda_the_broker"):
        gain(st, bumper, "bliss")
    st.flags["amanda_set"] = True
    settle_dice(st, seat, [int(option.removeprefix("face-"))], "set by Amanda", ev)


@task("bump_bonus")
def _bump_bonus(st: EuphoriaState, t: Task, ev: Events) -> None:
    """The placer's bump exchanges (Maxime, Lee, Rebecca, Julia, Phil, Dave, Xander, Laura, Flavio),
    offered right after the bump, before the cost is paid (the rulebook's order).

    Rule: SP 2
    """
    seat, space, face, owner, owner_face = t.args[0], t.args[1], t.args[2], t.args[3], t.args[4]
    ctx = [space, face, owner, owner_face]
    rivals = [
        "maxime_the_ambassador",
        "lee_the_gossip",
        "rebecca_the_peddler",
        "julia_the_thought_inspector",
        "dave_the_demolitionist",
        "xander_the_excavator",
        "laura_the_philanthropist",
        "flavio_the_merchant",
    ]
    _queue(st, seat, ["phil_the_spy", *(rivals if owner != seat else [])], ctx)


@trigger("maxime_the_ambassador")
def _t_maxime(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if can_pay_morale(st, seat, 2):
        offer(st, seat, "maxime_the_ambassador", ["use"], ctx, ev)


@ability("maxime_the_ambassador")
def _maxime(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    morale(st, seat, -2, ev)
    knowledge(st, ctx[2], 1, ev)
    draw(st, seat)


@trigger("lee_the_gossip")
def _t_lee(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if can_pay_morale(st, seat, 1):
        offer(st, seat, "lee_the_gossip", list(COMMODITIES), ctx, ev)


@ability("lee_the_gossip")
def _lee(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    morale(st, seat, -1, ev)
    gain(st, seat, option)
    knowledge(st, ctx[2], 1, ev)


@trigger("rebecca_the_peddler")
def _t_rebecca(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if can_pay_morale(st, seat, 2):
        offer(st, seat, "rebecca_the_peddler", list(RESOURCES), ctx, ev)


@ability("rebecca_the_peddler")
def _rebecca(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    morale(st, seat, -2, ev)
    gain(st, seat, option)
    knowledge(st, ctx[2], 1, ev)


@trigger("julia_the_thought_inspector")
def _t_julia(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    """Original: bumping a rival's same-number worker, 2 morale for a resource. (The revised
    card acts when the bumped worker returns, see ``bumped``.)"""
    if not revised(st, "julia_the_thought_inspector") and ctx[1] == ctx[3] and can_pay_morale(st, seat, 2):
        offer(st, seat, "julia_the_thought_inspector", list(RESOURCES), ctx, ev)


@ability("julia_the_thought_inspector")
def _julia(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    if revised(st, "julia_the_thought_inspector"):
        owner, face, space = ctx[0], ctx[1], ctx[2]
        morale(st, seat, -1, ev)
        gain(st, seat, option)
        st.flags["amanda_set"] = True
        placed = [o[1] for o in st.occupants.get(space, []) if o[0] == seat]
        settle_dice(st, owner, [placed[-1] if placed else face], "set by Julia", ev)
        return
    morale(st, seat, -2, ev)
    gain(st, seat, option)


@trigger("phil_the_spy")
def _t_phil(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    from .status import has_faction

    cost = 1 if revised(st, "phil_the_spy") else 2
    if not has_faction(st, ctx[2], "subterran") and can_pay_knowledge(st, seat, cost):
        offer(st, seat, "phil_the_spy", ["use"], ctx, ev)


@ability("phil_the_spy")
def _phil(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    knowledge(st, seat, 1 if revised(st, "phil_the_spy") else 2, ev)
    draw(st, seat)


def _tunnel_faction(space: str) -> str | None:
    sp = SPACES.get(space)
    return sp.faction if sp is not None and sp.kind == "tunnel" else None


@trigger("dave_the_demolitionist")
def _t_dave(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    cost = 1 if revised(st, "dave_the_demolitionist") else 2
    if _tunnel_faction(ctx[0]) and can_pay_knowledge(st, seat, cost):
        offer(st, seat, "dave_the_demolitionist", ["use"], ctx, ev)


@ability("dave_the_demolitionist")
def _dave(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    faction = _tunnel_faction(ctx[0])
    assert faction is not None
    knowledge(st, seat, 1 if revised(st, "dave_the_demolitionist") else 2, ev)
    gain(st, seat, FACTIONS[faction].resource or "")
    advance_miner(st, faction, 1, ev)


@trigger("xander_the_excavator")
def _t_xander(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if _tunnel_faction(ctx[0]) and ctx[3] > ctx[1] and can_pay_knowledge(st, seat, 1):
        offer(st, seat, "xander_the_excavator", ["use"], ctx, ev)


@ability("xander_the_excavator")
def _xander(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    faction = _tunnel_faction(ctx[0])
    assert faction is not None
    knowledge(st, seat, 1, ev)
    gain(st, seat, FACTIONS[faction].resource or "")


@trigger("laura_the_philanthropist")
def _t_laura(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if kind_of(ctx[0]) in ("tunnel", "tank") and st.players[seat].goods["gold"] > 0:
        offer(st, seat, "laura_the_philanthropist", ["use"], ctx, ev)


@ability("laura_the_philanthropist")
def _laura(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    st.players[seat].goods["gold"] -= 1
    gain(st, ctx[2], "gold")
    draw(st, seat, 2)


@trigger("flavio_the_merchant")
def _t_flavio_bump(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if not revised(st, "flavio_the_merchant") and kind_of(ctx[0]) in MARKET_KINDS and can_pay_morale(st, seat, 2):
        offer(st, seat, "flavio_the_merchant", ["use"], ctx, ev)


@ability("flavio_the_merchant")
def _flavio(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    if revised(st, "flavio_the_merchant"):
        knowledge(st, seat, 1, ev)
    else:
        morale(st, seat, -2, ev)
    draw(st, seat)


# ================================================================================================
# Placement triggers (after the space's benefit)
# ================================================================================================
PLACE_RECRUITS = (
    "zong_the_astronomer",
    "sarinee_the_cloud_miner",
    "katy_the_dietician",
    "gary_the_electrician",
    "josiah_the_hacker",
    "faith_the_hydroelectrician",
    "soulless_the_plumber",
    "scarby_the_harvester",
    "ian_the_horticulturist",
    "kyle_the_scavenger",
    "esme_the_fireman",
    "bradley_the_futurist",
    "brett_the_lockpicker",
    "nakagawa_the_tribute",
    "jacko_the_archivist",
    "jonathan_the_artist",
    "reitz_the_archeologist",
    "chase_the_miner",
    "brian_the_viticulturist",
)


@task("on_place")
def _on_place(st: EuphoriaState, t: Task, ev: Events) -> None:
    seat, space, face, bumped = t.args[0], t.args[1], t.args[2], t.args[3]
    _queue(st, seat, PLACE_RECRUITS, [space, face, bumped])
    flavio = has(st, seat, "flavio_the_merchant") and revised(st, "flavio_the_merchant")
    if flavio and kind_of(space) in MARKET_KINDS and can_pay_knowledge(st, seat, 1):
        offer(st, seat, "flavio_the_merchant", ["use"], [space], ev)


def _others_there(st: EuphoriaState, seat: str, space: str) -> list[list]:
    """Workers on ``space`` other than the one just placed (the last of the placer's)."""
    occs = [list(o) for o in st.occupants.get(space, [])]
    for i in range(len(occs) - 1, -1, -1):
        if occs[i][0] == seat:
            del occs[i]
            break
    return occs


def _alone(st: EuphoriaState, seat: str, space: str) -> bool:
    return not _others_there(st, seat, space)


@trigger("zong_the_astronomer")
def _t_zong(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if ctx[0] != "cloud_mine":
        return
    p = st.players[seat]
    if revised(st, "zong_the_astronomer"):
        if can_pay_knowledge(st, seat, 1):
            offer(st, seat, "zong_the_astronomer", ["use"], ctx, ev)
    elif not p.hand and p.total_goods(RESOURCES) == 0:
        must(st, seat, "zong_the_astronomer", ["energy", "water"], ctx, ev)


@ability("zong_the_astronomer")
def _zong(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    if revised(st, "zong_the_astronomer"):
        knowledge(st, seat, 1, ev)
        for other in st.seats:
            if other != seat:
                gain(st, other, "bliss")
        draw(st, seat)
        return
    gain(st, seat, option)


@trigger("sarinee_the_cloud_miner")
def _t_sarinee(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if ctx[0] == "cloud_mine" and _alone(st, seat, ctx[0]):
        must(st, seat, "sarinee_the_cloud_miner", ["bliss", "knowledge-1"], ctx, ev)


def _good_or_track(st: EuphoriaState, seat: str, option: str, ev: Events) -> None:
    """``energy`` / ``morale+1`` / ``knowledge-1`` style options."""
    if option.startswith("morale"):
        morale(st, seat, int(option.removeprefix("morale")), ev)
    elif option.startswith("knowledge"):
        knowledge(st, seat, int(option.removeprefix("knowledge")), ev)
    else:
        gain(st, seat, option)


for _rid in ("sarinee_the_cloud_miner", "gary_the_electrician", "soulless_the_plumber", "scarby_the_harvester"):
    ABILITY[_rid] = lambda st, seat, option, ctx, ev: _good_or_track(st, seat, option, ev)


def _empty_handed_bonus(rid: str, space: str, good: str, need_no: str) -> Trigger:
    """A bonus for a player with no artifacts (or no resources at all) on one space.

    Rule: SP 28
    """

    def fn(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
        p = st.players[seat]
        empty = not p.hand if need_no == "artifacts" else p.total_goods(RESOURCES) == 0
        if ctx[0] == space and empty:
            gain(st, seat, good)
            ev.append(Event("ability", f"{seat}'s {RECRUITS[rid].name} adds 1 {good}", data={"seat": seat}))

    TRIGGERS[rid] = fn
    return fn


_empty_handed_bonus("katy_the_dietician", "generator", "food", "artifacts")
_empty_handed_bonus("faith_the_hydroelectrician", "aquifer", "energy", "artifacts")
_empty_handed_bonus("ian_the_horticulturist", "farm", "water", "resources")


@trigger("gary_the_electrician")
def _t_gary(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if ctx[0] == "generator" and any(o[1] == ctx[1] for o in _others_there(st, seat, ctx[0])):
        options = ["energy"] if st.players[seat].morale >= 6 else ["energy", "morale+1"]
        must(st, seat, "gary_the_electrician", options, ctx, ev)


@trigger("josiah_the_hacker")
def _t_josiah(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if ctx[0] not in ("generator", "farm", "cloud_mine"):
        return
    morale(st, seat, 1, ev)
    for other in sorted({o[0] for o in st.occupants[ctx[0]] if o[0] != seat}, key=st.seats.index):
        knowledge(st, other, 1, ev)
    ev.append(Event("ability", f"{seat}'s Josiah the Hacker: morale +1, the others there learn", data={"seat": seat}))


@trigger("soulless_the_plumber")
def _t_soulless(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if ctx[0] == "aquifer" and all(o[1] > ctx[1] for o in _others_there(st, seat, ctx[0])):
        must(st, seat, "soulless_the_plumber", ["water", "morale+1"], ctx, ev)


@trigger("scarby_the_harvester")
def _t_scarby(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if ctx[0] == "farm" and all(o[1] < ctx[1] for o in _others_there(st, seat, ctx[0])):
        must(st, seat, "scarby_the_harvester", ["food", "knowledge-1"], ctx, ev)


@trigger("kyle_the_scavenger")
def _t_kyle(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if kind_of(ctx[0]) == "commodity_area" and _alone(st, seat, ctx[0]) and st.players[seat].knowledge <= 4:
        offer(st, seat, "kyle_the_scavenger", ["use"], ctx, ev)


@ability("kyle_the_scavenger")
def _kyle(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    knowledge(st, seat, 2, ev)
    draw(st, seat)


_STAR_MARKET_KINDS = (*MARKET_KINDS, "wind_saloon", "nimbus_loft")


def _star_market(space: str) -> bool:
    """Artifact markets, built markets, Wind Saloon and Nimbus Loft (Esme's places)."""
    return kind_of(space) in _STAR_MARKET_KINDS


@trigger("esme_the_fireman")
def _t_esme(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if _star_market(ctx[0]) and ctx[2] is None and st.players[seat].hand:
        kinds = sorted(hand_kinds(st, seat))
        offer(st, seat, "esme_the_fireman", [f"{k}:{t}" for k in kinds for t in ("morale", "knowledge")], ctx, ev)


@ability("esme_the_fireman")
def _esme(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    kind, _, track = option.partition(":")
    discard_kind(st, seat, kind)
    if revised(st, "esme_the_fireman") and kind == "book":
        gain(st, seat, "energy", 2)
        morale(st, seat, 2, ev)
        knowledge(st, seat, -2, ev)
        return
    gain(st, seat, "energy")
    if track == "morale":
        morale(st, seat, 1, ev)
    else:
        knowledge(st, seat, -1, ev)


@trigger("bradley_the_futurist")
def _t_bradley(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if kind_of(ctx[0]) in MARKET_KINDS and can_pay_knowledge(st, seat, 2):
        offer(st, seat, "bradley_the_futurist", ["use"], ctx, ev)


@ability("bradley_the_futurist")
def _bradley(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    knowledge(st, seat, 2, ev)
    push(st, Task("discard_new", (seat, list(st.players[seat].hand), 1)))
    draw(st, seat, 2, changed=True)


@task("discard_new")
def _discard_new(st: EuphoriaState, t: Task, ev: Events) -> None:
    """Discard ``n`` of the cards drawn since the hand held the cards ``before``."""
    seat, before, n = t.args[0], t.args[1], t.args[2]
    new = drawn_since(st.players[seat].hand, before)
    if n > 0 and len(new) > 1:
        push(st, Task("discard_new", (seat, before, n - 1)))
        ask(st, seat, "discard_artifact", sorted({artifact_kind(c) for c in new}), ["drawn"], ev)


def drawn_since(hand: list[str], before: list[str] | int) -> list[str]:
    """The cards of ``hand`` drawn since it held the card ids ``before``: known by identity, so a
    hand-limit discard asked in between (of an older card or of a drawn one) cannot make a drawn
    card pass for an old one. A count (a position saved by an older version) is read as before.

    Rule: [A Few Notes About Recruits]
    """
    if isinstance(before, int):
        return hand[before:]
    held = set(before)
    return [c for c in hand if c not in held]


@task("discard_any")
def _discard_any(st: EuphoriaState, t: Task, ev: Events) -> None:
    seat, n = t.args[0], t.args[1]
    if n > 0 and st.players[seat].hand:
        push(st, Task("discard_any", (seat, n - 1)))
        ask(st, seat, "discard_artifact", sorted(hand_kinds(st, seat)), ["any"], ev)


@trigger("brett_the_lockpicker")
def _t_brett(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    cost = 1 if revised(st, "brett_the_lockpicker") else 2
    if kind_of(ctx[0]) in MARKET_KINDS and ctx[2] is None and can_pay_knowledge(st, seat, cost):
        offer(st, seat, "brett_the_lockpicker", list(RESOURCES), ctx, ev)


@ability("brett_the_lockpicker")
def _brett(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    knowledge(st, seat, 1 if revised(st, "brett_the_lockpicker") else 2, ev)
    gain(st, seat, option)


@trigger("nakagawa_the_tribute")
def _t_nakagawa(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    space = ctx[0]
    if revised(st, "nakagawa_the_tribute"):
        if kind_of(space) == "construction":
            advance_allegiance(st, "euphorian", 1, ev)
        return
    faction = faction_of(space)
    if kind_of(space) in MARKET_KINDS and st.players[seat].workers > 1 and faction and territory_room(st, faction):
        offer(st, seat, "nakagawa_the_tribute", ["sacrifice"], ctx, ev)


@ability("nakagawa_the_tribute")
def _nakagawa(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    space = ctx[0]
    sacrifice_placed(st, seat, space, ctx[1])
    place_star(st, seat, f"territory:{faction_of(space)}", ev)


def sacrifice_placed(st: EuphoriaState, seat: str, space: str, face: int) -> None:
    """The worker just placed goes back to the pool of recruitable workers."""
    occs = st.occupants.get(space, [])
    if [seat, face] in occs:
        occs.remove([seat, face])
        if not occs:
            del st.occupants[space]
        st.players[seat].workers -= 1


@trigger("jacko_the_archivist")
def _t_jacko(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    space = ctx[0]
    if revised(st, "jacko_the_archivist"):
        if space == "ark_of_fractured_memories" and st.flags.get("paid_one_artifact"):
            for other in st.seats:
                if other != seat:
                    draw(st, other)
        return
    faction = faction_of(space)
    if kind_of(space) in MARKET_KINDS and faction and territory_room(st, faction) and len(st.players[seat].hand) >= 2:
        kinds = hand_kinds(st, seat)
        held = sorted(kinds)
        pairs = [f"{a}+{b}" for i, a in enumerate(held) for b in held[i:] if a != b or kinds[a] >= 2]
        offer(st, seat, "jacko_the_archivist", pairs, ctx, ev)


@ability("jacko_the_archivist")
def _jacko(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    for kind in option.split("+"):
        discard_kind(st, seat, kind)
    place_star(st, seat, f"territory:{faction_of(ctx[0])}", ev)


@trigger("jonathan_the_artist")
def _t_jonathan_artist(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    from .markets import occupied_spots

    site = site_of(ctx[0])
    if kind_of(ctx[0]) != "construction" or site is None or not can_pay_knowledge(st, seat, 2):
        return
    others = list(occupied_spots(st, site))
    others.remove([seat, ctx[1]])
    if all(o[1] < ctx[1] for o in others):
        offer(st, seat, "jonathan_the_artist", ["use"], ctx, ev)


@ability("jonathan_the_artist")
def _jonathan_artist(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    knowledge(st, seat, 2, ev)
    draw(st, seat)


@trigger("reitz_the_archeologist")
def _t_reitz(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if _tunnel_faction(ctx[0]) and ctx[2] is None and can_pay_knowledge(st, seat, 2):
        offer(st, seat, "reitz_the_archeologist", ["use"], ctx, ev)


@ability("reitz_the_archeologist")
def _reitz(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    faction = _tunnel_faction(ctx[0])
    assert faction is not None
    knowledge(st, seat, 2, ev)
    advance_miner(st, faction, 1, ev)
    draw(st, seat)


@trigger("chase_the_miner")
def _t_chase(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    on_board = [seat, ctx[1]] in st.occupants.get(ctx[0], [])
    if _tunnel_faction(ctx[0]) and st.players[seat].workers > 1 and on_board:
        offer(st, seat, "chase_the_miner", ["sacrifice"], ctx, ev)


@ability("chase_the_miner")
def _chase(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    faction = _tunnel_faction(ctx[0])
    assert faction is not None
    sacrifice_placed(st, seat, ctx[0], ctx[1])
    gain(st, seat, FACTIONS[faction].resource or "", 2)


@trigger("brian_the_viticulturist")
def _t_brian(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    """Revised card only: every placement in Icarus costs 1 morale."""
    if revised(st, "brian_the_viticulturist") and ctx[0] in ICARUS:
        morale(st, seat, -1, ev)


# ================================================================================================
# New workers, artifacts, doubles, end of turn
# ================================================================================================
@task("new_worker")
def _new_worker(st: EuphoriaState, t: Task, ev: Events) -> None:
    """After a new worker: Sheppard and Pete react; Chase the Miner's new worker joins the turn at once.

    Rule: SP 5
    """
    seat = t.args[0]
    _queue(st, seat, ["sheppard_the_lobotomist", "pete_the_cannibal"], ["tank"])
    new = st.flags.pop("new_worker", None)
    if new is None or new[0] != seat or new[1] not in st.players[seat].available:
        return  # no new worker, or it deserted in its own knowledge check: nothing else may follow
    if has(st, seat, "chase_the_miner") and seat == st.turn:
        st.chain.append(new[1])
        ev.append(Event("ability", f"{seat}'s Chase the Miner sends the new worker straight to work"))


@trigger("sheppard_the_lobotomist")
def _t_sheppard(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if can_pay_morale(st, seat, 2):
        offer(st, seat, "sheppard_the_lobotomist", ["use"], ctx, ev)


@ability("sheppard_the_lobotomist")
def _sheppard(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    morale(st, seat, -2, ev)
    draw(st, seat)


@trigger("pete_the_cannibal")
def _t_pete(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if can_pay_knowledge(st, seat, 2):
        offer(st, seat, "pete_the_cannibal", ["use"], ctx, ev)


@ability("pete_the_cannibal")
def _pete(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    knowledge(st, seat, 2, ev)
    draw(st, seat)


@ability("yordy_the_demotivator")
def _yordy(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    """Revised Yordy: after a free retrieval, pay 1 energy to set one retrieved worker's face."""
    faces = list(ctx[0])
    if option != "roll-all":
        _set, old, _to, new = option.split("-")
        faces.remove(int(old))
        st.players[seat].goods["energy"] -= 1
        push(st, Task("set_face", (seat, int(new))))
    push(st, Task("retrieve_sacrifice", (seat, faces)))


@task("set_face")
def _set_face(st: EuphoriaState, t: Task, ev: Events) -> None:
    settle_dice(st, t.args[0], [t.args[1]], "set by an ability", ev)


@task("after_draw")
def _after_draw(st: EuphoriaState, t: Task, ev: Events) -> None:
    """Jonathan the Gambler, once per turn, when an artifact is gained.

    Rule: SP 30
    """
    seat = t.args[0]
    used = st.flags.setdefault("gambled", [])
    if seat in used or not has(st, seat, "jonathan_the_gambler"):
        return
    if revised(st, "jonathan_the_gambler") or (can_pay_knowledge(st, seat, 1) and len(st.artifacts.cards) >= 2):
        used.append(seat)
        offer(st, seat, "jonathan_the_gambler", ["use"], [t.args[1]], ev)


@ability("jonathan_the_gambler")
def _gambler(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    p = st.players[seat]
    if revised(st, "jonathan_the_gambler"):
        push(st, Task("gambler_pair", (seat,)))
        draw(st, seat)
        return
    knowledge(st, seat, 1, ev)
    card = ctx[0]
    shown = st.artifacts.draw(2)
    three = [card, *shown]
    kinds = [artifact_kind(c) for c in three]
    keep = [c for c, k in zip(three, kinds, strict=True) if kinds.count(k) > 1]
    if card in p.hand and card not in keep:
        p.hand.remove(card)
        st.artifacts.discard([card])
    p.hand.extend(c for c in shown if c in keep)
    st.artifacts.discard(c for c in shown if c not in keep)
    ev.append(Event("ability", f"{seat} gambles: {', '.join(kinds)}; keeps {len(keep)}", data={"seat": seat}))


@task("gambler_pair")
def _gambler_pair(st: EuphoriaState, t: Task, ev: Events) -> None:
    seat = t.args[0]
    if any(n >= 2 for n in hand_kinds(st, seat).values()):
        for other in st.seats:
            if other != seat:
                draw(st, other)


@task("doubles")
def _doubles(st: EuphoriaState, t: Task, ev: Events) -> None:
    """Ben the Ludologist: a rival's roll made doubles: 2 morale for a resource.

    Rule: SP 12
    """
    roller, doubles = t.args[0], t.args[1]
    if not doubles:
        return
    for seat in st.seats:
        if seat != roller and has(st, seat, "ben_the_ludologist") and can_pay_morale(st, seat, 2):
            push(st, Task("ability", ("ben_the_ludologist", seat)))


@trigger("ben_the_ludologist")
def _t_ben(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    if can_pay_morale(st, seat, 2):
        offer(st, seat, "ben_the_ludologist", list(RESOURCES), ctx, ev)


@ability("ben_the_ludologist")
def _ben(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    morale(st, seat, -2, ev)
    gain(st, seat, option)


@task("geek")
def _geek(st: EuphoriaState, t: Task, ev: Events) -> None:
    """Geek the Oracle: at the end of a turn in which you gained an artifact."""
    for seat in st.flags.get("drew", []):
        cost = 1 if revised(st, "geek_the_oracle") else 2
        if has(st, seat, "geek_the_oracle") and can_pay_knowledge(st, seat, cost):
            push(st, Task("ability", ("geek_the_oracle", seat)))
    st.flags["drew"] = []


@trigger("geek_the_oracle")
def _t_geek(st: EuphoriaState, seat: str, ctx: list, ev: Events) -> None:
    offer(st, seat, "geek_the_oracle", ["use"], ctx, ev)


@ability("geek_the_oracle")
def _geek_use(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    n = 2 if revised(st, "geek_the_oracle") else 1
    knowledge(st, seat, 1 if n == 2 else 2, ev)
    push(st, Task("discard_any", (seat, n)), Task("hand_limit"))
    draw(st, seat, n, then_limit=False, changed=True)  # draw n, discard n, then the hand limit
