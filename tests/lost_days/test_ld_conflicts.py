"""Rulings on conflicts: LD-R11 to LD-R26, LD-R33, LD-R37, LD-R40, LD-R41."""

from __future__ import annotations

from typing import Any

import pytest

from ludica.core import Action, IllegalAction, MalformedAction, Match
from ludica.core.match import canonical_json
from ludica.games.lost_days import GAME
from ludica.games.lost_days.conflict import compare
from ludica.games.lost_days.scenario import act, dice, table
from ludica.games.lost_days.state import ADVERSITY, INFLUENCE, NARRATION, SCENE, STORY, TRIBUTE

NAMES = ["Hugo", "Cate", "Martin"]


def refused(match: Match[Any], notation: str, rule: str | None = None) -> IllegalAction:
    """Refused, naming ``rule``, and nothing changes (the position and the record)."""
    before = canonical_json(GAME.to_position(match.state))
    with pytest.raises(IllegalAction) as info:
        match.apply(Action.parse(notation))
    if rule is not None:
        assert info.value.rule == rule, info.value
    assert canonical_json(GAME.to_position(match.state)) == before
    return info.value


def to_roll(match: Match[Any], a: str, b: str, staked: str = "none", *, framer: str | None = None) -> None:
    """Frame, agree and finish narrating with no memory narrated (only the staked memory, if any)."""
    st = match.state
    framer = framer or st.scene.framer
    act(match, f'{framer} frame_conflict side_a={a} side_b={b} stakes="the stakes" staked_memory={staked}')
    for seat in list(st.conflict.agreement.waiting()):
        act(match, f"{seat} agree_stakes")
    while st.phase == NARRATION:
        act(match, f"{match.pending().seats[0]} done_narrating")


def passes(match: Match[Any]) -> None:
    for _ in match.state.seats:
        act(match, f"{match.pending().seats[0]} end_influence_turn")


def test_ld_r11_the_winner_has_the_highest_die_and_the_margin_counts_dice_above_the_losers_highest() -> None:
    assert compare([3, 4, 5, 5], [2, 3, 4, 4]) == ("a", 2)  # [Resolution]
    assert compare([3, 4, 5, 5], [6, 3, 4, 4]) == ("b", 1)  # [Influencing]: Hugo leads by 1
    assert compare([3, 4, 5, 5], [1, 3, 4, 4]) == ("a", 2)
    assert compare([3, 4, 6, 5], [1, 3, 4, 4]) == ("a", 2)  # "Cate still wins ... 2"
    assert compare([3, 4, 4, 5], [1, 3, 4, 4]) == ("a", 1)  # [Madness]


def test_ld_r12_equal_highest_dice_cancel_in_pairs_or_stalemate() -> None:
    assert compare([6, 5, 3], [6, 4]) == ("a", 1)
    assert compare([6, 5], [6, 5]) == (None, 0)
    assert compare([6, 5, 3], [6, 4], "stalemate") == (None, 0)


def test_ld_r12_a_stalemate_moves_nothing_but_strain_and_gain_apply() -> None:
    match, ids = table(NAMES, purses={"p2": 3}, memories={"prize": ("market", 3), "c": ("p2", 2)}, framer="p2")
    act(match, f'p2 frame_conflict side_a=p2 side_b=opposition stakes="x" staked_memory={ids["prize"]}')
    act(match, "p2 agree_stakes", "p1 agree_stakes", f'p2 narrate_memory memory={ids["c"]} narration="x"')
    act(match, "p1 approve_memory", "p2 done_narrating")
    dice(match, "roll_conflict", [6, 1, 6, 1, 4])  # a 6,1 against b 6,1,4: 6s cancel, b's 4 wins
    assert match.state.conflict.influence_turn == "p2"
    act(match, 'p2 influence pay_with=purse effect=reroll side=b die=2 narration="x"')
    dice(match, "reroll_die", [1])  # a 6,1 / b 6,1,1: 6 cancels 6, 1 cancels 1, b's 1 wins by 1
    assert match.view(None)["conflict"]["leading"] == {"side": "b", "margin": 1}
    act(match, 'p2 influence pay_with=purse effect=extra_die side=a narration="x"')
    dice(match, "extra_die", [1])  # everything cancels: stalemate
    act(match, "p2 end_influence_turn")
    passes(match)
    st = match.state
    assert st.conflict.winner is None
    act(match, 'p2 narrate_outcome text="neither"')  # the framer narrates a stalemate
    assert st.memories[ids["prize"]].place == "market" and st.phase == "STRAIN_AND_GAIN"
    assert st.conflict.gain_left["a"] == 1 and st.conflict.strain_left["a"] == 2


