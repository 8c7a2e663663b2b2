"""Bots in the seats of a table in the terminal (``ludica play GAME --bot p2=heuristic``).

A bot seat moves on its own turn; what the table prints of its move is what every seat may see
(the public story of that step) and the bot's narration, never its hidden choice.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

from rich.console import Console

from ..core.errors import ConfigError
from ..core.match import Match
from .base import Bot, make_bot, situation


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


def bot_turn(match: Match[Any], seat: str, bot: Bot, console: Console) -> None:
    """The bot at ``seat`` decides and acts; the public story of its move and its narration are
    printed."""
    name = match.game.seat_name(match.state, seat)
    with console.status(f"{name} ({seat}, {bot.name}) is thinking…"):
        decision = bot.decide(situation(match, seat))
    step = len(match.actions)
    match.apply(decision.as_action())
    public = [e.event.text for e in match.story(None) if e.step == step and e.event.kind != "narration"]
    for text in public or [f"{name} has decided"]:
        console.print(f"  {name} ({seat}, bot): {text}", markup=False)
    if decision.narration:
        console.print(f"  {name}: “{decision.narration}”", style="italic", markup=False)
