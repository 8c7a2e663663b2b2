"""The decision memo (``memo.py``): remembered answers never change what the rules say."""

from __future__ import annotations

import random
from typing import Any

from ludica.core import Action, Config, IllegalAction, IntRange, Match, Text, fill
from ludica.core.match import canonical_json
from ludica.games.misery_bubblegum import GAME
from ludica.games.misery_bubblegum.memo import forget
from ludica.games.misery_bubblegum.state import MiseryState


def verdict(state: MiseryState, action: Action) -> tuple[str, str | None]:
    """What ``check`` says: accepted, or the refusal's class and rule."""
    try:
        GAME.check(state, action)
    except IllegalAction as refusal:
        return type(refusal).__name__, refusal.rule
    return "accepted", None


def variants(action: Action, rng: random.Random) -> list[Action]:
    """The action as listed (filled), and near misses of each of its parameters."""
    out = [fill(action, rng)]
    for key, want in action.args.items():
        bad: list[Any] = [True, "x", None]
        if isinstance(want, IntRange):
            bad += [want.lo - 1, want.hi + 1, float(want.lo)]
        elif isinstance(want, Text):
            bad += ["", " ", "y" * 2001]
        elif isinstance(want, bool):
            bad += [int(want)]
        elif isinstance(want, int):
            bad += [want + 7, float(want)]
        for value in bad:
            args = dict(fill(action, rng).args)
            args[key] = value
            out.append(Action(action.seat, action.type, args))
    filled = fill(action, rng)
    out.append(Action(action.seat, action.type, {**filled.args, "extra": 1}))
    out.append(Action("gm" if action.seat != "gm" else "p1", action.type, dict(filled.args)))
    return out


def test_listed_or_not_check_says_the_same() -> None:
    """Accepting listed actions at once agrees with the detailed validators, refusals included."""
    rng = random.Random(7)
    for seed in range(6):
        match: Match[MiseryState] = Match(GAME, Config(("Ann", "Bob", "Cat"), {}, seed))
        for _ in range(250):
            pending = match.pending()
            if pending.is_over:
                break
            if pending.is_chance:
                match.deal()
                continue
            seat = pending.seats[rng.randrange(len(pending.seats))]
            listed = match.legal_actions(seat)
            for action in [a for one in listed for a in variants(one, rng)]:
                forget(match.state)
                cold = verdict(match.state, action)
                match.legal_actions(action.seat)
                assert verdict(match.state, action) == cold, action
            match.apply(fill(rng.choice(listed), rng))


def test_listed_actions_are_accepted_at_once_and_the_memo_is_forgotten() -> None:
    match: Match[MiseryState] = Match(GAME, Config(("Ann", "Bob"), {}, 1))
    state = match.state
    listed = match.legal_actions("p1")
    assert state.memo is not None and state.memo.listed(listed[0])
    position = canonical_json(GAME.to_position(state))
    assert "memo" not in position
    assert GAME.copy(state).memo is None
    match.apply(fill(listed[0], random.Random(1)))
    assert state.memo is None or not state.memo.legal


def test_a_value_of_another_type_is_never_taken_for_a_listed_one(table) -> None:
    """``True`` equals ``1`` in Python, but ``succeeds=1`` is malformed (MB-R11 takes a yes or no)."""
    t = table()
    t.act("p1 call_action pool=passion challenge=1 dice=1 intent=act")
    t.act("p2 oppose pool=passion challenge=6 dice=1")
    t.act("gm pass_opposition")
    t.roll(6, 1)
    t.act("p1 pass_reroll")
    t.act("p2 pass_reroll")
    assert t.pending() == ("p1",)
    t.match.legal_actions("p1")  # the listing is remembered: check looks it up first
    before = canonical_json(GAME.to_position(t.state))
    refusal = verdict(t.state, Action("p1", "decide_success", {"succeeds": 1}))
    assert refusal == ("MalformedAction", "actions")
    assert canonical_json(GAME.to_position(t.state)) == before
