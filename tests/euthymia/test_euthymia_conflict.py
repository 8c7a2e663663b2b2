"""The Conflict and the change of Strength: the worked examples EX-E5…EX-E11 with exact cards."""

from __future__ import annotations

import pytest

from ludica.core import IllegalAction
from ludica.games.euthymia import GAME
from ludica.games.euthymia.drink import most_drink_player
from ludica.games.euthymia.strength import apply_change

# Four players; p1 starts with the king of clubs; p4 is the Committee Member.
STARTS = {"p1": "KC", "p2": "2C", "p3": "3C", "p4": "4C"}


def at_turn(table, strengths, hands, levels, hour=2, n=4, options=None):
    """Hour ``hour``, p1 the Active Player, glasses poured to ``levels``."""
    t = table(n, options)
    t.first_hour(strengths={"p1": strengths}, black="p4")
    t.start_hour(hands, hour=hour)
    t.start_turn({p: STARTS[p] for p in t.players})
    assert t.state.active_player == "p1"
    t.pour(levels)
    return t


EX_E7_HANDS = {
    "p1": ["KC", "5H", "6H", "7H", "8H", "9H"],
    "p2": ["2C", "JS", "2D", "3D", "4D", "5D"],
    "p3": ["3C", "QS", "6D", "7D", "8D", "9D"],
    "p4": ["4C", "KD", "10D", "10C", "9C", "8C"],
}


def test_ex_e7_all_non_active_players_play_face_cards(table):
    """EX-E7 [On conflicts]: J♠, Q♠, then K♦ from a player with no spades: the king is compared,
    the character loses, all three court cards count: Speak 5 − 3 = 2.

    Rule: [The Conflict]; [On conflicts]
    """
    t = at_turn(table, (6, 5, 2, 2), EX_E7_HANDS, {"p2": 6, "p3": 4, "p4": 2}, hour=3)
    assert t.state.hour == 3
    t.launch("p1", "WANT", "SPEAK", text="I want to curse the Committee aloud")
    assert t.state.conflict.order == ["p2", "p3", "p4"]
    t.play("p2", "JS")
    t.play("p3", "QS")
    assert t.cards("p4") == {"KD", "10D", "10C", "9C", "8C"}  # no spades: any card
    t.play("p4", "KD")
    assert t.state.characters["p1"].strength == [6, 2, 2, 2]
    assert {"JS", "QS", "KD"} <= set(t.state.discard)
    assert t.state.active_player == "p4"  # the emptiest glass takes the next turn


EX_E8_HANDS = {
    "p1": ["KC", "5H", "6H", "7H", "8H", "9H"],
    "p2": ["2C", "JS", "2D", "3D", "4D", "5D"],
    "p3": ["3C", "3S", "9S", "6D", "7D", "8D"],
    "p4": ["4C", "10D", "10C", "9C", "8C", "7C"],
}


@pytest.mark.parametrize(
    ("launch_type", "last", "expected"),
    [
        ("WANT", "3S", 5),
        ("TEMPTED", "3S", 5),
        ("COMMITTEE", "3S", 3),
        ("WANT", "9S", 3),
        ("TEMPTED", "9S", 3),
        ("COMMITTEE", "9S", 5),
    ],
)
def test_ex_e8_change_table_with_one_face_card(table, launch_type, last, expected):
    """EX-E8 / R-EU-19: one court card then a 3 (win) or a 9 (lose); the Committee row reversed.

    Rule: [Changing the Strength of the Aspect]
    """
    t = at_turn(table, (6, 4, 3, 2), EX_E8_HANDS, {"p2": 6, "p3": 4, "p4": 2})
    launcher = "p1" if launch_type == "WANT" else "p2"
    t.launch(launcher, launch_type, "SPEAK", text="The Committee demands you pray")
    t.play("p2", "JS")
    t.play("p3", last)
    assert t.state.characters["p1"].strength[1] == expected


