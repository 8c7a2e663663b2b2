"""Screenshots of what a newcomer reads beside the options they hesitate over, in every game.

For each of the five games a room is opened at the web table with bots at every other seat; the
person's seat plays through the page (an offered action picked at random, as a newcomer clicking
about would) until each choice of interest is offered: then that choice is opened with its first
option's steps (so every option shows its consequence) and the page is shot at 1280x800 and at
390x844. The same choices are met in the terminal (``ludica play GAME`` with bots, in tmux at
80x24, answering the first option until the choice shows, then opening it) and the screen is
kept as text. Last, the talk panel of a Euphoria room with three bots, after a round.

    LUDICA_PURE=1 python benchmarks/newcomer_shots.py [--out shots/newcomer] [--games euphoria,...]
        [--actions 160] [--no-terminal] [--no-web]

Prints, per game and front end, which choices were shot and which were not met within the bound.
Needs Chromium at /usr/bin/chromium (Playwright) and tmux.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

TARGETS: dict[str, dict[str, tuple[str, ...]]] = {
    "euphoria": {
        "place": ("Place a worker",),
        "resolve_dilemma": ("dilemma",),
        "retrieve": ("Retrieve",),
        "pay": ("Pay",),
    },
    "great-city": {
        "flip_city_stone": ("Flip a city stone",),
        "buy_tie": ("Buy a tie",),
        "flip": ("Flip",),
    },
    "lost-days": {
        "sell_memory": ("Sell a memory to the Market",),
        "pay_tribute": ("Pay tribute",),
        "approve_memory": ("Approve the memory", "Veto the memory"),
        "narrate_memory": ("Bring a memory into the conflict",),
    },
    "misery-bubblegum": {
        "set_ratings": ("ratings",),
        "choose_arrow": ("arrow", "meaning"),
        "use_trait": ("Use trait",),
        "accept_trait": ("Accept trait", "Offer trait"),
        "reclaim": ("Reclaim",),
    },
    "euthymia": {
        "launch_conflict": ("Launch a Conflict",),
        "play_conflict_card": ("Play a card",),
        "drink": ("Drink",),
        "pour": ("Pour",),
    },
}
"""Per game, the action types a newcomer hesitated over, with words of their titles (the terminal
finds them by these)."""

OPTION = re.compile(r"^\s*(\d+)\. ")
"""An option of the terminal's list: "   3. Sell a memory to the Market"."""
PLAYERS = {"euphoria": 4, "great-city": 3, "lost-days": 3, "misery-bubblegum": 3, "euthymia": 4}
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]
SIZES = {"wide": (1280, 800), "phone": (390, 844)}
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
OPEN_STEPS = "f => { for (let d = f.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }"
OPEN_CHOICE = """(d) => {
  d.open = true;
  const first = d.querySelector('details.option');
  if (first) first.open = true;
  d.scrollIntoView({block: 'start'});
}"""


