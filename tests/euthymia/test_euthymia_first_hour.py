"""The first hour: the Ideal Citizen, Euthymia, the characters, the Strengths, the Committee Member."""

from __future__ import annotations

import pytest

from ludica.core import IllegalAction, MalformedAction
from ludica.games.euthymia import GAME
from ludica.games.euthymia.identity import derangements, knower_token
from ludica.games.euthymia.strength import STARTING_STRENGTHS, band, starting_problem

ANGRY = ("Feels angry", "Speaks blasphemously", "Believes God does not exist", "Has anonymous sex")


def test_ex_e1_ideal_citizen_catholic_church(table):
    """EX-E1: Feel is fixed to "Feels euthymic"; Speak, Believe, Love come from the group.

    Rule: [The Ideal Citizen]
    """
    t = table(3)
    t.do(
        "table",
        "set_ideal_citizen",
        speak="Speaks with proper reverence to God",
        believe="Believes God is the ultimate authority",
        love="Has sex only within marriage",
    )
    ideal = GAME.view(t.state, None)["ideal_citizen"]
    assert ideal == {
        "FEEL": "Feels euthymic",
        "SPEAK": "Speaks with proper reverence to God",
        "BELIEVE": "Believes God is the ultimate authority",
        "LOVE": "Has sex only within marriage",
    }
    assert t.state.phase == "BUILD_STATE"


def test_ex_e1_ideal_citizen_hedonistic_clubgoers(table):
    t = table(3)
    t.do(
        "table",
        "set_ideal_citizen",
        speak="Speaks casually and flirtatiously",
        believe="Believes that the only thing that matters is to enjoy life",
        love="Has only anonymous sex",
    )
    assert t.state.ideal_citizen[0] == "Feels euthymic"
    assert t.state.ideal_citizen[3] == "Has only anonymous sex"


def test_feel_of_the_ideal_citizen_cannot_be_chosen(table):
    t = table(3)
    with pytest.raises(MalformedAction):
        t.do("table", "set_ideal_citizen", feel="Feels happy", speak="a", believe="b", love="c")


def test_building_euthymia_then_characters(table):
    t = table(3)
    t.ideal_and_setting()
    assert t.state.setting_notes.startswith("Grey towers")
    assert t.state.phase == "CHARACTERS"
    assert t.match.pending().seats == ("p1", "p2", "p3")


def test_ex_e2_characters_are_accepted(table):
    """EX-E2: the two example characters of [The characters].

    Rule: [The characters]
    """
    t = table(3)
    t.ideal_and_setting()
    t.character("p1", "Jack", ANGRY)
    t.character(
        "p2",
        "Will",
        ("Feels lonely", "Speaks of science and reason", "Believes Reason is the ultimate authority", "Loves only men"),
    )
    view = GAME.view(t.state, None)
    assert view["players"][0]["character"]["aspects"]["SPEAK"] == "Speaks blasphemously"
    assert view["players"][1]["character"]["aspects"]["LOVE"] == "Loves only men"
    assert view["players"][1]["character"]["name"] == "Will"


@pytest.mark.parametrize("values", [(6, 6, 3, 0), (5, 4, 3, 3), (4, 4, 4, 3)])
def test_ex_e3_valid_starting_strengths(table, values):
    """EX-E3 / R-EU-36: fifteen points, none above six, none above Feel.

    Rule: [The Strength of your Aspects]
    """
    assert values in STARTING_STRENGTHS
    t = table(3)
    t.ideal_and_setting()
    for p in t.players:
        t.character(p)
    t.strengths("p1", values)
    assert t.state.characters["p1"].strength == list(values)


@pytest.mark.parametrize(
    ("values", "words"),
    [((7, 4, 2, 2), "greater than 6"), ((4, 5, 3, 3), "Feel"), ((6, 6, 2, 0), "exactly 15")],
)
def test_ex_e3_invalid_starting_strengths(table, values, words):
    t = table(3)
    t.ideal_and_setting()
    for p in t.players:
        t.character(p)
    before = t.position()
    with pytest.raises(IllegalAction) as err:
        t.strengths("p1", values)
    assert words in err.value.reason and err.value.rule == "R-EU-36"
    assert err.value.section == "The Strength of your Aspects"
    assert t.position() == before


def test_ex_e3_feel_three_can_never_be_valid():
    assert all(f in (4, 5, 6) for f, *_ in STARTING_STRENGTHS)
    assert len(STARTING_STRENGTHS) == 61
    assert starting_problem((3, 3, 3, 3)) is not None


