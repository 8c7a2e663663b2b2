"""Compact, exact information states: a digest of what a seat observed, and its own decisions.

A seat's information state is everything it has observed, in order (perfect recall). It is
written here in three fields joined by ``:``, numbers only:

* the record steps the seat has seen happen (decisions and completed chance steps: that a step
  happened is public);
* 32 hex digits: a 128-bit BLAKE2b digest chained over the seat's history, one link per record
  step (see :func:`link`);
* the seat's own decisions: how many it has taken, then ``/`` and the latest :data:`RECENT` of
  them by their catalogue index (``action_to_string`` names them), joined by ``,`` (``0`` before
  its first).

So ``47:9f01c2aa03be4d1e5a27c0e1d3b8f611:3/812,3,55`` is a seat 47 steps into the record, that took
three actions: 812, 3 and 55. The step count and the own decisions are for people and tools that
read the string; the digest alone tells histories apart (it is chained over every own decision
too), so the string has a bounded length: at most about 115 characters in any game, at any depth.

Each link hashes the digest so far with one step as the seat saw it (:func:`link`): a marker (its
own decision with its index and ``;``, another seat's decision, or a chance step), a 128-bit digest
of the free text its view holds, which the tensor leaves out (names, narration, the words of a
memory), then its **observation tensor** (:mod:`ludica.env.tensor`) after the step, as its non-zero
slots: their count, their numbers and their values, which give the tensor back. Where a view holds
a value the tensor's schema does not lay out (a state between chance draws that no decision ever
sees), the whole view as canonical JSON takes the slots' place, behind its own marker. This
encoding of a step is injective (a marker, fixed-size parts, counted parts, the one free-length
part last), so two different observed histories feed the chain two different inputs at their first
difference: they share a digest only by a collision of BLAKE2b-128. Among ``n`` information states
the chance of any collision is below ``n² / 2¹²⁹``: under 10⁻¹⁴ for a trillion states.

The **information state tensor** is the seat's observation tensor now, followed by the
:data:`FINGERPRINT` bits of the same digest: a fixed size (``observation size + 128``), and two
different histories give two different tensors (up to the same collision). The observation part is
what a network learns from; the bits only keep apart histories that end in the same observation.
"""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

import numpy as np

from ..core.match import canonical_json

FINGERPRINT = 128
"""Bits of the history's digest: in the string (as hex) and at the end of the tensor."""

_DIGEST = FINGERPRINT // 8

RECENT = 12
"""How many of a seat's latest own decisions its information state string lists by index."""


def link(digest: bytes, own: int | None, chance: bool, text: bytes, seen: bytes) -> bytes:
    """The history's digest extended by one record step: ``own`` the index of the seat's own
    decision (``None`` for another seat's or a chance step), ``text`` the digest of its free text,
    ``seen`` its observation tensor's non-zero slots (:func:`nonzero`)."""
    marker = b"~" if chance else (b"." if own is None else b"@%d;" % own)
    h = hashlib.blake2b(digest, digest_size=_DIGEST)
    h.update(marker)
    h.update(text)
    h.update(seen)
    return h.digest()


def nonzero(tensor: np.ndarray) -> bytes:
    """The non-zero slots of ``tensor`` as bytes: their count, their numbers, their values (which
    give the tensor back, and are a few hundred slots where the tensor is thousands)."""
    slots = np.flatnonzero(tensor != 0)  # a boolean scan: far faster than over the floats
    values = np.ascontiguousarray(tensor[slots], "<f4")
    return len(slots).to_bytes(4, "little") + slots.astype("<i4").tobytes() + values.tobytes()


def fingerprint_bits(fingerprint: bytes) -> np.ndarray:
    """The digest as :data:`FINGERPRINT` floats 0/1 (least significant bit of the first byte first)."""
    bits = np.unpackbits(np.frombuffer(fingerprint.ljust(_DIGEST, b"\0"), np.uint8), bitorder="little")
    return bits.astype(np.float32)


def text_keys(field: Any) -> frozenset[str]:
    """The keys under which a schema (:mod:`ludica.env.tensor`) holds free text or sentences:
    what its tensor leaves out, or lays out only in part."""
    from .tensor import ById, BySeat, Opt, Rec, SeatOr, Sentence, Seq, Text

    keys: set[str] = set()
    stack = [field]
    while stack:
        node = stack.pop()
        if isinstance(node, Rec):
            keys |= node.text
            for key, inner in node.fields.items():
                if isinstance(inner, (Text, Sentence)):
                    keys.add(key)
                else:
                    stack.append(inner)
        elif isinstance(node, Opt):
            stack.append(node.inner)
        elif isinstance(node, (BySeat, ById, Seq)):
            stack.append(node.item)
        elif isinstance(node, SeatOr):
            stack.append(node.other)
    return frozenset(keys)


