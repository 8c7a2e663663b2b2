"""Screenshots of what a newcomer reads beside the options they hesitate over, in every game.

For each game and each choice of interest (an action type, :data:`TARGETS`), a match is first
played in-process by a type-seeking explorer (the rarest offered type first, else the game's
heuristic bot) until that type is legal for a seat; the match's record up to that decision is
kept under ``OUT/records``. Then, for that seat:

- the web table: a room is opened (no bots), brought to that position through the room's own
  commit path, the seat's page opened in Chromium, the choice opened with its first option's steps
  (so every option shows its consequence) and shot at 1280x800 and 390x844;
- the terminal: ``ludica play --load RECORD`` runs in tmux at 80x24 with bots at every other
  seat; the choice is opened (its first step listed with each value's consequence; a one-button
  choice is only listed, its consequence beside it) and the screen kept as text
  (``-terminal.txt``, and with the scrollback ``-terminal-scroll.txt``).

    LUDICA_PURE=1 python benchmarks/newcomer_shots.py [--out shots/newcomer] [--games euphoria,...]
        [--targets place,flip] [--no-terminal] [--no-web]

Prints, per game and front end, which choices were shot (and where) and which were not reached.
Needs Chromium at /usr/bin/chromium (Playwright) and tmux.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# this checkout's sources are shot (its ``ludica`` before an installed one; PYTHONPATH's first)
sys.path.insert(1 + len(os.environ.get("PYTHONPATH", "").split(os.pathsep)), str(Path(__file__).resolve().parents[1]))

from ludica.bots.base import make_bot, situation
from ludica.core import CHANCE, Action, Config, Match, get_game
from ludica.core.actions import fill
from ludica.core.composer import Choice, choices
from ludica.core.names import namer_of
from ludica.core.records import save_record
from ludica.terminal import Terminal

ROOT = Path(__file__).resolve().parents[1]
"""The checkout shot: the terminal runs its ``ludica`` too."""

TARGETS: dict[str, tuple[str, ...]] = {
    "euphoria": ("place", "resolve_dilemma", "retrieve", "pay", "offer_trade", "answer_trade"),
    "great-city": ("flip_city_stone", "buy_tie", "flip", "choose_foil", "add_tie", "end_ties", "undo_flip"),
    "lost-days": (
        "sell_memory",
        "pay_tribute",
        "approve_memory",
        "veto_memory",
        "bring_staked_memory",
        "narrate_memory",
        "raise_bid",
        "accept_trade",
    ),
    "misery-bubblegum": (
        "set_ratings",
        "choose_arrow",
        "address_desire",
        "increase_resource",
        "create_resource",
        "end_meaning",
        "use_trait",
        "accept_trait",
        "offer_trait",
        "reclaim",
    ),
    "euthymia": ("launch_conflict", "play_conflict_card", "drink", "pour", "commit_start_card", "vote_cm_change"),
}
"""Per game, the action types a newcomer hesitated over."""

PLAYERS = {"euphoria": 4, "great-city": 3, "lost-days": 3, "misery-bubblegum": 3, "euthymia": 4}
OPTIONS: dict[str, dict[str, Any]] = {
    "lost-days": {"starting_purse": 20},
    "misery-bubblegum": {"calling_order": "round_robin"},
}
"""Options that make a rare choice come sooner (coins enough to raise on a tie; each player in turn
calls an action, so that Traits are offered and used)."""
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]
SIZES = {"wide": (1280, 800), "phone": (390, 844)}
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
OPEN_CHOICE = """(d) => {
  if (d.tagName === 'DETAILS') d.open = true;
  let p = d.parentElement && d.parentElement.closest('details');
  for (; p; p = p.parentElement.closest('details')) p.open = true;
  const first = d.querySelector('details.option');
  if (first) first.open = true;
  for (const s of d.querySelectorAll('details')) if (!s.classList.contains('option')) s.open = true;
}"""
OPEN_STEPS = "f => { for (let d = f.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }"
"""Opens every ``details`` around an action's form, so its button can be clicked."""
TO_TOP = (
    "() => { for (const e of document.querySelectorAll('*')) if (e.scrollTop) e.scrollTop = 0; window.scrollTo(0, 0); }"
)
"""Every scrolled part back to its top (the actions' column scrolls on its own at 1280x800)."""
TRIES = 60
"""Explorer seeds per game before a choice is said not reached."""
CURIOUS = 0.5
"""How often the explorer takes the least-taken legal type when no type is new."""
MAX_STEPS = 2500


# -- reaching a choice in-process ----------------------------------------------------------------
@dataclass
class Found:
    """Where a choice was first offered: the record's length there and the seat offered it."""

    index: int
    seat: str


