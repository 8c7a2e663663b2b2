"""Rulings on play, the market, madness and the end: LD-R27 to LD-R39, and bad input refused."""

from __future__ import annotations

from typing import Any

import pytest

from ludica.core import Action, IllegalAction, MalformedAction, Match, NotYourDecision
from ludica.core.match import canonical_json
from ludica.games.lost_days import GAME
from ludica.games.lost_days.scenario import act, dice, table
from ludica.games.lost_days.state import (
    ADVERSITY,
    EPILOGUE,
    GAME_OVER,
    INTERRUPT,
    PERSONAL,
    REPLENISH,
    SCENE,
    SESSION,
    STORY,
    TRADE,
    WRITE_OUT,
)

FOUR = ["Ann", "Bob", "Cat", "Dan"]


def refused(match: Match[Any], notation: str, rule: str | None = None) -> IllegalAction:
    before = canonical_json(GAME.to_position(match.state))
    n = len(match.actions)
    with pytest.raises(IllegalAction) as info:
        match.apply(Action.parse(notation))
    if rule is not None:
        assert info.value.rule == rule, info.value
    assert canonical_json(GAME.to_position(match.state)) == before and len(match.actions) == n
    return info.value


def test_ld_r27_selling_nets_value_less_one_and_the_card_keeps_its_last_coin() -> None:
    """Rule: [Selling Memories]"""
    match, ids = table(FOUR, purses={"p2": 1}, memories={"v3": ("p2", 3), "v0": ("p3", 0)})
    act(match, f"p2 sell_memory memory={ids['v3']}", f"p3 sell_memory memory={ids['v0']}")
    st = match.state
    assert st.purse("p2") == 3 and st.memories[ids["v3"]].place == "market" and st.value(ids["v3"]) == 1
    assert st.purse("p3") == 0 and st.value(ids["v0"]) == 0
    assert st.bank_out == 1 + 3 + 1  # nothing entered or left the bank (the king's 1 on his memory)


def test_ld_r27_selling_the_memory_of_kingship_leaves_no_king_and_ld_r31_the_interregnum() -> None:
    match, ids = table(FOUR, memories={"m1": ("market", 1), "m2": ("market", 1)}, framer="p2")
    act(match, f"p1 sell_memory memory={ids['kingship']}")
    st = match.state
    assert st.king is None and st.memories[ids["kingship"]].place == "market"
    act(match, 'p2 frame_conflict side_a=p2 side_b=opposition stakes="x" staked_memory=none')
    assert st.conflict.controller_b == "p3"  # no king: the player to the left (LD-R15)
    act(match, "p2 withdraw_conflict", "p2 end_scene")
    for seat in ("p3", "p4"):
        act(match, f'{seat} frame_scene description="x"', f"{seat} end_scene")
    assert st.scene.framer == "p1" and st.scene.last_of_cycle  # the story slot will be skipped
    act(match, 'p1 frame_scene description="x"', "p1 end_session")
    assert match.pending().seats == ("p2",)  # the first seat of the cycle opens the session
    act(match, 'p2 start_session opening="a demon stalks the palace"')
    assert st.scene.framer == "p2" and st.scene.kind == PERSONAL


def test_ld_r28_the_threshold_is_strict_and_counts_memory_coins_only() -> None:
    match, ids = table(FOUR, purses={"p2": 9}, madness={"p2": 3}, memories={"a": ("p2", 2), "b": ("p2", 1)})
    assert not match.state.elves["p2"].mad  # 3 against 3
    act(match, f"p2 sell_memory memory={ids['b']}")  # 3 against 2, the purse does not count
    assert match.state.elves["p2"].mad and match.state.memories[ids["a"]].tainted


