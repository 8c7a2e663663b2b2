"""The documentation builds into a searchable static site (``mkdocs.yml``, MkDocs with Material)
with ``mkdocs build --strict``: no warning, no link to a missing page or anchor. Skipped only where
MkDocs is not installed and this is not CI (the ``dev`` extra installs it)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _mkdocs() -> list[str]:
    beside = Path(sys.executable).with_name("mkdocs")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("mkdocs")
    if found:
        return [found]
    if os.environ.get("CI"):
        pytest.fail("mkdocs is missing: the dev extra installs mkdocs-material")
    pytest.skip("mkdocs is not installed (pip install 'ludica[dev]')")


def test_the_site_builds_strict_without_warnings(tmp_path: Path) -> None:
    command = [*_mkdocs(), "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path)]
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-4000:]
    assert not re.search(r"^WARNING", out, re.M), out[-4000:]
    assert (tmp_path / "index.html").exists()
    assert (tmp_path / "search" / "search_index.json").exists(), "the site is searchable"
    assert (tmp_path / "reference" / "cli" / "index.html").exists()


def test_every_guide_is_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in ("playing.md", "hosting.md", "designing.md", "writing-bots.md", "learning.md", "adding-a-game.md"):
        assert f": {page}" in nav, page
