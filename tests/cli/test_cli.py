"""The ludica command: help everywhere, one-line errors, play saved after every action, replay."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from ludica.cli import build_parser, main
from ludica.core import Config, Match, get_game
from ludica.core.records import load_json, record_of, replay_record
from ludica.terminal import Terminal


def scripted(lines: list[str]) -> Iterator[str]:
    yield from lines
    raise EOFError


def test_every_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    for command in ("games", "play", "replay", "position", "simulate", "serve", "verify"):
        with pytest.raises(SystemExit) as exit_info:
            parser.parse_args([command, "--help"])
        assert exit_info.value.code == 0
    assert "usage" in capsys.readouterr().out


def test_unknown_game_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "chess", "--games", "1"]) == 2
    out = capsys.readouterr().out
    assert "no game 'chess'" in out and "Traceback" not in out


def test_bad_player_count_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "pig", "--players", "9", "--names", "a,b,c,d,e,f,g,h,i"]) == 2
    assert "2-4 players" in capsys.readouterr().out


def test_simulate_prints_statistics(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "figures.json"
    assert main(["simulate", "pig", "--games", "20", "--seed", "3", "--out", str(out_file)]) == 0
    assert "winner" in capsys.readouterr().out
    assert len(json.loads(out_file.read_text())) == 20


def test_play_saves_after_every_action_and_resumes(tmp_path: Path) -> None:
    save = tmp_path / "pig.json"
    match = Match(get_game("pig"), Config(("Ann", "Bob"), {}, 11))
    answers = scripted(["", "", "2 -- I feel lucky", "", "3"])  # seat, hand over, wager 2 + narration...
    table = Terminal(match, save, ask=lambda _prompt: next(answers))
    with pytest.raises(EOFError):
        table.run()
    saved = load_json(save)
    assert [a["type"] for a in saved["actions"]] == ["wager", "wager"]
    assert saved["actions"][0]["narration"] == "I feel lucky"
    resumed = replay_record(saved)
    assert resumed.digest() == replay_record(record_of(match)).digest()


def test_refused_move_is_explained_and_play_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = Match(get_game("pig"), Config(("Ann", "Bob"), {}, 11))
    answers = scripted(["1", "", "wager amount=7", "wager amount=2"])
    table = Terminal(match, tmp_path / "g.json", ask=lambda _p: next(answers))
    with pytest.raises(EOFError):
        table.run()
    assert "Refused" in capsys.readouterr().out
    assert match.actions[0].args == {"amount": 2}


def test_physical_mode_takes_typed_dice(tmp_path: Path) -> None:
    match = Match(get_game("pig"), Config(("Ann", "Bob"), {}, 11))
    answers = scripted(["1", "", "wager amount=1", "", "wager amount=1", "", "roll", "9", "4"])
    table = Terminal(match, tmp_path / "g.json", physical="all", ask=lambda _p: next(answers))
    with pytest.raises(EOFError):
        table.run()
    assert match.actions[-1].args == {"dice": [4]}


def test_replay_refuses_tampered_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = Match(get_game("pig"), Config(("Ann", "Bob"), {}, 2))
    match.run_chance()
    record = record_of(match)
    record["actions"] = [{"seat": "p1", "type": "wager", "args": {"amount": 2}}]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 2
    assert "digest" in capsys.readouterr().out
    path.write_text("{not json")
    assert main(["replay", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().out


def test_position_command_writes_a_readable_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = Match(get_game("pig"), Config(("Ann", "Bob"), {}, 2))
    match.apply(match.legal_actions("p1")[0])
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record_of(match)))
    assert main(["position", str(path), "--at", "0"]) == 0
    position = json.loads(capsys.readouterr().out)
    assert position["format"] == "ludica-position" and position["state"]["wagers"]["choices"] == {}


def test_a_required_prefix_is_written_for_the_player(tmp_path: Path) -> None:
    from ludica.core import Action, Text

    match = Match(get_game("pig"), Config(("Ann", "Bob"), {}, 11))
    table = Terminal(match, tmp_path / "g.json", ask=lambda _p: "the river")
    filled = table.fill_in(Action("p1", "write", {"text": Text("a memory", prefix="I remember")}))
    assert filled.args["text"] == "I remember the river"
