"""Hours two to ten: who starts, turns, the end of a turn, dying, Ideal Citizens, More cards,
the final round, the ninth hour, the final hour, changing the Committee Member, the clock."""

from __future__ import annotations

import pytest

from ludica.core import Action, IllegalAction
from ludica.games.euthymia import GAME
from ludica.games.euthymia.drink import can_take_turns

HANDS = {
    "p1": ["KC", "5H", "6H", "7H", "8H", "9H"],
    "p2": ["2C", "JS", "2D", "3D", "4D", "5D"],
    "p3": ["3C", "3S", "9S", "6D", "7D", "8D"],
    "p4": ["4C", "10D", "10C", "9C", "8C", "7C"],
}
STARTS = {"p1": "KC", "p2": "2C", "p3": "3C", "p4": "4C"}


def hour_two(table, strengths=None, black="p4", options=None, hands=None, hour=None):
    t = table(4, options)
    t.first_hour(strengths=strengths, black=black)
    t.start_hour(hands or HANDS, hour=hour)
    return t


# -- the start of an hour -------------------------------------------------------------------------
def test_hour_start_fresh_bottle_and_six_cards(table):
    """R-EU-08, R-EU-34, R-EU-03: a fresh bottle, empty glasses, all 52 cards reshuffled.

    Rule: [The second to ninth hours]
    """
    t = hour_two(table)
    s = t.state
    assert s.hour == 2 and s.bottle_units == 30 and set(s.glass.values()) == {0}
    assert all(len(h) == 6 for h in s.hands.values()) and len(s.deck) == 28 and not s.discard
    assert s.phase == "WHO_STARTS" and set(t.match.pending().seats) == {"p1", "p2", "p3", "p4", "table"}


def test_who_starts_highest_rank_and_all_revealed_discarded(table):
    """[Who starts?] R-EU-02/R-EU-13: highest rank, aces low; all revealed cards discarded.

    Rule: [Who starts?]
    """
    t = hour_two(table)
    t.do("p1", "commit_start_card", card="5H")
    view_p2 = GAME.view(t.state, "p2")
    assert "5H" not in str(view_p2) and view_p2["who_starts"]["committed"] == ["p1"]
    assert GAME.view(t.state, "p1")["you"]["start_card"] == "5H"
    t.start_turn({"p2": "JS", "p3": "9S", "p4": "10D"})
    assert t.state.active_player == "p2" and t.state.bottle_holder == "p2"
    assert sorted(t.state.discard) == sorted(["5H", "JS", "9S", "10D"])


def test_r_eu_13_ties_repeat_among_the_tied_only(table):
    hands = {
        "p1": ["KC", "5H", "6H", "7H", "8H", "9H"],
        "p2": ["KD", "2D", "3D", "4D", "5D", "6D"],
        "p3": ["3C", "3S", "9S", "7D", "8D", "9D"],
        "p4": ["KS", "10D", "10C", "9C", "8C", "7C"],
    }
    t = hour_two(table, hands=hands)
    t.start_turn({"p1": "KC", "p2": "KD", "p3": "3C", "p4": "KS"})
    assert t.state.start is not None and t.state.start.seats == ("p1", "p2", "p4")
    assert "commit_start_card" not in t.types("p3")
    t.start_turn({"p1": "5H", "p2": "5D", "p4": "7C"})
    assert t.state.active_player == "p4"
    assert len(t.state.discard) == 7


def test_r_eu_13_empty_handed_tied_players_turn_up_deck_cards(table):
    """R-EU-13: tied players with no card left each turn up the top card of the deck."""
    from ludica.games.euthymia.flow import STANDARD_DECK

    t = hour_two(table)
    s = t.state
    s.hands = {"p1": ["5C"], "p2": ["KS"], "p3": ["KH"], "p4": ["4C"]}
    held = {"5C", "KS", "KH", "4C", "2S", "QH"}
    s.deck = ["2S", "QH"] + [c for c in STANDARD_DECK if c not in held]
    s.discard = []
    s.touch()
    t.start_turn({"p1": "5C", "p2": "KS", "p3": "KH", "p4": "4C"})
    assert s.active_player == "p3"  # the queen beats the two
    assert {"2S", "QH"} <= set(s.discard) and GAME.invariants(s) == []


