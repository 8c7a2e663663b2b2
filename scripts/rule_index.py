"""The rule index: from a rulebook heading or a ruling to the code that implements it and the tests
that pin it, generated from the code (``docs/rules/<game>-index.md``).

Citations in the code and the tests:

* the tag ``Rule: <ref>; <ref>…`` on a line of a docstring or a comment, where a ref is a ruling id
  (``R-GC-30``, ``R-EU-07``, ``MB-R41``, ``LD-R14``, Euphoria's settled points ``EU-SP9``) or a
  rulebook heading in brackets (``[Running A Scene]``);
* a ruling id written anywhere in a docstring or a comment (``"… (R-GC-39)"``) counts as well, and so
  do a heading of the game's list written in brackets (``**[END GAME]**``) and the rule a refusal
  names (``refuse("…", "R-GC-21", …)``); only a ``Rule:`` tag must name something that exists.

The headings (each rulebook's table of contents, its rule-bearing part) and the rulings (id, the
question it settles, the answer) are in ``docs/rules/<game>-rulings.md``; a ruling whose answer
needs no code (it is about what people say) is marked ``Code: none`` with the reason, and then needs
no implementation, only its test if it has one.

    python scripts/rule_index.py            # write docs/rules/<game>-index.md for every game
    python scripts/rule_index.py --check    # exit 1 with the problems: a heading or ruling with no
                                            # implementation or no test, a tag naming nothing,
                                            # an index that is not the generated one

Only the standard library; the code is read, never imported.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import io
import itertools
import re
import sys
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class GameBook:
    """Where one game's rules live: its package, its tests, its documents and its ruling ids."""

    game: str
    title: str
    package: str
    tests: tuple[str, ...]
    ruling: str  # a regular expression matching this game's ruling ids
    test_name: str  # the same id as written in a test function's name (``test_r_gc_30_…``)

    @property
    def rulings_doc(self) -> Path:
        return ROOT / "docs" / "rules" / f"{self.game}-rulings.md"

    @property
    def index_doc(self) -> Path:
        return ROOT / "docs" / "rules" / f"{self.game}-index.md"


BOOKS = (
    GameBook("great-city", "The Great City", "great_city", ("great_city",), r"R-GC-\d\d", r"(?<![a-z])r_gc_\d+"),
    GameBook("euthymia", "Euthymia", "euthymia", ("euthymia",), r"R-EU-\d\d", r"(?<![a-z])r_eu_\d+"),
    GameBook(
        "misery-bubblegum",
        "Misery Bubblegum",
        "misery_bubblegum",
        ("misery_bubblegum",),
        r"MB-R\d+",
        r"(?<![a-z])mb_r\d+",
    ),
    GameBook(
        "lost-days", "Lost Days of Memories and Madness", "lost_days", ("lost_days",), r"LD-R\d+", r"(?<![a-z])ld_r\d+"
    ),
    GameBook("euphoria", "Euphoria", "euphoria", ("euphoria",), r"\bSP \d+\b", r"(?<![a-z])sp_?\d+"),
)
SHARED_TESTS = ("conformance", "golden", "table", "cli", "bots", "env", "termination")
"""Test folders shared by every game: a test there pins a rule only when it cites it."""

SELF_TEST = "test_rule_index.py"
"""The index's own test, whose examples of tags pin nothing."""

SAYING = ("names.py", "view.py", "bot.py", "bot_view.py", "heuristic.py")
"""Modules that say, show or play the rules (names, views, bots) but decide none: a citation there
is checked, but the index points only at the code that decides."""

TAG = re.compile(r"\bRule:\s*(.+)")
HEADING = re.compile(r"\[([^\[\]]{2,80})\]")


@dataclass
class Entry:
    """A heading or a ruling, with where it is implemented and tested."""

    ref: str
    title: str
    code_none: str = ""
    places: set[str] = field(default_factory=set)
    tests: set[str] = field(default_factory=set)
    subjects: dict[str, str] = field(default_factory=dict)
    """What each place decides of the entry, in the words after its citation (``play_card``: "a card to
    the table"), so that a heading over several functions says which one decides what."""