def explore(game_id: str, config: Config, wanted: set[str], seed: int) -> tuple[list[Action], dict[str, Found]]:
    """One match played by the explorer until every type of ``wanted`` was offered (or the end);
    returns its actions and, per type offered, where it was first."""
    game = get_game(game_id)
    match: Match[Any] = Match(game, config)
    rng = random.Random(seed)
    bots: dict[str, Any] = {}
    taken: Counter[str] = Counter()
    found: dict[str, Found] = {}
    for _ in range(MAX_STEPS):
        pending = match.pending()
        if pending.is_over or wanted <= found.keys():
            break
        if pending.is_chance:
            match.deal(trusted=True, pending=pending)
            continue
        seats = [s for s in pending.seats if s != CHANCE]
        legal = {s: match.legal_actions(s) for s in seats}
        for seat in seats:
            for kind in sorted({a.type for a in legal[seat]} & wanted - found.keys()):
                found[kind] = Found(len(match.actions), seat)
        kinds = sorted({a.type for s in seats for a in legal[s]})
        least = min(taken[t] for t in kinds)
        if least == 0 or rng.random() < CURIOUS:
            kind = rng.choice([t for t in kinds if taken[t] == least])
            action = fill(rng.choice([a for s in seats for a in legal[s] if a.type == kind]), rng)
        else:
            seat = rng.choice(seats)
            if seat not in bots:
                bots[seat] = make_bot("heuristic", game_id, seed * 31 + len(bots))
            action = bots[seat].decide(situation(match, seat)).as_action()
        taken[action.type] += 1
        match.apply(action, trusted=True, pending=pending)
    return list(match.actions), found


def the_choice(match: Match[Any], seat: str, kind: str) -> Choice:
    """The choice of type ``kind`` the seat is offered now."""
    return next(c for c in choices(match.legal_actions(seat)) if c.type == kind)


def keep_record(game_id: str, config: Config, actions: list[Action], found: Found, path: Path) -> Match[Any]:
    """The match up to ``found``, saved at ``path`` with bots at every seat but those deciding."""
    match: Match[Any] = Match(get_game(game_id), config)
    match.replay(actions[: found.index], check=False)
    seats = [s for s in match.game.seats(match.state) if s != CHANCE]
    deciding = match.pending().seats  # people (a bot deciding first could change the seat's choice)
    match.settings = {"bots": {s: "heuristic" for s in seats if s not in deciding}}
    path.parent.mkdir(parents=True, exist_ok=True)
    save_record(match, path)
    return match


# -- the web table -----------------------------------------------------------------------------
class Server:
    """The table on uvicorn in a thread (its rooms are reached in-process to set a position)."""

    def __init__(self, db: str, port: int) -> None:
        import uvicorn

        from ludica.table.server import create_app

        self.app = create_app(f"sqlite:///{db}")
        self.port = port
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def open_room(self, game_id: str) -> tuple[str, dict[str, str]]:
        """A new room of ``game_id`` without bots, opened in-process (as the table's ``POST /rooms``
        does, without its limit of rooms per address); returns its id and each seat's link."""
        rooms = self.app.state.table().rooms
        room, invites = rooms.create(game_id, NAMES[: PLAYERS[game_id]], OPTIONS.get(game_id, {}))
        return str(room.id), {i.role: f"/play/{room.id}#{i.token}" for i in invites}


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def bring(server: Server, room_id: str, actions: list[Action], index: int) -> None:
    """The room brought to the record's first ``index`` actions through its own commit path (the
    room dealt the same chance steps: the explorer played with the room's own config); then the
    table forgets it, to load it afresh from its record when the page asks (as another process's)."""
    table = server.app.state.table()
    room = table.rooms.get(room_id)
    start = room.step
    if start == index:
        return
    if [a.to_json() for a in room.match.actions] != [a.to_json() for a in actions[:start]]:
        raise RuntimeError("the room's deal differs from the explored match's")
    for action in actions[start:index]:
        room.match.apply(action, trusted=True)
    room._persist(start)
    table.forget(room_id)


