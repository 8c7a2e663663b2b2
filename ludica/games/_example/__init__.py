"""Pig with a sealed wager: the smallest complete Ludica game, an example for game writers.

Rules: each player in turn rolls a d6 as often as they like, adding to a turn total; a 1 loses
the turn total; "hold" banks it. First to ``target`` points wins. Before play, every player
secretly wagers 1-3 (sealed, revealed together); a winner scores their wager as a bonus.

It exercises every part of the protocol: chance steps, simultaneous sealed choices, a secret,
free-text narration, positions and invariants. Not in the registry; tests register it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core import (
    CHANCE,
    Action,
    Config,
    Event,
    Game,
    GameMeta,
    IllegalAction,
    MalformedAction,
    OptionSpec,
    Outcome,
    Pending,
    PositionError,
    Roll,
    Secret,
    Text,
)
from ...core.mechanisms import SealedChoices, next_seat
from ...core.names import Namer
from ...core.redeal import redraw_sealed


@dataclass(slots=True)
class PigState:
    seats: tuple[str, ...]
    target: int
    scores: dict[str, int]
    wagers: SealedChoices
    turn: str
    turn_total: int = 0
    rolling: bool = False
    title: str = ""
    winner: str | None = None
    history: list[int] = field(default_factory=list)


class PigNamer(Namer):
    """Pig's names: the free-text ``title`` is a caption for the turn, and says that it changes nothing;
    the other actions keep the base namer's words ("wager (amount 3)", "roll", "hold") and say their effect."""

    ACTION_TITLES: Mapping[str, str] = {"title": "Give this turn a caption (optional)"}
    PARAM_LABELS: Mapping[str, str] = {"text": "caption"}

    def effect(self, kind: str, param: str, value: Any) -> str | None:
        if kind == "wager" and param == "amount":
            return "sealed until everyone has wagered; the winner scores it as a bonus"
        return None

    def action_effect(self, action: Action) -> str | None:
        return {
            "title": "only words shown above the scores; it changes nothing in the game",
            "roll": "a 1 loses the turn total; any other face adds to it",
            "hold": "the turn total is added to your score; the next player rolls",
        }.get(action.type)


