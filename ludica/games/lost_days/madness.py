"""Descent into madness and the end of the game [Madness, Descent, Ending].

A sane character descends when he has more madness coins than coins on his memory cards, the
purse not counted (strict, LD-R28). His memories go to the market with their coins, tainted
(LD-R29, LD-R30); he keeps purse and madness coins for influence, and his player goes on as
adversity. The game ends when at most one sane character remains (LD-R38).
"""

from __future__ import annotations

from ...core import Event
from .coins import to_market
from .state import EPILOGUE, GAME_OVER, LostDaysState


def tipped(state: LostDaysState, seat: str) -> bool:
    """More madness coins than the total on his memory cards (not in his purse) [Descent; LD-R28].

    Rule: [Madness]; LD-R28
    """
    return state.madness(seat) > state.memory_coins(seat)


def check_madness(state: LostDaysState, out: list[Event]) -> None:
    """Every sane character past the threshold descends now, then the end of the game is checked."""
    for seat in state.seats:
        elf = state.elves[seat]
        if not elf.mad and tipped(state, seat):
            descend(state, seat, out)
    check_end(state, out)


def descend(state: LostDaysState, seat: str, out: list[Event]) -> None:
    """The descent: irreversible; the memories go to the market, tainted, with their coins [LD-R29].

    Rule: [Descent into Madness]
    """
    elf = state.elves[seat]
    elf.mad, elf.pending_write_out, elf.mad_at_scene = True, True, state.scenes_played
    out.append(
        Event(
            "madness",
            f"{elf.name} ({seat}) descends into madness: {state.madness(seat)} madness coins against "
            f"{state.memory_coins(seat)} on memories",
            data={"seat": seat},
        )
    )
    for memory in state.owned(seat):
        memory.tainted = True
        to_market(state, memory, out)


def check_end(state: LostDaysState, out: list[Event]) -> None:
    """At most one sane character left: the epilogue, or the end with no survivor [Ending; LD-R38]."""
    if state.phase in (EPILOGUE, GAME_OVER) or state.session == 0:
        return
    sane = state.sane()
    if len(sane) > 1:
        return
    state.conflict, state.scene, state.trade = None, None, None
    state.pending_interrupt = None
    if sane:
        state.survivor = sane[0]
        state.phase = EPILOGUE
        out.append(Event("end", f"only {state.elves[sane[0]].name} ({sane[0]}) remains: the elves have fallen"))
    else:
        state.phase = GAME_OVER
        # LD-R38
        out.append(Event("end", "no elf remains sane: the game ends with no survivor"))
