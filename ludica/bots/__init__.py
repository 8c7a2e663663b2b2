"""Bots that play any registered game through the core protocol.

Importing the package registers the search bot (``ismcts``); ``random`` and ``heuristic`` are
registered by :func:`ludica.bots.base.make_bot` on first use.
"""

from . import ismcts  # noqa: F401  (registers "ismcts")
