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


def test_a_memory_card_s_view_is_always_fresh_and_always_current() -> None:
    """Each card remembers what it showed last (the views of a long game are cheaper); along random
    play its view still equals one built from scratch (a copy of the state, whose cards remember
    nothing), and a caller that changes a view it was given changes no later view."""
    from ludica.bots.random_bot import walk_random

    match = Match(GAME, Config(("A", "B", "C"), {}, 5))
    compared = 0
    for steps in walk_random(match, random.Random(5), check=False):
        if steps > 600:
            break
        if steps % 3:
            continue
        given = GAME.view(match.state, "p1")
        for card in given["memories"]:  # a careless caller scribbles on what it was given
            card["value"], card["owner"] = -1, "nobody"
        again = GAME.view(match.state, "p1")
        assert again == GAME.view(match.state.copy(), "p1")
        assert all(card["value"] >= 0 for card in again["memories"])
        compared += len(again["memories"])
    assert compared > 500, "the game wrote memories and they changed hands"
    assert all(m.shown is None for m in match.state.copy().memories.values()), "a copy's cards start afresh"
