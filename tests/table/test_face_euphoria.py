"""Euphoria's own face (``ludica/games/euphoria/web/view.html``) at the table.

Seeded random games at 2, 3 and 4 players (one with the three drafts of the rulebook's variants):
at many steps the face is rendered for every seat and a spectator, directly (so an exception fails
the test) and through :func:`render_view` (which would fall back to the generic face), and checked
for the key facts and against ``game.secrets``: no card, recruit, dilemma or market a seat may not
see appears in its page, neither as its id nor as the words of its name.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludica.bots.random_bot import play_random, walk_random
from ludica.core import Config, Match, get_game
from ludica.table.faces import has_own_face, render_face, render_view
from ludica.table.rooms import seat_labels

GAME = "euphoria"
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
        assert 'class="euphoria"' in html
        assert 'class="generic-view"' not in render_view(game, view, seat, names, pending)
        lower = html.lower()
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
