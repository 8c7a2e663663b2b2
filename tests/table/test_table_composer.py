"""The web composer (issue "One voice"): a decision is offered as one choice per action type whose
steps list only the values still legal, by name, with the components' texts; played by picking in
turn. Screenshots at 1280×800 and 390×844 are kept as artifacts."""

from __future__ import annotations

import re
from typing import Any

from ludica.core.names import raw_ids

from .chromium import skip_without_chromium

skip_without_chromium()  # before the shared browser fixtures (see tests/table/chromium.py)
from .test_table_browser import (  # noqa: F401, E402  (the browser and server fixtures)
    ARTIFACTS,
    browser,
    join,
    open_from_lobby,
    server,
    wait_all,
)

STEP_OPTIONS = "ul.options"


def options_at_once(page: Any) -> int:
    """The most options one open step shows at once."""
    return int(
        page.evaluate(
            "() => Math.max(0, ...[...document.querySelectorAll('#actions ul.options')]"
            ".filter(u => u.offsetParent !== null).map(u => u.children.length))"
        )
    )


def visible_text(page: Any) -> str:
    return str(page.locator("#actions").inner_text())


def test_euphoria_composed_in_the_browser(browser: Any, server: Any) -> None:  # noqa: F811
    host, links = open_from_lobby(browser, server, "euphoria", ["Ana", "Ben", "Cat"])
    room_id = links["p1"].split("/")[2].split("#")[0]
    room = server.room(room_id)
    pages = {role: join(browser, server, links[role]) for role in ("p1", "p2", "p3")}
    desk = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    desk.goto(server.url + links["p1"])
    desk.wait_for_selector("#table[data-step]")
    pages["p1"].context.close()
    pages["p1"] = desk
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # the recruits: one choice, open at once; its first step lists the four dealt recruits with their texts
    for role, page in pages.items():
        page.wait_for_selector("details.choice[open]")
        text = visible_text(page)
        assert "Choose your recruits" in text and "Active recruit (face up)" in text
        assert not raw_ids(text), raw_ids(text)
        if role == "p1":
            page.screenshot(path=str(ARTIFACTS / "composer-euphoria-recruits-desktop.png"), full_page=False)
        step = room.step
        page.locator("#actions details.option > summary").first.click()
        if role == "p2":
            page.screenshot(path=str(ARTIFACTS / "composer-euphoria-recruits-phone.png"), full_page=False)
        hidden = page.locator("#actions details.option[open] form.act button")
        assert 1 <= hidden.count() <= 3  # the active recruit is no longer offered as the hidden one
        hidden.first.click()
        page.wait_for_function(f"document.getElementById('table').dataset.step !== '{step}'")
    # the first turn: a worker, then an action space, grouped by region, never a wall of options
    turn = room.match.pending().seats[0]
    wait_all(pages, room.step)
    page = pages[turn]
    place = page.locator("#actions details.choice", has=page.locator("summary", has_text="Place a worker"))
    place.locator("summary").first.click()
    worker = place.locator("details.option > summary").first
    if worker.count():
        worker.click()
    assert options_at_once(page) <= 12
    text = visible_text(page)
    assert not raw_ids(text), raw_ids(text)
    assert re.search(r"Generator|Aquifer|Farm|Cloud Mine", text)  # the action spaces by their names
    page.screenshot(path=str(ARTIFACTS / f"composer-euphoria-place-{turn}.png"), full_page=False)
    # play by touching: a drawn component names its choice; touching it opens that step and focuses it
    space = place.locator("li[data-param='space']").first.get_attribute("data-value")
    page.evaluate(
        "v => { const b = document.createElement('button'); b.id = 'drawn';"
        " b.dataset.pick = JSON.stringify({space: JSON.parse(v)});"
        " b.textContent = 'a drawn space'; document.getElementById('view').prepend(b); }",
        space,
    )
    page.click("#drawn")
    focused = page.evaluate("() => document.activeElement.closest('li[data-param]')?.dataset.value")
    assert focused == space
    step = room.step
    place.locator("form.act button").first.click()
    page.wait_for_function(f"document.getElementById('table').dataset.step !== '{step}'")
    assert room.match.actions[step].type == "place"
    host.context.close()
