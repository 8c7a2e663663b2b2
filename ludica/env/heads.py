"""Small masks: a decision taken head by head, each head with its own legal mask given the picks before it.

A game's flat action catalogue (:class:`~ludica.env.encoding.Catalogue`) has up to 97 000 indices
(The Great City); a policy with that many outputs, and a mask that long to read at every decision,
is not what anyone trains. Every flat index is also a *factored* action: its shape (the action
type, head 0), then one digit per parameter of that shape (heads 1, 2, ...; :attr:`Catalogue.heads`
gives their sizes, at most a few hundred). This module works those out for the legal actions of a
decision (all at once in numpy, :meth:`Heads.rows`; per index, or per template with ranges as a
:data:`Box`, for the walk), and walks a decision head by head
(:class:`Choice`): the legal values of the next head given the earlier picks (autoregressive), a
head with a single legal value filled in without asking, until the picks name one legal action.

The environments offer that walk as their default action form (``action="heads"`` in
:func:`ludica.env.aec_env` and :func:`ludica.env.gym_env`): each environment step picks one head,
``Discrete(Heads.width)``, with a mask of ``width`` entries (at most 512), and the observation is
the seat's tensor followed by :meth:`Heads.prefix` slots (which head is asked, the picks so far):
exactly what a standard masked policy (a masked softmax, Stable-Baselines3's ``MaskablePPO``)
consumes, with no illegal combination left to pick.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

import numpy as np

from .driver import Driver
from .encoding import FREE, Catalogue, Indexed, Legal

FEW = 64
"""A decision whose listing stands for at most this many legal indices is walked over one tuple
per index (from a memo of the catalogue's factoring), a larger one over one :data:`Box` per
template (a template with ranges stands for every combination of its values, never spelled out)."""

ROOTS = 4_096
"""How many decisions' walks :meth:`Heads.root` keeps (each a few small nodes)."""

Box = tuple[tuple[int, ...], ...]
"""Legal actions of one shape as a product: per head (the shape first, then each parameter's
digit, 0 past the shape's parameters), the values allowed; the box stands for every combination."""

FLOAT32 = np.dtype(np.float32)
"""The observation's type."""

NODES = 8_192
"""How many nodes after a pick :meth:`Node.child` keeps for every decision to share."""


class Heads:
    """The factored form of one catalogue: head sizes, and the legal actions of a decision as rows."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.sizes: tuple[int, ...] = catalogue.heads
        """Head 0 (the action types), then one head per parameter position."""
        self.depth = len(self.sizes)
        self.width = max(self.sizes)
        """The mask of every head is this long (the largest head)."""
        n = len(catalogue.shapes)
        self.offsets = np.array(catalogue.offsets, dtype=np.int64)
        self.radix = np.ones((n, self.depth - 1), dtype=np.int64)
        """Per shape, the radix of each parameter head (1 past its parameters: digit 0)."""
        self.used: list[int] = [1] * n
        """Per shape, how many heads it uses (its type and its parameters)."""
        for i, sh in enumerate(catalogue.shapes):
            radices = [sh.ranked] if sh.ranked else [len(d) for _, d in sh.params if d is not FREE]
            self.radix[i, : len(radices)] = radices
            self.used[i] = 1 + len(radices)
        starts = [self.depth]
        for size in self.sizes[:-1]:
            starts.append(starts[-1] + size)
        self.starts: list[int] = starts
        """Where each head's pick starts in :meth:`prefix` (after the one-hot of the head asked)."""
        self.prefix_size = self.depth + sum(self.sizes)
        self._free: list[tuple[bool, ...]] = [tuple(d is FREE for _, d in sh.params) for sh in catalogue.shapes]
        """Per shape, whether each parameter (in declared order) is free text (no head)."""
        self._boxes: dict[int, tuple[Indexed, Box]] = {}
        """The :meth:`box` of every ranged template's indices met so far, by its identity (kept with it)."""
        self._points: dict[int, Box] = {}
        """The box of every index met so far in a decision walked over boxes."""
        self._memo: dict[int, tuple[int, ...]] = {}
        """The catalogue's factoring of the indices met so far (a game offers the same ones again)."""
        self._roots: dict[tuple[int, ...], Node] = {}
        """The walk of every decision met so far, by its legal indices (:meth:`root`)."""
        self._nodes: dict[tuple[Any, ...], Node] = {}
        """Every node after a pick met so far, by the head picked and the legal indices left (:meth:`Node.child`)."""
        self.zeros = np.zeros(self.prefix_size, dtype=np.float32)
        """The :meth:`prefix` slots with nothing set (read-only)."""
        self.zeros.flags.writeable = False

    def __reduce__(self) -> tuple[Any, ...]:  # compiled with mypyc: pickled by its catalogue (memos start empty)
        return Heads, (self.catalogue,)

    def rows(self, legal: Legal) -> tuple[np.ndarray, np.ndarray]:
        """The legal indices (sorted) and their factored rows ``(shape, digits...)``, worked out
        together in numpy; the rows are kept on ``legal`` (what :meth:`Catalogue.factored_legal`
        gives, read-only)."""
        indices = legal.sorted_array()
        found = legal.rows
        if found is not None and len(found) == len(indices):
            return indices, found
        shape = np.searchsorted(self.offsets, indices, side="right") - 1
        number = indices - self.offsets[shape]
        out = np.empty((len(indices), self.depth), dtype=np.int64)
        out[:, 0] = shape
        radix = self.radix[shape]
        for h in range(self.depth - 2, -1, -1):  # the last parameter is the least significant digit
            number, out[:, h + 1] = np.divmod(number, radix[:, h])
        out.flags.writeable = False
        legal.rows = out
        return indices, out

    def root(self, legal: Legal) -> Node:
        """The first node of a decision whose legal actions are ``legal``, made once per set of
        legal indices (up to :data:`ROOTS` sets are kept, then the memo starts again)."""
        key = _root_key(legal)
        roots = self._roots
        found = roots.get(key)
        if found is None:
            if len(roots) >= ROOTS:
                roots.clear()
            few = self.few(legal)
            if few is None:
                found = Node(self, None, self.boxes(legal), (), True)
            else:
                found = Node(self, tuple(few), None, (), True)
            roots[key] = found
        return found

    def few(self, legal: Legal) -> list[tuple[int, ...]] | None:
        """The legal actions as ``(shape, digits..., index)`` tuples when the listing stands for at
        most :data:`FEW` indices (an index two templates share counted twice)."""
        if legal.spread() > FEW:  # (counted before sorting: ranges may stand for thousands; boxes walk those)
            return None
        indices = legal.indices
        memo = self._memo
        out = []
        for index in indices:
            row = memo.get(index)
            if row is None:
                row = memo[index] = (*self.catalogue.factor(index), index)
            out.append(row)
        return out

    def boxes(self, legal: Legal) -> tuple[Box, ...]:
        """The legal actions as boxes (:data:`Box`), without spelling out a template's ranges: one
        per template with integer ranges (every combination of its parameters' values), one per
        index of the others; together they stand for exactly the legal indices (an index two
        templates share, twice)."""
        out: list[Box] = []
        for index in legal.single:
            out.append(self._point(index))
        for _, indexed in legal.parts:
            out.append(self.box(indexed))
        for index in legal.ranked:
            out.append(self._point(index))
        return tuple(out)

    def _point(self, index: int) -> Box:
        """The box of one index (made once per index)."""
        found = self._points.get(index)
        if found is None:
            found = self._points[index] = tuple([(v,) for v in self.catalogue.factor(index)])
        return found

    def box(self, indexed: Indexed) -> Box:
        """The indices of a template with ranges as a :data:`Box` (made once per template's
        :class:`~ludica.env.encoding.Indexed`, up to :data:`NODES` kept)."""
        memo = self._boxes
        hit = memo.get(id(indexed))
        if hit is not None and hit[0] is indexed:
            return hit[1]
        shape = bisect_right(self.catalogue.offsets, indexed.offset) - 1
        free = self._free[shape]
        out: list[tuple[int, ...]] = [(shape,)]
        digits = indexed.digits  # least significant first: read from the end, the declared order
        last = len(digits) - 1
        for k in range(len(digits)):
            if not free[k]:
                _, _, fixed, options = digits[last - k]
                out.append((fixed,) if options is None else tuple(sorted(options)))
        while len(out) < self.depth:
            out.append((0,))
        found: Box = tuple(out)
        if len(memo) >= NODES:
            memo.clear()
        memo[id(indexed)] = (indexed, found)
        return found

    def marginals(self, legal: Legal) -> np.ndarray:
        """Every head's legal values over all the legal actions, one head after another
        (``sum(sizes)`` entries: the mask layout of a ``MultiDiscrete`` masked policy); a
        combination of them may still be illegal (the :class:`Choice` walk is exact)."""
        _, rows = self.rows(legal)
        out = np.zeros(sum(self.sizes), dtype=np.int8)
        for h, start in enumerate(self.starts):
            out[start - self.depth + rows[:, h]] = 1
        return out

    def prefix(self, head: int, picks: list[int]) -> np.ndarray:
        """The observation's extra slots: a one-hot of the head asked, then each pick so far as a
        one-hot in its head's block."""
        out = np.zeros(self.prefix_size, dtype=np.float32)
        if head < self.depth:
            out[head] = 1.0
        for h, value in enumerate(picks):
            out[self.starts[h] + value] = 1.0
        return out


class Node:
    """One state of a decision's walk: the legal actions still agreeing with the picks (tuples
    ``(shape, digits..., index)`` for a few, :data:`Box` es for many), the picks so far
    (heads with a single legal value filled in) and the legal values of the head asked now.

    A node never changes once made (its children and mask are made once, when first asked for), so
    :meth:`Heads.root` keeps the walks of the decisions met so far: a game offers the same legal
    actions again and again, and then a decision's heads cost a dict look-up each."""

    __slots__ = ("_mask", "_prefix", "boxes", "children", "done", "few", "heads", "ones", "picks", "values")

    def __init__(
        self,
        heads: Heads,
        few: tuple[tuple[int, ...], ...] | None,
        boxes: tuple[Box, ...] | None,
        picks: tuple[int, ...],
        ask: bool,
    ) -> None:
        used = heads.used
        done = bool(picks) and len(picks) >= used[picks[0]]
        values: list[int] = [] if done else _values(few, boxes, len(picks))
        # fill in every head with a single legal value, in turn; with ``ask`` (a new decision),
        # stop before the pick that would make the decision without asking anything
        while len(values) == 1 and not done:
            value = values[0]
            if ask and (1 if not picks else len(picks) + 1) >= used[picks[0] if picks else value]:
                break
            few, boxes = _keep(few, boxes, len(picks), value)
            picks = (*picks, value)
            done = len(picks) >= used[picks[0]]
            values = [] if done else _values(few, boxes, len(picks))
        self.heads = heads
        self.few, self.boxes = few, boxes
        self.picks = picks
        self.done = done
        self.values: tuple[int, ...] = tuple(values)
        """The legal values of the head asked now, sorted (none once :attr:`done`)."""
        self.children: dict[int, Node | None] = dict.fromkeys(values)
        """Every legal value of the head asked now, with the node after it once it was picked
        (tuples, dicts of plain values and nodes only: a node adds few objects for Python's
        collector to walk, as the kept walks grow)."""
        self._mask: np.ndarray | None = None
        self._prefix: bytes | None = None
        h = len(picks)
        ones = [h] if h < heads.depth else []
        ones += [heads.starts[k] + value for k, value in enumerate(picks)]
        self.ones: tuple[int, ...] = tuple(ones)
        """The :meth:`Heads.prefix` slots set to 1 at this node."""

    def __reduce__(self) -> tuple[Any, ...]:  # compiled with mypyc: made again from what it keeps (caches start empty)
        # made again with ``ask``: a node's picks are complete or stop where a new decision's do
        return Node, (self.heads, self.few, self.boxes, self.picks, True)

    def child(self, value: int) -> Node | None:
        """The node after picking ``value`` for the head asked now (``None`` if it is not legal)."""
        children = self.children
        found = children.get(value)
        if found is None:
            if value not in children:
                return None
            h = len(self.picks)
            few, boxes = _keep(self.few, self.boxes, h, value)
            # the node after a pick depends only on the legal actions left (their common digits
            # are the picks): decisions that differ elsewhere share it
            key = (h, *(row[-1] for row in few)) if few is not None else (h, boxes)
            nodes = self.heads._nodes
            found = nodes.get(key)
            if found is None or found.picks[: h + 1] != (*self.picks, value):
                if len(nodes) >= NODES:
                    nodes.clear()
                found = nodes[key] = Node(self.heads, few, boxes, (*self.picks, value), False)
            children[value] = found
        return found

    def mask(self) -> np.ndarray:
        """The legal values of the head asked now as a 0/1 int8 mask of :attr:`Heads.width`, made
        once per node and read-only (it never changes: every step at this node hands out the same
        array, with no copy)."""
        found = self._mask
        if found is None:
            found = np.zeros(self.heads.width, dtype=np.int8)
            for value in self.values:
                found[value] = 1
            found.flags.writeable = False
            self._mask = found
        return found

    def prefix(self) -> bytes:
        """The :meth:`Heads.prefix` slots at this node as float32 bytes, made once per node."""
        found = self._prefix
        if found is None:
            slots = self.heads.zeros.copy()
            for slot in self.ones:
                slots[slot] = 1.0
            found = self._prefix = slots.tobytes()
        return found

    @property
    def index(self) -> int:
        """The flat index the picks name (once :attr:`done`)."""
        if self.few is not None:
            return int(self.few[0][-1])
        return self.heads.catalogue.compose(self.picks)


def _root_key(legal: Legal) -> tuple[Any, ...]:
    """A key of ``legal``'s set of indices for :meth:`Heads.root`, from its listing: the indices of
    its one-index templates and its ranked ones in the listing's order, and the very
    :class:`~ludica.env.encoding.Indexed` of each template with ranges (the catalogue gives equal
    templates the same one; the key keeps it alive, so it is never another's). Nothing is sorted
    or spelled out: a game lists the same actions in the same order, and a set met in another
    order or listing only makes a second, equal walk. Equal keys always mean equal sets."""
    key: list[Any] = list(legal.single)
    for _, indexed in legal.parts:
        key.append(indexed)
    key += legal.ranked
    return tuple(key)


def _values(few: tuple[tuple[int, ...], ...] | None, boxes: tuple[Box, ...] | None, h: int) -> list[int]:
    """The legal values of head ``h`` over the legal actions left, sorted."""
    if few is not None:
        return sorted({row[h] for row in few})
    assert boxes is not None
    found: set[int] = set()
    for box in boxes:
        found.update(box[h])
    return sorted(found)


def _keep(
    few: tuple[tuple[int, ...], ...] | None, boxes: tuple[Box, ...] | None, h: int, value: int
) -> tuple[tuple[tuple[int, ...], ...] | None, tuple[Box, ...] | None]:
    """The legal actions left whose head ``h`` is ``value`` (a box keeps only that value there)."""
    if few is not None:
        return tuple([row for row in few if row[h] == value]), None
    assert boxes is not None
    one = (value,)
    return None, tuple([(*box[:h], one, *box[h + 1 :]) for box in boxes if value in box[h]])


class Choice:
    """One decision being composed head by head: a walk through the :class:`Node` of each set of picks.

    A head with a single legal value is filled in without asking, the action type too, except that
    a decision asks at least one head (a seat with one legal action is still asked, as the game
    asks it)."""

    __slots__ = ("_obs", "_out", "_raw", "_shown", "asked", "heads", "node", "view")

    def __init__(self, heads: Heads, legal: Legal | Node, obs: np.ndarray | None = None) -> None:
        self.heads = heads
        self.node: Node = legal if isinstance(legal, Node) else heads.root(legal)
        """Where the walk is (a new decision: the root of ``legal``'s walk)."""
        self.asked = 0
        """How many heads of this decision the seat has picked (0: the decision is new)."""
        self._obs = obs
        self._raw: bytes | None = None
        """:attr:`obs` as float32 bytes, once an observation was made from it."""
        self.view: bytes | None = None
        """The seat's view for this decision, marshalled once asked for (it does not change while
        the heads are picked; each step hands out a new copy)."""
        self._out: np.ndarray | None = None
        self._shown: Node | None = None
        """The observation last handed out (:meth:`observation`) and the node it was made at."""

    def __reduce__(self) -> tuple[Any, ...]:  # compiled with mypyc: pickled by its fields
        return _choice, (self.heads, self.node, self.asked, self.obs, self.view)

    @property
    def obs(self) -> np.ndarray | None:
        """The seat's tensor for this decision (it does not change while the heads are picked)."""
        return self._obs

    @obs.setter
    def obs(self, value: np.ndarray | None) -> None:
        self._obs = value
        self._raw = None

    @property
    def head(self) -> int:
        """The head asked now."""
        return len(self.node.picks)

    @property
    def picks(self) -> tuple[int, ...]:
        """The value of every head picked or filled in so far."""
        return self.node.picks

    @property
    def now(self) -> tuple[int, ...]:
        """The legal values of the head asked now, sorted."""
        return self.node.values

    @property
    def done(self) -> bool:
        """Whether the picks name one action (every head its shape uses is picked)."""
        return self.node.done

    def mask(self) -> np.ndarray:
        """The legal values of the head asked now, as a 0/1 int8 mask of :attr:`Heads.width`."""
        return self.node.mask()

    def legal_values(self) -> list[int]:
        """The legal values of the head asked now, sorted (the mask's ones)."""
        return list(self.node.values)

    def info(self, view: dict[str, Any]) -> dict[str, Any]:
        """An environment's info at this head: the seat's ``view``, the legal values of the head
        asked now (the mask's ones), which head that is, how many heads were asked and the picks
        so far (new lists at every call)."""
        node = self.node
        picks = node.picks
        return {"view": view, "legal_moves": list(node.values), "head": len(picks), "asked": self.asked,
                "picks": list(picks)}  # fmt: skip

    def observed(self, driver: Driver, seat: str) -> dict[str, np.ndarray]:
        """``seat``'s observation at this head and the mask of the head asked now, the tensor
        encoded by ``driver`` once per decision (:meth:`observation`, :meth:`mask`)."""
        node = self.node
        if self._obs is None:  # the first head: the tensor encoded with room for the prefix slots
            room = self.heads.prefix_size
            out = driver.observe_room(seat, room)
            size = len(out) - room
            for slot in node.ones:
                out[size + slot] = 1.0
            out.flags.writeable = False
            self._obs = out[:size]  # (read-only too: a view of it)
            self._raw = None
            self._out, self._shown = out, node
            return {"observation": out, "action_mask": node.mask()}
        return {"observation": self.observation(), "action_mask": node.mask()}

    def pick(self, value: Any) -> bool:
        """Take ``value`` for the head asked now; ``False`` (nothing changes) if it is not legal.
        Later heads with a single legal value are then filled in."""
        try:
            v = int(value)
        except (TypeError, ValueError):
            return False
        found = self.node.child(v)
        if found is None:
            return False
        self.asked += 1
        self.node = found
        return True

    @property
    def index(self) -> int:
        """The flat index the picks name (once :attr:`done`)."""
        return self.node.index

    def observation(self) -> np.ndarray:
        """The seat's tensor followed by the :meth:`Heads.prefix` slots, read-only: made once per
        head asked (asked again at the same head, the same array; it never changes). Made from
        bytes (the tensor's, once per decision, and the node's slots, once per node): one copy,
        and numpy's array over bytes is read-only by itself."""
        node = self.node
        out = self._out
        if out is not None and self._shown is node:
            return out
        raw = self._raw
        if raw is None:
            obs = self._obs
            raw = self._raw = b"" if obs is None else np.ascontiguousarray(obs, dtype=np.float32).tobytes()
        out = np.frombuffer(raw + node.prefix(), FLOAT32)
        self._out, self._shown = out, node
        return out


def _choice(heads: Heads, node: Node, asked: int, obs: np.ndarray | None, view: bytes | None) -> Choice:
    """A :class:`Choice` unpickled."""
    out = Choice(heads, node, obs)
    out.asked, out.view = asked, view
    return out
