"""ISMCTS: finds the winning move in a small crafted position, plays every game to its end, and
its parameters are checked."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.bots.base import Situation, make_bot, situation
from ludica.bots.ismcts import ISMCTSBot, choices, rewards
from ludica.bots.samples import GAMES
from ludica.bots.tournament import play_game
from ludica.core import Action, Config, IntRange, Match, get_game


def pig_at(scores: dict[str, int], turn_total: int, target: int = 20) -> Match[Any]:
    game = get_game("pig")
    match: Match[Any] = Match(game, Config(("Ann", "Bob"), {"target": target}, 1))
    match.apply(Action("p1", "wager", {"amount": 1}))
    match.apply(Action("p2", "wager", {"amount": 3}))
    match.state.scores.update(scores)
    match.state.turn_total = turn_total
    return match


def test_ismcts_holds_when_holding_wins() -> None:
    """18 banked and 4 on the table with 20 to win: holding wins at once, rolling risks a 1."""
    match = pig_at({"p1": 18, "p2": 19}, turn_total=4)
    for seed in range(5):
        bot = make_bot("ismcts:playouts=60", "pig", seed)
        assert bot.decide(situation(match, "p1")).action.type == "hold"


def test_ismcts_rolls_when_holding_cannot_win_and_the_rival_is_about_to() -> None:
    """With 2 on the table and the rival one hold from victory, holding only hands over the turn
    (naming the turn, ``title``, changes nothing and keeps it)."""
    match = pig_at({"p1": 0, "p2": 19}, turn_total=2)
    bot = make_bot("ismcts:playouts=200", "pig", 3)
    assert bot.decide(situation(match, "p1")).action.type != "hold"


def test_the_decision_is_legal_and_narrated() -> None:
    match = pig_at({"p1": 5, "p2": 5}, turn_total=6)
    decision = make_bot("ismcts:playouts=20", "pig", 0).decide(situation(match, "p1"))
    match.check(decision.as_action())
    assert decision.narration.startswith("I imagined 20 futures")


def test_small_amounts_are_searched_value_by_value() -> None:
    listed = [Action("p1", "bid", {"amount": IntRange(1, 3)}), Action("p1", "pass")]
    assert [a.notation() for a in choices(listed)] == [
        "p1 bid amount=1",
        "p1 bid amount=2",
        "p1 bid amount=3",
        "p1 pass",
    ]
    wide = [Action("p1", "bid", {"amount": IntRange(0, 500)})]
    assert choices(wide) == wide


def test_rewards_share_the_win_and_fall_back_on_the_standing() -> None:
    game = get_game("euphoria")
    match: Match[Any] = Match(game, Config(("A", "B", "C"), {}, 1))
    state = match.state
    state.players["p2"].stars = 7
    assert max(rewards(game, state), key=rewards(game, state).get) == "p2"
    state.phase, state.winners = "over", ["p1", "p3"]
    assert rewards(game, state) == {"p1": 0.5, "p2": 0.0, "p3": 0.5}


@pytest.mark.parametrize(
    "spec",
    ["ismcts:playouts=0", "ismcts:policy=smart", "ismcts:depth=3", "ismcts:seconds=-1", "ismcts:playouts=many"],
)
def test_bad_parameters_are_refused_by_name(spec: str) -> None:
    with pytest.raises(ValueError, match="ismcts"):
        make_bot(spec, "pig", 0)


def test_a_time_budget_is_kept() -> None:
    match = pig_at({"p1": 5, "p2": 5}, turn_total=6)
    bot = make_bot("ismcts:seconds=0.2", "pig", 0)
    assert isinstance(bot, ISMCTSBot)
    bot.decide(situation(match, "p1"))
    assert bot.last_playouts > 10


def test_heuristic_policy_falls_back_to_random_when_there_is_no_heuristic() -> None:
    bot = make_bot("ismcts:playouts=5,policy=heuristic", "pig", 0)
    match = pig_at({"p1": 5, "p2": 5}, turn_total=6)
    assert bot.decide(situation(match, "p1")).action.seat == "p1"


def test_a_situation_without_a_state_cannot_be_searched() -> None:
    match = pig_at({"p1": 5, "p2": 5}, turn_total=6)
    bare = Situation(match.game, "p1", match.view("p1"), match.legal_actions("p1"))
    with pytest.raises(RuntimeError, match="imagined"):
        make_bot("ismcts:playouts=3", "pig", 0).decide(bare)


@pytest.mark.parametrize("game_id", GAMES)
def test_ismcts_plays_every_game_to_its_end(game_id: str) -> None:
    game = get_game(game_id)
    players = max(game.meta.players_min, 3 if game_id != "euphoria" else 2)
    small = "ismcts:playouts=4+horizon=10".replace("+", ",")
    result = play_game(game_id, players, [small, "random"], seed=random.Random(game_id).randrange(100), index=0)
    assert result.end != "unfinished"


def _wide_euphoria_decision() -> Match[Any]:
    from ludica.bots.samples import sampled_states

    for match, _ in sampled_states("euphoria", 4, 7, 40):
        seat = match.pending().seats[0]
        if len(choices(match.game.legal_actions(match.state, seat))) >= 12:
            return match
    raise AssertionError("no wide decision met")


def test_progressive_widening_searches_a_few_actions_of_a_wide_decision() -> None:
    match = _wide_euphoria_decision()
    sit = situation(match, match.pending().seats[0])
    narrow = make_bot("ismcts:playouts=16,horizon=5", "euphoria", 1)
    assert isinstance(narrow, ISMCTSBot)
    root = narrow.search(sit)
    assert 1 <= len(root.children) <= 5  # at most 1 + sqrt(15) children after 16 iterations
    wide = make_bot("ismcts:playouts=16,horizon=5,widen=0", "euphoria", 1)
    assert isinstance(wide, ISMCTSBot)
    assert len(wide.search(sit).children) == min(16, len(choices(sit.legal)))  # each iteration a new action


def test_the_heuristics_choice_stands_unless_the_search_beats_it() -> None:
    match = _wide_euphoria_decision()
    seat = match.pending().seats[0]
    heuristic = make_bot("heuristic", "euphoria", 5).decide(situation(match, seat)).action
    anchored = make_bot("ismcts:playouts=12,horizon=5,anchor=1000", "euphoria", 5)
    assert anchored.decide(situation(match, seat)).action == heuristic


def test_a_game_sets_its_default_search_level_and_a_spec_overrides_it() -> None:
    """The Great City's, Euphoria's and Lost Days' plugins set ``rivals=policy`` (SEARCH_DEFAULTS);
    other games search their rivals; a spec's own parameter wins."""
    from ludica.bots.heuristic import search_defaults

    assert search_defaults("great-city") == {"rivals": "policy"}
    assert make_bot("ismcts", "great-city", 0).rivals == "policy"
    assert make_bot("ismcts:rivals=search", "great-city", 0).rivals == "search"
    assert make_bot("ismcts", "euphoria", 0).rivals == "policy"
    assert make_bot("ismcts", "lost-days", 0).rivals == "policy"
    assert make_bot("ismcts", "euthymia", 0).rivals == "search"
    with pytest.raises(ValueError, match="rivals is search or policy"):
        make_bot("ismcts:rivals=cheat", "euphoria", 0)


