"""The action catalogues: every declared action type is covered, every legal action is indexed,
and every legal index decodes to an action the game accepts."""

from __future__ import annotations

import itertools
import pickle
import random
from typing import Any

import numpy as np
import pytest

from ludica.bots.random_bot import walk_random
from ludica.core import Match, get_game
from ludica.core.actions import Action, IntRange, Text
from ludica.env.driver import make_config
from ludica.env.encoding import Catalogue, EncodingError, catalogue, shape
from tests.random_play import decisions

from .conftest import GAMES


def _vocabulary(game_id: str) -> set[str]:
    """Each game's own declaration of its action types."""
    if game_id == "great-city":
        from ludica.games.great_city.game import ACTIONS

        return set(ACTIONS)
    if game_id == "euthymia":
        from ludica.games.euthymia.legal import SCHEMA

        return set(SCHEMA)
    if game_id == "misery-bubblegum":
        from ludica.games.misery_bubblegum.rules import PARAMS

        return set(PARAMS)
    if game_id == "lost-days":
        from ludica.games.lost_days.vocabulary import PARAMS as LD

        return set(LD)
    from ludica.games.euphoria import MAIN_PARAMS
    from ludica.games.euphoria.agenda import PARAM

    return set(MAIN_PARAMS) | set(PARAM)


def _catalogue(game_id: str, players: int | None = None) -> tuple[Match[Any], Catalogue]:
    game = get_game(game_id)
    match: Match[Any] = Match(game, make_config(game, players, 1, None))
    return match, catalogue(game, match.config, game.seats(match.state))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_declared_action_type_is_in_the_catalogue(game_id: str) -> None:
    _, cat = _catalogue(game_id)
    assert _vocabulary(game_id) <= {s.type for s in cat.shapes}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_action_is_indexed_and_decodes_to_an_accepted_action(game_id: str) -> None:
    game = get_game(game_id)
    for players in (game.meta.players_min, game.meta.players_max):
        match, cat = _catalogue(game_id, players)
        rng = random.Random(players)
        cap = 200 if game_id == "euthymia" else 300
        for steps in walk_random(match, rng, check=False):
            if steps > cap:
                break
            pending = match.pending()
            if pending.is_over or pending.is_chance or steps % 3:
                continue
            seat = pending.seats[0]
            templates = match.legal_actions(seat)
            legal = cat.legal(templates)
            assert legal.indices, f"step {steps}: no legal index for {seat}"
            assert {t.type for t, _ in legal.templates.values()} == {t.type for t in templates}
            for index in rng.sample(legal.indices, min(3, len(legal.indices))):
                action = cat.decode(legal, index)
                match.check(action)  # the game accepts it
                assert cat.label(index).split()[0] == action.type


def test_mixed_radix_labels_and_errors() -> None:
    cat = Catalogue("demo", [shape("end"), shape("pour", target=("p1", "p2"), units=range(1, 4))])
    assert cat.size == 7
    assert cat.label(0) == "end"
    assert cat.label(1) == 'pour target="p1" units=1'
    assert cat.label(6) == 'pour target="p2" units=3'
    with pytest.raises(EncodingError, match="outside"):
        cat.label(7)


def test_describe_prints_the_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    from ludica.env.__main__ import main

    main(["describe", "euphoria", "--players", "3"])
    out = capsys.readouterr().out
    assert "choose_recruits" in out and "observation:" in out


def test_sample_by_type_picks_a_type_then_an_index() -> None:
    cat = Catalogue("demo", [shape("end"), shape("pour", target=("p1", "p2"), units=range(1, 100))])
    rng = random.Random(0)
    picks = [cat.type_of(cat.sample_by_type(range(cat.size), rng)) for _ in range(400)]
    assert 150 < picks.count("end") < 250  # about half, not 1 in 199


def test_a_waiting_seat_is_never_starved() -> None:
    """Euthymia's table may advance the clock whenever players may act: it gets its turn."""
    from ludica.env.driver import Driver

    driver = Driver("euthymia", 3)
    rng = random.Random(2)
    seen: set[str] = set()
    while not driver.over and driver.steps < 400:
        seat = driver.current()
        assert seat is not None
        seen.add(seat)
        driver.act(seat, rng.choice(driver.legal(seat).indices))
    assert "table" in seen


