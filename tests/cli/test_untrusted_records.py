"""Records are untrusted input (issue 18): ``verify``, ``replay`` and ``play --load`` refuse a
malformed record with one line naming what is wrong, exit status 2 and no traceback — the same on
both builds (a subprocess runs the build the environment selects)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ludica.core import Config, Match, get_game
from ludica.core.records import record_of


def a_record() -> dict[str, Any]:
    match: Match[Any] = Match(get_game("pig"), Config(("Ann", "Bob"), {}, 3))
    for _ in range(6):  # a few steps, chance ones included
        pending = match.pending()
        if pending.is_chance:
            match.deal()
        else:
            match.apply(match.legal_actions(pending.seats[0])[0])
    assert any(a.seat == "chance" for a in match.actions)
    return record_of(match)


def ludica(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="200")
    code = "import sys; from ludica.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=60)


def seeded(seed: Any) -> str:
    data = a_record()
    data["config"]["seed"] = seed
    return json.dumps(data)


def seeded_raw(raw: str) -> str:
    """The record with its seed written as ``raw`` JSON text (what json.dumps cannot write)."""
    text = json.dumps(a_record())
    assert text.count('"seed": 3') == 1
    return text.replace('"seed": 3', '"seed": ' + raw)


CASES = {
    "seed a list": (seeded([1, 2]), "config.seed"),
    "seed a float": (seeded(1.5), "config.seed"),
    "seed a boolean": (seeded(True), "config.seed"),
    "seed an object": (seeded({"a": 1}), "config.seed"),
    "players not a list": (json.dumps(a_record() | {"config": {"players": "Ann", "seed": 1}}), "players"),
    "config not an object": (json.dumps(a_record() | {"config": [1]}), "config"),
    "a 5,000-digit number": (seeded_raw("9" * 5000), "digits"),
    "deeply nested": ('{"format": "ludica-record", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested"),
    "nested 100 levels": ('{"format": "ludica-record", "x": ' + "[" * 100 + "]" * 100 + "}", "nested"),
    "NaN": (seeded_raw("NaN"), "NaN"),
    "a huge float": (seeded_raw("1e999"), "number"),
    "actions not a list": (json.dumps(a_record() | {"actions": {"a": 1}}), "actions"),
    "an action not an object": (json.dumps(a_record() | {"actions": [7]}), "action 1"),
    "not an object": ("[1, 2]", "not a Ludica record"),
    "format_version text": (json.dumps(a_record() | {"format_version": "1"}), "format version"),
    "game a list": (json.dumps(a_record() | {"game": ["pig"]}), "game"),
}


def test_the_cases_are_what_they_say() -> None:
    assert '"seed": ' + "9" * 5000 in CASES["a 5,000-digit number"][0]
    assert '"seed": NaN' in CASES["NaN"][0]


@pytest.mark.parametrize("command", ["verify", "replay", "play --load"])
@pytest.mark.parametrize("case", list(CASES))
def test_a_malformed_record_is_one_line(command: str, case: str, tmp_path: Path) -> None:
    text, needle = CASES[case]
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    done = ludica(*command.split(), str(path))
    out = done.stdout + done.stderr
    assert done.returncode == 2, out
    assert "Traceback" not in out, out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("ludica: "), out
    assert needle.lower() in out.lower(), out


def test_a_sound_record_still_replays(tmp_path: Path) -> None:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(a_record()), encoding="utf-8")
    assert ludica("replay", str(path)).returncode == 0
    assert ludica("verify", str(path)).returncode == 0
