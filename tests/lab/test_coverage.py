"""Coverage as a lab figure: every game's declared mechanics name its public actions and options,
a batch's records count them as the actions are counted, and the coverage lines and warnings
name what the bots never reach."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ludica.core import get_game
from ludica.core.registry import GAME_MODULES
from ludica.lab.batch import Batch, play_game
from ludica.lab.coverage import coverage_line, coverage_rows, coverage_warnings, house_rule_warnings
from ludica.lab.mechanics import mechanics_of, parse

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


@pytest.mark.parametrize("game_id", sorted(GAME_MODULES))
def test_every_declared_mechanic_names_public_actions_and_options(game_id: str) -> None:
    declared = mechanics_of(game_id)
    assert declared.patterns, f"{game_id} declares no mechanics"
    text = (DOCS / f"{game_id}.md").read_text(encoding="utf-8")
    vocabulary = set(re.findall(r"`([a-z_]+)", text))
    for name, patterns in declared.patterns.items():
        for kind, params in patterns:
            assert kind in vocabulary, f"{game_id}: {name!r} names {kind!r}, not an action of docs/rules"
            assert all(re.search(rf"\b{key}\b", text) for key, _ in params), f"{game_id}: {name!r}: {params}"
    options = {o.name for o in get_game(game_id).meta.options}
    for option, touched in declared.options.items():
        assert option in options, f"{game_id}: no option {option!r}"
        assert set(touched) <= set(declared.patterns), f"{game_id}: {option} touches undeclared {touched}"


def test_patterns_parse() -> None:
    assert parse("flip source=free_scarab") == ("flip", (("source", "free_scarab"),))
    assert parse("use_trait") == ("use_trait", ())


@pytest.mark.parametrize("game_id", ["misery-bubblegum", "lost-days"])
def test_a_record_counts_each_mechanic_as_its_actions(game_id: str) -> None:
    batch = Batch(game_id, ("Ann", "Bob", "Cat"), bots={"*": "heuristic"}, games=1, seed=2)
    record = play_game(batch, 0)
    declared = mechanics_of(game_id)
    assert record["mechanics_taken"], "the heuristic takes some declared mechanic"
    for name, patterns in declared.patterns.items():
        if all(not params for _, params in patterns):  # a mechanic of whole action types
            kinds = [kind for kind, _ in patterns]
            assert record["mechanics_taken"].get(name, 0) == sum(record["actions_taken"].get(k, 0) for k in kinds)
            assert record["mechanics_offered"].get(name, 0) <= sum(record["actions_offered"].get(k, 0) for k in kinds)


def _record(taken: dict[str, int], offered: dict[str, int], mechanics: dict[str, int]) -> dict[str, Any]:
    return {
        "actions_offered": offered,
        "actions_taken": taken,
        "mechanics_offered": dict.fromkeys(mechanics, 5),
        "mechanics_taken": mechanics,
    }


def test_coverage_names_what_random_play_takes_and_the_bots_never_do() -> None:
    bots = [_record({"reclaim": 3}, {"reclaim": 3, "unselect_die": 2}, {"Trait offered": 1}) for _ in range(4)]
    random = [_record({"reclaim": 1, "unselect_die": 1, "use_trait": 1}, {}, {"Trait reroll": 1}) for _ in range(2)]
    line = coverage_line(bots, random)
    assert line == (
        "Action types taken: 1 of the 3 random play takes (33%); never legal here: use_trait; "
        "legal, never taken: unselect_die."
    )
    _, rows = coverage_rows(bots, random, mechanics_of("misery-bubblegum").patterns)
    assert (
        rows[0][0] == "mechanic: Trait reroll" and rows[0][2] == "0 (in 0 of 4 games)" and rows[0][3] == "2 (in 2 of 2)"
    )
    (warning,) = coverage_warnings(bots, random, "misery-bubblegum")
    assert warning.kind == "mechanic never taken" and "'Trait reroll' (legal at 0)" in warning.message


def test_a_house_rule_whose_mechanics_never_came_into_play_is_named() -> None:
    a = [_record({}, {}, {"Trait offered": 2}) for _ in range(3)]
    b = [_record({}, {}, {}) for _ in range(3)]
    (warning,) = house_rule_warnings("misery-bubblegum", ["trait_reroll_scope", "gm_max_dice"], [("A", a), ("B", b)])
    assert warning.kind == "change never came into play"
    assert warning.message.startswith("trait_reroll_scope touches 'Trait reroll' (legal at 0 decisions)")
    (partly,) = house_rule_warnings("misery-bubblegum", ["max_traits"], [("A", a), ("B", b)])
    assert "'Trait increased'" in partly.message and "'Trait offered'" not in partly.message  # reached in A
    assert house_rule_warnings("misery-bubblegum", ["gm_max_dice"], [("A", a), ("B", b)]) == []  # touches none
