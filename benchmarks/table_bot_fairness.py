"""An honest room's bot beside one address's bot-only rooms at the ceiling (in process, stops by itself).

One address opens its maximum of rooms where only bots play, each at the table's ceiling spec
(``ismcts:playouts=5000,seconds=20,horizon=1000``) and each watched by a spectator (unwatched,
they would not think at all); another address plays a room against a bot (``--honest``). The
script prints the honest bot's seconds per move alone, then beside the bot-only rooms, and their
ratio.

    python benchmarks/table_bot_fairness.py                # the table as it is
    python benchmarks/table_bot_fairness.py --unfair       # every room in one queue, two workers for anyone (before)
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import warnings
from typing import Any

warnings.filterwarnings("ignore")

from fastapi.testclient import TestClient  # noqa: E402

from ludica.table.server import BOT_ROOMS, create_app  # noqa: E402

CEILING = "ismcts:playouts=5000,seconds=20,horizon=1000"


def _open(client: TestClient, bots: dict[str, str]) -> dict[str, Any]:
    answer = client.post("/rooms", json={"game": "pig", "players": ["A", "B"], "bots": bots})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    data["tokens"] = {i["role"]: i["token"] for i in data["invites"]}
    return data


def honest_moves(client: TestClient, spec: str, moves: int, timeout: float) -> list[float]:
    """Seconds the honest rooms' bot took for each of its moves (the person plays at once; a
    new room is opened when a game ends, until ``moves`` moves were timed)."""
    times: list[float] = []
    end = time.monotonic() + timeout
    while len(times) < moves and time.monotonic() < end:
        times += _one_room(client, spec, moves - len(times), end)
    return times


def _one_room(client: TestClient, spec: str, moves: int, end: float) -> list[float]:
    room = _open(client, {"p2": spec})
    times: list[float] = []
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": room["tokens"]["p1"]}))
        state: dict[str, Any] = {}
        asked = 0.0
        while len(times) < moves and time.monotonic() < end:
            message = ws.receive_json()
            if message.get("type") != "state":
                continue
            state = message
            if state.get("over"):
                break
            if "p2" in state.get("waiting_for", []):
                asked = asked or time.monotonic()
                continue
            if asked:
                times.append(time.monotonic() - asked)
                asked = 0.0
            if state.get("legal"):
                ws.send_text(json.dumps({"type": "act", "step": state["step"], "index": 0}))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--honest", default="ismcts:playouts=200")
    parser.add_argument("--moves", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--unfair", action="store_true", help="the scheduling before: one queue, no share")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{tmp}/fair.sqlite3", room_rate=(100.0, 100.0))
        with TestClient(app) as client:
            table = app.state.table()
            if args.unfair:
                table.bots.per_owner = table.bots.workers
            alone = honest_moves(client, args.honest, args.moves, args.timeout)
            watchers = []
            for _ in range(BOT_ROOMS):
                heavy = _open(client, {"p1": CEILING, "p2": CEILING})
                table.opened(heavy["room"], "10.0.0.66")  # the other address
                cm = client.websocket_connect(f"/ws/{heavy['room']}")
                ws = cm.__enter__()
                ws.send_text(json.dumps({"type": "hello", "token": heavy["tokens"]["*spectator*"]}))
                ws.receive_json()
                watchers.append(cm)
            time.sleep(2.0)  # the bot-only rooms are thinking
            beside = honest_moves(client, args.honest, args.moves, args.timeout)
            for cm in watchers:
                cm.__exit__(None, None, None)
            table.bots.close()
    a, b = statistics.median(alone), statistics.median(beside) if beside else float("inf")
    print(
        json.dumps(
            {
                "scheduling": "before (one queue)" if args.unfair else "fair (per address)",
                "honest_spec": args.honest,
                "bot_only_rooms": BOT_ROOMS,
                "ceiling": CEILING,
                "alone_s_per_move": round(a, 3),
                "moves_alone": len(alone),
                "beside_s_per_move": round(b, 3),
                "moves_beside": len(beside),
                "ratio": round(b / a, 2) if a else None,
            }
        )
    )


if __name__ == "__main__":
    main()
