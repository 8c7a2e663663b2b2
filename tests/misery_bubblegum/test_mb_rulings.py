"""Every ruling of the spec (MB-R1..MB-R51), one test or more each, named by its id."""

from __future__ import annotations

import pytest

from ludica.core import Config, ConfigError, Match
from ludica.games.misery_bubblegum import GAME
from ludica.games.misery_bubblegum.arithmetic import (
    is_minimal_wipe_subset,
    lowered_trait_value,
    raised_threat_value,
    reclaim_split,
    wipe_threshold,
)


def test_mb_r3_starting_dice(table) -> None:
    t = table()
    c = t.sheet("p1")
    assert c.pool == {"passion": 5, "confidence": 5, "insight": 5} and (c.spare, c.misery) == (5, 0)
    t = table(starting_pools=[6, 4, 2], dice_per_player=24)
    assert t.sheet("p2").pool == {"passion": 6, "confidence": 4, "insight": 2} and t.sheet("p2").spare == 12


def test_mb_r3_bad_configs_refused() -> None:
    for options in ({"dice_per_player": 19}, {"starting_pools": [10, 10, 10]}, {"starting_pools": [1, 2]}):
        with pytest.raises(ConfigError):
            Match(GAME, Config(("A", "B"), options, 1))


def test_mb_r4_ratings_in_range_and_fixed(table) -> None:
    """Rule: [Character Attributes]"""
    t = table(ratings=[])
    t.refused("p1 set_ratings passion=7 confidence=3 insight=3", "MB-R4")
    t.refused("p1 set_ratings passion=0 confidence=3 insight=3", "MB-R4")
    t.act("p1 set_ratings passion=6 confidence=1 insight=2")
    assert t.pending() == ("p2",)
    t.refused("p1 set_ratings passion=5 confidence=1 insight=2")


def test_mb_r5_nothing_at_the_start(table) -> None:
    t = table()
    assert not t.state.traits and not t.state.resources and not t.state.provisionals


def test_mb_r6_any_player_calls_or_round_robin(table) -> None:
    t = table(("A", "B", "C"))
    assert t.pending() == ("p1", "p2", "p3")
    t = table(("A", "B", "C"), calling_order="round_robin")
    assert t.pending() == ("p1",)
    t.act("p1 pass_turn")
    assert t.pending() == ("p2",)
    t.unopposed("p2", "passion", 6, 1, 1)
    t.act("p2 choose_arrow orientation=self")
    t.act("p2 end_meaning")
    t.act("p2 reclaim")
    assert t.pending() == ("p3",)


def test_mb_r7_opposition_before_the_roll_several_opponents(table) -> None:
    t = table(("A", "B", "C"))
    t.act("p2 call_action pool=passion challenge=3 dice=2 intent=act")
    assert t.pending() == ("p3",)  # clockwise from the caller's left, then p1, then the GM
    t.act("p3 oppose pool=insight challenge=2 dice=1")
    t.act("p1 oppose pool=confidence challenge=5 dice=3")
    assert t.pending() == ("gm",)
    t.act("gm gm_oppose challenge=4 dice=2 pool_label=passion")
    assert t.pending() == ("chance",)
    assert [p.seat for p in t.state.attempt.participants] == ["p2", "p3", "p1", "gm"]
    assert GAME.chance_step(t.state).sides == (6,) * 8


def _opposed(table, caller_faces, opp_faces, c1=4, c2=4):
    t = table(("A", "B", "C"))
    t.act(f"p1 call_action pool=passion challenge={c1} dice={len(caller_faces)} intent=act")
    t.act(f"p2 oppose pool=passion challenge={c2} dice={len(opp_faces)}")
    t.act("p3 pass_opposition")
    t.act("gm pass_opposition")
    t.roll(*caller_faces, *opp_faces)
    t.act("p1 pass_reroll")
    t.act("p2 pass_reroll")
    return t


def test_mb_r8_tie_on_successes_broken_by_success_sum(table) -> None:
    t = _opposed(table, [4, 4, 1], [6, 5, 1])
    assert t.state.attempt.success_decider == "p2"
    assert (t.part("p1").ss, t.part("p2").ss) == (8, 11)


