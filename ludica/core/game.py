"""The game protocol every Ludica game implements.

A game is a pure rules kernel over a mutable *state* object that belongs to the game
(a dataclass with slots, usually). The kernel never reads a clock, never draws a random number
and never does I/O: chance arrives as actions of the chance seat (:mod:`ludica.core.chance`),
time as actions the table feeds in.

The contract, in the order a driver (:class:`ludica.core.match.Match`) uses it:

* :meth:`Game.setup` builds the initial state from a :class:`Config`; a bad config raises
  :class:`ConfigError` naming the field.
* :meth:`Game.pending` says which seats must decide now (several at once for simultaneous
  choices such as sealed bids), or the chance seat, or nobody when the game is over.
* :meth:`Game.legal_actions` lists a seat's legal actions; free parameters are declared with
  :class:`~ludica.core.actions.Text` / :class:`~ludica.core.actions.IntRange` templates.
  :meth:`Game.chance_step` describes the chance seat's step instead.
* :meth:`Game.check` validates an action completely and raises
  :class:`~ludica.core.errors.IllegalAction` (naming the rule and section) without changing the
  state; :meth:`Game.play` then changes the state and returns the events. ``play`` is only ever
  called after ``check`` passed, so together they are atomic.
* :meth:`Game.explain_refusal` names the rule that forbids an action of a seat the game is not
  waiting for (a player who already won the round bids again), before the driver falls back on
  "it is not your decision now [turn order]".
* :meth:`Game.view` is the only way state leaves the engine: what one seat (or a spectator,
  ``seat=None``) may see, as JSON.
* :meth:`Game.to_position` / :meth:`Game.from_position` write and read a state as JSON;
  :meth:`Game.invariants` lists what is wrong with a state (empty when sound).
* :meth:`Game.secrets` lists the hidden items of a state and who may see each; the conformance
  suite checks that no view shows an item to a seat that may not see it.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, TypeVar

from mypy_extensions import mypyc_attr

from .actions import CHANCE, Action
from .chance import ChanceStep
from .errors import ConfigError, IllegalAction
from .names import Namer
from .summary import aggregate
from .values import Value, rebuilt

S = TypeVar("S")

PUBLIC: frozenset[str] = frozenset()
"""Event visibility meaning "every seat and spectators"."""


@dataclass(frozen=True, slots=True)
class OptionSpec(Value):
    """One configuration option or house rule: name, default, allowed values, documentation."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    house_rule: bool = False

    def check(self, value: Any) -> None:
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(map(repr, self.choices))
            raise ConfigError(f"option {self.name!r} must be one of {allowed}, not {value!r}", rule="config")
        if self.choices is None and self.default is not None and type(value) is not type(self.default):
            raise ConfigError(
                f"option {self.name!r} must be {type(self.default).__name__}, not {value!r}", rule="config"
            )


@dataclass(frozen=True, slots=True)
class GameMeta(Value):
    """Facts about a game declared up front, as data (OpenSpiel's GameType)."""

    id: str
    title: str
    description: str
    players_min: int
    players_max: int
    rules_version: str
    chance: bool = True
    hidden_information: bool = False
    simultaneous: bool = False
    referee: str | None = None
    """Seat id of the referee seat (GM, King...) when the game has one."""
    options: tuple[OptionSpec, ...] = ()
    max_steps: int = 100_000
    """An upper bound on the length of a game, for drivers that must stop."""
    end_reasons: tuple[str, ...] = ()
    """Every way a game can end, as ids (Euphoria: ``ten_stars``, ``round_limit``); a finished
    game's :meth:`Game.end_reason` is one of them. Empty: the game ends one way only (``end``)."""
    bound_reasons: tuple[str, ...] = ()
    """The end reasons that are safety bounds for endless play, not an end the rulebook gives."""
    clock_unit: str = ""
    """The name of the game's own time (``round``, ``scene``, ``hour``, ``action``) that
    :meth:`Game.clock` counts, for figures over time. Empty: no time series."""
    counter_bounds: tuple[tuple[str, float | None, float | None], ...] = ()
    """``(quantity, floor, ceiling)`` for quantities of :meth:`Game.sample` that a rule bounds, so
    the lab can say when a counter saturates or runs dry (``None``: unbounded on that side)."""

    def option(self, name: str) -> OptionSpec:
        for spec in self.options:
            if spec.name == name:
                return spec
        raise ConfigError(f"{self.title} has no option {name!r}", rule="config")

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "description": self.description,
            "players": [self.players_min, self.players_max],
            "rules_version": self.rules_version,
            "chance": self.chance,
            "hidden_information": self.hidden_information,
            "simultaneous": self.simultaneous,
            "referee": self.referee,
            "options": [
                {"name": o.name, "default": o.default, "doc": o.doc, "choices": o.choices, "house_rule": o.house_rule}
                for o in self.options
            ],
        }


