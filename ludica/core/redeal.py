"""Helpers for a game's *redeal* (:meth:`ludica.core.game.Game.redeal`), written once.

A redeal makes a state one seat cannot tell apart from the true one, with everything hidden from
that seat drawn again. Search bots call it to imagine the rest of the table, and the
non-interference test demands that what they imagine depends only on what the seat may see.
Hence the one rule every helper here follows: **the result is a function of what the seat knows
and of the generator, never of the true hidden values**. Hidden values are gathered, *sorted*
(so their true arrangement is forgotten), shuffled with the generator and dealt back into the
same places.

>>> import random
>>> hands = {"p1": ["a", "b"], "p2": ["c"], "p3": ["d", "e"]}
>>> deck = ["f", "g"]
>>> places = [hands["p2"], hands["p3"], deck]
>>> deal_unseen(places, random.Random(1))
>>> sorted(hands["p2"] + hands["p3"] + deck), len(hands["p2"]), len(deck)
(['c', 'd', 'e', 'f', 'g'], 1, 2)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .mechanisms.sealed import SealedChoices


def deal_unseen(places: Sequence[list[Any]], rng: random.Random) -> None:
    """Gather every item of ``places`` (lists changed in place: hands, decks, face-down piles),
    shuffle them and deal them back, each list keeping its length.

    ``places`` must be given in an order that does not depend on hidden values (seat order, then
    the decks), and the items must be sortable; the items' true arrangement is forgotten.
    """
    pool = sorted(item for place in places for item in place)
    rng.shuffle(pool)
    start = 0
    for place in places:
        n = len(place)
        place[:] = pool[start : start + n]
        start += n


def redraw_sealed(
    sealed: SealedChoices,
    seat: str | None,
    options: Callable[[str], Sequence[Any]],
    rng: random.Random,
) -> None:
    """Redraw, in place, every sealed choice not yet revealed that ``seat`` did not make itself:
    each from ``options(other seat)`` (the values that seat could have committed), uniformly.

    Who has committed stays as it is (that is public); only the values change.
    """
    if sealed.revealed:
        return
    for other in sealed.seats:
        if other != seat and other in sealed.choices:
            choices = list(options(other))
            sealed.choices[other] = choices[rng.randrange(len(choices))]


def split_total(total: int, parts: int, rng: random.Random, *, minimum: Iterable[int] = ()) -> list[int]:
    """``total`` split into ``parts`` non-negative whole parts, uniformly over all splits, each at
    least its ``minimum`` (stars and bars). Used to redraw hidden amounts whose sum is known.

    >>> split_total(7, 3, random.Random(0), minimum=[1, 0, 2])
    [4, 1, 2]
    """
    if parts <= 0:
        return []
    mins = list(minimum)
    mins += [0] * (parts - len(mins))
    free = total - sum(mins)
    if free < 0:
        raise ValueError(f"cannot split {total} into parts of at least {mins}")
    bars = sorted(rng.sample(range(free + parts - 1), parts - 1))
    cuts = [-1, *bars, free + parts - 1]
    return [cuts[i + 1] - cuts[i] - 1 + mins[i] for i in range(parts)]
