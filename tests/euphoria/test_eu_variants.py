"""The rulebook's advanced variants as options."""

from __future__ import annotations

from ludica.core import Action, Config, Match
from ludica.games.euphoria import GAME


def _match(players: int, **options) -> Match:
    m = Match(GAME, Config(tuple(f"P{i}" for i in range(players)), options, 5))
    m.run_chance()
    return m


def test_recruit_draft_passes_packs_left() -> None:
    """Rule: [Advanced Variants]"""
    m = _match(3, recruit_draft=True)
    st = m.state
    assert m.pending().phase == "recruit_draft"
    packs = {s: list(st.players[s].dealt) for s in st.seats}
    picks = {}
    for seat in st.seats:
        action = m.legal_actions(seat)[0]
        picks[seat] = action.args["recruit"]
        assert picks[seat] not in str(m.view("p2" if seat != "p2" else "p1"))
        m.apply(action)
    assert sorted(st.players["p2"].dealt) == sorted(r for r in packs["p1"] if r != picks["p1"])
    while m.pending().phase == "recruit_draft":
        for seat in m.pending().seats:
            m.apply(m.legal_actions(seat)[0])
    m.run_chance()
    assert m.pending().phase == "choose_recruits"
    assert all(len(st.players[s].dealt) == 4 for s in st.seats)
    assert picks["p1"] in st.players["p1"].dealt


def test_market_draft_keeps_one_each_and_fills_to_six() -> None:
    """Rule: [Advanced Variants]"""
    m = _match(2, market_draft=True)
    st = m.state
    assert m.pending().phase == "market_draft"
    kept = {}
    for seat in st.seats:
        action = m.legal_actions(seat)[1]
        kept[seat] = action.args["market"]
        m.apply(action)
    m.run_chance()
    assert set(kept.values()) <= set(st.sites.values()) and len(set(st.sites.values())) == 6
    assert kept["p1"] not in str(m.view("p2")) and kept["p1"] in str(m.view("p1"))


def test_double_house_rule_needs_morale_to_pay(make_table) -> None:
    t = make_table(options={"double_house_rule": True})
    t.p("p1").available = [3, 3]
    t.do("p1 place worker=3 space=farm")
    assert t.st.turn == "p2"


def test_morale_and_knowledge_draft_order() -> None:
    m = _match(2, morale_knowledge_draft=True)
    for seat in m.state.seats:
        m.apply(m.legal_actions(seat)[0])
    assert m.pending().phase == "track_draft" and m.pending().seats == ("p1",)
    m.apply(Action.parse("p1 place_token track=knowledge value=1"))
    assert m.pending().seats == ("p2",)
    assert "p2 place_token track=knowledge value=1" not in [a.notation() for a in m.legal_actions("p2")]
    m.apply(Action.parse("p2 place_token track=morale value=6"))
    m.apply(Action.parse("p2 place_token track=knowledge value=2"))
    m.apply(Action.parse("p1 place_token track=morale value=5"))
    p1, p2 = m.state.players["p1"], m.state.players["p2"]
    assert (p1.morale, p1.knowledge, p2.morale, p2.knowledge) == (5, 1, 6, 2)
    assert m.state.phase == "play"


def test_trade_offer_accepted_is_an_exact_exchange(make_table) -> None:
    t = make_table(options={"trades_per_turn": 1}).cards("p1", "bear")
    t.p("p2").goods["gold"] = 2
    t.do("p1 offer_trade to=p2")
    t.do("p1 trade_give item=art-bear")
    t.do("p1 trade_ask item=gold")
    t.do("p1 trade_ask item=done")
    assert "bear" not in str([e.event.to_json() for e in t.match.story(None)])
    t.do("p2 answer_trade answer=accept")
    assert t.p("p1").goods["gold"] == 1 and [c.split("-")[0] for c in t.p("p2").hand] == ["bear"]
    assert "p1 offer_trade to=p2" not in t.legal("p1")


def test_trade_asking_for_cards_they_lack_cannot_be_accepted(make_table) -> None:
    t = make_table(options={"trades_per_turn": 1}).cards("p2", "box")
    t.p("p1").goods["food"] = 1
    t.do("p1 offer_trade to=p2")
    t.do("p1 trade_give item=food")
    t.do("p1 trade_ask item=art-bear")
    assert t.legal("p2") == ["p2 answer_trade answer=decline"]
    t.do("p2 answer_trade answer=decline")
    assert t.p("p1").goods["food"] == 1 and t.pending().seats == ("p1",)
    assert "declines" in t.match.story(None)[-1].event.text


def test_trading_is_on_by_default_one_proposal_per_turn(make_table) -> None:
    """Ruling (docs/rules/euphoria.md, Trading): trading during your own turn is on; the player to
    move may make one trade proposal per turn by default (``trades_per_turn``)."""
    t = make_table()
    assert t.st.options["trades_per_turn"] == 1
    assert "p1 offer_trade to=p2" in t.legal("p1") and "p2 offer_trade to=p1" not in t.legal("p2")
    t.p("p1").goods["food"] = 1
    t.do("p1 offer_trade to=p2")
    t.do("p1 trade_give item=done")  # p2 holds nothing to ask for: the empty offer is withdrawn
    assert "withdraws" in t.match.story(None)[-1].event.text
    assert not any(a.startswith("p1 offer_trade") for a in t.legal("p1"))
    t.refused("p1 offer_trade to=p2", rule="trade")


def test_random_play_with_default_trading_ends_for_every_player_count() -> None:
    """Trading on (the default) still ends random games of 2-6 players well within max_steps."""
    import random

    from ludica.bots.random_bot import play_random
    from ludica.core import Config, Match
    from ludica.games.euphoria import GAME

    for players in range(2, 7):
        for seed in range(3):
            match = Match(GAME, Config(tuple(f"P{i}" for i in range(players)), {}, seed))
            steps = play_random(match, random.Random(seed), check=False)
            assert match.state.phase == "over" and steps < GAME.meta.max_steps // 4