def test_ex_e4_strength_bands():
    """EX-E4 / R-EU-35: the anchors; values in between use the lower anchor.

    Rule: [On the Strength of Aspects]
    """
    assert band(0) == "not present at all"
    assert "tempted" in band(3) and "tempted" in band(4)
    assert "tortured" in band(5)
    assert "happily" in band(7)
    assert band(8) == band(9) == "losing control"
    assert "die" in band(10)


def test_r_eu_01_three_to_eight_players():
    """Rule: [Introduction]"""
    from ludica.core import Config, ConfigError

    for n in (2, 9):
        with pytest.raises(ConfigError):
            GAME.validate_config(Config(tuple(f"x{i}" for i in range(n))))


def test_committee_member_deal_and_pass_r_eu_04(table):
    """R-EU-03/04/05: one black card; the knower receives it from the Committee Member.

    Rule: [The Committee Member]
    """
    t = table(4)
    t.first_hour(black="p2", passes="p3/p4/p1/p2")
    s = t.state
    assert s.committee_member == "p2" and s.knower == "p4"
    assert s.identity_card == {"p1": "RED", "p2": "BLACK", "p3": "RED", "p4": "RED"}
    assert s.phase == "HOUR_END"
    cm_view, knower_view, other = (GAME.view(s, p)["you"] for p in ("p2", "p4", "p1"))
    assert cm_view["committee_member"] == knower_view["committee_member"] == "the Committee Member is p2"
    assert "committee_member" not in other
    assert cm_view["knower"] == knower_token("p4")  # R-EU-05 PASSER_LEARNS_RECIPIENT
    assert knower_view["received"] == "p4 received a BLACK identity card from p2"
    assert GAME.view(s, None)["committee_member"] is None
    assert "you" not in GAME.view(s, None)


def test_r_eu_05_passer_does_not_learn_recipient(table):
    t = table(4, {"PASSER_LEARNS_RECIPIENT": False})
    t.first_hour(black="p2", passes="p3/p4/p1/p2")
    assert "knower" not in GAME.view(t.state, "p2")["you"]
    assert "passed" not in GAME.view(t.state, "p2")["you"]
    assert GAME.view(t.state, "p4")["you"]["knower"] == knower_token("p4")


def test_r_eu_04_pass_must_be_a_derangement(table):
    t = table(3)
    t.ideal_and_setting()
    for p in t.players:
        t.character(p)
    for p in t.players:
        t.strengths(p, (5, 4, 3, 3))
    t.chance("deal_identity_cards", black=["p1"])
    assert set(derangements(t.players)) == {"p2/p3/p1", "p3/p1/p2"}
    with pytest.raises(IllegalAction):
        t.chance("pass_identity_cards", passes=["p1/p3/p2"])  # p1 would keep his own card


def test_r_eu_04_rotate_left(table):
    t = table(3, {"CM_PASS_MODE": "rotate_left"})
    t.first_hour(black="p3")
    assert t.state.knower == "p1" and t.state.phase == "HOUR_END"


def test_r_eu_04_manual_pass_never_gets_stuck(table):
    """Manual mode: p1 may not pass to p3 in a 3-player game if p2 → p1 would leave p3 his own card."""
    t = table(3, {"CM_PASS_MODE": "manual"})
    t.ideal_and_setting()
    for p in t.players:
        t.character(p)
    for p in t.players:
        t.strengths(p, (5, 4, 3, 3))
    t.chance("deal_identity_cards", black=["p1"])
    assert t.match.pending().seats == ("p1",)
    assert {a.args["to"] for a in t.legal("p1")} == {"p2", "p3"}
    t.do("p1", "pass_identity_card", to="p2")
    assert {a.args["to"] for a in t.legal("p2")} == {"p3"}  # to p1 would leave p3 with his own card
    with pytest.raises(IllegalAction):
        t.do("p2", "pass_identity_card", to="p1")
    t.do("p2", "pass_identity_card", to="p3")
    t.do("p3", "pass_identity_card", to="p1")
    assert t.state.knower == "p2" and t.state.phase == "HOUR_END"


def test_first_hour_tracks_no_drink(table):
    """R-EU-08: hour 1 drink is untracked.

    Rule: [The first hour]
    """
    t = table(3)
    t.first_hour()
    assert t.state.bottle_units == 0 and all(v == 0 for v in t.state.glass.values())
    assert t.types("table") == {"start_hour"}


@pytest.mark.parametrize(("name", "value"), [("BOTTLE_UNITS", -1), ("GLASS_CAPACITY", 0), ("BOTTLE_MODE", "spill")])
def test_bad_options_are_refused(name, value):
    from ludica.core import Config, ConfigError

    with pytest.raises(ConfigError):
        GAME.validate_config(Config(("a", "b", "c"), {name: value}))
