"""Morale, knowledge, allegiance, tunnels, authority stars, artifacts and the hand limit.

Rulebook sections "Morale & Knowledge Charts", "Allegiance Track", "Tunnels", "End of Game".
Gains past the ends of the charts are lost (SP 13). Curtis the Propagandist and Nick
the Understudy react to every step actually moved.
"""

from __future__ import annotations

from ...core import Event
from .agenda import STARS_PLACED, Events, answer, ask, await_chance, push, task
from .oracle import (
    ALLEGIANCE_MAX,
    FACTIONS,
    RECRUITS,
    REVEAL_LEVEL,
    TIER_LEVELS,
    TRACKS,
    TUNNEL_END,
    artifact_kind,
)
from .state import EuphoriaState, Task
from .status import has, mark_activated, penalized

LO, HI = TRACKS["morale"]
KLO, KHI = TRACKS["knowledge"]


def morale(st: EuphoriaState, seat: str, delta: int, ev: Events) -> int:
    """Move the morale token; return the steps actually moved (signed).

    Rule: [Morale Chart]
    """
    p = st.players[seat]
    new = max(LO, min(HI, p.morale + delta))
    moved = new - p.morale
    p.morale = new
    if moved < 0 and has(st, seat, "curtis_the_propagandist"):
        knowledge(st, seat, moved, ev)
    return moved


def knowledge(st: EuphoriaState, seat: str, delta: int, ev: Events) -> int:
    """Move the knowledge token; return the steps actually moved (signed).

    Rule: [Knowledge Chart]
    """
    p = st.players[seat]
    new = max(KLO, min(KHI, p.knowledge + delta))
    moved = new - p.knowledge
    p.knowledge = new
    if moved > 0 and has(st, seat, "nick_the_understudy"):
        morale(st, seat, moved, ev)
    return moved


def can_pay_morale(st: EuphoriaState, seat: str, n: int) -> bool:
    """A price in morale needs morale >= n + 1 (rulebook note; SP 13)."""
    return st.players[seat].morale >= n + LO


def can_pay_knowledge(st: EuphoriaState, seat: str, n: int) -> bool:
    """A price in knowledge needs knowledge + n <= 6."""
    return st.players[seat].knowledge + n <= KHI


def gain(st: EuphoriaState, seat: str, good: str, n: int = 1) -> None:
    st.players[seat].goods[good] += n


def territory_room(st: EuphoriaState, faction: str) -> bool:
    """Room for another star on a faction's territory (one per player); a full territory still
    gives the allegiance.

    Rule: SP 22
    """
    return len(st.territory[faction]) < len(st.seats)


# -- stars ---------------------------------------------------------------------------------------
def place_star(st: EuphoriaState, seat: str, where: str, ev: Events, *, by_space: bool = True) -> bool:
    """Place one authority star: ``territory:<faction>``, ``market:<site>``, ``recruit:<id>``,
    ``dilemma``. Theater of Revelatory Propaganda: a star placed through an action space costs
    1 knowledge (SP 23)."""
    p = st.players[seat]
    if p.stars <= 0:
        return False
    p.stars -= 1
    STARS_PLACED[0] += 1
    kind, _, what = where.partition(":")
    if kind == "territory":
        st.territory[what].append(seat)
    elif kind == "market":
        st.built[what].append(seat)
    elif kind == "recruit":
        p.starred.append(what)
    else:
        p.dilemma_star = True
    ev.append(Event("star", f"{seat} places a star on {where.replace(':', ' ')}", data={"seat": seat}))
    if by_space and penalized(st, seat, "on_star_placed"):
        knowledge(st, seat, 1, ev)
    return True


# -- allegiance, tunnels, reveals ----------------------------------------------------------------
def advance_allegiance(st: EuphoriaState, faction: str, n: int, ev: Events) -> None:
    """Move a faction's progress token (never past the last level), then apply tiers 3 and 4.

    Rule: [Allegiance Track]
    """
    before = st.allegiance[faction]
    st.allegiance[faction] = min(ALLEGIANCE_MAX, before + n)
    if st.allegiance[faction] != before:
        ev.append(Event("allegiance", f"{FACTIONS[faction].id} allegiance reaches {st.allegiance[faction]}"))
        refresh_recruits(st, ev)


def advance_miner(st: EuphoriaState, faction: str, n: int, ev: Events) -> None:
    """Move a tunnel's miner; level 6 reveals that faction's hidden recruits, 9 completes it.

    Rule: [Tunnels]; SP 27
    """
    before = st.miners[faction]
    st.miners[faction] = min(TUNNEL_END, before + n)
    if st.miners[faction] != before:
        ev.append(Event("tunnel", f"the {faction} miner reaches level {st.miners[faction]}"))
        if st.miners[faction] == TUNNEL_END:
            ev.append(Event("tunnel", f"the {faction} tunnel is complete: its exclusive space opens"))
        refresh_recruits(st, ev)


def revealed(st: EuphoriaState, faction: str) -> bool:
    """Hidden recruits of ``faction`` are active: allegiance tier 3, or its tunnel at level 6."""
    return st.allegiance[faction] >= TIER_LEVELS[2] or st.miners.get(faction, 0) >= REVEAL_LEVEL