@pytest.mark.parametrize("launch_type", ["WANT", "TEMPTED", "COMMITTEE"])
@pytest.mark.parametrize("card", ["3S", "9S"])
def test_ex_e8_no_face_card_no_change(table, launch_type, card):
    hands = {**EX_E8_HANDS, "p2": ["2C", card, "2D", "3D", "4D", "5D"], "p3": ["3C", "6D", "7D", "8D", "9D", "10D"]}
    hands["p4"] = ["4C", "10C", "9C", "8C", "7C", "6C"]
    t = at_turn(table, (6, 4, 3, 2), hands, {"p2": 6, "p3": 4, "p4": 2})
    t.launch("p1" if launch_type == "WANT" else "p2", launch_type, "SPEAK")
    t.play("p2", card)
    assert t.state.characters["p1"].strength == [6, 4, 3, 2]


def test_ex_e9_feel_decrease_cascade(table):
    """EX-E9: F5 S5 B4 L1, Feel down by 2 (two court cards, then a loss) → F3 S3 B3 L1."""
    hands = {
        "p1": ["KC", "5H", "6H", "7H", "8H", "9H"],
        "p2": ["2C", "JD", "2S", "3S", "4S", "5S"],
        "p3": ["3C", "QD", "6S", "7S", "8S", "9S"],
        "p4": ["4C", "9D", "10C", "9C", "8C", "7C"],
    }
    t = at_turn(table, (5, 5, 4, 1), hands, {"p2": 6, "p3": 4, "p4": 2})
    t.launch("p1", "WANT", "FEEL", text="I want to weep in the square")
    t.play("p2", "JD")
    t.play("p3", "QD")
    t.play("p4", "9D")
    assert t.state.characters["p1"].strength == [3, 3, 3, 1]


def test_ex_e9_as_a_function():
    s = [5, 5, 4, 1]
    apply_change(s, 0, -1, 2, final_mode=False)
    assert s == [3, 3, 3, 1]


def test_ex_e10_feel_compensation_in_a_final_turn(table):
    """EX-E10 [As the end of the hour approaches]: final turn, F6 L6, Love up by 1 + 1 court card
    = 2 → L8 and Feel raised to 8. Also R-EU-27 (dividing the bottle, himself included) and
    R-EU-28 (the next final turn goes to the emptiest glass not yet done)."""
    hands = {
        "p1": ["2C", "5S", "6S", "7S", "8S", "9S"],
        "p2": ["3C", "QH", "2D", "3D", "4D", "5D"],
        "p3": ["4C", "6D", "7D", "8D", "9D", "10D"],
        "p4": ["KC", "2H", "10C", "9C", "8C", "7C"],
    }
    t = table(4)
    t.first_hour(strengths={"p1": (6, 0, 3, 6)}, black="p3")
    t.start_hour(hands)
    t.start_turn({"p1": "2C", "p2": "3C", "p3": "4C", "p4": "KC"})
    assert t.state.active_player == "p4"
    t.pour({"p2": 5, "p3": 3})
    t.do("table", "trigger_final_round")
    t.launch("p4", "WANT", "FEEL", text="I want to laugh")
    t.play("p2", "2D")  # 2 ≤ Feel 5: p4 wins, no court card, no change
    assert t.state.characters["p4"].strength == [5, 4, 3, 3]
    s = t.state
    assert s.final_round_active and s.active_player == "p1" and s.turn_kind == "FINAL"
    assert t.types("p1") == {"divide_bottle"} and s.bottle_units == 22
    t.do("p1", "divide_bottle", target="p2", units=5)
    t.do("p1", "divide_bottle", target="p3", units=5)
    t.do("p1", "divide_bottle", target="p4", units=9)
    t.do("p1", "divide_bottle", target="p1", units=3)  # R-EU-27: himself included
    assert s.bottle_units == 0 and not s.dividing
    assert "pour" not in t.types("p1") and "declare_more_cards" not in t.types("p1")
    t.launch("p1", "WANT", "LOVE", text="I want to find him tonight")
    assert s.glass["p1"] == 0 and "p1" in s.retired  # drained and placed in the middle
    assert s.conflict.order == ["p2", "p4", "p3"]
    t.play("p2", "QH")
    t.play("p4", "2H")
    assert s.characters["p1"].strength == [8, 0, 3, 8]
    assert s.active_player == "p3"  # R-EU-28: emptiest of p2 10, p3 8, p4 9


