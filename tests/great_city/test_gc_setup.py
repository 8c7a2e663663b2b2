"""Creating the situation, agents, characters, resources, ties and initiative (spec §2.2):
EX-G2, EX-G4, EX-G5, EX-G6, EX-G12 and rulings R-GC-02, 04-07, 09, 11-19, 42-45."""

from __future__ import annotations

import pytest

from ludica.core import ConfigError, get_game
from ludica.games.great_city import oracle as O

GAME = get_game("great-city")


def test_ex_g2_moving_stone_of_the_situation(table) -> None:
    """Rule: [The Situation]"""
    t = table()
    t.roll(5, 1, 6, 2, 7, 5)
    s = t.state
    assert O.pair_bits(s.initial_city) == "101 011"
    assert s.city_moving == [2]
    assert O.pair_bits(s.city) == "111 011"
    assert O.lookup(s.city >> 3, s.city & 7)[0] == "Breakthrough"
    assert O.triad_name(s.city >> 3) == "The World"
    assert s.city_vested == [0] * 6  # R-GC-04: nothing vested in the city
    assert any("Novelty" in x for x in t.texts()) and any("Breakthrough" in x for x in t.texts())


def test_ex_g3_r_gc_05_reduce_the_initial_throw(table) -> None:
    """Rule: [The Situation]"""
    t = table()
    t.roll(5, 1, 6, 2, 7, 5)
    assert O.signs(t.state.reduced) == "--+"
    v = GAME.view(t.state, None)["situation"]
    assert v["face_of_peril"] == ["economic"] and v["reduced"]["name"] == "The Queen"


def test_r_gc_05_reduce_from_trajectory_option(table) -> None:
    t = table(reduce_from="trajectory")
    t.roll(5, 1, 6, 2, 7, 5)
    assert O.signs(t.state.reduced) == O.signs(O.reduce(0b111, 0b011)) == "-++"


def test_ex_g4_setup_counters(table) -> None:
    """Rule: [What You Will Need To Play]; [The Mounting Peril]"""
    for n, pool in ((2, 12), (3, 24), (4, 40), (5, 60)):
        t = table(players=["Ann", "Bob", "Cat", "Dan", "Eve"][:n])
        assert t.state.nay == n + 1 and t.state.yea == 0 and t.state.pool == pool


def test_r_gc_44_two_to_five_players() -> None:
    from ludica.core import Config

    for names in (("Ann",), ("A", "B", "C", "D", "E", "F")):
        with pytest.raises(ConfigError):
            GAME.validate_config(Config(names))


def test_r_gc_07_situation_texts_recorded_never_judged(table) -> None:
    t = table()
    t.situation()
    assert t.state.situation_texts == {"situation": "A new breed", "peril": "A bug rebellion", "face": "Sabotage"}
    assert t.state.phase == "agents"


def test_ex_g12_one_to_three_agents_of_peril(table) -> None:
    """Rule: [The Agents of Peril]"""
    t = table()
    t.situation()
    t.refuse("gm", "end_agents", "agents")
    t.do("gm", "create_agent", name="Insect General", description="hidden mastermind of the rebellion")
    t.do("gm", "create_agent", name="Rich Bug Merchant", description="sells the new breed")
    t.do("gm", "create_agent", name="Third", description="a third")
    assert not t.is_legal("gm", "create_agent", name="Fourth", description="x")
    t.refuse("gm", "create_agent", name="Fourth", description="x")
    t.do("gm", "end_agents")
    # the GM sets the agents' attributes like a player character's: the general a bug myrmidon,
    t.make("gm", (8, 3, 3), kind="bug", cls="myrmidon")
    # the merchant a human mercantile
    t.make("gm", (2, 2, 6), kind="human", cls="mercantile")
    general, merchant = t.state.characters["c1"], t.state.characters["c2"]
    assert general.agent and general.cls == "myrmidon" and general.intent is None
    assert merchant.kind == "human" and merchant.cls == "mercantile"


def test_r_gc_17_agent_triads_chosen_by_the_gm(table) -> None:
    t = table(agent_triads="chosen")
    t.situation()
    t.do("gm", "create_agent", name="General", description="x")
    t.do("gm", "end_agents")
    assert t.pending() == ("gm",)
    t.refuse("gm", "set_triad", "R-GC-17", character="c1", blue=9, white=1, green=1)
    t.do("gm", "set_triad", character="c1", blue=8, white=1, green=5)
    c = t.state.characters["c1"]
    assert O.signs(c.triad) == "+-+" and c.vested == [1, 1, 0]


