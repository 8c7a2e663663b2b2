"""Issue 14 (hardening), the terminal's part: no hidden chance outcome on the shared screen
(point 3), bad chance outcomes in a record are a clear error (point 9), broken pipes end quietly
(point 12), a game started from a position resumes from its save (point 16)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ludica.bots.random_bot import RandomBot
from ludica.cli import main
from ludica.core import CHANCE, Config, Match, get_game
from ludica.core.records import load_json, position_of, record_of
from ludica.terminal import Terminal


def scripted(lines: list[str]) -> Iterator[str]:
    yield from lines
    raise EOFError


def play_until(match: Match[Any], done: Callable[[Match[Any]], bool], seed: int = 1) -> Match[Any]:
    bot, rng = RandomBot(random.Random(seed)), random.Random(seed)
    for _ in range(3000):
        if done(match):
            return match
        pending = match.pending()
        if pending.is_chance:
            match.deal()
        else:
            match.apply(bot.choose(match, pending.seats[rng.randrange(len(pending.seats))]))
    raise AssertionError("never reached")


def chance_due(kind: str) -> Callable[[Match[Any]], bool]:
    return lambda m: m.pending().is_chance and m.game.chance_step(m.state).type == kind


def euthymia(seed: int = 1) -> Match[Any]:
    return Match(get_game("euthymia"), Config(("Ann", "Bob", "Cat"), {}, seed))


# -- point 3 ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["deal_identity_cards", "shuffle_and_deal"])
def test_point3_terminal_hides_euthymias_dealt_outcomes(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = play_until(euthymia(), chance_due(kind))
    capsys.readouterr()
    table = Terminal(match, tmp_path / "g.json", ask=lambda _p: next(scripted([])))
    with pytest.raises(EOFError):
        table.run()
    dealt = next(a for a in reversed(match.actions) if a.type == kind)
    out = capsys.readouterr().out
    assert "black" not in out and "order" not in out and json.dumps(dealt.args) not in out
    if kind == "deal_identity_cards":
        assert f"{dealt.args['black'][0]} " not in out.split("Hand the keyboard")[0]
    assert kind.replace("_", " ") in out


def test_point3_terminal_hides_euphorias_shuffles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = Match(get_game("euphoria"), Config(("Ann", "Bob"), {}, 3))
    table = Terminal(match, tmp_path / "g.json", ask=lambda _p: next(scripted([])))
    with pytest.raises(EOFError):
        table.run()
    shuffles = [a for a in match.actions if a.type.startswith("shuffle")]
    assert shuffles
    out = capsys.readouterr().out
    assert "order" not in out and "shuffle recruits" in out
    assert json.dumps(shuffles[0].args["order"][:6])[1:-1] not in out


def test_point3_physical_mode_asks_hidden_outcomes_without_echo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 19: each seat says its own identity card's colour, privately, after a hand-over;
    nobody types who received the black card."""
    match = play_until(euthymia(), chance_due("deal_identity_cards"))
    asked_secretly: list[str] = []
    colours = {"Ann": "red", "Bob": "black", "Cat": "red"}

    def secret(prompt: str) -> str:
        asked_secretly.append(prompt)
        if len(asked_secretly) > 3:
            raise EOFError  # the pass of the identity cards comes next
        return next(c for name, c in colours.items() if prompt.startswith(f"[{name}, not shown]"))

    table = Terminal(match, tmp_path / "g.json", physical="all", ask=lambda _p: "", ask_secret=secret)
    capsys.readouterr()
    with pytest.raises(EOFError):
        table.run()
    assert match.actions[-1].type == "deal_identity_cards" and match.actions[-1].args["black"] == ["p2"]
    assert [p.split(",")[0] for p in asked_secretly[:3]] == ["[Ann", "[Bob", "[Cat"]
    out = capsys.readouterr().out
    assert "Ann, type the colour of your identity card (black or red)" in out
    assert "Ann, type whom you passed your identity card to (Bob or Cat)" in out
    assert "p2" not in out and "Bob received a black" not in out and "is the Committee" not in out
    assert all(f"Euthymia — {name} next" in out for name in colours)  # a hand-over before each


