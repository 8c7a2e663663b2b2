"""Every game ends under any bots (issue 39, point 3), within its documented bound.

Every game, at its fewest and its most players, with heuristic bots at every seat, random bots at
every seat, and both mixes (heuristic at even seats and random at odd ones, and the reverse),
plays to its end within ``GameMeta.max_steps`` (``play_match`` raises past it). Lost Days is also
played by an adversary that frames and withdraws conflicts whenever it may (the loop a bot once
ran for 1,184 cycles): its rule bound (LD-R42) ends every scene's framing, so the game ends too.
The bots themselves are not relied on: the bound is the rules'.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.bots.base import make_bot
from ludica.bots.play import play_match
from ludica.core import CHANCE, Action, Config, Match, available, get_game
from ludica.games.lost_days.conflict import REFRAMINGS
from ludica.lab.playthrough import NAMES
from tests.random_play import random_steps

MIXES = ("heuristic", "random", "heuristic-random", "random-heuristic")
SEEDS = (0, 1)


def _spec(mix: str, index: int) -> str:
    if "-" not in mix:
        return mix
    first, second = mix.split("-")
    return first if index % 2 == 0 else second


def _match(game_id: str, players: int, seed: int) -> Match[Any]:
    return Match(get_game(game_id), Config(tuple(NAMES[:players]), {}, seed))


def _counts(game_id: str) -> list[int]:
    meta = get_game(game_id).meta
    return sorted({meta.players_min, min(meta.players_max, len(NAMES))})


CASES = [(g, n, mix, seed) for g in available() for n in _counts(g) for mix in MIXES for seed in SEEDS]


@pytest.mark.parametrize(("game_id", "players", "mix", "seed"), CASES)
def test_every_game_ends_within_its_bound(game_id: str, players: int, mix: str, seed: int) -> None:
    match = _match(game_id, players, seed)
    seats = [s for s in match.game.seats(match.state) if s != CHANCE]
    bots = {s: make_bot(_spec(mix, i), game_id, seed * 100 + i) for i, s in enumerate(seats)}
    steps = play_match(match, bots, random.Random(seed))  # raises past meta.max_steps
    assert match.is_over() and steps <= match.game.meta.max_steps


FRAMING = ("frame_conflict", "withdraw_conflict")


def _framer(legal: list[Action], rng: random.Random) -> Action:
    return rng.choice([a for a in legal if a.type in FRAMING] or legal)


@pytest.mark.parametrize("seed", range(2))
def test_lost_days_ends_under_a_framer_who_always_withdraws(seed: int) -> None:
    """[LD-R42] Whenever it may, the adversary frames a conflict and withdraws it; otherwise it plays at
    random. No scene sees more than ``REFRAMINGS + 1`` withdrawals and the game ends in bound."""
    rng = random.Random(seed)
    match = _match("lost-days", 3 + seed % 2, seed)
    limit = match.game.meta.max_steps
    withdrawals_in_scene = 0
    most = 0
    for action in random_steps(match, rng, limit, _framer):
        if action is None:
            continue
        if action.type == "frame_scene":
            withdrawals_in_scene = 0
        if action.type == "withdraw_conflict":
            withdrawals_in_scene += 1
            most = max(most, withdrawals_in_scene)
    assert match.is_over(), f"Lost Days did not end within {limit} steps under the adversary"
    assert most == REFRAMINGS + 1  # the adversary used every re-framing the rules allow, no more