def test_ex_e6_aces_are_low(table):
    """EX-E6: Believe 1; an A♣ wins, a 2♣ loses."""
    for card, won_strength in (("AC", 1), ("2C", 0)):
        hands = {
            "p1": ["KC", "5H", "6H", "7H", "8H", "9H"],
            "p2": ["JC", card, "2D", "3D", "4D", "5D"],
            "p3": ["3C", "6D", "7D", "8D", "9D", "10D"],
            "p4": ["4C", "10C", "9C", "8C", "7C", "6C"],
        }
        t = table(4)
        t.first_hour(strengths={"p1": (6, 6, 1, 2)}, black="p4")
        t.start_hour(hands)
        t.start_turn({"p1": "KC", "p2": "JC", "p3": "3C", "p4": "4C"})
        t.pour({"p2": 6, "p3": 4, "p4": 2})
        t.launch("p1", "WANT", "BELIEVE")
        events = t.do("p2", "play_conflict_card", card=card)
        resolved = next(e for e in events if e.kind == "resolve")
        assert resolved.data["won"] is (card == "AC")
        assert t.state.characters["p1"].strength[2] == 1  # no court card: no change either way
        assert won_strength in (0, 1)


def test_ex_e5_key_phrases_who_may_launch(table):
    """EX-E5: WANT only by the AP; TEMPTED and COMMITTEE only by the most-drink player.

    Rule: [Taking a turn]
    """
    t = at_turn(table, (6, 4, 3, 2), EX_E8_HANDS, {"p2": 6, "p3": 4, "p4": 2})
    before = t.position()
    with pytest.raises(IllegalAction) as err:
        t.launch("p2", "WANT", "LOVE", text="I want to make love to you")
    assert "Active Player" in err.value.reason
    with pytest.raises(IllegalAction) as err:
        t.launch("p3", "TEMPTED", "LOVE", text="You must be tempted to make love to her")
    assert err.value.rule == "R-EU-12" and "p2" in err.value.reason
    with pytest.raises(IllegalAction):
        t.launch("p1", "COMMITTEE", "SPEAK", text="The Committee demands you surrender to the guard")
    assert t.position() == before
    kinds = {
        (a.args["launch_type"], a.args["aspect"], a.args["medication"])
        for a in t.legal("p2")
        if a.type == "launch_conflict"
    }
    assert ("TEMPTED", "LOVE", False) in kinds and ("COMMITTEE", "FEEL", True) in kinds
    assert not any(t == "WANT" for t, _, _ in kinds)


def test_ex_e5_r_eu_20_medication_is_a_feel_challenge(table):
    """EX-E5 / R-EU-20: "The Committee demands you eat your food" → FEEL only, with any type."""
    t = at_turn(table, (6, 4, 3, 2), EX_E8_HANDS, {"p2": 6, "p3": 4, "p4": 2})
    before = t.position()
    with pytest.raises(IllegalAction) as err:
        t.launch("p2", "COMMITTEE", "SPEAK", medication=True, text="The Committee demands you eat your food")
    assert err.value.rule == "R-EU-20" and "Feel" in err.value.reason
    with pytest.raises(IllegalAction):
        t.launch("p1", "WANT", "LOVE", medication=True, text="I want to throw my food away")
    assert t.position() == before
    t.launch("p2", "COMMITTEE", "FEEL", medication=True, text="The Committee demands you eat your food")
    assert t.state.conflict.medication and t.state.conflict.aspect == 0


def test_ex_e11_most_drink_is_never_the_active_player(table):
    """EX-E11: glasses AP p1 9, p2 3, p3 5 → the most-drink player is p3."""
    t = table(3)
    t.first_hour(black="p2")
    t.start_hour({"p1": ["KC"], "p2": ["2C"], "p3": ["3C"]})
    t.start_turn({"p1": "KC", "p2": "2C", "p3": "3C"})
    t.state.glass.update({"p1": 9, "p2": 3, "p3": 5})
    t.state.bottle_units = 13
    t.state.touch()
    assert most_drink_player(t.state) == ("p3", [])
    assert any(a.args.get("launch_type") == "TEMPTED" for a in t.legal("p3"))
    assert not any(a.type == "launch_conflict" and a.args["launch_type"] != "WANT" for a in t.legal("p1"))


