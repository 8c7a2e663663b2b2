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
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..core.actions import Action
from ..core.game import Game
from ..core.match import Match


@dataclass(frozen=True, slots=True)
class Decision:
    """What a bot does: a filled-in legal action, and narration for the story (may be empty)."""

    action: Action
    narration: str = ""

    def as_action(self) -> Action:
        """The action with the narration attached, ready for :meth:`Match.apply`."""
        return self.action.with_narration(self.narration) if self.narration else self.action


@dataclass(slots=True)
class Situation:
    """Everything a bot may know when it must decide: its seat's view and legal actions.

    ``step`` is the number of actions in the record so far (public everywhere).
    """

    game: Game[Any]
    seat: str
    view: dict[str, Any]
    legal: list[Action]
    step: int = 0
    _imagine: Callable[[random.Random], Any] | None = field(default=None, repr=False)

    def imagine(self, rng: random.Random) -> Any:
        """A state this seat cannot tell apart from the true one, hidden parts redrawn with ``rng``."""
        if self._imagine is None:
            raise RuntimeError("this situation cannot be imagined (no state behind it)")
        return self._imagine(rng)


def situation(match: Match[Any], seat: str) -> Situation:
    """The situation of ``seat`` in ``match``: its view, its legal actions, and a redeal."""
    game, state = match.game, match.state
    return Situation(
        game=game,
        seat=seat,
        view=game.view(state, seat),
        legal=game.legal_actions(state, seat),
        step=len(match.actions),
        _imagine=lambda rng: game.redeal(state, seat, rng),
    )


class Bot(Protocol):
    """A player program. ``name`` is how people and reports call it (``"heuristic"``)."""

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
