"""Proposals with consent or veto, for the group decisions the rules leave to people.

A seat proposes something (stakes, a trade, a reading); the seats named must answer. In
``consent`` mode it passes when every one accepts; in ``veto`` mode it passes unless one vetoes.
Any refusal in consent mode (or veto in veto mode) rejects it at once.

>>> p = Proposal("p1", {"stake": "the crown"}, ("p2", "p3"))
>>> p.answer("p2", True); p.status
'open'
>>> p.answer("p3", True); p.status
'accepted'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import IllegalAction
from ..values import rebuilt


def _copied(value: Any) -> Any:
    """``value`` with every dict and list in it copied (so a caller may keep what it is given)."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value


class Proposal:
    __slots__ = ("answers", "content", "mode", "proposer", "rule", "voters")

    def __init__(
        self, proposer: str, content: Any, voters: Iterable[str], *, mode: str = "consent", rule: str = "proposal"
    ) -> None:
        if mode not in ("consent", "veto"):
            raise ValueError(mode)
        self.proposer = proposer
        self.content = content
        self.voters: tuple[str, ...] = tuple(voters)
        self.answers: dict[str, bool] = {}
        self.mode = mode
        self.rule = rule

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.proposer, self.content, self.voters)  # see ludica.core.values

    @property
    def status(self) -> str:
        if any(not yes for yes in self.answers.values()):
            return "rejected"
        if all(v in self.answers for v in self.voters):
            return "accepted"
        return "open"

    def waiting(self) -> tuple[str, ...]:
        return tuple(v for v in self.voters if v not in self.answers) if self.status == "open" else ()

    def check_answer(self, seat: str) -> None:
        if self.status != "open":
            raise IllegalAction(f"the proposal is already {self.status}", rule=self.rule)
        if seat not in self.voters:
            raise IllegalAction(f"{seat} is not asked about this proposal", rule=self.rule)
        if seat in self.answers:
            raise IllegalAction(f"{seat} has already answered", rule=self.rule)

    def answer(self, seat: str, yes: bool) -> None:
        self.check_answer(seat)
        self.answers[seat] = yes

    def to_json(self) -> dict[str, Any]:
        return {
            "proposer": self.proposer,
            "content": _copied(self.content),  # a copy: the rules change the content while it is put together
            "voters": list(self.voters),
            "answers": dict(self.answers),
            "mode": self.mode,
            "status": self.status,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Proposal:
        p = cls(data["proposer"], data["content"], data["voters"], mode=data.get("mode", "consent"))
        p.answers = dict(data.get("answers", {}))
        return p
