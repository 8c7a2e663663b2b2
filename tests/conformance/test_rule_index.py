"""The rule index guards itself: every heading of each rulebook and every ruling has an
implementation and a test, every ``Rule:`` tag names something that exists, and
``docs/rules/<game>-index.md`` is what ``scripts/rule_index.py`` generates from the code."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests.by_path import load_script

ROOT = Path(__file__).resolve().parents[2]


TOOL = load_script("scripts/rule_index.py")


@pytest.mark.parametrize("book", TOOL.BOOKS, ids=lambda b: b.game)
def test_every_heading_and_ruling_has_code_and_a_test(book) -> None:
    index = TOOL.build(book)
    assert index.problems == [], "\n".join(index.problems)


@pytest.mark.parametrize("book", TOOL.BOOKS, ids=lambda b: b.game)
def test_the_index_page_is_the_generated_one(book) -> None:
    index = TOOL.build(book)
    assert book.index_doc.read_text(encoding="utf-8") == TOOL.render(index), (
        f"{book.index_doc.name} is stale: run python scripts/rule_index.py"
    )


def test_a_tag_naming_nothing_is_caught(tmp_path: Path, monkeypatch) -> None:
    book = TOOL.BOOKS[0]
    known = TOOL.read_book(book)
    bad = tmp_path / "bad.py"
    bad.write_text('def f():\n    """Rule: [No Such Heading]; R-GC-99"""\n\n\ndef g():\n    """Rule: [Initiative]"""\n')
    monkeypatch.setattr(TOOL, "ROOT", tmp_path)
    cites = TOOL.citations(bad, book, known)
    unknown = [u for c in cites for u in c.unknown]
    assert "[No Such Heading]" in unknown and "R-GC-99" in unknown
    assert [c.headings for c in cites if c.place == "g"] == [["Initiative"]]


def test_a_heading_without_a_test_is_reported(monkeypatch) -> None:
    book = dataclasses.replace(TOOL.BOOKS[0], tests=("no_such_folder",))
    monkeypatch.setattr(TOOL, "SHARED_TESTS", ())
    problems = TOOL.build(book).problems
    assert any("[Initiative] has no test" in p for p in problems)
