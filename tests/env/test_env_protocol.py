"""The benchmark protocol at a toy size, game options through ``pyspiel.load_game`` by name, and
``random_sim_test`` at every game's largest player count."""

from __future__ import annotations

import json

import pyspiel
import pytest

from ludica.core.registry import get_game
from ludica.env import register_openspiel
from ludica.env.__main__ import main
from ludica.env.protocol import PROTOCOLS, VERSION, Protocol, load_agent, run, same_cells, uniform
from ludica.env.spiel import option_parameters, short_name

from .conftest import GAMES


@pytest.fixture(scope="module", autouse=True)
def registered() -> None:
    register_openspiel()


def test_every_game_has_a_protocol_with_random_heuristic_and_ismcts() -> None:
    assert set(PROTOCOLS) == set(GAMES)
    for protocol in PROTOCOLS.values():
        assert protocol.version == VERSION and protocol.episodes >= 100
        assert [o.split(":")[0] for o in protocol.opponents] == ["random", "heuristic", "ismcts"]


@pytest.mark.parametrize("game_id", ["great-city", "euthymia"])
def test_the_protocol_runs_at_a_toy_size(game_id: str) -> None:
    toy = Protocol(game_id, ("random",), (PROTOCOLS[game_id].players[0],), 2, max_steps=40)
    cells = run(toy, uniform)
    assert len(cells) == 1 and cells[0].episodes == 2
    lo, hi = cells[0].interval
    assert 0.0 <= lo <= cells[0].rate <= hi <= 1.0
    assert cells[0].figure == ("finish rate" if game_id == "euthymia" else "win rate")
    assert run(toy, uniform) == cells  # the same games, the same figures


def test_the_protocol_command_prints_rows_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    main(["protocol", "lost-days", "--agent", "random", "--episodes", "1", "--opponents", "random",
          "--players", "3", "--max-steps", "30", "--json"])  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("protocol lost-days-v0 (changed: not comparable)")
    found = json.loads(out[-1])
    assert found["comparable"] is False and found["cells"][0]["episodes"] == 1


def test_some_of_the_cells_compare_and_a_smaller_run_does_not() -> None:
    protocol = PROTOCOLS["euphoria"]
    assert same_cells(protocol, {}) and same_cells(protocol, {"opponents": ("heuristic",), "players": (2,)})
    assert not same_cells(protocol, {"players": (3,)})  # not one of the protocol's player counts
    assert not same_cells(protocol, {"opponents": ("ismcts:playouts=5",)})
    assert not same_cells(protocol, {"opponents": ("random",), "episodes": 10})
    first = run(Protocol("euphoria", ("random", "heuristic"), (2,), 2, max_steps=30), "random")
    alone = run(Protocol("euphoria", ("heuristic",), (2,), 2, max_steps=30), "random")
    assert first[1] == alone[0]  # a cell plays the same games whichever cells run before it


def test_an_agent_is_a_bot_or_a_factory() -> None:
    assert load_agent("ismcts:playouts=5") == "ismcts:playouts=5"
    assert load_agent("ludica.env.protocol:uniform") is uniform
    with pytest.raises(ValueError, match="no_such"):
        load_agent("ludica.env.protocol:no_such")


@pytest.mark.parametrize("game_id", GAMES)
def test_game_options_pass_by_name(game_id: str) -> None:
    game = get_game(game_id)
    params = option_parameters(game)
    assert params, "every game has options of a plain type"
    loaded = pyspiel.load_game(short_name(game_id))
    assert set(params) <= set(loaded.get_parameters())


def test_load_game_takes_an_option_by_name_and_names_a_bad_one() -> None:
    game = pyspiel.load_game("ludica_euphoria", {"players": 6, "trades_per_turn": 0})
    assert game.num_players() == 6 and game.get_parameters()["trades_per_turn"] == 0
    state = game.new_initial_state()
    assert state.ludica_state() is not None
    assert pyspiel.load_game("ludica_euphoria(players=3,printing=revised)").num_players() == 3
    with pytest.raises(Exception, match=r"trades_per_turn.*one of 0, 1, 2, 3, not 7"):
        pyspiel.load_game("ludica_euphoria", {"trades_per_turn": 7})
    with pytest.raises(Exception, match=r"Unknown parameter 'trade_per_turn'.*trades_per_turn"):
        pyspiel.load_game("ludica_euphoria", {"trade_per_turn": 0})
    with pytest.raises(Exception, match=r"trades_per_turn.*kInt"):
        pyspiel.load_game("ludica_euphoria", {"trades_per_turn": "none"})
    with pytest.raises(Exception, match=r"round_limit' is given twice"):
        pyspiel.load_game("ludica_euphoria", {"options": '{"round_limit": 50}', "round_limit": 100})


@pytest.mark.parametrize("game_id", GAMES)
def test_random_sim_at_the_largest_player_count(game_id: str) -> None:
    """``random_sim_test`` at the most players (cut at 120 moves here; the full length of every
    game at its most players is measured by ``benchmarks/bench_mccfr.py --sim``)."""
    players = get_game(game_id).meta.players_max
    game = pyspiel.load_game(short_name(game_id), {"players": players, "max_steps": 120})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
