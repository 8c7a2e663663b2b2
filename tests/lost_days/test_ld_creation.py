"""Memory creation and the Memory of Kingship (TV-LD-01, TV-LD-02, TV-LD-12; LD-R1 to LD-R10)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.core import Action, Config, IllegalAction, Match, fill
from ludica.core.match import canonical_json
from ludica.games.lost_days import GAME
from ludica.games.lost_days.scenario import act, dice
from ludica.games.lost_days.state import KING_TIE, MARKET, ROLL_OFF, SEALED_BID, SELECT, SESSION, TIE_RAISE

DUEL = "I remember the first time I beat my master whilst duelling, the look on his face as his blood dripped"


def new_match(names: tuple[str, ...] = ("Cate", "Hugo", "Martin")) -> Match[Any]:
    return Match(GAME, Config(names, {}, 0))


def write(match: Match[Any], seat: str, text: str = "I remember a thing", kingship: bool = False) -> None:
    match.apply(Action(seat, "write_memory", {"text": text, "kingship": kingship}))


def write_round(match: Match[Any], kingship_by: str | None = None) -> None:
    while match.state.phase == "WRITING":
        seat = match.pending().seats[0]
        write(match, seat, kingship=seat == kingship_by and not match.state.elves[seat].mok_written)


def refused(match: Match[Any], notation: str, rule: str) -> IllegalAction:
    """The action is refused naming ``rule``, and nothing changes."""
    before = canonical_json(GAME.to_position(match.state))
    with pytest.raises(IllegalAction) as info:
        match.apply(Action.parse(notation))
    assert info.value.rule == rule, info.value
    assert canonical_json(GAME.to_position(match.state)) == before
    return info.value


def auction(match: Match[Any], bids: dict[str, int], lot: str | None = None) -> None:
    st = match.state
    memory = lot or next(m.id for m in st.centre() if m.id != st.last_abandoned)
    act(match, f"{st.selector} select_memory memory={memory}")
    for seat, amount in bids.items():
        act(match, f"{seat} place_bid amount={amount}")


def play_round(match: Match[Any], kingship_by: str | None = None) -> None:
    """Write, then auctions in which the first eligible player outbids the rest by one."""
    write_round(match, kingship_by)
    round_ = match.state.round
    while match.state.round == round_ and match.state.phase == SELECT:
        eligible = [s for s in match.state.seats if not match.state.elves[s].won_this_round]
        auction(match, {s: 2 if i == 0 else 1 for i, s in enumerate(eligible)})


def test_tv_ld_01_the_bidding_example() -> None:
    """Rule: [Creating Memories]"""
    match = new_match()
    st = match.state
    assert [st.purse(s) for s in st.seats] == [12, 12, 12]  # the round coin
    assert (st.extra_writer, st.selector) == ("p1", "p2")  # Cate writes the extra memory, Hugo selects
    write(match, "p1")
    write(match, "p1")
    write(match, "p2")
    write(match, "p3", DUEL)
    assert len(st.centre()) == 4 and st.phase == SELECT
    duel = st.centre()[-1].id
    act(match, f"p2 select_memory memory={duel}", "p1 place_bid amount=1", "p2 place_bid amount=4")
    act(match, "p3 place_bid amount=2")
    assert st.memories[duel].owner == "p2" and st.value(duel) == 4
    assert [st.purse(s) for s in st.seats] == [12, 8, 12]
    assert st.selector == "p3"  # the player to the left of Hugo selects next
    act(match, f"p3 select_memory memory={st.centre()[0].id}")
    assert "p2" not in match.pending().seats
    err = refused(match, "p1 place_bid amount=0", "LD-R2")
    assert "1 to 12" in err.reason


def test_ld_r2_a_winner_may_not_bid_again_and_a_sole_bidder_wins() -> None:
    match = new_match()
    write_round(match)
    auction(match, {"p1": 3, "p2": 1, "p3": 1})
    act(match, f"p3 select_memory memory={match.state.centre()[0].id}")
    with pytest.raises(IllegalAction):
        match.apply(Action.parse("p1 place_bid amount=1"))
    refused(match, "p2 place_bid amount=13", "LD-R2")
    act(match, "p2 place_bid amount=2", "p3 place_bid amount=1")
    assert match.state.selector == "p1"  # the selector may have won already
    auction(match, {"p3": 1})  # a sole eligible player still bids and wins
    assert match.state.round == 2


def test_tv_ld_02_and_ld_r1_fifteen_coins_over_creation() -> None:
    """Rule: [What Do You Need to Play?]; [Glossary of Terms]; [Creating Characters]; [Purse of Coins]"""
    match = new_match()
    for _ in range(4):
        play_round(match, kingship_by="p1")
    st = match.state
    spent = {s: sum(st.value(m.id) for m in st.owned(s)) for s in st.seats}
    spent["p1"] -= 1 if st.memories[next(m.id for m in st.memories.values() if m.is_mok)].owner == "p1" else 0
    assert all(st.purse(s) + spent[s] == 15 for s in st.seats if s != st.king)
    assert st.phase == SESSION


def test_ld_r3_ties_are_raised_openly_in_turn() -> None:
    match = new_match()
    write_round(match)
    auction(match, {"p1": 3, "p2": 1, "p3": 3})  # selector p2: p3 raises first, then p1
    st = match.state
    assert st.phase == TIE_RAISE and st.auction.turn == "p3"
    refused(match, "p3 raise_bid amount=3", "LD-R3")
    act(match, "p3 raise_bid amount=4", "p1 raise_bid amount=5", "p3 decline_raise")
    lot = [m for m in st.memories.values() if m.owner == "p1"]
    assert len(lot) == 1 and st.value(lot[0].id) == 5 and st.purse("p1") == 7 and st.purse("p3") == 12


def test_ld_r3_a_tie_nobody_raises_is_abandoned_and_a_new_memory_is_selected() -> None:
    match = new_match()
    write_round(match)
    auction(match, {"p1": 2, "p2": 2, "p3": 1})
    lot = match.state.auction.lot
    act(match, "p2 decline_raise", "p1 decline_raise")
    st = match.state
    assert st.phase == SELECT and st.selector == "p3" and st.memories[lot].owner is None
    assert [st.purse(s) for s in st.seats] == [12, 12, 12]  # the bids return
    refused(match, f"p3 select_memory memory={lot}", "LD-R3")


def test_ld_r4_the_extra_writer_and_the_selector_move_round_by_round() -> None:
    """Rule: [The 4 Rounds of Memory Creation]"""
    match = new_match()
    play_round(match)
    assert (match.state.extra_writer, match.state.selector) == ("p2", "p3")


def test_ld_r6_a_deadlock_is_settled_by_a_roll_off() -> None:
    match = new_match()
    write_round(match)
    for _ in range(6):  # four memories in the centre: the fifth abandonment in a row rolls off
        auction(match, {"p1": 2, "p2": 2, "p3": 1})
        tied = match.state.auction.tied
        act(match, f"{tied[0]} decline_raise", f"{tied[1]} decline_raise")
        if match.state.phase == ROLL_OFF:
            break
    assert match.state.phase == ROLL_OFF
    tied = match.state.auction.rolloff
    dice(match, "roll_off", [3, 3])  # those who tie roll again
    dice(match, "roll_off", [2, 5])
    assert match.state.elves[tied[1]].won_this_round and match.state.purse(tied[1]) == 10


def test_ld_r7_a_sealed_bid_is_seen_by_its_bidder_only() -> None:
    match = new_match()
    write_round(match)
    act(match, f"p2 select_memory memory={match.state.centre()[0].id}", "p1 place_bid amount=7")
    token = GAME.secrets(match.state)[0].token
    assert token in canonical_json(match.view("p1"))
    for seat in ("p2", "p3", None):
        shown = canonical_json(match.view(seat)) + canonical_json([e.to_json() for e in match.story(seat)])
        assert token not in shown and '"amount":7' not in shown
    assert match.view("p2")["auction"]["has_bid"] == ["p1"]
    assert match.state.purse("p1") == 12  # nothing is deducted before the reveal
    act(match, "p2 place_bid amount=1", "p3 place_bid amount=1")
    assert GAME.secrets(match.state) == []


def test_ld_r8_one_memory_of_kingship_each_and_one_must_exist() -> None:
    """Rule: [The Memory of Kingship]; [The King of the Elves]"""
    match = new_match()
    write(match, "p1", kingship=True)
    refused(match, 'p1 write_memory text="I remember again" kingship=true', "LD-R8")
    write_round(match)
    for _ in range(3):
        while match.state.phase == SELECT:
            eligible = [s for s in match.state.seats if not match.state.elves[s].won_this_round]
            auction(match, {s: 1 + (i == 0) for i, s in enumerate(eligible)})
        if match.state.round < 4:
            write_round(match)
    assert match.state.round == 4


def test_ld_r8_the_last_memory_of_round_four_must_be_a_memory_of_kingship() -> None:
    match = new_match()
    for _ in range(3):
        play_round(match)
    while sum(e.to_write for e in match.state.elves.values()) > 1:
        write(match, match.pending().seats[0])
    last = match.pending().seats[0]
    refused(match, f'{last} write_memory text="I remember" kingship=false', "LD-R8")
    assert [a.args["kingship"] for a in GAME.legal_actions(match.state, last)] == [True]


def test_ld_r8_an_unowned_memory_of_kingship_is_auctioned_to_all() -> None:
    match = new_match()
    for _ in range(3):
        play_round(match)
    write_round(match, kingship_by="p3")
    st = match.state
    mok = next(m.id for m in st.memories.values() if m.mok_candidate)
    while st.phase == SELECT:
        eligible = [s for s in st.seats if not st.elves[s].won_this_round]
        auction(
            match,
            {s: 2 if i == 0 else 1 for i, s in enumerate(eligible)},
            lot=next(m.id for m in st.centre() if m.id != mok),
        )
    assert st.phase == SEALED_BID and st.auction.lot == mok and set(st.auction.bids.seats) == {"p1", "p2", "p3"}
    act(match, "p1 place_bid amount=1", "p2 place_bid amount=3", "p3 place_bid amount=1")
    assert st.king == "p2" and st.value(mok) == 4  # 3 bid + the kingship coin
    assert st.phase == SESSION


def test_ld_r8_tied_memories_of_kingship_raise_and_losers_get_their_coins_back() -> None:
    match = new_match()
    write(match, "p1", kingship=True)
    write(match, "p1")
    write(match, "p2", kingship=True)
    write(match, "p3")
    st = match.state
    mok1, mok2 = [m.id for m in st.memories.values() if m.mok_candidate]
    auction(match, {"p1": 3, "p2": 1, "p3": 1}, lot=mok1)
    auction(match, {"p2": 3, "p3": 1}, lot=mok2)
    auction(match, {"p3": 1})
    for _ in range(3):
        play_round(match)
    assert st.phase == KING_TIE and st.king_tie.owners == ["p1", "p2"]
    purse2 = st.purse("p2")
    act(match, "p1 kingship_pass", "p2 kingship_raise coins=2", "p1 kingship_raise coins=3", "p2 kingship_concede")
    assert st.king == "p1" and st.value(mok1) == 3 + 3 + 1 and st.memories[mok1].is_mok
    assert st.value(mok2) == 3 and st.purse("p2") == purse2 and not st.memories[mok2].is_mok


def test_ld_r8_a_kingship_tie_nobody_raises_goes_to_a_roll_off() -> None:
    match = new_match()
    write(match, "p1", kingship=True)
    write(match, "p1")
    write(match, "p2", kingship=True)
    write(match, "p3")
    st = match.state
    mok1, mok2 = [m.id for m in st.memories.values() if m.mok_candidate]
    auction(match, {"p1": 2, "p2": 1, "p3": 1}, lot=mok1)
    auction(match, {"p2": 2, "p3": 1}, lot=mok2)
    auction(match, {"p3": 1})
    for _ in range(3):
        play_round(match)
    act(match, "p1 kingship_pass", "p2 kingship_pass")
    assert st.phase == ROLL_OFF
    dice(match, "roll_off", [2, 6])
    assert st.king == "p2" and st.value(mok2) == 3


def test_tv_ld_12_and_ld_r9_every_memory_starts_with_i_remember() -> None:
    """TV-LD-12: the two well-formed memories are accepted as written; the third is refused, not rewritten.

    Rule: [Memories]
    """
    match = new_match()
    template = GAME.legal_actions(match.state, "p1")[0]
    assert template.args["text"].prefix == "I remember"  # bots and the table write the words first
    assert fill(template, random.Random(1)).args["text"].startswith("I remember ")
    refused(match, 'p1 write_memory text="A memory of debating politics at court." kingship=false', "TV-LD-12")
    refused(match, 'p1 write_memory text="i remember the wrong case" kingship=false', "TV-LD-12")
    write(match, "p1", "I remember striking down my father with his own sword.")
    write(match, "p1", "I remember being good with a sword.")
    texts = [m.text for m in match.state.memories.values()]
    assert texts == ["I remember striking down my father with his own sword.", "I remember being good with a sword."]


def test_ld_r10_unclaimed_memories_go_to_the_market_with_no_coins() -> None:
    match = new_match()
    for _ in range(4):
        play_round(match, kingship_by="p2")
    market = [m for m in match.state.memories.values() if m.place == MARKET]
    assert len(market) == 4 and all(match.state.value(m.id) == 0 for m in market)


def test_ld_r8_only_players_with_a_coin_bid_in_the_kingship_auction() -> None:
    """LD-R2 keeps a coin for every bidder in rounds 1-4; the extra auction of LD-R8 (b) has no round coin."""
    match = new_match()
    for _ in range(3):
        play_round(match)
    write_round(match, kingship_by="p3")
    st = match.state
    mok = next(m.id for m in st.memories.values() if m.mok_candidate)
    others = [m.id for m in st.centre() if m.id != mok]
    auction(match, {"p1": 2, "p2": 1, "p3": 1}, lot=others[0])
    auction(match, {"p2": 2, "p3": 1}, lot=others[1])
    st.bank_out -= st.coins.counts["p1"]
    st.coins.counts["p1"] = 0  # p1 has spent everything
    auction(match, {"p3": 1}, lot=others[2])
    assert st.phase == SEALED_BID and st.auction.lot == mok and "p1" not in st.auction.bids.seats
