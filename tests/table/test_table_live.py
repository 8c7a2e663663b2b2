"""The web table in a real browser (issue "Faces", points 2-5): live updates that respect the player,
a phone first page, playing by touching drawn components, and the small breakages mended.

- Typed text, open steps, the focus and the scroll position survive another seat's action and a
  clock tick (the page merges each new view instead of replacing it; ``table.js`` ``merge``).
- On a 390×844 phone no page scrolls sideways (the lobby, every game's play page, the story) and the
  seat's own hand or sheet starts on the first screen; the composer's touch targets are ≥ 44 px.
- Touching a drawn card, memory or die opens and focuses the matching composer option; playing it works.
- The lobby does not offer the example game; no page asks for a favicon that is not there.

Rooms are brought to the wanted position by random legal actions through the table's own ``act``
before any browser connects; then only the pages act. Screenshots go to ``tests/table/artifacts``.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ludica.bots.random_bot import RandomBot
from ludica.core import CHANCE
from ludica.core.actions import fill
from ludica.core.registry import GAME_MODULES

from .chromium import skip_without_chromium

skip_without_chromium()  # before the shared browser fixtures (see tests/table/chromium.py)
from .test_table_browser import (  # noqa: F401, E402  (the browser fixture)
    ARTIFACTS,
    OPEN_STEPS,
    ThreadServer,
    browser,
    click_an_action,
    server,
)

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}
PLAYERS = {
    "euthymia": ["Ann", "Bob", "Cy"],
    "lost-days": ["Ann", "Bob", "Cy"],
    "misery-bubblegum": ["Ann", "Bob", "Cy"],
    "great-city": ["Ann", "Bob", "Cy"],
    "euphoria": ["Ann", "Bob"],
}


@pytest.fixture
def clock_server(tmp_path: Path, port: int) -> Iterator[ThreadServer]:
    """The table with a fast clock (a tick a second), for the clock-tick test."""
    with ThreadServer(f"sqlite:///{tmp_path / 'clock.sqlite3'}", port, clock_interval=1.0) as s:
        yield s


def open_room(srv: ThreadServer, game: str) -> tuple[str, dict[str, str]]:
    created = httpx.post(srv.url + "/rooms", json={"game": game, "players": PLAYERS[game]}).json()
    return created["room"], {i["role"]: i["url"] for i in created["invites"]}


def fast_forward(
    srv: ThreadServer,
    room_id: str,
    done: Callable[[Any], bool],
    seed: int = 1,
    limit: int = 400,
    prefer: frozenset[str] = frozenset(),
) -> None:
    """Random legal actions through the room (no browser connected yet) until ``done(room)``;
    an action of a ``prefer`` type, whoever is offered it, is taken first (to steer towards a
    position: the final round, a conflict)."""
    room = srv.room(room_id)
    rng = random.Random(seed)
    bot = RandomBot(rng)
    for _ in range(limit):
        if done(room):
            return
        seats = [s for s in room.match.pending().seats if s != CHANCE]
        steer = [(s, a) for s in seats for a in room.match.legal_actions(s) if a.type in prefer]
        if steer:
            seat, a = rng.choice(steer)
            a = fill(a, rng)
        else:
            seat = seats[0]
            a = bot.choose(room.match, seat)
        room.act(seat, {"step": room.step, "action": {"type": a.type, "args": dict(a.args)}})
    raise AssertionError("the wanted position was not reached")


def offers(room: Any, seat: str, action_type: str) -> bool:
    return seat in room.match.pending().seats and any(a.type == action_type for a in room.match.legal_actions(seat))


def page_for(chromium: Any, srv: ThreadServer, link: str, viewport: dict[str, int] = PHONE) -> Any:
    page = chromium.new_context(viewport=viewport).new_page()
    page.goto(srv.url + link)
    page.wait_for_selector("#table[data-step]")
    return page


def step_of(page: Any) -> int:
    return int(page.evaluate("() => document.getElementById('table').dataset.step"))


def wait_step_after(page: Any, step: int) -> None:
    page.wait_for_function(f"Number(document.getElementById('table').dataset.step) > {step}", timeout=10000)


def no_sideways_scroll(page: Any) -> int:
    """How many pixels the page is wider than the screen (0 when nothing overflows)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))


def shoot(page: Any, name: str, folder: Path = ARTIFACTS) -> None:
    """The first screen of ``page`` as ``folder/name.png`` (the tests' artifacts, or ``docs/screens``)."""
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=False)


