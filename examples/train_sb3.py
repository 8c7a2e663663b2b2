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
intervals and the interval of their difference from the untrained network (Newcombe's method).

``--shape-stars C`` (Euphoria) adds ``C`` to the reward for each authority star the learner
places, on top of the outcome; the evaluation then also prints the mean stars the greedy policy
placed per game, trained and untrained, with 95% intervals and the interval of their difference.
The reported figure stays the win rate.

``--imitate GAMES`` starts from Ludica's heuristic bot (behaviour cloning): the bot plays the
learner's seat for ``GAMES`` games through the same environment, every head it is asked is kept
(the observation, the head's mask, the pick that leads to its action:
:meth:`~ludica.env.encoding.Catalogue.index_of` then ``factor``), and the policy is fitted to the
picks by masked cross-entropy, its value head to the discounted return, before PPO fine-tunes it
(``--steps 0``: no fine-tuning). The evaluation then also plays the cloned network, and with
``--eval-teacher`` the heuristic itself in the seat.

    nice python examples/train_sb3.py great-city --minutes 10 --plot docs/env/sb3_great-city.png
    nice python examples/train_sb3.py euphoria --players 2 --imitate 800 --net 256,256 --minutes 8 --lr 1e-4
    python examples/train_sb3.py euphoria --steps 256 --eval 2       # a smoke run

Needs the ``learn`` extra (``pip install 'ludica[env,learn]'``: torch, stable-baselines3,
sb3-contrib) and matplotlib (the ``lab`` extra) for ``--plot``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from ludica.bots.base import make_bot, situation
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
        self.inner: Any = env.unwrapped
        """The Ludica environment inside (its driver, its seat)."""
        self.stars = stars
        self.placed = 0
        self.final = 0
        """The stars placed in the last finished episode (the vector resets an episode at its end)."""

    def _placed(self, info: dict[str, Any]) -> int:
        view = info.pop("view", None)
        if not self.stars or view is None:
            return 0
        placed = stars_placed(view, self.inner.seat)
        if placed is None:
            raise ValueError("--shape-stars needs a game whose view counts stars (Euphoria)")
        return placed

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self.placed = self._placed(info)
        return obs, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, outcome, terminated, truncated, info = self.env.step(action)
        reward = float(outcome)
        placed = self._placed(info)
        if placed > self.placed:
            reward += self.stars * (placed - self.placed)
        self.placed = placed
        if terminated or truncated:
            self.final = placed
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        mask: np.ndarray = self.inner.action_masks()
        return mask


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


Act = Callable[[Any, np.ndarray, dict[str, Any]], int]
"""A player of the learner's seat: the environment, its observation and info -> the head's pick."""


def policy_act(model: Any, greedy: bool = True) -> Act:
    """The greedy (or sampled) policy of ``model``."""

    def act(env: Any, obs: np.ndarray, info: dict[str, Any]) -> int:
        action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=greedy)
        return int(action)

    return act


def heuristic_act(game: str, seed: int) -> Act:
    """Ludica's heuristic bot, head by head (the teacher of ``--imitate``)."""
    bot = make_bot("heuristic", game, seed)
    target: list[tuple[int, ...]] = [()]

    def act(env: Any, obs: np.ndarray, info: dict[str, Any]) -> int:
        if info["asked"] == 0:  # a new decision
            target[0] = heuristic_picks(env, bot)
        return target[0][info["head"]]

    return act


def play(
    act: Act, game: str, opponents: str, games: int, players: int | None, cap: int | None
) -> tuple[int, list[int]]:
    """Games won by ``act`` in the learner's seat (a game cut at the cap is not a win), and the
    stars it placed in each game (Euphoria; empty in a game without stars)."""
    env = gym_env(game, opponents=opponents, players=players, max_steps=cap)
    wins, stars = 0, []
    for i in range(games):
        obs, info = env.reset(seed=10_000 + i)
        done, reward = False, 0.0
        while not done:
            obs, reward, terminated, truncated, info = env.step(act(env, obs, info))
            done = terminated or truncated
        wins += env.driver.over and reward > 0
        placed = stars_placed(info.get("view", {}), env.seat)
        if placed is not None:
            stars.append(placed)
    return wins, stars


