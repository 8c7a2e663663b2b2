"""The README is executable: every command in the code blocks of ``README.md`` and
``docs/*.md``, and every ``ludica …`` / ``bash scripts/run …`` a sentence tells the reader to
type, runs on the installed build — to its end with small sizes, ``play`` through a
pseudo-terminal for a few answers and ``quit``, ``serve`` until it answers HTTP. A command that
fails or prints a traceback fails the test, named by the command.

What is changed before a command runs, and what is not run, is the explicit table below
(:data:`REWRITES`, :data:`SKIPS`), each with its reason. Every command runs in a fresh folder
with its own home (saves and the web table's database go there), and ``ludica`` is the
console script of the Python that runs the tests.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.S | re.M)
INLINE = re.compile(r"`((?:\.venv/bin/)?ludica [^`]+|bash scripts/run[^`]*|\.venv/bin/python benchmarks/[^`]+)`")
COMMAND = re.compile(r"^(?:[A-Z_]+=\S+ )*(?:\.venv/bin/\w+|ludica|bash scripts/\w+|pip install)\b")
TIMEOUT = 120
"""Seconds one command may take (they take a few; a hang fails, it does not stall the suite)."""


# -- the table of skips and rewrites --------------------------------------------------------------
PLACEHOLDER = re.compile(r"(?<![\w/.=-])(?:[A-Z][A-Z_]+|N|P|S)(?![\w/])|\[|…(?!\.json)")
SKIPS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^bash scripts/test\b"), "the test suite itself: it runs this test"),
    (
        re.compile(r"^bash scripts/docs\b"),
        "serves the documentation site until stopped: tests/docs/test_site.py builds the same site strict",
    ),
    (re.compile(r"^pip install\b"), "installs from the network; each extra's own tests import what it installs"),
    (
        re.compile(r"\bray (start|stop)\b|--ray [^\[]|RAY_ADDRESS="),
        "a Ray cluster: tests/lab/test_ray_cluster.py starts one on a free loopback port, plays on it with "
        "--ray ADDRESS and RAY_ADDRESS, and ends only it ('ray stop' would stop every Ray of the machine)",
    ),
    (
        re.compile(r"^\.venv/bin/python benchmarks/"),
        "a benchmark: minutes of timing on a quiet machine, not a check",
    ),
    (
        re.compile(r"^ludica (simulate|compare|verify|play|replay|tournament|report)( --physical)?$"),
        "a command named in a sentence, without its arguments: its runnable forms are in the code blocks, "
        "its --help in tests/cli/test_help.py",
    ),
]
"""Commands not run here, each with the reason."""

SYNOPSIS = "a synopsis (placeholders such as GAME, N, [--option]): its subcommand's --help is run instead"
"""``ludica simulate GAME --games N …`` is not a command but its form: ``ludica simulate --help``
shows the subcommand exists (a synopsis naming a command Ludica does not have fails)."""

REWRITES: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str], str]] = [
    (re.compile(r"--games \d+"), "--games 3", "small sizes: three games show the command works"),
    (
        re.compile(r"\bismcts(?::[\w=.;]+(?:\+[\w=.;]+)*)?(?=[,\s]|$)"),
        "ismcts:playouts=2;horizon=10;policy=random",
        "two short random playouts: the bot's strength is not under test, the command is (';' becomes the "
        "command's own separator: '+' in tournament --bots, ',' in --bot)",
    ),
    (
        re.compile(r"~/\.local/share/ludica/saves/great-city-….json"),
        "~/.local/share/ludica/saves/great-city-readme.json",
        "the save the reader has: the fixture saves a game of great-city there",
    ),
    (
        re.compile(r"^(bash scripts/run)$"),
        r"\1 serve",
        "scripts/run with no arguments is 'ludica serve' (its own script says so)",
    ),
    (
        re.compile(r"^\.venv/bin/python (?!benchmarks/)"),
        f"{shlex.quote(sys.executable)} ",
        "the Python of the set-up .venv is the one that runs the tests (the command runs in a fresh folder)",
    ),
    (
        re.compile(r"(?<= )examples/"),
        f"{shlex.quote(str(ROOT / 'examples'))}/",
        "the repository's examples, from the fresh folder the command runs in",
    ),
    (
        re.compile(r"^(.*\bserve)\b(.*)$"),
        r"\1 --port PORT --no-browser\2",
        "a free port (8000 may be taken) and no browser to open in a test",
    ),
]
"""(pattern, replacement, reason): applied in order to every command that runs."""


def scripts_run_ready() -> bool:
    return (ROOT / ".venv" / "bin" / "ludica").exists()


SCRIPTS_RUN = (
    re.compile(r"^bash scripts/run\b"),
    "ludica",
    "scripts/run sets up .venv (done by CI's fresh clone), then runs ludica ARGS: without a set-up .venv here, "
    "ludica ARGS is run",
)


# -- finding the commands --------------------------------------------------------------------------
def clean(line: str) -> str:
    line = re.sub(r"\s+#.*$", "", line.strip())
    return " ".join(line.split()).replace(".venv/bin/ludica", "ludica")


def documented() -> Iterator[tuple[str, str]]:
    """(where, command) for every command of the documents, in order."""
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT).as_posix()
        for block in FENCE.finditer(text):
            for line in block.group(1).replace("\\\n", " ").splitlines():
                command = clean(line)
                if COMMAND.match(command):
                    yield where, command
        prose = FENCE.sub("", text)
        for span in INLINE.finditer(prose.replace("\n", " ")):
            yield where, clean(span.group(1))


def skip_reason(command: str) -> str | None:
    for pattern, reason in SKIPS:
        if pattern.search(command):
            return reason
    return None


def synopsis_help(command: str) -> str:
    """``ludica compare GAME --a KEY=VALUE …`` -> ``ludica compare --help``."""
    words = command.replace("bash scripts/run", "ludica").split()
    sub = words[1] if len(words) > 1 and re.fullmatch(r"[a-z]+", words[1]) else ""
    return f"ludica {sub} --help".replace("  ", " ")


def rewritten(command: str) -> str:
    if PLACEHOLDER.search(command):
        return synopsis_help(command)
    for pattern, replacement, _reason in REWRITES:
        command = pattern.sub(replacement, command)  # type: ignore[arg-type]
    if not scripts_run_ready():
        command = SCRIPTS_RUN[0].sub(SCRIPTS_RUN[1], command)
    return command.replace(";", "+" if "--bots" in command else ",")


def cases() -> list[pytest.param]:
    seen: set[str] = set()
    out = []
    for where, command in documented():
        if command in seen:
            continue
        seen.add(command)
        reason = skip_reason(command)
        marks = [pytest.mark.skip(reason=reason)] if reason else []
        out.append(pytest.param(command, id=f"{where}: {command}", marks=marks))
    return out


# -- running them ------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A reader's home: a finished record ``game.json`` in the working folder, a saved game."""
    from ludica.bots.random_bot import RandomBot
    from ludica.core import Config, Match, get_game
    from ludica.core.records import save_record

    home = tmp_path_factory.mktemp("home")
    saves = home / ".local" / "share" / "ludica" / "saves"
    saves.mkdir(parents=True)
    import random

    pig: Match[object] = Match(get_game("pig"), Config(("Ann", "Bob"), {}, 5))
    bot, rng = RandomBot(random.Random(5)), random.Random(5)
    while not pig.is_over():
        pending = pig.pending()
        if pending.is_chance:
            pig.deal()
        else:
            pig.apply(bot.choose(pig, pending.seats[rng.randrange(len(pending.seats))]))
    save_record(pig, home / "game.json")
    city: Match[object] = Match(get_game("great-city"), Config(("Ann", "Bob", "Cat"), {}, 5))
    city.run_chance()
    save_record(city, saves / "great-city-readme.json")
    return home


