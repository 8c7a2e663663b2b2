"""Small masks: a decision taken head by head, each head with its own legal mask given the picks before it.

A game's flat action catalogue (:class:`~ludica.env.encoding.Catalogue`) has up to 97 000 indices
(The Great City); a policy with that many outputs, and a mask that long to read at every decision,
is not what anyone trains. Every flat index is also a *factored* action: its shape (the action
type, head 0), then one digit per parameter of that shape (heads 1, 2, ...; :attr:`Catalogue.heads`
gives their sizes, at most a few hundred). This module works those out for the legal actions of a
decision, all at once in numpy (:meth:`Heads.rows`), and walks a decision head by head
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

from typing import Any

import numpy as np

from .encoding import FREE, Catalogue, Legal

FEW = 64
"""A decision with at most this many legal actions is walked in Python (tuples from a memo of the
catalogue's factoring), a larger one in numpy (numpy's set-up per call costs more than a few dozen
Python comparisons)."""


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
        self._memo: dict[int, tuple[int, ...]] = {}
        """The catalogue's factoring of the indices met so far (a game offers the same ones again)."""

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

    def few(self, legal: Legal) -> list[tuple[int, ...]] | None:
        """The legal actions as ``(shape, digits..., index)`` tuples when there are at most :data:`FEW`."""
        indices = legal.indices
        if len(indices) > FEW:
            return None
        memo = self._memo
        out = []
        for index in indices:
            row = memo.get(index)
            if row is None:
                row = memo[index] = (*self.catalogue.factor(index), index)
            out.append(row)
        return out

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


class Choice:
    """One decision being composed head by head: the legal actions still agreeing with the picks,
    as tuples ``(shape, digits..., index)`` (a few) or as numpy rows and indices (many).

    A head with a single legal value is filled in without asking, the action type too, except that
    a decision asks at least one head (a seat with one legal action is still asked, as the game
    asks it)."""

    __slots__ = ("_base", "asked", "few", "heads", "indices", "now", "obs", "picks", "rows", "view")

    def __init__(self, heads: Heads, legal: Legal, obs: np.ndarray | None = None) -> None:
        self.heads = heads
        self.few = heads.few(legal)
        self.indices: np.ndarray | None = None
        self.rows: np.ndarray | None = None
        if self.few is None:
            self.indices, self.rows = heads.rows(legal)
        self.picks: list[int] = []
        self.asked = 0
        """How many heads of this decision the seat has picked (0: the decision is new)."""
        self.now: list[int] = self._values()
        """The legal values of the head asked now, sorted."""
        self.obs = obs
        """The seat's tensor for this decision (it does not change while the heads are picked)."""
        self._base: np.ndarray | None = None
        self.view: bytes | None = None
        """The seat's view for this decision, marshalled once asked for (it does not change while
        the heads are picked; each step hands out a new copy)."""
        self._fill(ask=True)

    @property
    def head(self) -> int:
        """The head asked now."""
        return len(self.picks)

    @property
    def done(self) -> bool:
        """Whether the picks name one action (every head its shape uses is picked)."""
        picks = self.picks
        return bool(picks) and len(picks) >= self.heads.used[picks[0]]

    def _values(self) -> list[int]:
        h = len(self.picks)
        if self.few is not None:
            return sorted({row[h] for row in self.few})
        assert self.rows is not None
        return sorted(set(self.rows[:, h].tolist()))

    def _fill(self, ask: bool = False) -> None:
        """Pick every head with a single legal value, in turn; with ``ask``, stop before the pick
        that would make the decision without asking anything."""
        picks, used = self.picks, self.heads.used
        while len(self.now) == 1 and not (picks and len(picks) >= used[picks[0]]):
            value = self.now[0]
            if ask and (1 if not picks else len(picks) + 1) >= used[picks[0] if picks else value]:
                return
            self._take(value)

    def _take(self, value: int) -> None:
        h = len(self.picks)
        if self.few is not None:
            self.few = [row for row in self.few if row[h] == value]
        else:
            assert self.rows is not None and self.indices is not None
            keep = self.rows[:, h] == value
            self.rows, self.indices = self.rows[keep], self.indices[keep]
        self.picks.append(value)
        self.now = [] if len(self.picks) >= self.heads.used[self.picks[0]] else self._values()

    def mask(self) -> np.ndarray:
        """The legal values of the head asked now, as a 0/1 int8 mask of :attr:`Heads.width`."""
        out = np.zeros(self.heads.width, dtype=np.int8)
        for value in self.now:
            out[value] = 1
        return out

    def legal_values(self) -> list[int]:
        """The legal values of the head asked now, sorted (the mask's ones)."""
        return list(self.now)

    def pick(self, value: Any) -> bool:
        """Take ``value`` for the head asked now; ``False`` (nothing changes) if it is not legal.
        Later heads with a single legal value are then filled in."""
        try:
            v = int(value)
        except (TypeError, ValueError):
            return False
        if v not in self.now:
            return False
        self.asked += 1
        self._take(v)
        self._fill()
        return True

    @property
    def index(self) -> int:
        """The flat index the picks name (once :attr:`done`)."""
        if self.few is not None:
            return int(self.few[0][-1])
        assert self.indices is not None
        return int(self.indices[0])

    def observation(self) -> np.ndarray:
        """The seat's tensor followed by the :meth:`Heads.prefix` slots (a new array each time)."""
        heads = self.heads
        base = self._base
        if base is None:
            zeros = np.zeros(heads.prefix_size, dtype=np.float32)
            base = self._base = zeros if self.obs is None else np.concatenate((self.obs, zeros))
        out = base.copy()
        at = len(out) - heads.prefix_size
        h = len(self.picks)
        if h < heads.depth:
            out[at + h] = 1.0
        for k, value in enumerate(self.picks):
            out[at + heads.starts[k] + value] = 1.0
        return out
