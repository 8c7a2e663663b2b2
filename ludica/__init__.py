"""Ludica: an engine and virtual table for five tabletop games, run exactly by their rules."""

__version__ = "0.1.0"
