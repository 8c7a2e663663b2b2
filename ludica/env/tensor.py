"""Semantic observation tensors: a seat's view laid out slot by slot, from a per-game schema.

Each game declares (in ``ludica/env/games/<game>.py``, function ``observation(game, config,
seats)``) the schema of its view as a tree of :class:`Field`: records of named fields, numbers
with a scale, flags, one-hots over a closed domain (phases, cards, recruits), seats, sets of seats
or ids, records per seat and per id. The schema gives every slot a name and a meaning
(:meth:`Schema.rows`, printed by ``python -m ludica.env describe GAME`` and tabled in
``docs/env.md``), so the tensor has a fixed size per game and player count, nothing is hashed, and
two views that differ in anything but free text give two different tensors (tested).

**Own seat first.** Seats are laid out relative to the observing seat: the observer, then the
other players in table order after it, then the referee seat (GM, the table) where the game has
one. A spectator (``None``) and the referee see the players in table order.

**Values.** Numbers are divided by a declared scale (the rulebook's usual maximum), so they are
mostly within ``[0, 1]`` (never clipped: a larger amount stays distinct); flags and one-hots are
0/1. Free text (names, narration, memories' words) is left out: it is declared as text in the
schema and listed in the documentation.

The tensor is computed from the seat's view alone (``Game.view(state, seat)``).

**Speed.** Where the compiled build runs, :meth:`Schema.encode` lays every view out afresh in C
(``ludica/env/_tensorc.c``, built with the compiled kernels): the schema is turned once into a
plan (:func:`_spec`) and the C code walks the view writing float32 slots straight into the array,
with Python's own reading of the values (truthiness, ``float()``, dict lookups), 2.5-4x faster
than the Python encoder. On any error the view is encoded again in Python, which gives the exact
tensor or the exact error; the tensors are the same bytes (tested). :func:`encoder` says which runs.

In the pure build encoding is incremental: the schema keeps, for each observing seat, the tensor it
gave last and every top-level field's value then, as bytes (``marshal``, so a copy the game cannot
change afterwards, and ``1``, ``1.0`` and ``True`` differ). The next tensor for that seat starts
from the last one and lays out again only the fields whose value is not byte-for-byte the same;
a field's slots depend on its value and the seat alone, so the tensor is the one a fresh encoding
gives (tested). The strict mode always encodes afresh in Python.
"""

from __future__ import annotations

import importlib
import marshal
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


class SchemaError(ValueError):
    """A view holds something its game's observation schema does not declare (a gap in the schema)."""


@dataclass(slots=True)
class Ctx:
    """The seat order of one observation: the observer first (see the module docstring)."""

    order: tuple[str, ...]
    pos: dict[str, int]
    strict: bool = False


def seat_order(seats: Sequence[str], players: Sequence[str], seat: str | None) -> tuple[str, ...]:
    """``seats`` relative to ``seat``: it first, the other players after it in table order, the referee last."""
    referee = [s for s in seats if s not in players]
    if seat is not None and seat in players:
        i = list(players).index(seat)
        return (*players[i:], *players[:i], *referee)
    return (*players, *referee)


def _pre(doc: str) -> str:
    return f"{doc} " if doc else ""


class Field:
    """One part of a view: ``size`` slots written by :meth:`put` at ``at``."""

    size: int = 0

    def rows(self, name: str) -> list[tuple[str, str]]:
        """``(slot name, meaning)`` for each slot."""
        raise NotImplementedError

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        raise NotImplementedError

    def project(self, value: Any) -> Any:
        """The part of ``value`` this field reads (what two views must differ in to differ here)."""
        return value


class Num(Field):
    """A number divided by ``scale`` (``None`` reads as 0; wrap in :class:`Opt` when ``None`` means something)."""

    size = 1

    def __init__(self, scale: float = 1.0, doc: str = "", offset: float = 0.0) -> None:
        self.scale, self.doc, self.offset = float(scale), doc, float(offset)

    def rows(self, name: str) -> list[tuple[str, str]]:
        shift = f" + {self.offset:g}" if self.offset else ""
        return [(name, f"{_pre(self.doc)}(number{shift}) / {self.scale:g}")]

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        if value is not None:
            out[at] = (float(value) + self.offset) / self.scale

    def project(self, value: Any) -> Any:
        return float(value or 0)


