"""What an option does, computed by the rules (DESIGN.md principle 16).

The rules are pure and a state can be copied, so the consequence of an option need not be
written by hand: :func:`consequence` plays the action on a copy of the state, up to the next
chance step or decision (one :meth:`~ludica.core.game.Game.play`), and compares what the deciding
seat sees before and after (:meth:`~ludica.core.game.Game.view`). The difference is a
:class:`Consequence`: the view's leaves that changed (:class:`Change`), who decides next, and the
chance step that comes next (dice to roll, a card to draw) when there is one.

Nothing here may reveal what the seat cannot see. The seat's own view is compared, so hidden
values never enter; and where the result still depends on hidden values (a redeal of the hidden
rest would change it), only the part that is the same under every redeal tried is kept
(:func:`stable`): the game's redeal plugin (:meth:`~ludica.core.game.Game.redeal`) draws the
hidden rest again and the same action is played there too.

A game's namer words the difference (:meth:`ludica.core.names.Namer.consequence`); the base namer
gives a generic wording from the changed leaves so that every option of every game says
something, and a game says it in its rulebook's words by overriding
:meth:`~ludica.core.names.Namer.word_change` or :meth:`~ludica.core.names.Namer.word_consequence`.

This module is for front ends and tests (pure Python, like the namers): it copies the state and
renders views, several times per option, so bots and environments never call it.

>>> from ludica.core.actions import Action
>>> flatten({"you": {"coins": 3, "hand": ["a", "b"]}, "turn": "p2"})
{('you', 'coins'): 3, ('you', 'hand'): ('a', 'b'), ('turn',): 'p2'}
>>> [str(c) for c in changes({"coins": 3, "hand": ["a"]}, {"coins": 1, "hand": ["a", "b"]})]
['coins: 3 -> 1', 'hand: + b']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .actions import CHANCE, Action, IntRange, Text
from .errors import LudicaError

Path = tuple[str, ...]

REDEALS = 3
"""How many redeals of the hidden rest an option is played in, to keep only what is the same in
all of them (what the seat may know)."""

LIST_LEAF = 12
"""A list of at most this many scalars is one leaf (its items compared as a multiset); longer
lists, or lists of objects, are walked by index."""


@dataclass(frozen=True, slots=True)
class Change:
    """One leaf of the seat's view that the option changes: ``path`` into the view, the value
    before and after (``None``: absent). For a list leaf, ``added`` and ``removed`` say which
    items came and went."""

    path: Path
    before: Any
    after: Any
    added: tuple[Any, ...] = ()
    removed: tuple[Any, ...] = ()

    @property
    def delta(self) -> int | float | None:
        """The signed difference of a number (``None`` for anything else)."""
        if _number(self.before) and _number(self.after):
            return self.after - self.before  # type: ignore[no-any-return]
        if self.before is None and _number(self.after):
            return self.after  # type: ignore[no-any-return]
        return None

    @property
    def key(self) -> str:
        """The last named step of the path (indices skipped): ``("players", "p1", "morale")`` ->
        ``"morale"``."""
        for step in reversed(self.path):
            if not step.isdigit():
                return step
        return ""

    def __str__(self) -> str:
        """The change as comparable text: a list leaf's items sorted (it is compared as a
        multiset, so two orders of the same items are the same change)."""
        where = ".".join(self.path)
        if self.added or self.removed:
            moved = sorted(f"+ {_plain(a)}" for a in self.added) + sorted(f"- {_plain(r)}" for r in self.removed)
            return f"{where}: {', '.join(moved)}"
        return f"{where}: {_plain(self.before)} -> {_plain(self.after)}"


@dataclass(frozen=True, slots=True)
class Consequence:
    """What one option does, as far as its seat can tell: the view's changed leaves (those the
    same under every redeal tried), who decides next, and the chance step coming next.

    When the result depends on what the seat cannot see, the changes that differ between redeals
    are left out: ``unsure`` holds the paths of those that change in every redeal, only to values
    that differ (a face-down tile turned face up: that it turns is known, not what it shows), so
    a namer can say what is at stake; ``uncertain`` is True when some other change was left out
    (made in some redeals only) or who decides next differs; ``refused`` holds the refusal when the rules refuse
    the action as filled in (a typed value out of range)."""

    action: Action
    changes: tuple[Change, ...] = ()
    next_seats: tuple[str, ...] = ()
    next_phase: str = ""
    chance: Any = None
    """The :data:`~ludica.core.chance.ChanceStep` that comes right after, or ``None``."""
    over: bool = False
    uncertain: bool = False
    refused: str = ""
    unsure: tuple[Path, ...] = ()
    owners: tuple[tuple[Path, str], ...] = ()
    """``(path, seat)`` for the entries of the view that belong to a seat (an object of a list
    with a ``seat`` field), so a change under ``players.2`` is said as that seat's."""

    entries: tuple[tuple[Path, str], ...] = ()
    """``(path, id)`` for the entries of the view's lists that carry an ``id`` (a resource, a
    memory), so a change of one of its fields names it."""

    def entry(self, path: Sequence[str]) -> str | None:
        """The id of the innermost entry of the view holding ``path``, if it has one."""
        best: tuple[int, str] | None = None
        for prefix, ident in self.entries:
            inside = len(prefix) < len(path) and tuple(path[: len(prefix)]) == prefix
            if inside and (best is None or len(prefix) > best[0]):
                best = (len(prefix), ident)
        return best[1] if best else None

    def owner(self, path: Sequence[str]) -> str | None:
        """The seat an entry of the view at ``path`` belongs to, if the view says so."""
        for prefix, seat in self.owners:
            if tuple(path[: len(prefix)]) == prefix:
                return seat
        return None

    @property
    def signature(self) -> tuple[Any, ...]:
        """What the option results in, comparable between options: two options with different
        signatures must read differently."""
        chance = None if self.chance is None else (self.chance.type, repr(self.chance))
        said = (tuple(map(str, self.changes)), self.next_seats, self.next_phase, chance, self.over, self.refused)
        return (*said, self.unsure)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _plain(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(map(_plain, value)) + "]"
    return str(value)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _small(value: Any) -> bool:
    """A short list of scalars (a worker as ``[seat, die]``): one item of a list leaf."""
    return isinstance(value, list | tuple) and len(value) <= 4 and all(_scalar(v) for v in value)


def flatten(view: Any, path: Path = ()) -> dict[Path, Any]:
    """A view as its leaves: ``path -> value``; a short list of scalars (or of short lists of
    scalars) is one leaf (a tuple)."""
    out: dict[Path, Any] = {}
    if isinstance(view, Mapping):
        for k, v in view.items():
            out.update(flatten(v, (*path, str(k))))
    elif isinstance(view, list | tuple):
        if len(view) <= LIST_LEAF and all(_scalar(v) or _small(v) for v in view):
            out[path] = tuple(tuple(v) if isinstance(v, list | tuple) else v for v in view)
        else:
            for i, v in enumerate(view):
                out.update(flatten(v, (*path, str(i))))
    else:
        out[path] = view
    return out


OWNER_KEYS = ("seat", "owner")
"""The fields that say which seat an entry of a view belongs to."""


def owners(view: Any, path: Path = (), keys: tuple[str, ...] = OWNER_KEYS) -> list[tuple[Path, str]]:
    """``(path, value)`` of every object in a list of ``view`` with one of ``keys`` (by default
    the seat it belongs to, :data:`OWNER_KEYS`)."""
    out: list[tuple[Path, str]] = []
    if isinstance(view, Mapping):
        if path and path[-1].isdigit():
            seat = next((view[k] for k in keys if isinstance(view.get(k), str)), None)
            if seat is not None:
                out.append((path, seat))
        for k, v in view.items():
            out += owners(v, (*path, str(k)), keys)
    elif isinstance(view, list | tuple):
        for i, v in enumerate(view):
            if isinstance(v, Mapping | list | tuple):
                out += owners(v, (*path, str(i)), keys)
    return out


def _multiset_diff(before: tuple[Any, ...], after: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    left = list(before)
    added = []
    for item in after:
        if item in left:
            left.remove(item)
        else:
            added.append(item)
    return tuple(added), tuple(left)


_MISSING: Any = object()


def _differing(before: Any, after: Any, path: Path, old: dict[Path, Any], new: dict[Path, Any]) -> None:
    """The leaves of the parts of two views that differ (:func:`flatten` of those parts only:
    equal subtrees, most of a view, are skipped at once)."""
    if before is not _MISSING and after is not _MISSING and type(before) is type(after) and before == after:
        return
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        for k, v in after.items():
            _differing(before.get(k, _MISSING), v, (*path, str(k)), old, new)
        for k, v in before.items():
            if k not in after:
                old.update(flatten(v, (*path, str(k))))
        return
    both_lists = isinstance(before, list | tuple) and isinstance(after, list | tuple)
    if both_lists:
        leafy = all(len(x) <= LIST_LEAF and all(_scalar(v) or _small(v) for v in x) for x in (before, after))
        if not leafy:  # walked by index: the common part pairwise, the rest whole
            for i in range(max(len(before), len(after))):
                x = before[i] if i < len(before) else _MISSING
                y = after[i] if i < len(after) else _MISSING
                _differing(x, y, (*path, str(i)), old, new)
            return
    if before is not _MISSING:
        old.update(flatten(before, path))
    if after is not _MISSING:
        new.update(flatten(after, path))


def changes(before: Any, after: Any) -> list[Change]:
    """The leaves of two views that differ, in the order of the later view (then removed ones)."""
    old: dict[Path, Any] = {}
    new: dict[Path, Any] = {}
    _differing(before, after, (), old, new)
    out = []
    for path, value in new.items():
        was = old.get(path)
        if path in old and was == value and type(was) is type(value):
            continue
        if isinstance(was, tuple) or isinstance(value, tuple):
            added, removed = _multiset_diff(
                was if isinstance(was, tuple) else (), value if isinstance(value, tuple) else ()
            )
            if not added and not removed:  # the same items in another order
                continue
            out.append(Change(path, was, value, added, removed))
        else:
            out.append(Change(path, was, value))
    out.extend(
        Change(path, value, None, (), value if isinstance(value, tuple) else ())
        for path, value in old.items()
        if path not in new
    )
    return out


def _played(game: Any, state: Any, action: Action) -> tuple[Any, str]:
    """``(state after, "")`` with ``action`` played on a copy of ``state``, or ``(None, refusal)``."""
    after = game.copy(state)
    try:
        game.check(after, action)
        game.play(after, action)
    except LudicaError as exc:
        return None, exc.reason  # the rule's tag ("[chance]", "[LD-R3; …]") is for programs
    except (ValueError, KeyError, TypeError) as exc:
        return None, str(exc)
    return after, ""


def _diff(game: Any, state: Any, action: Action, before: Any = None) -> tuple[list[Change], Any, str]:
    after, refused = _played(game, state, action)
    if after is None:
        return [], None, refused
    seen = before if before is not None else game.view(state, action.seat)
    return changes(seen, game.view(after, action.seat)), after, ""


WORLDS_KEPT = 64
_WORLDS: dict[tuple[str, str, str, int, int], list[tuple[Any, Any]]] = {}


def _worlds(game: Any, state: Any, seat: str, redeals: int, seed: int, known: str | None) -> list[tuple[Any, Any]]:
    """The redeals of ``state`` for ``seat`` with the seat's view of each (with ``redeals`` 0, a
    copy of the state itself): made once per decision when ``known`` (what the seat knows, as
    text) names it, so every option of that decision is played in the same worlds without dealing
    them again."""
    key = (str(game.meta.id), seat, known or "", redeals, seed)
    found = _WORLDS.get(key) if known is not None else None
    if found is None:
        found = []
        for n in range(redeals):
            other = game.redeal(state, seat, random.Random(f"consequence {seed} {n}"))
            found.append((other, game.view(other, seat)))
        if redeals == 0:  # nothing hidden: the state itself (a copy: the caller's state moves on)
            found.append((game.copy(state), game.view(state, seat)))
        if known is not None:
            if len(_WORLDS) >= WORLDS_KEPT:
                _WORLDS.clear()
            _WORLDS[key] = found
    return found


_OWNERS: dict[tuple[str, str, str], tuple[tuple[tuple[Path, str], ...], tuple[tuple[Path, str], ...]]] = {}


def _owned(
    game: Any, state: Any, seat: str, known: str | None = None
) -> tuple[tuple[tuple[Path, str], ...], tuple[tuple[Path, str], ...]]:
    """:func:`owners` of the seat's view and its entries' ids, found once per decision when
    ``known`` names it."""
    key = (str(game.meta.id), seat, known or "")
    found = _OWNERS.get(key) if known is not None else None
    if found is None:
        seen = game.view(state, seat)
        found = (tuple(owners(seen)), tuple(owners(seen, keys=("id",))))
        if known is not None:
            if len(_OWNERS) >= WORLDS_KEPT:
                _OWNERS.clear()
            _OWNERS[key] = found
    return found


def consequence(
    game: Any, state: Any, action: Action, *, redeals: int = REDEALS, seed: int = 0, known: str | None = None
) -> Consequence:
    """What ``action`` does for its seat: played on a copy of ``state`` (never changed), the
    seat's view compared before and after. With hidden information it is played instead on
    ``redeals`` redeals of what the seat cannot see, and only what is the same in all of them is
    kept (:func:`stable`): the answer is then a function of what the seat knows, so it reveals
    nothing, whatever the true hidden rest."""
    hidden = bool(getattr(game.meta, "hidden_information", False)) and redeals > 0
    if not hidden:
        ((world, before),) = _worlds(game, state, action.seat, 0, seed, known)
        found, after, refused = _diff(game, world, action, before)
        if after is None:
            return Consequence(action, refused=refused)
        said = _said(game, action, found, after, False)
    else:
        said = stable(game, state, action, redeals, seed, known)
    whose, ids = _owned(game, state, action.seat, known)
    return replace(said, owners=whose, entries=ids)


def _said(game: Any, action: Action, found: Sequence[Change], after: Any, uncertain: bool) -> Consequence:
    pending = game.pending(after)
    chance = None
    if pending.is_chance:
        try:
            chance = game.chance_step(after)
        except (LudicaError, NotImplementedError, ValueError, KeyError):
            chance = None
    return Consequence(
        action,
        tuple(found),
        tuple(s for s in pending.seats if s != CHANCE),
        pending.phase,
        chance,
        pending.is_over,
        uncertain,
    )


def stable(
    game: Any, state: Any, action: Action, redeals: int = REDEALS, seed: int = 0, known: str | None = None
) -> Consequence:
    """The consequence of ``action`` common to ``redeals`` redeals of what its seat cannot see
    (the game's :meth:`~ludica.core.game.Game.redeal`, seeded): each change made in every one of
    them, who decides next and the chance step when the same in all; ``unsure``: the paths
    changed in all of them to values that differ; ``uncertain`` when the redeals disagree
    otherwise (the result depends on the hidden rest). A redeal is a function of what the
    seat knows and of its generator, so the same answer comes from any state the seat cannot tell
    apart from ``state``."""
    try:
        worlds = _worlds(game, state, action.seat, redeals, seed, known)
    except (NotImplementedError, LudicaError, ValueError, KeyError):
        return Consequence(action, uncertain=True)
    runs = [_diff(game, other, action, before) for other, before in worlds]
    refusals = [refused for _, after, refused in runs if after is None]
    if len(refusals) == len(runs):
        return Consequence(action, refused=refusals[0])
    if refusals:
        return Consequence(action, uncertain=True)
    first, after, _ = runs[0]
    said = [{str(c) for c in found} for found, _, _ in runs[1:]]
    kept = [c for c in first if all(str(c) in other for other in said)]
    unsure = _unsure(kept, [found for found, _, _ in runs])
    left = {str(c) for c in kept}
    uncertain = any(str(c) not in left and c.path not in unsure for found, _, _ in runs for c in found)
    result = replace(_said(game, action, kept, after, uncertain), unsure=unsure)
    others = [_said(game, action, (), a, False) for _, a, _ in runs[1:]]
    if any(o.signature[1:-1] != result.signature[1:-1] for o in others):  # what comes next differs
        result = replace(result, next_seats=(), next_phase="", chance=None, over=False, uncertain=True)
    return result


def _unsure(kept: Sequence[Change], runs: Sequence[Sequence[Change]]) -> tuple[Path, ...]:
    """The paths changed in every run but not kept (their values differ between the runs), in
    the first run's order."""
    stay = {c.path for c in kept}
    paths = [{c.path for c in found} for found in runs[1:]]
    return tuple(c.path for c in runs[0] if c.path not in stay and all(c.path in p for p in paths))


KEPT = 2048
"""At most this many consequences are remembered (then all are forgotten)."""

_KEPT: dict[tuple[str, str, str], Consequence] = {}


def knowledge(game: Any, state: Any, seat: str) -> str | None:
    """What ``seat`` knows of ``state``, as text: its view with hidden information, else the whole
    position, and who must decide now (``None`` when it cannot be written). The key of
    :func:`remembered`."""
    import json

    hidden = bool(getattr(game.meta, "hidden_information", False))
    try:
        known = game.view(state, seat) if hidden else game.to_position(state)
        waiting = game.pending(state).to_json()  # public, and not always in the view (a sealed bid made)
        return json.dumps([known, waiting], sort_keys=True, default=str)
    except (TypeError, ValueError):
        return None


def remembered(game: Any, state: Any, action: Action, known: str | None = None) -> Consequence:
    """:func:`consequence`, remembered per game, seat's view and action: a front end that shows
    the same decision again (another render, another viewer's page) computes it once. With hidden
    information the seat's view is the key (the answer depends only on what the seat knows: the
    redeals), so two states the seat cannot tell apart share it; otherwise the whole position.
    ``known``: :func:`knowledge` of the seat, when the caller has it already."""
    seen = known if known is not None else knowledge(game, state, action.seat)
    if seen is None:
        return consequence(game, state, action)
    key = (str(game.meta.id), seen, str(action))
    found = _KEPT.get(key)
    if found is None:
        if len(_KEPT) >= KEPT:
            _KEPT.clear()
        found = _KEPT[key] = consequence(game, state, action, known=seen)
    return found


def forget() -> None:
    """Forget every remembered consequence (:func:`remembered`) and imagined world."""
    _KEPT.clear()
    _WORLDS.clear()
    _OWNERS.clear()


def sample_value(spec: Any) -> Any:
    """A value a field accepts, to compute a consequence before anything is typed: the lowest
    number of a range, a placeholder text."""
    if isinstance(spec, IntRange):
        return spec.lo
    if isinstance(spec, Text):
        return spec.prefix + " …" if spec.prefix else "…"
    return spec


def filled_in(template: Action, fields: Mapping[str, Any] | None = None) -> Action:
    """A template with every field filled: from ``fields`` where given, else :func:`sample_value`."""
    if not template.is_template:
        return template
    given = fields or {}
    args = {k: given.get(k, sample_value(v)) if isinstance(v, Text | IntRange) else v for k, v in template.args.items()}
    return Action(template.seat, template.type, args)


FIELD_VALUES = 13
"""A number field with at most this many values has the consequence of each value computed, so a
front end can show the consequence of the value typed (more: of its lowest value only)."""


def field_values(template: Action) -> list[tuple[str, int]]:
    """``(param, value)`` for every value of the template's one number field, when it is small
    enough to compute each (:data:`FIELD_VALUES`); empty otherwise."""
    ranges = [(k, v) for k, v in template.args.items() if isinstance(v, IntRange)]
    if len(ranges) != 1 or any(isinstance(v, Text) for v in template.args.values()):
        return []
    name, spec = ranges[0]
    if spec.hi - spec.lo + 1 > FIELD_VALUES:
        return []
    return [(name, v) for v in range(spec.lo, spec.hi + 1)]
