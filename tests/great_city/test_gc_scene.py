"""Running a scene (spec §2.3-2.5): EX-G9, EX-G10, EX-G11 and rulings R-GC-01, 03, 20-37, 46,
HR-G1, HR-G2 (reading (B) of R-GC-27), HR-G3."""

from __future__ import annotations

from ludica.core import get_game
from ludica.games.great_city import oracle as O
from ludica.games.great_city.memo import forget
from ludica.games.great_city.scene import pair_of

GAME = get_game("great-city")


def pair(t) -> str:
    return O.pair_bits(pair_of(t.state, t.scene))


def test_scene_start_ante_buy_in_and_initial_reading(table) -> None:
    """Rule: [Running A Scene]"""
    t = table()
    t.setup()
    s = t.state
    assert t.pending() == ("p1",) and s.pool_timeline == [12]
    t.refuse("p1", "start_scene", "R-GC-46", spotlight="c3", intent="x")  # R-GC-46: p2's character
    t.do("p1", "start_scene", spotlight="c2", intent="I want to find the Bug General's hideout")
    t.refuse("p1", "choose_foil", "R-GC-21", foil="c2")
    assert {a.args["foil"] for a in t.legal("p1")} == {"c1", "c3", "NEW"}
    t.do("p1", "choose_foil", foil="c1")  # EX-G11: the Bug General, an agent
    assert t.pending() == ("p1",)
    t.do("p1", "choose_ante_source", role="spotlight", source="purse")
    assert t.pending() == ("gm",)
    t.do("gm", "choose_ante_source", role="foil", source="pool")
    assert s.purse["p1"] == 2 and s.pool == 11 and t.scene.ante == 2
    assert t.pending() == ("p2",)  # p2 may buy in c3 (R-GC-23)
    t.do("p2", "buy_in", character="c3")
    assert s.purse["p2"] == 2 and t.scene.ante == 3 and t.scene.present == ["c2", "c1", "c3"]
    assert t.pending() == ("chance",)  # the GM has no other character: no buy-in question
    assert "Initial situation 000 111: Change of Heart. Pettiness recedes; greatness advances." in t.texts()
    t.roll(2)
    assert pair(t) == "010 111" and t.texts()[-1] == "The oracle names the pair 010 111: Conflict"
    assert t.scene.order == ("p1", "p2", "gm") and t.pending() == ("p1",)


def test_r_gc_22_r_gc_34_empty_pool_skips_the_ante(table) -> None:
    t = table()
    t.setup()
    t.state.pool = 0
    t.state.bank_net -= 12
    forget(t.state)
    t.start("c2", "c1", antes=("pool", "pool"))
    assert t.scene.ante == 0 and any("pool is empty" in x for x in t.texts())
    t.stay_out_all()
    t.roll(1)
    t.do("p1", "accept_judgment", character="c2")  # the scene goes on to acceptance
    t.do("gm", "narrate", text="The city trembles")
    t.do("p1", "end_distribution")
    assert t.state.phase in ("city_fate", "rank")  # then the end game (R-GC-34)


def test_r_gc_26_reaction_order_of_a_gm_scene(table) -> None:
    t = table(players=["Ann", "Bob", "Cat"])
    t.setup(chars=[{"dice": (2, 2, 2)}] * 3, initiative=[1, 8, 1])
    assert t.state.cycle == ["p2", "p3", "p1", "gm"]
    for focal, spot, foil in (("p2", "c3", "c1"), ("p3", "c4", "c1"), ("p1", "c2", "c1")):
        assert t.pending() == (focal,)
        t.start(spot, foil)
        t.stay_out_all()
        t.roll(1)
        if focal == "p3":
            assert t.scene.order == ("p3", "p1", "p2", "gm")
        t.do(focal, "accept_judgment", character=spot)
        if t.state.phase == "assign_narration":
            t.do(focal, "assign_narration", narrator="gm")
        t.do(t.pending()[0], "narrate", text="So it goes")
        t.do(focal, "end_distribution")
    assert t.pending() == ("gm",)
    t.start("c1", "c2")  # R-GC-20: the GM's spotlight is a GM character; the foil anyone
    t.stay_out_all()
    t.roll(1)
    assert t.scene.order == ("gm", "p2", "p3", "p1")  # GM, then from the initiative winner


