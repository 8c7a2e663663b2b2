"""Every worked example of the draft, with the exact dice (spec §11, TV-MB-01..12)."""

from __future__ import annotations

from ludica.games.misery_bubblegum.arithmetic import minimal_wipe_subsets
from ludica.games.misery_bubblegum.triangle import ARROWS


def test_tv_mb_01_jesse_climbs_the_wall(table) -> None:
    """[Getting things done]: the GM decides success (3 dice to 2), Jesse the meaning (2+3 against 0)."""
    t = table(("Jesse", "Other"))
    t.act('p1 call_action pool=confidence challenge=4 dice=4 intent="Ritsuko climbs the wall"')
    t.act("p2 pass_opposition")
    t.act("gm gm_oppose challenge=2 dice=3 pool_label=confidence")
    t.roll(2, 3, 4, 6, 2, 5, 5)
    t.act("p1 pass_reroll")
    jesse, gm = t.part("p1"), t.part("gm")
    assert t.faces("p1", jesse.success) == [4, 6] and (jesse.s, jesse.ss) == (2, 10)
    assert t.faces("p1", jesse.non_success) == [2, 3] and jesse.n == 5
    assert t.faces("gm", gm.success) == [2, 5, 5] and (gm.s, gm.ss, gm.n) == (3, 12, 0)
    attempt = t.state.attempt
    assert attempt.success_decider == "gm" and attempt.meaning_decider == "p1"
    assert t.pending() == ("gm",)
    assert t.legal("gm") == ["gm decide_success succeeds=true", "gm decide_success succeeds=false"]


def _reroll_table(table, faces):
    t = table()
    t.give_trait("t9", "p1", "p2", 5)
    t.move("p1", passion=6)
    t.act(f"p1 call_action pool=passion challenge=6 dice={len(faces)} intent=act")
    t.act("p2 pass_opposition")
    t.act("gm pass_opposition")
    t.roll(*faces)
    return t


def test_tv_mb_02_trait_reroll_budget(table) -> None:
    """[Obnoxious]: a Trait of 5 rerolls a 5, five 1s, a 2 and a 3, two 2s... never more than 5."""
    for chosen in ([5], [1, 1, 1, 1, 1], [2, 3], [2, 2], [1, 4]):
        t = _reroll_table(table, [*chosen, 6])
        t.select("p1", *range(len(chosen)))
        t.act("p1 use_trait trait=t9 fee_pool=insight fee_mode=to_misery")
        assert t.state.attempt.chance == {"type": "reroll", "dice": [f"p1.{i}" for i in range(len(chosen))]}
    for chosen in ([6], [3, 3], [2, 2, 2], [5, 1]):
        t = _reroll_table(table, chosen)
        t.select("p1", *range(len(chosen) - 1))
        t.refused(f"p1 select_die die=p1.{len(chosen) - 1}", "reroll budget")


def test_tv_mb_03_jane_quick_temper(table) -> None:
    """[Misery]: 13 against "Quick temper" 5 removes levels 5, 4 and 3, leaving 2."""
    t = table(("Jane", "Other"))
    t.give_trait("qt", "p1", "p2", 5, "Quick temper")
    t.move("p1", misery=4)
    spare = t.sheet("p1").spare
    t.unopposed("p1", "passion", 6, 4, 1, 1, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0, 1, 2, 3)
    t.act("p1 spend_misery target=qt")
    t.roll(4, 3, 3, 3)
    assert t.state.traits["qt"].value == 2
    assert (t.sheet("p1").misery, t.sheet("p1").spare) == (0, spare + 4)
    assert not t.invariants()


def test_tv_mb_04_ed_not_too_smart(table) -> None:
    """[Misery]: 1, 2, 4, 6 against "Not too smart" 2; Ed spends the 1 and 2, the 4 and 6 return."""
    assert minimal_wipe_subsets(2, [1, 2, 4, 6]) == [(1, 2), (4,), (6,)]
    t = table(("Ed", "Other"))
    t.give_trait("nts", "p1", "p2", 2, "Not too smart")
    t.move("p1", misery=4)
    spare = t.sheet("p1").spare
    t.unopposed("p1", "passion", 6, 4, 1, 1, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0, 1, 2, 3)
    t.act("p1 spend_misery target=nts")
    t.roll(1, 2, 4, 6)
    assert sorted(t.legal("p1")) == sorted(
        ["p1 choose_wipe_subset dice=[1,2]", "p1 choose_wipe_subset dice=[4]", "p1 choose_wipe_subset dice=[6]"]
    )
    for bad in ("[1,2,4]", "[1]", "[2]"):
        t.refused(f"p1 choose_wipe_subset dice={bad}", "MB-R16")
    t.act("p1 choose_wipe_subset dice=[1,2]")
    assert "nts" not in t.state.traits
    assert (t.sheet("p1").misery, t.sheet("p1").spare) == (2, spare + 2)
    assert not t.invariants()


