"""``ludica serve`` with a database it cannot open ends with one line naming ``--db``, never a
traceback (a URL is the user's input)."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_unreachable_database_is_one_line(workers: str) -> None:
    url = "postgresql://nobody@nohost.invalid:5432/db"
    command = [sys.executable, "-c", "import sys; from ludica.cli import main; sys.exit(main())"]
    command += ["serve", "--no-browser", "--port", "8799", "--workers", workers, "--db", url]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "cannot open the database given by --db" in proc.stderr