def test_r_gc_20_gm_scene_foil_must_be_a_player_when_the_gm_may_not_accept(table) -> None:
    t = table(gm_may_accept=False)
    t.setup()
    t.state.scene_index = 2  # the GM's turn in the cycle p1, p2, gm
    t.state.scene.focal = "gm"
    forget(t.state)
    t.do("gm", "start_scene", spotlight="c1", intent="The general moves")
    assert {a.args["foil"] for a in t.legal("gm")} == {"c2", "c3"}
    t.refuse("gm", "choose_foil", "R-GC-21", foil="NEW")
    t.refuse("gm", "choose_foil", "R-GC-21", foil="c1")


def test_ex_g9_flip_all_six(table) -> None:
    t = table()
    t.first_scene(spot="100", foil="000", flip=1)  # the random flip leaves 000 000
    assert pair(t) == "000 000"
    t.give("p1", 3)  # six free scarabs
    ante = t.scene.ante
    for pos in (2, 1, 3, 4, 5, 6):
        t.do("p1", "flip", position=pos, source="free_scarab")
    assert pair(t) == "111 111" and t.state.purse["p1"] == 0 and t.scene.ante == ante + 6
    t.do("p1", "end_reaction")
    assert t.texts()[-1].endswith("Fulfillment")
    assert not any(a.type == "flip" for a in t.legal("p2"))
    t.give("p2", 1)
    for pos in range(1, 7):
        t.refuse("p2", "flip", "R-GC-30", position=pos, source="free_scarab")
    assert set(t.scene.lock) == {t.scene.act}


def test_ex_g10_undo_still_counts_as_flipped(table) -> None:
    t = table()
    t.first_scene(spot="001", foil="011")
    t.vest("c1", 1)  # the foil's white stone, position 5
    t.roll(1)
    assert pair(t) == "101 011"
    ante = t.scene.ante
    t.do("p1", "flip", position=5, source="free_scarab")
    assert pair(t) == "101 001" and O.PAIR_NAMES[pair_of(t.state, t.scene)] == "Difficulty"
    assert t.pending() == ("gm",) and t.state.phase == "undo"  # the interrupt comes before anything else
    t.do("gm", "undo_flip", position=5)
    assert pair(t) == "101 011" and O.PAIR_NAMES[pair_of(t.state, t.scene)] == "Novelty"
    assert t.state.characters["c1"].vested[1] == 0 and t.scene.ante == ante + 2
    t.refuse("p1", "flip", "R-GC-30", position=5, source="free_scarab")  # same reaction: still locked
    t.do("p1", "end_reaction")
    t.refuse("p2", "flip", "R-GC-30", position=5, source="free_scarab")  # next reaction: locked...
    t.do("p2", "flip", position=4, source="free_scarab")
    t.do("p2", "flip", position=5, source="free_scarab")  # ...until another stone is flipped
    assert pair(t) == "101 101"


def test_r_gc_30_sequential_model(table) -> None:
    t = table(reflip_model="sequential")
    t.first_scene(flip=1)
    t.refuse("p1", "flip", "R-GC-30", position=1, source="free_scarab")
    t.do("p1", "flip", position=2, source="free_scarab")
    t.do("p1", "flip", position=1, source="free_scarab")  # only the last flipped stone is barred
    t.refuse("p1", "flip", "R-GC-30", position=1, source="free_scarab")


def test_r_gc_30_random_flip_is_act_zero(table) -> None:
    t = table()
    t.first_scene(flip=3)
    assert t.scene.lock[2] == 0
    assert not any(a.type == "flip" and a.args["position"] == 3 for a in t.legal("p1"))
    t.do("p1", "flip", position=1, source="free_scarab")
    assert t.scene.lock[2] is None and t.is_legal("p1", "flip", position=3, source="free_scarab")


