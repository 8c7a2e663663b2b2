"""Bots at the web table: the host seats a bot (and its level) on any seat when opening a room.

A bot seat is a room setting (``settings["bots"]``: seat -> bot spec such as ``"heuristic"`` or
``"ismcts:playouts=100"``), so it survives a restart. Whenever a room changes, :class:`TableBots`
looks whether a bot must decide; if so it thinks **off the event loop, in a worker process**
(:mod:`ludica.table.workers`): the worker rebuilds the match from the record
(without the dealer's seed), asks the bot for its seat's decision and sends back the action and
its narration. Back on the table, the decision goes through :meth:`Room.act` like anyone's (the
same checks, the same storage, the same broadcast), narration included.

Bots are the table's, and bounded (issue 23):

* a bot's level is checked when the room opens: finite numbers only, at most
  :data:`MAX_PLAYOUTS` playouts, :data:`MAX_SECONDS` seconds, :data:`MAX_HORIZON` moves of
  look-ahead (:func:`check_level`); anything else is refused naming the option;
* thinking is bounded (:data:`THINK_SECONDS`): past it the worker is killed and replaced
  (:mod:`ludica.table.workers`) and a random legal action is played for the bot, which says so;
* bot time is budgeted per room and per address (issue 39): a room has at most one decision
  thinking at a time; the rooms opened from one address (their *owner*) use at most
  :data:`PER_OWNER` workers at a time, so another address always finds a worker that one address
  cannot hold; waiting rooms are served owner by owner in turn (:class:`FairWorkers`), each
  owner's rooms in the order they asked;
* a room where no person is connected does not think: its bots stop before their next decision
  and resume when someone comes back (the table wakes them when a page connects);
* the workers die with the server, ``kill -9`` included.

A decision that arrives after the room moved on (an undo, a stale step) is dropped and the bot
thinks again.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..bots.base import make_bot, parse_spec, situation
from ..core import Action, Config, ConfigError, Match, fill, get_game
from .workers import Worker, WorkerFailed, WorkerTimeout

if TYPE_CHECKING:
    from .rooms import Room

log = logging.getLogger("ludica.table")

THINK_SECONDS = 30.0
"""The most a bot may think over one decision before its worker is replaced and a random legal
action is played for it."""
WORKERS = 2
PER_OWNER = 1
"""Workers the rooms of one owner (the address that opened them) may use at once."""
CLOSE_SECONDS = 10.0
"""The most the table's shutdown waits for the bots' cancelled tasks to end."""
MAX_SPEC = 100
MAX_PLAYOUTS = 5000
"""The table's ceiling on a bot's ``playouts`` per decision."""
MAX_SECONDS = 20.0
"""The table's ceiling on a bot's ``seconds`` per decision (below :data:`THINK_SECONDS`)."""
MAX_HORIZON = 1000
"""The table's ceiling on a bot's ``horizon`` (moves looked ahead in one playout)."""
CEILINGS: dict[str, float] = {"playouts": MAX_PLAYOUTS, "seconds": MAX_SECONDS, "horizon": MAX_HORIZON}


def check_level(spec: str, seat: str) -> None:
    """Refuse a bot level the table will not run: a number that is not finite (``inf``, ``nan``)
    or above the table's ceiling (:data:`CEILINGS`), naming the option."""
    _name, params = parse_spec(spec)
    for option, raw in params.items():
        try:
            value = float(raw)
        except ValueError:
            continue  # not a number: the bot itself says what it expects
        if not math.isfinite(value):
            raise ConfigError(f"bot at {seat}: {option}={raw} is not a finite number", rule="bots")
        ceiling = CEILINGS.get(option)
        if ceiling is not None and value > ceiling:
            limit = f"{ceiling:g}"
            raise ConfigError(f"bot at {seat}: {option}={raw} is above the table's ceiling of {limit}", rule="bots")


