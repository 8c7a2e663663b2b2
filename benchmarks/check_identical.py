"""Seeded games of every bot, written as JSON lines, to compare two checkouts byte for byte.

A speed change must not change a single decision or rule: run this script in both checkouts
(``PYTHONPATH=<checkout>``, compiled or ``LUDICA_PURE=1``) and compare the outputs with ``cmp``.
Each line is one game: the game, the bots, the seed, the record (every action's JSON), the
narrations and the digest of the final position.

    PYTHONPATH=/work/main python benchmarks/check_identical.py --out old.jsonl
    PYTHONPATH=$PWD      python benchmarks/check_identical.py --out new.jsonl
    cmp old.jsonl new.jsonl

Modes: all-heuristic and all-random games (``--games`` seeds each, played to the end), and
ISMCTS at one seat with a fixed playout count (no clock: the same seed gives the same search)
against the heuristic, cut after ``--ismcts-steps`` steps.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from ludica import _build
from ludica.bots.base import Bot, make_bot
from ludica.bots.play import play_match
from ludica.core import Match, get_game
from ludica.core.match import canonical_json
from ludica.lab.playthrough import default_config

PLAYERS = {"euphoria": 4, "great-city": 4, "euthymia": 3, "misery-bubblegum": 3, "lost-days": 3}


def one_game(game_id: str, players: int, seed: int, specs: list[str], max_steps: int | None) -> dict[str, Any]:
    game = get_game(game_id)
    match: Match[Any] = Match(game, default_config(game_id, players, seed))
    seats = game.seats(match.state)
    bots: dict[str, Bot] = {}
    for i, seat in enumerate(seats):
        spec = specs[i] if i < len(specs) else "heuristic"  # a referee seat plays heuristic
        bots[seat] = make_bot(spec, game_id, seed * 100 + i)
    steps = play_match(match, bots, random.Random(seed), max_steps=max_steps, check=True)
    return {
        "game": game_id,
        "bots": specs,
        "seed": seed,
        "steps": steps,
        "record": [a.to_json() for a in match.actions],
        "narration": [a.narration for a in match.actions],
        "digest": match.digest(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=list(PLAYERS))
    parser.add_argument("--games-per-mode", "--games", type=int, default=30, dest="n")
    parser.add_argument("--ismcts-games", type=int, default=2)
    parser.add_argument("--ismcts-steps", type=int, default=60)
    parser.add_argument("--ismcts", default="ismcts:playouts=20,horizon=20")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    print(f"build: {_build.describe()} ({_build.__file__})", file=sys.stderr)
    with open(args.out, "w", encoding="utf-8") as out:
        for game_id in args.games:
            players = PLAYERS[game_id]
            runs: list[tuple[list[str], int, int | None]] = []
            for mode in ("heuristic", "random"):
                runs += [([mode] * players, seed, None) for seed in range(args.n)]
            ismcts = [args.ismcts] + ["heuristic"] * (players - 1)
            runs += [(ismcts, seed, args.ismcts_steps) for seed in range(args.ismcts_games)]
            for specs, seed, max_steps in runs:
                out.write(canonical_json(one_game(game_id, players, seed, specs, max_steps)) + "\n")
            print(f"{game_id}: {len(runs)} games", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