def test_r_eu_11_order_fixed_at_launch(table):
    """R-EU-11 / R-EU-09: drinking after the launch does not change the order of play."""
    t = at_turn(table, (6, 4, 3, 2), EX_E8_HANDS, {"p2": 6, "p3": 4, "p4": 2})
    t.launch("p1", "WANT", "SPEAK")
    t.do("p2", "drink", units=6)
    assert t.state.conflict.order == ["p2", "p3", "p4"]
    assert "pour" not in t.types("p1")  # no glass is filled during a Conflict
    assert t.state.bottle_holder == "CENTER"


def test_r_eu_14_empty_hands_are_passed_over_and_unopposed_wins(table):
    t = at_turn(table, (6, 4, 3, 2), EX_E8_HANDS, {"p2": 6, "p3": 4, "p4": 2})
    for p in ("p2", "p3", "p4"):
        t.state.discard.extend(t.state.hands[p])
        t.state.hands[p] = []
    t.state.touch()
    events = t.do("p1", "launch_conflict", launch_type="WANT", aspect="LOVE", medication=False, text="I want")
    resolved = next(e for e in events if e.kind == "resolve")
    assert resolved.data["won"] is True and resolved.data["faces"] == 0
    assert t.state.characters["p1"].strength == [6, 4, 3, 2]


def test_r_eu_14_a_player_without_cards_is_skipped_mid_conflict(table):
    t = at_turn(table, (6, 4, 3, 2), EX_E8_HANDS, {"p2": 6, "p3": 4, "p4": 2})
    t.state.discard.extend(t.state.hands["p3"])
    t.state.hands["p3"] = []
    t.state.touch()
    t.launch("p1", "WANT", "SPEAK")
    t.play("p2", "JS")
    assert t.state.conflict.order[t.state.conflict.index] == "p4"
    assert t.state.conflict.plays[-1] == ["p3", None]


def test_r_eu_15_off_suit_court_cards_count(table):
    """R-EU-15: every J/Q/K played counts, on-suit or off-suit."""
    hands = {
        "p1": ["KC", "5H", "6H", "7H", "8H", "9H"],
        "p2": ["2C", "JD", "2D", "3D", "4D", "5D"],  # no spades: plays the jack of diamonds
        "p3": ["3C", "3S", "6D", "7D", "8D", "9D"],
        "p4": ["4C", "10C", "9C", "8C", "7C", "6C"],
    }
    t = at_turn(table, (6, 4, 3, 2), hands, {"p2": 6, "p3": 4, "p4": 2})
    t.launch("p1", "WANT", "SPEAK")
    t.play("p2", "JD")
    t.play("p3", "3S")
    assert t.state.characters["p1"].strength == [6, 5, 3, 2]


def test_must_follow_suit(table):
    """[The Conflict]: a card of the Aspect's suit while you hold one."""
    t = at_turn(table, (6, 4, 3, 2), EX_E8_HANDS, {"p2": 6, "p3": 4, "p4": 2})
    t.launch("p1", "WANT", "SPEAK")
    assert t.cards("p2") == {"JS"}
    before = t.position()
    with pytest.raises(IllegalAction) as err:
        t.play("p2", "2D")
    assert "suit" in err.value.reason and err.value.section == "The Conflict"
    with pytest.raises(IllegalAction) as err:
        t.play("p3", "3S")
    assert "p2" in err.value.reason
    assert t.position() == before


def test_r_eu_16_increase_above_feel_stays(table):
    """R-EU-16: F5 S4, +2 → S stays 4 (literal); ``clamp_to_feel`` gives 5."""
    s = [5, 4, 3, 3]
    apply_change(s, 1, +1, 2, final_mode=False)
    assert s == [5, 4, 3, 3]
    apply_change(s, 1, +1, 2, final_mode=False, clamp_to_feel=True)
    assert s == [5, 5, 3, 3]
    apply_change(s, 2, +1, 2, final_mode=False)
    assert s == [5, 5, 5, 3]  # within Feel: rises