def test_r_gc_31_undo_of_the_random_flip_and_its_limits(table) -> None:
    t = table()
    t.first_scene(spot="000", foil="000")
    t.vest("c2", 0)
    t.roll(1)  # the GM's random flip hits the spotlight's vested blue stone
    assert t.state.phase == "undo" and t.pending() == ("p1",)
    t.refuse("p1", "undo_flip", "R-GC-31", position=2)
    t.do("p1", "undo_flip", position=1)
    assert pair(t) == "000 000" and t.scene.lock[0] == 0 and t.scene.ante == 3
    assert t.scene.acted == {}  # an undo is not a reaction
    # a seat's own flip of its own vested stone opens no undo window
    t.vest("c2", 1)
    t.do("p1", "flip", position=2, source="free_scarab")
    assert t.state.phase == "reaction"
    t.do("p1", "end_reaction")
    # another seat's flip does; declining keeps the flip
    t.do("p2", "flip", position=1, source="free_scarab")
    t.do("p2", "flip", position=2, source="free_scarab")
    assert t.pending() == ("p1",) and t.state.phase == "undo"
    purse = t.state.purse["p2"]
    t.do("p1", "decline_undo", position=2)
    assert pair(t) == "100 000" and t.state.purse["p2"] == purse


def test_r_gc_31_undo_random_flip_option_off(table) -> None:
    t = table(undo_random_flip=False)
    t.first_scene()
    t.vest("c2", 0)
    t.roll(1)
    assert t.state.phase == "reaction"


def test_r_gc_27_traits_in_action(table) -> None:
    """Rule: [Using Traits]"""
    t = table()
    t.first_scene(spot="000", foil="111", flip=6)  # c2: young, rustic, kind human; c1 a bug
    # a human trait flips a stone of the mode's colour, in either triad, either direction
    t.do("p1", "flip", position=4, source="trait", character="c2", trait="kind", mode="deeds")
    t.do("p1", "flip", position=1, source="trait", character="c2", trait="young", mode="deeds")
    t.refuse("p1", "flip", "R-GC-27", position=2, source="trait", character="c2", trait="young", mode="deeds")
    t.do("p1", "flip", position=2, source="trait", character="c2", trait="young", mode="thoughts")
    t.refuse("p1", "flip", "R-GC-27", position=5, source="trait", character="c2", trait="young", mode="thoughts")
    t.do("p1", "end_reaction")
    # p2's character is not in the scene: no trait flips
    t.refuse("p2", "flip", "R-GC-27", position=3, source="trait", character="c3", trait="kind", mode="words")
    t.refuse("p2", "flip", "R-GC-27", position=3, source="trait", character="c2", trait="kind", mode="words")
    t.do("p2", "pass_reaction")
    # a bug trait only in its own dimension's mode (Table 5 '--')
    t.refuse("gm", "flip", "R-GC-27", position=3, source="trait", character="c1", trait="hungry", mode="words")
    options = {(a.args["position"], a.args["trait"]) for a in t.legal("gm") if a.args.get("source") == "trait"}
    assert options == {(3, "self-aware"), (5, "cunning"), (6, "self-aware")}  # position 4 was just flipped...
    t.do("gm", "flip", position=3, source="trait", character="c1", trait="self-aware", mode="words")
    t.refuse("gm", "flip", "R-GC-27", position=6, source="trait", character="c1", trait="self-aware", mode="words")


def test_hr_g2_three_trait_flips_per_character(table) -> None:
    t = table(hr_trait_cap_3=True)
    t.first_scene(flip=6)
    t.do("p1", "flip", position=1, source="trait", character="c2", trait="young", mode="deeds")
    t.refuse("p1", "flip", "R-GC-27", position=4, source="trait", character="c2", trait="kind", mode="deeds")
    t.do("p1", "flip", position=2, source="trait", character="c2", trait="young", mode="thoughts")
    assert t.is_legal("p1", "flip", position=3, source="trait", character="c2", trait="kind", mode="words")


def _ties(t) -> None:
    t.do("p1", "add_tie", source="c2", target="c1", sign="-", grant="free")
    t.do("p1", "add_tie", source="c2", target="c3", sign="+", grant="kind")
    t.do("p1", "end_ties", source="c2")
    t.do("p2", "add_tie", source="c3", target="c2", sign="+", grant="free")
    t.do("p2", "end_ties", source="c3")


