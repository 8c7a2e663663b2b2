"""No observation, mask, info or OpenSpiel string holds what its seat may not see.

The game's ``secrets()`` (as in the conformance suite) are compared with everything the
environments give a seat: the features its observation vector is hashed from (and the vector is
checked to be a function of the seat's view alone), the actions its mask marks legal, its info
dict, and OpenSpiel's observation and information state strings.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest

from ludica.core import CHANCE
from ludica.env import aec_env, register_openspiel
from ludica.env.encoding import view_features
from ludica.env.infostate import RECENT, parse
from ludica.env.spiel import short_name
from tests.explore import explorations, reached_report, windows
from tests.redeal_helpers import rule_implied_tie

from .conftest import GAMES


def _leaves(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            _leaves(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            _leaves(v, out)
    return out


def _feature_tokens(view: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for key, _ in view_features(view):
        path, _, value = key.partition("=")
        out.update(part for part in path.split("/") if part)
        if value:
            out.add(value)
    return out


def _check_seat(env: Any, seat: str) -> None:
    driver = env.driver
    state, game = driver.match.state, driver.game
    hidden = [s for s in game.secrets(state) if seat not in s.holders]
    if not hidden:
        return
    view = game.view(state, seat)
    obs = env.observe(seat)
    expected = driver.observer.encode(seat, view, driver.pending)
    assert np.array_equal(obs["observation"], expected), "the observation is a function of the view alone"
    seen = _feature_tokens(view)
    legal = driver.legal(seat)
    for index in obs["action_mask"].nonzero()[0]:
        template, chosen = legal.templates[int(index)]
        _leaves({**template.args, **chosen}, seen)
    _leaves(env.infos.get(seat, {}), seen)
    for secret in hidden:
        assert secret.token not in seen, f"{seat} is shown hidden {secret.what or secret.token!r}"


@pytest.mark.parametrize("game_id", GAMES)
def test_no_observation_mask_or_info_shows_a_secret(game_id: str) -> None:
    env = aec_env(game_id, seed=11, action="flat")  # the mask read back as catalogue indices
    env.reset()
    rng = random.Random(0)
    for n, _agent in enumerate(env.agent_iter(max_iter=500)):
        obs, _, term, trunc, _ = env.last()
        if n % 10 == 0:
            for seat in env.agents:
                _check_seat(env, seat)
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(obs["action_mask"].nonzero()[0])))


def _check_redealt(env: Any, seat: str, rng: random.Random) -> None:
    """The seat's observation and action mask are those of a copy redealt for it (the one
    difference the rules make, Euthymia's ninth-hour tie, R-EU-30, left aside)."""
    driver = env.driver
    game, state = driver.game, driver.match.state
    copied = game.redeal(state, seat, rng)
    obs = env.observe(seat)
    pending = game.pending(copied).seats
    theirs = driver.observer.encode(seat, game.view(copied, seat), pending)
    assert np.array_equal(obs["observation"], theirs), f"{seat}'s observation tells a redealt copy apart"
    if rule_implied_tie(game.meta.id, state, copied) is not None:
        return
    mask = np.zeros(driver.catalogue.size, dtype=np.int8)
    driver.catalogue.legal(game.legal_actions(copied, seat) if seat in pending else []).mark(mask)
    assert np.array_equal(obs["action_mask"], mask), f"{seat}'s action mask tells a redealt copy apart"


EVERY = 5
"""Besides the steps around a type's first taking, one step in this many is looked at."""


@pytest.mark.parametrize("game_id", GAMES)
def test_every_action_type_in_the_environment(game_id: str) -> None:
    """The explorer's matches (``tests/explore.py``) replayed in the environment: around each type's
    first taking and every few steps, each seat's observation, mask and info hold no secret and
    are those of a copy redealt for it; a type never reached fails the test."""
    rng = random.Random(39)
    reached: set[str] = set()
    for exploration in explorations(game_id):
        config = exploration.config
        env = aec_env(game_id, len(config.players), config.seed, config.options, action="flat", referee="agent")
        env.reset()
        wanted = windows(exploration)
        for i, action in enumerate(exploration.actions):
            assert env.driver.match.actions == exploration.actions[:i] or action.seat == CHANCE
            if action.seat == CHANCE:
                continue
            if i in wanted or i % EVERY == 0:
                for seat in env.agents:  # ids past a tensor's cap are left out, never refused
                    _check_seat(env, seat)
                    _check_redealt(env, seat, rng)
            env.driver.apply(action, trusted=True)  # the seat acting need not be the one selected
            env.infos = {a: {} for a in env.agents}
            env._settle()  # the agent to act next and its info, as after its step
            reached.add(action.type)
    print(reached_report(game_id, reached, "environment"))


@pytest.mark.parametrize("game_id", ["euthymia", "euphoria", "lost-days"])
def test_openspiel_strings_show_no_secret(game_id: str) -> None:
    register_openspiel()
    game = pyspiel.load_game(short_name(game_id), {"max_steps": 600})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    ludica_game = state.ludica_state  # noqa: F841  (the method exists)
    from ludica.core import get_game

    lg = get_game(game_id)
    seats = lg.seats(state.ludica_state())
    own: list[list[int]] = [[] for _ in seats]
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = int(rng.choice(state.legal_actions()))
            own[state.current_player()].append(action)
            state.apply_action(action)
            n += 1
        if n % 10 or state.is_terminal():
            continue
        secrets = lg.secrets(state.ludica_state())
        for player, seat in enumerate(seats):
            text = state.observation_string(player)
            for secret in secrets:
                if seat not in secret.holders:
                    assert f'"{secret.token}"' not in text, f"{seat} is shown hidden {secret.what!r}"
            # the information state holds a step count, a digest and the seat's own decisions only
            _, _, decisions, recent = parse(state.information_state_string(player))
            assert decisions == len(own[player]) and recent == own[player][-RECENT:]
