"""Lost Days of Memories and Madness: its own face (``ludica/games/lost_days/web/view.html``) on
seeded random games.

At many steps of games of 3, 4 and 5 players the face is rendered for every seat and a spectator
with the functions of :mod:`ludica.table.faces`: it must render without falling back to the generic
face, show the phase, every elf's name, the King, every memory card, the dice of a conflict and the
seat's own sealed bid, and never show a sealed bid (``game.secrets``) to a seat that did not make it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.bots.random_bot import walk_random
from ludica.core import CHANCE, Config, Match, get_game
from ludica.table.faces import game_template, has_own_face, render_face, render_view
from ludica.table.rooms import seat_labels

GAME = "lost-days"
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
PHASE_WORDS = {
    "WRITING": "Memory creation: writing memories",
    "SEALED_BID": "Memory creation: sealed bids",
    "SCENE": "A scene",
    "INFLUENCE": "Conflict: influencing the dice",
    "GAME_OVER": "The game is over",
}


def check_faces(match: Match[Any], names: dict[str, str], roles: list[str | None]) -> set[str]:
    game = match.game
    pending = match.pending().to_json()
    secrets = game.secrets(match.state)
    phases = set()
    for role in roles:
        view = match.view(role)
        html = render_face(game, view, role, names, pending)  # a face that raises fails here
        assert 'class="lost-days"' in html and "generic-view" not in html
        phase = view["phase"]
        phases.add(phase)
        assert f'data-phase="{phase.lower()}"' in html
        if phase in PHASE_WORDS:
            assert PHASE_WORDS[phase] in html
        for p in view["players"]:
            assert names[p["seat"]] in html
        if view.get("king"):
            assert f"♛ {names[view['king']]}" in html
        for memory in view["memories"]:
            # each memory is drawn as a card to touch (its text is its name)
            assert f'data-pick=\'{{"memory": "{memory["id"]}"}}\'' in html
        conflict = view.get("conflict")
        if conflict:
            for side in ("a", "b"):
                for face in conflict["dice"][side]:
                    assert f'<li class="die">{face}</li>' in html
        auction = view.get("auction")
        if auction and auction.get("my_bid"):
            assert "Your sealed bid" in html and f"<strong>{auction['my_bid']['amount']}</strong>" in html
            assert auction["my_bid"]["seal"] not in html  # the seal is a program's token (issue 20)
        else:
            assert "Your sealed bid" not in html
        for secret in secrets:
            if role not in secret.holders:
                assert secret.token not in html, f"{role!r} sees {secret.what} at step {len(match.actions)}"
    return phases


@pytest.mark.parametrize(("players", "seed"), [(3, 21), (4, 22), (5, 23)])
def test_lost_days_face_in_random_games(players: int, seed: int) -> None:
    game = get_game(GAME)
    assert has_own_face(game)
    assert game_template(game).name != "generic_view.html"
    match = Match(game, Config(NAMES[:players], seed=seed))
    seats = tuple(s for s in game.seats(match.state) if s != CHANCE)
    names = seat_labels(game, match, seats)
    roles: list[str | None] = [*seats, None]
    seen: set[str] = set()
    bids_seen = 0
    last_phase = None
    for steps in walk_random(match, random.Random(seed), max_steps=20_000, check=False):
        phase = match.view(None)["phase"]
        sealed = bool(game.secrets(match.state))
        if phase != last_phase or sealed or steps % 4 == 0 or match.is_over():
            seen |= check_faces(match, names, roles)
            bids_seen += sealed
            last_phase = phase
    assert bids_seen > 0
    assert {"WRITING", "SEALED_BID", "SCENE", "NARRATION", "INFLUENCE", "GAME_OVER"} <= seen
    # through the table's own function as well: the face, not the generic fallback
    html = render_view(game, match.view("p1"), "p1", names, match.pending().to_json())
    assert 'class="lost-days"' in html and "The Market of Memories" in html