def test_ex_g8_r_gc_28_ties_in_action(table) -> None:
    """Rule: [Using Ties]"""
    t = table()
    t.setup(ties=_ties)
    t.start("c2", "c1")
    t.set_triad("c2", "000")
    t.set_triad("c1", "011")
    t.stay_out_all()
    t.roll(3)  # 001 011
    # p1's negative tie to the agent: only its + stones, only once
    t.refuse("p1", "flip", "R-GC-28", position=4, source="tie", tie="t1")
    t.refuse("p1", "flip", "R-GC-28", position=1, source="tie", tie="t1")  # not the target's stone
    t.refuse("p1", "flip", "R-GC-28", position=5, source="tie", tie="t3")  # p2's tie
    t.do("p1", "flip", position=5, source="tie", tie="t1")
    t.refuse("p1", "flip", "R-GC-28", position=6, source="tie", tie="t1")
    t.do("p1", "end_reaction")
    # p2's character is absent, its positive tie to the spotlight still works on a - stone
    t.do("p2", "flip", position=1, source="tie", tie="t3")
    assert pair(t) == "101 001"
    assert "tie t3 (Friendly (honestly))" in t.texts()[-1]


def test_r_gc_29_scarabs(table) -> None:
    """Rule: [Using Resources]"""
    t = table()
    t.first_scene(flip=1)
    t.do("p1", "pass_reaction")
    # p2 has no character present: a free scarab still flips any stone
    t.do("p2", "flip", position=6, source="free_scarab")
    t.do("p2", "end_reaction")
    t.vest("c1", 1)
    # only the stone's controller spends its vested scarab
    assert t.pending() == ("gm",)
    t.do("gm", "flip", position=5, source="vested_scarab")
    assert t.state.characters["c1"].vested[1] == 0


def test_r_gc_29_vested_scarab_only_by_its_controller(table) -> None:
    t = table()
    t.first_scene(flip=1)
    t.vest("c1", 1)
    t.refuse("p1", "flip", "R-GC-29", position=5, source="vested_scarab")
    t.state.purse["p1"], t.state.bank_net = 0, t.state.bank_net - t.state.purse["p1"]
    forget(t.state)
    t.refuse("p1", "flip", "R-GC-29", position=2, source="free_scarab")


def test_r_gc_25_one_option_per_reaction(table) -> None:
    t = table()
    t.first_scene(flip=1)
    t.refuse("p1", "end_reaction", "R-GC-25")
    t.do("p1", "flip", position=2, source="free_scarab")
    kinds = {a.type for a in t.legal("p1")}
    assert kinds == {"flip", "end_reaction"}
    t.refuse("p1", "accept_judgment", "R-GC-25", character="c2")
    t.refuse("p1", "pass_reaction", "R-GC-25")
    t.refuse("p1", "arrive", "R-GC-25", character="c2")
    t.do("p1", "end_reaction")
    assert t.scene.acted == {"p1": "flip"}


def test_r_gc_23_arrival(table) -> None:
    t = table()
    t.first_scene(flip=1)
    t.do("p1", "pass_reaction")
    ante = t.scene.ante
    t.refuse("p2", "arrive", "R-GC-23", character="c2")
    t.do("p2", "arrive", character="c3")
    assert "c3" in t.scene.present and t.scene.ante == ante + 1 and t.state.purse["p2"] == 2
    assert t.scene.acted["p2"] == "arrive"


def test_r_gc_32_r_gc_33_rewards_and_the_ante_scarab(table) -> None:
    t = table()
    t.first_scene(flip=1)
    pool, ante = t.state.pool, t.scene.ante
    purses = dict(t.state.purse)
    t.do("p1", "flip", position=2, source="free_scarab")
    t.do("p1", "end_reaction")
    t.do("p2", "flip", position=3, source="free_scarab")  # flipped, but no character present: no reward
    t.do("p2", "end_reaction")
    t.do("gm", "pass_reaction")  # passed: no reward
    assert t.state.purse["p1"] == purses["p1"] - 1 + 1
    assert t.state.purse["p2"] == purses["p2"] - 1
    assert t.state.purse["gm"] == purses["gm"]
    assert t.state.pool == pool - 2 and t.scene.ante == ante + 2 + 1
    assert t.scene.round == 2 and t.pending() == ("p1",)


