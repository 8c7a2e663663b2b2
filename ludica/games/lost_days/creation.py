"""Memory creation: four themed rounds of writing and sealed bids, then the Memory of Kingship.

[Creating Memories, The 4 Rounds of Memory Creation, The Memory of Kingship, Purse of Coins;
LD-R1 to LD-R10].
"""

from __future__ import annotations

from ...core import Action, Event, Text
from ...core.mechanisms import SealedChoices, clockwise_from, next_seat
from .coins import crown_to, give_memory, move, new_memory
from .state import (
    BANK,
    CENTRE,
    KING_TIE,
    MARKET,
    ROLL_OFF,
    SEALED_BID,
    SELECT,
    SESSION,
    SET_ASIDE,
    THEMES,
    TIE_RAISE,
    WRITING,
    Auction,
    KingTie,
    LostDaysState,
    Memory,
)
from .vocabulary import amounts, listed, refuse

S_CREATE = "Creating Memories"
S_KING = "The Memory of Kingship"
S_MEMORIES = "Memories"
KINGSHIP_ROUND = 5
"""``round`` during the extra auction for an unowned Memory of Kingship (LD-R8 b)."""


I_REMEMBER = "I remember"
MEMORY_TEXT = Text("I remember ...", prefix=I_REMEMBER)
"""The free text of a memory card: it must begin with the words "I remember" [Memories; LD-R9, TV-LD-12]."""


def check_memory_text(text: str) -> None:
    """Refuse a memory that does not begin "I remember" [Memories; LD-R9, TV-LD-12].

    Rule: [Memories]; LD-R9

    "All memories should start with the words 'I remember ...'": the card is refused, never rewritten.
    """
    if not text.startswith(I_REMEMBER):
        raise refuse(
            f'a memory begins with the words "I remember" (LD-R9); {text[:40]!r} does not', "TV-LD-12", S_MEMORIES
        )


# -- rounds ------------------------------------------------------------------------------------
def begin_round(state: LostDaysState, out: list[Event]) -> None:
    """Round coin, roles, writing [Creating Memories; LD-R1, LD-R4].

    Rule: [Creating Memories]
    """
    n, r = len(state.seats), state.round
    state.extra_writer = state.seats[(state.rules.first_seat + r - 1) % n]
    state.selector = state.seats[(state.rules.first_seat + r) % n]
    for seat in state.seats:
        move(state, BANK, seat)
        elf = state.elves[seat]
        elf.won_this_round = False
        elf.to_write = 2 if seat == state.extra_writer else 1
    state.last_abandoned, state.abandon_streak = None, 0
    state.phase = WRITING
    out.append(
        Event(
            "round",
            f"round {r} of memory creation: {THEMES[r - 1]}; every player takes a coin; "
            f"{state.extra_writer} writes an extra memory",
        )
    )


def mok_written(state: LostDaysState) -> bool:
    return any(m.mok_candidate for m in state.memories.values())


def must_write_kingship(state: LostDaysState) -> bool:
    """The last memory of round 4 must be a Memory of Kingship if none exists yet (LD-R8 a)."""
    left = sum(e.to_write for e in state.elves.values())
    return state.round == 4 and left == 1 and not mok_written(state)


def check_write_memory(state: LostDaysState, action: Action) -> None:
    elf = state.elves[action.seat]
    if elf.to_write <= 0:
        raise refuse("you have written your memory for this round", "one memory each", S_CREATE)
    if action.args["kingship"] and elf.mok_written:
        raise refuse("no player may create more than one Memory of Kingship", "LD-R8", S_KING)
    if not action.args["kingship"] and must_write_kingship(state):
        raise refuse("one of the memories must be a Memory of Kingship: this last one must be", "LD-R8", S_KING)
    check_memory_text(action.args["text"])