def test_mb_r9_the_caller_breaks_ties(table) -> None:
    t = _opposed(table, [5, 5, 2], [6, 4, 2])
    attempt = t.state.attempt
    assert attempt.success_decider == "p1" and attempt.meaning_decider == "p1"
    # two opponents tied at the top, the caller not among them: still the caller decides
    t = table(("A", "B", "C"))
    t.act("p1 call_action pool=passion challenge=6 dice=1 intent=act")
    t.act("p2 oppose pool=passion challenge=2 dice=1")
    t.act("p3 oppose pool=passion challenge=2 dice=1")
    t.act("gm pass_opposition")
    t.roll(1, 5, 5)
    for seat in ("p1", "p2", "p3"):
        t.act(f"{seat} pass_reroll")
    assert t.state.attempt.success_decider == "p1"


def test_mb_r10_unopposed_success_needs_one_die_at_the_challenge(table) -> None:
    t = table()
    t.unopposed("p1", "passion", 5, 2, 4, 4)
    assert t.state.attempt.succeeded is False and t.state.attempt.meaning_decider == "p1"
    t = table()
    t.unopposed("p1", "passion", 5, 2, 4, 5)
    assert t.state.attempt.succeeded is True
    assert t.pending() == ("p1",) and t.match.pending().phase == "MEANING"


def test_mb_r11_the_success_decider_chooses_freely(table) -> None:
    t = _opposed(table, [1], [6])
    t.act("p2 decide_success succeeds=true")
    assert t.state.attempt.succeeded is True


def test_mb_r12_reroll_scope(table) -> None:
    t = table()
    t.give_trait("t9", "p1", "p2", 6)
    t.act("p1 call_action pool=passion challenge=4 dice=1 intent=act")
    t.act("p2 oppose pool=passion challenge=4 dice=1")
    t.act("gm pass_opposition")
    t.roll(2, 6)
    t.act("p1 select_die die=p2.0")
    t.act("p1 use_trait trait=t9 fee_pool=passion fee_mode=to_misery")
    t.roll(1)
    assert t.part("p2").dice.dice[0].face == 1
    t = table(trait_reroll_scope="own")
    t.give_trait("t9", "p1", "p2", 6)
    t.act("p1 call_action pool=passion challenge=4 dice=1 intent=act")
    t.act("p2 oppose pool=passion challenge=4 dice=1")
    t.act("gm pass_opposition")
    t.roll(2, 6)
    t.refused("p1 select_die die=p2.0", "MB-R12")


def test_mb_r13_each_trait_once_and_rounds_until_all_pass(table) -> None:
    t = table()
    t.give_trait("t9", "p1", "p2", 6)
    t.give_trait("t8", "p2", "p1", 6)
    t.act("p1 call_action pool=passion challenge=4 dice=2 intent=act")
    t.act("p2 oppose pool=passion challenge=4 dice=1")
    t.act("gm pass_opposition")
    t.roll(1, 2, 3)
    t.select("p1", 0)
    t.act("p1 use_trait trait=t9 fee_pool=passion fee_mode=to_misery")
    t.roll(6)
    assert t.pending() == ("p2",)
    t.act("p2 pass_reroll")
    assert t.pending() == ("p1",)
    t.refused("p1 use_trait trait=t9 fee_pool=passion fee_mode=to_misery")
    t.act("p1 pass_reroll")
    assert t.match.pending().phase == "SUCCESS"  # both passed in a row


def test_mb_r14_fee_die_from_a_pool_to_the_creator(table) -> None:
    t = table()
    t.give_trait("t9", "p1", "p2", 3)
    t.act("p1 call_action pool=passion challenge=4 dice=5 intent=act")
    t.act("p2 pass_opposition")
    t.act("gm pass_opposition")
    t.roll(1, 1, 1, 1, 1)
    t.select("p1", 0)
    t.refused("p1 use_trait trait=t9 fee_pool=passion fee_mode=to_misery", "MB-R14")  # all rolled
    t.act("p1 use_trait trait=t9 fee_pool=insight fee_mode=give_creator")
    assert t.sheet("p2").influence["p1"] == 1 and t.sheet("p1").pool["insight"] == 4
    assert not t.invariants()


