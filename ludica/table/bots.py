"""Bots at the web table: the host seats a bot (and its level) on any seat when opening a room.

A bot seat is a room setting (``settings["bots"]``: seat -> bot spec such as ``"heuristic"`` or
``"ismcts:playouts=100"``), so it survives a restart. Whenever a room changes, :class:`TableBots`
looks whether a bot must decide; if so it thinks **off the event loop, in a worker process**
(:class:`concurrent.futures.ProcessPoolExecutor`): the worker rebuilds the match from the record
(without the dealer's seed), asks the bot for its seat's decision and sends back the action and
its narration. Back on the table, the decision goes through :meth:`Room.act` like anyone's (the
same checks, the same storage, the same broadcast), narration included.

Thinking is bounded (:data:`THINK_SECONDS`): a bot that takes longer plays a random legal action
instead, and says so. A decision that arrives after the room moved on (an undo, a stale step) is
dropped and the bot thinks again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import random
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

from ..bots.base import make_bot, situation
from ..core import Action, Config, ConfigError, Match, fill, get_game

if TYPE_CHECKING:
    from .rooms import Room

log = logging.getLogger("ludica.table")

THINK_SECONDS = 60.0
"""The most a bot may think over one decision before a random legal action is played for it."""
WORKERS = 2
MAX_SPEC = 100


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

    The match is rebuilt without the dealer's seed: the bot sees only its seat's situation.
    """
    game = get_game(game_id)
    match: Match[Any] = Match(game, Config(tuple(players), options, None), validate=False)
    match.replay((Action.from_json(a) for a in record), check=False)
    decision = make_bot(spec, game_id, seed).decide(situation(match, seat))
    return {"action": decision.action.to_json(), "narration": decision.narration or None}


def fallback(room: Room, seat: str, step: int) -> dict[str, Any]:
    """A random legal action, when the bot took too long."""
    rng = random.Random(f"{room.id}:{step}:{seat}")
    legal = room.match.legal_actions(seat)
    action = fill(legal[rng.randrange(len(legal))], rng)
    return {"action": action.to_json(), "narration": "(I ran out of time and played on instinct.)"}


class TableBots:
    """Schedules the bots of every room; one thinking task per room at a time."""

    def __init__(self, run: Callable[..., Any], *, seconds: float = THINK_SECONDS, workers: int = WORKERS) -> None:
        self.run = run
        """The table's way to run blocking room work off the loop (its thread pool)."""
        self.seconds = seconds
        self.workers = workers
        self.pool: Executor | None = None
        self.thinking: dict[str, asyncio.Task[None]] = {}

    def executor(self) -> Executor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self.pool

    def wake(self, room: Room, lock: asyncio.Lock, changed: Callable[[Room], None]) -> None:
        """If a bot must decide in ``room``, start it thinking (unless it already is)."""
        if room.id in self.thinking or waiting_bot(room) is None:
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
                step = room.step
                spec = bot_seats(room)[seat]
                config = room.row.config
                record = [a.to_json() for a in room.match.actions]
            seed = random.Random(f"{room.id}:{step}:{seat}").randrange(2**31)
            args = (room.game.meta.id, list(config["players"]), dict(config.get("options", {})), record, seat, spec)
            loop = asyncio.get_running_loop()
            try:
                thinking = loop.run_in_executor(self.executor(), think, *args, seed)
                message = await asyncio.wait_for(thinking, self.seconds)
            except TimeoutError:
                message = None
            except Exception as exc:  # a broken bot never takes the table down; it plays at random
                log.error("room %s: bot at %s failed (%s)", room.id, seat, type(exc).__name__)
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

    def close(self) -> None:
        for task in self.thinking.values():
            task.cancel()
        if self.pool is not None:
            with contextlib.suppress(Exception):
                self.pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["TableBots", "bot_seats", "parse_bots", "think", "waiting_bot"]