def test_ld_r13_a_side_with_dice_beats_a_side_with_none() -> None:
    assert compare([], [2, 3]) == ("b", 2)
    assert compare([], []) == (None, 0)


def test_ld_r14_the_opposition_rolls_the_stakes_value_when_rolled_and_narrates_nothing() -> None:
    match, ids = table(NAMES, purses={"p2": 2}, memories={"zero": ("market", 0), "one": ("market", 1)}, framer="p2")
    to_roll(match, "p2", "opposition", ids["zero"])
    assert match.state.conflict.done["b"]  # the opposition narrates no memories
    assert match.state.phase == INFLUENCE and match.state.conflict.dice == {"a": [], "b": []}  # 0 dice each
    match2, ids2 = table(NAMES, memories={"zero": ("market", 0)}, framer="p2", options={"opposition_dice_min": 1})
    to_roll(match2, "p2", "opposition", ids2["zero"])
    assert GAME.chance_step(match2.state).sides == (6,)


def test_ld_r14_coins_placed_during_influence_add_no_dice() -> None:
    match, ids = table(NAMES, purses={"p2": 2}, memories={"stake": ("market", 2)}, framer="p2")
    to_roll(match, "p2", "opposition", ids["stake"])
    dice(match, "roll_conflict", [3, 4])
    act(match, 'p2 influence pay_with=purse effect=reroll side=b die=0 narration="x"')
    dice(match, "reroll_die", [2])
    assert match.state.value(ids["stake"]) == 3 and len(match.state.conflict.dice["b"]) == 2


def test_ld_r15_who_plays_the_opposition() -> None:
    match, _ = table(NAMES, framer="p2")
    to_roll(match, "p2", "opposition")
    assert match.state.conflict.controller_b == "p1"  # the king
    match, _ = table(NAMES, framer="p1")  # the king's own character is side a
    to_roll(match, "p1", "opposition")
    assert match.state.conflict.controller_b == "p2"  # the player to the left
    match, _ = table(["A", "B", "C", "D"], framer="p1")
    match.state.elves["p4"].mad = True
    to_roll(match, "p1", "opposition")
    assert match.state.conflict.controller_b == "p4"  # the first mad player clockwise
    match, _ = table(["A", "B", "C", "D"], framer="p4", kind=ADVERSITY)
    match.state.elves["p4"].mad = True
    to_roll(match, "p2", "opposition")
    assert match.state.conflict.controller_b == "p4"  # the mad framer plays adversity


def test_ld_r16_influence_goes_round_lap_after_lap_until_everyone_passes() -> None:
    match, _ = table(NAMES, purses={"p1": 1, "p3": 1}, framer="p2")
    to_roll(match, "p2", "p3")  # no dice on either side: no roll, a level start; side b's controller first
    assert match.pending().seats == ("p3",)
    act(match, "p3 end_influence_turn", 'p1 influence pay_with=purse effect=extra_die side=b narration="x"')
    dice(match, "extra_die", [4])
    act(match, "p1 end_influence_turn", "p2 end_influence_turn", "p3 end_influence_turn")
    assert match.state.phase == INFLUENCE and match.pending().seats == ("p1",)  # a second lap
    act(match, "p1 end_influence_turn")
    assert match.state.phase == "OUTCOME" and match.state.conflict.winner == "b"


def test_ld_r17_bad_targets_are_refused_without_change() -> None:
    match, _ = table(NAMES, purses={"p2": 3}, framer="p2")
    to_roll(match, "p2", "opposition")
    dice(match, "roll_conflict", [2, 3, 4])
    assert match.pending().seats == ("p2",)  # the loser starts
    refused(match, 'p1 influence pay_with=purse effect=reroll side=b die=0 narration="x"', "turn order")
    err = refused(match, 'p2 influence pay_with=purse effect=reroll side=a die=0 narration="x"', "LD-R17")
    assert "no dice" in err.reason
    refused(match, 'p2 influence pay_with=purse effect=reroll side=b die=3 narration="x"', "LD-R17")
    refused(match, 'p2 influence pay_with=purse effect=explode side=b narration="x"', "LD-R17")
    with pytest.raises(MalformedAction):
        match.apply(Action.parse('p2 influence pay_with=purse effect=reroll side=b die="one" narration="x"'))