# -- live updates ------------------------------------------------------------------------------
def test_typing_survives_another_seats_action(browser: Any, server: ThreadServer) -> None:  # noqa: F811
    room_id, links = open_room(server, "euthymia")
    room = server.room(room_id)
    fast_forward(server, room_id, lambda r: offers(r, "p1", "create_character") and offers(r, "p2", "create_character"))
    ann, bob = page_for(browser, server, links["p1"]), page_for(browser, server, links["p2"])
    # Ann opens the narration, writes in it, then starts her character's name and keeps the focus there
    ann.click("#narration-box > summary")
    ann.fill("#narration", "The rain on the windows")
    name = ann.locator("#actions form.act[data-type='create_character'] input[data-arg='name']")
    name.fill("Ada Quill")
    name.evaluate("el => { el._probe = 'same node'; el.setSelectionRange(3, 3); }")
    ann.evaluate("() => window.scrollTo(0, 120)")
    scroll = ann.evaluate("() => window.scrollY")
    step = step_of(ann)
    click_an_action(bob, random.Random(3))  # Bob creates his character: a broadcast to Ann
    wait_step_after(ann, step)
    assert room.step > step
    assert name.input_value() == "Ada Quill"
    assert name.evaluate("el => el._probe") == "same node"  # merged, not rebuilt
    assert ann.evaluate("() => document.activeElement.dataset.arg") == "name"
    assert ann.evaluate("() => document.activeElement.selectionStart") == 3
    assert ann.input_value("#narration") == "The rain on the windows"
    assert ann.evaluate("() => document.getElementById('narration-box').open")
    assert ann.evaluate("() => window.scrollY") == scroll
    # what changed in the table is marked for a moment, then the mark fades
    assert ann.locator("#view .changed").count() >= 1
    ann.wait_for_function("() => !document.querySelector('#view .changed')", timeout=5000)
    shoot(ann, "live-euthymia-after-another-seat-phone")


def test_open_steps_and_focus_survive_a_clock_tick(browser: Any, clock_server: ThreadServer) -> None:  # noqa: F811
    room_id, links = open_room(clock_server, "euthymia")
    room = clock_server.room(room_id)
    ticking = lambda r: r.clock_template() is not None and offers(r, "p1", "commit_start_card")  # noqa: E731
    fast_forward(clock_server, room_id, ticking)
    ann = page_for(browser, clock_server, links["p1"])
    ann.wait_for_selector("#actions details.choice[data-type='commit_start_card']")
    # Ann folds the choice the table opened for her, opens the narration and types in it
    ann.evaluate("() => { document.querySelector(\"details.choice[data-type='commit_start_card']\").open = false; }")
    ann.click("#narration-box > summary")
    ann.locator("#narration").type("Eyes on the clock")
    step = step_of(ann)
    wait_step_after(ann, step)  # the table's clock ticked: a new view for everybody
    assert room.match.actions[-1].type == "clock"
    assert ann.input_value("#narration") == "Eyes on the clock"
    assert ann.evaluate("() => document.activeElement.id") == "narration"
    assert not ann.evaluate("() => document.querySelector(\"details.choice[data-type='commit_start_card']\").open")
    # and the other way round: an option opened by hand stays open
    ann.evaluate("() => { document.querySelector(\"details.choice[data-type='commit_start_card']\").open = true; }")
    step = step_of(ann)
    wait_step_after(ann, step)
    assert ann.evaluate("() => document.querySelector(\"details.choice[data-type='commit_start_card']\").open")


# -- play by touching ------------------------------------------------------------------------
# the composer option a touch picked: the focused one, or the one the confirm bar offers
# (a lone legal action is one button with no option list: the bar offers that form itself)
PICKED = """(param) => {
  const bar = document.getElementById('confirm-bar');
  const form = !bar.hidden && bar.form && bar.form.isConnected ? bar.form : null;
  const li = document.activeElement.closest('li[data-param]') || (form && form.closest('li[data-param]'));
  if (li) return [li.dataset.param, li.dataset.value, li.closest('[data-type]').dataset.type];
  return form ? [param, null, form.dataset.type] : null;
}"""


