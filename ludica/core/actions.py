"""Actions: small JSON-able values with a one-line text notation.

An action is *who* (a seat), *what* (a type from the game's vocabulary) and named parameters,
plus optional narration that is kept in the story log. Like a move in python-chess it has a
canonical notation used by logs, the CLI, records and tests::

    p1 flip_reaction ops=[{"position":2,"source":"free_scarab"}] -- I bribe the guard

>>> a = Action("p1", "accept_judgment", {"character": "c1"}, "I take the pot")
>>> a.notation()
'p1 accept_judgment character=c1 -- I take the pot'
>>> Action.parse(a.notation()) == a
True

Where a legal action has a free parameter (narration, a name, a memory, an amount), the game
lists it once with a *parameter declaration* (:class:`Text`, :class:`IntRange`) in place of the
value; :func:`fill` gives bots and fuzzers a concrete value, the UI renders a field.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from .errors import MalformedAction
from .values import Value, rebuilt

CHANCE: Final = "chance"
"""The seat that takes every shuffle, deal and roll (filled by a Dealer or typed by a person)."""

_BARE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:/+-]*$")
_RESERVED_BARE = {"true", "false", "null"}


@dataclass(frozen=True, slots=True)
class Text(Value):
    """Declares a free-text parameter: any string of ``min_len``..``max_len`` characters.

    ``prefix``, when set, is how the text must begin (e.g. a memory's "I remember").
    """

    hint: str = "text"
    min_len: int = 1
    max_len: int = 2000
    prefix: str = ""

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not acceptable text here (a phrase: "may not be empty or blank");
        ``None`` when it is.

        The one place the free-text rules live (the legal actions and :meth:`Match.check` both
        ask it): text, ``min_len``..``max_len`` characters, beginning with ``prefix``, and not
        empty or blank after the prefix (unless ``min_len`` is 0).
        """
        if not isinstance(value, str):
            return "must be text"
        if len(value) > self.max_len:
            return f"may be at most {self.max_len} characters, not {len(value)}"
        if not value.startswith(self.prefix):
            return f"must begin with {self.prefix!r}"
        if self.min_len > 0 and not value[len(self.prefix) :].strip():
            return "may not be empty or blank" + (f" after {self.prefix!r}" if self.prefix else "")
        if len(value) < self.min_len:
            return f"needs at least {self.min_len} characters"
        return None

    def accepts(self, value: Any) -> bool:
        return self.problem(value) is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"$text": self.hint, "min_len": self.min_len, "max_len": self.max_len}
        if self.prefix:
            out["prefix"] = self.prefix
        return out


@dataclass(frozen=True, slots=True)
class IntRange(Value):
    """Declares an integer parameter in ``lo..hi`` (both included)."""

    lo: int
    hi: int

    def to_json(self) -> dict[str, Any]:
        return {"$int": [self.lo, self.hi]}


ParamSpec = Text | IntRange


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _declares(value: Any) -> bool:
    """Is ``value`` a parameter declaration (compiled: two pointer tests, no tuple search)?"""
    kind = type(value)
    return kind is Text or kind is IntRange


_NO_ARGS: Final[Any] = object()
"""The default ``args`` of :class:`Action` (a fresh empty dict)."""


def _ill_typed(seat: Any, kind: Any, narration: Any) -> MalformedAction:
    if not isinstance(seat, str):
        name, value = "seat", seat
    elif not isinstance(kind, str):
        name, value = "type", kind
    else:
        name, value = "narration", narration
    return MalformedAction(f"an action's {name} must be text, not {value!r:.60}", rule="action")


