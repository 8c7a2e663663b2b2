"""Random legal play keeps Euphoria's invariants, hides what must be hidden, and ends."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from ludica.bots.random_bot import RandomBot
from ludica.core import Config, Match
from ludica.games.euphoria import GAME
from ludica.games.euphoria.payments import options, payable
from ludica.games.euphoria.spaces import all_spaces, bumps_rival, legal_spaces, refusal


def _leaves(value, out: set[str]) -> set[str]:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            _leaves(v, out)
    elif isinstance(value, list):
        for v in value:
            _leaves(v, out)
    return out


def _no_leaks(match: Match) -> None:
    secrets = GAME.secrets(match.state)
    for seat in [*match.state.seats, None]:
        leaves = _leaves(match.view(seat), set())
        for entry in match.story(seat):
            _leaves(entry.event.to_json(), leaves)
        for secret in secrets:
            if seat not in secret.holders:
                assert secret.token not in leaves, (seat, secret)


def _fast_listing_agrees(match: Match) -> None:
    """The site-by-site listing of spaces agrees with the one-space judgement used by check."""
    st = match.state
    for seat in st.seats:
        slow = [s for s in all_spaces(st) if refusal(st, seat, s) is None]
        assert sorted(legal_spaces(st, seat)) == sorted(slow)
        for space in all_spaces(st):
            rival = bumps_rival(st, seat, space)
            assert payable(st, seat, space, rival) == bool(options(st, seat, space, rival)), space


@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    revised=st.booleans(),
    house=st.booleans(),
    drafts=st.booleans(),
    trades=st.integers(0, 2),
)
def test_random_play_keeps_invariants(
    seed: int, players: int, revised: bool, house: bool, drafts: bool, trades: int
) -> None:
    """Random legal play (any options) keeps the invariants: worker counts, goods never below
    zero, ten stars each placed or in hand, 36 artifact cards and 48 recruits conserved."""
    options = {
        "printing": "revised" if revised else "original",
        "double_house_rule": house,
        "recruit_draft": drafts,
        "market_draft": drafts,
        "morale_knowledge_draft": drafts,
        "trades_per_turn": trades,
    }
    match = Match(GAME, Config(tuple(f"P{i}" for i in range(players)), options, seed))
    rng = random.Random(seed)
    bot = RandomBot(rng)
    for step in range(600):
        assert GAME.invariants(match.state) == [], step
        pending = match.pending()
        if pending.is_over:
            break
        if pending.is_chance:
            match.deal()
        else:
            seat = pending.seats[rng.randrange(len(pending.seats))]
            match.apply(bot.choose(match, seat))
        if step % 100 == 0:
            _no_leaks(match)
        if step % 20 == 0 and match.state.phase == "play":
            _fast_listing_agrees(match)
    _no_leaks(match)
    for p in match.state.players.values():
        assert p.stars >= 0 and all(v >= 0 for v in p.goods.values())


def test_full_games_of_every_player_count_end() -> None:
    from ludica.bots.random_bot import play_random

    for players in range(2, 7):
        match = Match(GAME, Config(tuple(f"P{i}" for i in range(players)), {}, players))
        play_random(match, random.Random(players))
        assert match.is_over() and GAME.outcome(match.state).winners
        assert GAME.invariants(match.state) == []