def test_r_eu_25_only_the_previous_active_player_left_goes_again(table):
    t = hour_two(table)
    t.start_turn(STARTS)
    for p in ("p2", "p3", "p4"):
        t.state.status[p] = "IDEAL_CITIZEN"
    t.state.touch()
    t.pour({"p2": 6, "p3": 4, "p4": 2})
    t.launch("p1", "WANT", "LOVE")
    t.play("p2", "2D")
    assert t.state.active_player == "p1" and t.state.phase == "TURN"


def test_next_turn_by_emptiest_glass_with_designation(table):
    """[Changing the Strength…] last line + R-EU-10: a tie for emptiest is settled by the AP.

    Rule: [Ending the turn]
    """
    t = hour_two(table)
    t.start_turn(STARTS)
    t.pour({"p2": 6})
    t.launch("p1", "WANT", "LOVE")
    t.do("p1", "designate_drink_order", context="conflict_order", ordered_players=["p3"])
    assert t.state.conflict.order == ["p2", "p3", "p4"]
    t.play("p2", "2D")
    s = t.state
    assert s.phase == "TURN_END" and s.previous_active_player == "p1"
    designations = [a for a in t.legal("p1") if a.type == "designate_drink_order"]
    assert {a.args["ordered_players"][0] for a in designations} == {"p3", "p4"}
    assert all(a.args["context"] == "next_active" for a in designations)
    with pytest.raises(IllegalAction) as err:
        GAME.check(s, Action("p2", "designate_drink_order", {"context": "next_active", "ordered_players": ["p3"]}))
    assert err.value.rule == "R-EU-10"
    t.do("p1", "designate_drink_order", context="next_active", ordered_players=["p4"])
    assert s.active_player == "p4" and s.bottle_holder == "p4"


def test_most_drink_tie_designated_by_the_bottle_holder(table):
    t = hour_two(table)
    t.start_turn(STARTS)
    t.pour({"p2": 4, "p3": 4})
    assert not any(a.type == "launch_conflict" for a in t.legal("p2") + t.legal("p3"))
    with pytest.raises(IllegalAction) as err:
        t.launch("p2", "TEMPTED", "LOVE")
    assert err.value.rule == "R-EU-10"
    t.do("p1", "designate_drink_order", context="most_drink", ordered_players=["p3"])
    assert any(a.type == "launch_conflict" for a in t.legal("p3"))
    t.do("p1", "pour", target="p4", units=1)  # the levels changed: the designation lapses
    assert not any(a.type == "launch_conflict" for a in t.legal("p3"))


def test_conflict_order_tie_designated_then_tie_break_pour(table):
    """R-EU-10 with TIE_BREAK_POURS: the designation is echoed by a one-unit pour."""
    t = hour_two(table, options={"TIE_BREAK_POURS": True})
    t.start_turn(STARTS)
    t.pour({"p2": 3, "p3": 3, "p4": 3})
    t.launch("p1", "WANT", "SPEAK")
    assert t.state.conflict.order == []
    assert {a.args["ordered_players"][0] for a in t.legal("p1") if a.type == "designate_drink_order"} == {
        "p2",
        "p3",
        "p4",
    }
    t.do("p1", "designate_drink_order", context="conflict_order", ordered_players=["p3"])
    assert t.state.glass["p3"] == 4 and t.state.bottle_units == 20
    t.do("p1", "designate_drink_order", context="conflict_order", ordered_players=["p4"])
    assert t.state.conflict.order == ["p3", "p4", "p2"]


def test_r_eu_09_pouring_rules(table):
    """Rule: [On drinking]"""
    t = hour_two(table)
    t.start_turn(STARTS)
    before = t.position()
    with pytest.raises(IllegalAction) as err:
        t.do("p1", "pour", target="p1", units=2)
    assert "except his own" in err.value.reason
    with pytest.raises(IllegalAction) as err:
        t.do("p2", "pour", target="p3", units=2)
    assert "Active Player" in err.value.reason
    with pytest.raises(IllegalAction) as err:
        t.do("p1", "pour", target="p3", units=11)
    assert err.value.rule == "R-EU-08"
    with pytest.raises(IllegalAction):
        t.do("p2", "drink", units=1)
    assert t.position() == before
    t.pour({"p2": 10, "p3": 10, "p4": 10})
    assert t.state.bottle_units == 0 and "pour" not in t.types("p1")
    t.do("p3", "drink", units=4)
    assert t.state.glass["p3"] == 6


