"""Per-game throughput, pure Python and compiled, beside OpenSpiel's anchors: printed, never asserted.

For each registered game and each build of the rules kernels (``pure``: the Python sources,
``compiled``: the mypyc modules, when this installation has them), on one core (CPU time of the
measuring process, so a busy machine skews it less), random legal play listing the legal actions
of the deciding seat at every step:

- kernel: steps/s of the game's own functions alone (pending, legal actions, play; chance outcomes
  sampled from one generator), the figure comparable to OpenSpiel's ``legal_actions`` +
  ``apply_action`` loop;
- checked: steps/s through the :class:`~ludica.core.Match` driver with every action fully
  checked, the record and story log kept and chance dealt by the seeded dealer (what a table does);
- trusted: the same, applying listed actions without the second check (what simulations do).

When OpenSpiel is installed (the ``dev`` extra), its backgammon (C++ through Python) and Kuhn
poker (C++ and its pure-Python version) are measured the same way in the same run, and every
kernel figure is also given as a ratio to backgammon. Each figure is measured ``--repeat`` times;
the best is printed with the range. Each build runs in its own process (``LUDICA_PURE=1`` for the
pure one).

    python benchmarks/bench_games.py [GAME ...] [--seconds S] [--repeat R] [--players N]
                                     [--build pure|compiled|both] [--more]

``--more`` adds per game: replay actions/s (checked and trusted), position size and peak memory.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
import tracemalloc
from dataclasses import replace
from typing import Any

from ludica.bots.random_bot import play_random
from ludica.core import CHANCE, Action, Config, Game, Match, available, fill, get_game
from ludica.core.records import record_of, replay_record
from ludica.lab.playthrough import default_config

Figures = dict[str, Any]


def random_play(
    game_id: str, players: int | None, seconds: float, *, check: bool = True
) -> tuple[int, int, float, list[Match[Any]]]:
    game = get_game(game_id)
    config = default_config(game_id, players)
    steps = games = 0
    matches: list[Match[Any]] = []
    start = time.process_time()
    while time.process_time() - start < seconds or games == 0:
        match: Match[Any] = Match(game, replace(config, seed=games))
        steps += play_random(match, random.Random(games), check=check)
        games += 1
        if len(matches) < 5:
            matches.append(match)
    return steps, games, time.process_time() - start, matches


def kernel_play(game_id: str, players: int | None, seconds: float) -> float:
    """Steps/s of the bare rules kernel: no Match, no record, no log, one generator for chance."""
    game = get_game(game_id)
    config = default_config(game_id, players)
    rng = random.Random(0)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds or games == 0:
        steps += kernel_game(game, replace(config, seed=games), rng)
        games += 1
    return steps / (time.process_time() - start)


def kernel_game(game: Game[Any], config: Config, rng: random.Random) -> int:
    """One game of :func:`kernel_play`'s random legal play, from set-up to the end; its steps."""
    state = game.setup(config)
    steps = 0
    while True:
        pending = game.pending(state)
        if not pending.seats:
            return steps
        seat = pending.seats[rng.randrange(len(pending.seats))]
        if seat == CHANCE:
            step = game.chance_step(state)
            action = Action(CHANCE, step.type, {**step.extra, **step.sample(rng)})
        else:
            action = fill(rng.choice(game.legal_actions(state, seat)), rng)
        game.play(state, action)
        steps += 1


def replay_speed(matches: list[Match[Any]], *, check: bool = True) -> float:
    records = [json.loads(json.dumps(record_of(m))) for m in matches]
    n = sum(len(r["actions"]) for r in records)
    start = time.process_time()
    for record in records:
        replay_record(record, check=check)
    return n / (time.process_time() - start)


def state_size(match: Match[Any]) -> tuple[int, int]:
    size = len(json.dumps(match.game.to_position(match.state), separators=(",", ":")))
    tracemalloc.start()
    fresh: Match[Any] = Match(match.game, match.config)
    fresh.replay(match.actions, check=False)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return size, peak


def players_of(game_id: str, players: int | None) -> int:
    return players or (4 if game_id == "euphoria" else get_game(game_id).meta.players_min)


def measure_game(game_id: str, players: int, seconds: float, repeat: int, more: bool) -> Figures:
    """Every figure of one game in this process's build, each measured ``repeat`` times."""
    out: Figures = {"game": game_id, "players": players, "kernel": [], "checked": [], "trusted": []}
    matches: list[Match[Any]] = []
    for _ in range(repeat):
        out["kernel"].append(kernel_play(game_id, players, seconds))
        steps, _, elapsed, matches = random_play(game_id, players, seconds)
        out["checked"].append(steps / elapsed)
        steps, games, elapsed, _ = random_play(game_id, players, seconds, check=False)
        out["trusted"].append(steps / elapsed)
        out["steps_per_game"] = steps / games
    if more:
        out["replay"] = replay_speed(matches)
        out["replay_trusted"] = replay_speed(matches, check=False)
        out["state_kb"] = max(state_size(m)[0] for m in matches) / 1024
        out["peak_kb"] = state_size(matches[0])[1] / 1024
    return out


