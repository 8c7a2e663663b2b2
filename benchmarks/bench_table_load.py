"""Load generator for the web table, on loopback, bounded in time.

Starts ``ludica.table.server.serve`` in a child process (SQLite in a temporary folder unless
``--db`` is given), opens ``--rooms`` rooms of Pig with ``--seats`` seats each, connects one
WebSocket per seat, and lets every room play for ``--duration`` seconds: the seat the game waits
for picks a legal action at random (after ``--think`` seconds), and the time from sending it until
*every* seat of the room holds the new view is the action-to-all-views latency.

Prints p50/p99 latency, accepted actions/s, connected seats, and the server's memory per idle
room (resident memory growth over ``--idle-rooms`` extra rooms that are open but idle).

Before that it measures, in this process, **the server's cost per accepted action**: the CPU
time of what the server does for one action — check and apply it, commit it, and render the new
view of every seat and of a spectator, as a broadcast does — at step 50 and at step 2,000 of one
Euphoria game (the two rooms are measured in turn, action by action, and the medians compared:
they should be within 20%), and the actions/s one process sustains from that cost for Pig and
Euphoria. Figures are printed, never asserted::

    .venv/bin/python benchmarks/bench_table_load.py --rooms 250 --seats 4 --duration 30
    .venv/bin/python benchmarks/bench_table_load.py --cost-only
    .venv/bin/python benchmarks/bench_table_load.py --game euphoria --rooms 50 --think 0
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import importlib.util
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from cpucap import CpuCap  # benchmarks/cpucap.py (run from benchmarks/)
from websockets.asyncio.client import ClientConnection, connect

GAME = "pig"
"""The game the load generator plays (``--game``)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


PROFILE: str | None = None
"""``--profile FILE``: the (first) server process runs under cProfile and writes its statistics."""


PROFILER = (
    "exec("
    + repr(
        "import cProfile, pstats, signal, threading, time\n"
        "def profile_all(path):\n"
        "    found = []\n"
        "    def begin(*_):\n"
        "        p = cProfile.Profile(time.thread_time); found.append(p); p.enable()\n"
        "    threading.setprofile(lambda *a: begin())\n"
        "    main = cProfile.Profile(time.thread_time); found.append(main); main.enable()\n"
        "    signal.signal(signal.SIGUSR1, lambda *_: pstats.Stats(*found).dump_stats(path))\n"
    )
    + ")"
)
"""Every thread of the server profiled (the loop and the threads that render and commit) in CPU
time of that thread (a thread waiting for a lock, the disk or the GIL costs nothing), so that the
statistics say where the CPU goes; they are written when the process gets SIGUSR1."""


def start_server(port: int, db_url: str) -> subprocess.Popen[bytes]:
    unlimited = "{'address_rate': (1e6, 1e6), 'token_rate': (1e6, 1e6), 'handshake_rate': (1e6, 1e6)}"
    call = f"serve('127.0.0.1', int(sys.argv[1]), sys.argv[2], False, room_rate=(1e6, 1e6), guard={unlimited})"
    if PROFILE:
        call = f"{PROFILER}; profile_all({PROFILE!r}); {call}"
    code = "import sys; from ludica.table.server import serve; " + call
    here = Path(str(importlib.util.find_spec("ludica").origin)).parents[1]  # the build this process runs
    command = [sys.executable, "-c", code, str(port), db_url]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, cwd=here)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


@dataclass
class Seat:
    role: str
    ws: ClientConnection
    state: dict[str, Any] = field(default_factory=dict)
    step: int = -1
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                if message.get("type") == "state":
                    self.state = message
                    self.step = message["step"]
                    self.changed.set()
        except Exception:
            return


@dataclass
class Stats:
    rooms: int
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    refused: int = 0
    games: int = 0
    joined: int = 0
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    started: float = 0.0
    deadline: float = 0.0

    def arrived(self, duration: float) -> None:
        """Play starts once every room's seats are connected (connecting is not measured)."""
        self.joined += 1
        if self.joined == self.rooms:
            self.started = time.perf_counter()
            self.deadline = time.monotonic() + duration
            self.ready.set()


