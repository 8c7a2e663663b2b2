"""Input that cannot be misread (issue 19, point 4): a typed amount and an option number never
collide, and a half-built choice survives a mistyped answer."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
