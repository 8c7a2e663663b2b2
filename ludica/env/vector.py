"""Many environments stepped at once in worker processes (self-play, every seat by index).

:class:`VectorEnv` runs one *runner* per environment, spread over worker processes, and steps
them all with one call: ``step(actions)`` takes one action index per environment (for whichever
seat is to act in it) and returns the stacked observations, each environment's legal indices,
rewards of the seat that acted and the done flags; a finished environment starts a new game with
the next seed (auto-reset). Legal actions come back as index arrays, not dense masks: a
catalogue can have 100 000 entries, and a dense mask would dominate the traffic between
processes (``VectorEnv.masks`` builds them on demand). The observations do not travel through the
pipes at all: each worker writes them into its environments' rows of one block of shared memory
(made by the vector, removed by ``close``), and ``step`` returns a copy of that block, so the
main process unpickles only the legal indices (one array per worker), rewards and done flags.

Runners: :class:`LudicaRunner` (a Ludica game through its encodings) and :class:`SpielRunner` (any
OpenSpiel game, the same loop with chance sampled inside), so benchmarks compare like with like.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing as mp
import random
from collections.abc import Callable, Mapping, Sequence
from multiprocessing import shared_memory
from multiprocessing.connection import Connection
from typing import Any, Protocol

import numpy as np

from .driver import Driver

Step = tuple[np.ndarray, np.ndarray, float, bool]
"""(observation of the seat to act, its legal indices, reward of the seat that acted, done)."""

Batch = tuple[list[tuple[int, np.ndarray]], np.ndarray, list[int], list[float], list[bool]]
"""A worker's steps, as its pipe carries them: the observations that are not in the shared block
(by position in the worker's group), every environment's legal indices in one array, their
lengths, rewards and done flags (one array and a few lists pickle far faster than an array each)."""

OBS = np.dtype(np.float32)
"""The observations' type (both runners' tensors)."""


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
    """A worker: its runners, stepped on the main process's commands.

    First it says its observations' length; the main process answers with the name of the shared
    block of ``(n, size)`` float32 observations (or ``None``), and from then on each observation is
    written into its environment's row of that block, and the pipe carries only a :data:`Batch`:
    legal indices, rewards and done flags (an observation that does not fit its row goes through
    the pipe)."""
    runners = [f() for f in factories]
    # This process is the vector's own: what it holds now (modules, the games' catalogues) lives
    # as long as it does, so Python's collector need not walk it at every full pass.
    gc.freeze()
    next_seed = list(seeds)
    conn.send(runners[0].size if runners else 0)
    name, n, rows = conn.recv()
    block = shared_memory.SharedMemory(name=name) if name else None
    table = np.ndarray((n, runners[0].size), OBS, block.buf) if block else None
    try:
        while True:
            cmd, data = conn.recv()
            if cmd == "reset":
                pairs = zip(runners, next_seed, strict=True)
                conn.send(_pack(table, rows, [(*runner.reset(seed), 0.0, False) for runner, seed in pairs]))
            elif cmd == "step":
                out: list[Step] = []
                for i, (runner, index) in enumerate(zip(runners, data, strict=True)):
                    obs, legal, reward, done = runner.step(int(index))
                    if done:
                        next_seed[i] += stride
                        obs, legal = runner.reset(next_seed[i])
                    out.append((obs, legal, reward, done))
                conn.send(_pack(table, rows, out))
            elif cmd == "close":
                return
    finally:
        del table
        if block is not None:
            block.close()
        conn.close()


def _pack(table: np.ndarray | None, rows: Sequence[int], steps: list[Step]) -> Batch:
    """A worker's steps as one :data:`Batch`: each observation written into its row of the shared
    ``table`` where it fits, the legal indices of all its environments as one array."""
    carried: list[tuple[int, np.ndarray]] = []
    for k, (obs, _, _, _) in enumerate(steps):
        if table is not None and obs.shape == table.shape[1:] and obs.dtype == OBS:
            table[rows[k]] = obs
        else:
            carried.append((k, obs))
    legal = np.concatenate([s[1] for s in steps]) if steps else np.zeros(0, np.int64)
    return carried, legal, [len(s[1]) for s in steps], [s[2] for s in steps], [s[3] for s in steps]


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
        self._block, self._table = self._share([conn.recv() for conn in self._conns])
        self.size = 0

    def _share(self, sizes: list[int]) -> tuple[shared_memory.SharedMemory | None, np.ndarray | None]:
        """The block the workers write their observations into (their runners' length, said first)."""
        size = sizes[0]
        if any(other != size for other in sizes):
            raise ValueError(f"the workers' runners give observations of different lengths: {sizes}")
        block = shared_memory.SharedMemory(create=True, size=self.n * size * OBS.itemsize) if size else None
        for conn, group in zip(self._conns, self._groups, strict=True):
            conn.send((block.name if block else None, self.n, group))
        return block, (np.ndarray((self.n, size), OBS, block.buf) if block else None)

    @property
    def pids(self) -> list[int]:
        """The worker processes' ids (one per worker), e.g. to give each a CPU budget."""
        return [proc.pid for proc in self._procs if proc.pid is not None]

    def reset(self) -> tuple[np.ndarray, list[np.ndarray]]:
        for conn in self._conns:
            conn.send(("reset", None))
        obs, legal, _, _ = self._gather([conn.recv() for conn in self._conns])
        return obs, legal

    def step(self, actions: Sequence[int]) -> tuple[np.ndarray, list[np.ndarray], np.ndarray, np.ndarray]:
        for conn, group in zip(self._conns, self._groups, strict=True):
            conn.send(("step", [int(actions[i]) for i in group]))
        return self._gather([conn.recv() for conn in self._conns])

    def _gather(self, batches: list[Batch]) -> tuple[np.ndarray, list[np.ndarray], np.ndarray, np.ndarray]:
        n = self.n
        carried: list[np.ndarray | None] = [None] * n
        legal: list[np.ndarray] = [np.zeros(0, np.int64)] * n
        rewards, dones = [0.0] * n, [False] * n
        for group, (extra, indices, lengths, group_rewards, group_dones) in zip(self._groups, batches, strict=True):
            for k, one in extra:
                carried[group[k]] = one
            start = 0
            for k, i in enumerate(group):
                legal[i] = indices[start : start + lengths[k]]
                start += lengths[k]
                rewards[i], dones[i] = group_rewards[k], group_dones[k]
        if self._table is None:
            obs = np.stack(carried)  # type: ignore[arg-type]
        else:
            obs = self._table.copy()
            for i, through_pipe in enumerate(carried):
                if through_pipe is not None:
                    obs[i] = through_pipe
        self.size = obs.shape[1]
        return obs, legal, np.array(rewards), np.array(dones)

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
        if self._block is not None:
            self._table = None  # no view may outlive the block
            self._block.close()
            self._block.unlink()
            self._block = None

    def __enter__(self) -> VectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
