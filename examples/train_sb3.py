"""Train a Ludica seat with Stable-Baselines3: sb3-contrib's MaskablePPO over the action heads.

One seat (``p1``) learns through :func:`ludica.env.gym_env` in its default action form,
``action="heads"``: each environment step picks one head of the decision (the action type, then
each parameter) from ``Discrete(width)`` with the legal values of that head given the earlier picks
as the mask (``env.action_masks()``, at most 512 entries), and the observation is the seat's
semantic tensor followed by the picks so far. That is exactly the input of MaskablePPO's masked
categorical policy, so no combination it picks is illegal. Ludica bots play every other seat.

The return is the game's outcome (+1 win, -1 loss, 0 for a game cut at the step cap). The
learning curve is the mean training return per block of episodes; at the end the trained policy
(greedy, ``deterministic=True``) and the same network before training play ``--eval`` games
against random and against heuristic opponents, and the win rates are printed with 95% Wilson
intervals and the interval of their difference (Newcombe's method).

``--shape-stars C`` (Euphoria) adds ``C`` to the reward for each authority star the learner
places, on top of the outcome; the evaluation then also prints the mean stars the greedy policy
placed per game, trained and untrained, with 95% intervals and the interval of their difference.
The reported figure stays the win rate.

    nice python examples/train_sb3.py great-city --minutes 10 --plot docs/env/sb3_great-city.png
    nice python examples/train_sb3.py euphoria --players 2 --shape-stars 1.0 --minutes 17 --eval-opponents heuristic
    python examples/train_sb3.py euphoria --steps 256 --eval 2       # a smoke run

Needs the ``learn`` extra (``pip install 'ludica[env,learn]'``: torch, stable-baselines3,
sb3-contrib) and matplotlib (the ``lab`` extra) for ``--plot``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from ludica.env import gym_env


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of ``wins`` out of ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(a: tuple[int, int], b: tuple[int, int]) -> tuple[float, float]:
    """The 95% interval of the difference of two rates ``a - b`` (``(wins, games)`` each), from
    their Wilson intervals (Newcombe's hybrid score method)."""
    pa, pb = a[0] / a[1], b[0] / b[1]
    (la, ua), (lb, ub) = wilson(*a), wilson(*b)
    d = pa - pb
    return d - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2), d + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2)


def stars_placed(view: dict[str, Any], seat: str) -> int | None:
    """The authority stars ``seat`` has placed, read from its Euphoria view (``None`` in a game
    whose view has no stars)."""
    me = view.get("players", {}).get(seat)
    if not isinstance(me, dict) or "stars_left" not in me:
        return None
    return STARS - int(me["stars_left"])


STARS = 10
"""Euphoria's authority stars per player: placing them all wins."""


class Lean(gym.Wrapper):  # type: ignore[misc]
    """The environment without the seat's JSON view in its infos: the policy reads the tensor, and
    Stable-Baselines3's vector deep-copies every info at every step (half the step's time in The
    Great City, whose view is large).

    ``stars`` > 0 shapes the reward (Euphoria): each authority star the learner places adds
    ``stars`` to the step's reward, on top of the game's outcome at the end."""

    def __init__(self, env: gym.Env, stars: float = 0.0) -> None:
        super().__init__(env)
        self.stars = stars
        self.placed = 0
        self.final = 0
        """The stars placed in the last finished episode (the vector resets an episode at its end)."""

    def _placed(self, info: dict[str, Any]) -> int:
        view = info.pop("view", None)
        if not self.stars or view is None:
            return 0
        placed = stars_placed(view, self.env.unwrapped.seat)
        if placed is None:
            raise ValueError("--shape-stars needs a game whose view counts stars (Euphoria)")
        return placed

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self.placed = self._placed(info)
        return obs, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        placed = self._placed(info)
        if placed > self.placed:
            reward += self.stars * (placed - self.placed)
        self.placed = placed
        if terminated or truncated:
            self.final = placed
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()


