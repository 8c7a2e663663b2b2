"""Shared mechanisms refuse impossible changes before changing anything."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludica.core import IllegalAction
from ludica.core.mechanisms import (
    Card,
    Deck,
    Proposal,
    Purses,
    Referee,
    SealedChoices,
    clockwise_from,
    d8_face,
    next_seat,
    previous_seat,
    standard_deck,
)


@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("abc"), st.integers(0, 5)), max_size=30))
def test_purses_conserve_tokens_and_never_go_negative(moves: list[tuple[str, str, int]]) -> None:
    p = Purses({"a": 5, "b": 5, "c": 5})
    for giver, receiver, n in moves:
        before = dict(p.counts)
        try:
            p.transfer(giver, receiver, n)
        except IllegalAction:
            assert p.counts == before
        assert p.total() == 15
        assert all(v >= 0 for v in p.counts.values())


def test_standard_deck_and_cards() -> None:
    deck = standard_deck()
    assert len(deck) == 52 == len(set(deck))
    assert Card.parse("KH").is_face and not Card.parse("10D").is_face
    with pytest.raises(IllegalAction):
        Card.parse("1X")
    d = Deck(deck)
    with pytest.raises(IllegalAction):
        d.draw(53)
    with pytest.raises(IllegalAction):
        d.shuffle([0, 0])


def test_seats() -> None:
    order = ("p1", "p2", "p3")
    assert clockwise_from(order, "p2") == ("p2", "p3", "p1")
    assert previous_seat(order, "p1") == "p3"
    assert next_seat(order, "p1", skip={"p2", "p3"}) == "p1"


def test_sealed_proposal_referee_refusals() -> None:
    s = SealedChoices(("a", "b"))
    s.commit("a", 1)
    with pytest.raises(IllegalAction):
        s.commit("a", 2)
    with pytest.raises(IllegalAction):
        s.reveal()
    p = Proposal("a", "stakes", ("b", "c"))
    p.answer("b", False)
    assert p.status == "rejected"
    with pytest.raises(IllegalAction):
        p.answer("c", True)
    r = Referee("king")
    with pytest.raises(IllegalAction):
        r.settle("king", "yes")
    r.ask("tie", "who wins?", ["a", "b"])
    with pytest.raises(IllegalAction):
        r.settle("a", "a")
    assert d8_face(1) == (0, True) and d8_face(7) == (1, False)