# -- death, Ideal Citizens, More cards ------------------------------------------------------------
def test_r_eu_22_death_at_ten(table):
    """EX-E12, [Dying] R-EU-22: death at once, the AP narrates, no more turns this hour, still a card
    player; a new character next hour; a Committee Member stays one.

    Rule: [Dying]
    """
    hands = {**HANDS, "p2": ["2C", "JD", "QD", "KD", "2S", "3S"], "p3": ["3C", "JH", "QH", "KH", "4S", "5S"]}
    t = hour_two(table, strengths={"p1": (6, 3, 3, 3)}, black="p1", hands=hands)
    t.start_turn(STARTS)
    t.pour({"p2": 6, "p3": 4, "p4": 2})
    t.state.characters["p1"].strength = [9, 3, 3, 3]
    t.state.touch()
    t.launch("p1", "WANT", "FEEL", text="I want to scream at the cameras")
    t.play("p2", "JD")
    t.play("p3", "4S")  # no diamonds: any card; 4 ≤ 9 wins; one court card: Feel 9 + 1 = 10
    s = t.state
    assert s.characters["p1"].strength[0] == 10 and s.status["p1"] == "DEAD_THIS_HOUR"
    assert t.match.pending().seats == ("p1",) and t.types("p1") == {"describe_death"}
    t.do("p1", "describe_death", text="He screams at the cameras until the guards come.")
    assert s.active_player != "p1" and s.phase == "TURN"
    assert len(s.hands["p1"]) == 5  # still holds cards for others' Conflicts
    assert s.committee_member == "p1"


def test_r_eu_23_ideal_citizen_takes_no_turns_and_may_be_abandoned(table):
    hands = {**HANDS, "p2": ["2C", "JH", "QH", "2D", "2S", "3S"], "p3": ["3C", "KH", "4D", "4S", "5S", "6S"]}
    t = hour_two(table, hands=hands)
    t.start_turn(STARTS)
    t.pour({"p2": 6, "p3": 4, "p4": 2})
    t.state.characters["p1"].strength = [1, 0, 0, 1]
    t.state.touch()
    t.launch("p2", "COMMITTEE", "FEEL", text="The Committee demands you take your pills")
    t.play("p2", "2D")  # no hearts in suit? Feel is diamonds: 2 > 1 loses: the demand raises Feel
    assert t.state.characters["p1"].strength == [1, 0, 0, 1]  # no court card, no change
    s = t.state
    s.characters["p2"].strength = [0, 0, 0, 0]
    s.status["p2"] = "IDEAL_CITIZEN"
    s.touch()
    assert "abandon_ideal_citizen" in t.types("p2")
    assert s.active_player != "p2"
    t.do("p2", "abandon_ideal_citizen")
    assert s.status["p2"] == "NEEDS_NEW_CHARACTER"


def test_ideal_citizen_at_all_zeros(table):
    """[Becoming an Ideal Citizen]: Feel falls to zero, the others follow: an Ideal Citizen, who
    takes no more turns (R-EU-23).

    Rule: [Becoming an Ideal Citizen]
    """
    hands = {**HANDS, "p2": ["2C", "JD", "QD", "KD", "2S", "4S"]}
    t = hour_two(table, hands=hands)
    t.start_turn(STARTS)
    t.pour({"p2": 6, "p3": 4, "p4": 2})
    t.state.characters["p1"].strength = [1, 0, 0, 1]
    t.state.touch()
    t.launch("p1", "WANT", "FEEL", text="I want to feel something")
    t.play("p2", "JD")
    t.play("p3", "6D")  # 6 > 1: loses; Feel −1 → 0 and Love follows
    s = t.state
    assert s.characters["p1"].strength == [0, 0, 0, 0] and s.status["p1"] == "IDEAL_CITIZEN"
    assert s.active_player == "p4" and s.stats["ideal_citizens"] == 1
    assert not can_take_turns(s, "p1")


