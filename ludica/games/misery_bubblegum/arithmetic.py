"""The dice arithmetic of the draft, as pure functions (the counts of [Getting things done]).

>>> lowered_trait_value(5, [4, 3, 3, 3])   # Jane's "Quick temper": 13 against 5
2
>>> minimal_wipe_subsets(2, [1, 2, 4, 6])  # Ed's "Not too smart"
[(1, 2), (4,), (6,)]
>>> raised_threat_value(6, [4, 5])         # Troy spends two Misery dice on his Threat
7
>>> reclaim_split("self", rating=2, left_in_pool=1, rolled=5, extras=0)  # Joe, Threat on himself
(1, 4, 0)
"""

from __future__ import annotations

from collections import Counter
from itertools import product


def wipe_threshold(value: int) -> int:
    """The total that takes a Trait of ``value`` down to nothing: v + (v-1) + ... + 1 (MB-R16)."""
    return value * (value + 1) // 2


def lowered_trait_value(value: int, faces: list[int]) -> int:
    """Misery on a Trait: subtract the current value and lower it by one, while the total allows.

    [Misery]; the comparison is "at least" (MB-R16: the Ed example contradicts "greater").
    Returns 0 when the Trait is wiped out.
    """
    total = sum(faces)
    while value > 0 and total >= value:
        total -= value
        value -= 1
    return value


def raised_threat_value(value: int, faces: list[int]) -> int:
    """Misery on a Threat: the same loop, but the value rises (MB-R48) [Threats]."""
    total = sum(faces)
    while total >= value:
        total -= value
        value += 1
    return value


def minimal_wipe_subsets(value: int, faces: list[int]) -> list[tuple[int, ...]]:
    """Every minimal choice of Misery dice (as sorted faces) that wipes out a Trait (MB-R16).

    "Any dice that must be left out of the total are returned to the Misery pool" [Misery]: the
    spender keeps only dice needed to reach the wipe threshold; removing any one falls short.
    """
    need = wipe_threshold(value)
    counts = sorted(Counter(faces).items())
    out: list[tuple[int, ...]] = []
    for taken in product(*(range(n + 1) for _, n in counts)):
        chosen = tuple(f for (f, _), k in zip(counts, taken, strict=True) for _ in range(k))
        total = sum(chosen)
        if chosen and total >= need and total - chosen[0] < need:
            out.append(chosen)
    return sorted(out)


def is_minimal_wipe_subset(value: int, chosen: list[int]) -> bool:
    need = wipe_threshold(value)
    total = sum(chosen)
    return bool(chosen) and total >= need and all(total - d < need for d in chosen)


def reclaim_split(
    orientation: str, *, rating: int, left_in_pool: int, rolled: int, extras: int, reclaim_count: int | None = None
) -> tuple[int, int, int]:
    """(to Misery, reclaimed, extra Misery taken from Spare) for one player [What does it mean?].

    ``others``: reclaim up to the rating, the rest to Misery. ``self``: the rating minus the dice
    left in the pool goes to Misery, the rest is reclaimed (Joe's example; MB-R34). Extras
    (unmatched aid dice, kept Desires) come from the reclaimed dice first, then from Spare
    (MB-R29, MB-R30); the last figure is how many are still owed to Spare.
    """
    if orientation == "others":
        reclaimed = min(rating, rolled) if reclaim_count is None else reclaim_count
        misery = rolled - reclaimed
    else:
        misery = min(max(0, rating - left_in_pool), rolled)
        reclaimed = rolled - misery
    moved = min(extras, reclaimed)
    return misery + moved, reclaimed - moved, extras - moved
