"""Chance as explicit steps of the chance seat.

When a game needs dice, a shuffle or a random pick, its pending decision is the chance seat and
:meth:`Game.chance_step` describes what is needed as a :class:`ChanceStep`. The step is then
filled by

* a :class:`Dealer` from a seeded generator (the default),
* a person at a real table, who types what the physical dice or cards showed (``--physical``),
* a test, which pins the exact outcome.

Whichever fills it, the outcome becomes an ordinary :class:`Action` of seat ``chance`` in the
record, so replay never needs the generator again. The Dealer derives the generator of each step
from ``(seed, step number)``, so anyone who learns the seed at the end can recompute every step
(provably fair dealing).

>>> step = Roll(sides=(8, 8, 8), type="roll_character_triad")
>>> Dealer(seed=7).fill(step, 0).args["dice"]
[7, 7, 1]
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from .actions import CHANCE, Action
from .errors import MalformedAction

T = TypeVar("T")


class Randomness(Protocol):
    """What a chance step needs of a generator (``random.Random`` has it too)."""

    def randint(self, a: int, b: int) -> int: ...

    def shuffle(self, x: list[Any]) -> None: ...

    def sample(self, population: Sequence[T], k: int) -> list[T]: ...


class StepRandom:
    """The generator of one chance step: SHA-256 in counter mode over a key, read as bits.

    Cheap to start (no generator state to seed), the same on every machine and Python version,
    and anyone with the key can recompute it. Integers below ``n`` are drawn by rejection, so
    every face of a die is exactly equally likely.
    """

    __slots__ = ("_bits", "_counter", "_key", "_nbits")

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._bits = 0
        self._nbits = 0

    def _getrandbits(self, k: int) -> int:
        while self._nbits < k:
            block = hashlib.sha256(self._key + self._counter.to_bytes(4, "big")).digest()
            self._counter += 1
            self._bits |= int.from_bytes(block, "big") << self._nbits
            self._nbits += 256
        out = self._bits & ((1 << k) - 1)
        self._bits >>= k
        self._nbits -= k
        return out

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``0..n-1``."""
        k = n.bit_length()
        r = self._getrandbits(k)
        while r >= n:
            r = self._getrandbits(k)
        return r

    def randint(self, a: int, b: int) -> int:
        return a + self.randbelow(b - a + 1)

    def shuffle(self, x: list[Any]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(x) - 1, 0, -1):
            j = self.randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        pool = list(population)
        for i in range(k):
            j = i + self.randbelow(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll dice of the given sizes; outcome ``args[key]`` is a list of faces (1..size)."""

    sides: tuple[int, ...]
    type: str = "roll"
    key: str = "dice"
    extra: dict[str, Any] = field(default_factory=dict)
    labels: tuple[str, ...] = field(default=(), compare=False)
    """For people at a real table: whose die each one is, and its colour or kind ("Ana's blue
    stone"), one per die. Never part of the record."""

    def sample(self, rng: Randomness) -> dict[str, Any]:
        return {self.key: [rng.randint(1, s) for s in self.sides]}

    def validate(self, args: dict[str, Any]) -> None:
        faces = args.get(self.key)
        if not isinstance(faces, list) or len(faces) != len(self.sides):
            raise MalformedAction(f"'{self.key}' must list {len(self.sides)} die result(s)", rule="chance")
        for face, size in zip(faces, self.sides, strict=True):
            if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= size:
                raise MalformedAction(f"a d{size} shows 1..{size}, not {face!r}", rule="chance")

    def outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        total = 1
        for s in self.sides:
            total *= s
        faces = itertools.product(*(range(1, s + 1) for s in self.sides))
        return [({self.key: list(f)}, Fraction(1, total)) for f in faces]


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Shuffle ``n`` items; outcome ``args[key]`` is a permutation of ``0..n-1``."""

    n: int
    type: str = "shuffle"
    key: str = "order"
    extra: dict[str, Any] = field(default_factory=dict)
    items: tuple[str, ...] = field(default=(), compare=False)
    """For people at a real table: the face of each item by its index (cards as ``AS``,
    ``TD``...), so a shuffle can be typed as the cards are dealt. Never part of the record."""

    def sample(self, rng: Randomness) -> dict[str, Any]:
        order = list(range(self.n))
        rng.shuffle(order)
        return {self.key: order}

    def validate(self, args: dict[str, Any]) -> None:
        order = args.get(self.key)
        if not isinstance(order, list) or sorted(order) != list(range(self.n)):
            raise MalformedAction(f"'{self.key}' must be an ordering of 0..{self.n - 1}", rule="chance")

    def outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        perms = list(itertools.permutations(range(self.n)))
        return [({self.key: list(p)}, Fraction(1, len(perms))) for p in perms]


@dataclass(frozen=True, slots=True)
class Pick:
    """Pick ``k`` distinct items of ``options`` at random; outcome ``args[key]`` lists them."""

    options: tuple[Any, ...]
    k: int = 1
    type: str = "pick"
    key: str = "picked"
    extra: dict[str, Any] = field(default_factory=dict)

    def sample(self, rng: Randomness) -> dict[str, Any]:
        return {self.key: rng.sample(list(self.options), self.k)}

    def validate(self, args: dict[str, Any]) -> None:
        picked = args.get(self.key)
        if not isinstance(picked, list) or len(picked) != self.k:
            raise MalformedAction(f"'{self.key}' must list {self.k} item(s)", rule="chance")
        pool = list(self.options)
        for item in picked:
            if item not in pool:
                raise MalformedAction(f"{item!r} is not one of the items to pick from", rule="chance")
            pool.remove(item)

    def outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        combos = list(itertools.permutations(self.options, self.k))
        return [({self.key: list(c)}, Fraction(1, len(combos))) for c in combos]


ChanceStep = Roll | Shuffle | Pick


def chance_action(step: ChanceStep, args: dict[str, Any]) -> Action:
    """The chance seat's action for a step and its outcome (validated)."""
    step.validate(args)
    return Action(CHANCE, step.type, {**step.extra, **args})


def step_key(seed: int | str, index: int) -> bytes:
    """The generator key of chance step ``index`` (its position in the record) for a dealer seed."""
    return hashlib.sha256(f"ludica:{seed}:{index}".encode()).digest()


class Dealer:
    """Fills chance steps from a seed: outcome of step *i* depends only on ``(seed, i)``."""

    __slots__ = ("seed",)

    def __init__(self, seed: int | str) -> None:
        self.seed = seed

    def fill(self, step: ChanceStep, index: int) -> Action:
        rng = StepRandom(step_key(self.seed, index))
        return Action(CHANCE, step.type, {**step.extra, **step.sample(rng)})

    @staticmethod
    def seed_commitment(seed: int | str) -> str:
        """The hash a table publishes before play and checks against the seed revealed after."""
        return hashlib.sha256(f"ludica-seed:{seed}".encode()).hexdigest()
