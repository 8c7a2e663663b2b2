"""What a newcomer reads beside the options they hesitate over, in words and never in notation.

Each position is where the type-seeking explorer (``tests/explore.py``) first took an action
type: the state before it, where that type is offered. Checked there: the decision's context
(both front ends, and the web table's part beside the prompt) and the notes beside the options.
"""

from __future__ import annotations

import html
import re
from typing import Any

from ludica.core import Action, IntRange, Match, get_game
from ludica.core.composer import Composition, choices, option_note
from ludica.core.names import decision_context, namer_of
from ludica.table.seatview import seat_part
from ludica.terminal import text_effect
from tests.explore import explorations
from tests.table.test_decision_context_web import MARKUP, flat, room_of

STONE_NOTATION = re.compile(r"\b[1-6]:[bwg][-+−]")


def offered(game_id: str, kind: str) -> tuple[Match[Any], str]:
    """The first explored position where ``kind`` is offered, and the seat it is offered to."""
    found = next(e for e in explorations(game_id) if kind in e.first)
    index = found.first[kind]
    match: Match[Any] = Match(get_game(game_id), found.config)
    match.replay(found.actions[:index], check=False)
    return match, found.actions[index].seat


def composition(match: Match[Any], seat: str, kind: str) -> Composition:
    return Composition(next(c for c in choices(match.legal_actions(seat)) if c.type == kind))


def web_part(match: Match[Any], seat: str) -> str:
    """The web table's part beside the prompt (the decision's context), as text."""
    part = seat_part(room_of(match), seat)
    return flat(html.unescape(MARKUP.sub(" ", part["html"]["pending"])))


def test_the_great_city_stones_are_said_in_words() -> None:
    """A scene's stones read by owner, colour and face, vested and locked in words (the text
    face's ``1:b- 2:w+*#`` never reaches a person), in the terminal's context and on the web."""
    match, seat = offered("great-city", "flip")
    context = " ".join(decision_context(match, seat))
    assert "'s stones: blue " in context, context
    assert not STONE_NOTATION.search(context), context
    said = namer_of(match, seat).say("first thrown Heartache (moving 1, 5)")
    assert said.endswith("(moving: the first triad's blue, the second triad's white)"), said
    page = web_part(match, seat)
    assert "'s stones: blue " in page, page
    assert not STONE_NOTATION.search(page) and "(* vested, # locked)" not in page, page


def test_a_lost_days_raise_says_what_its_amount_does() -> None:
    """Each amount of a tie's raise says what those coins do (not one text for every amount)."""
    match, seat = offered("lost-days", "raise_bid")
    composing = composition(match, seat, "raise_bid")
    step = composing.ask()
    assert step is not None and isinstance(step.field, IntRange)
    namer = namer_of(match, seat)
    low, high = (option_note(namer, composing, step.param, v) or "" for v in (step.field.lo, step.field.hi))
    assert f"your {step.field.lo} coin" in low and f"your {step.field.hi} coins" in high, (low, high)


def test_a_lost_days_deal_is_said_in_words() -> None:
    """The deal being answered is the situation's sentence; its face line (``give coins 0; …;
    step answer``) is not repeated in notation."""
    match, seat = offered("lost-days", "accept_trade")
    context = " ".join(decision_context(match, seat))
    assert "a deal" in context, context
    assert "step answer" not in context and "give coins" not in context, context
    namer = namer_of(match, seat)
    said = namer.say(
        f"deal offered by {seat}: give coins 2; get coins 0; give memories none; get memories none; step ask"
    )
    assert said.endswith("gives 2 coins, asking nothing (still being put together)"), said


def test_misery_bubblegum_ratings_and_fee_say_their_meaning() -> None:
    """A rating's value says what it does at a reclaim; the Trait's fee says where the die goes."""
    match, seat = offered("misery-bubblegum", "set_ratings")
    namer = namer_of(match, seat)
    one, six = (namer.effect("set_ratings", "passion", v) or "" for v in (1, 6))
    assert "up to 1 die into Passion" in one and "up to 6 dice into Passion" in six, (one, six)
    assert namer.value("use_trait", "fee_mode", "give_creator") == "to the Trait's creator (their influence over you)"
    assert namer.value("use_trait", "fee_mode", "to_misery") == "into your Misery"


def test_misery_bubblegum_a_first_influence_die_is_counted() -> None:
    """A creator's first influence die over a player (a count the view did not keep yet) is said
    as that influence +1, never as a new entry of the characters ("characters +1")."""
    match, seat = offered("misery-bubblegum", "use_trait")
    namer = namer_of(match, seat)
    for action in match.legal_actions(seat):
        if action.type == "use_trait":
            said = namer.consequence(action) or ""
            assert "characters +" not in said, said


def test_euthymia_conflict_line_in_words() -> None:
    """The Conflict's suit and order of play read in words (no ``[D]``, no ``p1 > p2``)."""
    match, seat = offered("euthymia", "play_conflict_card")
    context = " ".join(decision_context(match, seat))
    assert "cards):" in context and "order of play: " in context, context
    assert not re.search(r"\[[SHDC]\]| > ", context), context


def test_the_terminal_says_what_a_text_step_does() -> None:
    """An action whose last step is a text (a memory brought in with its narration) says what it
    does above the field: its words change nothing, so the consequence is known."""
    match, seat = offered("lost-days", "narrate_memory")
    composing = composition(match, seat, "narrate_memory")
    while (step := composing.ask()) is not None and step.values:
        composing = composing.pick(step.param, step.values[0])
    lines = text_effect(namer_of(match, seat), composing)
    assert lines and lines[0].strip().startswith("what it does: "), lines
    assert isinstance(composing.remaining[0], Action)


def test_the_great_city_scene_that_ends_is_not_listed_field_by_field() -> None:
    """Ending the distribution says the scene is over and who decides next, not each part of the
    old scene cleared (its stones, readings, reactions) nor its summary."""
    match, seat = offered("great-city", "end_distribution")
    namer = namer_of(match, seat)
    action = next(a for a in match.legal_actions(seat) if a.type == "end_distribution")
    said = namer.consequence(action) or ""
    assert "scenes played +1" in said, said
    assert "more changes" not in said and "pair:" not in said and "spotlight" not in said, said


def test_the_great_city_city_stones_show_their_faces() -> None:
    """Where a city stone is flipped, the city's six stones show their faces (+ and −) beside the
    reading (the text face's bits are never shown, nor dropped)."""
    match, seat = offered("great-city", "flip_city_stone")
    context = " ".join(decision_context(match, seat))
    assert re.search(r"The city's stones [+−]{3} [+−]{3} read ", context), context
    assert not re.search(r"\b[01]{3}\b", context) and "-" not in context.replace(" — ", " "), context


def test_euthymia_who_starts_says_nobody_yet() -> None:
    """Before anyone lays a card face down to start, the line says so (not an empty list)."""
    match, seat = offered("euthymia", "commit_start_card")
    context = " ".join(decision_context(match, seat))
    assert "face down: none yet" in context, context
