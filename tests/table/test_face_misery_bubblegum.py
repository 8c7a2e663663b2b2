"""Misery Bubblegum's own face (``ludica/games/misery_bubblegum/web/view.html``) at the table.

Seeded random games at 2, 3 and 4 players (one with round-robin calling): at many steps the face is
rendered for every seat and a spectator, directly (so an exception fails the test) and through
:func:`render_view` (which would fall back to the generic face), and checked for the key facts.
Everything in this game is public, but the check against ``game.secrets`` runs all the same.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.bots.random_bot import RandomBot, walk_random
from ludica.core import Config, Match, get_game
from ludica.table.faces import has_own_face, render_face, render_view
from ludica.table.rooms import seat_labels

GAME = "misery-bubblegum"
NAMES = ("Ana", "Ben", "Cleo", "Dev")


def check_faces(match: Match[Any]) -> int:
    game = match.game
    names = seat_labels(match.game, match)
    pending = match.pending().to_json()
    secrets = game.secrets(match.state)
    rendered = 0
    for seat in (*names, None):
        view = match.view(seat)
        html = render_face(game, view, seat, names, pending)  # raises if the face breaks
        assert 'class="misery-bubblegum"' in html
        assert 'class="generic-view"' not in render_view(game, view, seat, names, pending)
        assert f"Now: <strong>{view['phase'].replace('_', ' ').lower()}</strong>" in html  # never SHOUTED (issue 20)
        for c in view["characters"]:
            assert c["name"] in html
            # Misery drawn as dice, with its count for a screen reader
            assert f'aria-label="{c["misery"]} Misery {"die" if c["misery"] == 1 else "dice"}"' in html
        action = view.get("action")
        if action:
            assert f"Action {action['number']}:" in html
            for p in action["participants"]:
                for d in p["dice"]:
                    assert f'title="{d["die"]}' in html
                    assert f'data-pick=\'{{"die": "{d["die"]}"}}\'' in html  # touching a die selects it
        for secret in secrets:
            if seat not in secret.holders:
                assert secret.token not in html, (seat, secret.what)
        rendered += 1
    return rendered


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(2, 1, {}), (3, 2, {}), (4, 3, {"calling_order": "round_robin"}), (2, 4, {"gm": False})],
)
def test_misery_bubblegum_face_renders_every_seat(players: int, seed: int, options: dict[str, Any]) -> None:
    game = get_game(GAME)
    assert has_own_face(game)
    match = Match(game, Config(NAMES[:players], options, seed))
    rendered = 0
    for step in walk_random(match, random.Random(seed), max_steps=2000):
        if step % 3 == 0:
            rendered += check_faces(match)
    rendered += check_faces(match)
    html = render_face(game, match.view(None), None, seat_labels(game, match), match.pending().to_json())
    assert "The session is over." in html
    assert rendered > 20


def test_misery_bubblegum_face_shows_traits_offers_and_influence() -> None:
    """Random play never makes a Trait (docs/rules), so the sheet's other parts are checked on a view
    given them by hand, shaped as ``view.py`` makes them."""
    game = get_game(GAME)
    match = Match(game, Config(NAMES[:2], {}, 5))
    rng = random.Random(5)
    bot = RandomBot(rng)
    while "action" not in match.view("p1") or match.view("p1")["action"]["participants"][0]["dice"][0]["face"] is None:
        pending = match.pending()
        if pending.is_chance:
            match.deal()
        else:
            match.apply(bot.choose(match, pending.seats[0]))
    view = match.view("p1")
    sheet = view["characters"][0]
    sheet["influence"] = {"p2": 3}
    sheet["traits"] = [{"id": "t7", "text": "Smart enough to know better", "value": 4, "creator": "p2"}]
    sheet["resources"] = [
        {
            "id": "r3",
            "kind": "threat",
            "text": "The debt collector",
            "value": 2,
            "active": True,
            "blocking": [5, 2],
            "aid": [],
        }
    ]
    view["provisional_traits"] = [{"id": "t8", "target": "p2", "offerer": "p1", "text": "Quick temper", "dice": 2}]
    view["declaring"] = {"seat": "p2", "accepted": ["t9"], "dice": 1}
    view["ready_to_end"] = ["p2"]
    view["action"]["wipe"] = {"trait": "t7", "value": 2, "faces": [1, 2, 4, 6]}
    view["novelty"] = {"something": "new"}
    names = seat_labels(match.game, match)
    html = render_face(game, view, "p1", names, match.pending().to_json())
    for fact in (
        "3 of Ben’s",
        "“Smart enough to know better” — 4",
        "from Ben",
        "Threat</strong> “The debt collector” — 2, active",
        "Blocking dice: 5, 2",
        "“Quick temper” offered to Ben by Ana (you), with a bribe of 2 dice",
        "Ben is declaring an action, having accepted Trait t9",
        "Ready to end the session: Ben",
        "Misery dice rolled: 1, 2, 4, 6",
        "novelty",
    ):
        assert fact in html, fact