def refresh_recruits(st: EuphoriaState, ev: Events) -> None:
    """Activate hidden recruits whose faction is revealed; star active recruits at tier 4
    (SP 26: re-checked after every track move)."""
    for seat in st.seats:
        p = st.players[seat]
        for rid in list(p.hidden):
            if revealed(st, RECRUITS[rid].faction):
                p.hidden.remove(rid)
                p.active.append(rid)
                mark_activated(st, seat, rid)
                ev.append(Event("reveal", f"{seat} activates {RECRUITS[rid].name} ({rid})"))
        for rid in p.active:
            if rid not in p.starred and st.allegiance[RECRUITS[rid].faction] >= TIER_LEVELS[3]:
                place_star(st, seat, f"recruit:{rid}", ev, by_space=False)


# -- artifacts -----------------------------------------------------------------------------------
def hand_kinds(st: EuphoriaState, seat: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in st.players[seat].hand:
        kind = artifact_kind(card)
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def discard_kind(st: EuphoriaState, seat: str, kind: str) -> None:
    """Discard one card of ``kind`` from the hand (cards of a kind are interchangeable)."""
    hand = st.players[seat].hand
    card = min(c for c in hand if artifact_kind(c) == kind)
    hand.remove(card)
    st.artifacts.discard([card])


def draw(st: EuphoriaState, seat: str, n: int = 1, *, then_limit: bool = True, changed: bool = False) -> None:
    """Queue ``n`` artifact draws for ``seat`` (at the front of the agenda), followed at once by
    the hand limit; ``then_limit=False`` for a draw whose own discard follows (Geek the Oracle),
    which queues the hand limit itself after that discard; ``changed`` for the draw of an ability
    that changes how artifacts are drawn (:func:`draw_changed`)."""
    if n > 0 and changed:
        push(st, Task("draw", (seat, n, then_limit, True)))
    elif n > 0:
        push(st, Task("draw", (seat, n)) if then_limit else Task("draw", (seat, n, False)))


def draw_changed(t: Task) -> bool:
    """The ``draw`` task ``t`` is the draw of an ability that changes how artifacts are drawn
    (Bradley the Futurist, Geek the Oracle): such abilities are not combined, so no other one
    (Jonathan the Gambler) reacts to its cards.

    Rule: [A Few Notes About Recruits]
    """
    return len(t.args) > 3 and bool(t.args[3])


def deck_exhausted(st: EuphoriaState) -> bool:
    """The artifact deck is exhausted: no card is left to draw, so the discards are shuffled to
    form a new deck ("If the artifact deck is exhausted during the game, shuffle all discarded
    cards to form a new deck").

    Rule: [Setup]; SP 15
    """
    return not st.artifacts.cards


@task("draw")
def _draw(st: EuphoriaState, t: Task, ev: Events) -> None:
    seat, n = t.args[0], t.args[1]
    deck = st.artifacts
    if deck_exhausted(st):
        if not deck.discards:
            ev.append(Event("artifact", f"no artifact is left for {seat} to draw"))
            if len(t.args) < 3 or t.args[2]:
                push(st, Task("hand_limit"))
            return
        deck.recycle()
        push(st, Task("draw", (seat, n, *t.args[2:])))
        await_chance(st, "shuffle_artifacts", len(deck.cards))
        return
    card = deck.draw(1)[0]
    st.players[seat].hand.append(card)
    st.flags.setdefault("drew", [])
    if seat not in st.flags["drew"]:
        st.flags["drew"].append(seat)
    ev.append(Event("draw", f"{seat} draws an artifact", data={"seat": seat}))
    ev.append(Event("draw", f"you draw a {artifact_kind(card)} ({card})", frozenset({seat})))
    # the hand limit applies at once: after the whole draw (and what reacts to a card gained),
    # before anything else (SP 14: draw first, then discard)
    then_limit = len(t.args) < 3 or t.args[2]
    if n > 1:
        push(st, Task("draw", (seat, n - 1, *t.args[2:])))
    elif then_limit:
        push(st, Task("hand_limit"))
    if not draw_changed(t):
        push(st, Task("after_draw", (seat, card)))


@task("hand_limit")
def _hand_limit(st: EuphoriaState, t: Task, ev: Events) -> None:
    """Morale is the hand limit: discard down to it (draw first, then discard). It runs right
    after every draw, and again when a placement, retrieval, dilemma or trade has resolved (for
    a morale lost meanwhile).

    Rule: [Morale Chart]; SP 14
    """
    from .payments import ART, may_spend

    for seat in st.seats:
        p = st.players[seat]
        if len(p.hand) > p.morale:
            push(st, Task("hand_limit"))
            held = sorted(hand_kinds(st, seat))
            spared = [k for k in held if may_spend(st, seat, ART + k)]  # a placement's cost is paid in full
            ask(st, seat, "discard_artifact", spared or held, ["limit"], ev)
            return


@answer("discard_artifact")
def _discard(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    discard_kind(st, seat, option)
    ev.append(Event("discard", f"{seat} discards a {option}", data={"seat": seat}))