class Curve(BaseCallback):  # type: ignore[misc]
    """Records every finished training episode's return; stops after ``minutes`` of wall time."""

    def __init__(self, minutes: float | None) -> None:
        super().__init__()
        self.returns: list[float] = []
        self.stars: list[int] = []
        self.at: list[int] = []
        self.deadline = None if minutes is None else time.time() + 60 * minutes
        self._sum = 0.0

    def _on_step(self) -> bool:
        self._sum += float(self.locals["rewards"][0])
        if self.locals["dones"][0]:
            self.returns.append(self._sum)
            self.stars.append(int(self.training_env.get_attr("final")[0]))
            self.at.append(self.num_timesteps)
            self._sum = 0.0
        return self.deadline is None or time.time() < self.deadline


def play(
    model: Any, game: str, opponents: str, games: int, players: int | None, cap: int | None, greedy: bool = True
) -> tuple[int, list[int]]:
    """Games won by the greedy (or sampled) policy of ``model`` (a game cut at the cap is not a
    win), and the stars it placed in each game (Euphoria; empty in a game without stars)."""
    env = gym_env(game, opponents=opponents, players=players, max_steps=cap)
    wins, stars = 0, []
    for i in range(games):
        obs, info = env.reset(seed=10_000 + i)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=greedy)
            obs, reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        wins += env.driver.over and reward > 0
        placed = stars_placed(info.get("view", {}), env.seat)
        if placed is not None:
            stars.append(placed)
    return wins, stars


