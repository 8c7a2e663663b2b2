"""Rooms: a game in play at the table, its seats, its record and its policies.

A :class:`Room` holds the live :class:`~ludica.core.match.Match` (derived by replaying the stored
record) and does everything a seat may ask: act, type a chance outcome (physical mode), undo by
policy, re-issue a link. Every change is committed to the :class:`~ludica.table.storage.Store`
before it is acknowledged; if the commit fails the room is rebuilt from the record.

The room is synchronous and knows nothing of HTTP or WebSockets (see :mod:`ludica.table.server`);
callers serialise access per room.
"""

from __future__ import annotations

import math
import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy.exc import IntegrityError

from ..core import (
    CHANCE,
    Action,
    Config,
    Game,
    IllegalAction,
    IntRange,
    LudicaError,
    MalformedAction,
    Match,
    Secret,
    Text,
    get_game,
)
from ..core.chance import Dealer, chance_action
from ..core.errors import NotYourDecision
from ..core.names import namer_of
from ..core.people import MAX_NAME, check_names
from .bots import parse_bots
from .limits import Bucket
from .storage import HOST, SPECTATOR, RoomRow, Store, now
from .wire import check_json

MAX_NARRATION = 2000
CLOCK_ACTION = "clock"
"""The action type by which a game takes time from the table (e.g. Euthymia's hour clock)."""
MAX_PLAYER_NAME = MAX_NAME
MAX_TURN_TIMER = 24 * 3600
MAX_KEY = 100
"""The longest idempotency key an act may carry."""
SNAPSHOTS = 4
"""How many points a room can go back to without replaying its record (see :class:`Snapshot`)."""
MAX_NOTICES = 20
TABLE_SPEAKER = "@table"
"""The sender of the lines the table itself says in the story (undo, declines, the clock)."""
RECENT = 5
"""How many of the table's own lines a room keeps in memory for "Just now"."""
UNDO_ASKS = (0.2, 4.0)
"""Requests to take back and withdrawals per second and burst, per seat."""
BOT_UNDO_POLICY = "agree"
"""How a bot seat answers a request to take back: it agrees at once (documented in docs/table.md)."""


class TableError(LudicaError):
    """A request the table refuses (bad token, stale step, policy) — said in words, never a trace."""


@dataclass(frozen=True, slots=True)
class Invite:
    role: str
    label: str
    token: str


