"""The rulebook's worked examples of conflicts, exactly (spec §10, TV-LD-03 to TV-LD-13)."""

from __future__ import annotations

from typing import Any

from ludica.core import Match
from ludica.games.lost_days.scenario import act, dice, table
from ludica.games.lost_days.state import INFLUENCE, SCENE


def debate() -> tuple[Match[Any], dict[str, str]]:
    """TV-LD-03: Hugo (King Roen) and Cate (Illuen) debate the rebellion; Martin looks on."""
    match, ids = table(
        ["Hugo", "Cate", "Martin"],
        king="p1",
        purses={"p1": 3, "p2": 3, "p3": 3},
        memories={"debating_law": ("p1", 4), "forked_tongue": ("p2", 1), "arguing_court": ("p2", 3)},
        framer="p2",
    )
    act(
        match,
        'p2 frame_conflict side_a=p2 side_b=p1 stakes="winner dictates the Court\'s response" staked_memory=none',
        "p2 agree_stakes",
        "p1 agree_stakes",
        f'p2 narrate_memory memory={ids["forked_tongue"]} narration="the Battle of the Forked Tongue"',
        "p1 approve_memory",
        f'p1 narrate_memory memory={ids["debating_law"]} narration="debating law with the philosophers"',
        "p2 approve_memory",
        f'p2 narrate_memory memory={ids["arguing_court"]} narration="arguing in front of the Court"',
        "p1 approve_memory",
        "p1 done_narrating",
        "p2 done_narrating",
    )
    return match, ids


def test_tv_ld_03_the_debate_and_its_roll() -> None:
    match, _ = debate()
    step = match.game.chance_step(match.state)
    assert step.type == "roll_conflict" and len(step.sides) == 8  # 4 dice each
    dice(match, "roll_conflict", [3, 4, 5, 5, 2, 3, 4, 4])
    c = match.state.conflict
    assert match.view(None)["conflict"]["leading"] == {"side": "a", "margin": 2}
    assert match.state.phase == INFLUENCE and c.influence_turn == "p1"  # the loser starts


def influence_sequence(match: Match[Any]) -> list[dict[str, Any]]:
    """TV-LD-04 lap 1: Hugo rerolls his 2, Cate forces his 6 again, Martin forces one of her 5s."""
    leads = []
    act(match, 'p1 influence pay_with=purse effect=reroll side=b die=0 narration="status browbeats the courtiers"')
    dice(match, "reroll_die", [6])
    leads.append(match.view(None)["conflict"]["leading"])
    act(match, "p1 end_influence_turn")
    act(match, 'p2 influence pay_with=purse effect=reroll side=b die=0 narration="bribery about the court"')
    dice(match, "reroll_die", [1])
    leads.append(match.view(None)["conflict"]["leading"])
    act(match, "p2 end_influence_turn")
    act(match, 'p3 influence pay_with=purse effect=reroll side=a die=2 narration="calling in favours"')
    dice(match, "reroll_die", [6])
    leads.append(match.view(None)["conflict"]["leading"])
    act(match, "p3 end_influence_turn")
    return leads


