"""The settled points (shared/euphoria/settled-points.md, "SP n") where the rulebook is silent."""

from __future__ import annotations

from ludica.games.euphoria.oracle import artifact_kind


def test_sp3_you_may_bump_your_own_worker(make_table) -> None:
    t = make_table()
    t.st.occupants = {"euphorian_tunnel": [["p1", 4]]}
    t.p("p1").workers, t.p("p1").goods["energy"] = 3, 1
    t.do("p1 place worker=1 space=euphorian_tunnel")
    t.roll(6)
    assert sorted(t.p("p1").available) == [2, 6]


def test_sp13_a_morale_price_needs_morale_above_it(make_table) -> None:
    t = make_table().recruit("p1", "maxime_the_ambassador")
    t.p("p1").morale = 2
    t.st.occupants = {"euphorian_tunnel": [["p2", 4]]}
    t.p("p2").available = [6]
    t.p("p1").goods["energy"] = 1
    t.do("p1 place worker=1 space=euphorian_tunnel")
    t.roll(2)
    assert t.pending().phase == "take"


def test_sp14_hand_limit_discards_a_single_kind_without_asking(make_table) -> None:
    t = make_table().cards("p1", "bear").deck_top("bear")
    t.p("p1").goods["energy"] = 1
    t.do("p1 place worker=1 space=euphorian_tunnel")
    t.do("p1 take gain=artifact")
    assert len(t.p("p1").hand) == 1 and t.st.turn == "p2"


def test_sp15_the_artifact_deck_is_reshuffled_from_the_discards(make_table) -> None:
    t = make_table()
    deck = t.st.artifacts
    deck.discards, deck.cards = deck.cards[:5], []
    t.p("p1").goods.update(bliss=1, food=1)
    t.p("p1").morale = 3
    t.do("p1 place worker=1 space=breeze_bar")
    assert t.pending().phase == "shuffle_artifacts"
    t.match.deal()
    assert len(t.p("p1").hand) == 2 and len(deck.cards) == 3


def test_sp21_artifact_market_star_on_territory_or_a_market_without_your_star(make_table) -> None:
    t = make_table().cards("p1", "bear", "bear")
    t.st.sites["euphorian_site_B"] = "cafeteria_of_nameless_meat"
    t.st.built["euphorian_site_B"] = ["p2"]
    t.p("p1").morale = 2
    t.do("p1 place worker=1 space=incinerator_of_historical_accuracy")
    assert t.pending().phase == "place_star"
    t.do("p1 place_star on=market:euphorian_site_B")
    assert t.st.built["euphorian_site_B"] == ["p2", "p1"] and t.st.allegiance["euphorian"] == 1


def test_sp27_miner_first_then_tier_two_gives_both(make_table) -> None:
    t = make_table().recruit("p1", "katy_the_dietician").deck_top("bat")
    t.st.allegiance["euphorian"] = 5
    t.p("p1").goods["energy"] = 1
    t.do("p1 place worker=1 space=euphorian_tunnel")
    assert t.p("p1").goods["gold"] == 1 and [artifact_kind(c) for c in t.p("p1").hand] == ["bat"]
    assert t.st.miners["euphorian"] == 1


def test_sp29_no_sacrifice_of_a_last_worker(make_table) -> None:
    t = make_table().recruit("p1", "chase_the_miner")
    t.p("p1").workers, t.p("p1").available = 1, [1]
    t.p("p1").goods["energy"] = 1
    t.do("p1 place worker=1 space=euphorian_tunnel")
    t.do("p1 take gain=gold")
    assert t.st.turn == "p2" and t.p("p1").workers == 1


def test_sp30_the_gambler_once_per_turn(make_table) -> None:
    t = make_table().recruit("p1", "jonathan_the_gambler").deck_top("bear", "box", "book", "bat")
    t.p("p1").goods.update(bliss=1, food=1)
    t.p("p1").morale = 6
    t.do("p1 place worker=1 space=breeze_bar")
    t.do("p1 use_ability choice=decline")
    assert t.st.turn == "p2" and len(t.p("p1").hand) == 2


def test_sp18_a_worker_on_a_construction_site_may_be_retrieved(make_table) -> None:
    t = make_table()
    t.st.occupants = {"euphorian_site_A.1": [["p1", 3]]}
    t.p("p1").available = [2]
    t.do("p1 retrieve worker=euphorian_site_A.1:3")
    t.roll(4)
    assert not t.st.occupants.get("euphorian_site_A.1") and sorted(t.p("p1").available) == [2, 4]


def test_sp25_two_recruits_of_a_faction_do_not_double_its_tier_bonus(make_table) -> None:
    t = make_table().recruit("p1", "katy_the_dietician", "ray_the_foreman")
    t.st.allegiance["euphorian"] = 2
    t.p("p1").available = [3]
    t.do("p1 place worker=3 space=generator")
    assert t.p("p1").goods["energy"] == 2  # one for the 1-4 bracket, one tier-1 bonus, not two
