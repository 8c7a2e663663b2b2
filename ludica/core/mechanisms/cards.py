"""Playing-card decks and custom decks.

A :class:`Deck` is an ordered draw pile of card ids (strings) with a discard pile. Shuffling
takes the permutation from a :class:`~ludica.core.chance.Shuffle` chance step, so the rules
stay pure. :func:`standard_deck` gives the 52 cards as ids like ``"QS"`` (queen of spades) and
``"10H"``.

>>> deck = Deck(["AS", "2S", "3S"])
>>> deck.shuffle([2, 0, 1]); deck.cards
['3S', 'AS', '2S']
>>> deck.draw(2)
['3S', 'AS']
>>> Card.parse("QS").rank, Card.parse("10H").suit
(12, 'H')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import IllegalAction
from ..values import Value

SUITS = ("D", "S", "C", "H")
RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}


@dataclass(frozen=True, slots=True)
class Card(Value):
    """A standard playing card: rank 1 (ace) .. 13 (king), suit D/S/C/H."""

    rank: int
    suit: str

    @property
    def id(self) -> str:
        return f"{RANKS.get(self.rank, str(self.rank))}{self.suit}"

    @property
    def is_face(self) -> bool:
        return self.rank >= 11

    @classmethod
    def parse(cls, text: str) -> Card:
        text = text.strip().upper()
        rank_text, suit = text[:-1], text[-1:]
        ranks = {v: k for k, v in RANKS.items()}
        rank = ranks.get(rank_text) or (int(rank_text) if rank_text.isdigit() else 0)
        if suit not in SUITS or not 1 <= rank <= 13:
            raise IllegalAction(f"{text!r} is not a playing card (e.g. AS, 10H, QD)", rule="cards")
        return cls(rank, suit)

    def __str__(self) -> str:
        return self.id


def standard_deck() -> list[str]:
    """The 52 card ids in a fixed order (suit by suit, ace to king)."""
    return [Card(rank, suit).id for suit in SUITS for rank in range(1, 14)]


class Deck:
    """A draw pile (top is index 0) and a discard pile of card ids."""

    __slots__ = ("cards", "discards")

    def __init__(self, cards: Iterable[str] = (), discards: Iterable[str] = ()) -> None:
        self.cards: list[str] = list(cards)
        self.discards: list[str] = list(discards)

    def __len__(self) -> int:
        return len(self.cards)

    def shuffle(self, order: Sequence[int]) -> None:
        """Reorder the draw pile by a permutation (from a Shuffle chance step)."""
        if sorted(order) != list(range(len(self.cards))):
            raise IllegalAction(f"a shuffle of {len(self.cards)} cards needs a permutation of them", rule="cards")
        self.cards = [self.cards[i] for i in order]

    def draw(self, n: int = 1) -> list[str]:
        if n > len(self.cards):
            raise IllegalAction(f"cannot draw {n} from a deck of {len(self.cards)}", rule="cards")
        drawn, self.cards = self.cards[:n], self.cards[n:]
        return drawn

    def discard(self, cards: Iterable[str]) -> None:
        self.discards.extend(cards)

    def recycle(self) -> None:
        """Put the discards back into the draw pile (shuffle it afterwards with a chance step)."""
        self.cards.extend(self.discards)
        self.discards.clear()

    def copy(self) -> Deck:
        return Deck(self.cards, self.discards)

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "discards": list(self.discards)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Deck:
        return cls(data.get("cards", []), data.get("discards", []))
