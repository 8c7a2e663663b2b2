"""A match: one game being played, its state, its record and its story log.

:class:`Match` is the driver every front end uses (CLI, table, bots, simulations). It keeps the
record as the truth (every accepted action, in order) and the state derived from it.

>>> from ludica.core.registry import get_game
>>> m = Match.new(get_game("great-city"), Config(("Ann", "Bob")), seed=1)  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .actions import CHANCE, Action, matches
from .chance import Dealer
from .errors import IllegalAction, MalformedAction, NotYourDecision
from .game import Config, Event, Game, Pending

S = TypeVar("S")


def canonical_json(data: Any) -> str:
    """JSON with sorted keys and no spaces: the form digests are taken of."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest_of(position: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_json(position).encode()).hexdigest()


@dataclass(slots=True)
class LogEntry:
    """One line of the story log: the step number that caused it and the event."""

    step: int
    event: Event

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, **self.event.to_json()}


class Match(Generic[S]):
    """A game in play: ``game``, ``config``, ``state``, ``actions`` (the record) and ``log``.

    The story log is written lazily: each step keeps the events the game returned, and
    :attr:`log` turns them into :class:`LogEntry` lines when someone reads it (a simulation that
    never reads its log does not pay for it).
    """

    def __init__(self, game: Game[S], config: Config, *, validate: bool = True) -> None:
        if validate:
            game.validate_config(config)
        self.game = game
        self.config = config
        self.state: S = game.setup(config)
        self.actions: list[Action] = []
        self._log: list[LogEntry] = []
        self._unlogged: list[tuple[int, Action, Sequence[Event]]] = []
        self.dealer = Dealer(config.seed if config.seed is not None else 0)

    @property
    def log(self) -> list[LogEntry]:
        """The story log: narration and events of every step, in order."""
        if self._unlogged:
            log = self._log
            for step, action, events in self._unlogged:
                if action.narration:
                    log.append(LogEntry(step, Event("narration", action.narration, data={"seat": action.seat})))
                for event in events:
                    log.append(LogEntry(step, event))
            self._unlogged = []
        return self._log

    @log.setter
    def log(self, entries: list[LogEntry]) -> None:
        self._log = entries
        self._unlogged = []

    @classmethod
    def new(cls, game: Game[S], config: Config) -> Match[S]:
        return cls(game, config)

    # -- asking --------------------------------------------------------------------------------
    def pending(self) -> Pending:
        return self.game.pending(self.state)

    def legal_actions(self, seat: str) -> list[Action]:
        if seat == CHANCE:
            return []
        return self.game.legal_actions(self.state, seat)

    def is_over(self) -> bool:
        return self.game.is_over(self.state)

    def view(self, seat: str | None) -> dict[str, Any]:
        return self.game.view(self.state, seat)

    def story(self, seat: str | None) -> list[LogEntry]:
        """The story log as ``seat`` may see it (public events and its own private ones)."""
        return [entry for entry in self.log if entry.event.visible(seat)]

    # -- acting --------------------------------------------------------------------------------
    def check(self, action: Action, *, pending: Pending | None = None) -> None:
        """Raise if ``action`` is not acceptable now; never changes anything.

        ``pending`` is the game's :meth:`~Game.pending` answer for the current state when the
        caller has just asked it (a driver's loop), to save asking twice.
        """
        if pending is None:
            pending = self.game.pending(self.state)
        if pending.is_over:
            raise IllegalAction("the game is over", rule="end")
        if action.seat not in pending.seats:
            waiting = ", ".join(pending.seats)
            raise NotYourDecision(f"it is not {action.seat}'s decision now (waiting for {waiting})", rule="turn order")
        if action.is_template:
            raise MalformedAction("fill in every parameter before acting", rule="action")
        if action.narration is not None and not isinstance(action.narration, str):
            raise MalformedAction("narration must be text", rule="action")
        if not isinstance(action.args, dict):
            raise MalformedAction("the parameters of an action must be an object", rule="action")
        if action.seat == CHANCE:
            step = self.game.chance_step(self.state)
            if action.type != step.type:
                raise MalformedAction(f"the chance seat must take a {step.type!r} step now", rule="chance")
            step.validate(dict(action.args))
        self.game.check(self.state, action)

    def apply(self, action: Action, *, trusted: bool = False, pending: Pending | None = None) -> list[Event]:
        """Validate, then change: a refused action raises and leaves the match unchanged.

        ``trusted=True`` skips the validation for an action the caller took from
        :meth:`legal_actions` (filled by :func:`~ludica.core.actions.fill`) or from the dealer:
        what simulations do to save the second look (the conformance suite checks that every
        listed action is accepted by the full check). ``pending``: as for :meth:`check`.
        """
        if not trusted:
            self.check(action, pending=pending)
        return self._commit(action)

    def _commit(self, action: Action) -> list[Event]:
        events = list(self.game.play(self.state, action))
        self._unlogged.append((len(self.actions), action, tuple(events)))
        self.actions.append(action)
        return events

    def deal(self, *, trusted: bool = False, pending: Pending | None = None) -> Action:
        """Fill the pending chance step from the dealer and apply it (``pending``: as for :meth:`check`)."""
        step = self.game.chance_step(self.state)
        action = self.dealer.fill(step, len(self.actions))
        self.apply(action, trusted=trusted, pending=pending)
        return action

    def run_chance(self) -> None:
        """Deal until someone other than the chance seat must decide (or the game ends)."""
        while self.game.pending(self.state).is_chance:
            self.deal()

    def legal_matches(self, action: Action) -> bool:
        """True when ``action`` is an instance of one of the seat's listed legal actions."""
        return any(matches(t, action) for t in self.legal_actions(action.seat))

    # -- records -------------------------------------------------------------------------------
    def digest(self) -> str:
        return digest_of(self.game.to_position(self.state))

    def replay(self, actions: Iterable[Action], *, check: bool = True) -> None:
        for action in actions:
            if check:
                self.apply(action)
            else:
                self._commit(action)

    def undo(self) -> Action:
        """Take back the last action by replaying the record without it (policy is the caller's)."""
        if not self.actions:
            raise IllegalAction("there is nothing to undo", rule="undo")
        last = self.actions[-1]
        rebuilt: Match[S] = Match(self.game, self.config, validate=False)
        rebuilt.replay(self.actions[:-1], check=False)
        self.state, self.actions, self.log = rebuilt.state, rebuilt.actions, rebuilt.log
        return last