def mean_interval(values: list[int]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (normal approximation)."""
    n = len(values)
    mean = float(np.mean(values)) if n else 0.0
    half = 1.96 * float(np.std(values, ddof=1)) / math.sqrt(n) if n > 1 else 0.0
    return mean, mean - half, mean + half


def difference_interval(a: list[int], b: list[int]) -> tuple[float, float]:
    """The 95% interval of ``mean(a) - mean(b)`` (Welch's normal approximation)."""
    if len(a) < 2 or len(b) < 2:
        return 0.0, 0.0
    d = float(np.mean(a) - np.mean(b))
    half = 1.96 * math.sqrt(float(np.var(a, ddof=1)) / len(a) + float(np.var(b, ddof=1)) / len(b))
    return d - half, d + half


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--opponents", default="heuristic", help="the bots the learner trains against")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--steps", type=int, default=1_000_000, help="environment steps (heads) at most")
    parser.add_argument("--minutes", type=float, default=None, help="stop training after this many minutes")
    parser.add_argument("--max-steps", type=int, default=None, help="decisions before a game is cut short")
    parser.add_argument("--n-steps", type=int, default=1024, help="steps per PPO rollout")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--eval", type=int, default=100, help="evaluation games per opponent kind")
    parser.add_argument(
        "--eval-policy", default="greedy", choices=("greedy", "sampled", "both"), help="how the evaluation plays"
    )
    parser.add_argument("--eval-opponents", default="random,heuristic", help="the opponent kinds of the evaluation")
    parser.add_argument(
        "--shape-stars", type=float, default=0.0, help="Euphoria: reward per authority star the learner places"
    )
    parser.add_argument("--block", type=int, default=50, help="episodes per point of the curve")
    parser.add_argument("--plot", default=None, help="write the learning curve to this PNG")
    parser.add_argument("--json", default=None, help="write the figures to this JSON file")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # small networks: one thread is as fast, and leaves the other cores alone

    env = Lean(
        gym_env(args.game, opponents=args.opponents, players=args.players, max_steps=args.max_steps, seed=args.seed),
        stars=args.shape_stars,
    )
    kwargs: dict[str, Any] = {"n_steps": args.n_steps, "batch_size": min(256, args.n_steps), "n_epochs": 4}
    kwargs |= {"learning_rate": args.lr, "gamma": args.gamma, "ent_coef": 0.01, "seed": args.seed, "verbose": 0}
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [64, 64]}, **kwargs)
    untrained = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [64, 64]}, **kwargs)
    untrained.policy.load_state_dict(model.policy.state_dict())  # the same network before any update
    curve = Curve(args.minutes)
    start = time.time()
    model.learn(total_timesteps=args.steps, callback=curve)
    seconds = time.time() - start
    returns = curve.returns
    points = [
        (curve.at[min(i + args.block, len(returns)) - 1], float(np.mean(returns[i : i + args.block])))
        for i in range(0, len(returns), args.block)
    ]
    print(f"{args.game}: {model.num_timesteps} steps, {len(returns)} episodes vs {args.opponents} in {seconds:.0f} s")
    print(f"mean return per block of {args.block} episodes:", " ".join(f"{r:+.2f}" for _, r in points))
    stars = [float(np.mean(curve.stars[i : i + args.block])) for i in range(0, len(returns), args.block)]
    if args.shape_stars:
        print(f"mean stars placed per block of {args.block} episodes:", " ".join(f"{r:.2f}" for r in stars))
    results: dict[str, Any] = {
        "game": args.game,
        "opponents": args.opponents,
        "players": len(env.unwrapped.driver.config.players),
        "steps": model.num_timesteps,
        "episodes": len(returns),
        "seconds": round(seconds),
        "block": args.block,
        "shape_stars": args.shape_stars,
        "curve": points,
        "curve_stars": stars if args.shape_stars else [],
        "eval": [],
    }
    policies = ("greedy", "sampled") if args.eval_policy == "both" else (args.eval_policy,)
    for policy, opponents in ((p, o) for p in policies for o in args.eval_opponents.split(",")):
        n, greedy = args.eval, policy == "greedy"
        before, stars_before = play(untrained, args.game, opponents, n, args.players, args.max_steps, greedy)
        after, stars_after = play(model, args.game, opponents, n, args.players, args.max_steps, greedy)
        lo, hi = newcombe((after, n), (before, n)) if n else (0.0, 0.0)
        row = {"policy": policy, "opponents": opponents, "games": n, "untrained": before, "trained": after}
        row |= {"untrained_ci95": wilson(before, n), "trained_ci95": wilson(after, n), "difference_ci95": [lo, hi]}
        print(
            f"{policy} vs {opponents}: trained {after}/{n} = {after / max(n, 1):.2f} [{row['trained_ci95'][0]:.2f},"
            f" {row['trained_ci95'][1]:.2f}], untrained {before}/{n} = {before / max(n, 1):.2f}"
            f" [{row['untrained_ci95'][0]:.2f}, {row['untrained_ci95'][1]:.2f}], difference [{lo:+.2f}, {hi:+.2f}]"
        )
        if stars_after:
            row |= {"stars_untrained": mean_interval(stars_before), "stars_trained": mean_interval(stars_after)}
            row["stars_difference_ci95"] = difference_interval(stars_after, stars_before)
            (bm, bl, bh), (am, al, ah) = row["stars_untrained"], row["stars_trained"]
            dl, dh = row["stars_difference_ci95"]
            print(
                f"{policy} vs {opponents}: stars placed, trained {am:.2f} [{al:.2f}, {ah:.2f}],"
                f" untrained {bm:.2f} [{bl:.2f}, {bh:.2f}], difference [{dl:+.2f}, {dh:+.2f}]"
            )
        results["eval"].append(row)
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(5, 3))
        ax.plot([s for s, _ in points], [r for _, r in points], marker="o")
        ax.set_xlabel("environment steps (heads)")
        ax.set_ylabel(f"mean return (block of {args.block})")
        if not args.shape_stars:
            ax.set_ylim(-1.05, 1.05)  # a loss is -1, a win +1
        ax.axhline(0.0, color="grey", linewidth=0.5)
        if args.shape_stars:
            ax.set_ylabel(f"mean shaped return (block of {args.block})")
            right = ax.twinx()
            right.plot([s for s, _ in points], stars, color="tab:orange", linestyle="--", marker=".")
            right.set_ylabel("stars placed (dashed)")
            right.set_ylim(0, STARS)
        ax.set_title(f"{args.game}: MaskablePPO vs {args.opponents}")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=1)
    return results


if __name__ == "__main__":
    main()