def text_digest(view: Any, keys: frozenset[str] | None) -> str:
    """32 hex digits of a hash of the free text in ``view`` (every value under one of ``keys``,
    with its path); of the whole view where ``keys`` is ``None`` (an observer without a schema)."""
    if keys is None:
        found: Any = view
    else:
        found = []
        stack: list[tuple[str, Any]] = [("", view)]
        while stack:
            path, node = stack.pop()
            if type(node) is dict:
                for key, value in node.items():
                    if key in keys:
                        found.append((f"{path}/{key}", value))
                    elif type(value) is dict or type(value) is list:
                        stack.append((f"{path}/{key}", value))
            elif type(node) is list:
                for n, value in enumerate(node):
                    if type(value) is dict or type(value) is list:
                        stack.append((f"{path}/{n}", value))
        found.sort(key=lambda pair: pair[0])
    return hashlib.blake2b(canonical_json(found).encode(), digest_size=_DIGEST).hexdigest()


class Recall:
    """Every seat's record steps seen, history digest, count of own decisions and latest own
    decisions. A clone copies the lists, not their items (ints, digests and tuples are never
    changed once made)."""

    __slots__ = ("hashes", "mine", "recent", "steps")

    def __init__(self, seats: int) -> None:
        self.steps: list[int] = [0] * seats
        self.hashes: list[bytes] = [b""] * seats
        self.mine: list[int] = [0] * seats
        self.recent: list[tuple[int, ...]] = [()] * seats

    def copy(self) -> Recall:
        other = Recall(0)
        other.steps, other.hashes = list(self.steps), list(self.hashes)
        other.mine, other.recent = list(self.mine), list(self.recent)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Recall:
        return self.copy()

    @property
    def seen(self) -> list[str]:
        """Every seat's information state string (``steps:digest:count/latest,own,decisions``)."""
        return [self.text(i) for i in range(len(self.steps))]

    def text(self, i: int) -> str:
        """Seat ``i``'s information state string."""
        mine = self.mine[i]
        own = f"{mine}/{','.join(map(str, self.recent[i]))}" if mine else "0"
        return f"{self.steps[i]}:{self.hashes[i].hex()}:{own}"

    def observe(self, i: int, view: Any, tensor: np.ndarray | None, text: str, own: int | None, chance: bool) -> None:
        """Append one record step to seat ``i``'s history (``tensor``: its view laid out, ``None``
        where the schema has a gap; ``text``: the digest of its free text; ``own``: the index of
        its own decision). The seat's first observation (before any step) counts no step."""
        seen = b"!" + canonical_json(view).encode() if tensor is None else b"=" + nonzero(tensor)
        first = not self.hashes[i]
        self.hashes[i] = link(self.hashes[i] or bytes(_DIGEST), own, chance and not first, bytes.fromhex(text), seen)
        if not first:
            self.steps[i] += 1
        if own is not None:
            self.mine[i] += 1
            self.recent[i] = (*self.recent[i][1 - RECENT :], own)

    def tensor(self, i: int, observation: np.ndarray) -> np.ndarray:
        """Seat ``i``'s information state tensor: ``observation`` then its history's digest bits."""
        return np.concatenate([observation, fingerprint_bits(self.hashes[i])])


class Parsed(NamedTuple):
    """An information state string read back (:func:`parse`)."""

    steps: int
    """The record steps the seat has seen."""
    digest: bytes
    """The 128-bit digest of its history."""
    decisions: int
    """How many decisions of its own it has taken."""
    recent: list[int]
    """The latest :data:`RECENT` of them (or all, when fewer), by catalogue index."""


def parse(text: str) -> Parsed:
    """An information state string read back. Raises ``ValueError`` for a string of any other
    form."""
    try:
        steps, digest, own = text.split(":")
        count, _, recent = own.partition("/")
        found = bytes.fromhex(digest)
        parsed = Parsed(int(steps), found, int(count), [int(a) for a in recent.split(",")] if recent else [])
    except ValueError:
        parsed = None
    if (
        parsed is None
        or len(found) != _DIGEST
        or parsed.steps < 0
        or len(parsed.recent) != min(parsed.decisions, RECENT)
    ):
        raise ValueError(f"not an information state string: {text[:80]!r}")
    return parsed