def test_ld_r18_coins_go_onto_the_memory_at_stake_even_in_the_market() -> None:
    match, ids = table(NAMES, purses={"p3": 2}, memories={"stake": ("market", 1)}, framer="p2")
    to_roll(match, "p2", "opposition", ids["stake"])
    dice(match, "roll_conflict", [4])
    act(match, "p2 end_influence_turn", 'p3 influence pay_with=purse effect=extra_die side=a narration="x"')
    dice(match, "extra_die", [2])
    assert match.state.value(ids["stake"]) == 2 and match.state.purse("p3") == 1


def test_ld_r19_only_the_opponent_spends_madness_coins_and_the_mad_their_own() -> None:
    match, _ = table(["A", "B", "C", "D"], purses={"p3": 1}, madness={"p2": 1, "p4": 2}, framer="p2")
    match.state.elves["p4"].mad = True
    to_roll(match, "p2", "p1")
    assert match.pending().seats == ("p1",)
    act(match, "p1 end_influence_turn", "p2 end_influence_turn")
    refused(match, 'p3 influence pay_with=opponent_madness effect=extra_die side=a narration="x"', "LD-R19")
    act(match, "p3 end_influence_turn", 'p4 influence pay_with=own_madness effect=extra_die side=a narration="x"')
    dice(match, "extra_die", [3])
    assert match.state.madness("p4") == 1
    act(match, "p4 end_influence_turn", 'p1 influence pay_with=opponent_madness effect=extra_die side=b narration="x"')
    dice(match, "extra_die", [5])
    assert match.state.madness("p2") == 0


def test_ld_r20_tribute_to_a_non_king_opposition_goes_to_the_bank_and_a_memory_in_lieu_to_the_market() -> None:
    match, ids = table(NAMES, purses={"p1": 4}, memories={"m": ("p1", 2)}, framer="p1")
    to_roll(match, "p1", "opposition")  # the king is side a: p2 plays the opposition
    dice(match, "roll_conflict", [2, 3, 4])
    passes(match)
    act(match, 'p2 narrate_outcome text="x"')
    bank = match.state.bank_out
    act(match, "p1 pay_tribute source=purse")
    refused(match, f"p1 pay_tribute_memory memory={ids['m']}", "LD-R20")  # not after a coin
    act(match, "p1 pay_tribute source=purse", "p1 pay_tribute source=purse")
    assert match.state.bank_out == bank - 3 and match.state.purse("p2") == 0
    match, ids = table(NAMES, memories={"m": ("p1", 2)}, framer="p1")
    to_roll(match, "p1", "opposition")
    dice(match, "roll_conflict", [2, 3, 4])
    passes(match)
    act(match, 'p2 narrate_outcome text="x"', f"p1 pay_tribute_memory memory={ids['m']}")
    assert match.state.memories[ids["m"]].place == "market"


def test_ld_r20_the_loser_pays_no_more_than_his_wealth_and_the_winner_may_place_on_a_memory() -> None:
    match, ids = table(NAMES, purses={"p3": 1}, memories={"w": ("p2", 3)}, framer="p2")
    act(match, 'p2 frame_conflict side_a=p2 side_b=p3 stakes="x" staked_memory=none', "p2 agree_stakes")
    act(match, "p3 agree_stakes", f'p2 narrate_memory memory={ids["w"]} narration="x"', "p3 approve_memory")
    act(match, "p3 done_narrating", "p2 done_narrating")
    dice(match, "roll_conflict", [2, 3, 4])
    passes(match)
    act(match, 'p2 narrate_outcome text="x"')
    assert match.state.conflict.owed == 1  # margin 3, but Martin's wealth is 1
    act(match, "p3 pay_tribute source=purse", f"p2 place_tribute dest={ids['w']}", 'p2 narrate_tribute text="x"')
    assert match.state.value(ids["w"]) == 4 and match.state.phase == SCENE


def test_ld_r21_the_opposition_never_takes_strain_and_gains_only_for_the_king() -> None:
    """Rule: [Playing the Opposition]; [Strain and Gain]"""
    match, _ = table(NAMES, purses={"p2": 1}, framer="p2")
    to_roll(match, "p2", "opposition")
    dice(match, "roll_conflict", [6, 6, 1])  # the opposition wins with two 6s and a 1
    passes(match)
    purse = match.state.purse("p1")
    act(match, 'p1 narrate_outcome text="x"', "p2 pay_tribute source=purse")
    act(match, 'p1 narrate_tribute text="x"')
    assert match.state.purse("p1") == purse + 1 + 2 and match.state.madness("p1") == 0


