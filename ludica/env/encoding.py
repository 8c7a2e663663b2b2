"""The generic encodings every environment adapter shares: actions, observations, rewards.

**Actions.** Each game declares its *action catalogue* (:class:`Catalogue`) as a list of
:class:`Shape`: an action type, its parameters, and the finite domain of each parameter, derived
from the game's static data and the config (seats, players, caps on ids the game counts up). The
flat index of an action is the offset of its shape plus the mixed-radix number of its parameter
values. Free text (:class:`~ludica.core.actions.Text`) is one digit of radix 1: the index names the
choice, the words are filled in when the action is decoded (a default template, or a policy's
own :data:`TextFiller`). An integer parameter (:class:`~ludica.core.actions.IntRange` in a legal
template) is enumerated over its declared domain, so each amount has its own index.

Where a parameter's domain would be too large to enumerate (combinations of payment tokens, an
ordering of players), the shape is *ranked* (a two-level encoding): the index is the shape's offset
plus the rank of the action among the legal actions of that shape at this step, in a canonical
order (sorted by their JSON); ``ranked`` is the most such actions the game can list at once.

**Observations.** A fixed-size float vector per seat, computed from the seat's view only:
a header (which seat this is, which seats must decide now) and :data:`HASHED` hashed view
features: every leaf of the view JSON is a feature keyed by its path (list positions written
``*``); a number adds its value, a boolean 0/1, a string adds 1 under ``path=value``. Keys are
hashed with CRC-32 into the slots with a sign (feature hashing), so the layout is fixed per game
and config, and nothing enters it that the view does not show.

**Rewards.** ``"outcome"``: +1 for each winner, -1 for every other player, 0 for every seat when
nobody wins or everybody does (and for a referee seat). ``"score"``: the game's own score of the
seat (:attr:`~ludica.core.game.Outcome.scores`), 0 where it has none.
"""

from __future__ import annotations

import importlib
import itertools
import json
import math
import operator
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, SupportsIndex

import numpy as np

from ..core.actions import Action, IntRange, Text
from ..core.game import Config, Game, Outcome
from ..core.values import Value

FREE = None
"""The domain of a free-text parameter (filled in when decoding)."""

HASHED = 256
"""Slots of hashed view features in every observation vector."""

OBS_BOUND = 1e6
"""Observation values are clipped to ``[-OBS_BOUND, OBS_BOUND]``."""

TextFiller = Callable[[Action, str, Text], str]
"""Writes the text of parameter ``name`` of a legal-action template: ``(template, name, spec) -> text``."""


class EncodingError(ValueError):
    """A legal action that the game's declared catalogue cannot encode (a gap in the declaration)."""


@dataclass(frozen=True, slots=True)
class Shape(Value):
    """One shape of an action type: its parameters with their domains (``FREE`` for text).

    ``ranked > 0`` makes it a two-level shape: ``ranked`` slots, the legal actions of this shape
    ranked in canonical order (their parameters' domains are then not enumerated).
    """

    type: str
    params: tuple[tuple[str, tuple[Any, ...] | None], ...] = ()
    ranked: int = 0

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.params)

    @property
    def size(self) -> int:
        if self.ranked:
            return self.ranked
        size = 1
        for _, domain in self.params:
            size *= 1 if domain is FREE else len(domain)
        return size


def shape(type_: str, /, ranked: int = 0, **params: Iterable[Any] | None) -> Shape:
    """``shape("pour", target=seats, units=range(1, 11))``: a shape from keyword domains."""
    return Shape(type_, tuple((k, None if v is None else tuple(v)) for k, v in params.items()), ranked)


def ids(prefix: str, count: int, start: int = 1) -> tuple[str, ...]:
    """``ids("c", 3)`` -> ``("c1", "c2", "c3")``: ids a game counts up, capped."""
    return tuple(f"{prefix}{i}" for i in range(start, start + count))


def default_text(template: Action, name: str, spec: Text) -> str:
    """The default words of a free-text parameter: its prefix and hint, e.g. ``"I remember (a memory)"``."""
    body = f"({spec.hint})" if spec.hint else "(text)"
    text = f"{spec.prefix} {body}" if spec.prefix else body
    while len(text) < spec.min_len:
        text += "."
    return text[: spec.max_len]


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _key(value: Any) -> Any:
    """A dictionary key of a parameter value: scalars by type and value, the rest by their JSON."""
    kind = type(value)
    if kind is str or kind is int or kind is bool:
        return (kind, value)
    return _canon(value)


def _span(domain: tuple[Any, ...] | None) -> tuple[int, int] | None:
    """``(first, count)`` when ``domain`` is the integers ``first, first + 1, ...`` (exactly ``int``)."""
    if not domain or any(type(v) is not int for v in domain):
        return None
    first = domain[0]
    return (first, len(domain)) if list(domain) == list(range(first, first + len(domain))) else None


