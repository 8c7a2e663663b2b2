"""Redeal: a state one seat cannot tell apart from the true one (for search bots).

What a seat does not see (:mod:`.view`, rulebook "Icons & Tokens" on private information) is
drawn again, consistently with what it sees:

* the other players' artifact cards (their counts are public) and the order of the artifact
  deck; the discards are public (every discard and payment is announced) and stay; a player
  whose trade offer names artifacts holds them;
* the other players' hidden recruits — only from factions whose hidden recruits are not yet
  revealed, since a revealed faction's recruits are active — their discarded and dealt recruits,
  their sealed choice of two recruits during setup, the recruit draft's packs and picks, and the
  order of the recruit deck;
* the other players' ethical dilemmas until resolved, and the dilemma deck;
* the market tiles face down on the construction sites and set aside, except a market the seat
  kept in the market draft; the other players' market hands and kept markets in that draft.

A player in the middle of a decision whose options name its own hidden cards (discarding an
artifact, keeping a recruit, answering a trade) keeps them: the options were worked out from
those cards. Search bots only redeal for the seat that decides, so this never shows them what
another seat holds.

The result depends only on what ``seat`` sees and on the generator (hidden items are sorted
before they are shuffled), which the non-interference test of the bots relies on.
"""

from __future__ import annotations

import json
import random

from ...core.redeal import deal_unseen
from .oracle import RECRUITS, SITES, artifact_kind
from .payments import ART
from .state import EuphoriaState, Player, task_to_json
from .tracks import revealed


def redeal(st: EuphoriaState, seat: str | None, rng: random.Random) -> EuphoriaState:
    new = st.copy()
    frozen = _frozen(new, seat)  # once: it serialises the agenda
    others = [s for s in new.seats if s != seat and s not in frozen]
    _artifacts(new, others, rng)
    _recruits(new, others, rng)
    _dilemmas(new, others, rng)
    _markets(new, seat, others, rng)
    return new


def _frozen(st: EuphoriaState, seat: str | None) -> set[str]:
    """Other players whose hidden cards the pending decision or the agenda names."""
    out = set()
    if st.prompt is not None and st.prompt[0] != seat:
        out.add(st.prompt[0])
    pending = json.dumps([[task_to_json(t) for t in st.agenda], st.prompt, st.flags])
    for other, p in st.players.items():
        if other != seat and any(card in pending for card in _secret_cards(p)):
            out.add(other)
    return out


def _secret_cards(p: Player) -> list[str]:
    return [*p.hand, *p.hidden, *p.dealt, *p.discarded, *p.choice]


def _artifacts(st: EuphoriaState, others: list[str], rng: random.Random) -> None:
    """Deal the others' artifacts and the deck again; a player who has offered artifact cards
    in the trade on the table holds at least those kinds."""
    hands = [st.players[s].hand for s in others]
    places = [*hands, st.artifacts.cards]
    pool = sorted(card for place in places for card in place)
    shown = _offered(st)
    dealt: list[list[str]] = []
    for s in others:
        kinds = shown.get(s, [])
        cards = []
        for kind in kinds:
            card = next((c for c in pool if artifact_kind(c) == kind), None)
            if card is not None:
                pool.remove(card)
                cards.append(card)
        dealt.append(cards)
    rng.shuffle(pool)
    for hand, cards in zip(hands, dealt, strict=True):
        n = len(hand) - len(cards)
        hand[:], pool = cards + pool[:n], pool[n:]
    st.artifacts.cards[:] = pool


def _offered(st: EuphoriaState) -> dict[str, list[str]]:
    """Artifact kinds a player has put on the table in a trade offer (public to the partner)."""
    if st.prompt is None or st.prompt[1] != "answer_trade":
        return {}
    offerer, give, _get = st.prompt[3]
    return {offerer: [i[len(ART) :] for i in give if i.startswith(ART)]}


def _recruits(st: EuphoriaState, others: list[str], rng: random.Random) -> None:
    players = [st.players[s] for s in others]
    drafted = st.drafts.get("drafted", {})
    places = [
        *(p.dealt for p in players),
        *(p.discarded for p in players),
        *(drafted[s] for s in others if s in drafted),
        st.recruit_deck.cards,
    ]
    slots = sum(len(p.hidden) for p in players)
    pool = sorted([r for place in places for r in place] + [r for p in players for r in p.hidden])
    eligible = [r for r in pool if not revealed(st, RECRUITS[r].faction)]
    rng.shuffle(eligible)
    hidden = eligible[:slots]
    chosen = set(hidden)
    rest = [r for r in pool if r not in chosen]
    rng.shuffle(rest)
    extra = slots - len(hidden)
    hidden, rest = hidden + rest[:extra], rest[extra:]
    for p in players:
        p.hidden[:], hidden = hidden[: len(p.hidden)], hidden[len(p.hidden) :]
    for place in places:
        place[:], rest = rest[: len(place)], rest[len(place) :]
    picks = st.drafts.get("picks", {})
    for s, p in zip(others, players, strict=True):
        if p.choice:
            p.choice = rng.sample(p.dealt, 2)
        if s in picks:
            picks[s] = p.dealt[rng.randrange(len(p.dealt))]


def _dilemmas(st: EuphoriaState, others: list[str], rng: random.Random) -> None:
    holders = [s for s in others if st.players[s].dilemma and not st.players[s].dilemma_done]
    single = [[st.players[s].dilemma] for s in holders]
    deal_unseen([*single, st.dilemma_deck], rng)
    for s, (card,) in zip(holders, single, strict=True):
        st.players[s].dilemma = card


def _markets(st: EuphoriaState, seat: str | None, others: list[str], rng: random.Random) -> None:
    choices: dict[str, str] = st.drafts.get("market_choice", {})
    mine = choices.get(seat or "")
    sites = [s for s in SITES if s not in st.built and st.sites[s] and st.sites[s] != mine]
    on_sites = [[st.sites[s]] for s in sites]
    pile: list[str] = st.drafts.get("market_pile", [])
    hands: dict[str, list[str]] = st.drafts.get("market_hands", {})
    pile_unknown = [[m] for m in pile if m != mine]
    deal_unseen([*on_sites, *pile_unknown, *(hands[s] for s in others if s in hands), st.set_aside], rng)
    for site, (market,) in zip(sites, on_sites, strict=True):
        st.sites[site] = market
    if pile:
        unknown = iter(m for (m,) in pile_unknown)
        pile[:] = [m if m == mine else next(unknown) for m in pile]
    _redraw_kept_markets(st, others, choices, hands, mine, rng)


def _redraw_kept_markets(
    st: EuphoriaState,
    others: list[str],
    choices: dict[str, str],
    hands: dict[str, list[str]],
    mine: str | None,
    rng: random.Random,
) -> None:
    """The other players' kept markets: one of their hand during the draft, afterwards one of the
    face-down markets (or the pile) that nobody else is known to have kept."""
    if not choices:
        return
    built = {st.sites[s] for s in st.built}
    face_down = sorted(
        {st.sites[s] for s in SITES if s not in st.built and st.sites[s]} | set(st.drafts.get("market_pile", []))
    )
    free = [m for m in face_down if m != mine]
    rng.shuffle(free)
    for s in others:
        if s not in choices:
            continue
        if hands.get(s):
            choices[s] = hands[s][rng.randrange(len(hands[s]))]
        elif choices[s] not in built and free:
            choices[s] = free.pop()
