"""Environment throughput: steps per second of every Ludica game beside OpenSpiel's own games.

Every game runs the same loop: the seat to act gets its observation vector and legal indices, a
uniformly random legal index is applied, chance is resolved inside, a finished game restarts.

* ``in-process``: one environment in this process (CPU time of this process, so that other work
  on a shared machine counts less), measured in ``--rounds`` rounds interleaved with a backgammon
  runner of its own group (each game's rows are one group): a shared machine's speed drifts by
  half from one second to the next, and interleaving slows the game and its anchor alike, so that
  their ratio holds;
* ``vector``: :class:`ludica.env.vector.VectorEnv` with ``--envs`` environments over one worker
  process, then over ``--workers`` processes (steps of all environments per wall second), and
  the scaling between the two (``--workers`` is ideal on an idle machine).

Rows: each Ludica game through its encodings (:class:`~ludica.env.vector.LudicaRunner`), the
same without the observation tensor (the view is still built: the rules' and the catalogue's own
cost, a ceiling for the environments), through
PettingZoo's AEC loop (:func:`ludica.env.aec_env` with ``action="flat"``: ``last()`` with the
observation and action mask, a random index from the info's ``legal_moves``, ``step``; in-process
only), the *learner's loop* as PettingZoo documents it over the default action heads (``last()``,
the legal values read from ``obs["action_mask"]``, a random one, ``step``, until the decision is
made: :class:`Learner`, decisions counted, not heads), the same loop over the flat catalogue's
mask (``action="flat"``: the whole mask read at every decision), through its
OpenSpiel registration (``ludica_<game>``, in-process only), and OpenSpiel's ``backgammon`` and
``kuhn_poker`` (C++ games) through the same runner; the ratio columns divide by backgammon's
figure of the same mode (in-process: the backgammon of the same rounds, printed beside it).
Figures are printed, never asserted.

    python benchmarks/bench_env.py [GAME ...] [--seconds S] [--rounds R] [--envs N] [--workers W]
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from cpucap import CpuCap  # benchmarks/cpucap.py (run from benchmarks/)
from rich.console import Console
from rich.progress import track
from rich.table import Table

from ludica.core.registry import GAME_MODULES
from ludica.env.vector import LudicaRunner, Runner, SpielRunner, VectorEnv

ANCHORS = ("backgammon", "kuhn_poker")
LEARNER = "learner's loop (heads)"
LOOPS = frozenset({"PettingZoo AEC", LEARNER, "learner's loop, flat mask"})
"""The rows measured by a loop of their own (decisions, not runner steps)."""


class InProcess:
    """One runner stepped by random legal play in slices: :meth:`run` goes on from where the last
    slice stopped (its game, generator and seed), so that every row can be measured in rounds
    interleaved with the anchor's."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.rng = random.Random(0)
        self.seed = 0
        _, self.legal = runner.reset(0)

    def run(self, seconds: float) -> tuple[int, float]:
        """Steps for about ``seconds`` of CPU time: (steps, CPU seconds)."""
        runner, rng, legal, steps = self.runner, self.rng, self.legal, 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            _, legal, _, done = runner.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
            if done:
                self.seed += 1
                _, legal = runner.reset(self.seed)
        self.legal = legal
        return steps, time.process_time() - start


def aec_loop(env: Any, until: Callable[[int], bool]) -> int:
    """The AEC loop of :class:`Aec` from a new episode of seed 0 until ``until(decisions)``;
    returns the decisions made (``benchmarks/env_parts.py`` times and counts the same loop)."""
    env.reset(seed=0)
    return Aec(env).decide(until)