async def open_room(http: httpx.AsyncClient, seats: int, game: str = GAME) -> tuple[str, dict[str, str]]:
    players = [f"P{i + 1}" for i in range(seats)]
    options = {"target": 30} if game == "pig" else {}
    r = await http.post("/rooms", json={"game": game, "players": players, "options": options})
    data = r.json()
    if r.status_code != 201:
        raise SystemExit(f"cannot open a room of {game}: {data.get('reason')}")
    return data["room"], {i["role"]: i["token"] for i in data["invites"] if i["role"].startswith("p")}


async def join(ws_base: str, room: str, tokens: dict[str, str]) -> list[Seat]:
    seats = []
    for role, token in tokens.items():
        ws = await connect(f"{ws_base}/ws/{room}", max_size=2**22, open_timeout=60, ping_interval=None, proxy=None)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seat = Seat(role, ws)
        asyncio.get_running_loop().create_task(seat.read())
        seats.append(seat)
    for seat in seats:
        while seat.step < 0:
            seat.changed.clear()
            await asyncio.wait_for(seat.changed.wait(), 60)
    return seats


async def wait_all(seats: list[Seat], step: int, timeout: float = 30) -> None:
    for seat in seats:
        while seat.step < step:
            seat.changed.clear()
            await asyncio.wait_for(seat.changed.wait(), timeout)


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action of the seat's list, its free fields filled (text, numbers)."""
    legal = state["legal"]
    kinds = [i for i, a in enumerate(legal) if a["type"] != "title"]
    index = rng.choice(kinds or list(range(len(legal))))
    fields: dict[str, Any] = {}
    for name, spec in legal[index].get("args", {}).items():
        if isinstance(spec, dict) and "$text" in spec:
            fields[name] = (spec.get("prefix", "") + " a line of story").strip()[: spec["max_len"]]
        elif isinstance(spec, dict) and "$int" in spec:
            fields[name] = rng.randint(*spec["$int"])
    return {"type": "act", "step": state["step"], "index": index, "fields": fields}


def route(ws_bases: list[str], room: str) -> str:
    """The process a room's browsers meet on, as the nginx configuration of docs/table.md hashes it."""
    return ws_bases[zlib.crc32(room.encode()) % len(ws_bases)]


async def drive(
    http: httpx.AsyncClient, ws_bases: list[str], seats_n: int, duration: float, think: float, stats: Stats, seed: int
) -> None:
    rng = random.Random(seed)
    room, tokens = await open_room(http, seats_n)
    seats = await join(route(ws_bases, room), room, tokens)
    stats.arrived(duration)
    await stats.ready.wait()
    await asyncio.sleep(rng.random() * max(think, 0.05))
    while time.monotonic() < stats.deadline:
        acting = next((s for s in seats if s.state.get("your_turn")), None)
        if acting is None or seats[0].state.get("over"):
            stats.games += 1
            for s in seats:
                await s.ws.close()
            room, tokens = await open_room(http, seats_n)
            seats = await join(route(ws_bases, room), room, tokens)
            continue
        step = acting.step
        t0 = time.perf_counter()
        await acting.ws.send(json.dumps(choose(acting.state, rng)))
        try:
            await wait_all(seats, step + 1)
        except TimeoutError:
            stats.refused += 1
            continue
        stats.latencies.append(time.perf_counter() - t0)
        stats.actions += 1
        if think:
            await asyncio.sleep(think * (0.5 + rng.random()))
    for s in seats:
        await s.ws.close()


async def idle_rooms(http: httpx.AsyncClient, n: int, seats: int, game: str = "pig") -> None:
    for _ in range(n):
        await open_room(http, seats, game)


# -- the server's cost per accepted action, in this process ----------------------------------------
def room_at(store: Any, game: str, players: list[str], step: int, seed: int) -> tuple[Any, Any] | None:
    """A stored room of ``game`` whose record reaches ``step`` by random play, loaded as the
    server loads it (its record replayed once), with its random bot; None if the game ended."""
    from ludica.bots.random_bot import RandomBot, random_step
    from ludica.core import Match
    from ludica.table.rooms import Rooms

    rooms = Rooms(store)
    room, _ = rooms.create(game, players, {})
    match: Match[Any] = Match(room.game, room.config)
    match.replay(room.match.actions, check=False)
    bot, rng = RandomBot(random.Random(seed)), random.Random(seed)
    while len(match.actions) < step or match.pending().is_chance:
        if match.is_over():
            return None
        random_step(match, bot, rng)
    store.append(room.id, room.step, [a.to_json() for a in match.actions[room.step :]])
    rooms.forget(room.id)
    return rooms.get(room.id), bot


