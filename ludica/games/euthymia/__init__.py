"""Euthymia, by Graham Walmsley (Game Chef 2006): *why would you want to be human?*

Ten one-hour sessions around a bottle of drink and a pack of cards. In the first hour the group
describes the Ideal Citizen ("Feels euthymic", and how a chosen social group expects one to
speak, believe and love), answers the questions that build the state of Euthymia, and each
player makes a character with four Aspects that contrast with the Ideal Citizen's, with fifteen
points of Strength. One player, dealt the black identity card, is secretly the Committee Member;
one other player knows it.

In hours two to nine each player in turn is the Active Player, holds the bottle and pours for the
others; the turn ends with a Conflict ("I want to…", "You must be tempted to…", "The Committee
demands…") on one Aspect, decided by cards played down the glasses from the fullest; face cards
move Strengths up or down. A Strength of ten kills the character; all zeros make an Ideal
Citizen. Towards the end of each hour every player takes a final turn. In the ninth hour the
Committee Member reveals himself; in the final hour he controls the bottle and launches the
Conflicts, and everyone tells the end of their story.

How it is modelled (``docs/rules/euthymia.md`` has every action, option and ruling):

* seats ``p1..pN`` (3–8 players, R-EU-01) and ``table``, the group as a whole: it sets the Ideal
  Citizen and the setting, starts each hour (sessions are separate evenings) and feeds the
  **clock** (``clock seconds=…``, ``trigger_final_round``): time reaches the rules as actions;
* the chance seat deals the identity cards (``deal_identity_cards``), passes them
  (``pass_identity_cards``, a random derangement), shuffles the deck at every hour
  (``shuffle_and_deal``) and when it runs out (``reshuffle``); every later draw is the deck's top;
* the modules follow the rulebook: :mod:`.state` (the table), :mod:`.drink` (bottle and glasses),
  :mod:`.strength` (the Strength of your Aspects), :mod:`.identity` (the Committee Member),
  :mod:`.flow` (the hours, turns and Conflicts), :mod:`.legal` (every legal action),
  :mod:`.actions` (checking and playing), :mod:`.view` (what each seat sees), :mod:`.stats`.

Version history: 1 — first complete implementation of the spec with rulings R-EU-01…R-EU-38.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...core import (
    CHANCE,
    Action,
    Config,
    ConfigError,
    Event,
    Game,
    GameMeta,
    IllegalAction,
    OptionSpec,
    Outcome,
    Pending,
    Pick,
    PositionError,
    Secret,
    Shuffle,
    decision,
)
from . import actions, legal, redeal, stats, view
from .names import EuthymiaNamer
from .state import (
    CM_VOTE,
    GAME_OVER,
    NEEDS_NEW_CHARACTER,
    TABLE,
    EuthymiaState,
    Options,
    from_position,
    to_position,
)

PROMPTS = {
    "IDEAL_CITIZEN": "the group describes the Ideal Citizen",
    "BUILD_STATE": "the group answers the questions about Euthymia",
    "CHARACTERS": "each player makes a character",
    "STRENGTHS": "each player divides fifteen points of Strength",
    "CM_PASS": "each player passes his identity card",
    "HOUR_END": "the hour is over; the table starts the next one",
    "NEW_CHARACTERS": "new characters for this hour",
    "WHO_STARTS": "reveal a card at the same time: the highest starts",
    "TURN": "the Active Player's story, until a Conflict is launched",
    "CONFLICT": "cards down the glasses, from the fullest",
    "TURN_END": "the turn ends",
    "CM_REVEAL_TURN": "the Committee Member reveals his true identity",
    "GAME_ENDINGS": "each player tells the end of the story",
    CM_VOTE: "vote: is the Committee Member an open secret?",
}

OPTIONS = (
    OptionSpec("BOTTLE_UNITS", 30, "units of drink in a fresh bottle (every hour 2-10)"),
    OptionSpec("GLASS_CAPACITY", 10, "units one glass holds"),
    OptionSpec("FINAL_ROUND_AT_S", 2700, "clock seconds after which the final turns are called (R-EU-26)"),
    OptionSpec("BOTTLE_MODE", "finish", "divide the rest of the bottle, or fill and reseal", ("finish", "reseal")),
    OptionSpec("TIE_BREAK_POURS", False, "echo every tie designation with a one-unit pour (R-EU-10)"),
    OptionSpec(
        "CAP_MODE_REGULAR",
        "stay",
        "an increase above Feel stays, or is clamped to Feel (R-EU-16)",
        ("stay", "clamp_to_feel"),
    ),
    OptionSpec(
        "CM_PASS_MODE",
        "random_derangement",
        "how identity cards are passed (R-EU-04)",
        ("random_derangement", "rotate_left", "manual"),
    ),
    OptionSpec("PASSER_LEARNS_RECIPIENT", True, "each passer learns who received his card (R-EU-05)"),
    OptionSpec("HR_FORCED_LAUNCH", False, "HR-E1: past 60 minutes the most-drink player must launch", house_rule=True),
    OptionSpec(
        "CM_PROPOSALS_PER_HOUR", 1, "proposals to change the Committee Member per player and hour (bound; R-EU-07)"
    ),
)


_OVER = Pending((), GAME_OVER)
_WAITING: dict[tuple[tuple[str, ...], str], Pending] = {}
"""The shared ``Pending`` of each (seats, phase): a pending is a value, and the keys are a few
sets of this game's seats and its phases (a small, bounded set)."""