class Aec:
    """PettingZoo's AEC loop in slices (a random legal index at every decision, a new seeded
    episode when one ends), observation and mask included.

    The index is drawn from ``infos[agent]["legal_moves"]``, the legal indices as a list (what
    OpenSpiel's ``legal_actions()`` gives the backgammon loop beside it), not read back from the
    mask: numpy reading The Great City's 96 927-entry mask costs about 15 µs a decision (and 250
    µs on the ``int8`` array itself), which would measure numpy, not the environment. The mask is
    still made at every decision (``last()``)."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.rng = random.Random(0)
        self.seed = 0

    def decide(self, until: Callable[[int], bool]) -> int:
        env, rng, steps = self.env, self.rng, 0
        while not until(steps):
            _, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                self.seed += 1
                env.reset(seed=self.seed)
                continue
            legal = info["legal_moves"]
            env.step(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    def run(self, seconds: float) -> tuple[int, float]:
        """Decisions for about ``seconds`` of CPU time: (decisions, CPU seconds)."""
        start = time.process_time()
        steps = self.decide(lambda _: time.process_time() - start >= seconds)
        return steps, time.process_time() - start


def aec(game: str) -> Aec:
    """Decisions through the PettingZoo AEC environment of ``game`` (flat indices), from seed 0."""
    from ludica.env import aec_env

    env = aec_env(game, seed=0, action="flat")
    env.reset(seed=0)
    return Aec(env)


class Learner(Aec):
    """The learner's loop as PettingZoo documents it: ``last()``, the legal actions read from the
    observation's ``action_mask`` (``np.flatnonzero``), a random one, ``step``. Over the default
    action heads a decision takes one step per head asked; decisions are counted (a step whose
    info says no head was asked yet, ``info["asked"] == 0``, starts one), so the figure compares
    with one ``legal_actions`` and ``apply_action`` of backgammon's. Over ``action="flat"`` every
    step is a decision, its mask the whole catalogue."""

    def decide(self, until: Callable[[int], bool]) -> int:
        env, rng, steps = self.env, self.rng, 0
        heads = env.action_mode == "heads"
        while not until(steps):
            obs, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                self.seed += 1
                env.reset(seed=self.seed)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            if not heads or info["asked"] == 0:
                steps += 1
            env.step(int(legal[rng.randrange(len(legal))]))
        return steps


def learner(game: str, action: str = "heads") -> Learner:
    """The learner's loop over the AEC environment of ``game`` in the ``action`` form, from seed 0."""
    from ludica.env import aec_env

    env = aec_env(game, seed=0, action=action)
    env.reset(seed=0)
    return Learner(env)


def interleaved(meters: dict[Any, Any], seconds: float, rounds: int) -> dict[Any, float]:
    """Steps per CPU second of every meter, measured in ``rounds`` rounds of ``seconds / rounds``
    each, every round visiting every meter in turn (so that a machine whose speed drifts, as a
    shared one does, slows every row alike and their ratios hold)."""
    done = dict.fromkeys(meters, (0, 0.0))
    for _ in track(range(rounds), description="measuring (in-process, interleaved)"):
        for key, meter in meters.items():
            steps, spent = meter.run(seconds / rounds)
            done[key] = (done[key][0] + steps, done[key][1] + spent)
    return {key: steps / spent for key, (steps, spent) in done.items()}