def test_r_eu_16_clamp_option_in_play(table):
    hands = {
        "p1": ["KC", "5H", "6H", "7H", "8H", "9H"],
        "p2": ["2C", "JS", "2D", "3D", "4D", "5D"],
        "p3": ["3C", "QS", "6D", "7D", "8D", "9D"],
        "p4": ["4C", "2S", "10C", "9C", "8C", "7C"],
    }
    for option, expected in (("stay", 4), ("clamp_to_feel", 5)):
        t = at_turn(table, (5, 4, 3, 3), hands, {"p2": 6, "p3": 4, "p4": 2}, options={"CAP_MODE_REGULAR": option})
        t.launch("p1", "WANT", "SPEAK")
        t.play("p2", "JS")
        t.play("p3", "QS")
        t.play("p4", "2S")
        assert t.state.characters["p1"].strength[1] == expected


def test_r_eu_17_zero_never_rises():
    s = [6, 0, 6, 3]
    apply_change(s, 1, +1, 3, final_mode=True)
    assert s == [6, 0, 6, 3]  # no rise, no Feel compensation
    apply_change(s, 1, -1, 3, final_mode=True)
    assert s == [6, 0, 6, 3]


def test_r_eu_17_a_zero_aspect_loses_to_any_card(table):
    hands = {**EX_E8_HANDS, "p2": ["2C", "AH", "2D", "3D", "4D", "5D"]}
    t = at_turn(table, (6, 6, 3, 0), hands, {"p2": 6, "p3": 4, "p4": 2})
    t.launch("p1", "WANT", "LOVE")
    events = t.do("p2", "play_conflict_card", card="AH")
    assert next(e for e in events if e.kind == "resolve").data["won"] is False


def test_r_eu_18_clamped_at_ten_and_death(table):
    s = [9, 9, 3, 3]
    apply_change(s, 1, +1, 4, final_mode=True)
    assert s == [10, 10, 3, 3]


def test_r_eu_19_committee_direction_as_printed():
    from ludica.games.euthymia.strength import direction

    assert direction("COMMITTEE", True) == -1 and direction("COMMITTEE", False) == +1
    assert direction("WANT", True) == +1 and direction("TEMPTED", False) == -1


def test_r_eu_21_launcher_chooses_any_aspect(table):
    t = at_turn(table, (6, 4, 3, 2), EX_E8_HANDS, {"p2": 6, "p3": 4, "p4": 2})
    for seat, kind in (("p1", "WANT"), ("p2", "TEMPTED"), ("p2", "COMMITTEE")):
        launches = [a for a in t.legal(seat) if a.type == "launch_conflict"]
        aspects = {a.args["aspect"] for a in launches if a.args["launch_type"] == kind}
        assert aspects == {"FEEL", "SPEAK", "BELIEVE", "LOVE"}


def test_r_eu_37_one_conflict_per_turn_launched_at_once(table):
    """R-EU-37: a launch may come at once; only one Conflict per turn."""
    t = at_turn(table, (6, 4, 3, 2), EX_E8_HANDS, {})
    t.launch("p1", "WANT", "SPEAK")
    before = t.position()
    with pytest.raises(IllegalAction):
        t.launch("p1", "WANT", "LOVE")
    assert t.position() == before


def test_conflict_view_is_public(table):
    t = at_turn(table, (6, 4, 3, 2), EX_E8_HANDS, {"p2": 6, "p3": 4, "p4": 2})
    t.launch("p1", "WANT", "SPEAK", text="I want to kill the guard")
    t.play("p2", "JS")
    for seat in (None, "p1", "p3"):
        conflict = GAME.view(t.state, seat)["conflict"]
        assert conflict["plays"] == [{"player": "p2", "card": "JS"}]
        assert conflict["text"] == "I want to kill the guard" and conflict["to_play"] == "p3"


def test_r_eu_12_ideal_citizens_and_the_dead_count_for_most_drink(table):
    """R-EU-12: an Ideal Citizen (or a dead character's player) with the fullest glass may launch
    and plays his cards in the Conflict."""
    t = at_turn(table, (6, 4, 3, 2), EX_E8_HANDS, {"p2": 6, "p3": 4, "p4": 2})
    t.state.status["p2"] = "IDEAL_CITIZEN"
    t.state.status["p3"] = "DEAD_THIS_HOUR"
    t.state.touch()
    t.launch("p2", "TEMPTED", "SPEAK", text="You must be tempted to sing")
    assert t.state.conflict.order == ["p2", "p3", "p4"]