def test_ld_r22_the_stake_moves_before_tribute() -> None:
    """Rule: [Gaining New Memories]"""
    match, ids = table(NAMES, purses={"p2": 1}, memories={"s": ("p3", 2), "t": ("p3", 1)}, framer="p2")
    act(match, f'p2 frame_conflict side_a=p2 side_b=p3 stakes="theft" staked_memory={ids["s"]}')
    act(match, "p2 agree_stakes", "p3 agree_stakes", "p2 done_narrating", "p3 done_narrating")
    act(match, "p3 end_influence_turn", "p1 end_influence_turn")
    act(match, 'p2 influence pay_with=purse effect=extra_die side=a narration="x"')
    dice(match, "extra_die", [4])
    act(match, "p2 end_influence_turn")
    passes(match)
    act(match, 'p2 narrate_outcome text="stolen"')
    st = match.state
    assert st.memories[ids["s"]].owner == "p2" and st.value(ids["s"]) == 3 and st.phase == TRIBUTE
    assert [a.args.get("memory") for a in GAME.legal_actions(st, "p3") if a.type == "pay_tribute_memory"] == [ids["t"]]


def test_ld_r23_a_third_players_memory_cannot_be_staked() -> None:
    match, ids = table(NAMES, memories={"x": ("p3", 2)}, framer="p2")
    refused(match, f'p2 frame_conflict side_a=p2 side_b=p1 stakes="x" staked_memory={ids["x"]}', "LD-R23")


def test_ld_r24_a_staked_memory_lost_to_the_opposition_goes_to_the_market() -> None:
    """Rule: [The Market of Memories]"""
    match, ids = table(NAMES, memories={"mine": ("p2", 2)}, framer="p2")
    to_roll(match, "p2", "opposition", ids["mine"])
    dice(match, "roll_conflict", [3, 4])
    passes(match)
    act(match, 'p1 narrate_outcome text="lost"')
    assert match.state.memories[ids["mine"]].place == "market" and match.state.value(ids["mine"]) == 2


def test_ld_r25_strain_takes_memory_coins_then_the_purse() -> None:
    match, ids = table(NAMES, purses={"p2": 1}, memories={"c": ("p2", 1), "d": ("p2", 1)}, framer="p2")
    act(match, 'p2 frame_conflict side_a=p2 side_b=opposition stakes="x" staked_memory=none')
    act(match, "p2 agree_stakes", "p1 agree_stakes", f'p2 narrate_memory memory={ids["c"]} narration="x"')
    act(match, "p1 approve_memory", f'p2 narrate_memory memory={ids["d"]} narration="x"', "p1 approve_memory")
    act(match, "p2 done_narrating")
    dice(match, "roll_conflict", [1, 1, 2, 3, 4])
    passes(match)
    act(match, 'p1 narrate_outcome text="x"', f"p2 pay_tribute_memory memory={ids['d']}", 'p1 narrate_tribute text="x"')
    refused(match, 'p2 take_strain source=purse narration="x"', "LD-R25")  # a memory's coin first
    act(match, f'p2 take_strain source={ids["c"]} narration="x"')
    refused(match, 'p2 take_strain source=bank narration="x"', "LD-R25")  # then the purse
    act(match, 'p2 take_strain source=purse narration="x"')
    st = match.state
    assert st.madness("p2") == 2 and st.purse("p2") == 0 and st.elves["p2"].mad


def test_ld_r25_with_no_coin_anywhere_strain_comes_from_the_bank() -> None:
    match, ids = table(NAMES, memories={"c": ("p2", 1)}, framer="p2")
    act(match, 'p2 frame_conflict side_a=p2 side_b=opposition stakes="x" staked_memory=none')
    act(match, "p2 agree_stakes", "p1 agree_stakes", f'p2 narrate_memory memory={ids["c"]} narration="x"')
    act(match, "p1 approve_memory", "p2 done_narrating")
    dice(match, "roll_conflict", [1, 2, 3, 4])
    passes(match)
    act(match, 'p1 narrate_outcome text="x"', f"p2 pay_tribute source={ids['c']}", 'p1 narrate_tribute text="x"')
    bank = match.state.bank_out
    act(match, 'p2 take_strain source=bank narration="x"')
    assert match.state.bank_out == bank + 1 and match.state.madness("p2") == 1 and match.state.elves["p2"].mad


