"""The referee seat: the person (GM, King, bottle holder) who settles what the rules leave open.

A :class:`Referee` names the seat that holds the role and the questions it must settle. A game
raises a question (``ask``), the pending decision becomes the referee's, and the referee's
``settle`` action answers it with one of the allowed answers.

>>> ref = Referee("gm")
>>> ref.ask("consensus", "Is the situation agreed?", ["yes", "no"])
>>> ref.question["topic"]
'consensus'
>>> ref.settle("gm", "yes")
'yes'
>>> ref.question is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import IllegalAction
from ..values import rebuilt


class Referee:
    __slots__ = ("question", "seat")

    def __init__(self, seat: str, question: dict[str, Any] | None = None) -> None:
        self.seat = seat
        self.question = question

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.seat)  # see ludica.core.values

    def hand_to(self, seat: str) -> None:
        """The role passes to another seat (the crown moves, the bottle is passed)."""
        self.seat = seat

    def ask(self, topic: str, prompt: str, answers: Sequence[Any]) -> None:
        if self.question is not None:
            raise IllegalAction("the referee has an open question already", rule="referee")
        self.question = {"topic": topic, "prompt": prompt, "answers": list(answers)}

    def check_settle(self, seat: str, answer: Any) -> None:
        if self.question is None:
            raise IllegalAction("there is nothing for the referee to settle", rule="referee")
        if seat != self.seat:
            raise IllegalAction(f"only the referee ({self.seat}) settles this", rule="referee")
        if answer not in self.question["answers"]:
            raise IllegalAction(f"{answer!r} is not one of the answers {self.question['answers']}", rule="referee")

    def settle(self, seat: str, answer: Any) -> Any:
        self.check_settle(seat, answer)
        self.question = None
        return answer

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "question": self.question}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Referee:
        return cls(data["seat"], data.get("question"))
