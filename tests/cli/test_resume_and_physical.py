"""Issue 18: a resume keeps how ``play`` was started (bots, physical mode), overridable; a record
says which chance steps were typed at the table, and ``verify`` checks every other one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

import ludica.cli
from ludica.cli import main
from ludica.core import Config, Match, RecordError, get_game
from ludica.core.records import load_json, record_of, replay_record, save_record
from ludica.table.fairness import verify_data
from ludica.terminal import Terminal


def scripted(lines: list[str]) -> Iterator[str]:
    yield from lines
    raise EOFError


class Captured:
    """Stands in for the Terminal: keeps what ``play`` gave it and stops at once."""

    seen: ClassVar[dict[str, Any]] = {}

    def __init__(self, match: Match[Any], save: Path, **kwargs: Any) -> None:
        Captured.seen = {"match": match, "save": save, **kwargs}

    def run(self) -> int:
        return 0


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    Captured.seen = {}
    monkeypatch.setattr(ludica.cli, "Terminal", Captured)
    return Captured.seen


def started(tmp_path: Path, *flags: str) -> Path:
    save = tmp_path / "pig.json"
    assert main(["play", "pig", "--seed", "4", "--save", str(save), *flags]) == 0
    save_record(Captured.seen["match"], save)  # what the Terminal does after every action
    return save


def test_resume_keeps_bots_and_physical_mode(tmp_path: Path, captured: dict[str, Any]) -> None:
    save = started(tmp_path, "--bot", "p2=heuristic", "--physical", "dice")
    assert load_json(save)["play"] == {"bots": {"p2": "heuristic"}, "physical": "dice"}
    assert main(["play", "--load", str(save)]) == 0
    assert list(Captured.seen["bots"]) == ["p2"] and Captured.seen["physical"] == "dice"
    assert Captured.seen["match"].settings == {"bots": {"p2": "heuristic"}, "physical": "dice"}


def test_resume_overrides_from_the_command_line(tmp_path: Path, captured: dict[str, Any]) -> None:
    save = started(tmp_path, "--bot", "p2=heuristic", "--physical")
    assert main(["play", "--load", str(save), "--bot", "p2=human", "--bot", "p1=random", "--physical", "off"]) == 0
    assert list(Captured.seen["bots"]) == ["p1"] and Captured.seen["physical"] is None
    assert Captured.seen["match"].settings == {"bots": {"p1": "random"}}


def test_resume_refuses_to_change_the_config(tmp_path: Path, captured: dict[str, Any], capsys: Any) -> None:
    save = started(tmp_path)
    capsys.readouterr()
    assert main(["play", "--load", str(save), "--names", "X,Y"]) == 2
    assert "--names cannot change a saved game" in capsys.readouterr().out


def test_an_old_save_without_play_still_loads(tmp_path: Path, captured: dict[str, Any]) -> None:
    save = started(tmp_path, "--bot", "p2=random")
    data = load_json(save)
    del data["play"]
    save.write_text(json.dumps(data), encoding="utf-8")
    assert main(["play", "--load", str(save)]) == 0
    assert Captured.seen["bots"] == {} and Captured.seen["physical"] is None


def test_bad_play_settings_are_one_line(tmp_path: Path, captured: dict[str, Any], capsys: Any) -> None:
    save = started(tmp_path)
    data = load_json(save) | {"play": {"bots": {"p2": ["x"]}}}
    save.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert main(["play", "--load", str(save)]) == 2
    assert "play.bots" in capsys.readouterr().out


# -- physical records --------------------------------------------------------------------------------
def physical_pig(tmp_path: Path) -> Match[Any]:
    """Pig at a physical table: both wager, p1 rolls, the die is typed (4)."""
    match = Match(get_game("pig"), Config(("Ann", "Bob"), {}, 11))
    answers = scripted(["1", "", "wager amount=1", "", "wager amount=1", "", "1", "4"])
    table = Terminal(match, tmp_path / "g.json", physical="all", ask=lambda _p: next(answers))
    with pytest.raises(EOFError):
        table.run()
    return match


def test_a_typed_step_is_marked_in_the_record(tmp_path: Path) -> None:
    match = physical_pig(tmp_path)
    data = record_of(match)
    assert data["typed"] == [len(match.actions) - 1] and match.actions[-1].args == {"dice": [4]}
    assert replay_record(data).typed == data["typed"]


def test_verify_checks_the_rest_and_counts_the_typed(tmp_path: Path) -> None:
    match = physical_pig(tmp_path)
    match.run_chance()  # the dealer deals any further step: those are checked against the seed
    report = verify_data(record_of(match))
    assert report.typed_by_hand == 1
    assert report.dealt_verified == report.chance_steps - 1
    assert "typed by hand" in str(report) and "cannot be checked against the seed" in str(report)


def test_verify_still_refuses_an_altered_dealt_step(tmp_path: Path) -> None:
    match = Match(get_game("pig"), Config(("Ann", "Bob"), {}, 11))
    physical_like = physical_pig(tmp_path)
    match.replay(physical_like.actions)  # the same actions, but nothing marked typed
    with pytest.raises(RecordError, match="not what the dealer's seed gives"):
        verify_data(record_of(match))


def test_typed_must_name_chance_steps(tmp_path: Path) -> None:
    data = record_of(physical_pig(tmp_path)) | {"typed": [0]}
    with pytest.raises(RecordError, match="not a chance step"):
        replay_record(data)


def test_undo_forgets_a_typed_step(tmp_path: Path) -> None:
    match = physical_pig(tmp_path)
    match.undo()
    assert match.typed == []