def test_tv_ld_04_the_influence_sequence_and_resolution() -> None:
    """TV-LD-04, with the gain example TV-LD-06 (Cate's 6) and the strain example TV-LD-07 (Hugo's 1)."""
    match, ids = debate()
    dice(match, "roll_conflict", [3, 4, 5, 5, 2, 3, 4, 4])
    bank_before = match.state.bank_out
    leads = influence_sequence(match)
    assert leads == [{"side": "b", "margin": 1}, {"side": "a", "margin": 2}, {"side": "a", "margin": 2}]
    act(match, "p1 end_influence_turn", "p2 end_influence_turn", "p3 end_influence_turn")
    st = match.state
    assert st.conflict.winner == "a" and st.conflict.margin == 2
    assert st.conflict.dice == {"a": [3, 4, 6, 5], "b": [1, 3, 4, 4]}
    assert [st.purse(s) for s in ("p1", "p2", "p3")] == [2, 2, 2]
    assert bank_before - st.bank_out == 3  # nothing at stake: the coins are lost
    act(match, 'p2 narrate_outcome text="the Court goes to war"')
    act(match, "p1 pay_tribute source=purse", "p1 pay_tribute source=purse")  # Hugo pays as a character
    act(match, "p2 place_tribute dest=purse", "p2 place_tribute dest=purse")
    act(match, 'p2 narrate_tribute text="the King\'s allies desert him"')
    act(match, 'p2 take_gain dest=purse narration="newfound allies come forward"')  # her 6
    act(match, f'p1 take_strain source={ids["debating_law"]} narration="the strain shows"')  # his 1
    assert st.purse("p2") == 2 + 2 + 1 and st.purse("p1") == 0
    assert st.value(ids["debating_law"]) == 3 and st.madness("p1") == 1
    assert st.phase == SCENE and st.conflict is None


def test_tv_ld_05_the_madness_coin_and_the_tribute_that_follows() -> None:
    """LD-R40: the [Madness] and [Tribute] examples continue the [Influencing] conflict (a second lap)."""
    match, ids = debate()
    st = match.state
    st.coins.counts["mad:p2"] = 1  # Cate has a madness coin
    st.coins.counts["p1"] = 2  # Hugo's purse is nearly empty
    st.bank_out = st.coins.total()
    dice(match, "roll_conflict", [3, 4, 5, 5, 2, 3, 4, 4])
    influence_sequence(match)
    act(match, 'p1 influence pay_with=opponent_madness effect=reroll side=a die=2 narration="bloodlust in her eyes"')
    dice(match, "reroll_die", [4])
    assert st.madness("p2") == 0  # lost, not placed on a memory
    act(match, "p1 end_influence_turn", "p2 end_influence_turn", "p3 end_influence_turn", "p1 end_influence_turn")
    assert (st.conflict.winner, st.conflict.margin) == ("a", 1)
    cate_purse = st.purse("p2")
    act(match, 'p2 narrate_outcome text="war"')
    act(match, f"p1 pay_tribute source={ids['debating_law']}")
    act(match, "p2 place_tribute dest=purse")
    act(match, 'p2 narrate_tribute text="the King\'s reputation has suffered a bruising"')
    assert st.conflict.gain_left["a"] == 0  # no 6 remains
    act(match, f'p1 take_strain source={ids["debating_law"]} narration="his 1 remains"')
    assert st.value(ids["debating_law"]) == 2 and st.madness("p1") == 1
    assert st.purse("p2") == cate_purse + 1 and st.purse("p1") == 1


def test_tv_ld_08_tribute_paid_with_a_memory() -> None:
    match, ids = table(
        ["Cate", "Hugo", "Martin"],
        king="p2",
        purses={"p1": 5},
        memories={"small": ("p1", 2), "other": ("p1", 3), "blade": ("p3", 4)},
        framer="p3",
    )
    act(match, 'p3 frame_conflict side_a=p3 side_b=p1 stakes="a duel" staked_memory=none', "p3 agree_stakes")
    act(match, "p1 agree_stakes", f'p3 narrate_memory memory={ids["blade"]} narration="my blade"', "p1 approve_memory")
    act(match, "p1 done_narrating", "p3 done_narrating")
    dice(match, "roll_conflict", [2, 3, 4, 5])  # Cate narrated nothing: 0 dice
    act(match, "p1 end_influence_turn", "p2 end_influence_turn", "p3 end_influence_turn")
    assert (match.state.conflict.winner, match.state.conflict.margin) == ("a", 4)  # Cate loses badly by 4
    act(match, 'p3 narrate_outcome text="Martin wins"', f"p1 pay_tribute_memory memory={ids['small']}")
    st = match.state
    assert st.memories[ids["small"]].owner == "p3" and st.value(ids["small"]) == 2
    assert st.purse("p1") == 5 and [m.id for m in st.owned("p1")] == [ids["other"]]
    act(match, 'p3 narrate_tribute text="a memory in lieu"')
    assert st.phase == SCENE