def play_write_memory(state: LostDaysState, action: Action, out: list[Event]) -> None:
    elf = state.elves[action.seat]
    memory = new_memory(state, action.args["text"], action.seat, f"round{state.round}", CENTRE)
    if action.args["kingship"]:
        memory.mok_candidate, elf.mok_written = True, True
    elf.to_write -= 1
    kind = "a Memory of Kingship" if memory.mok_candidate else "a memory"
    out.append(Event("memory", f"{action.seat} writes {kind} {memory.id}: {memory.text}", data={"memory": memory.id}))
    if not any(e.to_write for e in state.elves.values()):
        state.phase = SELECT


def legal_write(state: LostDaysState, seat: str) -> list[Action]:
    elf = state.elves[seat]
    if elf.to_write <= 0:
        return []
    out = []
    if not must_write_kingship(state):
        out.append(listed(seat, "write_memory", ("text", MEMORY_TEXT), ("kingship", False)))
    if not elf.mok_written:
        out.append(listed(seat, "write_memory", ("text", MEMORY_TEXT), ("kingship", True)))
    return out


def pending_write(state: LostDaysState) -> tuple[str, ...]:
    return tuple(s for s in state.seats if state.elves[s].to_write > 0)


# -- one auction -------------------------------------------------------------------------------
def selectable(state: LostDaysState) -> list[Memory]:
    return [m for m in state.centre() if m.id != state.last_abandoned]


def check_select_memory(state: LostDaysState, action: Action) -> None:
    memory = state.memories.get(action.args["memory"])
    if memory is None or memory.place != CENTRE:
        raise refuse(f"{action.args['memory']} is not a memory in the middle of the table", "select", S_CREATE)
    if memory.id == state.last_abandoned:
        raise refuse("the bidding starts again with a new memory", "LD-R3", S_CREATE)


def open_auction(state: LostDaysState, lot: str, eligible: list[str]) -> None:
    state.auction = Auction(lot, SealedChoices(eligible, rule="LD-R7"))
    state.phase = SEALED_BID


def play_select_memory(state: LostDaysState, action: Action, out: list[Event]) -> None:
    lot = action.args["memory"]
    open_auction(state, lot, [s for s in state.seats if not state.elves[s].won_this_round])
    out.append(Event("select", f"{action.seat} reads out {lot}: {state.memories[lot].text}"))


def legal_select(state: LostDaysState, seat: str) -> list[Action]:
    return [listed(seat, "select_memory", ("memory", m.id)) for m in selectable(state)]


def bid_token(seat: str, lot: str, amount: int) -> str:
    """The secret's token: appears only in the bidder's view and story until the reveal (LD-R7)."""
    return f"sealed-bid:{seat}:{lot}:{amount}"


def check_place_bid(state: LostDaysState, action: Action) -> None:
    """[The 4 Rounds of Memory Creation] each character wins one memory a round: a winner bids no
    more this round (LD-R2); one sealed bid a memory (LD-R7)."""
    auction = state.auction
    assert auction is not None
    if action.seat not in auction.bids.seats:
        raise refuse("a player who has won a memory this round may not bid again", "LD-R2", S_CREATE)
    if action.seat in auction.bids.choices:
        raise refuse("you have already bid on this memory", "LD-R7", S_CREATE)
    amount, purse = action.args["amount"], state.purse(action.seat)
    if not 1 <= amount <= purse:
        raise refuse(f"a bid is 1 to {purse} coins (your purse)", "LD-R2", S_CREATE)


def play_place_bid(state: LostDaysState, action: Action, out: list[Event]) -> None:
    auction = state.auction
    assert auction is not None
    amount = action.args["amount"]
    auction.bids.commit(action.seat, amount)
    token = bid_token(action.seat, auction.lot, amount)
    out.append(Event("bid", f"you bid {amount} ({token})", frozenset({action.seat})))
    out.append(Event("bid", f"{action.seat} has bid on {auction.lot}"))
    if auction.bids.complete:
        reveal(state, out)


def legal_bid(state: LostDaysState, seat: str) -> list[Action]:
    return [listed(seat, "place_bid", ("amount", amounts(1, state.purse(seat))))]