# -- the web table -----------------------------------------------------------------------------
class Server:
    """The table on uvicorn in a thread (a room's live state is read to know whose turn it is)."""

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

    def room(self, room_id: str) -> Any:
        return self.app.state.table().rooms.live[room_id]


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _open_room(server: Server, game_id: str, players: int, bot: str) -> tuple[str, str]:
    import urllib.request

    bots = {f"p{i}": bot for i in range(2, players + 1)}
    body = json.dumps({"game": game_id, "players": NAMES[:players], "bots": bots}).encode()
    request = urllib.request.Request(
        server.url + "/rooms", data=body, headers={"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request) as response:
        data = json.load(response)
    link = next(i["url"] for i in data["invites"] if i["role"] == "p1")
    return str(data["room"]), str(link)


def _click_an_action(page: Any, rng: random.Random) -> None:
    forms = page.locator("#actions form.act").all()
    if not forms:
        return
    form = rng.choice(forms)
    form.evaluate(OPEN_STEPS)
    for field in form.locator("input[data-kind='text']").all():
        prefix = field.get_attribute("data-prefix") or ""
        field.fill(f"{prefix} the lamp goes out".strip())
    form.locator("button[type=submit]").click(timeout=10_000)


def _caught_up(page: Any, step: int) -> bool:
    """The page shows ``step`` or a later one; a page left behind is loaded again (False)."""
    try:
        page.wait_for_function(f"Number(document.getElementById('table').dataset.step) >= {step}", timeout=15_000)
        return True
    except Exception:  # playwright's TimeoutError: a missed update
        page.reload()
        page.wait_for_selector("#table[data-step]")
        return False


def _shoot(page: Any, choice: Any, out: Path, name: str) -> str:
    """``choice`` opened with its first option's steps, shot at every size."""
    if choice.evaluate("e => e.tagName", timeout=5_000) == "DETAILS":
        choice.evaluate(OPEN_CHOICE, timeout=5_000)
    files = []
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        choice.scroll_into_view_if_needed(timeout=5_000)
        target = out / f"{name}-{size}.png"
        page.screenshot(path=str(target), full_page=False)
        files.append(target.name)
    page.set_viewport_size({"width": 1280, "height": 800})
    return ", ".join(files)


def web(game_id: str, out: Path, actions: int, browser: Any, server: Server) -> dict[str, str]:
    """Shoot each target choice of ``game_id`` at both sizes; returns type -> file (or why not)."""
    room_id, link = _open_room(server, game_id, PLAYERS[game_id], "heuristic")
    room = server.room(room_id)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    page.goto(server.url + link)
    page.wait_for_selector("#table[data-step]")
    rng = random.Random(5)
    wanted = dict.fromkeys(TARGETS[game_id], "not offered within the bound")
    done = 0
    deadline = time.monotonic() + 300
    while done < actions and not room.match.is_over() and time.monotonic() < deadline:
        if "p1" not in room.match.pending().seats:
            time.sleep(0.1)
            continue
        step = room.step
        if not _caught_up(page, step):
            continue
        for kind in list(wanted):
            if not wanted[kind].startswith("not"):
                continue
            choice = page.locator(f"#actions details.choice[data-type='{kind}'], #actions form.act[data-type='{kind}']")
            if choice.count():
                try:
                    wanted[kind] = _shoot(page, choice.first, out, f"{game_id}-{kind}")
                except Exception:  # the page was redrawn meanwhile (a bot moved): shot at the next turn
                    page.set_viewport_size({"width": 1280, "height": 800})
        if all(not v.startswith("not") for v in wanted.values()):
            break
        try:
            _click_an_action(page, rng)
        except Exception:  # a redraw between pick and click: pick again on the page as it now is
            continue
        wait = time.monotonic() + 15
        while room.step == step and time.monotonic() < wait:
            time.sleep(0.05)
        done += 1
    context.close()
    return wanted


def talk_panel(out: Path, browser: Any, server: Server, actions: int) -> str:
    """A Euphoria room with three bots: the person plays a round, then the talk panel is shot."""
    room_id, link = _open_room(server, "euphoria", 4, "heuristic")
    room = server.room(room_id)
    page = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True).new_page()
    page.goto(server.url + link)
    page.wait_for_selector("#table[data-step]")
    rng = random.Random(3)
    done = 0
    deadline = time.monotonic() + 240
    while done < actions and not room.match.is_over() and time.monotonic() < deadline:
        if "p1" not in room.match.pending().seats:
            time.sleep(0.1)
            continue
        step = room.step
        if not _caught_up(page, step):
            continue
        try:
            _click_an_action(page, rng)
        except Exception:  # a redraw between pick and click
            continue
        wait = time.monotonic() + 15
        while room.step == step and time.monotonic() < wait:
            time.sleep(0.05)
        done += 1
    files = []
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        panel = page.locator("#chat-log")
        if panel.count():
            panel.first.scroll_into_view_if_needed()
        target = out / f"euphoria-talk-{size}.png"
        page.screenshot(path=str(target))
        files.append(target.name)
    return ", ".join(files)


# -- the terminal ------------------------------------------------------------------------------
def _tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def terminal(game_id: str, out: Path, answers: int) -> dict[str, str]:
    """``ludica play`` in tmux at 80x24 with bots at the other seats: answer the first option until
    a target choice is listed, then open it and keep the screen as text."""
    session = f"newcomer-{game_id}"
    players = PLAYERS[game_id]
    bots = " ".join(f"--bot p{i}=heuristic" for i in range(2, players + 1))
    save = Path(tempfile.gettempdir()) / f"{session}.json"
    env = " ".join(f"{k}={shlex.quote(os.environ[k])}" for k in ("PYTHONPATH", "LUDICA_PURE") if k in os.environ)
    command = (
        f"cd {shlex.quote(str(Path.cwd()))} && env {env} {sys.executable} -m ludica.cli play {game_id}"
        f" --players {players} --seed 4 {bots} --save {save}; sleep 5"
    )
    _tmux("kill-session", "-t", session)
    _tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", command)
    wanted = dict.fromkeys(TARGETS[game_id], "not listed within the bound")
    try:
        time.sleep(3)
        for _ in range(answers):
            screen = _tmux("capture-pane", "-p", "-t", session)
            for kind, words in TARGETS[game_id].items():
                if not wanted[kind].startswith("not"):
                    continue
                line = next(
                    (m for ln in screen.splitlines() if (m := OPTION.match(ln)) and any(w in ln for w in words)),
                    None,
                )
                if line is not None:
                    number = line.group(1)
                    (out / f"{game_id}-{kind}-terminal-list.txt").write_text(screen)
                    _tmux("send-keys", "-t", session, number, "Enter")
                    time.sleep(1.5)
                    opened = _tmux("capture-pane", "-p", "-t", session)
                    (out / f"{game_id}-{kind}-terminal.txt").write_text(opened)
                    wanted[kind] = f"{game_id}-{kind}-terminal.txt"
                    _tmux("send-keys", "-t", session, "back", "Enter")
                    time.sleep(1)
                    screen = _tmux("capture-pane", "-p", "-t", session)
            if all(not v.startswith("not") for v in wanted.values()):
                break
            if "Game over" in screen or not _tmux("list-sessions").count(session):
                break
            prompt = screen.rstrip().splitlines()[-1] if screen.strip() else ""
            typed = re.search(r"\b(?:text|words|name|stakes|situation|notes|ideal)\b", prompt, re.I)
            low = re.search(r"\((\d+)(?:\.\.| or )", prompt)  # "(1..4)", "(4..6)", "(5 or 6)": its first value
            answer = low.group(1) if low else ("the lamp goes out" if typed else "1")
            _tmux("send-keys", "-t", session, answer, "Enter")
            time.sleep(1.5)
        (out / f"{game_id}-terminal-last.txt").write_text(screen)
    finally:
        _tmux("kill-session", "-t", session)
    return wanted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="shots/newcomer", help="the folder the screenshots go to")
    parser.add_argument("--games", default=",".join(TARGETS))
    parser.add_argument("--actions", type=int, default=160, help="the person's actions per game, at most")
    parser.add_argument("--no-terminal", action="store_true")
    parser.add_argument("--no-web", action="store_true")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    games = [g for g in args.games.split(",") if g]
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
                try:
                    report[f"{game_id} web"] = web(game_id, out, args.actions, browser, server)
                except Exception as exc:  # one game's trouble does not stop the others' shots
                    report[f"{game_id} web"] = {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
                print(game_id, "web", report[f"{game_id} web"], flush=True)
            if "euphoria" in games:
                print("euphoria talk panel", talk_panel(out, browser, server, 24), flush=True)
            browser.close()
    if not args.no_terminal and shutil.which("tmux"):
        for game_id in games:
            report[f"{game_id} terminal"] = terminal(game_id, out, args.actions)
            print(game_id, "terminal", report[f"{game_id} terminal"], flush=True)
    (out / "report.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
