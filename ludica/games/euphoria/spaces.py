"""Worker placement: where a worker may go, and what each kind of space gives.

Rulebook "Worker Placement" (temporary, multi-use, one-time spaces; bumping), "Order of
Operations" (place the worker, bumping if needed, then pay, then gain), "Worker Activation
Tank", "Commodity Areas", "Tunnels", "Construction Sites", "Artifact Markets", "Constructed
Markets", "Icarus".
"""

from __future__ import annotations

from typing import Any

from ...core import Event
from . import payments
from .agenda import Events, answer, ask, push, task
from .oracle import (
    BRACKETS,
    FACTIONS,
    ICARUS,
    MARKET_SUFFIX,
    MARKETS,
    MAX_WORKERS,
    RESOURCES,
    SITES,
    SPACES,
    SPOT_SEP,
    TUNNEL_END,
    spot_ids,
)
from .state import EuphoriaState, Task
from .status import has, has_faction, penalties, penalty_values, tier_bonus
from .tracks import (
    advance_allegiance,
    advance_miner,
    discard_kind,
    draw,
    gain,
    knowledge,
    morale,
    place_star,
    territory_room,
)


# -- where spaces are ----------------------------------------------------------------------------
def site_of(space: str) -> str | None:
    if SPOT_SEP in space:
        return space.partition(SPOT_SEP)[0]
    if space.endswith(MARKET_SUFFIX):
        return space[: -len(MARKET_SUFFIX)]
    return None


def faction_of(space: str) -> str | None:
    site = site_of(space)
    if site is not None:
        return SITES[site].faction
    return SPACES[space].faction


def kind_of(space: str) -> str:
    kind = _KINDS.get(space)
    return kind if kind is not None else _kind_of(space)


def _kind_of(space: str) -> str:
    if SPOT_SEP in space:
        return "construction"
    if space.endswith(MARKET_SUFFIX):
        return "market_visit"
    return SPACES[space].kind


_KINDS: dict[str, str] = {
    s: _kind_of(s)
    for s in [*SPACES, *(x for site in SITES for x in spot_ids(site)), *(site + MARKET_SUFFIX for site in SITES)]
}


def bumpable(space: str) -> bool:
    """Temporary and exclusive spaces hold one worker, who is bumped by the next.

    Rule: SP 3
    """
    kind = kind_of(space)
    return kind not in ("construction", "commodity_area")


def all_spaces(st: EuphoriaState) -> list[str]:
    """Every space that exists now (visit spaces of built markets, spots of unbuilt sites)."""
    out = list(SPACES)
    for site in SITES:
        if site in st.built:
            out.append(site + MARKET_SUFFIX)
        else:
            out.extend(spot_ids(site))
    return out


# -- may a worker go there? ----------------------------------------------------------------------
def refusal(st: EuphoriaState, seat: str, space: str, pens: frozenset[str] | None = None) -> str | None:
    """Why ``seat`` may not place on ``space`` now (``None`` when it may). ``pens``: the market
    penalties binding the seat (computed once when listing)."""
    if pens is None:
        pens = frozenset(penalties(st, seat))
    kind = kind_of(space)
    occupants = st.occupants.get(space, [])
    if space in ICARUS and "apothecary_of_productive_dreams" in pens:
        return "the Apothecary of Productive Dreams closes Icarus to you"
    if kind == "commodity_area":
        if "arena_of_peaceful_conflict" in pens and any(o[0] == seat for o in occupants):
            return "the Arena of Peaceful Conflict allows one of your workers per commodity area"
    elif kind == "construction":
        site = site_of(space)
        assert site is not None
        if occupants:
            return "that construction spot is taken (one-time spaces cannot be bumped)"
        if "lounge_of_opulent_frugality" in pens and any(
            o[0] != seat for s in spot_ids(site) for o in st.occupants.get(s, [])
        ):
            return "the Lounge of Opulent Frugality forbids joining a site where a rival builds"
    else:
        if occupants and occupants[0][0] == seat and "spa_of_fleeting_pleasure" in pens:
            return "the Spa of Fleeting Pleasure forbids bumping your own worker"
        if kind == "tunnel_end":
            faction = SPACES[space].faction
            assert faction is not None
            if st.miners[faction] < TUNNEL_END:
                return "this exclusive space opens when its tunnel is complete"
            if not has_faction(st, seat, faction) and not has(st, seat, "kadan_the_infiltrator"):
                return f"only players with an active {faction} recruit may use this exclusive space"
        if (
            kind == "market_visit"
            and "plaza_of_immortalized_humility" in pens
            and seat not in st.built[site_of(space) or ""]
        ):
            return "the Plaza of Immortalized Humility forbids visiting markets without your star"
    # only a tunnel's price depends on bumping a rival (Matthew the Thief)
    if kind != "commodity_area" and not payments.payable(
        st, seat, space, kind == "tunnel" and bumps_rival(st, seat, space)
    ):
        return "you cannot pay the cost of that space"
    if bumps_self_under_roll_loss(st, seat, space, pens) and not payments.survives_a_loss(st, seat, space, False):
        return (
            "the cost must be paid in full, and a roll penalty on your own bumped worker could take the good it needs"
        )
    return None