IMITATION_SEED = 1_000_000
"""The games the heuristic plays for ``--imitate`` are seeded from here (the evaluation's from 10 000)."""


class Demos:
    """What the heuristic bot did in the learner's seat, one row per head the learner is asked:
    the observation the policy sees (kept sparse: a few dozen of its thousands of entries are not
    0), the head's mask, the head's pick that leads to the bot's action, and the return from that
    step on (the training reward, discounted), the value head's target."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.obs: list[tuple[np.ndarray, np.ndarray]] = []
        self.masks: list[np.ndarray] = []
        self.picks: list[int] = []
        self.returns: list[float] = []
        self.games = 0
        self.wins = 0

    def add(self, obs: np.ndarray, mask: np.ndarray, pick: int) -> None:
        at = np.flatnonzero(obs)
        self.obs.append((at.astype(np.int32), obs[at].astype(np.float32)))
        self.masks.append(np.asarray(mask, dtype=bool))
        self.picks.append(pick)

    def batch(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Observations, masks, picks and returns of ``rows``, as dense arrays."""
        obs = np.zeros((len(rows), self.size), dtype=np.float32)
        for k, r in enumerate(rows):
            at, values = self.obs[r]
            obs[k, at] = values
        masks = np.stack([self.masks[r] for r in rows])
        picks = np.array([self.picks[r] for r in rows], dtype=np.int64)
        return obs, masks, picks, np.array([self.returns[r] for r in rows], dtype=np.float32)


def heuristic_picks(env: Any, bot: Any) -> tuple[int, ...]:
    """The head picks of ``bot``'s decision in the learner's seat of ``env`` (the unwrapped
    :class:`~ludica.env.gym.LudicaGym`): its action's catalogue index, factored."""
    driver = env.driver
    decision = bot.decide(situation(driver.match, env.seat))
    index = driver.catalogue.index_of(driver.legal(env.seat), decision.action)
    if index is None:
        raise ValueError(f"the heuristic's action {decision.action} has no index in the catalogue")
    return tuple(driver.catalogue.factor(index))


def imitate(env: Lean, games: int, gamma: float) -> Demos:
    """``games`` games where Ludica's heuristic bot plays the learner's seat, head by head
    through ``env`` (so the observations and masks are the policy's own), recorded as
    :class:`Demos`."""
    inner = env.inner
    demos = Demos(inner.observation_space.shape[0])
    for g in range(games):
        obs, info = env.reset(seed=IMITATION_SEED + g)
        act = heuristic_act(inner.driver.game.meta.id, IMITATION_SEED + g)
        rewards: list[float] = []
        done = False
        while not done:
            pick = act(inner, obs, info)
            demos.add(obs, info["action_mask"], pick)
            obs, reward, terminated, truncated, info = env.step(pick)
            rewards.append(float(reward))
            done = terminated or truncated
        to_go, back = 0.0, []
        for r in reversed(rewards):
            to_go = r + gamma * to_go
            back.append(to_go)
        demos.returns += back[::-1]
        demos.games += 1
        demos.wins += inner.driver.over and inner.driver.rewards()[inner.seat] > 0  # the outcome, unshaped
    return demos


def clone(model: Any, demos: Demos, epochs: int, lr: float, seed: int, batch: int = 256) -> list[dict[str, float]]:
    """Behaviour cloning: fit ``model``'s policy to the heuristic's picks (masked cross-entropy:
    the log-probability of the pick under the masked policy) and its value head to the returns
    (squared error), with Adam at ``lr``, for ``epochs`` passes over nine tenths of ``demos``; per
    epoch, the mean loss and how often the greedy policy picks as the heuristic did on the tenth
    held out (the curve of the imitation)."""
    policy = model.policy
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(demos.picks))
    held, train = order[: len(order) // 10], order[len(order) // 10 :]
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    curve = []
    for epoch in range(epochs):
        policy.set_training_mode(True)
        losses = []
        for start in range(0, len(train), batch):
            obs, masks, picks, returns = demos.batch(train[rng.permutation(len(train))[start : start + batch]])
            values, log_prob, _ = policy.evaluate_actions(
                torch.as_tensor(obs), torch.as_tensor(picks), action_masks=masks
            )
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(values.flatten(), torch.as_tensor(returns))
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            losses.append(loss.item())
        curve.append(
            {"epoch": epoch + 1, "loss": float(np.mean(losses)), "held_out_agreement": agreement(model, demos, held)}
        )
    policy.set_training_mode(False)
    return curve


def agreement(model: Any, demos: Demos, rows: np.ndarray, batch: int = 1024) -> float:
    """How often the greedy policy of ``model`` picks what the heuristic picked, over ``rows``."""
    same = 0
    model.policy.set_training_mode(False)
    for start in range(0, len(rows), batch):
        obs, masks, picks, _ = demos.batch(rows[start : start + batch])
        with torch.no_grad():
            dist = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks)
            same += int((dist.get_actions(deterministic=True).numpy() == picks).sum())
    return same / max(len(rows), 1)


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


