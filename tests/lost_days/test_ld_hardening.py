"""Issue 14 (hardening), points 13 and 14: refusals name their rule; the losing Memory of Kingship."""

from __future__ import annotations

from typing import Any

import pytest

from ludica.core import Action, Config, IllegalAction, Match, NotYourDecision
from ludica.core.match import canonical_json
from ludica.games.lost_days import GAME
from ludica.games.lost_days.scenario import act, dice, table
from ludica.games.lost_days.state import ROLL_OFF


def refused(match: Match[Any], notation: str, rule: str) -> IllegalAction:
    """Refused through the match (as every front end asks), naming ``rule``; nothing changes."""
    before = canonical_json(GAME.to_position(match.state))
    with pytest.raises(IllegalAction) as info:
        match.apply(Action.parse(notation))
    assert info.value.rule == rule, info.value
    assert canonical_json(GAME.to_position(match.state)) == before
    return info.value


def write(match: Match[Any], seat: str, kingship: bool = False) -> None:
    match.apply(Action(seat, "write_memory", {"text": "I remember a thing", "kingship": kingship}))


def auction(match: Match[Any], bids: dict[str, int], lot: str | None = None) -> None:
    st = match.state
    memory = lot or next(m.id for m in st.centre() if m.id != st.last_abandoned)
    act(match, f"{st.selector} select_memory memory={memory}")
    for seat, amount in bids.items():
        act(match, f"{seat} place_bid amount={amount}")


def play_round(match: Match[Any]) -> None:
    """Write, then auctions in which the first eligible player outbids the rest by one."""
    while match.state.phase == "WRITING":
        write(match, match.pending().seats[0])
    round_ = match.state.round
    while match.state.round == round_ and match.state.phase == "SELECT":
        eligible = [s for s in match.state.seats if not match.state.elves[s].won_this_round]
        auction(match, {s: 2 if i == 0 else 1 for i, s in enumerate(eligible)})


def test_point13_a_round_winner_who_bids_again_is_refused_by_ld_r2() -> None:
    match = Match(GAME, Config(("Cate", "Hugo", "Martin"), {}, 0))
    while match.state.phase == "WRITING":
        write(match, match.pending().seats[0])
    auction(match, {"p1": 3, "p2": 1, "p3": 1})  # p1 wins this round's first memory
    act(match, f"p3 select_memory memory={match.state.centre()[0].id}")
    assert "p1" not in match.pending().seats
    err = refused(match, "p1 place_bid amount=1", "LD-R2")
    assert "won a memory this round" in err.reason and not isinstance(err, NotYourDecision)


def test_point13_a_mad_elf_who_sells_is_refused_by_ld_r29() -> None:
    match, ids = table(["Hugo", "Cate", "Martin"], memories={"m": ("p2", 2)}, framer="p2")
    match.state.elves["p3"].mad = True
    match.state.memo.clear()
    assert "p3" not in match.pending().seats
    err = refused(match, f"p3 sell_memory memory={ids['m']}", "LD-R29")
    assert "mad elf" in err.reason


def test_point13_a_seat_with_no_rule_against_it_is_still_refused_by_turn_order() -> None:
    match = Match(GAME, Config(("Cate", "Hugo", "Martin"), {}, 0))
    while match.state.phase == "WRITING":
        write(match, match.pending().seats[0])
    auction(match, {"p1": 3, "p2": 1, "p3": 1})
    act(match, f"p3 select_memory memory={match.state.centre()[0].id}")
    refused(match, "p1 decline_raise", "turn order")  # no tie to raise: only whose decision it is


def test_point14_the_losing_memory_of_kingship_becomes_an_ordinary_memory() -> None:
    """§2.4 step 5, LD-R8(e): the candidate that loses the tie shows as an ordinary memory."""
    match = Match(GAME, Config(("Cate", "Hugo", "Martin"), {}, 0))
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
    assert st.king == "p2"
    for seat in (None, "p1", "p2", "p3"):
        shown = {memory["id"]: memory for memory in _memories(match.view(seat))}
        assert shown[mok1]["kingship"] is False and shown[mok1]["is_mok"] is False, seat
        assert shown[mok2]["kingship"] is True and shown[mok2]["is_mok"] is True, seat
    text = GAME.render(match.view("p1"))
    line = next(x for x in text.splitlines() if st.memories[mok1].text in x)  # the face names memories by their words
    assert "♔" not in line and "♛" not in line, line


def _memories(view: Any) -> list[dict[str, Any]]:
    """Every memory object anywhere in a view."""
    found: list[dict[str, Any]] = []
    if isinstance(view, dict):
        if "id" in view and "kingship" in view:
            found.append(view)
        for value in view.values():
            found.extend(_memories(value))
    elif isinstance(view, list):
        for value in view:
            found.extend(_memories(value))
    return found
