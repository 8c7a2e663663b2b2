"""The package's one cache: who decides now and each seat's legal actions, per state.

A driver asks the same questions of one state several times before it changes: ``pending``,
then ``legal_actions`` of the seat to move, then ``check`` of the chosen action. The rules
answer once and the answers are kept on the state (:attr:`EuphoriaState.memo`) until the next
``play`` (``Euphoria.pending`` and ``legal_actions`` fill :class:`Memo` directly: no closure
per question):

* ``Euphoria.play`` calls :func:`forget` before it changes the state;
* ``EuphoriaState.copy`` and ``from_json`` start with an empty memo, and ``to_json`` never
  writes it (it is derived, not part of the position);
* code that edits a state by hand (tests setting up a situation) must call :func:`forget`.

Listed ``place`` actions are built once per (seat, face, space) and reused (:func:`placement`),
and so are the answers to prompts and the other one-parameter turn actions (``retrieve``,
``offer_trade``: :func:`answers`, per seat, kind and option) and the actions without parameters
(:func:`bare`): actions are values, never changed once made.

``check`` accepts an action found among the already listed ones at once (:func:`accepts`);
anything else goes through the detailed validators, which name the rule that refuses it.
"""

from __future__ import annotations

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


_PLACEMENTS: dict[tuple[str, int], dict[str, Action]] = {}


def placement(seat: str, face: int, space: str) -> Action:
    """The listed action ``place worker=face space=space`` of ``seat``, made once."""
    return placements(seat, face, [space])[0]


def placements(seat: str, face: int, spaces: list[str]) -> list[Action]:
    """:func:`placement` of ``seat`` and ``face`` on each of ``spaces``, in their order."""
    row = _PLACEMENTS.get((seat, face))
    if row is None:
        row = _PLACEMENTS[seat, face] = {}
    out = []
    for space in spaces:
        action = row.get(space)
        if action is None:
            action = row[space] = Action(seat, "place", {"worker": face, "space": space})
        out.append(action)
    return out


_BARE: dict[tuple[str, str], Action] = {}


def bare(seat: str, kind: str) -> Action:
    """The listed action ``kind`` of ``seat`` without parameters (``end_turn``...), made once."""
    action = _BARE.get((seat, kind))
    if action is None:
        action = _BARE[seat, kind] = Action(seat, kind)
    return action


_ANSWERS: dict[tuple[str, str], dict[str, Action]] = {}
_ANSWERS_MADE = [0]
ANSWERS_KEPT = 50_000
"""At most this many answer actions are kept (the cache is emptied past it)."""


def answers(seat: str, kind: str, param: str, options: list[Any]) -> list[Action]:
    """The listed answers ``kind param=option`` of ``seat`` to a prompt, one per option in order;
    an answer naming a text option is made once and reused (actions are values)."""
    row = _ANSWERS.get((seat, kind))
    if row is None:
        if _ANSWERS_MADE[0] > ANSWERS_KEPT:
            _ANSWERS.clear()
            _ANSWERS_MADE[0] = 0
        row = _ANSWERS[seat, kind] = {}
    out = []
    for option in options:
        if not isinstance(option, str):
            out.append(Action(seat, kind, {param: option}))
            continue
        action = row.get(option)
        if action is None:
            action = row[option] = Action(seat, kind, {param: option})
            _ANSWERS_MADE[0] += 1
        out.append(action)
    return out
