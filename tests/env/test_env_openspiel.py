"""OpenSpiel: random simulations of every game, the chance decomposition, MCTS and IS-MCTS."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from ludica.core.chance import Pick, Roll, Shuffle
from ludica.env import register_openspiel
from ludica.env.encoding import split_bound
from ludica.env.infostate import RECENT, parse
from ludica.env.spiel import draw_sizes, next_node, outcome_of, short_name

from .conftest import GAMES


@pytest.fixture(scope="module", autouse=True)
def registered() -> None:
    register_openspiel()


@pytest.mark.parametrize("game_id", GAMES)
def test_random_sim(game_id: str) -> None:
    game = pyspiel.load_game(short_name(game_id), {"max_steps": 120})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_load_with_players_and_options() -> None:
    game = pyspiel.load_game("ludica_euphoria", {"players": 4, "options": "{}"})
    assert game.num_players() == 4
    assert pyspiel.load_game("ludica_great_city(players=3)").num_players() == 4  # three players and the GM


@pytest.mark.parametrize(
    "step",
    [Roll((2, 3)), Shuffle(3), Shuffle(4), Pick(("a", "b", "c"), 2)],
    ids=["roll", "shuffle3", "shuffle4", "pick"],
)
def test_the_chance_decomposition_gives_each_outcome_its_probability(step: object) -> None:
    sizes = draw_sizes(step)  # type: ignore[arg-type]
    got: Counter[str] = Counter()
    for draws in itertools.product(*(range(s) for s in sizes)):
        got[repr(outcome_of(step, list(draws)))] += 1  # type: ignore[arg-type]
    total = sum(got.values())
    want = {repr(o): p for o, p in step.outcomes()}  # type: ignore[attr-defined]
    assert {k: Fraction(v, total) for k, v in got.items()} == want


def _play(game: pyspiel.Game, bots: list[pyspiel.Bot], rng: np.random.RandomState) -> pyspiel.State:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def test_mcts_and_ismcts_play_a_game() -> None:
    game = pyspiel.load_game("ludica_misery_bubblegum", {"max_steps": 30})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [
        mcts.MCTSBot(game, 2, 3, evaluator, random_state=rng),
        ismcts.ISMCTSBot(game, evaluator, 2, 3, random_state=rng),
        mcts.MCTSBot(game, 2, 3, evaluator, random_state=rng),
    ]
    state = _play(game, bots, rng)
    assert state.is_terminal() and len(state.returns()) == 3


def test_information_strings_and_tensors() -> None:
    game = pyspiel.load_game("ludica_euphoria", {"max_steps": 400})
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
    player = state.current_player()
    assert state.information_state_string(player)[0].isdigit()  # steps:digest:own (ludica.env.infostate)
    assert state.observation_string(player).startswith("{")
    assert game.get_type().provides_information_state_tensor
    assert len(state.information_state_tensor(player)) == game.information_state_tensor_size()
    assert len(state.observation_tensor(player)) == game.observation_tensor_size()
    assert state.action_to_string(player, state.legal_actions()[0]).split()[0] in {"choose_recruits", "place"}


@pytest.mark.parametrize("game_id", GAMES)
def test_ismcts_resamples_through_the_games_redeal(game_id: str) -> None:
    """IS-MCTS imagines the hidden rest through ``Game.redeal``; a game without one yet says so."""
    game = pyspiel.load_game(short_name(game_id), {"max_steps": 600})
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
    player = state.current_player()
    try:
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    except NotImplementedError as exc:
        pytest.skip(str(exc))
    assert other.information_state_string(player) == state.information_state_string(player)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2, 3, random_state=rng)
    assert bot.step(state) in state.legal_actions()


def test_openspiels_cpp_mcts_bot_plays_beside_the_python_ismcts_bot() -> None:
    game = pyspiel.load_game("ludica_misery_bubblegum", {"max_steps": 30})
    cpp_eval = pyspiel.RandomRolloutEvaluator(1, 0)
    rng = np.random.RandomState(1)
    bots = [
        pyspiel.MCTSBot(game, cpp_eval, 2.0, 3, 1000, False, 1, False),
        ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2, 3, random_state=rng),
        pyspiel.MCTSBot(game, cpp_eval, 2.0, 3, 1000, False, 2, False),
    ]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 0)
    assert len(returns) == 3


def _history_walk(game: pyspiel.Game, seed: int, fixed: int, seen: dict[tuple[int, str], tuple[str, ...]]) -> None:
    """One random play where seat ``fixed`` always takes its first legal action and chance always
    gives its first outcome (so the plays share prefixes); every seat's information state is
    checked against the history of what it observed, kept here independently."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    n = game.num_players()
    history: list[list[str]] = [[state.observation_string(p)] for p in range(n)]
    previous: list[tuple[int, int]] = [(0, 0)] * n
    while not state.is_terminal():
        chance = state.is_chance_node()
        if chance:
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            player = state.current_player()
            legal = state.legal_actions()
            action = legal[0] if player == fixed else int(rng.choice(legal))
            history[player].append(f"I took {action}")
            state.apply_action(action)
        for p in range(n):
            now = state.observation_string(p)
            if not chance or now != history[p][-1]:  # a decision is seen to happen; chance when it shows
                history[p].append(now)
            info = state.information_state_string(p)
            steps, _, own, recent = parse(info)
            before, earlier = previous[p]
            assert steps >= before and earlier <= own, "an information state extends the earlier one"
            mine = [int(h[len("I took ") :]) for h in history[p] if h.startswith("I took ")]
            assert own == len(mine) and recent == mine[-RECENT:], "the seat's own decisions, counted and latest"
            previous[p] = steps, own
            observed = tuple(history[p])
            assert seen.setdefault((p, info), observed) == observed, "two observation histories, one infostate"


