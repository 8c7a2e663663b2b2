"""Whole games, bad input, positions, views and secrets: random legal play from setup to the last
fate narration under every option, a hypothesis property test, and refusals that change nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludica.bots.random_bot import RandomBot
from ludica.core import (
    CHANCE,
    Action,
    Config,
    IllegalAction,
    MalformedAction,
    Match,
    PositionError,
    fill,
    get_game,
    matches,
)
from ludica.core.match import canonical_json
from ludica.core.records import position_of, read_position, record_of, replay_record

GAME = get_game("great-city")
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"scene_triad_mode": "rethrow", "reduce_from": "trajectory", "agent_triads": "chosen"},
    {"scene_triad_mode": "reset", "fate_contributions": "public", "undo_random_flip": False},
    {"gm_may_accept": False, "gm_takes_rewards": False, "reflip_model": "sequential"},
    {"hr_scene_guard": True, "hr_trait_cap_3": True, "ante_increment_source": "bank"},
    {"hr_slow_clock": True, "gm_name": "Bill"},
]


def leaves(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            leaves(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            leaves(v, out)
    return out


def assert_no_leak(match: Match[Any]) -> None:
    secrets = GAME.secrets(match.state)
    for seat in [*match.state.seats, None]:
        seen = leaves(GAME.view(match.state, seat), set())
        for entry in match.story(seat):
            leaves(entry.event.to_json(), seen)
        for secret in secrets:
            if seat not in secret.holders:
                assert secret.token not in seen, (seat, secret)


def mutations(action: Action, rng: random.Random) -> list[Action]:
    out = [Action(action.seat, action.type, {**action.args, "extra": 1})]
    for key in action.args:
        for bad in (0, 7, -1, "c99", "t99", "nobody", None, [], {"x": 1}):
            out.append(Action(action.seat, action.type, {**action.args, key: bad}))
    return out


def listed(legal: list[Action], action: Action) -> bool:
    """``matches``, but 0/1 are not False/True (the kernel is strict about types)."""
    return any(
        matches(t, action)
        and all(type(v) is type(action.args[k]) for k, v in t.args.items() if not hasattr(v, "to_json"))
        for t in legal
    )


def play(n: int, options: dict[str, Any], seed: int, *, fuzz: bool = False) -> Match[Any]:
    match: Match[Any] = Match(GAME, Config(NAMES[:n], options, seed))
    rng = random.Random(seed)
    bot = RandomBot(rng)
    for step in range(GAME.meta.max_steps):
        assert not GAME.invariants(match.state), (step, GAME.invariants(match.state))
        pending = match.pending()
        if pending.is_over:
            return match
        if pending.is_chance:
            match.deal()
            continue
        seat = pending.seats[0]
        legal = match.legal_actions(seat)
        assert legal
        action = bot.choose(match, seat)
        if fuzz and step % 7 == 0:
            before = canonical_json(GAME.to_position(match.state))
            for bad in mutations(action, rng):
                ok = listed(legal, bad)
                try:
                    match.check(bad)
                except IllegalAction as exc:
                    assert not ok, f"a listed action was refused: {bad} ({exc})"
                else:
                    assert ok, f"an unlisted action was accepted: {bad}"
            assert canonical_json(GAME.to_position(match.state)) == before
        match.apply(action)
    raise AssertionError("the game did not end")


def test_full_games_end_under_every_option_set() -> None:
    for i, options in enumerate(OPTION_SETS):
        for n in (2, 5):
            match = play(n, options, 100 + i)
            out = GAME.outcome(match.state)
            assert out is not None and out.winners[0] in match.state.seats
            assert match.state.endgame["narrated"] == n  # every player narrated a fate
            assert_no_leak(match)
            record = json.loads(json.dumps(record_of(match)))
            assert replay_record(record).digest() == match.digest()


@given(seed=st.integers(0, 10**6), n=st.integers(2, 5), options=st.sampled_from(OPTION_SETS))
def test_property_random_play_keeps_the_invariants(seed: int, n: int, options: dict[str, Any]) -> None:
    match = play(n, options, seed, fuzz=True)
    assert_no_leak(match)


def test_positions_round_trip_and_copies_are_independent() -> None:
    match: Match[Any] = Match(GAME, Config(NAMES[:3], {}, 5))
    rng = random.Random(5)
    bot = RandomBot(rng)
    for _ in range(150):
        if match.pending().is_chance:
            match.deal()
        else:
            match.apply(bot.choose(match, match.pending().seats[0]))
        pos = position_of(GAME, match.state, match.config)
        again = read_position(json.loads(json.dumps(pos)))
        assert canonical_json(GAME.to_position(again.state)) == canonical_json(pos["state"])
        assert again.pending() == match.pending()
        assert GAME.legal_actions(again.state, match.pending().seats[0]) == GAME.legal_actions(
            match.state, match.pending().seats[0]
        )
    copy = GAME.copy(match.state)
    before = canonical_json(GAME.to_position(match.state))
    while not GAME.pending(copy).is_over:
        seat = GAME.pending(copy).seats[0]
        if seat == CHANCE:
            step = GAME.chance_step(copy)
            GAME.play(copy, Action(CHANCE, step.type, {**step.extra, **step.sample(rng)}))
        else:
            legal = GAME.legal_actions(copy, seat)
            GAME.play(copy, fill(rng.choice(legal), rng))
    assert canonical_json(GAME.to_position(match.state)) == before


def test_bad_input_is_refused_with_a_reason_and_no_change(table) -> None:
    t = table()
    t.first_scene(flip=1)
    e = t.refuse("p1", "teleport")
    assert isinstance(e, MalformedAction) and "unknown action" in e.reason
    e = t.refuse("p1", "flip", None, position=2)
    assert isinstance(e, MalformedAction) and "source" in e.reason
    e = t.refuse("p1", "flip", None, position="two", source="free_scarab")
    assert isinstance(e, MalformedAction) and "position" in e.reason
    e = t.refuse("p1", "flip", None, position=2, source="free_scarab", tie="t1")
    assert isinstance(e, MalformedAction) and "unknown tie" in e.reason
    e = t.refuse("p2", "pass_reaction")
    assert "not p2's decision" in e.reason
    e = t.refuse("p1", "flip", "R-GC-10", position=9, source="free_scarab")
    e = t.refuse("p1", "flip", "R-GC-28", position=4, source="tie", tie="t42")
    e = t.refuse("p1", "start_scene", "turn order", spotlight="c2", intent="again")
    with pytest.raises(IllegalAction):
        t.match.apply(Action(CHANCE, "random_flip", {"dice": [3]}))
    t.do("p1", "accept_judgment", character="c2")
    e = t.refuse("gm", "narrate", None, text="   ")
    assert isinstance(e, MalformedAction)
    e = t.refuse("gm", "narrate", None, text="x" * 2001)
    assert "characters" in e.reason


def test_wrong_dice_are_refused(table) -> None:
    t = table()
    step = GAME.chance_step(t.state)
    for dice in ([1, 2, 3], [0, 1, 1, 1, 1, 1], [9, 1, 1, 1, 1, 1]):
        with pytest.raises(IllegalAction):
            t.match.apply(Action(CHANCE, step.type, {"dice": dice}))
    with pytest.raises(IllegalAction):
        t.match.apply(Action(CHANCE, "random_flip", {"dice": [1]}))
    t.situation()
    t.do("gm", "create_agent", name="General", description="x")
    t.do("gm", "end_agents")
    with pytest.raises(IllegalAction):
        t.match.apply(Action(CHANCE, "roll_character_triad", {"dice": [1, 2, 3], "character": "c9"}))
    t.match.apply(Action(CHANCE, "roll_character_triad", {"dice": [1, 2, 3]}))  # typed by hand, no extras


def test_secrets_purses_are_private() -> None:
    match = play(3, {}, 11)
    # mid-game: purses private
    m2: Match[Any] = Match(GAME, Config(NAMES[:3], {}, 11))
    m2.replay(match.actions[:120])
    v1, v2 = GAME.view(m2.state, "p1"), GAME.view(m2.state, "p2")
    assert v1["purse"]["scarabs"] == m2.state.purse["p1"] and "purses" not in v1
    assert "purse" not in GAME.view(m2.state, None)
    assert v1["purse"]["text"] not in leaves(v2, set())
    assert {s.holders for s in GAME.secrets(m2.state) if s.what.endswith("purse")} == {
        frozenset({s}) for s in m2.state.seats
    }


def test_render_shows_the_table() -> None:
    match = play(2, {}, 3)
    m: Match[Any] = Match(GAME, Config(NAMES[:2], {}, 3))
    seen_scene = False
    for action in match.actions:
        m.apply(action)
        text = GAME.render(GAME.view(m.state, "p1"))
        assert text.startswith("THE GREAT CITY")
        if m.state.phase == "reaction" and not seen_scene:
            seen_scene = True
            assert "stones 1:b" in text and "the oracle names" in text and "your purse" in text
    assert "END GAME: the Great City" in text and "Purses:" in text


def test_state_stays_small() -> None:
    for seed in range(3):
        match = play(5, {"hr_slow_clock": True}, seed)
        size = len(json.dumps(GAME.to_position(match.state)))
        assert size < 50_000, size


def test_r_gc_02_the_bank_balances_every_transfer() -> None:
    """Starting purses, vestings, the pool and Nay come from the bank; bought ties and city flips go
    back: the scarabs in play always equal what the bank has issued net."""
    match: Match[Any] = Match(GAME, Config(NAMES[:4], {}, 21))
    rng = random.Random(21)
    bot = RandomBot(rng)
    s = match.state
    assert s.bank_net == s.nay + s.pool == 5 + 40
    while not match.pending().is_over:
        if match.pending().is_chance:
            match.deal()
        else:
            match.apply(bot.choose(match, match.pending().seats[0]))
        assert s.total_scarabs() == s.bank_net


def test_a_broken_position_is_refused(table) -> None:
    t = table()
    t.first_scene(flip=1)
    pos = position_of(GAME, t.state, t.match.config)
    for breakage in (
        lambda s: s.update(scene=None),
        lambda s: s.update(pool=-1),
        lambda s: s["purse"].update(p1=s["purse"]["p1"] + 1),  # a scarab from nowhere
        lambda s: s["scene"].update(turn=7),
        lambda s: s.pop("characters"),
    ):
        bad = json.loads(json.dumps(pos))
        breakage(bad["state"])
        with pytest.raises(PositionError):
            read_position(bad)
