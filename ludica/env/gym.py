"""Gymnasium: one seat of a Ludica game learns, Ludica bots play every other seat.

The observation is the seat's float32 vector (:mod:`ludica.env.encoding`); ``info["action_mask"]``
(and :meth:`LudicaGym.action_masks`, the convention of masked policy-gradient libraries) says which
indices are legal, ``info["legal_moves"]`` lists them (sorted), ``info["view"]`` is the seat's
JSON view. An index that is not legal ends the
episode with ``illegal_reward`` (so unmasked samplers such as ``check_env`` can run).

Action forms (``action=``, as in :mod:`ludica.env.aec`): ``"heads"`` (the default) picks the action
type, then each parameter, one step each, from a mask of at most a few hundred entries given the
earlier picks (:mod:`ludica.env.heads`; a step that does not finish the decision returns reward 0
and the opponents do not move); ``"flat"`` one index of the whole catalogue per decision;
``"factored"`` a ``MultiDiscrete`` of every head at once.
"""

from __future__ import annotations

import contextlib
import marshal
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots.base import Bot, make_bot
from .driver import Driver
from .encoding import OBS_BOUND, EncodingError, TextFiller, default_text
from .heads import Choice, Heads

ACTIONS = ("heads", "flat", "factored")
"""The action forms (the first is the default)."""


def _seed_int(seed: int | str) -> int:
    return seed if isinstance(seed, int) else int.from_bytes(str(seed).encode()[:8].ljust(8, b"\0"), "big")


