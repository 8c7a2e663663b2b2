"""Token purses and transfers: named holders of counted tokens, never below zero.

A :class:`Purses` keeps counts of one kind of token (scarabs, coins, drink units) per holder
(a seat, "ante", "pool", "bank"...). A transfer checks the giver can pay before anything moves.
The optional ``bank`` is an unlimited source and sink.

>>> p = Purses({"p1": 3, "ante": 0}, bank="bank")
>>> p.transfer("p1", "ante", 2)
>>> p["p1"], p["ante"]
(1, 2)
>>> p.transfer("bank", "p1", 5); p["p1"]
6
>>> p.transfer("p1", "ante", 9)
Traceback (most recent call last):
...
ludica.core.errors.IllegalAction: p1 has 6, cannot pay 9 [purse]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..errors import IllegalAction


class Purses:
    __slots__ = ("bank", "counts", "rule")

    def __init__(self, counts: Mapping[str, int] | None = None, *, bank: str | None = None, rule: str = "purse"):
        self.counts: dict[str, int] = dict(counts or {})
        self.bank = bank
        self.rule = rule

    def __getitem__(self, holder: str) -> int:
        return self.counts.get(holder, 0)

    def __iter__(self) -> Iterator[str]:
        return iter(self.counts)

    def can_pay(self, holder: str, n: int) -> bool:
        return holder == self.bank or self[holder] >= n

    def require(self, holder: str, n: int, *, rule: str | None = None, section: str | None = None) -> None:
        """Raise :class:`IllegalAction` unless ``holder`` can pay ``n``."""
        if n < 0:
            raise IllegalAction(f"cannot move a negative amount ({n})", rule=rule or self.rule, section=section)
        if not self.can_pay(holder, n):
            raise IllegalAction(f"{holder} has {self[holder]}, cannot pay {n}", rule=rule or self.rule, section=section)

    def transfer(self, giver: str, receiver: str, n: int, *, rule: str | None = None) -> None:
        """Move ``n`` tokens from ``giver`` to ``receiver`` (checked first)."""
        self.require(giver, n, rule=rule)
        if giver != self.bank:
            self.counts[giver] = self[giver] - n
        if receiver != self.bank:
            self.counts[receiver] = self[receiver] + n

    def take_up_to(self, giver: str, receiver: str, n: int) -> int:
        """Move as many as ``giver`` has, up to ``n``; return how many moved."""
        moved = n if giver == self.bank else min(n, self[giver])
        self.transfer(giver, receiver, moved)
        return moved

    def total(self) -> int:
        """All tokens outside the bank (for conservation checks)."""
        return sum(v for k, v in self.counts.items() if k != self.bank)

    def copy(self) -> Purses:
        return Purses(self.counts, bank=self.bank, rule=self.rule)

    def to_json(self) -> dict[str, int]:
        return dict(self.counts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Purses) and self.counts == other.counts and self.bank == other.bank

    def __repr__(self) -> str:
        return f"Purses({self.counts!r}, bank={self.bank!r})"