def test_r_eu_24_more_cards(table):
    """[More cards] R-EU-24: the hand is replaced; only the most-drink player may (and must) end
    the turn, and only with "The Committee demands…".

    Rule: [More cards]
    """
    t = hour_two(table)
    t.start_turn(STARTS)
    t.pour({"p2": 6, "p3": 4})
    old = list(t.state.hands["p1"])
    top = list(t.state.deck[:6])
    t.do("p1", "declare_more_cards")
    s = t.state
    assert s.turn_kind == "MORE_CARDS" and s.hands["p1"] == top and set(old) <= set(s.discard)
    assert not any(a.type == "launch_conflict" for a in t.legal("p1"))
    launches = {a.args["launch_type"] for a in t.legal("p2") if a.type == "launch_conflict"}
    assert launches == {"COMMITTEE"}
    with pytest.raises(IllegalAction) as err:
        t.launch("p2", "TEMPTED", "LOVE")
    assert err.value.rule == "R-EU-24"
    with pytest.raises(IllegalAction):
        t.do("p1", "declare_more_cards")
    assert "pour" in t.types("p1")  # the AP may still pour
    t.launch("p2", "COMMITTEE", "SPEAK", text="The Committee demands you apologise")
    assert s.phase == "CONFLICT"


def test_r_eu_33_deck_exhaustion_reshuffles_the_discards(table):
    t = hour_two(table)
    t.start_turn(STARTS)
    s = t.state
    s.discard.extend(s.deck[3:])
    del s.deck[3:]
    s.touch()
    t.do("p1", "declare_more_cards")
    assert t.match.pending().seats == ("chance",) and s.chance == "reshuffle"
    step = GAME.chance_step(s)
    assert step.n == len(s.deck) + len(s.discard)
    t.chance("reshuffle", order=list(range(step.n)))
    assert len(s.hands["p1"]) == 6 and s.phase == "TURN"
    assert GAME.invariants(s) == []


# -- the clock and the final round ----------------------------------------------------------------
def test_r_eu_26_clock_threshold_does_not_interrupt_the_turn(table):
    """Rule: [As the end of the hour approaches]"""
    t = hour_two(table)
    t.start_turn(STARTS)
    t.do("table", "clock", seconds=600)
    assert not t.state.final_round_pending
    for _ in range(4):
        t.do("table", "clock", seconds=600)
    assert t.state.hour_elapsed_s == 3000 and t.state.final_round_pending
    assert t.state.phase == "TURN" and t.state.active_player == "p1"
    assert "trigger_final_round" not in t.types("table")
    for _ in range(3):
        t.do("table", "clock", seconds=600)  # no hard stop at sixty minutes
    assert t.state.phase == "TURN"
    with pytest.raises(IllegalAction):
        t.do("table", "clock", seconds=601)


def test_hr_e1_forced_launch(table):
    """HR-E1: past sixty minutes the most-drink player must launch before anything else."""
    t = hour_two(table, options={"HR_FORCED_LAUNCH": True, "FINAL_ROUND_AT_S": 100000})
    t.start_turn(STARTS)
    t.pour({"p2": 6})
    for _ in range(6):
        t.do("table", "clock", seconds=600)
    assert {a.type for a in t.legal("p2")} == {"launch_conflict"}
    assert not t.legal("p1") and not t.legal("p3")
    with pytest.raises(IllegalAction):
        t.launch("p1", "WANT", "LOVE")


def test_r_eu_29_final_turn_no_more_cards_and_ends_the_hour(table):
    """R-EU-29: normal launch rights, a mandatory Conflict; the hour ends when all are done."""
    t = hour_two(table)
    t.start_turn(STARTS)
    t.pour({"p2": 6, "p3": 4, "p4": 2})
    t.do("table", "trigger_final_round")
    t.launch("p1", "WANT", "LOVE")
    t.play("p2", "2D")
    s = t.state
    assert s.final_round_active and s.turn_kind == "FINAL" and s.dividing
    play_out_final_round(t)
    assert s.phase == "HOUR_END" and sorted(s.final_done) == ["p1", "p2", "p3", "p4"]
    assert sorted(s.retired) == ["p1", "p2", "p3", "p4"]


