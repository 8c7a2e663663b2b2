"""The Great City's names for people: players and the GM by name, characters by their names,
ties as "X's tie to Y", stones by their colour, the rulebook's words for every action.

Used by every front end through :meth:`GreatCityGame.namer` (see :mod:`ludica.core.names`).
"""

from __future__ import annotations

import re
from typing import Any

from ...core import Action
from ...core.names import Namer
from . import oracle as O
from .common import GM
from .state import GreatCityState

ACTION_TITLES = {
    "record_situation": "Record the situation",
    "create_agent": "Create an agent of peril",
    "end_agents": "No more agents of peril",
    "set_triad": "Set the triad",
    "choose_kind": "Choose human or bug",
    "allocate_traits": "Allocate the traits",
    "choose_class": "Choose the class",
    "choose_intent": "Choose the intent",
    "name_character": "Name the character",
    "draw_name": "Draw a name",
    "vest_class_scarab": "Vest the class scarab",
    "add_tie": "Add a tie",
    "buy_tie": "Buy a tie",
    "end_ties": "No more ties",
    "start_scene": "Start the scene",
    "choose_foil": "Choose the foil",
    "choose_ante_source": "Pay the ante from",
    "buy_in": "Buy in",
    "stay_out": "Stay out",
    "undo_flip": "Undo the flip",
    "decline_undo": "Let the flip stand",
    "arrive": "Arrive in the scene",
    "pass_reaction": "Pass",
    "flip": "Flip a stone",
    "end_reaction": "End your reaction",
    "accept_judgment": "Accept the judgment",
    "assign_narration": "Give the narration to",
    "narrate": "Narrate the judgment",
    "give_scarabs": "Give scarabs",
    "vest_own": "Vest scarabs under your character",
    "fund_fate": "Fund the city's fate",
    "flip_city_stone": "Flip a city stone",
    "vest_city_stone": "Vest scarabs under a city stone",
    "end_distribution": "End the distribution",
    "narrate_city_fate": "Narrate the city's fate",
    "narrate_character_fate": "Narrate a character's fate",
}

PARAM_LABELS = {
    "position": "stone",
    "source": "by",
    "to_seat": "to",
    "n": "how many scarabs",
    "box": "purse",
    "list": "name list",
    "vest": "vest it",
    "grant": "granted by",
    "sign": "sign",
    "spotlight": "spotlight",
    "foil": "foil",
    "narrator": "narrator",
    "traits": "traits",
    "class": "class",
    "kind": "kind",
    "role": "for",
}

VALUE_NAMES = {
    "free_scarab": "a free scarab from your purse",
    "vested_scarab": "the scarab vested under the stone",
    "trait": "a trait",
    "tie": "a tie",
    "yea": "the Yea purse (the city is saved)",
    "nay": "the Nay purse (the city falls)",
    "pool": "the Mounting Peril pool",
    "purse": "your purse",
    "free": "a free tie",
    "+": "positive (+)",
    "-": "negative (−)",
    "spotlight": "the spotlight",
    "foil": "the foil",
    "male": "the male names",
    "female": "the female names",
}


BINARY_PAIR = re.compile(r"\b[01]{3} [01]{3}:? (?=[A-Z])")
"""A pair of triads in the oracle's binary notation before its name ("000 110 Contemplation"):
people read the name."""


class GreatCityNamer(Namer):
    ACTION_TITLES = ACTION_TITLES
    PARAM_LABELS = PARAM_LABELS
    VALUE_NAMES = VALUE_NAMES
    state: GreatCityState

    def say(self, text: str) -> str:
        """As every namer says it, the oracle's readings by their names, not their bits."""
        return super().say(BINARY_PAIR.sub("", text))

    def character(self, cid: str) -> str:
        c = self.state.characters.get(cid)
        if c is None:
            return "a new character"
        if c.name:
            return c.name
        if c.agent:
            return "an agent of peril"
        return "the GM's character" if c.controller == GM else f"{self.seat(c.controller)}'s character"

    def tie(self, tid: str) -> str:
        tie = next((t for t in self.state.ties if t.id == tid), None)
        if tie is None:
            return "a tie"
        sign = "positive" if tie.sign == "+" else "negative"
        return f"{self.character(tie.source)}'s {sign} tie to {self.character(tie.target)}"

    def ids(self) -> dict[str, str]:
        out = super().ids()
        out.update({cid: self.character(cid) for cid in self.state.characters})
        out.update({t.id: self.tie(t.id) for t in self.state.ties})
        out["gm"] = self.seat(GM)
        return out

    def stone(self, position: int) -> str:
        """Positions 1-3 are the spotlight's blue, white and green stones, 4-6 the foil's."""
        sc = self.state.scene
        color = O.COLORS[(position - 1) % 3]
        if sc is None:
            return f"stone {position} ({color})"
        owner = sc.spotlight if position <= 3 else sc.foil
        return f"{self.character(owner)}'s {color} stone" if owner else f"the {color} stone"

    def value(self, kind: str, param: str, value: Any) -> str:
        if isinstance(value, str) and value in self.state.characters:
            return self.character(value)
        if param == "tie" and isinstance(value, str):
            return self.tie(value)
        if param == "position" and isinstance(value, int):
            if kind in ("flip_city_stone", "vest_city_stone"):
                return f"the city's {O.COLORS[(value - 1) % 3]} stone ({'first' if value <= 3 else 'second'} triad)"
            return self.stone(value)
        if param == "trait" and isinstance(value, str):
            return value.capitalize()
        if param == "traits" and isinstance(value, dict):
            return ", ".join(str(v).capitalize() for v in value.values())
        return super().value(kind, param, value)

    def sentence(self, action: Action) -> str:
        who = self.seat(action.seat)
        a = action.args
        if action.type == "flip":
            stone = self.value("flip", "position", a.get("position"))
            source = a.get("source")
            if source == "trait":
                trait = str(a.get("trait", "")).capitalize()
                return f"{who} flips {stone} with {self.character(a['character'])}'s trait {trait} ({a.get('mode')})"
            if source == "tie":
                return f"{who} flips {stone} with {self.tie(a['tie'])}"
            return f"{who} flips {stone} with {self.value('flip', 'source', source)}"
        if action.type in ("add_tie", "buy_tie"):
            sign = "positive" if a.get("sign") == "+" else "negative"
            verb = "buys" if action.type == "buy_tie" else "adds"
            return f"{who} {verb} a {sign} tie from {self.character(a['source'])} to {self.character(a['target'])}"
        return super().sentence(action)