def test_factored_actions_round_trip_and_mask_per_head() -> None:
    shapes = [shape("end"), shape("pour", target=("p1", "p2"), units=range(1, 4)), shape("say", text=None)]
    cat = Catalogue("demo", shapes)
    assert cat.heads == (3, 2, 3)
    for index in range(cat.size):
        assert cat.compose(cat.factor(index)) == index
    assert cat.factor(6) == (1, 1, 2)  # pour p2 3
    rows = cat.factored([0, 2, 6])  # end; pour p1 2; pour p2 3
    assert cat.head_mask(rows, []).tolist() == [1, 1, 0]
    assert cat.head_mask(rows, [1]).tolist() == [1, 1]
    assert cat.head_mask(rows, [1, 0]).tolist() == [0, 1, 0]
    assert cat.head_mask(rows, [1, 1]).tolist() == [0, 0, 1]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_index_factors_and_composes_back(game_id: str) -> None:
    match, cat = _catalogue(game_id)
    rng = random.Random(5)
    for steps in walk_random(match, rng, check=False):
        if steps > 120:
            break
        pending = match.pending()
        if pending.is_over or pending.is_chance:
            continue
        indices = cat.legal(match.legal_actions(pending.seats[0])).indices
        rows = cat.factored(indices)
        assert [cat.compose(r) for r in rows] == indices
        first = cat.head_mask(rows, [])
        assert set(first.nonzero()[0]) == set(rows[:, 0])


def _spelled_out(cat: Catalogue, template: Any) -> dict[int, dict[str, Any]]:
    """A template's indices worked out the slow, obvious way: every combination of its integer
    ranges (within the declared domains), each digit the value's position in its domain."""
    index = cat.shape_of(template)
    sh = cat.shapes[index]
    names = [name for name, value in template.args.items() if isinstance(value, IntRange)]
    spans = [range(template.args[n].lo, template.args[n].hi + 1) for n in names]
    out: dict[int, dict[str, Any]] = {}
    for combo in itertools.product(*spans):
        args = {**template.args, **dict(zip(names, combo, strict=True))}
        digits = []
        for name, domain in sh.params:
            if domain is None:
                continue
            if args[name] not in domain:
                break  # an amount beyond the catalogue's cap is not offered
            digits.append(domain.index(args[name]))
        else:
            out[cat.compose([index, *digits])] = dict(zip(names, combo, strict=True))
    return out


@pytest.mark.parametrize("players", [3, 5])
def test_lost_days_trade_indices_match_the_spelled_out_ranges_with_and_without_the_memo(players: int) -> None:
    """``propose_trade`` (two amounts: up to 61 x 61 indices) indexes the same with a warm memo, a
    cold catalogue and the obvious enumeration, in the same order, along random play."""
    match, warm = _catalogue("lost-days", players)
    rng = random.Random(players)
    trades = 0
    for steps in walk_random(match, rng, check=False):
        if steps > 1500:
            break
        pending = match.pending()
        if pending.is_over or pending.is_chance:
            continue
        for seat in pending.seats:
            templates = match.legal_actions(seat)
            legal = warm.legal(templates)
            cold = catalogue(match.game, match.config, match.game.seats(match.state)).legal(templates)
            assert list(legal.templates.items()) == list(cold.templates.items())
            for template in templates:
                if template.type != "propose_trade":
                    continue
                trades += 1
                expected = _spelled_out(warm, template)
                assert {i: legal.templates[i][1] for i in expected} == expected
                assert {i for i, (t, _) in legal.templates.items() if t is template} == set(expected)
    assert trades > 50, "random play proposes trades"


def _check_lookups(legal: Any, size: int, rng: random.Random) -> None:
    """Every way of reading a Legal agrees with its spelled-out ``templates``."""
    spelled = legal.templates
    assert legal.indices == sorted(spelled)
    assert legal.sorted_array().tolist() == sorted(spelled)
    assert set(legal.array.tolist()) == set(spelled)
    for index in rng.sample(sorted(spelled), min(20, len(spelled))):
        assert legal.entry(index) == spelled[index]
        assert legal.entry(index)[0] is spelled[index][0]
    for index in rng.sample(range(-2, size + 2), min(20, size + 4)):
        assert (legal.entry(index) is None) == (index not in spelled)


@pytest.mark.parametrize("game_id", GAMES)
def test_legal_lookups_agree_with_the_spelled_out_indices(game_id: str) -> None:
    """``Legal.entry`` (digits read back), ``array``, ``indices`` and ``sorted_array`` against the
    spelled-out ``templates`` along random play, with a cold catalogue beside the warm one."""
    rng = random.Random(3)
    match, cat = _catalogue(game_id)
    for _ in range(150):
        pending = match.game.pending(match.state)
        if pending.is_over:
            break
        if pending.is_chance:
            match.deal()
            continue
        seat = pending.seats[0]
        templates = match.legal_actions(seat)
        legal = cat.legal(templates)
        _check_lookups(legal, cat.size, rng)
        cold = Catalogue(cat.game_id, cat.shapes).legal(templates)
        assert list(cold.templates.items()) == list(legal.templates.items())
        match.apply(cat.decode(legal, rng.choice(legal.indices)))