_PLAIN = frozenset({str, int, bool, float, type(None), IntRange, Text})

MEMO_LIMIT = 2_000
"""Templates a catalogue remembers the indices of (forgotten all at once beyond this)."""


SMALL = 1_024
"""A template standing for at most this many indices has them worked out in Python, not numpy
(numpy's set-up per call costs more than a few hundred Python additions)."""


FEW = 16
"""Legal indices a mask sets one by one; more go through one index array (about 0.1 µs an index
one by one, about 1.3 µs more than that for making the array, 2026-11-27)."""


def _names(template: Action, chosen: dict[str, Any], action: Action) -> bool:
    """Whether ``template`` with the values ``chosen`` is ``action`` (free text aside)."""
    args = action.args
    if set(args) != set(template.args):
        return False
    for name, value in template.args.items():
        if name in chosen:
            value = chosen[name]
        elif isinstance(value, Text):
            continue
        if _key(value) != _key(args[name]):
            return False
    return True


def _template_key(template: Action) -> Any:
    """A hashable key equal only for templates with the same type and arguments of the same types
    (``1``, ``1.0`` and ``True`` differ); ``None`` when an argument is not a scalar. The seat is
    not in it: a template's indices do not depend on who may take it (two seats offered the same
    trade share them)."""
    parts: list[Any] = [template.type, template.narration]
    for name, value in template.args.items():
        kind = type(value)
        if kind not in _PLAIN:
            return None
        parts += (name, kind, value)
    return tuple(parts)


def _combine(base: int, ranges: Sequence[tuple[int, str, list[tuple[int, Any]]]]) -> list[tuple[int, dict[str, Any]]]:
    """Every combination of the integer parameters' values, in ``itertools.product``'s order over
    ``ranges`` (``(weight, name, [(position, value), ...])``, the declared order): its number
    (``base`` plus each position times its weight) and the values chosen. One comprehension per
    parameter (Lost Days' ``propose_trade`` spells out up to 61 x 61 amounts at a step)."""
    (weight, name, options), *rest = ranges
    out = [(base + pos * weight, {name: value}) for pos, value in options]
    for weight, name, options in rest:
        out = [(number + pos * weight, {**chosen, name: value}) for number, chosen in out for pos, value in options]
    return out


class Indexed:
    """The indices one non-ranked legal template stands for, worked out once (and remembered by
    the catalogue): every index as a numpy array, without spelling out each action's values;
    :meth:`chosen` reads an index's values back from its mixed-radix digits."""

    __slots__ = ("_array", "_numbers", "base", "digits", "offset", "ranges", "size")

    def __init__(
        self,
        offset: int,
        size: int,
        base: int,
        ranges: list[tuple[int, str, list[tuple[int, Any]]]],
        digits: list[tuple[str, int, int, dict[int, Any] | None]],
    ) -> None:
        self.offset, self.size, self.base, self.ranges = offset, size, base, ranges
        self.digits = digits
        """Per parameter, least significant first: (name, radix, fixed position, options by position or None)."""
        self._array: np.ndarray | None = None
        self._numbers: list[int] | None = None

    def __reduce__(self) -> tuple[Any, ...]:  # compiled with mypyc: pickled by its arguments
        return Indexed, (self.offset, self.size, self.base, self.ranges, self.digits)

    @property
    def array(self) -> np.ndarray:
        """Every index, in ``itertools.product``'s order over the ranges (as :func:`_combine`)."""
        numbers = self._array
        if numbers is None:
            if self._count() <= SMALL:  # a few Python ints are cheaper turned into an array at once
                self._array = numbers = np.array(self.numbers, dtype=np.int64)
                return numbers
            numbers = np.array([self.offset + self.base], dtype=np.int64)
            for weight, _, options in self.ranges:
                steps = np.array([pos * weight for pos, _ in options], dtype=np.int64)
                numbers = (numbers[:, None] + steps).ravel()
            self._array = numbers
        return numbers

    @property
    def numbers(self) -> list[int]:
        """:attr:`array` as a list (made once: a step's few indices are cheaper set and sorted one by
        one than through numpy); up to :data:`SMALL` of them worked out without numpy."""
        found = self._numbers
        if found is None:
            if self._count() > SMALL:
                found = self._numbers = self.array.tolist()
                return found
            found = [self.offset + self.base]
            for weight, _, options in self.ranges:
                steps = [pos * weight for pos, _ in options]
                found = [number + step for number in found for step in steps]
            self._numbers = found
        return found

    def _count(self) -> int:
        count = 1
        for _, _, options in self.ranges:
            count *= len(options)
        return count

    def chosen(self, index: int) -> dict[str, Any] | None:
        """The integer values chosen at ``index`` (``{}`` for none), ``None`` if it is not one of these."""
        number = index - self.offset
        if not 0 <= number < self.size:
            return None
        picked: list[tuple[str, Any]] = []
        for name, radix, fixed, options in self.digits:
            number, digit = divmod(number, radix)
            if options is None:
                if digit != fixed:
                    return None
            elif digit in options:
                picked.append((name, options[digit]))
            else:
                return None
        return dict(reversed(picked))

    def spelled(self, template: Action) -> dict[int, tuple[Action, dict[str, Any]]]:
        """Every index with its template and values, in the order of :attr:`array`."""
        if not self.ranges:
            return {self.offset + self.base: (template, {})}
        return {self.offset + number: (template, chosen) for number, chosen in _combine(self.base, self.ranges)}


