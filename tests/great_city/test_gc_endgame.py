"""The end game (spec §2.6): rulings R-GC-06, R-GC-34, R-GC-38, R-GC-39, R-GC-40."""

from __future__ import annotations

from ludica.core import get_game
from ludica.games.great_city import oracle as O

GAME = get_game("great-city")


def _last_scene(t, purses=None, yea=0) -> None:
    """Default setup (EX-G2's situation: city 111 011), one scene that empties the pool."""
    t.setup(chars=[{"dice": (6, 6, 6), "intent": "blue"}, {"dice": (2, 2, 2), "intent": "green"}])
    t.start("c2", "c1")
    t.stay_out_all()
    t.roll(1)
    s = t.state
    s.bank_net -= s.pool
    s.pool = 0
    t.do("p1", "accept_judgment", character="c2")
    t.do("gm", "narrate", text="The end draws near")
    for seat, n in (purses or {}).items():
        s.bank_net += n - s.purse[seat]
        s.purse[seat] = n
    s.yea += yea
    s.bank_net += yea
    t.do("p1", "end_distribution")


def test_r_gc_39_ranking_with_tie_rolls_and_reveal(table) -> None:
    """Rule: [END GAME]"""
    t = table(players=["Ann", "Bob", "Cat"])
    t.setup(chars=[{"dice": (6, 6, 6)}, {"dice": (2, 2, 2)}, {"dice": (2, 2, 2)}])
    t.start("c2", "c1")
    t.stay_out_all()
    t.roll(1)
    s = t.state
    s.bank_net -= s.pool
    s.pool = 0
    t.do("p1", "accept_judgment", character="c2")
    t.do("gm", "narrate", text="x")
    for seat, n in (("p1", 4), ("p2", 4), ("p3", 4), ("gm", 99)):
        s.bank_net += n - s.purse[seat]
        s.purse[seat] = n
    t.do("p1", "end_distribution")
    assert s.phase == "rank" and s.ranking == [["p1", "p2", "p3"]]  # the GM is not ranked
    assert GAME.chance_step(s).extra == {"players": ["p1", "p2", "p3"]}
    t.roll(5, 7, 5)
    assert s.ranking == [["p2"], ["p1", "p3"]]
    t.roll(2, 6)  # the still-tied re-roll among themselves
    assert s.ranking == [["p2"], ["p3"], ["p1"]] and s.phase == "city_fate" and t.pending() == ("p2",)
    v = GAME.view(s, None)
    assert v["purses"] == {"p1": 4, "p2": 4, "p3": 4, "gm": 99}
    assert v["fate_box"]["yea"] == 0 and v["fate_box"]["nay"] == 4
    assert v["endgame"]["ranking"] == ["p2", "p3", "p1"]
    assert GAME.secrets(s) == []


def test_r_gc_06_r_gc_40_the_city_and_the_characters_fates(table) -> None:
    t = table()
    _last_scene(t, purses={"p1": 1, "p2": 5})
    s = t.state
    assert s.phase == "city_fate" and t.pending() == ("p2",)  # the fattest purse narrates the city
    eg = GAME.view(s, "p1")["endgame"]
    # the city's pair is the trajectory of EX-G2 (R-GC-06); Yea 0 is not more than Nay 3: it succumbs
    assert eg["city"]["pair"] == "111 011" and eg["city"]["name"] == "Breakthrough"
    assert eg["city_fate"] == "succumbs"
    t.do("p2", "narrate_city_fate", text="The city falls to the new breed")
    # p2 (kind commoner, 000, intent from its green - stone: no) reads its triad with the city's second half
    fates = {f["seat"]: f for f in eg["fates"]}
    c3 = s.characters["c3"]
    assert c3.intent["answer"] == "no"
    assert fates["p2"]["pair"] == f"{O.bits(c3.triad)} 011"
    c2 = s.characters["c2"]
    assert c2.intent["answer"] == "yes"
    assert fates["p1"]["pair"] == f"{O.bits(c2.triad)} 111"  # committed: the city's first half
    assert fates["p1"]["name"] == O.PAIR_NAMES[c2.triad << 3 | 0b111]
    assert t.pending() == ("p2",)
    t.refuse("p1", "narrate_character_fate", None, character="c2", text="x")
    t.refuse("p2", "narrate_character_fate", "R-GC-39", character="c2", text="x")
    t.do("p2", "narrate_character_fate", character="c3", text="She walks into the jungle")
    t.do("p1", "narrate_character_fate", character="c2", text="He stays with the city")
    assert GAME.pending(s).is_over
    out = GAME.outcome(s)
    assert out.winners == ("p2",) and out.scores == {"p1": 1.0, "p2": 5.0}
    assert "succumbs" in out.summary


def test_city_survives_only_with_more_yea_than_nay(table) -> None:
    t = table()
    _last_scene(t, purses={"p1": 5, "p2": 1}, yea=3)  # Yea 3 = Nay 3: succumbs
    assert t.state.endgame["survives"] is False
    t = table()
    _last_scene(t, purses={"p1": 5, "p2": 1}, yea=4)
    assert t.state.endgame["survives"] is True


def test_summarize_and_report(table) -> None:
    t = table()
    _last_scene(t, purses={"p1": 5, "p2": 1})
    t.do("p1", "narrate_city_fate", text="x")
    t.do("p1", "narrate_character_fate", character="c2", text="x")
    t.do("p2", "narrate_character_fate", character="c3", text="x")
    summary = GAME.summarize(t.state, 100)
    assert summary["scenes"] == 1 and summary["pool_timeline"] == [12]
    assert summary["city_survives"] is False and summary["final_purses"] == [5, 1]
    lines = dict(GAME.report([summary, summary]))
    assert lines["peril pool at scene start, by scene"] == "1: 12.0 (n=2)"
    assert lines["city survives (Yea > Nay)"] == "0.0%"
    assert lines["scenes per game"].startswith("mean 1.00")
