"""The reference pages (``docs/reference/*.md``) are what ``scripts/gen_reference.py`` makes of
the code: the command line, each game's options, the environments' action and observation
layouts, the WebSocket messages and the record format. A change to any of them in the code
without ``python scripts/gen_reference.py`` fails here, naming the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.by_path import load_script

ROOT = Path(__file__).resolve().parents[2]


GEN = load_script("scripts/gen_reference.py")


@pytest.mark.parametrize("name", list(GEN.PAGES))
def test_the_reference_page_is_the_code_s(name: str) -> None:
    if name in ("actions.md", "observations.md"):
        pytest.importorskip("numpy")
    page = ROOT / "docs" / "reference" / name
    assert page.exists(), f"docs/reference/{name} is missing: run python scripts/gen_reference.py"
    assert page.read_text(encoding="utf-8") == GEN.render(name), (
        f"docs/reference/{name} differs from the code: run python scripts/gen_reference.py"
    )


def test_every_message_type_and_record_field_is_described() -> None:
    assert set(GEN.client_types()) <= set(GEN.CLIENT_MESSAGES)
    assert set(GEN.server_types()) <= set(GEN.SERVER_MESSAGES)
    assert set(GEN.record_fields()) <= set(GEN.RECORD_FIELDS)
    assert {"act", "hello"} <= set(GEN.client_types()) and {"state", "refused"} <= set(GEN.server_types())
    assert {"format", "actions", "digest", "start"} <= set(GEN.record_fields())