class Legal:
    """The legal actions of one seat at one step, by catalogue index: the templates that stand
    for one index each (:attr:`single`), those with integer ranges (:attr:`parts`, each with its
    :class:`Indexed`), then the ranked ones; where two share an index, the later template in the
    game's listing wins (the ranked ones last), as when every index was spelled out in order."""

    __slots__ = ("_array", "_hit", "_indices", "_last", "_templates", "after", "order", "parts", "ranked", "rows",
                 "single")  # fmt: skip

    def __init__(self) -> None:
        self.single: dict[int, Action] = {}
        """Index -> template, for the templates without ranges (a later one replaces an earlier)."""
        self.after: dict[int, int] = {}
        """Index -> how many of :attr:`parts` were listed before its single template (kept only when some were)."""
        self.parts: list[tuple[Action, Indexed]] = []
        """The templates with ranges and their indices, in the listing's order."""
        self.ranked: dict[int, tuple[Action, dict[str, Any]]] = {}
        self.order: list[tuple[Action, Indexed]] = []
        """Every non-ranked template with its indices, in the listing's order."""
        self.rows: np.ndarray | None = None
        """The factored rows of :attr:`indices` once asked for (:meth:`Catalogue.factored_legal`)."""
        self._array: np.ndarray | None = None
        self._indices: list[int] | None = None
        self._templates: dict[int, tuple[Action, dict[str, Any]]] | None = None
        self._last = -1
        self._hit: tuple[Action, dict[str, Any]] | None = None
        """The last index looked up and its entry (a step checks, decodes and applies one index)."""

    def __reduce__(self) -> tuple[Any, ...]:  # compiled with mypyc: pickled by its listing (not its caches)
        return _legal, (self.single, self.after, self.parts, self.ranked, self.order, self.rows)

    def add(self, template: Action, indexed: Indexed) -> None:
        """The next non-ranked template of the listing, with its indices."""
        self.order.append((template, indexed))
        if indexed.ranges:
            self.parts.append((template, indexed))
            return
        index = indexed.offset + indexed.base
        self.single[index] = template
        if self.parts:  # (while there are none, :attr:`after` is empty: parts are only ever added)
            self.after[index] = len(self.parts)

    def entry(self, at: SupportsIndex) -> tuple[Action, dict[str, Any]] | None:
        """The template and values chosen of a legal index ``at`` (a numpy integer too), ``None`` if it is not legal."""
        index = operator.index(at)
        if index == self._last:
            return self._hit
        found = self.ranked.get(index)
        if found is None:
            found = self._entry(index)
        self._last, self._hit = index, found
        return found

    def _entry(self, index: int) -> tuple[Action, dict[str, Any]] | None:
        one = self.single.get(index)
        if self.parts:
            for template, indexed in reversed(self.parts[self.after.get(index, 0) if one is not None else 0 :]):
                chosen = indexed.chosen(index)
                if chosen is not None:
                    return template, chosen
        return None if one is None else (one, {})

    @property
    def array(self) -> np.ndarray:
        """Every legal index as an int64 array (unsorted; an index two templates share twice)."""
        found = self._array
        if found is None:
            arrays = [np.array(list(self.single), dtype=np.int64)]
            arrays += [indexed.array for _, indexed in self.parts]
            if self.ranked:
                arrays.append(np.array(list(self.ranked), dtype=np.int64))
            found = self._array = arrays[0] if len(arrays) == 1 else np.concatenate(arrays)
        return found

    def mark(self, out: np.ndarray) -> None:
        """Set ``out[index] = 1`` at every legal index (a mask): a handful of indices one by one
        (cheaper than making an index array for them), many through an array."""
        if len(self.single) > FEW or len(self.ranked) > FEW:
            out[self.array] = 1
            return
        for index in self.single:
            out[index] = 1
        for index in self.ranked:
            out[index] = 1
        for _, indexed in self.parts:
            numbers = indexed.numbers
            if len(numbers) > FEW:
                out[indexed.array] = 1
                continue
            for index in numbers:
                out[index] = 1

    @property
    def indices(self) -> list[int]:
        """The legal indices, sorted."""
        found = self._indices
        if found is None:
            if self.parts or self.ranked:
                spread = set(self.single)
                for _, indexed in self.parts:
                    spread.update(indexed.numbers)
                spread.update(self.ranked)
                found = sorted(spread)  # (numpy's unique: about 5 µs of set-up, for a few indices)
            else:
                found = sorted(self.single)
            self._indices = found
        return list(found)

    def sorted_array(self) -> np.ndarray:
        """:attr:`indices` as a new int64 array (without a Python int per index where ranges
        spread over more than :data:`SMALL`: numpy sorts those; fewer are sorted in Python, which
        costs less than numpy's set-up)."""
        if self._indices is None and self.spread() > SMALL:
            return np.unique(self.array)
        return np.array(self.indices, dtype=np.int64)

    def spread(self) -> int:
        """How many indices the listing stands for, counting twice any two templates share."""
        count = len(self.single) + len(self.ranked)
        for _, indexed in self.parts:
            count += indexed._count()
        return count

    @property
    def templates(self) -> dict[int, tuple[Action, dict[str, Any]]]:
        """Every legal index with its template and values chosen (spelled out when first asked)."""
        found = self._templates
        if found is None:
            found = self._templates = {}
            for template, indexed in self.order:
                found.update(indexed.spelled(template))
            found.update(self.ranked)
        return found


