"""Compact, exact information states: each seat's own history as slot numbers and values.

A seat's information state is everything it has observed, in order (perfect recall). It is
written here as the changes of the seat's observation tensor (:mod:`ludica.env.tensor`, its
documented slots) from one record step to the next, with the seat's own decisions by their
catalogue index:

* the start: the tensor's non-zero slots, ``slot`` for a 1 and ``slot=value`` otherwise, joined
  by ``,`` (``0,14,22=0.5``);
* then, per record step (a decision, or a completed chance step), one space and one token: the
  seat's own decision first when it took it (``@index:``), then the slots that changed (in the
  same form, ``=0`` for a slot that went back to zero), or ``.`` after a decision and ``~`` after
  a chance step when nothing it sees moved (that a step happened is public).

So ``0,3,40=0.25 ~ 3=0,4 @812:4=0,97=0.5`` reads: seat 0 saw slots 0, 3 and 40; a chance step
showed it nothing; then slot 3 went off and 4 on; then it took action 812 and saw slot 4 go off
and slot 97 become 0.5. Every slot's meaning is listed by ``python -m ludica.env describe GAME``.

The tensor leaves out free text (names, narration, the words of a memory). Where the free text a
seat sees changed at a step, the token ends with ``#`` and 12 hex digits of a hash of all of it
(``4=0,17#9f01c2aa03be``): a name drawn from a list is then told apart. Where a view holds a value
the tensor's schema does not lay out (a state between chance draws that no decision ever sees),
the token is ``!`` and 16 hex digits of a hash of the whole view, so nothing a seat saw is dropped.

The **information state tensor** is the seat's observation tensor now, followed by
:data:`FINGERPRINT` bits of a hash chained over every token of its history: a fixed size
(``observation size + 64``), and two different histories give two different tensors (up to a
collision of a 64-bit hash). The observation part is what a network learns from; the bits only
keep apart histories that end in the same observation.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from ..core.match import canonical_json

FINGERPRINT = 64
"""Bits of the history's hash at the end of the information state tensor."""

_BITS = np.arange(FINGERPRINT, dtype=np.uint64)


def _value(v: float) -> str:
    if v == int(v):
        return str(int(v))
    return str(np.float32(v))


def slots_text(slots: np.ndarray, values: np.ndarray) -> str:
    """``slot`` for a 1, ``slot=value`` otherwise, joined by commas."""
    parts = []
    for slot, value in zip(slots.tolist(), values.tolist(), strict=True):
        parts.append(str(slot) if value == 1.0 else f"{slot}={_value(value)}")
    return ",".join(parts)


def delta_text(old: np.ndarray | None, new: np.ndarray) -> str:
    """The slots of ``new`` that differ from ``old`` (from all zeros when ``old`` is ``None``)."""
    changed = np.flatnonzero(new) if old is None else np.flatnonzero(new != old)
    return slots_text(changed, new[changed])


def chain(fingerprint: bytes, token: str) -> bytes:
    """The history's hash extended by one token."""
    return hashlib.blake2b(fingerprint + token.encode(), digest_size=FINGERPRINT // 8).digest()


def fingerprint_bits(fingerprint: bytes) -> np.ndarray:
    """The hash as :data:`FINGERPRINT` floats 0/1."""
    number = np.uint64(int.from_bytes(fingerprint, "little"))
    return ((number >> _BITS) & np.uint64(1)).astype(np.float32)


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
    """12 hex digits of a hash of the free text in ``view`` (every value under one of ``keys``,
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
    return hashlib.blake2b(canonical_json(found).encode(), digest_size=6).hexdigest()


class Recall:
    """Every seat's information state string, the tensor its last token ended on, and the hash
    of its history. A clone copies the three lists, not their items (a string, an array and a
    hash are never changed once made)."""

    __slots__ = ("hashes", "last", "seen", "texts")

    def __init__(self, seats: int) -> None:
        self.seen: list[str] = [""] * seats
        self.last: list[np.ndarray | None] = [None] * seats
        self.hashes: list[bytes] = [b""] * seats
        self.texts: list[str] = [""] * seats

    def copy(self) -> Recall:
        other = Recall(0)
        other.seen, other.last, other.hashes = list(self.seen), list(self.last), list(self.hashes)
        other.texts = list(self.texts)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Recall:
        return self.copy()

    def observe(self, i: int, view: Any, tensor: np.ndarray | None, text: str, own: int | None, chance: bool) -> None:
        """Append one record step to seat ``i``'s history (``tensor``: its view laid out, ``None``
        where the schema has a gap; ``text``: the digest of its free text; ``own``: the index of
        its own decision)."""
        first = not self.hashes[i]
        if tensor is None:
            body = "!" + hashlib.blake2b(canonical_json(view).encode(), digest_size=8).hexdigest()
        else:
            body = delta_text(self.last[i], tensor)
            self.last[i] = tensor
            if text != self.texts[i]:
                body += "#" + text
            if not body and not first:
                body = "~" if chance else "."
        self.texts[i] = text
        token = body if own is None else f"@{own}:{body}"
        self.seen[i] = token if first else f"{self.seen[i]} {token}"
        self.hashes[i] = chain(self.hashes[i], token)

    def tensor(self, i: int, observation: np.ndarray) -> np.ndarray:
        """Seat ``i``'s information state tensor: ``observation`` then its history's hash bits."""
        return np.concatenate([observation, fingerprint_bits(self.hashes[i])])


def tensors_from_history(text: str, size: int) -> list[np.ndarray]:
    """The observation tensors an information state string holds, in order (the start, then one
    per token that changed a slot; a ``#`` token holds no tensor)."""
    out: list[np.ndarray] = []
    now = np.zeros(size, np.float32)
    for token in text.split(" "):
        body = token.split(":", 1)[1] if token.startswith("@") else token
        body = body.split("#", 1)[0]
        if body in (".", "~", "") or body.startswith("!"):
            continue
        now = now.copy()
        for part in body.split(","):
            slot, _, value = part.partition("=")
            now[int(slot)] = float(value) if value else 1.0
        out.append(now)
    return out
