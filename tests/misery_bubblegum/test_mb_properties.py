"""Random legal play never crashes, keeps every invariant (dice conservation above all) and replays."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ludica.core import Action, Config, IllegalAction, Match, fill, matches
from ludica.core.match import canonical_json
from ludica.core.records import record_of, replay_record
from ludica.games.misery_bubblegum import GAME
from ludica.games.misery_bubblegum import rules as mb_rules
from ludica.games.misery_bubblegum.invariants import dice_of
from ludica.games.misery_bubblegum.memo import forget
from ludica.games.misery_bubblegum.state import MiseryState, Trait

NAMES = ("Ann", "Bob", "Cat", "Dan")
LOOP_ENDERS = ("end_game", "end_meaning", "pass_reroll", "end_growth")


def enrich(state: MiseryState) -> None:
    """Give everyone influence, Misery and a Trait so that every rule is reached quickly."""
    for a in state.players:
        for b in state.players:
            if a != b:
                state.characters[b].spare -= 1
                state.characters[a].influence[b] += 1
        state.characters[a].spare -= 1
        state.characters[a].misery += 1
    for i, a in enumerate(state.players):
        b = state.players[(i + 1) % len(state.players)]
        state.traits[f"x{i}"] = Trait(f"x{i}", a, b, "given", 1 + i)
    forget(state)


def play(seed: int, players: int, options: dict, rich: bool, steps: int = 1500) -> Match[MiseryState]:
    match: Match[MiseryState] = Match(GAME, Config(NAMES[:players], options, seed))
    if rich:
        enrich(match.state)
    rng = random.Random(seed)
    for _ in range(steps):
        assert not GAME.invariants(match.state)
        pending = match.pending()
        if pending.is_over:
            break
        if pending.is_chance:
            match.deal()
            continue
        if pending.phase == "IDLE":  # the idle seats are exactly those with a decision
            assert set(pending.seats) == {s for s in match.state.players if match.legal_actions(s)}
        seat = pending.seats[rng.randrange(len(pending.seats))]
        legal = match.legal_actions(seat)
        assert legal
        doing = [a for a in legal if a.type not in LOOP_ENDERS]
        choice = rng.choice(doing) if doing and rng.random() < 0.85 else rng.choice(legal)
        match.apply(fill(choice, rng))
    return match


@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    rich=st.booleans(),
    scope=st.sampled_from(["any", "own"]),
    order=st.sampled_from(["free", "round_robin"]),
    gm=st.booleans(),
)
def test_random_play_keeps_the_invariants(seed, players, rich, scope, order, gm) -> None:
    options = {"trait_reroll_scope": scope, "calling_order": order, "gm": gm, "session_actions": 25}
    match = play(seed, players, options, rich)
    for seat in match.state.players:
        assert dice_of(match.state, seat) == 20
    again = GAME.from_position(json.loads(json.dumps(GAME.to_position(match.state))), match.config)
    assert canonical_json(GAME.to_position(again)) == canonical_json(GAME.to_position(match.state))
    assert canonical_json(GAME.to_position(GAME.copy(match.state))) == canonical_json(GAME.to_position(match.state))


@given(seed=st.integers(0, 10**6))
def test_replay_equals_live_play(seed) -> None:
    match = play(seed, 3, {"session_actions": 10}, rich=False)
    replayed = replay_record(json.loads(json.dumps(record_of(match))))
    assert replayed.digest() == match.digest()


def _candidates(match: Match[MiseryState], seat: str, rng: random.Random) -> list[Action]:
    state = match.state
    ids = [*state.traits, *state.provisionals, *state.resources, *state.players, "gm", "zz"]
    if state.attempt is not None:
        ids += [f"{p.seat}.{i}" for p in state.attempt.participants for i in range(len(p.dice))]
    words = ["passion", "confidence", "insight", "others", "self", "give_creator", "to_misery"]
    values: list[object] = [*ids, *words, -1, 0, 1, 2, 3, 5, 6, 7, True, False, [1], [2, 1], None]
    out = []
    for template in match.legal_actions(seat):
        base = fill(template, rng)
        out.append(base)
        for name in base.args:
            out.extend(Action(seat, base.type, {**base.args, name: rng.choice(values)}) for _ in range(3))
    for kind, params in mb_rules.PARAMS.items():
        args = {name: rng.choice(values) if name not in ("intent", "text") else "words" for name in params}
        out.append(Action(seat, kind, args))
    return out


@settings(max_examples=10)
@given(seed=st.integers(0, 10**6), rich=st.booleans())
def test_listed_actions_are_exactly_the_accepted_ones(seed, rich) -> None:
    """legal_actions is complete and exact: an action passes check iff it matches a listed one."""
    match = play(seed, 3, {"session_actions": 6}, rich, steps=0)
    rng = random.Random(seed)
    for _ in range(60):
        pending = match.pending()
        if pending.is_over:
            break
        if pending.is_chance:
            match.deal()
            continue
        before = canonical_json(GAME.to_position(match.state))
        for seat in GAME.seats(match.state):
            legal = match.legal_actions(seat)
            for action in _candidates(match, seat, rng):
                if action.type == "decide_success" and not isinstance(action.args.get("succeeds"), bool):
                    continue  # the core's matching takes 1 for True; the rules refuse a number
                listed = any(matches(t, action) for t in legal)
                try:
                    match.check(action)
                    accepted = True
                except IllegalAction as exc:
                    accepted = False
                    assert exc.reason
                assert accepted == listed, action.notation()
        assert canonical_json(GAME.to_position(match.state)) == before
        seat = pending.seats[rng.randrange(len(pending.seats))]
        legal = match.legal_actions(seat)
        doing = [a for a in legal if a.type not in LOOP_ENDERS]
        match.apply(fill(rng.choice(doing) if doing and rng.random() < 0.85 else rng.choice(legal), rng))
