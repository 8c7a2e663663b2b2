"""Helpers to build a Misery Bubblegum table at a given point, with every die pinned."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from ludica.core import CHANCE, Action, Config, IllegalAction, Match
from ludica.core.match import canonical_json
from ludica.games.misery_bubblegum import GAME
from ludica.games.misery_bubblegum.memo import forget
from ludica.games.misery_bubblegum.state import MiseryState, Resource, Trait


class Table:
    """A match with short-hands: ``act("p1 call_action ...")``, ``roll([..])``, ``refused(...)``."""

    def __init__(
        self,
        names: Sequence[str] = ("Ann", "Bob"),
        ratings: Sequence[tuple[int, int, int]] | None = None,
        **options: Any,
    ) -> None:
        self.match: Match[MiseryState] = Match(GAME, Config(tuple(names), options, 1))
        for i, (p, c, n) in enumerate([(3, 3, 3)] * len(names) if ratings is None else ratings):
            self.act(f"p{i + 1} set_ratings passion={p} confidence={c} insight={n}")

    @property
    def state(self) -> MiseryState:
        return self.match.state

    def fresh(self) -> MiseryState:
        """The state, its remembered answers forgotten: tests change sheets by hand (see ``memo``)."""
        forget(self.state)
        return self.state

    def act(self, text: str) -> Any:
        self.fresh()
        return self.match.apply(Action.parse(text))

    def roll(self, *faces: int) -> Any:
        step = GAME.chance_step(self.fresh())
        return self.match.apply(Action(CHANCE, step.type, {"dice": list(faces)}))

    def refused(self, text: str, rule: str | None = None) -> IllegalAction:
        before = canonical_json(GAME.to_position(self.state))
        with pytest.raises(IllegalAction) as info:
            self.act(text)
        assert canonical_json(GAME.to_position(self.state)) == before
        if rule is not None:
            assert info.value.rule == rule, str(info.value)
        assert info.value.reason
        return info.value

    def pending(self) -> tuple[str, ...]:
        self.fresh()
        return self.match.pending().seats

    def part(self, seat: str) -> Any:
        part = self.state.participant(seat)
        assert part is not None
        return part

    def faces(self, seat: str, indexes: list[int]) -> list[int]:
        dice = self.part(seat).dice.dice
        return [dice[i].face for i in indexes]

    def sheet(self, seat: str) -> Any:
        return self.state.characters[seat]

    def move(self, seat: str, **counts: int) -> None:
        """Set pools, misery or spare of a character; the difference comes from or goes to Spare."""
        c = self.sheet(seat)
        for key, value in counts.items():
            if key in c.pool:
                c.spare -= value - c.pool[key]
                c.pool[key] = value
            elif key == "misery":
                c.spare -= value - c.misery
                c.misery = value
        assert c.spare >= 0

    def give_trait(self, ident: str, owner: str, creator: str, value: int, text: str = "a trait") -> Trait:
        trait = Trait(ident, owner, creator, text, value)
        self.state.traits[ident] = trait
        return trait

    def give_resource(self, ident: str, kind: str, owner: str, value: int, **kw: Any) -> Resource:
        res = Resource(ident, kind, owner, "p2" if owner == "p1" else "p1", kw.pop("text", ident), value, **kw)
        self.state.resources[ident] = res
        return res

    def unopposed(self, caller: str, pool: str, challenge: int, dice: int, *faces: int) -> None:
        """Call an action nobody opposes, roll it, and pass every reroll."""
        self.act(f"{caller} call_action pool={pool} challenge={challenge} dice={dice} intent=act")
        while self.state.attempt is not None and self.state.attempt.stage == "OPPOSITION":
            self.act(f"{self.pending()[0]} pass_opposition")
        self.roll(*faces)
        self.act(f"{caller} pass_reroll")

    def select(self, seat: str, *indexes: int) -> None:
        for i in indexes:
            self.act(f"{seat} select_die die={seat}.{i}")

    def legal(self, seat: str) -> list[str]:
        self.fresh()
        return [a.notation() for a in self.match.legal_actions(seat)]

    def invariants(self) -> list[str]:
        return GAME.invariants(self.state)


@pytest.fixture
def table() -> Callable[..., Table]:
    return Table
