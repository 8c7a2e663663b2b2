"""Issue 14 (hardening), point 15: Euphoria's rules mended to the rulebook, with pinned dice and cards."""

from __future__ import annotations

from ludica.games.euphoria.oracle import artifact_kind


def built(t, market: str, owners: tuple[str, ...] = ("p2",), site: str = "subterran_site_B") -> None:
    t.st.sites[site] = market
    t.st.built[site] = list(owners)
    for seat in owners:
        t.p(seat).stars -= 1  # each builder's star is on the market


def kinds(t, seat: str) -> list[str]:
    return sorted(artifact_kind(c) for c in t.p(seat).hand)


# -- a placement's cost is paid in full, or the placement is refused ------------------------------
def test_point15_cost_paid_in_full_a_roll_penalty_cannot_take_the_good_the_space_costs(make_table) -> None:
    """Bumping your own worker rolls it; a 1 under the Teddy Bear Shop takes a good of your choice,
    but never the energy the Euphorian tunnel still costs: the food goes."""
    t = make_table()
    built(t, "disassemble_a_teddy_bear_shop")
    p = t.p("p1")
    p.workers, p.available = 3, [1, 2]
    p.goods.update(energy=1, food=1)
    t.st.occupants = {"euphorian_tunnel": [["p1", 4]]}
    t.do("p1 place worker=2 space=euphorian_tunnel")
    t.roll(1)
    assert "p1 lose_good good=energy" not in t.legal("p1")
    if t.pending().phase == "take":
        t.do("p1 take gain=gold")
    assert p.goods["energy"] == 0 and p.goods["food"] == 0  # the cost paid, the penalty paid
    assert t.st.miners["euphorian"] == 1
    t.sound()


def test_point15_cost_paid_in_full_or_the_placement_is_refused(make_table) -> None:
    """With only the energy the tunnel costs, a roll penalty on the bumped worker could take it:
    the placement is refused (and not listed); without the penalty it is allowed."""
    t = make_table()
    p = t.p("p1")
    p.workers, p.available = 3, [1, 2]
    p.goods.update(energy=1)
    t.st.occupants = {"euphorian_tunnel": [["p1", 4]]}
    assert "p1 place worker=2 space=euphorian_tunnel" in t.legal("p1")
    built(t, "disassemble_a_teddy_bear_shop")
    err = t.refused("p1 place worker=2 space=euphorian_tunnel", rule="place")
    assert "paid in full" in err.reason
    assert "p1 place worker=2 space=euphorian_tunnel" not in t.legal("p1")


# -- a knowledge check keeps the other dice of the deserter's value -------------------------------
def test_point15_knowledge_check_keeps_the_other_doubles(make_table) -> None:
    """Three 4s: one goes to the tunnel, bumping p1's own 4, which rolls a 4. Knowledge 6 + 4+4+4 =
    18: a 4 deserts. The two other 4s held since the turn began may still follow."""
    t = make_table()
    p = t.p("p1")
    p.workers, p.available, p.knowledge = 4, [4, 4, 4], 6
    p.goods.update(energy=1)
    t.st.occupants = {"euphorian_tunnel": [["p1", 4]]}
    t.do("p1 place worker=4 space=euphorian_tunnel")
    t.roll(4)
    assert p.workers == 3 and p.available == [4, 4]
    if t.pending().phase == "take":
        t.do("p1 take gain=gold")
    assert t.st.turn == "p1" and "p1 place worker=4 space=farm" in t.legal("p1")
    t.do("p1 place worker=4 space=farm")
    t.do("p1 place worker=4 space=aquifer")
    assert t.st.turn == "p2"
    t.sound()