FACE_TIME = [0.0]
"""CPU seconds spent in the games' faces (``render_view``) since the last reset."""


def time_the_faces() -> None:
    """Count the time the game's own face template takes, apart from the table's work."""
    from ludica.table import seatview

    render_view = seatview.render_view

    def timed(*args: Any, **kwargs: Any) -> str:
        start = time.process_time()
        try:
            return render_view(*args, **kwargs)
        finally:
            FACE_TIME[0] += time.process_time() - start

    seatview.render_view = timed  # type: ignore[assignment]


def broadcast_cost(room: Any, bot: Any) -> tuple[float, float] | None:
    """CPU seconds of one accepted action: act (check, apply, deal, commit) and one rendered
    view per seat and for the spectators, as a broadcast sends them; and the part of it spent
    in the game's face (None: the game is over)."""
    from ludica.table.seatview import payload
    from ludica.table.storage import SPECTATOR

    try:  # as the server encodes a message (a build before it encoded with json.dumps)
        from ludica.table.render_cache import encode
    except ImportError:
        encode = functools.partial(json.dumps, ensure_ascii=False)
    if room.is_over():
        return None
    roles = [*room.seats(), SPECTATOR]
    seat = room.match.pending().seats[0]
    message = {"step": room.step, "action": bot.choose(room.match, seat).to_json()}
    FACE_TIME[0] = 0.0
    start = time.process_time()
    room.act(seat, message)
    for role in roles:
        encode(payload(room, role, full_log=False))
    return time.process_time() - start, FACE_TIME[0]


def warm(room: Any) -> None:
    """What a (re)connection does once: every role's full view (renders the story so far)."""
    from ludica.table.seatview import payload
    from ludica.table.storage import SPECTATOR

    for role in [*room.seats(), SPECTATOR]:
        payload(room, role)