@dataclass(slots=True)
class UndoRequest:
    by: str
    target: int
    consents: set[str] = field(default_factory=set)

    def to_json(self) -> dict[str, Any]:
        return {"by": self.by, "target": self.target, "consents": sorted(self.consents)}


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The match just before a person's action: what undo returns to, kept as the game goes.

    ``length`` and ``log`` are the record's and the story's lengths then, ``state`` a copy of
    the state (:meth:`Game.copy`), ``hidden`` its secrets (to tell whether the action revealed
    one). Deciding whether undo is allowed and undoing then cost the same at step 2,000 as at
    step 50: nothing is replayed.
    """

    length: int
    log: int
    state: Any
    hidden: frozenset[Secret]


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_room_id() -> str:
    return secrets.token_urlsafe(9)


class Room:
    """One room: game, record, live match, settings and undo policy."""

    def __init__(
        self,
        store: Store,
        row: RoomRow,
        game: Game[Any],
        recorded: list[dict[str, Any]],
        keys: dict[str, int] | None = None,
    ) -> None:
        self.store = store
        self.row = row
        self.game = game
        self.undo_request: UndoRequest | None = None
        self.cache: dict[Any, Any] = {}  # keyed by names and tuples (renderings, ``seatview``)
        self.decision_started = time.time()
        self.keys: dict[str, int] = dict(keys or {})
        """Idempotency keys of the record (``"<seat>:<key>"`` -> index of the action)."""
        self.snapshots: deque[Snapshot] = deque(maxlen=SNAPSHOTS)
        self.said: list[Any] = []
        """The table's lines stored since the last broadcast (:meth:`say`), to push to every page."""
        self.undo_asks: dict[str, Bucket] = {}
        """Each seat's budget of requests to take back and withdrawals (:meth:`_ask_limit`)."""
        self.recent: deque[tuple[int, str]] = deque(maxlen=RECENT)
        """The table's last lines with their steps, for "Just now"."""
        self._match: Match[Any] = self._replay(recorded)

    @property
    def match(self) -> Match[Any]:
        return self._match

    @match.setter
    def match(self, value: Match[Any]) -> None:
        """Replacing the match (undo, reload) drops every cached rendering."""
        self._match = value
        self.cache = {}
        self.decision_started = time.time()

    @property
    def turn_timer(self) -> int:
        value = self.row.settings.get("turn_timer", 0)
        return value if isinstance(value, int) else 0

    # -- building --------------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.row.id

    @property
    def config(self) -> Config:
        return Config(tuple(self.row.config["players"]), dict(self.row.config.get("options", {})), self.row.seed)

    def _replay(self, recorded: list[dict[str, Any]]) -> Match[Any]:
        """The match of a record, keeping the snapshot before its last person's action."""
        actions = [Action.from_json(a) for a in recorded]
        last = next((i for i in range(len(actions) - 1, -1, -1) if actions[i].seat != CHANCE), None)
        match: Match[Any] = Match(self.game, self.config, validate=False)
        self.snapshots.clear()
        if last is None:
            match.replay(actions, check=False)
            return match
        match.replay(actions[:last], check=False)
        self.snapshots.append(self._snapshot(match))
        match.replay(actions[last:], check=False)
        return match

    def _snapshot(self, match: Match[Any]) -> Snapshot:
        state = match.state
        return Snapshot(len(match.actions), len(match.log), self.game.copy(state), frozenset(self.game.secrets(state)))

    def reload(self) -> None:
        """Rebuild the live match from the stored record (after a failed commit, or another
        table process changed it)."""
        self.match = self._replay(self.store.actions(self.id))
        self.keys = self.store.keys(self.id)
        self.undo_request = None

    def catch_up(self) -> bool:
        """Apply the actions another table process committed after this room's last one (read
        from storage, applied without re-checking, a snapshot kept before each person's action as
        when acting here): the cost of following a room grows with what changed, not with the
        length of its record. Returns False when nothing was new."""
        start = self.step
        recorded = [Action.from_json(a) for a in self.store.actions(self.id, start)]
        if not recorded:
            return False
        for action in recorded:
            if action.seat != CHANCE:
                self.snapshots.append(self._snapshot(self.match))
            self.match.replay([action], check=False)
        self.keys.update(self.store.keys(self.id, start))
        self.undo_request = None
        self.decision_started = time.time()
        if self.row.archived is None and self.match.is_over():
            self.row = replace(self.row, archived=now())  # the writer marked it in storage
        return True

    # -- facts ---------------------------------------------------------------------------------------
    @property
    def step(self) -> int:
        return len(self.match.actions)

    @property
    def physical_seat(self) -> str | None:
        seat = self.row.settings.get("physical_seat")
        return seat if isinstance(seat, str) else None

    def seats(self) -> tuple[str, ...]:
        return tuple(s for s in self.game.seats(self.match.state) if s != CHANCE)

    def seat_names(self) -> dict[str, str]:
        """Person-friendly seat labels: the game's, else the player's name when seats map to players."""
        return seat_labels(self.game, self.match, self.seats())

    def label(self, role: str, names: dict[str, str] | None = None) -> str:
        """The role's name for people (``names``: :meth:`seat_names`, if the caller has them)."""
        if role == SPECTATOR:
            return "Spectators"
        if role == HOST:
            return "Host"
        return (self.seat_names() if names is None else names).get(role, role)

    def is_over(self) -> bool:
        return self.match.is_over()

    def can_manage(self, role: str) -> bool:
        """Only the host manages the room: re-issues links, closes it. A referee seat (the GM,
        Euthymia's group) is a seat like the others: it may not take over a player's link."""
        return role == HOST

    @property
    def archived(self) -> bool:
        return self.row.archived is not None

    def notices(self) -> list[str]:
        """What the table announced to everyone (link re-issues), oldest first."""
        return [
            f"{n['at']}: the host issued a new link for {n['label']}; the old one no longer works"
            for n in self.row.settings.get("reissued", [])
            if isinstance(n, dict)
        ]

    # -- acting ----------------------------------------------------------------------------------------
    def act(self, seat: str, message: dict[str, Any]) -> list[Action]:
        """A seat's action from a client message; returns every action committed (chance included).

        The message carries the ``step`` its sender saw (what it chose from: the legal actions at
        that step), and may carry an idempotency ``key``: a message whose key was already applied
        returns ``[]`` and changes nothing (a repeat), a stale step is refused. A key alone only
        recognises a repeat: a new act without its step is refused, so an act is never matched
        against legal actions its sender did not see (issue 23, point 8).
        """
        key = self._key_of(seat, message)
        if key is not None and key in self.keys:
            self._check_same(self.keys[key], message)
            return []
        self._check_step(message, key)
        action = self._action_from(seat, message)
        if self.is_clock(action):
            raise NotYourDecision(
                "only the table's own clock advances time (as fast as real time); no link can", rule="clock"
            )
        self.match.check(action)
        if action.seat != CHANCE and not self.match.legal_matches(action):
            raise IllegalAction("that is not one of your legal actions now", rule="legal actions")
        clock = self._clock_run()
        logged = len(self.match.log)

        def said(start: int) -> list[tuple[int, str]]:
            """What the table says of this action (:meth:`say`), once applied from ``start``."""
            lines = []
            if clock:
                lines.append((start, f"the clock: {_duration(clock)} passed before this move"))
            if action.seat != CHANCE and len(self.match.log) == logged and not self.match.pending().is_chance:
                lines.append((start + 1, self._silent(action)))
            return lines

        return self._commit_from(action, key, said)

    def _clock_run(self) -> int:
        """The seconds the table's clock gave since the last other action (its steps at the end)."""
        total = 0
        for action in reversed(self.match.actions):
            if not self.is_clock(action):
                break
            total += _seconds(action)
        return total

    def _silent(self, action: Action) -> str:
        """An action that left nothing in the story (e.g. The Great City's "stay out"), in words
        every seat may read: in a game with hidden information only who did which kind of
        action, never its arguments (an artifact given in a trade is a card in a hand)."""
        namer = namer_of(self.match, None)
        if not self.match.game.meta.hidden_information:
            return namer.sentence(action)
        return f"{namer.seat(action.seat)}: {namer.action_title(action.type).lower()}"

    def say(self, text: str, step: int | None = None) -> None:
        """The table says ``text`` to everyone, in the story (stored as a line of table talk of
        kind ``table``, :mod:`ludica.table.chat`) and in "Just now"; pushed at the next broadcast."""
        from . import chat  # chat builds on this module

        step = self.step if step is None else step
        self.said.append(chat.add(self.store, self.id, step, TABLE_SPEAKER, "table", None, text))
        self.recent.append((step, text))

    def applied_at(self, seat: str, message: dict[str, Any]) -> int | None:
        """The step after which a repeated message's key was applied (``None``: not a repeat)."""
        key = self._key_of(seat, message)
        index = self.keys.get(key) if key is not None else None
        return None if index is None else index + 1

    @staticmethod
    def _key_of(seat: str, message: dict[str, Any]) -> str | None:
        key = message.get("key")
        if key is None:
            return None
        if not isinstance(key, str) or not 1 <= len(key) <= MAX_KEY or not key.isprintable():
            raise TableError(f"'key' is a text of 1 to {MAX_KEY} printable characters", rule="step")
        return f"{seat}:{key}"

    def _check_same(self, index: int, message: dict[str, Any]) -> None:
        """A message re-sent with a key already applied must be the same act: chosen at the same
        step, the same action (type and arguments, or the same fields of the offered action);
        a different one is refused as such (it is not a repeat)."""
        done = self.match.actions[index] if index < self.step else None
        raw = message.get("action")
        step = message.get("step")
        same = done is not None and (step is None or step == index)
        if same and done is not None and isinstance(raw, dict):
            same = raw.get("type") == done.type and raw.get("args", {}) == done.args
        fields = message.get("fields")
        if same and done is not None and "index" in message and isinstance(fields, dict):
            same = all(done.args.get(k) == v for k, v in fields.items())
        if not same:
            raise TableError(
                "this idempotency key was already used for a different action: nothing was done "
                "(use a new key for a new action)",
                rule="key",
            )

    def _check_step(self, message: dict[str, Any], key: str | None) -> None:
        step = message.get("step")
        if step is None:
            raise TableError(
                "an act carries the 'step' it was chosen at (with an idempotency 'key' if it may be sent twice); "
                "a 'key' alone only recognises a repeat",
                rule="step",
            )
        if not isinstance(step, int) or isinstance(step, bool):
            raise TableError("'step' is the whole number of the step your screen showed", rule="step")
        if step != self.step:
            raise TableError(
                f"stale action: the game is at step {self.step}, your screen showed step {step}; look again",
                rule="stale",
            )

    def _action_from(self, seat: str, message: dict[str, Any]) -> Action:
        narration = message.get("narration")
        if narration is not None and not isinstance(narration, str):
            raise MalformedAction("narration must be text", rule="action")
        narration = (narration or "").strip() or None
        if narration is not None and len(narration) > MAX_NARRATION:
            raise MalformedAction(f"narration is limited to {MAX_NARRATION} characters", rule="action")
        if message.get("chance") is not None:
            return self._chance_from(seat, message["chance"]).with_narration(narration)
        if "index" in message:
            return self._from_template(seat, message, narration)
        raw = message.get("action")
        if not isinstance(raw, dict):
            raise MalformedAction("send an action: {'index': n, 'fields': {...}} or {'action': {...}}", rule="action")
        if raw.get("seat", seat) != seat:
            raise NotYourDecision("you may only act for your own seat", rule="seat")
        args = raw.get("args", {})
        if not isinstance(args, dict) or not isinstance(raw.get("type"), str):
            raise MalformedAction("an action has a 'type' and an 'args' object", rule="action")
        return Action(seat, raw["type"], args, narration)

    def seat_legal(self, seat: str) -> list[Action]:
        """The legal actions a person at ``seat`` is offered: the game's, but the clock (the
        table's own clock feeds it, :meth:`tick`)."""
        return [a for a in self.match.legal_actions(seat) if not self.is_clock(a)]

    def is_clock(self, action: Action) -> bool:
        """True for the game's ``clock`` action (time as an input: only the table's clock gives it)."""
        return action.type == CLOCK_ACTION and action.seat != CHANCE

    def _from_template(self, seat: str, message: dict[str, Any], narration: str | None) -> Action:
        index, fields = message.get("index"), message.get("fields", {})
        legal = self.seat_legal(seat)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(legal):
            raise NotYourDecision("that action is not offered to you now", rule="legal actions")
        if not isinstance(fields, dict):
            raise MalformedAction("'fields' must be an object", rule="action")
        template = legal[index]
        args = dict(template.args)
        for key, value in fields.items():
            if key not in args or not template.is_template or not _is_declaration(args[key]):
                raise MalformedAction(f"{key!r} is not a field of this action", rule="action")
            args[key] = value
        return Action(seat, template.type, args, narration)

    def _chance_from(self, seat: str, outcome: Any) -> Action:
        if self.physical_seat is None or seat != self.physical_seat:
            raise NotYourDecision("only the seat keeping the physical dice and cards types outcomes", rule="physical")
        if not self.match.pending().is_chance:
            raise NotYourDecision("no dice or cards are waiting now", rule="physical")
        if not isinstance(outcome, dict):
            raise MalformedAction("the outcome is an object", rule="physical")
        step = self.game.chance_step(self.match.state)
        return chance_action(step, dict(outcome))

    def _commit_from(
        self, action: Action, key: str | None = None, said: Callable[[int], list[tuple[int, str]]] | None = None
    ) -> list[Action]:
        start = self.step
        before = self._snapshot(self.match) if action.seat != CHANCE else None
        try:
            self.match.apply(action)
            self.deal()
        except LudicaError:
            if self.step != start:
                if before is not None:
                    self._restore(before)
                else:
                    self.match = self._rebuilt(start)
            raise
        done = self._persist(start, key, before, said(start) if said is not None else [])
        if before is not None:
            self.snapshots.append(before)
        return done

    def deal(self) -> None:
        """Run the dealer until a person must decide (not in physical mode)."""
        if self.physical_seat is None:
            self.match.run_chance()

    def _persist(
        self, start: int, key: str | None = None, before: Snapshot | None = None, said: Sequence[tuple[int, str]] = ()
    ) -> list[Action]:
        """Commit the actions from ``start`` and the table's lines ``said`` of them
        (:meth:`say`) in one transaction."""
        from . import chat  # chat builds on this module

        new = self.match.actions[start:]
        also = chat.table_lines(self.id, list(said)) if said else None
        try:
            lines = self.store.append(self.id, start, [a.to_json() for a in new], key, also)
        except IntegrityError:
            self._overtaken(start, before)
            moved = "the game moved on meanwhile (another table process wrote first); look again"
            raise TableError(moved, rule="stale") from None
        except BaseException:  # not committed: the room goes back to its record, never ahead of it
            self.reload()
            raise
        if key is not None:
            self.keys[key] = start
        self.undo_request = None
        self.decision_started = time.time()
        if self.row.archived is None and self.match.is_over():
            self._archive()
        for line in lines or ():
            self.said.append(line)
            self.recent.append((line.step, line.text))
        return list(new)

    def _overtaken(self, start: int, before: Snapshot | None) -> None:
        """Another process wrote step ``start`` first: go back to the state before our action
        (its snapshot) and apply what the other wrote, without replaying the record."""
        if before is None or before.length != start:
            self.reload()
            return
        self._restore(before)
        try:
            self.catch_up()
        except Exception:
            self.reload()

    def _archive(self) -> None:
        """The game ended: mark the room archived (best effort: the record is already safe)."""
        when = now()
        try:
            self.store.archive(self.id, when)
        except Exception:  # the mark is a convenience; the next action-less load sets it again
            return
        self.row = replace(self.row, archived=when)

    # -- the clock -------------------------------------------------------------------------------
    def clock_template(self) -> Action | None:
        """A waited-for seat's ``clock`` action with one integer parameter (the seconds), if any."""
        for seat in self.match.pending().seats:
            if seat == CHANCE:
                continue
            for template in self.match.legal_actions(seat):
                if template.type == CLOCK_ACTION and len(template.args) == 1:
                    (spec,) = template.args.values()
                    if isinstance(spec, IntRange):
                        return template
        return None

    def tick(self, seconds: float) -> list[Action]:
        """Feed elapsed time to the rules as the game's ``clock`` action (DESIGN principle 3).

        Never faster than real time: the seconds given are capped by the wall-clock time since the
        time already fed (``settings["clock_at"]``, read again from storage, so that table
        processes sharing the room never count the same second twice)."""
        template = self.clock_template()
        if template is None:
            return []
        ((name, spec),) = template.args.items()
        wall = time.time()
        row = self.store.room(self.id)
        fed_until = (row.settings if row is not None else self.row.settings).get("clock_at")
        if not isinstance(fed_until, int | float):
            self._set_clock_at(wall)
            return []
        seconds = min(seconds, wall - fed_until)
        if seconds < spec.lo:
            return []
        given = min(spec.hi, int(seconds))
        action = Action(template.seat, template.type, {name: given})
        self.match.check(action)
        request = self.undo_request
        done = self._commit_from(action)
        self.undo_request = request  # the clock is no one acting: an open request stays open
        self._set_clock_at(wall - (seconds - given))  # the part of a second not fed is kept
        return done

    def _set_clock_at(self, when: float) -> None:
        settings = {**self.row.settings, "clock_at": when}
        self.store.update_settings(self.id, settings)
        self.row = replace(self.row, settings=settings)

    # -- undo by policy -------------------------------------------------------------------------
    OVER = "the game is over: nothing is taken back once it has ended (its seed is public now)"

    def can_undo_own(self, seat: str | None) -> bool:
        """Your own last action, before any other seat acted (the table's clock is no one), not
        across chance or a revealed secret."""
        index = self._own_last(seat)
        if index is None or self.is_over():
            return False
        key = f"undo:{self.step}:{index}"
        if key not in self.cache:
            self.cache[key] = self._reveals_nothing(index)
        return bool(self.cache[key])

    def _own_last(self, seat: str | None) -> int | None:
        """The index of ``seat``'s action when only the table's clock acted after it."""
        if seat is None:
            return None
        for index in range(self.step - 1, -1, -1):
            action = self.match.actions[index]
            if not self.is_clock(action):
                return index if action.seat == seat else None
        return None

    def _before(self, length: int) -> Snapshot | None:
        return next((s for s in reversed(self.snapshots) if s.length == length), None)

    def _reveals_nothing(self, index: int) -> bool:
        """True when the actions from ``index`` on revealed no hidden item (compared with the state
        before them)."""
        snapshot = self._before(index)
        hidden_then = snapshot.hidden if snapshot is not None else self._rebuilt_secrets(index)
        return hidden_then <= set(self.game.secrets(self.match.state))

    def _rebuilt_secrets(self, length: int) -> frozenset[Secret]:
        """Only when no snapshot is kept (cannot happen for the last action; kept as a fallback)."""
        return frozenset(self.game.secrets(self._rebuilt(length).state))

    def _refuse_if_over(self) -> None:
        if self.is_over():
            raise TableError(self.OVER, rule="undo")

    def undo_own(self, seat: str) -> None:
        self._refuse_if_over()
        if not self.can_undo_own(seat):
            raise TableError(
                "you may take back only your own last action, before anyone else acts, and never across dice, "
                "cards or a revealed secret; ask everyone instead",
                rule="undo",
            )
        self._truncate(self._own_last(seat) or 0)
        self.say(f"{self.label(seat)} took back their last action")

    def undo_target(self) -> int | None:
        """Where a consented undo goes back to: before the last action of a person."""
        for index in range(self.step - 1, -1, -1):
            action = self.match.actions[index]
            if action.seat != CHANCE and not self.is_clock(action):
                return index
        return None

    def can_request_undo(self, seat: str | None) -> bool:
        return seat is not None and not self.is_over() and self.undo_request is None and self.undo_target() is not None

    def _ask_limit(self, seat: str) -> None:
        """Requests to take back and their withdrawals: at most :data:`UNDO_ASKS` (a burst), then
        one every ``1 / rate`` seconds per seat (each one re-sends every seat's view)."""
        rate, burst = UNDO_ASKS
        bucket = self.undo_asks.get(seat)
        if bucket is None:
            bucket = self.undo_asks[seat] = Bucket(rate, burst)
        if not bucket.allow():
            wait = max(1, math.ceil(bucket.wait()))
            raise TableError(f"you asked to take back too often: wait {wait} s", rule="undo")

    def request_undo(self, seat: str) -> None:
        self._refuse_if_over()
        self._ask_limit(seat)
        target = self.undo_target()
        if target is None:
            raise TableError("there is nothing to take back", rule="undo")
        if self.undo_request is not None:
            raise TableError("a request to take back is already open", rule="undo")
        bots = set(self.row.settings.get("bots") or {}) if BOT_UNDO_POLICY == "agree" else set()
        self.undo_request = UndoRequest(seat, target, {seat} | bots)  # a bot agrees at once
        self._maybe_finish_undo()

    def withdraw_undo(self, seat: str) -> None:
        """The one who asked withdraws an open request to take back."""
        request = self.undo_request
        if request is None:
            raise TableError("nobody asked to take anything back", rule="undo")
        if request.by != seat:
            raise TableError(f"only {self.label(request.by)}, who asked, may withdraw the request", rule="undo")
        self._ask_limit(seat)
        self.undo_request = None
        self.say(f"{self.label(seat)} withdrew their request to take back the last action")

    def consent_undo(self, seat: str, agree: bool) -> None:
        if self.is_over():
            self.undo_request = None
            raise TableError(self.OVER, rule="undo")
        if self.undo_request is None:
            raise TableError("nobody asked to take anything back", rule="undo")
        if not agree:
            by = self.undo_request.by
            self.undo_request = None
            self.say(f"{self.label(seat)} declined {self.label(by)}'s request to take back the last action")
            return
        self.undo_request.consents.add(seat)
        self._maybe_finish_undo()

    def _maybe_finish_undo(self) -> None:
        request = self.undo_request
        if request is not None and set(self.seats()) <= request.consents:
            self._truncate(request.target)
            self.say(f"everyone agreed: {self.label(request.by)}'s request took back the last action")

    def _truncate(self, length: int) -> None:
        given = sum(_seconds(a) for a in self.match.actions[length:] if self.is_clock(a))
        self.store.truncate(self.id, length)
        if given:  # the time the clock gave is not taken back: it is fed again at the next tick
            fed_until = self.row.settings.get("clock_at")
            if isinstance(fed_until, int | float):
                self._set_clock_at(fed_until - given)
        snapshot = self._before(length)
        if snapshot is not None:
            self._restore(snapshot)
        else:
            self.match = self._rebuilt(length)
        self.keys = {k: i for k, i in self.keys.items() if i < length}
        self.undo_request = None

    def _restore(self, snapshot: Snapshot) -> None:
        """Go back to a snapshot without replaying: its state (the snapshot is used up), the
        record and the story cut to their lengths then."""
        match = self.match
        match.state = snapshot.state
        del match.actions[snapshot.length :]
        del match.log[snapshot.log :]
        while self.snapshots and self.snapshots[-1].length >= snapshot.length:
            self.snapshots.pop()
        self.match = match  # drops the cached renderings

    def _rebuilt(self, length: int) -> Match[Any]:
        match: Match[Any] = Match(self.game, self.config, validate=False)
        match.replay(self.match.actions[:length], check=False)
        return match

    # -- links ---------------------------------------------------------------------------------
    def reissue(self, by_role: str, role: str) -> Invite:
        """A new link for ``role`` (the old one stops working), for the host alone to hand on;
        the re-issue is kept among the room's :meth:`notices`."""
        if not self.can_manage(by_role):
            raise TableError("only the host may re-issue a link (the host's link opened the room)", rule="links")
        if role not in (*self.seats(), SPECTATOR):
            raise TableError(f"no seat {role!r} at this table", rule="links")
        bot = role in (self.row.settings.get("bots") or {})
        token = new_token()
        label = self.label(role) + (" (bot: watch)" if bot else "")
        notice = {"role": role, "label": label, "at": now().strftime("%Y-%m-%d %H:%M UTC")}
        settings = dict(self.row.settings)
        settings["reissued"] = [*settings.get("reissued", []), notice][-MAX_NOTICES:]
        self.store.reissue(self.id, role, token, settings)  # the token and its notice in one transaction
        self.row = replace(self.row, settings=settings)
        return Invite(role, label, token)


