"""Mechanisms shared by several games, written once: dice, decks, purses, sealed choices,
seat order, proposals with consent or veto, and the referee seat.

Each is plain data with small methods that refuse impossible changes with
:class:`~ludica.core.errors.IllegalAction` *before* changing anything, and that convert to and
from JSON for positions.
"""

from .cards import Card, Deck, standard_deck
from .dice import DicePool, Die, count_at_least, d8_face
from .proposals import Proposal
from .purse import Purses
from .referee import Referee
from .sealed import SealedChoices
from .seats import clockwise_from, next_seat, previous_seat

__all__ = [
    "Card",
    "Deck",
    "DicePool",
    "Die",
    "Proposal",
    "Purses",
    "Referee",
    "SealedChoices",
    "clockwise_from",
    "count_at_least",
    "d8_face",
    "next_seat",
    "previous_seat",
    "standard_deck",
]
