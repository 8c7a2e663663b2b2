"""The state of a game of Euphoria: the players' boards and the shared board.

Worker dice are kept as their faces (ints): ``Player.available`` holds the dice beside the board,
``EuphoriaState.occupants`` the dice on each action space as ``[seat, face]`` pairs.
Pending work of a placement (bumps, payments, benefits, recruit triggers) is an *agenda* of small
JSON tasks, so that a roll or a choice can interrupt a placement and the game can be saved there.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

from ...core.mechanisms import Deck
from ...core.values import rebuilt
from .memo import Memo
from .oracle import GOODS


@dataclass(slots=True)
class Player:
    seat: str
    morale: int
    knowledge: int
    goods: dict[str, int]
    hand: list[str] = field(default_factory=list)
    """Artifact card ids (their kinds are secret; the count is public)."""
    available: list[int] = field(default_factory=list)
    """Faces of the worker dice beside the board."""
    workers: int = 2
    """Workers controlled: available plus placed."""
    stars: int = 10
    """Authority stars still to place."""
    active: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)
    starred: list[str] = field(default_factory=list)
    dealt: list[str] = field(default_factory=list)
    discarded: list[str] = field(default_factory=list)
    dilemma: str = ""
    dilemma_done: bool = False
    dilemma_star: bool = False
    lost_this_turn: bool = False
    choice: list[str] = field(default_factory=list)
    rolling: int = 0
    """Workers off the board waiting to be rolled (bumped, retrieved, new)."""

    def copy(self) -> Player:
        return Player(
            self.seat,
            self.morale,
            self.knowledge,
            dict(self.goods),
            list(self.hand),
            list(self.available),
            self.workers,
            self.stars,
            list(self.active),
            list(self.hidden),
            list(self.starred),
            list(self.dealt),
            list(self.discarded),
            self.dilemma,
            self.dilemma_done,
            self.dilemma_star,
            self.lost_this_turn,
            list(self.choice),
            self.rolling,
        )

    def to_json(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Player:
        return cls(**{f.name: _plain(data[f.name]) for f in fields(cls)})

    def total_goods(self, kinds: tuple[str, ...] = GOODS) -> int:
        return sum(self.goods[k] for k in kinds)


class Task:
    """One step of the agenda (:mod:`.agenda`): the rule to run (its name in ``agenda.TASKS``) and
    its arguments, in the order that rule reads them; never changed once made. In a position it is
    the JSON list ``[name, *args]``. A plain class: the compiled build makes and reads it natively
    (the constructor of a ``NamedTuple`` or of a frozen dataclass stays Python: about 1 µs a task
    compiled, against 0.2 µs for this class, measured with ``timeit``)."""

    __slots__ = ("args", "name")

    def __init__(self, name: str, args: tuple[Any, ...] = ()) -> None:
        self.name = name
        self.args = args

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Task) and self.name == other.name and self.args == other.args

    def __hash__(self) -> int:
        return hash((self.name, self.args))

    def __repr__(self) -> str:
        return f"Task({self.name!r}, {self.args!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.name, self.args)  # see ludica.core.values


class Prompt(NamedTuple):
    """A decision the rules wait for: ``seat`` answers with an action of type ``kind`` whose one
    parameter (``agenda.PARAM``) names one of ``options``; ``context`` is what the answer's rule
    needs to know. In a position it is the JSON list ``[seat, kind, options, context]``. A
    ``NamedTuple``: made once per question (no hot path), and read by position as well as by name."""

    seat: str
    kind: str
    options: list[str]
    context: list[Any]


def task_to_json(t: Task) -> list[Any]:
    """A task as the position writes it: ``[name, *args]``."""
    return [t.name, *_plain(t.args)]


def task_from_json(data: list[Any]) -> Task:
    return Task(data[0], tuple(_plain(data[1:])))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(slots=True)
class EuphoriaState:
    seats: tuple[str, ...]
    options: dict[str, Any]
    players: dict[str, Player]
    occupants: dict[str, list[list[Any]]]
    allegiance: dict[str, int]
    miners: dict[str, int]
    territory: dict[str, list[str]]
    sites: dict[str, str]
    """Construction site -> the market tile on it (face down until built)."""
    built: dict[str, list[str]]
    """Built site -> seats with a star on its market."""
    set_aside: list[str]
    recruit_deck: Deck
    artifacts: Deck
    dilemma_deck: list[str]
    phase: str = "setup"
    turn: str = ""
    turn_number: int = 0
    chain: list[int] = field(default_factory=list)
    """Faces that may still be placed this turn (same-number workers held at the turn's start)."""
    placed_this_turn: int = 0
    agenda: list[Task] = field(default_factory=list)
    prompt: Prompt | None = None
    """A decision the rules wait for (who, what kind, the options, the context)."""
    chance: list[Any] | None = None
    """``[step type, argument]``: the chance step the rules wait for."""
    flags: dict[str, Any] = field(default_factory=dict)
    """Once-per-turn markers (artifact gained this turn, gamble used...)."""
    winners: list[str] = field(default_factory=list)
    tied: list[str] = field(default_factory=list)
    end_reason: str = ""
    opening: dict[str, list[int]] = field(default_factory=dict)
    drafts: dict[str, Any] = field(default_factory=dict)
    """Working data of the draft variants (recruit packs, dealt markets, track draft order)."""
    memo: Memo = field(default_factory=Memo, compare=False, repr=False)
    """Derived answers about this state until the next play (:mod:`.memo`; not in the position)."""

    def copy(self) -> EuphoriaState:
        return EuphoriaState(
            self.seats,
            self.options,
            {s: p.copy() for s, p in self.players.items()},
            {k: [list(o) for o in v] for k, v in self.occupants.items()},
            dict(self.allegiance),
            dict(self.miners),
            {k: list(v) for k, v in self.territory.items()},
            dict(self.sites),
            {k: list(v) for k, v in self.built.items()},
            list(self.set_aside),
            self.recruit_deck.copy(),
            self.artifacts.copy(),
            list(self.dilemma_deck),
            self.phase,
            self.turn,
            self.turn_number,
            list(self.chain),
            self.placed_this_turn,
            list(self.agenda),  # tasks are immutable records, shared between copies
            None
            if self.prompt is None
            else Prompt(self.prompt.seat, self.prompt.kind, list(self.prompt.options), _plain(self.prompt.context)),
            None if self.chance is None else list(self.chance),
            _plain(self.flags),
            list(self.winners),
            list(self.tied),
            self.end_reason,
            {k: list(v) for k, v in self.opening.items()},
            _plain(self.drafts),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "memo":
                continue
            value = getattr(self, f.name)
            if isinstance(value, Deck):
                out[f.name] = value.to_json()
            elif f.name == "players":
                out[f.name] = {s: p.to_json() for s, p in value.items()}
            elif f.name == "agenda":
                out[f.name] = [task_to_json(t) for t in value]
            else:
                out[f.name] = _plain(value)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EuphoriaState:
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            if f.name == "memo":
                continue
            value = data[f.name]
            if f.name in ("recruit_deck", "artifacts"):
                kwargs[f.name] = Deck.from_json(value)
            elif f.name == "players":
                kwargs[f.name] = {s: Player.from_json(p) for s, p in value.items()}
            elif f.name == "seats":
                kwargs[f.name] = tuple(value)
            elif f.name == "agenda":
                kwargs[f.name] = [task_from_json(t) for t in value]
            elif f.name == "prompt":
                kwargs[f.name] = None if value is None else Prompt(*_plain(value))
            else:
                kwargs[f.name] = _plain(value)
        return cls(**kwargs)

    # -- small queries used everywhere ------------------------------------------------------
    def player(self, seat: str) -> Player:
        return self.players[seat]

    def placed(self, seat: str) -> list[tuple[str, int]]:
        """``(space, face)`` of every worker of ``seat`` on the board."""
        return [(space, occ[1]) for space, occs in self.occupants.items() for occ in occs if occ[0] == seat]

    def option(self, name: str) -> Any:
        return self.options[name]