class Flag(Field):
    """A yes/no (0 or 1)."""

    size = 1

    def __init__(self, doc: str = "") -> None:
        self.doc = doc

    def rows(self, name: str) -> list[tuple[str, str]]:
        return [(name, f"{_pre(self.doc)}1 if true")]

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        if value:
            out[at] = 1.0

    def project(self, value: Any) -> Any:
        return bool(value)


def _label(value: Any) -> str:
    return "none" if value is None else str(value)


class OneOf(Field):
    """A one-hot over a closed domain (``None`` may be in the domain)."""

    def __init__(self, domain: Iterable[Any], doc: str = "") -> None:
        self.domain = tuple(domain)
        self.index = {v: i for i, v in enumerate(self.domain)}
        self.size = len(self.domain)
        self.doc = doc

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return OneOf, (self.domain, self.doc)

    def rows(self, name: str) -> list[tuple[str, str]]:
        return [(f"{name}={_label(v)}", f"{_pre(self.doc)}1 if {_label(v)}") for v in self.domain]

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        i = self.index.get(value)
        if i is None:
            raise SchemaError(f"{value!r} is not one of the declared {self.domain[:8]}...")
        out[at + i] = 1.0


class Members(Field):
    """A set drawn from a closed domain (a multi-hot; a list's order and repeats are not kept)."""

    def __init__(self, domain: Iterable[Any], doc: str = "", counts: bool = False) -> None:
        self.domain = tuple(domain)
        self.index = {v: i for i, v in enumerate(self.domain)}
        self.size = len(self.domain)
        self.doc = doc
        self.counts = counts

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Members, (self.domain, self.doc, self.counts)

    def rows(self, name: str) -> list[tuple[str, str]]:
        what = "how many times" if self.counts else "1 if it holds"
        return [(f"{name}∋{_label(v)}", f"{_pre(self.doc)}{what} {_label(v)}") for v in self.domain]

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        for v in value or ():
            i = self.index.get(v)
            if i is None:
                raise SchemaError(f"{v!r} is not one of the declared {self.domain[:8]}...")
            if self.counts:
                out[at + i] += 1.0
            else:
                out[at + i] = 1.0

    def project(self, value: Any) -> Any:
        items = [str(v) for v in value or ()]
        return sorted(items) if self.counts else sorted(set(items))


def _beyond(value: Any, ctx: Ctx, domain: tuple[Any, ...]) -> None:
    """An id past an :class:`OpenOneOf`'s or :class:`OpenMembers`' list is left out, as
    :class:`ById` leaves it (a long game may make more ids than the tensor declares); strict mode
    refuses it."""
    if ctx.strict or value in (None, ""):
        raise SchemaError(f"{value!r} is beyond the declared ids {domain[0]}..{domain[-1]}")


class OpenOneOf(OneOf):
    """A :class:`OneOf` over ids a game may outgrow (resources, traits): an id beyond the list
    leaves every slot at 0."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return OpenOneOf, (self.domain, self.doc)

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        i = self.index.get(value)
        if i is None:
            _beyond(value, ctx, self.domain)
            return
        out[at + i] = 1.0


class OpenMembers(Members):
    """A :class:`Members` over ids a game may outgrow: an id beyond the list is left out."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return OpenMembers, (self.domain, self.doc, self.counts)

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        for v in value or ():
            i = self.index.get(v)
            if i is None:
                _beyond(v, ctx, self.domain)
                continue
            out[at + i] = out[at + i] + 1.0 if self.counts else 1.0


class Seat(Field):
    """A seat (or ``None``) as a one-hot in the observer's seat order; ``extra`` values get their own slots."""

    def __init__(self, n: int, doc: str = "", extra: Sequence[Any] = (None,)) -> None:
        self.n = n
        self.extra = tuple(extra)
        self.size = n + len(self.extra)
        self.doc = doc

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Seat, (self.n, self.doc, self.extra)

    def rows(self, name: str) -> list[tuple[str, str]]:
        seats = [(f"{name}=seat{i}", f"{_pre(self.doc)}1 if seat {i} (0 = you)") for i in range(self.n)]
        return seats + [(f"{name}={_label(v)}", f"1 if {_label(v)}") for v in self.extra]

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        i = ctx.pos.get(value) if isinstance(value, str) else None
        if i is None:
            if value not in self.extra:
                raise SchemaError(f"{value!r} is neither a seat nor one of {self.extra}")
            i = self.n + self.extra.index(value)
        out[at + i] = 1.0


