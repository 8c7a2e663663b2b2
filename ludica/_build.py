"""Which build of the rules kernels runs: compiled (mypyc) or pure Python.

The rules core and the five games may be compiled with mypyc from the same typed Python
(``setup.py``). A compiled module is a shared library beside its source, and Python prefers it.
This module, imported first by ``ludica/__init__.py``, makes that choice safe:

* ``LUDICA_PURE=1`` in the environment runs the pure Python sources even where compiled modules
  exist (how the tests run both builds from one installation);
* a build writes ``ludica/_compiled.json``, the fingerprint of every source it compiled; when a
  source has changed since (a developer edited it), the compiled modules are set aside and the
  pure sources run, with one warning saying how to rebuild (``bash scripts/setup``). A stale
  compiled module never runs.

It uses the standard library only and never imports the kernels (``setup.py`` loads it too).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

STAMP = "_compiled.json"
"""The fingerprint a compiled build leaves beside ``ludica/__init__.py``."""

GAMES = ("great_city", "euthymia", "misery_bubblegum", "lost_days", "euphoria")
PURE_NAMES = frozenset(
    {"stats.py", "bots.py", "heuristics.py", "errors.py", "names.py", "composer.py", "consequence.py"}
)
"""Modules that stay pure Python: a game's statistics for designers (they import ``lab``, which is
not compiled), the error classes (front ends subclass them), and the words for people
(``names.py``: each game's namer subclasses the core's; ``composer.py``), which front ends use
once per screen, not once per step. A game's heuristic plugin (``bot.py``) is pure too, except
in the games of :data:`COMPILED_BOTS`."""

COMPILED_BOTS = frozenset({"euphoria", "great_city", "euthymia", "lost_days"})
"""The games whose heuristic plugin (``bot.py``) is compiled with their kernel: it runs at every
step of an ISMCTS playout (about half of a playout's time in Euphoria when pure; Lost Days' search
makes 1.19x the playouts a second with its plugin compiled), and it only imports the kernel,
``ludica.bots.base`` (compiled, :data:`BOT_SOURCES`) and ``ludica.bots.text`` (pure Python), whose
classes it uses without subclassing them, so nothing stops mypyc. Misery Bubblegum's plugin stays
pure: its search has no winner to seek, so no playout runs it at every step."""

BOT_SOURCES = ("base.py", "heuristic.py", "ismcts.py", "play.py")
"""The modules of ``ludica/bots`` compiled (their own unit, ``bots``): the bot interface (a
:class:`~ludica.bots.base.Situation` and a :class:`~ludica.bots.base.Decision` are made at every
playout step), the heuristic bot that calls its game's plugin at every step, the search, whose
loop runs once per playout step, and the driver of bots' games (one call per step); the rest of
the package (tournaments, text, seating) stays pure."""

ENV_SOURCES = ("tensor.py", "encoding.py", "driver.py", "heads.py")
"""The modules of ``ludica/env`` compiled (their own unit, ``env``): the observation encoder, which
lays out a seat's view at every environment step (1.4-1.7x faster compiled, 2026-11-27), and the
action catalogue, which indexes the legal actions and decodes the chosen one at every step
(about a third less CPU compiled, 2026-11-27; its classes are pickled by ``__reduce__``, as mypyc's
are not otherwise), and the driver that every adapter steps through (asking who acts, building the
mask, applying the action and dealing chance: about 4 % of The Great City's AEC decision,
2026-11-27), and the action heads' walk (every step of the default ``action="heads"`` form); the
adapters around them (PettingZoo's, Gymnasium's, OpenSpiel's classes) stay pure."""

C_EXTENSIONS = {"ludica.env._tensorc": "env/_tensorc.c"}
"""The hand-written C extensions built with the kernels (module -> source under ``ludica``): the
observation encoder's fast path (``ludica/env/tensor.py`` uses it where the compiled build runs).
Their sources are stamped like the kernels', so an edited one is never run stale."""

LIBRARIES = tuple(f"ludica_kernels_{group}__mypyc" for group in ("core", *GAMES, "bots", "env"))
"""The compiled groups' shared libraries (top-level modules, beside the ``ludica`` package)."""

_state: dict[str, Any] = {"build": "pure", "reason": "no compiled modules"}


def kernel_sources(root: Path) -> list[Path]:
    """The sources compiled into the kernels, under the project ``root``: ``ludica/core`` and the
    five games, less their web faces, :data:`PURE_NAMES` and the bot plugins outside
    :data:`COMPILED_BOTS`; the search of ``ludica/bots`` (:data:`BOT_SOURCES`); and the observation
    encoder of ``ludica/env`` (:data:`ENV_SOURCES`)."""
    return [path for group in kernel_groups(root).values() for path in group]


def extension_sources(root: Path) -> list[Path]:
    """The sources of :data:`C_EXTENSIONS` under the project ``root`` (those that exist)."""
    return [path for rel in C_EXTENSIONS.values() if (path := root / "ludica" / rel).exists()]


def kernel_groups(root: Path) -> dict[str, list[Path]]:
    """:func:`kernel_sources` by compilation unit: the core, one per game (so a change to one
    game recompiles that game only, and the units compile in parallel), then the bots' search and
    the environments' observation encoder."""
    base = root / "ludica"
    dirs = {"core": base / "core", **{game: base / "games" / game for game in GAMES}}
    groups = {
        name: sorted(p for p in folder.rglob("*.py") if "web" not in p.parts and _compiled_name(name, p.name))
        for name, folder in dirs.items()
    }
    groups["bots"] = [path for name in BOT_SOURCES if (path := base / "bots" / name).exists()]
    groups["env"] = [path for name in ENV_SOURCES if (path := base / "env" / name).exists()]
    return groups


def _compiled_name(group: str, name: str) -> bool:
    if name == "bot.py":
        return group in COMPILED_BOTS
    return name not in PURE_NAMES


def module_name(root: Path, source: Path) -> str:
    parts = list(source.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _fingerprint(path: Path) -> dict[str, Any]:
    stat = path.stat()
    return {"sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "mtime_ns": stat.st_mtime_ns, "size": stat.st_size}


def fingerprints(root: Path) -> dict[str, Any]:
    """The fingerprint of every kernel source and C extension source under ``root``, taken when
    the compiler reads them."""
    return {
        module_name(root, p): {"file": str(p.relative_to(root / "ludica")), **_fingerprint(p)}
        for p in (*kernel_sources(root), *extension_sources(root))
    }


def write_stamp(stamp: Path, modules: dict[str, Any]) -> None:
    """Record what a build compiled (called by ``setup.py`` once the build succeeded)."""
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(json.dumps({"compiler": "mypyc", "modules": modules}, indent=1, sort_keys=True))


def _changed(package_dir: Path, modules: dict[str, Any]) -> Iterator[str]:
    """The sources that differ from the stamp: size and mtime first, the hash only on a doubt."""
    for info in modules.values():
        path = package_dir / info["file"]
        try:
            stat = path.stat()
        except OSError:
            yield info["file"]
            continue
        if stat.st_mtime_ns == info["mtime_ns"] and stat.st_size == info["size"]:
            continue
        if stat.st_size != info["size"] or hashlib.sha256(path.read_bytes()).hexdigest() != info["sha256"]:
            yield info["file"]


class _PureFinder:
    """A meta path finder that loads the named kernel modules from their ``.py`` sources."""

    def __init__(self, package_dir: Path, files: dict[str, str]) -> None:
        self.package_dir = package_dir
        self.files = files

    def find_spec(self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> Any:
        rel = self.files.get(name)
        if rel is None:
            return None
        source = self.package_dir / rel
        loader = importlib.machinery.SourceFileLoader(name, str(source))
        search = [str(source.parent)] if source.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(name, source, loader=loader, submodule_search_locations=search)


def _extensions_missing(package_dir: Path) -> list[str]:
    """The :data:`C_EXTENSIONS` whose shared library is not beside its source."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    return [
        name
        for name, rel in C_EXTENSIONS.items()
        if not any((package_dir / rel).with_name(name.rpartition(".")[2] + s).exists() for s in suffixes)
    ]


def _compiled_present(package_dir: Path) -> bool:
    return any((package_dir / "core" / f"game{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def install(package_dir: Path) -> None:
    """Decide the build before the first kernel import (called by ``ludica/__init__.py``)."""
    stamp = package_dir / STAMP
    if not stamp.exists() or not _compiled_present(package_dir):
        return
    try:
        modules: dict[str, Any] = json.loads(stamp.read_text())["modules"]
    except (OSError, ValueError, KeyError):
        modules = {}
    files = {name: info["file"] for name, info in modules.items() if info["file"].endswith(".py")}
    if os.environ.get("LUDICA_PURE") == "1":
        reason = "LUDICA_PURE=1"
    else:
        stale = sorted(_changed(package_dir, modules)) if modules else ["ludica/" + STAMP]
        missing = [lib for lib in LIBRARIES if importlib.util.find_spec(lib) is None]
        missing += _extensions_missing(package_dir)
        if not stale and not missing:
            _state.update(build="compiled", reason="mypyc")
            return
        if missing:
            stale = [f"{missing[0]} (not on the path)"]
        reason = f"compiled kernels are older than {stale[0]}" + (
            f" and {len(stale) - 1} more" if len(stale) > 1 else ""
        )
        print(f"ludica: {reason}; running pure Python (rebuild: bash scripts/setup)", file=sys.stderr)
    if files:
        sys.meta_path.insert(0, _PureFinder(package_dir, files))
    _state.update(build="pure", reason=reason)


def build() -> str:
    """``"compiled"`` or ``"pure"``: what the rules kernels of this process actually run."""
    from .core import game

    return "compiled" if not (game.__file__ or "").endswith(".py") else "pure"


def describe() -> str:
    """One line for ``ludica --version``: the build and why."""
    kind = build()
    if kind == "compiled":
        return "compiled kernels (mypyc), C observation encoder"
    reason = _state["reason"] if _state["build"] == "pure" else "no compiled modules"
    return f"pure Python ({reason})"


def up_to_date(package_dir: Path) -> bool:
    """True when the compiled modules in ``package_dir`` match every kernel source as it is now:
    the stamp exists, lists exactly today's kernel modules, and no source changed since."""
    stamp = package_dir / STAMP
    if not stamp.exists() or not _compiled_present(package_dir):
        return False
    try:
        modules: dict[str, Any] = json.loads(stamp.read_text())["modules"]
    except (OSError, ValueError, KeyError):
        return False
    root = package_dir.parent
    wanted = {module_name(root, p) for p in (*kernel_sources(root), *extension_sources(root))}
    return set(modules) == wanted and not any(_changed(package_dir, modules)) and not _extensions_missing(package_dir)


if __name__ == "__main__":  # ``python ludica/_build.py``: exit 0 when the compiled kernels are current
    sys.exit(0 if up_to_date(Path(__file__).resolve().parent) else 1)
