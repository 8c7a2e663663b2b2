"""The second leak test (issue 23, point 10): a seat's page compared with a redealt copy.

For every game, a room is played by bots (heuristic where the game has one, else random) through
the table's own :meth:`Room.act`; at each step, for every role (each seat, the spectators, the
host), the whole page and the WebSocket frame that role receives are compared with those of a
copy of the room whose state was redealt for that role (the game's own ``redeal``: everything
the role may not see drawn again). The role cannot tell the two states apart, so any difference
in what it is sent — a view, a prompt, who is waited for, an option — is a leak of the hidden
part. The Euthymia inference of the ninth hour's final round was its first case.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from ludica.bots.base import BOTS, make_bot, situation
from ludica.core import CHANCE
from ludica.core.registry import available
from ludica.table.rooms import Room, Rooms
from ludica.table.seatview import payload, seat_of
from ludica.table.storage import HOST, SPECTATOR, Store

STEPS = {"euthymia": 2500}
"""Steps played per game (Euthymia further: its hours are long; its clock is hurried as the table would feed it)."""
DEFAULT_STEPS = 300
EVERY = 10
"""After the first :data:`DENSE` steps, one step in this many is compared..."""
DENSE = 60
CLOSE: dict[str, Any] = {"euthymia": lambda state: state.hour >= 9}
"""...except where a game's hidden part matters most (every step of Euthymia's last hours)."""
PLAYERS = {"great-city": 4, "euthymia": 3, "misery-bubblegum": 3, "lost-days": 3, "euphoria": 3}

make_bot("random", "pig")


def _bot(game_id: str, seed: int) -> Any:
    return make_bot("heuristic" if "heuristic" in BOTS else "random", game_id, seed)


def redealt(room: Room, role: str, rng: random.Random) -> Room:
    """A copy of ``room`` whose state is the game's redeal for ``role`` (the record and the story
    stay: they are what was seen)."""
    other = copy.copy(room)
    match = copy.copy(room.match)
    match.state = room.game.redeal(room.match.state, seat_of(role), rng)
    other._match = match  # the copy shares nothing else that changes
    # What the room worked out of what was seen stays: the story as it was rendered when each
    # entry happened, and whether the last action may be taken back (it revealed nothing).
    # (renderings of the parts, kept under tuple keys, are drawn again from the redealt state)
    other.cache = {
        k: v for k, v in room.cache.items() if isinstance(k, str) and (k == "log" or k.startswith(("log:", "undo:")))
    }
    return other


def _frames(room: Room, role: str) -> tuple[str, str]:
    """What ``role`` is sent: the page a (re)connection gets and a broadcast frame."""
    whole = json.dumps(payload(room, role), ensure_ascii=False, sort_keys=True)
    frame = json.dumps(payload(room, role, full_log=False), ensure_ascii=False, sort_keys=True)
    return whole, frame


def _first_difference(a: str, b: str) -> str:
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"…{a[max(0, i - 150) : i + 150]}…\n  vs\n…{b[max(0, i - 150) : i + 150]}…"


def _roles(room: Room) -> list[str]:
    return [*room.seats(), SPECTATOR, HOST]


def _play_and_compare(store: Store, game_id: str, seed: int) -> int:
    players = [f"P{i + 1}" for i in range(PLAYERS.get(game_id, 2))]
    room, _ = Rooms(store).create(game_id, players, {})
    bots = {s: _bot(game_id, seed + i) for i, s in enumerate(room.seats())}
    rng = random.Random(seed)
    compared = 0
    for _ in range(STEPS.get(game_id, DEFAULT_STEPS)):
        if room.is_over():
            break
        close = CLOSE.get(game_id, lambda _state: False)(room.match.state)
        sparse = EVERY * (5 if game_id in CLOSE else 1)
        if room.game.meta.hidden_information and (room.step < DENSE or room.step % sparse == 0 or close):
            for role in _roles(room):
                room.can_undo_own(seat_of(role))
                mine = _frames(room, role)
                theirs = _frames(redealt(room, role, rng), role)
                assert mine == theirs, (
                    f"{game_id} step {room.step}: {role} can tell the hidden part apart:\n"
                    + _first_difference(mine[0], theirs[0])
                )
                compared += 1
        pending = room.match.pending()
        seat = next(s for s in pending.seats if s != CHANCE)
        action = bots[seat].decide(situation(room.match, seat)).as_action()
        if room.is_clock(action):  # the table's own clock, hurried for the test: an hour in minutes
            room.match.check(action)
            room._commit_from(action)
            continue
        room.act(seat, {"step": room.step, "action": action.to_json()})
    return compared


@pytest.mark.parametrize("game_id", [g for g in available() if g != "pig"])
def test_no_page_or_frame_tells_a_redealt_game_apart(tmp_path: Path, game_id: str) -> None:
    store = Store(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    try:
        compared = _play_and_compare(store, game_id, 23)
    finally:
        store.close()
    print(f"{game_id}: {compared} pages and frames compared with a redealt copy")