class Seats(Field):
    """A set of seats (multi-hot in the observer's seat order)."""

    def __init__(self, n: int, doc: str = "", counts: bool = False) -> None:
        self.n = self.size = n
        self.doc = doc
        self.counts = counts

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Seats, (self.n, self.doc, self.counts)

    def rows(self, name: str) -> list[tuple[str, str]]:
        what = "how many times seat {} is in it" if self.counts else "1 if seat {} is in it"
        return [(f"{name}∋seat{i}", f"{_pre(self.doc)}{what.format(i)} (0 = you)") for i in range(self.n)]

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        for seat in value or ():
            i = ctx.pos.get(seat)
            if i is None:
                raise SchemaError(f"{seat!r} is not a seat")
            if self.counts:
                out[at + i] += 1.0
            else:
                out[at + i] = 1.0

    def project(self, value: Any) -> Any:
        return sorted(value or ()) if self.counts else sorted(set(value or ()))


class Text(Field):
    """Free text: no slot (names, narration, the words of a memory)."""

    size = 0

    def rows(self, name: str) -> list[tuple[str, str]]:
        return []

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        return None

    def project(self, value: Any) -> Any:
        return None


TEXT = Text()


class Opt(Field):
    """A value that may be absent or ``None``: a presence slot, then the inner field."""

    def __init__(self, inner: Field, doc: str = "") -> None:
        self.inner = inner
        self.size = 1 + inner.size
        self.doc = doc

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Opt, (self.inner, self.doc)

    def rows(self, name: str) -> list[tuple[str, str]]:
        return [(f"{name}?", f"{_pre(self.doc)}1 if present"), *self.inner.rows(name)]

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        if value is not None:
            out[at] = 1.0
            self.inner.put(out, at + 1, value, ctx)

    def project(self, value: Any) -> Any:
        return None if value is None else ["some", self.inner.project(value)]


def _leaf(field: Field) -> tuple[int, float, float]:
    """How :meth:`Rec.put` lays ``field`` out: ``(1, offset, scale)`` for a :class:`Num`, written
    inline as ``Num.put`` writes it; ``(2, 0, 1)`` for a :class:`Flag`; ``(0, 0, 1)`` otherwise."""
    if type(field) is Num:
        return 1, field.offset, field.scale
    if type(field) is Flag:
        return 2, 0.0, 1.0
    return 0, 0.0, 1.0


class Rec(Field):
    """A dict with named fields (a key absent from the view reads as ``None``); ``text`` keys are free text."""

    def __init__(self, fields: dict[str, Field] | None = None, text: Iterable[str] = (), **kw: Field) -> None:
        self.fields = {**(fields or {}), **kw}
        self.text = frozenset(text)
        self.offsets: dict[str, int] = {}
        at = 0
        for key, field in self.fields.items():
            self.offsets[key] = at
            at += field.size
        self.size = at
        self._items = [(k, f, self.offsets[k]) for k, f in self.fields.items() if f.size]
        # The same, with plain numbers and flags laid out inline by ``put`` (no call per leaf):
        # kind 1 is a Num (its offset and scale), 2 a Flag, 0 any other field (its own ``put``).
        self._fast = [(k, f, off, *_leaf(f)) for k, f, off in self._items]

    def rows(self, name: str) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for key, field in self.fields.items():
            out.extend(field.rows(f"{name}.{key}" if name else key))
        return out

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        if value is None:
            return
        if ctx.strict:
            unknown = set(value) - set(self.fields) - self.text
            if unknown:
                raise SchemaError(f"undeclared key(s) {sorted(unknown)} (declared: {sorted(self.fields)})")
        get = value.get
        for key, field, off, kind, shift, scale in self._fast:
            v = get(key)
            if v is None:
                continue
            if kind == 1:
                out[at + off] = (float(v) + shift) / scale
            elif kind == 2:
                if v:
                    out[at + off] = 1.0
            else:
                try:
                    field.put(out, at + off, v, ctx)
                except SchemaError as exc:
                    raise SchemaError(f"{key}: {exc}") from None

    def project(self, value: Any) -> Any:
        value = value or {}
        return {k: f.project(value.get(k)) for k, f in self.fields.items() if f.size}