def touch_and_play(page: Any, room: Any, component: str, param: str, action_types: set[str]) -> None:
    """Touch a drawn component: the focus lands on the composer option with its value; play it."""
    # the page draws the view first and the composer's parts after it: touch once both are there
    kinds = sorted(action_types)
    composer = ", ".join(f"#actions details.choice[data-type='{t}'], #actions form[data-type='{t}']" for t in kinds)
    page.wait_for_selector(composer, state="attached")
    picked, wanted, before = None, None, room.step
    for _ in range(3):  # a live redraw (a bot, the clock) may replace the component as it is touched
        drawn = page.locator(component).first
        wanted = drawn.get_attribute("data-pick")
        drawn.scroll_into_view_if_needed()
        drawn.click()
        picked = page.evaluate(PICKED, param)
        if picked is not None or room.step != before:
            break
        page.wait_for_timeout(300)
    assert picked is not None, f"touching {wanted} picked nothing"
    if picked[1] is None and wanted is not None:  # the lone legal action of its kind
        picked[1] = json.dumps(json.loads(wanted)[param])
    assert picked[0] == param and wanted is not None and f'"{param}": {picked[1]}' in wanted
    assert picked[2] in action_types
    step = room.step
    focused = page.evaluate("() => document.activeElement.tagName")
    if focused == "SUMMARY":  # more steps below: take the first way on
        page.evaluate("() => document.activeElement.parentElement.querySelector('form.act button').focus()")
        page.evaluate(
            "() => { for (let d = document.activeElement.closest('details'); d;"
            " d = d.parentElement.closest('details')) d.open = true; }"
        )
    for field in page.locator("#actions details[open] form.act:focus-within input[data-kind='text']").all():
        field.fill("the glass trembles")
    if page.locator("#confirm-bar:not([hidden]) .yes").count():  # a completed choice: confirm it
        page.click("#confirm-bar .yes")
    else:
        page.evaluate("() => document.activeElement.click()")
    wait_step_after(page, step)
    played = room.match.actions[step]
    assert played.type in action_types and str(played.args[param]) == picked[1].strip('"')


def test_touching_a_card_plays_it(browser: Any, server: ThreadServer) -> None:  # noqa: F811
    room_id, links = open_room(server, "euthymia")
    room = server.room(room_id)
    fast_forward(server, room_id, lambda r: offers(r, "p1", "commit_start_card"))
    ann = page_for(browser, server, links["p1"])
    assert ann.locator("#view .eu-hand .eu-card[data-pick]").count() == len(room.match.view("p1")["you"]["hand"])
    touch_and_play(ann, room, "#view .eu-hand .eu-card[data-pick]", "card", {"commit_start_card"})


def test_touching_a_memory_selects_it(browser: Any, server: ThreadServer) -> None:  # noqa: F811
    room_id, links = open_room(server, "lost-days")
    room = server.room(room_id)
    fast_forward(server, room_id, lambda r: any(offers(r, s, "select_memory") for s in r.seats()))
    seat = next(s for s in room.seats() if offers(room, s, "select_memory"))
    page = page_for(browser, server, links[seat])
    memories = [m for m in room.match.view(seat)["memories"] if isinstance(m, dict)]
    assert page.locator("#view .ld-memory[data-pick]").count() >= len(memories) >= 1
    legal = {a.args["memory"] for a in room.match.legal_actions(seat) if a.type == "select_memory"}
    memory = f'#view .ld-memory[data-pick=\'{{"memory": "{sorted(legal)[0]}"}}\']'
    touch_and_play(page, room, memory, "memory", {"select_memory"})


def test_touching_a_die_selects_it(browser: Any, server: ThreadServer) -> None:  # noqa: F811
    room_id, links = open_room(server, "misery-bubblegum")
    room = server.room(room_id)
    fast_forward(server, room_id, lambda r: any(offers(r, s, "select_die") for s in r.seats()), seed=2, limit=3000)
    seat = next(s for s in room.seats() if offers(room, s, "select_die"))
    page = page_for(browser, server, links[seat])
    legal = sorted(a.args["die"] for a in room.match.legal_actions(seat) if a.type == "select_die")
    touch_and_play(page, room, f'#view .die[data-pick=\'{{"die": "{legal[0]}"}}\']', "die", {"select_die"})


def test_touching_the_only_die_offers_it_to_confirm(browser: Any, server: ThreadServer) -> None:  # noqa: F811
    """A lone legal action of its kind is one button, no option list: the touch offers it in the confirm bar."""
    room_id, links = open_room(server, "misery-bubblegum")
    room = server.room(room_id)
    dice = lambda r, s: [a.args["die"] for a in r.match.legal_actions(s) if a.type == "select_die"]  # noqa: E731
    lone = lambda r: any(offers(r, s, "select_die") and len(dice(r, s)) == 1 for s in r.seats())  # noqa: E731
    fast_forward(server, room_id, lone, seed=2, limit=3000)
    seat = next(s for s in room.seats() if offers(room, s, "select_die") and len(dice(room, s)) == 1)
    page = page_for(browser, server, links[seat])
    touch_and_play(page, room, f'#view .die[data-pick=\'{{"die": "{dice(room, seat)[0]}"}}\']', "die", {"select_die"})