def test_r_gc_32_short_pool_pays_the_earliest_seats(table) -> None:
    t = table()
    t.first_scene(flip=1)
    t.do("p1", "pass_reaction")
    t.do("p2", "arrive", character="c3")
    t.do("gm", "flip", position=2, source="free_scarab")
    t.do("gm", "end_reaction")
    # arrange a pool of one scarab before the round ends... replay the round with a short pool
    t2 = table()
    t2.first_scene(flip=1)
    t2.state.bank_net -= t2.state.pool - 1
    t2.state.pool = 1
    forget(t2.state)
    t2.do("p1", "pass_reaction")
    t2.do("p2", "arrive", character="c3")
    gm = t2.state.purse["gm"]
    t2.do("gm", "flip", position=2, source="free_scarab")
    t2.do("gm", "end_reaction")
    assert t2.state.purse["p2"] == 3 and t2.state.purse["gm"] == gm - 1  # p2 came first in the order
    assert t2.state.pool == 0 and "the pool is empty" in t2.texts()[-1]


def test_r_gc_33_ante_scarab_from_the_bank_option(table) -> None:
    t = table(ante_increment_source="bank")
    t.first_scene(flip=1)
    pool, ante = t.state.pool, t.scene.ante
    for seat in ("p1", "p2", "gm"):
        t.do(seat, "pass_reaction")
    assert t.state.pool == pool and t.scene.ante == ante + 1


def test_all_pass_round_still_moves_a_pool_scarab_to_the_ante(table) -> None:
    t = table()
    t.first_scene(flip=1)
    pool, ante = t.state.pool, t.scene.ante
    for seat in ("p1", "p2", "gm"):
        t.do(seat, "pass_reaction")
    assert t.state.pool == pool - 1 and t.scene.ante == ante + 1


def test_hr_g3_slow_clock(table) -> None:
    t = table(hr_slow_clock=True)
    t.first_scene(flip=1)
    pool = t.state.pool
    t.do("p1", "flip", position=2, source="free_scarab")
    t.do("p1", "end_reaction")
    t.do("p2", "pass_reaction")
    t.do("gm", "pass_reaction")
    assert t.state.pool == pool and t.state.purse["p1"] == 3


def test_hr_g1_scene_guard(table) -> None:
    t = table(hr_scene_guard=True)
    t.first_scene(flip=1)
    for seat in ("p1", "p2", "gm"):
        t.do(seat, "pass_reaction")
    assert t.pending() == ("p1",) and [a.type for a in t.legal("p1")] == ["accept_judgment"]
    t.refuse("p1", "pass_reaction", "HR-G1")
    t.refuse("p1", "flip", "HR-G1", position=2, source="free_scarab")
    t.do("p1", "accept_judgment", character="c2")


def test_hr_g1_scene_guard_hands_to_the_foil_when_the_gm_may_not_accept(table) -> None:
    t = table(hr_scene_guard=True, gm_may_accept=False)
    t.setup()
    t.state.scene.focal = "gm"
    forget(t.state)
    t.do("gm", "start_scene", spotlight="c1", intent="x")
    t.do("gm", "choose_foil", foil="c3")
    t.do("gm", "choose_ante_source", role="spotlight", source="pool")
    t.do("p2", "choose_ante_source", role="foil", source="pool")
    t.stay_out_all()
    t.roll(1)
    for seat in t.scene.order:
        t.do(seat, "pass_reaction")
    assert t.pending() == ("p2",) and t.scene.forced == "p2"


def test_r_gc_01_gm_accepts_and_is_rewarded_by_default(table) -> None:
    t = table()
    t.first_scene(flip=1)
    t.do("p1", "pass_reaction")
    t.do("p2", "pass_reaction")
    assert t.is_legal("gm", "accept_judgment", character="c1")
    t.do("gm", "flip", position=2, source="free_scarab")
    gm = t.state.purse["gm"]
    t.do("gm", "end_reaction")
    assert t.state.purse["gm"] == gm + 1