def pending_bid(state: LostDaysState) -> tuple[str, ...]:
    assert state.auction is not None
    return state.auction.bids.waiting()


def reveal(state: LostDaysState, out: list[Event]) -> None:
    """Bids are revealed at once; a unique high bid wins, a tie goes to open raising [LD-R3]."""
    auction = state.auction
    assert auction is not None
    bids = auction.bids.reveal()
    shown = ", ".join(f"{s} {v}" for s, v in bids.items())
    out.append(Event("reveal", f"the bids on {auction.lot} are revealed: {shown}", data={"bids": dict(bids)}))
    high = max(bids.values())
    tied = [s for s in clockwise_from(state.seats, state.selector) if bids.get(s) == high]
    if len(tied) == 1:
        win(state, tied[0], high, out)
        return
    auction.tied, auction.still_in, auction.turn, auction.high = tied, list(tied), tied[0], high
    state.phase = TIE_RAISE
    out.append(Event("tie", f"{', '.join(tied)} tie at {high}: they may raise in turn"))


def check_raise_bid(state: LostDaysState, action: Action) -> None:
    auction = state.auction
    assert auction is not None
    amount, purse = action.args["amount"], state.purse(action.seat)
    if not auction.high < amount <= purse:
        raise refuse(f"a raise is more than {auction.high} and at most {purse} (your purse)", "LD-R3", S_CREATE)


def play_raise_bid(state: LostDaysState, action: Action, out: list[Event]) -> None:
    auction = state.auction
    assert auction is not None
    auction.high, auction.high_bidder, auction.raised = action.args["amount"], action.seat, True
    out.append(Event("raise", f"{action.seat} raises to {auction.high}"))
    advance_raising(state, out)


def play_decline_raise(state: LostDaysState, action: Action, out: list[Event]) -> None:
    auction = state.auction
    assert auction is not None
    auction.still_in.remove(action.seat)
    out.append(Event("decline", f"{action.seat} declines to raise"))
    advance_raising(state, out)


def legal_raise(state: LostDaysState, seat: str) -> list[Action]:
    auction = state.auction
    assert auction is not None
    out = [listed(seat, "decline_raise")]
    if state.purse(seat) > auction.high:
        out.append(listed(seat, "raise_bid", ("amount", amounts(auction.high + 1, state.purse(seat)))))
    return out


def advance_raising(state: LostDaysState, out: list[Event]) -> None:
    auction = state.auction
    assert auction is not None and auction.turn is not None
    if auction.raised and auction.high_bidder is not None and auction.still_in == [auction.high_bidder]:
        win(state, auction.high_bidder, auction.high, out)
        return
    if not auction.still_in:
        abandon(state, out)
        return
    ring = (*clockwise_from(auction.tied, auction.turn)[1:], auction.turn)
    auction.turn = next(s for s in ring if s in auction.still_in)


def abandon(state: LostDaysState, out: list[Event]) -> None:
    """Bids return; a new memory is selected, unless the deadlock safeguard rolls off (LD-R3, LD-R6)."""
    auction = state.auction
    assert auction is not None
    if state.round == KINGSHIP_ROUND or state.abandon_streak >= len(state.centre()):
        auction.rolloff = list(auction.tied)
        state.phase = ROLL_OFF
        # LD-R6
        out.append(Event("deadlock", f"nobody raises: {', '.join(auction.tied)} roll off for {auction.lot}"))
        return
    out.append(Event("abandon", f"nobody raises: the bids return and {auction.lot} stays in the middle"))
    state.last_abandoned, state.abandon_streak = auction.lot, state.abandon_streak + 1
    state.auction = None
    state.selector = next_seat(state.seats, state.selector)
    state.phase = SELECT