class BySeat(Field):
    """One record per seat in the observer's seat order: a dict seat -> item, or a list of items
    whose ``key`` names the seat. Each seat's block starts with a presence slot."""

    def __init__(self, n: int, item: Field, key: str | None = None, doc: str = "") -> None:
        self.n, self.item, self.key, self.doc = n, item, key, doc
        self.block = 1 + item.size
        self.size = n * self.block

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return BySeat, (self.n, self.item, self.key, self.doc)

    def rows(self, name: str) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for i in range(self.n):
            out.append((f"{name}[seat{i}]", f"{_pre(self.doc)}1 if seat {i} (0 = you) is listed"))
            out.extend(self.item.rows(f"{name}[seat{i}]"))
        return out

    def _pairs(self, value: Any) -> Iterable[tuple[str, Any]]:
        if isinstance(value, dict):
            return value.items()
        assert self.key is not None
        return ((v[self.key], v) for v in value)

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        for seat, item in self._pairs(value):
            i = ctx.pos.get(seat)
            if i is None or i >= self.n:
                raise SchemaError(f"{seat!r} is not one of the {self.n} seats")
            base = at + i * self.block
            out[base] = 1.0
            self.item.put(out, base + 1, item, ctx)

    def project(self, value: Any) -> Any:
        return sorted(((str(s), self.item.project(v)) for s, v in self._pairs(value or {})), key=lambda p: p[0])


class ById(Field):
    """One record per id of a closed list (``ids``): a dict id -> item or a list of items whose
    ``key`` is the id. Each block starts with a presence slot."""

    def __init__(self, ids: Sequence[str], item: Field, key: str | None = "id", doc: str = "") -> None:
        self.ids = tuple(ids)
        self.index = {v: i for i, v in enumerate(self.ids)}
        self.item, self.key, self.doc = item, key, doc
        self.block = 1 + item.size
        self.size = len(self.ids) * self.block

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return ById, (self.ids, self.item, self.key, self.doc)

    def rows(self, name: str) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for v in self.ids:
            out.append((f"{name}[{v}]", f"{_pre(self.doc)}1 if {v} is shown"))
            out.extend(self.item.rows(f"{name}[{v}]"))
        return out

    def _pairs(self, value: Any) -> Iterable[tuple[str, Any]]:
        if isinstance(value, dict):
            return value.items()
        assert self.key is not None
        return ((v[self.key], v) for v in value)

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        for ident, item in self._pairs(value):
            i = self.index.get(ident)
            if i is None:
                if not ctx.strict and ident not in (None, ""):
                    continue  # beyond the declared ids: left out (documented); strict mode refuses
                raise SchemaError(f"{ident!r} is beyond the declared ids {self.ids[0]}..{self.ids[-1]}")
            base = at + i * self.block
            out[base] = 1.0
            self.item.put(out, base + 1, item, ctx)

    def project(self, value: Any) -> Any:
        return sorted(((str(s), self.item.project(v)) for s, v in self._pairs(value or {})), key=lambda p: p[0])


class Seq(Field):
    """A list of at most ``n`` items in order (each block starts with a presence slot)."""

    def __init__(self, n: int, item: Field, doc: str = "") -> None:
        self.n, self.item, self.doc = n, item, doc
        self.block = 1 + item.size
        self.size = n * self.block

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Seq, (self.n, self.item, self.doc)

    def rows(self, name: str) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for i in range(self.n):
            out.append((f"{name}[{i}]", f"{_pre(self.doc)}1 if item {i} exists"))
            out.extend(self.item.rows(f"{name}[{i}]"))
        return out

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        if len(value) > self.n:
            if ctx.strict:
                raise SchemaError(f"{len(value)} items, more than the {self.n} declared")
            value = value[: self.n]  # beyond the declared length: left out (documented)
        for i, item in enumerate(value):
            base = at + i * self.block
            out[base] = 1.0
            self.item.put(out, base + 1, item, ctx)

    def project(self, value: Any) -> Any:
        return [self.item.project(v) for v in value or ()]