def evaluate(args: argparse.Namespace, players: dict[str, Act], opponents: str) -> dict[str, Any]:
    """Every player of ``players`` (the first is the untrained policy) over the same ``--eval``
    seeded games against ``opponents``: wins with Wilson intervals, each one's difference from the
    first (Newcombe), and the stars placed (Euphoria), printed and returned."""
    n = args.eval
    row: dict[str, Any] = {"opponents": opponents, "games": n}
    base: tuple[int, list[int]] | None = None
    for name, act in players.items():
        wins, stars = play(act, args.game, opponents, n, args.players, args.max_steps)
        row[name], row[f"{name}_ci95"] = wins, wilson(wins, n)
        lo_w, hi_w = row[f"{name}_ci95"]
        line = f"{opponents}: {name} {wins}/{n} = {wins / max(n, 1):.2f} [{lo_w:.2f}, {hi_w:.2f}]"
        if stars:
            row[f"stars_{name}"] = mean_interval(stars)
            line += " stars {:.2f} [{:.2f}, {:.2f}]".format(*row[f"stars_{name}"])
        if base is None:
            base = wins, stars
        else:
            lo, hi = newcombe((wins, n), (base[0], n)) if n else (0.0, 0.0)
            row[f"{name}_difference_ci95"] = [lo, hi]
            line += f", difference from untrained [{lo:+.2f}, {hi:+.2f}]"
            if stars:
                row[f"stars_{name}_difference_ci95"] = difference_interval(stars, base[1])
                line += " stars [{:+.2f}, {:+.2f}]".format(*row[f"stars_{name}_difference_ci95"])
        print(line)
    if "trained" in row:  # the names the rows had before the imitation, kept for readers of the JSON
        row["difference_ci95"] = row["trained_difference_ci95"]
    return row


