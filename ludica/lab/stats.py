"""Statistics over many games' summaries (what ``ludica simulate`` prints).

The functions live in :mod:`ludica.core.summary`, where the games use them too (a game never
imports the lab); the lab takes them from here.
"""

from __future__ import annotations

from ..core.summary import aggregate, describe, distribution

__all__ = ["aggregate", "describe", "distribution"]
