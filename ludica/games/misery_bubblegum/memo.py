"""The decision memo: what the rules answer about one state, remembered until the state changes.

Between two decisions a driver asks the same questions several times: who decides now
(:meth:`Game.pending`, asked by the driver and again by its check), what a seat may do
(:meth:`Game.legal_actions`), whether an action is acceptable (:meth:`Game.check`). The answers
depend only on the state, so they are computed once and kept in ``MiseryState.memo``:

* the context (where the table is, :func:`.common.context`), who decides, and the chance step;
* each seat's legal actions, as listed by :mod:`.legal`. Once a seat's actions are listed,
  ``check`` accepts at once one of these very :class:`Action` objects (a bot or a table hands
  back what it was offered; actions are values, never changed) or an action that fills in a
  listed template (:func:`fills`); any other action goes through the detailed validators of
  :mod:`.rules`, which accept exactly the listed actions and name the rule of a refusal.

The memo is forgotten by every change of the state: ``play`` drops it first (as :func:`forget`
does), and :meth:`Game.setup`, :meth:`Game.copy` and :meth:`Game.from_position` make states with
no memo. It is never part of a position (:mod:`.position` writes the rules' fields only) and never
compared. Code that changes a state by hand, outside ``play`` (tests setting up a table),
must call :func:`forget` afterwards.

Values are also made once and shared, wherever the same one is needed again (they are never
changed): the listed actions without free parameters (``legal.decision``), the roll templates
(``legal.roll_template``), the parameter declarations (``legal.amount``, ``legal.INTENT``...;
a frozen declaration is slow to create) and the chance steps (``game.d6_roll``).
"""

from __future__ import annotations

from typing import Any

from ...core import Action, Pending, Roll
from ...core.actions import matches
from ...core.values import rebuilt
from .common import context
from .state import MiseryState


class Memo:
    """The answers of the rules about one state (see the module docstring).

    A plain class: a dataclass with default factories takes three times as long to make, and
    a memo is made for every state.
    """

    __slots__ = ("chance_step", "context", "legal", "pending")

    def __init__(self, context: str) -> None:
        self.context = context
        self.pending: Pending | None = None
        self.chance_step: Roll | None = None
        self.legal: dict[str, list[Action]] = {}
        """Each seat's legal actions, by seat, as they are asked for."""

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.context)  # see ludica.core.values

    def listed(self, action: Action) -> bool:
        """True when ``action`` is one of the actions listed for its seat, or fills in one of the
        listed templates (free text and numbers)."""
        offered = self.legal.get(action.seat, ())
        for one in offered:
            if one is action:
                return True
        kind = action.type
        for one in offered:  # noqa: SIM110 (a loop is faster than any() here)
            if one.type == kind and fills(one, action):
                return True
        return False


fills = matches
"""True when ``action`` fills in the listed ``template`` (the core's :func:`~ludica.core.actions.matches`:
declared parameters hold values they accept, every other parameter the same value of the same type,
so what it lets through the validators accept too)."""


def memo_of(state: MiseryState) -> Memo:
    """The state's memo, started when first asked for."""
    memo = state.memo
    if memo is None:
        memo = state.memo = Memo(context(state))
    return memo


def forget(state: MiseryState) -> None:
    """The state is about to change (or has changed by hand): every remembered answer is void."""
    state.memo = None
