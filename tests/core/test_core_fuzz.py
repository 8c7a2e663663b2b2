"""Issue 14's fuzz test, through :class:`Match`: random legal play interleaved with random
ill-formed actions and chance outcomes, for every game. Each ill-formed one must be refused with a
reason (a :class:`LudicaError` naming a rule) and change nothing (same digest, record and log).

Bounded in time: ``LUDICA_FUZZ_SECONDS`` per game (default 3), whatever the machine's speed.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

import pytest

from ludica.bots.random_bot import RandomBot
from ludica.core import CHANCE, Action, Config, IntRange, LudicaError, MalformedAction, Match, Text, fill, get_game
from ludica.core.chance import ChanceStep, Roll, Shuffle

GAMES = ("great-city", "euthymia", "misery-bubblegum", "lost-days", "euphoria", "pig")
SECONDS = float(os.environ.get("LUDICA_FUZZ_SECONDS", "3"))
ODD_VALUES: tuple[Any, ...] = (-1, 0, 10**9, 1.5, True, False, None, "zz-not-a-thing", "", [], {}, [[[]]], {"x": 1})


def odd_versions(value: Any) -> list[Any]:
    """Values near ``value`` that a careless or hostile client might send instead of it."""
    out = list(ODD_VALUES)
    if isinstance(value, bool):
        out += [int(value), str(value).lower()]
    elif isinstance(value, int):
        out += [float(value), str(value), value + 10**6, bool(value % 2)]
    elif isinstance(value, str):
        out += [value.upper() + "_", " " + value, [value], value * 3]
    elif isinstance(value, list) and value:
        out += [value[:-1], [*value, value[0]], [*reversed(value), None], [str(v) for v in value]]
    return out


def ill_formed(match: Match[Any], rng: random.Random) -> list[Action]:
    """A handful of actions of a pending seat (or an idle one) that the rules must refuse,
    unless they happen to be legal (the caller skips those)."""
    pending = match.pending()
    seat = rng.choice(pending.seats)
    legal = match.legal_actions(seat)
    base = fill(rng.choice(legal), rng)
    out = [
        Action(seat, base.type, rng.choice(([1, 2], "args", None, 7, [["k", "v"]]))),
        Action(seat, "zz_no_such_action", dict(base.args)),
        Action(seat, base.type, {**base.args, "zz_extra": 1}),
        Action(rng.choice(("", "p99", CHANCE, "table", "gm")), base.type, dict(base.args)),
        Action(seat, "", dict(base.args)),
    ]
    idle = [s for s in match.game.seats(match.state) if s not in pending.seats]
    if idle:
        out.append(Action(rng.choice(idle), base.type, dict(base.args)))
    for key, value in base.args.items():
        args = dict(base.args)
        del args[key]
        out.append(Action(seat, base.type, args))
        out.append(Action(seat, base.type, {**base.args, key: rng.choice(odd_versions(value))}))
    template = next((t for t in legal if t.type == base.type and t.is_template), None)
    if template is not None:
        for key, spec in template.args.items():
            if isinstance(spec, Text):
                bad = rng.choice(("", "   ", "\n\t", "x" * (spec.max_len + 1), f"{spec.prefix}   ", 42))
                out.append(fill(Action(seat, base.type, {**template.args, key: bad}), rng))
            elif isinstance(spec, IntRange):
                bad = rng.choice((spec.lo - 1, spec.hi + 1, float(spec.lo), str(spec.lo), True))
                out.append(fill(Action(seat, base.type, {**template.args, key: bad}), rng))
    return out


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        (("p1", "bid", {}, 5), "narration"),
        (("p1", "bid", {}, ["x"]), "narration"),
        (("p1", 7), "type"),
        (("p1", None), "type"),
        ((3, "bid"), "seat"),
        ((None, "bid", {"n": 1}), "seat"),
    ],
)
def test_an_action_with_a_field_not_text_is_malformed(fields: tuple[Any, ...], named: str) -> None:
    """In both builds: the compiled kernels could not even hold such an action."""
    with pytest.raises(MalformedAction, match=f"an action's {named} must be text"):
        Action(*fields)


def bad_outcomes(match: Match[Any], rng: random.Random) -> list[Action]:
    """Chance actions that are never a valid outcome of the step due."""
    step: ChanceStep = match.game.chance_step(match.state)
    good = match.dealer.fill(step, len(match.actions))
    args, key = dict(good.args), step.key
    value = list(args[key])
    out = [
        Action(CHANCE, step.type, {**args, "zz_extra": 1}),
        Action(CHANCE, step.type + "_zz", args),
        Action(CHANCE, step.type, {k: v for k, v in args.items() if k != key}),
        Action(CHANCE, step.type, {**args, key: rng.choice((3, "3", None, {"0": 1}))}),
        Action(CHANCE, step.type, {**args, key: [*value, value[0] if value else 1]}),
        Action(CHANCE, step.type, rng.choice(([1], "x", None))),
        Action("p1", step.type, args),
    ]
    if value:
        i = rng.randrange(len(value))
        for odd in (float(value[i]) if isinstance(value[i], int) else 0.5, True, None, [value[i]], str(value[i]) + "?"):
            out.append(Action(CHANCE, step.type, {**args, key: [*value[:i], odd, *value[i + 1 :]]}))
        out.append(Action(CHANCE, step.type, {**args, key: value[:-1]}))
    if isinstance(step, Roll) and value:
        out.append(Action(CHANCE, step.type, {**args, key: [0, *value[1:]]}))
        out.append(Action(CHANCE, step.type, {**args, key: [*value[:-1], step.sides[-1] + 1]}))
    if isinstance(step, Shuffle) and len(value) > 1:
        out.append(Action(CHANCE, step.type, {**args, key: [value[1], *value[1:]]}))
    for name in step.extra:
        out.append(Action(CHANCE, step.type, {**args, name: "zz"}))
    return out


def is_legal(match: Match[Any], action: Action) -> bool:
    pending = match.pending()
    if action.seat == CHANCE or not isinstance(action.seat, str) or action.seat not in pending.seats:
        return False
    if not isinstance(action.type, str) or not isinstance(action.args, dict):
        return False
    if action.narration is not None and not isinstance(action.narration, str):
        return False
    return match.legal_matches(action)


def assert_all_refused(match: Match[Any], actions: list[Action]) -> int:
    before = (match.digest(), len(match.actions), len(match.log))
    refused = 0
    for action in actions:
        if is_legal(match, action):
            continue
        try:
            match.apply(action)
        except LudicaError as exc:
            assert exc.reason and exc.rule, f"a refusal without a reason or rule: {exc!r}"
            refused += 1
        except Exception as exc:  # the point: no other exception may escape
            raise AssertionError(f"{match.game.meta.id}: {action!r} crashed with {exc!r}") from exc
        else:
            raise AssertionError(f"{match.game.meta.id}: ill-formed {action!r} was accepted")
        assert len(match.actions) == before[1], f"{action!r} changed the record"
    assert (match.digest(), len(match.actions), len(match.log)) == before, "a refused action changed the match"
    return refused


@pytest.mark.parametrize("game_id", GAMES)
def test_fuzz_match_refuses_ill_formed_actions_and_changes_nothing(game_id: str) -> None:
    game = get_game(game_id)
    rng = random.Random(f"fuzz:{game_id}")
    deadline = time.monotonic() + SECONDS
    refused = games = 0
    while time.monotonic() < deadline:
        n = rng.randint(game.meta.players_min, min(game.meta.players_max, 5))
        match: Match[Any] = Match(game, Config(tuple(f"P{i}" for i in range(n)), {}, rng.randrange(10**6)))
        bot = RandomBot(rng)
        games += 1
        for _ in range(game.meta.max_steps):
            pending = match.pending()
            if pending.is_over or time.monotonic() >= deadline:
                break
            if rng.random() < 0.25:
                refused += assert_all_refused(
                    match, bad_outcomes(match, rng) if pending.is_chance else ill_formed(match, rng)
                )
            if pending.is_chance:
                match.deal()
            else:
                match.apply(bot.choose(match, rng.choice(pending.seats)))
    assert refused > 0 and games > 0