def test_ld_r29_the_mad_are_written_out_then_play_adversity() -> None:
    match, _ids = table(
        FOUR, purses={"p3": 2}, madness={"p3": 2}, memories={"x": ("p4", 1), "y": ("market", 1), "z": ("market", 1)}
    )
    st = match.state
    st.elves["p3"].mad, st.elves["p3"].pending_write_out = True, True
    assert "p3" not in match.pending().seats  # a mad elf neither sells nor trades
    refused(match, 'p2 frame_conflict side_a=p2 side_b=p3 stakes="x" staked_memory=none', "LD-R33")
    act(match, "p2 end_scene")
    assert st.scene.kind == WRITE_OUT and [a.type for a in GAME.legal_actions(st, "p3")] == ["write_out"]
    act(match, 'p3 write_out narration="locked in a spire, howling"')
    assert [a.type for a in GAME.legal_actions(st, "p3")] == ["end_scene", "create_memory"]  # no conflict (LD-R29)
    refused(match, 'p3 frame_conflict side_a=p2 side_b=opposition stakes="x" staked_memory=none', "LD-R33")
    act(match, "p3 end_scene")
    for seat in ("p4", "p1"):
        act(match, f'{seat} frame_scene description="x"', f"{seat} end_scene")
    assert st.scene.kind == STORY
    act(match, 'p1 frame_scene description="x"', "p1 end_scene", 'p2 frame_scene description="x"', "p2 end_scene")
    assert st.scene.kind == ADVERSITY and st.scene.framer == "p3"
    act(match, 'p3 frame_scene description="rebellion"', 'p3 create_memory text="I remember fire"')
    assert st.purse("p3") == 1
    refused(match, 'p3 frame_conflict side_a=p2 side_b=p4 stakes="x" staked_memory=none', "LD-R33")
    act(match, 'p3 frame_conflict side_a=p2 side_b=opposition stakes="x" staked_memory=none')
    assert st.conflict.controller_b == "p3"


def test_ld_r30_a_mad_elfs_memory_brings_a_madness_coin_to_whoever_gains_it() -> None:
    match, ids = table(FOUR, purses={"p3": 1}, memories={"t": ("p2", 2)})
    match.state.memories[ids["t"]].tainted = True
    act(match, "p2 propose_trade to=p3 give_coins=0 get_coins=1", f"p2 offer_memory memory={ids['t']}")
    act(match, "p2 offer_memory memory=none", "p2 ask_memory memory=none")
    assert match.state.phase == TRADE and match.pending().seats == ("p3",)
    act(match, "p3 accept_trade")
    st = match.state
    assert st.memories[ids["t"]].owner == "p3" and st.madness("p3") == 1 and st.purse("p2") == 1


def test_ld_r32_a_new_king_frames_a_scene_at_once() -> None:
    """Rule: [The King is Dead, Long Live the King!]"""
    match, ids = table(FOUR, purses={"p2": 3}, memories={"a": ("market", 0), "b": ("market", 0)}, framer="p2")
    act(match, "p2 propose_trade to=p1 give_coins=3 get_coins=0", "p2 offer_memory memory=none")
    act(match, f"p2 ask_memory memory={ids['kingship']}", "p2 ask_memory memory=none")
    act(match, "p1 accept_trade")
    st = match.state
    assert st.king == "p2" and st.scene.kind == INTERRUPT and st.scene.framer == "p2" and st.crown_changes == 1
    act(match, 'p2 restart_story text="the reign of Roen is over"')
    refused(match, 'p2 restart_story text="again"', "LD-R32")
    act(match, 'p2 frame_scene description="the coronation"', "p2 end_scene")
    assert st.scene.framer == "p3" and st.story == "the reign of Roen is over"


def test_ld_r34_a_new_memory_costs_a_coin_and_goes_to_the_market() -> None:
    """Rule: [Creating New Memories]"""
    match, _ = table(FOUR, purses={"p2": 1}, framer="p2")
    act(match, 'p2 create_memory text="I remember falling in love with my wife."')
    st = match.state
    new = list(st.memories.values())[-1]
    assert new.place == "market" and st.value(new.id) == 1 and st.purse("p2") == 0
    refused(match, 'p2 create_memory text="I remember more"', "LD-R34")
    refused(match, 'p3 create_memory text="I remember"', "scenes")


def test_tv_ld_12_a_created_or_replenished_memory_must_begin_i_remember() -> None:
    match, _ = table(FOUR, purses={"p2": 1}, framer="p2")
    refused(match, 'p2 create_memory text="A memory of debating politics at court."', "TV-LD-12")
    match, _ = table(FOUR, framer="p2")
    act(match, "p2 end_scene", 'p1 set_replenish_theme theme="childhood"')
    refused(match, 'p2 write_replenish_memory text="A toy"', "TV-LD-12")


