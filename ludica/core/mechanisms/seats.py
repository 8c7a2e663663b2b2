"""Seat order helpers: clockwise order, who is next, who sits to the left.

>>> clockwise_from(("a", "b", "c", "d"), "c")
('c', 'd', 'a', 'b')
>>> next_seat(("a", "b", "c"), "c")
'a'
>>> next_seat(("a", "b", "c"), "a", skip={"b"})
'c'
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def clockwise_from(order: Sequence[str], start: str) -> tuple[str, ...]:
    """The seats in clockwise order beginning with ``start``."""
    i = list(order).index(start)
    return tuple(order[i:]) + tuple(order[:i])


def next_seat(order: Sequence[str], seat: str, *, skip: Collection[str] = ()) -> str:
    """The next seat clockwise (to the left) of ``seat``, passing over ``skip``."""
    ring = (*clockwise_from(order, seat)[1:], seat)
    for candidate in ring:
        if candidate not in skip:
            return candidate
    raise ValueError("every seat is skipped")


def previous_seat(order: Sequence[str], seat: str, *, skip: Collection[str] = ()) -> str:
    """The previous seat (to the right) of ``seat``, passing over ``skip``."""
    return next_seat(tuple(reversed(order)), seat, skip=skip)
