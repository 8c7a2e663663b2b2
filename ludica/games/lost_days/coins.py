"""Moving coins and memory cards, with every flow through the bank counted ([Purse of Coins]).

Coins move between purses, memory cards and character cards and are never created or destroyed,
except through the bank, and only where a rule says so. :func:`move` is the only way a count
changes; ``bank_out`` follows every bank flow so that the invariant
``coins.total() == bank_out`` holds at every step.
"""

from __future__ import annotations

from ...core import Event
from ...core.mechanisms import Referee
from .state import BANK, MARKET, OWNED, LostDaysState, Memory, mad_key


def move(state: LostDaysState, giver: str, receiver: str, n: int = 1) -> None:
    """Move ``n`` coins; the bank is an unlimited source and sink.

    Rule: [Purse of Coins]
    """
    if n <= 0:
        return
    state.coins.transfer(giver, receiver, n)
    if giver == BANK:
        state.bank_out += n
    if receiver == BANK:
        state.bank_out -= n


def new_memory(state: LostDaysState, text: str, author: str, origin: str, place: str) -> Memory:
    """A fresh card with no coins on it yet."""
    memory = Memory(f"m{state.next_memory}", text, author, origin, place)
    state.next_memory += 1
    state.memories[memory.id] = memory
    state.coins.counts[memory.id] = 0
    return memory


def give_memory(state: LostDaysState, memory: Memory, seat: str, out: list[Event]) -> None:
    """``seat``'s character gains ``memory`` with all its coins.

    Rule: [Gaining New Memories]

    A tainted memory brings a madness coin from the bank [Descent; LD-R30]; the Memory of
    Kingship brings the crown [King is Dead; LD-R32].
    """
    before = memory.owner
    memory.place, memory.owner = OWNED, seat
    if before == seat:
        return
    out.append(
        Event("memory", f"{seat} gains {memory.id} (value {state.value(memory.id)})", data={"memory": memory.id})
    )
    if memory.tainted:
        move(state, BANK, mad_key(seat))
        # LD-R30
        out.append(Event("madness", f"{seat} gains a madness coin with a mad elf's memory {memory.id}"))
    if memory.is_mok:
        crown_to(state, seat, out)


def to_market(state: LostDaysState, memory: Memory, out: list[Event]) -> None:
    """The card goes to the Market of Memories with its coins; the crown falls vacant if it was the MoK.

    Rule: [The Market of Memories]
    """
    memory.place, memory.owner = MARKET, None
    if memory.is_mok and state.crown is not None:
        state.last_king = state.crown.seat
        state.crown = None
        state.pending_interrupt = None
        # LD-R31
        out.append(Event("crown", "the Memory of Kingship lies in the market: there is no king"))


def crown_to(state: LostDaysState, seat: str, out: list[Event]) -> None:
    """The crown follows the Memory of Kingship; in play the new king frames a scene at once [LD-R32].

    Rule: [The King is Dead, Long Live the King!]
    """
    if state.crown is None:
        state.crown = Referee(seat)
    else:
        state.crown.hand_to(seat)
    state.last_king = seat
    if state.session > 0:
        state.crown_changes += 1
        state.pending_interrupt = seat
    out.append(Event("crown", f"{seat} is King of the Elves"))
