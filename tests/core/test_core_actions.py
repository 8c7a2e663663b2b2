"""Actions as values with a one-line notation (python-chess's UCI)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludica.core import Action, IntRange, MalformedAction, Text, fill, matches

json_scalars = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=12)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(min_size=1, max_size=5), inner, max_size=3),
    max_leaves=8,
)
names = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)


@given(
    seat=names,
    kind=names,
    args=st.dictionaries(names, json_values, max_size=4),
    narration=st.none() | st.text(min_size=1, max_size=30).filter(lambda t: "\n" not in t and " -- " not in t),
)
def test_notation_round_trips(seat: str, kind: str, args: dict, narration: str | None) -> None:
    action = Action(seat, kind, args, narration)
    assert Action.parse(action.notation()) == action
    assert Action.from_json(action.to_json()) == action
    assert hash(Action.parse(action.notation())) == hash(action)


def test_notation_is_readable() -> None:
    a = Action("p1", "flip", {"position": 2, "source": "free_scarab"}, "I pay the guard")
    assert a.notation() == "p1 flip position=2 source=free_scarab -- I pay the guard"
    assert Action.parse('p2 name_character name="Leander Oke"').args == {"name": "Leander Oke"}


@pytest.mark.parametrize("text", ["", "p1", "p1 act novalue", "p1 act x=[1,"])
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(MalformedAction):
        Action.parse(text)


@pytest.mark.parametrize(
    "data", [None, [], {"seat": "p1"}, {"seat": "p1", "type": "x", "args": 3}, {"seat": "p1", "type": "x", "zz": 1}]
)
def test_bad_json_is_refused(data: object) -> None:
    with pytest.raises(MalformedAction):
        Action.from_json(data)


def test_templates_are_filled_and_matched() -> None:
    template = Action("p1", "give", {"to": "p2", "n": IntRange(1, 3), "why": Text("a reason", max_len=40)})
    assert template.is_template
    action = fill(template, random.Random(1))
    assert not action.is_template and matches(template, action)
    assert 1 <= action.args["n"] <= 3
    assert not matches(template, Action("p1", "give", {"to": "p2", "n": 4, "why": "x"}))
    assert not matches(template, Action("p1", "give", {"to": "p3", "n": 1, "why": "x"}))
    assert not matches(template, Action("p1", "give", {"to": "p2", "n": 1}))


def test_matching_is_strict_about_types() -> None:
    template = Action("p1", "flip", {"position": 1, "ops": [1, {"a": 2}]})
    assert matches(template, Action("p1", "flip", {"position": 1, "ops": [1, {"a": 2}]}))
    assert not matches(template, Action("p1", "flip", {"position": True, "ops": [1, {"a": 2}]}))
    assert not matches(template, Action("p1", "flip", {"position": 1.0, "ops": [1, {"a": 2}]}))
    assert not matches(template, Action("p1", "flip", {"position": 1, "ops": [True, {"a": 2}]}))
    prefixed = Action("p1", "write", {"text": Text("a memory", prefix="I remember")})
    assert matches(prefixed, Action("p1", "write", {"text": "I remember the river"}))
    assert not matches(prefixed, Action("p1", "write", {"text": "The river"}))
    assert fill(prefixed, random.Random(3)).args["text"].startswith("I remember ")
