"""The driver's turn order: a seat's lone answer is not its turn (Lost Days' framer is not starved)."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")

from ludica.bots.base import make_bot, situation
from ludica.env.driver import Driver, listed, next_seat, took_turn


def test_a_lone_answer_does_not_count_as_a_turn() -> None:
    last: dict[str, int] = {}
    took_turn(last, "p1", 0, ("p1", "p2"))
    took_turn(last, "p2", 1, ("p2",))  # p2 alone owed this action (an answer)
    assert last == {"p1": 0}
    assert next_seat(("p1", "p2"), last) == "p2"
    took_turn(last, "p2", 2, ("p1", "p2"))
    assert next_seat(("p1", "p2"), last) == "p1"


@pytest.mark.parametrize("seed", [0, 1])
def test_lost_days_games_of_heuristic_bots_end_through_the_driver(seed: int) -> None:
    """Before the fix every such game ran to the cap: the framer answered bystanders' trades and
    never again waited longest, so his scene never ended (docs/env.md)."""
    driver = Driver("lost-days", 3, max_steps=3000, seed=seed)
    bots = {s: make_bot("heuristic", "lost-days", seed * 1000 + i) for i, s in enumerate(driver.seats)}
    while not driver.over and not driver.truncated:
        seat = driver.current()
        assert seat is not None
        driver.apply(bots[seat].decide(situation(driver.match, seat)).as_action())
    assert driver.over and driver.steps < 3000


def test_a_bot_picked_listed_action_goes_in_trusted_and_any_other_is_checked() -> None:
    pig = Driver("pig", 2, seed=0)
    legal = pig.match.legal_actions("p1")
    assert legal and not legal[0].is_template
    assert listed(legal, legal[0])  # the very listed object
    assert not listed(legal, legal[0].with_narration(None))  # equal, not the object itself
    city = Driver("great-city", 3, seed=0)
    templates = city.match.legal_actions("gm")
    assert templates[0].is_template  # its free text written first: checked in full
    assert not listed(templates, templates[0])


@pytest.mark.parametrize("game_id", ["great-city", "euphoria"])
def test_driver_play_gives_the_same_game_as_applying_the_bots_decisions(game_id: str) -> None:
    """``Driver.play`` (a listed pick trusted) makes the very record the full check makes."""
    records = []
    for trusting in (True, False):
        driver = Driver(game_id, 3, seed=5)
        bots = {s: make_bot("heuristic", game_id, i) for i, s in enumerate(driver.seats)}
        for _ in range(150):
            seat = driver.current()
            if seat is None or driver.truncated:
                break
            if trusting:
                driver.play(bots[seat], seat)
            else:
                driver.apply(bots[seat].decide(situation(driver.match, seat)).as_action())
        records.append([a.to_json() for a in driver.match.actions])
    assert records[0] == records[1]


def test_act_if_legal_refuses_an_illegal_index_and_changes_nothing() -> None:
    driver = Driver("great-city", 3, seed=0)
    assert driver.pending == ("gm",)
    mask = driver.mask("gm")
    illegal, legal = int((mask == 0).nonzero()[0][0]), int(mask.nonzero()[0][0])
    assert not driver.act_if_legal("gm", illegal)
    assert not driver.act_if_legal("p1", legal)  # not its decision
    assert driver.steps == 0
    assert driver.act_if_legal("gm", legal)
    assert driver.steps == 1
