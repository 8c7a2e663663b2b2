"""The tournament on tiny batches: seat rotation, win rates with Wilson intervals, openskill
ratings with their uncertainty, the same results whatever the number of worker processes, and the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ludica.bots.tournament import (
    AHEAD,
    GameResult,
    Tournament,
    game_interval,
    lineups,
    ratings,
    run,
    split_bots,
    wilson,
)
from ludica.cli import main


def test_every_bot_sits_at_every_seat_in_turn() -> None:
    seats = ["p1", "p2", "p3"]
    games = list(lineups(["a", "b", "c"], seats, 3))
    for seat in seats:
        assert sorted(g[seat] for g in games) == ["a", "b", "c"]
    assert list(lineups(["x", "y"], ["p1", "p2", "p3", "p4"], 1)) == [{"p1": "x", "p2": "y", "p3": "x", "p4": "y"}]


def test_wilson_interval() -> None:
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and 0.16 < hi < 0.17
    lo, hi = wilson(10, 20)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9
    assert wilson(0, 0) == (0.0, 1.0)


def test_ratings_order_the_stronger_bot_first_with_their_uncertainty() -> None:
    results = [GameResult(i, {"p1": "strong", "p2": "weak"}, ("p1",) if i % 4 else ("p2",), 10, "") for i in range(40)]
    rated = ratings(results, ["strong", "weak"], 2)
    (strong, s_sigma), (weak, w_sigma) = rated["strong"], rated["weak"]
    assert strong - weak > 2 * max(s_sigma, w_sigma)  # 30 wins to 10: apart by more than two sigmas
    assert 0 < s_sigma < 25 / 3 and 0 < w_sigma < 25 / 3  # narrower than a new bot's
    assert ratings(list(reversed(results)), ["strong", "weak"], 2) == rated  # rated in index order
    assert ratings([], ["a", "b"], 2) == {}


def test_a_tiny_tournament_is_the_same_with_one_or_two_processes() -> None:
    bots = ["ismcts:playouts=15", "random"]
    one = run("pig", bots, 4, players=2, seed=3, jobs=1)
    two = run("pig", bots, 4, players=2, seed=3, jobs=2)
    assert one.results == two.results
    table = {s.bot: s for s in one.standings()}
    assert table["random"].played == table["ismcts:playouts=15"].played == 4
    assert table["random"].wins + table["ismcts:playouts=15"].wins == 4
    assert all(s.rating is not None for s in table.values())


def test_a_tournament_longer_than_its_workers_window_keeps_the_games_order() -> None:
    """With more games than are handed out ahead (``AHEAD`` per worker), two processes still
    give every game's result, in the games' order, as one process does."""
    games = AHEAD * 2 * 3 + 5
    one = run("pig", ["random", "random"], games, players=2, seed=1, jobs=1)
    two = run("pig", ["random", "random"], games, players=2, seed=1, jobs=2)
    assert len(two.results) == games and one.results == two.results


def test_bad_requests_are_refused_before_playing() -> None:
    with pytest.raises(ValueError, match="no bot"):
        run("pig", ["random", "nobody"], 2)
    with pytest.raises(ValueError, match="players"):
        run("pig", ["random"], 2, players=9)


def test_split_bots_joins_parameters_with_plus() -> None:
    assert split_bots("random, ismcts:playouts=5+c=1") == ["random", "ismcts:playouts=5,c=1"]


def test_the_command_prints_rates_intervals_and_ratings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.jsonl"
    argv = ["tournament", "pig", "--bots", "heuristic,random", "--games", "4", "--players", "2", "--out", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    for words in ("win rate", "95% interval", "rating (openskill", "heuristic", "random", "parity 50%"):
        assert words in printed
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 4 and all(set(r) >= {"lineup", "winners", "steps"} for r in lines)
    assert main(["tournament", "pig", "--bots", "genius"]) == 2
    assert "no bot 'genius'" in capsys.readouterr().out


def test_a_bot_holding_several_seats_is_counted_by_game() -> None:
    # ismcts against three heuristic, 40 games: ismcts wins 10, a heuristic seat the other 30
    lineup = {"p1": "ismcts", "p2": "heuristic", "p3": "heuristic", "p4": "heuristic"}
    results = [GameResult(i, lineup, (f"p{1 + i % 4}",), 9, "") for i in range(40)]
    t = Tournament("euphoria", ["ismcts", "heuristic", "heuristic", "heuristic"], 4, results)
    table = {s.bot: s for s in t.standings()}
    heuristic = table["heuristic"]
    assert (heuristic.games, heuristic.played, heuristic.wins) == (40, 120, 30)
    lo, hi = heuristic.interval()
    wlo, whi = wilson(30, 40)
    assert (lo, hi) == pytest.approx((wlo / 3, whi / 3))
    naive = wilson(30, 120)  # seat rows as if independent trials: not what 40 games tell
    assert (lo, hi) != pytest.approx(naive)
    assert table["ismcts"].interval() == pytest.approx(wilson(10, 40))
    assert game_interval([(1, 1.0), (2, 0.0), (1, 0.0)]) == game_interval([(1, 1.0), (2, 0.0), (1, 0.0)])


def test_the_gm_is_one_bot_named_and_chosen(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "gc.jsonl"
    out.write_text("old line\n")
    argv = ["tournament", "great-city", "--bots", "heuristic,random,random", "--games", "3", "--players", "3"]
    assert main([*argv, "--gm", "random", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "gm (the referee, not ranked) played by random in every game (--gm)" in printed
    lines = [json.loads(line) for line in out.read_text().splitlines()]  # replaced, not appended to
    assert len(lines) == 3 and all(r["lineup"]["gm"] == "random" for r in lines)


def test_a_game_without_winners_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "euthymia", "--bots", "random,heuristic", "--games", "2", "--players", "3"]) == 2
    assert "names no winners" in capsys.readouterr().out
