"""The oracle tables and the worked examples that only read them (EX-G1, EX-G3, EX-G7, EX-G8,
EX-G13, EX-G14) and the rulings R-GC-08, R-GC-10, R-GC-41, R-GC-42."""

from __future__ import annotations

from ludica.games.great_city import oracle as O


def test_ex_g1_reading_a_pair() -> None:
    """Rule: [The Symbolism of the Triad-Pairs]"""
    assert O.lookup(0b101, 0b011) == ("Novelty", "Unanticipated events occur.")
    assert O.triad_name(0b101) == "The Chrysalis"
    assert O.triad_name(0b011) == "The Nymph"


def test_the_64_pairs_and_8_triads_are_loaded_once_and_whole() -> None:
    """Rule: [The Great City Oracle]; [The Symbolism of the Triads]; [The Symbolism of the Triad-Pairs]"""
    assert len(set(O.PAIR_NAMES)) == 64
    assert O.lookup(0b111, 0b011) == ("Breakthrough", "The strong displace the weak.")
    assert O.lookup(0, 0) == ("Initial Difficulty", "Foolish actions cause problems.")
    assert O.lookup(7, 7) == ("Fulfillment", "Greatness penetrates and brings closure.")
    assert O.lookup(0b101, 0b110)[1] == "Family interests require your attention."  # the source's typo fixed
    assert O.TRIAD_NAMES == (
        "The Void",
        "The Queen",
        "The Myrmidon",
        "The Nymph",
        "The Web",
        "The Chrysalis",
        "The Hive",
        "The World",
    )
    assert O.TRIAD_MEANINGS[1] == ("Singularity", "Primacy", "Autonomy")


def test_d8_mapping_with_moving_stones() -> None:
    """Rule: [The Symbolism of the Stones]"""
    assert [O.d8(v) for v in range(1, 9)] == [
        (0, True),
        (0, False),
        (0, False),
        (0, False),
        (1, False),
        (1, False),
        (1, False),
        (1, True),
    ]


def test_ex_g3_reduction_and_face_of_peril() -> None:
    reduced = O.reduce(0b101, 0b011)
    assert O.signs(reduced) == "--+"
    assert O.triad_name(reduced) == "The Queen"
    assert O.face_of_peril(reduced) == ["economic"]


def test_r_gc_08_face_of_peril_of_the_void_and_the_world() -> None:
    assert O.face_of_peril(0b000) == []
    assert O.face_of_peril(0b111) == ["political", "natural", "economic"]


def test_r_gc_10_d6_positions() -> None:
    assert [O.position_color(p) for p in range(1, 7)] == [0, 1, 2, 0, 1, 2]
    # "the second stone" of 101 011 is position 2, the first triad's white stone
    assert O.pair_bits((0b101 << 3 | 0b011) ^ (1 << (6 - 2))) == "111 011"


def test_ex_g7_trait_descriptors() -> None:
    traits = ("old", "urbane", "kind")
    assert {O.trait_descriptor("human", t, "deeds") for t in traits} == {"Helpful", "Cautious", "Skillful"}


def test_bug_traits_have_one_mode_each() -> None:
    """Rule: [Bug Characters]"""
    for trait, row in O.TRAITS["bug"].items():
        assert sum(1 for m in O.MODES if row[m]) == 1, trait


def test_ex_g8_tie_descriptor() -> None:
    assert O.relation("aristocrat", "mercantile") == "inferior"
    assert O.tie_manner("human", "aristocrat", "kind", "mercantile", "+") == "Patronizing (benevolently)"


def test_ex_g13_social_standing() -> None:
    assert O.relation("aristocrat", "aristocrat") == "peer"
    assert {O.relation("aristocrat", c) for c in ("learned", "mercantile", "commoner")} == {"inferior"}
    assert O.relation("commoner", "commoner") == "peer"
    assert {O.relation("commoner", c) for c in ("aristocrat", "learned", "mercantile")} == {"superior"}


def test_r_gc_41_table_6_and_7_wording() -> None:
    assert O.tie_manner("human", "commoner", "cruel", "aristocrat", "-") == "Insolent (sneakily)"
    assert O.tie_manner("human", "commoner", "kind", "worker", "+") == "no standard manner: describe freely"
    assert O.tie_manner("bug", "worker", None, "aristocrat", "+") == "Subservient"


def test_r_gc_42_urbane_and_self_aware_belong_to_their_kind() -> None:
    assert "urbane" in O.TRAITS["human"] and "urbane" not in O.TRAITS["bug"]
    assert "self-aware" in O.TRAITS["bug"] and "self-aware" not in O.TRAITS["human"]
    assert "kind" not in O.TRAITS["bug"] and "cruel" not in O.TRAITS["bug"]


def test_ex_g14_names() -> None:
    assert (O.NAMES["male"][13], O.NAMES["female"][13], O.NAMES["surnames"][13]) == ("Leander", "Philomena", "Oke")


def test_ex_g4_pool_sizes() -> None:
    assert O.PERIL_POOL_SIZE == {2: 12, 3: 24, 4: 40, 5: 60}
    assert all(v == 2 * n * (n + 1) for n, v in O.PERIL_POOL_SIZE.items())