@dataclass
class Book:
    """One game's headings and rulings, read from its rulings document."""

    headings: dict[str, Entry]
    rulings: dict[str, Entry]

    def heading(self, text: str) -> Entry | None:
        return self.headings.get(_fold(text))


def _fold(heading: str) -> str:
    return " ".join(heading.lower().replace("’", "'").split())


def read_book(book: GameBook) -> Book:
    """The headings (``- [Heading]`` under ``## The rulebook's headings``) and rulings
    (``### ID — question``, with an optional ``Code: none — reason`` line) of one game."""
    headings: dict[str, Entry] = {}
    rulings: dict[str, Entry] = {}
    section = ""
    current: Entry | None = None
    for line in book.rulings_doc.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section, current = line[3:].strip().lower(), None
        elif section.startswith("the rulebook's headings") and line.startswith("- ["):
            names = HEADING.findall(line.split("Code: none")[0])
            entry = Entry(f"[{names[0]}]", names[0], line.partition("Code: none")[2].strip(" —-"))
            for name in names:  # the heading, then the short forms the code may cite it by
                headings[_fold(name)] = entry
        elif line.startswith("### "):
            ref, _, title = line[4:].partition(" — ")
            current = rulings[ref.strip()] = Entry(ref.strip(), title.strip())
        elif current is not None and line.startswith("Code: none"):
            current.code_none = line.removeprefix("Code: none").strip(" —-")
    return Book(headings, rulings)


def comments_and_docstrings(source: str) -> list[tuple[int, str]]:
    """Every (line, text) of a comment or a docstring of a module, class or function."""
    found: list[tuple[int, str]] = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            found.append((tok.start[0], tok.string))
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            found += _string_lines(node.body[0])
        # attribute docstrings (a string right after an assignment) cite too
        for body_field in ("body", "orelse"):
            body = getattr(node, body_field, None)
            if not isinstance(body, list):
                continue
            for before, after in itertools.pairwise(body):
                if isinstance(before, ast.Assign | ast.AnnAssign):
                    found += _string_lines(after)
    return found


def _string_lines(node: ast.stmt) -> list[tuple[int, str]]:
    """The lines of a statement that is a bare string (a docstring), with their line numbers."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
        return [(node.lineno + i, text) for i, text in enumerate(node.value.value.splitlines())]
    return []


def rule_strings(tree: ast.Module, ruling: re.Pattern[str]) -> list[tuple[int, str]]:
    """String constants that are a ruling id and nothing else: the rule a refusal names
    (``refuse("…", "R-GC-21", …)``)."""
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and ruling.fullmatch(node.value)
    ]


def enclosing(tree: ast.Module) -> list[tuple[int, int, str]]:
    """(first line, last line, qualified name) of every function and class, innermost last."""
    spans: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                spans.append((child.lineno, child.end_lineno or child.lineno, name))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return spans


def is_stub(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A function that decides nothing: its body is a docstring, ``pass``, ``...`` or a bare ``return``."""
    body = node.body[1:] if _string_lines(node.body[0]) else node.body
    for stmt in body:
        if isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            continue
        if isinstance(stmt, ast.Return) and (stmt.value is None or isinstance(stmt.value, ast.Constant)):
            continue
        return False
    return True


def stubs(tree: ast.Module) -> set[str]:
    """The qualified names of the stub functions of a module (see :func:`is_stub`)."""
    found: set[str] = set()

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef) and is_stub(child):
                    found.add(name)
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def place_of(spans: list[tuple[int, int, str]], line: int) -> str:
    inner = [s for s in spans if s[0] <= line <= s[1]]
    return max(inner, key=lambda s: s[0])[2] if inner else ""


@dataclass
class Citation:
    """One citation found in a file: where it is and what it names."""

    path: str
    line: int
    place: str
    rulings: list[str]
    headings: list[str]
    tagged: bool
    unknown: list[str]
    text: str = ""


