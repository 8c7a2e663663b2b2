"""Getting better: success dice raise the Traits used in the action ([Getting Better], MB-R15)."""

from __future__ import annotations

from ...core import Event
from . import procedure as proc
from .common import (
    S_BETTER,
    Args,
    refuse,
    selection_sum,
)
from .state import (
    MiseryState,
)


# -- A8 growth -----------------------------------------------------------------------------------
def check_increase_trait(state: MiseryState, seat: str, args: Args) -> None:
    """[Getting Better], MB-R15: success dice totalling a used Trait's value raise it by one."""
    attempt = state.attempt
    assert attempt is not None
    trait = state.traits.get(args["trait"])
    if trait is None or trait.id not in attempt.traits_used:
        refuse("only Traits used in this action can grow", "MB-R15", S_BETTER)
    if not attempt.selected:
        refuse("choose your success dice first (select_die)", "MB-R15", S_BETTER)
    total = selection_sum(state)
    if total < trait.value:
        refuse(f"the chosen success dice total {total}, less than the Trait's {trait.value}", "MB-R15", S_BETTER)


def play_increase_trait(state: MiseryState, seat: str, args: Args) -> list[Event]:
    attempt = state.attempt
    assert attempt is not None
    part = state.participant(seat)
    assert part is not None
    part.grown.extend(int(ref.rpartition(".")[2]) for ref in attempt.selected)
    attempt.selected.clear()
    trait = state.traits[args["trait"]]
    trait.value += 1
    events = [Event("grow", f'"{trait.text}" grows to {trait.value}')]
    if not proc.can_grow(state, part):
        proc.next_grower(state)
    return events


def check_end_growth(state: MiseryState, seat: str, args: Args) -> None:
    return None


def play_end_growth(state: MiseryState, seat: str, args: Args) -> list[Event]:
    proc.next_grower(state)
    return []
