"""A fixed, versioned evaluation of an agent per game, so that two reports' figures compare.

``python -m ludica.env protocol GAME --agent SPEC`` plays the protocol :data:`VERSION` of
``GAME`` and prints one row per opponent and player count, and the JSON of the whole run with
``--json``. ``SPEC`` is a Ludica bot (``random``, ``heuristic``, ``ismcts:playouts=50``) or
``module:callable``: a factory ``make(game, players, seat, seed)`` returning a policy
``policy(observation, legal) -> index`` (the seat's observation tensor, the legal flat indices
as an int array; ``ludica.env.protocol:uniform`` is one).

What the protocol fixes (:class:`Protocol`): the opponents (every other seat is played by the
same Ludica bot), the player counts, the episodes per opponent and player count, the agent's seat
(episode ``e`` puts it in player seat ``e mod players``; a referee seat is played by the
heuristic), the seeds (episode ``e`` is dealt by seed ``1000 * players + e``), the cap on
decisions (the environments' ``max_steps``; a capped game counts as not won) and the figure:
the agent's **win rate** with its 95% Wilson interval, in games where somebody wins. In the
narrative games (Euthymia, Misery Bubblegum) nobody wins: the figure is the **finish rate**
(games that reached their end within the cap) with its interval, and the mean decisions.

What ``-v0`` promises: under the same version, the same agent and the same Ludica rules version
are dealt the same games (same seeds, seats, opponents and caps), on every machine and build.
A change in any of these gets a new version; the old one stays runnable by its name. A run of
some of the opponents or player counts plays those cells exactly as the whole protocol does, so
their figures compare (its JSON says ``"comparable": true``); fewer episodes or a smaller cap do
not compare.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ..bots.base import make_bot
from ..bots.tournament import wilson
from .driver import Driver
from .encoding import narrative

VERSION = "v0"

BOT_NAMES = ("random", "heuristic", "ismcts")
"""The Ludica bots an agent or opponent spec may name (``ismcts:playouts=50``)."""

Policy = Callable[[np.ndarray, np.ndarray], int]
"""``policy(observation, legal)``: one of the legal flat indices."""


@dataclass(frozen=True)
class Protocol:
    """One game's evaluation: opponents, player counts, episodes per cell, the cap on decisions."""

    game: str
    opponents: tuple[str, ...]
    players: tuple[int, ...]
    episodes: int
    max_steps: int | None = None
    version: str = VERSION
    options: dict[str, Any] = field(default_factory=dict)


ISMCTS = "ismcts:playouts=50"
"""The search opponent: ISMCTS at 50 playouts a decision (about 0.2 s in the pure build)."""

PROTOCOLS: dict[str, Protocol] = {
    "great-city": Protocol("great-city", ("random", "heuristic", ISMCTS), (2, 4), 100),
    "euthymia": Protocol("euthymia", ("random", "heuristic", ISMCTS), (3, 5), 100),
    "misery-bubblegum": Protocol("misery-bubblegum", ("random", "heuristic", ISMCTS), (2, 4), 100),
    "lost-days": Protocol("lost-days", ("random", "heuristic", ISMCTS), (3, 5), 100),
    "euphoria": Protocol("euphoria", ("random", "heuristic", ISMCTS), (2, 4), 100),
}
"""The protocol ``v0`` of each game."""


def uniform(game: str, players: int, seat: str, seed: int) -> Policy:
    """An example agent factory: a policy uniform over the legal flat indices."""
    rng = np.random.default_rng(seed)
    return lambda observation, legal: int(rng.choice(legal))


def load_agent(spec: str) -> Callable[[str, int, str, int], Policy] | str:
    """``module:callable`` -> the factory; anything else is a Ludica bot spec, kept as it is."""
    module, colon, name = spec.partition(":")
    if colon and module not in BOT_NAMES:
        try:
            found = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as exc:
            raise ValueError(f"agent {spec!r}: {exc}") from None
        if not callable(found):
            raise ValueError(f"agent {spec!r} is not callable")
        return found  # type: ignore[no-any-return]
    return spec


@dataclass
class Cell:
    """The episodes of one opponent and player count."""

    opponent: str
    players: int
    episodes: int = 0
    wins: int = 0
    finished: int = 0
    decisions: int = 0
    figure: str = "win rate"
    rate: float = 0.0
    interval: tuple[float, float] = (0.0, 0.0)