def test_r_gc_04_moving_stones_vest_from_the_bank_and_keep_their_face(table) -> None:
    t = table()
    t.situation()
    t.do("gm", "create_agent", name="General", description="x")
    t.do("gm", "end_agents")
    bank = t.state.bank_net
    t.roll(1, 8, 4)
    c = t.state.characters["c1"]
    assert O.signs(c.triad) == "-+-"  # 1 sets minus, 8 sets plus: no automatic flip
    assert c.vested == [1, 1, 0] and c.moving == 0b110
    assert t.state.bank_net == bank + 2


def test_r_gc_09_traits_follow_the_triad_signs(table) -> None:
    """Rule: [Generating Characters]; [Human Characters]"""
    t = table()
    t.situation()
    t.do("gm", "create_agent", name="General", description="x")
    t.do("gm", "end_agents")
    t.roll(5, 5, 2)  # ++-: two + traits, one -
    t.do("gm", "choose_kind", character="c1", kind="human")
    options = {tuple(a.args["traits"].values()) for a in t.legal("gm")}
    assert options == {("old", "urbane", "kind"), ("old", "rustic", "cruel"), ("young", "urbane", "cruel")}
    e = t.refuse(
        "gm",
        "allocate_traits",
        "R-GC-09",
        character="c1",
        traits={"age": "old", "experience": "urbane", "attitude": "cruel"},
    )
    assert "exactly 2 must be +" in e.reason
    t.do("gm", "allocate_traits", character="c1", traits={"age": "young", "experience": "urbane", "attitude": "cruel"})
    assert t.state.characters["c1"].traits == ("young", "urbane", "cruel")


def test_ex_g6_r_gc_11_class_from_plus_or_moving_stones(table) -> None:
    t = table()
    t.situation()
    t.do("gm", "create_agent", name="General", description="x")
    t.do("gm", "end_agents")
    t.roll(1, 5, 3)  # blue moving minus, white plus, green minus
    t.do("gm", "choose_kind", character="c1", kind="bug")
    t.do(
        "gm",
        "allocate_traits",
        character="c1",
        traits={"motive": "curious", "ability": "cunning", "nature": "instinctual"},
    )
    classes = {a.args["class"] for a in t.legal("gm")}
    assert classes == {"myrmidon", "drone", "worker"}
    t.refuse("gm", "choose_class", "R-GC-11", character="c1", **{"class": "queen"})
    t.refuse("gm", "choose_class", "R-GC-11", character="c1", **{"class": "aristocrat"})
    t.do("gm", "choose_class", character="c1", **{"class": "worker"})  # declining: a worker


def test_ex_g5_r_gc_18_intent_by_the_chosen_stone(table) -> None:
    t = table()
    t.situation()
    t.do("gm", "create_agent", name="General", description="x")
    t.do("gm", "end_agents")
    t.make("gm", (5, 5, 5), kind="bug", cls="worker")
    t.roll(6, 2, 7)  # + - +
    cid = t.state.creating
    t.do("p1", "choose_kind", character=cid, kind="human")
    t.do("p1", "allocate_traits", character=cid, traits={"age": "old", "experience": "rustic", "attitude": "cruel"})
    t.do("p1", "choose_class", character=cid, **{"class": "aristocrat"})
    options = {a.args["color"] for a in t.legal("p1")}
    assert options == {"blue", "white", "green"}
    t.do("p1", "choose_intent", character=cid, color="white", text="For what we do to our slaves, we deserve it")
    intent = t.state.characters[cid].intent
    assert intent["answer"] == "no" and intent["basis"] == "knowledge, beliefs, or perceptions"
    # every colour and face gives its answer and basis (EX-G5)
    for color, answer, basis in (
        ("blue", "yes", "deeds or actions"),
        ("green", "yes", "relationships or interactions"),
    ):
        i = O.COLORS.index(color)
        assert ("yes" if O.stone(0b101, i) else "no") == answer and O.JUSTIFICATION[color] == basis


def test_r_gc_18_intent_is_fixed_by_later_flips(table) -> None:
    t = table()
    t.setup(chars=[{"dice": (6, 6, 6), "intent": "blue"}, {"dice": (2, 2, 2)}])
    c = t.state.player_char("p1")
    c.triad = 0  # flipped in play
    assert c.intent["answer"] == "yes"


