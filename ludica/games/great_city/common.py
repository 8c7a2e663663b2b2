"""Small shared pieces of the Great City rules: interned actions, refusals, events, names."""

from __future__ import annotations

from typing import Any, Final

from ...core import PUBLIC, Action, Event, IllegalAction, IntRange, MalformedAction
from ...core.values import rebuilt
from .state import GreatCityState

GM: Final = "gm"
NEW: Final = "NEW"

# Rulebook headings, cited by every refusal (``section=``).
S_SITUATION: Final = "The Situation"
S_AGENTS: Final = "The Agents of Peril"
S_CHARACTERS: Final = "Generating Characters"
S_HUMAN: Final = "Human Characters"
S_RESOURCES: Final = "Character Resources and Connections"
S_PERIL: Final = "The Mounting Peril"
S_INITIATIVE: Final = "Initiative"
S_START: Final = "Running A Scene (1) Start the Scene"
S_ANTE: Final = "Running A Scene (2) Ante"
S_INITIAL: Final = "Running A Scene (3) Establish the Initial Situation"
S_RANDOM: Final = "Running A Scene (4) Flip Randomly"
S_REACTION: Final = "Running A Scene (5) Conduct Reaction Rounds"
S_TRAITS: Final = "Using Traits"
S_TIES: Final = "Using Ties"
S_RESOURCE_USE: Final = "Using Resources"
S_REWARDS: Final = "Running A Scene (6) Take Rewards"
S_ENDING: Final = "Ending the Scene"
S_END_GAME: Final = "END GAME"

_INTERNED: Final[dict[tuple[Any, ...], Action]] = {}


def act(seat: str, kind: str, *args: tuple[str, Any]) -> Action:
    """An interned legal action (one shared frozen object per distinct action: cheap listing)."""
    key = (seat, kind, *args)
    try:
        found = _INTERNED.get(key)
    except TypeError:  # a list parameter (allocate_traits): not interned
        return Action(seat, kind, dict(args))
    if found is None:
        found = _INTERNED[key] = Action(seat, kind, dict(args))
    return found


class Interner:
    """A maker of interned actions of one type with fixed parameter names (the fast path).

    >>> flip = interner("flip", "position", "source")
    >>> flip.make("p1", 2, "free_scarab") is flip.make("p1", 2, "free_scarab")
    True

    The rules call :meth:`make`, a method: a compiled module calls it directly, where calling
    the object (or a closure) goes through the interpreter's call protocol and parses its
    arguments at every call.
    """

    def __init__(
        self, kind: str, names: tuple[str, ...], ranges: tuple[str, ...], fixed: dict[str, Any] | None
    ) -> None:
        self.kind = kind
        self.names = names
        self.ranges = ranges
        self.fixed = fixed
        self.cache: dict[str, dict[tuple[Any, ...], Action]] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.kind, self.names, self.ranges, self.fixed)  # see ludica.core.values

    def make(self, seat: str, *values: Any) -> Action:
        by_values = self.cache.get(seat)  # by seat, then by the values' own tuple: no key built
        if by_values is None:
            by_values = self.cache[seat] = {}
        found = by_values.get(values)
        if found is None:
            found = by_values[values] = _made(seat, self.kind, self.names, values, self.ranges, self.fixed)
        return found


def interner(kind: str, *names: str, ranges: tuple[str, ...] = (), fixed: dict[str, Any] | None = None) -> Interner:
    """The :class:`Interner` of ``kind`` with parameters ``names``. A parameter named in
    ``ranges`` is given as an int n and becomes ``IntRange(1, n)``; ``fixed`` parameters (text
    declarations) are the same in every action."""
    return Interner(kind, names, ranges, fixed)


def _made(
    seat: str,
    kind: str,
    names: tuple[str, ...],
    values: tuple[Any, ...],
    ranges: tuple[str, ...],
    fixed: dict[str, Any] | None,
) -> Action:
    """The action an interner makes on a miss (a loop, not ``dict(zip(...))``: compiled, no call
    through the interpreter)."""
    if len(values) != len(names):
        raise ValueError(f"{kind}: {len(names)} values expected, {len(values)} given")
    args: dict[str, Any] = {}
    for i, name in enumerate(names):
        args[name] = values[i]
    for name in ranges:
        args[name] = upto(args[name])
    if fixed:
        args.update(fixed)
    return Action(seat, kind, args)


_RANGES: Final[dict[int, IntRange]] = {}


def upto(n: int) -> IntRange:
    """The shared ``IntRange(1, n)``."""
    r = _RANGES.get(n)
    if r is None:
        r = _RANGES[n] = IntRange(1, n)
    return r


def refuse(reason: str, rule: str, section: str | None = None) -> IllegalAction:
    return IllegalAction(reason, rule=rule, section=section)


def malformed(reason: str, rule: str = "actions", section: str | None = None) -> MalformedAction:
    return MalformedAction(reason, rule=rule, section=section)


def say(kind: str, text: str, **data: Any) -> Event:
    """A public event. Made afresh each time: most texts name characters and numbers, so a cache
    of shared events missed about two times in three and kept every text it saw (alive, and
    walked by the garbage collector, for the rest of the process)."""
    return Event(kind, text, PUBLIC, data)  # ``data`` is a fresh dict, empty or not


def whisper(seats: frozenset[str] | set[str], kind: str, text: str) -> Event:
    """A private event seen only by ``seats``."""
    return Event(kind, text, frozenset(seats))


def seat_label(state: GreatCityState, seat: str) -> str:
    if seat == GM:
        return state.gm_name
    return state.players[int(seat[1:]) - 1]


def char_label(state: GreatCityState, cid: str) -> str:
    c = state.characters[cid]
    return f"{c.name or cid} ({cid})"


def opt(state: GreatCityState, name: str) -> Any:
    return state.options[name]
