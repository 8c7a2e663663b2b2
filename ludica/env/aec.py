"""PettingZoo: every Ludica game as an AEC (agent-environment-cycle) environment.

>>> env = aec_env("pig", players=2, seed=1)  # doctest: +SKIP
>>> env.reset()
>>> for agent in env.agent_iter(): ...

Agents are the game's seats (players and the referee seat where the game has one). Each
observation is ``{"observation": float32 vector, "action_mask": int8 vector}``
(:mod:`ludica.env.encoding`); ``infos[agent]["view"]`` holds the acting seat's JSON view and
``infos[agent]["legal_moves"]`` the mask's ones, sorted, as a list.

Action forms (``action=``): ``"heads"`` (the default) takes a decision head by head
(:mod:`ludica.env.heads`): each step picks the action type, then each parameter, from a mask of at
most a few hundred entries given the picks before it, and the observation ends with those picks;
the same agent acts again until its picks name one action. ``"flat"`` is one step per decision
over the whole catalogue (up to 97 000 indices, OpenSpiel's numbering); ``"factored"`` takes every
head at once as a ``MultiDiscrete`` (legal combinations: :meth:`LudicaAEC.head_mask`).
Chance steps never reach the agents: the match's seeded Dealer deals them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .driver import Driver
from .encoding import OBS_BOUND, EncodingError, TextFiller, default_text
from .heads import Choice, Heads

ACTIONS = ("heads", "flat", "factored")
"""The action forms of the environments (the first is the default, see the module docstring)."""


class LudicaAEC(AECEnv):  # type: ignore[misc]
    """A Ludica match as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo's own declaration: per instance, copied in __init__)
        "render_modes": ["human", "ansi"],
        "name": "ludica",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        seed: int | str = 0,
        options: Mapping[str, Any] | None = None,
        *,
        reward: str = "outcome",
        max_steps: int | None = None,
        render_mode: str | None = None,
        text: TextFiller = default_text,
        action: str = "heads",
        illegal_reward: float = -1.0,
        referee: str = "heuristic",
    ) -> None:
        super().__init__()
        if action not in ACTIONS:
            raise ValueError(f"action must be one of {', '.join(ACTIONS)}, not {action!r}")
        self.action_mode = action
        self.illegal_reward = float(illegal_reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.driver = Driver(game, players, options, reward=reward, text=text, max_steps=max_steps, seed=seed)
        self.metadata = {**self.metadata, "name": f"ludica_{self.driver.game.meta.id.replace('-', '_')}"}
        self.render_mode = render_mode
        self._seed: int | str = seed
        self._played = False
        self.referee_spec = referee
        ref = self.driver.game.meta.referee
        self._referee: str | None = ref if ref in self.driver.seats and referee != "agent" else None
        self._referee_bot: Any = None
        if self._referee is not None:
            self._referee_bot = self._make_referee(seed)  # an unknown bot is refused now
        self.possible_agents = [s for s in self.driver.seats if s != self._referee]
        self.heads = Heads(self.driver.catalogue)
        self._choice: Choice | None = None
        """The decision of the agent selected, being composed head by head (``action="heads"``)."""
        sizes = {"heads": self.heads.width, "factored": sum(self.heads.sizes)}
        n_actions = sizes.get(action, self.driver.catalogue.size)
        size = self.driver.observer.size + (self.heads.prefix_size if action == "heads" else 0)
        obs = spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32)
        mask = spaces.Box(0, 1, (n_actions,), np.int8)
        both = spaces.Dict({"observation": obs, "action_mask": mask})
        self.observation_spaces = dict.fromkeys(self.possible_agents, both)
        self.action_spaces: dict[str, spaces.Space[Any]]
        if action == "factored":
            heads = np.array(self.driver.catalogue.heads, dtype=np.int64)
            self.action_spaces = {a: spaces.MultiDiscrete(heads) for a in self.possible_agents}
        else:
            self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed = seed
        elif self._played:
            self._seed = f"{self._seed}+" if isinstance(self._seed, str) else self._seed + 1_000_003
        self._played = True
        self.driver.reset(self._seed)
        if self._referee is not None:
            self._referee_bot = self._make_referee(self._seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation and action mask (nothing returned is changed later). With
        ``action="heads"`` the mask is the head asked now, and both arrays are read-only, made once
        per head asked: observing again before the next step gives the same arrays, and the mask of
        a head met again is the same array (no copy of the observation or the mask at every call;
        ``np.array(obs)`` gives a writable copy). An agent not selected has no legal value."""
        mode = self.action_mode
        if mode == "flat":
            return {"observation": self.driver.observe(agent), "action_mask": self.driver.mask(agent)}
        choice = self._choice if agent == self.agent_selection else None
        if mode == "factored":
            mask = self.heads.marginals(self.driver.legal(agent))
            return {"observation": self.driver.observe(agent), "action_mask": mask}
        if choice is None:
            obs = np.concatenate((self.driver.observe(agent), self.heads.prefix(self.heads.depth, [])))
            return {"observation": obs, "action_mask": np.zeros(self.heads.width, dtype=np.int8)}
        return choice.observed(self.driver, agent)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: pass an index whose action_mask is 1")
        self._cumulative_rewards[agent] = 0.0
        choice = self._choice
        if choice is not None:  # action="heads": one head picked
            if not choice.pick(action):
                self.infos[agent] = {}
                self._illegal(agent, action)
                return
            if not choice.done:
                self.infos[agent] = choice.info(self.driver.view(agent))
                return
            action = choice.index
        self.infos[agent] = {}
        index = action if choice is not None else self._index(action)
        if index is None or not self.driver.act_if_legal(agent, index):
            self._illegal(agent, action)
            return
        self._settle()

    def _index(self, action: Any) -> int | None:
        if self.action_mode != "factored":
            return int(action)
        try:
            return self.driver.catalogue.compose(np.asarray(action).ravel().tolist())
        except (EncodingError, IndexError):
            return None

    def _illegal(self, agent: str, action: Any) -> None:
        """As PettingZoo's classic games: an illegal move ends the game, the mover gets
        ``illegal_reward`` and everyone else 0."""
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        for a in self.agents:
            self.terminations[a] = True
        self.infos[agent] = {"illegal_action": np.asarray(action).tolist()}
        self._accumulate_rewards()

    def head_mask(self, agent: str, prefix: list[int]) -> np.ndarray:
        """Factored actions: the legal values of head ``len(prefix)`` for ``agent`` given the earlier picks."""
        cat = self.driver.catalogue
        return cat.head_mask(cat.factored_legal(self.driver.legal(agent)), prefix)

    def _make_referee(self, seed: int | str) -> Any:
        from ..bots.base import make_bot

        number = seed if isinstance(seed, int) else sum(map(ord, str(seed)))
        try:
            return make_bot(self.referee_spec, self.driver.game.meta.id, number)
        except ValueError as exc:
            raise ValueError(f"referee seat {self._referee}: {exc}") from None

    def _play_referee(self, referee: str) -> str | None:
        """The referee seat (GM, the table) is played by a Ludica bot unless ``referee="agent"``
        (:meth:`Driver.settle`); the seat to act after it (``None`` once the game is over)."""
        return self.driver.settle(referee, self._referee_bot)

    def _settle(self) -> None:
        driver = self.driver
        referee = self._referee
        seat = driver.current() if referee is None else self._play_referee(referee)
        self._choice = None
        if seat is None or driver.steps >= driver.max_steps:  # over (no seat is current), or truncated
            got = driver.rewards()
            self.rewards = {a: got[a] for a in self.agents}
            flags = self.terminations if seat is None else self.truncations
            for a in self.agents:
                flags[a] = True
            self.agent_selection = self.agents[0]
            self._accumulate_rewards()
            return
        # the game goes on: every reward is 0 (a game's rewards come at its end), so the cumulative
        # rewards, reset to 0 at each step, stay as they are
        if any(self.rewards.values()):
            self.rewards = dict.fromkeys(self.agents, 0.0)
        self.agent_selection = seat
        if self.action_mode == "heads":
            choice = self._choice = Choice(self.heads, driver.legal(seat))
            self.infos[seat] = choice.info(driver.view(seat))
            return
        info: dict[str, Any] = {"view": driver.view(seat), "legal_moves": driver.legal(seat).indices}
        if self.action_mode == "factored":
            info["legal_factored"] = driver.catalogue.factored_legal(driver.legal(seat)).copy()
        self.infos[seat] = info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        face = self.driver.render(None)
        if self.render_mode == "ansi":
            return face
        print(face)
        return None

    def close(self) -> None:
        pass


def aec_env(
    game: str,
    players: int | None = None,
    seed: int | str = 0,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> LudicaAEC:
    """A PettingZoo AEC environment of ``game`` (``"euphoria"``, ...) for ``players`` seats."""
    return LudicaAEC(game, players, seed, options, **kwargs)
