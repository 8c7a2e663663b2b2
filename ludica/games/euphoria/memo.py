"""The package's one cache: who decides now and each seat's legal actions, per state.

A driver asks the same questions of one state several times before it changes: ``pending``,
then ``legal_actions`` of the seat to move, then ``check`` of the chosen action. The rules
answer once and the answers are kept on the state (:attr:`EuphoriaState.memo`) until the next
``play``:

* ``Euphoria.play`` calls :func:`forget` before it changes the state;
* ``EuphoriaState.copy`` and ``from_json`` start with an empty memo, and ``to_json`` never
  writes it (it is derived, not part of the position);
* code that edits a state by hand (tests setting up a situation) must call :func:`forget`.

Listed ``place`` actions are built once per (seat, face, space) and reused (:func:`placement`):
actions are values, never changed once made.

``check`` accepts an action found among the already listed ones at once (:func:`accepts`);
anything else goes through the detailed validators, which name the rule that refuses it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...core import Action, Pending

Key = tuple[str, str, tuple[tuple[str, type, Any], ...]]


@dataclass(slots=True)
class Memo:
    pending: Pending | None = None
    legal: dict[str, list[Action]] = field(default_factory=dict)
    keys: dict[str, set[Key]] = field(default_factory=dict)


def forget(memo: Memo) -> None:
    """The state is about to change: drop every remembered answer."""
    memo.pending = None
    if memo.legal:
        memo.legal = {}
        memo.keys = {}


def pending(memo: Memo, compute: Callable[[], Pending]) -> Pending:
    if memo.pending is None:
        memo.pending = compute()
    return memo.pending


def legal(memo: Memo, seat: str, compute: Callable[[], list[Action]]) -> list[Action]:
    listed = memo.legal.get(seat)
    if listed is None:
        listed = memo.legal[seat] = compute()
    return listed


def _key(action: Action) -> Key:
    """An action's identity with its values' types, so that ``True`` is never taken for ``1``."""
    return (action.seat, action.type, tuple((k, type(v), v) for k, v in action.args.items()))


def accepts(memo: Memo, action: Action) -> bool:
    """True when ``action`` is one of its seat's legal actions as already listed (none is a
    template). Nothing is listed just for this: a replay validates through the rules."""
    listed = memo.legal.get(action.seat)
    if listed is None:
        return False
    for a in listed:  # a driver usually hands back one of the listed objects
        if a is action:
            return True
    keys = memo.keys.get(action.seat)
    if keys is None:
        keys = memo.keys[action.seat] = {_key(a) for a in listed}
    try:
        return _key(action) in keys
    except TypeError:  # an unhashable value (a list...) is never a listed action
        return False


_PLACEMENTS: dict[tuple[str, int, str], Action] = {}


def placement(seat: str, face: int, space: str) -> Action:
    """The listed action ``place worker=face space=space`` of ``seat``, made once."""
    action = _PLACEMENTS.get((seat, face, space))
    if action is None:
        action = _PLACEMENTS[seat, face, space] = Action(seat, "place", {"worker": face, "space": space})
    return action