def expedition(a: list[int], b: list[int], *, purse: int = 4) -> tuple[Match[Any], dict[str, str]]:
    """TV-LD-09: Illuen's expedition for the lost memory; King Roen plays the opposition."""
    match, ids = table(
        ["Hugo", "Cate", "Martin"],
        king="p1",
        purses={"p1": 3, "p2": purse},
        memories={"lost_memory": ("market", 4), "e1": ("p2", 3), "spare": ("market", 0)},
        framer="p2",
    )
    act(match, 'p2 frame_conflict side_a=p2 side_b=opposition stakes="reach the lost memory" staked_memory=m1')
    act(match, "p2 agree_stakes", "p1 agree_stakes", 'p2 narrate_memory memory=m2 narration="my travels"')
    act(match, "p1 approve_memory", "p2 done_narrating")
    assert len(match.game.chance_step(match.state).sides) == 3 + 4  # the opposition rolls the value, 4
    dice(match, "roll_conflict", a + b)
    everyone_passes(match)
    return match, ids


def everyone_passes(match: Match[Any]) -> None:
    """The influence round with no spend: every seat passes once, from the loser clockwise."""
    for _ in match.state.seats:
        act(match, f"{match.pending().seats[0]} end_influence_turn")


def test_tv_ld_09a_losing_to_the_opposition_pays_the_king() -> None:
    """Rule: [Playing the Opposition]"""
    match, ids = expedition([4, 3, 2], [5, 5, 3, 2])
    st = match.state
    assert (st.conflict.winner, st.conflict.margin) == ("b", 2)
    act(
        match, 'p1 narrate_outcome text="the jungle wins"', "p2 pay_tribute source=purse", "p2 pay_tribute source=purse"
    )
    assert st.memories[ids["lost_memory"]].place == "market" and st.value(ids["lost_memory"]) == 4
    assert st.purse("p1") == 5 and st.purse("p2") == 2
    act(match, 'p1 narrate_tribute text="into the coffers of King Roen"')
    assert st.phase == SCENE


def test_tv_ld_09b_winning_against_the_opposition_costs_the_king_nothing() -> None:
    match, ids = expedition([5, 4, 2], [4, 3, 3, 1])
    st = match.state
    assert (st.conflict.winner, st.conflict.margin) == ("a", 1)
    act(match, 'p2 narrate_outcome text="Illuen snatches the memory"')
    assert st.memories[ids["lost_memory"]].owner == "p2"
    assert st.purse("p1") == 3 and st.madness("p1") == 0  # no tribute, no strain for the opposition
    assert st.phase == SCENE


def test_tv_ld_09c_the_king_in_person_pays_tribute() -> None:
    match, ids = table(
        ["Hugo", "Cate", "Martin"],
        king="p1",
        purses={"p1": 5},
        memories={"prize": ("market", 2), "c4": ("p2", 4), "h2": ("p1", 2)},
        framer="p2",
    )
    act(match, f'p2 frame_conflict side_a=p2 side_b=p1 stakes="the same memory" staked_memory={ids["prize"]}')
    act(match, "p2 agree_stakes", "p1 agree_stakes", f'p2 narrate_memory memory={ids["c4"]} narration="x"')
    act(match, "p1 approve_memory", f'p1 narrate_memory memory={ids["h2"]} narration="y"', "p2 approve_memory")
    act(match, "p2 done_narrating", "p1 done_narrating")
    dice(match, "roll_conflict", [5, 5, 5, 2, 4, 3])
    act(match, "p1 end_influence_turn", "p2 end_influence_turn", "p3 end_influence_turn")
    assert (match.state.conflict.winner, match.state.conflict.margin) == ("a", 3)
    act(match, 'p2 narrate_outcome text="Illuen wins"')
    assert match.state.phase == "TRIBUTE" and match.state.conflict.owed == 3
    act(match, *["p1 pay_tribute source=purse"] * 3, *["p2 place_tribute dest=purse"] * 3)
    assert match.state.purse("p1") == 2 and match.state.purse("p2") == 3