PATCH_MIN = 8
"""Top-level fields of fewer slots are laid out afresh every time (cheaper than comparing)."""

PATCH_MISSES, PATCH_RETRY = 4, 16
"""A field found changed this many times in a row is laid out afresh without comparing, for
``PATCH_RETRY`` encodings, then compared again."""


def _spec(field: Field) -> tuple[Any, ...]:
    """``field`` as the C encoder's plan reads it (``ludica/env/_tensorc.c``, ``node_build``): a
    tuple whose first item is the field's kind. A field of another class (a subclass too) is laid
    out by its own :meth:`Field.put`, called from C (kind 17)."""
    kind = type(field)
    if kind is Rec:
        assert isinstance(field, Rec)
        return (0, tuple((key, off, _spec(f)) for key, f, off in field._items))
    if kind is Num:
        assert isinstance(field, Num)
        return (1, field.offset, field.scale)
    if kind is Flag:
        return (2,)
    if kind is OneOf:
        assert isinstance(field, OneOf)
        return (3, field.index)
    if kind is Members:
        assert isinstance(field, Members)
        return (4, field.index, field.counts)
    if kind is Seat:
        assert isinstance(field, Seat)
        return (5, field.n, field.extra)
    if kind is Seats:
        assert isinstance(field, Seats)
        return (6, field.n, field.counts)
    if kind is Text:
        return (7,)
    return _spec_nested(field)


def _spec_nested(field: Field) -> tuple[Any, ...]:
    """:func:`_spec` of the fields holding other fields, and of the rest."""
    kind = type(field)
    if kind is Opt:
        assert isinstance(field, Opt)
        return (8, _spec(field.inner))
    if kind is BySeat:
        assert isinstance(field, BySeat)
        return (9, field.n, field.block, field.key, _spec(field.item))
    if kind is ById:
        assert isinstance(field, ById)
        return (10, field.index, field.block, field.key, _spec(field.item))
    if kind is Seq:
        assert isinstance(field, Seq)
        return (11, field.n, field.block, _spec(field.item))
    if kind is Dice:
        assert isinstance(field, Dice)
        return (12, field.n, field.k)
    if kind is Sentence:
        assert isinstance(field, Sentence)
        return (13, field.pattern, _spec(field.rec))
    if kind is SeatOr:
        assert isinstance(field, SeatOr)
        return (14, _spec(field.seat), _spec(field.other), 1 + field.seat.size)
    if kind is Bits:
        assert isinstance(field, Bits)
        return (15, field.n)
    if kind is Workers:
        assert isinstance(field, Workers)
        return (16, field.n, field.faces, field.scale)
    return (17, field.put)


def _load_c() -> Any:
    """The C encoder (``ludica/env/_tensorc.c``) where the compiled build runs (it is built and
    stamped with the mypyc kernels, see ``ludica/_build.py``), else ``None``."""
    build: Any = importlib.import_module("ludica._build")  # not followed by mypy (the package's own import)
    if build._state["build"] != "compiled":
        return None
    try:
        module = importlib.import_module("ludica.env._tensorc")
    except ImportError:
        return None
    module.set_error(SchemaError)
    return module


_C: Any = _load_c()


def encoder() -> str:
    """Which encoder :meth:`Schema.encode` runs: ``"C"`` (the compiled build) or ``"Python"``."""
    return "Python" if _C is None else "C"