def citations(path: Path, book: GameBook, known: Book) -> list[Citation]:
    """Every citation of one source or test file."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    spans = enclosing(tree)
    rel = str(path.relative_to(ROOT))
    out: list[Citation] = []
    ruling = re.compile(book.ruling)
    texts = comments_and_docstrings(source) + rule_strings(tree, ruling)
    for line, text in texts:
        tag = TAG.search(text)
        rulings = ruling.findall(text)
        headings = [h for h in HEADING.findall(text) if known.heading(h)]
        unknown: list[str] = []
        if tag:
            body = tag.group(1)
            unknown += [f"[{h}]" for h in HEADING.findall(body) if not known.heading(h)]
            unknown += [r for r in ruling.findall(body) if r not in known.rulings]
            bare = HEADING.sub("", ruling.sub("", body)).strip(" ;,.")
            if bare and not rulings and not HEADING.findall(body):
                unknown.append(bare)
        if rulings or headings or unknown:
            out.append(Citation(rel, line, place_of(spans, line), rulings, headings, bool(tag), unknown, text))
    return out


def test_places(path: Path, book: GameBook, known: Book) -> list[tuple[str, list[str], list[str]]]:
    """(test id, rulings, headings) of every test function of a file that cites something: in its
    name (``test_r_gc_30_…``), docstring, comments or strings."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = source.splitlines()
    rel = str(path.relative_to(ROOT))
    ruling = re.compile(book.ruling)
    name_form = re.compile(book.test_name)
    found: list[tuple[str, list[str], list[str]]] = []
    for node, prefix in _test_functions(tree):
        text = "\n".join(lines[node.lineno - 1 : node.end_lineno])
        rulings = set(ruling.findall(text))
        rulings |= {_id_of_name(book, m) for m in name_form.findall(node.name)}
        headings = {known.heading(h).title for h in HEADING.findall(text) if known.heading(h)}  # type: ignore[union-attr]
        if rulings or headings:
            found.append((f"{rel}::{prefix}{node.name}", sorted(rulings), sorted(headings)))
    return found


def _id_of_name(book: GameBook, name: str) -> str:
    """``r_gc_30`` → ``R-GC-30``; ``sp9`` → ``SP 9``."""
    if name.startswith("sp"):
        return "SP " + name.removeprefix("sp").strip("_")
    return name.upper().replace("_", "-")


def _test_functions(tree: ast.Module) -> list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]]:
    found: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
            found.append((node, ""))
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name.startswith("test"):
                    found.append((item, f"{node.name}::"))
    return found


@dataclass
class Index:
    book: GameBook
    known: Book
    problems: list[str]


def build(book: GameBook) -> Index:
    """Read the game's code and tests and fill its headings and rulings with places and tests."""
    known = read_book(book)
    problems: list[str] = []
    package = ROOT / "ludica" / "games" / book.package
    for path in sorted(package.rglob("*.py")):
        empty = stubs(ast.parse(path.read_text(encoding="utf-8")))
        for c in citations(path, book, known):
            where = f"{Path(c.path).name}:{c.place}" if c.place else Path(c.path).name
            if path.name in SAYING or path.parent.name == "web":
                c = dataclasses.replace(c, rulings=[], headings=[])  # checked above, never a place
            if c.place in empty and (c.rulings or c.headings):
                cited = ", ".join([*c.rulings, *(f"[{h}]" for h in c.headings)])
                problems.append(f"{c.path}:{c.line}: {c.place} cites {cited} but decides nothing (a stub)")
                continue
            for r in c.rulings:
                entry = known.rulings.get(r)
                if entry is None:
                    problems.append(f"{c.path}:{c.line}: cites {r}, which is not in {book.rulings_doc.name}")
                else:
                    entry.places.add(where)
            for h in c.headings:
                entry = known.heading(h)
                assert entry is not None
                entry.places.add(where)
                said = subject(c.text, h)
                if said and c.place and where not in entry.subjects:
                    entry.subjects[where] = said
            for u in c.unknown:
                problems.append(f"{c.path}:{c.line}: the tag names {u!r}, which is neither a heading nor a ruling")
    folders = [ROOT / "tests" / t for t in (*book.tests, *SHARED_TESTS)]
    for folder in folders:
        for path in sorted(folder.rglob("test_*.py")) if folder.is_dir() else []:
            if path.name == SELF_TEST:
                continue
            for test, rulings, headings in test_places(path, book, known):
                for r in rulings:
                    if r in known.rulings:
                        known.rulings[r].tests.add(test)
                for h in headings:
                    known.heading(h).tests.add(test)  # type: ignore[union-attr]
    for entry in _unique(known.headings):
        if not entry.places and not entry.code_none:
            problems.append(f"{book.game}: the heading {entry.ref} has no implementation (no Rule: tag cites it)")
        if not entry.tests and not entry.code_none:
            problems.append(f"{book.game}: the heading {entry.ref} has no test that cites it")
    for entry in known.rulings.values():
        if not entry.places and not entry.code_none:
            problems.append(f"{book.game}: the ruling {entry.ref} has no implementation (and is not 'Code: none')")
        if not entry.tests and not entry.code_none:
            problems.append(f"{book.game}: the ruling {entry.ref} has no test that cites it")
    return Index(book, known, problems)


