"""Every legal action of every seat, listed directly from the state (never by trial).

The vocabulary is the spec's (§2.2–§2.12); free words are :class:`Text`, amounts
:class:`IntRange`. ``pending_seats`` says who may act without listing; ``for_seat`` lists one
seat's actions; both are kept with the state until it changes, so ``pending``, ``legal_actions``
and ``check`` share one computation.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ...core import Action, IntRange, Text
from . import drink, identity
from .state import (
    ASPECTS,
    BUILD_STATE,
    CHARACTERS,
    CM_PASS,
    CM_REVEAL_TURN,
    COMMITTEE,
    CONFLICT,
    CONFLICT_ORDER,
    ENDING_ORDER,
    FINAL,
    GAME_ENDINGS,
    GAME_OVER,
    HOUR_END,
    IDEAL_CITIZEN,
    IDEAL_CITIZEN_PHASE,
    MORE_CARDS,
    MOST_DRINK,
    NEEDS_NEW_CHARACTER,
    NEW_CHARACTERS,
    NEXT_ACTIVE,
    NORMAL,
    STRENGTHS,
    SUITS,
    TABLE,
    TEMPTED,
    TURN,
    TURN_END,
    WANT,
    WHO_STARTS,
    EuthymiaState,
)
from .strength import STARTING_STRENGTHS

CLOCK_STEP_MAX = 600
"""The most seconds one ``clock`` action may advance the hour clock."""
FORCED_AT_S = 3600
"""HR-E1: the clock passes 60 minutes during a turn."""

TEXT_CHARACTER = {
    "name": Text("the character's name", max_len=200),
    "feel_text": Text("how the character is tempted to feel (contrasts 'Feels euthymic')", max_len=500),
    "speak_text": Text("how the character is tempted to speak", max_len=500),
    "believe_text": Text("what the character is tempted to believe", max_len=500),
    "love_text": Text("how the character is tempted to love", max_len=500),
}

SCHEMA: dict[str, dict[str, type | tuple[type, ...]]] = {
    "set_ideal_citizen": {"speak": str, "believe": str, "love": str},
    "record_setting": {"answers": str},
    "create_character": {k: str for k in TEXT_CHARACTER},
    "set_starting_strengths": {"F": int, "S": int, "B": int, "L": int},
    "pass_identity_card": {"to": str},
    "start_hour": {},
    "clock": {"seconds": int},
    "trigger_final_round": {},
    "commit_start_card": {"card": str},
    "pour": {"target": str, "units": int},
    "drink": {"units": int},
    "designate_drink_order": {"context": str, "ordered_players": list},
    "declare_more_cards": {},
    "launch_conflict": {"launch_type": str, "aspect": str, "medication": bool, "text": str},
    "play_conflict_card": {"card": str},
    "describe_death": {"text": str},
    "divide_bottle": {"target": str, "units": int},
    "fill_all_and_reseal": {},
    "propose_cm_change": {},
    "vote_cm_change": {"yes": bool},
    "abandon_ideal_citizen": {},
    "reveal_identity": {"text": str},
    "narrate_ending": {"text": str},
}
"""Each action type and its parameters with their JSON types (for :class:`MalformedAction`)."""

IDEAL_KEYS = ("speak", "believe", "love")
TABLE_ACTIONS = {"set_ideal_citizen", "record_setting", "start_hour", "clock", "trigger_final_round"}


@cache
def act(seat: str, kind: str, *items: tuple[str, Any]) -> Action:
    """A listed action, made once and shared (actions are values; nobody changes them)."""
    return Action(seat, kind, dict(items))


class Computed:
    """What is known of one version of the state: the seats that may act, their actions."""

    __slots__ = ("acts", "seats", "ties", "version")

    def __init__(self, version: int, ties: tuple[str | None, list[str]]) -> None:
        self.version = version
        self.ties = ties
        self.seats: tuple[str, ...] | None = None
        self.acts: dict[str, list[Action]] = {}


def computed(state: EuthymiaState) -> Computed:
    c = state.cache
    if c is None or c.version != state.version:
        c = Computed(state.version, _ties(state))
        state.cache = c
    return c


def pending_seats(state: EuthymiaState) -> tuple[str, ...]:
    """Every seat that has a legal action now, in table order (without listing them)."""
    c = computed(state)
    if c.seats is None:
        if state.phase == GAME_OVER or state.chance is not None:
            c.seats = ()
        else:
            c.seats = tuple(s for s in (*state.players, TABLE) if _can_act(state, s, c.ties))
    return c.seats


def for_seat(state: EuthymiaState, seat: str) -> list[Action]:
    """The legal actions of one seat (listed once per state version)."""
    c = computed(state)
    acts = c.acts.get(seat)
    if acts is None:
        over = state.phase == GAME_OVER or state.chance is not None
        acts = [] if over else _for_seat(state, seat, c.ties)
        c.acts[seat] = acts
    return acts


def options(state: EuthymiaState) -> dict[str, list[Action]]:
    """Legal actions of every seat that has any."""
    out = {}
    for seat in (*state.players, TABLE):
        acts = for_seat(state, seat)
        if acts:
            out[seat] = acts
    return out


def _can_act(state: EuthymiaState, seat: str, ties: tuple[str | None, list[str]]) -> bool:
    """Whether ``_for_seat`` would list anything — answered without building the list in the two
    busy phases (a turn and a Conflict); the tests check that both always agree."""
    if state.vote is not None or seat == TABLE or state.identity_change or state.phase not in (TURN, CONFLICT):
        return bool(_for_seat(state, seat, ties))
    most, tied = ties
    if tied and seat == drink.resolver(state):
        return True
    if state.phase == CONFLICT:
        conflict = state.conflict
        assert conflict is not None
        if conflict.order and conflict.order[conflict.index] == seat:
            return True
        return may_drink(state, seat)
    if state.dividing:
        return seat == state.active_player
    if forced(state):
        return seat == most
    if seat == most or may_drink(state, seat):
        return True
    if seat == state.active_player and state.turn_kind in (NORMAL, FINAL):
        return True
    if may_pour(state, seat) and pour_targets(state, seat):
        return True
    return may_propose(state, seat) or (state.status.get(seat) == IDEAL_CITIZEN and state.hour < 10)


def _ties(state: EuthymiaState) -> tuple[str | None, list[str]]:
    """Computed once for all seats: the most-drink player (in a turn) or the open tie in the order
    of a Conflict being launched."""
    if state.vote is not None or state.identity_change:
        return None, []
    if state.phase == TURN and not state.dividing:
        return drink.most_drink_player(state)
    conflict = state.conflict
    if state.phase == CONFLICT and conflict is not None and not conflict.order:
        return None, drink.full_order(state, list(conflict.levels), conflict.levels, CONFLICT_ORDER)[1]
    return None, []


def _for_seat(state: EuthymiaState, seat: str, ties: tuple[str | None, list[str]]) -> list[Action]:
    if state.vote is not None:
        if seat in state.vote.waiting():
            return [act(seat, "vote_cm_change", ("yes", True)), act(seat, "vote_cm_change", ("yes", False))]
        return []
    if seat == TABLE:
        return [] if state.identity_change else _table(state)
    if state.identity_change:
        return _cm_pass(state, seat)
    phase = state.phase
    if phase == TURN:
        return _turn(state, seat, ties)
    if phase == CONFLICT:
        return _conflict(state, seat, ties[1])
    builder = _BY_PHASE.get(phase)
    return builder(state, seat) if builder else []


# -- the group and the clock ----------------------------------------------------------------------
def _table(state: EuthymiaState) -> list[Action]:
    phase = state.phase
    if phase == IDEAL_CITIZEN_PHASE:
        texts = {
            k: Text(f"how the Ideal Citizen is expected to {k}", max_len=500) for k in ("speak", "believe", "love")
        }
        return [Action(TABLE, "set_ideal_citizen", texts)]
    if phase == BUILD_STATE:
        return [Action(TABLE, "record_setting", {"answers": Text("the answers about the state of Euthymia")})]
    if phase == HOUR_END and state.hour < 10:
        return [act(TABLE, "start_hour")]
    if phase in (WHO_STARTS, TURN, CONFLICT) and state.hour >= 2 and not state.dividing:
        out = [act(TABLE, "clock", ("seconds", IntRange(1, CLOCK_STEP_MAX)))]
        if not state.final_round_pending:
            out.append(act(TABLE, "trigger_final_round"))
        return out
    return []


# -- the first hour and new characters ------------------------------------------------------------
def _characters(state: EuthymiaState, seat: str) -> list[Action]:
    if state.characters.get(seat) is None:
        return [Action(seat, "create_character", dict(TEXT_CHARACTER))]
    return []


def _strengths(state: EuthymiaState, seat: str) -> list[Action]:
    character = state.characters.get(seat)
    if character is None or character.strength is not None:
        return []
    return [
        Action(seat, "set_starting_strengths", {"F": f, "S": s, "B": b, "L": lv}) for f, s, b, lv in STARTING_STRENGTHS
    ]


def _new_characters(state: EuthymiaState, seat: str) -> list[Action]:
    if state.status[seat] != NEEDS_NEW_CHARACTER:
        return []
    return _characters(state, seat) or _strengths(state, seat)


def _cm_pass(state: EuthymiaState, seat: str) -> list[Action]:
    waiting = [p for p in state.players if p not in state.passes]
    if not waiting or waiting[0] != seat:
        return []
    return [Action(seat, "pass_identity_card", {"to": to}) for to in identity.manual_recipients(state, seat)]


# -- common to many moments -----------------------------------------------------------------------
def may_propose(state: EuthymiaState, seat: str) -> bool:
    """§2.12 / R-EU-07: before the ninth-hour reveal, no Conflict in progress; at most
    ``CM_PROPOSALS_PER_HOUR`` proposals per player and hour (a bound so that play ends)."""
    if state.cm_revealed or state.committee_member is None:
        return False
    return state.proposals.get(seat, 0) < state.options.cm_proposals_per_hour


def _social(state: EuthymiaState, seat: str) -> list[Action]:
    out = []
    if may_propose(state, seat):
        out.append(act(seat, "propose_cm_change"))
    if state.status.get(seat) == IDEAL_CITIZEN and state.hour < 10:
        out.append(act(seat, "abandon_ideal_citizen"))
    return out


def may_drink(state: EuthymiaState, seat: str) -> bool:
    return state.glass.get(seat, 0) > 0 and seat not in state.retired


def _drink(state: EuthymiaState, seat: str) -> list[Action]:
    if may_drink(state, seat):
        return [act(seat, "drink", ("units", IntRange(1, state.glass[seat])))]
    return []


def _designations(state: EuthymiaState, seat: str, context: str, tied: list[str]) -> list[Action]:
    if seat != drink.resolver(state):
        return []
    return [Action(seat, "designate_drink_order", {"context": context, "ordered_players": [p]}) for p in tied]


@cache
def launches(seat: str, launch_type: str) -> tuple[Action, ...]:
    """The five launches of one type: each Aspect, and Feel as a medication challenge (R-EU-20)."""
    text = Text("the Conflict's words, e.g. “I want to …”", max_len=1000)
    out = [
        Action(seat, "launch_conflict", {"launch_type": launch_type, "aspect": a, "medication": False, "text": text})
        for a in ASPECTS
    ]
    medication = {"launch_type": launch_type, "aspect": "FEEL", "medication": True, "text": text}
    out.append(Action(seat, "launch_conflict", medication))
    return tuple(out)


def may_pour(state: EuthymiaState, seat: str) -> bool:
    """R-EU-09: only the bottle holder, never during a Conflict, not once the bottle is divided."""
    if state.conflict is not None or state.final_round_active or state.bottle_units == 0:
        return False
    if state.hour == 10:
        return seat == state.committee_member
    return seat == state.active_player


def pour_targets(state: EuthymiaState, seat: str) -> list[str]:
    """Anyone's glass but the Active Player's own (the Committee Member's own too in hour 10)."""
    return [
        p
        for p in state.players
        if (state.hour == 10 or p != state.active_player) and p not in state.retired and drink.room(state, p) > 0
    ]


def forced(state: EuthymiaState) -> bool:
    """HR-E1: past 60 minutes, the most-drink player must launch before anything else happens."""
    return state.options.hr_forced_launch and state.hour_elapsed_s >= FORCED_AT_S


# -- a turn ---------------------------------------------------------------------------------------
def _turn(state: EuthymiaState, seat: str, ties: tuple[str | None, list[str]]) -> list[Action]:
    ap = state.active_player
    if state.dividing:
        return _dividing(state, seat)
    most, tied = ties
    designate = _designations(state, seat, MOST_DRINK, tied) if tied else []
    if forced(state):
        out = list(designate)
        if seat == most:
            types = (COMMITTEE,) if state.turn_kind == MORE_CARDS else (TEMPTED, COMMITTEE)
            for t in types:
                out.extend(launches(seat, t))
        return out
    out = list(designate)
    if may_pour(state, seat):
        for target in pour_targets(state, seat):
            units = IntRange(1, drink.pour_limit(state, target))
            out.append(act(seat, "pour", ("target", target), ("units", units)))
    out.extend(_drink(state, seat))
    if seat == ap:
        if state.turn_kind == NORMAL:
            out.append(act(seat, "declare_more_cards"))
        if state.turn_kind in (NORMAL, FINAL):
            out.extend(launches(seat, WANT))
    if seat == most:
        if state.turn_kind in (NORMAL, FINAL):
            out.extend(launches(seat, TEMPTED))
        out.extend(launches(seat, COMMITTEE))
    out.extend(_social(state, seat))
    return out


def _dividing(state: EuthymiaState, seat: str) -> list[Action]:
    """§2.9, R-EU-27: the first final turn opens with dividing the bottle (or resealing)."""
    if seat != state.active_player:
        return []
    if state.options.bottle_mode == "reseal":
        return [Action(seat, "fill_all_and_reseal")]
    return [
        Action(seat, "divide_bottle", {"target": p, "units": IntRange(1, drink.pour_limit(state, p))})
        for p in state.players
        if drink.room(state, p) > 0
    ]


def _conflict(state: EuthymiaState, seat: str, tied: list[str]) -> list[Action]:
    conflict = state.conflict
    assert conflict is not None
    out = _drink(state, seat)
    if not conflict.order:
        return _designations(state, seat, CONFLICT_ORDER, tied) + out
    if conflict.order[conflict.index] == seat:
        out.extend(act(seat, "play_conflict_card", ("card", c)) for c in playable(state, seat))
    return out


def playable(state: EuthymiaState, seat: str) -> list[str]:
    """**[The Conflict]** a card of the Aspect's suit; any card if he has none of it."""
    conflict = state.conflict
    assert conflict is not None
    suit = SUITS[conflict.aspect]
    hand = state.hands[seat]
    follow = [c for c in hand if c[-1] == suit]
    return follow or list(hand)


# -- other moments --------------------------------------------------------------------------------
def _who_starts(state: EuthymiaState, seat: str) -> list[Action]:
    out: list[Action] = []
    start = state.start
    if start is not None and not start.revealed and seat in start.waiting() and not state.start_from_deck:
        out.extend(act(seat, "commit_start_card", ("card", c)) for c in state.hands[seat])
    if start is None or not start.choices:
        out.extend(_social(state, seat))
    elif state.status.get(seat) == IDEAL_CITIZEN and state.hour < 10:
        out.append(act(seat, "abandon_ideal_citizen"))
    return out


def _turn_end(state: EuthymiaState, seat: str) -> list[Action]:
    if state.awaiting_death:
        if seat == state.active_player:
            return [Action(seat, "describe_death", {"text": Text("how the character dies")})]
        return []
    _, tied = drink.first_of(state, drink.next_active_candidates(state), state.glass, NEXT_ACTIVE)
    return _designations(state, seat, NEXT_ACTIVE, tied)


def _hour_end(state: EuthymiaState, seat: str) -> list[Action]:
    return _social(state, seat)


def _cm_reveal(state: EuthymiaState, seat: str) -> list[Action]:
    if seat == state.committee_member:
        return [Action(seat, "reveal_identity", {"text": Text("how the Committee Member reveals himself")})]
    return []


def _endings(state: EuthymiaState, seat: str) -> list[Action]:
    nxt, tied = drink.next_ender(state)
    if tied:
        return _designations(state, seat, ENDING_ORDER, tied)
    if seat == nxt:
        return [Action(seat, "narrate_ending", {"text": Text("the end of the character's story")})]
    return []


_BY_PHASE = {
    CHARACTERS: _characters,
    STRENGTHS: _strengths,
    NEW_CHARACTERS: _new_characters,
    CM_PASS: _cm_pass,
    WHO_STARTS: _who_starts,
    TURN_END: _turn_end,
    HOUR_END: _hour_end,
    CM_REVEAL_TURN: _cm_reveal,
    GAME_ENDINGS: _endings,
}

__all__ = ["SCHEMA", "TABLE_ACTIONS", "for_seat", "options", "pending_seats", "playable"]
