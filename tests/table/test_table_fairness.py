"""Provably fair dealing: ``verify_record`` recomputes every chance step from the revealed seed."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from ludica.core import Action, Config, Match, RecordError, get_game
from ludica.core.chance import Dealer
from ludica.core.errors import DigestMismatch
from ludica.core.records import record_of
from ludica.table.fairness import verify_record


def finished_pig_record(seed: str = "cafe01") -> dict[str, Any]:
    game = get_game("pig")
    match: Match[Any] = Match(game, Config(("Ann", "Bob"), {"target": 10}, seed))
    match.apply(Action("p1", "wager", {"amount": 1}))
    match.apply(Action("p2", "wager", {"amount": 2}))
    for _ in range(2000):
        if match.is_over():
            break
        pending = match.pending()
        if pending.is_chance:
            match.deal()
            continue
        seat = pending.seats[0]
        hold = match.state.turn_total >= 5
        match.apply(Action(seat, "hold" if hold else "roll"))
    assert match.is_over()
    data = record_of(match)
    data["table"] = {"seed_hash": Dealer.seed_commitment(seed), "physical_seat": None}
    return data


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_fair_record_verifies(tmp_path: Path) -> None:
    data = finished_pig_record()
    report = verify_record(write(tmp_path, data))
    assert report.over and report.chance_steps > 0 and report.dealt_verified == report.chance_steps
    assert "matches the revealed seed" in str(report)


def test_a_loaded_die_is_caught(tmp_path: Path) -> None:
    data = finished_pig_record()
    forged = copy.deepcopy(data)
    index = next(i for i, a in enumerate(forged["actions"]) if a["seat"] == "chance" and a["args"]["dice"] != [6])
    forged["actions"][index]["args"]["dice"] = [6]
    forged.pop("digest")
    with pytest.raises(RecordError, match=r"not what the dealer.s seed gives|refused"):
        verify_record(write(tmp_path, forged))


def test_a_different_seed_than_published_is_caught(tmp_path: Path) -> None:
    data = finished_pig_record()
    data["table"]["seed_hash"] = Dealer.seed_commitment("another")
    with pytest.raises(RecordError, match="hash published"):
        verify_record(write(tmp_path, data))


def test_an_altered_digest_is_caught(tmp_path: Path) -> None:
    data = finished_pig_record()
    data["digest"] = "0" * 64
    with pytest.raises(DigestMismatch):
        verify_record(write(tmp_path, data))


def test_a_record_without_its_seed_is_refused(tmp_path: Path) -> None:
    data = finished_pig_record()
    del data["config"]["seed"]
    with pytest.raises(RecordError, match="seed"):
        verify_record(write(tmp_path, data))


def test_a_missing_file_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError):
        verify_record(tmp_path / "nope.json")
