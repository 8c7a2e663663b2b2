"""The lab's statistics on known data: paired differences, Wilson for shares, Holm for seats,
identical arms, grouped warnings, and the round trip from saved records to a report or a table."""

from __future__ import annotations

import csv
import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from ludica.cli import main
from ludica.core import get_game
from ludica.lab.analysis import (
    Rate,
    differing_games,
    holm,
    interval,
    p_value,
    paired_diff,
    seat_rates,
    seat_tests,
    warnings,
    wilson,
)


def test_wilson_of_none_of_twenty_is_not_of_zero_width() -> None:
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.161, abs=0.001)
    lo, hi = wilson(20, 20)
    assert hi == 1.0 and lo == pytest.approx(0.839, abs=0.001)


def test_a_share_of_games_gets_wilson_not_the_bootstrap() -> None:
    assert interval([0.0] * 20) == wilson(0, 20)
    assert interval([1.0, 0.0] * 10) == wilson(10, 20)
    lo, hi = interval([2.0, 4.0] * 10, seed=3)  # not a share: the bootstrap of the mean
    assert 2.0 < lo < 3.0 < hi < 4.0


def test_paired_interval_has_zero_width_only_when_every_pair_is_equal() -> None:
    a = {i: float(i % 5) for i in range(100)}
    assert paired_diff(a, dict(a), seed=1) == (0.0, 0.0, 0.0, 100)
    b = dict(a)
    b[7] += 1.0
    diff, lo, hi, pairs = paired_diff(a, b, seed=1)
    assert pairs == 100 and diff == pytest.approx(0.01) and hi > lo


def test_pairing_narrows_the_interval_of_a_shared_noise() -> None:
    # each game has its own large noise, the same in both arms; B adds 1 to every game
    noise = {i: float((i * 7919) % 101) for i in range(200)}
    b = {i: v + 1.0 for i, v in noise.items()}
    diff, lo, hi, _ = paired_diff(noise, b, seed=2)
    assert (diff, lo, hi) == (1.0, 1.0, 1.0)
    diff, lo, hi, _ = paired_diff(noise, {i: v + (i % 2) * 2.0 for i, v in noise.items()}, seed=2)
    assert diff == 1.0 and 0.7 < lo < 1.0 < hi < 1.3
    assert paired_diff(noise, {}, seed=2)[3] == 0


def test_paired_bootstrap_is_seeded() -> None:
    a = {i: float(i % 3) for i in range(50)}
    b = {i: float(i % 4) for i in range(50)}
    assert paired_diff(a, b, seed=9) == paired_diff(a, b, seed=9)


def test_holm_adjusts_step_down() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5]) == [0.5]
    assert holm([0.2, 0.9]) == pytest.approx([0.4, 0.9])


def test_p_value_agrees_with_wilson() -> None:
    for wins in range(0, 41):
        rate = Rate("p1", wins, 40, 0.25)
        lo, hi = rate.ci
        assert (p_value(rate) < 0.05) == (not lo <= 0.25 <= hi) or abs(p_value(rate) - 0.05) < 1e-3


def _record(index: int, winner: str, seats: int = 4, **extra: Any) -> dict[str, Any]:
    return {
        "index": index,
        "bots": {f"p{k + 1}": "random" for k in range(seats)},
        "players": seats,
        "end_reason": "ten_stars",
        "winners": [winner],
        "steps": 10,
        "turns": 5,
        "summary": {},
        "timeline": {},
        "actions_offered": {},
        "actions_taken": {},
    } | extra


def test_a_seat_just_past_its_share_alone_is_not_flagged_once_four_seats_are_tested() -> None:
    game = get_game("euphoria")
    # p1 wins 35 of 100 (fair 25%): Wilson alone excludes 25% (p about 0.02), Holm over 4 seats does not
    records = [_record(i, "p1" if i < 35 else f"p{2 + i % 3}") for i in range(100)]
    (p1, p), *_ = seat_tests(records)
    assert p1.unfair and 0.05 < p < 0.1
    assert "seat advantage" not in {w.kind for w in warnings(game, records)}


def test_a_real_seat_advantage_is_flagged_with_the_caveat() -> None:
    game = get_game("euphoria")
    records = [_record(i, "p1" if i < 60 else f"p{2 + i % 3}") for i in range(100)]
    found: dict[str, str] = {}
    for w in warnings(game, records):
        found[w.kind] = found.get(w.kind, "") + w.message + "\n"
    assert found["seat advantage"].startswith("seat p1 wins more than its share: 60.0%")
    assert "(Holm)" in found["seat advantage"]
    assert "corrected for the 4 seats tested (Holm)" in found["seat advantage, read with care"]


def test_never_taken_actions_are_one_line_per_arm() -> None:
    game = get_game("euphoria")
    offered = {"place": 9, "retrieve": 4, "trade": 2}
    records = [_record(i, f"p{1 + i % 4}", actions_offered=offered, actions_taken={"place": 9}) for i in range(8)]
    lines = [w.message for w in warnings(game, records) if w.kind == "action never taken"]
    never = "'retrieve' (legal at 32), 'trade' (legal at 16)"
    assert lines == [f"2 action types legal at some decisions, never taken: {never}"]


