"""Instructions per kernel step under callgrind: printed, never asserted.

Timed figures on a shared machine swing by 15-25%; the count of instructions a fixed, seeded
piece of work executes does not. For each game asked (and OpenSpiel's backgammon, when pyspiel
is installed), this runs :func:`bench_games.kernel_game` (random legal play, the legal actions
of the deciding seat listed at every step: what ``bench_games.py`` times as *kernel*) over
``--games`` seeded games (``--bg-games`` of backgammon) under ``valgrind --tool=callgrind``,
runs the same process again with no game played (Python start-up, imports, loading the game),
and prints the difference divided by the steps played, with its ratio to backgammon's figure
(instructions, so lower is faster; the ratio printed is backgammon's count over the game's,
comparable to the timed ``x bg``).

    python benchmarks/callgrind_kernels.py [GAME ...] [--games N] [--players N] [--keep DIR]

The build measured is this process's (``LUDICA_PURE=1`` for the pure one); compare two checkouts
by running this script with each ``PYTHONPATH`` in turn. The runs under callgrind get
``PYTHONHASHSEED=0``: with random string hashes, dictionary probes (and so the counts) differ a
little from run to run (a few per cent over 1,500 steps). ``--keep DIR`` keeps the profiles
(``callgrind.out.<game>``) for ``callgrind_annotate``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

BACKGAMMON = "openspiel:backgammon"
_COLLECTED = re.compile(r"Collected : (\d+)")


def worker(game_id: str, players: int | None, games: int) -> int:
    """Play ``games`` seeded games of ``game_id`` (or backgammon) through the kernel; the steps."""
    from bench_games import kernel_game, openspiel_game, players_of

    rng = random.Random(0)
    if game_id == BACKGAMMON:
        import pyspiel

        bg = pyspiel.load_game("backgammon")
        return sum(openspiel_game(bg, rng) for _ in range(games))
    from ludica.core import get_game
    from ludica.lab.playthrough import default_config

    game = get_game(game_id)
    config = default_config(game_id, players_of(game_id, players))
    return sum(kernel_game(game, replace(config, seed=seed), rng) for seed in range(games))


def collected(game_id: str, players: int | None, games: int, out: Path) -> tuple[int, int]:
    """Instructions and steps of one worker run under callgrind, profile written to ``out``."""
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__]
    cmd += ["--worker", game_id, "--games", str(games), *(["--players", str(players)] if players else [])]
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # string hashes, so dict probes, the same in every run
    result = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    match = _COLLECTED.search(result.stderr)
    if match is None:
        raise RuntimeError(f"callgrind gave no count for {game_id}: {result.stderr[-500:]}")
    steps = json.loads(result.stdout.strip().splitlines()[-1])["steps"]
    return int(match.group(1)), steps


def per_step(game_id: str, players: int | None, games: int, keep: Path | None) -> tuple[float, int]:
    """Instructions per step of ``game_id`` (start-up subtracted) and the steps measured."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        name = game_id.replace(":", "-")
        work, steps = collected(game_id, players, games, folder / f"callgrind.out.{name}")
        idle, _ = collected(game_id, players, 0, Path(tmp) / "idle")
    return (work - idle) / steps, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games_ids", nargs="*", metavar="GAME")
    parser.add_argument("--games", type=int, default=3, help="seeded games per kernel (default 3)")
    parser.add_argument("--bg-games", type=int, default=30, help="seeded games of backgammon (default 30)")
    parser.add_argument("--players", type=int)
    parser.add_argument("--keep", type=Path, help="keep the profiles in this folder")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps({"steps": worker(args.worker, args.players, args.games)}))
        return
    from ludica._build import build
    from ludica.core import available

    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    try:
        import pyspiel  # noqa: F401

        anchor = [BACKGAMMON]
    except ImportError:
        anchor = []
    print(f"build: {build()}; {args.games} seeded games per kernel; instructions per step, start-up subtracted")
    bg: float | None = None
    for game_id in [*anchor, *(args.games_ids or available())]:
        games = args.bg_games if game_id == BACKGAMMON else args.games
        figure, steps = per_step(game_id, args.players, games, args.keep)
        if game_id == BACKGAMMON:
            bg = figure
        ratio = f"{bg / figure:6.2f}" if bg else ""
        print(f"{game_id:<22}{steps:>8} steps {figure:>10,.0f} instr/step {ratio}", flush=True)


if __name__ == "__main__":
    main()