def bumps_self_under_roll_loss(st: EuphoriaState, seat: str, space: str, pens: frozenset[str]) -> bool:
    """Placing here bumps the seat's own worker, whose roll (before the cost is paid: place, bump,
    pay, gain) a roll-penalty market binding the seat may tax."""
    occ = st.occupants.get(space)
    if not occ:
        return False
    return occ[0][0] == seat and bumpable(space) and any(MARKETS[m].penalty == "roll_loss" for m in pens)


def bumps_rival(st: EuphoriaState, seat: str, space: str) -> bool:
    occ = st.occupants.get(space, [])
    return bumpable(space) and bool(occ) and occ[0][0] != seat


def legal_spaces(st: EuphoriaState, seat: str) -> list[str]:
    """Every space ``seat`` may place on now: the same judgement as :func:`refusal`, with the
    fixed spaces' penalties read once (:func:`_open_fixed_spaces`) and the construction spots
    (most of the board) checked site by site."""
    pens = frozenset(penalties(st, seat))
    out = _open_fixed_spaces(st, seat, pens)
    goods = st.players[seat].goods
    any_resource = has(st, seat, "michael_the_engineer") and any(goods[r] for r in RESOURCES)
    any_card = has(st, seat, "flartner_the_luddite") and bool(st.players[seat].hand)
    lounge = "lounge_of_opulent_frugality" in pens
    occupants = st.occupants
    for site, visit, spots in _SITE_SPOTS:
        if site in st.built:
            if refusal(st, seat, visit, pens) is None:
                out.append(visit)
            continue
        if lounge and _rival_builds(occupants, spots, seat):
            continue
        for spot, cost in spots:
            occ = occupants.get(spot)
            if not occ and (goods[cost] > 0 or any_resource or any_card):
                out.append(spot)
    return out


_SITE_SPOTS: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = tuple(
    (site, site + MARKET_SUFFIX, tuple(zip(spot_ids(site), info.spot_costs, strict=True)))
    for site, info in SITES.items()
)
"""Per construction site, in board order: its market's visit space and its (spot, printed cost)
pairs, built once (the listing above runs at every turn decision; plain tuples compile to direct
indexing where a three-way ``zip`` at each call made a tuple per spot)."""


def _rival_builds(occupants: dict[str, list[list[Any]]], spots: tuple[tuple[str, str], ...], seat: str) -> bool:
    """A rival's worker is on one of the site's spots (the Lounge of Opulent Frugality's test)."""
    for spot, _cost in spots:
        occ = occupants.get(spot)
        if occ:
            for o in occ:
                if o[0] != seat:
                    return True
    return False


_FIXED: tuple[tuple[str, str, tuple[tuple[str, int], ...], str], ...] = tuple(
    (space, sp.kind, sp.cost, sp.faction or "") for space, sp in SPACES.items()
)


