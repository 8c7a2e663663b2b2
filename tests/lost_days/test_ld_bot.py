"""Lost Days' heuristic never repeats a withdrawn conflict (LD-R42): once a conflict it framed is
withdrawn in a scene (its own choice, or the only move left to it while the other side has still
to agree), it frames no conflict again in that scene, whatever the stakes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.bots.base import make_bot, situation
from ludica.core import Match, fill, get_game
from ludica.lab.playthrough import default_config

GAMES = 8


def _play(seed: int, players: int, mix: str) -> tuple[int, list[str]]:
    """One seeded game; the withdrawals seen, and every conflict a heuristic framer framed again
    in a scene after withdrawing one there."""
    game = get_game("lost-days")
    match: Match[Any] = Match(game, default_config("lost-days", players, seed))
    seats = list(game.seats(match.state))
    specs = {s: ("heuristic" if mix == "heuristic" or i % 2 == 0 else "random") for i, s in enumerate(seats)}
    bots = {s: make_bot(spec, "lost-days", seed * 100 + i) for i, (s, spec) in enumerate(specs.items())}
    rng = random.Random(seed)
    withdrawn: set[str] = set()  # framers who withdrew a conflict in the scene in play
    withdrawals, again = 0, []
    for _ in range(game.meta.max_steps):
        pending = match.pending()
        if pending.is_over:
            break
        if pending.is_chance:
            match.deal()
            continue
        seat = rng.choice(pending.seats)
        action = fill(bots[seat].decide(situation(match, seat)).action, rng)
        if action.type in ("frame_scene", "write_out", "restart_story"):
            withdrawn.clear()
        if action.type == "frame_conflict" and seat in withdrawn and specs[seat] == "heuristic":
            again.append(f"seed {seed}, step {len(match.actions)}: {action.notation()}")
        match.apply(action)
        if action.type == "withdraw_conflict":
            withdrawn.add(seat)
            withdrawals += 1
    assert match.is_over()
    return withdrawals, again


@pytest.mark.parametrize("mix", ["heuristic", "heuristic-random"])
def test_the_heuristic_never_frames_again_in_a_scene_after_a_withdrawal(mix: str) -> None:
    seen = 0
    for seed in range(GAMES):
        withdrawals, again = _play(seed, 3 + seed % 2, mix)
        seen += withdrawals
        assert not again, f"framed again after a withdrawal: {again[:3]}"
    assert seen, "no conflict was withdrawn in the batch: the test checks nothing"
