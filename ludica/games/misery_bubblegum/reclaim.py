"""Reclaim: every roller's dice go back along the arrow, the rest to Misery ([Getting things done], [Misery,
Misery, Misery]).

[What does it mean?], [Desires], [Promises]; MB-R29, MB-R30, MB-R34, MB-R35, MB-R46.
"""

from __future__ import annotations

from ...core import Event
from ...core.names import counted
from . import procedure as proc
from .arithmetic import (
    reclaim_split,
)
from .common import (
    S_DESIRES,
    S_MEANING,
    Args,
    refuse,
)
from .state import (
    OTHERS,
    MiseryState,
    Participant,
)
from .triangle import ARROWS, opposite


# -- A9 reclaim ----------------------------------------------------------------------------------
def reclaim_orientation(state: MiseryState, seat: str) -> str:
    """The meaning-decider follows their arrow; everyone else the opposite one (MB-R35)."""
    attempt = state.attempt
    assert attempt is not None and attempt.orientation is not None
    return attempt.orientation if seat == attempt.meaning_decider else opposite(attempt.orientation)


def rolled_count(part: Participant) -> int:
    return len(part.dice) - len(part.spent) + len(part.fulfilment)


def misery_after(state: MiseryState, part: Participant, reclaim_count: int | None, denied: list[str]) -> int:
    """Misery after the reclaim moves, before denials (the reclaim's first four steps)."""
    me = state.characters[part.seat]
    keeps = len([d for d in part.penalising if d in state.resources and d not in denied])
    to_misery, _, owed = reclaim_split(
        reclaim_orientation(state, part.seat),
        rating=me.rating[part.pool],
        left_in_pool=me.pool[part.pool],
        rolled=rolled_count(part),
        extras=part.unmatched_aid + keeps,
        reclaim_count=reclaim_count,
    )
    return me.misery + to_misery + min(owed, me.spare)


def denial_cost(state: MiseryState, denied: list[str]) -> int:
    return sum(state.resources[d].value for d in denied)


def reclaim_limit(state: MiseryState, part: Participant) -> int:
    """The most dice ``others`` may reclaim: the rating, the dice rolled, and room for the denials."""
    me = state.characters[part.seat]
    assert state.attempt is not None
    cost = denial_cost(state, state.attempt.denied)
    top = min(me.rating[part.pool], rolled_count(part))
    while cost and top > 0 and misery_after(state, part, top, state.attempt.denied) < cost:
        top -= 1
    return top


def _reclaimer(state: MiseryState, seat: str) -> Participant:
    part = state.participant(seat)
    assert part is not None
    return part


def check_deny_desire(state: MiseryState, seat: str, args: Args) -> None:
    """[Desires], MB-R30: deny a penalising Desire's power: its value in Misery goes to Spare, it halves."""
    attempt = state.attempt
    assert attempt is not None
    part = _reclaimer(state, seat)
    ident = args["desire"]
    if ident not in part.penalising or ident not in state.resources:
        refuse(f"{ident!r} is not a Desire that penalises you in this action", "MB-R30", S_DESIRES)
    if ident in attempt.denied:
        refuse("you already deny it", "MB-R30", S_DESIRES)
    denied = [*attempt.denied, ident]
    rc = 0 if reclaim_orientation(state, seat) == OTHERS else None
    if misery_after(state, part, rc, denied) < denial_cost(state, denied):
        refuse("you do not have enough Misery to deny it", "MB-R30", S_DESIRES)


def play_deny_desire(state: MiseryState, seat: str, args: Args) -> list[Event]:
    assert state.attempt is not None
    state.attempt.denied.append(args["desire"])
    return []


def check_reclaim(state: MiseryState, seat: str, args: Args) -> None:
    """[What does it mean?]: reclaim into the pool the arrow points to; the rest goes to Misery."""
    part = _reclaimer(state, seat)
    if reclaim_orientation(state, seat) == OTHERS:
        top = reclaim_limit(state, part)
        if not 0 <= args["reclaim_count"] <= top:
            refuse(f"you may reclaim 0 to {top} dice", "reclaim", S_MEANING)


def play_reclaim(state: MiseryState, seat: str, args: Args) -> list[Event]:
    attempt = state.attempt
    assert attempt is not None
    part = _reclaimer(state, seat)
    me = state.characters[seat]
    orientation = reclaim_orientation(state, seat)
    denied = list(attempt.denied)
    keeps = len([d for d in part.penalising if d in state.resources and d not in denied])
    to_misery, reclaimed, owed = reclaim_split(
        orientation,
        rating=me.rating[part.pool],
        left_in_pool=me.pool[part.pool],
        rolled=rolled_count(part),
        extras=part.unmatched_aid + keeps,
        reclaim_count=args.get("reclaim_count"),
    )
    from_spare = min(owed, me.spare)
    dest = ARROWS[(part.pool, orientation)].dest
    me.spare -= from_spare
    me.misery += to_misery + from_spare
    me.pool[dest] += reclaimed
    lost = counted(to_misery + from_spare, "die", "dice")
    text = f"{me.name} reclaims {counted(reclaimed, 'die', 'dice')} into {dest}; {lost} into Misery"
    events = [Event("reclaim", text)]
    for ident in denied:
        desire = state.resources[ident]
        v = desire.value
        me.misery -= v
        me.spare += v
        desire.value //= 2
        if desire.value == 0:
            del state.resources[ident]
        events.append(Event("deny", f'{me.name} denies "{desire.text}": {v} Misery dice to Spare'))
    attempt.denied = []
    part.reclaimed = True
    attempt.turn += 1
    if attempt.turn >= len(proc.player_participants(attempt)):
        proc.cleanup(state)
    return events
