"""Seeded rooms of the table, to compare two checkouts byte for byte and count instructions.

Two uses, printed and never asserted:

* ``--hash OUT``: plays four seeded rooms (Euphoria with 3, 4 and 6 players, ``--steps`` steps
  each, and Pig) by random play and writes, for every step and every role (each seat, a spectator,
  the host), the SHA-256 of the message a broadcast sends (``payload(..., full_log=False)`` encoded
  as the server encodes it). Run it with each checkout's ``PYTHONPATH`` and ``cmp`` the files::

      PYTHONPATH=/work/main python benchmarks/table_seeded.py --hash /tmp/old.txt
      PYTHONPATH=$PWD python benchmarks/table_seeded.py --hash /tmp/new.txt && cmp /tmp/old.txt /tmp/new.txt

* ``--callgrind``: instructions per accepted action of one seeded 4-player Euphoria game (``act``
  and every role's message encoded, as ``bench_table_load.broadcast_cost``): ``--actions`` actions
  from step 50 and as many from step 2,000, under ``valgrind --tool=callgrind`` with
  ``PYTHONHASHSEED=0``, minus the same process with no action (start-up, replay, first views).
  ``--game pig``: twice ``--actions`` actions of seeded 4-player Pig rooms from step 10, played
  one room after the other (:data:`PIG_ROOMS` rooms made and first viewed in both processes).
  Compare two checkouts by running it with each ``PYTHONPATH`` in turn.

The rooms' seeds and ids come from a seeded generator (:func:`seeded`) in place of ``secrets``.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

_COLLECTED = re.compile(r"Collected : (\d+)")
ROOMS = (("euphoria", 3), ("euphoria", 4), ("euphoria", 6), ("pig", 4))
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
PIG_ROOMS = 12
"""Pig rooms the callgrind worker makes (seeds 11-22: 330 actions from step 10 by random play)."""


class _SeededSecrets:
    """Stands for :mod:`secrets` in ``ludica.table.rooms``: the same tokens in every run."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def token_hex(self, n: int) -> str:
        return self.rng.randbytes(n).hex()

    def token_urlsafe(self, n: int) -> str:
        return self.rng.randbytes(n).hex()


def seeded(seed: int) -> None:
    from ludica.table import rooms

    rooms.secrets = _SeededSecrets(seed)  # type: ignore[assignment]


def encoder() -> Any:
    try:  # as the server encodes a message (a build before it encoded with json.dumps)
        from ludica.table.render_cache import encode
    except ImportError:
        encode = functools.partial(json.dumps, ensure_ascii=False)
    return encode


def hash_rooms(out: Path, steps: int, folder: str) -> int:
    from ludica.bots.random_bot import RandomBot
    from ludica.table.rooms import Rooms
    from ludica.table.seatview import payload
    from ludica.table.storage import HOST, SPECTATOR, Store

    encode = encoder()
    store = Store(f"sqlite:///{folder}/hash.sqlite3")
    count = 0
    with out.open("w") as sink:
        for index, (game, players) in enumerate(ROOMS):
            seeded(100 + index)
            room, _ = Rooms(store).create(game, PLAYERS[:players], {})
            bot = RandomBot(random.Random(index))
            roles = [*room.seats(), SPECTATOR, HOST]
            for _ in range(steps):
                if room.is_over():
                    break
                seat = room.match.pending().seats[0]
                room.act(seat, {"step": room.step, "action": bot.choose(room.match, seat).to_json()})
                for role in roles:
                    text = encode(payload(room, role, full_log=False))
                    sink.write(f"{game} {players} {room.step} {role} {hashlib.sha256(text.encode()).hexdigest()}\n")
                    count += 1
    store.close()
    return count


def worker(game: str, actions: int, folder: str) -> int:
    """Play ``actions`` actions from step 50 and from step 2,000 of one seeded Euphoria game, or
    twice ``actions`` of seeded Pig rooms one after the other; the count."""
    from bench_table_load import room_at, warm

    from ludica.table.storage import Store

    seeded(7)
    store = Store(f"sqlite:///{folder}/cg.sqlite3")
    players = ["Ann", "Bob", "Cat", "Dan"]
    if game == "pig":
        found = [room_at(store, "pig", players, 10, 11 + i) for i in range(PIG_ROOMS)]
        rooms, quotas = [r for r in found if r is not None], [2 * actions]
    else:
        early, late = room_at(store, "euphoria", players, 50, 11), room_at(store, "euphoria", players, 2000, 11)
        assert early and late, "the seeded game reaches step 2,000"
        rooms, quotas = [early, late], [actions, actions]
    for room, _ in rooms:
        warm(room)
    return _played(rooms, quotas, store)


def _played(rooms: list[tuple[Any, Any]], quotas: list[int], store: Any) -> int:
    """Actions played: ``quotas[i]`` in room ``i`` (one quota: that many, room after room)."""
    from bench_table_load import broadcast_cost

    done, wanted = 0, quotas[0] if len(quotas) == 1 else 0
    for index, (room, bot) in enumerate(rooms):
        if len(quotas) > 1:
            wanted += quotas[index]
        while done < wanted and broadcast_cost(room, bot) is not None:
            done += 1
    store.close()
    return done


def collected(game: str, actions: int, folder: str) -> int:
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/cg.{actions}", sys.executable, __file__]
    cmd += ["--worker", "--game", game, "--actions", str(actions)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    result = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    match = _COLLECTED.search(result.stderr)
    if match is None:
        raise RuntimeError(f"callgrind gave no count: {result.stderr[-500:]}")
    return int(match.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hash", type=Path, metavar="OUT", help="write every message's hash to OUT")
    parser.add_argument("--steps", type=int, default=1500, help="steps per room hashed (default 1500)")
    parser.add_argument("--callgrind", action="store_true", help="instructions per accepted action")
    parser.add_argument("--actions", type=int, default=60, help="actions at each of the two steps (default 60)")
    parser.add_argument("--game", choices=("euphoria", "pig"), default="euphoria", help="game of --callgrind")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.worker:
            print(json.dumps({"actions": worker(args.game, args.actions, folder)}))
        if args.hash:
            print(f"{hash_rooms(args.hash, args.steps, folder)} messages hashed")
        if args.callgrind:
            from ludica._build import build

            work, idle = collected(args.game, args.actions, folder), collected(args.game, 0, folder)
            per = (work - idle) / (2 * args.actions) / 1e6
            print(f"build: {build()}; {args.game}: {per:.2f} M instructions per action")


if __name__ == "__main__":
    main()
