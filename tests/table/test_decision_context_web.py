"""The decision's context first, at the web table: what a decision is about (the parts of the table
each game names: :func:`~ludica.core.names.decision_context`) is in the page's part beside the
prompt ("Whose decision"), for the seat asked, at every decision of seeded play of every game.
The terminal's side is ``tests/cli/test_decision_context.py``; a browser shows it in
``test_table_browser.py``."""

from __future__ import annotations

import html
import random
import re
from datetime import UTC, datetime
from typing import Any

import pytest

from ludica.bots.base import situation
from ludica.bots.heuristic import HeuristicBot
from ludica.core import Match, available, get_game
from ludica.core.names import decision_context
from ludica.lab.playthrough import default_config
from ludica.table.rooms import Room
from ludica.table.seatview import seat_part
from ludica.table.storage import RoomRow
from tests.random_play import decisions

GAMES = [g for g in available() if g != "pig"]
AHEAD = {"lost-days": 465, "great-city": 50}
"""Decisions played first (as in the terminal's test), where the questions are about something."""
DECISIONS = 60
MARKUP = re.compile(r"<[^>]+>")


def flat(text: str) -> str:
    return " ".join(text.split())


def room_of(match: Match[Any]) -> Room:
    """A room around a live match (no storage: only what the seat's part reads)."""
    config = match.config
    row = RoomRow(
        "r1",
        match.game.meta.id,
        {"players": list(config.players), "options": dict(config.options)},
        str(config.seed),
        "",
        {},
        datetime.now(UTC),
    )
    room = Room(None, row, match.game, [])  # type: ignore[arg-type]
    room.match = match
    return room


def count(game_id: str, seed: int) -> tuple[int, int, list[tuple[str, str]]]:
    """(decisions with a context, those whose prompt part showed all of it, the misses)."""
    game = get_game(game_id)
    match: Match[Any] = Match(game, default_config(game_id, min(4, game.meta.players_max), seed))
    bots = {s: HeuristicBot(game_id, seed) for s in game.seats(match.state)}
    rng = random.Random(seed)
    ahead, decisions, with_context, missing = AHEAD.get(game_id, 0), 0, 0, []
    while decisions < DECISIONS and not match.pending().is_over:
        pending = match.pending()
        if pending.is_chance:
            match.run_chance()
            continue
        seat = rng.choice(list(pending.seats))
        if ahead <= 0:
            decisions += 1
            context = decision_context(match, seat)
            if context:
                with_context += 1
                part = seat_part(room_of(match), seat)
                said = flat(html.unescape(MARKUP.sub(" ", part["html"]["pending"])))
                lost = [line for line in context if flat(line) not in said]
                if lost:
                    missing.append((str(pending.phase), lost[0]))
        ahead -= 1
        match.apply(bots[seat].decide(situation(match, seat)).as_action())
    return with_context, with_context - len(missing), missing


@pytest.mark.parametrize("game_id", GAMES)
def test_the_prompt_part_shows_what_the_decision_is_about(game_id: str) -> None:
    with_context, shown, missing = count(game_id, 1)
    assert with_context > 0
    assert not missing, f"{shown} of {with_context} decisions show their context; first miss: {missing[0]}"


OPTION = re.compile(r"<li data-param[^>]*>(.*?)</li>", re.S)
DETAIL = re.compile(r'<small class="detail">(.*?)</small>', re.S)
EFFECT = re.compile(r'<(?:small|p) class="effect">(.*?)</(?:small|p)>', re.S)
FILLED = re.compile(r'<ul class="filled">.*?</ul>', re.S)
"""The steps already chosen, each with its own consequence (not the option's)."""


@pytest.mark.parametrize("game_id", GAMES)
def test_an_option_never_says_its_consequence_twice(game_id: str) -> None:
    """A step's option whose note (what it leads to, then its consequence) already holds the
    consequence does not repeat it below, at every decision of seeded heuristic play."""
    game = get_game(game_id)
    match: Match[Any] = Match(game, default_config(game_id, min(4, game.meta.players_max), 2))
    bots = {s: HeuristicBot(game_id, 2) for s in game.seats(match.state)}
    rng = random.Random(2)
    twice: list[str] = []
    for seats in decisions(match, 200):
        seat = rng.choice(list(seats))
        for option in OPTION.findall(FILLED.sub("", seat_part(room_of(match), seat)["html"]["actions"])):
            details = [flat(html.unescape(d)) for d in DETAIL.findall(option)]
            for effect in (flat(html.unescape(e)) for e in EFFECT.findall(option)):
                twice.extend(effect for d in details if effect and effect in d)
        match.apply(bots[seat].decide(situation(match, seat)).as_action())
    assert not twice, f"said twice: {twice[0]!r}"