class Pig(Game[PigState]):
    meta = GameMeta(
        id="pig",
        title="Pig",
        description="Push your luck with one die; a sealed wager at the start.",
        players_min=2,
        players_max=4,
        rules_version="1",
        hidden_information=True,
        simultaneous=True,
        options=(OptionSpec("target", 20, "points needed to win", choices=(10, 20, 30)),),
        max_steps=5000,
    )

    def setup(self, config: Config) -> PigState:
        seats = tuple(f"p{i + 1}" for i in range(len(config.players)))
        return PigState(
            seats=seats,
            target=config.option(self.meta, "target"),
            scores={s: 0 for s in seats},
            wagers=SealedChoices(seats, rule="wager"),
            turn=seats[0],
        )

    def seats(self, state: PigState) -> tuple[str, ...]:
        return state.seats

    def pending(self, state: PigState) -> Pending:
        if state.winner is not None:
            return Pending((), "over")
        if not state.wagers.revealed:
            return Pending(state.wagers.waiting(), "wager", "choose a secret wager")
        if state.rolling:
            return Pending((CHANCE,), "roll")
        return Pending((state.turn,), "turn", "roll or hold")

    def chance_step(self, state: PigState) -> Roll:
        return Roll((6,), type="die")

    def namer(self, state: PigState, viewer: str | None) -> Namer:
        return PigNamer(self, state, viewer)

    def legal_actions(self, state: PigState, seat: str) -> list[Action]:
        pending = self.pending(state)
        if seat not in pending.seats:
            return []
        if pending.phase == "wager":
            return [Action(seat, "wager", {"amount": n}) for n in (1, 2, 3)]
        out = [Action(seat, "roll"), Action(seat, "title", {"text": Text("a title for this turn")})]
        if state.turn_total:
            out.append(Action(seat, "hold"))
        return out

    def check(self, state: PigState, action: Action) -> None:
        kind, args = action.type, action.args
        allowed = {"wager": {"amount"}, "roll": set(), "hold": set(), "title": {"text"}}
        if action.seat != CHANCE and set(args) != allowed.get(kind, set(args) | {"?"}):
            raise MalformedAction(f"unknown action {kind!r} or wrong parameters", rule="actions")
        if kind == "wager":
            state.wagers.check_commit(action.seat)
            if args["amount"] not in (1, 2, 3):
                raise IllegalAction("a wager is 1, 2 or 3", rule="wager")
        elif kind == "hold" and not state.turn_total:
            raise IllegalAction("nothing to hold yet", rule="hold")
        elif kind == "title" and (not isinstance(args["text"], str) or not args["text"].strip()):
            raise IllegalAction("a title is some text", rule="title")

    def play(self, state: PigState, action: Action) -> Sequence[Event]:
        seat = action.seat
        if action.type == "wager":
            state.wagers.commit(seat, action.args["amount"])
            if state.wagers.complete:
                state.wagers.reveal()
                return [Event("reveal", "wagers revealed")]
            return [Event("wager", f"{seat} wagered {action.args['amount']}", frozenset({seat}))]
        if action.type == "title":
            state.title = action.args["text"]
            return []
        if action.type == "roll":
            state.rolling = True
            return []
        if action.type == "hold":
            state.scores[seat] += state.turn_total
            state.turn_total = 0
            if state.scores[seat] >= state.target:
                state.scores[seat] += state.wagers.choices[seat]
                state.winner = seat
                return [Event("win", f"{seat} wins")]
            state.turn = next_seat(state.seats, seat)
            return []
        face = action.args["dice"][0]
        state.rolling = False
        state.history.append(face)
        if face == 1:
            state.turn_total = 0
            state.turn = next_seat(state.seats, state.turn)
        else:
            state.turn_total += face
        return [Event("roll", f"rolled {face}")]

    def view(self, state: PigState, seat: str | None) -> dict[str, Any]:
        return {
            "scores": dict(state.scores),
            "turn": state.turn,
            "turn_total": state.turn_total,
            "title": state.title,
            "wagers": state.wagers.view_for(seat),
            "winner": state.winner,
        }

    def secrets(self, state: PigState) -> list[Secret]:
        if state.wagers.revealed:
            return []
        return [Secret(f"wager-{v}", frozenset({s})) for s, v in state.wagers.choices.items()]

    def redeal(self, state: PigState, seat: str | None, rng: random.Random) -> PigState:
        """The other players' sealed wagers, not yet revealed, drawn again from 1-3."""
        new = self.copy(state)
        redraw_sealed(new.wagers, seat, lambda other: (1, 2, 3), rng)
        return new

    def outcome(self, state: PigState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome((state.winner,), dict(state.scores))

    def to_position(self, state: PigState) -> dict[str, Any]:
        return {
            "seats": list(state.seats),
            "target": state.target,
            "scores": dict(state.scores),
            "wagers": state.wagers.to_json(),
            "turn": state.turn,
            "turn_total": state.turn_total,
            "rolling": state.rolling,
            "title": state.title,
            "winner": state.winner,
            "history": list(state.history),
        }

    def from_position(self, data: dict[str, Any], config: Config) -> PigState:
        try:
            return PigState(
                tuple(data["seats"]),
                data["target"],
                dict(data["scores"]),
                SealedChoices.from_json(data["wagers"]),
                data["turn"],
                data["turn_total"],
                data["rolling"],
                data["title"],
                data["winner"],
                list(data["history"]),
            )
        except KeyError as exc:
            raise PositionError(f"missing field {exc}", rule="position") from None

    def invariants(self, state: PigState) -> list[str]:
        problems = [f"{s} has a negative score" for s, v in state.scores.items() if v < 0]
        if state.turn not in state.seats:
            problems.append(f"turn {state.turn!r} is not a seat")
        return problems

    def copy(self, state: PigState) -> PigState:
        return self.from_position(self.to_position(state), Config(()))


GAME = Pig()
