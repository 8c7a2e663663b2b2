"""The view's parts worked out once or from tables: the same answers as worked out each time
(the stone signs of a triad, a tie's manner, a tie as the view shows it), along random play."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.bots.base import make_bot, situation
from ludica.core import Config, Match, get_game
from ludica.games.great_city import oracle as O
from ludica.games.great_city.scene import tie_manner_of
from ludica.games.great_city.view import _by_color
from tests.random_play import decisions

GAME = get_game("great-city")


def test_signs_of_the_eight_triads_and_beyond() -> None:
    """Rule: [The Symbolism of the Triads]"""
    for triad in range(8):
        assert O.signs(triad) == format(triad, "03b").replace("1", "+").replace("0", "-")
    assert O.signs(9) == "1001".replace("1", "+").replace("0", "-")


def test_tie_manner_remembered_equals_the_tables() -> None:
    """Rule: R-GC-28"""
    human = sorted(O.HUMAN_TIES)
    for source in human:
        for target in human:
            for sign in ("+", "-"):
                for attitude in (None, "kind", "cruel", "bold"):
                    want = O._tie_manner("human", source, attitude, target, sign)
                    assert O.tie_manner("human", source, attitude, target, sign) == want
                    assert O.tie_manner("human", source, attitude, target, sign) == want  # remembered
    for source, cells in O.INSECT_TIES.items():
        for sign in cells:
            assert O.tie_manner("bug", source, None, "aristocrat", sign) == cells[sign]
    with pytest.raises(KeyError):
        O.tie_manner("bug", "no-such-class", None, "aristocrat", "+")


def test_by_color_is_zip_strict() -> None:
    assert _by_color([1, 0, 2]) == dict(zip(O.COLORS, [1, 0, 2], strict=True))
    with pytest.raises(ValueError):
        _by_color([1, 0])


def test_the_views_ties_and_characters_along_random_play() -> None:
    """Every tie in every seat's view carries its fields and :func:`tie_manner_of`'s manner, and
    each character's vested scarabs by colour, at every step of a random game."""
    match: Match[Any] = Match(GAME, Config(("Ann", "Bob", "Cy"), {}, 3))
    rng = random.Random(3)
    bot = make_bot("heuristic", "great-city", 3)
    ties_seen = 0
    for pending in decisions(match, 600):
        for seat in (*match.state.seats, None):
            view = match.view(seat)
            want = [{**t.to_json(), "manner": tie_manner_of(match.state, t.id)} for t in match.state.ties]
            assert view["ties"] == want
            assert [list(c["vested"]) for c in view["characters"]] == [list(O.COLORS)] * len(view["characters"])
            ties_seen += len(want)
        seat = rng.choice(pending)
        match.apply(bot.decide(situation(match, seat)).as_action())
    assert ties_seen > 0


def test_face_of_peril_of_the_eight_triads() -> None:
    """Rule: R-GC-08"""
    for reduced in range(8):
        want = [O.FACE_OF_PERIL[c] for i, c in enumerate(O.COLORS) if reduced >> (2 - i) & 1]
        got = O.face_of_peril(reduced)
        assert got == want
        got.append("changed")  # a fresh list each time: the table is not the caller's
        assert O.face_of_peril(reduced) == want
    assert O.face_of_peril(0) == []