def test_mb_r15_growth(table) -> None:
    """Rule: [Getting Better]"""
    t = table()
    t.give_trait("t9", "p1", "p2", 2)
    t.give_trait("t7", "p1", "p2", 2)
    t.act("p1 call_action pool=passion challenge=3 dice=4 intent=act")
    t.act("p2 pass_opposition")
    t.act("gm pass_opposition")
    t.roll(1, 3, 2, 2)
    t.select("p1", 0)
    t.act("p1 use_trait trait=t9 fee_pool=insight fee_mode=to_misery")
    t.roll(4)  # dice now 4, 3, 2, 2: success dice 4 and 3
    t.act("p1 pass_reroll")
    t.act("p1 choose_arrow orientation=self")
    t.act("p1 end_meaning")
    assert t.match.pending().phase == "GROWTH"
    t.refused("p1 select_die die=p1.2", "MB-R15")  # a non-success die
    t.select("p1", 1)
    t.refused("p1 increase_trait trait=t7", "MB-R15")  # t7 was not used
    t.act("p1 increase_trait trait=t9")
    assert t.state.traits["t9"].value == 3
    t.select("p1", 0)  # the 4 alone reaches the new value 3
    t.act("p1 increase_trait trait=t9")
    assert t.state.traits["t9"].value == 4
    assert t.match.pending().phase == "RECLAIM"  # nothing left to grow: passed on
    assert len(t.part("p1").dice) == 4  # growth does not consume dice


def test_mb_r15_growth_on_another_players_trait(table) -> None:
    t = table()
    t.give_trait("t9", "p1", "p2", 1)
    t.act("p1 call_action pool=passion challenge=3 dice=1 intent=act")
    t.act("p2 oppose pool=passion challenge=3 dice=1")
    t.act("gm pass_opposition")
    t.roll(1, 5)
    t.select("p1", 0)
    t.act("p1 use_trait trait=t9 fee_pool=insight fee_mode=to_misery")
    t.roll(1)
    t.act("p2 pass_reroll")
    t.act("p1 pass_reroll")
    t.act("p2 decide_success succeeds=false")
    t.act("p1 choose_arrow orientation=self")
    t.act("p1 end_meaning")
    assert t.pending() == ("p2",)  # p1 has no success dice: passed over
    t.select("p2", 0)
    t.act("p2 increase_trait trait=t9")
    assert t.state.traits["t9"].value == 2


def test_mb_r16_wipe_threshold_and_greater_or_equal() -> None:
    assert wipe_threshold(2) == 3 and wipe_threshold(5) == 15
    assert lowered_trait_value(2, [1, 2]) == 0  # '>' would leave 1
    assert lowered_trait_value(5, [4, 3, 3, 3]) == 2
    assert is_minimal_wipe_subset(2, [1, 2]) and not is_minimal_wipe_subset(2, [1, 2, 4])


def test_mb_r17_misery_on_others_only_through_influence(table) -> None:
    t = table()
    t.give_trait("t9", "p2", "p1", 3)
    t.move("p1", misery=2)
    t.unopposed("p1", "passion", 6, 2, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0)
    t.refused("p1 spend_misery target=t9", "MB-R17")
    t.sheet("p2").spare -= 1
    t.sheet("p1").influence["p2"] = 1
    t.act("p1 spend_misery target=t9")
    t.roll(3)
    assert t.state.traits["t9"].value == 2


def test_mb_r18_no_misery_on_desires_or_promises(table) -> None:
    t = table()
    t.give_resource("d1", "desire", "p1", 1)
    t.move("p1", misery=2)
    t.unopposed("p1", "passion", 6, 1, 1)
    t.act("p1 choose_arrow orientation=self")  # passion/self: Desires on self
    t.select("p1", 0)
    t.refused("p1 spend_misery target=d1", "MB-R18")


def test_mb_r19_one_misery_die_per_non_success_die(table) -> None:
    t = table()
    t.give_trait("t9", "p1", "p2", 3)
    t.move("p1", misery=1)
    t.unopposed("p1", "passion", 6, 2, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0, 1)
    t.refused("p1 spend_misery target=t9", "MB-R19")  # two dice chosen, one Misery die


def test_mb_r20_arrow_restricts_every_resource_outcome(table) -> None:
    t = table()
    t.give_resource("th", "threat", "p2", 1)
    t.give_resource("de", "desire", "p2", 1)
    t.unopposed("p1", "insight", 6, 2, 1, 1)
    t.act("p1 choose_arrow orientation=others")  # insight/others: Desires on others
    t.select("p1", 0)
    t.refused("p1 activate_resource resource=th", "MB-R20")
    t.act("p1 activate_resource resource=de")
    assert t.state.resources["de"].active


def test_mb_r21_one_resource_at_value_one_inactive(table) -> None:
    t = table()
    t.unopposed("p1", "passion", 6, 1, 1)
    t.act("p1 choose_arrow orientation=others")
    t.act('p1 create_resource owner=p2 text="will be there at seven"')
    res = t.state.resources[t.state.attempt.created]
    assert (res.kind, res.owner, res.value, res.active) == ("promise", "p2", 1, False)
    t.refused("p1 create_resource owner=p2 text=again", "MB-R21")


