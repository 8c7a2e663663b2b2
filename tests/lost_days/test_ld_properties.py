"""Random legal play: it ends, keeps every invariant, conserves coins, and never shows a sealed bid."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludica.bots.random_bot import RandomBot
from ludica.core import CHANCE, Config, Match
from ludica.core.match import canonical_json
from ludica.games.lost_days import GAME
from ludica.games.lost_days.scenario import act, table

BANK_FLOWS = {
    # spec §1.2: the only actions through which coins enter or leave the bank
    "place_bid",  # the round coin and the kingship coin come when an auction closes a round
    "raise_bid",
    "decline_raise",
    "kingship_raise",
    "kingship_concede",
    "kingship_pass",
    "roll_off",
    "influence",  # coins lost with nothing at stake; spent madness coins
    "take_gain",
    "take_strain",  # a madness coin from the bank when no coin is left (LD-R25)
    "pay_tribute",  # tribute to an opposition played by a non-king
    "narrate_tribute",  # the king's gain from the opposition's sixes comes with the strain-and-gain step
    "narrate_outcome",  # ... or straight after the outcome; and a tainted memory won (LD-R30)
    "pay_tribute_memory",
    "accept_trade",
}


def no_sealed_bid_shown(match: Match[Any]) -> None:
    for secret in GAME.secrets(match.state):
        for seat in [*match.state.seats, None]:
            if seat in secret.holders:
                continue
            shown = canonical_json(match.view(seat)) + canonical_json([e.to_json() for e in match.story(seat)])
            assert secret.token not in shown, f"{seat} sees {secret.what}"


def play(seed: int, players: int) -> Match[Any]:
    match: Match[Any] = Match(GAME, Config(("Ann", "Bob", "Cat", "Dan", "Eve")[:players], {}, seed))
    rng = random.Random(seed)
    bot = RandomBot(rng)
    for _ in range(GAME.meta.max_steps):
        problems = GAME.invariants(match.state)
        assert not problems, problems
        if match.is_over():
            return match
        bank = match.state.bank_out
        pending = match.pending()
        if pending.is_chance:
            action = match.deal()
        else:
            seat = pending.seats[rng.randrange(len(pending.seats))]
            action = bot.choose(match, seat)
            match.apply(action)
        if match.state.bank_out != bank:
            assert action.type in BANK_FLOWS, f"coins moved through the bank on {action.notation()}"
        if match.state.auction is not None and action.seat != CHANCE:
            no_sealed_bid_shown(match)
    raise AssertionError("the game did not end")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(3, 5))
def test_random_legal_play_ends_and_keeps_the_invariants(seed: int, players: int) -> None:
    match = play(seed, players)
    st_ = match.state
    assert GAME.outcome(st_) is not None
    assert all(v >= 0 for v in st_.coins.counts.values())
    assert st_.coins.total() == st_.bank_out
    assert len(st_.sane()) <= 1 or st_.scenes_played >= st_.rules.scene_limit


def test_replay_gives_the_same_game() -> None:
    match = play(7, 4)
    again: Match[Any] = Match(GAME, match.config)
    again.replay(match.actions)
    assert again.digest() == match.digest()


def test_the_copy_is_independent() -> None:
    match = play(3, 3)
    copy = GAME.copy(match.state)
    assert canonical_json(GAME.to_position(copy)) == canonical_json(GAME.to_position(match.state))
    copy.coins.counts["p1"] += 1
    assert copy.coins.counts["p1"] != match.state.coins.counts["p1"]


def test_remembered_legal_actions_follow_the_table() -> None:
    """The pending seats and legal actions remembered for a state are dropped by every action, and a copy
    (or a trade being put together in it) shares nothing with the original."""
    match, ids = table(["Ann", "Bob", "Cat"], purses={"p2": 2}, memories={"a": ("p2", 1), "b": ("p3", 1)}, framer="p2")
    state = match.state
    listed = GAME.legal_actions(state, "p2")
    listed.clear()  # the caller's list is its own
    assert GAME.legal_actions(state, "p2") and GAME.pending(state).seats == ("p2", "p1", "p3")
    act(match, "p2 propose_trade to=p3 give_coins=1 get_coins=0", f"p2 offer_memory memory={ids['a']}")
    assert GAME.pending(state).seats == ("p2",) and {a.type for a in GAME.legal_actions(state, "p2")} == {
        "offer_memory"
    }
    copy = GAME.copy(state)
    act(match, "p2 offer_memory memory=none")
    assert copy.trade.content["step"] == "offer" and GAME.pending(copy).seats == ("p2",)
    assert [a.type for a in GAME.legal_actions(state, "p2")] == ["ask_memory"] * 2
    assert GAME.legal_actions(copy, "p2")[0].type == "offer_memory"
