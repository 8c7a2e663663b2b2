"""The two builds of the rules kernels (pure Python and compiled with mypyc) play the same games.

Records written by one build replay on the other to the same digest, and each build's own digests
agree, for every game. Each build runs in its own process (``LUDICA_PURE=1`` for the pure one);
where this installation has no compiled kernels both processes run pure and the test says so by
skipping. Also: the stale-build guard (``ludica/_build.py``) never lets an edited source run
compiled.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ludica import _build
from ludica.core import available

HELPER = """
import json, random, sys
from ludica._build import build
from ludica.bots.random_bot import play_random
from ludica.core import Match, get_game
from ludica.core.records import record_of, replay_record
from ludica.lab.playthrough import default_config

mode, games = sys.argv[1], sys.argv[2:]
out = {"build": build(), "records": [], "digests": []}
if mode == "write":
    for game_id in games:
        for seed in (3, 4):
            match = Match(get_game(game_id), default_config(game_id, seed=seed))
            play_random(match, random.Random(seed))
            out["records"].append(record_of(match))
else:
    for record in json.load(sys.stdin):
        out["digests"].append(replay_record(record).digest())
print(json.dumps(out))
"""


def _run(build: str, mode: str, stdin: str = "") -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "LUDICA_PURE"}
    if build == "pure":
        env["LUDICA_PURE"] = "1"
    result = subprocess.run(
        [sys.executable, "-c", HELPER, mode, *available()],
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def test_records_replay_across_builds() -> None:
    pure = _run("pure", "write")
    native = _run("default", "write")
    assert pure["build"] == "pure"
    # the same seeds give the same games, action for action, in both builds
    assert [r["actions"] for r in pure["records"]] == [r["actions"] for r in native["records"]]
    assert [r["digest"] for r in pure["records"]] == [r["digest"] for r in native["records"]]
    on_native = _run("default", "replay", json.dumps(pure["records"]))
    on_pure = _run("pure", "replay", json.dumps(native["records"]))
    assert on_native["digests"] == [r["digest"] for r in pure["records"]]
    assert on_pure["digests"] == [r["digest"] for r in native["records"]]
    if native["build"] != "compiled":
        pytest.skip("this installation has no compiled kernels: both sides ran pure Python")


def test_an_edited_source_never_runs_compiled(tmp_path: Path) -> None:
    """A stamp that no longer matches a source sets the compiled modules aside."""
    package = tmp_path / "ludica"
    (package / "core").mkdir(parents=True)
    source = package / "core" / "game.py"
    source.write_text("X = 1\n")
    _build.write_stamp(package / _build.STAMP, _build.fingerprints(tmp_path))
    stamp = json.loads((package / _build.STAMP).read_text())
    assert stamp["modules"]["ludica.core.game"]["file"] == "core/game.py"
    modules = stamp["modules"]
    assert list(_build._changed(package, modules)) == []
    source.write_text("X = 2\n")
    assert list(_build._changed(package, modules)) == ["core/game.py"]
    assert not _build.up_to_date(package)


def test_the_build_is_named() -> None:
    assert _build.build() in ("compiled", "pure")
    assert _build.describe().startswith(("compiled", "pure"))


def test_version_says_which_build_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from ludica.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("ludica ") and ("compiled kernels" in out or "pure Python" in out)


def test_pure_is_forced_by_the_environment() -> None:
    env = {**os.environ, "LUDICA_PURE": "1"}
    result = subprocess.run(
        [sys.executable, "-c", "from ludica._build import build, describe; print(build(), describe())"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("pure pure Python")