def test_ld_r26_a_value_zero_memory_stays_owned_and_rolls_no_dice() -> None:
    match, ids = table(NAMES, memories={"z": ("p2", 0)}, framer="p2")
    act(match, 'p2 frame_conflict side_a=p2 side_b=p3 stakes="x" staked_memory=none', "p2 agree_stakes")
    act(match, "p3 agree_stakes", f'p2 narrate_memory memory={ids["z"]} narration="x"', "p3 approve_memory")
    act(match, "p3 done_narrating", "p2 done_narrating")
    assert match.state.phase == INFLUENCE and match.state.memories[ids["z"]].owner == "p2"


def test_ld_r33_one_conflict_a_scene_and_the_framer_is_a_side_of_his_personal_scene() -> None:
    """Rule: [Framing Conflicts]"""
    match, _ = table(NAMES, framer="p2")
    refused(match, 'p2 frame_conflict side_a=p3 side_b=p1 stakes="x" staked_memory=none', "LD-R33")
    to_roll(match, "p2", "opposition")
    dice(match, "roll_conflict", [2, 3, 4])
    passes(match)
    act(match, 'p1 narrate_outcome text="x"')
    assert match.state.phase == SCENE
    refused(match, 'p2 frame_conflict side_a=p2 side_b=opposition stakes="x" staked_memory=none', "LD-R33")


def test_ld_r33_the_king_pits_any_characters_in_his_story_scene() -> None:
    match, _ = table(NAMES, framer="p1", kind=STORY)
    to_roll(match, "p2", "p3")
    assert (match.state.conflict.side_a, match.state.conflict.side_b) == ("p2", "p3")


def test_ld_r37_stakes_need_both_sides_and_memories_the_opponents_approval() -> None:
    """Rule: [Setting up a Conflict]"""
    match, ids = table(NAMES, memories={"a": ("p2", 2), "b": ("p2", 1)}, framer="p2")
    refused(match, f'p2 frame_conflict side_a=p2 side_b=p3 stakes="{"x" * 2001}" staked_memory=none', "LD-R37")
    act(match, 'p2 frame_conflict side_a=p2 side_b=p3 stakes="x" staked_memory=none', "p2 agree_stakes")
    refused(match, "p2 agree_stakes")
    act(match, "p2 withdraw_conflict")
    assert match.state.phase == SCENE and not match.state.scene.conflict_held
    act(match, 'p2 frame_conflict side_a=p2 side_b=p3 stakes="x" staked_memory=none', "p3 agree_stakes")
    act(match, "p2 agree_stakes", f'p2 narrate_memory memory={ids["a"]} narration="x"')
    refused(match, "p2 approve_memory")  # the opponent approves
    act(match, "p3 veto_memory", "p3 done_narrating")
    refused(match, f'p2 narrate_memory memory={ids["a"]} narration="again"', "LD-R37")  # once per conflict
    act(match, f'p2 narrate_memory memory={ids["b"]} narration="x"', "p3 approve_memory", "p2 done_narrating")
    assert len(GAME.chance_step(match.state).sides) == 1


def test_ld_r41_the_market_is_not_for_sale() -> None:
    match, ids = table(NAMES, purses={"p2": 5}, memories={"m": ("market", 2)}, framer="p2")
    types = {a.type for a in GAME.legal_actions(match.state, "p2")}
    assert "buy_memory" not in types
    with pytest.raises(MalformedAction):
        match.apply(Action.parse(f"p2 buy_memory memory={ids['m']}"))
    refused(match, f"p2 sell_memory memory={ids['m']}", "LD-R27")
    act(match, "p2 propose_trade to=p3 give_coins=1 get_coins=0", "p2 offer_memory memory=none")
    refused(match, f"p2 ask_memory memory={ids['m']}", "LD-R36")


def test_ld_r5_left_is_the_next_seat_clockwise_everywhere() -> None:
    match, _ = table(["A", "B", "C", "D"], king="p3", framer="p4")
    assert [s for s, _ in match.state.cycle] == ["p4", "p1", "p2", "p3", ""]  # from the king's left round to him
    to_roll(match, "p4", "p1")
    assert match.pending().seats == ("p1",)  # stalemate (no dice): side b's controller, then clockwise
    act(match, "p1 end_influence_turn")
    assert match.pending().seats == ("p2",)
