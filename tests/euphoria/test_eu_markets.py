"""Each of the 18 market penalties, applied exactly to the players without a star on it."""

from __future__ import annotations

import pytest

from ludica.games.euphoria.oracle import MARKETS


def built(t, market: str, owners: tuple[str, ...] = ("p2",), site: str = "subterran_site_B") -> None:
    t.st.sites[site] = market
    t.st.built[site] = list(owners)


def test_laboratory_of_selective_genetics(make_table) -> None:
    t = make_table()
    built(t, "laboratory_of_selective_genetics")
    t.p("p1").goods["energy"] = 3
    t.do("p1 place worker=1 space=worker_activation_energy")
    assert t.p("p1").workers == 2 and t.p("p1").knowledge == 1 and not t.pending().is_chance


def test_laboratory_lets_a_lone_worker_get_a_partner(make_table) -> None:
    t = make_table()
    built(t, "laboratory_of_selective_genetics")
    t.p("p1").goods["energy"] = 3
    t.p("p1").workers, t.p("p1").available = 1, [1]
    t.do("p1 place worker=1 space=worker_activation_energy")
    t.roll(3)
    assert t.p("p1").workers == 2


def test_laboratory_spares_its_builders(make_table) -> None:
    t = make_table()
    built(t, "laboratory_of_selective_genetics", ("p1",))
    t.p("p1").goods["energy"] = 3
    t.do("p1 place worker=1 space=worker_activation_energy")
    t.roll(3)
    assert t.p("p1").workers == 3


def test_spa_of_fleeting_pleasure(make_table) -> None:
    t = make_table()
    built(t, "spa_of_fleeting_pleasure")
    t.st.occupants = {"euphorian_tunnel": [["p1", 4]]}
    t.p("p1").workers, t.p("p1").goods["energy"] = 3, 1
    t.refused("p1 place worker=1 space=euphorian_tunnel", rule="place")


def test_courthouse_of_hasty_judgement(make_table) -> None:
    t = make_table().cards("p1", "bear", "bear")
    built(t, "courthouse_of_hasty_judgement")
    t.p("p1").morale = 2
    t.refused("p1 place worker=1 space=incinerator_of_historical_accuracy", rule="place")
    t.refused("p1 place worker=1 space=wind_saloon", rule="place")


def test_plaza_of_immortalized_humility(make_table) -> None:
    t = make_table()
    built(t, "plaza_of_immortalized_humility")
    t.p("p1").goods.update(water=4, clay=1)
    t.refused("p1 place worker=1 space=subterran_site_B_market", rule="place")
    t.st.built["subterran_site_B"].append("p1")
    t.do("p1 place worker=1 space=subterran_site_B_market")


def test_fountain_of_wishful_thinking(make_table) -> None:
    t = make_table()
    built(t, "fountain_of_wishful_thinking")
    t.p("p1").available = [3, 3]
    t.do("p1 place worker=3 space=farm")
    assert t.st.turn == "p2"


def test_lounge_of_opulent_frugality(make_table) -> None:
    t = make_table()
    built(t, "lounge_of_opulent_frugality")
    t.st.occupants = {"euphorian_site_A.2": [["p2", 4]]}
    t.p("p2").available = [1]
    t.p("p1").goods.update(clay=1, gold=1)
    t.refused("p1 place worker=1 space=euphorian_site_A.1", rule="place")
    t.do("p1 place worker=1 space=euphorian_site_B.2")


def test_academy_of_mandatory_equality(make_table) -> None:
    t = make_table().recruit("p1", "faith_the_hydroelectrician")
    built(t, "academy_of_mandatory_equality")
    t.do("p1 place worker=1 space=aquifer")
    assert t.p("p1").goods["energy"] == 0


def test_academy_keeps_allegiance_bonuses(make_table) -> None:
    t = make_table().recruit("p1", "faith_the_hydroelectrician")
    built(t, "academy_of_mandatory_equality")
    t.st.allegiance["subterran"] = 2
    t.cards("p1", "bear")
    t.do("p1 place worker=1 space=aquifer")
    assert t.p("p1").goods["water"] == 2


