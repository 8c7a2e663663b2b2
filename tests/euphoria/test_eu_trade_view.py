"""What each seat sees of a trade on the table (rulebook "Trading"; docs/rules/euphoria.md,
"Hidden information"): the offerer sees what it names while it composes the offer, the partner
sees the offer it is asked to answer, and the other seats see only who is asked what."""

from __future__ import annotations

import random

from ludica.bots.base import Situation
from ludica.games.euphoria import GAME, bot
from ludica.games.euphoria.bot_view import seen_of_state, seen_of_view
from ludica.games.euphoria.view import render


def _offer(make_table):  # type: ignore[no-untyped-def]
    t = make_table(players=3, options={"trades_per_turn": 1}).cards("p1", "bear")
    t.p("p2").goods["gold"] = 2
    t.do("p1 offer_trade to=p2")
    t.do("p1 trade_give item=art-bear")
    return t


def test_the_offerer_sees_the_offer_it_composes_and_no_one_else_does(make_table) -> None:
    t = _offer(make_table)
    t.do("p1 trade_ask item=gold")
    shown = {"from": "p1", "to": "p2", "give": ["art-bear"], "ask": ["gold"]}
    assert GAME.view(t.st, "p1")["trade"] == shown
    assert "trade on the table: p1 gives art-bear to p2 for gold" in render(GAME.view(t.st, "p1"))
    for seat in ("p2", "p3", None):
        assert "trade" not in GAME.view(t.st, seat)
        assert "bear" not in str(GAME.view(t.st, seat))


def test_the_partner_sees_the_offer_it_answers_and_the_third_seat_does_not(make_table) -> None:
    t = _offer(make_table)
    t.do("p1 trade_ask item=gold")
    t.do("p1 trade_ask item=done")
    shown = {"from": "p1", "to": "p2", "give": ["art-bear"], "ask": ["gold"]}
    assert GAME.view(t.st, "p1")["trade"] == shown
    assert GAME.view(t.st, "p2")["trade"] == shown
    assert "trade" not in GAME.view(t.st, "p3") and "bear" not in str(GAME.view(t.st, "p3"))
    said = {seat: GAME.namer(t.st, seat).situation() or "" for seat in ("p1", "p2", "p3")}
    assert "Bear" in said["p2"] or "bear" in said["p2"]
    assert "bear" not in said["p3"].lower() and "gold" not in said["p3"]
    for seat in ("p1", "p2", "p3"):
        assert seen_of_state(t.st, seat).facts() == seen_of_view(GAME.view(t.st, seat), seat).facts()
    # a redeal for the partner keeps the offer it sees (and the offerer holding a bear)
    again = GAME.redeal(t.st, "p2", random.Random(3))
    assert GAME.view(again, "p2")["trade"] == shown
    t.do("p2 answer_trade answer=accept")
    assert all("trade" not in GAME.view(t.st, seat) for seat in ("p1", "p2", "p3"))


def test_the_heuristic_weighs_an_offer(make_table) -> None:
    """A bear card for a gold it holds two of, with a hand that has room: it accepts; asked for
    its only gold while gold is wanted on a site, for nothing: it declines."""
    t = _offer(make_table)
    t.do("p1 trade_ask item=gold")
    t.do("p1 trade_ask item=done")
    legal = GAME.legal_actions(t.st, "p2")
    decision = bot.decide(Situation(GAME, "p2", GAME.view(t.st, "p2"), legal), random.Random(1))
    assert decision.action.args["answer"] == "accept"

    t = make_table(players=3, options={"trades_per_turn": 1})
    t.p("p2").goods["gold"] = 1
    t.do("p1 offer_trade to=p2")
    t.do("p1 trade_ask item=gold")  # nothing else to name: the offer is made
    legal = GAME.legal_actions(t.st, "p2")
    decision = bot.decide(Situation(GAME, "p2", GAME.view(t.st, "p2"), legal), random.Random(1))
    assert decision.action.args["answer"] == "decline"
