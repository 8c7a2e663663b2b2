"""Misery Bubblegum's names for people: characters by name, Traits, Desires, Threats and
Promises by their words, dice as "Dan's die 2 (showing 4)", the draft's terms spelled out.

Used by every front end through the game's :meth:`namer` (see :mod:`ludica.core.names`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import Action, IntRange
from ...core.names import Namer
from .reclaim import reclaim_orientation, rolled_count
from .state import CONFIDENCE, INSIGHT, PASSION, MiseryState
from .triangle import ARROWS

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
    "passion": "Passion rating",
    "confidence": "Confidence rating",
    "insight": "Insight rating",
    "fee_pool": "the fee: one die from",
    "fee_mode": "the fee die goes",
}

VALUE_NAMES = {
    "self": "towards yourself",
    "others": "towards the others",
    "give_creator": "to the Trait's creator (their influence over you)",
    "to_misery": "into your Misery",
}


RATINGS_EFFECT = (
    "fixed for the whole game: when your arrow points towards the others you reclaim up to your rating in "
    "that pool; towards yourself, Misery takes what your rating exceeds the dice left in the pool "
    "(Character Attributes)"
)
"""What setting the ratings commits (MB-R4, spec §5.9)."""


def _counted(before: Any, after: Any) -> int | None:
    """A count's change, a count not yet kept counting as 0 (a first influence die); ``None``
    when either side is not a count."""
    numbers = [0 if v is None else v for v in (before, after)]
    if any(type(v) is not int for v in numbers):
        return None
    return int(numbers[1]) - int(numbers[0])


def _rating_effect(pool: str, rating: int) -> str:
    """What a rating of ``rating`` in ``pool`` does at each reclaim (MB-R4): first what differs by the value."""
    dice = f"{rating} {'die' if rating == 1 else 'dice'}"
    return (
        f"arrow towards the others: you reclaim up to {dice} into {pool.capitalize()}; "
        f"towards yourself: Misery takes what {rating} exceeds the dice left in it"
    )


ACTION_EFFECTS = {
    "set_ratings": RATINGS_EFFECT,
    "pass_opposition": "the action goes ahead without you; your dice stay in your pools",
    "pass_reroll": "the dice stand as they are",
    "end_meaning": "what the action means is settled; the dice are reclaimed next",
    "end_game": "the others are asked whether the story ends here",
    "offer_trait": (
        "you give influence dice you hold of another player as the bribe of a Trait you write for them; "
        "they accept it or refuse it when they next declare an action; an offer is never taken back"
    ),
}
"""What a one-button action does ([Getting things done], [What does it mean?])."""


PHASE_WORDS = {
    "IDLE": "someone calls the next action",
    "MEANING": "you say what the action means",
    "RECLAIM": "you reclaim your dice",
}
"""What a seat does next in a phase of the action ([Getting things done], [What does it mean?])."""


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
        if param in ("pool", "fee_pool", "pool_label") and value in (PASSION, CONFIDENCE, INSIGHT):
            return f"{str(value).capitalize()} pool"
        if param == "die" and isinstance(value, str):
            return self.die(value)
        if isinstance(value, str) and value in self.ids() and not self.is_seat(value):
            return self.ids()[value]
        return super().value(kind, param, value)

    # -- effects (DESIGN.md principle 15) -------------------------------------------------------
    def effect(self, kind: str, param: str, value: Any) -> str | None:
        if param == "challenge":
            return "each die showing this number or more is a success: the higher, the harder"
        if param == "dice" and kind in ("call_action", "oppose", "gm_oppose"):
            return "the dice leave that pool; what is not reclaimed afterwards goes into Misery"
        if kind == "set_ratings" and param in (PASSION, CONFIDENCE, INSIGHT) and type(value) is int:
            return _rating_effect(param, value)
        if kind == "choose_arrow" and param == "orientation" and isinstance(value, str):
            return self._arrow_effect(value)
        if kind == "reclaim" and param == "reclaim_count" and isinstance(value, IntRange):
            return self._reclaim_effect(value)
        if kind == "decide_success" and param == "succeeds":
            return "the action happens as called" if value else "the action fails"
        if kind == "spend_misery":
            return "Misery dice feed this Threat or Promise"
        if kind == "deny_desire":
            return "its value in Misery dice goes back to your Spare; the Desire is halved"
        return None

    def _arrow_effect(self, orientation: str) -> str | None:
        attempt = self.state.attempt
        part = self.state.participant(attempt.meaning_decider or "") if attempt is not None else None
        if part is None:
            return None
        arrow = ARROWS[(part.pool, orientation)]
        whose = "the others'" if orientation == "others" else "your own"
        return f"it touches {whose} {arrow.kind.capitalize()}s; you reclaim dice into {arrow.dest.capitalize()}" + (
            "" if orientation == "others" else ", the others reclaim the other way"
        )

    def _reclaim_effect(self, field: IntRange) -> str | None:
        part = self.state.participant(self.viewer or "")
        if part is None or self.state.attempt is None or self.state.attempt.orientation is None:
            return None
        rolled = rolled_count(part)
        dest = ARROWS[(part.pool, reclaim_orientation(self.state, part.seat))].dest.capitalize()
        return (
            f"each die you reclaim goes back to {dest}; the rest of your {rolled} rolled dice go into Misery "
            f"(0 sends all {rolled} into Misery)"
        )

    def action_effect(self, action: Action) -> str | None:
        return ACTION_EFFECTS.get(action.type)

    # -- computed consequences in the rulebook's words (DESIGN.md principle 16) -----------------
    QUIET_KEYS = Namer.QUIET_KEYS | {
        "created",
        "still_to_answer",
        "actions_done",
        "number",
        "participants",
        "stage",
        "type",
        "phase",
        "caller",
        "intent",
        "success_decider",
        "meaning_decider",
        "succeeded",
        "outcomes",
        "denied",
        "chance",
        "orientation",
        "declaring",  # the Trait on offer is said by the page's situation and the option's effect
    }
    VIEW_WORDS: Mapping[str, str] = {
        "provisional_traits": "Traits offered",
        "ready_to_end": "ready to end the story",
        "selected": "dice chosen",
        "traits_used": "Traits used this action",
    }
    PHASE_WORDS = PHASE_WORDS

    def word_change(self, change: Any) -> str | None:
        """Pools, ratings, Misery and Spare by the book's names ("Passion pool −2", "Misery +3")."""
        path, key = change.path, change.key
        if len(path) >= 2 and path[-2] in ("pool", "rating") and key in (PASSION, CONFIDENCE, INSIGHT) and change.delta:
            owner = self._owner(path, self._found)
            whose = "" if owner in (None, self.viewer) else f"{self.seat(str(owner))}'s "
            what = "pool" if path[-2] == "pool" else "rating"
            sign = "+" if change.delta > 0 else "−"
            return f"{whose}{key.capitalize()} {what} {sign}{abs(change.delta)}"
        if isinstance(change.after, dict) or isinstance(change.before, dict):
            entry = change.after if isinstance(change.after, dict) else change.before
            came = isinstance(change.after, dict)
            if path[-1:] == ("resources",) and isinstance(entry.get("kind"), str):
                owner = self._owner(path, self._found)
                whose = "" if owner in (None, self.viewer) else f" for {self.seat(str(owner))}"
                return f"{'a new' if came else 'no more'} {entry['kind'].capitalize()}{whose}"
            if path[-1:] == ("characters",) and entry and set(entry) <= {PASSION, CONFIDENCE, INSIGHT}:
                return "ratings: " + ", ".join(f"{k.capitalize()} {v}" for k, v in entry.items())
            if path[-1:] == ("provisional_traits",) and "target" in entry:
                dice = entry.get("dice")
                return f"a Trait offered to {self.seat(str(entry['target']))}" + (
                    f" with {dice} {'die' if dice == 1 else 'dice'}" if isinstance(dice, int) else ""
                )
        if "rolling" in path[:-1]:  # the dice about to be rolled: "then reroll: …" says it
            return None
        delta = _counted(change.before, change.after)
        if len(path) >= 2 and path[-2] == "influence" and delta:
            owner = self._owner(path, self._found)
            whose = "your" if owner in (None, self.viewer) else f"{self.seat(str(owner))}'s"
            sign = "+" if delta > 0 else "−"
            return f"{whose} influence from {self.seat(key)} {sign}{abs(delta)}"
        if key in ("misery", "spare") and change.delta:
            owner = self._owner(path, self._found)
            whose = "" if owner in (None, self.viewer) else f"{self.seat(str(owner))}'s "
            sign = "+" if change.delta > 0 else "−"
            return f"{whose}{key.capitalize()} {sign}{abs(change.delta)}"
        return super().word_change(change)

    def word_chance(self, step: Any) -> str:
        n = len(getattr(step, "sides", ()))
        if step.type == "roll_action" and n:
            return f"then {n} dice are rolled: each die showing its challenge or more is a success"
        return super().word_chance(step)

    def field_default(self, action: Action, param: str, spec: Any) -> int:
        """Reclaim as many dice as the rules allow unless a smaller number is typed: 0 would send
        every rolled die into Misery ([What does it mean?])."""
        if action.type == "reclaim" and param == "reclaim_count":
            return int(spec.hi)
        return super().field_default(action, param, spec)

    def situation(self) -> str | None:
        attempt = self.state.attempt
        if attempt is None or not attempt.intent:
            return None
        return f"{self.seat(attempt.caller)} attempts: {attempt.intent}"

    def sentence(self, action: Action) -> str:
        who, a = self.seat(action.seat), action.args
        if action.type in ("select_die", "unselect_die"):
            verb = "chooses" if action.type == "select_die" else "puts back"
            return f"{who} {verb} {self.die(str(a.get('die')))}"
        return super().sentence(action)

    # -- the parts of the face a decision is about (both front ends show them first) -----------
    def about(self) -> tuple[str, ...]:
        """The action under way (its intent, each participant's pool, challenge and dice) and the
        Traits offered; otherwise the viewer's own character sheet."""
        st = self.state
        if st is None or self.viewer is None:
            return ()
        if st.attempt is not None:
            return ("Action ", "Trait offered to")
        mine = st.characters.get(self.viewer)
        return ("Trait offered to", f"{mine.name} — ") if mine is not None else ("Trait offered to",)
