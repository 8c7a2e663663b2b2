"""Load a script of the project (``scripts/``, ``benchmarks/``, ``examples/``) as a module by its
path, for the tests that check what it makes or run it small."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(relative: str, name: str | None = None) -> ModuleType:
    """The module of ``ROOT/relative`` (e.g. ``"scripts/rule_index.py"``), registered under
    ``name`` (default: the file's stem) so that its dataclasses and pickles resolve."""
    path = ROOT / relative
    module_name = name or path.stem
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None, f"no script at {relative}"
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