@dataclass(frozen=True, slots=True)
class Config(Value):
    """How a game is set up: the players' names in seat order, options and house rules, seed.

    ``seed`` belongs to the Dealer, not to the rules: the rules never see it.
    """

    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int | str | None = None

    def __init__(self, players: Any, options: Any = None, seed: Any = None) -> None:
        """``players`` a tuple (or list) of names, ``options`` a mapping (``None``: none), ``seed``
        a whole number, text or ``None``; anything else is a :class:`ConfigError` naming the
        field, in both builds (the compiled one could not even hold it)."""
        if not isinstance(players, tuple | list) or not all(isinstance(p, str) for p in players):
            raise ConfigError(f"'players' must be a list of names, not {players!r:.60}", rule="config")
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise ConfigError(f"'options' must be an object, not {options!r:.60}", rule="config")
        if seed is not None and (not isinstance(seed, int | str) or isinstance(seed, bool)):
            raise ConfigError(f"'seed' must be a whole number or text, not {seed!r:.40}", rule="config")
        object.__setattr__(self, "players", tuple(players))
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "seed", seed)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": list(self.players), "options": dict(self.options)}
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @classmethod
    def from_json(cls, data: Any) -> Config:
        if not isinstance(data, dict) or not isinstance(data.get("players"), list):
            raise ConfigError("a config is an object with a 'players' list", rule="config")
        players = data["players"]
        if not all(isinstance(p, str) and p.strip() for p in players):
            raise ConfigError("every player needs a non-empty name", rule="config")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise ConfigError("'options' must be an object", rule="config")
        return cls(tuple(players), options, data.get("seed"))

    def option(self, meta: GameMeta, name: str) -> Any:
        return self.options.get(name, meta.option(name).default)


@dataclass(slots=True)
class Pending:
    """Who must decide now. ``seats`` empty means the game is over. A value: never change one."""

    seats: tuple[str, ...]
    phase: str = ""
    prompt: str = ""

    @property
    def is_chance(self) -> bool:
        return self.seats == (CHANCE,)

    @property
    def is_over(self) -> bool:
        return not self.seats

    def to_json(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "phase": self.phase, "prompt": self.prompt}


_DECISIONS: Final[dict[tuple[str, str, str], Pending]] = {}


def decision(seat: str, phase: str, prompt: str = "") -> Pending:
    """The shared ``Pending`` of one seat's decision: a pending is a value, so a kernel that asks
    the same question again hands back the same object instead of making one at every step
    (the keys are a game's seats, phases and fixed prompt texts: a small, bounded set)."""
    key = (seat, phase, prompt)
    p = _DECISIONS.get(key)
    if p is None:
        p = _DECISIONS[key] = Pending((seat,), phase, prompt)
    return p


_NO_DATA: Final[Any] = object()
"""The default ``data`` of :class:`Event` (a fresh empty dict)."""