def _waiting(seats: tuple[str, ...], phase: str) -> Pending:
    """Who must decide now, in ``phase``, with its prompt."""
    key = (seats, phase)
    pending = _WAITING.get(key)
    if pending is None:
        pending = _WAITING[key] = Pending(seats, phase, PROMPTS.get(phase, ""))
    return pending


class Euthymia(Game[EuthymiaState]):
    meta = GameMeta(
        id="euthymia",
        title="Euthymia",
        description="Ten hours in a tranquil dystopia: a bottle, glasses, a pack of cards and a Committee spy.",
        players_min=3,
        players_max=8,
        rules_version="1",
        chance=True,
        hidden_information=True,
        simultaneous=True,
        referee=TABLE,
        options=OPTIONS,
        max_steps=20_000,
        end_reasons=stats.END_REASONS,
        clock_unit="hour",
        counter_bounds=stats.COUNTER_BOUNDS,
    )

    # -- set-up --------------------------------------------------------------------------------
    def validate_config(self, config: Config) -> None:
        super().validate_config(config)
        for name, low in (("BOTTLE_UNITS", 0), ("GLASS_CAPACITY", 1), ("FINAL_ROUND_AT_S", 0)):
            value = config.option(self.meta, name)
            if value < low:
                raise ConfigError(f"option {name!r} must be at least {low}, not {value}", rule="config")

    def setup(self, config: Config) -> EuthymiaState:
        """Three to eight players, a bottle, glasses and a pack of cards, with the options.

        Rule: [Introduction]; R-EU-01
        """
        opt = {spec.name: config.option(self.meta, spec.name) for spec in OPTIONS}
        options = Options(
            bottle_units=opt["BOTTLE_UNITS"],
            glass_capacity=opt["GLASS_CAPACITY"],
            final_round_at_s=opt["FINAL_ROUND_AT_S"],
            bottle_mode=opt["BOTTLE_MODE"],
            tie_break_pours=opt["TIE_BREAK_POURS"],
            cap_mode_regular=opt["CAP_MODE_REGULAR"],
            cm_pass_mode=opt["CM_PASS_MODE"],
            passer_learns_recipient=opt["PASSER_LEARNS_RECIPIENT"],
            hr_forced_launch=opt["HR_FORCED_LAUNCH"],
            cm_proposals_per_hour=opt["CM_PROPOSALS_PER_HOUR"],
        )
        players = tuple(f"p{i + 1}" for i in range(len(config.players)))
        state = EuthymiaState(players, tuple(config.players), options)
        state.characters = {p: None for p in players}
        state.status = {p: NEEDS_NEW_CHARACTER for p in players}
        state.glass = {p: 0 for p in players}
        state.hands = {p: [] for p in players}
        return state

    def seats(self, state: EuthymiaState) -> tuple[str, ...]:
        return (*state.players, TABLE)

    def namer(self, state: EuthymiaState, viewer: str | None) -> EuthymiaNamer:
        return EuthymiaNamer(self, state, viewer)

    def seat_name(self, state: EuthymiaState, seat: str) -> str:
        if seat in state.players:
            return state.names[state.players.index(seat)]
        return "the group" if seat == TABLE else seat

    # -- decisions -----------------------------------------------------------------------------
    def pending(self, state: EuthymiaState) -> Pending:
        memo = state.memo or legal.memo(state)
        if memo.pending is None:
            memo.pending = self._pending(state)
        return memo.pending

    def _pending(self, state: EuthymiaState) -> Pending:
        if state.phase == GAME_OVER:
            return _OVER
        if state.chance is not None:
            return decision(CHANCE, state.chance)
        phase = CM_VOTE if state.vote is not None else state.phase
        return _waiting(legal.pending_seats(state), phase)

    def chance_step(self, state: EuthymiaState) -> Pick | Shuffle:
        return actions.chance_step(state)

    def legal_actions(self, state: EuthymiaState, seat: str) -> list[Action]:
        return list(legal.for_seat(state, seat))

    def check(self, state: EuthymiaState, action: Action) -> None:
        actions.check(state, action)

    def explain_refusal(self, state: EuthymiaState, action: Action) -> IllegalAction | None:
        return actions.explain_refusal(state, action)

    def play(self, state: EuthymiaState, action: Action) -> Sequence[Event]:
        return actions.play(state, action)

    # -- information ---------------------------------------------------------------------------
    def view(self, state: EuthymiaState, seat: str | None) -> dict[str, Any]:
        return view.view(state, seat)

    def secrets(self, state: EuthymiaState) -> list[Secret]:
        return view.secrets(state)

    def redeal(self, state: EuthymiaState, seat: str | None, rng: random.Random) -> EuthymiaState:
        return redeal.redeal(state, seat, rng)

    def render(self, v: dict[str, Any]) -> str:
        return view.render(v)

    # -- end -----------------------------------------------------------------------------------
    def outcome(self, state: EuthymiaState) -> Outcome | None:
        if state.phase != GAME_OVER:
            return None
        dead = sum(1 for p in state.players if state.status[p] == "DEAD_THIS_HOUR")
        ideal = sum(1 for p in state.players if state.status[p] == "IDEAL_CITIZEN")
        summary = (
            f"The story is told. {state.stats['deaths']} death(s) and {state.stats['ideal_citizens']} Ideal "
            f"Citizen(s) in all; at the end {dead} dead, {ideal} Ideal Citizen(s). "
            f"The Committee Member was {state.committee_member}."
        )
        return Outcome((), {}, summary)

    # -- positions -----------------------------------------------------------------------------
    def to_position(self, state: EuthymiaState) -> dict[str, Any]:
        return to_position(state)

    def from_position(self, data: dict[str, Any], config: Config) -> EuthymiaState:
        try:
            return from_position(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"not a Euthymia position: {exc}", rule="position") from None

    def copy(self, state: EuthymiaState) -> EuthymiaState:
        return state.copy()

    def invariants(self, state: EuthymiaState) -> list[str]:
        return invariants(state)

    # -- statistics ----------------------------------------------------------------------------
    def summarize(self, state: EuthymiaState, steps: int) -> dict[str, Any]:
        return stats.summarize(state, steps)

    def report(self, summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
        return stats.report(summaries)

    def end_reason(self, state: EuthymiaState) -> str:
        return stats.end_reason(state)

    def clock(self, state: EuthymiaState) -> int:
        return stats.clock(state)

    def sample(self, state: EuthymiaState) -> dict[str, float]:
        return stats.sample(state)


def invariants(state: EuthymiaState) -> list[str]:
    """No count below zero; drink and cards conserved; no Strength above Feel; someone to act."""
    problems: list[str] = []
    cap = state.options.glass_capacity
    for p, level in state.glass.items():
        if not 0 <= level <= cap:
            problems.append(f"{p}'s glass holds {level}")
    if state.bottle_units < 0:
        problems.append("the bottle is below zero")
    if state.hour >= 2 and state.bottle_units + sum(state.glass.values()) + state.stats["drunk"] != (
        state.options.bottle_units
    ):
        problems.append("drink is not conserved this hour")
    for p, character in state.characters.items():
        if character is None or character.strength is None:
            continue
        s = character.strength
        if any(not 0 <= v <= 10 for v in s):
            problems.append(f"{p} has a Strength out of 0..10: {s}")
        if max(s[1:]) > s[0]:
            problems.append(f"{p} has a Strength above Feel: {s}")
    if state.hour >= 2 and state.chance is None and state.phase not in ("NEW_CHARACTERS", "HOUR_END"):
        cards = len(state.deck) + len(state.discard) + sum(len(h) for h in state.hands.values())
        if state.start is not None and not state.start.revealed:
            cards += len(state.start.choices)
        if state.conflict is not None:
            cards += sum(1 for _, c in state.conflict.plays if c is not None)
        if cards != 52:
            problems.append(f"{cards} cards in play, not 52")
    if state.phase != GAME_OVER and state.chance is None and not legal.pending_seats(state):
        problems.append(f"nobody can act in phase {state.phase}")
    return problems


GAME = Euthymia()

__all__ = ["GAME", "Euthymia"]
