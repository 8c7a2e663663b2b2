"""``play --load`` runs the bots a file names only under the web table's ceilings (issue 39, point 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .test_untrusted_records import a_record, ludica


@pytest.mark.parametrize(
    ("spec", "option"),
    [
        ("ismcts:playouts=999999999", "playouts"),
        ("ismcts:seconds=1e9", "seconds"),
        ("ismcts:horizon=100000", "horizon"),
        ("ismcts:seconds=inf", "seconds"),
    ],
)
def test_a_saved_bot_above_the_ceiling_is_refused(spec: str, option: str, tmp_path: Path) -> None:
    data = a_record()
    data["play"] = {"bots": {"p2": spec}}
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = ludica("play", "--load", str(path))
    assert done.returncode == 2, done.stderr[-400:]
    said = done.stdout + done.stderr
    assert "Traceback" not in done.stderr and f"{option}=" in said and "p2" in said, said[-400:]
