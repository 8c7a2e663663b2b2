"""A batch of games played by bots: one record per game, on one process, a pool, or Ray.

Game *i* of a batch with seed *S* is dealt with seed ``S + i``; each seat's bot gets its own seed
drawn from ``(S + i, seat)`` and the order in which simultaneous seats act comes from a generator
seeded with ``S + i``. So a game's record depends only on the batch's settings and its index:
the same seeds give the same per-game results on one process, a process pool or a Ray cluster,
and any game of a batch can be replayed alone (:func:`play_game`).

While a game is played, the lab samples the game's own quantities (:meth:`Game.sample`) each time
its clock (:meth:`Game.clock`: round, scene, hour, action) moves on, and once at the end: the time
series of the reports. Nothing in the rules changes for it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass, field
from typing import Any

from ..bots.base import Bot, Situation, make_bot
from ..bots.random_bot import RandomBot
from ..core.actions import Action, fill, matches
from ..core.errors import ConfigError, LudicaError
from ..core.game import Config, Game
from ..core.match import Match
from ..core.registry import get_game
from ..workers import worker_pool
from .mechanics import mechanics_of

STEP_LIMIT = "step_limit"
"""The lab's own end reason: the driver stopped the game at its step bound (never the rules)."""
REFUSED = "refused"
"""The lab's own end reason: a bot offered an action the rules refused (a bot's bug)."""
BOT_ERROR = "bot_error"
"""The lab's own end reason: a bot raised an error instead of deciding (a bot's bug)."""
STOPPED = (STEP_LIMIT, REFUSED, BOT_ERROR)
"""The lab's end reasons: the game did not end by its rules."""


@dataclass(frozen=True, slots=True)
class Batch:
    """What to play: a game, its players and options, the bots by seat, how many games, the seed.

    ``bots`` maps a seat (``p1``, ``gm``) to a bot spec (``"heuristic"``, ``"ismcts:playouts=50"``);
    the seat ``"*"`` is every seat not named. ``max_steps`` (default: the game's bound) stops a
    game that will not end; it is then recorded with the end reason ``step_limit``.
    """

    game: str
    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    bots: dict[str, str] = field(default_factory=lambda: {"*": "random"})
    games: int = 100
    seed: int = 0
    max_steps: int | None = None

    def config(self, index: int) -> Config:
        return Config(self.players, dict(self.options), self.seed + index)

    def validate(self) -> None:
        """Refuse a bad batch before anything is played: config, seats of the bots, bot names."""
        game = get_game(self.game)
        game.validate_config(self.config(0))
        if self.games < 1:
            raise ConfigError("--games must be at least 1", rule="lab")
        seats = game.seats(game.setup(self.config(0)))
        for seat, spec in self.bots.items():
            if seat != "*" and seat not in seats:
                raise ConfigError(f"no seat {seat!r} for a bot; the seats are {', '.join(seats)}", rule="lab")
            try:
                make_bot(spec, self.game, 0)
            except ValueError as exc:
                raise ConfigError(str(exc), rule="lab") from None

    def seat_bots(self, seats: Sequence[str]) -> dict[str, str]:
        default = self.bots.get("*", "random")
        return {s: self.bots.get(s, default) for s in seats}

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            "bots": dict(self.bots),
            "games": self.games,
            "seed": self.seed,
            "max_steps": self.max_steps,
        }


def bot_seed(game_seed: int, seat: str) -> int:
    """The seed of one seat's bot in one game (string seeding of :class:`random.Random` is stable)."""
    return random.Random(f"{game_seed}/{seat}").getrandbits(31)


