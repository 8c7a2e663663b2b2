"""Sealed simultaneous choices: every seat commits in secret, then all are revealed at once.

While sealed, only whether a seat has committed is public; the value is seen by its own seat
only. ``reveal`` is allowed once everyone has committed.

>>> s = SealedChoices(("p1", "p2"))
>>> s.commit("p1", 3)
>>> s.public_view()
{'committed': ['p1'], 'waiting': ['p2'], 'revealed': None}
>>> s.commit("p2", 5); s.reveal()
{'p1': 3, 'p2': 5}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import IllegalAction
from ..values import rebuilt


class SealedChoices:
    __slots__ = ("choices", "revealed", "rule", "seats")

    def __init__(self, seats: Iterable[str], *, rule: str = "sealed choice") -> None:
        self.seats: tuple[str, ...] = tuple(seats)
        self.choices: dict[str, Any] = {}
        self.revealed: bool = False
        self.rule = rule

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.seats)  # see ludica.core.values

    def waiting(self) -> tuple[str, ...]:
        return tuple(s for s in self.seats if s not in self.choices)

    def check_commit(self, seat: str) -> None:
        if seat not in self.seats:
            raise IllegalAction(f"{seat} takes no part in this sealed choice", rule=self.rule)
        if seat in self.choices:
            raise IllegalAction(f"{seat} has already committed", rule=self.rule)
        if self.revealed:
            raise IllegalAction("the choices are already revealed", rule=self.rule)

    def commit(self, seat: str, value: Any) -> None:
        self.check_commit(seat)
        self.choices[seat] = value

    @property
    def complete(self) -> bool:
        return not self.waiting()

    def reveal(self) -> dict[str, Any]:
        if not self.complete:
            raise IllegalAction("not everyone has committed yet", rule=self.rule)
        self.revealed = True
        return {s: self.choices[s] for s in self.seats}

    def public_view(self) -> dict[str, Any]:
        return {
            "committed": [s for s in self.seats if s in self.choices],
            "waiting": list(self.waiting()),
            "revealed": {s: self.choices[s] for s in self.seats} if self.revealed else None,
        }

    def view_for(self, seat: str | None) -> dict[str, Any]:
        out = self.public_view()
        if seat is not None and seat in self.choices and not self.revealed:
            out["mine"] = self.choices[seat]
        return out

    def to_json(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "choices": dict(self.choices), "revealed": self.revealed}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SealedChoices:
        s = cls(data["seats"])
        s.choices = dict(data.get("choices", {}))
        s.revealed = bool(data.get("revealed", False))
        return s