def test_final_turn_forbids_more_cards(table):
    t = hour_two(table)
    t.start_turn(STARTS)
    t.pour({"p2": 2, "p3": 1})
    t.do("table", "trigger_final_round")
    t.launch("p1", "WANT", "LOVE")
    t.play("p2", "2D")
    ap = t.state.active_player
    assert ap == "p4"
    t.do(ap, "divide_bottle", target="p1", units=10)
    t.do(ap, "divide_bottle", target="p2", units=8)
    t.do(ap, "divide_bottle", target="p3", units=9)
    assert "declare_more_cards" not in t.types(ap) and "pour" not in t.types(ap)
    with pytest.raises(IllegalAction) as err:
        t.do(ap, "declare_more_cards")
    assert err.value.rule == "R-EU-24"


def test_reseal_mode(table):
    """[On drinking]: the final turn is symbolised by filling every glass, then resealing."""
    t = hour_two(table, options={"BOTTLE_MODE": "reseal"})
    t.start_turn(STARTS)
    t.pour({"p2": 2, "p3": 1})
    t.do("table", "trigger_final_round")
    t.launch("p1", "WANT", "LOVE")
    t.play("p2", "2D")
    ap = t.state.active_player
    assert ap == "p4" and t.types(ap) == {"fill_all_and_reseal"}
    t.do(ap, "fill_all_and_reseal")
    s = t.state
    assert s.bottle_sealed and s.glass == {"p1": 10, "p2": 10, "p3": 10, "p4": 0} and s.bottle_units == 0
    assert "pour" not in t.types(ap)


# -- the ninth hour and the final hour ------------------------------------------------------------
def play_out_final_round(t):
    """Drive the final turns with the first legal choices until the hour's turns are over."""
    s = t.state
    for _ in range(200):
        if s.phase in ("HOUR_END", "CM_REVEAL_TURN", "GAME_ENDINGS", "GAME_OVER"):
            return
        seats = t.match.pending().seats
        if seats == ("chance",):
            t.match.deal()
            continue
        useful = ("play_conflict_card", "designate_drink_order", "describe_death", "divide_bottle")
        pick = [a for x in seats if x != "table" for a in t.legal(x) if a.type in useful]
        pick += [a for x in seats for a in t.legal(x) if a.args.get("launch_type") == "WANT"]
        if not pick:
            raise AssertionError(f"stuck: {seats}")
        a = pick[0]
        if a.type == "divide_bottle":
            t.do(a.seat, "divide_bottle", target=a.args["target"], units=a.args["units"].hi)
            continue
        if a.is_template:
            t.do(a.seat, a.type, **{**a.args, "text": "words"})
        else:
            t.match.apply(a)
    raise AssertionError("the final round did not end")


def test_r_eu_30_ninth_hour_cm_reveals_last(table):
    """Rule: [The ninth hour]"""
    t = hour_two(table, black="p3", hour=9)
    assert t.state.hour == 9
    t.start_turn(STARTS)
    t.pour({"p2": 6, "p3": 4, "p4": 2})
    t.do("table", "trigger_final_round")
    t.launch("p1", "WANT", "LOVE")
    t.play("p2", "2D")
    play_out_final_round(t)
    s = t.state
    assert s.phase == "CM_REVEAL_TURN" and "p3" not in s.final_done
    assert t.match.pending().seats == ("p3",) and s.glass["p3"] == 0
    assert GAME.view(s, "p1")["committee_member"] is None
    t.do("p3", "reveal_identity", text="I was always the Committee's eyes.")
    assert s.cm_revealed and s.phase == "HOUR_END"
    assert GAME.view(s, None)["committee_member"] == "p3"
    assert "propose_cm_change" not in t.types("p1")


def final_hour(table, black="p3"):
    t = table(4)
    t.first_hour(black=black)
    t.state.cm_revealed = True
    hands = {**HANDS, "p3": ["3C", "KS", "6D", "7D", "8D", "9D"]}
    t.start_hour(hands, hour=10)
    return t


