"""Every game's web face speaks names (issue "One voice"): along random playthroughs, the text
of every seat's page holds no raw id, and what it names is only what the seat may see."""

from __future__ import annotations

import html
import random
import re
from typing import Any

import pytest

from ludica.bots.random_bot import RandomBot, random_step
from ludica.core import Match, available, get_game
from ludica.core.names import namer_of, raw_ids
from ludica.lab.playthrough import default_config
from ludica.table.faces import render_view, say_html
from tests.conformance.test_names import raw_kinds

FACE_KINDS = (
    "seal token", "Name:3 id", "rule id", "binary triad", "doubled name", "None", "count without its plural",
    "vesting jargon", "engine's option list",
)  # fmt: skip
"""The kinds of raw words (issue 20) a face must never show; "the the" and "(s)" may be in a
player's typed text or a card's printed text, so they are checked on what the engine says only."""

MARKUP = re.compile(r"<style\b.*?</style>|<script\b.*?</script>|<[^>]+>", re.S)


def page_text(match: Match[Any], seat: str | None) -> str:
    game = match.game
    names = {s: namer_of(match, None).seat(s) for s in game.seats(match.state)}
    page = render_view(game, match.view(seat), seat, names, match.pending().to_json())
    return html.unescape(MARKUP.sub(" ", say_html(page, namer_of(match, seat))))


@pytest.mark.parametrize("game_id", available())
def test_every_face_speaks_names(game_id: str) -> None:
    game = get_game(game_id)
    for seed in range(2):
        match: Match[Any] = Match(game, default_config(game_id, min(4, game.meta.players_max), seed))
        rng = random.Random(seed)
        bot = RandomBot(rng)
        for step in range(240):
            if match.pending().is_over:
                break
            if step % 40 == 0:
                for seat in [*game.seats(match.state), None]:
                    text = page_text(match, seat)
                    assert not raw_ids(text), (seat, raw_ids(text)[:5])
                    assert not [k for k in raw_kinds(text) if k in FACE_KINDS], (seat, raw_kinds(text))
                    for secret in game.secrets(match.state):
                        if seat not in secret.holders and len(secret.token) >= 4:
                            assert secret.token not in text, f"{seat} sees {secret.what}"
            random_step(match, bot, rng)
