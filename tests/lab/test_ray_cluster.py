"""Ray as Ray documents it (issue 18): a cluster started with ``ray start --head`` serves
``--ray ADDRESS`` and ``RAY_ADDRESS`` with plain ``--ray``, token authentication included (a
token in ``~/.ray/auth_token`` makes ``ray start`` require it — Ray's default once any local
``ray.init()`` has made one).

One small cluster (1 CPU, loopback) for the module; skipped when Ray is not installed. It is
stopped by ending its own ``ray start --block`` process group, never with ``ray stop``, which
would stop every Ray of the machine.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("ray")

CODE = "import sys; from ludica.cli import main; sys.exit(main(sys.argv[1:]))"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ray_command() -> str:
    found = Path(sys.executable).with_name("ray")
    return str(found) if found.exists() else shutil.which("ray") or "ray"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    home = tmp_path_factory.mktemp("ray-home")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env |= {"HOME": str(home), "RAY_USAGE_STATS_ENABLED": "0"}
    subprocess.run([ray_command(), "get-auth-token", "--generate"], env=env, check=True, capture_output=True)
    port = free_port()
    head = subprocess.Popen(
        [ray_command(), "start", "--head", "--block", "--port", str(port), "--num-cpus", "1",
         "--node-ip-address", "127.0.0.1", "--include-dashboard", "false", "--disable-usage-stats"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 180
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert head.poll() is None and time.monotonic() < deadline, "ray start --head did not come up"
            time.sleep(1)
        yield f"127.0.0.1:{port}", env
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)


def simulate(env: dict[str, str], tmp_path: Path, *ray: str) -> list[dict[str, object]]:
    out = tmp_path / "games.jsonl"
    args = ["simulate", "pig", "--games", "3", "--seed", "5", *ray, "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-c", CODE, *args], env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0 and "Traceback" not in said, said
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def one_process(tmp_path: Path) -> list[dict[str, object]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    return simulate(env, tmp_path)


def test_ray_address_on_the_command_line(cluster: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    address, env = cluster
    assert simulate(env, tmp_path, "--ray", address) == one_process(tmp_path)


def test_ray_address_in_the_environment(cluster: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    address, env = cluster
    assert simulate(env | {"RAY_ADDRESS": address}, tmp_path, "--ray") == one_process(tmp_path)