class Schema:
    """A game's observation layout for one config: a header, then the view's fields.

    Header: the observing seat (one-hot in table order), then the seats that must decide now (in
    the observer's seat order).
    """

    def __init__(self, seats: Sequence[str], players: Sequence[str], view: Rec) -> None:
        self.seats = tuple(seats)
        self.players = tuple(players)
        self.view = view
        self.n = len(self.seats)
        self.size = 2 * self.n + view.size
        self._orders: dict[str | None, Ctx] = {}
        self._zeros = bytes(4 * self.size)
        self._blank = array("f", self._zeros)
        self._misses = [0] * len(view._items)
        self._plan = [(key, field, off, field.size, *_leaf(field)) for key, field, off in view._items]
        """The top-level fields as :meth:`_patch` walks them: with their size and how they are laid out."""
        """Per top-level field: how many comparisons in a row found it changed (any seat)."""
        self._last: dict[str | None, tuple[array[float], list[bytes | None]]] = {}
        """Per observing seat: its last tensor and each top-level field's value then (marshalled)."""
        self._c: Any = None if _C is None or type(view) is not Rec else _C.Plan(_spec(view), 2 * self.n)
        """The C encoder's plan of this schema (``None`` where the C encoder is absent, or the view is
        not a plain :class:`Rec`)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Schema, (self.seats, self.players, self.view)

    def ctx(self, seat: str | None, strict: bool = False) -> Ctx:
        found = self._orders.get(seat)
        if found is None:
            order = seat_order(self.seats, self.players, seat)
            found = self._orders[seat] = Ctx(order, {s: i for i, s in enumerate(order)})
        return Ctx(found.order, found.pos, True) if strict else found

    def rows(self) -> list[tuple[int, str, str]]:
        """``(slot, name, meaning)`` of every slot."""
        head = [(f"observer={s}", f"1 if you are seat {s} (table order)") for s in self.seats]
        head += [(f"to_decide∋seat{i}", f"1 if seat {i} (0 = you) must decide now") for i in range(self.n)]
        return [(i, name, doc) for i, (name, doc) in enumerate(head + self.view.rows(""))]

    def encode(
        self, seat: str | None, view: dict[str, Any], pending: Sequence[str] = (), strict: bool = False
    ) -> np.ndarray:
        ctx = self.ctx(seat, strict)
        if not strict and type(view) is dict:
            if self._c is not None:
                return self._encode_c(seat, view, pending, ctx)
            return self._patch(seat, view, pending, ctx)
        return self._fresh(seat, view, pending, ctx)

    def encode_room(self, seat: str | None, view: dict[str, Any], pending: Sequence[str], room: int) -> np.ndarray:
        """:meth:`encode` followed by ``room`` zeros, in one new writable array (the C encoder
        writes into its head, bounded to the tensor as ever; elsewhere the tensor is copied in)."""
        c = self._c
        if c is not None and not c.delegates and type(view) is dict:
            out: np.ndarray | None = np.zeros(self.size + room, dtype=np.float32)
            try:
                c.encode(out[: self.size], view, self.ctx(seat), self.seats, seat, pending)  # type: ignore[index]
            except Exception:
                out = None  # encoded again below, which gives the tensor or the exact error
            if out is not None:
                return out
        return np.concatenate((self.encode(seat, view, pending), np.zeros(room, dtype=np.float32)))

    def _fresh(self, seat: str | None, view: dict[str, Any], pending: Sequence[str], ctx: Ctx) -> np.ndarray:
        """The view laid out afresh by the fields' :meth:`Field.put` (the Python encoder)."""
        out = array("f", self._zeros)  # float32 slots written in place, handed to numpy without a copy
        self._header(out, seat, pending, ctx)
        self.view.put(out, 2 * self.n, view, ctx)  # type: ignore[arg-type]
        return np.frombuffer(out, dtype=np.float32)

    def _encode_c(self, seat: str | None, view: dict[str, Any], pending: Sequence[str], ctx: Ctx) -> np.ndarray:
        """The view laid out afresh by the C encoder; where it raises (a gap in the schema, a
        malformed view, a case it leaves to Python), by :meth:`_fresh`, which gives the tensor or
        the exact error."""
        slots: Any = array("f", self._zeros) if self._c.delegates else np.zeros(self.size, dtype=np.float32)
        try:  # (a field laid out by its own put, called from C, expects an array('f'))
            self._c.encode(slots, view, ctx, self.seats, seat, pending)
        except Exception:
            slots = None  # Python encodes it again below, outside this handler (no chained error)
        if slots is None:
            return self._fresh(seat, view, pending, ctx)
        return np.frombuffer(slots, dtype=np.float32) if self._c.delegates else slots

    def _header(self, out: array[float], seat: str | None, pending: Sequence[str], ctx: Ctx) -> None:
        if seat is not None:
            out[self.seats.index(seat)] = 1.0
        for s in pending:
            i = ctx.pos.get(s)
            if i is not None:
                out[self.n + i] = 1.0

    def _patch(self, seat: str | None, view: dict[str, Any], pending: Sequence[str], ctx: Ctx) -> np.ndarray:
        """The incremental encoding (module docstring, *Speed*): the seat's last tensor with the
        header and every field whose value changed laid out again. Small fields, and fields that
        have kept changing lately, are laid out afresh without comparing (which never changes the
        result, only the work)."""
        last = self._last.pop(seat, None)  # dropped while patching: an error leaves nothing half done
        base = 2 * self.n
        blank = self._blank
        if last is None:
            out = array("f", self._zeros)
            known: list[bytes | None] = [None] * len(self.view._items)
        else:
            out, known = last
            out[:base] = blank[:base]
        self._header(out, seat, pending, ctx)
        get = view.get
        dumps = marshal.dumps
        misses = self._misses
        zeros = memoryview(blank)
        slots = memoryview(out)
        for k, (key, field, off, size, kind, shift, scale) in enumerate(self._plan):
            value = get(key)
            now: bytes | None = None
            if size >= PATCH_MIN and misses[k] < PATCH_MISSES:
                try:
                    now = dumps(value)
                except ValueError:  # not plain data: laid out afresh every time
                    misses[k] = PATCH_MISSES + PATCH_RETRY
                if now is not None and now == known[k]:
                    misses[k] = 0
                    continue
                misses[k] += 1
            elif misses[k] >= PATCH_MISSES:
                misses[k] += 1
                if misses[k] >= PATCH_MISSES + PATCH_RETRY:
                    misses[k] = 0  # try comparing again
            at = base + off
            if last is not None:
                if size == 1:
                    out[at] = 0.0
                else:
                    slots[at : at + size] = zeros[:size]  # no intermediate copy
            known[k] = None
            if value is not None:
                if kind == 1:  # a Num, as Rec.put lays it out
                    out[at] = (float(value) + shift) / scale
                elif kind == 2:  # a Flag
                    if value:
                        out[at] = 1.0
                else:
                    try:
                        field.put(out, at, value, ctx)
                    except SchemaError as exc:
                        raise SchemaError(f"{key}: {exc}") from None
            known[k] = now
        slots.release()
        self._last[seat] = (out, known)
        return np.frombuffer(out, dtype=np.float32).copy()  # a copy: the caller may change it

    def project(self, view: dict[str, Any]) -> Any:
        return self.view.project(view)


