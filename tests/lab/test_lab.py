"""The lab: simulate and compare on tiny batches, the per-game records, the report and its figures,
the warnings a designer must see, and the same results on every backend."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ludica.cli import main
from ludica.core import ConfigError, get_game
from ludica.lab.analysis import bootstrap_mean, figures, seat_rates, warnings, wilson
from ludica.lab.batch import STEP_LIMIT, Batch, play_game, run
from ludica.lab.cli import bots_of, typed_option
from ludica.lab.playthrough import NAMES

GAMES = {"great-city": 3, "euthymia": 3, "misery-bubblegum": 2, "lost-days": 3, "euphoria": 2}
RECORD_FIELDS = {"seed", "bots", "end_reason", "winners", "steps", "turns", "summary", "timeline"}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_reports_a_declared_end_reason_and_a_timeline(game_id: str) -> None:
    game = get_game(game_id)
    assert game.meta.end_reasons, f"{game_id} declares no end reasons"
    assert game.meta.clock_unit
    batch = Batch(game_id, NAMES[: GAMES[game_id]], games=1, seed=7)
    record = play_game(batch, 0)
    assert record["end_reason"] in game.meta.end_reasons
    assert record["summary"]["end_reason"] == record["end_reason"]
    timeline = record["timeline"]
    assert timeline["unit"] == game.meta.clock_unit and len(timeline["t"]) >= 2
    assert all(len(values) == len(timeline["t"]) for values in timeline["values"].values())


def test_simulate_writes_one_json_object_per_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "gc.jsonl"
    args = ["simulate", "great-city", "--games", "3", "--players", "3", "--seed", "5", "--bot", "p1=random"]
    assert main([*args, "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 3
    assert [r["seed"] for r in lines] == [5, 6, 7]
    for record in lines:
        assert set(record) >= RECORD_FIELDS
        assert record["bots"] == {"p1": "random", "p2": "random", "p3": "random", "gm": "random"}
        assert record["end_reason"] in ("city_survives", "city_succumbs")
        assert "city_survives" in record["summary"]
    printed = capsys.readouterr().out
    assert "Win rate by seat" in printed and "95% CI" in printed


def test_options_are_typed_by_their_declared_default() -> None:
    meta = get_game("euphoria").meta
    assert typed_option(meta, "round_limit=50") == ("round_limit", 50)
    assert typed_option(meta, "double_house_rule=yes") == ("double_house_rule", True)
    assert typed_option(meta, "printing=revised") == ("printing", "revised")
    with pytest.raises(ConfigError, match="round_limit"):
        typed_option(meta, "round_limit=lots")
    with pytest.raises(ConfigError, match="must be one of"):
        typed_option(meta, "round_limit=7")
    with pytest.raises(ConfigError, match="no option"):
        typed_option(meta, "colour=red")


def test_bot_specs_for_every_seat_and_one_seat() -> None:
    assert bots_of(["heuristic"]) == {"*": "heuristic"}
    per_seat = {"*": "random", "p1": "ismcts:playouts=20", "p2": "random"}
    assert bots_of(["p1=ismcts:playouts=20", "p2=random"]) == per_seat
    assert bots_of(["ismcts:playouts=20"]) == {"*": "ismcts:playouts=20"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "pig", "--bot", "p9=random"], "no seat 'p9'"),
        (["simulate", "pig", "--bot", "genius"], "no bot 'genius'"),
        (["simulate", "pig", "--option", "target=7"], "must be one of"),
        (["compare", "pig", "--a", "target=x"], "takes a whole number (like 10)"),
    ],
)
def test_user_mistakes_are_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--games", "2"]) == 2
    out = capsys.readouterr().out
    assert message in out and "Traceback" not in out


def test_compare_prints_each_figure_with_its_difference(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["compare", "pig", "--games", "12", "--a", "target=10", "--b", "target=30", "--report", str(tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "B - A" in out and "Seat advantage" in out
    steps = next(line for line in out.splitlines() if line.startswith("│ steps"))
    assert "*" in steps  # a game to 30 points is longer than a game to 10, beyond doubt
    page = (tmp_path / "index.html").read_text()
    assert "A (target=10)" in page and "B (target=30)" in page
    assert "ludica compare pig --games 12 --seed 0 --jobs 1 --coverage 20 --a target=10 --b target=30" in page
    for arm in ("A (target=10)", "B (target=30)"):  # each arm's coverage table, as the terminal prints it
        assert f"<h2>Coverage — {arm}, against" in page and "random play: taken" in page


def test_compare_two_kinds_of_players(tmp_path: Path) -> None:
    out = tmp_path / "pig.jsonl"
    argv = ["compare", "pig", "--games", "3", "--bot-a", "random", "--bot-b", "p1=heuristic", "--out", str(out)]
    assert main(argv) == 0
    a = [json.loads(line) for line in (tmp_path / "pig-A.jsonl").read_text().splitlines()]
    b = [json.loads(line) for line in (tmp_path / "pig-B.jsonl").read_text().splitlines()]
    assert a[0]["bots"] == {"p1": "random", "p2": "random"}
    assert b[0]["bots"] == {"p1": "heuristic", "p2": "random"}


def test_report_is_written_with_its_figures(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    argv = ["simulate", "lost-days", "--games", "3", "--players", "3", "--bot", "p1=heuristic"]
    assert main([*argv, "--report", str(tmp_path)]) == 0
    page = (tmp_path / "index.html").read_text()
    for stem in ("length", "end_reasons", "win_by_seat", "win_by_bot", "over_time"):
        png = tmp_path / f"{stem}.png"
        assert png.read_bytes()[:4] == b"\x89PNG"
        assert f"href='{stem}.png'" in page
    assert page.count("src='data:image/png;base64,") == 5
    assert "Where a rule breaks" in page
    one_bot = tmp_path / "one"
    assert main(["simulate", "lost-days", "--games", "3", "--players", "3", "--report", str(one_bot)]) == 0
    assert not (one_bot / "win_by_bot.png").exists()  # one bot: no chart to compare bots


def test_a_game_that_will_not_end_is_stopped_and_said(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "euphoria", "--games", "2", "--players", "2", "--max-steps", "30"]) == 0
    out = capsys.readouterr().out
    assert "safety bound" in out and "2 of 2 games" in out
    record = play_game(Batch("euphoria", NAMES[:2], max_steps=30), 0)
    assert record["end_reason"] == STEP_LIMIT and record["steps"] == 30


def _record(seat_won: str, reason: str, morale: list[float], offered: dict[str, int]) -> dict[str, Any]:
    return {
        "bots": {"p1": "random", "p2": "random"},
        "players": 2,
        "end_reason": reason,
        "winners": [seat_won],
        "steps": 10,
        "turns": 5,
        "summary": {},
        "timeline": {"unit": "round", "t": list(range(len(morale))), "values": {"morale (mean)": morale}},
        "actions_offered": offered,
        "actions_taken": {k: v for k, v in offered.items() if k != "retrieve"},
    }


def test_warnings_fire_on_a_crafted_batch() -> None:
    game = get_game("euphoria")
    records = [_record("p1", "round_limit", [1, 1, 1, 2], {"place": 9, "retrieve": 4}) for _ in range(40)]
    records += [_record("p1", STEP_LIMIT, [1, 1], {"place": 3})]
    found = warnings(game, records)
    kinds: dict[str, str] = {}
    for w in found:
        kinds[w.kind] = kinds.get(w.kind, "") + w.message + "\n"
    assert "1 of 41 games (2.4%" in kinds["safety bound"] and "step bound" in kinds["safety bound"]
    assert "40 of 41 games (97.6%" in kinds["safety bound"] and "'round_limit'" in kinds["safety bound"]
    assert "end never happens" not in kinds  # one rulebook end (ten_stars) and a bound: nothing to compare
    assert "seat p1 wins more than its share: 100.0%" in kinds["seat advantage"]
    assert "never taken: 'retrieve' (legal at 160)" in kinds["action never taken"]
    assert "morale (mean) runs dry (at its floor 1) in 75% of samples" in kinds["counter runs dry"]


def test_an_end_of_the_rulebook_that_never_happens_is_said() -> None:
    game = get_game("lost-days")
    records = [_record("p1" if i % 2 else "p2", "last_elf_standing", [], {}) for i in range(10)]
    kinds = {w.kind: w.message for w in warnings(game, records)}
    assert kinds["end always happens"] == "end reason 'last_elf_standing' ended all 10 games; 'no_survivor' never did"
    records[0]["end_reason"] = "no_survivor"
    assert "end always happens" not in {w.kind for w in warnings(game, records)}


def test_no_warning_on_a_fair_batch() -> None:
    game = get_game("pig")
    records = [_record(f"p{1 + i % 2}", "end", [3, 4], {"roll": 2}) for i in range(40)]
    assert warnings(game, records) == []


def test_intervals() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(0.19, abs=0.01)
    assert wilson(0, 10)[0] == 0.0
    values = [float(i % 7) for i in range(200)]
    assert bootstrap_mean(values, seed=1) == bootstrap_mean(values, seed=1)
    lo, hi = bootstrap_mean(values, seed=1)
    assert lo < 3.0 < hi
    assert wilson(0, 1000) == (0.0, pytest.approx(0.00383, abs=1e-5))  # not 2.17e-19


def test_figures_and_seat_rates_of_records() -> None:
    records = [_record("p1", "ten_stars", [2, 3], {}) for _ in range(3)] + [_record("p2", "ten_stars", [2], {})]
    shares = figures(records, ("ten_stars", "round_limit"))
    assert shares["end_reason = round_limit"] == [0.0] * 4
    rates = {r.who: r for r in seat_rates(records)}
    assert (rates["p1"].wins, rates["p1"].games, rates["p1"].fair) == (3, 4, 0.5)


def test_same_seeds_same_games_on_one_process_or_a_pool() -> None:
    batch = Batch("pig", NAMES[:3], games=8, seed=11)
    alone = run(batch, jobs=1)
    assert run(batch, jobs=2) == alone
    assert play_game(batch, 5) == alone[5]


def test_ray_gives_the_same_games_as_one_process() -> None:
    pytest.importorskip("ray")
    batch = Batch("pig", NAMES[:2], games=6, seed=3)
    assert run(batch, ray="local", jobs=2) == run(batch, jobs=1)


@pytest.mark.parametrize(("module", "flag"), [("matplotlib", "--report"), ("ray", "--ray")])
def test_without_the_extra_the_message_says_what_to_install(
    module: str, flag: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if it were not installed
    argv = ["simulate", "pig", "--games", "2", flag] + ([str(tmp_path)] if flag == "--report" else [])
    assert main(argv) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert f"pip install 'ludica[{'lab' if module == 'matplotlib' else 'ray'}]'" in out and "Traceback" not in out


class Broken:
    name = "broken"

    def decide(self, situation: Any) -> Any:
        raise ZeroDivisionError("oops")


def test_a_bot_that_fails_ends_its_game_not_the_batch(capsys: pytest.CaptureFixture[str]) -> None:
    from ludica.bots.base import register_bot

    register_bot("broken", lambda game_id, params, seed: Broken())
    assert main(["simulate", "pig", "--games", "3", "--bot", "p2=broken"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "3 of 3 games" in out and "a bot failed" in out and "ZeroDivisionError('oops')" in out
    record = play_game(Batch("pig", NAMES[:2], bots={"*": "random", "p2": "broken"}), 0)
    assert record["end_reason"] == "bot_error" and "p2 (broken)" in record["error"]


def test_an_unreachable_ray_cluster_is_one_line_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")
    import socket
    import time

    with socket.socket() as probe:  # a port where nothing listens once closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    start = time.monotonic()
    assert main(["simulate", "pig", "--games", "2", "--ray", f"127.0.0.1:{port}"]) == 2
    captured = capsys.readouterr()
    lines = [line for line in captured.out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"ludica: cannot use the Ray cluster at 127.0.0.1:{port}: ")
    assert "Traceback" not in captured.out + captured.err and not captured.err.strip()
    assert time.monotonic() - start < 30  # Ray alone retried for 60-300 s


@pytest.mark.parametrize("module", ["statsmodels.stats.proportion", "scipy.stats"])
def test_without_the_statistics_the_lab_imports_and_says_what_to_install(
    module: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if it were not installed
    import importlib

    for name in ("analysis", "batch", "cli", "coverage", "inference", "mechanics", "report"):
        importlib.import_module(f"ludica.lab.{name}")  # the modules import without the extra
    assert main(["simulate", "pig", "--games", "2"]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert "need scipy and statsmodels" in out and "pip install 'ludica[lab]'" in out and "Traceback" not in out


def test_the_tournament_without_the_extra_prints_win_rates(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    assert main(["tournament", "pig", "--bots", "random,random", "--games", "2"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "win rate" in out and "intervals and ratings need" in out and "Traceback" not in out
