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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from .actions import CHANCE, Action, same_value
from .errors import MalformedAction
from .values import Value, rebuilt

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

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self._key)  # see ludica.core.values

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


class _Step(Value):
    """What every chance step shares: strict checks of an outcome and of a whole chance action."""

    __slots__ = ()
    type: str
    key: str
    extra: dict[str, Any]
    public: bool

    def validate(self, args: Mapping[str, Any]) -> None:
        """Refuse the arguments of a chance action unless they are exactly one possible outcome
        of this step (``{key: value}``, what a person types) and, optionally, the step's own
        parameters ``extra`` with their very values: unknown keys, wrong types, values out of
        range, another step's parameters are all refused."""
        if not isinstance(args, Mapping):
            raise MalformedAction("a chance outcome must be an object", rule="chance")
        unknown = sorted(str(k) for k in args if k != self.key and k not in self.extra)
        if unknown:
            raise MalformedAction(
                f"the {self.type} step takes only {self.key!r}, not {', '.join(map(repr, unknown))}", rule="chance"
            )
        for name, want in self.extra.items():
            if name in args and not same_value(_plain(want), _plain(args[name])):
                raise MalformedAction(f"the {self.type} step due now has {name}={_words(want)}", rule="chance")
        if self.key not in args:
            raise MalformedAction(f"the {self.type} step needs {self.key!r}", rule="chance")
        self._validate_value(args[self.key])

    def _validate_value(self, value: Any) -> None:
        raise NotImplementedError

    def describe_outcome(self, value: Any) -> str:
        raise NotImplementedError

    def describe_hidden(self) -> str:
        raise NotImplementedError