def test_r_gc_01_gm_flags_off(table) -> None:
    t = table(gm_may_accept=False, gm_takes_rewards=False)
    t.first_scene(flip=1)
    t.do("p1", "pass_reaction")
    t.do("p2", "pass_reaction")
    assert not t.is_legal("gm", "accept_judgment", character="c1")
    t.refuse("gm", "accept_judgment", "R-GC-01", character="c1")
    t.do("gm", "flip", position=2, source="free_scarab")
    gm = t.state.purse["gm"]
    t.do("gm", "end_reaction")
    assert t.state.purse["gm"] == gm


def test_r_gc_24_judgment_shown_only_at_the_reading_and_after_acceptance(table) -> None:
    t = table()
    t.first_scene(spot="101", foil="011")
    v = GAME.view(t.state, "p2")["scene"]
    assert v["initial_reading"] == {
        "pair": "101 011",
        "name": "Novelty",
        "triads": ["The Chrysalis", "The Nymph"],
        "judgment": "Unanticipated events occur.",
    }
    since = len(t.events)
    t.roll(2)
    v = GAME.view(t.state, "p2")["scene"]
    assert v["announced"] == {"pair": "111 011", "name": "Breakthrough", "triads": ["The World", "The Nymph"]}
    assert "judgment" not in v["announced"] and "accepted" not in v
    assert not any("The strong displace the weak" in x for x in t.texts()[since:])
    t.do("p1", "accept_judgment", character="c2")
    v = GAME.view(t.state, "p2")["scene"]
    assert v["accepted"]["judgment"] == "The strong displace the weak."


def test_r_gc_35_narration_rights(table) -> None:
    t = table()
    t.first_scene(flip=1)
    t.do("p1", "pass_reaction")
    t.do("p2", "flip", position=2, source="free_scarab")  # a flip makes p2 a participant
    t.do("p2", "end_reaction")
    t.do("gm", "pass_reaction")
    t.do("p1", "accept_judgment", character="c2")
    assert t.state.phase == "assign_narration"
    assert {a.args["narrator"] for a in t.legal("p1")} == {"p2", "gm"}
    t.refuse("p1", "assign_narration", "R-GC-35", narrator="p1")
    t.do("p1", "assign_narration", narrator="p2")
    assert t.pending() == ("p2",)
    t.do("p2", "narrate", text="The hideout is found, and it is empty")
    assert t.pending() == ("p1",) and t.state.phase == "distribution"


def test_r_gc_35_the_acceptor_narrates_when_nobody_else_took_part(table) -> None:
    t = table()
    t.setup(
        agents=(
            {"dice": (5, 5, 5), "kind": "bug", "cls": "myrmidon"},
            {"dice": (2, 2, 2), "kind": "bug", "cls": "worker"},
        )
    )
    t.state.scene.focal = "gm"
    forget(t.state)
    t.start("c1", "c2")
    t.stay_out_all()
    t.roll(1)
    t.do("gm", "accept_judgment", character="c1")
    assert t.scene.narrator == "gm" and t.pending() == ("gm",)


def test_r_gc_36_r_gc_37_r_gc_38_distribution(table) -> None:
    """Rule: [Ending the Scene]"""
    t = table()
    t.first_scene(flip=1)
    t.do("p1", "accept_judgment", character="c2")
    assert t.scene.narrator == "gm"  # the only other participant
    t.do("gm", "narrate", text="It means trouble")
    s = t.state
    purse = s.purse["p1"]
    assert purse == 3 + 2
    t.do("p1", "give_scarabs", to_seat="p2", n=1)
    assert s.purse["p2"] == 4
    t.refuse("p1", "vest_own", "R-GC-36", character="c3", color="blue", n=1)
    t.do("p1", "vest_own", character="c2", color="green", n=1)
    assert s.characters["c2"].vested == [0, 0, 1]
    t.do("p1", "fund_fate", box="yea", n=1)
    assert s.yea == 1 and s.contributions["p1"] == [1, 0]
    t.do("p1", "vest_city_stone", position=1, n=1)
    assert s.city_vested[0] == 1
    t.refuse("p1", "flip_city_stone", "R-GC-37", position=1)  # costs 1 + 1 vested, p1 has 1
    city = s.city
    bank = s.bank_net
    t.do("p1", "flip_city_stone", position=2)
    assert s.city == city ^ 0b010000 and s.bank_net == bank - 1
    t.refuse("p1", "give_scarabs", "R-GC-36", to_seat="p2", n=1)  # the purse is empty
    t.do("p1", "end_distribution")
    assert s.scene.focal == "p2" and s.pool_timeline[-1] == s.pool