class Dice(Field):
    """A set of dice named ``"<seat>.<i>"`` (``i < k``): a multi-hot over (seat in the observer's
    order, i); with ``n = 1`` only the number ``i`` counts (a participant's own dice)."""

    def __init__(self, n: int, k: int, doc: str = "") -> None:
        self.n, self.k, self.doc = n, k, doc
        self.size = n * k

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Dice, (self.n, self.k, self.doc)

    def rows(self, name: str) -> list[tuple[str, str]]:
        who = (lambda s: f"seat{s}.") if self.n > 1 else (lambda s: "")
        return [
            (f"{name}∋{who(s)}{i}", f"{_pre(self.doc)}1 if die {who(s)}{i} is in it")
            for s in range(self.n)
            for i in range(self.k)
        ]

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        for die in value or ():
            seat, _, i = str(die).rpartition(".")
            s = ctx.pos.get(seat) if self.n > 1 else 0
            if s is None or not i.isdigit() or int(i) >= self.k:
                raise SchemaError(f"die {die!r} is beyond the declared {self.n} seats x {self.k} dice")
            out[at + s * self.k + int(i)] = 1.0

    def project(self, value: Any) -> Any:
        return sorted(set(map(str, value or ())))


class Sentence(Field):
    """A sentence the game writes from a template (``pattern``, a regular expression): each group
    is laid out by its field (e.g. Euthymia's "p1 passed a RED identity card to p3")."""

    def __init__(self, pattern: str, doc: str = "", **groups: Field) -> None:
        import re

        self.pattern = re.compile(pattern)
        self.rec = Rec(groups, text=set(self.pattern.groupindex) - set(groups))
        self.size = 1 + self.rec.size
        self.doc = doc

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _sentence, (self.pattern.pattern, self.doc, self.rec.fields)

    def rows(self, name: str) -> list[tuple[str, str]]:
        return [(f"{name}?", f"{_pre(self.doc)}1 if shown"), *self.rec.rows(name)]

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        found = self.pattern.fullmatch(str(value))
        if found is None:
            raise SchemaError(f"{value!r} does not read as {self.pattern.pattern!r}")
        out[at] = 1.0
        self.rec.put(out, at + 1, found.groupdict(), ctx)

    def project(self, value: Any) -> Any:
        return None if value is None else str(value)


