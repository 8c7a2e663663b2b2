"""A small learning baseline in numpy: REINFORCE with factored actions against Ludica's bots.

One seat (``p1``) learns through :func:`ludica.env.gym_env` with ``action="factored"``: a linear
softmax picks the action type (head 0) from the semantic observation tensor, a second linear softmax
picks the first parameter (head 1) among the values still legal, and any later parameters are drawn
uniformly among the legal ones. The return is the game's outcome (+1 win, -1 loss); a game cut at
the step cap (``--max-steps``) returns -1 by default, as a loss: stalling must never pay (``--at-cap
zero`` gives 0, ``--at-cap standing`` +1/-1 by who stands first by the rules' measure, which a
learner can exploit by stalling). A running mean of the return is the baseline; the weights move
once per batch of episodes, with a learning rate that decays as ``lr / (1 + episode / decay)``. The
observation is sparse (a few dozen of thousands of entries are non-zero), so both heads read and
update only the non-zero columns, and the update touches only the rows of legal values.

    nice python examples/train_numpy.py great-city --episodes 300 --opponents heuristic
    python examples/train_numpy.py lost-days --episodes 3 --eval 2   # a smoke run

The learner may propose at most ``--max-proposals`` trades per game (Lost Days' ``propose_trade``,
an action the rules allow at any time; the bound is the example's, the rules are unchanged): after
that the type head masks it out where another action type is legal (a bystander with nothing to
sell may only propose, and the environment asks every pending seat in turn, so there it still must). It prints the
learning curve (mean return per block of episodes), then the trained policy's win rate against
random and heuristic opponents with a 95% Wilson interval (a win is a game the rules ended with the
learner winning; a game cut at the cap is never a win, whatever ``--at-cap`` says for training) and
how many evaluation games were cut at the cap, and with ``--plot`` writes the curve as a PNG
(matplotlib, the `lab` extra; training itself needs only numpy and the `env` extra).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import numpy as np

from ludica.env import gym_env


def softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask > 0, logits, -np.inf)
    z = np.exp(z - z.max())
    return z / z.sum()


class Policy:
    """Two linear heads over the observation: action type, then the first parameter."""

    def __init__(self, obs_size: int, heads: tuple[int, ...], rng: np.random.Generator) -> None:
        self.w_type = np.zeros((heads[0], obs_size), np.float32)
        self.w_param = np.zeros((heads[1] if len(heads) > 1 else 1, obs_size), np.float32)
        self.rng = rng

    def act(
        self, env: Any, obs: np.ndarray, explore: bool = True, barred: frozenset[int] = frozenset()
    ) -> tuple[list[int], list[Any]]:
        """Pick every head in turn; return the picks and the gradient pieces of the learnt heads.
        ``barred``: action types (head 0 values) not to pick while another type is legal."""
        picks: list[int] = []
        grads: list[Any] = []
        cols = np.flatnonzero(obs)  # the sparse observation: only these columns count
        values = obs[cols]
        for h, weights in enumerate((self.w_type, self.w_param)):
            if h >= len(env.driver.catalogue.heads):
                break
            mask = env.head_mask(picks)
            if h == 0 and barred:
                mask = bar(mask, barred)
            probs = softmax(weights[:, cols] @ values, mask)
            k = int(self.rng.choice(len(probs), p=probs)) if explore else int(np.argmax(probs))
            picks.append(k)
            grads.append((weights, k, probs, cols, values))
        while len(picks) < len(env.driver.catalogue.heads):
            picks.append(int(self.rng.choice(np.flatnonzero(env.head_mask(picks)))))
        return picks, grads


def bar(mask: np.ndarray, barred: frozenset[int]) -> np.ndarray:
    """``mask`` without the ``barred`` values, unless nothing else would be left."""
    kept = mask.copy()
    kept[list(barred)] = 0
    return kept if kept.any() else mask


def proposal_types(env: Any) -> frozenset[int]:
    """The action types (head 0 values) the proposal bound counts: trade proposals."""
    return frozenset(i for i, sh in enumerate(env.driver.catalogue.shapes) if sh.type in PROPOSALS)


PROPOSALS = frozenset({"propose_trade"})
"""Action types the learner may take at most ``--max-proposals`` times a game (any-time offers)."""


def leads(env: Any) -> float:
    """At the cap: +1 when the learning seat stands strictly first by the rules' own measure
    (``Game.standing``: Lost Days' sane share, Euphoria's progress), else -1."""
    driver = env.driver
    standing = driver.game.standing(driver.match.state) or {}
    mine = standing.get(env.seat, 0.0)
    return 1.0 if all(mine > v for s, v in standing.items() if s != env.seat) else -1.0


AT_CAP = ("loss", "zero", "standing")
"""Returns of a game cut at the cap: -1 (a loss, the default), 0, or :func:`leads` (+1/-1)."""


def episode(
    env: Any,
    policy: Policy,
    seed: int,
    explore: bool = True,
    at_cap: str = "loss",
    max_proposals: int | None = None,
) -> tuple[float, list[Any]]:
    """One game; the return is the outcome, or at the cap -1 (``at_cap="loss"``), 0
    (``"zero"``) or :func:`leads` (``"standing"``). The learner proposes at most
    ``max_proposals`` trades (``None``: no bound)."""
    obs, _ = env.reset(seed=seed)
    trace: list[Any] = []
    reward, done, truncated = 0.0, False, False
    offers = proposal_types(env) if max_proposals is not None else frozenset()
    proposed = 0
    while not done:
        barred = offers if offers and proposed >= (max_proposals or 0) else frozenset()
        picks, grads = policy.act(env, obs, explore, barred)
        proposed += picks[0] in offers
        trace.extend(grads)
        obs, reward, terminated, truncated, _ = env.step(picks)
        done = terminated or truncated
    if truncated:
        reward = leads(env) if at_cap == "standing" else (0.0 if at_cap == "zero" else -1.0)
    return float(reward), trace


def update(trace: list[Any], advantage: float, lr: float) -> None:
    """REINFORCE: move each head's logits towards the pick, scaled by the advantage (only the
    legal rows, where the softmax put weight, and the observation's non-zero columns change)."""
    for weights, k, probs, cols, values in trace:
        grad = -probs
        grad[k] += 1.0
        rows = np.flatnonzero(grad)
        weights[np.ix_(rows, cols)] += (lr * advantage) * np.outer(grad[rows], values).astype(np.float32)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(
    game: str,
    policy: Policy,
    opponents: str,
    games: int,
    players: int | None,
    cap: int | None,
    max_proposals: int | None = None,
    sampled: bool = False,
) -> dict[str, Any]:
    """The greedy policy's wins by the rules (a game cut at the cap is not a win), with how many
    games were cut and in how many of those the learner stood first (:func:`leads`).
    ``sampled``: the policy as it plays in training (each head drawn from its softmax) instead."""
    env = gym_env(game, opponents=opponents, action="factored", players=players, max_steps=cap)
    wins = capped = first_at_cap = 0
    for i in range(games):
        ret, _ = episode(env, policy, 10_000 + i, explore=sampled, at_cap="standing", max_proposals=max_proposals)
        if env.driver.truncated:
            capped += 1
            first_at_cap += ret > 0
        else:
            wins += ret > 0
    lo, hi = wilson(wins, games)
    found = {"opponents": opponents, "policy": "sampled" if sampled else "greedy", "games": games, "wins": wins}
    found |= {"rate": wins / games, "ci95": [lo, hi]}
    return {**found, "cut_at_cap": capped, "first_at_cap": first_at_cap}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--decay", type=float, default=500, help="episodes until the learning rate halves")
    parser.add_argument("--batch", type=int, default=1, help="episodes per update of the weights")
    parser.add_argument("--eval", type=int, default=100, help="evaluation games per opponent kind")
    parser.add_argument("--block", type=int, default=25, help="episodes per point of the curve")
    parser.add_argument("--plot", default=None, help="write the learning curve to this PNG")
    parser.add_argument("--json", default=None, help="write the figures to this JSON file")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-steps", type=int, default=None, help="decisions before an episode is cut short")
    parser.add_argument("--minutes", type=float, default=None, help="stop training after this many minutes")
    parser.add_argument(
        "--at-cap",
        choices=AT_CAP,
        default="loss",
        help="training return of a game cut at --max-steps: -1 as a loss (default), 0, or +1/-1 for standing"
        " first by the rules' measure (exploitable by stalling); evaluation never counts a cut game as a win",
    )
    parser.add_argument(
        "--max-proposals",
        type=int,
        default=10,
        help="trade proposals the learner may make per game where another action type is legal"
        " (Lost Days' propose_trade; -1: no bound)",
    )
    parser.add_argument(
        "--eval-sampled",
        action="store_true",
        help="also evaluate the policy as it plays in training (heads drawn from their softmax), beside the greedy"
        " one: where the greedy choice of an untrained policy is already strong, this shows what was learnt",
    )
    args = parser.parse_args(argv)
    bound = None if args.max_proposals < 0 else args.max_proposals

    env = gym_env(
        args.game, opponents=args.opponents, action="factored", players=args.players, max_steps=args.max_steps
    )
    policy = Policy(env.observation_space.shape[0], env.driver.catalogue.heads, np.random.default_rng(args.seed))
    baseline, returns, cut, start = 0.0, [], [], time.time()
    batch: list[tuple[float, list[Any]]] = []
    for i in range(args.episodes):
        if args.minutes is not None and time.time() - start > 60 * args.minutes:
            break
        batch.append(episode(env, policy, args.seed * 100_000 + i, at_cap=args.at_cap, max_proposals=bound))
        returns.append(batch[-1][0])
        cut.append(env.driver.truncated)
        if len(batch) < args.batch:
            continue
        lr = args.lr / (1 + i / args.decay)
        for ret, trace in batch:  # every episode of the batch against the same baseline
            update(trace, ret - baseline, lr / max(1, len(trace)) ** 0.5)
        for ret, _ in batch:
            baseline += 0.05 * (ret - baseline)
        batch = []
    curve = [float(np.mean(returns[i : i + args.block])) for i in range(0, len(returns), args.block)]
    print(f"{args.game}: {len(returns)} episodes vs {args.opponents} in {time.time() - start:.0f} s")
    cut_curve = [float(np.mean(cut[i : i + args.block])) for i in range(0, len(cut), args.block)]
    print("mean return per block of", args.block, "episodes:", " ".join(f"{c:+.2f}" for c in curve))
    print("share of those episodes cut at the cap:", " ".join(f"{c:.2f}" for c in cut_curve))
    results = {
        "game": args.game,
        "opponents": args.opponents,
        "episodes": len(returns),
        "block": args.block,
        "at_cap": args.at_cap,
        "max_proposals": bound,
        "lr": args.lr,
        "decay": args.decay,
        "batch": args.batch,
        "max_steps": args.max_steps,
        "seconds": round(time.time() - start),
        "curve": curve,
        "cut_curve": cut_curve,
        "eval": [],
    }
    kinds = [(o, s) for o in ("random", "heuristic") for s in ((False, True) if args.eval_sampled else (False,))]
    for opponents, sampled in kinds:
        found = evaluate(args.game, policy, opponents, args.eval, args.players, args.max_steps, bound, sampled)
        results["eval"].append(found)
        lo, hi = found["ci95"]
        who = " (sampled policy)" if sampled else ""
        print(
            f"win rate{who} vs {opponents}: {found['rate']:.2f} [{lo:.2f}, {hi:.2f}] over {found['games']} games"
            f" ({found['cut_at_cap']} cut at the cap, not counted as wins;"
            f" the learner stood first in {found['first_at_cap']} of those)"
        )
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(5, 3))
        ax.plot([(i + 1) * args.block for i in range(len(curve))], curve, marker="o")
        ax.set_xlabel("episodes")
        ax.set_ylabel(f"mean return (block of {args.block})")
        ax.set_ylim(-1.05, 1.05)  # the whole range of a return: a loss is -1, a win +1
        ax.axhline(0.0, color="grey", linewidth=0.5)
        ax.set_title(f"{args.game}: REINFORCE (numpy) vs {args.opponents}")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=1)
    return results


if __name__ == "__main__":
    main()