def test_identical_arms_are_told_apart_from_arms_that_differ() -> None:
    a = [_record(i, "p1") for i in range(5)]
    b = [_record(i, "p1") | {"bots": {"p1": "heuristic"}} for i in range(5)]
    assert differing_games(a, b) == (5, 0)
    b[2] = b[2] | {"steps": 11}
    assert differing_games(a, b) == (5, 1)


def test_seat_table_is_right_for_a_game_with_a_gm_whatever_the_order_of_bots() -> None:
    record = _record(0, "p2", seats=3) | {"seats": ["p1", "p2", "p3", "gm"]}
    record["bots"] = {"gm": "random", "p1": "random", "p2": "random", "p3": "random"}  # sorted, as in a file
    assert [r.who for r in seat_rates([record])] == ["p1", "p2", "p3"]


def test_compare_is_paired_and_warns_when_the_arms_are_identical(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", "pig", "--games", "6", "--a", "target=30", "--b", "target=30"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "paired bootstrap" in out and "common random numbers" in out
    assert "0 of 6 pairs of games differ" in out and "A and B played identical games" in out


def test_compare_needs_something_to_compare(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "pig", "--games", "2"]) == 2
    assert "compare needs what differs" in capsys.readouterr().out


@pytest.mark.parametrize("jobs", ["0", "-2", "x"])
def test_jobs_must_be_at_least_one(jobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "pig", "--games", "2", "--jobs", jobs])
    assert exit_.value.code == 2
    assert "--jobs" in capsys.readouterr().err


def test_saved_games_give_the_report_again_with_the_gm_after_the_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "gc.jsonl"
    assert main(["simulate", "great-city", "--games", "4", "--players", "3", "--out", str(out)]) == 0
    first = capsys.readouterr().out
    saved = [json.loads(line) for line in out.read_text().splitlines()]
    assert saved[0]["game"] == "great-city" and saved[0]["seats"] == ["p1", "p2", "p3", "gm"]
    for record in saved:  # an older file: no game, no seats, bots sorted by name
        del record["seats"], record["game"]
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in saved))
    assert main(["report", str(old), "--game", "great-city", "--out", str(tmp_path / "rep")]) == 0
    again = capsys.readouterr().out

    def seat_lines(text: str) -> list[str]:
        return [line for line in text.splitlines() if "(fair " in line and line.startswith(("│ p", "│ gm"))]

    assert seat_lines(again) and not any(line.startswith("│ gm") for line in seat_lines(again))
    assert seat_lines(again) == seat_lines(first)
    assert (tmp_path / "rep" / "index.html").exists()


def test_report_needs_the_game_of_a_file_that_does_not_name_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps(_record(0, "p1")) + "\n")
    assert main(["report", str(path), "--out", str(tmp_path / "t.csv")]) == 2
    assert "--game" in capsys.readouterr().out


def test_out_csv_is_a_flat_table_of_a_row_a_game(tmp_path: Path) -> None:
    out = tmp_path / "pig.csv"
    assert main(["simulate", "pig", "--games", "3", "--seed", "4", "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    assert [r["seed"] for r in rows] == ["4", "5", "6"]
    assert {"index", "end_reason", "winners", "bot p1", "bot p2"} <= set(rows[0])
    table = tmp_path / "again.csv"
    assert main(["simulate", "pig", "--games", "3", "--seed", "4", "--out", str(tmp_path / "p.jsonl")]) == 0
    assert main(["report", str(tmp_path / "p.jsonl"), "--out", str(table)]) == 0
    assert list(csv.DictReader(table.open())) == rows


def test_a_and_b_histograms_share_their_bins() -> None:
    from ludica.lab.report import shared_bins

    edges = shared_bins([[3, 4, 9], [20, 5]])
    assert edges[0] == 2.5 and edges[-1] >= 20 and all(b - a == 1.0 for a, b in pairwise(edges))
    assert shared_bins([[2.0, 2.0]]) == [1.5, 2.5]


def test_a_text_figure_is_paired_over_every_game_not_only_those_with_its_value() -> None:
    from ludica.lab.analysis import figures_by_game

    records = [_record(i, "p1", summary={"winner": "p1" if i % 2 else "p2"}) for i in range(6)]
    by_game = figures_by_game(records)
    assert by_game["winner = p1"] == {0: 0.0, 1: 1.0, 2: 0.0, 3: 1.0, 4: 0.0, 5: 1.0}
    assert len(by_game["winner = p2"]) == 6


def test_a_comparison_as_one_table_names_the_arm_of_each_row(tmp_path: Path) -> None:
    base = tmp_path / "pig.jsonl"
    assert main(["compare", "pig", "--games", "2", "--a", "target=10", "--b", "target=20", "--out", str(base)]) == 0
    table = tmp_path / "both.csv"
    argv = ["report", str(tmp_path / "pig-A.jsonl"), str(tmp_path / "pig-B.jsonl"), "--out", str(table)]
    assert main(argv) == 0
    rows = list(csv.DictReader(table.open()))
    assert [r["arm"] for r in rows] == ["A (pig-A)", "A (pig-A)", "B (pig-B)", "B (pig-B)"]
    assert list(rows[0])[:2] == ["arm", "index"]
