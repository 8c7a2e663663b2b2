"""Misery Bubblegum's names for people: characters by name, Traits, Desires, Threats and
Promises by their words, dice as "Dan's die 2 (showing 4)", the draft's terms spelled out.

Used by every front end through the game's :meth:`namer` (see :mod:`ludica.core.names`).
"""

from __future__ import annotations

from typing import Any

from ...core import Action
from ...core.names import Namer
from .state import MiseryState

ACTION_TITLES = {
    "set_ratings": "Set your ratings",
    "call_action": "Call an action",
    "oppose": "Oppose",
    "gm_oppose": "Oppose as the GM",
    "pass_opposition": "Do not oppose",
    "select_die": "Choose a die",
    "unselect_die": "Put a die back",
    "pass_reroll": "No more rerolls",
    "decide_success": "Decide whether it succeeds",
    "choose_arrow": "Point the arrow",
    "end_meaning": "End the meaning",
    "reclaim": "Reclaim dice",
    "create_resource": "Create a resource",
    "activate_resource": "Bring a resource into play",
    "deactivate_resource": "Take a resource out of play",
    "increase_resource": "Increase a resource",
    "deny_desire": "Deny a Desire",
    "spend_misery": "Spend Misery on",
    "end_game": "Propose to end the game",
}

PARAM_LABELS = {
    "pool": "dice pool",
    "challenge": "challenge",
    "dice": "how many dice",
    "pool_label": "pool it stands for",
    "die": "die",
    "succeeds": "it succeeds",
    "orientation": "arrow",
    "reclaim_count": "dice to reclaim",
    "owner": "for",
    "resource": "resource",
    "desire": "Desire",
    "target": "on",
    "intent": "what your character attempts",
}

VALUE_NAMES = {
    "self": "towards yourself",
    "others": "towards the others",
}


class MiseryNamer(Namer):
    ACTION_TITLES = ACTION_TITLES
    PARAM_LABELS = PARAM_LABELS
    VALUE_NAMES = VALUE_NAMES
    state: MiseryState

    def die(self, die_id: str) -> str:
        """``p4.1`` -> "Dan's die 2 (showing 6)" (dice are counted from 1 for people)."""
        seat, _, index = die_id.partition(".")
        owner = "the GM" if seat == "gm" else self.seat(seat)
        label = f"{owner}'s die {int(index) + 1}" if index.isdigit() else die_id
        attempt = self.state.attempt
        if attempt is not None and index.isdigit():
            for p in attempt.participants:
                dice = p.dice.dice
                if p.seat == seat and int(index) < len(dice) and dice[int(index)].face is not None:
                    return f"{label} (showing {dice[int(index)].face})"
        return label

    def item(self, item_id: str) -> str:
        st = self.state
        if item_id in st.traits:
            return f'the Trait "{st.traits[item_id].text}"'
        if item_id in st.provisionals:
            return f'the offered Trait "{st.provisionals[item_id].text}"'
        if item_id in st.resources:
            r = st.resources[item_id]
            return f'{self.seat(r.owner)}\'s {r.kind.capitalize()} "{r.text}"'
        return item_id

    def ids(self) -> dict[str, str]:
        out = super().ids()
        st = self.state
        for table in (st.traits, st.provisionals, st.resources):
            out.update({i: self.item(i) for i in table})
        attempt = st.attempt
        if attempt is not None:
            for p in attempt.participants:
                out.update({f"{p.seat}.{i}": self.die(f"{p.seat}.{i}") for i in range(len(p.dice.dice))})
        return out

    def value(self, kind: str, param: str, value: Any) -> str:
        if param == "die" and isinstance(value, str):
            return self.die(value)
        if isinstance(value, str) and value in self.ids() and not self.is_seat(value):
            return self.ids()[value]
        return super().value(kind, param, value)

    def sentence(self, action: Action) -> str:
        who, a = self.seat(action.seat), action.args
        if action.type in ("select_die", "unselect_die"):
            verb = "chooses" if action.type == "select_die" else "puts back"
            return f"{who} {verb} {self.die(str(a.get('die')))}"
        return super().sentence(action)
