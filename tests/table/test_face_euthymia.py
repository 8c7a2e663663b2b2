"""Euthymia's own face (``ludica/games/euthymia/web/view.html``) on seeded random games.

At many steps of games of 3, 4 and 5 players the face is rendered for every seat, the group's seat
(``table``) and a spectator with the functions of :mod:`ludica.table.faces`: it must render without
falling back to the generic face, show the hour's phase, every player's name, the Active Player and
the seat's own hand, and never show a hidden item (``game.secrets``) of a seat that does not hold it.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from ludica.bots.random_bot import walk_random
from ludica.core import CHANCE, Config, Match, get_game
from ludica.table.faces import game_template, has_own_face, render_face, render_view
from ludica.table.rooms import seat_labels

GAME = "euthymia"
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
PHASE_WORDS = {
    "IDEAL_CITIZEN": "The Ideal Citizen",
    "BUILD_STATE": "Building Euthymia",
    "CHARACTERS": "The characters",
    "STRENGTHS": "The Strength of your Aspects",
    "WHO_STARTS": "Who starts?",
    "TURN": "Taking a turn",
    "CONFLICT": "The Conflict",
    "GAME_OVER": "The game is over",
}


def leaked(html: str, tokens: list[str]) -> str | None:
    """The first hidden token found in ``html``, if any.

    A card's token is its id (``AC``, ``10H``), which occurs inside ordinary words the engine itself
    shows (``BLACK`` holds ``AC``), so a card id counts only as a whole word; longer tokens (the
    identity cards' sentences) count anywhere.
    """
    words = set(re.findall(r"[A-Za-z0-9]+", html))
    for token in tokens:
        if (token in words) if token.isalnum() and len(token) <= 3 else (token in html):
            return token
    return None


def check_faces(match: Match[Any], names: dict[str, str], roles: list[str | None]) -> set[str]:
    game = match.game
    pending = match.pending().to_json()
    secrets = game.secrets(match.state)
    phases = set()
    for role in roles:
        view = match.view(role)
        html = render_face(game, view, role, names, pending)  # a face that raises fails here
        assert 'class="euthymia"' in html and "generic-view" not in html
        phase = view["phase"]
        phases.add(phase)
        assert f'data-phase="{phase.lower()}"' in html
        if phase in PHASE_WORDS:
            assert PHASE_WORDS[phase] in html
        for p in view["players"]:
            assert names[p["seat"]] in html
        if view.get("active_player"):
            assert "Active Player: <strong" in html
        you = view.get("you")
        if you:
            for card in you["hand"]:
                # each card of the hand is drawn, and touching it picks it (play by touching)
                assert f'data-pick=\'{{"card": "{card}"}}\'' in html, f"{role} does not see {card} in the hand"
            assert "only you see this" in html
        else:
            assert "only you see this" not in html
        found = leaked(html, [s.token for s in secrets if role not in s.holders])
        assert found is None, f"{role!r} sees a hidden item: {found!r} at step {len(match.actions)}"
    return phases


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 12), (5, 13)])
def test_euthymia_face_in_random_games(players: int, seed: int) -> None:
    game = get_game(GAME)
    assert has_own_face(game)
    assert game_template(game).name != "generic_view.html"
    match = Match(game, Config(NAMES[:players], seed=seed))
    seats = tuple(s for s in game.seats(match.state) if s != CHANCE)
    names = seat_labels(game, match, seats)
    roles: list[str | None] = [*seats, None]
    seen: set[str] = set()
    last_phase = None
    for steps in walk_random(match, random.Random(seed), check=False):
        phase = match.view(None)["phase"]
        if phase != last_phase or steps % 4 == 0 or match.is_over():
            seen |= check_faces(match, names, roles)
            last_phase = phase
    assert {"CHARACTERS", "WHO_STARTS", "TURN", "CONFLICT", "GAME_OVER"} <= seen
    # through the table's own function as well: the face, not the generic fallback
    html = render_view(game, match.view("p1"), "p1", names, match.pending().to_json())
    assert 'class="euthymia"' in html and "The endings" in html
