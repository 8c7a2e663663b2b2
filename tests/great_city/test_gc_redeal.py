"""The Great City's redeal follows the public record of payments (issue 22).

Every payment but a private gift (R-GC-36) and a secret fate contribution (R-GC-38) is told to the
table, so each other purse is its public balance moved only by the payments the redealing seat did
not see. The redeal keeps that balance, the seat's own purse, contributions and gifts, and the
announced events (who gave, in what order); it draws again only the unseen receivers and amounts.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.bots.random_bot import walk_random
from ludica.bots.samples import snapshot
from ludica.core import Config, Match, get_game
from ludica.games.great_city.redeal import FATE_BOXES
from ludica.games.great_city.state import GreatCityState

GAME = get_game("great-city")


def playthrough(seed: int, players: int, fate: str, every: int = 7) -> list[Match[Any]]:
    """Snapshots of a random game (random bots give and fund fate), every ``every`` steps."""
    names = ("Ann", "Bob", "Cy", "Dee", "Eve")[:players]
    match: Match[Any] = Match(GAME, Config(names, {"fate_contributions": fate}, seed))
    rng = random.Random(seed)
    out: list[Match[Any]] = []
    for step in walk_random(match, rng, check=False):
        if step % every == 0 and not match.pending().is_over:
            out.append(snapshot(match))
    return out


def public_balances(state: GreatCityState, seat: str | None) -> dict[str, int]:
    """Each other purse before the payments ``seat`` did not see (what the record tells it)."""
    out = {s: n for s, n in state.purse.items() if s != seat}
    for giver, to, n in state.hidden_flows or ():
        if seat is None or seat not in (giver, to):
            out[giver] += n
            if to in out:
                out[to] -= n
    return out


def announced(state: GreatCityState, seat: str | None) -> list[tuple[str, str | None]]:
    """The events as the seat knows them: the giver, and the receiver or box only if it took part."""
    flows = state.hidden_flows or []
    return [(g, to if seat in (g, to) or (to in FATE_BOXES and seat == g) else None) for g, to, _n in flows]


def hidden_total(state: GreatCityState, seat: str | None) -> int:
    return sum(n for s, n in state.purse.items() if s != seat) + state.yea + state.nay


CASES = [(seed, players, fate) for seed, players, fate in ((1, 3, "secret"), (2, 4, "secret"), (3, 2, "public"))]


@pytest.mark.parametrize(("seed", "players", "fate"), CASES)
def test_the_bookkeeping_follows_the_record(seed: int, players: int, fate: str) -> None:
    """``hidden_flows`` is exactly the record's gifts and (secret) fate contributions, in order."""
    matches = playthrough(seed, players, fate)
    assert matches
    for match in matches:
        expected = [
            (a.seat, a.args["to_seat"] if a.type == "give_scarabs" else a.args["box"], a.args["n"])
            for a in match.actions
            if a.type == "give_scarabs" or (a.type == "fund_fate" and fate == "secret")
        ]
        assert match.state.hidden_flows == expected


@pytest.mark.parametrize(("seed", "players", "fate"), CASES)
def test_redeal_keeps_public_balances_and_the_seat_own_payments(seed: int, players: int, fate: str) -> None:
    unseen_seen = 0
    for k, match in enumerate(playthrough(seed, players, fate)):
        state = match.state
        for seat in (*state.seats, None):
            balances = public_balances(state, seat)
            for r in range(3):
                new = GAME.redeal(state, seat, random.Random(1000 * k + r))
                assert new.hidden_flows is not None, "the redeal fell back to spreading the sum"
                assert public_balances(new, seat) == balances
                assert announced(new, seat) == announced(state, seat)
                assert all(n >= 0 for n in new.purse.values())
                assert all(n >= 1 for _g, _to, n in new.hidden_flows)
                assert hidden_total(new, seat) == hidden_total(state, seat)
                assert GAME.invariants(new) == []
                if seat is not None:
                    assert new.purse[seat] == state.purse[seat]
                    assert new.contributions.get(seat) == state.contributions.get(seat)
                    mine = [f for f in state.hidden_flows or () if seat in f[:2]]
                    assert [f for f in new.hidden_flows if seat in f[:2]] == mine
                    assert GAME.view(new, seat) == GAME.view(state, seat)
                unseen_seen += any(seat not in f[:2] for f in state.hidden_flows or ())
    assert unseen_seen, "no state had a payment to redraw"


def test_a_purse_no_unseen_payment_touched_is_known_exactly() -> None:
    """With no unseen gift at all, a seat that made no unseen payment keeps its true purse."""
    checked = 0
    for k, match in enumerate(playthrough(4, 4, "secret", every=5)):
        state = match.state
        for seat in state.seats:
            flows = [f for f in state.hidden_flows or () if seat not in f[:2]]
            if any(to not in FATE_BOXES for _g, to, _n in flows):
                continue
            new = GAME.redeal(state, seat, random.Random(k))
            for other in state.seats:
                if other != seat and all(g != other for g, _to, _n in flows):
                    assert new.purse[other] == state.purse[other]
                    checked += 1
    assert checked


def test_the_redeal_does_not_follow_the_true_unseen_amounts() -> None:
    """Different draws give different purses where unseen payments allow it (it is a redraw)."""
    for k, match in enumerate(playthrough(2, 4, "secret")):
        state = match.state
        if sum(1 for g, to, _n in state.hidden_flows or () if "p1" not in (g, to)) >= 3:
            draws = {tuple(GAME.redeal(state, "p1", random.Random(r)).purse.values()) for r in range(20)}
            assert len(draws) > 1, k
            return
    pytest.fail("no state with three unseen payments")


def test_a_state_read_from_a_position_spreads_the_hidden_sum() -> None:
    """Its past is not in the position: the redeal can only spread the sum (and stays consistent)."""
    match = playthrough(1, 3, "secret")[-1]
    state = GAME.from_position(GAME.to_position(match.state), match.config)
    assert state.hidden_flows is None
    for seat in state.seats:
        new = GAME.redeal(state, seat, random.Random(5))
        assert GAME.view(new, seat) == GAME.view(state, seat)
        assert GAME.invariants(new) == []
        assert hidden_total(new, seat) == hidden_total(state, seat)