def _legal(
    single: dict[int, Action],
    after: dict[int, int],
    parts: list[tuple[Action, Indexed]],
    ranked: dict[int, tuple[Action, dict[str, Any]]],
    order: list[tuple[Action, Indexed]],
    rows: np.ndarray | None,
) -> Legal:
    """A :class:`Legal` unpickled: its listing as it was, its caches empty."""
    out = Legal()
    out.single, out.after, out.parts, out.ranked, out.order, out.rows = single, after, parts, ranked, order, rows
    return out


class Catalogue:
    """The fixed action space of one game and config: every shape laid end to end."""

    def __init__(self, game_id: str, shapes: Sequence[Shape]) -> None:
        self.game_id = game_id
        self.shapes = tuple(shapes)
        self.offsets: list[int] = []
        self._by_key: dict[tuple[str, frozenset[str]], int] = {}
        self._value_pos: list[list[dict[str, int]]] = []
        self._spans: list[dict[str, tuple[int, int]]] = []
        """Per shape: (first value, count) of each parameter whose domain is consecutive integers."""
        total = 0
        for i, sh in enumerate(self.shapes):
            key = (sh.type, sh.keys)
            if key in self._by_key:
                raise ValueError(f"{game_id}: shape {sh.type}({', '.join(sorted(sh.keys))}) is declared twice")
            self._by_key[key] = i
            self.offsets.append(total)
            self._value_pos.append(
                [{_key(v): j for j, v in enumerate(domain)} if domain is not FREE else {} for _, domain in sh.params]
            )
            self._spans.append({name: span for name, domain in sh.params if (span := _span(domain)) is not None})
            total += sh.size
        self.size = total
        self._indexed: dict[Any, Indexed] = {}
        """Memo of :meth:`legal`: a template (by a type-exact key) -> its indices."""
        self._listed: dict[int, tuple[Action, Indexed]] = {}
        self._spelled: dict[int, tuple[Action, int, list[tuple[str, dict[str, Any]]]]] = {}
        """The same for ranked templates: ``id(template)`` -> the template, its shape and its
        concrete instances (canonical key, values chosen), in :meth:`_digits_free`'s order."""
        """Memo of :meth:`legal` by identity: ``id(template)`` -> the template and its indices. The
        games list the same template objects again from step to step (their own memos), and an
        action is a value, never changed once made, so the very object needs no key."""

    def __reduce__(self) -> tuple[Any, ...]:  # compiled with mypyc: pickled by its arguments (memos start empty)
        return Catalogue, (self.game_id, self.shapes)

    # -- encoding -----------------------------------------------------------------------------
    def shape_of(self, action: Action) -> int:
        found = self._by_key.get((action.type, frozenset(action.args)))
        if found is None:
            raise EncodingError(
                f"{self.game_id}: the catalogue declares no action {action.type}({', '.join(sorted(action.args))})"
            )
        return found

    def _index(self, index: int, action: Action) -> Indexed:
        """The indices of a non-ranked template (one per combination of its integer ranges' values)."""
        sh = self.shapes[index]
        per_param: list[list[tuple[int, Any]]] = []
        for (name, domain), positions in zip(sh.params, self._value_pos[index], strict=True):
            value = action.args[name]
            if domain is FREE:
                per_param.append([(0, None)])
            elif isinstance(value, IntRange):
                # amounts beyond the declared cap stay legal in the game but are not offered here
                options = self._amounts(index, name, value, positions)
                if not options:
                    raise EncodingError(
                        f"{self.game_id}: {action.type}.{name} may be {value.lo}..{value.hi}, "
                        f"outside the catalogue's domain {domain[0]}..{domain[-1]}"
                    )
                per_param.append(options)
            else:
                pos = positions.get(_key(value))
                if pos is None:
                    raise EncodingError(
                        f"{self.game_id}: {action.type}.{name}={value!r} is not in the catalogue's domain"
                    )
                per_param.append([(pos, None)])
        # the mixed-radix number: fixed digits summed once, the integer parameters' values kept as
        # ranges (weight, name, options) in the declared order of parameters
        base, weight = 0, 1
        ranges: list[tuple[int, str, list[tuple[int, Any]]]] = []
        digits: list[tuple[str, int, int, dict[int, Any] | None]] = []
        for (name, domain), options in zip(reversed(sh.params), reversed(per_param), strict=True):
            radix = 1 if domain is FREE else len(domain)
            if len(options) == 1 and options[0][1] is None:
                base += options[0][0] * weight
                digits.append((name, radix, options[0][0], None))
            else:
                ranges.append((weight, name, options))
                digits.append((name, radix, -1, dict(options)))
            weight *= radix
        return Indexed(self.offsets[index], sh.size, base, ranges[::-1], digits)

    def _amounts(self, index: int, name: str, value: IntRange, positions: dict[Any, int]) -> list[tuple[int, Any]]:
        """(position, amount) of every amount of ``value`` the domain of ``name`` declares, in order."""
        span = self._spans[index].get(name)
        if span is None:
            return [(positions[(int, v)], v) for v in range(value.lo, value.hi + 1) if (int, v) in positions]
        first, count = span  # a domain of consecutive integers first, first + 1, ...: a position is arithmetic
        lo, hi = max(value.lo, first), min(value.hi, first + count - 1)
        return list(zip(range(lo - first, hi - first + 1), range(lo, hi + 1), strict=True))

    def legal(self, templates: Sequence[Action]) -> Legal:
        """Index every legal action (templates with ranges stand for one index per value)."""
        out = Legal()
        ranked: dict[int, list[tuple[str, Action, dict[str, Any]]]] = {}
        memo = self._indexed
        listed, spelled = self._listed, self._spelled
        for template in templates:
            hit = listed.get(id(template))
            if hit is not None and hit[0] is template:  # this very object, listed before
                out.add(template, hit[1])
                continue
            shown = spelled.get(id(template))
            if shown is not None and shown[0] is template:  # a ranked one, listed before
                ranked.setdefault(shown[1], []).extend((key, template, dict(chosen)) for key, chosen in shown[2])
                continue
            key = _template_key(template)
            found = memo.get(key) if key is not None else None
            if found is not None:  # seen before: its shape is known and not ranked
                self._remember(template, found)
                out.add(template, found)
                continue
            index = self.shape_of(template)
            sh = self.shapes[index]
            if sh.ranked:
                instances = self._instances(index, template)
                ranked.setdefault(index, []).extend((key, template, dict(chosen)) for key, chosen in instances)
                continue
            found = self._index(index, template)
            if key is not None:
                if len(memo) >= MEMO_LIMIT:
                    memo.clear()
                memo[key] = found
            self._remember(template, found)
            out.add(template, found)
        for index, entries in ranked.items():
            entries.sort(key=lambda e: e[0])
            limit = self.shapes[index].ranked
            if len(entries) > limit:
                raise EncodingError(
                    f"{self.game_id}: {len(entries)} legal {self.shapes[index].type} actions, "
                    f"more than the {limit} ranked slots the catalogue declares"
                )
            for rank, (_, template, chosen) in enumerate(entries):
                out.ranked[self.offsets[index] + rank] = (template, chosen)
        return out

    def _instances(self, index: int, template: Action) -> list[tuple[str, dict[str, Any]]]:
        """The concrete instances of a ranked template, each with its canonical key (its JSON
        without free text), remembered by the template's identity as :meth:`_remember` does."""
        instances: list[tuple[str, dict[str, Any]]] = []
        for _, chosen in self._digits_free(index, template):
            args = {**template.args, **chosen}
            instances.append((_canon({k: v for k, v in args.items() if not isinstance(v, Text)}), chosen))
        spelled = self._spelled
        if len(spelled) >= MEMO_LIMIT:
            spelled.clear()
        spelled[id(template)] = (template, index, instances)
        return instances

    def _remember(self, template: Action, found: Indexed) -> None:
        """Remember a non-ranked template's indices by its identity (the object is kept, so that its
        ``id`` is not reused while remembered)."""
        listed = self._listed
        if len(listed) >= MEMO_LIMIT:
            listed.clear()
        listed[id(template)] = (template, found)

    def _digits_free(self, index: int, action: Action) -> Iterable[tuple[int, dict[str, Any]]]:
        """Concrete instances of a ranked template (its integer ranges spelled out)."""
        ranges = [(k, v) for k, v in action.args.items() if isinstance(v, IntRange)]
        values = [range(v.lo, v.hi + 1) for _, v in ranges]
        for combo in itertools.product(*values):
            yield 0, {k: n for (k, _), n in zip(ranges, combo, strict=True)}

    def decode(self, legal: Legal, index: SupportsIndex, text: TextFiller = default_text) -> Action:
        """The concrete action at ``index`` (which must be legal), free text written by ``text``."""
        entry = legal.entry(index)
        if entry is None:
            raise EncodingError(f"{self.game_id}: action index {index} ({self.label(index)}) is not legal now")
        template, chosen = entry
        args: dict[str, Any] = {}
        for name, value in template.args.items():
            if name in chosen:
                args[name] = chosen[name]
            elif isinstance(value, Text):
                args[name] = text(template, name, value)
            else:
                args[name] = value
        return Action(template.seat, template.type, args)

    def index_of(self, legal: Legal, action: Action) -> int | None:
        """The legal index that names ``action`` (a filled action, such as a Ludica bot decides),
        ``None`` if none does: the inverse of :meth:`decode`, free text and narration aside (an
        index stands for every text). With :meth:`factor` it gives the head picks of a bot's
        decision (imitation learning)."""
        for index, (template, chosen) in legal.templates.items():
            if template.seat == action.seat and template.type == action.type and _names(template, chosen, action):
                return index
        return None

    # -- factored actions ------------------------------------------------------------------------
    def _radices(self, i: int) -> list[int]:
        sh = self.shapes[i]
        if sh.ranked:
            return [sh.ranked]
        return [len(domain) for _, domain in sh.params if domain is not FREE]

    @property
    def heads(self) -> tuple[int, ...]:
        """The sizes of the factored action's heads: the shape (action type), then one head per
        parameter position (free text has none; a ranked shape has one, its rank); a shape with
        fewer parameters leaves the later heads at 0."""
        found = getattr(self, "_heads", None)
        if found is None:
            depth = max((len(self._radices(i)) for i in range(len(self.shapes))), default=0)
            sizes = [len(self.shapes)] + [1] * depth
            for i in range(len(self.shapes)):
                for h, radix in enumerate(self._radices(i)):
                    sizes[h + 1] = max(sizes[h + 1], radix)
            found = self._heads = tuple(sizes)
        return found

    def factor(self, index: SupportsIndex) -> tuple[int, ...]:
        """A flat index as ``(shape, digit of parameter 1, digit of parameter 2, ...)`` (padded with 0)."""
        i, number = self._find(operator.index(index))
        radices = self._radices(i)
        digits = []
        for radix in reversed(radices):
            number, d = divmod(number, radix)
            digits.append(d)
        out = [i, *reversed(digits)]
        return tuple(out + [0] * (len(self.heads) - len(out)))

    def compose(self, picks: Sequence[Any]) -> int:
        """The flat index of a factored action ``(shape, digits...)`` (the inverse of :meth:`factor`)."""
        i = int(picks[0])
        if not 0 <= i < len(self.shapes):
            raise EncodingError(f"{self.game_id}: action shape {i} is outside 0..{len(self.shapes) - 1}")
        number = 0
        for h, radix in enumerate(self._radices(i)):
            d = int(picks[h + 1])
            if not 0 <= d < radix:
                name = self.shapes[i].type
                raise EncodingError(f"{self.game_id}: {name} parameter {h + 1} is {d}, not 0..{radix - 1}")
            number = number * radix + d
        return self.offsets[i] + number

    def factored(self, indices: Sequence[Any]) -> np.ndarray:
        """The legal actions as rows ``(shape, digits...)``: an ``(L, len(heads))`` int array."""
        return np.array([self.factor(int(i)) for i in indices], dtype=np.int64).reshape(-1, len(self.heads))

    def factored_legal(self, legal: Legal) -> np.ndarray:
        """:meth:`factored` of ``legal``'s indices, worked out once per :class:`Legal` (read-only)."""
        if legal.rows is None:
            rows = self.factored(legal.indices)
            rows.flags.writeable = False
            legal.rows = rows
        return legal.rows

    def head_mask(self, rows: np.ndarray, prefix: Sequence[Any]) -> np.ndarray:
        """The legal values of head ``len(prefix)`` given the earlier picks ``prefix`` (the
        composer's order: type first, then each parameter), as a 0/1 int8 mask."""
        h = len(prefix)
        keep = np.ones(len(rows), dtype=bool)
        for j, pick in enumerate(prefix):
            keep &= rows[:, j] == int(pick)
        out = np.zeros(self.heads[h], dtype=np.int8)
        out[rows[keep, h]] = 1
        return out

    # -- people ---------------------------------------------------------------------------------
    def locate(self, index: SupportsIndex) -> tuple[Shape, int]:
        """The shape an index belongs to and the number within it."""
        i, number = self._find(operator.index(index))
        return self.shapes[i], number

    def _find(self, index: int) -> tuple[int, int]:
        """The position of the shape an index belongs to, and the number within it."""
        if not 0 <= index < self.size:
            raise EncodingError(f"{self.game_id}: action index {index} is outside 0..{self.size - 1}")
        lo, hi = 0, len(self.offsets) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.offsets[mid] <= index:
                lo = mid
            else:
                hi = mid - 1
        return lo, index - self.offsets[lo]

    def type_of(self, index: SupportsIndex) -> str:
        """The action type of an index."""
        return self.locate(index)[0].type

    def sample_by_type(self, indices: Sequence[Any], rng: Any) -> int:
        """A random legal index: first an action type uniformly, then one of its indices uniformly.

        Uniform sampling over the flat indices favours actions with amounts (one index per
        amount); this is the random baseline the games' own random bot plays, roughly.
        ``rng`` is a :class:`random.Random` (or anything with ``choice``).
        """
        groups: dict[str, list[int]] = {}
        for index in indices:
            groups.setdefault(self.type_of(int(index)), []).append(int(index))
        kind = rng.choice(sorted(groups))
        return int(rng.choice(groups[kind]))

    def label(self, index: SupportsIndex) -> str:
        """A readable name of an index: ``pour target=p2 units=3``, ``pay #4`` for a ranked slot."""
        sh, number = self.locate(index)
        if sh.ranked:
            return f"{sh.type} #{number}"
        parts: list[str] = []
        for name, domain in sh.params[::-1]:
            if domain is FREE:
                parts.append(f"{name}=<text>")
                continue
            number, pos = divmod(number, len(domain))
            parts.append(f"{name}={_canon(domain[pos])}")
        return " ".join([sh.type, *parts[::-1]])