def test_cafeteria_of_nameless_meat(make_table) -> None:
    t = make_table()
    built(t, "cafeteria_of_nameless_meat")
    t.p("p1").morale = 4
    t.st.occupants = {"farm": [["p1", 1]]}
    t.p("p1").available = [2]
    t.do("p1 retrieve worker=farm:1")
    t.roll(4)
    assert t.p("p1").morale == 2


def test_apothecary_of_productive_dreams(make_table) -> None:
    t = make_table()
    built(t, "apothecary_of_productive_dreams")
    t.refused("p1 place worker=1 space=cloud_mine", rule="place")


def test_theater_of_revelatory_propaganda(make_table) -> None:
    t = make_table()
    built(t, "theater_of_revelatory_propaganda")
    t.p("p1").goods["gold"] = 3
    t.do("p1 place worker=1 space=nimbus_loft")
    assert t.st.territory["icarite"] == ["p1"] and t.p("p1").knowledge == 4


def test_registry_of_personal_secrets(make_table) -> None:
    t = make_table().recruit("p1", "katy_the_dietician")
    built(t, "registry_of_personal_secrets")
    t.st.allegiance["euphorian"] = 5
    t.p("p1").goods["energy"] = 1
    t.cards("p1", "bear")
    t.do("p1 place worker=1 space=generator")
    assert t.p("p1").goods["energy"] == 2
    t.p("p1").available = [2]
    t.st.turn = "p1"
    t.st.placed_this_turn = 0
    t.do("p1 place worker=2 space=euphorian_tunnel")
    assert t.pending().phase == "take"


def test_arena_of_peaceful_conflict(make_table) -> None:
    t = make_table()
    built(t, "arena_of_peaceful_conflict")
    t.st.occupants = {"farm": [["p1", 5]]}
    t.p("p1").workers = 3
    t.refused("p1 place worker=1 space=farm", rule="place")
    t.do("p1 place worker=1 space=aquifer")


ROLL_MARKETS = [m.id for m in MARKETS.values() if m.penalty == "roll_loss"]


@pytest.mark.parametrize("market", ROLL_MARKETS)
def test_roll_penalty_markets(make_table, market: str) -> None:
    """Each newly rolled die showing the number costs one good of the player's choice.

    Rule: SP 10
    """
    value = MARKETS[market].value
    t = make_table()
    built(t, market)
    t.p("p1").goods.update(gold=1, water=2)
    t.st.occupants = {"farm": [["p1", 1]], "aquifer": [["p1", 2]]}
    t.p("p1").available = []
    t.do("p1 retrieve worker=aquifer:2")
    t.do("p1 retrieve_more worker=farm:1")
    t.roll(value, value)
    t.do("p1 lose_good good=water")
    t.do("p1 lose_good good=gold")
    assert t.p("p1").goods["water"] == 1 and t.p("p1").goods["gold"] == 0


@pytest.mark.parametrize("market", ROLL_MARKETS)
def test_roll_penalty_spares_builders_and_other_numbers(make_table, market: str) -> None:
    value = MARKETS[market].value
    t = make_table()
    built(t, market, ("p1",))
    t.p("p1").goods.update(water=1)
    t.st.occupants = {"farm": [["p1", 1]]}
    t.p("p1").available = [value % 6 + 1]
    t.do("p1 retrieve worker=farm:1")
    t.roll(value)
    assert t.p("p1").goods["water"] == 1 and t.st.turn == "p2"


def test_every_market_penalty_is_covered() -> None:
    """Rule: SP 23"""
    kinds = {m.penalty for m in MARKETS.values()}
    assert kinds == {
        "block_worker_gain_when_total_in",
        "forbid_self_bump",
        "forbid_pair_payment",
        "forbid_place",
        "cap_placements_per_turn",
        "disable_recruit_abilities",
        "extra_free_retrieve_morale",
        "on_star_placed",
        "no_allegiance_tier_bonuses",
        "forbid_second_worker_in_commodity_area",
        "roll_loss",
    }
