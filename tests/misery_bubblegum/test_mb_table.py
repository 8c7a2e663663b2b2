"""Bad input is refused with a clear reason and no change; views, text face and figures."""

from __future__ import annotations

import random

import pytest

from ludica.bots.random_bot import play_random
from ludica.core import Action, Config, MalformedAction, Match, NotYourDecision
from ludica.core.match import canonical_json
from ludica.games.misery_bubblegum import GAME


@pytest.mark.parametrize(
    "text",
    [
        "p1 no_such_action",
        "p1 call_action pool=passion challenge=3 dice=1",  # missing intent
        "p1 call_action pool=passion challenge=3 dice=1 intent=x extra=1",
        'p1 call_action pool=passion challenge="3" dice=1 intent=x',
        "p1 call_action pool=passion challenge=true dice=1 intent=x",
        "p1 call_action pool=7 challenge=3 dice=1 intent=x",
        'p1 call_action pool=passion challenge=3 dice=1 intent=""',
        "p1 end_game now=1",
    ],
)
def test_malformed_actions_are_refused(table, text) -> None:
    t = table()
    before = canonical_json(GAME.to_position(t.state))
    with pytest.raises(MalformedAction) as info:
        t.act(text)
    assert info.value.reason and info.value.rule
    assert canonical_json(GAME.to_position(t.state)) == before


def test_wrong_seat_and_wrong_phase_are_refused(table) -> None:
    t = table()
    t.act("p1 call_action pool=passion challenge=3 dice=1 intent=act")
    with pytest.raises(NotYourDecision):
        t.act("p1 pass_opposition")
    t.refused("p2 call_action pool=passion challenge=3 dice=1 intent=act")
    t.refused("p2 reclaim reclaim_count=1", "phases")


def test_chance_step_shape_is_checked(table) -> None:
    t = table()
    t.act("p1 call_action pool=passion challenge=3 dice=2 intent=act")
    t.act("p2 pass_opposition")
    t.act("gm pass_opposition")
    for bad in ([1], [1, 2, 3], [0, 7], ["a", 1]):
        with pytest.raises(MalformedAction):
            t.match.apply(Action("chance", "roll_action", {"dice": bad}))
    with pytest.raises(MalformedAction):
        t.match.apply(Action("chance", "reroll", {"dice": [1, 2]}))
    t.roll(3, 4)


def test_reclaim_parameters_follow_the_arrow(table) -> None:
    t = table()
    t.unopposed("p1", "passion", 6, 2, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.act("p1 end_meaning")
    with pytest.raises(MalformedAction):
        t.act("p1 reclaim reclaim_count=1")  # self: the count is fixed by the rule
    t.act("p1 reclaim")


def test_everything_is_public(table) -> None:
    """Spec §1.7: every seat and a spectator see the same table."""
    t = table()
    t.unopposed("p1", "passion", 6, 2, 1, 1)
    views = [GAME.view(t.state, s) for s in ("p1", "p2", "gm", None)]
    stripped = [{k: v for k, v in view.items() if k != "you"} for view in views]
    assert all(v == stripped[0] for v in stripped)
    assert GAME.secrets(t.state) == []


def test_render_shows_the_sheets_and_the_action(table) -> None:
    t = table(("Jesse", "Other"))
    t.give_trait("t9", "p1", "p2", 3, "Smart enough to know better")
    t.act('p1 call_action pool=confidence challenge=4 dice=4 intent="climbs the wall"')
    text = GAME.render(GAME.view(t.state, "p1"))
    assert "Jesse" in text and "Smart enough to know better" in text and "climbs the wall" in text


def test_summaries_and_report() -> None:
    summaries = []
    for seed in range(6):
        match = Match(GAME, Config(("A", "B", "C"), {"session_actions": 8}, seed))
        steps = play_random(match, random.Random(seed))
        summaries.append(GAME.summarize(match.state, steps))
    labels = [label for label, _ in GAME.report(summaries)]
    assert "Misery over time (table)" in labels and "who holds whose dice (holder>colour: total)" in labels
    assert all(isinstance(s["misery_by_action"], list) for s in summaries)