@dataclass(slots=True)
class Event:
    """Something that happened, for the story log. ``visible_to`` empty = public. A value.

    Its constructor is written out (``data`` defaults to a fresh empty dict): the one a
    dataclass generates runs as interpreted Python even in the compiled build, about ten times
    slower, and the rules make an event at nearly every step."""

    kind: str
    text: str
    visible_to: frozenset[str] = PUBLIC
    data: Mapping[str, Any] = field(default_factory=dict)

    def __init__(
        self, kind: str, text: str, visible_to: frozenset[str] = PUBLIC, data: Mapping[str, Any] = _NO_DATA
    ) -> None:
        self.kind = kind
        self.text = text
        self.visible_to = visible_to
        self.data = {} if data is _NO_DATA else data

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.kind, self.text, self.visible_to, self.data)  # see ludica.core.values

    def visible(self, seat: str | None) -> bool:
        return not self.visible_to or (seat is not None and seat in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.visible_to:
            out["visible_to"] = sorted(self.visible_to)
        if self.data:
            out["data"] = dict(self.data)
        return out


@dataclass(frozen=True, slots=True)
class Secret(Value):
    """A hidden item of a state: a string that may appear only in the views of ``holders``."""

    token: str
    holders: frozenset[str]
    what: str = ""


@dataclass(frozen=True, slots=True)
class Outcome(Value):
    """The result of a finished game."""

    winners: tuple[str, ...]
    scores: Mapping[str, float] = field(default_factory=dict)
    summary: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "scores": dict(self.scores), "summary": self.summary}


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC, Generic[S]):
    """A game's rules kernel. Subclasses are stateless; all state lives in ``S``."""

    meta: ClassVar[GameMeta]

    # -- set-up --------------------------------------------------------------------------------
    def validate_config(self, config: Config) -> None:
        """Refuse a bad config before setup: player count, unknown or ill-typed options."""
        n = len(config.players)
        if not self.meta.players_min <= n <= self.meta.players_max:
            raise ConfigError(
                f"{self.meta.title} takes {self.meta.players_min}-{self.meta.players_max} players, not {n}",
                rule="players",
            )
        if len(set(config.players)) != n:
            raise ConfigError("two players have the same name", rule="players")
        for name, value in config.options.items():
            self.meta.option(name).check(value)

    @abstractmethod
    def setup(self, config: Config) -> S:
        """The state before the first decision. ``config`` has been validated."""

    @abstractmethod
    def seats(self, state: S) -> tuple[str, ...]:
        """Every seat that may ever decide (players and referee), in table order."""

    def seat_name(self, state: S, seat: str) -> str:
        """A person-friendly label of a seat."""
        return seat

    # -- decisions -----------------------------------------------------------------------------
    @abstractmethod
    def pending(self, state: S) -> Pending:
        """Who must decide now."""

    @abstractmethod
    def legal_actions(self, state: S, seat: str) -> list[Action]:
        """Every legal action of ``seat`` now (templates for free parameters). Empty if none."""

    def chance_step(self, state: S) -> ChanceStep:
        """What the chance seat must fill now. Only called when :meth:`pending` is the chance seat."""
        raise NotImplementedError(f"{self.meta.id} has no chance steps")

    @abstractmethod
    def check(self, state: S, action: Action) -> None:
        """Raise :class:`IllegalAction` if ``action`` may not be taken now. Never changes ``state``."""

    def explain_refusal(self, state: S, action: Action) -> IllegalAction | None:
        """The refusal naming the rule that forbids ``action`` when its seat is not pending now,
        or ``None`` to let the driver refuse it by turn order (the default).

        :meth:`Match.check <ludica.core.match.Match.check>` asks this before its generic
        "it is not pN's decision now [turn order]", so that a refusal names the rule that
        forbids the action where there is one (a mad elf sells nothing; no glass is filled during
        a Conflict). ``action.args`` is a dict, but otherwise unchecked: return ``None`` for
        anything malformed. Never changes ``state``, and never says what the acting seat may not
        know (the answer goes to that seat only).
        """
        return None

    @abstractmethod
    def play(self, state: S, action: Action) -> Sequence[Event]:
        """Apply a checked action to ``state`` in place; return the events it caused."""

    # -- information ---------------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: str | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as JSON."""

    def secrets(self, state: S) -> list[Secret]:
        """Hidden items and who may see them (for leak checks)."""
        return []

    def redeal(self, state: S, seat: str | None, rng: random.Random) -> S:
        """A state ``seat`` cannot tell apart from ``state``: everything hidden from that seat
        (decks, other hands, face-down cards, sealed choices not yet revealed) redrawn with ``rng``,
        consistently with all the seat has seen. ``state`` is never changed.

        Search bots imagine the hidden rest through this (information-set search). A game without
        hidden information returns a copy; every game with hidden information overrides it.
        """
        if self.meta.hidden_information:
            raise NotImplementedError(f"{self.meta.id} has hidden information but no redeal")
        return self.copy(state)

    def namer(self, state: S, viewer: str | None) -> Namer:
        """How this game names seats, actions and values for ``viewer`` (:mod:`ludica.core.names`).
        Games override it with their own :class:`~ludica.core.names.Namer` subclass."""
        return Namer(self, state, viewer)

    def render(self, view: dict[str, Any]) -> str:
        """A view as text for the terminal. Games override this with their own face."""
        import json

        return json.dumps(view, indent=2, ensure_ascii=False)

    # -- end -----------------------------------------------------------------------------------
    def is_over(self, state: S) -> bool:
        return self.pending(state).is_over

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result when the game is over, else ``None``."""

    # -- positions -----------------------------------------------------------------------------
    @abstractmethod
    def to_position(self, state: S) -> dict[str, Any]:
        """The whole state as JSON (everything, secrets included)."""

    @abstractmethod
    def from_position(self, data: dict[str, Any], config: Config) -> S:
        """Read :meth:`to_position` back. Raise :class:`PositionError` on a malformed position."""

    def invariants(self, state: S) -> list[str]:
        """Every invariant the state breaks, in words (empty when sound)."""
        return []

    def copy(self, state: S) -> S:
        """An independent copy of the state (override with something faster than deepcopy)."""
        return copy.deepcopy(state)

    def standing(self, state: S) -> Mapping[str, float] | None:
        """How well each seat stands now, higher is better (e.g. victory points), for search bots
        that cut a look-ahead short before the end; ``None`` when the game has no such measure.
        Only the rules' own measure of progress, never a strategy (strategies are bot plugins)."""
        return None

    # -- statistics for designers ------------------------------------------------------------
    def summarize(self, state: S, steps: int) -> dict[str, Any]:
        """Figures of one finished game for ``ludica simulate`` (numbers, strings, or lists)."""
        out = self.outcome(state)
        return {"steps": steps, "winner": ",".join(out.winners) if out else "none"}

    def end_reason(self, state: S) -> str:
        """How a finished game ended: one of :attr:`GameMeta.end_reasons` (``""`` while it goes on).

        Worked out from the state (never from the outcome's words), so a tie-break never hides it.
        """
        if not self.is_over(state):
            return ""
        return self.meta.end_reasons[0] if self.meta.end_reasons else "end"

    def clock(self, state: S) -> int:
        """The game's own time now, counted in :attr:`GameMeta.clock_unit` (0 when it has none)."""
        return 0

    def sample(self, state: S) -> dict[str, float]:
        """Key quantities now (stars, pools, Strengths...), for the lab's figures over time. The lab
        samples when :meth:`clock` moves on and at the end; read-only. Empty: no time series."""
        return {}

    def report(self, summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
        """Lines (label, figure) that ``ludica simulate`` prints over many games' summaries.

        The default aggregates every numeric figure (mean, min, max) and counts every text
        figure; games override this to add what their designers want to see.
        """
        return aggregate(summaries)
