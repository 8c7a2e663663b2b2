"""Issue 20 on the web: every option says what it does, a pick that fills several parameters at
once shows the whole result and asks to confirm, and "Just now" holds what your own action caused."""

from __future__ import annotations

import random
from typing import Any

from ludica.bots.random_bot import RandomBot, random_step
from ludica.core import Match, get_game
from ludica.core.names import namer_of
from ludica.lab.playthrough import default_config
from ludica.table.faces import composed_choices, render


def _until(game_id: str, kind: str, seed: int = 0) -> tuple[Match[Any], str]:
    game = get_game(game_id)
    match: Match[Any] = Match(game, default_config(game_id, 3, seed))
    rng = random.Random(seed)
    bot = RandomBot(rng)
    for _ in range(600):
        for seat in match.pending().seats:
            if seat != "chance" and any(a.type == kind for a in match.legal_actions(seat)):
                return match, seat
        random_step(match, bot, rng)
    raise AssertionError(f"no {kind} met")


def _page(match: Match[Any], seat: str) -> str:
    offered = composed_choices(match.legal_actions(seat), namer_of(match, seat))
    return render(
        "actions.html",
        choices=offered,
        chance=None,
        seat=seat,
        can_undo=False,
        can_request_undo=False,
        undo_request=None,
    )


def test_a_pick_that_fills_the_whole_sheet_asks_to_confirm() -> None:
    """Euthymia: one tap on a Strength once filled the other three and committed the sheet."""
    match, seat = _until("euthymia", "set_starting_strengths")
    page = _page(match, seat)
    assert 'class="option confirm"' in page and "Confirm" in page
    assert 'class="filled"' in page


def test_the_intent_colour_says_yes_or_no_and_its_basis() -> None:
    match, seat = _until("great-city", "choose_intent")
    page = _page(match, seat)
    assert "by deeds or actions" in page and ("YES —" in page or "NO —" in page)


def test_retrieval_payment_says_its_morale() -> None:
    match, seat = _until("euphoria", "pay")
    page = _page(match, seat)
    if "free" in page:
        assert "morale" in page


def test_reclaim_shows_the_consequence_of_its_default() -> None:
    """ "Reclaim dice" defaults to the most the seat may reclaim, never to 0 (which sends every
    rolled die into Misery); beside the field, the consequence of the value shown, and every
    value's consequence for the page to show as one is typed."""
    match, seat = _until("misery-bubblegum", "reclaim")
    page = _page(match, seat)
    field = page[page.index('data-arg="reclaim_count"') :]
    tag = field[: field.index(">")]
    described = tag[tag.index('aria-describedby="') + 18 :].split('"')[0]
    assert f'id="{described}"' in page and "data-effects=" in tag
    if 'max="0"' not in tag:
        assert 'value="0"' not in tag


def test_just_now_holds_what_my_own_action_caused(client: Any, opener: Any, seat_client: Any) -> None:
    room = opener(client)  # pig
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    ann.act_type("wager")
    news = ann.state["html"]["news"]
    assert "Since your last turn" in news and "You" in news
