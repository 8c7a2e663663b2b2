"""Since your last turn (ludica/core/digest.py): along seeded play of every game, each seat's
digest holds every story line it may see since its last action, grouped by player, its own first;
its public part holds no line a spectator may not read."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.bots.base import situation
from ludica.bots.random_bot import RandomBot
from ludica.core import Config, Match, get_game
from ludica.core.digest import digest, last_turn
from ludica.core.registry import available


@pytest.mark.parametrize("game_id", [g for g in available() if g != "pig"])
def test_every_digest_holds_what_happened_since_the_seats_last_action(game_id: str) -> None:
    game = get_game(game_id)
    names = ("Ann", "Ben", "Cat", "Dan")[: 4 if game_id == "great-city" else 3]
    match: Match[Any] = Match(game, Config(names, {}, 5))
    bot = RandomBot(random.Random(5))
    for _ in range(150):
        pending = match.pending()
        if pending.is_over:
            break
        if pending.is_chance:
            match.run_chance()
            continue
        seat = pending.seats[0]
        start = max(0, last_turn(match, seat))
        parts = digest(match, seat)
        lines = [entry for part in parts for entry in part.entries]
        expected = [e for e in match.log if e.step >= start and e.event.visible(seat)]
        assert sorted(lines, key=lambda e: e.step) == expected  # nothing lost, nothing added
        assert len({part.who for part in parts}) == len(parts)  # one group per player
        if any(part.who == seat for part in parts):
            assert parts[0].who == seat  # its own results first
        public = [entry for part in digest(match, seat, public=True) for entry in part.entries]
        assert all(entry.event.visible(None) for entry in public)
        match.apply(bot.decide(situation(match, seat)).as_action())