@pytest.mark.parametrize("game_id", ["lost-days", "euphoria", "euthymia"])
def test_information_states_have_perfect_recall(game_id: str) -> None:
    """As OpenSpiel checks its games: along random plays no two different histories of what a
    seat observed (its observations in order and its own actions) share an information state."""
    game = pyspiel.load_game(short_name(game_id), {"max_steps": 450})
    seen: dict[tuple[int, str], tuple[str, ...]] = {}
    for seed in range(6):
        _history_walk(game, seed, 0, seen)
    assert len(seen) > 100


def test_a_revealed_bid_is_remembered_after_the_view_forgets_it() -> None:
    """Lost Days: two plays that differ only in the bids revealed give seat 0 two information states."""
    game = pyspiel.load_game("ludica_lost_days", {"max_steps": 400})
    seen: dict[tuple[int, str], tuple[str, ...]] = {}
    for seed in range(4):
        _history_walk(game, seed, 0, seen)


def _paths(sizes: list[int]):  # type: ignore[no-untyped-def]
    """Every path of chance nodes for ``sizes`` uniform draws, with its probability and draws."""
    stack: list[tuple[list[int], float]] = [([], 1.0)]
    while stack:
        nodes, p = stack.pop()
        draws, outcomes = next_node(sizes, nodes)
        if outcomes is None:
            yield draws, p
            continue
        assert abs(sum(q for _, q in outcomes) - 1.0) < 1e-9
        for k, q in outcomes:
            stack.append(([*nodes, k], p * q))


@pytest.mark.parametrize("sizes", [[5], [130], [7, 100], [14833]])
def test_a_large_draw_is_split_into_two_nodes_with_exact_probabilities(sizes: list[int]) -> None:
    got: Counter[tuple[int, ...]] = Counter()
    total = 1
    for m in sizes:
        total *= m
    for draws, p in _paths(sizes):
        got[tuple(draws)] += 1
        assert p == pytest.approx(1 / total, rel=1e-9)
    assert len(got) == total and set(got.values()) == {1}
    for m in sizes:
        assert split_bound(m) <= max(m if m <= 64 else 122, 1)


def test_euthymia_with_eight_players_has_no_huge_chance_node() -> None:
    game = pyspiel.load_game("ludica_euthymia", {"players": 8})
    assert game.max_chance_outcomes() <= 122  # was 14 833: the identity pass as one pick
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_a_finite_documented_length_random_sim_reaches(game_id: str) -> None:
    """``random_sim_test`` with the game's default parameters ends (max_game_length is the cap)."""
    game = pyspiel.load_game(short_name(game_id))
    assert game.max_game_length() <= 10_000
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", ["euthymia", "misery-bubblegum"])
def test_narrative_games_declare_zero_returns(game_id: str) -> None:
    game = pyspiel.load_game(short_name(game_id))
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.utility_sum() == 0.0
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    assert state.returns() == [0.0] * game.num_players()
