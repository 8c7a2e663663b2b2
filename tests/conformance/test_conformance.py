"""The conformance suite every registered game passes (PettingZoo's api_test, OpenSpiel's
random_sim_test): random legal play to the end from many seeds, with every check on the way.

Set ``LUDICA_CONFORMANCE_SEEDS`` for more seeds (default 4 per game, one player count each).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from ludica.bots.random_bot import RandomBot
from ludica.core import CHANCE, Action, IllegalAction, Match, available, get_game, matches
from ludica.core.match import canonical_json
from ludica.core.records import position_of, read_position, record_of, replay_record
from ludica.lab.playthrough import default_config, playthrough

GAMES = [*available(), "pig"]
SEEDS = int(os.environ.get("LUDICA_CONFORMANCE_SEEDS", "4"))
GOLDEN = Path(__file__).parent.parent / "golden"


def _configs(game_id: str) -> list[Any]:
    meta = get_game(game_id).meta
    counts = list(range(meta.players_min, meta.players_max + 1))
    return [default_config(game_id, counts[i % len(counts)], seed=1000 + i) for i in range(SEEDS)]


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


def check_no_leaks(match: Match[Any]) -> None:
    game, state = match.game, match.state
    secrets = game.secrets(state)
    if not secrets:
        return
    for seat in [*game.seats(state), None]:
        leaves = _leaves(game.view(state, seat), set())
        for entry in match.story(seat):
            _leaves(entry.event.to_json(), leaves)
        for secret in secrets:
            if seat not in secret.holders:
                assert secret.token not in leaves, f"{seat or 'spectator'} sees hidden {secret.what or secret.token!r}"


def ill_formed(match: Match[Any], rng: random.Random) -> list[Action]:
    """Actions that must be refused (unless they happen to be legal, which is checked)."""
    pending = match.pending()
    seats = match.game.seats(match.state)
    out = [Action(pending.seats[0], "no_such_action_type")]
    idle = [s for s in seats if s not in pending.seats]
    seat = pending.seats[0]
    legal = match.legal_actions(seat) if seat != CHANCE else []
    base = legal[0] if legal else Action(seat, "roll", {"dice": [1]})
    if idle:
        out.append(Action(rng.choice(idle), base.type, dict(base.args)))
    out.append(Action(seat, base.type, {**base.args, "bogus_parameter": 1}))
    for key in base.args:
        for bad in (-1, 10**6, "zz-not-a-thing", None, [], {"x": 1}):
            out.append(Action(seat, base.type, {**base.args, key: bad}))
        args = dict(base.args)
        del args[key]
        out.append(Action(seat, base.type, args))
    return out


def check_refusals(match: Match[Any], rng: random.Random) -> None:
    before = canonical_json(match.game.to_position(match.state))
    n_actions, n_log = len(match.actions), len(match.log)
    for action in ill_formed(match, rng):
        legal = (
            action.seat in match.pending().seats
            and action.seat != CHANCE
            and any(matches(t, action) for t in match.legal_actions(action.seat))
        )
        if legal:
            continue
        try:
            match.check(action)
        except IllegalAction as exc:
            assert exc.reason, "a refusal must say why"
        else:
            if action.seat == CHANCE:
                continue
            raise AssertionError(f"ill-formed action was not refused: {action.notation()}")
        assert canonical_json(match.game.to_position(match.state)) == before, "a refused check changed the state"
    assert (len(match.actions), len(match.log)) == (n_actions, n_log)


def check_position_roundtrip(match: Match[Any]) -> None:
    pos = position_of(match.game, match.state, match.config)
    text = json.dumps(pos)
    again = read_position(json.loads(text))
    assert canonical_json(position_of(again.game, again.state, again.config)) == canonical_json(pos)
    assert again.pending() == match.pending()


def play_checked(game_id: str, config: Any, *, deep_every: int = 25) -> Match[Any]:
    game = get_game(game_id)
    match: Match[Any] = Match(game, config)
    rng = random.Random(str(config.seed))
    bot = RandomBot(rng)
    for step in range(game.meta.max_steps):
        problems = game.invariants(match.state)
        assert not problems, f"step {step}: {problems}"
        pending = match.pending()
        if pending.is_over:
            assert game.outcome(match.state) is not None
            return match
        if step % deep_every == 0:
            check_no_leaks(match)
            check_refusals(match, rng)
            check_position_roundtrip(match)
        if pending.is_chance:
            match.deal()
            continue
        for seat in pending.seats:
            assert match.legal_actions(seat), f"step {step}: pending seat {seat} has no legal action"
        seat = pending.seats[rng.randrange(len(pending.seats))]
        action = bot.choose(match, seat)
        match.apply(action)  # every offered action is accepted
    raise AssertionError(f"{game_id} did not end within {game.meta.max_steps} steps")


@pytest.mark.parametrize("game_id", GAMES)
def test_metadata(game_id: str) -> None:
    meta = get_game(game_id).meta
    assert meta.id == game_id
    assert 1 <= meta.players_min <= meta.players_max
    assert meta.rules_version and meta.title and meta.description


@pytest.mark.parametrize("game_id", GAMES)
def test_random_play_to_the_end(game_id: str) -> None:
    for config in _configs(game_id):
        match = play_checked(game_id, config)
        check_no_leaks(match)
        record = json.loads(json.dumps(record_of(match)))
        replayed = replay_record(record)
        assert replayed.digest() == match.digest(), "replay differs from the live game"
        assert canonical_json(replayed.view(None)) == canonical_json(match.view(None))


@pytest.mark.parametrize("game_id", GAMES)
def test_determinism_by_seed(game_id: str) -> None:
    config = _configs(game_id)[0]
    a, b = play_checked(game_id, config, deep_every=10**9), play_checked(game_id, config, deep_every=10**9)
    assert [x.to_json() for x in a.actions] == [x.to_json() for x in b.actions]
    assert a.digest() == b.digest()


@pytest.mark.parametrize("game_id", GAMES)
def test_golden_playthrough(game_id: str) -> None:
    path = GOLDEN / f"{game_id}.txt"
    text = playthrough(game_id)
    if os.environ.get("LUDICA_UPDATE_GOLDEN") or not path.exists():
        path.write_text(text, encoding="utf-8")
        if not os.environ.get("LUDICA_UPDATE_GOLDEN"):
            pytest.fail(f"golden playthrough {path.name} was missing; written now, commit it")
    assert text == path.read_text(encoding="utf-8"), (
        f"what a seat sees changed; inspect the diff and regenerate with LUDICA_UPDATE_GOLDEN=1 ({path.name})"
    )
