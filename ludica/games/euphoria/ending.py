"""The end: the first player to place all ten authority stars wins.

Rulebook "End of Game": the game ends at once; several players may finish together (a market
completing, a tier-4 allegiance). Ties are broken in order by higher morale, lower knowledge,
more markets with your star, more territories with your star, then a roll of all your workers
(lowest total wins), repeated until the tie is broken. The end reason ("ten stars" or the
"round limit" bound) stays in the outcome after a tie-break roll (issue 14).
"""

from __future__ import annotations

from ...core import Event
from .agenda import Events, await_chance, chance
from .state import EuphoriaState


def markets_with_star(st: EuphoriaState, seat: str) -> int:
    return sum(1 for owners in st.built.values() if seat in owners)


def territories_with_star(st: EuphoriaState, seat: str) -> int:
    return sum(1 for owners in st.territory.values() if seat in owners)


def tiebreak_key(st: EuphoriaState, seat: str) -> tuple[int, int, int, int]:
    p = st.players[seat]
    return (-p.morale, p.knowledge, -markets_with_star(st, seat), -territories_with_star(st, seat))


def game_over_check(st: EuphoriaState, ev: Events) -> None:
    """The game ends when a player has placed all ten authority stars; several may finish together.

    Rule: [End of Game]; SP 31
    """
    if st.phase != "play":
        return
    for p in st.players.values():  # a loop: this runs after every task of the agenda
        if p.stars == 0:
            break
    else:
        return
    finished = [s for s in st.seats if st.players[s].stars == 0]
    decide(st, finished, "ten stars", ev)


def round_limit_reached(st: EuphoriaState) -> bool:
    """The ``round_limit`` bound (0: none): every seat has had that many turns."""
    limit = st.options["round_limit"]
    return bool(limit) and st.turn_number >= limit * len(st.seats)


def end_by_round_limit(st: EuphoriaState, ev: Events) -> None:
    """A bound for endless play (never met at a real table): the most stars placed wins,
    then the rulebook's tie-breakers."""
    least = min(st.players[s].stars for s in st.seats)
    ev.append(Event("end", f"the round limit ({st.options['round_limit']}) is reached"))
    decide(st, [s for s in st.seats if st.players[s].stars == least], "round limit", ev)


def decide(st: EuphoriaState, finished: list[str], reason: str, ev: Events) -> None:
    st.agenda.clear()
    st.prompt = None
    st.chance = None
    st.chain = []
    if len(finished) == 1:
        finish(st, finished, reason, ev)
        return
    best = min(tiebreak_key(st, s) for s in finished)
    leaders = [s for s in finished if tiebreak_key(st, s) == best]
    if len(leaders) == 1:
        finish(st, leaders, f"{reason}, tie broken", ev)
        return
    st.phase = "tiebreak"
    st.tied = leaders
    st.end_reason = reason  # kept, so that the roll that breaks the tie does not hide it
    ev.append(Event("tie", f"{', '.join(leaders)} tie on every count: they roll their workers"))
    await_chance(st, "tiebreak_roll", leaders)


def finish(st: EuphoriaState, winners: list[str], reason: str, ev: Events) -> None:
    st.phase = "over"
    st.winners = winners
    st.end_reason = reason
    ev.append(Event("end", f"{', '.join(winners)} wins: {reason}"))


def tiebreak_dice(st: EuphoriaState) -> list[int]:
    return [st.players[s].workers for s in st.tied]


@chance("tiebreak_roll")
def _tiebreak(st: EuphoriaState, arg: list, outcome: dict, ev: Events) -> None:
    faces = list(outcome["dice"])
    totals: dict[str, int] = {}
    for seat in st.tied:
        n = st.players[seat].workers
        totals[seat], faces = sum(faces[:n]), faces[n:]
    ev.append(Event("tie", "tie-break roll: " + ", ".join(f"{s} {v}" for s, v in totals.items())))
    low = min(totals.values())
    leaders = [s for s in st.tied if totals[s] == low]
    if len(leaders) == 1:
        st.tied = []
        finish(st, leaders, f"{st.end_reason or 'ten stars'}, tie broken by a roll", ev)
        return
    st.tied = leaders
    await_chance(st, "tiebreak_roll", leaders)