# -- OpenSpiel's anchors ------------------------------------------------------------------------------
ANCHORS = (("backgammon", "backgammon"), ("kuhn_poker", "kuhn poker"), ("python_kuhn_poker", "kuhn poker (py)"))


def openspiel_steps(name: str, seconds: float) -> float:
    """Steps/s of OpenSpiel's random legal play: legal actions listed at every step, chance
    outcomes sampled by their probabilities, as :func:`kernel_play` does for ours."""
    import pyspiel

    if name.startswith("python_"):
        import open_spiel.python.games  # noqa: F401  (registers the Python games)
    game = pyspiel.load_game(name)
    rng = random.Random(0)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds or games == 0:
        steps += openspiel_game(game, rng)
        games += 1
    return steps / (time.process_time() - start)


def openspiel_game(game: Any, rng: random.Random) -> int:
    """One game of :func:`openspiel_steps`' random legal play on a loaded pyspiel ``game``; its steps."""
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        steps += 1
    return steps


def measure_anchors(seconds: float, repeat: int) -> list[Figures]:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return []
    out = []
    for name, label in ANCHORS:
        try:
            runs = [openspiel_steps(name, seconds) for _ in range(repeat)]
        except Exception:  # an OpenSpiel without this game
            continue
        out.append({"game": label, "kernel": runs})
    return out


# -- the two builds ----------------------------------------------------------------------------------
def run_build(build: str, args: argparse.Namespace) -> tuple[str, list[Figures]]:
    """Measure every game in a child process running ``build``; return what it ran and its figures."""
    env = dict(os.environ)
    env.pop("LUDICA_PURE", None)
    if build == "pure":
        env["LUDICA_PURE"] = "1"
    cmd = [sys.executable, __file__, "--worker", "--seconds", str(args.seconds), "--repeat", str(args.repeat)]
    cmd += [*(["--players", str(args.players)] if args.players else []), *(["--more"] if args.more else [])]
    result = subprocess.run([*cmd, *args.games], env=env, capture_output=True, text=True, check=True)
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return lines[0]["build"], lines[1:]


def worker(args: argparse.Namespace) -> None:
    from ludica._build import build

    print(json.dumps({"build": build()}), flush=True)
    for game_id in args.games or available():
        figures = measure_game(game_id, players_of(game_id, args.players), args.seconds, args.repeat, args.more)
        print(json.dumps(figures), flush=True)


def _fig(runs: list[float]) -> str:
    best = max(runs)
    if len(runs) == 1:
        return f"{best:,.0f}"
    return f"{best:,.0f} ({min(runs) / 1000:,.0f}-{best / 1000:,.0f}k)"


def report(results: dict[str, list[Figures]], anchors: list[Figures]) -> None:
    bg = max(anchors[0]["kernel"]) if anchors else None
    head = f"{'game':<18}{'pl':>3} {'build':<9}{'kernel st/s (range)':>24}{'x bg':>6}"
    head += f"{'checked st/s (range)':>24}{'kernel/checked':>15}{'trusted st/s':>14}"
    print(head)
    for build, rows in results.items():
        for r in rows:
            kernel = max(r["kernel"])
            line = f"{r['game']:<18}{r['players']:>3} {build:<9}{_fig(r['kernel']):>24}"
            line += f"{kernel / bg:>6.2f}" if bg else f"{'':>6}"
            line += f"{_fig(r['checked']):>24}{kernel / max(r['checked']):>15.2f}{max(r['trusted']):>14,.0f}"
            print(line)
            if "replay" in r:
                print(
                    f"{'':<22}replay {r['replay']:,.0f} act/s (trusted {r['replay_trusted']:,.0f}), "
                    f"position {r['state_kb']:.1f} KB, peak {r['peak_kb']:.0f} KB, {r['steps_per_game']:.0f} steps/game"
                )
    if not anchors:
        print("(OpenSpiel is not installed: pip install -e '.[dev]' for the anchors)")
    for a in anchors:
        kernel = max(a["kernel"])
        line = f"{'OpenSpiel ' + a['game']:<30}{_fig(a['kernel']):>24}"
        print(line + (f"{kernel / bg:>6.2f}" if bg else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game ids (default: every registered game)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per figure and run (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best and the range are shown")
    parser.add_argument("--players", type=int, help="player count (default: the game's minimum; euphoria 4)")
    parser.add_argument("--build", choices=("pure", "compiled", "both"), default="both", help="which builds")
    parser.add_argument("--more", action="store_true", help="also replay speed, position size and peak memory")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    results: dict[str, list[Figures]] = {}
    for build in ("pure", "compiled") if args.build == "both" else (args.build,):
        ran, rows = run_build(build, args)
        if ran != build:
            print(f"({build} build not available here: this installation runs {ran}; bash scripts/setup builds it)")
            continue
        results[build] = rows
    report(results, measure_anchors(args.seconds, args.repeat))


if __name__ == "__main__":
    main()
