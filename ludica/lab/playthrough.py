"""Golden playthroughs: every seat's view at every step of one seeded random game, as text.

The committed file per game (``tests/golden/<game>.txt``) catches any change in what a seat
can see (OpenSpiel's practice). Regenerate after a deliberate change with
``LUDICA_UPDATE_GOLDEN=1 pytest tests/conformance``.
"""

from __future__ import annotations

import random
from typing import Any

from ..bots.random_bot import RandomBot
from ..core.game import Config
from ..core.match import Match, canonical_json
from ..core.registry import get_game

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


def default_config(game_id: str, players: int | None = None, seed: int = 0) -> Config:
    meta = get_game(game_id).meta
    n = players if players is not None else meta.players_min
    return Config(NAMES[:n], {}, seed)


def view_line(before: dict[str, Any] | None, after: dict[str, Any]) -> str:
    """``{...}`` whole; ``=`` unchanged; ``~ {"set": {changed top-level keys}, "del": [removed keys]}``."""
    if before is None:
        return canonical_json(after)
    if before == after:
        return "="
    changed = {k: v for k, v in after.items() if k not in before or before[k] != v}
    removed = sorted(k for k in before if k not in after)
    return "~ " + canonical_json({"set": changed, "del": removed} if removed else {"set": changed})


def playthrough(game_id: str, *, seed: int = 1, players: int | None = None, max_steps: int = 200) -> str:
    """The golden text of one game: header, then per step the decision, every view, the action.

    Each view is written whole the first time, then as its change from the same seat's view at
    the previous step (see :func:`view_line`): small files that still record every view at every
    step exactly.
    """
    game = get_game(game_id)
    config = default_config(game_id, players, seed)
    match: Match[Any] = Match(game, config)
    rng = random.Random(seed)
    bot = RandomBot(rng)
    lines = [
        f"game: {game_id}",
        f"rules_version: {game.meta.rules_version}",
        f"config: {canonical_json(config.to_json())}",
    ]
    seats: list[str | None] = [*game.seats(match.state), None]
    last_view: dict[str | None, dict[str, Any]] = {}
    for step in range(max_steps):
        pending = match.pending()
        lines.append("")
        lines.append(f"step {step}: pending={','.join(pending.seats) or 'none'} phase={pending.phase}")
        for seat in seats:
            view = match.view(seat)
            lines.append(f"  view[{seat or 'spectator'}] {view_line(last_view.get(seat), view)}")
            last_view[seat] = view
        if pending.is_over:
            break
        if pending.is_chance:
            action = match.deal()
        else:
            seat = pending.seats[rng.randrange(len(pending.seats))]
            action = bot.choose(match, seat)
            match.apply(action)
        lines.append(f"  action {action.notation()}")
    lines.append("")
    lines.append(f"digest: {match.digest()}")
    return "\n".join(lines) + "\n"