def _seconds(action: Action) -> int:
    """The seconds a ``clock`` action gives (its one integer parameter)."""
    return sum(v for v in action.args.values() if isinstance(v, int) and not isinstance(v, bool))


def _duration(seconds: int) -> str:
    """Seconds in words: "12 minutes", "1 minute 5 seconds", "40 seconds"."""
    minutes, rest = divmod(seconds, 60)
    parts = [f"{minutes} minute{'s' if minutes != 1 else ''}"] if minutes else []
    if rest or not parts:
        parts.append(f"{rest} second{'s' if rest != 1 else ''}")
    return " ".join(parts)


def _is_declaration(value: Any) -> bool:
    return isinstance(value, Text | IntRange)


class Rooms:
    """Every room of a table, loaded from the store on first use and cached."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.live: dict[str, Room] = {}

    def create(
        self,
        game_id: str,
        players: list[str],
        options: dict[str, Any],
        *,
        physical: int = 0,
        turn_timer: int = 0,
        bots: Any = None,
    ) -> tuple[Room, list[Invite]]:
        """Open a room; returns it and the invites (host, each seat, spectators)."""
        check_json({"players": players, "options": options}, "the room's settings")
        game = get_game(game_id)
        players = list(check_names([p for p in players if p and p.strip()]))  # ludica.core.people
        seed = secrets.token_hex(16)
        config = Config(tuple(players), options, seed)
        game.validate_config(config)
        probe: Match[Any] = Match(game, config)
        seats = tuple(s for s in game.seats(probe.state) if s != CHANCE)
        physical_seat = _physical_seat(seats, physical)
        if not 0 <= turn_timer <= MAX_TURN_TIMER:
            raise TableError(f"a turn timer is 0 (none) to {MAX_TURN_TIMER} seconds", rule="timer")
        settings: dict[str, Any] = {"physical_seat": physical_seat, "turn_timer": turn_timer}
        if bots:
            settings["bots"] = parse_bots(bots, seats, game.meta.id)  # seat -> bot spec (table/bots.py)
        row = RoomRow(
            new_room_id(),
            game.meta.id,
            {"players": list(players), "options": dict(options)},
            seed,
            Dealer.seed_commitment(seed),
            settings,
            now(),
        )
        invites, stored = seat_invites(seats, seat_labels(game, probe, seats), settings.get("bots") or {})
        self.store.create_room(row, stored)
        room = Room(self.store, row, game, [])
        room.deal()
        room._persist(0)
        self.live[row.id] = room
        return room, invites

    def get(self, room_id: str) -> Room | None:
        room = self.live.get(room_id)
        if room is not None:
            return room
        row = self.store.room(room_id)
        return None if row is None else self.load(row)

    def load(self, row: RoomRow) -> Room:
        """Bring a stored room into memory (its record replayed once)."""
        room = Room(self.store, row, get_game(row.game), self.store.actions(row.id), self.store.keys(row.id))
        if room.row.archived is None and room.is_over():
            room._archive()
        self.live[row.id] = room
        return room

    def forget(self, room_id: str) -> None:
        self.live.pop(room_id, None)


def seat_labels(game: Game[Any], match: Match[Any], seats: tuple[str, ...] | None = None) -> dict[str, str]:
    """Each seat's person-friendly name: the game's, or the player's name from the config.

    ``seats`` defaults to every seat of the game but the chance seat.
    """
    if seats is None:
        seats = tuple(s for s in game.seats(match.state) if s != CHANCE)
    names = {s: game.seat_name(match.state, s) for s in seats}
    players = match.config.players
    if len(seats) == len(players):
        names = {s: (players[i] if names[s] == s else names[s]) for i, s in enumerate(seats)}
    return names


def seat_invites(
    seats: tuple[str, ...], labels: dict[str, str], bots: dict[str, str]
) -> tuple[list[Invite], list[tuple[str, str]]]:
    """The invites of a new room and the ``(role, token)`` pairs to store.

    A bot's seat is the table's: no token plays it. Its invite is a watch link of its own: whoever
    opens it (the host included) sees what a spectator sees and cannot move (:func:`table_role`),
    and the host can re-issue it (the old one stops working) without touching the spectators' link.
    """
    host, spectators = Invite(HOST, "Host", new_token()), Invite(SPECTATOR, "Spectators", new_token())
    invites = [host]
    for seat in seats:
        invites.append(Invite(seat, f"{labels[seat]} (bot: watch)" if seat in bots else labels[seat], new_token()))
    invites.append(spectators)
    stored = [(i.role, i.token) for i in invites]
    return invites, stored


def table_role(room: Room, role: str) -> str:
    """The role a token grants in ``room``: a bot's seat is watched as a spectator (a link kept
    from before issue 23 included), never played by a person."""
    return SPECTATOR if role in (room.row.settings.get("bots") or {}) else role


def _physical_seat(seats: tuple[str, ...], physical: int) -> str | None:
    if not physical:
        return None
    if not 1 <= physical <= len(seats):
        raise TableError(f"physical mode names a player 1..{len(seats)}, not {physical}", rule="physical")
    return seats[physical - 1]