def _sentence(pattern: str, doc: str, groups: dict[str, Field]) -> Sentence:
    """A :class:`Sentence` rebuilt (its groups are keyword arguments)."""
    return Sentence(pattern, doc, **groups)


class SeatOr(Field):
    """Either a seat (a one-hot) or a record (e.g. ``{"tied": [...]}``), the first slot saying which."""

    def __init__(self, n: int, other: Field, doc: str = "") -> None:
        self.seat = Seat(n, extra=())
        self.other = other
        self.size = 1 + self.seat.size + other.size
        self.doc = doc

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return SeatOr, (self.seat.n, self.other, self.doc)

    def rows(self, name: str) -> list[tuple[str, str]]:
        return [(f"{name}:seat", f"{_pre(self.doc)}1 if one seat"), *self.seat.rows(name),
                *self.other.rows(name)]  # fmt: skip

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        if isinstance(value, str):
            out[at] = 1.0
            self.seat.put(out, at + 1, value, ctx)
        else:
            self.other.put(out, at + 1 + self.seat.size, value, ctx)

    def project(self, value: Any) -> Any:
        return value if isinstance(value, str) else self.other.project(value)


class Bits(Field):
    """A string of ``n`` binary digits (spaces ignored), e.g. a Great City hexagram pair ``"010 011"``."""

    def __init__(self, n: int, doc: str = "") -> None:
        self.n = self.size = n
        self.doc = doc

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Bits, (self.n, self.doc)

    def rows(self, name: str) -> list[tuple[str, str]]:
        return [(f"{name}#{i}", f"{_pre(self.doc)}digit {i} (1 if '1' or '+')") for i in range(self.n)]

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        digits = str(value).replace(" ", "")
        if len(digits) != self.n or set(digits) - set("01+-"):
            raise SchemaError(f"{value!r} is not {self.n} binary digits")
        for i, d in enumerate(digits):
            if d in "1+":
                out[at + i] = 1.0


class Workers(Field):
    """Workers standing somewhere, a list of ``[seat, face]``: how many of each seat's workers
    (in the observer's order) show each face, divided by ``scale``."""

    def __init__(self, n: int, faces: int = 6, scale: float = 1.0, doc: str = "") -> None:
        self.n, self.faces, self.scale, self.doc = n, faces, float(scale), doc
        self.size = n * faces

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Workers, (self.n, self.faces, self.scale, self.doc)

    def rows(self, name: str) -> list[tuple[str, str]]:
        return [
            (f"{name}[seat{s}:{f}]", f"{_pre(self.doc)}workers of seat {s} (0 = you) showing {f}")
            for s in range(self.n)
            for f in range(1, self.faces + 1)
        ]

    def put(self, out: array[float], at: int, value: Any, ctx: Ctx) -> None:
        for seat, face in value or ():
            s = ctx.pos.get(seat)
            if s is None or not 1 <= int(face) <= self.faces:
                raise SchemaError(f"worker {seat!r} showing {face!r} is not a seat's die face")
            out[at + s * self.faces + int(face) - 1] += 1.0 / self.scale

    def project(self, value: Any) -> Any:
        return sorted(f"{s}:{f}" for s, f in value or ())