def test_r_gc_43_names_from_table_4(table) -> None:
    t = table()
    t.situation()
    t.do("gm", "create_agent", name="General", description="x")
    t.do("gm", "end_agents")
    t.make("gm", (5, 5, 5), kind="bug", cls="worker")
    t.roll(2, 2, 2)
    cid = t.state.creating
    t.do("p1", "choose_kind", character=cid, kind="human")
    t.do("p1", "allocate_traits", character=cid, traits={"age": "young", "experience": "rustic", "attitude": "kind"})
    t.do("p1", "choose_class", character=cid, **{"class": "commoner"})
    t.do("p1", "choose_intent", character=cid, color="green", text="No one here cares about me")
    t.refuse("p1", "draw_name", character=cid, list="surnames")
    t.do("p1", "draw_name", character=cid, list="female")
    assert GAME.pending(t.state).seats == ("chance",)
    t.roll(13, 13)
    assert t.state.characters[cid].name == "Philomena Oke"


def test_r_gc_16_r_gc_12_resources_and_class_benefits(table) -> None:
    """Rule: [Character Resources and Connections]"""
    t = table(players=["Ann", "Bob", "Cat"])
    t.situation()
    t.do("gm", "create_agent", name="General", description="x")
    t.do("gm", "create_agent", name="Merchant", description="x")
    t.do("gm", "end_agents")
    t.make("gm", (5, 2, 2), kind="bug", cls="myrmidon")
    t.make("gm", (2, 2, 6), kind="human", cls="mercantile")
    t.make("p1", (2, 2, 6), cls="mercantile")
    t.make("p2", (2, 6, 2), cls="learned")
    t.make("p3", (2, 2, 2))
    s = t.state
    # 3 players, 2 agents, one mercantile: 12 + 4 + 2 = 18 (R-GC-16)
    assert s.purse == {"p1": 5, "p2": 3, "p3": 3, "gm": 18}
    assert s.phase == "vest"
    order = list(s.vest_queue)
    assert order == ["c3", "c4", "c1", "c2"]  # players first, then agents
    bank = s.bank_net
    t.do("p1", "vest_class_scarab", character="c3", vest=True)
    t.do("p2", "vest_class_scarab", character="c4", vest=False)
    t.do("gm", "vest_class_scarab", character="c1", vest=True)
    t.do("gm", "vest_class_scarab", character="c2", vest=True)
    assert s.characters["c3"].vested == [0, 0, 1]
    assert s.characters["c4"].vested == [0, 0, 0]
    assert s.characters["c1"].vested == [1, 0, 0]
    assert s.characters["c2"].vested == [0, 0, 1]
    assert s.bank_net == bank + 3  # a bank bonus, not from the purse (R-GC-12)
    assert s.purse == {"p1": 5, "p2": 3, "p3": 3, "gm": 18}


def _to_ties(t) -> None:
    t.situation()
    t.do("gm", "create_agent", name="General", description="x")
    t.do("gm", "end_agents")


def test_r_gc_14_r_gc_15_free_tie_and_constraints(table) -> None:
    """Rule: [The Character Network]; [Character Resources and Connections]"""
    t = table()
    _to_ties(t)
    t.make("gm", (5, 5, 5), kind="bug", cls="worker")  # hungry, cunning, self-aware
    t.make("p1", (2, 2, 6), traits=["young", "rustic", "cruel"], cls="commoner")
    t.make("p2", (2, 2, 2))  # young rustic kind
    s = t.state
    assert s.phase == "ties" and s.tie_queue == ["c2", "c3", "c1"]  # players in seat order, then agents
    assert s.tie_grants == ["free", "cruel"]
    t.refuse("p1", "add_tie", "R-GC-15", source="c2", target="c2", sign="+", grant="free")
    t.refuse("p1", "add_tie", "R-GC-42", source="c2", target="c3", sign="+", grant="cruel")
    t.do("p1", "add_tie", source="c2", target="c3", sign="+", grant="free")
    t.refuse("p1", "add_tie", "R-GC-15", source="c2", target="c3", sign="+", grant="cruel")
    t.do("p1", "add_tie", source="c2", target="c3", sign="-", grant="cruel")  # multiplex + and -
    t.refuse("p1", "add_tie", "R-GC-14", source="c2", target="c1", sign="-", grant="free")  # used
    purse = s.purse["p1"]
    bank = s.bank_net
    t.do("p1", "buy_tie", source="c2", target="c1", sign="-")
    assert s.purse["p1"] == purse - 1 and s.bank_net == bank - 1  # paid to the bank (R-GC-02)
    t.do("p1", "end_ties", source="c2")
    assert s.tie_grants == ["free", "kind"]
    t.do("p2", "add_tie", source="c3", target="c2", sign="+", grant="kind")  # reciprocated
    t.do("p2", "end_ties", source="c3")
    assert s.tie_grants == ["free", "self-aware"]  # the GM for the agent, with the bug's bonus (R-GC-42)
    t.do("gm", "add_tie", source="c1", target="c2", sign="-", grant="self-aware")
    t.do("gm", "end_ties", source="c1")
    assert [(x.source, x.target, x.sign) for x in s.ties] == [
        ("c2", "c3", "+"),
        ("c2", "c3", "-"),
        ("c2", "c1", "-"),
        ("c3", "c2", "+"),
        ("c1", "c2", "-"),
    ]
    assert s.phase == "initiative"


