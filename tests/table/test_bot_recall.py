"""The table makes a bot anew for each decision: a bot with ``recall`` is shown its seat's
earlier decisions first, so that it knows where the game has been."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ludica.bots.base import BOTS, Decision, Situation
from ludica.core import Action, Config, Match, get_game
from ludica.table.bots import think
from tests.random_play import random_steps


class Recorder:
    name = "recorder"
    seen: ClassVar[list[int]] = []

    def recall(self, situation: Situation) -> None:
        Recorder.seen.append(situation.step)

    def decide(self, situation: Situation) -> Decision:
        return Decision(Action(situation.seat, "wait"), "")  # think() returns it unchecked


def test_think_shows_a_recalling_bot_each_earlier_decision_of_its_seat(monkeypatch: Any) -> None:
    monkeypatch.setitem(BOTS, "recorder", lambda game_id, params, seed: Recorder())
    match: Match[Any] = Match(get_game("euphoria"), Config(("Ann", "Bob"), {}, 3))
    for _ in random_steps(match, random.Random(3), 60):
        pass
    Recorder.seen = []
    think("euphoria", ["Ann", "Bob"], {}, [a.to_json() for a in match.actions], "p1", "recorder", 0)
    assert Recorder.seen == [i for i, a in enumerate(match.actions) if a.seat == "p1"]
    assert Recorder.seen  # the seat had decided before