SUBJECT = re.compile(r"^\**\s*[:,—-]?\s*([a-z][^.,;()\[\]]{3,70}?)\s*([.,;:()\[\]]|$)")


def subject(text: str, heading: str) -> str:
    """The words that follow a heading's citation in a docstring (``**[The Conflict]** a card to the
    table; …`` -> ``a card to the table``), or "" when it is not followed by a clause of its own."""
    after = text.partition(f"[{heading}]")[2]
    found = SUBJECT.match(after.strip())
    words = len(found.group(1).split()) if found else 0
    if found is None or words < 2 or (not found.group(2) and words < 3):
        return ""  # nothing, or a clause the line cuts short
    return found.group(1).strip()


def _unique(entries: dict[str, Entry]) -> list[Entry]:
    """Each entry once (a heading is filed under its short forms too), in the document's order."""
    seen: dict[int, Entry] = {}
    for entry in entries.values():
        seen.setdefault(id(entry), entry)
    return list(seen.values())


def _cell(items: set[str], limit: int = 6, subjects: dict[str, str] | None = None) -> str:
    ordered = sorted(items)
    said = subjects or {}
    shown = ", ".join(f"`{i}`" + (f" ({said[i]})" if i in said else "") for i in ordered[:limit])
    return shown + (f" and {len(ordered) - limit} more" if len(ordered) > limit else "") if ordered else "—"


def render(index: Index) -> str:
    """The index page of one game, in Markdown."""
    book, known = index.book, index.known
    out = [
        f"# {book.title} — rule index",
        "",
        "Generated by `python scripts/rule_index.py` from the `Rule:` tags (and ruling ids) in the code and the",
        f"tests; do not edit by hand. The headings and rulings are in [{book.rulings_doc.name}]"
        f"({book.rulings_doc.name});",
        "`tests/conformance/test_rule_index.py` fails when one has no implementation or no test.",
        "",
        "## The rulebook, heading by heading",
        "",
        "| heading | implemented in (module: function) | pinned by |",
        "|---|---|---|",
    ]
    for entry in _unique(known.headings):
        places = (
            f"none: {entry.code_none}"
            if entry.code_none and not entry.places
            else _cell(entry.places, subjects=entry.subjects)
        )
        out.append(f"| {entry.ref} | {places} | {_cell(entry.tests, 3)} |")
    out += ["", "## Rulings", "", "| ruling | question | implemented in | pinned by |", "|---|---|---|---|"]
    for entry in known.rulings.values():
        places = f"none: {entry.code_none}" if entry.code_none and not entry.places else _cell(entry.places)
        out.append(f"| {entry.ref} | {entry.title} | {places} | {_cell(entry.tests, 3)} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="report problems instead of writing the index")
    parser.add_argument("games", nargs="*", help="game ids (default: all)")
    args = parser.parse_args(argv)
    problems: list[str] = []
    for book in BOOKS:
        if args.games and book.game not in args.games:
            continue
        index = build(book)
        problems += index.problems
        text = render(index)
        if args.check:
            if not book.index_doc.exists() or book.index_doc.read_text(encoding="utf-8") != text:
                doc = book.index_doc.relative_to(ROOT)
                problems.append(f"{doc} is not the generated index: run python scripts/rule_index.py")
        else:
            book.index_doc.write_text(text, encoding="utf-8")
    for p in problems:
        print(p)
    return 1 if args.check and problems else 0


if __name__ == "__main__":
    sys.exit(main())
