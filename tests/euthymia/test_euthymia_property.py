"""Random legal play through all ten hours: it ends, keeps every invariant, leaks nothing,
replays to the same state; and the designers' figures."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from ludica.bots.random_bot import RandomBot, play_random
from ludica.core import CHANCE, Config, Match
from ludica.games.euthymia import GAME
from ludica.games.euthymia.state import TABLE

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "BOTTLE_MODE": st.sampled_from(["finish", "reseal"]),
        "TIE_BREAK_POURS": st.booleans(),
        "CAP_MODE_REGULAR": st.sampled_from(["stay", "clamp_to_feel"]),
        "CM_PASS_MODE": st.sampled_from(["random_derangement", "rotate_left", "manual"]),
        "PASSER_LEARNS_RECIPIENT": st.booleans(),
        "HR_FORCED_LAUNCH": st.booleans(),
        "BOTTLE_UNITS": st.integers(1, 40),
        "GLASS_CAPACITY": st.integers(1, 12),
    },
)


def no_leaks(match: Match) -> None:
    state = match.state
    secrets = GAME.secrets(state)
    for seat in (*GAME.seats(state), None):
        seen = [GAME.view(state, seat), [e.event.to_json() for e in match.story(seat)]]
        leaves = set(_leaves(json.loads(json.dumps(seen))))
        for secret in secrets:
            if seat not in secret.holders:
                assert secret.token not in leaves, (seat, secret)


def _leaves(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)


@given(seed=st.integers(0, 10**6), n=st.integers(3, 8), options=OPTIONS)
def test_random_play_keeps_the_invariants(seed, n, options):
    match = Match(GAME, Config(NAMES[:n], options, seed))
    rng = random.Random(seed)
    bot = RandomBot(rng)
    hours_seen = set()
    for step in range(GAME.meta.max_steps):
        state = match.state
        assert GAME.invariants(state) == [], step
        hours_seen.add(state.hour)
        pending = match.pending()
        if not pending.is_chance:  # pending names exactly the seats that have a legal action
            assert set(pending.seats) == {s for s in GAME.seats(state) if GAME.legal_actions(state, s)}, step
        if pending.is_over:
            break
        if step % 50 == 0:
            no_leaks(match)
        if pending.is_chance:
            match.deal()
            continue
        seat = pending.seats[rng.randrange(len(pending.seats))]
        match.apply(bot.choose(match, seat))
    else:
        raise AssertionError("the game did not end")
    assert hours_seen == set(range(1, 11))
    assert GAME.outcome(match.state) is not None
    no_leaks(match)


def test_every_hour_is_played_and_the_cm_is_revealed():
    match = Match(GAME, Config(NAMES[:5], {}, 11))
    play_random(match, random.Random(11))
    state = match.state
    assert state.phase == "GAME_OVER" and state.cm_revealed
    assert [h for h, _ in state.stats["strengths_by_hour"]] == list(range(2, 11))
    assert set(state.endings) == set(state.players)


def test_the_table_drives_the_clock():
    match = Match(GAME, Config(NAMES[:4], {}, 3))
    rng = random.Random(3)
    bot = RandomBot(rng)
    clock_actions = 0
    while not match.is_over():
        pending = match.pending()
        if pending.is_chance:
            match.deal()
            continue
        seat = TABLE if TABLE in pending.seats and rng.random() < 0.5 else pending.seats[0]
        action = bot.choose(match, seat)
        clock_actions += action.type == "clock"
        match.apply(action)
    assert clock_actions > 0 and match.state.phase == "GAME_OVER"


def test_copy_and_position_round_trip():
    match = Match(GAME, Config(NAMES[:4], {}, 5))
    rng = random.Random(5)
    for _ in range(400):
        if match.is_over():
            break
        if match.pending().is_chance:
            match.deal()
        else:
            seat = rng.choice(match.pending().seats)
            match.apply(RandomBot(rng).choose(match, seat))
        pos = GAME.to_position(match.state)
        assert GAME.to_position(GAME.copy(match.state)) == pos
        assert GAME.to_position(GAME.from_position(json.loads(json.dumps(pos)), match.config)) == pos


def test_summaries_and_report():
    summaries = []
    for seed in range(3):
        match = Match(GAME, Config(NAMES[:4], {}, seed))
        steps = play_random(match, random.Random(seed))
        summaries.append(GAME.summarize(match.state, steps))
    s = summaries[0]
    for key in ("deaths", "ideal_citizens", "cm_launch_share", "feel_by_hour", "love_by_hour"):
        assert key in s
    assert len(s["feel_by_hour"]) == 9
    lines = dict(GAME.report(summaries))
    assert "  FEEL (mean)" in lines and "cm_launch_share" in lines and "deaths" in lines


def test_render_every_seat():
    match = Match(GAME, Config(NAMES[:3], {}, 2))
    rng = random.Random(2)
    for _ in range(150):
        if match.pending().is_chance:
            match.deal()
        else:
            match.apply(RandomBot(rng).choose(match, rng.choice(match.pending().seats)))
    for seat in ("p1", "p2", "p3", None):
        text = GAME.render(match.view(seat))
        assert "EUTHYMIA" in text
    assert "You (p1): hand" in GAME.render(match.view("p1"))
    assert CHANCE not in GAME.seats(match.state)


def test_the_memo_always_agrees_with_a_fresh_look():
    """What ``legal.Memo`` remembers (kept across a ``clock`` action, R-EU-26) is what a fresh
    copy of the state, which starts without a memo, works out; positions never show it."""
    crossings = 0
    for seed, options in ((7, {"FINAL_ROUND_AT_S": 900}), (8, {"HR_FORCED_LAUNCH": True, "FINAL_ROUND_AT_S": 5000})):
        match = Match(GAME, Config(NAMES[:4], options, seed))
        rng = random.Random(seed)
        bot = RandomBot(rng)
        while not match.is_over():
            state = match.state
            pending = match.pending()
            fresh = GAME.copy(state)
            assert fresh.memo is None and "memo" not in GAME.to_position(state)
            assert GAME.pending(fresh) == pending
            for seat in GAME.seats(state):
                assert GAME.legal_actions(fresh, seat) == GAME.legal_actions(state, seat)
            if pending.is_chance:
                match.deal()
                continue
            action = bot.choose(match, pending.seats[rng.randrange(len(pending.seats))])
            events = match.apply(action)
            crossings += action.type == "clock" and bool(events)
    assert crossings > 0  # the clock has called the final turns
