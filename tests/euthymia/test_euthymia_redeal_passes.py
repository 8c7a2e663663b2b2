"""Euthymia's redeal keeps what a seat knows of the identity cards passed by hand.

With ``CM_PASS_MODE=manual`` the cards are passed one at a time: a seat that has received none
yet knows it, so no copy redealt for it may give it one (its own view would then say
"received", telling the copy apart: found by the environment's redeal leak test).
"""

from __future__ import annotations

import random
from typing import Any

from ludica.bots.random_bot import RandomBot, random_step
from ludica.core import Config, Match, get_game


def test_a_seat_that_received_no_card_receives_none_in_a_redeal() -> None:
    game = get_game("euthymia")
    checked = 0
    for seed in range(6):
        match: Match[Any] = Match(game, Config(("A", "B", "C", "D"), {"CM_PASS_MODE": "manual"}, seed))
        rng = random.Random(seed)
        bot = RandomBot(rng)
        for _ in range(400):
            state = match.state
            passes = dict(state.passes)
            if 0 < len(passes) < len(state.players):
                for seat in state.players:
                    if seat in passes.values():
                        continue
                    for n in range(10):
                        copied = game.redeal(state, seat, random.Random(n))
                        assert seat not in copied.passes.values(), (seed, seat, passes, copied.passes)
                        assert game.view(copied, seat) == game.view(state, seat)
                        checked += 1
            if match.is_over() or len(passes) == len(state.players):
                break
            random_step(match, bot, rng)
    assert checked > 0
