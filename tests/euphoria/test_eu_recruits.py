"""A scenario for each of the 48 recruits' abilities (original printing unless named), and the
revised cards where they differ."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ludica.games.euphoria.oracle import artifact_kind
from ludica.games.euphoria.recruits import drawn_since

if TYPE_CHECKING:
    from tests.euphoria.conftest import Table

REVISED = {"printing": "revised"}


def kinds(hand: list[str]) -> list[str]:
    return sorted(artifact_kind(c) for c in hand)


def bump_at_tunnel(t, rival_face: int = 4, own: int = 1, tunnel: str = "euphorian_tunnel") -> None:
    """p2 sits on a tunnel; p1 places a worker there (p2's die is rolled as a 2)."""
    t.st.occupants = {tunnel: [["p2", rival_face]]}
    t.p("p2").available = [6]
    cost = {"euphorian_tunnel": "energy", "subterran_tunnel": "water", "wastelander_tunnel": "food"}[tunnel]
    t.p("p1").goods[cost] += 1
    t.p("p1").available = [own, 5]
    t.do(f"p1 place worker={own} space={tunnel}")
    t.roll(2)


# ----------------------------------------------------------------------------------- Icarites
def test_maxime_the_ambassador(make_table) -> None:
    t = make_table().recruit("p1", "maxime_the_ambassador").deck_top("bear")
    t.p("p1").morale = 3
    bump_at_tunnel(t)
    t.do("p1 use_ability choice=use")
    t.do("p1 take gain=gold")
    assert t.p("p1").morale == 1 and kinds(t.p("p1").hand) == ["bear"] and t.p("p2").knowledge == 4


def test_zong_the_astronomer(make_table) -> None:
    t = make_table().recruit("p1", "zong_the_astronomer")
    t.do("p1 place worker=1 space=cloud_mine")
    t.do("p1 use_ability choice=water")
    assert t.p("p1").goods["water"] == 1 and t.p("p1").goods["bliss"] == 1


def test_zong_the_astronomer_revised(make_table) -> None:
    t = make_table(options=REVISED).recruit("p1", "zong_the_astronomer").deck_top("box")
    t.do("p1 place worker=1 space=cloud_mine")
    t.do("p1 use_ability choice=use")
    assert t.p("p1").knowledge == 4 and t.p("p2").goods["bliss"] == 1 and kinds(t.p("p1").hand) == ["box"]


def test_amanda_the_broker(make_table) -> None:
    t = make_table().recruit("p2", "amanda_the_broker")
    t.p("p2").goods["bliss"] = 1
    t.st.occupants = {"euphorian_tunnel": [["p2", 4]]}
    t.p("p2").available = [6]
    t.p("p1").goods["energy"] = 1
    t.do("p1 place worker=1 space=euphorian_tunnel")
    t.do("p2 use_ability choice=face-1")
    assert sorted(t.p("p2").available) == [1, 6] and t.p("p1").goods["bliss"] == 1
    assert t.p("p2").goods["bliss"] == 0
    t.sound()


def test_amanda_the_broker_revised_also_on_self_bump(make_table) -> None:
    t = make_table(options=REVISED).recruit("p1", "amanda_the_broker")
    t.p("p1").goods.update(bliss=1, energy=1)
    t.st.occupants = {"euphorian_tunnel": [["p1", 4]]}
    t.p("p1").workers, t.p("p1").available = 3, [1, 2]
    t.do("p1 place worker=1 space=euphorian_tunnel")
    t.do("p1 use_ability choice=face-2")
    assert t.p("p1").goods["bliss"] == 0 and sorted(t.p("p1").available) == [2, 2]


def test_sarinee_the_cloud_miner(make_table) -> None:
    t = make_table().recruit("p1", "sarinee_the_cloud_miner")
    t.do("p1 place worker=1 space=cloud_mine")
    t.do("p1 use_ability choice=knowledge-1")
    assert t.p("p1").knowledge == 2


def test_lee_the_gossip(make_table) -> None:
    t = make_table().recruit("p1", "lee_the_gossip")
    t.p("p1").morale = 2
    bump_at_tunnel(t)
    t.do("p1 use_ability choice=food")
    assert t.p("p1").goods["food"] == 1 and t.p("p1").morale == 1 and t.p("p2").knowledge == 4


def test_gidgit_the_hypnotist(make_table) -> None:
    t = make_table().recruit("p1", "gidgit_the_hypnotist")
    t.p("p1").goods["bliss"] = 1
    t.st.occupants = {"farm": [["p1", 1]]}
    t.p("p1").available = [2]
    t.do("p1 retrieve worker=farm:1")
    t.do("p1 pay with=bliss-for-knowledge")
    t.roll(3)
    assert t.p("p1").knowledge == 1 and t.p("p1").morale == 1


def test_kadan_the_infiltrator(make_table) -> None:
    t = make_table().recruit("p1", "kadan_the_infiltrator")
    t.st.miners["euphorian"] = 9
    t.do("p1 place worker=1 space=euphorian_tunnel_end")
    assert t.p("p1").goods["water"] == 3 and t.p("p1").knowledge == 5


def test_sheppard_the_lobotomist(make_table) -> None:
    t = make_table().recruit("p1", "sheppard_the_lobotomist").deck_top("bat")
    t.p("p1").goods["energy"] = 3
    t.p("p1").morale = 3
    t.do("p1 place worker=1 space=worker_activation_energy")
    t.roll(4)
    t.do("p1 use_ability choice=use")
    assert t.p("p1").morale == 1 and kinds(t.p("p1").hand) == ["bat"]


def test_sheppard_the_lobotomist_sacrifice_on_retrieval(make_table) -> None:
    t = make_table().recruit("p1", "sheppard_the_lobotomist")
    t.st.occupants = {"farm": [["p1", 1]], "aquifer": [["p1", 2]]}
    t.p("p1").available = []
    t.do("p1 retrieve worker=aquifer:2")
    t.do("p1 retrieve_more worker=farm:1")
    t.do("p1 sacrifice worker=sheppard_the_lobotomist:2")
    t.roll(5)
    t.do("p1 take gain=gold")
    p = t.p("p1")
    assert p.workers == 1 and p.goods["bliss"] == 4 and p.goods["gold"] == 1 and p.available == [5]
    t.sound()


def test_flavio_the_merchant_bumping_at_artifact_market(make_table) -> None:
    """Morale 4 - 2 = 2 is the hand limit at once (issue 14): the box drawn is one card too many,
    and the pair that pays the market is kept (the only discard that leaves the cost payable)."""
    t = make_table().recruit("p1", "flavio_the_merchant").cards("p1", "bear", "bear").deck_top("box")
    t.p("p1").morale = 4
    t.st.occupants = {"incinerator_of_historical_accuracy": [["p2", 3]]}
    t.p("p2").available = [6]
    t.do("p1 place worker=1 space=incinerator_of_historical_accuracy")
    t.roll(2)
    t.do("p1 use_ability choice=use")
    assert t.p("p1").morale == 2 and t.p("p1").hand == []
    assert t.st.territory["euphorian"] == ["p1"]


def test_flavio_is_not_offered_when_the_hand_limit_would_leave_the_market_unpaid(make_table) -> None:
    """Morale 3 - 2 = 1: one card could be kept, and the market costs a pair (issue 14: a
    placement's cost is paid in full), so Flavio is not offered."""
    t = make_table().recruit("p1", "flavio_the_merchant").cards("p1", "bear", "bear").deck_top("box")
    t.p("p1").morale = 3
    t.st.occupants = {"incinerator_of_historical_accuracy": [["p2", 3]]}
    t.p("p2").available = [6]
    t.do("p1 place worker=1 space=incinerator_of_historical_accuracy")
    t.roll(2)
    assert t.p("p1").morale == 3 and t.p("p1").hand == [] and t.st.territory["euphorian"] == ["p1"]


def test_flavio_the_merchant_revised(make_table) -> None:
    t = make_table(options=REVISED).recruit("p1", "flavio_the_merchant").cards("p1", "bear", "bear")
    t.deck_top("box")
    t.p("p1").morale = 2
    t.do("p1 place worker=1 space=incinerator_of_historical_accuracy")
    t.do("p1 use_ability choice=use")
    assert t.p("p1").knowledge == 4 and kinds(t.p("p1").hand) == ["box"]


def test_josh_the_negotiator(make_table) -> None:
    t = make_table().recruit("p1", "josh_the_negotiator")
    t.st.sites["subterran_site_A"] = "courthouse_of_hasty_judgement"
    t.st.built["subterran_site_A"] = ["p2"]
    t.p("p1").goods.update(energy=4, bliss=1)
    t.do("p1 place worker=1 space=subterran_site_A_market")
    assert t.p("p1").goods["bliss"] == 0 and t.st.territory["subterran"] == ["p1"]


def test_rebecca_the_peddler(make_table) -> None:
    t = make_table().recruit("p1", "rebecca_the_peddler")
    t.p("p1").morale = 3
    bump_at_tunnel(t)
    t.do("p1 use_ability choice=clay")
    assert t.p("p1").goods["clay"] == 1 and t.p("p2").knowledge == 4


def test_matthew_the_thief(make_table) -> None:
    t = make_table().recruit("p1", "matthew_the_thief")
    t.st.occupants = {"euphorian_tunnel": [["p2", 4]]}
    t.p("p2").available = [6]
    t.do("p1 place worker=1 space=euphorian_tunnel")
    t.roll(2)
    t.do("p1 take gain=gold")
    assert t.p("p1").knowledge == 4 and t.p("p1").goods["gold"] == 1


# ----------------------------------------------------------------------------------- Euphorians
def test_laura_the_philanthropist(make_table) -> None:
    t = make_table().recruit("p1", "laura_the_philanthropist").deck_top("bear", "book")
    t.p("p1").goods["gold"] = 1
    t.p("p1").morale = 3
    bump_at_tunnel(t)
    t.do("p1 use_ability choice=use")
    t.do("p1 take gain=gold")
    assert t.p("p2").goods["gold"] == 1 and kinds(t.p("p1").hand) == ["bear", "book"]


def test_yordy_the_demotivator(make_table) -> None:
    t = make_table().recruit("p1", "yordy_the_demotivator")
    t.p("p1").morale = 3
    t.st.occupants = {"farm": [["p1", 1]]}
    t.p("p1").available = [2]
    t.do("p1 retrieve worker=farm:1")
    t.roll(3)
    assert t.p("p1").morale == 3


def test_yordy_the_demotivator_revised(make_table) -> None:
    t = make_table(options=REVISED).recruit("p1", "yordy_the_demotivator")
    t.p("p1").goods["energy"] = 1
    t.st.occupants = {"farm": [["p1", 1]]}
    t.p("p1").available = [2]
    t.do("p1 retrieve worker=farm:1")
    t.do("p1 use_ability choice=set-1-to-6")
    assert sorted(t.p("p1").available) == [2, 6] and t.p("p1").goods["energy"] == 0


def test_katy_the_dietician(make_table) -> None:
    t = make_table().recruit("p1", "katy_the_dietician")
    t.do("p1 place worker=1 space=generator")
    assert t.p("p1").goods["food"] == 1


def test_gary_the_electrician(make_table) -> None:
    t = make_table().recruit("p1", "gary_the_electrician")
    t.st.occupants = {"generator": [["p2", 1]]}
    t.p("p2").available = [2]
    t.do("p1 place worker=1 space=generator")
    t.do("p1 use_ability choice=morale+1")
    assert t.p("p1").morale == 2


def test_michael_the_engineer(make_table) -> None:
    t = make_table().recruit("p1", "michael_the_engineer")
    t.p("p1").goods.update(gold=1, stone=1)
    t.do("p1 place worker=1 space=subterran_site_A.2")
    t.do("p1 pay with=gold")
    assert t.p("p1").knowledge == 4 and t.p("p1").morale == 2


def test_esme_the_fireman(make_table) -> None:
    t = make_table().recruit("p1", "esme_the_fireman").cards("p1", "bear", "bear", "book")
    t.p("p1").morale = 3
    t.do("p1 place worker=1 space=incinerator_of_historical_accuracy")
    t.do("p1 pay with=art-bear+art-bear")
    t.do("p1 use_ability choice=book:knowledge")
    assert t.p("p1").goods["energy"] == 1 and t.p("p1").knowledge == 2 and not t.p("p1").hand


def test_esme_the_fireman_revised_book(make_table) -> None:
    t = make_table(options=REVISED).recruit("p1", "esme_the_fireman").cards("p1", "bear", "bear", "book")
    t.p("p1").morale = 3
    t.do("p1 place worker=1 space=incinerator_of_historical_accuracy")
    t.do("p1 pay with=art-bear+art-bear")
    t.do("p1 use_ability choice=book:morale")
    assert t.p("p1").goods["energy"] == 2 and t.p("p1").morale == 5 and t.p("p1").knowledge == 1


def test_ray_the_foreman(make_table) -> None:
    t = make_table().recruit("p1", "ray_the_foreman")
    t.p("p1").goods.update(clay=1, gold=1)
    t.p("p1").available = [2, 2]
    t.do("p1 place worker=2 space=euphorian_site_A.1")
    t.do("p1 place worker=2 space=euphorian_site_A.2")
    t.roll(1, 3)
    assert t.p("p1").morale == 3


def test_ray_the_foreman_without_a_star(make_table) -> None:
    t = make_table().recruit("p2", "ray_the_foreman")
    t.p("p1").goods.update(clay=1, gold=1)
    t.p("p1").available = [2, 2]
    t.do("p1 place worker=2 space=euphorian_site_A.1")
    t.do("p1 place worker=2 space=euphorian_site_A.2")
    t.roll(1, 3)
    assert t.p("p2").knowledge == 1


def test_bradley_the_futurist(make_table) -> None:
    t = make_table().recruit("p1", "bradley_the_futurist").cards("p1", "bear", "bear").deck_top("box", "bat")
    t.p("p1").morale = 3
    t.do("p1 place worker=1 space=incinerator_of_historical_accuracy")
    t.do("p1 use_ability choice=use")
    t.do("p1 discard_artifact kind=box")
    assert kinds(t.p("p1").hand) == ["bat"] and t.p("p1").knowledge == 5


def test_bradley_keeps_one_drawn_card_when_the_hand_limit_comes_first(bradley_over_the_limit: Table) -> None:
    """The hand limit is asked before Bradley's discard; discarding the older card there still
    leaves exactly one of the two drawn cards.

    Rule: [A Few Notes About Recruits]
    """
    t = bradley_over_the_limit
    assert t.st.prompt is not None and t.st.prompt[3] == ["limit"]
    t.do("p1 discard_artifact kind=book")
    t.do("p1 discard_artifact kind=box")
    assert kinds(t.p("p1").hand) == ["bat"] and t.p("p1").knowledge == 5


def test_bradley_when_the_hand_limit_takes_a_drawn_card_asks_nothing_more(bradley_over_the_limit: Table) -> None:
    """Rule: [A Few Notes About Recruits]"""
    t = bradley_over_the_limit
    t.do("p1 discard_artifact kind=box")
    assert kinds(t.p("p1").hand) == ["bat", "book"] and t.pending().seats == ("p2",)


def test_drawn_cards_by_identity_and_by_an_old_saved_count() -> None:
    """Rule: [A Few Notes About Recruits]"""
    assert drawn_since(["b", "c"], ["a"]) == ["b", "c"]
    assert drawn_since(["a", "b", "c"], 1) == ["b", "c"]


def test_bradley_draw_is_not_combined_with_the_gambler(make_table) -> None:
    """Two abilities that change how artifacts are drawn are not combined: Bradley's draw is not
    offered to Jonathan the Gambler, whose once per turn is left for another card.

    Rule: [A Few Notes About Recruits]
    """
    t = make_table().recruit("p1", "bradley_the_futurist", "jonathan_the_gambler")
    t.cards("p1", "bear", "bear").deck_top("box", "bat", "box", "bat")
    t.p("p1").morale = 3
    t.do("p1 place worker=1 space=incinerator_of_historical_accuracy")
    t.do("p1 use_ability choice=use")
    assert t.pending().phase == "discard_artifact"
    t.do("p1 discard_artifact kind=box")
    assert kinds(t.p("p1").hand) == ["bat"] and t.p("p1").knowledge == 5
    assert "gambled" not in t.st.flags


def test_ben_the_ludologist(make_table) -> None:
    """Rule: SP 12"""
    t = make_table().recruit("p2", "ben_the_ludologist")
    t.p("p2").morale = 3
    t.st.occupants = {"farm": [["p1", 1]]}
    t.p("p1").available = [4]
    t.do("p1 retrieve worker=farm:1")
    t.roll(4)
    t.do("p2 use_ability choice=stone")
    assert t.p("p2").goods["stone"] == 1 and t.p("p2").morale == 1


def test_jefferson_the_shock_artist(make_table) -> None:
    t = make_table().recruit("p1", "jefferson_the_shock_artist")
    t.p("p1").goods["energy"] = 1
    t.st.occupants = {"farm": [["p1", 1]]}
    t.p("p1").available = [2]
    t.do("p1 retrieve worker=farm:1")
    t.do("p1 pay with=energy")
    t.roll(3)
    assert t.p("p1").morale == 2 and t.p("p1").knowledge == 2


def test_julia_the_thought_inspector(make_table) -> None:
    """Rule: SP 2"""
    t = make_table().recruit("p1", "julia_the_thought_inspector")
    t.p("p1").morale = 3
    bump_at_tunnel(t, rival_face=1, own=1)
    t.do("p1 use_ability choice=gold")
    t.do("p1 take gain=gold")
    assert t.p("p1").goods["gold"] == 2 and t.p("p1").morale == 1


def test_julia_the_thought_inspector_revised(make_table) -> None:
    t = make_table(options=REVISED).recruit("p1", "julia_the_thought_inspector")
    t.p("p1").morale = 2
    t.p("p1").goods["energy"] = 1
    t.st.occupants = {"euphorian_tunnel": [["p2", 5]]}
    t.p("p2").available = [6]
    t.do("p1 place worker=1 space=euphorian_tunnel")
    t.do("p1 use_ability choice=stone")
    assert sorted(t.p("p2").available) == [1, 6] and t.p("p1").goods["stone"] == 1


def test_nakagawa_the_tribute(make_table) -> None:
    t = make_table().recruit("p1", "nakagawa_the_tribute").cards("p1", "bear", "bear")
    t.p("p1").morale = 2
    t.do("p1 place worker=1 space=incinerator_of_historical_accuracy")
    t.do("p1 use_ability choice=sacrifice")
    assert t.st.territory["euphorian"] == ["p1", "p1"] and t.p("p1").workers == 1
    t.sound()


def test_nakagawa_the_tribute_revised(make_table) -> None:
    t = make_table(options=REVISED).recruit("p1", "nakagawa_the_tribute")
    t.p("p1").goods["gold"] = 1
    t.do("p1 place worker=1 space=subterran_site_A.1")
    assert t.st.allegiance["euphorian"] == 1


# ----------------------------------------------------------------------------------- Subterrans
def test_maggie_the_outlaw(make_table) -> None:
    t = make_table().recruit("p1", "maggie_the_outlaw")
    t.st.occupants = {"aquifer": [["p1", 1]]}
    t.p("p1").available = [2]
    t.do("p1 retrieve worker=aquifer:1")
    t.roll(3)
    t.do("p1 take gain=stone")
    assert t.p("p1").goods["stone"] == 1


def test_dave_the_demolitionist(make_table) -> None:
    t = make_table().recruit("p1", "dave_the_demolitionist")
    bump_at_tunnel(t)
    t.do("p1 use_ability choice=use")
    t.do("p1 take gain=gold")
    assert t.p("p1").goods["gold"] == 2 and t.st.miners["euphorian"] == 2 and t.p("p1").knowledge == 5


def test_dave_the_demolitionist_revised(make_table) -> None:
    t = make_table(options=REVISED).recruit("p1", "dave_the_demolitionist")
    bump_at_tunnel(t)
    t.do("p1 use_ability choice=use")
    assert t.p("p1").knowledge == 4


def test_xander_the_excavator(make_table) -> None:
    t = make_table().recruit("p1", "xander_the_excavator")
    bump_at_tunnel(t, rival_face=4, own=1)
    t.do("p1 use_ability choice=use")
    t.do("p1 take gain=gold")
    assert t.p("p1").goods["gold"] == 2 and t.p("p1").knowledge == 4


def test_jonathan_the_gambler(make_table) -> None:
    t = make_table().recruit("p1", "jonathan_the_gambler").deck_top("bear", "bear", "book")
    t.p("p1").morale = 3
    t.p("p1").goods["energy"] = 1
    t.do("p1 place worker=1 space=euphorian_tunnel")
    t.do("p1 take gain=artifact")
    t.do("p1 use_ability choice=use")
    assert kinds(t.p("p1").hand) == ["bear", "bear"] and t.p("p1").knowledge == 4


def test_jonathan_the_gambler_revised(make_table) -> None:
    t = make_table(options=REVISED).recruit("p1", "jonathan_the_gambler").deck_top("bear", "bear", "book")
    t.p("p1").morale = 3
    t.p("p1").goods["energy"] = 1
    t.do("p1 place worker=1 space=euphorian_tunnel")
    t.do("p1 take gain=artifact")
    t.do("p1 use_ability choice=use")
    assert kinds(t.p("p1").hand) == ["bear", "bear"] and kinds(t.p("p2").hand) == ["book"]


def test_josiah_the_hacker(make_table) -> None:
    t = make_table().recruit("p1", "josiah_the_hacker")
    t.st.occupants = {"farm": [["p2", 6]]}
    t.p("p2").available = [2]
    t.do("p1 place worker=1 space=farm")
    assert t.p("p1").morale == 2 and t.p("p2").knowledge == 4


def test_faith_the_hydroelectrician(make_table) -> None:
    t = make_table().recruit("p1", "faith_the_hydroelectrician")
    t.do("p1 place worker=1 space=aquifer")
    assert t.p("p1").goods["energy"] == 1


def test_brett_the_lockpicker(make_table) -> None:
    t = make_table().recruit("p1", "brett_the_lockpicker").cards("p1", "bear", "bear")
    t.p("p1").morale = 2
    t.do("p1 place worker=1 space=incinerator_of_historical_accuracy")
    t.do("p1 use_ability choice=stone")
    assert t.p("p1").goods["stone"] == 1 and t.p("p1").knowledge == 5


def test_brett_the_lockpicker_revised(make_table) -> None:
    t = make_table(options=REVISED).recruit("p1", "brett_the_lockpicker").cards("p1", "bear", "bear")
    t.p("p1").morale = 2
    t.do("p1 place worker=1 space=incinerator_of_historical_accuracy")
    t.do("p1 use_ability choice=stone")
    assert t.p("p1").knowledge == 4


def test_chase_the_miner_new_worker_goes_to_work(make_table) -> None:
    t = make_table().recruit("p1", "chase_the_miner")
    t.p("p1").goods["water"] = 3
    t.do("p1 place worker=1 space=worker_activation_water")
    t.roll(5)
    assert "p1 place worker=5 space=farm" in t.legal("p1")
    t.do("p1 place worker=5 space=farm")
    assert t.st.turn == "p2"


def test_chase_the_miner_tunnel_sacrifice(make_table) -> None:
    t = make_table().recruit("p1", "chase_the_miner")
    t.p("p1").goods["energy"] = 1
    t.do("p1 place worker=1 space=euphorian_tunnel")
    t.do("p1 take gain=gold")
    t.do("p1 use_ability choice=sacrifice")
    assert t.p("p1").goods["gold"] == 3 and t.p("p1").workers == 1
    t.sound()


def test_soulless_the_plumber(make_table) -> None:
    t = make_table().recruit("p1", "soulless_the_plumber")
    t.st.occupants = {"aquifer": [["p2", 3]]}
    t.p("p2").available = [2]
    t.do("p1 place worker=1 space=aquifer")
    t.do("p1 use_ability choice=water")
    assert t.p("p1").goods["water"] == 2


def test_curtis_the_propagandist(make_table) -> None:
    t = make_table().recruit("p1", "curtis_the_propagandist")
    t.p("p1").morale = 3
    t.st.occupants = {"farm": [["p1", 1]]}
    t.p("p1").available = [2]
    t.do("p1 retrieve worker=farm:1")
    t.roll(3)
    assert t.p("p1").morale == 2 and t.p("p1").knowledge == 2


def test_andrew_the_spelunker(make_table) -> None:
    t = make_table().recruit("p1", "andrew_the_spelunker").deck_top("bear")
    t.p("p1").goods["food"] = 1
    t.do("p1 place worker=1 space=wastelander_tunnel")
    assert t.p("p1").goods["clay"] == 1 and kinds(t.p("p1").hand) == ["bear"]


def test_phil_the_spy(make_table) -> None:
    t = make_table().recruit("p1", "phil_the_spy").deck_top("bat")
    bump_at_tunnel(t)
    t.do("p1 use_ability choice=use")
    t.do("p1 take gain=gold")
    assert kinds(t.p("p1").hand) == ["bat"] and t.p("p1").knowledge == 5


def test_phil_the_spy_revised(make_table) -> None:
    t = make_table(options=REVISED).recruit("p1", "phil_the_spy")
    bump_at_tunnel(t)
    t.do("p1 use_ability choice=use")
    assert t.p("p1").knowledge == 4


# --------------------------------------------------------------------------------- Wastelanders
def test_flartner_the_luddite(make_table) -> None:
    t = make_table().recruit("p1", "flartner_the_luddite").cards("p1", "box")
    t.p("p1").goods["gold"] = 1
    t.do("p1 place worker=1 space=subterran_site_A.1")
    t.do("p1 pay with=art-box")
    assert t.p("p1").morale == 2 and t.p("p1").goods["gold"] == 1 and not t.p("p1").hand


def test_reitz_the_archeologist(make_table) -> None:
    t = make_table().recruit("p1", "reitz_the_archeologist").deck_top("bear")
    t.p("p1").goods["energy"] = 1
    t.do("p1 place worker=1 space=euphorian_tunnel")
    t.do("p1 take gain=gold")
    t.do("p1 use_ability choice=use")
    assert t.st.miners["euphorian"] == 2 and kinds(t.p("p1").hand) == ["bear"]


def test_jacko_the_archivist(make_table) -> None:
    t = make_table().recruit("p1", "jacko_the_archivist").cards("p1", "bear", "bear", "box", "bat")
    t.p("p1").morale = 4
    t.do("p1 place worker=1 space=incinerator_of_historical_accuracy")
    t.do("p1 pay with=art-bear+art-bear")
    t.do("p1 use_ability choice=bat+box")
    assert t.st.territory["euphorian"] == ["p1", "p1"] and not t.p("p1").hand


def test_jacko_the_archivist_revised(make_table) -> None:
    t = make_table(options=REVISED).recruit("p1", "jacko_the_archivist").cards("p1", "box")
    t.do("p1 place worker=1 space=ark_of_fractured_memories")
    assert t.st.territory["wastelander"] == ["p1"] and len(t.p("p2").hand) == 1


def test_jonathan_the_artist(make_table) -> None:
    t = make_table().recruit("p1", "jonathan_the_artist").deck_top("book")
    t.st.occupants = {"subterran_site_A.2": [["p2", 3]]}
    t.p("p2").available = [1]
    t.p("p1").goods["gold"] = 1
    t.p("p1").available = [4, 1]
    t.do("p1 place worker=4 space=subterran_site_A.1")
    t.do("p1 use_ability choice=use")
    assert kinds(t.p("p1").hand) == ["book"]


def test_pete_the_cannibal(make_table) -> None:
    t = make_table().recruit("p1", "pete_the_cannibal").deck_top("bear")
    t.p("p1").goods["energy"] = 3
    t.do("p1 place worker=1 space=worker_activation_energy")
    t.roll(2)
    t.do("p1 use_ability choice=use")
    assert kinds(t.p("p1").hand) == ["bear"] and t.p("p1").knowledge == 3


def test_pete_the_cannibal_sacrifice_on_retrieval(make_table) -> None:
    t = make_table().recruit("p1", "pete_the_cannibal")
    t.st.occupants = {"farm": [["p1", 1]]}
    t.p("p1").available = [2]
    t.do("p1 retrieve worker=farm:1")
    t.do("p1 sacrifice worker=pete_the_cannibal:1")
    t.do("p1 take gain=clay")
    assert t.p("p1").goods["food"] == 4 and t.p("p1").workers == 1 and t.st.turn == "p2"


def test_scarby_the_harvester(make_table) -> None:
    t = make_table().recruit("p1", "scarby_the_harvester")
    t.st.occupants = {"farm": [["p2", 1]]}
    t.p("p2").available = [2]
    t.p("p1").available = [2, 3]
    t.do("p1 place worker=2 space=farm")
    t.do("p1 use_ability choice=food")
    assert t.p("p1").goods["food"] == 2


def test_ian_the_horticulturist(make_table) -> None:
    """Rule: SP 28"""
    t = make_table().recruit("p1", "ian_the_horticulturist")
    t.do("p1 place worker=1 space=farm")
    assert t.p("p1").goods["water"] == 1


def test_geek_the_oracle(make_table) -> None:
    t = make_table().recruit("p1", "geek_the_oracle").deck_top("bear", "book")
    t.p("p1").goods["energy"] = 1
    t.do("p1 place worker=1 space=euphorian_tunnel")
    t.do("p1 take gain=artifact")
    t.do("p1 use_ability choice=use")
    t.do("p1 discard_artifact kind=bear")
    assert kinds(t.p("p1").hand) == ["book"] and t.p("p1").knowledge == 5 and t.st.turn == "p2"


def test_kyle_the_scavenger(make_table) -> None:
    t = make_table().recruit("p1", "kyle_the_scavenger").deck_top("box")
    t.do("p1 place worker=1 space=farm")
    t.do("p1 use_ability choice=use")
    assert kinds(t.p("p1").hand) == ["box"] and t.p("p1").knowledge == 5


def test_steven_the_scholar(make_table) -> None:
    t = make_table().recruit("p1", "steven_the_scholar").deck_top("bat")
    p = t.p("p1")
    p.workers, p.available, p.knowledge = 3, [5], 3
    t.st.occupants = {"generator": [["p1", 1]], "aquifer": [["p1", 2]]}
    t.do("p1 retrieve worker=aquifer:2")
    t.do("p1 retrieve_more worker=generator:1")
    t.roll(3, 5)
    t.do("p1 take gain=gold")
    assert p.workers == 2 and kinds(p.hand) == ["bat"] and p.goods["gold"] == 1


def test_nick_the_understudy(make_table) -> None:
    t = make_table().recruit("p1", "nick_the_understudy")
    t.st.occupants = {"farm": [["p2", 6]]}
    t.p("p2").available = [2]
    t.p("p1").available = [3, 1]
    t.do("p1 place worker=3 space=farm")
    assert t.p("p1").knowledge == 4 and t.p("p1").morale == 2


def test_brian_the_viticulturist(make_table) -> None:
    t = make_table().recruit("p1", "brian_the_viticulturist")
    t.p("p1").goods["food"] = 2
    t.do("p1 place worker=1 space=sky_lounge")
    t.do("p1 take gain=gold+stone")
    assert t.p("p1").goods["food"] == 0 and t.p("p1").goods["gold"] == 1


def test_brian_the_viticulturist_market_visit(make_table) -> None:
    t = make_table().recruit("p1", "brian_the_viticulturist")
    t.st.sites["wastelander_site_A"] = "apothecary_of_productive_dreams"
    t.st.built["wastelander_site_A"] = ["p2"]
    t.p("p1").goods.update(food=4, gold=1)
    t.do("p1 place worker=1 space=wastelander_site_A_market")
    assert t.p("p1").knowledge == 4 and t.st.allegiance["wastelander"] == 2


def test_brian_the_viticulturist_revised_icarus_costs_morale(make_table) -> None:
    t = make_table(options=REVISED).recruit("p1", "brian_the_viticulturist")
    t.p("p1").morale = 3
    t.do("p1 place worker=1 space=cloud_mine")
    assert t.p("p1").morale == 2


def test_academy_switches_abilities_off(make_table) -> None:
    t = make_table().recruit("p1", "katy_the_dietician")
    t.st.sites["euphorian_site_B"] = "academy_of_mandatory_equality"
    t.st.built["euphorian_site_B"] = ["p2"]
    t.do("p1 place worker=1 space=generator")
    assert t.p("p1").goods["food"] == 0