class LudicaGym(gym.Env):  # type: ignore[misc]
    """A single-agent view of a Ludica game: ``seat`` learns, ``opponents`` are Ludica bots."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"]}  # noqa: RUF012  (Gymnasium declares it so)

    def __init__(
        self,
        game: str,
        seat: str = "p1",
        opponents: str | Mapping[str, str] = "heuristic",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | str = 0,
        reward: str = "outcome",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        render_mode: str | None = None,
        text: TextFiller = default_text,
        action: str = "heads",
    ) -> None:
        if action not in ACTIONS:
            raise ValueError(f"action must be one of {', '.join(ACTIONS)}, not {action!r}")
        self.action_mode = action
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.driver = Driver(game, players, options, reward=reward, text=text, max_steps=max_steps, seed=seed)
        if seat not in self.driver.seats:
            raise ValueError(f"no seat {seat!r} in {self.driver.game.meta.title}; the seats are {self.driver.seats}")
        self.seat = seat
        self.specs = self._specs(opponents)
        self._bot_seed = _seed_int(seed)
        self._first_seed: int | None = self._bot_seed
        self.bots = self._make_bots(self._bot_seed)  # raises a clear error for an unknown bot now
        self.illegal_reward = float(illegal_reward)
        self._ended = False
        self.render_mode = render_mode
        self.heads = Heads(self.driver.catalogue)
        self._choice: Choice | None = None
        """The decision being composed head by head (``action="heads"``)."""
        size = self.driver.observer.size + (self.heads.prefix_size if action == "heads" else 0)
        self.observation_space = spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32)
        if action == "factored":
            self.action_space = spaces.MultiDiscrete(np.array(self.driver.catalogue.heads, dtype=np.int64))
        elif action == "heads":
            self.action_space = spaces.Discrete(self.heads.width)
        else:
            self.action_space = spaces.Discrete(self.driver.catalogue.size)

    def _specs(self, opponents: str | Mapping[str, str]) -> dict[str, str]:
        others = [s for s in self.driver.seats if s != self.seat]
        if isinstance(opponents, str):
            return dict.fromkeys(others, opponents)
        missing = [s for s in others if s not in opponents]
        if missing:
            raise ValueError(f"opponents names no bot for seat(s) {', '.join(missing)}")
        return {s: opponents[s] for s in others}

    def _make_bots(self, seed: int) -> dict[str, Bot]:
        game_id = self.driver.game.meta.id
        bots = {}
        for i, (seat, spec) in enumerate(self.specs.items()):
            try:
                bots[seat] = make_bot(spec, game_id, seed * 1000 + i)
            except ValueError as exc:
                raise ValueError(f"opponent of seat {seat}: {exc}") from None
        return bots

    # -- the Gymnasium API ------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is None and self._first_seed is not None:  # the constructor's seed starts the sequence
            seed = self._first_seed
        self._first_seed = None
        super().reset(seed=seed)
        if seed is None:  # a new game every episode, drawn from the environment's generator
            seed = int(self.np_random.integers(2**31))
        self._bot_seed = seed
        self.bots = self._make_bots(seed)
        self.driver.reset(seed)
        self._ended = False
        self._play_others()
        self._choose()
        return self._obs(), self._info()

    def _choose(self) -> None:
        """``action="heads"``: a new decision of the learning seat to compose (none once over)."""
        driver = self.driver
        if self.action_mode != "heads" or driver.over or driver.truncated:
            self._choice = None
            return
        self._choice = Choice(self.heads, driver.legal(self.seat))

    def _index(self, action: Any) -> int | None:
        if self.action_mode == "flat":
            return int(action)
        try:
            return self.driver.catalogue.compose(np.asarray(action).ravel().tolist())
        except (EncodingError, IndexError):
            return None

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        driver = self.driver
        if self._ended or driver.over or driver.truncated:
            raise RuntimeError("the episode is over: call reset()")
        choice = self._choice
        if choice is not None:
            if not choice.pick(action):
                return self._refuse(action)
            if not choice.done:
                return self._obs(), 0.0, False, False, self._info()
            index: int | None = choice.index
        else:
            index = self._index(action)
        if index is None or driver.legal(self.seat).entry(index) is None:
            return self._refuse(action)
        driver.act(self.seat, index)
        self._play_others()
        self._choose()
        reward = driver.rewards()[self.seat] if driver.over else 0.0
        return self._obs(), reward, driver.over, driver.truncated, self._info()

    def _refuse(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """An illegal action ends the episode with ``illegal_reward``."""
        self._ended = True
        info = {**self._info(), "illegal_action": np.asarray(action).tolist()}
        return self._obs(), self.illegal_reward, True, False, info

    def head_mask(self, prefix: list[int]) -> np.ndarray:
        """Factored actions: the legal values of head ``len(prefix)`` given the earlier picks."""
        cat = self.driver.catalogue
        return cat.head_mask(cat.factored_legal(self.driver.legal(self.seat)), prefix)

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learning seat now (1 = legal), as masked policy-gradient
        libraries read them: the head asked now (``"heads"``), every head's legal values one head
        after another (``"factored"``, ``sum(heads)`` entries: ``MaskablePPO``'s layout for a
        ``MultiDiscrete``; a combination may still be illegal), the whole catalogue (``"flat"``)."""
        mode = self.action_mode
        if mode == "flat":
            return self.driver.mask(self.seat)
        if mode == "factored":
            return self.heads.marginals(self.driver.legal(self.seat))
        choice = self._choice  # (a copy: Gymnasium wants new data at every call)
        return np.zeros(self.heads.width, dtype=np.int8) if choice is None else choice.mask().copy()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        face = self.driver.render(self.seat)
        if self.render_mode == "ansi":
            return face
        print(face)
        return None

    # -- inside ----------------------------------------------------------------------------------
    def _play_others(self) -> None:
        driver = self.driver
        while not driver.over and not driver.truncated:
            seat = driver.current()
            assert seat is not None
            if seat == self.seat:
                return
            driver.play(self.bots[seat], seat)

    def _obs(self) -> np.ndarray:
        if self.action_mode != "heads":
            return self.driver.observe(self.seat)
        choice = self._choice
        if choice is None:
            return np.concatenate((self.driver.observe(self.seat), self.heads.prefix(self.heads.depth, [])))
        if choice.obs is None:
            choice.obs = self.driver.observe(self.seat)
        return choice.observation().copy()  # new data at every call, as Gymnasium wants

    def _view(self, choice: Choice) -> dict[str, Any]:
        """The seat's view, a new object at every step: taken from the driver at the first head of a
        decision, then copied (``marshal``: the view is plain data) while the heads are picked."""
        if choice.view is not None:
            found: dict[str, Any] = marshal.loads(choice.view)
            return found
        view = self.driver.take_view(self.seat)
        with contextlib.suppress(ValueError):  # not plain data: built again at the next head
            choice.view = marshal.dumps(view)
        return view

    def _info(self) -> dict[str, Any]:
        # a fresh view every call: callers keep what they are given
        if self.action_mode == "heads":
            choice = self._choice
            info: dict[str, Any] = {"action_mask": self.action_masks()}
            if choice is None:
                info["view"] = self.driver.take_view(self.seat)
                return {**info, "legal_moves": [], "head": self.heads.depth, "asked": 0, "picks": []}
            return {
                **info,
                "view": self._view(choice),
                "legal_moves": choice.legal_values(),
                "head": choice.head,
                "asked": choice.asked,
                "picks": list(choice.picks),
            }
        legal = self.driver.legal(self.seat)
        info = {"action_mask": self.action_masks(), "legal_moves": legal.indices}
        info["view"] = self.driver.take_view(self.seat)
        if self.action_mode == "factored":
            info["legal_factored"] = self.driver.catalogue.factored_legal(self.driver.legal(self.seat)).copy()
        return info


def gym_env(game: str, seat: str = "p1", opponents: str | Mapping[str, str] = "heuristic", **kwargs: Any) -> LudicaGym:
    """A Gymnasium environment of ``game`` where ``seat`` learns against Ludica bots (``"random"``...)."""
    return LudicaGym(game, seat, opponents, **kwargs)


GYM_IDS = {
    "great-city": "ludica/GreatCity-v0",
    "euthymia": "ludica/Euthymia-v0",
    "misery-bubblegum": "ludica/MiseryBubblegum-v0",
    "lost-days": "ludica/LostDays-v0",
    "euphoria": "ludica/Euphoria-v0",
}
"""The ``gymnasium.make`` ids, registered when this module is imported:
``gymnasium.make("ludica.env.gym:ludica/Euphoria-v0", opponents="random")`` imports it first."""


def _register() -> None:
    for game_id, env_id in GYM_IDS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point="ludica.env.gym:gym_env", kwargs={"game": game_id})


_register()