# -- the per-game declarations ------------------------------------------------------------------

ENCODINGS: dict[str, str] = {
    "great-city": "ludica.env.games.great_city",
    "euthymia": "ludica.env.games.euthymia",
    "misery-bubblegum": "ludica.env.games.misery_bubblegum",
    "lost-days": "ludica.env.games.lost_days",
    "euphoria": "ludica.env.games.euphoria",
    "pig": "ludica.env.games.pig",
}
"""Where each game's catalogue is declared (a module with ``shapes(game, config, seats)``)."""


def catalogue(game: Game[Any], config: Config, seats: Sequence[str]) -> Catalogue:
    """The action catalogue of ``game`` under ``config`` (``seats``: the seats of that config)."""
    module_name = ENCODINGS.get(game.meta.id)
    if module_name is None:
        raise EncodingError(f"no environment encoding is declared for {game.meta.id!r}")
    module = importlib.import_module(module_name)
    return Catalogue(game.meta.id, module.shapes(game, config, tuple(seats)))


def observer(game: Game[Any], config: Config, seats: Sequence[str]) -> Any:
    """The observation tensor's :class:`~ludica.env.tensor.Schema` of ``game`` under ``config``.

    A game whose encoding module declares no ``observation`` schema falls back to the hashed
    :class:`Observer` (only the example game Pig does).
    """
    from .tensor import Schema

    module = importlib.import_module(ENCODINGS[game.meta.id])
    declare = getattr(module, "observation", None)
    if declare is None:
        return Observer(seats)
    players = [s for s in seats if s != game.meta.referee]
    return Schema(seats, players, declare(game, config, tuple(seats)))


