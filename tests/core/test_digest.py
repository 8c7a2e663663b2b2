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
        order = lambda e: (e.step, e.event.kind, e.event.text)  # noqa: E731  (a turn's line may change group)
        assert sorted(lines, key=order) == sorted(expected, key=order)  # nothing lost, nothing added
        assert len({part.who for part in parts}) == len(parts)  # one group per player
        if any(part.who == seat for part in parts):
            assert parts[0].who == seat  # its own results first
        public = [entry for part in digest(match, seat, public=True) for entry in part.entries]
        assert all(entry.event.visible(None) for entry in public)
        match.apply(bot.decide(situation(match, seat)).as_action())


def test_a_line_saying_whose_turn_begins_is_that_players() -> None:
    """ "turn 4: Bot Two" was listed under "You" (the seat whose action ended its turn)."""
    game = get_game("euphoria")
    match: Match[Any] = Match(game, Config(("Ann", "Ben", "Cat"), {}, 5))
    bot = RandomBot(random.Random(5))
    checked = 0
    for _ in range(400):
        pending = match.pending()
        if pending.is_over:
            break
        if pending.is_chance:
            match.run_chance()
            continue
        seat = pending.seats[0]
        for part in digest(match, seat):
            for entry in part.entries:
                if entry.event.kind == "turn":
                    checked += 1
                    assert entry.event.text.endswith(f": {part.who}"), (part.who, entry.event.text)
        match.apply(bot.decide(situation(match, seat)).as_action())
    assert checked > 10


def test_no_players_lines_vanish_when_a_digest_is_cut() -> None:
    """A long digest gives way by its earliest lines, each player keeping its latest (the web
    table kept only the first and the last lines, and a player in between lost all of theirs);
    the terminal names the players it has no room for."""
    from ludica.core.digest import Part, trim
    from ludica.core.game import Event
    from ludica.core.match import LogEntry
    from ludica.core.names import Namer
    from ludica.terminal import digest_lines

    def part(who: str, n: int) -> Part:
        return Part(who, tuple(LogEntry(i, Event("x", f"{who} line {i}")) for i in range(n)))

    parts = [part("p1", 3), part("p2", 40), part("p3", 2), part("p4", 30)]
    cut = trim(parts, 20)
    left = [len(p.entries) - c for p, c in zip(parts, cut, strict=True)]
    assert sum(left) <= 20 and all(n >= 1 for n in left)
    assert cut[0] == cut[2] == 0  # the short groups stay whole
    for budget in (2, 3, 4, 6):
        lines = digest_lines(parts, Namer(None, None, None), "p1", budget)
        assert len(lines) <= budget and lines[-1].startswith("… ") and "•" not in lines[-1], lines
        for who in ("p2", "p3", "p4"):  # each player has its heading or is named in the last line
            assert f"{who}:" in lines or who in lines[-1], (budget, who, lines)
