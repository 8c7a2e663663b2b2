"""Where an AEC decision's time goes, per part, and its instructions under callgrind: printed, never asserted.

The loop is ``bench_env.py``'s PettingZoo AEC loop (``last()`` with the observation and the mask,
a random index from the info's ``legal_moves``, ``step``), from seed 0, the next seed when a game
ends.

* default: CPU time of this process (``time.process_time_ns``) around each part, per decision:
  ``observe`` (the encoding, and the view when it is built there), ``view`` (building the seat's
  view, wherever it is asked for), ``mask`` (the mask, including ``legal``), ``legal`` (the rules'
  listing and the catalogue's indexing), ``catalogue`` (the indexing alone, part of ``legal``; with the
  compiled driver these two run inside ``mask`` unseen and print ``-``), ``act``
  (applying the action and dealing chance), and
  ``referee`` (the referee seat's bot, played inside ``step``); ``total`` is the whole loop.
* ``--callgrind``: instructions per decision, the loop of ``--steps`` decisions run under
  ``valgrind --tool=callgrind`` minus the same process with no decision (start-up, imports,
  ``reset``), divided by the decisions. The count is made repeatable to about 0.1 %:
  ``PYTHONHASHSEED=0``; OpenBLAS without its spinning helper threads; and glibc's ``memset``
  without ``rep stosb``, which callgrind counts as one instruction per byte. Otherwise a
  ``calloc`` that reuses memory (numpy's zeroed observation and mask) costs one instruction per byte
  of an observation, and one that gets fresh pages from the kernel costs none, so the same build
  varied by about 15 % between runs.
* ``--callgrind --learner``: the same count for ``bench_env.py``'s learner's loop over the default
  action heads (decisions counted as there), after ``--warm`` decisions that both runs make (the
  heads' walks and the catalogue's memos filled as in a long run).

Compare two checkouts by running it with each ``PYTHONPATH`` in turn.

    python benchmarks/env_parts.py [GAME ...] [--seconds S] [--callgrind --steps N [--learner --warm W]]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_env import aec_loop, learner  # the same loops as bench_env.py (run from benchmarks/)

from ludica.core.registry import GAME_MODULES
from ludica.env import aec_env

PARTS = ("observe", "view", "mask", "legal", "catalogue", "act", "referee")
_COLLECTED = re.compile(r"Collected : (\d+)")


def _timed(owner: Any, name: str, into: dict[str, int], part: str) -> None:
    """Wrap ``owner.name`` so that its CPU time adds to ``into[part]``."""
    inner: Callable[..., Any] = getattr(owner, name)
    clock = time.process_time_ns

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return inner(*args, **kwargs)
        finally:
            into[part] += clock() - start

    setattr(owner, name, wrapped)


class _Timed:
    """``inner`` with some methods timed; everything else is the object's own (a compiled
    object's methods cannot be replaced on the object itself, so the timing wraps it)."""

    def __init__(self, inner: Any, into: dict[str, int], parts: dict[str, str]) -> None:
        self._inner = inner
        for name, part in parts.items():
            if hasattr(inner, name):
                setattr(self, name, getattr(inner, name))
                _timed(self, name, into, part)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def parts(game: str, seconds: float) -> dict[str, float]:
    """Microseconds of CPU per decision, per part and in all (``None``: a part that runs inside a
    compiled driver, where it cannot be told apart)."""
    env = aec_env(game, seed=0, action="flat")
    spent = dict.fromkeys(PARTS, 0)
    driver = env.driver
    acting = "act_if_legal" if hasattr(driver, "act_if_legal") else "act"  # the AEC step's (an older tree: act)
    names = {"observe": "observe", "view": "view", "mask": "mask", "legal": "legal", acting: "act"}
    separable = hasattr(driver, "__dict__")  # a pure driver calls its own methods through the instance
    try:
        driver.catalogue = _Timed(driver.catalogue, spent, {"legal": "catalogue"})
    except TypeError:  # a compiled driver's catalogue is typed: the indexing stays inside "legal"
        separable = False
    env.driver = _Timed(driver, spent, names)
    if separable:  # the pure driver's own calls (mask -> legal) are timed too
        for name, part in names.items():
            _timed(driver, name, spent, part)
    _timed(env, "_play_referee", spent, "referee")
    start = time.process_time_ns()
    steps = aec_loop(env, lambda _: time.process_time_ns() - start >= seconds * 1e9)
    total = time.process_time_ns() - start
    out: dict[str, float | None] = {"total": total / steps / 1e3}
    for part, ns in spent.items():
        out[part] = ns / steps / 1e3 if separable or part not in ("legal", "catalogue") else None
    return out  # type: ignore[return-value]


def worker(game: str, steps: int, warm: int = 0) -> None:
    if warm >= 0:  # the learner's loop over the heads: ``warm`` decisions, then ``steps`` more
        loop = learner(game)
        loop.decide(lambda done: done >= warm)
        if steps:
            loop.decide(lambda done: done >= steps)
        return
    env = aec_env(game, seed=0, action="flat")
    if steps:
        aec_loop(env, lambda done: done >= steps)
    else:
        env.reset(seed=0)


REPEATABLE = {
    "PYTHONHASHSEED": "0",
    "OPENBLAS_NUM_THREADS": "1",
    "GLIBC_TUNABLES": "glibc.cpu.x86_rep_stosb_threshold=0x7fffffffffffffff",
}
"""The environment of a callgrind run (module docstring)."""


def collected(game: str, steps: int, folder: Path, warm: int = -1) -> int:
    out = folder / f"callgrind.out.{game}.{steps}"
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__]
    cmd += ["--worker", game, "--steps", str(steps), "--warm", str(warm)]
    result = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **REPEATABLE})
    found = _COLLECTED.search(result.stderr)
    if result.returncode or found is None:
        raise RuntimeError(f"callgrind gave no count for {game}: {result.stderr[-500:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game ids (default: all five)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per game (default 2)")
    parser.add_argument("--callgrind", action="store_true", help="instructions per decision instead")
    parser.add_argument("--steps", type=int, default=1000, help="decisions under callgrind (default 1000)")
    parser.add_argument("--learner", action="store_true", help="with --callgrind: the learner's loop over the heads")
    parser.add_argument("--warm", type=int, default=3000, help="with --learner: decisions made first (default 3000)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.steps, args.warm)
        return
    games = args.games or list(GAME_MODULES)
    if args.callgrind:
        with tempfile.TemporaryDirectory() as tmp:
            warm = args.warm if args.learner else -1
            loop = "learner's loop (heads)" if args.learner else "AEC loop"
            for game in games:
                work = collected(game, args.steps, Path(tmp), warm) - collected(game, 0, Path(tmp), warm)
                print(f"{game:18s} {work / args.steps:12,.0f} instructions per decision ({loop})", flush=True)
        return
    print(f"{'game':18s} {'total':>7s} " + " ".join(f"{p:>8s}" for p in PARTS) + "   (µs of CPU per decision)")
    for game in games:
        got = parts(game, args.seconds)
        cells = ("-" if got[p] is None else f"{got[p]:.0f}" for p in PARTS)
        print(f"{game:18s} {got['total']:7.0f} " + " ".join(f"{c:>8s}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