def measure_costs(samples: int, seed: int) -> None:
    from ludica.table.storage import Store

    folder = tempfile.mkdtemp(prefix="ludica-cost-")
    store = Store(f"sqlite:///{folder}/cost.sqlite3")
    players = ["Ann", "Bob", "Cat", "Dan"]
    try:
        found = None
        for attempt in range(20):  # a game long enough for step 2,000 and the samples after it
            early, late = room_at(store, "euphoria", players, 50, seed + attempt), None
            late = room_at(store, "euphoria", players, 2000, seed + attempt)
            if early and late:
                found = early, late
                break
        if found is None:
            print("no Euphoria game reached step 2,000")
            return
        (early_room, early_bot), (late_room, late_bot) = found
        warm(early_room), warm(late_room)
        time_the_faces()
        costs: dict[str, list[float]] = {"early": [], "late": []}
        table: dict[str, list[float]] = {"early": [], "late": []}
        for _ in range(samples):  # in turn, so that other load on the machine hits both alike
            for name, room, bot in (("early", early_room, early_bot), ("late", late_room, late_bot)):
                cost = broadcast_cost(room, bot)
                if cost is not None:
                    costs[name].append(cost[0])
                    table[name].append(cost[0] - cost[1])
        e, la = statistics.median(costs["early"]) * 1000, statistics.median(costs["late"]) * 1000
        te, tl = statistics.median(table["early"]) * 1000, statistics.median(table["late"]) * 1000
        print("server cost per accepted action (CPU: act + commit + one view per seat and spectators)")
        print(f"  euphoria, 4 seats, step {50:>5}..{early_room.step:<5} median {e:6.2f} ms  (table {te:5.2f} ms)")
        print(
            f"  euphoria, 4 seats, step {2000:>5}..{late_room.step:<5} median {la:6.2f} ms  (table {tl:5.2f} ms)"
            f"  = {la / e:.2f}x step 50 (table alone {tl / te:.2f}x; the rest is the game's face)"
        )
        pig_room, pig_bot = room_at(store, "pig", players, 10, seed) or (None, None)
        pig: list[float] = []
        while pig_room is not None and len(pig) < samples:
            cost = broadcast_cost(pig_room, pig_bot)
            if cost is None:
                pig_room, pig_bot = room_at(store, "pig", players, 10, seed + len(pig) + 1) or (None, None)
                continue
            pig.append(cost[0])
        p = statistics.median(pig) * 1000
        euphoria_all = statistics.median(costs["early"] + costs["late"]) * 1000
        print("actions/s per process (1 / CPU cost per action; commits shared by group commit)")
        print(f"  pig, 4 seats          {1000 / p:7.0f} actions/s  ({p:.2f} ms per action)")
        print(f"  euphoria, 4 seats     {1000 / euphoria_all:7.0f} actions/s  ({euphoria_all:.2f} ms per action)")
    finally:
        store.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def main_async(args: argparse.Namespace, processes: int) -> dict[str, Any]:
    """One load run on ``processes`` server processes; returns its figures (and prints them)."""
    ports = [free_port() for _ in range(processes)]
    folder = tempfile.mkdtemp(prefix="ludica-bench-")
    db_url = args.db or f"sqlite:///{folder}/bench.sqlite3"
    if processes > 1 and db_url.startswith("sqlite"):
        raise SystemExit("several processes need --db postgresql://... (they follow each other by NOTIFY)")
    servers = [start_server(port, db_url) for port in ports]
    cap = CpuCap(args.cpu_quota) if args.cpu_quota else None
    for server in servers:
        if cap:
            cap.cap(server.pid)
    base = f"http://127.0.0.1:{ports[0]}"
    ws_bases = [f"ws://127.0.0.1:{port}" for port in ports]
    per_room = created = float("nan")
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            if processes == 1 and args.idle_rooms:
                await idle_rooms(http, 5, args.idle_seats, args.idle_game)  # warm up imports and caches
                before = rss_kib(servers[0].pid)
                t = time.perf_counter()
                await idle_rooms(http, args.idle_rooms, args.idle_seats, args.idle_game)
                created = args.idle_rooms / (time.perf_counter() - t)
                per_room = (rss_kib(servers[0].pid) - before) / max(args.idle_rooms, 1)
            stats = Stats(args.rooms)
            tasks = [
                asyncio.create_task(drive(http, ws_bases, args.seats, args.duration, args.think, stats, i))
                for i in range(args.rooms)
            ]
            await stats.ready.wait()
            cpu_start = sum(cpu_seconds(s.pid) for s in servers)
            own_start = time.process_time()
            load_start = os.getloadavg()[0]
            await asyncio.gather(*tasks)
            elapsed = time.perf_counter() - stats.started
            cpu = sum(cpu_seconds(s.pid) for s in servers) - cpu_start
            generator = (time.process_time() - own_start) / elapsed
            load = (load_start + os.getloadavg()[0]) / 2
        lat = sorted(stats.latencies)
        p = (lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000) if lat else (lambda q: float("nan"))
        result = {
            "processes": processes,
            "game": GAME,
            "seats": args.rooms * args.seats,
            "think": args.think,
            "actions_s": stats.actions / elapsed,
            "cpu_ms": cpu * 1000 / max(stats.actions, 1),
            "p50": p(0.50),
            "p99": p(0.99),
            "load": load,
            "timeouts": stats.refused,
            "idle_kib": per_room,
            "server_cores": cpu / elapsed,
            "cpu_quota": args.cpu_quota,
            "generator_cores": generator,
        }
        print(f"-- {processes} process(es), database {db_url.split(':')[0]}")
        print(f"connected seats      {args.rooms * args.seats} ({args.rooms} rooms x {args.seats}), game {GAME}")
        print(f"think time           {args.think:.2f} s (x0.5..1.5)")
        print(f"accepted actions     {stats.actions} in {elapsed:.1f} s = {stats.actions / elapsed:.1f} actions/s")
        print(f"server CPU           {result['cpu_ms']:.2f} ms per accepted action (all processes, whole run)")
        print(f"games finished       {stats.games}; timed out waits {stats.refused}")
        print(f"latency to all views p50 {p(0.50):.1f} ms  p99 {p(0.99):.1f} ms  max {p(1.0):.1f} ms")
        if cap:
            print(f"CPU cap              {args.cpu_quota:.2f} cores per server process (control group)")
        print(f"load average         {load:.2f} (1 min, over the run; {os.cpu_count()} cores)")
        print(f"CPU used             server {cpu / elapsed:.2f} cores, this load generator {generator:.2f} cores")
        if processes == 1 and args.idle_rooms:
            grown = f"RSS growth over {args.idle_rooms} rooms"
            print(f"memory per idle room {per_room:.1f} KiB ({args.idle_game}, {grown})")
            print(f"rooms opened         {created:.0f}/s")
        return result
    finally:
        for server in servers:
            if PROFILE:
                server.send_signal(signal.SIGUSR1)
                time.sleep(3)
            server.terminate()
            server.wait(10)
        if cap:
            cap.release()