def parse_bots(raw: Any, seats: tuple[str, ...], game_id: str) -> dict[str, str]:
    """The host's bot seats, checked: ``{"p2": "heuristic"}`` or text ``"p2=heuristic p3=ismcts"``.

    Refused with a :class:`ConfigError` naming the seat or the bot when one is unknown.
    """
    if raw in (None, "", {}):
        return {}
    if isinstance(raw, str):
        pairs = [item.partition("=") for item in raw.replace(";", " ").split()]
        if any(not eq for _s, eq, _b in pairs):
            raise ConfigError("bots are written SEAT=BOT, e.g. p2=heuristic p3=ismcts", rule="bots")
        raw = {s.strip(): b.strip() for s, _eq, b in pairs}
    if not isinstance(raw, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in raw.items()):
        raise ConfigError('\'bots\' maps seats to bots, e.g. {"p2": "heuristic"}', rule="bots")
    out = {}
    for seat, spec in raw.items():
        if seat not in seats:
            raise ConfigError(f"no seat {seat!r} at this table (seats: {', '.join(seats)})", rule="bots")
        if not spec or len(spec) > MAX_SPEC:
            raise ConfigError(f"say which bot sits at {seat}", rule="bots")
        try:
            check_level(spec, seat)
            make_bot(spec, game_id, 0)
        except ValueError as exc:
            raise ConfigError(str(exc), rule="bots") from None
        out[seat] = spec
    return out


def bot_seats(room: Room) -> dict[str, str]:
    bots = room.row.settings.get("bots") or {}
    return dict(bots) if isinstance(bots, dict) else {}


def waiting_bot(room: Room) -> str | None:
    """A seat held by a bot that must decide now (the first, in the game's order)."""
    bots = bot_seats(room)
    if not bots or room.is_over():
        return None
    pending = room.match.pending()
    if pending.is_chance:
        return None
    return next((s for s in pending.seats if s in bots), None)


def think(game_id: str, players: list[str], options: dict[str, Any], record: list[dict[str, Any]], seat: str,
          spec: str, seed: int) -> dict[str, Any]:  # fmt: skip
    """In a worker: the bot's decision for ``seat`` after ``record``, as an act message.

    The match is rebuilt without the dealer's seed: the bot sees only its seat's situation. A
    bot that remembers where its seat has been (``recall``, as ISMCTS does) is shown the seat's
    earlier decisions on the way, since it is made anew for each decision.
    """
    game = get_game(game_id)
    match: Match[Any] = Match(game, Config(tuple(players), options, None), validate=False)
    bot = make_bot(spec, game_id, seed)
    recall = getattr(bot, "recall", None)
    for data in record:
        action = Action.from_json(data)
        if recall is not None and action.seat == seat:
            recall(situation(match, seat))
        match.replay((action,), check=False)
    decision = bot.decide(situation(match, seat))
    return {"action": decision.action.to_json(), "narration": decision.narration or None}


def fallback(room: Room, seat: str, step: int) -> dict[str, Any]:
    """A random legal action, when the bot took too long."""
    rng = random.Random(f"{room.id}:{step}:{seat}")
    legal = room.seat_legal(seat)
    action = fill(legal[rng.randrange(len(legal))], rng)
    return {"action": action.to_json(), "narration": "(I ran out of time and played on instinct.)"}


