"""Issue 14 (hardening), point 13: a refusal names the rule that forbids the action, also for a
seat the game is not waiting for (``Match.check`` asks ``Game.explain_refusal`` before the turn
order)."""

from __future__ import annotations

import pytest

from ludica.core import Action, IllegalAction, NotYourDecision
from ludica.games.euthymia import flow

HANDS = {
    "p1": ["KC", "5H", "6H", "7H", "8H", "9H"],
    "p2": ["2C", "JS", "2D", "3D", "4D", "5D"],
    "p3": ["3C", "QS", "6D", "7D", "8D", "9D"],
    "p4": ["4C", "KD", "10D", "10C", "9C", "8C"],
}
STARTS = {"p1": "KC", "p2": "2C", "p3": "3C", "p4": "4C"}


def at_turn(table, levels):
    """Hour 2, four players, p1 the Active Player, p4 the Committee Member, glasses at ``levels``."""
    t = table(4)
    t.first_hour(black="p4")
    t.start_hour(HANDS)
    t.start_turn(STARTS)
    assert t.state.active_player == "p1"
    t.pour(levels)
    return t


def refused(t, seat, kind, rule, words, **args):
    """Refused through the match (as every front end asks), naming ``rule``; nothing changes."""
    before = t.position()
    with pytest.raises(IllegalAction) as err:
        t.match.apply(Action(seat, kind, args))
    assert err.value.rule == rule and words in err.value.reason, err.value
    assert err.value.section
    assert t.position() == before
    return err.value


@pytest.fixture
def conflict(table):
    """A Conflict with its order fixed (p2, p3, p4): the Active Player p1 is not asked."""
    t = at_turn(table, {"p2": 3, "p3": 2})
    t.launch("p1", "WANT", "SPEAK")
    assert t.state.conflict.order == ["p2", "p3", "p4"]
    assert "p1" not in t.match.pending().seats and "p4" not in t.match.pending().seats
    return t


@pytest.fixture
def tied_conflict(table):
    """A Conflict launched with p2 and p3 equally full: the Active Player must say who is first."""
    t = at_turn(table, {"p2": 3, "p3": 3})
    t.launch("p1", "WANT", "SPEAK")
    assert not t.state.conflict.order and "p4" not in t.match.pending().seats
    return t


def test_point13_a_pour_during_a_conflict_names_r_eu_09(conflict):
    err = refused(conflict, "p1", "pour", "R-EU-09", "until the Conflict is resolved", target="p4", units=1)
    assert not isinstance(err, NotYourDecision)


def test_point13_a_proposal_during_a_conflict_names_r_eu_07(conflict):
    refused(conflict, "p4", "propose_cm_change", "R-EU-07", "Conflict")


def test_point13_a_proposal_after_the_reveal_names_r_eu_07(table):
    t = at_turn(table, {"p2": 3, "p3": 2})
    t.state.cm_revealed = True
    t.state.touch()
    assert "p4" not in t.match.pending().seats
    refused(t, "p4", "propose_cm_change", "R-EU-07", "revealed")
    refused(t, "p2", "propose_cm_change", "R-EU-07", "revealed")  # p2 may drink: asked, same rule


def test_point13_a_designation_by_the_wrong_player_names_r_eu_10(tied_conflict):
    refused(
        tied_conflict,
        "p4",
        "designate_drink_order",
        "R-EU-10",
        "Active Player",
        context="conflict_order",
        ordered_players=["p2"],
    )


def test_point13_a_two_player_designation_says_one_player_per_action(tied_conflict):
    err = refused(
        tied_conflict,
        "p1",
        "designate_drink_order",
        "R-EU-10",
        "one player",
        context="conflict_order",
        ordered_players=["p2", "p3"],
    )
    assert "no such tie" not in err.reason


def test_point13_a_pour_before_the_final_division_says_divide_first(table):
    t = at_turn(table, {"p2": 3, "p3": 2})
    st = t.state
    st.final_round_active, st.dividing, st.turn_kind = True, True, "FINAL"
    st.touch()
    assert st.bottle_units > 0
    err = refused(t, "p1", "pour", "R-EU-27", "divide", target="p4", units=1)
    assert "has been divided" not in err.reason


def test_point13_a_launch_in_the_reveal_turn_names_r_eu_30(table):
    t = at_turn(table, {"p2": 3, "p3": 2})
    t.state.hour = 9
    flow.begin_cm_reveal(t.state, [])
    t.state.touch()
    assert t.match.pending().seats == ("p4",)
    for launch_type, seat in (("WANT", "p4"), ("TEMPTED", "p2")):
        refused(
            t,
            seat,
            "launch_conflict",
            "R-EU-30",
            "no Conflict",
            launch_type=launch_type,
            aspect="LOVE",
            medication=False,
            text="I want",
        )