def plot(
    path: str,
    args: argparse.Namespace,
    points: list[tuple[int, float]],
    stars: list[float],
    imitation: list[dict[str, float]],
) -> None:
    """The learning curves as a PNG: the imitation's held-out agreement per epoch (with
    ``--imitate``), then PPO's mean training return per block of episodes (and stars placed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = int(bool(imitation)) + int(bool(points) or not imitation)
    fig, axes = plt.subplots(1, panels, figsize=(5 * panels, 3), squeeze=False)
    if imitation:
        ax = axes[0][0]
        ax.plot([e["epoch"] for e in imitation], [e["held_out_agreement"] for e in imitation], marker="o")
        ax.set_xlabel("epoch of behaviour cloning")
        ax.set_ylabel("picks as the heuristic (held out)")
        ax.set_ylim(0, 1)
        ax.set_title(f"{args.game}: cloning the heuristic ({args.imitate} games)")
    if panels == int(bool(imitation)):
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        return
    ax = axes[0][-1]
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
    ax.set_title(f"{args.game}: MaskablePPO vs {args.opponents}" + (" after cloning" if imitation else ""))
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--opponents", default="heuristic", help="the bots the learner trains against")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--steps", type=int, default=1_000_000, help="environment steps (heads) at most; 0: no PPO")
    parser.add_argument("--minutes", type=float, default=None, help="stop training after this many minutes")
    parser.add_argument("--max-steps", type=int, default=None, help="decisions before a game is cut short")
    parser.add_argument("--n-steps", type=int, default=1024, help="steps per PPO rollout")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--net", default="64,64", help="the policy's (and the value's) hidden layers")
    parser.add_argument(
        "--imitate", type=int, default=0, help="first clone the heuristic bot from this many of its games in the seat"
    )
    parser.add_argument("--imitate-epochs", type=int, default=10, help="passes of behaviour cloning over them")
    parser.add_argument("--imitate-lr", type=float, default=1e-3, help="the learning rate of behaviour cloning")
    parser.add_argument("--eval", type=int, default=100, help="evaluation games per opponent kind")
    parser.add_argument(
        "--eval-policy", default="greedy", choices=("greedy", "sampled"), help="how the evaluation plays"
    )
    parser.add_argument("--eval-opponents", default="random,heuristic", help="the opponent kinds of the evaluation")
    parser.add_argument(
        "--eval-teacher", action="store_true", help="also evaluate the heuristic bot itself in the learner's seat"
    )
    parser.add_argument(
        "--shape-stars", type=float, default=0.0, help="Euphoria: reward per authority star the learner places"
    )
    parser.add_argument("--block", type=int, default=50, help="episodes per point of the curve")
    parser.add_argument("--plot", default=None, help="write the learning curves to this PNG")
    parser.add_argument("--json", default=None, help="write the figures to this JSON file")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    torch.set_num_threads(1)  # small networks: one thread is as fast, and leaves the other cores alone

    def make_env() -> Lean:
        inner = gym_env(
            args.game, opponents=args.opponents, players=args.players, max_steps=args.max_steps, seed=args.seed
        )
        return Lean(inner, stars=args.shape_stars)

    env = make_env()
    kwargs: dict[str, Any] = {"n_steps": args.n_steps, "batch_size": min(256, args.n_steps), "n_epochs": 4}
    kwargs |= {"learning_rate": args.lr, "gamma": args.gamma, "ent_coef": 0.01, "seed": args.seed, "verbose": 0}
    kwargs["policy_kwargs"] = {"net_arch": [int(width) for width in args.net.split(",")]}
    model = MaskablePPO("MlpPolicy", env, **kwargs)
    untrained = MaskablePPO("MlpPolicy", env, **kwargs)
    untrained.policy.load_state_dict(model.policy.state_dict())  # the same network before any update
    results: dict[str, Any] = {"game": args.game, "opponents": args.opponents}
    results["players"] = len(env.inner.driver.config.players)
    greedy = args.eval_policy == "greedy"
    players = {"untrained": policy_act(untrained, greedy)}
    imitation: list[dict[str, float]] = []
    if args.imitate:
        start = time.time()
        demos = imitate(make_env(), args.imitate, args.gamma)
        imitation = clone(model, demos, args.imitate_epochs, args.imitate_lr, args.seed)
        seconds = time.time() - start
        print(
            f"{args.game}: cloned the heuristic from {demos.games} games ({len(demos.picks)} heads, it won"
            f" {demos.wins}) in {seconds:.0f} s; held-out agreement per epoch:",
            " ".join(f"{e['held_out_agreement']:.3f}" for e in imitation),
        )
        results["imitation"] = {"games": demos.games, "heads": len(demos.picks), "teacher_wins": demos.wins}
        results["imitation"] |= {"epochs": args.imitate_epochs, "lr": args.imitate_lr, "seconds": round(seconds)}
        results["imitation"]["curve"] = imitation
        cloned = MaskablePPO("MlpPolicy", env, **kwargs)
        cloned.policy.load_state_dict(model.policy.state_dict())
        players["cloned"] = policy_act(cloned, greedy)
    curve = Curve(args.minutes)
    start = time.time()
    if args.steps and args.minutes != 0:
        model.learn(total_timesteps=args.steps, callback=curve)
        players["trained"] = policy_act(model, greedy)
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
    results |= {"steps": model.num_timesteps, "episodes": len(returns), "seconds": round(seconds)}
    results |= {"block": args.block, "shape_stars": args.shape_stars, "net": args.net, "curve": points}
    results |= {"curve_stars": stars if args.shape_stars else [], "policy": args.eval_policy, "eval": []}
    if args.eval_teacher:
        players["heuristic"] = heuristic_act(args.game, 10_000)
    for opponents in args.eval_opponents.split(","):
        results["eval"].append(evaluate(args, players, opponents))
    if args.plot:
        plot(args.plot, args, points, stars, imitation)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=1)
    return results


if __name__ == "__main__":
    main()