class FairWorkers:
    """Idle workers handed to waiting rooms: owners in turn (round robin), each owner's rooms in
    the order they asked, at most ``per_owner`` workers busy for one owner."""

    def __init__(self, per_owner: int = PER_OWNER) -> None:
        self.per_owner = per_owner
        self.free: list[Worker] = []
        self.busy: dict[str, int] = {}
        self.waiting: OrderedDict[str, deque[asyncio.Future[Worker]]] = OrderedDict()

    def _may(self, owner: str) -> bool:
        return self.busy.get(owner, 0) < self.per_owner

    def _take(self, owner: str, worker: Worker) -> Worker:
        self.busy[owner] = self.busy.get(owner, 0) + 1
        return worker

    async def get(self, owner: str) -> Worker:
        """A worker for a room of ``owner``, once its turn comes."""
        if self.free and self._may(owner) and not any(self._may(o) for o in self.waiting):
            return self._take(owner, self.free.pop())
        future: asyncio.Future[Worker] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(owner, deque()).append(future)
        self._hand_out()
        try:
            return await future
        except asyncio.CancelledError:
            queue = self.waiting.get(owner)
            if queue is not None and future in queue:
                queue.remove(future)
                if not queue:
                    del self.waiting[owner]
            if future.done() and not future.cancelled():
                self.put(owner, future.result())  # handed over as it was cancelled: give it back
            raise

    def put(self, owner: str, worker: Worker | None) -> None:
        """``owner``'s room is done with ``worker`` (``None``: it was killed, none replaces it)."""
        left = self.busy.get(owner, 0) - 1
        if left > 0:
            self.busy[owner] = left
        else:
            self.busy.pop(owner, None)
        if worker is not None:
            self.free.append(worker)
        self._hand_out()

    def add(self, worker: Worker) -> None:
        self.free.append(worker)
        self._hand_out()

    def _hand_out(self) -> None:
        """Give free workers to the first owners in turn who may use one more."""
        while self.free:
            owner = next((o for o in self.waiting if self._may(o)), None)
            if owner is None:
                return
            queue = self.waiting[owner]
            future = queue.popleft()
            if queue:
                self.waiting.move_to_end(owner)  # the other owners' rooms come first now
            else:
                del self.waiting[owner]
            if not future.done():
                future.set_result(self._take(owner, self.free.pop()))