def test_r_gc_13_aristocrat_bonus_tie_needs_a_target(table) -> None:
    t = table()
    _to_ties(t)
    t.make("gm", (5, 5, 5), kind="bug", cls="worker")
    t.make("p1", (5, 2, 2), cls="aristocrat")
    t.make("p2", (2, 2, 2))
    while t.state.phase == "vest":
        t.do(t.pending()[0], "vest_class_scarab", character=t.state.vest_queue[0], vest=False)
    assert "class" not in t.state.tie_grants
    assert any("forfeited" in x for x in t.texts())

    t = table()
    _to_ties(t)
    t.make("gm", (5, 5, 5), kind="bug", cls="myrmidon")
    t.make("p1", (5, 2, 2), cls="aristocrat")
    t.make("p2", (2, 2, 2))
    while t.state.phase == "vest":
        t.do(t.pending()[0], "vest_class_scarab", character=t.state.vest_queue[0], vest=False)
    assert "class" in t.state.tie_grants
    targets = {a.args["target"] for a in t.legal("p1") if a.type == "add_tie" and a.args["grant"] == "class"}
    assert targets == {"c1"}
    t.refuse("p1", "add_tie", "R-GC-13", source="c2", target="c3", sign="+", grant="class")


def test_r_gc_19_initiative_class_order_then_roll_off(table) -> None:
    """Rule: [Initiative]"""
    t = table(players=["Ann", "Bob", "Cat"])
    t.setup(
        chars=[
            {"dice": (2, 2, 6), "cls": "mercantile"},
            {"dice": (2, 6, 2), "cls": "learned"},
            {"dice": (2, 6, 2), "cls": "learned"},
        ],
        initiative=[8, 8, 8],
    )
    s = t.state
    assert s.phase == "initiative" and s.initiative["candidates"] == ["p2", "p3"]  # learned beat mercantile
    t.roll(3, 6)
    assert s.initiative["winner"] == "p3"
    assert s.cycle == ["p3", "p1", "p2", "gm"]  # clockwise from the winner, GM last
    assert t.pending() == ("p3",)


def test_r_gc_45_new_gm_character_mid_game(table) -> None:
    t = table()
    t.setup()
    gm_purse = t.state.purse["gm"]
    t.do("p1", "start_scene", spotlight="c2", intent="I go about my daily activities")
    t.do("p1", "choose_foil", foil="NEW")  # EX-G11: a new GM character personifies the troubles
    assert t.pending() == ("chance",)
    t.roll(8, 2, 6)
    cid = t.state.creating
    t.do("gm", "choose_kind", character=cid, kind="bug")
    t.do(
        "gm", "allocate_traits", character=cid, traits={"motive": "hungry", "ability": "strong", "nature": "self-aware"}
    )
    t.do("gm", "choose_class", character=cid, **{"class": "queen"})
    t.do("gm", "name_character", character=cid, name="The Troubles")
    t.do("gm", "vest_class_scarab", character=cid, vest=True)
    assert not any(a.type == "add_tie" for a in t.legal("gm"))  # no free or bonus ties
    t.do("gm", "buy_tie", source=cid, target="c2", sign="-")
    t.do("gm", "end_ties", source=cid)
    c = t.state.characters[cid]
    assert c.vested == [1, 0, 1]  # moving blue + the queen's class scarab
    assert t.state.purse["gm"] == gm_purse + 2 - 1  # queen +2, one tie bought
    assert t.state.scene.foil == cid and cid in t.state.scene.present
    assert t.state.phase == "ante"


def test_config_options_are_checked() -> None:
    from ludica.core import Config

    with pytest.raises(ConfigError):
        GAME.validate_config(Config(("A", "B"), {"reflip_model": "whatever"}))
    with pytest.raises(ConfigError):
        GAME.validate_config(Config(("A", "B"), {"no_such_option": 1}))
    house = {o.name for o in GAME.meta.options if o.house_rule}
    assert house == {"hr_scene_guard", "hr_trait_cap_3", "hr_slow_clock"}
    assert all(o.default is False for o in GAME.meta.options if o.house_rule)


def test_gm_name_option(table) -> None:
    t = table(gm_name="Bill")
    assert GAME.seat_name(t.state, "gm") == "Bill"
    assert GAME.view(t.state, None)["seats"][-1] == {"seat": "gm", "name": "Bill", "characters": []}
