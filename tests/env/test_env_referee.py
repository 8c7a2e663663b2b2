"""The Great City's GM, the AEC environment's referee bot: its reactions and distributions read
the few public facts they need from the state (``Situation.read``), and decide as from the view."""

from __future__ import annotations

import random

import pytest

from ludica.bots.base import Situation, make_bot, situation
from ludica.bots.heuristic import find_plugin
from ludica.env.driver import Driver

STATE_READ = {"accept_judgment", "end_distribution"}


@pytest.mark.parametrize("seed", [0, 3])
def test_great_city_decisions_from_the_state_are_those_from_the_view(seed: int) -> None:
    driver = Driver("great-city", 3, seed=seed, max_steps=1500)
    plugin = find_plugin("great-city")
    assert plugin is not None
    bots = {s: make_bot("heuristic", "great-city", seed + i) for i, s in enumerate(driver.seats)}
    compared = without_view = 0
    while not driver.over and not driver.truncated:
        seat = driver.current()
        assert seat is not None
        lazy = situation(driver.match, seat)
        if STATE_READ & {a.type for a in lazy.legal}:
            eager = Situation(driver.game, seat, driver.match.view(seat), lazy.legal, lazy.step)  # no state
            assert plugin(lazy, random.Random(compared)) == plugin(eager, random.Random(compared))
            without_view += lazy._view is None
            compared += 1
        driver.play(bots[seat], seat)
    assert compared >= 10 and without_view >= 1
