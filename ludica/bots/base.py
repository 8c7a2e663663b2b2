"""The bot interface every Ludica bot implements, and the registry of bots by name.

A bot sees what its seat sees and nothing more (DESIGN.md principle 12). It receives a
:class:`Situation` — the game, its seat, the seat's view and legal actions — and returns a
:class:`Decision`: one filled-in legal action, with narration for the story when it has some.

Search bots imagine the hidden rest of the state through :meth:`Situation.imagine`, which asks the
game's *redeal* (:meth:`ludica.core.game.Game.redeal`) for a state the seat cannot tell apart from
the true one. The true state itself is never handed to a bot: two states that differ only in what
the seat cannot see give the same decision for the same seed (the non-interference test).

Bots are made by name with :func:`make_bot` (``"random"``, ``"heuristic"``, ``"ismcts"``, and a
level or budget after a colon, e.g. ``"ismcts:playouts=200"``). Each game brings its own heuristic
as a plugin (``ludica/games/<package>/bot.py``), so this package never imports a specific game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from ..core.actions import Action
from ..core.game import Game
from ..core.match import Match
from ..core.values import rebuilt

T = TypeVar("T")


class Decision:
    """What a bot does: a filled-in legal action, and narration for the story (may be empty).

    A value: never changed once made, equal to a decision of the same action and narration. A
    plain class with its own ``__init__`` (a bot makes one per step: a compiled frozen
    dataclass's ``__init__`` runs through Python, about 3,500 instructions against a few
    hundred)."""

    __slots__ = ("action", "narration")

    def __init__(self, action: Action, narration: str = "") -> None:
        self.action = action
        self.narration = narration

    def as_action(self) -> Action:
        """The action with the narration attached, ready for :meth:`Match.apply`."""
        return self.action.with_narration(self.narration) if self.narration else self.action

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return self.action == other.action and self.narration == other.narration

    def __hash__(self) -> int:
        return hash((self.action, self.narration))

    def __repr__(self) -> str:
        return f"Decision(action={self.action!r}, narration={self.narration!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.action, self.narration)  # see ludica.core.values


class Situation:
    """Everything a bot may know when it must decide: its seat's view and legal actions.

    ``step`` is the number of actions in the record so far (public everywhere).

    The view is computed on first use (:attr:`view`): many decisions never read it (a random
    seat, a heuristic answering from the legal actions alone), and building a seat's view is a
    good part of a step's time in a simulation. Give ``view`` when you have it, or the state
    (``state=``, keyword only) for the view to be computed from when asked, and for
    :meth:`imagine`. The state is kept private to the situation: a bot reads only :attr:`view`,
    :attr:`legal`, :meth:`imagine`'s redeals and its game's bot-facing view (:meth:`read`),
    never the state itself.
    """

    __slots__ = ("_state", "_view", "game", "legal", "seat", "step")

    def __init__(
        self,
        game: Game[Any],
        seat: str,
        view: dict[str, Any] | None,
        legal: list[Action],
        step: int = 0,
        *,
        state: Any = None,
    ) -> None:
        if view is None and state is None:
            raise ValueError("a situation needs its seat's view or the state to see it from")
        self.game = game
        self.seat = seat
        self.legal = legal
        self.step = step
        self._view = view
        self._state = state

    @property
    def view(self) -> dict[str, Any]:
        """The seat's view (:meth:`Game.view`), computed once, when first read."""
        view = self._view
        if view is None:
            view = self._view = self.game.view(self._state, self.seat)
        return view

    def read(self, reader: Callable[[Any, str], T]) -> T | None:
        """What ``reader(state, seat)`` finds in the state behind this situation, or None when
        the situation was given a view only.

        For a game's *bot-facing view*: a plugin's function that reads from the state only what
        :attr:`view` shows this seat (the plugin tests that both give the same facts), without
        building the whole view. Any other reading of the state is forbidden to a bot."""
        state = self._state
        return None if state is None else reader(state, self.seat)

    def imagine(self, rng: random.Random) -> Any:
        """A state this seat cannot tell apart from the true one, hidden parts redrawn with ``rng``."""
        if self._state is None:
            raise RuntimeError("this situation cannot be imagined (no state behind it)")
        return self.game.redeal(self._state, self.seat, rng)

    def __reduce__(self) -> tuple[Any, ...]:
        args = (self.game, self.seat, self._view, self.legal, self.step, self._state)
        return (_situation, args)  # see ludica.core.values (compiled, a copy calls __init__)

    def __repr__(self) -> str:
        return f"Situation(game={self.game.meta.id!r}, seat={self.seat!r}, step={self.step}, legal={len(self.legal)})"


def _situation(
    game: Game[Any], seat: str, view: dict[str, Any] | None, legal: list[Action], step: int, state: Any
) -> Situation:
    """A situation again from its parts (:meth:`Situation.__reduce__`)."""
    return Situation(game, seat, view, legal, step, state=state)


def situation(match: Match[Any], seat: str) -> Situation:
    """The situation of ``seat`` in ``match``: its legal actions, its view when read, and a redeal."""
    state = match.state
    return Situation(match.game, seat, None, match.game.legal_actions(state, seat), len(match.actions), state=state)


class Bot(Protocol):
    """A player program. ``name`` is how people and reports call it (``"heuristic"``).

    A bot that remembers the game's past may also have ``recall(situation)``: the table, which
    makes a bot anew for each decision, shows it first the situations its seat decided in
    earlier (ISMCTS uses them to notice a position met again)."""

    name: str

    def decide(self, situation: Situation) -> Decision:
        """One legal action (free parameters filled) for ``situation.seat``."""
        ...


BotFactory = Callable[[str, dict[str, str], int], Bot]
"""Makes a bot from (game id, level parameters, seed)."""

BOTS: dict[str, BotFactory] = {}
"""The bots by name; :func:`register_bot` adds one."""


def register_bot(name: str, factory: BotFactory) -> None:
    BOTS[name] = factory


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:playouts=200,policy=random"`` -> ``("ismcts", {"playouts": "200", "policy": "random"})``."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq:
            raise ValueError(f"bot parameter {part!r} must be KEY=VALUE (in {spec!r})")
        params[key.strip()] = value.strip()
    return name, params


def make_bot(spec: str, game_id: str, seed: int = 0) -> Bot:
    """A bot from its spec (``"random"``, ``"heuristic"``, ``"ismcts:seconds=2"``) for a game."""
    from . import heuristic, random_bot  # noqa: F401  (register "heuristic" and "random")

    name, params = parse_spec(spec)
    if name not in BOTS:
        known = ", ".join(sorted(BOTS))
        raise ValueError(f"no bot {name!r}; the bots are: {known}")
    return BOTS[name](game_id, params, seed)
