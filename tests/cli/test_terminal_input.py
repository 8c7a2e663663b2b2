"""Input that cannot be misread (issue 19, point 4): a typed amount and an option number never
collide, and a half-built choice survives a mistyped answer."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from ludica.core import Action, Config, IntRange, Match, get_game
from ludica.core.composer import Ask, Composition, choices
from ludica.core.names import namer_of
from ludica.terminal import Terminal, amount_words


def table(answers: list[str], tmp_path: Path, game_id: str = "lost-days") -> tuple[Terminal, io.StringIO]:
    out = io.StringIO()
    feed: Iterator[str] = iter(answers)
    match: Match[Any] = Match(get_game(game_id), Config(("Ana", "Ben", "Cat"), {}, 1))
    terminal = Terminal(match, tmp_path / "t.json", ask=lambda _prompt: next(feed), console=Console(file=out, width=80))
    return terminal, out


def trade(seat: str = "p1") -> Action:
    return Action(seat, "propose_trade", {"to": "p2", "give_coins": IntRange(0, 4), "get_coins": IntRange(0, 3)})


def test_offering_exactly_one_coin_is_one_coin(tmp_path: Path) -> None:
    """Lost Days: '1' offered 0 coins (option 1 of a list whose first value was 0)."""
    terminal, out = table(["1", "2"], tmp_path)
    namer = namer_of(terminal.match, "p1")
    step = Ask("give_coins", (0,), IntRange(1, 4))
    choice = choices([trade()])[0]
    assert terminal.pick(namer, choice, step, "p1") == 1
    assert "0..4" in out.getvalue()


def test_named_values_beside_a_typed_number_are_lettered(tmp_path: Path) -> None:
    terminal, out = table(["2", "b"], tmp_path)
    namer = namer_of(terminal.match, "p1")
    choice = choices([trade()])[0]
    step = Ask("give_coins", ("none", "all"), IntRange(0, 4))
    assert terminal.pick(namer, choice, step, "p1") == 2  # the number typed
    assert terminal.pick(namer, choice, step, "p1") == "all"  # the letter
    assert " a) " in out.getvalue() and " b) " in out.getvalue()


def test_a_half_built_choice_survives_a_mistyped_answer(tmp_path: Path) -> None:
    terminal, out = table(["3", "lots", "oops please", "2"], tmp_path)
    namer = namer_of(terminal.match, "p1")
    action = terminal.compose(namer, Composition(choices([trade()])[0]), "p1")
    assert action.args == {"to": "p2", "give_coins": 3, "get_coins": 2}
    assert "Type 0..3" in out.getvalue()
    terminal, out = table(["1", "oops please", "2"], tmp_path)
    offers = [Action("p1", "offer", {"to": to, "memory": m}) for to, m in (("p2", "m1"), ("p2", "m2"), ("p3", "m1"))]
    action = terminal.compose(namer, Composition(choices(offers)[0]), "p1")
    assert action.args == {"to": "p2", "memory": "m2"}  # the first pick kept
    assert "Choose 1..2" in out.getvalue()


def test_amounts_are_said_as_spans() -> None:
    assert amount_words(Ask("n", (0,), IntRange(1, 5))) == "0..5"
    assert amount_words(Ask("n", (0, 2, 4))) == "0, 2 or 4"
    assert amount_words(Ask("n", (1, 2, 3, 7))) == "1..3 or 7"
    assert amount_words(Ask("n", (3, 4))) == "3 or 4"


def test_a_bot_that_may_act_again_waits_for_the_person_beside_it(tmp_path: Path) -> None:
    """Euthymia's group, played by a bot, lets the clock run while the bottle's holder decides:
    after one step of the bot the person is asked who goes on (Enter: the person), where the bot
    once ran the clock on and on without ever asking."""
    from ludica.bots.base import make_bot
    from ludica.bots.play import bot_step

    match: Match[Any] = Match(get_game("euthymia"), Config(("Ana", "Ben", "Cat", "Dan"), {}, 3))
    seats = match.game.seats(match.state)
    bots = {s: make_bot("heuristic", "euthymia", seed=i) for i, s in enumerate(seats)}
    rng = random.Random(3)
    for _ in range(5_000):
        pending = match.pending()
        legal = {s: {a.type for a in match.game.legal_actions(match.state, s)} for s in pending.seats}
        if "table" in legal and "clock" in legal["table"] and any(s != "table" for s in pending.seats):
            break
        bot_step(match, bots, rng, pending=pending)
    person = next(s for s in match.pending().seats if s != "table")
    out = io.StringIO()
    prompts: list[str] = []

    class Asked(Exception):
        pass

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 1:
            raise Asked  # the person's own question: the test has seen enough
        return ""  # Enter at "Who decides?": the person

    others = {s: bots[s] for s in seats if s != person}
    terminal = Terminal(match, tmp_path / "t.json", ask=ask, console=Console(file=out, width=80), bots=others)
    before = len(match.actions)
    with pytest.raises(Asked):
        for _ in range(50):  # the other players' bots commit their cards, then the group's bot acts
            terminal.turn(match.pending().seats)
    assert "Who decides?" in prompts[0]
    taken = [a.seat for a in match.actions[before:]]
    assert taken and taken[-1] == "table" and taken[-2:] != ["table", "table"], taken
    assert "(a bot: it goes on)" in out.getvalue()
