"""Many environments stepped at once in worker processes (self-play, every seat by index).

:class:`VectorEnv` runs one *runner* per environment, spread over worker processes, and steps
them all with one call: ``step(actions)`` takes one action index per environment (for whichever
seat is to act in it) and returns the stacked observations, each environment's legal indices,
rewards of the seat that acted and the done flags; a finished environment starts a new game with
the next seed (auto-reset). Legal actions come back as index arrays, not dense masks: a
catalogue can have 100 000 entries, and a dense mask would dominate the traffic between
processes (``VectorEnv.masks`` builds them on demand).

Runners: :class:`LudicaRunner` (a Ludica game through its encodings) and :class:`SpielRunner` (any
OpenSpiel game, the same loop with chance sampled inside), so benchmarks compare like with like.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import random
from collections.abc import Callable, Mapping, Sequence
from multiprocessing.connection import Connection
from typing import Any, Protocol

import numpy as np

from .driver import Driver

Step = tuple[np.ndarray, np.ndarray, float, bool]
"""(observation of the seat to act, its legal indices, reward of the seat that acted, done)."""


class Runner(Protocol):
    size: int
    """The length of an observation vector."""

    def reset(self, seed: int) -> tuple[np.ndarray, np.ndarray]: ...

    def step(self, index: int) -> Step: ...


class LudicaRunner:
    """A Ludica game: whoever must decide acts with the given index; chance is dealt inside.

    ``tensor=False`` (for benchmarks) builds the seat's view but not its tensor, and returns an
    empty observation: what the rules and the catalogue cost without the encoding."""

    def __init__(
        self, game: str, players: int | None = None, options: Mapping[str, Any] | None = None, tensor: bool = True
    ) -> None:
        self.driver = Driver(game, players, options)
        self.size = self.driver.observer.size if tensor else 0
        self.tensor = tensor

    def _now(self) -> tuple[np.ndarray, np.ndarray]:
        seat = self.driver.current()
        if seat is None:
            return np.zeros(self.size, np.float32), np.zeros(0, np.int64)
        if self.tensor:
            obs = self.driver.observe(seat)
        else:
            self.driver.view(seat)
            obs = np.zeros(0, np.float32)
        return obs, self.driver.legal(seat).sorted_array()

    def reset(self, seed: int) -> tuple[np.ndarray, np.ndarray]:
        self.driver.reset(seed)
        return self._now()

    def step(self, index: int) -> Step:
        seat = self.driver.current()
        assert seat is not None
        self.driver.act(seat, index)
        done = self.driver.over or self.driver.truncated
        reward = self.driver.rewards()[seat] if done else 0.0
        obs, legal = self._now()
        return obs, legal, reward, done


class SpielRunner:
    """An OpenSpiel game (``"backgammon"``, ``"kuhn_poker"``, ``"ludica_euphoria"``) run the same way."""

    def __init__(self, name: str, params: Mapping[str, Any] | None = None) -> None:
        import pyspiel

        if name.startswith("ludica_"):
            from .spiel import register

            register()
        self.game = pyspiel.load_game(name, dict(params or {}))
        self.size = self.game.observation_tensor_size()
        self.rng = random.Random(0)
        self.state: Any = None

    def _settle(self) -> None:
        state = self.state
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            weights = [p for _, p in outcomes]
            state.apply_action(self.rng.choices(actions, weights)[0])

    def _now(self) -> tuple[np.ndarray, np.ndarray]:
        state = self.state
        if state.is_terminal():
            return np.zeros(self.size, np.float32), np.zeros(0, np.int64)
        player = state.current_player()
        obs = np.asarray(state.observation_tensor(player), np.float32)
        return obs, np.asarray(state.legal_actions(player), np.int64)

    def reset(self, seed: int) -> tuple[np.ndarray, np.ndarray]:
        self.rng.seed(seed)
        self.state = self.game.new_initial_state()
        self._settle()
        return self._now()

    def step(self, index: int) -> Step:
        player = self.state.current_player()
        self.state.apply_action(int(index))
        self._settle()
        done = self.state.is_terminal()
        reward = self.state.returns()[player] if done else 0.0
        obs, legal = self._now()
        return obs, legal, reward, done


def _serve(conn: Connection, factories: Sequence[Callable[[], Runner]], seeds: Sequence[int], stride: int) -> None:
    runners = [f() for f in factories]
    next_seed = list(seeds)
    try:
        while True:
            cmd, data = conn.recv()
            if cmd == "reset":
                conn.send([r.reset(s) for r, s in zip(runners, next_seed, strict=True)])
            elif cmd == "step":
                out = []
                for i, (runner, index) in enumerate(zip(runners, data, strict=True)):
                    obs, legal, reward, done = runner.step(int(index))
                    if done:
                        next_seed[i] += stride
                        obs, legal = runner.reset(next_seed[i])
                    out.append((obs, legal, reward, done))
                conn.send(out)
            elif cmd == "close":
                return
    finally:
        conn.close()


class VectorEnv:
    """``n`` environments made by ``factory`` (a picklable callable), over ``workers`` processes."""

    def __init__(self, factory: Callable[[], Runner], n: int, workers: int = 2, seed: int = 0) -> None:
        if n < 1 or workers < 1:
            raise ValueError("a vector needs at least one environment and one worker")
        workers = min(workers, n)
        ctx = mp.get_context("spawn")
        self.n = n
        self._groups = [list(range(w, n, workers)) for w in range(workers)]
        self._conns: list[Connection] = []
        self._procs = []
        for group in self._groups:
            parent, child = ctx.Pipe()
            proc = ctx.Process(
                target=_serve, args=(child, [factory] * len(group), [seed + i for i in group], n), daemon=True
            )
            proc.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(proc)
        self.size = 0

    @property
    def pids(self) -> list[int]:
        """The worker processes' ids (one per worker), e.g. to give each a CPU budget."""
        return [proc.pid for proc in self._procs if proc.pid is not None]

    def reset(self) -> tuple[np.ndarray, list[np.ndarray]]:
        for conn in self._conns:
            conn.send(("reset", None))
        return self._gather([[(o, lg, 0.0, False) for o, lg in conn.recv()] for conn in self._conns])[:2]  # type: ignore[return-value]

    def step(self, actions: Sequence[int]) -> tuple[np.ndarray, list[np.ndarray], np.ndarray, np.ndarray]:
        for conn, group in zip(self._conns, self._groups, strict=True):
            conn.send(("step", [int(actions[i]) for i in group]))
        return self._gather([conn.recv() for conn in self._conns])

    def _gather(self, parts: list[list[Step]]) -> tuple[np.ndarray, list[np.ndarray], np.ndarray, np.ndarray]:
        slots: list[Step | None] = [None] * self.n
        for group, results in zip(self._groups, parts, strict=True):
            for i, result in zip(group, results, strict=True):
                slots[i] = result
        done = [s for s in slots if s is not None]
        obs = np.stack([s[0] for s in done])
        self.size = obs.shape[1]
        return obs, [s[1] for s in done], np.array([s[2] for s in done]), np.array([s[3] for s in done])

    def masks(self, legal: list[np.ndarray], size: int) -> np.ndarray:
        """Dense masks ``(n, size)`` from the legal index arrays."""
        out = np.zeros((len(legal), size), np.int8)
        for row, indices in enumerate(legal):
            out[row, indices] = 1
        return out

    def close(self) -> None:
        for conn in self._conns:
            with contextlib.suppress(BrokenPipeError, OSError):
                conn.send(("close", None))
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()

    def __enter__(self) -> VectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