def test_tv_ld_10_staking_roens_memory() -> None:
    """Rule: [Staking Memories]; [Stealing Memories]"""
    match, ids = table(
        ["Hugo", "Cate", "Martin"],
        king="p1",
        purses={"p1": 2, "p2": 2, "p3": 2},
        memories={"roen_m": ("p1", 2), "c1": ("p2", 1)},
        framer="p2",
    )
    act(match, f'p2 frame_conflict side_a=p2 side_b=p1 stakes="steal it" staked_memory={ids["roen_m"]}')
    act(match, "p2 agree_stakes", "p1 agree_stakes", f'p2 narrate_memory memory={ids["c1"]} narration="x"')
    act(match, "p1 approve_memory", 'p1 bring_staked_memory narration="it jars"', "p2 done_narrating")
    act(match, "p1 done_narrating")
    assert len(match.game.chance_step(match.state).sides) == 1 + 2  # 2 dice for the staked memory
    dice(match, "roll_conflict", [3, 4, 2])
    act(match, 'p2 influence pay_with=purse effect=reroll side=a die=0 narration="x"')
    dice(match, "reroll_die", [2])
    act(match, "p2 end_influence_turn", 'p3 influence pay_with=purse effect=reroll side=b die=1 narration="y"')
    dice(match, "reroll_die", [3])
    act(match, "p3 end_influence_turn", 'p1 influence pay_with=purse effect=extra_die side=b narration="z"')
    dice(match, "extra_die", [5])
    act(match, "p1 end_influence_turn")
    everyone_passes(match)
    assert match.state.value(ids["roen_m"]) == 5  # three coins spent, placed on the memory at stake
    assert match.state.conflict.winner == "b"
    act(match, 'p1 narrate_outcome text="Roen keeps it"')
    assert match.state.memories[ids["roen_m"]].owner == "p1" and match.state.value(ids["roen_m"]) == 5


def test_tv_ld_11_descent_into_madness() -> None:
    """Rule: [Descent into Madness]"""
    match, ids = table(
        ["Hugo", "Cate", "Martin"],
        king="p1",
        purses={"p2": 2},
        madness={"p2": 5},
        memories={"i1": ("p2", 2), "i2": ("p2", 3)},
        framer="p2",
    )
    st = match.state
    assert not st.elves["p2"].mad  # 5 madness against 5 on memories: still sane
    act(match, 'p2 frame_conflict side_a=p2 side_b=opposition stakes="a game of chess" staked_memory=none')
    act(match, "p2 agree_stakes", "p1 agree_stakes", f'p2 narrate_memory memory={ids["i1"]} narration="x"')
    act(match, "p1 approve_memory", "p2 done_narrating")
    dice(match, "roll_conflict", [6, 1, 5, 4, 2])
    everyone_passes(match)
    act(match, 'p2 narrate_outcome text="she wins the game"', "p2 decline_gain")
    act(match, f'p2 take_strain source={ids["i2"]} narration="her mind snaps"')
    elf = st.elves["p2"]
    assert elf.mad and elf.pending_write_out and st.purse("p2") == 2 and st.madness("p2") == 6
    assert st.owned("p2") == []
    assert [(st.memories[ids[k]].place, st.value(ids[k]), st.memories[ids[k]].tainted) for k in ("i1", "i2")] == [
        ("market", 2, True),
        ("market", 2, True),
    ]


def test_tv_ld_13_opposition_dice_with_no_stake() -> None:
    match, _ = table(["Hugo", "Cate", "Martin"], king="p1", framer="p2")
    act(match, 'p2 frame_conflict side_a=p2 side_b=opposition stakes="an ambush" staked_memory=none')
    act(match, "p2 agree_stakes", "p1 agree_stakes", "p2 done_narrating")
    assert len(match.game.chance_step(match.state).sides) == 3
