"""A scripted table for The Great City tests: every die pinned, every choice spelled out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from ludica.core import CHANCE, Action, Config, Event, IllegalAction, Match, get_game, matches
from ludica.core.match import canonical_json
from ludica.games.great_city.memo import forget

GAME = get_game("great-city")


def traits_of(kind: str, values: Sequence[str]) -> dict[str, str]:
    """The spec's ``{dimension: value}`` form from values in the text's order."""
    dims = ("age", "experience", "attitude") if kind == "human" else ("motive", "ability", "nature")
    return dict(zip(dims, values, strict=True))


class Table:
    """A match with short helpers: ``do`` a seat's action, ``roll`` the pending dice, ``refuse``."""

    def __init__(self, players: Sequence[str] = ("Ann", "Bob"), **options: Any) -> None:
        self.match: Match[Any] = Match(GAME, Config(tuple(players), options, 0))
        self.events: list[Event] = []

    @property
    def state(self) -> Any:
        return self.match.state

    @property
    def scene(self) -> Any:
        return self.match.state.scene

    def pending(self) -> tuple[str, ...]:
        return self.match.pending().seats

    def do(self, seat: str, action_type: str, /, **args: Any) -> list[Event]:
        events = self.match.apply(Action(seat, action_type, args))
        self.events.extend(events)
        return events

    def roll(self, *dice: int) -> list[Event]:
        step = GAME.chance_step(self.state)
        events = self.match.apply(Action(CHANCE, step.type, {**step.extra, step.key: list(dice)}))
        self.events.extend(events)
        return events

    def legal(self, seat: str | None = None) -> list[Action]:
        seat = seat or self.pending()[0]
        return GAME.legal_actions(self.state, seat)

    def is_legal(self, seat: str, action_type: str, /, **args: Any) -> bool:
        a = Action(seat, action_type, args)
        return any(matches(t, a) for t in self.legal(seat))

    def refuse(self, seat: str, action_type: str, rule: str | None = None, /, **args: Any) -> IllegalAction:
        """Assert the action is refused (naming ``rule``) and changes nothing."""
        before = canonical_json(GAME.to_position(self.state))
        n = len(self.match.actions)
        with pytest.raises(IllegalAction) as info:
            self.match.apply(Action(seat, action_type, args))
        assert canonical_json(GAME.to_position(self.state)) == before
        assert len(self.match.actions) == n
        assert info.value.reason
        if rule is not None:
            assert info.value.rule == rule, info.value
        return info.value

    def texts(self) -> list[str]:
        return [e.text for e in self.events]

    # -- scripted set-up -------------------------------------------------------------------------
    def situation(self, dice: Sequence[int] = (5, 1, 6, 2, 7, 5)) -> None:
        self.roll(*dice)
        self.do("gm", "record_situation", situation="A new breed", peril="A bug rebellion", face="Sabotage")

    def make(
        self,
        seat: str,
        dice: Sequence[int],
        kind: str = "human",
        cls: str | None = None,
        traits: Sequence[str] | None = None,
        intent: str = "blue",
        name: str | None = None,
    ) -> str:
        """Create the character now being created (rolled unless agent triads are chosen)."""
        cid = self.state.creating
        c = self.state.characters[cid]
        if c.stage == "choose_triad":
            self.do("gm", "set_triad", character=cid, blue=dice[0], white=dice[1], green=dice[2])
        else:
            self.roll(*dice)
        self.do(seat, "choose_kind", character=cid, kind=kind)
        if traits is None:
            traits = next(list(a.args["traits"].values()) for a in self.legal(seat) if a.type == "allocate_traits")
        self.do(seat, "allocate_traits", character=cid, traits=traits_of(kind, traits))
        if cls is None:
            cls = {"human": "commoner", "bug": "worker"}[kind]
        self.do(seat, "choose_class", character=cid, **{"class": cls})
        stage = self.state.characters[cid].stage
        if stage == "intent":
            self.do(seat, "choose_intent", character=cid, color=intent, text="For my sister")
            stage = self.state.characters[cid].stage
        if stage == "name":
            self.do(seat, "name_character", character=cid, name=name or f"{seat} hero")
        return cid

    def setup(
        self,
        agents: Sequence[dict[str, Any]] = ({"dice": (5, 5, 5), "kind": "bug", "cls": "myrmidon"},),
        chars: Sequence[dict[str, Any]] | None = None,
        initiative: Sequence[int] | None = None,
        ties: Callable[[Table], None] | None = None,
        situation: Sequence[int] = (5, 1, 6, 2, 7, 5),
    ) -> None:
        """Situation, agents, one character per player, no vesting, ties by ``ties`` (or none),
        initiative (p1 wins by default)."""
        self.situation(situation)
        for i, _ in enumerate(agents):
            self.do("gm", "create_agent", name=f"Agent {i + 1}", description="An agent of peril")
        self.do("gm", "end_agents")
        for spec in agents:
            self.make("gm", **spec)
        players = self.state.seats[:-1]
        chars = chars or [{"dice": (2, 2, 2)} for _ in players]
        for seat, spec in zip(players, chars, strict=True):
            self.make(seat, **spec)
        while self.state.phase == "vest":
            self.do(self.pending()[0], "vest_class_scarab", character=self.state.vest_queue[0], vest=False)
        if ties is not None:
            ties(self)
        while self.state.phase == "ties":
            self.do(self.pending()[0], "end_ties", source=self.state.tie_queue[0])
        self.roll(*(initiative or [8] + [1] * (len(players) - 1)))

    def start(self, spotlight: str, foil: str, antes: Sequence[str] = ("pool", "pool")) -> None:
        """Focal seat starts a scene; both antes; nobody buys in (unless the test does it itself)."""
        focal = self.pending()[0]
        self.do(focal, "start_scene", spotlight=spotlight, intent="I want to find the hideout")
        self.do(focal, "choose_foil", foil=foil)
        for source in antes:
            self.do(self.pending()[0], "choose_ante_source", role=self.scene.ante_roles[0], source=source)

    def stay_out_all(self) -> None:
        while self.state.phase == "buy_in":
            self.do(self.pending()[0], "stay_out")

    # -- changes by hand (each makes the state forget its remembered decisions, memo.py) ----------
    def set_triad(self, cid: str, bits: str) -> None:
        self.state.characters[cid].triad = int(bits, 2)
        forget(self.state)

    def give(self, seat: str, n: int) -> None:
        """Scarabs from the bank into a purse (keeps the bank's count)."""
        self.state.purse[seat] += n
        self.state.bank_net += n
        forget(self.state)

    def vest(self, cid: str, color: int, n: int = 1) -> None:
        """Scarabs from the bank under a character's stone."""
        self.state.characters[cid].vested[color] += n
        self.state.bank_net += n
        forget(self.state)

    def first_scene(self, spot: str = "000", foil: str = "111", flip: int | None = None) -> None:
        """Default setup; p1 starts a scene with spotlight c2 against the agent c1; nobody buys in;
        the triads are set to ``spot`` and ``foil``; the random flip shows ``flip`` if given."""
        self.setup()
        self.start("c2", "c1")
        self.set_triad("c2", spot)
        self.set_triad("c1", foil)
        self.stay_out_all()
        if flip is not None:
            self.roll(flip)


@pytest.fixture
def table() -> Callable[..., Table]:
    return Table
