"""Helpers to build a game of Euphoria at a given point, with pinned dice and cards."""

from __future__ import annotations

from typing import Any

import pytest

from ludica.core import CHANCE, Action, Config, IllegalAction, Match
from ludica.core.match import canonical_json
from ludica.games.euphoria import GAME
from ludica.games.euphoria.memo import forget
from ludica.games.euphoria.oracle import artifact_kind
from ludica.games.euphoria.state import EuphoriaState, Player

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


class Table:
    """A match already set up and in play, with p1 to move."""

    def __init__(self, players: int = 2, options: dict[str, Any] | None = None, seed: int = 7) -> None:
        self.match: Match[EuphoriaState] = Match(GAME, Config(NAMES[:players], options or {}, seed))
        self.match.run_chance()
        for seat in self.st.seats:
            self.match.apply(self.match.legal_actions(seat)[0])
        self.match.run_chance()
        st = self.st
        st.turn = "p1"
        for seat in st.seats:
            p = st.players[seat]
            self.match.state.recruit_deck.cards.extend([*p.active, *p.hidden, *p.discarded])
            p.active, p.hidden, p.discarded = [], [], []
            p.available = [1, 2]

    @property
    def st(self) -> EuphoriaState:
        """The state, handed out for editing: the memo of derived answers is dropped (memo.py)."""
        forget(self.match.state.memo)
        return self.match.state

    def p(self, seat: str) -> Player:
        return self.st.players[seat]

    def recruit(self, seat: str, *active: str, hidden: tuple[str, ...] = ()) -> Table:
        p = self.p(seat)
        for rid in (*active, *hidden):
            self.st.recruit_deck.cards.remove(rid)
        p.active.extend(active)
        p.hidden.extend(hidden)
        return self

    def cards(self, seat: str, *kinds: str) -> Table:
        """Give ``seat`` one card of each kind from the deck."""
        for kind in kinds:
            card = next(c for c in self.st.artifacts.cards if artifact_kind(c) == kind)
            self.st.artifacts.cards.remove(card)
            self.p(seat).hand.append(card)
        return self

    def deck_top(self, *kinds: str) -> Table:
        """Put cards of these kinds on top of the artifact deck, in order."""
        top = []
        for kind in kinds:
            card = next(c for c in self.st.artifacts.cards if artifact_kind(c) == kind and c not in top)
            top.append(card)
        rest = [c for c in self.st.artifacts.cards if c not in top]
        self.st.artifacts.cards = top + rest
        return self

    def do(self, text: str) -> list[Any]:
        return self.match.apply(Action.parse(text))

    def roll(self, *faces: int) -> None:
        pending = self.match.pending()
        assert pending.is_chance, pending
        step = GAME.chance_step(self.st)
        self.match.apply(Action(CHANCE, step.type, {"dice": list(faces)}))

    def pending(self) -> Any:
        return self.match.pending()

    def legal(self, seat: str | None = None) -> list[str]:
        seat = seat or self.pending().seats[0]
        return [a.notation() for a in self.match.legal_actions(seat)]

    def refused(self, text: str, rule: str | None = None) -> IllegalAction:
        before = canonical_json(GAME.to_position(self.st))
        with pytest.raises(IllegalAction) as info:
            self.do(text)
        assert canonical_json(GAME.to_position(self.st)) == before
        if rule is not None:
            assert info.value.rule == rule, info.value
        return info.value

    def sound(self) -> None:
        assert GAME.invariants(self.st) == []


@pytest.fixture
def table() -> Table:
    return Table()


@pytest.fixture
def make_table() -> type[Table]:
    return Table


@pytest.fixture
def bradley_over_the_limit() -> Table:
    """p1 holds Bradley the Futurist and three artifacts (bear, bear, book), pays two bears at the
    Incinerator of Historical Accuracy and uses Bradley's draw (box, then bat): the hand limit
    and Bradley's discard are next."""
    t = Table().recruit("p1", "bradley_the_futurist").cards("p1", "bear", "bear", "book")
    t.deck_top("box", "bat")
    t.p("p1").morale = 2
    t.do("p1 place worker=1 space=incinerator_of_historical_accuracy")
    t.do("p1 pay with=art-bear+art-bear")
    t.do("p1 use_ability choice=use")
    return t
