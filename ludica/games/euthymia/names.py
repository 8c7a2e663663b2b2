"""Euthymia's names for people: players by name, "the group" for the table, Aspects and their
Strengths, cards by their faces (Q♣), the contexts of a tie in words.

Used by every front end through the game's :meth:`namer` (see :mod:`ludica.core.names`).
"""

from __future__ import annotations

from typing import Any

from ...core import Action
from ...core.mechanisms.cards import standard_deck
from ...core.names import Namer
from .state import ASPECTS, EuthymiaState

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

ACTION_TITLES = {
    "record_setting": "Record the state of Euthymia",
    "set_ideal_citizen": "Describe the Ideal Citizen",
    "create_character": "Create your character",
    "set_starting_strengths": "Set your starting Strengths",
    "start_hour": "Start the hour",
    "commit_start_card": "Lay a card face down",
    "launch_conflict": "Launch a Conflict",
    "play_conflict_card": "Play a card",
    "designate_drink_order": "Settle the tie",
    "divide_bottle": "Pour from the bottle into a glass",
    "pour": "Pour",
    "drink": "Drink",
    "declare_more_cards": "Ask for more cards",
    "propose_cm_change": "Propose to change the Committee Member",
    "vote_cm_change": "Vote on changing the Committee Member",
    "clock": "Advance the clock",
    "trigger_final_round": "Call the final round",
    "describe_death": "Describe how your character dies",
}

PARAM_LABELS = {
    "F": "Feel",
    "S": "Speak",
    "B": "Believe",
    "L": "Love",
    "aspect": "Aspect",
    "launch_type": "kind of Conflict",
    "medication": "with medication",
    "card": "card",
    "target": "whose glass",
    "units": "units",
    "context": "tie",
    "ordered_players": "who goes first",
    "yes": "your vote",
    "seconds": "seconds",
}

WORDS = {
    "FEEL": "Feel",
    "SPEAK": "Speak",
    "BELIEVE": "Believe",
    "LOVE": "Love",
    "WANT": "want",
    "TEMPTED": "tempted",
    "COMMITTEE": "Committee",
    "conflict_order": "the order of play in the Conflict",
    "most_drink": "who has drunk most",
    "NONE": "nobody",
}

VALUE_NAMES = WORDS


LAUNCH_EFFECTS = {
    "WANT": "“I want to…”: your character's own wish, launched by the active player",
    "TEMPTED": "“You must be tempted to…”: the one who drank most tempts the active player",
    "COMMITTEE": "“The Committee demands…”: the one who drank most speaks for the Committee",
}
"""What each launch means ([Ending the turn])."""

ACTION_EFFECTS = {
    "declare_more_cards": "you ask for more cards: only a Committee demand may follow",
    "trigger_final_round": "the final round of this hour begins",
    "start_hour": "the hour begins: the clock runs",
    "propose_cm_change": "the group votes on changing the Committee Member",
}


def card(face: str) -> str:
    """``QC`` -> ``Q♣``; ``10H`` -> ``10♥`` (a card as its face)."""
    if len(face) in (2, 3) and face[-1] in SUITS:
        return face[:-1] + SUITS[face[-1]]
    return face


CARDS = {face: card(face) for face in standard_deck()}


class EuthymiaNamer(Namer):
    ACTION_TITLES = ACTION_TITLES
    PARAM_LABELS = PARAM_LABELS
    VALUE_NAMES = VALUE_NAMES
    WORDS = WORDS
    state: EuthymiaState

    def ids(self) -> dict[str, str]:
        """Seats, and every card by its face with its suit's symbol (``QC`` -> ``Q♣``)."""
        return {**super().ids(), **CARDS}

    def value(self, kind: str, param: str, value: Any) -> str:
        if param == "card" and isinstance(value, str):
            return card(value)
        return super().value(kind, param, value)

    # -- effects (DESIGN.md principle 15) -------------------------------------------------------
    def effect(self, kind: str, param: str, value: Any) -> str | None:
        if kind == "launch_conflict":
            if param == "medication":
                return (
                    "the Conflict is about taking something (the Committee's medication): it is fought on Feel"
                    if value
                    else "no medication involved: fought on the Aspect you choose"
                )
            if param == "launch_type" and isinstance(value, str):
                return LAUNCH_EFFECTS.get(value)
            if param == "aspect" and isinstance(value, str):
                return "the Conflict is fought in this Aspect's suit; its Strength may change"
        if kind == "vote_cm_change" and param == "yes":
            return "you agree to change the Committee Member" if value else "you keep the Committee Member"
        return None

    def action_effect(self, action: Action) -> str | None:
        return ACTION_EFFECTS.get(action.type)

    def situation(self) -> str | None:
        """The Conflict being fought, whenever there is one ([The Conflict])."""
        conflict = getattr(self.state, "conflict", None)
        if conflict is None:
            return None
        aspect = WORDS.get(ASPECTS[conflict.aspect], "") if 0 <= conflict.aspect < len(ASPECTS) else ""
        said = f"The Conflict on {aspect}: “{conflict.text}”" if aspect else f"The Conflict: “{conflict.text}”"
        return said + (" (medication)" if conflict.medication else "")

    def sentence(self, action: Action) -> str:
        who, a = self.seat(action.seat), action.args
        if action.type == "set_starting_strengths":
            strengths = ", ".join(f"{PARAM_LABELS[k]} {a[k]}" for k in ("F", "S", "B", "L") if k in a)
            return f"{who} sets the starting Strengths: {strengths}"
        if action.type == "play_conflict_card":
            return f"{who} plays {card(str(a.get('card')))}"
        if action.type == "launch_conflict":
            aspect = WORDS.get(str(a.get("aspect")), a.get("aspect"))
            kind = WORDS.get(str(a.get("launch_type")), "")
            return f"{who} launches a {kind} Conflict on {aspect}".replace("  ", " ")
        return super().sentence(action)