def test_r_gc_37_city_vested_scarabs_protect_and_the_same_stone_flips_twice(table) -> None:
    t = table()
    t.first_scene(flip=1)
    t.do("p1", "accept_judgment", character="c2")
    t.do("gm", "narrate", text="x")
    t.give("p1", 10)
    s = t.state
    t.do("p1", "vest_city_stone", position=3, n=2)
    bank, city = s.bank_net, s.city
    t.do("p1", "flip_city_stone", position=3)  # 1 + 2 from the purse, and the 2 vested, to the bank
    assert s.city_vested[2] == 0 and s.bank_net == bank - 5 and s.purse["p1"] == 15 - 2 - 3
    t.do("p1", "flip_city_stone", position=3)  # no re-flip lock on the city
    assert s.city == city


def test_r_gc_38_fate_contributions_are_secret(table) -> None:
    t = table()
    t.first_scene(flip=1)
    t.do("p1", "accept_judgment", character="c2")
    t.do("gm", "narrate", text="x")
    t.do("p1", "fund_fate", box="nay", n=2)
    public = [e for e in t.events if not e.visible_to]
    assert not any("Nay purse" in e.text for e in public)
    assert any("drops scarabs into the Fate box" in e.text for e in public)
    assert GAME.view(t.state, "p1")["fate_box"]["yours"]["nay"] == 2
    assert "yours" not in GAME.view(t.state, "p2")["fate_box"]
    assert "yea" not in GAME.view(t.state, "gm")["fate_box"]


def test_r_gc_38_public_contributions_option(table) -> None:
    t = table(fate_contributions="public")
    t.first_scene(flip=1)
    t.do("p1", "accept_judgment", character="c2")
    t.do("gm", "narrate", text="x")
    t.do("p1", "fund_fate", box="nay", n=2)
    assert GAME.view(t.state, "p2")["fate_box"]["nay"] == 3 + 2
    assert t.texts()[-1] == "Ann puts 2 scarab(s) into the Nay purse"


def test_r_gc_03_triads_persist_between_scenes(table) -> None:
    t = table()
    t.first_scene(spot="000", foil="000", flip=1)
    t.do("p1", "accept_judgment", character="c2")
    t.do("gm", "narrate", text="x")
    t.do("p1", "end_distribution")
    assert O.signs(t.state.characters["c2"].triad) == "+--"


def test_r_gc_03_reset_mode(table) -> None:
    t = table(scene_triad_mode="reset")
    t.first_scene(spot="000", foil="000", flip=1)
    t.do("p1", "accept_judgment", character="c2")
    t.do("gm", "narrate", text="x")
    t.do("p1", "end_distribution")
    assert O.signs(t.state.characters["c2"].triad) == "---"


def test_r_gc_03_rethrow_mode(table) -> None:
    t = table(scene_triad_mode="rethrow")
    t.setup()
    t.start("c2", "c1")
    t.stay_out_all()
    assert GAME.chance_step(t.state).type == "rethrow_triads"
    t.roll(5, 2, 8, 1, 2, 3)
    s = t.state
    assert O.signs(s.characters["c2"].triad) == "+-+" and s.characters["c2"].vested == [0, 0, 1]
    assert O.signs(s.characters["c1"].triad) == "---" and s.characters["c1"].vested == [1, 0, 0]
    assert t.scene.initial_pair == 0b101000


def test_ex_g11_new_foil_is_not_rethrown(table) -> None:
    t = table(scene_triad_mode="rethrow")
    t.setup()
    t.do("p1", "start_scene", spotlight="c2", intent="I go about my daily activities, oblivious")
    t.do("p1", "choose_foil", foil="NEW")
    t.make("gm", (5, 5, 5), kind="bug", cls="worker")
    t.do("gm", "end_ties", source=t.scene.foil)
    t.do("p1", "choose_ante_source", role="spotlight", source="pool")
    t.do("gm", "choose_ante_source", role="foil", source="pool")
    t.stay_out_all()
    assert GAME.chance_step(t.state).extra == {"characters": ["c2"]}
