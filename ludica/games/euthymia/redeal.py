"""Redeal: a state one seat cannot tell apart from the true one (for search bots).

What a seat does not see (docs/rules/euthymia.md, "Hidden information"; :mod:`.view`) is drawn again,
consistently with what it sees:

* the cards: the other players' hands (their sizes are public), the cards they laid face down to
  decide who starts (**[Who Starts]**, until turned up) and the order of the deck, dealt again
  from the cards the seat has not seen;
* the identity cards (**[The Committee Member]**, R-EU-03..05): who passed to whom, except the
  passes the seat knows (the card it received and from whom; its own pass when it chose it or
  learns its recipient; every pass under ``rotate_left``), still a derangement that can be
  completed; and who the Committee Member is, among the players the seat does not know to hold
  a red card, unless the seat knows (it is the Committee Member, received the black card, or the
  Committee Member has been revealed). Whoever received the Committee Member's card knows it.
  From the start of the ninth hour's reveal turn (**[The ninth hour]**, R-EU-30) every seat
  knows him: he is the one taking that turn, before his words reveal him.

The result depends only on what ``seat`` sees and on the generator.
"""

from __future__ import annotations

import random

from ...core.redeal import deal_unseen
from .identity import BLACK, RED
from .state import CM_REVEAL_TURN, EuthymiaState

TRIES = 200


def redeal(state: EuthymiaState, seat: str | None, rng: random.Random) -> EuthymiaState:
    new = state.copy()
    _cards(new, seat, rng)
    if new.identity_card:
        _identity(new, seat, rng)
    return new


def _cards(st: EuthymiaState, seat: str | None, rng: random.Random) -> None:
    others = [p for p in st.players if p != seat]
    face_down: list[list[str]] = []
    start = st.start
    if start is not None and not start.revealed:
        face_down = [[start.choices[p]] for p in others if p in start.choices]
    deal_unseen([*(st.hands[p] for p in others if p in st.hands), *face_down, st.deck], rng)
    if start is not None and face_down:
        holders = [p for p in others if p in start.choices]
        for p, (card,) in zip(holders, face_down, strict=True):
            start.choices[p] = card


def _known_passes(st: EuthymiaState, seat: str | None) -> dict[str, str]:
    if st.options.cm_pass_mode == "rotate_left":
        return dict(st.passes)
    known = {g: to for g, to in st.passes.items() if to == seat}
    if seat in st.passes and (st.options.passer_learns_recipient or st.options.cm_pass_mode == "manual"):
        known[seat] = st.passes[seat]
    return known


def _identity(st: EuthymiaState, seat: str | None, rng: random.Random) -> None:
    known = _known_passes(st, seat)
    st.passes = _passes(st, known, rng, seat)
    cm = st.committee_member
    received_black = any(to == seat and g == cm for g, to in known.items())
    if not _known_to_all(st) and cm is not None and seat != cm and not received_black:
        red = {seat} | {g for g, to in known.items() if to == seat}
        candidates = [p for p in st.players if p not in red]
        cm = candidates[rng.randrange(len(candidates))]
        st.committee_member = cm
    st.identity_card = {p: (BLACK if p == cm else RED) for p in st.players}
    st.knower = st.passes.get(cm) if cm is not None else None


def _known_to_all(st: EuthymiaState) -> bool:
    """Whether every seat knows who the Committee Member is: revealed, or taking his reveal turn
    (the turn is his in the open).

    Rule: R-EU-30
    """
    return st.cm_revealed or st.phase == CM_REVEAL_TURN


def _passes(st: EuthymiaState, known: dict[str, str], rng: random.Random, seat: str | None) -> dict[str, str]:
    """The passes made so far, the unknown ones drawn again: nobody passes to himself, nobody
    receives twice, ``seat`` receives only the card it knows it received (none yet, with passes
    made by hand one at a time), and the passes still to make can be completed."""
    givers = [g for g in st.players if g in st.passes and g not in known]
    if not givers:
        return dict(st.passes)
    taken = set(known.values())
    recipients = sorted(p for p in st.players if p not in taken and p != seat)
    waiting = [p for p in st.players if p not in st.passes]
    for _ in range(TRIES):
        rng.shuffle(recipients)
        drawn = dict(zip(givers, recipients, strict=False))
        if any(g == to for g, to in drawn.items()):
            continue
        left = [p for p in st.players if p not in taken and p not in drawn.values()]
        if len(waiting) == 1 and left == waiting:
            continue
        return {g: known.get(g) or drawn[g] for g in st.players if g in st.passes}
    return dict(st.passes)
