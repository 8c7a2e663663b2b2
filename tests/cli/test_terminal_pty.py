"""The real ``ludica play`` command driven through a pseudo-terminal of 80×24: names instead of
ids, narration only when asked for, a seat chooser that can go back, screens that fit, real
components typed by their faces."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from ludica.core.chance import Shuffle
from ludica.core.mechanisms.cards import standard_deck
from ludica.core.names import raw_ids
from ludica.terminal import card_key, parse_chance

pexpect = pytest.importorskip("pexpect")
ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")


def spawn(*args: str, timeout: int = 30) -> pexpect.spawn:
    """``ludica ARGS`` in a pseudo-terminal of 24 x 80 (also the leak tests' table)."""
    env = {**os.environ, "COLUMNS": "80", "LINES": "24", "TERM": "xterm", "PYTHONPATH": str(ROOT)}
    return pexpect.spawn(
        sys.executable,
        ["-m", "ludica.cli", *args],
        cwd=str(ROOT),
        env=env,
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=timeout,
    )


def screen(child: pexpect.spawn) -> str:
    return ANSI.sub("", child.before or "")


def test_names_and_recruit_texts_instead_of_ids(tmp_path: Path) -> None:
    child = spawn("play", "euphoria", "--names", "Ana,Ben,Cat", "--seed", "3", "--save", str(tmp_path / "e.json"))
    child.expect(r"Who decides\? \[Enter: Ana\]")
    child.sendline("")
    child.expect("Hand the keyboard to Ana")
    child.sendline("")
    child.expect(r"active recruit \(face up\)\? \(1\.\.4\)")
    text = screen(child)
    assert "Ana decides" in text and "the Demotivator" in text  # names, and the recruits' texts
    assert "retrieval costs no morale" in text
    assert not raw_ids(text), raw_ids(text)
    child.sendline("quit")
    child.expect("Nothing is lost")


def test_narration_is_opt_in_and_the_seat_chooser_goes_back(tmp_path: Path) -> None:
    save = tmp_path / "pig.json"
    child = spawn("play", "pig", "--names", "Ann,Bob", "--seed", "11", "--save", str(save))
    child.expect(r"Who decides\? \[Enter: Ann\]")
    child.sendline("")  # the default: the first of the seats that decide
    child.expect("Hand the keyboard to Ann")
    child.sendline("")
    child.expect(r"amount\? \(1\.\.3\)")
    child.sendline("back")  # back to the seat chooser
    child.expect(r"Who decides\?")
    child.sendline("2")
    child.expect("Hand the keyboard to Bob")
    child.sendline("")
    child.expect(r"amount\? \(1\.\.3\)")
    child.sendline("3 -- all in")
    child.expect(r"Who decides\?|Hand the keyboard|amount\?")  # Ann's wager is the last: seen by all at once
    assert "narration" not in screen(child).lower()
    child.sendline("quit")
    child.expect("Nothing is lost")
    record = json.loads(save.read_text())
    assert record["actions"][0]["seat"] == "p2" and record["actions"][0]["narration"] == "all in"
    assert record["actions"][0]["args"] == {"amount": 3}


def settle(child: pexpect.spawn) -> str:
    """Everything printed until the program waits for the keyboard."""
    child.expect(pexpect.TIMEOUT, timeout=2)
    return screen(child)


def test_every_screen_fits_80_by_24(tmp_path: Path) -> None:
    child = spawn("play", "lost-days", "--names", "Ann,Bob,Cat", "--seed", "2", "--save", str(tmp_path / "l.json"))
    for _ in range(8):
        text = settle(child)
        lines = text.rsplit("───", 1)[-1].splitlines()[1:]  # one decision's screen, from its rule down
        assert lines, text
        assert all(len(line) <= 80 for line in lines), max(lines, key=len)
        assert len(lines) <= 23, "\n".join(lines)
        prompt = lines[-1]
        child.sendline("1" if re.search(r"\(1\.\.|> $|\[Enter", prompt) else "the silver lake")
    child.sendline("quit")
    child.expect("Nothing is lost")


def test_physical_dice_say_what_to_type(tmp_path: Path) -> None:
    child = spawn("play", "pig", "--names", "Ann,Bob", "--seed", "1", "--physical", "--save", str(tmp_path / "p.json"))
    for _ in range(2):
        child.expect(r"Who decides\?|Hand the keyboard|amount\?")
        child.sendline("")
        child.expect(r"amount\? \(1\.\.3\)|Hand the keyboard")
        child.sendline("1")
    child.sendline("quit")
    child.expect("Nothing is lost")


def test_a_shuffle_is_typed_by_the_faces_of_the_cards() -> None:
    deck = tuple(standard_deck())
    step = Shuffle(52, items=deck)
    faces = list(reversed(deck))
    typed = " ".join(f.lower().replace("10", "t") for f in faces)
    assert parse_chance(step, typed) == {"order": list(range(51, -1, -1))}
    assert card_key("10♥") == card_key("TH") == "10H"


def test_games_lists_a_games_options(capsys: pytest.CaptureFixture[str]) -> None:
    from ludica.cli import main

    assert main(["games", "euphoria"]) == 0
    out = capsys.readouterr().out
    assert "round_limit" in out and "Options" in out


def test_each_die_field_says_whose_die_it_is() -> None:
    from ludica.core import Config, Match, get_game
    from ludica.core.chance import Roll
    from ludica.core.names import namer_of
    from ludica.terminal import describe_step

    match = Match(get_game("great-city"), Config(("Ann", "Bob"), {}, 1))
    step = match.game.chance_step(match.state)
    assert isinstance(step, Roll) and len(step.labels) == len(step.sides)
    prompt = namer_of(match, None).say(describe_step(step))
    assert "the city's blue stone (first triad) (d8)" in prompt
    assert "Ann's die (d6), Bob's die (d6)" in describe_step(Roll((6, 6), labels=("Ann's die", "Bob's die")))
