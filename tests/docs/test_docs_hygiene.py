"""The guides are for readers; their history is in ``benchmarks/HISTORY.md`` and in git.

Every page of ``docs/`` (and the README): no heading is a date, no text names an issue number or
a work branch, and the three long guides stay under 600 lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ELSEWHERE: set[str] = set()
"""Pages being rewritten on their own (the lab's guide): checked once that rewrite lands."""
PAGES = [
    page
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    if page.relative_to(ROOT).as_posix() not in ELSEWHERE
]
MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
DATE = re.compile(
    rf"\b\d{{4}}-\d\d-\d\d\b|\b\d{{1,2}} (?:{MONTHS})\b|\b(?:{MONTHS}) \d{{1,2}}\b|\b(?:{MONTHS}) \d{{4}}\b"
)
ISSUE = re.compile(r"\b(?:issues?|PR|pull request) #?\d+", re.I)
BRANCH = re.compile(r"\bi\d{2}[a-z]\w*\b|\bbranch(?:es)? [`']?[\w/-]+[`']?")
SESSION = re.compile(r"\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth) (?:pass|session)\b", re.I)
LONG_GUIDES = ("env.md", "table.md", "bots.md")


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _prose(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of a page outside its code blocks."""
    out: list[tuple[int, str]] = []
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            out.append((number, line))
    return out


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_no_heading_is_a_date(page: Path) -> None:
    dated = [f"{_rel(page)}:{n}: {line}" for n, line in _prose(page) if line.startswith("#") and DATE.search(line)]
    assert not dated, "a heading is a date (history belongs in benchmarks/HISTORY.md):\n" + "\n".join(dated)


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_no_page_names_an_issue_a_branch_or_a_pass(page: Path) -> None:
    found = [
        f"{_rel(page)}:{n}: {m.group(0)!r} in {line.strip()[:100]}"
        for n, line in _prose(page)
        for pattern in (ISSUE, BRANCH, SESSION)
        for m in pattern.finditer(line)
    ]
    assert not found, "issue numbers, branch names and work passes mean nothing to a reader:\n" + "\n".join(found)


@pytest.mark.parametrize("name", LONG_GUIDES)
def test_the_long_guides_stay_short(name: str) -> None:
    lines = (ROOT / "docs" / name).read_text(encoding="utf-8").count("\n")
    assert lines < 600, f"docs/{name} has {lines} lines: move measurements of past passes to benchmarks/HISTORY.md"


def test_the_history_is_outside_the_guides() -> None:
    assert (ROOT / "benchmarks" / "HISTORY.md").is_file()
