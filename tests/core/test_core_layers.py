"""Dependencies flow one way (DESIGN.md principle 9): ``core`` <- ``games`` <- (``bots``, ``lab``,
``env``) <- (``table``, ``cli``). Read from the sources (every ``import``, at any depth, lazy ones
included), so a test passes on both builds alike."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "ludica"
ABOVE_GAMES = ("bots", "lab", "env", "table", "cli", "terminal")
FORBIDDEN = {
    "core": ("games", *ABOVE_GAMES),
    "games": ABOVE_GAMES,
}


def module_of(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports from the ``ludica`` package: (line, absolute module name)."""
    name = module_of(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            out += [(node.lineno, f"{source}.{alias.name}" if not node.module else source) for alias in node.names]
    return [(line, module) for line, module in out if module == "ludica" or module.startswith("ludica.")]


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def allowed(path: Path, target: str) -> bool:
    """A game's bot plugin (``games/<game>/bot.py``) is the one place a game meets the bots."""
    return path.name == "bot.py" and layer(target) == "bots"


def violations(source_layer: str) -> list[str]:
    found = []
    for path in sorted((PACKAGE / source_layer).rglob("*.py")):
        for line, target in imports(path):
            if layer(target) in FORBIDDEN[source_layer] and not allowed(path, target):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    return found


@pytest.mark.parametrize("source_layer", sorted(FORBIDDEN))
def test_no_import_runs_upward(source_layer: str) -> None:
    assert violations(source_layer) == []


def test_the_walk_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    """The checker itself: an import inside a function, relative, is found and resolved."""
    path = PACKAGE / "core" / "game.py"
    found = dict((target, line) for line, target in imports(path))
    assert "ludica.core.summary" in found and "ludica.core.actions" in found
    module = PACKAGE / "games" / "euphoria" / "stats.py"
    assert any(target == "ludica.core.summary" for _, target in imports(module))
    assert layer("ludica.lab.stats") == "lab" and layer("ludica.cli") == "cli"