def test_a_later_template_wins_an_index_two_templates_share() -> None:
    """As the spelled-out dictionary did: where a single and a range give the same index, the
    template listed later is the one an index reads back."""
    from ludica.core.actions import Action

    cat = Catalogue("t", [shape("give", n=range(0, 5))])
    one = Action("p1", "give", {"n": 2})
    many = Action("p1", "give", {"n": IntRange(1, 3)})
    for first, second in ((one, many), (many, one)):
        legal = cat.legal([first, second])
        assert legal.entry(2)[0] is second
        assert legal.templates[2][0] is second
        assert legal.entry(1)[0] is many
        assert legal.indices == [1, 2, 3]
        _check_lookups(legal, cat.size, random.Random(0))


@pytest.mark.parametrize("game_id", GAMES)
def test_a_listing_seen_again_by_identity_indexes_as_a_cold_catalogue(game_id: str) -> None:
    """The catalogue remembers templates (plain and ranked) by identity: the same template objects
    listed again give the same legal entries, in the same order, as a catalogue that never saw
    them; and a mask marks the same indices one by one as through the index array."""
    import numpy as np

    rng = random.Random(4)
    match, warm = _catalogue(game_id)
    for pending in decisions(match, 150):
        templates = match.legal_actions(pending[0])
        first, again = warm.legal(templates), warm.legal(list(templates))
        cold = Catalogue(warm.game_id, warm.shapes).legal(templates)
        for legal in (first, again):
            assert list(legal.templates.items()) == list(cold.templates.items())
            assert legal.indices == cold.indices
        marked = np.zeros(warm.size, dtype=np.int8)
        again.mark(marked)
        expected = np.zeros(warm.size, dtype=np.int8)
        expected[cold.array] = 1
        assert np.array_equal(marked, expected)
        match.apply(warm.decode(first, rng.choice(first.indices)))


def test_a_template_is_remembered_by_identity_not_by_equality() -> None:
    """An equal template made anew is indexed afresh (by its key), the very object is not."""
    from ludica.core.actions import Action

    cat = Catalogue("t", [shape("give", n=range(0, 5))])
    one = Action("p1", "give", {"n": IntRange(1, 3)})
    assert cat.legal([one]).indices == [1, 2, 3]
    assert cat._listed[id(one)][0] is one
    twin = Action("p1", "give", {"n": IntRange(1, 3)})
    assert cat.legal([twin]).indices == [1, 2, 3]
    assert cat._listed[id(twin)][0] is twin


def test_two_seats_offered_the_same_template_share_its_indices() -> None:
    """A template's indices do not depend on who may take it: the memo is keyed without the seat."""
    cat = Catalogue("t", [shape("give", n=range(0, 5))])
    ann, bob = Action("p1", "give", {"n": IntRange(1, 3)}), Action("p2", "give", {"n": IntRange(1, 3)})
    first, second = cat.legal([ann]), cat.legal([bob])
    assert first.indices == second.indices == [1, 2, 3]
    assert first.parts[0][1] is second.parts[0][1], "the second seat's template found the first's indices"
    assert second.entry(2) == (bob, {"n": 2}), "each listing keeps its own template"


@pytest.mark.parametrize("top", [3, 40, 60])
def test_a_ranged_templates_indices_are_the_same_worked_out_in_python_or_numpy(top: int) -> None:
    """A few indices (at most ``SMALL``) are worked out in Python, more through numpy: both give
    the same numbers in the same order, as the array and as the list, asked for in either order."""
    from ludica.env.encoding import SMALL

    cat = Catalogue("t", [shape("end"), shape("trade", to=("p1", "p2"), give=range(0, 61), get=range(0, 61))])
    template = Action("p1", "trade", {"to": "p2", "give": IntRange(1, top), "get": IntRange(0, top)})
    expected = sorted(_spelled_out(cat, template))
    assert (len(expected) <= SMALL) == (top < 30)
    for first in ("numbers", "array"):
        indexed = Catalogue(cat.game_id, cat.shapes).legal([template]).parts[0][1]
        if first == "array":
            assert indexed.array.tolist() == expected
        assert indexed.numbers == expected
        assert indexed.array.tolist() == expected and indexed.array.dtype == np.int64
    end = Action("p1", "end", {})
    for listing in ([template], [end, template, end]):  # the vector's sorted array: numpy past SMALL, else Python
        legal = Catalogue(cat.game_id, cat.shapes).legal(listing)
        found = legal.sorted_array()
        assert found.dtype == np.int64 and found.tolist() == sorted({*expected, *legal.single})
        assert found.tolist() == legal.indices


