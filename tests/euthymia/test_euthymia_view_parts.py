"""The view's per-Aspect tables and the ranking's ties built without ``zip``: the same answers
(and the same error for a sheet of the wrong length)."""

from __future__ import annotations

import pytest

from ludica.core import Config, Match, get_game
from ludica.games.euthymia.drink import MOST_DRINK, first_of
from ludica.games.euthymia.state import ASPECTS
from ludica.games.euthymia.view import _by_aspect


def test_by_aspect_is_zip_strict() -> None:
    for values in (("a", "b", "c", "d"), [3, 1, 4, 1]):
        assert _by_aspect(values) == dict(zip(ASPECTS, values, strict=True))
        assert list(_by_aspect(values)) == list(ASPECTS)
    with pytest.raises(ValueError):
        _by_aspect([1, 2, 3])


def test_first_of_ties_and_single_best() -> None:
    """Rule: R-EU-10"""
    state = Match(get_game("euthymia"), Config(("A", "B", "C", "D"), {}, 0)).state
    state.designation = {}
    assert first_of(state, ["p1", "p2", "p3"], {"p1": 2, "p2": 5, "p3": 5}, MOST_DRINK) == (None, ["p2", "p3"])
    assert first_of(state, ["p1", "p2"], {"p1": 7, "p2": 5}, MOST_DRINK) == ("p1", [])
    state.designation = {MOST_DRINK: ["p3"]}
    assert first_of(state, ["p1", "p2", "p3"], {"p1": 2, "p2": 5, "p3": 5}, MOST_DRINK) == ("p3", [])
    assert first_of(state, [], {}, MOST_DRINK) == (None, [])