def test_point3_physical_dice_are_still_typed_in_the_open(tmp_path: Path) -> None:
    match = Match(get_game("pig"), Config(("Ann", "Bob"), {}, 11))
    answers = scripted(["1", "", "wager amount=1", "", "wager amount=1", "", "1", "4"])

    def secret(_prompt: str) -> str:
        raise AssertionError("a die roll is public: no hidden prompt")

    table = Terminal(match, tmp_path / "g.json", physical="all", ask=lambda _p: next(answers), ask_secret=secret)
    with pytest.raises(EOFError):
        table.run()
    assert match.actions[-1].args == {"dice": [4]}


def test_point3_log_shows_only_the_seats_own_story(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = play_until(euthymia(), lambda m: any(a.type == "deal_identity_cards" for a in m.actions))
    match.run_chance()
    seat = match.pending().seats[0]
    answers = scripted(["", "log"])
    table = Terminal(match, tmp_path / "g.json", ask=lambda _p: next(answers))
    capsys.readouterr()
    with pytest.raises(EOFError):
        table.decide(seat)
    out = capsys.readouterr().out
    private = [e.event.text for e in match.log if e.event.visible_to and seat not in e.event.visible_to]
    assert private and not any(text in out for text in private)


# -- point 9 ----------------------------------------------------------------------------------------
def test_point9_replay_and_verify_of_a_bad_shuffle_are_clear_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = play_until(euthymia(), chance_due("shuffle_and_deal"))
    record = record_of(match)
    del record["digest"]
    floats = [float(i) for i in range(52)]
    record["actions"].append({"seat": CHANCE, "type": "shuffle_and_deal", "args": {"order": floats}})
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    for command in ("replay", "verify", "position"):
        assert main([command, str(path)]) == 2
        out = capsys.readouterr()
        assert "refused" in out.out and "Traceback" not in out.out + out.err


# -- point 12 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["position", "games", "replay"])
def test_point12_broken_pipe_ends_quietly(command: str, tmp_path: Path) -> None:
    match = play_until(Match(get_game("pig"), Config(("Ann", "Bob"), {}, 4)), lambda m: len(m.actions) > 30)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record_of(match)))
    argv = [sys.executable, "-m", "ludica.cli", command] + ([] if command == "games" else [str(path)])
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # like `| head` that has read all it wants before the command writes
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err


# -- point 16 ---------------------------------------------------------------------------------------
def test_point16_play_from_a_position_resumes_from_its_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = play_until(
        Match(get_game("pig"), Config(("Ann", "Bob"), {}, 6)),
        lambda m: len(m.actions) >= 6 and not m.pending().is_chance and m.pending().seats == ("p1",),
    )
    position = tmp_path / "pos.json"
    position.write_text(json.dumps(position_of(source.game, source.state, source.config)))
    save = tmp_path / "save.json"
    answers = scripted(["", "roll"])
    monkeypatch.setattr("builtins.input", lambda _p="": next(answers))
    assert main(["play", "--position", str(position), "--save", str(save)]) == 0
    saved = load_json(save)
    assert saved["start"] == source.game.to_position(source.state)
    assert [a["type"] for a in saved["actions"]][:2] == ["roll", "die"]
    answers = scripted([])
    capsys.readouterr()
    assert main(["play", "--load", str(save)]) == 0
    out = capsys.readouterr().out
    assert f"at step {len(saved['actions'])}" in out and "refused" not in out


def test_point16_position_at_n_counts_from_the_start_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ludica.core.records import read_position

    source = play_until(Match(get_game("pig"), Config(("Ann", "Bob"), {}, 6)), lambda m: len(m.actions) >= 9)
    match = read_position(position_of(source.game, source.state, source.config))
    play_until(match, lambda m: len(m.actions) >= 4, seed=2)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record_of(match)))
    capsys.readouterr()
    assert main(["position", str(path), "--at", "0"]) == 0
    assert json.loads(capsys.readouterr().out)["state"] == source.game.to_position(source.state)