def vectorised(factory: Any, seconds: float, envs: int, workers: int, quota: float | None = None) -> float:
    """Steps of all ``envs`` environments per wall second over ``workers`` processes (each capped
    at ``quota`` cores when given: ``benchmarks/cpucap.py``)."""
    rng = random.Random(0)
    cap = CpuCap(quota) if quota else None
    with VectorEnv(factory, envs, workers) as vec:
        if cap is not None:
            for pid in vec.pids:
                cap.cap(pid)
        _, legal = vec.reset()
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            _, legal, _, _ = vec.step([int(lg[rng.randrange(len(lg))]) for lg in legal])
            steps += envs
        rate = steps / (time.perf_counter() - start)
    if cap:
        cap.release()
    return rate


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game ids (default: all five)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per figure (default 3)")
    parser.add_argument("--envs", type=int, default=8, help="environments in the vector (default 8)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the vector (default 2)")
    parser.add_argument("--no-vector", action="store_true", help="only the in-process figures")
    parser.add_argument(
        "--rounds",
        type=int,
        default=10,
        help="rounds each in-process figure is measured in, interleaved with backgammon's (default 10)",
    )
    parser.add_argument(
        "--cpu-quota",
        type=float,
        metavar="CORES",
        help="cap each vector worker at CORES of CPU (a Linux control group; root), so that the scaling "
        "from 1 to --workers processes is the vector's own on a machine whose cores the main process shares",
    )
    args = parser.parse_args(argv)
    games = args.games or list(GAME_MODULES)

    # Rows in groups: the anchors, then each game's rows; a group's in-process figures are measured
    # in rounds interleaved with backgammon's own (a fresh runner per group), and each ratio divides
    # by the backgammon of its group. One game per group, so that no game's objects slow another's.
    groups: list[list[tuple[str, str, Any, bool]]] = [
        [(anchor, "OpenSpiel (C++)", functools.partial(SpielRunner, anchor), True) for anchor in ANCHORS]
    ]
    for game in games:
        name = f"ludica_{game.replace('-', '_')}"
        groups.append(
            [
                (game, "Ludica env", functools.partial(LudicaRunner, game), True),
                (game, "PettingZoo AEC", functools.partial(aec, game), False),
                (game, LEARNER, functools.partial(learner, game), False),
                (game, "learner's loop, flat mask", functools.partial(learner, game, "flat"), False),
                (game, "rules + view, no tensor", functools.partial(LudicaRunner, game, tensor=False), False),
                (name, "Ludica via pyspiel", functools.partial(SpielRunner, name), False),
            ]
        )
    results: dict[tuple[str, str], tuple[float, float, float | None, float | None]] = {}
    anchor = ("backgammon", "OpenSpiel (C++)")
    for group in groups:
        meters: dict[tuple[str, str], Any] = {anchor: InProcess(SpielRunner("backgammon"))}
        for name, how, factory, _ in group:
            meters[name, how] = factory() if how in LOOPS else InProcess(factory())
        rates = interleaved(meters, args.seconds, args.rounds)
        del meters
        for name, how, factory, vector in group:
            one = many = None
            if vector and not args.no_vector:
                one = vectorised(factory, args.seconds, args.envs, 1, args.cpu_quota)
                many = vectorised(factory, args.seconds, args.envs, args.workers, args.cpu_quota)
            results[name, how] = (rates[name, how], rates[anchor], one, many)

    base_many = results[anchor][3]
    title = "in-process only" if args.no_vector else f"vector: {args.envs} envs over 1 and {args.workers} workers"
    if args.cpu_quota and not args.no_vector:
        title += f", each capped at {args.cpu_quota:.2f} cores"
    table = Table(title=f"environment steps per second (random legal play, observation included; {title})")
    w = args.workers
    columns = ("game", "how", "in-process", "backgammon", "ratio", "vector x1", f"vector x{w}", "scaling", "ratio")
    for col in columns:
        table.add_column(col, justify="left" if col in ("game", "how") else "right", no_wrap=True)
    for group in groups:
        for name, how, _, _ in group:
            local, base, one, many = results[name, how]
            table.add_row(
                name,
                how,
                f"{local:,.0f}",
                f"{base:,.0f}",
                f"{local / base:.3f}",
                "-" if one is None else f"{one:,.0f}",
                "-" if many is None else f"{many:,.0f}",
                "-" if one is None or many is None else f"{many / one:.2f}",
                "-" if many is None or not base_many else f"{many / base_many:.3f}",
            )
    Console(width=160).print(table)
    print(
        "in-process: steps per CPU second, measured in rounds interleaved with backgammon's (its column: the same "
        "rounds); ratio: to that backgammon figure (in-process), to backgammon's vector over the same workers (vector)"
    )
    print(f"scaling: x{w} / x1")


if __name__ == "__main__":
    main()