def test_ld_r35_a_thin_market_is_replenished_by_every_player() -> None:
    """Rule: [Replenishing the Market of Memories]"""
    match, _ = table(FOUR, framer="p2")
    match.state.elves["p4"].mad = True
    act(match, "p2 end_scene")
    st = match.state
    assert st.phase == REPLENISH and match.pending().seats == ("p1",)  # the king records the theme
    act(match, 'p1 set_replenish_theme theme="childhood"')
    for seat in ("p4", "p2", "p1", "p3"):
        act(match, f'{seat} write_replenish_memory text="I remember a toy"')
    market = st.market()
    assert len(market) == 4 and all(st.value(m.id) == 0 for m in market) and st.phase == SCENE


def test_ld_r36_an_empty_deal_is_never_offered() -> None:
    match, _ = table(FOUR, king=None)
    assert not any(a.type == "propose_trade" for a in GAME.legal_actions(match.state, "p2"))  # nothing anywhere
    refused(match, "p2 propose_trade to=p3 give_coins=0 get_coins=0", "LD-R36")
    match, ids = table(FOUR, king=None, memories={"x": ("p3", 1)})
    act(match, "p2 propose_trade to=p3 give_coins=0 get_coins=0")
    assert [a.args["memory"] for a in GAME.legal_actions(match.state, "p2")] == ["none"]
    act(match, "p2 offer_memory memory=none")
    assert [a.args["memory"] for a in GAME.legal_actions(match.state, "p2")] == [ids["x"]]


def test_ld_r36_trades_are_atomic_and_may_be_declined() -> None:
    """Rule: [Trading Memories]"""
    match, ids = table(FOUR, purses={"p2": 2, "p3": 1}, memories={"a": ("p2", 1), "b": ("p3", 2)})
    refused(match, "p2 propose_trade to=p3 give_coins=3 get_coins=0", "LD-R36")
    refused(match, "p2 propose_trade to=p2 give_coins=1 get_coins=0", "LD-R36")
    before = canonical_json(GAME.to_position(match.state)["coins"])
    act(match, "p2 propose_trade to=p3 give_coins=2 get_coins=1")
    refused(match, f"p2 offer_memory memory={ids['b']}", "LD-R36")  # not his to offer
    refused(match, "p3 accept_trade")  # the deal is not complete
    act(match, f"p2 offer_memory memory={ids['a']}", "p2 offer_memory memory=none")
    act(match, f"p2 ask_memory memory={ids['b']}", "p2 ask_memory memory=none")
    refused(match, "p2 accept_trade")
    act(match, "p3 decline_trade")
    assert canonical_json(GAME.to_position(match.state)["coins"]) == before
    act(match, "p2 propose_trade to=p3 give_coins=2 get_coins=1")
    act(match, f"p2 offer_memory memory={ids['a']}", "p2 offer_memory memory=none")
    act(match, f"p2 ask_memory memory={ids['b']}", "p2 ask_memory memory=none", "p3 accept_trade")
    st = match.state
    assert (st.purse("p2"), st.purse("p3")) == (1, 2)
    assert st.memories[ids["a"]].owner == "p3" and st.memories[ids["b"]].owner == "p2"


def test_ld_r36_a_deal_may_carry_several_memories_each_way() -> None:
    match, ids = table(FOUR, king=None, memories={"a1": ("p2", 1), "a2": ("p2", 2), "b1": ("p3", 1), "b2": ("p3", 0)})
    act(match, "p2 propose_trade to=p3 give_coins=0 get_coins=0")
    act(match, f"p2 offer_memory memory={ids['a1']}", f"p2 offer_memory memory={ids['a2']}")
    assert [a.args["memory"] for a in GAME.legal_actions(match.state, "p2")] == ["none"]  # all offered already
    refused(match, f"p2 offer_memory memory={ids['a1']}", "LD-R36")  # each memory once
    act(match, "p2 offer_memory memory=none", f"p2 ask_memory memory={ids['b1']}", f"p2 ask_memory memory={ids['b2']}")
    act(match, "p2 ask_memory memory=none", "p3 accept_trade")
    st = match.state
    assert {m.id for m in st.owned("p3")} == {ids["a1"], ids["a2"]}
    assert {m.id for m in st.owned("p2")} == {ids["b1"], ids["b2"]}


