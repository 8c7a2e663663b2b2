"""Installing Ludica prints no warning of ours (issue 18, point 8).

Building the package's wheel with the venv's own setuptools (what ``pip install`` runs) must not
print a deprecation warning about our packaging metadata (``project.license`` as a table was one).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_building_the_wheel_prints_no_warning_of_ours(tmp_path: Path) -> None:
    env = {**os.environ, "LUDICA_PURE": "1"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    said = [
        line
        for line in (done.stdout + done.stderr).splitlines()
        if "is ignored: it is neither a file nor a directory" not in line  # the machine's pip config
    ]
    assert not [line for line in said if "arning" in line or "eprecat" in line], "\n".join(said)
    assert list(tmp_path.glob("ludica-*.whl"))


def test_setup_keeps_the_editable_notice_off_the_screen() -> None:
    setup = (ROOT / "scripts" / "setup").read_text()
    assert 'PYTHONWARNINGS="ignore:Editable installation"' in setup
