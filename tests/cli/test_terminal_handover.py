"""The hand-over protocol (issue 19, point 1; DESIGN.md principle 14), written once in
:mod:`ludica.handover`, and whose die each physical die is (point 3)."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest
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


def _counted_play(game_id: str, bots_for_others: bool, steps: int = 60) -> tuple[int, int, list[str]]:
    """(decisions, hand-overs asked, answers kept) of a terminal whose people answer by bot."""
    import random
    import tempfile
    from pathlib import Path

    from ludica.bots.base import situation
    from ludica.bots.random_bot import RandomBot
    from ludica.terminal import Terminal

    match: Match[Any] = Match(get_game(game_id), Config(("Ana", "Ben", "Cat"), {}, 4))
    seats = list(match.game.seats(match.state))
    rng = random.Random(4)
    asked: list[str] = []
    kept: list[str] = []

    class Counted(Terminal):
        acted = 0

        def decide(self, seat: str) -> None:
            if self.acted >= steps:
                raise KeyboardInterrupt
            self.acted += 1
            kept.extend(self.typed_ahead)
            self.typed_ahead.clear()
            self.match.apply(RandomBot(rng).decide(situation(self.match, seat)).as_action())

        def bot_turn(self, seat: str) -> None:
            if len(self.match.actions) >= 6 * steps:  # bots may play on long after the person: enough seen
                raise KeyboardInterrupt
            super().bot_turn(seat)

    def answer(prompt: str) -> str:
        asked.append(prompt)
        return "typed ahead" if prompt.startswith("Hand the keyboard") else ""

    bots = {s: RandomBot(random.Random(i)) for i, s in enumerate(seats[1:])} if bots_for_others else {}
    with tempfile.TemporaryDirectory() as tmp:
        console, _ = terminal_console()
        table = Counted(match, Path(tmp) / "g.json", ask=answer, console=console, bots=bots)
        with contextlib.suppress(KeyboardInterrupt):
            table.run()
    return table.acted, sum(p.startswith("Hand the keyboard") for p in asked), kept


@pytest.mark.parametrize("game_id", ["lost-days", "euphoria", "euthymia"])
def test_a_lone_person_with_bots_is_never_asked_to_hand_over(game_id: str) -> None:
    acted, handed, _ = _counted_play(game_id, bots_for_others=True)
    assert acted and handed == 0


def test_a_hand_over_only_for_a_secret_and_what_is_typed_there_is_kept() -> None:
    acted, handed, kept = _counted_play("lost-days", bots_for_others=False)
    assert 0 < handed < acted  # sealed bids ask; writing a memory in the open does not
    assert kept and set(kept) == {"typed ahead"}  # the prompt's text is the next screen's first answer