# -- phone first, and the screenshots ---------------------------------------------------------
OWN = {"euthymia": "#view .eu-hand", "lost-days": "#view .ld-elf.mine", "misery-bubblegum": "#view .mb-sheet.mine"}
OWN_SAID = {"euthymia": "hand", "lost-days": "purse", "misery-bubblegum": "Misery"}
"""What the decision's context box says of the seat's own things when it shows them first."""
READY: dict[str, Callable[[Any], bool]] = {
    "euthymia": lambda r: offers(r, "p1", "commit_start_card"),
    "lost-days": lambda r: r.match.pending().phase in ("SCENE", "SESSION") or r.step > 40,
    "misery-bubblegum": lambda r: r.step > 12,
    "great-city": lambda r: r.step > 8,
    "euphoria": lambda r: r.step > 6,
}


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_every_page_fits_a_phone(browser: Any, server: ThreadServer, game: str) -> None:  # noqa: F811
    room_id, links = open_room(server, game)
    fast_forward(server, room_id, READY[game])
    room = server.room(room_id)
    seat = "p1"
    phone = page_for(browser, server, links[seat])
    phone.wait_for_selector("#view *")
    assert no_sideways_scroll(phone) <= 0, f"{game}: the play page scrolls sideways on a phone"
    # the decision is on the first screen
    first = phone.locator("#actions > *").first
    assert first.bounding_box()["y"] < PHONE["height"], f"{game}: the decision is below the first screen"
    small = phone.evaluate(
        "() => [...document.querySelectorAll('#actions button, #actions summary, #you-act summary')]"
        ".filter(e => e.offsetParent !== null).map(e => e.getBoundingClientRect().height).filter(h => h < 43.5).length"
    )
    assert small == 0, f"{game}: {small} touch targets under 44 px"
    story = phone.context.new_page()
    token = links[seat].split("#", 1)[1]
    story.goto(f"{server.url}/rooms/{room_id}/story.html?t={token}")
    assert no_sideways_scroll(story) <= 0, f"{game}: the story scrolls sideways on a phone"
    if game in OWN:
        own = phone.locator(OWN[game]).first
        box = own.bounding_box()
        about = phone.locator("div.about")  # what the decision is about, above it: the hand is read there too
        said = about.count() > 0 and OWN_SAID[game] in about.first.inner_text()
        near = said and (about.first.bounding_box() or {"y": PHONE["height"]})["y"] < PHONE["height"]
        shown = box is not None and box["y"] < PHONE["height"]
        assert shown or near, f"{game}: the seat's own things are below the fold"
        shoot(phone, f"face-{game}-phone")
        desk = page_for(browser, server, links[seat], DESK)
        desk.wait_for_selector("#view *")
        assert no_sideways_scroll(desk) <= 0
        shoot(desk, f"face-{game}-desktop")
        desk.screenshot(path=str(ARTIFACTS / f"face-{game}-desktop-full.png"), full_page=True)
        desk.context.close()
    assert room.step >= 0
    phone.context.close()


def test_the_lobby_fits_a_phone_and_offers_no_example(browser: Any, server: ThreadServer) -> None:  # noqa: F811
    missing: list[str] = []
    for viewport, name in ((PHONE, "phone"), (DESK, "desktop")):
        page = browser.new_context(viewport=viewport).new_page()
        page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
        page.goto(server.url + "/")
        page.wait_for_load_state("networkidle")
        assert page.locator("form.create-room").count() == len(GAME_MODULES)
        assert page.locator("form.create-room[data-game='pig']").count() == 0
        assert "Pig" not in page.locator("main").inner_text()
        assert no_sideways_scroll(page) <= 0
        shoot(page, f"lobby-{name}")
        page.context.close()
    dev = browser.new_context(viewport=PHONE).new_page()
    dev.goto(server.url + "/?examples=1")
    assert dev.locator("form.create-room[data-game='pig']").count() == 1
    dev.context.close()
    # a play page too: no request for a favicon (or anything else) ends in a 404
    _, links = open_room(server, "euthymia")
    page = browser.new_context(viewport=PHONE).new_page()
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    page.goto(server.url + links["p1"])
    page.wait_for_selector("#table[data-step]")
    time.sleep(0.3)
    assert not missing, missing
    page.context.close()


def test_a_sent_form_is_emptied_when_the_game_moves_on(browser: Any, server: ThreadServer) -> None:  # noqa: F811
    """Typed text is kept until it is sent: the same decision coming back (the next memory) starts empty."""
    room_id, links = open_room(server, "lost-days")
    room = server.room(room_id)
    ann = page_for(browser, server, links["p1"])
    field = ann.locator("#actions form.act[data-type='write_memory'] input[data-kind='text']").first
    field.evaluate(OPEN_STEPS)
    prefix = field.get_attribute("data-prefix") or ""
    field.fill(f"{prefix} the rain on the palace roof".strip())
    step = step_of(ann)
    field.locator("xpath=ancestor::form").locator("button[type=submit]").click()
    wait_step_after(ann, step)
    assert room.match.actions[step].type == "write_memory"
    assert offers(room, "p1", "write_memory")  # Ann writes more than one memory in a round
    again = ann.locator("#actions form.act[data-type='write_memory'] input[data-kind='text']")
    assert again.count() and all("palace roof" not in f.input_value() for f in again.all())