def shoot_web(page: Any, url: str, step: int, kind: str, out: Path, name: str) -> str:
    """The seat's page at ``step`` with the ``kind`` choice opened, shot at every size."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(url)
    page.wait_for_selector(f"#table[data-step='{step}']", timeout=20_000)
    choice = page.locator(f"#actions details.choice[data-type='{kind}'], #actions form.act[data-type='{kind}']")
    if not choice.count():
        return "the page does not offer it"
    choice.first.evaluate(OPEN_CHOICE)
    files = []
    about = page.locator(".about")
    if about.count():  # the decision's context box scrolls on a phone: its whole text is kept too
        said = out / f"{name}-context.txt"
        said.write_text(about.first.inner_text())
        files.append(str(said))
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        choice.first.evaluate("e => e.scrollIntoView({block: 'start'})")
        target = out / f"{name}-{size}.png"
        page.screenshot(path=str(target))
        files.append(str(target))
        page.evaluate(TO_TOP)
        top = out / f"{name}-{size}-top.png"
        page.screenshot(path=str(top))
        files.append(str(top))
    return ", ".join(files)


def web(game_id: str, kinds: tuple[str, ...], out: Path, browser: Any, server: Server) -> dict[str, str]:
    """Shoot each choice of ``kinds`` at both sizes; returns type -> files (or why not)."""
    report = dict.fromkeys(kinds, "not reached")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    for seed in range(TRIES):
        missing = {k for k, v in report.items() if v == "not reached"}
        if not missing:
            break
        room_id, links = server.open_room(game_id)
        config = server.app.state.table().rooms.get(room_id).config
        actions, found = explore(game_id, config, missing, seed)
        for kind, where in sorted(found.items(), key=lambda kv: kv[1].index):
            page.goto("about:blank")  # the room's page closed while the room is moved on
            bring(server, room_id, actions, where.index)
            try:
                report[kind] = shoot_web(
                    page, server.url + links[where.seat], where.index, kind, out, f"{game_id}-{kind}"
                )
            except Exception as exc:  # one choice's trouble does not stop the others' shots
                report[kind] = f"error: {type(exc).__name__}: {str(exc)[:160]}"
    context.close()
    return report


def talk_panel(out: Path, browser: Any, server: Server, turns: int = 12) -> str:
    """A Euphoria room with three heuristic bots: the person plays ``turns`` of their turns on the
    page (the first offered action, its steps filled in), then the table talk is shot at every
    size (bots narrate into the story, not the talk)."""
    rooms = server.app.state.table().rooms
    bots = {f"p{i}": "heuristic" for i in range(2, 5)}
    room, invites = rooms.create("euphoria", NAMES[:4], {}, bots=bots)
    link = next(f"/play/{room.id}#{i.token}" for i in invites if i.role == "p1")
    page = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True).new_page()
    page.goto(server.url + link)
    page.wait_for_selector("#table[data-step]")
    played, deadline = 0, time.monotonic() + 240
    while played < turns and time.monotonic() < deadline:
        live = rooms.live.get(str(room.id))
        if live is None or live.is_over() or "p1" not in live.match.pending().seats:
            time.sleep(0.2)
            continue
        step = live.step
        try:
            page.wait_for_selector(f"#table[data-step='{step}']", timeout=15_000)
            form = page.locator("#actions form.act").first
            form.evaluate(OPEN_STEPS)
            for field in form.locator("input[data-kind='text']").all():
                field.fill(f"{field.get_attribute('data-prefix') or ''} the lamp goes out".strip())
            form.locator("button[type=submit]").click(timeout=5_000)
        except Exception:  # a redraw between look and click: look again
            continue
        while live.step == step and time.monotonic() < deadline:
            time.sleep(0.05)
        played += 1
    files = []
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.locator("#chat").scroll_into_view_if_needed()
        target = out / f"euphoria-talk-{size}.png"
        page.screenshot(path=str(target))
        files.append(str(target))
    (out / "euphoria-talk.txt").write_text(page.locator("#chat").inner_text())
    return f"{played} turns played; " + ", ".join(files)


# -- the terminal ------------------------------------------------------------------------------
def _tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def _settled(session: str, seconds: float = 40) -> str:
    """The pane once it stopped changing (a bot thinks, the screen is drawn) or after ``seconds``."""
    deadline = time.monotonic() + seconds
    last = ""
    while time.monotonic() < deadline:
        time.sleep(0.7)
        screen = _tmux("capture-pane", "-p", "-t", session)
        if screen == last and screen.strip() and not screen.rstrip().endswith("…"):  # not while a bot thinks
            return screen
        last = screen
    return last


def _option_number(screen: str, label: str) -> str | None:
    """The number the terminal lists ``label`` under ("  3. Sell a memory…"), the last listing."""
    head = label[:40]
    number = None
    for line in screen.splitlines():
        text = line.strip()
        mark, _, rest = text.partition(". ")
        if mark.isdigit() and (rest.startswith(head) or head.startswith(rest.rstrip("…"))):
            number = mark
    return number


def shoot_terminal(record: Path, match: Match[Any], where: Found, kind: str, out: Path, name: str) -> str:
    """``ludica play --load record`` in tmux at 80x24; the ``kind`` choice opened and kept as text."""
    session = f"newcomer-{name}"
    save = Path(tempfile.gettempdir()) / f"{session}.json"
    env = " ".join(f"{k}={shlex.quote(os.environ[k])}" for k in ("PYTHONPATH", "LUDICA_PURE") if k in os.environ)
    command = (
        f"cd {shlex.quote(str(ROOT))} && env {env} {shlex.quote(sys.executable)} -m ludica.cli play"
        f" --load {shlex.quote(str(record))} --save {shlex.quote(str(save))}; sleep 30"
    )
    _tmux("kill-session", "-t", session)
    _tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", command)
    choice = the_choice(match, where.seat, kind)
    deciding = [s for s in match.pending().seats if s != CHANCE]
    namer = namer_of(match, where.seat)
    label = Terminal.choice_label(namer, choice)
    title = namer.action_title(kind)
    try:
        screen = _settled(session)
        for _ in range(4):  # the chooser of several deciding seats, a hand-over: on to the seat's screen
            last = (screen.strip().splitlines() or [""])[-1]
            if "Who decides?" in last:
                _tmux("send-keys", "-t", session, str(deciding.index(where.seat) + 1), "Enter")
            elif "Hand the keyboard" in last:
                _tmux("send-keys", "-t", session, "Enter")
            else:
                break
            screen = _settled(session)
        number = _option_number(screen, label)
        if number is None and title not in screen:
            (out / f"{name}-terminal.txt").write_text(screen)
            return f"not listed as {label!r}: see {name}-terminal.txt"
        if number is not None and not choice.single:
            (out / f"{name}-terminal-list.txt").write_text(screen)
            _tmux("send-keys", "-t", session, number, "Enter")
            screen = _settled(session)
        (out / f"{name}-terminal.txt").write_text(screen)
        scroll = _tmux("capture-pane", "-p", "-S", "-", "-t", session)
        (out / f"{name}-terminal-scroll.txt").write_text(scroll)
        return str(out / f"{name}-terminal.txt")
    finally:
        _tmux("kill-session", "-t", session)
        save.unlink(missing_ok=True)


def terminal(game_id: str, kinds: tuple[str, ...], out: Path) -> dict[str, str]:
    """Each choice of ``kinds`` reached in-process, its record kept, then met in the terminal."""
    report = dict.fromkeys(kinds, "not reached")
    players = tuple(NAMES[: PLAYERS[game_id]])
    for seed in range(TRIES):
        missing = {k for k, v in report.items() if v == "not reached"}
        if not missing:
            break
        config = Config(players, OPTIONS.get(game_id, {}), 1000 + seed)
        actions, found = explore(game_id, config, missing, seed)
        for kind, where in sorted(found.items(), key=lambda kv: kv[1].index):
            record = out / "records" / f"{game_id}-{kind}.json"
            match = keep_record(game_id, config, actions, where, record)
            try:
                report[kind] = shoot_terminal(record, match, where, kind, out, f"{game_id}-{kind}")
            except Exception as exc:  # one choice's trouble does not stop the others'
                report[kind] = f"error: {type(exc).__name__}: {str(exc)[:160]}"
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", default="shots/newcomer", help="the folder the screenshots go to")
    parser.add_argument("--games", default=",".join(TARGETS))
    parser.add_argument("--targets", default="", help="only these action types (comma-separated)")
    parser.add_argument("--no-terminal", action="store_true")
    parser.add_argument("--no-web", action="store_true")
    parser.add_argument("--talk", action="store_true", help="also shoot the table talk of a Euphoria room with 3 bots")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    games = [g for g in args.games.split(",") if g]
    only = {t for t in args.targets.split(",") if t}
    kinds = {g: tuple(k for k in TARGETS[g] if not only or k in only) for g in games}
    report: dict[str, dict[str, str]] = {}
    if not args.no_web:
        from playwright.sync_api import sync_playwright

        with (
            tempfile.TemporaryDirectory() as tmp,
            Server(f"{tmp}/shots.sqlite3", _free_port()) as server,
            sync_playwright() as p,
        ):
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for game_id in games:
                report[f"{game_id} web"] = web(game_id, kinds[game_id], out, browser, server)
                _print(f"{game_id} web", report[f"{game_id} web"])
            if args.talk:
                report["talk"] = {"euphoria": talk_panel(out, browser, server)}
                _print("talk", report["talk"])
            browser.close()
    if not args.no_terminal and shutil.which("tmux"):
        for game_id in games:
            report[f"{game_id} terminal"] = terminal(game_id, kinds[game_id], out)
            _print(f"{game_id} terminal", report[f"{game_id} terminal"])
    kept = out / "report.json"  # a run of some games or targets updates the report of the others
    earlier = json.loads(kept.read_text()) if kept.exists() else {}
    for head, shots in report.items():
        earlier[head] = {**earlier.get(head, {}), **shots}
    kept.write_text(json.dumps(earlier, indent=1))


def _print(head: str, shots: dict[str, str]) -> None:
    print(head, flush=True)
    for kind, where in shots.items():
        print(f"  {kind}: {where}", flush=True)


if __name__ == "__main__":
    main()
