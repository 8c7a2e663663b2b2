"""Euphoria's own face (``ludica/games/euphoria/web/view.html``) at the table.

Seeded random games at 2, 3 and 4 players (one with the three drafts of the rulebook's variants):
at many steps the face is rendered for every seat and a spectator, directly (so an exception fails
the test) and through :func:`render_view` (which would fall back to the generic face), and checked
for the key facts and against ``game.secrets``: no card, recruit, dilemma or market a seat may not
see appears in its page, neither as its id nor as the words of its name.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from ludica.bots.random_bot import play_random, walk_random
from ludica.core import Config, Match, get_game
from ludica.table.faces import face_data, has_own_face, render_face, render_view
from ludica.table.rooms import seat_labels

from .test_face_great_city import assert_spoken

GAME = "euphoria"
NAMES = ("Ana", "Ben", "Cleo", "Dev")


def check_drawn(view: dict[str, Any], seat: str | None, html: str) -> None:
    """The components are drawn in the right numbers: every action space (with its touch), every
    worker die (on the board and in hand), your mat before the board, others' recruits face down."""
    data = face_data(get_game(GAME))
    spaces = list(data["spaces"])
    for site, info in view["sites"].items():
        spaces += list(info["spots"]) if "spots" in info else [f"{site}_market"]
    drawn = re.findall(r'class="eu-space[^"]*" data-space="([^"]+)"', html)
    assert sorted(drawn) == sorted(spaces)
    for space in spaces:
        assert f'data-pick=\'{{"space": "{space}"}}\' data-pick-type="place"' in html
    on_board = sum(len(occ) for occ in view["board"].values())
    in_hand = sum(len(p["available"]) for p in view["players"].values())
    assert html.count('<svg class="eu-die"') == on_board + in_hand
    if seat is not None:
        assert html.index('class="eu-mat mine') < html.index('id="eu-board-h"')
    backs = sum(p["hidden_recruits"] for s, p in view["players"].items() if s != seat)
    assert html.count('aria-label="a face-down recruit"') == backs


def check_faces(match: Match[Any]) -> int:
    game = match.game
    names = seat_labels(match.game, match)
    pending = match.pending().to_json()
    secrets = game.secrets(match.state)
    rendered = 0
    for seat in (*names, None):
        view = match.view(seat)
        html = render_face(game, view, seat, names, pending)  # raises if the face breaks
        assert 'class="euphoria"' in html
        assert 'class="generic-view"' not in render_view(game, view, seat, names, pending)
        lower = html.lower()
        check_drawn(view, seat, html)
        assert_spoken(html)
        assert f"phase: <strong>{view['phase'].replace('_', ' ')}</strong>" in lower
        assert f"Turn <strong>{view['turn_number']}</strong>" in html
        for s, p in view["players"].items():
            assert names[s] in html
            assert f"<dt>Morale</dt><dd>{p['morale']}</dd>" in html
            assert f"<dt>Authority tokens left</dt><dd>{p['stars_left']}</dd>" in html
        if seat is not None:
            mine = view["players"][seat]
            assert f"<dt>Artifact cards</dt><dd>{mine['artifacts']}" in html
            for recruit in mine["hidden"]:
                assert recruit.replace("_", " ") in lower
        for w in view["winners"]:
            assert names[w] in html and '<p class="winner">' in html
        for secret in secrets:
            if seat not in secret.holders:
                assert secret.token not in html, (seat, secret.what)
                assert secret.token.replace("_", " ").lower() not in lower, (seat, secret.what)
        rendered += 1
    return rendered


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (2, 1, {}),
        (3, 2, {"recruit_draft": True, "market_draft": True, "morale_knowledge_draft": True}),
        (4, 3, {"trades_per_turn": 2}),
    ],
)
def test_euphoria_face_renders_every_seat(players: int, seed: int, options: dict[str, Any]) -> None:
    game = get_game(GAME)
    assert has_own_face(game)
    match = Match(game, Config(NAMES[:players], options, seed))
    rendered = 0
    walk = walk_random(match, random.Random(seed), check=False)
    for step in walk:
        if step % (4 if step < 200 else 20) == 0:
            rendered += check_faces(match)
        if step == 899:
            break
    rendered += check_faces(match)
    assert rendered > 50


