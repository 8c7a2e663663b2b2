"""Bots in the seats of a table in the terminal (``ludica play GAME --bot p2=heuristic``): the
seats given on the command line, checked; :class:`ludica.terminal.Terminal` lets each bot move on
its own turn and prints its move and narration."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

from ..core.errors import ConfigError
from ..core.match import Match
from .base import Bot, make_bot


def seat_bots(match: Match[Any], items: Sequence[str] | None, *, seed: int | str | None = None) -> dict[str, Bot]:
    """``["p2=heuristic", "p3=ismcts:playouts=100"]`` -> seat -> bot, refused in words
    (:class:`ConfigError`) for an unknown seat or bot."""
    seats = [s for s in match.game.seats(match.state)]
    out: dict[str, Bot] = {}
    for item in items or ():
        seat, eq, spec = item.partition("=")
        seat, spec = seat.strip(), spec.strip()
        if not eq or not seat or not spec:
            raise ConfigError(f"--bot expects SEAT=BOT (e.g. p2=heuristic), not {item!r}", rule="bots")
        if seat not in seats:
            raise ConfigError(f"no seat {seat!r} in this game (seats: {', '.join(seats)})", rule="bots")
        try:
            out[seat] = make_bot(spec, match.game.meta.id, zlib.crc32(f"{seed}:{seat}".encode()))
        except ValueError as exc:
            raise ConfigError(str(exc), rule="bots") from None
    return out