def environment(home: Path) -> dict[str, str]:
    bin_dir = home / "bin"
    if not bin_dir.exists():
        bin_dir.mkdir()
        installed = Path(sys.executable).with_name("ludica")
        runner = (
            shlex.quote(str(installed))
            if installed.exists()
            else (f"{shlex.quote(sys.executable)} -c 'import sys; from ludica.cli import main; sys.exit(main())'")
        )
        (bin_dir / "ludica").write_text(f'#!/bin/sh\nexec {runner} "$@"\n', encoding="utf-8")
        (bin_dir / "ludica").chmod(0o755)
    return dict(
        os.environ,
        HOME=str(home),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        COLUMNS="100",
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )


def scripts_run(command: str) -> str:
    return re.sub(r"^bash scripts/run\b", f"bash {shlex.quote(str(ROOT / 'scripts' / 'run'))}", command)


def assert_clean(command: str, status: int | None, out: str, ok: tuple[int, ...] = (0,)) -> None:
    assert "Traceback" not in out, f"{command}\n{out[-3000:]}"
    assert status in ok, f"{command}: exit status {status}\n{out[-3000:]}"


def run_to_end(command: str, env: dict[str, str], cwd: Path) -> None:
    proc = subprocess.Popen(
        ["bash", "-c", f"set -o pipefail; {scripts_run(command)}"],
        env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        out, _ = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the command and its workers, nothing left behind
        proc.communicate()
        pytest.fail(f"{command}: still running after {TIMEOUT} s")
    # `ludica … | head` ends quietly with status 1 when head stops reading (README: "ends quietly")
    assert_clean(command, proc.returncode, out, (0, 1) if "| head" in command else (0,))


ANSWERS = ["1", "", "1", "", "2"]
"""A few answers, whatever the prompt (a refused one is said and asked again), then ``quit``."""


def run_interactively(command: str, env: dict[str, str], cwd: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = env | {"COLUMNS": "80", "LINES": "24", "TERM": "xterm"}
    child = pexpect.spawn(
        "bash", ["-c", "exec " + scripts_run(command)], env=env, cwd=str(cwd), dimensions=(24, 80), encoding="utf-8",
        timeout=TIMEOUT,
    )  # fmt: skip
    seen: list[str] = []

    def settle() -> None:
        """Read until the program has said nothing for a second (it waits for an answer), or ends."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            try:
                seen.append(child.read_nonblocking(100_000, timeout=1.0))
            except pexpect.TIMEOUT:
                return
            except pexpect.EOF:
                return

    try:
        for answer in [*ANSWERS, "quit"]:
            settle()
            if not child.isalive():
                break
            child.sendline(answer)
        child.expect(pexpect.EOF, timeout=30)
        seen.append(child.before or "")
    finally:
        child.close(force=True)
    out = "".join(seen)
    assert_clean(command, child.exitstatus, out)
    assert "Nothing is lost" in out or "The game is over" in out, f"{command}\n{out[-3000:]}"


def run_server(command: str, env: dict[str, str], cwd: Path) -> None:
    port = free_port()
    log = (cwd / "serve.log").open("w+", encoding="utf-8")
    proc = subprocess.Popen(
        ["bash", "-c", "exec " + scripts_run(command.replace("PORT", str(port)))],
        env=env, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + TIMEOUT
        while True:
            assert proc.poll() is None, f"{command} ended: {Path(log.name).read_text()}"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                    assert answer.status == 200
                break
            except OSError:
                assert time.monotonic() < deadline, f"{command} never answered"
                time.sleep(0.3)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
        try:
            status = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            status = proc.wait()
    log.seek(0)
    assert_clean(command, status, log.read())


# -- the test ------------------------------------------------------------------------------------------
def test_the_documents_have_commands() -> None:
    found = [command for _where, command in documented()]
    assert len(found) >= 30
    for needed in ("ludica games", "ludica serve", "ludica verify game.json"):
        assert needed in found


def test_every_rewrite_and_skip_is_used() -> None:
    found = [command for _where, command in documented()]
    for pattern, _replacement, reason in REWRITES:
        assert any(pattern.search(rewritten_prefix(c, pattern)) for c in found), reason
    for pattern, reason in SKIPS:
        assert any(pattern.search(c) for c in found), reason


def rewritten_prefix(command: str, stop: re.Pattern[str]) -> str:
    """The command with the rewrites before ``stop`` applied (``serve`` gets its port after the
    bare ``scripts/run`` became ``scripts/run serve``)."""
    for pattern, replacement, _reason in REWRITES:
        if pattern is stop:
            return command
        command = pattern.sub(replacement, command)  # type: ignore[arg-type]
    return command


@pytest.mark.parametrize("command", cases())
def test_documented_command(command: str, home: Path, tmp_path: Path) -> None:
    env = environment(home)
    cwd = tmp_path
    (cwd / "game.json").write_bytes((home / "game.json").read_bytes())
    ready = rewritten(command)
    words = ready.split()
    after = words[2:] if words[:2] == ["bash", "scripts/run"] else words[1:]
    if "--help" in after:
        run_to_end(ready, env, cwd)
    elif after[:1] == ["serve"]:
        run_server(ready, env, cwd)
    elif after[:1] == ["play"]:
        run_interactively(ready, env, cwd)
    else:
        run_to_end(ready, env, cwd)
