"""Helpers to build a game of Euthymia at a given point, with exact cards."""

from __future__ import annotations

from typing import Any

import pytest

from ludica.core import CHANCE, Action, Config, Match
from ludica.games.euthymia import GAME
from ludica.games.euthymia.flow import STANDARD_DECK
from ludica.games.euthymia.state import EuthymiaState

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
CATHOLIC = (
    "Speaks with proper reverence to God",
    "Believes God is the ultimate authority",
    "Has sex only within marriage",
)
ANGRY = ("Feels angry", "Speaks blasphemously", "Believes God does not exist", "Has anonymous sex")


class Table:
    """A match of Euthymia and shortcuts to drive it."""

    def __init__(self, n: int = 4, options: dict[str, Any] | None = None, seed: int = 0) -> None:
        self.match: Match[EuthymiaState] = Match(GAME, Config(NAMES[:n], options or {}, seed))
        self.players = tuple(f"p{i + 1}" for i in range(n))

    @property
    def state(self) -> EuthymiaState:
        return self.match.state

    def act(self, text: str) -> list[Any]:
        return self.match.apply(Action.parse(text))

    def do(self, seat: str, kind: str, **args: Any) -> list[Any]:
        return self.match.apply(Action(seat, kind, args))

    def chance(self, kind: str, **args: Any) -> list[Any]:
        return self.match.apply(Action(CHANCE, kind, args))

    def legal(self, seat: str) -> list[Action]:
        return self.match.legal_actions(seat)

    def cards(self, seat: str) -> set[str]:
        """The cards ``seat`` may play in the Conflict now."""
        return {a.args["card"] for a in self.legal(seat) if a.type == "play_conflict_card"}

    def types(self, seat: str) -> set[str]:
        return {a.type for a in self.legal(seat)}

    def position(self) -> str:
        import json

        return json.dumps(GAME.to_position(self.state), sort_keys=True)

    # -- the first hour ------------------------------------------------------------------------
    def ideal_and_setting(self) -> None:
        speak, believe, love = CATHOLIC
        self.do("table", "set_ideal_citizen", speak=speak, believe=believe, love=love)
        self.do("table", "record_setting", answers="Grey towers; work; screens; the riots; a republic")

    def character(self, seat: str, name: str = "", aspects: tuple[str, ...] = ANGRY) -> None:
        feel, speak, believe, love = aspects
        name = name or f"Citizen {seat}"
        self.do(
            seat, "create_character", name=name, feel_text=feel, speak_text=speak, believe_text=believe, love_text=love
        )

    def strengths(self, seat: str, values: tuple[int, int, int, int]) -> None:
        f, s, b, lv = values
        self.do(seat, "set_starting_strengths", F=f, S=s, B=b, L=lv)

    def first_hour(
        self,
        strengths: dict[str, tuple[int, int, int, int]] | None = None,
        black: str = "p1",
        passes: str | None = None,
    ) -> None:
        """Play the whole first hour: ``black`` is the Committee Member; ``passes`` the pass
        (recipients in seat order), by default everyone passes to the next seat."""
        self.ideal_and_setting()
        for p in self.players:
            self.character(p)
        for p in self.players:
            self.strengths(p, (strengths or {}).get(p, (5, 4, 3, 3)))
        self.chance("deal_identity_cards", black=[black])
        rotate = "/".join(self.players[1:] + self.players[:1])
        if self.state.options.cm_pass_mode == "random_derangement":
            self.chance("pass_identity_cards", passes=[passes or rotate])
        elif self.state.options.cm_pass_mode == "manual":
            for giver, to in zip(self.players, (passes or rotate).split("/"), strict=True):
                self.do(giver, "pass_identity_card", to=to)

    # -- the hours -----------------------------------------------------------------------------
    def start_hour(self, hands: dict[str, list[str]], then: list[str] | None = None, hour: int | None = None) -> None:
        """Start the next hour (or hour ``hour``), dealing exactly ``hands``; ``then`` tops the deck."""
        if hour is not None:
            self.state.hour = hour - 1
            self.state.touch()
        self.do("table", "start_hour")
        self.chance("shuffle_and_deal", order=deck_order(self.players, hands, then or []))

    def start_turn(self, starts: dict[str, str]) -> None:
        """Each contender lays the given card for who starts."""
        for p, card in starts.items():
            self.do(p, "commit_start_card", card=card)

    def pour(self, levels: dict[str, int]) -> None:
        """The Active Player pours so that the others' glasses hold ``levels``."""
        ap = self.state.active_player
        for p, units in levels.items():
            if units:
                self.do(ap, "pour", target=p, units=units)

    def launch(self, seat: str, launch_type: str, aspect: str, medication: bool = False, text: str = "I want") -> None:
        self.do(seat, "launch_conflict", launch_type=launch_type, aspect=aspect, medication=medication, text=text)

    def play(self, seat: str, card: str) -> None:
        self.do(seat, "play_conflict_card", card=card)


def deck_order(players: tuple[str, ...], hands: dict[str, list[str]], then: list[str]) -> list[int]:
    """The shuffle that deals ``hands`` (six cards each, seat order) and puts ``then`` on top."""
    index = {card: i for i, card in enumerate(STANDARD_DECK)}
    used: list[str] = []
    rest = [c for c in STANDARD_DECK if c not in {c for h in hands.values() for c in h} and c not in then]
    for p in players:
        hand = list(hands.get(p, []))
        while len(hand) < 6:
            hand.append(rest.pop())
        used.extend(hand)
    used.extend(then)
    used.extend(c for c in rest if c not in used)
    assert len(used) == 52 and len(set(used)) == 52
    return [index[c] for c in used]


@pytest.fixture
def table() -> type[Table]:
    return Table