def test_euphoria_face_at_the_end_of_a_game() -> None:
    """A whole 2-player game, played without looking, then the final page of every seat."""
    game = get_game(GAME)
    match = Match(game, Config(NAMES[:2], {}, 11))
    play_random(match, random.Random(11), check=False)
    assert check_faces(match) == 3
    assert match.view(None)["winners"]


# -- in the browser ----------------------------------------------------------------------------------
try:
    from .test_face_great_city import advance, assert_no_secret
    from .test_table_browser import ARTIFACTS, browser, open_from_lobby, server  # noqa: F401
except pytest.skip.Exception:  # no Chromium: the render tests above still run
    browser = None


def place_ready(match: Match[Any]) -> bool:
    pending = match.pending()
    return len(pending.seats) == 1 and any(a.type == "place" for a in match.legal_actions(pending.seats[0]))


@pytest.mark.skipif(browser is None, reason="browser tests need Debian's Chromium")
@pytest.mark.parametrize("later", [0, 300])
def test_euphoria_face_in_the_browser(browser: Any, server: Any, later: int) -> None:
    host, links = open_from_lobby(browser, server, GAME, ["Ana", "Ben", "Cleo"])
    room_id = links["p1"].split("/")[2].split("#")[0]
    room = server.room(room_id)
    advance(server, room_id, lambda m: len(m.actions) >= later and place_ready(m), 5 + later)
    seat = room.match.pending().seats[0]
    spaces = sorted({a.args["space"] for a in room.match.legal_actions(seat) if a.type == "place"})
    view = room.match.view(seat)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    suffix = "" if later == 0 else "-later"
    for label, (width, height) in (("desktop", (1280, 800)), ("phone", (390, 844))):
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        page.goto(server.url + links[seat])
        page.wait_for_selector("#table[data-step] .euphoria")
        expected = len(face_data(room.game)["spaces"]) + sum(
            len(i["spots"]) if "spots" in i else 1 for i in view["sites"].values()
        )
        assert page.locator(".euphoria .eu-space[data-space]").count() == expected
        dice = sum(len(o) for o in view["board"].values()) + sum(len(p["available"]) for p in view["players"].values())
        assert page.locator(".euphoria svg.eu-die").count() == dice
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        assert_no_secret(room, seat, page, words=True)
        mat = page.locator(".euphoria .eu-mat.mine").bounding_box()
        assert mat is not None
        page.screenshot(path=str(ARTIFACTS / f"face-euphoria{suffix}-{label}.png"), full_page=False)
        page.screenshot(path=str(ARTIFACTS / f"face-euphoria{suffix}-{label}-full.png"), full_page=True)
        for part, selector in (("mat", ".eu-mat.mine"), ("board", ".eu-board")):
            shot = ARTIFACTS / f"face-euphoria{suffix}-{label}-{part}.png"
            page.locator(f".euphoria {selector}").first.screenshot(path=str(shot))
        if label == "desktop":
            page.context.close()
            continue
        # the seat's own mat begins on the first screen, or right after the decision above it
        assert mat["y"] < height * 2
        # play by touching: a space picks the composer's "place" at that space; when that completes
        # the choice it waits in the confirm bar (issue 20), else its next step has the focus
        space = spaces[-1]
        page.locator(f".euphoria .eu-space[data-space='{space}']").click()
        picked = page.evaluate(
            "() => { const li = document.querySelector('#actions li.picked');"
            " return li && [li.dataset.param, li.dataset.value]; }"
        )
        assert picked == ["space", json.dumps(space)]
        step = room.step
        if page.locator("#confirm-bar").is_visible():
            assert "places" in page.locator("#confirm-bar .what").inner_text()
            page.locator("#confirm-bar button.yes").click()
        else:
            button = page.locator(f"li[data-param='space'][data-value='{json.dumps(space)}'] form.act button").first
            button.evaluate(
                "b => { for (let d = b.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }"
            )
            button.click()
        page.wait_for_function(f"document.getElementById('table').dataset.step !== '{step}'")
        played = room.match.actions[step]
        assert played.type == "place" and played.args["space"] == space
        page.context.close()
    for role, link in links.items():  # every other seat's drawn page holds no secret of another
        if role == seat or role == "host":
            continue
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(server.url + link)
        page.wait_for_selector("#table[data-step] .euphoria")
        assert page.locator(".euphoria .eu-mat").count() == len(view["players"])
        assert_no_secret(room, role, page, words=True)
        page.context.close()
    host.context.close()