def _troy(table, active: bool):
    t = table(("Troy", "Other"))
    blocking = [2, 2, 4] if active else []
    t.give_resource(
        "mc", "threat", "p1", 6, text="Must conceal my powers from my parents", active=active, blocking=blocking
    )
    return t


def test_tv_mb_05_troys_threat_activates(table) -> None:
    """[Threats]: activated, it rolls unaligned dice 2, 2, 4 (running 2, 4, 8 >= 6)."""
    t = _troy(table, active=False)
    t.unopposed("p1", "insight", 6, 4, 5, 4, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0, 1)
    t.act("p1 activate_resource resource=mc")
    for face in (2, 2, 4):
        assert t.pending() == ("chance",)
        t.roll(face)
    threat = t.state.resources["mc"]
    assert threat.active and threat.blocking == [2, 2, 4]
    assert t.pending() == ("p1",)  # no fourth unaligned die is asked for


def _troys_excuse(table):
    t = _troy(table, active=True)
    t.move("p1", insight=6)
    t.unopposed("p1", "insight", 5, 6, 1, 2, 3, 4, 4, 5)
    return t


def test_tv_mb_06_troys_excuse(table) -> None:
    """[Threats]: 1, 2, 3, 4, 4, 5 with blocking 2, 2, 4 count as 1, 3, 5: barely a success."""
    t = _troys_excuse(table)
    troy = t.part("p1")
    assert t.faces("p1", troy.counted) == [1, 3, 5]
    assert [d.face for i, d in enumerate(troy.dice.dice) if i not in troy.counted] == [2, 4, 4]
    assert troy.s == 1 and t.faces("p1", troy.non_success) == [1, 3] and troy.n == 4
    attempt = t.state.attempt
    assert attempt.succeeded is True and attempt.meaning_decider == "p1"


def test_tv_mb_07_troy_removes_a_blocking_die(table) -> None:
    """[Threats]: the 1 and 3 remove the 4: "It will now block only 2s"."""
    t = _troys_excuse(table)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0, 2)
    t.act("p1 remove_blocking_die threat=mc blocking=4")
    threat = t.state.resources["mc"]
    assert threat.active and threat.value == 6 and threat.blocking == [2, 2]


def test_tv_mb_08_troy_spends_misery_on_the_threat(table) -> None:
    """[Threats]: two Misery dice roll 4 and 5: 9 >= 6, the Threat rises to 7."""
    t = _troys_excuse(table)
    t.move("p1", misery=2)
    spare = t.sheet("p1").spare
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0, 2)
    t.act("p1 spend_misery target=mc")
    t.roll(4, 5)
    threat = t.state.resources["mc"]
    assert threat.value == 7 and threat.blocking == [2, 2, 4]
    assert (t.sheet("p1").misery, t.sheet("p1").spare) == (0, spare + 2)


def _jacob(table, active: bool):
    t = table(("Jacob", "Renata"))
    aid = [5, 4, 4] if active else []
    t.give_resource("dr", "promise", "p1", 12, text="will always defend Renata", active=active, aid=aid)
    return t


def test_tv_mb_09_jacobs_promise_activates(table) -> None:
    """[Promises]: activated, it rolls 5, 4, 4 (running 5, 9, 13 >= 12)."""
    t = _jacob(table, active=False)
    t.unopposed("p1", "confidence", 6, 5, 5, 5, 2, 1, 1)
    t.act("p1 choose_arrow orientation=self")
    t.select("p1", 0, 1, 2, 3, 4)
    t.act("p1 activate_resource resource=dr")
    for face in (5, 4, 4):
        t.roll(face)
    assert t.state.resources["dr"].aid == [5, 4, 4]


def test_tv_mb_10_jacob_acts_with_his_promise(table) -> None:
    """[Promises]: 1, 2, 3, 4 count as 1, 2, 3, 4, 4, 4; the unmatched 5 costs a Misery die."""
    t = _jacob(table, active=True)
    t.unopposed("p1", "passion", 4, 4, 1, 2, 3, 4)
    jacob = t.part("p1")
    assert jacob.matched_aid == [4, 4] and jacob.unmatched_aid == 1
    assert (jacob.s, jacob.ss, jacob.n) == (3, 12, 6)
    assert t.faces("p1", jacob.success) == [4]
    t.act("p1 choose_arrow orientation=self")
    t.refused("p1 fulfil_promise promise=dr", "MB-R20")  # Passion/self touches Desires only
    misery = t.sheet("p1").misery
    t.act("p1 end_meaning")
    t.act("p1 reclaim")  # passion/self: rating 3 - 1 left = 2 to Misery, +1 for the unmatched aid die
    assert t.sheet("p1").misery == misery + 3 and t.sheet("p1").pool["insight"] == 6
    assert not t.invariants()


