"""The worker pool's ordered map (ludica/workers.py): results in the items' order, items handed out
as results come back (a long tournament makes no futures ahead of its workers)."""

from __future__ import annotations

from collections.abc import Iterator

from ludica.workers import in_order, worker_pool


def square(n: int) -> int:
    return n * n


def test_in_order_keeps_the_items_order() -> None:
    with worker_pool(2) as pool:
        assert list(in_order(pool, square, range(50), ahead=4)) == [n * n for n in range(50)]


def test_in_order_takes_items_only_as_results_come_back() -> None:
    taken: list[int] = []

    def items() -> Iterator[int]:
        for n in range(1_000_000):
            taken.append(n)
            yield n

    with worker_pool(2) as pool:
        results = in_order(pool, square, items(), ahead=3)
        assert [next(results) for _ in range(5)] == [0, 1, 4, 9, 16]
        results.close()
    assert len(taken) <= 5 + 3
