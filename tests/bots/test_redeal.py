"""Redeal (DESIGN principle 12): from states met in random play, a redeal for a seat keeps every
invariant, leaves that seat's view unchanged, never changes the true state, and can be played on
to the end; and what it draws depends only on what the seat sees."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.bots.random_bot import RandomBot, play_random, random_step
from ludica.bots.samples import GAMES, deciders, sampled_states, with_state
from ludica.core import Action, Match, fill, get_game
from ludica.core.match import canonical_json

SEEDS = (1, 2, 3)


@pytest.mark.parametrize("game_id", [*GAMES, "pig"])
@pytest.mark.parametrize("seed", SEEDS)
def test_redeal_keeps_invariants_and_the_view(game_id: str, seed: int) -> None:
    game = get_game(game_id)
    rng = random.Random(seed)
    for match, _steps in sampled_states(game_id, seed, every=7, limit=25):
        before = canonical_json(game.to_position(match.state))
        for seat in [*game.seats(match.state), None]:
            new = game.redeal(match.state, seat, rng)
            assert canonical_json(game.to_position(match.state)) == before, "redeal changed the true state"
            assert game.invariants(new) == game.invariants(match.state) == []
            if seat is not None:
                assert game.view(new, seat) == game.view(match.state, seat)
            assert game.pending(new).seats == game.pending(match.state).seats


@pytest.mark.parametrize("game_id", [*GAMES, "pig"])
def test_redealt_states_play_to_the_end(game_id: str) -> None:
    game = get_game(game_id)
    states = sampled_states(game_id, 11, every=40, limit=3)
    assert states
    for i, (match, _steps) in enumerate(states):
        seat = game.seats(match.state)[i % len(game.seats(match.state))]
        new = game.redeal(match.state, seat, random.Random(i))
        played: Match[Any] = with_state(match, new)
        play_random(played, random.Random(i), check=True)
        assert played.is_over()


@pytest.mark.parametrize("game_id", [*GAMES, "pig"])
def test_redeal_depends_only_on_what_the_seat_sees(game_id: str) -> None:
    """Two states that differ only in what the seat cannot see redeal to the same state."""
    game = get_game(game_id)
    for match, _steps in sampled_states(game_id, 5, every=9, limit=12):
        for seat in game.seats(match.state):
            other = game.redeal(match.state, seat, random.Random(99))
            a = game.redeal(match.state, seat, random.Random(7))
            b = game.redeal(other, seat, random.Random(7))
            assert canonical_json(game.to_position(a)) == canonical_json(game.to_position(b))


@pytest.mark.parametrize("game_id", [*GAMES, "pig"])
def test_every_choice_of_the_deciding_seat_can_be_taken_after_a_redeal(game_id: str) -> None:
    """What the seat may do is the same, and each of its choices plays in the imagined state."""
    game = get_game(game_id)
    rng = random.Random(3)
    for match, _steps in sampled_states(game_id, 8, every=5, limit=40):
        for seat in deciders(match):
            new = game.redeal(match.state, seat, rng)
            legal = game.legal_actions(new, seat)
            assert legal == game.legal_actions(match.state, seat)
            for action in legal:
                imagined = with_state(match, game.copy(new))
                imagined.apply(fill(action, rng))
                for _ in range(3):  # and the game goes on from there
                    if imagined.is_over():
                        break
                    random_step(imagined, RandomBot(rng), rng)


def test_euphoria_trade_offers_show_the_offered_artifacts() -> None:
    """A partner answering a trade knows the offerer holds the artifacts offered (rulebook
    "Trading"); after a redeal the trade can still be accepted and carried out."""
    game = get_game("euphoria")
    found = 0
    for seed in range(40):
        for match, _steps in sampled_states("euphoria", seed, every=1, limit=4000):
            prompt = match.state.prompt
            if prompt is None or prompt[1] != "answer_trade" or "accept" not in prompt[2]:
                continue
            if not any(i.startswith("art-") for i in prompt[3][1]):
                continue
            found += 1
            for i in range(5):
                new = with_state(match, game.redeal(match.state, prompt[0], random.Random(i)))
                new.apply(Action(prompt[0], "answer_trade", {"answer": "accept"}))
            if found >= 3:
                return
    pytest.skip(f"only {found} trade offers with artifacts met")


def test_r_eu_30_the_committee_member_taking_his_reveal_turn_is_known_to_all() -> None:
    """Rule: R-EU-30; [The ninth hour]. The reveal turn is the Committee Member's, in the open,
    before his words reveal him: a redeal for any seat keeps him (it drew another player once,
    whose page then waited for the wrong player)."""
    from tests.redeal_helpers import to_ninth_hour_final_round

    game = get_game("euthymia")
    match = to_ninth_hour_final_round(3, 3)
    rng = random.Random(3)
    while match.state.phase != "CM_REVEAL_TURN":
        random_step(match, RandomBot(rng), rng)
    state = match.state
    assert not state.cm_revealed and state.active_player == state.committee_member
    for seat in (*game.seats(state), None):
        for i in range(8):
            assert game.redeal(state, seat, random.Random(i)).committee_member == state.committee_member
