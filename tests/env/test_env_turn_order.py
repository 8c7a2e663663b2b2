"""The driver's turn order: a seat's lone answer is not its turn (Lost Days' framer is not starved)."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")

from ludica.bots.base import make_bot, situation
from ludica.env.driver import Driver, next_seat, took_turn


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
