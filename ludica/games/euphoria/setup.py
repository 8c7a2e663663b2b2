"""Setting up a game of Euphoria (rulebook "Setup").

Every shuffle and the opening roll are chance steps: the recruit deck (four dealt to each
player), the artifact deck, the ethical dilemmas (one each), the market tiles (six face down on
the construction sites, the rest set aside unseen) and each player's two starting dice. Then
every player keeps two recruits, one active and one hidden, chosen in secret and revealed
together. The highest opening roll starts; a tie goes to the tied player seated first (seat
order stands in for the rulebook's "older player").
"""

from __future__ import annotations

from typing import Any

from ...core import Event
from ...core.mechanisms import Deck
from .agenda import Events, await_chance, chance, push, task
from .oracle import (
    ARTIFACT_CARDS,
    DILEMMAS,
    FACTIONS,
    GOODS,
    KNOWLEDGE_START,
    MARKETS,
    MORALE_START,
    RECRUITS,
    SITES,
    STARS,
    STARTING_WORKERS,
    TUNNEL_FACTIONS,
)
from .state import EuphoriaState, Player, Task
from .tracks import refresh_recruits

DEAL = 4


def new_state(seats: tuple[str, ...], options: dict[str, Any]) -> EuphoriaState:
    """The table before the first shuffle: every player with two workers, morale and knowledge at the
    start, ten stars, and the decks still to be shuffled.

    Rule: [Setup]
    """
    players = {
        s: Player(
            s,
            MORALE_START,
            KNOWLEDGE_START,
            dict.fromkeys(GOODS, 0),
            workers=STARTING_WORKERS,
            rolling=STARTING_WORKERS,
            stars=STARS,
        )
        for s in seats
    }
    st = EuphoriaState(
        seats=seats,
        options=dict(options),
        players=players,
        occupants={},
        allegiance=dict.fromkeys(FACTIONS, 0),
        miners=dict.fromkeys(TUNNEL_FACTIONS, 0),
        territory={f: [] for f in FACTIONS},
        sites=dict.fromkeys(SITES, ""),
        built={},
        set_aside=[],
        recruit_deck=Deck(RECRUITS),
        artifacts=Deck(ARTIFACT_CARDS),
        dilemma_deck=list(DILEMMAS),
    )
    push(
        st,
        Task("shuffle", ("shuffle_recruits", len(RECRUITS))),
        Task("shuffle", ("shuffle_artifacts", len(ARTIFACT_CARDS))),
        Task("shuffle", ("shuffle_dilemmas", len(DILEMMAS))),
        Task("shuffle", ("shuffle_markets", len(MARKETS))),
        Task("opening_roll"),
        Task("choose_recruits"),
    )
    return st


@task("shuffle")
def _shuffle(st: EuphoriaState, t: Task, ev: Events) -> None:
    await_chance(st, t.args[0], t.args[1])


@chance("shuffle_recruits")
def _recruits(st: EuphoriaState, n: int, outcome: dict, ev: Events) -> None:
    st.recruit_deck.shuffle(outcome["order"])
    for seat in st.seats:
        st.players[seat].dealt = st.recruit_deck.draw(DEAL)
        ev.append(Event("deal", f"{seat} is dealt {DEAL} recruits"))
    if st.options["recruit_draft"]:
        from .variants import start_recruit_draft

        start_recruit_draft(st, ev)


@chance("shuffle_artifacts")
def _artifacts(st: EuphoriaState, n: int, outcome: dict, ev: Events) -> None:
    st.artifacts.shuffle(outcome["order"])
    ev.append(Event("shuffle", "the artifact deck is shuffled"))


@chance("shuffle_dilemmas")
def _dilemmas(st: EuphoriaState, n: int, outcome: dict, ev: Events) -> None:
    deck = [st.dilemma_deck[i] for i in outcome["order"]]
    for seat in st.seats:
        st.players[seat].dilemma = deck.pop(0)
        ev.append(Event("deal", f"your ethical dilemma: {st.players[seat].dilemma}", frozenset({seat})))
    st.dilemma_deck = deck


