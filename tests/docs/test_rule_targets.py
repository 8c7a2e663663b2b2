"""Every row of a rule index (``docs/rules/<game>-index.md``) points at code that decides the rule.

For each place a row names — ``module.py:function`` or a whole ``module.py`` — this walks the
game's source: the function exists, its own docstring or comments cite the row's heading (or one
of its short forms) or ruling, and its body does more than a stub (a docstring, ``pass``, a bare
``return``); a module named alone cites the entry in its own text (a module section). So a row
can neither point at an empty stub nor at a function that does not mention the rule."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.by_path import load_script

ROOT = Path(__file__).resolve().parents[2]


TOOL = load_script("scripts/rule_index.py", "rule_index_targets")
PLACE = re.compile(r"`([\w.]+\.py)(?::([\w.]+))?`")


def rows(book: object) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(reference, implemented-in cell, places) of every row of a game's index page."""
    out = []
    for line in book.index_doc.read_text(encoding="utf-8").splitlines():  # type: ignore[attr-defined]
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("["):
            ref, places = cells[0], cells[1]
        elif len(cells) == 4 and not cells[0].startswith(("ruling", "---")):
            ref, places = cells[0], cells[2]
        else:
            continue
        out.append((ref, places, PLACE.findall(places)))
    return out


def names_of(book: object, ref: str) -> list[str]:
    """The words a citation of ``ref`` may use: a ruling's id, or a heading with its short forms."""
    if not ref.startswith("["):
        return [ref]
    known = TOOL.read_book(book)
    entry = known.heading(ref[1:-1])
    return [f"[{name}]" for name, e in known.headings.items() if e is entry] if entry else [ref]


def cites(text: str, names: list[str]) -> bool:
    folded = " ".join(text.lower().replace("’", "'").split())
    return any(" ".join(n.lower().split()) in folded for n in names)


def own_text(source: str, node: ast.AST | None) -> str:
    """A function's source (its docstring, comments and the rule ids its refusals name), or a
    module's own text (its lines outside every function and class)."""
    lines = source.splitlines()
    if node is None:  # the module's own lines: none inside a function or a class
        inside = {
            n
            for child in ast.walk(ast.parse(source))
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            for n in range(child.lineno, (child.end_lineno or child.lineno) + 1)
        }
        return "\n".join(line for n, line in enumerate(lines, 1) if n not in inside)
    return "\n".join(lines[node.lineno - 1 : node.end_lineno])  # type: ignore[attr-defined]


def find(tree: ast.Module, qualified: str) -> ast.AST | None:
    node: ast.AST = tree
    for part in qualified.split("."):
        children = [
            c
            for c in ast.iter_child_nodes(node)
            if isinstance(c, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and c.name == part
        ]
        if not children:
            return None
        node = children[0]
    return node


@pytest.mark.parametrize("book", TOOL.BOOKS, ids=lambda b: b.game)
def test_every_index_row_points_at_code_that_decides_it(book: object) -> None:
    package = ROOT / "ludica" / "games" / book.package  # type: ignore[attr-defined]
    files = {p.name: p for p in sorted(package.rglob("*.py")) if p.parent.name != "web"}
    wrong: list[str] = []
    checked = 0
    for ref, _cell, places in rows(book):
        names = names_of(book, ref)
        for module, qualified in places:
            path = files.get(module)
            if path is None:
                wrong.append(f"{ref}: {module} is not a module of {book.package}")  # type: ignore[attr-defined]
                continue
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source)
            node = find(tree, qualified) if qualified else None
            where = f"{module}:{qualified}" if qualified else module
            if qualified and node is None:
                wrong.append(f"{ref}: {where} does not exist")
                continue
            if not cites(own_text(source, node), names):
                wrong.append(f"{ref}: {where} does not cite it in its own text")
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and TOOL.is_stub(node):
                wrong.append(f"{ref}: {where} is a stub: it decides nothing")
            checked += 1
    assert checked > 20
    assert not wrong, "\n".join(wrong)


def test_a_stub_may_not_carry_a_rule() -> None:
    source = 'def f(s):\n    """Rule: [Construction Sites]"""\n\n\ndef g(s):\n    """Doc."""\n    return s + 1\n'
    tree = ast.parse(source)
    assert TOOL.stubs(tree) == {"f"}