class TableBots:
    """Schedules the bots of every room: one thinking task per room, rooms served in turn by
    :data:`WORKERS` worker processes, each decision bounded by ``seconds``."""

    def __init__(
        self,
        run: Callable[..., Any],
        *,
        seconds: float = THINK_SECONDS,
        workers: int = WORKERS,
        per_owner: int = PER_OWNER,
        present: Callable[[str], bool] | None = None,
        owner: Callable[[str], str] | None = None,
    ) -> None:
        self.run = run
        """The table's way to run blocking room work off the loop (its thread pool)."""
        self.seconds = seconds
        self.workers = workers
        self.present = present or (lambda _room_id: True)
        """Whether a person is connected to the room (its bots think only then)."""
        self.owner = owner or (lambda room_id: room_id)
        """The owner of a room (the address that opened it) whose budget its bots use."""
        self.idle: FairWorkers | None = None
        self.per_owner = per_owner
        self.paused = 0
        """How many times a room's bots stopped because nobody was connected."""
        self._all: set[Worker] = set()
        self._all_lock = threading.Lock()
        """Workers are spawned in the table's threads and read by anyone: the set is guarded."""
        self.thinking: dict[str, asyncio.Task[None]] = {}
        self.replaced = 0
        """How many workers were killed and replaced (past their bound, or dead)."""
        self.closing = False
        """The table shuts down: no bot starts thinking and no worker is spawned any more."""

    def all(self) -> tuple[Worker, ...]:
        """Every worker alive or being replaced, as a snapshot safe to read from any thread."""
        with self._all_lock:
            return tuple(self._all)

    def _spawn(self) -> Worker:
        worker = Worker()
        with self._all_lock:
            self._all.add(worker)
        return worker

    def _forget(self, worker: Worker) -> None:
        with self._all_lock:
            self._all.discard(worker)

    async def _worker(self, owner: str) -> Worker:
        """The next free worker for a room of ``owner``, in turn (:class:`FairWorkers`)."""
        if self.idle is None:
            self.idle = FairWorkers(self.per_owner)
            for _ in range(self.workers):
                self.idle.add(await self.run(self._spawn))
        return await self.idle.get(owner)

    async def _release(self, owner: str, worker: Worker) -> None:
        """Give the worker back, or a fresh one in its place if it was killed or died (none once
        the table shuts down: the worker is killed)."""
        assert self.idle is not None
        if self.closing:
            self._forget(worker)
            worker.stop()
            self.idle.put(owner, None)
            return
        if not worker.alive():
            self._forget(worker)
            worker.stop()
            self.replaced += 1
            worker = await self.run(self._spawn)
        self.idle.put(owner, worker)

    async def ask(self, args: tuple[Any, ...], owner: str = "") -> dict[str, Any] | None:
        """A bot's decision (an act message), or ``None`` past the bound or on failure."""
        worker = await self._worker(owner)
        try:
            return await self.run(worker.ask, think, args, self.seconds)  # type: ignore[no-any-return]
        except WorkerTimeout:
            return None
        except asyncio.CancelledError:
            worker.stop()  # it may still be thinking: never hand it to another room
            raise
        finally:
            await asyncio.shield(self._release(owner, worker))

    def wake(self, room: Room, lock: asyncio.Lock, changed: Callable[[Room], None]) -> None:
        """If a bot must decide in ``room``, start it thinking (unless it already is)."""
        if self.closing or room.id in self.thinking or waiting_bot(room) is None:
            return
        if not self.present(room.id):
            self.paused += 1  # nobody is here: the bots wait until someone connects
            return
        task = asyncio.get_running_loop().create_task(self._play(room, lock, changed))
        self.thinking[room.id] = task
        task.add_done_callback(lambda _t: self.thinking.pop(room.id, None))

    async def _play(self, room: Room, lock: asyncio.Lock, changed: Callable[[Room], None]) -> None:
        while True:
            async with lock:
                seat = waiting_bot(room)
                if seat is None:
                    return
                if not self.present(room.id):
                    self.paused += 1  # everyone left: stop here, resume when someone comes back
                    return
                step = room.step
                spec = bot_seats(room)[seat]
                config = room.row.config
                record = [a.to_json() for a in room.match.actions]
            seed = random.Random(f"{room.id}:{step}:{seat}").randrange(2**31)
            args = (room.game.meta.id, list(config["players"]), dict(config.get("options", {})), record, seat, spec)
            try:
                message = await self.ask((*args, seed), self.owner(room.id))
            except WorkerFailed as exc:  # a broken bot never takes the table down; it plays at random
                log.error("room %s: bot at %s failed (%s)", room.id, seat, exc)
                message = None
            async with lock:
                if room.step != step or waiting_bot(room) != seat:
                    continue  # the room moved on meanwhile: look again
                if message is None:
                    message = fallback(room, seat, step)
                try:
                    await self.run(room.act, seat, {**message, "step": step})
                except Exception as exc:
                    log.error("room %s: bot at %s was refused (%s)", room.id, seat, type(exc).__name__)
                    try:
                        await self.run(room.act, seat, {**fallback(room, seat, step), "step": step})
                    except Exception as again:  # the room is left for the people to sort out
                        log.error("room %s: bot at %s cannot act (%s)", room.id, seat, type(again).__name__)
                        return
                changed(room)

    async def aclose(self, seconds: float = CLOSE_SECONDS) -> None:
        """The table shuts down: every thinking task is cancelled and awaited (at most ``seconds``:
        the shutdown always ends), then every worker is killed; none is spawned afterwards."""
        self.closing = True
        tasks = list(self.thinking.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=seconds)
        self.close()

    def close(self) -> None:
        """Stop every thinking task and kill every worker."""
        self.closing = True
        for task in self.thinking.values():
            task.cancel()
        for worker in self.all():
            worker.stop()
            self._forget(worker)


__all__ = ["TableBots", "bot_seats", "check_level", "parse_bots", "think", "waiting_bot"]
