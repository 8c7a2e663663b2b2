"""The terminal face and the designers' figures."""

from __future__ import annotations

import random

from ludica.bots.random_bot import play_random
from ludica.core import Config, Match
from ludica.games.lost_days import GAME
from ludica.games.lost_days.scenario import act, dice, table


def test_render_shows_the_table_and_hides_nothing_it_should_not() -> None:
    match, ids = table(["Hugo", "Cate", "Martin"], purses={"p2": 2}, memories={"duel": ("p2", 3)}, framer="p2")
    act(match, 'p2 frame_conflict side_a=p2 side_b=opposition stakes="an ambush" staked_memory=none')
    act(match, "p2 agree_stakes", "p1 agree_stakes", f'p2 narrate_memory memory={ids["duel"]} narration="x"')
    act(match, "p1 approve_memory", "p2 done_narrating")
    dice(match, "roll_conflict", [6, 2, 2, 5, 4, 3])
    text = GAME.render(GAME.view(match.state, "p2"))
    assert "Cate (King)" not in text and "Hugo (King)" in text
    assert "I remember duel" in text and "p2 leads by 1" in text


def test_summaries_and_report_name_the_figures_the_designers_want() -> None:
    summaries = []
    for seed in range(3):
        match = Match(GAME, Config(("A", "B", "C"), {}, seed))
        steps = play_random(match, random.Random(seed))
        summaries.append(GAME.summarize(match.state, steps))
    labels = [label for label, _ in GAME.report(summaries)]
    for wanted in ("game length (scenes)", "scene when an elf goes mad", "crown changes per game", "Gini"):
        assert any(wanted in label for label in labels), wanted
    assert all(s["scenes"] >= 1 and 0 <= s["top_memory_share"] <= 1 for s in summaries)
