"""Bad input is refused with a clear message naming the rule, and changes nothing."""

from __future__ import annotations

import pytest

from ludica.core import Action, IllegalAction, MalformedAction
from ludica.games.euthymia import GAME

HANDS = {
    "p1": ["KC", "5H", "6H", "7H", "8H", "9H"],
    "p2": ["2C", "JS", "2D", "3D", "4D", "5D"],
    "p3": ["3C", "3S", "9S", "6D", "7D", "8D"],
}


@pytest.fixture
def turn(table):
    t = table(3)
    t.first_hour(black="p2")
    t.start_hour(HANDS)
    t.start_turn({"p1": "KC", "p2": "2C", "p3": "3C"})
    t.pour({"p2": 5, "p3": 2})
    return t


@pytest.mark.parametrize(
    "action",
    [
        Action("p1", "fly_away"),
        Action("p1", "pour", {"target": "p2"}),
        Action("p1", "pour", {"target": "p2", "units": 1, "colour": "red"}),
        Action("p1", "pour", {"target": "p2", "units": "two"}),
        Action("p1", "pour", {"target": "p2", "units": True}),
        Action("p1", "launch_conflict", {"launch_type": "WANT", "aspect": "LOVE", "medication": "no", "text": "x"}),
        Action("p2", "drink", {"units": 1.5}),
    ],
)
def test_malformed_actions(turn, action):
    before = turn.position()
    with pytest.raises(MalformedAction) as err:
        turn.match.apply(action)
    assert err.value.reason and err.value.rule == "actions"
    assert turn.position() == before


@pytest.mark.parametrize(
    ("action", "rule", "words"),
    [
        (Action("p2", "drink", {"units": 6}), "R-EU-08", "holds 5"),
        (Action("p1", "pour", {"target": "p3", "units": 9}), "R-EU-08", "room for 8"),
        (Action("p1", "pour", {"target": "p9", "units": 1}), "R-EU-09", "not a player"),
        (
            Action(
                "p3",
                "launch_conflict",
                {"launch_type": "TEMPTED", "aspect": "LOVE", "medication": False, "text": "You must be tempted"},
            ),
            "R-EU-12",
            "most drink",
        ),
        (
            Action(
                "p1", "launch_conflict", {"launch_type": "DEMAND", "aspect": "LOVE", "medication": False, "text": "x"}
            ),
            "R-EU-21",
            "launched as",
        ),
        (
            Action(
                "p1", "launch_conflict", {"launch_type": "WANT", "aspect": "HOPE", "medication": False, "text": "x"}
            ),
            "R-EU-21",
            "Aspect",
        ),
        (Action("p1", "play_conflict_card", {"card": "5H"}), "R-EU-14", "no Conflict"),
        (Action("p2", "declare_more_cards"), "R-EU-24", "Active Player"),
        (Action("p1", "start_hour"), "seats", "group"),
        (Action("table", "drink", {"units": 1}), "seats", "table seat"),
    ],
)
def test_illegal_actions_name_their_rule(turn, action, rule, words):
    before = turn.position()
    with pytest.raises(IllegalAction) as err:
        GAME.check(turn.state, action)
    assert err.value.rule == rule and words in err.value.reason, err.value
    assert err.value.section
    assert turn.position() == before


def test_a_seat_that_is_not_asked_is_refused(turn):
    before = turn.position()
    with pytest.raises(IllegalAction):
        turn.do("p3", "commit_start_card", card="3S")
    assert turn.position() == before


def test_a_refused_chance_step_changes_nothing(table):
    t = table(3)
    t.first_hour(black="p2")
    t.do("table", "start_hour")
    before = t.position()
    with pytest.raises(IllegalAction):
        t.chance("shuffle_and_deal", order=[0, 1, 2])
    with pytest.raises(IllegalAction):
        t.chance("reshuffle", order=list(range(52)))
    assert t.position() == before


def test_after_the_game_nothing_is_accepted(table):
    from ludica.games.euthymia.state import GAME_OVER

    t = table(3)
    t.state.phase = GAME_OVER
    t.state.touch()
    assert t.match.pending().is_over
    with pytest.raises(IllegalAction):
        GAME.check(t.state, Action("table", "start_hour"))