def test_mb_r22_the_arrow_comes_first(table) -> None:
    t = table()
    t.unopposed("p1", "passion", 6, 1, 1)
    assert t.legal("p1") == ["p1 choose_arrow orientation=others", "p1 choose_arrow orientation=self"]
    t.refused("p1 end_meaning", "MB-R22")
    t.refused("p1 create_resource owner=p2 text=x", "MB-R22")


def test_mb_r23_others_means_any_other_player(table) -> None:
    t = table(("A", "B", "C"))
    t.unopposed("p1", "passion", 6, 1, 1)
    t.act("p1 choose_arrow orientation=others")
    t.act('p1 create_resource owner=p3 text="not even in the scene"')
    assert t.state.resources[t.state.attempt.created].owner == "p3"


def test_mb_r23_self_scope_refuses_others(table) -> None:
    t = table()
    t.unopposed("p1", "passion", 6, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.refused("p1 create_resource owner=p2 text=x", "MB-R20")


def test_mb_r24_blocked_dice_are_not_assignable(table) -> None:
    t = table()
    t.give_resource("th", "threat", "p1", 2, active=True, blocking=[2])
    t.unopposed("p1", "passion", 6, 2, 2, 1)
    t.act("p1 choose_arrow orientation=self")
    t.refused("p1 select_die die=p1.0", "MB-R24")
    t.select("p1", 1)


def test_mb_r25_one_outcome_per_resource(table) -> None:
    t = table()
    t.give_resource("de", "desire", "p1", 1)
    t.unopposed("p1", "passion", 6, 2, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0)
    t.act("p1 activate_resource resource=de")
    t.select("p1", 1)
    t.refused("p1 increase_resource resource=de", "MB-R25")
    t.refused("p1 deactivate_resource resource=de", "MB-R25")


def test_mb_r26_states_each_outcome_needs(table) -> None:
    t = table()
    t.give_resource("de", "desire", "p1", 1)
    t.give_resource("da", "desire", "p1", 1, active=True)
    t.unopposed("p1", "passion", 6, 2, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0)
    t.refused("p1 increase_resource resource=de", "MB-R26")
    t.refused("p1 deactivate_resource resource=de", "MB-R26")
    t.refused("p1 activate_resource resource=da", "MB-R26")
    t.act("p1 increase_resource resource=da")
    assert t.state.resources["da"].value == 2


def test_mb_r27_and_r51_halving_to_zero_removes(table) -> None:
    """Rule: MB-R51"""
    t = table()
    t.give_resource("pr", "promise", "p1", 1, active=True, aid=[1])
    t.unopposed("p1", "confidence", 6, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.act("p1 fulfil_promise promise=pr")
    assert "pr" not in t.state.resources


def test_mb_r28_a_threat_activated_in_meaning_blocks_later_actions(table) -> None:
    t = table()
    t.give_resource("th", "threat", "p1", 2)
    t.unopposed("p1", "insight", 6, 2, 2, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0)
    t.act("p1 activate_resource resource=th")
    t.roll(2)
    assert t.part("p1").counted == [0, 1]  # this action's count is done
    t.act("p1 end_meaning")
    t.act("p1 reclaim")
    t.unopposed("p1", "passion", 6, 2, 2, 1)
    assert t.part("p1").counted == [1]


def _desire_penalty(table, value: int, misery: int = 0):
    t = table()
    t.give_resource("de", "desire", "p1", value, active=True)
    t.move("p1", misery=misery)
    t.unopposed("p1", "passion", 5, 2, 5, 1)  # one success die, less than the Desire
    t.act("p1 choose_arrow orientation=self")
    t.act("p1 end_meaning")
    return t


def test_mb_r30_desire_penalty_keep(table) -> None:
    t = _desire_penalty(table, 2)
    assert t.part("p1").penalising == ["de"]
    misery = t.sheet("p1").misery
    t.act("p1 reclaim")  # passion/self: rating 3 - 3 left = 0; +1 kept Desire
    assert t.sheet("p1").misery == misery + 1 and t.sheet("p1").pool["insight"] == 6


def test_mb_r30_desire_penalty_deny(table) -> None:
    t = _desire_penalty(table, 3, misery=3)
    spare = t.sheet("p1").spare
    t.act("p1 deny_desire desire=de")
    t.act("p1 reclaim")
    assert t.state.resources["de"].value == 1 and t.state.resources["de"].active
    assert (t.sheet("p1").misery, t.sheet("p1").spare) == (0, spare + 3)


def test_mb_r30_deny_needs_enough_misery(table) -> None:
    t = _desire_penalty(table, 3, misery=2)
    t.refused("p1 deny_desire desire=de", "MB-R30")


def test_mb_r30_no_penalty_with_enough_success_dice(table) -> None:
    t = table()
    t.give_resource("de", "desire", "p1", 1, active=True)
    t.unopposed("p1", "passion", 5, 2, 5, 1)
    assert t.part("p1").penalising == []


def test_mb_r31_addressing_a_desire(table) -> None:
    """Rule: [Desires]"""
    t = table()
    t.give_resource("de", "desire", "p2", 3, active=True)
    t.unopposed("p1", "insight", 6, 3, 1, 1, 1)
    t.act("p1 choose_arrow orientation=others")
    t.select("p1", 0)
    t.refused("p1 address_desire desire=de", "MB-R31")  # needs ceil(3/2) = 2 dice
    t.select("p1", 1)
    spare1, spare2 = t.sheet("p1").spare, t.sheet("p2").spare
    t.act("p1 address_desire desire=de")
    de = t.state.resources["de"]
    assert (de.value, de.active) == (4, False)
    assert t.sheet("p1").spare == spare1 + 2 and t.sheet("p1").influence["p2"] == 3
    assert t.sheet("p2").spare == spare2 - 3
    assert not t.invariants()


def test_mb_r31_own_desire_cannot_be_addressed(table) -> None:
    t = table()
    t.give_resource("de", "desire", "p1", 1, active=True)
    t.unopposed("p1", "passion", 6, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0)
    t.refused("p1 address_desire desire=de", "MB-R31")


def test_mb_r32_threat_address_reward(table) -> None:
    t = table()
    t.give_resource("th", "threat", "p1", 5, active=True, blocking=[5])
    t.unopposed("p1", "insight", 6, 2, 4, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0, 1)
    spare = t.sheet("p1").spare
    t.act("p1 remove_blocking_die threat=th blocking=5")
    t.roll(3)
    t.roll(4)  # 7 >= 5: two spare dice claimed into Confidence
    th = t.state.resources["th"]
    assert (th.value, th.active, th.blocking) == (2, False, [])
    assert t.sheet("p1").pool["confidence"] == 7 and t.sheet("p1").spare == spare - 2
    assert not t.invariants()


def test_mb_r33_fulfilling_a_promise(table) -> None:
    t = table()
    t.give_resource("pr", "promise", "p1", 5, active=True, aid=[3, 2])
    t.unopposed("p1", "confidence", 6, 2, 3, 2)
    part = t.part("p1")
    assert part.fulfillable == ["pr"] and part.n == 10
    t.act("p1 choose_arrow orientation=self")
    spare = t.sheet("p1").spare
    t.act("p1 fulfil_promise promise=pr")
    pr = t.state.resources["pr"]
    assert (pr.value, pr.active, pr.aid) == (2, False, [])
    assert part.fulfilment == [3, 2] and t.sheet("p1").spare == spare - 2
    t.act("p1 end_meaning")
    t.act("p1 reclaim")  # confidence/self: rating 3 - 3 left = 0: all 4 dice into Passion
    assert t.sheet("p1").pool["passion"] == 9 and not t.invariants()


def test_mb_r34_dice_left_in_pool_counts_fee_dice(table) -> None:
    t = table()
    t.give_trait("t9", "p1", "p2", 6)
    t.act("p1 call_action pool=passion challenge=6 dice=2 intent=act")
    t.act("p2 pass_opposition")
    t.act("gm pass_opposition")
    t.roll(1, 1)
    t.select("p1", 0)
    t.act("p1 use_trait trait=t9 fee_pool=passion fee_mode=to_misery")
    t.roll(1)
    t.act("p1 pass_reroll")
    t.act("p1 choose_arrow orientation=self")
    t.act("p1 end_meaning")
    misery = t.sheet("p1").misery
    t.act("p1 reclaim")  # passion 5 - 2 rolled - 1 fee = 2 left; rating 3 - 2 = 1 to Misery
    assert t.sheet("p1").misery == misery + 1


def test_mb_r35_gm_as_meaning_decider(table) -> None:
    t = table()
    t.act("p1 call_action pool=passion challenge=6 dice=1 intent=act")
    t.act("p2 pass_opposition")
    t.act("gm gm_oppose challenge=6 dice=2 pool_label=confidence")
    t.roll(6, 5, 5)
    t.act("p1 pass_reroll")
    t.act("p1 decide_success succeeds=true")
    assert t.pending() == ("gm",)
    t.act("gm choose_arrow orientation=others")
    t.act('gm create_resource owner=p1 text="the guards"')
    assert t.state.resources[t.state.attempt.created].kind == "threat"
    t.act("gm end_meaning")
    t.act("p1 reclaim")  # players reclaim with the opposite of the GM's arrow: passion/self
    assert t.sheet("p1").pool["insight"] == 6 and t.state.attempt is None


def test_mb_r36_gm_limits(table) -> None:
    t = table()
    t.give_trait("t9", "p1", "p2", 3)
    t.act("p1 call_action pool=passion challenge=6 dice=1 intent=act")
    t.act("p2 pass_opposition")
    t.refused("gm gm_oppose challenge=6 dice=7 pool_label=confidence", "MB-R36")
    t.refused("gm oppose pool=passion challenge=3 dice=1", "MB-R36")
    t.act("gm gm_oppose challenge=6 dice=2 pool_label=passion")
    t.roll(6, 1, 1)
    t.act("p1 pass_reroll")
    t.act("p1 decide_success succeeds=true")
    t.act("gm choose_arrow orientation=self")
    assert not any("create_resource" in a for a in t.legal("gm"))
    t.refused("gm spend_misery target=t9", "MB-R36")


def test_mb_r37_offering_a_provisional_trait(table) -> None:
    """Rule: [Influencing People]; [Growing and changing every day]"""
    t = table()
    t.refused('p1 offer_trait target=p2 text="Quick temper" dice=1', "MB-R37")
    t.sheet("p2").spare -= 2
    t.sheet("p1").influence["p2"] = 2
    t.refused('p1 offer_trait target=p1 text="Quick temper" dice=1', "MB-R37")
    t.act('p1 offer_trait target=p2 text="Quick temper" dice=2')
    prov = t.state.provisionals["t1"]
    assert (prov.target, prov.offerer, prov.dice) == ("p2", "p1", 2) and t.sheet("p1").influence["p2"] == 0
    assert not t.invariants()


def _offered(table, dice: int = 2):
    t = table()
    t.sheet("p2").spare -= dice
    t.sheet("p1").influence["p2"] = dice
    t.act(f'p1 offer_trait target=p2 text="Little miss know-it-all" dice={dice}')
    return t


def test_mb_r38_accepting_by_rolling_its_dice(table) -> None:
    t = _offered(table)
    t.act("p2 accept_trait trait=t1")
    assert t.pending() == ("p2",)
    t.refused("p1 end_game")
    t.act("p2 call_action pool=passion challenge=3 dice=1 intent=act")
    part = t.part("p2")
    assert len(part.dice) == 3 and part.accepted == ["t1"]
    assert t.state.traits["t1"].value == 1 and t.state.traits["t1"].creator == "p1"
    assert "t1" in t.state.attempt.traits_used
    assert not t.invariants()


def test_mb_r38_accepting_as_an_opponent(table) -> None:
    t = _offered(table)
    t.act("p1 call_action pool=passion challenge=3 dice=1 intent=act")
    t.act("p2 accept_trait trait=t1")
    t.refused("p2 pass_opposition", "MB-R38")
    t.act("p2 oppose pool=insight challenge=3 dice=0")
    assert len(t.part("p2").dice) == 2


def test_mb_r39_refusing_sends_the_dice_to_misery(table) -> None:
    t = _offered(table)
    t.act("p2 refuse_trait trait=t1")
    assert t.sheet("p2").misery == 2 and "t1" not in t.state.provisionals and "t1" not in t.state.traits
    t.refused("p2 call_action pool=passion challenge=3 dice=0 intent=act", "MB-R42")
    t.act("p2 call_action pool=passion challenge=3 dice=1 intent=act")


def test_mb_r40_influence_dice_are_never_rolled(table) -> None:
    t = table()
    t.sheet("p2").spare -= 3
    t.sheet("p1").influence["p2"] = 3
    t.move("p1", passion=0, confidence=0, insight=0)
    assert not any("call_action" in a for a in t.legal("p1"))


def test_mb_r41_ten_traits_at_most(table) -> None:
    t = _offered(table)
    for i in range(10):
        t.give_trait(f"x{i}", "p2", "p1", 1)
    t.refused("p2 accept_trait trait=t1", "MB-R41")
    t.act("p2 refuse_trait trait=t1")


def test_mb_r42_at_least_one_die(table) -> None:
    t = table()
    t.refused("p1 call_action pool=passion challenge=3 dice=0 intent=act", "MB-R42")
    t.refused("p1 call_action pool=passion challenge=3 dice=6 intent=act", "pools")
    t.refused("p1 call_action pool=passion challenge=7 dice=1 intent=act", "challenge")


def test_mb_r45_the_session_ends_by_consent(table) -> None:
    t = table()
    t.act("p1 end_game")
    t.refused("p1 end_game", "MB-R45")
    assert not t.match.is_over()
    t.act("p2 end_game")
    assert t.match.is_over() and GAME.outcome(t.state).winners == ()


def test_mb_r45_calling_an_action_withdraws_the_consent(table) -> None:
    t = table()
    t.act("p1 end_game")
    t.unopposed("p2", "passion", 6, 1, 1)
    t.act("p2 choose_arrow orientation=self")
    t.act("p2 end_meaning")
    t.act("p2 reclaim")
    assert "p1 end_game" in t.legal("p1")
    t.act("p2 end_game")
    assert not t.match.is_over()


def test_mb_r45_session_length_bound(table) -> None:
    t = table(session_actions=1)
    t.unopposed("p1", "passion", 6, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.act("p1 end_meaning")
    t.act("p1 reclaim")
    assert t.match.is_over()


def test_mb_r46_exhausted_spare(table) -> None:
    t = table()
    t.give_resource("de", "desire", "p2", 4, active=True)
    t.sheet("p2").spare = 1
    t.sheet("p2").misery = 4
    t.unopposed("p1", "insight", 6, 2, 1, 1)
    t.act("p1 choose_arrow orientation=others")
    t.select("p1", 0, 1)
    t.act("p1 address_desire desire=de")
    assert t.sheet("p1").influence["p2"] == 1 and t.sheet("p2").spare == 0
    assert not t.invariants()


def test_mb_r47_outcomes_resolve_one_at_a_time(table) -> None:
    t = table()
    t.give_resource("pa", "promise", "p1", 2)
    t.give_resource("pb", "promise", "p1", 1)
    t.unopposed("p1", "confidence", 6, 2, 2, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0)
    t.act("p1 activate_resource resource=pa")
    assert t.pending() == ("chance",)
    t.refused("p1 select_die die=p1.1")
    t.roll(2)
    t.select("p1", 1)
    t.act("p1 activate_resource resource=pb")
    t.roll(1)
    assert t.state.resources["pa"].aid == [2] and t.state.resources["pb"].aid == [1]


def test_mb_r48_rising_threshold() -> None:
    assert raised_threat_value(6, [4, 5]) == 7
    assert raised_threat_value(3, [6, 6, 6, 2]) == 7


def test_mb_r49_only_your_own_traits(table) -> None:
    t = table()
    t.give_trait("t9", "p2", "p1", 6)
    t.act("p1 call_action pool=passion challenge=6 dice=1 intent=act")
    t.act("p2 pass_opposition")
    t.act("gm pass_opposition")
    t.roll(1)
    t.refused("p1 select_die die=p1.0", "reroll budget")  # p1 has no Trait of its own to use
    assert t.legal("p1") == ["p1 pass_reroll"]


def test_mb_r50_blocking_dice_persist_and_raising_adds_none(table) -> None:
    t = table()
    t.give_resource("th", "threat", "p1", 2, active=True, blocking=[1, 1])
    t.unopposed("p1", "insight", 6, 3, 2, 3, 3)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0)
    t.act("p1 increase_resource resource=th")
    th = t.state.resources["th"]
    assert th.value == 3 and th.blocking == [1, 1]
    t.act("p1 end_meaning")
    t.act("p1 reclaim")
    assert t.state.resources["th"].blocking == [1, 1]


def test_mb_r50_removed_blocking_dice_stay_removed(table) -> None:
    t = table()
    t.give_resource("th", "threat", "p1", 4, active=True, blocking=[3, 1])
    t.unopposed("p1", "insight", 6, 2, 4, 2)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0)
    t.act("p1 remove_blocking_die threat=th blocking=3")
    t.act("p1 end_meaning")
    t.act("p1 reclaim")
    assert t.state.resources["th"].blocking == [1]


def test_reclaim_split_examples() -> None:
    assert reclaim_split("others", rating=2, left_in_pool=1, rolled=5, extras=0) == (3, 2, 0)
    assert reclaim_split("self", rating=4, left_in_pool=2, rolled=3, extras=0) == (2, 1, 0)
    assert reclaim_split("self", rating=3, left_in_pool=1, rolled=4, extras=3) == (4, 0, 1)


def test_mb_r1_triangle_others_and_self_circulate_opposite_ways() -> None:
    from ludica.games.misery_bubblegum.triangle import ARROWS, opposite

    others = {pool: ARROWS[(pool, "others")].dest for pool in ("passion", "confidence", "insight")}
    selfs = {pool: ARROWS[(pool, "self")].dest for pool in ("passion", "confidence", "insight")}
    assert others == {"passion": "confidence", "confidence": "insight", "insight": "passion"}
    assert selfs == {"passion": "insight", "insight": "confidence", "confidence": "passion"}
    assert opposite("others") == "self" and opposite("self") == "others"


def test_mb_r2_removing_the_last_blocking_die_addresses_the_threat(table) -> None:
    t = table()
    t.give_resource("th", "threat", "p1", 3, active=True, blocking=[1])
    t.unopposed("p1", "insight", 6, 1, 2)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0)
    t.act("p1 remove_blocking_die threat=th blocking=1")
    assert t.pending() == ("chance",)  # the spare roll of the mitigated Threat
    t.roll(3)
    th = t.state.resources["th"]
    assert (th.value, th.active) == (1, False)