def test_r_eu_31_final_hour(table):
    """[The final hour] R-EU-31: the CM keeps the bottle, takes no turns, may fill his own glass,
    designates every tie and is dealt six new cards when his hand is empty.

    Rule: [The final hour]
    """
    t = final_hour(table)
    s = t.state
    assert s.hour == 10 and s.bottle_holder == "p3"
    assert s.start.seats == ("p1", "p2", "p4")  # the CM does not reveal for who starts
    t.start_turn({"p1": "KC", "p2": "2C", "p4": "4C"})
    assert s.active_player == "p1" and s.bottle_holder == "p3"
    assert "pour" not in t.types("p1")
    t.do("p3", "pour", target="p3", units=8)  # his own glass too
    t.do("p3", "pour", target="p2", units=3)
    assert "launch_conflict" in t.types("p3")  # the most-drink player: the CM launches
    t.launch("p3", "TEMPTED", "SPEAK", text="You must be tempted to confess")
    assert s.conflict.order == ["p3", "p2", "p4"]
    s.hands["p3"] = ["KS"]
    s.touch()
    top = list(s.deck[:6])
    t.play("p3", "KS")
    assert s.hands["p3"] == top  # refilled at once
    t.play("p2", "JS")
    t.play("p4", "10D")  # 10 > Speak 4: the temptation fails: −(1 + 2) → Speak 1
    assert s.characters["p1"].strength == [5, 1, 3, 3]


def test_r_eu_32_endings(table):
    t = final_hour(table)
    s = t.state
    t.start_turn({"p1": "KC", "p2": "2C", "p4": "4C"})
    t.do("p3", "pour", target="p4", units=5)
    t.do("p3", "pour", target="p3", units=2)
    t.do("table", "trigger_final_round")
    t.launch("p1", "WANT", "LOVE")
    t.play("p4", "10C")
    assert s.phase == "GAME_ENDINGS" and t.match.pending().seats == ("p3",)
    t.do("p3", "narrate_ending", text="The Committee Member walks away into the grey.")
    assert s.phase == "GAME_ENDINGS"
    designations = [a for a in t.legal("p3") if a.type == "designate_drink_order"]
    assert {a.args["ordered_players"][0] for a in designations} == {"p1", "p2"}
    t.do("p3", "designate_drink_order", context="ending_order", ordered_players=["p2"])
    for p in ("p2", "p1", "p4"):
        assert t.match.pending().seats == (p,)
        t.do(p, "narrate_ending", text=f"{p} escapes Euthymia.")
    assert s.phase == "GAME_OVER" and GAME.outcome(s) is not None
    assert t.match.pending().is_over


# -- changing the Committee Member ----------------------------------------------------------------
def test_r_eu_07_cm_change_by_unanimous_vote(table):
    """Rule: [On the Committee Member]"""
    t = hour_two(table, black="p2")
    t.do("p1", "propose_cm_change")
    assert set(t.match.pending().seats) == {"p1", "p2", "p3", "p4"}
    assert t.types("p1") == {"vote_cm_change"} and not t.legal("table")
    for p in t.players:
        t.do(p, "vote_cm_change", yes=True)
    step = GAME.chance_step(t.state)
    assert "p2" not in step.options  # the new Committee Member differs from the outgoing one
    t.chance("deal_identity_cards", black=["p3"])
    t.chance("pass_identity_cards", passes=["p4/p1/p2/p3"])
    s = t.state
    assert s.committee_member == "p3" and s.knower == "p2" and s.phase == "WHO_STARTS"
    assert "propose_cm_change" not in t.types("p1")  # once per player and hour
    assert s.stats["cm_changes"] == 1


def test_r_eu_07_one_no_keeps_the_committee_member(table):
    t = hour_two(table, black="p2")
    t.do("p3", "propose_cm_change")
    t.do("p1", "vote_cm_change", yes=True)
    t.do("p2", "vote_cm_change", yes=False)
    assert t.state.vote is None and t.state.committee_member == "p2"
    assert "commit_start_card" in t.types("p1")