# -- Chase the Miner: a deserting new worker gives no other die a placement -----------------------
def test_point15_chase_the_miner_new_worker_deserts_no_extra_placement(make_table) -> None:
    """The water tank gives Chase the Miner's player a new worker; it rolls a 6: knowledge 6 + 5 + 6
    = 17, the 6 deserts. The 5 (placed nowhere yet, not a double) gains no placement."""
    t = make_table().recruit("p1", "chase_the_miner")
    p = t.p("p1")
    p.workers, p.available, p.knowledge = 2, [1, 5], 6
    p.goods.update(water=3)
    t.do("p1 place worker=1 space=worker_activation_water")
    t.roll(6)
    assert p.workers == 2 and p.available == [5]
    assert t.st.turn == "p2"
    t.sound()


def test_point15_chase_the_miner_new_worker_that_stays_is_placed(make_table) -> None:
    """Rule: SP 5"""
    t = make_table().recruit("p1", "chase_the_miner")
    p = t.p("p1")
    p.workers, p.available, p.knowledge = 2, [1, 5], 2
    p.goods.update(water=3)
    t.do("p1 place worker=1 space=worker_activation_water")
    t.roll(3)
    places = [a for a in t.legal("p1") if " place " in a]
    assert t.st.turn == "p1" and places and all("worker=3" in a for a in places), t.legal("p1")


# -- the hand limit applies at once, after drawing -------------------------------------------------
def test_point15_hand_limit_applied_at_once(make_table) -> None:
    """Morale 4, four artifacts of four kinds. At the Ark, bumping p2, Phil the Spy draws a box:
    five cards, one over the limit, discarded at once (draw first, then discard). The Ark takes
    three; one card is left, too few for Jacko the Archivist's second star: one star, not two."""
    t = make_table().recruit("p1", "phil_the_spy", "jacko_the_archivist")
    p = t.p("p1")
    p.morale, p.knowledge = 4, 2
    t.cards("p1", "bear", "book", "balloons", "bifocals").deck_top("box")
    t.p("p2").workers = 3
    t.st.occupants = {"ark_of_fractured_memories": [["p2", 3]]}
    t.do("p1 place worker=1 space=ark_of_fractured_memories")
    t.roll(5)
    t.do("p1 use_ability choice=use")
    assert len(p.hand) == 5
    assert t.pending().phase == "discard_artifact"  # before anything else, and before paying
    t.do("p1 discard_artifact kind=box")
    assert kinds(t, "p1") == ["balloons", "bear", "bifocals", "book"]
    t.do("p1 pay with=art-balloons+art-bear+art-bifocals")
    while t.pending().phase == "use_ability":  # Jacko is not even offered with one card left
        t.do("p1 use_ability choice=decline")
    assert p.stars == 9 and kinds(t, "p1") == ["book"]
    t.sound()


# -- the end reason stays visible after a tie-break roll ------------------------------------------
def test_point15_end_reason_kept_when_ten_stars_tie_goes_to_a_roll(make_table) -> None:
    t = make_table()
    t.p("p1").stars = t.p("p2").stars = 1
    t.st.occupants = {"euphorian_site_A.1": [["p2", 3]]}
    t.p("p2").available = [4]
    t.p("p1").goods.update(gold=1)
    t.do("p1 place worker=1 space=euphorian_site_A.2")
    assert t.pending().phase == "tiebreak_roll"
    t.roll(6, 6, 1, 1)
    assert t.st.winners == ["p2"]
    assert "ten stars" in t.st.end_reason and "roll" in t.st.end_reason
    assert "ten stars" in t.match.view("p1")["end_reason"]


def test_point15_end_reason_kept_when_the_round_bound_tie_goes_to_a_roll(make_table) -> None:
    t = make_table(options={"round_limit": 50})
    t.st.turn_number = 100
    t.do("p1 place worker=1 space=farm")
    assert t.pending().phase == "tiebreak_roll" and t.st.tied == ["p1", "p2"]
    t.roll(*([1] * t.p("p1").workers), *([6] * t.p("p2").workers))
    assert t.st.winners == ["p1"]
    assert "round limit" in t.st.end_reason and "roll" in t.st.end_reason
