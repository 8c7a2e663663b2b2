"""What Euthymia's options say they do, in the book's words: a character written, a glass drunk
from or poured into (units before and after), not the view's bare leaves."""

from __future__ import annotations

import random
from typing import Any

from ludica.core import Config, Match, get_game
from ludica.core.actions import fill
from ludica.core.names import namer_of
from tests.random_play import decisions


def said_along_play(kinds: set[str], seed: int = 0, steps: int = 400) -> dict[str, list[str]]:
    """The consequence said of each option of ``kinds`` met along seeded random play."""
    match: Match[Any] = Match(get_game("euthymia"), Config(("Ann", "Bob", "Cat"), {}, seed))
    rng = random.Random(seed)
    said: dict[str, list[str]] = {k: [] for k in kinds}
    for seats in decisions(match, steps):
        seat = rng.choice(seats)
        legal = match.legal_actions(seat)
        namer = namer_of(match, seat)
        for action in legal:
            if action.type in kinds and len(said[action.type]) < 3:
                said[action.type].append(namer.consequence(action) or "")
        match.apply(fill(rng.choice(legal), rng))
    return said


def test_writing_a_character_and_drinking_are_said_as_the_book_says_them() -> None:
    said = said_along_play({"create_character", "drink", "divide_bottle"})
    assert said["create_character"] and all(s.startswith("you write your character") for s in said["create_character"])
    assert said["drink"] and all("your glass: " in s and " units" in s for s in said["drink"])
    assert said["divide_bottle"] and all("glass: " in s for s in said["divide_bottle"])
    assert not any("players +1" in s or "glass −1" in s for texts in said.values() for s in texts)