@dataclass(slots=True, eq=False)
class Action:
    """One decision of one seat: ``seat``, ``type``, ``args`` (JSON values) and ``narration``.

    An action is a value: never change one after it is made (it is not frozen only because
    frozen dataclasses take twice as long to create, and games create many per step).
    """

    seat: str
    type: str
    args: Mapping[str, Any] = field(default_factory=dict)
    narration: str | None = None

    def __init__(self, seat: Any, type: Any, args: Any = _NO_ARGS, narration: Any = None) -> None:
        """Refuses a ``seat``, ``type`` or ``narration`` that is not text (``narration`` may be
        ``None``) with :class:`MalformedAction` naming the field, in both builds (the compiled
        one could not even hold it); the rest of the form is :func:`check_form`'s."""
        text_narration = narration is None or isinstance(narration, str)  # not `str | None`: a union made per call
        if not isinstance(seat, str) or not isinstance(type, str) or not text_narration:
            raise _ill_typed(seat, type, narration)
        self.seat = seat
        self.type = type
        self.args = {} if args is _NO_ARGS else args
        self.narration = narration

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.seat, self.type, self.args, self.narration)  # see ludica.core.values

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return (
            self.seat == other.seat
            and self.type == other.type
            and self.narration == other.narration
            and _freeze(dict(self.args)) == _freeze(dict(other.args))
        )

    def __hash__(self) -> int:
        return hash((self.seat, self.type, _freeze(dict(self.args)), self.narration))

    def __repr__(self) -> str:
        return f"Action({self.notation()!r})"

    def get(self, name: str, default: Any = None) -> Any:
        return self.args.get(name, default)

    def with_narration(self, text: str | None) -> Action:
        return Action(self.seat, self.type, self.args, text)

    def without_narration(self) -> Action:
        return Action(self.seat, self.type, self.args, None) if self.narration is not None else self

    @property
    def is_template(self) -> bool:
        """True when some parameter is still a declaration (:class:`Text`, :class:`IntRange`)."""
        args = self.args
        if isinstance(args, dict):  # nearly always: compiled, a walk over the dict's own values
            for value in args.values():  # noqa: SIM110 (a loop is faster than any() here)
                if _declares(value):
                    return True
            return False
        return any(_declares(value) for value in args.values())

    # -- JSON ---------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "type": self.type}
        if self.args:
            args: Mapping[Any, Any] = self.args
            out["args"] = {k: (v.to_json() if isinstance(v, Text | IntRange) else v) for k, v in args.items()}
        if self.narration is not None:
            out["narration"] = self.narration
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        if not isinstance(data, dict):
            raise MalformedAction("an action must be a JSON object with 'seat' and 'type'", rule="record")
        seat, kind = data.get("seat"), data.get("type")
        args = data.get("args", {})
        narration = data.get("narration")
        if not isinstance(seat, str) or not isinstance(kind, str) or not seat or not kind:
            raise MalformedAction("an action needs a non-empty 'seat' and 'type'", rule="record")
        if not isinstance(args, dict):
            raise MalformedAction("'args' of an action must be an object", rule="record")
        if narration is not None and not isinstance(narration, str):
            raise MalformedAction("'narration' must be text", rule="record")
        extra = set(data) - {"seat", "type", "args", "narration"}
        if extra:
            raise MalformedAction(f"unknown field(s) in action: {', '.join(sorted(extra))}", rule="record")
        return cls(seat, kind, args, narration)

    # -- notation -----------------------------------------------------------------------------
    def notation(self) -> str:
        """The one-line text form: ``seat type k=v ... [-- narration]``."""
        parts = [self.seat, self.type]
        args: Mapping[Any, Any] = self.args  # an ill-formed action too can be written down
        for key, value in args.items():
            parts.append(f"{key}={_format_value(value)}")
        text = " ".join(parts)
        if self.narration is not None:
            text += " -- " + self.narration.replace("\n", " ")
        return text

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the notation back. Values are JSON, or bare words taken as strings."""
        body, sep, narration = text.partition(" -- ")
        tokens = _split(body.strip())
        if len(tokens) < 2:
            raise MalformedAction(f"expected 'SEAT TYPE [key=value ...]', got {text!r}", rule="notation")
        seat, kind, *rest = tokens
        args: dict[str, Any] = {}
        for token in rest:
            key, eq, raw = token.partition("=")
            if not eq or not key:
                raise MalformedAction(f"parameter {token!r} is not key=value", rule="notation")
            args[key] = _parse_value(raw)
        return cls(seat, kind, args, narration if sep else None)

    def __str__(self) -> str:
        return self.notation()


_MAX_DEPTH = 32


def check_form(action: Action) -> None:
    """Refuse an action that is not well formed, before any rule looks at it: a non-empty text
    ``seat`` and ``type``, ``args`` an object with text keys and JSON values (no NaN, at most
    32 levels deep), ``narration`` text or absent. Raises :class:`MalformedAction` [action]."""
    if not isinstance(action.seat, str) or not action.seat:
        raise MalformedAction("an action's seat must be a non-empty text", rule="action")
    if not isinstance(action.type, str) or not action.type:
        raise MalformedAction("an action's type must be a non-empty text", rule="action")
    if not isinstance(action.args, Mapping):
        raise MalformedAction("the parameters ('args') of an action must be an object", rule="action")
    if action.narration is not None and not isinstance(action.narration, str):
        raise MalformedAction("narration must be text", rule="action")
    args: Mapping[Any, Any] = action.args  # keys of any type: this is where they are checked
    for key, value in args.items():
        if not isinstance(key, str) or not key:
            raise MalformedAction("every parameter of an action needs a text name", rule="action")
        if _declares(value):
            continue
        problem = _json_problem(value, 0)
        if problem:
            raise MalformedAction(f"parameter {key!r}: {problem}", rule="action")


def _json_problem(value: Any, depth: int) -> str | None:
    if depth > _MAX_DEPTH:
        return f"nested more than {_MAX_DEPTH} levels deep"
    if value is None or isinstance(value, str | bool | int):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else "a number must be finite"
    if isinstance(value, list | tuple):
        for item in value:
            problem = _json_problem(item, depth + 1)
            if problem:
                return problem
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            problem = "object keys must be text" if not isinstance(key, str) else _json_problem(item, depth + 1)
            if problem:
                return problem
        return None
    return f"{type(value).__name__} is not a JSON value"


def _format_value(value: Any) -> str:
    if isinstance(value, Text | IntRange):
        return json.dumps(value.to_json(), separators=(",", ":"))
    if isinstance(value, str) and _BARE.match(value) and value not in _RESERVED_BARE:
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _parse_value(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        if _BARE.match(raw):
            return raw
        raise MalformedAction(f"cannot read value {raw!r}: use JSON, or a bare word", rule="notation") from None


def _split(body: str) -> list[str]:
    """Split on spaces outside JSON strings, brackets and braces."""
    tokens: list[str] = []
    depth, in_str, escape, start = 0, False, False, 0
    for i, ch in enumerate(body):
        if in_str:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == " " and depth == 0:
            if i > start:
                tokens.append(body[start:i])
            start = i + 1
    if start < len(body):
        tokens.append(body[start:])
    return tokens


_WORDS = tuple(
    "the city walks on ash and silk a bell rings twice she remembers the river rain over the market "
    "he laughs quietly an old debt is paid the lamp goes out".split()
)


def sample_text(spec: Text, rng: random.Random) -> str:
    """A short deterministic sentence that satisfies ``spec`` (for bots and fuzzers)."""
    words = [rng.choice(_WORDS) for _ in range(rng.randint(2, 7))]
    text = " ".join(words)
    text = f"{spec.prefix} {text}" if spec.prefix else text.capitalize()
    while len(text) < spec.min_len:
        text += " " + rng.choice(_WORDS)
    return text[: spec.max_len]


def fill(action: Action, rng: random.Random) -> Action:
    """Replace every parameter declaration of a legal-action template by a sampled value."""
    if not action.is_template:
        return action
    args: dict[str, Any] = {}
    for key, value in action.args.items():
        if isinstance(value, Text):
            args[key] = sample_text(value, rng)
        elif isinstance(value, IntRange):
            args[key] = rng.randint(value.lo, value.hi)
        else:
            args[key] = value
    return Action(action.seat, action.type, args, action.narration)


def matches(template: Action, action: Action) -> bool:
    """True when ``action`` is an instance of the legal-action ``template``: every declared
    parameter (:class:`Text`, :class:`IntRange`) holds a value it accepts, every other parameter
    the very same value, of the same type."""
    if template.seat != action.seat or template.type != action.type:
        return False
    if set(template.args) != set(action.args):
        return False
    for key, want in template.args.items():
        got = action.args[key]
        if isinstance(want, Text):
            if not want.accepts(got):
                return False
        elif isinstance(want, IntRange):
            if not isinstance(got, int) or isinstance(got, bool) or not want.lo <= got <= want.hi:
                return False
        elif not same_value(want, got):
            return False
    return True


def declared_problem(template: Action, action: Action) -> str | None:
    """Why ``action`` is not an instance of ``template`` when it differs only in the value of a
    declared parameter (free text against its :class:`Text` rules, a number against its
    :class:`IntRange`); ``None`` when it is an instance, or when it differs elsewhere."""
    if template.seat != action.seat or template.type != action.type or set(template.args) != set(action.args):
        return None
    problems = []
    for key, want in template.args.items():
        got = action.args[key]
        if isinstance(want, Text):
            problem = want.problem(got)
            if problem:
                problems.append(f"the text {key!r} ({want.hint}) {problem}")
        elif isinstance(want, IntRange):
            if not isinstance(got, int) or isinstance(got, bool) or not want.lo <= got <= want.hi:
                problems.append(f"{key!r} must be a whole number from {want.lo} to {want.hi}")
        elif not same_value(want, got):
            return None
    return "; ".join(problems) or None


def same_value(want: Any, got: Any) -> bool:
    """Equal JSON values of the same types all the way down (``True`` is not ``1``, ``1.0`` is not ``1``)."""
    if type(want) is not type(got):
        return False
    if isinstance(want, dict):
        return want.keys() == got.keys() and all(same_value(v, got[k]) for k, v in want.items())
    if isinstance(want, list | tuple):
        return len(want) == len(got) and all(same_value(a, b) for a, b in zip(want, got, strict=True))
    return bool(want == got)