def test_ld_r38_the_last_elf_standing_may_narrate_the_epilogue() -> None:
    """Rule: [Ending the Game]"""
    match, ids = table(["Hugo", "Cate", "Martin"], madness={"p2": 1}, memories={"a": ("p2", 1)})
    match.state.elves["p3"].mad = True
    act(match, f"p2 sell_memory memory={ids['a']}")
    st = match.state
    assert st.phase == EPILOGUE and match.pending().seats == ("p1",)
    act(match, 'p1 narrate_epilogue text="the elves are scattered and fallen"')
    assert st.phase == GAME_OVER and GAME.outcome(st).winners == ("p1",)


def test_ld_r38_simultaneous_descents_leave_no_survivor() -> None:
    match, ids = table(
        ["A", "B", "C"], king=None, madness={"p2": 1, "p3": 1}, memories={"x": ("p2", 1), "y": ("p3", 1)}
    )
    match.state.elves["p1"].mad = True
    act(match, 'p2 frame_conflict side_a=p2 side_b=p3 stakes="x" staked_memory=none', "p2 agree_stakes")
    act(match, "p3 agree_stakes", f'p2 narrate_memory memory={ids["x"]} narration="x"', "p3 approve_memory")
    act(match, f'p3 narrate_memory memory={ids["y"]} narration="y"', "p2 approve_memory")
    act(match, "p2 done_narrating", "p3 done_narrating")
    dice(match, "roll_conflict", [1, 1])
    for seat in ("p3", "p1", "p2"):
        act(match, f"{seat} end_influence_turn")
    act(match, 'p2 narrate_outcome text="stalemate"')
    act(match, f'p2 take_strain source={ids["x"]} narration="x"', f'p3 take_strain source={ids["y"]} narration="y"')
    st = match.state
    assert st.phase == GAME_OVER and st.survivor is None and GAME.outcome(st).winners == ()


def test_ld_r39_a_session_ends_after_the_story_scene_and_the_king_opens_the_next() -> None:
    """Rule: [Telling the Story]; [Framing Scenes]"""
    match, _ = table(FOUR, framer="p2", memories={"a": ("market", 0), "b": ("market", 0)})
    refused(match, "p2 end_session", "LD-R39")
    for seat in ("p2", "p3", "p4", "p1"):
        act(match, f"{seat} end_scene")
        if match.state.scene and not match.state.scene.framed:
            act(match, f'{match.state.scene.framer} frame_scene description="x"')
    assert match.state.scene.kind == STORY
    act(match, "p1 end_session")
    assert match.state.phase == SESSION and match.pending().seats == ("p1",)
    refused(match, 'p2 start_session opening="x"')
    act(match, 'p1 start_session opening="an embassy arrives"')
    assert match.state.session == 2 and match.state.scene.framer == "p2"


def test_bad_input_is_refused_with_a_clear_message_and_no_change() -> None:
    match, _ = table(FOUR, purses={"p2": 2}, framer="p2")
    with pytest.raises(MalformedAction):
        match.apply(Action.parse("p2 dance"))
    with pytest.raises(MalformedAction):
        match.apply(Action.parse("p2 create_memory"))
    with pytest.raises(MalformedAction):
        match.apply(Action.parse('p2 create_memory text="I remember" colour=red'))
    with pytest.raises(MalformedAction):
        match.apply(Action("p2", "create_memory", {"text": 5}))
    refused(match, 'p2 create_memory text="   "', "narration")
    with pytest.raises(NotYourDecision):
        match.apply(Action.parse("p9 end_scene"))
    refused(match, 'p3 frame_scene description="x"')
    refused(match, "chance roll_conflict dice=[1]")
    err = refused(match, 'p2 frame_scene description="again"', "scenes")
    assert "already been framed" in err.reason and err.section == "Framing Scenes"