class Sampler:
    """The game's key quantities each time its clock moves on, and at the end."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.enabled = bool(game.meta.clock_unit)
        self.times: list[int] = []
        self.rows: list[dict[str, float]] = []

    def look(self, state: Any, *, final: bool = False) -> None:
        if not self.enabled:
            return
        t = self.game.clock(state)
        if self.times and self.times[-1] == t:
            if final:
                self.rows[-1] = self.game.sample(state)
            return
        self.times.append(t)
        self.rows.append(self.game.sample(state))

    def to_json(self) -> dict[str, Any]:
        names: list[str] = []
        for row in self.rows:
            names.extend(k for k in row if k not in names)
        return {
            "unit": self.game.meta.clock_unit,
            "t": self.times,
            "values": {k: [row.get(k) for row in self.rows] for k in names},
        }


def _decide(match: Match[Any], seat: str, bot: Bot, legal: list[Action]) -> tuple[Action, bool]:
    """The bot's action and whether it is trusted: taken from the listed actions by the lab, or
    one of them (the very object or an instance of a template: what the full check would find
    first, at the cost of listing the legal actions again). An action not listed gets the full
    check, which refuses it naming the rule."""
    if isinstance(bot, RandomBot):  # the same draw as RandomBot.decide, without building a view
        return fill(bot.rng.choice(legal), bot.rng), True
    state = match.state
    action = bot.decide(Situation(match.game, seat, None, legal, len(match.actions), state=state)).as_action()
    return action, _listed(legal, action)


def _listed(legal: list[Action], action: Action) -> bool:
    for template in legal:
        if template is action:
            return True
    return any(template.type == action.type and matches(template, action) for template in legal)


def play_game(batch: Batch, index: int) -> dict[str, Any]:
    """Play game ``index`` of ``batch`` to its end (or its step bound) and return its record."""
    game = get_game(batch.game)
    config = batch.config(index)
    seed = int(config.seed or 0)
    match: Match[Any] = Match(game, config, validate=False)
    seats = game.seats(match.state)
    specs = batch.seat_bots(seats)
    bots = {s: make_bot(specs[s], batch.game, bot_seed(seed, s)) for s in seats}
    order = random.Random(seed)
    limit = batch.max_steps if batch.max_steps is not None else game.meta.max_steps
    offered: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    mechanics = mechanics_of(batch.game)
    mechanics_offered: Counter[str] = Counter()
    mechanics_taken: Counter[str] = Counter()
    sampler = Sampler(game)
    sampler.look(match.state)
    decisions = 0
    error = ""
    failed = False
    steps = 0
    while steps < limit:
        pending = game.pending(match.state)
        if pending.is_over:
            break
        if pending.is_chance:
            match.deal(trusted=True, pending=pending)
        else:
            seat = pending.seats[order.randrange(len(pending.seats))] if len(pending.seats) > 1 else pending.seats[0]
            legal = game.legal_actions(match.state, seat)
            types = {a.type for a in legal}
            offered.update(types)
            if mechanics.patterns:
                mechanics.count(legal, types, mechanics_offered)
            try:
                action, trusted = _decide(match, seat, bots[seat], legal)
            except Exception as exc:  # a bot's bug ends this game, not the batch
                error = f"{seat} ({specs[seat]}) at step {steps}: the bot failed: {exc!r}"
                failed = True
                break
            try:
                match.apply(action, trusted=trusted, pending=pending)
            except LudicaError as exc:
                error = f"{seat} ({specs[seat]}) at step {steps}: {action.notation()} refused: {exc}"
                break
            taken[action.type] += 1
            if mechanics.patterns:
                mechanics_taken.update(mechanics.taken(action))
            decisions += 1
        steps += 1
        sampler.look(match.state)
    sampler.look(match.state, final=True)
    over = game.is_over(match.state)
    reason = game.end_reason(match.state) if over else BOT_ERROR if failed else REFUSED if error else STEP_LIMIT
    outcome = game.outcome(match.state) if over else None
    summary = _summary(game, match.state, steps) if over else {"steps": steps}
    turns = summary.get("turns")
    return {
        "index": index,
        "seed": seed,
        "bots": specs,
        "players": len(batch.players),
        "end_reason": reason,
        "winners": list(outcome.winners) if outcome else [],
        "steps": steps,
        "turns": turns if isinstance(turns, int) else decisions,
        "decisions": decisions,
        "error": error,
        "summary": summary,
        "timeline": sampler.to_json(),
        "actions_offered": dict(offered),
        "actions_taken": dict(taken),
        "mechanics_offered": dict(mechanics_offered),
        "mechanics_taken": dict(mechanics_taken),
    }


def _summary(game: Game[Any], state: Any, steps: int) -> dict[str, Any]:
    summary = dict(game.summarize(state, steps))
    summary.setdefault("end_reason", game.end_reason(state))
    return summary


def play_chunk(batch: Batch, indices: Sequence[int]) -> list[dict[str, Any]]:
    """Several games of a batch, in order (what one worker process or Ray task plays)."""
    return [play_game(batch, i) for i in indices]


def chunks(games: int, size: int) -> list[list[int]]:
    return [list(range(i, min(i + size, games))) for i in range(0, games, size)]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a batch: ``records`` are the games finished before it, in index order."""

    def __init__(self, records: list[dict[str, Any]], total: int) -> None:
        super().__init__()
        self.records = records
        self.total = total
        self.saved: list[str] = []
        """Where the finished games' records were written (the command's ``--out``)."""

    def __str__(self) -> str:
        where = f"; their records are in {', '.join(self.saved)}" if self.saved else ""
        return f"stopped (Ctrl-C): {len(self.records)} of {self.total} games finished{where}"


Advance = Callable[[int], None]
"""Called with the number of games just finished (a progress bar)."""


def run(batch: Batch, *, jobs: int = 1, ray: str | None = None, advance: Advance | None = None) -> list[dict[str, Any]]:
    """Every game's record, in index order, whatever the backend.

    ``jobs > 1``: a process pool of that many workers. ``ray``: the Ray cluster at that address, or
    ``"local"`` for a local one with ``jobs`` CPUs (at least 2).
    """
    batch.validate()
    tick = advance or (lambda _n: None)
    if ray is not None:
        from .ray_backend import run_on_ray

        return run_on_ray(batch, address=ray, cpus=max(2, jobs), advance=tick)
    if jobs <= 1:
        out: list[dict[str, Any]] = []
        try:
            for i in range(batch.games):
                out.append(play_game(batch, i))
                tick(1)
        except KeyboardInterrupt:
            raise Interrupted(out, batch.games) from None
        return out
    size = max(1, min(25, batch.games // (jobs * 4) or 1))
    parts = chunks(batch.games, size)
    results: dict[int, list[dict[str, Any]]] = {}
    try:
        with worker_pool(jobs) as pool:
            futures = {pool.submit(play_chunk, batch, part): k for k, part in enumerate(parts)}
            for future in as_completed(futures):
                k = futures[future]
                results[k] = future.result()
                tick(len(parts[k]))
    except KeyboardInterrupt:
        raise Interrupted(_in_order(results), batch.games) from None
    return _in_order(results)


def _in_order(results: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return [record for k in sorted(results) for record in results[k]]


def summaries(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The games' own summaries (what :meth:`Game.report` reads), for finished games."""
    return [r["summary"] for r in records if r["end_reason"] not in STOPPED]