def test_the_catalogue_takes_numpy_integers_where_it_takes_an_index() -> None:
    """Indices read from a mask are numpy integers: the compiled catalogue takes them as the pure one does."""
    cat = Catalogue("demo", [shape("end"), shape("pour", target=("p1", "p2"), units=range(1, 4))])
    legal = cat.legal([Action("p1", "end", {}), Action("p1", "pour", {"target": "p2", "units": IntRange(1, 3)})])
    for index in np.array(legal.indices, dtype=np.int64):
        plain = int(index)
        assert cat.label(index) == cat.label(plain) and cat.type_of(index) == cat.type_of(plain)
        assert cat.factor(index) == cat.factor(plain) and cat.locate(index) == cat.locate(plain)
        assert legal.entry(index) == legal.entry(plain)
        assert cat.decode(legal, index) == cat.decode(legal, plain)
        assert cat.compose(np.array(cat.factor(plain), dtype=np.int64)) == plain
    rows = cat.factored(np.array(legal.indices, dtype=np.int64))
    assert rows.tolist() == [list(cat.factor(i)) for i in legal.indices]
    assert cat.sample_by_type(np.array(legal.indices, dtype=np.int64), random.Random(0)) in legal.indices


def test_catalogue_and_listing_pickle_by_their_arguments() -> None:
    cat = Catalogue("demo", [shape("end"), shape("pour", target=("p1", "p2"), units=range(1, 4))])
    legal = cat.legal([Action("p1", "end", {}), Action("p1", "pour", {"target": "p2", "units": IntRange(1, 3)})])
    cat2, legal2 = pickle.loads(pickle.dumps((cat, legal)))
    assert cat2.size == cat.size and cat2.shapes == cat.shapes
    assert legal2.indices == legal.indices and legal2.templates == legal.templates
    assert [cat2.label(i) for i in legal2.indices] == [cat.label(i) for i in legal.indices]


def test_index_of_names_the_legal_index_of_a_filled_action() -> None:
    """The inverse of decode: every legal index's action is found at that index, free text aside;
    an action no index names is ``None``."""
    cat = Catalogue("demo", [shape("end"), shape("pour", target=("p1", "p2"), units=range(1, 4), say=None)])
    legal = cat.legal(
        [
            Action("p1", "end", {}),
            Action("p1", "pour", {"target": "p2", "units": IntRange(1, 3), "say": Text(max_len=40)}),
        ]
    )
    for index in legal.indices:
        action = cat.decode(legal, index)
        assert cat.index_of(legal, action) == index
        if action.type == "pour":  # another text, a narration: the same index
            other = Action("p1", "pour", {**action.args, "say": "cheers"}, "she pours")
            assert cat.index_of(legal, other) == index
    assert cat.index_of(legal, Action("p1", "pour", {"target": "p1", "units": 1, "say": ""})) is None
    assert cat.index_of(legal, Action("p1", "pour", {"target": "p2", "units": 3})) is None  # a parameter missing
    assert cat.index_of(legal, Action("p2", "end", {})) is None


@pytest.mark.parametrize("game_id", GAMES)
def test_index_of_finds_every_heuristic_decision(game_id: str) -> None:
    """Ludica's heuristic bots decide actions the catalogue names (imitation learning reads them
    so); Euthymia's table advances its clock by amounts the catalogue may not declare."""
    from ludica.bots.base import make_bot, situation
    from ludica.env.driver import Driver

    driver = Driver(game_id, seed=3, max_steps=120)
    bots = {seat: make_bot("heuristic", game_id, i) for i, seat in enumerate(driver.seats)}
    while not driver.over and not driver.truncated:
        seat = driver.current()
        assert seat is not None
        action = bots[seat].decide(situation(driver.match, seat)).action
        legal = driver.legal(seat)
        index = driver.catalogue.index_of(legal, action)
        if index is None:
            assert (game_id, action.type) == ("euthymia", "clock")
        else:
            decoded = driver.catalogue.decode(legal, index)
            template = legal.entry(index)[0]  # type: ignore[index]
            texts = {name for name, value in template.args.items() if isinstance(value, Text)}
            assert decoded.type == action.type
            assert {k: v for k, v in decoded.args.items() if k not in texts} == {
                k: v for k, v in action.args.items() if k not in texts
            }
        driver.apply(action)
