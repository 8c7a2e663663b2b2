"""A digest of what the environments hand out along seeded random play, to compare two checkouts.

For each game, seeded games through the PettingZoo AEC environment with a random legal index at
each decision: every agent's observation and action mask at every step, the rewards,
terminations, truncations and infos (the view, as JSON), and the acting seat's legal actions as
the catalogue indexes them (index, template, values chosen). One SHA-256 per game is printed;
run it with the old code and the new (same ``PYTHONHASHSEED``) and compare the lines.

    PYTHONHASHSEED=0 python benchmarks/env_digest.py [GAME ...] [--seeds N] [--steps N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

import numpy as np

from ludica.core.registry import GAME_MODULES
from ludica.env import aec_env


def _feed(digest: Any, value: Any) -> None:
    digest.update(json.dumps(value, sort_keys=True, default=repr).encode())


def play(game: str, seed: int, steps: int, digest: Any) -> None:
    """One seeded game (at most ``steps`` decisions) fed into ``digest``."""
    rng = random.Random(seed)
    env = aec_env(game, seed=seed, action="flat")
    env.reset(seed=seed)
    for _ in range(steps):
        agent = env.agent_selection
        for a in env.agents:
            got = env.observe(a)
            digest.update(got["observation"].tobytes())
            digest.update(got["action_mask"].tobytes())
        # the infos without legal_moves (the mask's ones, checked below), so that the digest of a
        # checkout from before it compares
        infos = {a: {k: v for k, v in info.items() if k != "legal_moves"} for a, info in env.infos.items()}
        _feed(digest, [agent, env.rewards, env.terminations, env.truncations, infos])
        if env.terminations[agent] or env.truncations[agent]:
            break
        legal = env.driver.legal(agent)
        _feed(digest, [[i, repr(t), chosen] for i, (t, chosen) in legal.templates.items()])
        indices = np.flatnonzero(env.observe(agent)["action_mask"])
        listed = env.infos[agent].get("legal_moves")
        if listed is not None and listed != indices.tolist():
            raise SystemExit(f"{game} seed {seed}: legal_moves {listed} is not the mask's {indices.tolist()}")
        env.step(int(indices[rng.randrange(len(indices))]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game ids (default: all five)")
    parser.add_argument("--seeds", type=int, default=3, help="games per game id (default 3)")
    parser.add_argument("--steps", type=int, default=400, help="decisions per game at most (default 400)")
    args = parser.parse_args(argv)
    for game in args.games or list(GAME_MODULES):
        digest = hashlib.sha256()
        for seed in range(args.seeds):
            play(game, seed, args.steps, digest)
        print(game, digest.hexdigest())


if __name__ == "__main__":
    main()