def _plain(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples become lists)."""
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _words(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(_words(v) for v in value)
    return str(value)


@dataclass(frozen=True, slots=True)
class Roll(_Step):
    """Roll dice of the given sizes; outcome ``args[key]`` is a list of faces (1..size).

    ``public``: dice are rolled in the open unless the step says otherwise.
    """

    sides: tuple[int, ...]
    type: str = "roll"
    key: str = "dice"
    extra: dict[str, Any] = field(default_factory=dict)
    public: bool = True
    labels: tuple[str, ...] = field(default=(), compare=False)
    """For people at a real table: whose die each one is, and its colour or kind ("Ana's blue
    stone"), one per die. Never part of the record."""

    def sample(self, rng: Randomness) -> dict[str, Any]:
        return {self.key: [rng.randint(1, s) for s in self.sides]}

    def _validate_value(self, faces: Any) -> None:
        if not isinstance(faces, list) or len(faces) != len(self.sides):
            raise MalformedAction(f"'{self.key}' must list {len(self.sides)} die result(s)", rule="chance")
        for face, size in zip(faces, self.sides, strict=True):
            if not _is_int(face) or not 1 <= face <= size:
                shown = repr(face) if self.public else "that"
                raise MalformedAction(f"a d{size} shows a whole number 1..{size}, not {shown}", rule="chance")

    def describe_outcome(self, faces: Any) -> str:
        return " ".join(str(f) for f in faces)

    def describe_hidden(self) -> str:
        return f"{len(self.sides)} dice are rolled in secret"

    def outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        total = 1
        for s in self.sides:
            total *= s
        faces = itertools.product(*(range(1, s + 1) for s in self.sides))
        return [({self.key: list(f)}, Fraction(1, total)) for f in faces]


@dataclass(frozen=True, slots=True)
class Shuffle(_Step):
    """Shuffle ``n`` items; outcome ``args[key]`` is a permutation of ``0..n-1``.

    ``public``: a shuffled order is hidden (it decodes to every hand and the deck) unless the
    step says otherwise.
    """

    n: int
    type: str = "shuffle"
    key: str = "order"
    extra: dict[str, Any] = field(default_factory=dict)
    public: bool = False
    items: tuple[str, ...] = field(default=(), compare=False)
    """For people at a real table: the face of each item by its index (cards as ``AS``,
    ``TD``...), so a shuffle can be typed as the cards are dealt. Never part of the record."""

    def sample(self, rng: Randomness) -> dict[str, Any]:
        order = list(range(self.n))
        rng.shuffle(order)
        return {self.key: order}

    def _validate_value(self, order: Any) -> None:
        if (
            not isinstance(order, list)
            or len(order) != self.n
            or not all(_is_int(i) for i in order)
            or sorted(order) != list(range(self.n))
        ):
            raise MalformedAction(
                f"'{self.key}' must be an ordering of the whole numbers 0..{self.n - 1}, each once", rule="chance"
            )

    def describe_outcome(self, order: Any) -> str:
        return " ".join(str(i) for i in order)

    def describe_hidden(self) -> str:
        return f"{self.n} items are shuffled (kept hidden)"

    def outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        perms = list(itertools.permutations(range(self.n)))
        return [({self.key: list(p)}, Fraction(1, len(perms))) for p in perms]


@dataclass(frozen=True, slots=True)
class EachSays(Value):
    """How a hidden pick is filled at a real table without anyone typing another's secret: each
    seat, in its own turn at the keyboard, privately types its own part (the colour of the card it
    received, whom it passed its card to); the outcome is the one option that fits every answer.

    ``answers`` are the words a seat may type (empty: a seat, typed by name); ``fits(option,
    seat, answer)`` says whether an option agrees with what ``seat`` typed. Never part of the
    record: the pick is recorded as if dealt.
    """

    seats: tuple[str, ...]
    question: str
    answers: tuple[str, ...]
    fits: Callable[[Any, str, str], bool]

    def outcome(self, options: Sequence[Any], typed: Mapping[str, str]) -> list[Any]:
        """The options that fit every seat's answer (one, when the answers agree)."""
        return [o for o in options if all(self.fits(o, seat, answer) for seat, answer in typed.items())]


@dataclass(frozen=True, slots=True)
class Pick(_Step):
    """Pick ``k`` distinct items of ``options`` at random; outcome ``args[key]`` lists them.

    ``public``: what is picked is hidden (an identity dealt, a pass) unless the step says otherwise.
    """

    options: tuple[Any, ...]
    k: int = 1
    type: str = "pick"
    key: str = "picked"
    extra: dict[str, Any] = field(default_factory=dict)
    public: bool = False
    each: EachSays | None = field(default=None, compare=False)
    """For people at a real table (a hidden pick of one): each seat types its own part privately
    (:class:`EachSays`) instead of one person typing the whole outcome. Never part of the record."""

    def sample(self, rng: Randomness) -> dict[str, Any]:
        return {self.key: rng.sample(list(self.options), self.k)}

    def _validate_value(self, picked: Any) -> None:
        if not isinstance(picked, list) or len(picked) != self.k:
            raise MalformedAction(f"'{self.key}' must list {self.k} item(s)", rule="chance")
        pool = [_plain(o) for o in self.options]
        for i, item in enumerate(picked, 1):
            found = next((j for j, o in enumerate(pool) if same_value(o, _plain(item))), None)
            if found is None:
                shown = repr(item) if self.public else f"item {i}"
                raise MalformedAction(
                    f"{shown} is not one of the items to pick from (or is picked twice)", rule="chance"
                )
            del pool[found]

    def describe_outcome(self, picked: Any) -> str:
        return ", ".join(_words(p) for p in picked)

    def describe_hidden(self) -> str:
        return f"{self.k} of {len(self.options)} picked at random (kept hidden)"

    def outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        combos = list(itertools.permutations(self.options, self.k))
        return [({self.key: list(c)}, Fraction(1, len(combos))) for c in combos]


ChanceStep = Roll | Shuffle | Pick


def chance_action(step: ChanceStep, args: dict[str, Any]) -> Action:
    """The chance seat's action for a step and its outcome (validated)."""
    step.validate(args)
    return Action(CHANCE, step.type, {**step.extra, **args})


def describe_chance(step: ChanceStep, action: Action) -> str:
    """A chance action as a shared screen may show it (a terminal, a table log, a prompt).

    A public step (dice rolled in the open) shows its outcome; a hidden one (a shuffle, an
    identity dealt) only that it happened, e.g. "shuffle and deal: 52 items are shuffled (kept
    hidden)". What each seat learns from a hidden outcome reaches it through the
    game's own view and private events, never through this line.

    >>> step = Roll((6, 6), type="roll_conflict")
    >>> describe_chance(step, Action(CHANCE, "roll_conflict", {"dice": [3, 5]}))
    'roll conflict: 3 5'
    >>> step = Pick(("p1", "p2", "p3"), type="deal_identity_cards", key="black")
    >>> describe_chance(step, Action(CHANCE, "deal_identity_cards", {"black": ["p3"]}))
    'deal identity cards: 1 of 3 picked at random (kept hidden)'
    """
    what = step.type.replace("_", " ")
    if not step.public:
        return f"{what}: {step.describe_hidden()}"
    about = ", ".join(f"{k} {_words(v)}" for k, v in step.extra.items())
    head = f"{what} ({about})" if about else what
    return f"{head}: {step.describe_outcome(action.args.get(step.key, []))}"


def step_key(seed: int | str, index: int) -> bytes:
    """The generator key of chance step ``index`` (its position in the record) for a dealer seed."""
    return hashlib.sha256(f"ludica:{seed}:{index}".encode()).digest()


class Dealer:
    """Fills chance steps from a seed: outcome of step *i* depends only on ``(seed, i)``."""

    __slots__ = ("seed",)

    def __init__(self, seed: int | str) -> None:
        self.seed = seed

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.seed)  # see ludica.core.values

    def fill(self, step: ChanceStep, index: int) -> Action:
        rng = StepRandom(step_key(self.seed, index))
        return Action(CHANCE, step.type, {**step.extra, **step.sample(rng)})

    @staticmethod
    def seed_commitment(seed: int | str) -> str:
        """The hash a table publishes before play and checks against the seed revealed after."""
        return hashlib.sha256(f"ludica-seed:{seed}".encode()).hexdigest()
