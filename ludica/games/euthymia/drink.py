"""The digital bottle and glasses: pouring, drinking, "most drink" and "emptiest glass".

**[Taking a turn]** the Active Player takes the bottle and may refill anyone's glass except his
own; **[Ending the turn]** the bottle goes to the centre at a launch and no glass is filled until
the Conflict is resolved; **[On drinking]** the bottle holder (during a Conflict, the Active
Player) settles any doubt about whose glass is fuller; **[The final hour]** the Committee Member
controls the bottle.

Ties (R-EU-10) are settled by *designation*: ``state.designation[context]`` is the list of players
the resolver has named, in order; among equal glasses the named ones come first, in that order.
"""

from __future__ import annotations

from .state import (
    ACTIVE_CHARACTER,
    CONFLICT,
    CONFLICT_ORDER,
    ENDING_ORDER,
    MOST_DRINK,
    NEXT_ACTIVE,
    TURN,
    EuthymiaState,
)

FULLEST_FIRST = (MOST_DRINK, CONFLICT_ORDER)


def rank(state: EuthymiaState, candidates: list[str], levels: dict[str, int], context: str) -> list[list[str]]:
    """The candidates in groups of equal glasses, fullest first for ``most_drink`` and
    ``conflict_order``, emptiest first otherwise ([On drinking]). Within a group the designated players
    come first (in the order named), then the others in seat order."""
    sign = -1 if context in FULLEST_FIRST else 1
    named = state.designation.get(context, [])
    position = {p: i for i, p in enumerate(named)}
    ordered = sorted(candidates, key=lambda p: (sign * levels[p], position.get(p, len(named))))
    groups: list[list[str]] = []
    last: int | None = None
    for p in ordered:
        if groups and levels[p] == last:
            groups[-1].append(p)
        else:
            groups.append([p])
            last = levels[p]
    return groups


def undecided(state: EuthymiaState, group: list[str], context: str) -> list[str]:
    """Members of a tie group whose place is still open (empty when at most one is left)."""
    named = state.designation.get(context, [])
    rest = [p for p in group if p not in named]
    return rest if len(rest) > 1 else []


def first_of(
    state: EuthymiaState, candidates: list[str], levels: dict[str, int], context: str
) -> tuple[str | None, list[str]]:
    """The first candidate of a ranking, or ``(None, tied players awaiting a designation)``."""
    if not candidates:
        return None, []
    values = [levels[p] for p in candidates]
    best = max(values) if context in FULLEST_FIRST else min(values)
    top = [candidates[i] for i in range(len(values)) if values[i] == best]  # by index: no zip to call
    if len(top) == 1:
        return top[0], []
    for p in state.designation.get(context, ()):
        if p in top:
            return p, []
    return None, top


def full_order(
    state: EuthymiaState, candidates: list[str], levels: dict[str, int], context: str
) -> tuple[list[str] | None, list[str]]:
    """The whole ranking, or ``(None, the first group still needing a designation)``."""
    order: list[str] = []
    for group in rank(state, candidates, levels, context):
        open_ = undecided(state, group, context)
        if open_:
            return None, open_
        order.extend(group)
    return order, []


def most_drink_player(state: EuthymiaState) -> tuple[str | None, list[str]]:
    """**[On conflicts]** "the player with the most drink in his glass" — never the Active
    Player; dead and Ideal-Citizen players count (R-EU-12); retired glasses hold 0."""
    others = [p for p in state.players if p != state.active_player]
    return first_of(state, others, state.glass, MOST_DRINK)


def resolver(state: EuthymiaState) -> str | None:
    """Who settles a tie (R-EU-10): the Committee Member in the final hour, else the Active Player
    (the bottle holder in a turn, the Active Player of the Conflict just resolved after it).

    Rule: R-EU-31
    """
    if state.hour == 10:
        return state.committee_member
    if state.phase in (TURN, CONFLICT):
        return state.active_player
    return state.previous_active_player


def can_take_turns(state: EuthymiaState, seat: str) -> bool:
    """A living, non-Ideal character; never the Committee Member in the
    final hour; not twice in a final round.

    Rule: R-EU-23; R-EU-31
    """
    if state.status.get(seat) != ACTIVE_CHARACTER:
        return False
    if state.hour == 10 and seat == state.committee_member:
        return False
    return not (state.final_round_active and seat in state.final_done)


def next_active_candidates(state: EuthymiaState) -> list[str]:
    """Who may take the next turn (the previous Active Player excluded); :func:`.flow.choose_next`
    picks the emptiest glass among them."""
    out = []
    for p in state.players:
        if p == state.previous_active_player or not can_take_turns(state, p):
            continue
        if state.final_round_active and state.hour == 9 and p == state.committee_member:
            continue  # R-EU-30: his one final turn of hour 9 is the reveal
        out.append(p)
    return out


def ending_candidates(state: EuthymiaState) -> list[str]:
    """R-EU-32: after the Committee Member, every other player, in emptiest-glass order."""
    return [p for p in state.players if p not in state.endings and p != state.committee_member]


def next_ender(state: EuthymiaState) -> tuple[str | None, list[str]]:
    if state.committee_member not in state.endings:
        return state.committee_member, []
    return first_of(state, ending_candidates(state), state.glass, ENDING_ORDER)


def room(state: EuthymiaState, seat: str) -> int:
    """How much more a glass can take."""
    return state.options.glass_capacity - state.glass[seat]


def pour_limit(state: EuthymiaState, seat: str) -> int:
    return min(state.bottle_units, room(state, seat))


def glass_changed(state: EuthymiaState) -> None:
    """A designation of "most drink" holds only for the levels it was made for (R-EU-10)."""
    state.designation.pop(MOST_DRINK, None)


def pour_into(state: EuthymiaState, seat: str, units: int) -> None:
    state.bottle_units -= units
    state.glass[seat] += units
    glass_changed(state)


def open_tie(state: EuthymiaState, context: str) -> list[str]:
    """The players tied for the decision of ``context`` now (empty when nothing is open)."""
    if context == MOST_DRINK:
        return most_drink_player(state)[1]
    if context == CONFLICT_ORDER and state.conflict is not None:
        levels = state.conflict.levels
        return full_order(state, list(levels), levels, CONFLICT_ORDER)[1]
    if context == NEXT_ACTIVE:
        return first_of(state, next_active_candidates(state), state.glass, NEXT_ACTIVE)[1]
    if context == ENDING_ORDER:
        return next_ender(state)[1]
    return []


__all__ = [
    "can_take_turns",
    "first_of",
    "full_order",
    "most_drink_player",
    "next_active_candidates",
    "next_ender",
    "open_tie",
    "pour_into",
    "rank",
    "resolver",
]