def episode(protocol: Protocol, agent: Any, opponent: str, players: int, e: int) -> tuple[bool, bool, int]:
    """Episode ``e``: whether the agent won, whether the game finished, and its decisions."""
    seed = 1000 * players + e
    driver = Driver(protocol.game, players, protocol.options, max_steps=protocol.max_steps, seed=seed)
    seat = driver.players[e % players]
    referee = driver.game.meta.referee
    bots = {s: make_bot(opponent if s != referee else "heuristic", protocol.game, seed + i)
            for i, s in enumerate(driver.seats) if s != seat}  # fmt: skip
    if isinstance(agent, str):
        bots[seat] = make_bot(agent, protocol.game, seed)
        policy = None
    else:
        policy = agent(protocol.game, players, seat, seed)
    while not driver.over and driver.steps < driver.max_steps:
        now = driver.current()
        assert now is not None
        if now != seat or policy is None:
            driver.play(bots[now], now)
        else:
            driver.act(now, int(policy(driver.observe(now), np.asarray(driver.legal(now).indices, dtype=np.int64))))
    won = driver.over and driver.rewards()[seat] > 0
    return won, driver.over, driver.steps


def run(protocol: Protocol, agent: Any, progress: Callable[[str], None] | None = None) -> list[Cell]:
    """Every cell of the protocol for ``agent`` (a bot spec or a factory)."""
    cells = []
    game_narrative = narrative(Driver(protocol.game, protocol.players[0], protocol.options).game)
    for opponent in protocol.opponents:
        for players in protocol.players:
            cell = Cell(opponent, players, figure="finish rate" if game_narrative else "win rate")
            for e in range(protocol.episodes):
                won, finished, steps = episode(protocol, agent, opponent, players, e)
                cell.episodes += 1
                cell.wins += won
                cell.finished += finished
                cell.decisions += steps
            hits = cell.finished if game_narrative else cell.wins
            cell.rate = hits / cell.episodes
            cell.interval = wilson(hits, cell.episodes)
            if progress:
                progress(row(cell))
            cells.append(cell)
    return cells


def row(cell: Cell) -> str:
    lo, hi = cell.interval
    return (f"{cell.opponent:<22} {cell.players} players  {cell.figure} {cell.rate:.3f} [{lo:.3f}, {hi:.3f}]  "
            f"episodes {cell.episodes}  mean decisions {cell.decisions / max(cell.episodes, 1):.0f}")  # fmt: skip


def same_cells(protocol: Protocol, changed: dict[str, Any]) -> bool:
    """Whether a run with ``changed`` plays some of the protocol's cells exactly as the protocol
    does: only the opponents and the player counts changed, to some of the protocol's own. Each
    cell's games depend on its opponent and player count alone, so its figures compare."""
    if set(changed) - {"opponents", "players"}:
        return False
    return set(changed.get("opponents", ())) <= set(protocol.opponents) and set(changed.get("players", ())) <= set(
        protocol.players
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id, e.g. great-city")
    parser.add_argument(
        "--agent", required=True, help="a Ludica bot (random, heuristic, ismcts:...) or module:callable"
    )
    parser.add_argument("--version", default=VERSION, help=f"the protocol's version (today only {VERSION})")
    parser.add_argument(
        "--episodes", type=int, default=None, help="fewer episodes than the protocol's (not comparable)"
    )
    parser.add_argument(
        "--opponents", default=None, help="comma-separated opponents (some of the protocol's: its cells compare)"
    )
    parser.add_argument(
        "--players", default=None, help="comma-separated player counts (some of the protocol's: its cells compare)"
    )
    parser.add_argument("--max-steps", type=int, default=None, help="a smaller cap on decisions (not comparable)")
    parser.add_argument("--json", action="store_true", help="print the run as JSON at the end")


def main(args: argparse.Namespace) -> int:
    if args.version != VERSION:
        raise SystemExit(f"protocol version {args.version!r} is unknown; the versions: {VERSION}")
    if args.game not in PROTOCOLS:
        raise SystemExit(f"no protocol for {args.game!r}; the games: {', '.join(PROTOCOLS)}")
    protocol = PROTOCOLS[args.game]
    changed: dict[str, Any] = {}
    if args.episodes is not None:
        changed["episodes"] = args.episodes
    if args.opponents:
        changed["opponents"] = tuple(args.opponents.split(","))
    if args.players:
        changed["players"] = tuple(int(p) for p in args.players.split(","))
    if args.max_steps is not None:
        changed["max_steps"] = args.max_steps
    comparable = same_cells(protocol, changed)
    if changed:
        protocol = Protocol(**{**asdict(protocol), **changed})
    label = f"{args.game}-{protocol.version}"
    if changed:
        label += " (some of its cells)" if comparable else " (changed: not comparable)"
    print(f"protocol {label}: agent {args.agent}")
    random.seed(0)
    cells = run(protocol, load_agent(args.agent), progress=print)
    if args.json:
        print(json.dumps({"protocol": asdict(protocol), "comparable": comparable, "agent": args.agent,
                          "cells": [asdict(c) for c in cells]}, default=list))  # fmt: skip
    return 0
