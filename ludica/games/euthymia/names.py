"""Euthymia's names for people: players by name, "the group" for the table, Aspects and their
Strengths, cards by their faces (Q♣), the contexts of a tie in words.

Used by every front end through the game's :meth:`namer` (see :mod:`ludica.core.names`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...core import Action
from ...core.mechanisms.cards import standard_deck
from ...core.names import Namer, listing, sentence_case
from .state import ASPECTS, EuthymiaState
from .state import SUITS as ASPECT_SUITS

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

_NONE_YET = re.compile(r"(face down:)\s*$")
"""Who starts: nobody's card face down yet (an empty list on the text face)."""
_SUIT_MARK = re.compile(r" \[([SHDC])\]:")
_ORDER = re.compile(r"\border ((?:\S+ > )+\S+)")
"""The Conflict's line of the text face: ``on Feel [D]:``, ``order p1 > p2 > p3``."""

ACTION_TITLES = {
    "record_setting": "Record the state of Euthymia",
    "set_ideal_citizen": "Describe the Ideal Citizen",
    "create_character": "Create your character",
    "set_starting_strengths": "Set your starting Strengths",
    "start_hour": "Start the hour",
    "commit_start_card": "Lay a card face down",
    "launch_conflict": "Launch a Conflict",
    "play_conflict_card": "Play a card",
    "designate_drink_order": "Say who goes first in a tie",
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
    "next_active": "who takes the next turn",
    "ending_order": "who tells the end of the story first",
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


TIE_EFFECTS = {
    "most_drink": "counts as the one who drank most: tempts the Active Player or speaks for the Committee",
    "conflict_order": "plays first in the Conflict",
    "next_active": "takes the next turn",
    "ending_order": "tells the end of the story first",
}
"""What the player named first in a tie gets, by the tie's context (R-EU-10)."""

PHASE_SAID = {
    "TURN": "the Active Player's story, until a Conflict is launched",
    "CONFLICT": "the Conflict: cards are played, from the fullest glass",
}
"""The phase's sentence when the engine's prompt is not what the table is doing."""

OPTIONAL = frozenset({"propose_cm_change", "drink", "clock"})
"""What a seat may do at any time, never what it is waited for."""


RANKS = {face: {"A": 1, "J": 11, "Q": 12, "K": 13}.get(face[:-1]) or int(face[:-1]) for face in standard_deck()}
"""A card's rank in a Conflict (R-EU-02: A=1 … 10, J=11, Q=12, K=13)."""


def _lower(title: str) -> str:
    """ "Launch a Conflict" -> "launch a Conflict" (only the first word's capital goes)."""
    return title[:1].lower() + title[1:] if title[1:2].islower() else title


def card(face: str) -> str:
    """``QC`` -> ``Q♣``; ``10H`` -> ``10♥`` (a card as its face)."""
    if len(face) in (2, 3) and face[-1] in SUITS:
        return face[:-1] + SUITS[face[-1]]
    return face


CARDS = {face: card(face) for face in standard_deck()}


PHASE_WORDS = {
    "CM_VOTE": "the group votes on changing the Committee Member",
    "WHO_STARTS": "a card is revealed to see who starts",
    "TURN_END": "the turn ends",
    "HOUR_END": "the hour ends",
    "GAME_ENDINGS": "the endings are told",
}
"""What comes next in a phase, where the seat decides again ([The Committee Member], [Turns])."""


class EuthymiaNamer(Namer):
    QUIET_KEYS = Namer.QUIET_KEYS | {
        "suit",  # the Aspect says it
        "holder",
        "launcher",
        "status",
        "turn_kind",
        "previous_active_player",
        "retired",
        "committed",
        "proposer",
        "deck_count",
        "launch_type",  # a Conflict's kind, Aspect and medication are the option's effect
        "aspect",
        "medication",
        "order",
        "to_play",
        "votes",
        "tied",
        "contenders",
        "from_deck",
        "answers",
    }
    VIEW_WORDS: Mapping[str, str] = {"units": "units left in the bottle"}

    def say(self, text: str) -> str:
        """The Conflict's line of the text face in words: its suit's symbol (``on Feel [D]`` ->
        ``on Feel (♦ cards)``) and its order of play (``order p1 > p2`` -> ``order of play: Ann, then Bob``)."""
        text = _NONE_YET.sub(r"\1 none yet", text)
        text = _SUIT_MARK.sub(lambda m: f" ({SUITS[m.group(1)]} cards):", text)
        text = _ORDER.sub(lambda m: "order of play: " + ", then ".join(m.group(1).split(" > ")), text)
        return super().say(text)

    def word_change(self, change: Any) -> str | None:
        """Cards played into the Conflict said as who plays what; who has drunk most is said
        while the glasses count (not when the Conflict that needed it is over)."""
        if change.key == "most_drink" and change.after is None:
            return None
        owner = self._owner(change.path, self._found)
        theirs = None if owner in (None, self.viewer) else self.seat(owner)
        if change.path[:1] == ("players",) and _sheet_written(change):
            return f"{theirs} writes a character" if theirs else "you write your character"
        if change.key == "glass" and change.delta is not None and change.before is not None:
            whose = f"{theirs}'s glass" if theirs else "your glass"
            return f"{whose}: {change.before} → {change.after} units"
        if change.path[-1:] == ("plays",) and isinstance(change.after, dict):
            seat, face = change.after.get("seat"), change.after.get("card")
            who = "you play" if seat == self.viewer else f"{self.seat(str(seat))} plays"
            return f"{who} {card(str(face))}"
        if change.key == "plays" and change.added:
            plays = [p for p in change.added if isinstance(p, tuple) and len(p) == 2]
            said = [
                f"{'you play' if p[0] == self.viewer else self.seat(str(p[0])) + ' plays'} {card(str(p[1]))}"
                for p in plays
            ]
            return "; ".join(said) or None
        return super().word_change(change)

    ACTION_TITLES = ACTION_TITLES
    PHASE_WORDS = PHASE_WORDS
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
            if param == "aspect" and isinstance(value, str) and value in ASPECTS:
                suit = SUITS[ASPECT_SUITS[ASPECTS.index(value)]]
                aspect = WORDS.get(value, value)
                return (
                    f"the others play {suit} if they can; the last card is matched against the Active Player's "
                    f"{aspect} Strength, which then may change"
                )
        if kind == "divide_bottle" and param == "units":
            left = getattr(self.state, "bottle_units", 0)
            return f"poured into this glass from the bottle ({left} units left); you divide all that is left this way"
        if kind == "designate_drink_order" and param == "ordered_players":
            return TIE_EFFECTS.get(self._tie_context() or "")
        if kind == "vote_cm_change" and param == "yes":
            return "you agree to change the Committee Member" if value else "you keep the Committee Member"
        return None

    def action_effect(self, action: Action) -> str | None:
        if action.type == "play_conflict_card":
            return self._card_effect(str(action.args.get("card", "")))
        if action.type == "designate_drink_order":
            return TIE_EFFECTS.get(str(action.args.get("context")))
        return ACTION_EFFECTS.get(action.type)

    def _card_effect(self, face: str) -> str | None:
        """What a card played into the Conflict does ([The Conflict]): a face card passes the play
        on and makes the change bigger; any other card ends it, won if it is at most the Active
        Player's Strength in the Conflict's Aspect (public on every sheet)."""
        state, conflict = self.state, getattr(self.state, "conflict", None)
        if conflict is None or face not in RANKS:
            return None
        if RANKS[face] >= 11:
            return "a face card: the next player must play too, and the Strength change grows by one"
        ap = state.active_player
        character = state.characters.get(ap) if ap else None
        if ap is None or character is None or not character.strength or not 0 <= conflict.aspect < len(ASPECTS):
            return None
        strength = character.strength[conflict.aspect]
        aspect = WORDS.get(ASPECTS[conflict.aspect], "")
        who = self.seat(ap)
        verdict = "wins" if RANKS[face] <= strength else "loses"
        return f"ends the Conflict: {RANKS[face]} against {who}'s {aspect} Strength {strength} — {who} {verdict}"

    def _legal(self, seat: str | None) -> list[Action]:
        if seat is None or self.game is None or self.state is None:
            return []
        try:
            return list(self.game.legal_actions(self.state, seat))
        except (KeyError, AttributeError, ValueError):
            return []

    def _tie_context(self) -> str | None:
        """The tie this viewer breaks now (its context), if any."""
        for action in self._legal(self.viewer):
            if action.type == "designate_drink_order":
                return str(action.args.get("context"))
        return None

    def prompt(self, text: str, phase: str | None = None) -> str:
        """What the table is doing, then what *this* seat is asked (or whom it waits for): at the
        end of an hour only the group starts the next one, in the final round each player takes a
        last turn ([As the end of the hour approaches])."""
        state = self.state
        if state is None or self.game is None:
            return super().prompt(text, phase)
        said = self._phase_said(text, phase)
        mine = [a.type for a in self._legal(self.viewer) if a.type != "clock"]
        asked = list(dict.fromkeys(t for t in mine if t not in OPTIONAL))
        may = list(dict.fromkeys(t for t in mine if t in OPTIONAL))
        if asked:
            you = "you: " + listing([_lower(self.action_title(t)) for t in asked], "or")
        else:
            others = [s for s in self.game.pending(state).seats if s not in ("chance", self.viewer)]
            waited = [s for s in others if self._waits_on(s)]
            you = f"waiting for {listing([self.seat(s) for s in waited])}" if waited else ""
        if may:
            you += ("; " if you else "") + "you may " + listing([_lower(self.action_title(t)) for t in may], "or")
        said = said.rstrip(".?!") + ("?" if said.endswith("?") else "")
        return sentence_case(
            f"{said} {sentence_case(you)}."
            if said.endswith("?") and you
            else (f"{said}. {sentence_case(you)}." if you else said)
        )

    def asked(self) -> bool:
        """Only an action the game waits for makes a decision; drinking, the clock and proposing a
        new Committee Member are things a seat *may* do meanwhile."""
        return self.viewer is None or self._waits_on(self.viewer)

    def _waits_on(self, seat: str) -> bool:
        return any(a.type not in OPTIONAL for a in self._legal(seat))

    def _phase_said(self, text: str, phase: str | None) -> str:
        state = self.state
        if getattr(state, "dividing", False):
            return "the final round: the Active Player divides the rest of the bottle among the glasses"
        base = PHASE_SAID.get(phase or "", text)
        if getattr(state, "final_round_active", False) and phase in ("TURN", "CONFLICT", "TURN_END"):
            who = self.seat(state.active_player) if state.active_player else "the Active Player"
            return f"the final round of the hour: {who}'s final turn"
        return self.say(base)

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

    # -- the parts of the face a decision is about (both front ends show them first) -----------
    def about(self) -> tuple[str, ...]:
        """The Conflict under way (its cards played), the vote, who starts; always the viewer's
        own hand and cards."""
        if self.viewer is None:
            return ()
        return ("CONFLICT by", "Vote to change", "Who starts?", "You (")


def _sheet_written(change: Any) -> bool:
    """A character sheet filled in ([The characters]): its name and Aspects come into a
    seat's entry (the fields as one change, or the sheet's own leaves)."""
    if "character" in change.path[2:3]:
        return change.before is None and change.path[3:4] in ((), ("name",), ("aspects",))
    fields = change.after if isinstance(change.after, dict) else None
    return fields is not None and set(fields) == {"character"}
