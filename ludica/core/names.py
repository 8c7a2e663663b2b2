"""Names for people: how a game calls every seat, action, parameter and value for one viewer.

Ids are for programs (DESIGN.md principle 10). Every front end — the terminal, the web table,
story exports, bot narration — asks a :class:`Namer` how to say a thing to the seat looking at
it, and never prints an id itself. A game brings its own namer (``Game.namer``, usually a subclass
of :class:`Namer` in ``ludica/games/<package>/names.py``) with the rulebook's words; the base
class here gives a readable fallback for anything a game does not name (``snake_case`` becomes
words), so a new game is never shown as raw ids.

What a viewer may not know is never named for it: a game's namer says "a face-down recruit", not
the recruit's name, to a seat that has not seen it.

>>> namer = Namer(None, None, None)
>>> namer.action_title("offer_trade")
'Offer trade'
>>> namer.value("place", "space", "nimbus_loft")
'nimbus loft'
>>> namer.value("vote", "yes", True)
'yes'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .actions import Action, IntRange, Text

_SNAKE = re.compile(r"[_\s]+")


def words(token: str) -> str:
    """``"let_workers_relax"`` -> ``"let workers relax"``; ``"art-balloons"`` stays readable."""
    return _SNAKE.sub(" ", str(token)).strip()


def sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def listing(items: Sequence[str], conjunction: str = "and") -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


class Namer:
    """The names a game gives things, for one viewer (``None``: a spectator).

    Games override the ``*_NAMES`` tables (action type -> title, (type, param) -> label) and the
    methods whose answer depends on the state (a seat's player name, a memory's text, a hidden
    card). Every method returns plain text: no markup, no ids.
    """

    ACTION_TITLES: Mapping[str, str] = {}
    """Action type -> a short imperative title ("Place a worker")."""
    PARAM_LABELS: Mapping[str, str] = {}
    """Parameter name (or ``"type.param"``) -> its label ("space" -> "action space")."""
    VALUE_NAMES: Mapping[str, str] = {}
    """A value id -> its name, for ids fixed by the rules (spaces, colours, kinds)."""

    def __init__(self, game: Any, state: Any, viewer: str | None) -> None:
        self.game = game
        self.state = state
        self.viewer = viewer

    # -- seats ---------------------------------------------------------------------------------
    def seat(self, seat: str) -> str:
        """A seat by its player's (or role's) name."""
        if self.game is None or self.state is None:
            return seat
        try:
            return self.game.seat_name(self.state, seat)
        except (KeyError, IndexError, AttributeError):
            return seat

    def is_seat(self, value: Any) -> bool:
        if self.game is None or self.state is None or not isinstance(value, str):
            return False
        try:
            return value in self.game.seats(self.state)
        except (KeyError, AttributeError):
            return False

    # -- actions -------------------------------------------------------------------------------
    def action_title(self, kind: str) -> str:
        """What a button or menu entry of this action type says."""
        return self.ACTION_TITLES.get(kind) or sentence_case(words(kind))

    def param_label(self, kind: str, param: str) -> str:
        """What the step that picks ``param`` of a ``kind`` action is called."""
        return self.PARAM_LABELS.get(f"{kind}.{param}") or self.PARAM_LABELS.get(param) or words(param)

    def value(self, kind: str, param: str, value: Any) -> str:
        """A parameter's value as people say it."""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, Text):
            return value.hint
        if isinstance(value, IntRange):
            return f"a number from {value.lo} to {value.hi}"
        if isinstance(value, str):
            if self.is_seat(value):
                return self.seat(value)
            return self.VALUE_NAMES.get(value) or words(value)
        if isinstance(value, int | float):
            return str(value)
        if isinstance(value, list | tuple):
            return listing([self.value(kind, param, v) for v in value]) or "none"
        if isinstance(value, dict):
            return listing([f"{words(k)} {self.value(kind, k, v)}" for k, v in value.items()])
        return json.dumps(value, ensure_ascii=False)

    def group(self, kind: str, param: str, value: Any) -> str | None:
        """A heading under which ``value`` is offered when a step has many values (Euphoria's
        spaces by region); ``None`` for no grouping."""
        return None

    def sentence(self, action: Action) -> str:
        """The action as a sentence in the rulebook's words ("Ana places a worker on the Farm")."""
        who = self.seat(action.seat)
        parts = [f"{self.param_label(action.type, k)} {self.value(action.type, k, v)}" for k, v in action.args.items()]
        what = self.action_title(action.type).lower()
        return f"{who}: {what}" + (f" ({', '.join(parts)})" if parts else "")

    def choice_label(self, action: Action) -> str:
        """A button's text for one fully settled action of a choice."""
        parts = [self.value(action.type, k, v) for k, v in action.args.items() if not isinstance(v, Text | IntRange)]
        title = self.action_title(action.type)
        return f"{title}: {', '.join(parts)}" if parts else title
