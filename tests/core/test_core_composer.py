"""The composer (``ludica.core.composer``): every legal action is reachable, nothing illegal is
offered, and no step shows a person a wall of options — along random playthroughs of every game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.bots.random_bot import RandomBot, random_step
from ludica.core.actions import Action, IntRange, Text, fill, matches, sample_text
from ludica.core.composer import PAGE, Composition, choices, completions, largest_step, sections
from ludica.core.match import Match
from ludica.core.registry import GAME_MODULES, get_game
from ludica.lab.playthrough import default_config

GAMES = list(GAME_MODULES)
BOUND = {"great-city": 12, "euthymia": 12, "misery-bubblegum": 12, "lost-days": 12, "euphoria": 23}
"""The widest single step per game over the playthroughs below (Euphoria's action spaces for one
worker are then shown by region, see :func:`sections`)."""


def _typed(spec: Text | IntRange) -> Any:
    return sample_text(spec, random.Random(0)) if isinstance(spec, Text) else spec.lo


def _decisions(game_id: str, seeds: range, steps: int = 300) -> list[tuple[Match[Any], list[Action]]]:
    game = get_game(game_id)
    out = []
    for seed in seeds:
        players = min(4, game.meta.players_max)
        match: Match[Any] = Match(game, default_config(game_id, players, seed))
        rng = random.Random(seed)
        bot = RandomBot(rng)
        for step in range(steps):
            pending = match.pending()
            if pending.is_over:
                break
            if not pending.is_chance and step % 3 == 0:
                for seat in pending.seats:
                    out.append((match, match.legal_actions(seat)))
            random_step(match, bot, rng)
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_action_is_reachable_and_nothing_else(game_id: str) -> None:
    game = get_game(game_id)
    players = min(4, game.meta.players_max)
    for seed in range(2):
        match: Match[Any] = Match(game, default_config(game_id, players, seed))
        rng = random.Random(seed)
        bot = RandomBot(rng)
        for _ in range(250):
            pending = match.pending()
            if pending.is_over:
                break
            if not pending.is_chance:
                for seat in pending.seats:
                    legal = match.legal_actions(seat)
                    offered = [a for c in choices(legal) for a in completions(Composition(c), _typed)]
                    for action in offered:  # nothing illegal offered
                        assert any(matches(t, action) for t in legal), action
                        match.check(action)
                    for template in legal:  # every legal action reachable
                        if not template.is_template:
                            assert template in offered, template
                        else:
                            assert any(matches(template, a) for a in offered), template
            random_step(match, bot, rng)


@pytest.mark.parametrize("game_id", GAMES)
def test_no_wall_of_options(game_id: str) -> None:
    widest = max(largest_step(legal) for _, legal in _decisions(game_id, range(3)))
    assert widest <= BOUND[game_id]


def test_a_pick_narrows_the_next_step() -> None:
    legal = [Action("p1", "set", {"F": f, "S": s}) for f in range(1, 4) for s in range(1, 4) if f + s == 4]
    step = Composition(choices(legal)[0])
    assert step.ask() is not None and step.ask().values == (1, 2, 3)  # type: ignore[union-attr]
    after = step.pick("F", 3)
    assert after.ask() is None
    assert after.action() == Action("p1", "set", {"F": 3, "S": 1})
    with pytest.raises(ValueError, match="not a legal F"):
        step.pick("F", 7)
    assert after.back().picks == ()


def test_fields_are_asked_after_fixed_values_and_checked() -> None:
    legal = [Action("p1", "bid", {"amount": IntRange(1, 5), "text": Text("why")})]
    composition = Composition(choices(legal)[0])
    ask = composition.ask()
    assert ask is not None and ask.values == () and ask.field == IntRange(1, 5)
    with pytest.raises(ValueError):
        composition.pick("amount", 9)
    done = composition.pick("amount", 3).pick("text", "because")
    assert done.action() == Action("p1", "bid", {"amount": 3, "text": "because"})


def test_one_instance_is_one_button() -> None:
    (choice,) = choices([Action("p1", "end_turn")])
    assert choice.single
    assert Composition(choice).action() == Action("p1", "end_turn")


def test_sections_split_a_wide_step_by_group_then_by_page() -> None:
    values = list(range(30))
    assert sections(values[:PAGE]) == [(None, tuple(values[:PAGE]))]
    by_parity = sections(values, lambda v: "even" if v % 2 == 0 else "odd")
    assert [title for title, _ in by_parity] == ["even 1/2", "even 2/2", "odd 1/2", "odd 2/2"]
    assert all(len(page) <= PAGE for _, page in by_parity)
    assert sorted(v for _, page in by_parity for v in page) == values


def test_fill_of_a_composed_template_is_legal() -> None:
    legal = [Action("p1", "speak", {"text": Text("a line", prefix="I remember")})]
    action = fill(Composition(choices(legal)[0]).remaining[0], random.Random(1))
    assert matches(legal[0], action)
