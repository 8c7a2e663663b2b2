"""In a real browser (issue 20, point 5): a request to take back shows "Withdraw my request" to the
one who asked, and the page says it was withdrawn; a watcher's place on the page holds while others move."""

from __future__ import annotations

import time
from typing import Any

from .chromium import skip_without_chromium

skip_without_chromium()  # before the shared browser fixtures (see tests/table/chromium.py)
from . import test_table_browser as tb  # noqa: E402
from .test_table_browser import ThreadServer, join, open_from_lobby, wait_all  # noqa: E402

browser, server = tb.browser, tb.server  # the browser tests' fixtures (Chromium, a table in a thread)


def step_of(table: ThreadServer, room_id: str) -> int:
    return int(table.room(room_id).step)


def act(table: ThreadServer, room_id: str, page: Any, name: str, pages: dict[str, Any]) -> None:
    step = step_of(table, room_id)
    page.get_by_role("button", name=name).first.click()
    deadline = time.monotonic() + 10
    while step_of(table, room_id) == step and time.monotonic() < deadline:
        time.sleep(0.02)
    wait_all(pages, step_of(table, room_id))


def test_withdraw_button_and_its_line_on_the_page(browser: Any, server: ThreadServer) -> None:
    host, links = open_from_lobby(browser, server, "pig", ["Ann", "Bob"])
    room_id = links["p1"].split("/")[2].split("#")[0]
    ann, bob = join(browser, server, links["p1"]), join(browser, server, links["p2"])
    pages = {"p1": ann, "p2": bob}
    act(server, room_id, ann, "wager (amount 1)", pages)
    act(server, room_id, bob, "wager (amount 2)", pages)
    ann.get_by_role("button", name="Ask everyone to take back the last action").click()
    ann.wait_for_selector("button[data-undo='withdraw']")
    assert bob.locator("button[data-undo='withdraw']").count() == 0
    ann.get_by_role("button", name="Withdraw my request").click()
    ann.wait_for_selector("text=Ann withdrew their request")
    assert ann.locator("button[data-undo='withdraw']").count() == 0
    host.context.close()


def test_a_watcher_s_place_holds_while_others_move(browser: Any, server: ThreadServer) -> None:
    host, links = open_from_lobby(browser, server, "pig", ["Ann", "Bob"])
    room_id = links["p1"].split("/")[2].split("#")[0]
    ann, bob = join(browser, server, links["p1"]), join(browser, server, links["p2"])
    watcher = join(browser, server, links["*spectator*"])
    watcher.set_viewport_size({"width": 390, "height": 300})  # the story is below the fold
    # as in Safari (no CSS scroll anchoring): the table itself must hold the watcher's place
    watcher.add_style_tag(content="html, body { overflow-anchor: none; }")
    pages = {"p1": ann, "p2": bob, "watch": watcher}
    act(server, room_id, ann, "wager (amount 1)", pages)
    act(server, room_id, bob, "wager (amount 1)", pages)
    watcher.evaluate("window.scrollTo(0, document.getElementById('log').getBoundingClientRect().top + window.scrollY)")
    before = watcher.evaluate("document.getElementById('log').getBoundingClientRect().top")
    assert watcher.evaluate("window.scrollY") > 0
    for _ in range(4):  # Ann rolls: "Just now" and the table above the story grow
        room = server.room(room_id)
        if room.match.is_over() or room.match.pending().seats[0] != "p1":
            break
        act(server, room_id, ann, "roll", pages)
    after = watcher.evaluate("document.getElementById('log').getBoundingClientRect().top")
    assert abs(after - before) <= 2, f"the watcher's place moved by {after - before}px"
    host.context.close()
