"""Ludica: an engine and virtual table for five tabletop games, run exactly by their rules."""

from pathlib import Path as _Path

from ._build import install as _install

__version__ = "0.1.0"

_install(_Path(__file__).parent)
