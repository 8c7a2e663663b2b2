"""Every option says what it does (DESIGN.md principles 15 and 16), checked along play.

Along seeded random and heuristic play of every game, at every player count it allows, every
decision of the first :data:`STEPS` plies is looked at, for every seat deciding: every option
offered (each legal action, a field filled with its lowest value) must have a consequence text
from its game's namer (``Namer.consequence``: the hand-written effect and the floor computed by
the rules); two options whose computed results differ must never read the same; with hidden
information the consequence must read the same from a redeal of what the seat cannot see (it
reveals nothing), and never claim a change the true state would not make. Every value of the first
step of a choice composed step by step says something too (``option_note``: what it leads to when
it does not complete the action).

A new action a game adds without a consequence fails here. Runtime: bounded by :data:`STEPS`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from ludica.bots.base import make_bot
from ludica.bots.play import bot_step
from ludica.bots.random_bot import RandomBot, random_step
from ludica.core import Match, available, get_game
from ludica.core.actions import CHANCE
from ludica.core.composer import Composition, choices, option_note
from ludica.core.consequence import Consequence, changes, filled_in, forget
from ludica.core.names import Namer, namer_of
from ludica.lab.playthrough import default_config

STEPS = 36
"""The plies of each seeded game walked; every decision among them is checked."""
SAMPLED = {("euthymia", "commit_start_card"), ("lost-days", "place_bid")}
"""Options whose preview the few redeals (``consequence.REDEALS``) can all agree on by chance while
the truth differs: who starts the hour depends on every hidden start card, who buys a memory on
every sealed bid, and three redeals may all deal the others lower ones. Their previews are checked
for a redeal's stability, not against the truth."""
CASES = [
    (game_id, players, mode)
    for game_id in available()
    for players in range(get_game(game_id).meta.players_min, get_game(game_id).meta.players_max + 1)
    for mode in ("random", "heuristic")
]


def _decisions(game_id: str, players: int, mode: str, seed: int) -> Iterator[tuple[Match[Any], str]]:
    """``(match, seat)`` for every seat deciding at every decision of one seeded game's first
    :data:`STEPS` plies."""
    game = get_game(game_id)
    match: Match[Any] = Match(game, default_config(game_id, players, seed))
    rng = random.Random(seed)
    bot = RandomBot(rng)
    seats = game.seats(match.state)
    bots = {s: make_bot("heuristic", game_id, seed=i) for i, s in enumerate(seats)} if mode == "heuristic" else {}
    for _ in range(STEPS):
        pending = match.pending()
        if pending.is_over:
            return
        if not pending.is_chance:
            for seat in pending.seats:
                if seat != CHANCE:
                    yield match, seat
        if mode == "heuristic":
            bot_step(match, bots, rng, pending=pending)
        else:
            random_step(match, bot, rng, pending=pending)


def _result(namer: Namer, found: Consequence) -> tuple[Any, ...]:
    """What an option results in, as a player could tell: its signature less the changes its
    game declares quiet."""
    said = tuple(
        str(c)
        for c in found.changes
        if c.key not in namer.QUIET_KEYS and not any(step in namer.QUIET_KEYS for step in c.path)
    )
    return (said, *found.signature[1:])


def _check(match: Match[Any], seat: str) -> list[str]:
    game, state = match.game, match.state
    namer = namer_of(match, seat)
    problems = []
    read: dict[str, tuple[Any, str]] = {}
    hidden = game.meta.hidden_information
    other = game.redeal(state, seat, random.Random(99)) if hidden else None
    for template in match.legal_actions(seat):
        action = filled_in(template)
        text = namer.consequence(action)
        where = f"{game.meta.id} {len(match.config.players)}p {action}"
        if not text:
            problems.append(f"{where}: no consequence")
            continue
        found = namer.computed(action)
        result = _result(namer, found)
        seen = read.setdefault(text, (result, str(action)))
        if seen[0] != result:
            problems.append(f"{where}: reads as {seen[1]} ({text!r}) though its result differs")
        if other is not None:
            forget()  # computed afresh from the redeal, not remembered from the true state
            there = namer_of(match, seat)
            there.state = other
            if there.consequence(action) != text:
                problems.append(f"{where}: reads otherwise in a redeal: {text!r} / {there.consequence(action)!r}")
            if (game.meta.id, action.type) not in SAMPLED:
                problems += _true(game, state, action, found, where)
    for choice in choices(match.legal_actions(seat)):
        composing = Composition(choice)
        step = composing.ask()
        if step is None:
            continue
        for value in step.values:
            if not option_note(namer, composing, step.param, value):
                problems.append(f"{game.meta.id} {choice.type} {step.param}={value!r}: a step with no consequence")
    return problems


def _true(game: Any, state: Any, action: Any, found: Consequence, where: str) -> list[str]:
    """A preview never claims a change the true state would not make."""
    after = game.copy(state)
    try:
        game.check(after, action)
        game.play(after, action)
    except Exception:  # refused in truth: the preview may not claim changes
        return [f"{where}: previews changes of an action refused in truth"] if found.changes else []
    true = {str(c) for c in changes(game.view(state, action.seat), game.view(after, action.seat))}
    return [f"{where}: previews {c} that does not happen" for c in found.changes if str(c) not in true]


@pytest.mark.parametrize(("game_id", "players", "mode"), CASES)
def test_every_option_says_its_consequence(game_id: str, players: int, mode: str) -> None:
    problems: list[str] = []
    for match, seat in _decisions(game_id, players, mode, seed=players):
        problems += _check(match, seat)
    assert not problems, "\n".join(dict.fromkeys(problems[:12]))
