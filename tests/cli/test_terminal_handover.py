"""The hand-over protocol (issue 19, point 1; DESIGN.md principle 14), written once in
:mod:`ludica.handover`, and whose die each physical die is (point 3)."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from ludica.core import Config, Match, get_game
from ludica.core.chance import Roll
from ludica.core.names import namer_of
from ludica.handover import WIPE, SharedScreen
from ludica.terminal import describe_step, focus


def terminal_console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=True, width=80), out


def test_a_private_screen_is_wiped_with_its_scrollback_before_anything_public() -> None:
    console, out = terminal_console()
    screen = SharedScreen(console, hidden=True)
    asked: list[str] = []
    screen.hand_over("p1", "Ana", asked.append)
    assert asked == ["Hand the keyboard to Ana: press Enter when the others look away. "]
    assert out.getvalue() == ""  # nothing private was on the screen yet
    console.print("Ana's hand: 4♠ Q♥")
    screen.hand_over("p1", "Ana", asked.append)  # the same player goes on: no pause
    assert len(asked) == 1
    screen.public()
    assert out.getvalue().endswith(WIPE) and "\x1b[3J" in WIPE  # the scrollback too
    screen.public()  # nothing private since: nothing to wipe
    assert out.getvalue().count(WIPE) == 1
    screen.hand_over("p2", "Ben", asked.append)
    assert asked[-1].startswith("Hand the keyboard to Ben")


def test_a_game_without_hidden_information_never_pauses() -> None:
    console, out = terminal_console()
    screen = SharedScreen(console, hidden=False)
    asked: list[str] = []
    screen.hand_over("p1", "Ana", asked.append)
    screen.public()
    assert asked == [] and out.getvalue() == ""


def test_what_the_decision_needs_comes_first() -> None:
    rows = ["TITLE", "Ana  glass", "    ♦ 4", "Ben  glass", "You (Ana): hand 4♠", "  identity card: red"]
    assert focus(rows) == ["TITLE", "You (Ana): hand 4♠", "  identity card: red", "Ana  glass", "    ♦ 4", "Ben  glass"]
    rows = ["TITLE", "Ana sane", "conflict: Ana against Ben", "    dice: Ana 3"]
    assert focus(rows, "CONFLICT")[1:3] == ["conflict: Ana against Ben", "    dice: Ana 3"]


def test_every_die_prompt_says_whose_die() -> None:
    step = Roll((6,) * 5, labels=("p1's die",) * 3 + ("gm's die",) * 2)
    assert describe_step(step) == "type what the dice show, in this order: 3 × p1's die (d6), 2 × gm's die (d6)"
    assert describe_step(Roll((6,))) == "type what the die shows (a d6)"


def test_misery_bubblegum_dice_are_labelled_by_their_roller() -> None:
    """Issue 19: "type the 13 die result(s)" said nothing of whose die was whose."""
    import random

    from ludica.bots.random_bot import RandomBot, random_step

    game = get_game("misery-bubblegum")
    match: Match[Any] = Match(game, Config(("Ana", "Ben", "Cat"), {}, 3))
    rng = random.Random(3)
    bot = RandomBot(rng)
    for _ in range(3000):
        pending = match.pending()
        if pending.is_over:
            break
        if pending.is_chance:
            step = game.chance_step(match.state)
            if step.type == "roll_action":
                said = namer_of(match, None).say(describe_step(step))
                assert "Ana's die" in said or "Ben's die" in said or "Cat's die" in said, said
                assert len(step.labels) == len(step.sides)
                return
        random_step(match, bot, rng)
    raise AssertionError("no action roll reached")
