"""Dice of any size, pools of dice, and coloured dice owned by a player.

The rules never roll: a roll is a chance step (:class:`~ludica.core.chance.Roll`) whose
outcome is then written onto the dice here.

>>> pool = DicePool([Die(6, owner="red"), Die(6, owner="blue"), Die(6, owner="red")])
>>> pool.set_faces([5, 2, 6])
>>> [d.face for d in pool.owned_by("red")]
[5, 6]
>>> count_at_least(pool.faces(), 5)
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import IllegalAction


@dataclass(slots=True)
class Die:
    """One die: its size, the face it shows (``None`` before a roll), owner and colour."""

    sides: int = 6
    face: int | None = None
    owner: str | None = None
    color: str | None = None

    def set(self, face: int) -> None:
        if not 1 <= face <= self.sides:
            raise IllegalAction(f"a d{self.sides} cannot show {face}", rule="dice")
        self.face = face

    def to_json(self) -> dict[str, Any]:
        return {"sides": self.sides, "face": self.face, "owner": self.owner, "color": self.color}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Die:
        return cls(data["sides"], data.get("face"), data.get("owner"), data.get("color"))


class DicePool:
    """An ordered group of dice rolled together."""

    __slots__ = ("dice",)

    def __init__(self, dice: Iterable[Die] = ()) -> None:
        self.dice: list[Die] = list(dice)

    def __len__(self) -> int:
        return len(self.dice)

    def sides(self) -> tuple[int, ...]:
        """The sizes of the dice, in order: what a :class:`Roll` chance step asks for."""
        return tuple(d.sides for d in self.dice)

    def set_faces(self, faces: Sequence[int]) -> None:
        if len(faces) != len(self.dice):
            raise IllegalAction(f"{len(self.dice)} dice need {len(self.dice)} results, got {len(faces)}", rule="dice")
        for die, face in zip(self.dice, faces, strict=True):
            if not 1 <= face <= die.sides:
                raise IllegalAction(f"a d{die.sides} cannot show {face}", rule="dice")
        for die, face in zip(self.dice, faces, strict=True):
            die.face = face

    def faces(self) -> list[int]:
        return [d.face for d in self.dice if d.face is not None]

    def owned_by(self, owner: str) -> list[Die]:
        return [d for d in self.dice if d.owner == owner]

    def to_json(self) -> list[dict[str, Any]]:
        return [d.to_json() for d in self.dice]

    @classmethod
    def from_json(cls, data: list[dict[str, Any]]) -> DicePool:
        return cls(Die.from_json(d) for d in data)


def count_at_least(faces: Iterable[int], level: int) -> int:
    """How many faces are at or above ``level``."""
    return sum(1 for f in faces if f >= level)


def d8_face(value: int) -> tuple[int, bool]:
    """A d8 read as a stone or coin: (bit, moving). 1 moving minus, 2-4 minus, 5-7 plus, 8 moving plus."""
    if not 1 <= value <= 8:
        raise IllegalAction(f"a d8 shows 1..8, not {value}", rule="dice")
    return (0 if value <= 4 else 1), value in (1, 8)