def test_mb_r29_unmatched_aid_misery_comes_from_spare_when_nothing_is_reclaimed(table) -> None:
    t = table()
    t.give_resource("pr", "promise", "p1", 6, active=True, aid=[6, 6])
    t.unopposed("p1", "passion", 6, 1, 1)
    assert t.part("p1").unmatched_aid == 2
    t.act("p1 choose_arrow orientation=self")
    t.act("p1 end_meaning")
    spare, misery = t.sheet("p1").spare, t.sheet("p1").misery
    t.act("p1 reclaim")  # passion/self: 3 - 4 left -> 0 to Misery, 1 reclaimed; 2 extras: 1 from it, 1 from Spare
    assert t.sheet("p1").misery == misery + 2 and t.sheet("p1").spare == spare - 1
    assert t.sheet("p1").pool["insight"] == 5 and not t.invariants()


def test_mb_r35_opponents_reclaim_the_opposite_way_from_their_own_pool(table) -> None:
    t = table(("A", "B"), ratings=[(3, 3, 3), (3, 2, 3)])
    t.act("p1 call_action pool=passion challenge=6 dice=2 intent=act")
    t.act("p2 oppose pool=confidence challenge=6 dice=3")
    t.act("gm pass_opposition")
    t.roll(5, 5, 1, 1, 1)
    t.act("p1 pass_reroll")
    t.act("p2 pass_reroll")
    t.act("p1 decide_success succeeds=true")
    t.act("p1 choose_arrow orientation=others")  # D: passion/others -> Confidence
    t.act("p1 end_meaning")
    t.act("p1 reclaim reclaim_count=2")
    t.act("p2 reclaim")  # opponent: confidence/self -> Passion; rating 2 - 2 left = 0 to Misery
    assert t.sheet("p1").pool["confidence"] == 7 and t.sheet("p2").pool["passion"] == 8


@pytest.mark.parametrize("kind", ["desire", "threat", "promise"])
def test_mb_r43_every_resource_kind_activates_raises_and_deactivates_alike(table, kind) -> None:
    """Rule: [Natural and unnatural resources]"""
    pool = {"desire": "passion", "threat": "insight", "promise": "confidence"}[kind]
    t = table()
    t.give_resource("r", kind, "p1", 1)
    t.unopposed("p1", pool, 6, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0)
    t.act("p1 activate_resource resource=r")
    if kind != "desire":
        t.roll(4)
    assert t.state.resources["r"].active
    t.act("p1 end_meaning")
    t.act("p1 reclaim")
    t.unopposed("p1", pool, 6, 2, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0)
    t.act("p1 increase_resource resource=r")
    assert t.state.resources["r"].value == 2


def test_mb_r44_influence_dice_go_back_only_as_provisional_traits(table) -> None:
    """Rule: [Influencing People]"""
    t = table()
    t.sheet("p2").spare -= 2
    t.sheet("p1").influence["p2"] = 2
    kinds = {a.split()[1] for a in t.legal("p1")}
    assert kinds == {"call_action", "offer_trait", "end_game"}