SPLIT = 64
"""A uniform draw of more outcomes than this is made as two nodes: a block, then a place in it."""


def split_bound(size: int) -> int:
    """The most outcomes of one chance node for a uniform draw of ``size`` outcomes."""
    if size <= SPLIT:
        return size
    width = math.isqrt(size - 1) + 1
    return max(width, -(-size // width))


def narrative(game: Game[Any]) -> bool:
    """Whether the game is narrative: nobody wins, every return is 0 (``NARRATIVE`` of its encoding
    module: Euthymia and Misery Bubblegum, whose rulebooks score nothing)."""
    module = importlib.import_module(ENCODINGS[game.meta.id])
    return bool(getattr(module, "NARRATIVE", False))


def max_steps(game: Game[Any]) -> int:
    """The environments' documented cap on one game of ``game`` (``MAX_STEPS`` of its encoding module)."""
    module = importlib.import_module(ENCODINGS[game.meta.id])
    return int(getattr(module, "MAX_STEPS", game.meta.max_steps))


def max_chance_outcomes(game: Game[Any], config: Config) -> int:
    """The most outcomes one decomposed chance draw of the game can have (OpenSpiel's bound)."""
    module = importlib.import_module(ENCODINGS[game.meta.id])
    return int(module.max_chance_outcomes(config))


# -- observations -------------------------------------------------------------------------------


def _walk(value: Any, path: str, out: list[tuple[str, float]]) -> None:
    kind = type(value)
    if kind is str:
        out.append((path + "=" + value, 1.0))
    elif kind is dict:
        for k, v in value.items():
            _walk(v, path + "/" + str(k), out)
    elif kind is list or kind is tuple:
        inner = path + "/*"
        for v in value:
            _walk(v, inner, out)
    elif kind is bool:
        out.append((path, 1.0 if value else 0.0))
    elif kind is int or kind is float:
        out.append((path, float(value)))


def view_features(view: dict[str, Any]) -> list[tuple[str, float]]:
    """Every ``(key, value)`` feature of a view (what the observation vector hashes)."""
    out: list[tuple[str, float]] = []
    _walk(view, "", out)
    return out


_SLOT_CACHE: dict[str, tuple[int, float]] = {}


def _slot(key: str) -> tuple[int, float]:
    hit = _SLOT_CACHE.get(key)
    if hit is None:
        h = zlib.crc32(key.encode())
        hit = (h % HASHED, 1.0 if (h >> 16) & 1 else -1.0)
        if len(_SLOT_CACHE) < 200_000:
            _SLOT_CACHE[key] = hit
    return hit


def _hash_view(view: dict[str, Any]) -> tuple[list[int], list[float]]:
    """The slots and signed values of a view's features (:func:`view_features`, hashed), in one pass."""
    slots: list[int] = []
    weights: list[float] = []
    cache = _SLOT_CACHE
    stack: list[tuple[str, Any]] = [("", view)]
    pop, push = stack.pop, stack.append
    while stack:
        path, value = pop()
        kind = type(value)
        if kind is dict:
            for k, v in value.items():
                push((path + "/" + str(k), v))
            continue
        if kind is list or kind is tuple:
            inner = path + "/*"
            for v in value:
                push((inner, v))
            continue
        if kind is str:
            key, x = path + "=" + value, 1.0
        elif kind is bool:
            key, x = path, 1.0 if value else 0.0
        elif kind is int or kind is float:
            key, x = path, float(value)
        else:
            continue
        hit = cache.get(key) or _slot(key)
        slots.append(hit[0])
        weights.append(hit[1] * x)
    return slots, weights


class Observer:
    """The observation vector of a game and config: header, then hashed view features.

    Layout (``size = 2 * len(seats) + HASHED``): ``[0, n)`` one-hot of the observing seat;
    ``[n, 2n)`` 1 for each seat that must decide now; ``[2n, 2n + HASHED)`` hashed view features.
    """

    def __init__(self, seats: Sequence[str]) -> None:
        self.seats = tuple(seats)
        self.index = {s: i for i, s in enumerate(self.seats)}
        self.size = 2 * len(self.seats) + HASHED

    def __reduce__(self) -> tuple[Any, ...]:  # compiled with mypyc: pickled by its arguments
        return Observer, (self.seats,)

    def encode(self, seat: str, view: dict[str, Any], pending: Sequence[str]) -> np.ndarray:
        n = len(self.seats)
        out = np.zeros(self.size, dtype=np.float32)
        out[self.index[seat]] = 1.0
        for s in pending:
            if s in self.index:
                out[n + self.index[s]] = 1.0
        slots, weights = _hash_view(view)
        if slots:
            out[2 * n :] = np.bincount(slots, weights, minlength=HASHED)
        np.clip(out, -OBS_BOUND, OBS_BOUND, out=out)
        return out

    def encode_room(self, seat: str, view: dict[str, Any], pending: Sequence[str], room: int) -> np.ndarray:
        """:meth:`encode` followed by ``room`` zeros, in one new writable array."""
        return np.concatenate((self.encode(seat, view, pending), np.zeros(room, dtype=np.float32)))


# -- rewards ------------------------------------------------------------------------------------

REWARDS = ("outcome", "score")


def rewards(
    outcome: Outcome | None, seats: Sequence[str], players: Sequence[str], mode: str = "outcome"
) -> dict[str, float]:
    """The reward of each seat for a finished game (``players``: the seats that can win)."""
    if mode not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {mode!r}")
    out = dict.fromkeys(seats, 0.0)
    if outcome is None:
        return out
    if mode == "score":
        for seat in seats:
            out[seat] = float(outcome.scores.get(seat, 0.0))
        return out
    winners = set(outcome.winners)
    if not winners or all(p in winners for p in players):
        return out
    for seat in players:
        out[seat] = 1.0 if seat in winners else -1.0
    return out