def test_a_position_met_again_gets_the_heuristics_choice_without_a_search() -> None:
    """The game came back where the seat already decided (a declined offer): no second search,
    the guide's move, said so; a bot made anew learns the seat's past through ``recall``."""
    match = _wide_euphoria_decision()
    seat = match.pending().seats[0]
    bot = make_bot("ismcts:playouts=12,horizon=5,anchor=0", "euphoria", 5)
    assert isinstance(bot, ISMCTSBot)
    bot.decide(situation(match, seat))
    assert bot.last_playouts == 12 and bot.repeats == 0
    again = bot.decide(situation(match, seat))
    assert bot.last_playouts == 0 and bot.repeats == 1
    assert again.action == bot._first and again.narration.startswith("I have been here before")
    match.check(again.as_action())
    fresh = make_bot("ismcts:playouts=12,horizon=5,anchor=0", "euphoria", 5)
    assert isinstance(fresh, ISMCTSBot)
    fresh.recall(situation(match, seat))
    fresh.decide(situation(match, seat))
    assert fresh.last_playouts == 0 and fresh.repeats == 1


def test_a_new_position_is_searched_even_when_the_view_repeats_with_other_choices() -> None:
    """The key is the view and the legal actions: the same view with another legal list is new."""
    from ludica.bots.ismcts import position_key

    match = _wide_euphoria_decision()
    seat = match.pending().seats[0]
    sit = situation(match, seat)
    fewer = Situation(match.game, seat, sit.view, sit.legal[:-1])
    assert position_key(sit) == position_key(situation(match, seat))
    assert position_key(sit) != position_key(fewer)