def win(state: LostDaysState, seat: str, amount: int, out: list[Event]) -> None:
    """The winner's bid goes onto the memory; other bids return [Creating Memories], the winning bid.

    Rule: LD-R5
    """
    auction = state.auction
    assert auction is not None
    memory = state.memories[auction.lot]
    move(state, seat, memory.id, amount)
    give_memory(state, memory, seat, out)
    out.append(Event("win", f"{seat} wins {memory.id} for {amount}: its value is {amount}"))
    state.elves[seat].won_this_round = True
    state.auction, state.last_abandoned, state.abandon_streak = None, None, 0
    if state.round == KINGSHIP_ROUND:
        resolve_kingship(state, out)
        return
    state.selector = next_seat(state.seats, state.selector)
    if all(e.won_this_round for e in state.elves.values()):
        end_round(state, out)
    else:
        state.phase = SELECT


def end_round(state: LostDaysState, out: list[Event]) -> None:
    """Unclaimed memories are set aside; the next round begins, or the Memory of Kingship is settled."""
    for memory in state.centre():
        memory.place = SET_ASIDE
    state.round += 1
    if state.round <= 4:
        begin_round(state, out)
    else:
        resolve_kingship(state, out)


# -- roll-offs (LD-R6, LD-R8) ------------------------------------------------------------------
def contenders(state: LostDaysState) -> list[str]:
    if state.king_tie is not None:
        return list(state.king_tie.owners)
    assert state.auction is not None
    return list(state.auction.rolloff)


def play_roll_off(state: LostDaysState, faces: list[int], out: list[Event]) -> None:
    """Highest d6 wins; those who tie for highest roll again [NOT IN TEXT; LD-R6, LD-R8]."""
    rolling = contenders(state)
    out.append(Event("roll_off", "roll-off: " + ", ".join(f"{s} {f}" for s, f in zip(rolling, faces, strict=True))))
    top = max(faces)
    best = [s for s, f in zip(rolling, faces, strict=True) if f == top]
    if len(best) > 1:
        if state.king_tie is not None:
            state.king_tie.owners = best
        else:
            assert state.auction is not None
            state.auction.rolloff = best
        return
    if state.king_tie is not None:
        crown_candidate(state, best[0], out)
    else:
        assert state.auction is not None
        win(state, best[0], state.auction.high, out)


# -- the Memory of Kingship --------------------------------------------------------------------
def resolve_kingship(state: LostDaysState, out: list[Event]) -> None:
    """Choose the actual Memory of Kingship by value [Kingship; LD-R8].

    Rule: [The Memory of Kingship]
    """
    candidates = [m for m in state.memories.values() if m.mok_candidate and m.owner is not None]
    if not candidates:
        unowned = [m for m in state.memories.values() if m.mok_candidate]
        lot = unowned[0].id
        state.round = KINGSHIP_ROUND
        state.selector = state.seats[(state.rules.first_seat + 5) % len(state.seats)]
        for elf in state.elves.values():
            elf.won_this_round = False
        state.memories[lot].place = CENTRE
        bidders = [s for s in clockwise_from(state.seats, state.selector) if state.purse(s) >= 1]
        if not bidders:
            # LD-R8
            out.append(Event("kingship", f"nobody has a coin to bid: {lot} goes to {state.selector}"))
            give_memory(state, state.memories[lot], state.selector, out)
            crown(state, state.memories[lot], out)
            return
        open_auction(state, lot, [s for s in state.seats if s in bidders])
        # LD-R8
        out.append(Event("kingship", f"no Memory of Kingship is owned: all with a coin bid for {lot}"))
        return
    top = max(state.value(m.id) for m in candidates)
    best = [m for m in candidates if state.value(m.id) == top]
    owners = [
        s for s in clockwise_from(state.seats, state.seats[state.rules.first_seat]) if any(m.owner == s for m in best)
    ]
    if len(owners) == 1:
        crown(state, best[0], out)
        return
    first_of = {s: next(m.id for m in best if m.owner == s) for s in owners}
    state.king_tie = KingTie(owners, first_of, {s: 0 for s in owners}, owners[0])
    state.phase = KING_TIE
    # LD-R8
    out.append(Event("kingship", f"Memories of Kingship tie at {top}: {', '.join(owners)} may raise"))


