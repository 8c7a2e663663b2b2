"""The advanced variants of the rulebook ("Advanced Variants"), each an option.

Rule: [Advanced Variants]

* **Recruit draft**: deal four, pick one and pass the rest to the left, until the cards are
  gone; then keep two of the four drafted as usual. Picks are sealed and passed together.
* **Market draft**: deal two markets to each player; each keeps one face down (the other
  leaves the game); the set-aside tiles fill up to six; the six are shuffled onto the sites.
* **Morale and knowledge draft**: from the first seat (standing in for the oldest player)
  clockwise, each places its morale or knowledge token on an empty space of that chart; the
  last player places both; then counter-clockwise everyone places the remaining one.
* The **Double House Rule** lives in :func:`.turn.begin_placement`.
"""

from __future__ import annotations

from ...core import Event
from ...core.mechanisms import previous_seat
from .agenda import Events, await_chance, chance
from .oracle import SITES, TRACKS
from .state import EuphoriaState

MARKETS_DEALT = 2


# -- recruit draft -------------------------------------------------------------------------------
def start_recruit_draft(st: EuphoriaState, ev: Events) -> None:
    st.phase = "recruit_draft"
    st.drafts["drafted"] = {s: [] for s in st.seats}
    st.drafts["picks"] = {}
    ev.append(Event("draft", "recruit draft: pick one recruit of your pack, then pass the rest left"))


def draft_pick(st: EuphoriaState, seat: str, recruit: str, ev: Events) -> None:
    st.drafts["picks"][seat] = recruit
    ev.append(Event("draft", f"{seat} has picked a recruit"))
    if len(st.drafts["picks"]) < len(st.seats):
        return
    for s in st.seats:
        pick = st.drafts["picks"][s]
        st.players[s].dealt.remove(pick)
        st.drafts["drafted"][s].append(pick)
    packs = {s: st.players[s].dealt for s in st.seats}
    for s in st.seats:
        st.players[s].dealt = packs[previous_seat(st.seats, s)]
    st.drafts["picks"] = {}
    if not st.players[st.seats[0]].dealt:
        for s in st.seats:
            st.players[s].dealt = st.drafts["drafted"][s]
        del st.drafts["drafted"], st.drafts["picks"]
        st.phase = "setup"
        ev.append(Event("draft", "the recruit draft is over: keep two of your four"))


# -- market draft --------------------------------------------------------------------------------
def deal_markets(st: EuphoriaState, tiles: list[str], ev: Events) -> None:
    st.drafts["market_hands"] = {s: [tiles.pop(0) for _ in range(MARKETS_DEALT)] for s in st.seats}
    st.drafts["market_choice"] = {}
    st.set_aside = tiles
    st.drafts["resume_phase"] = st.phase
    st.phase = "market_draft"
    ev.append(Event("draft", f"market draft: each player is dealt {MARKETS_DEALT} markets and keeps one"))


def market_pick(st: EuphoriaState, seat: str, market: str, ev: Events) -> None:
    st.drafts["market_choice"][seat] = market
    ev.append(Event("draft", f"{seat} has chosen a market"))
    if len(st.drafts["market_choice"]) < len(st.seats):
        return
    chosen = [st.drafts["market_choice"][s] for s in st.seats]
    removed = [m for s in st.seats for m in st.drafts["market_hands"][s] if m not in chosen]
    extra = len(SITES) - len(chosen)
    st.drafts["market_pile"] = chosen + st.set_aside[:extra]
    st.set_aside = st.set_aside[extra:] + removed
    st.drafts["market_hands"] = {}
    st.phase = st.drafts.pop("resume_phase")
    await_chance(st, "shuffle_sites", len(SITES))


@chance("shuffle_sites")
def _shuffle_sites(st: EuphoriaState, n: int, outcome: dict, ev: Events) -> None:
    pile = st.drafts.pop("market_pile")
    for site, i in zip(SITES, outcome["order"], strict=True):
        st.sites[site] = pile[i]
    ev.append(Event("setup", "the six drafted markets are shuffled face down onto the construction sites"))


def market_holders(st: EuphoriaState, market: str) -> frozenset[str]:
    """Who knows where a face-down market came from: the player who kept it in the draft."""
    choices = st.drafts.get("market_choice", {})
    return frozenset(s for s, m in choices.items() if m == market)


# -- morale and knowledge draft ------------------------------------------------------------------
def start_track_draft(st: EuphoriaState, ev: Events) -> None:
    """Order: p1 .. pN (pN places both), then pN-1 .. p1."""
    seats = list(st.seats)
    order = [*seats, seats[-1], *seats[-2::-1]]
    st.drafts["track_order"] = order
    st.drafts["tracks"] = {s: {} for s in seats}
    st.phase = "track_draft"
    ev.append(Event("draft", "morale and knowledge draft: place your tokens on empty spaces"))


def track_options(st: EuphoriaState, seat: str) -> list[tuple[str, int]]:
    placed = st.drafts["tracks"]
    out = []
    for track in ("morale", "knowledge"):
        if track in placed[seat]:
            continue
        taken = {v[track] for v in placed.values() if track in v}
        lo, hi = TRACKS[track]
        out += [(track, n) for n in range(lo, hi + 1) if n not in taken]
    return out


def track_pick(st: EuphoriaState, seat: str, track: str, value: int, ev: Events) -> bool:
    """Place one token; True when the draft is over."""
    st.drafts["tracks"][seat][track] = value
    setattr(st.players[seat], track, value)
    st.drafts["track_order"].pop(0)
    ev.append(Event("draft", f"{seat} places the {track} token on {value}"))
    if st.drafts["track_order"]:
        return False
    del st.drafts["track_order"], st.drafts["tracks"]
    return True
