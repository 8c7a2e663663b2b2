"""``Game.explain_refusal`` (issue 14, point 13): asked by ``Match.check`` for a seat the game is not
waiting for. Over random play, another seat's legal action taken by a seat that is not asked is
refused with an :class:`IllegalAction` (never a traceback), changes nothing, and names a rule."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.bots.random_bot import walk_random
from ludica.core import CHANCE, Action, Config, IllegalAction, Match, fill
from ludica.core.match import canonical_json
from ludica.core.registry import get_game

GAMES = {"euthymia": ("Ann", "Bob", "Cat", "Dan"), "lost-days": ("Ann", "Bob", "Cat"), "euphoria": ("Ann", "Bob")}


def refuse_others(match: Match[Any], rng: random.Random) -> int:
    """Try every pending seat's listed actions as each seat that is not asked; count the refusals
    that named a rule other than the turn order."""
    pending = match.pending().seats
    if not pending or pending == (CHANCE,):
        return 0
    others = [s for s in match.game.seats(match.state) if s not in pending]
    before = canonical_json(match.game.to_position(match.state))
    named = 0
    for seat in pending:
        for template in match.legal_actions(seat)[:12]:
            action = fill(template, rng)
            for other in others:
                with pytest.raises(IllegalAction) as refusal:
                    match.check(Action(other, action.type, dict(action.args)))
                assert refusal.value.rule, refusal.value
                named += refusal.value.rule != "turn order"
    assert canonical_json(match.game.to_position(match.state)) == before
    return named


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_point13_refusals_of_seats_not_asked_never_crash_and_change_nothing(game_id: str) -> None:
    rng = random.Random(14)
    for seed in range(2):
        match: Match[Any] = Match(get_game(game_id), Config(GAMES[game_id], {}, seed))
        for steps in walk_random(match, random.Random(seed)):
            if steps >= 300:
                break  # a bounded look, not a whole game
            if steps % 3 == 0:
                refuse_others(match, rng)