def _open_fixed_spaces(st: EuphoriaState, seat: str, pens: frozenset[str]) -> list[str]:
    """:func:`refusal` over the board's fixed spaces with the binding penalties looked up once:
    commodity areas (no price), exclusive tunnel ends (closed while their tunnel is incomplete,
    the test :func:`refusal` makes before any that could open them; then through
    :func:`refusal`), and the others
    (Spa, then the price: goods only at the tanks and tunnels, as :func:`payments.payable`
    judges it without Matthew the Thief; elsewhere its direct answer for the space's kind,
    :func:`payments.quick_fixed`, else :func:`payments.payable`)."""
    occupants = st.occupants
    goods = st.players[seat].goods
    icarus_closed = "apothecary_of_productive_dreams" in pens
    arena = "arena_of_peaceful_conflict" in pens
    spa = "spa_of_fleeting_pleasure" in pens
    matthew = has(st, seat, "matthew_the_thief")
    roll_loss = any(MARKETS[m].penalty == "roll_loss" for m in pens)
    out = []
    miners = st.miners
    for space, kind, cost, faction in _FIXED:
        if icarus_closed and space in ICARUS:
            continue
        occ = occupants.get(space)
        if kind == "commodity_area":
            if not (arena and occ and any(o[0] == seat for o in occ)):
                out.append(space)
        elif kind == "tunnel_end":
            if miners[faction] >= TUNNEL_END and refusal(st, seat, space, pens) is None:
                out.append(space)
        elif spa and occ and occ[0][0] == seat:
            continue
        elif roll_loss and occ and occ[0][0] == seat:
            if refusal(st, seat, space, pens) is None:
                out.append(space)
        elif kind == "tank" or (kind == "tunnel" and not matthew):
            if all(goods[good] >= n for good, n in cost):
                out.append(space)
        else:
            quick = payments.quick_fixed(st, seat, space, kind)
            if quick is None:
                quick = payments.payable(st, seat, space, kind == "tunnel" and bumps_rival(st, seat, space))
            if quick:
                out.append(space)
    return out


# -- placing -------------------------------------------------------------------------------------
def place(st: EuphoriaState, seat: str, face: int, space: str, ev: Events) -> None:
    """Place the worker, bumping if the space is taken, then queue paying and gaining.

    Rule: [Worker Placement]; SP 1; SP 2
    """
    p = st.players[seat]
    p.available.remove(face)
    occ = st.occupants.setdefault(space, [])
    bumped = occ.pop(0) if bumpable(space) and occ else None
    rival = bumped is not None and bumped[0] != seat
    occ.append([seat, face])
    ev.append(Event("place", f"{seat} places a {face} on {space}", data={"seat": seat, "space": space}))
    tasks: list[Task] = []
    if bumped is not None:
        st.players[bumped[0]].rolling += 1
        ev.append(Event("bump", f"{seat} bumps {bumped[0]}'s {bumped[1]} off {space}"))
        tasks.append(Task("bumped", (bumped[0], bumped[1], seat, space)))
        tasks.append(Task("bump_bonus", (seat, space, face, bumped[0], bumped[1])))
    tasks += [
        Task("pay", (seat, space, rival)),
        Task("gain", (seat, space, face)),
        Task("on_place", (seat, space, face, bumped)),
    ]
    site = site_of(space)
    if site is not None and site not in st.built:
        tasks.append(Task("build_check", (site,)))
    push(st, *tasks)


@task("pay")
def _pay(st: EuphoriaState, t: Task, ev: Events) -> None:
    seat, space, rival = t.args[0], t.args[1], t.args[2]
    opts = payments.options(st, seat, space, rival) or payments.options(st, seat, space, rival, strict=False)
    if not opts:
        forfeit(st, seat, space, ev)
        return
    ask(st, seat, "pay", opts, [space], ev)


def forfeit(st: EuphoriaState, seat: str, space: str, ev: Events) -> None:
    """No benefit without the cost paid in full (issue 14). The check refuses a placement whose
    cost a roll penalty could take; only the player's own choices in between (an ability that
    spends the good, or lowers morale and so the hand limit) can leave it unpaid: the worker stays,
    the space gives nothing."""
    for kind in ("gain", "on_place"):
        index = next((i for i, t in enumerate(st.agenda) if t.name == kind and t.args[0:2] == (seat, space)), None)
        if index is not None:
            del st.agenda[index]
    ev.append(Event("pay", f"{seat} can no longer pay for {space} in full: it gives nothing", data={"seat": seat}))