def crown(state: LostDaysState, memory: Memory, out: list[Event]) -> None:
    """The kingship coin, leftovers to the market, purses as they are: play begins [Kingship, Market].

    The other candidates become ordinary memories with their coins (LD-R8 e)."""
    memory.is_mok = True
    for other in state.memories.values():
        if other is not memory:
            other.mok_candidate = False
    move(state, BANK, memory.id)
    out.append(Event("kingship", f"{memory.id} is the Memory of Kingship: it takes an additional coin"))
    assert memory.owner is not None
    crown_to(state, memory.owner, out)
    for m in state.memories.values():
        if m.place == SET_ASIDE:
            m.place = MARKET
    state.king_tie = None
    state.phase = SESSION


def tie_top(state: LostDaysState) -> int:
    tie = state.king_tie
    assert tie is not None
    return max(state.value(tie.candidate[s]) for s in tie.owners)


def check_kingship_raise(state: LostDaysState, action: Action) -> None:
    tie = state.king_tie
    assert tie is not None
    coins, purse = action.args["coins"], state.purse(action.seat)
    need = tie_top(state) - state.value(tie.candidate[action.seat]) + 1
    if not need <= coins <= purse:
        raise refuse(f"to lead you must add {need} to {purse} coins (your purse)", "LD-R8", S_KING)


def play_kingship_raise(state: LostDaysState, action: Action, out: list[Event]) -> None:
    tie = state.king_tie
    assert tie is not None
    coins = action.args["coins"]
    move(state, action.seat, tie.candidate[action.seat], coins)
    tie.added[action.seat] += coins
    tie.last_raiser, tie.acted_since_raise = action.seat, []
    out.append(Event("kingship", f"{action.seat} adds {coins} to {tie.candidate[action.seat]}"))
    advance_tie(state, out)


def play_kingship_concede(state: LostDaysState, action: Action, out: list[Event]) -> None:
    tie = state.king_tie
    assert tie is not None
    tie.owners.remove(action.seat)
    if action.seat in tie.acted_since_raise:
        tie.acted_since_raise.remove(action.seat)
    out.append(Event("kingship", f"{action.seat} concedes the Memory of Kingship"))
    advance_tie(state, out, conceded=action.seat)


def play_kingship_pass(state: LostDaysState, action: Action, out: list[Event]) -> None:
    tie = state.king_tie
    assert tie is not None
    tie.acted_since_raise.append(action.seat)
    advance_tie(state, out)


def advance_tie(state: LostDaysState, out: list[Event], conceded: str | None = None) -> None:
    """The contest ends when one owner remains or everyone else has let the last raise stand."""
    tie = state.king_tie
    assert tie is not None
    if len(tie.owners) == 1:
        crown_candidate(state, tie.owners[0], out)
        return
    others = [s for s in tie.owners if s != tie.last_raiser]
    if all(s in tie.acted_since_raise for s in others):
        if tie.last_raiser is None:
            tie.rolloff = True
            state.phase = ROLL_OFF
            return
        crown_candidate(state, tie.last_raiser, out)
        return
    current = conceded or tie.turn
    ring = [s for s in clockwise_from(state.seats, current)[1:] if s in tie.owners]
    tie.turn = ring[0]


def crown_candidate(state: LostDaysState, seat: str, out: list[Event]) -> None:
    """The winner's candidate is crowned; the coins others added return to their purses (LD-R8 c)."""
    tie = state.king_tie
    assert tie is not None
    for owner, added in tie.added.items():
        if owner != seat:
            move(state, tie.candidate[owner], owner, added)
    crown(state, state.memories[tie.candidate[seat]], out)


def legal_king_tie(state: LostDaysState, seat: str) -> list[Action]:
    tie = state.king_tie
    assert tie is not None
    out = [listed(seat, "kingship_concede"), listed(seat, "kingship_pass")]
    need = tie_top(state) - state.value(tie.candidate[seat]) + 1
    if state.purse(seat) >= need:
        out.append(listed(seat, "kingship_raise", ("coins", amounts(need, state.purse(seat)))))
    return out