def run_baseline(ref: str, argv: list[str]) -> list[dict[str, Any]]:
    """This benchmark run again against the table of git ``ref`` (a temporary worktree)."""
    repo = Path(__file__).resolve().parents[1]
    folder = Path(tempfile.mkdtemp(prefix="ludica-baseline-")) / "tree"
    out = folder.parent / "results.json"
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", "-q", str(folder), ref], check=True)
    try:
        env = {**os.environ, "PYTHONPATH": str(folder), "LUDICA_PURE": "1"}
        rest = [a for a in argv if a != "--baseline" and a != ref]
        subprocess.run([sys.executable, __file__, *rest, "--results", str(out)], env=env, check=True)
        return list(json.loads(out.read_text()))
    finally:
        subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(folder)], check=False)


def print_table(rows: list[dict[str, Any]]) -> None:
    print()
    print(
        "| build | processes | game | seats | think | accepted actions/s | vs 1 process | server CPU / action "
        "| server cores | p50 | p99 | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        one = next((o for o in rows if o["build"] == r["build"] and o["processes"] == 1), None)
        scale = f"x{r['actions_s'] / one['actions_s']:.2f}" if one and one["actions_s"] else "-"
        cores = f"{r.get('server_cores', float('nan')):.2f}"
        if r.get("cpu_quota"):
            cores += f" (cap {r['cpu_quota']:.2f} each)"
        print(
            f"| {r['build']} | {r['processes']} | {r['game']} | {r['seats']} | {r['think']:.1f} s "
            f"| {r['actions_s']:.1f} | {scale} | {r['cpu_ms']:.2f} ms | {cores} "
            f"| {r['p50']:.1f} ms | {r['p99']:.1f} ms | {r['load']:.2f} |"
        )


def main() -> None:
    global GAME, PROFILE
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--seats", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of play")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between a view and the next action")
    parser.add_argument("--idle-rooms", type=int, default=300)
    parser.add_argument("--idle-game", default="pig", help="game of the idle rooms (memory figure)")
    parser.add_argument("--idle-seats", type=int, default=4)
    parser.add_argument("--db", default=None, help="database URL (default: SQLite in a temporary folder)")
    parser.add_argument("--game", default="pig", help="game the load generator plays (default: pig)")
    parser.add_argument("--samples", type=int, default=60, help="actions measured for the server's cost")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cost-only", action="store_true", help="measure the server's cost per action only")
    parser.add_argument("--no-cost", action="store_true", help="skip the server's cost per action")
    parser.add_argument(
        "--processes", default="1", help="server processes to run in turn, e.g. 1,2 (several need --db postgresql://)"
    )
    parser.add_argument(
        "--cpu-quota",
        type=float,
        metavar="CORES",
        help="cap each server process at CORES of CPU (a Linux control group; root): "
        "measures 1 against 2 processes on a machine whose cores the generator and database share",
    )
    parser.add_argument("--baseline", metavar="REF", help="first run the same against git REF (the previous build)")
    parser.add_argument("--build", default="this", help="the build's name in the table")
    parser.add_argument("--results", help=argparse.SUPPRESS)
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile, statistics to FILE")
    args = parser.parse_args()
    GAME, PROFILE = args.game, args.profile
    rows: list[dict[str, Any]] = []
    if args.baseline:
        print(f"== previous build ({args.baseline})", flush=True)
        rows += run_baseline(args.baseline, [*sys.argv[1:], "--build", f"previous ({args.baseline})"])
        print("== this build", flush=True)
    if not args.no_cost:
        measure_costs(args.samples, args.seed)
    if not args.cost_only:
        for n in (int(x) for x in args.processes.split(",")):
            rows.append({"build": args.build, **asyncio.run(main_async(args, n))})
    if args.results:
        Path(args.results).write_text(json.dumps(rows))
    elif rows:
        print_table(rows)


if __name__ == "__main__":
    main()
