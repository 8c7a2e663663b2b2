"""The Committee Member: the deal of one black and N−1 red identity cards, and the pass.

**[The Committee Member]** Whoever is dealt the black card is the Committee Member; then each
player passes his card to another player so that everyone receives one, and the player who
receives the black card knows who the Committee Member is. R-EU-03: the identity cards are not
taken from the playing deck. R-EU-04: the pass is a random derangement by default (``rotate_left``
and ``manual`` selectable); the knower is whoever receives the black card *from the Committee
Member*. R-EU-05: each player learns who passed to him; with ``PASSER_LEARNS_RECIPIENT`` each
passer also learns who received his card.

Every secret has a *token*, the exact string a view shows when the secret is shown, so the
conformance suite can check that no other seat ever sees it.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations
from typing import Any

from ...core import Event
from .state import EuthymiaState

BLACK = "BLACK"
RED = "RED"


@cache
def derangements(players: tuple[str, ...]) -> tuple[str, ...]:
    """Every pass in which nobody keeps his own card, as the recipients in seat order
    (``"p2/p3/p1"``: p1 passes to p2, p2 to p3, p3 to p1)."""
    out = []
    for perm in permutations(players):
        if all(a != b for a, b in zip(players, perm, strict=True)):
            out.append("/".join(perm))
    return tuple(out)


def dealt_black(option: str, seat: str, colour: str) -> bool:
    """At a real table (CH-1): whether dealing the black card to ``option`` agrees with ``seat``
    saying the colour of the identity card it received."""
    return (option == seat) == (colour == "black")


def passed_to(players: tuple[str, ...], option: str, seat: str, to: str) -> bool:
    """At a real table (CH-2): whether the pass ``option`` agrees with ``seat`` saying whom it
    passed its identity card to."""
    return parse_pass(players, option).get(seat) == to


def rotate_left(players: tuple[str, ...]) -> dict[str, str]:
    """``rotate_left``: everyone passes to the next seat."""
    return {p: players[(i + 1) % len(players)] for i, p in enumerate(players)}


def parse_pass(players: tuple[str, ...], text: str) -> dict[str, str]:
    return dict(zip(players, text.split("/"), strict=True))


def manual_recipients(state: EuthymiaState, giver: str) -> list[str]:
    """In ``manual`` mode, to whom ``giver`` may pass so that the pass can still be completed as a
    derangement (only a last giver left with his own card would be stuck)."""
    received = set(state.passes.values())
    givers_left = [p for p in state.players if p not in state.passes and p != giver]
    out = []
    for to in state.players:
        if to == giver or to in received:
            continue
        left = [p for p in state.players if p not in received and p != to]
        if len(givers_left) == 1 and left == givers_left:
            continue
        out.append(to)
    return out


# -- tokens ---------------------------------------------------------------------------------------
# (each made once: seats and colours are few, and a token is a string, shared freely)
@cache
def dealt_token(seat: str, colour: str) -> str:
    return f"{seat} was dealt a {colour} identity card"


@cache
def received_token(seat: str, colour: str, giver: str) -> str:
    return f"{seat} received a {colour} identity card from {giver}"


@cache
def passed_token(giver: str, colour: str, to: str) -> str:
    return f"{giver} passed a {colour} identity card to {to}"


@cache
def cm_token(cm: str) -> str:
    return f"the Committee Member is {cm}"


@cache
def knower_token(knower: str) -> str:
    return f"{knower} knows who the Committee Member is"


# -- the deal and the pass ------------------------------------------------------------------------
def deal(state: EuthymiaState, black: str) -> list[Event]:
    """CH-1: the black card to ``black``, red to everyone else; each sees only his own card."""
    state.identity_card = {p: (BLACK if p == black else RED) for p in state.players}
    state.committee_member = black
    state.knower = None
    state.passes = {}
    events = [Event("identity", "The identity cards are dealt: one black, the rest red.")]
    for p in state.players:
        colour = state.identity_card[p]
        events.append(Event("identity", dealt_token(p, colour), frozenset({p})))
    return events


def pass_card(state: EuthymiaState, giver: str, to: str) -> list[Event]:
    """One card passes from ``giver`` to ``to`` (seen by both, or only by ``to``: R-EU-05)."""
    state.passes[giver] = to
    colour = state.identity_card[giver]
    events = [Event("identity", f"{giver} passes an identity card.")]
    events.append(Event("identity", received_token(to, colour, giver), frozenset({to})))
    if state.options.passer_learns_recipient:
        events.append(Event("identity", passed_token(giver, colour, to), frozenset({giver})))
    if giver == state.committee_member:
        state.knower = to
    return events


def pass_all(state: EuthymiaState, mapping: dict[str, str]) -> list[Event]:
    events: list[Event] = []
    for giver in state.players:
        events.extend(pass_card(state, giver, mapping[giver]))
    return events


def passing_done(state: EuthymiaState) -> bool:
    return len(state.passes) == len(state.players)


def secret_view(state: EuthymiaState, seat: str) -> dict[str, str]:
    """What ``seat`` knows of the identity cards (R-EU-04, R-EU-05).

    Rule: R-EU-06
    """
    out: dict[str, str] = {}
    add_secret_view(state, seat, out)
    return out


def add_secret_view(state: EuthymiaState, seat: str, out: dict[str, Any]) -> None:
    """:func:`secret_view` written into ``out`` (the seat's part of its view)."""
    if not state.identity_card:
        return
    out["identity_card"] = dealt_token(seat, state.identity_card[seat])
    for giver, to in state.passes.items():
        colour = state.identity_card[giver]
        if to == seat:
            out["received"] = received_token(seat, colour, giver)
        if giver == seat and state.options.passer_learns_recipient:
            out["passed"] = passed_token(seat, colour, to)
    cm, knower = state.committee_member, state.knower
    if not state.cm_revealed and cm is not None and seat in (cm, knower):
        out["committee_member"] = cm_token(cm)
    if knower is not None and (seat == knower or (seat == cm and state.options.passer_learns_recipient)):
        out["knower"] = knower_token(knower)


def secret_tokens(state: EuthymiaState) -> list[tuple[str, frozenset[str], str]]:
    """(token, holders, what) for every identity secret of the state."""
    out: list[tuple[str, frozenset[str], str]] = []
    if not state.identity_card:
        return out
    learns = state.options.passer_learns_recipient
    for p, colour in state.identity_card.items():
        out.append((dealt_token(p, colour), frozenset({p}), "a dealt identity card"))
    for giver, to in state.passes.items():
        colour = state.identity_card[giver]
        holders = frozenset({to, giver}) if learns else frozenset({to})
        out.append((received_token(to, colour, giver), holders, "a received identity card"))
        out.append((passed_token(giver, colour, to), frozenset({giver, to}), "a passed identity card"))
    cm, knower = state.committee_member, state.knower
    if cm is not None and not state.cm_revealed:
        holders = frozenset({cm, knower} if knower else {cm})
        out.append((cm_token(cm), holders, "the Committee Member's identity"))
    if knower is not None:
        holders = frozenset({knower, cm} if learns and cm else {knower})
        out.append((knower_token(knower), holders, "who knows the Committee Member"))
    return out
