"""A match: one game being played, its state, its record and its story log.

:class:`Match` is the driver every front end uses (CLI, table, bots, simulations). It keeps the
record as the truth (every accepted action, in order) and the state derived from it.

>>> from ludica.core.registry import get_game
>>> m = Match.new(get_game("great-city"), Config(("Ann", "Bob")), seed=1)  # doctest: +SKIP
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .actions import CHANCE, Action, check_form, declared_problem, matches
from .chance import Dealer
from .errors import IllegalAction, MalformedAction, NotYourDecision
from .game import Config, Event, Game, Pending
from .values import rebuilt

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

    def __init__(
        self, game: Game[S], config: Config, *, validate: bool = True, start: dict[str, Any] | None = None
    ) -> None:
        """A match at the game's setup, or at ``start`` (a position's ``state`` object, read with
        :meth:`Game.from_position`; :func:`~ludica.core.records.read_position` checks it first)."""
        if validate:
            game.validate_config(config)
        self.game = game
        self.config = config
        if start is None:
            self.state: S = game.setup(config)
            self.start: dict[str, Any] | None = None
        else:
            self.state = game.from_position(copy.deepcopy(start), config)
            self.start = game.to_position(self.state)
        self.actions: list[Action] = []
        self.typed: list[int] = []
        """Indices in :attr:`actions` of the chance steps a person typed from real dice or cards
        (:meth:`enter`), which the seed cannot recompute; written with the record as ``typed``."""
        self.settings: dict[str, Any] = {}
        """How the table plays this match (``ludica play``'s bots and physical mode), never seen by
        the rules; written with the record as ``play`` so that a resume keeps it."""
        self._log: list[LogEntry] = []
        self._unlogged: list[tuple[int, Action, Sequence[Event]]] = []
        self.dealer = Dealer(config.seed if config.seed is not None else 0)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.game, self.config)  # see ludica.core.values

    def restart(self) -> Match[S]:
        """A new match where this one began (its setup, or its start position), with no actions."""
        return Match(self.game, self.config, validate=False, start=self.start)

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

        In order: the action's form (:func:`~ludica.core.actions.check_form`), the end, the
        seat's turn, a chance outcome against the step due (strictly: its own parameters and a
        valid outcome, nothing else), the game's own rules; last, an action the rules let pass
        must still be one of the seat's listed legal actions, its free values (text, numbers)
        within the rules their legal action declares, so that ``check`` and
        :meth:`legal_actions` never disagree.

        ``pending`` is the game's :meth:`~Game.pending` answer for the current state when the
        caller has just asked it (a driver's loop), to save asking twice.
        """
        check_form(action)
        if pending is None:
            pending = self.game.pending(self.state)
        if pending.is_over:
            raise IllegalAction("the game is over", rule="end")
        if action.seat not in pending.seats:
            if action.seat != CHANCE and isinstance(action.args, dict):
                because = self.game.explain_refusal(self.state, action)
                if because is not None:
                    raise because
            waiting = ", ".join(pending.seats)
            raise NotYourDecision(f"it is not {action.seat}'s decision now (waiting for {waiting})", rule="turn order")
        if action.is_template:
            raise MalformedAction("fill in every parameter before acting", rule="action")
        if action.seat == CHANCE:
            step = self.game.chance_step(self.state)
            if action.type != step.type:
                raise MalformedAction(f"the chance seat must take a {step.type!r} step now", rule="chance")
            step.validate(action.args)
            self.game.check(self.state, action)
            return
        legal = self.game.legal_actions(self.state, action.seat)
        listed = _is_listed(legal, action)
        self.game.check(self.state, action)  # first, so that a refusal names the game's own rule
        if not listed:
            # The game's rules found nothing wrong, yet the action is not one the seat may take:
            # ``check`` and the legal actions always agree (a 1.0 for a 1, say, is not a 1).
            _check_declared(legal, action)
            raise IllegalAction(f"that is not one of {action.seat}'s legal actions now", rule="legal actions")

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
        try:
            events = list(self.game.play(self.state, action))
        except Exception:
            # A bug in the rules (``play`` after a passed ``check`` must not fail): the state may
            # be half changed, so it is rebuilt from the record before the error goes on.
            self._rebuild(self.actions)
            raise
        self._unlogged.append((len(self.actions), action, tuple(events)))
        self.actions.append(action)
        return events

    def deal(self, *, trusted: bool = False, pending: Pending | None = None) -> Action:
        """Fill the pending chance step from the dealer and apply it (``pending``: as for :meth:`check`)."""
        step = self.game.chance_step(self.state)
        action = self.dealer.fill(step, len(self.actions))
        self.apply(action, trusted=trusted, pending=pending)
        return action

    def enter(self, action: Action, *, pending: Pending | None = None) -> list[Event]:
        """Apply a chance outcome a person typed from real components (checked like any action)
        and list it in :attr:`typed`: the dealer's seed did not draw it."""
        if action.seat != CHANCE:
            raise MalformedAction("only a chance outcome is typed from the table's components", rule="chance")
        events = self.apply(action, pending=pending)
        self.typed.append(len(self.actions) - 1)
        return events

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
        self._rebuild(self.actions[:-1])
        return last

    def _rebuild(self, actions: list[Action]) -> None:
        """State, record and log replayed from where the match began (setup or start position)."""
        rebuilt = self.restart()
        rebuilt.replay(list(actions), check=False)
        self.state, self.actions, self.log = rebuilt.state, rebuilt.actions, rebuilt.log
        self.typed = [i for i in self.typed if i < len(self.actions)]


def _is_listed(legal: list[Action], action: Action) -> bool:
    """True when ``action`` is one of ``legal`` (the very object, as bots send them) or an
    instance of one (a filled template, a replayed record)."""
    for template in legal:
        if template is action:
            return True
    kind = action.type
    return any(template.type == kind and matches(template, action) for template in legal)


def _check_declared(legal: list[Action], action: Action) -> None:
    """Refuse a value that a legal action of the same shape declares and does not accept (free
    text blank or too long, a number out of range), with the rule that refuses it."""
    for template in legal:
        if template.type == action.type and template.is_template:
            problem = declared_problem(template, action)
            if problem:
                raise MalformedAction(problem, rule="free text" if problem.startswith("the text") else "values")