def test_r_eu_07_no_change_during_a_conflict_or_after_a_commit(table):
    t = hour_two(table)
    t.do("p1", "commit_start_card", card="KC")
    assert "propose_cm_change" not in t.types("p2")
    t.start_turn({p: STARTS[p] for p in ("p2", "p3", "p4")})
    assert "propose_cm_change" in t.types("p2")
    t.launch("p1", "WANT", "LOVE")
    assert "propose_cm_change" not in t.types("p2")
    with pytest.raises(IllegalAction):
        t.do("p2", "propose_cm_change")


def test_r_eu_06_no_identity_in_public(table):
    """R-EU-06: the software never confirms the identity before the ninth-hour reveal."""
    t = hour_two(table, black="p2")
    for seat in (None, "p1", "p4"):  # p3 received the black card from p2: he knows
        assert "the Committee Member is p2" not in str(GAME.view(t.state, seat))
    assert GAME.view(t.state, "p2")["you"]["committee_member"] == "the Committee Member is p2"


def test_r_eu_38_more_cards_position_in_the_book_has_no_effect(table):
    """R-EU-38: the contents order of "More cards" changes nothing; the rule reads as in the body."""
    from ludica.games.euthymia.actions import SECTIONS

    assert SECTIONS["declare_more_cards"] == "More cards"


def test_new_character_next_hour_after_abandoning(table):
    """[Becoming an Ideal Citizen] / [Dying]: a new character is prepared for the next hour."""
    t = table(4)
    t.first_hour(black="p4")
    t.state.characters["p2"].strength = [0, 0, 0, 0]
    t.state.status["p2"] = "IDEAL_CITIZEN"
    t.start_hour(HANDS)
    assert t.state.start.seats == ("p1", "p3", "p4")  # the Ideal Citizen does not reveal
    t.start_turn({"p1": "KC", "p3": "3C", "p4": "4C"})
    t.do("p2", "abandon_ideal_citizen")
    t.pour({"p2": 6, "p3": 4, "p4": 2})
    t.do("table", "trigger_final_round")
    t.launch("p1", "WANT", "LOVE")
    t.play("p2", "2D")
    play_out_final_round(t)
    s = t.state
    assert s.phase == "HOUR_END" and "p2" not in s.final_done
    t.do("table", "start_hour")
    assert s.phase == "NEW_CHARACTERS" and t.match.pending().seats == ("p2",)
    assert s.past_characters[0]["player"] == "p2"
    t.character("p2", "Mara")
    t.strengths("p2", (6, 6, 3, 0))
    assert s.chance == "shuffle_and_deal" and s.status["p2"] == "ACTIVE_CHARACTER"


def test_r_eu_30_a_dead_committee_member_still_reveals(table):
    t = hour_two(table, black="p1", hour=9)
    t.start_turn(STARTS)
    t.state.status["p1"] = "DEAD_THIS_HOUR"
    t.state.touch()
    t.pour({"p2": 6, "p3": 4, "p4": 2})
    t.do("table", "trigger_final_round")
    t.launch("p1", "WANT", "LOVE")
    t.play("p2", "2D")
    play_out_final_round(t)
    assert t.state.phase == "CM_REVEAL_TURN" and t.match.pending().seats == ("p1",)


def test_identity_change_with_manual_pass_mid_turn(table):
    """§2.12 with CM_PASS_MODE=manual: the players pass again; the turn then carries on."""
    t = hour_two(table, black="p2", options={"CM_PASS_MODE": "manual"})
    s = t.state
    t.start_turn(STARTS)
    t.do("p3", "propose_cm_change")
    for p in t.players:
        t.do(p, "vote_cm_change", yes=True)
    t.chance("deal_identity_cards", black=["p4"])
    assert s.identity_change and t.match.pending().seats == ("p1",)
    for giver, to in (("p1", "p3"), ("p2", "p1"), ("p3", "p4"), ("p4", "p2")):
        t.do(giver, "pass_identity_card", to=to)
    assert not s.identity_change and s.committee_member == "p4" and s.knower == "p2"
    assert s.phase == "TURN" and s.active_player == "p1"
    assert GAME.view(s, "p2")["you"]["committee_member"] == "the Committee Member is p4"
    assert "committee_member" not in GAME.view(s, "p1")["you"]