@answer("pay")
def _paid(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    space = ctx[0]
    if space in ("retrieve", "dilemma"):
        from .turn import pay_dilemma, pay_retrieval

        if space == "retrieve":
            pay_retrieval(st, seat, option, ctx[1], ctx[2], ev)
        else:
            pay_dilemma(st, seat, option, ev)
        return
    pay_tokens(st, seat, payments.tokens_of(option), ev)
    st.flags["paid_one_artifact"] = len(payments.tokens_of(option)) == 1 and option.startswith(payments.ART)
    if option != payments.NOTHING:
        ev.append(Event("pay", f"{seat} pays {option.replace('art-', '')}", data={"seat": seat}))
    _payment_bonuses(st, seat, space, payments.tokens_of(option), ev)


def pay_tokens(st: EuphoriaState, seat: str, tokens: list[str], ev: Events) -> None:
    p = st.players[seat]
    for tok in tokens:
        if tok == "knowledge":
            knowledge(st, seat, 1, ev)
        elif tok.startswith(payments.ART):
            discard_kind(st, seat, tok[len(payments.ART) :])
        else:
            p.goods[tok] -= 1


def _payment_bonuses(st: EuphoriaState, seat: str, space: str, tokens: list[str], ev: Events) -> None:
    """Michael (gold at a site: knowledge +1, morale +1), Flartner (artifact at a site: morale
    +1), Brian (food for bliss at a market visit: knowledge +1, Wastelander allegiance +1)."""
    kind = kind_of(space)
    if kind == "construction":
        if "gold" in tokens and has(st, seat, "michael_the_engineer"):
            knowledge(st, seat, 1, ev)
            morale(st, seat, 1, ev)
        if any(payments.is_artifact_token(t) for t in tokens) and has(st, seat, "flartner_the_luddite"):
            morale(st, seat, 1, ev)
    if kind == "market_visit" and has(st, seat, "brian_the_viticulturist"):
        market = MARKETS[st.sites[site_of(space) or ""]]
        if dict(market.visit_cost).get("bliss") and tokens.count("food") > dict(market.visit_cost).get("food", 0):
            knowledge(st, seat, 1, ev)
            advance_allegiance(st, "wastelander", 1, ev)


# -- gaining -------------------------------------------------------------------------------------
@task("gain")
def _gain(st: EuphoriaState, t: Task, ev: Events) -> None:
    seat, space, face = t.args[0], t.args[1], t.args[2]
    kind = kind_of(space)
    GAINS[kind](st, seat, space, face, ev)


def _tank(st: EuphoriaState, seat: str, space: str, face: int, ev: Events) -> None:
    """Worker Activation Tank: adjust morale or knowledge, then add and roll a new worker
    (never past four; Laboratory of Selective Genetics blocks the 3rd and 4th).

    Rule: [Worker Activation Tank]
    """
    for track, delta in SPACES[space].benefit:
        (knowledge if track == "knowledge" else morale)(st, seat, delta, ev)
    p = st.players[seat]
    blocked = any(p.workers in totals for totals in penalty_values(st, seat, "block_worker_gain_when_total_in"))
    if p.workers < MAX_WORKERS and not blocked:
        p.workers += 1
        p.rolling += 1
        ev.append(Event("worker", f"{seat} activates a new worker"))
        push(st, Task("roll", (seat, 1, "new worker")), Task("new_worker", (seat,)))


def _commodity_area(st: EuphoriaState, seat: str, space: str, face: int, ev: Events) -> None:
    """The knowledge total of all workers there after placing picks the bracket; the tier-1
    bonus is judged before the bracket's allegiance step (SP 24).

    Rule: [Commodity Areas]; SP 24
    """
    faction = SPACES[space].faction
    assert faction is not None
    good = FACTIONS[faction].commodity
    total = sum(o[1] for o in st.occupants[space])
    bonus = 1 if tier_bonus(st, seat, faction, 1) else 0
    for lo, hi, n, (track, delta) in BRACKETS:
        if lo <= total <= hi:
            gain(st, seat, good, n + bonus)
            ev.append(Event("gain", f"{seat} gains {n + bonus} {good} (total {total})", data={"seat": seat}))
            if track == "allegiance":
                advance_allegiance(st, faction, delta, ev)
            else:
                knowledge(st, seat, delta, ev)
            return


def _tunnel(st: EuphoriaState, seat: str, space: str, face: int, ev: Events) -> None:
    """The miner advances first; then the resource or an artifact (both at tier 2, or with
    Andrew the Spelunker's empty hands at the Euphorian and Wastelander tunnels).

    Rule: [Tunnels]
    """
    faction = SPACES[space].faction
    assert faction is not None
    advance_miner(st, faction, 1, ev)
    resource = FACTIONS[faction].resource
    assert resource is not None
    andrew = (
        has(st, seat, "andrew_the_spelunker") and not st.players[seat].hand and faction in ("euphorian", "wastelander")
    )
    if tier_bonus(st, seat, faction, 2) or andrew:
        gain(st, seat, resource)
        ev.append(Event("gain", f"{seat} gains 1 {resource} and an artifact", data={"seat": seat}))
        draw(st, seat)
        return
    ask(st, seat, "take", [resource, "artifact"], [space], ev)


@answer("take")
def _take(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    if option == "artifact":
        draw(st, seat)
        return
    for good in option.split("+"):
        gain(st, seat, good)
    ev.append(Event("gain", f"{seat} gains {option.replace('+', ' and ')}", data={"seat": seat}))


def _tunnel_end(st: EuphoriaState, seat: str, space: str, face: int, ev: Events) -> None:
    for good, n in SPACES[space].benefit:
        gain(st, seat, good, n)
        ev.append(Event("gain", f"{seat} gains {n} {good}", data={"seat": seat}))


def star_places(st: EuphoriaState, seat: str, faction: str, markets_too: bool) -> list[str]:
    """Where a star of ``faction`` may go: its territory (if room) and, from an artifact market,
    a built market of that region without the seat's star."""
    out = [f"territory:{faction}"] if territory_room(st, faction) else []
    if markets_too:
        out += [
            f"market:{site}"
            for site, owners in st.built.items()
            if SITES[site].faction == faction and seat not in owners
        ]
    return out


def _artifact_market(st: EuphoriaState, seat: str, space: str, face: int, ev: Events) -> None:
    """An artifact market: allegiance +1, and a star on the territory or on a built market of its
    region that lacks your star.

    Rule: [Artifact Markets]; SP 21
    """
    faction = SPACES[space].faction
    assert faction is not None
    push(st, Task("allegiance", (faction, 1)))
    ask(st, seat, "place_star", star_places(st, seat, faction, True), [space], ev)


@answer("place_star")
def _star(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    placed = place_star(st, seat, option, ev)
    if placed and option == "territory:icarite" and tier_bonus(st, seat, "icarite", 2):
        draw(st, seat)


@task("allegiance")
def _allegiance(st: EuphoriaState, t: Task, ev: Events) -> None:
    advance_allegiance(st, t.args[0], t.args[1], ev)


def _icarite_star(st: EuphoriaState, seat: str, space: str, face: int, ev: Events) -> None:
    """Wind Saloon and Nimbus Loft: a star in Icarus (tier 2: and an artifact), allegiance +1.

    Rule: [Icarus]
    """
    push(st, Task("allegiance", ("icarite", 1)))
    ask(st, seat, "place_star", star_places(st, seat, "icarite", False), [space], ev)


def _breeze_bar(st: EuphoriaState, seat: str, space: str, face: int, ev: Events) -> None:
    advance_allegiance(st, "icarite", 1, ev)
    draw(st, seat, 2)


def _sky_lounge(st: EuphoriaState, seat: str, space: str, face: int, ev: Events) -> None:
    advance_allegiance(st, "icarite", 1, ev)
    pairs = sorted({"+".join(sorted((a, b))) for a in RESOURCES for b in RESOURCES})
    ask(st, seat, "take", pairs, [space], ev)


def _market_visit(st: EuphoriaState, seat: str, space: str, face: int, ev: Events) -> None:
    """A visit: a star in the region's territory only (2013 rule), allegiance +1.

    Rule: [Constructed Markets]; SP 20
    """
    faction = faction_of(space)
    assert faction is not None
    push(st, Task("allegiance", (faction, 1)))
    ask(st, seat, "place_star", star_places(st, seat, faction, False), [space], ev)


def _construction(st: EuphoriaState, seat: str, space: str, face: int, ev: Events) -> None:
    """A construction spot gives nothing now; the star comes when the market is built
    (decided by ``markets._build_check``, queued after the placement's own effects)."""


GAINS = {
    "tank": _tank,
    "commodity_area": _commodity_area,
    "tunnel": _tunnel,
    "tunnel_end": _tunnel_end,
    "artifact_market": _artifact_market,
    "wind_saloon": _icarite_star,
    "nimbus_loft": _icarite_star,
    "breeze_bar": _breeze_bar,
    "sky_lounge": _sky_lounge,
    "market_visit": _market_visit,
    "construction": _construction,
}