def test_tv_mb_10_fulfil_refused_when_an_aid_die_is_unmatched(table) -> None:
    t = _jacob(table, active=True)
    t.unopposed("p1", "confidence", 4, 4, 1, 2, 3, 4)
    t.act("p1 choose_arrow orientation=self")
    t.refused("p1 fulfil_promise promise=dr", "MB-R33")


def _joe(table):
    t = table(("Joe", "Eddie"), ratings=[(3, 3, 2), (4, 3, 3)])
    t.move("p1", insight=6, passion=0, confidence=0)
    t.act('p1 call_action pool=insight challenge=4 dice=5 intent="Joe reads Eddie"')
    t.act("p2 oppose pool=passion challenge=3 dice=3")
    t.act("gm pass_opposition")
    t.roll(1, 1, 1, 3, 5, 3, 4, 5)
    t.act("p1 pass_reroll")
    t.act("p2 pass_reroll")
    assert t.state.attempt.meaning_decider == "p1"
    t.act("p2 decide_success succeeds=true")
    return t


def test_tv_mb_11_joe_desire_on_eddie(table) -> None:
    """[What does it mean?]: Insight/others, a Desire on Eddie: Joe reclaims 2 into Passion, 3 to Misery."""
    t = _joe(table)
    t.act("p1 choose_arrow orientation=others")
    t.act('p1 create_resource owner=p2 text="wants Joe\'s approval"')
    assert t.state.resources[t.state.attempt.created].kind == "desire"
    t.act("p1 end_meaning")
    t.act("p1 reclaim reclaim_count=2")
    joe = t.sheet("p1")
    assert (joe.pool["insight"], joe.pool["passion"], joe.misery) == (1, 2, 3)
    t.act("p2 reclaim")  # Eddie: passion/self -> Insight; 4 - 2 left = 2 to Misery, 1 back
    eddie = t.sheet("p2")
    assert (eddie.pool["passion"], eddie.pool["insight"], eddie.misery) == (2, 6, 2)
    assert t.state.attempt is None and not t.invariants()


def test_tv_mb_11_joe_threat_on_himself(table) -> None:
    """[What does it mean?]: Insight/self, a Threat on Joe: 2 - 1 left = 1 to Misery, 4 into Confidence."""
    t = _joe(table)
    t.act("p1 choose_arrow orientation=self")
    t.act('p1 create_resource owner=p1 text="Eddie sees through me"')
    assert t.state.resources[t.state.attempt.created].kind == "threat"
    t.act("p1 end_meaning")
    t.act("p1 reclaim")
    joe = t.sheet("p1")
    assert (joe.pool["insight"], joe.pool["confidence"], joe.misery) == (1, 4, 1)
    t.act("p2 reclaim reclaim_count=3")  # Eddie: passion/others -> Confidence, up to min(4, 3)
    eddie = t.sheet("p2")
    assert (eddie.pool["confidence"], eddie.misery) == (8, 0)


def test_tv_mb_11_eddie_cannot_reclaim_more_than_his_rating_allows(table) -> None:
    t = _joe(table)
    t.act("p1 choose_arrow orientation=self")
    t.act("p1 end_meaning")
    t.act("p1 reclaim")
    assert 'p2 reclaim reclaim_count={"$int":[0,3]}' in t.legal("p2")
    t.refused("p2 reclaim reclaim_count=4", "reclaim")


def test_tv_mb_12_arrow_table() -> None:
    """MB-R1: the reconstructed triangle."""
    assert {k: tuple(v) for k, v in ARROWS.items()} == {
        ("passion", "others"): ("promise", "confidence"),
        ("passion", "self"): ("desire", "insight"),
        ("confidence", "others"): ("threat", "insight"),
        ("confidence", "self"): ("promise", "passion"),
        ("insight", "others"): ("desire", "passion"),
        ("insight", "self"): ("threat", "confidence"),
    }


def test_tv_mb_12_no_threat_from_passion_no_promise_from_insight(table) -> None:
    """[What does it mean?]: "You can't create Threats at all" from Passion; not Promises from Insight."""
    for pool, banned in (("passion", "threat"), ("insight", "promise")):
        for orientation in ("others", "self"):
            t = table()
            t.unopposed("p1", pool, 6, 2, 1, 1)
            t.act(f"p1 choose_arrow orientation={orientation}")
            owner = "p1" if orientation == "self" else "p2"
            t.act(f"p1 create_resource owner={owner} text=thing")
            assert t.state.resources[t.state.attempt.created].kind != banned