@chance("shuffle_markets")
def _markets(st: EuphoriaState, n: int, outcome: dict, ev: Events) -> None:
    tiles = [list(MARKETS)[i] for i in outcome["order"]]
    if st.options["market_draft"]:
        from .variants import deal_markets

        deal_markets(st, tiles, ev)
        return
    for site in SITES:
        st.sites[site] = tiles.pop(0)
    st.set_aside = tiles
    ev.append(Event("setup", "six market tiles are placed face down on the construction sites"))


@task("opening_roll")
def _opening(st: EuphoriaState, t: Task, ev: Events) -> None:
    await_chance(st, "opening_roll", STARTING_WORKERS * len(st.seats))


@chance("opening_roll")
def _opening_rolled(st: EuphoriaState, n: int, outcome: dict, ev: Events) -> None:
    """The opening roll fixes the starting knowledge of the workers (no knowledge check).

    Rule: SP 32
    """
    faces = list(outcome["dice"])
    for seat in st.seats:
        st.players[seat].available = faces[:STARTING_WORKERS]
        st.players[seat].rolling = 0
        st.opening[seat] = faces[:STARTING_WORKERS]
        faces = faces[STARTING_WORKERS:]
    ev.append(Event("roll", "opening roll: " + ", ".join(f"{s} {st.opening[s]}" for s in st.seats)))


@task("choose_recruits")
def _choose(st: EuphoriaState, t: Task, ev: Events) -> None:
    st.phase = "recruits"


def recruit_pairs(st: EuphoriaState, seat: str) -> list[tuple[str, str]]:
    dealt = st.players[seat].dealt
    return [(a, h) for a in dealt for h in dealt if a != h]


def commit_recruits(st: EuphoriaState, seat: str, active: str, hidden: str, ev: Events) -> None:
    """A sealed choice; once all have chosen the active recruits are revealed together."""
    st.players[seat].choice = [active, hidden]
    ev.append(Event("recruits", f"{seat} has chosen recruits"))
    if all(st.players[s].choice for s in st.seats):
        reveal_recruits(st, ev)


def reveal_recruits(st: EuphoriaState, ev: Events) -> None:
    for seat in st.seats:
        p = st.players[seat]
        active, hidden = p.choice
        p.active, p.hidden = [active], [hidden]
        p.discarded = [r for r in p.dealt if r not in p.choice]
        p.dealt, p.choice = [], []
        ev.append(Event("reveal", f"{seat}'s active recruit: {RECRUITS[active].name} ({active})"))
    st.phase = "play"
    refresh_recruits(st, ev)
    if st.options["morale_knowledge_draft"]:
        from .variants import start_track_draft

        start_track_draft(st, ev)
        return
    begin_play(st, ev)


def first_player(st: EuphoriaState) -> str:
    """The highest opening roll starts; a tie goes to the tied player seated first."""
    return max(st.seats, key=lambda s: (sum(st.opening.get(s, ())), -st.seats.index(s)))


def begin_play(st: EuphoriaState, ev: Events) -> None:
    st.phase = "play"
    first = first_player(st)
    ev.append(Event("first", f"{first} rolled highest and starts"))
    push(st, Task("start_turn", (first,)))


def chance_labels(st: EuphoriaState) -> tuple[str, ...]:
    """Whose worker die each die of a roll step is, for people rolling real dice."""
    assert st.chance is not None
    kind, arg = st.chance
    if kind == "roll_workers":
        return (f"{arg[0]}'s worker",) * arg[1]
    if kind == "opening_roll":
        return tuple(f"{s}'s worker" for s in st.seats for _ in range(arg // len(st.seats)))
    if kind == "shuffle_sites":
        return ()
    return tuple(f"{s}'s worker" for s in arg for _ in range(st.players[s].workers))


def chance_sides(st: EuphoriaState) -> tuple[int, ...]:
    """The dice a roll step needs."""
    assert st.chance is not None
    kind, arg = st.chance
    if kind == "roll_workers":
        return (6,) * arg[1]
    if kind == "opening_roll":
        return (6,) * arg
    if kind == "shuffle_sites":
        return ()
    return (6,) * sum(st.players[s].workers for s in arg)
