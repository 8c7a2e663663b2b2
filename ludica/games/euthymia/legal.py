"""Every legal action of every seat, listed directly from the state (never by trial).

The vocabulary is the public one of docs/rules/euthymia.md ("Actions"); free words are :class:`Text`, amounts
:class:`IntRange`. ``pending_seats`` says who may act without listing; ``for_seat`` lists one
seat's actions (by phase: the ``legal_<phase>`` functions, in :data:`LEGAL`, the turn's and the
Conflict's taking the tie in the glasses too); ``accepts`` says whether an action is one of them.
What they work out is kept in the state's :class:`Memo` until the state changes, so ``pending``,
``legal_actions`` and ``check`` share one computation; the listed actions themselves are made once
and reused.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ...core import Action, IntRange, Pending, Text
from ...core.values import rebuilt
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


# -- the memo -------------------------------------------------------------------------------------
class Memo:
    """What is known of the state as it is now, worked out when first asked and forgotten at its
    next change (``play`` calls ``state.touch()``): the tie in the glasses, the seats that may
    act, the :class:`Pending` answer and each seat's listed actions, shared by ``pending``,
    ``legal_actions`` and ``check``. It lives in ``state.memo``; ``copy`` and ``from_position``
    start without one and ``to_position`` never shows it. With the listed actions made once
    (:func:`act` and the other cached makers below) it is the only cache of the game."""

    __slots__ = ("acts", "pending", "seats", "ties")

    def __init__(self, ties: tuple[str | None, list[str]]) -> None:
        self.ties = ties
        self.seats: tuple[str, ...] | None = None
        self.pending: Pending | None = None
        self.acts: dict[str, list[Action]] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.ties)  # see ludica.core.values


def memo(state: EuthymiaState) -> Memo:
    """The state's memo, begun now if there is none (hot paths read ``state.memo`` first)."""
    m = state.memo
    if m is None:
        m = state.memo = Memo(_ties(state))
    return m


def pending_seats(state: EuthymiaState) -> tuple[str, ...]:
    """Every seat that has a legal action now, in table order (without listing them)."""
    m = state.memo or memo(state)
    if m.seats is None:
        m.seats = _pending_seats(state, m.ties)
    return m.seats


def _pending_seats(state: EuthymiaState, ties: tuple[str | None, list[str]]) -> tuple[str, ...]:
    """Answered without listing in the busy moments — a vote, who starts, a turn, a Conflict —
    and by listing otherwise; the tests check that it always agrees with :func:`for_seat`."""
    phase = state.phase
    if phase == GAME_OVER or state.chance is not None:
        return ()
    if state.vote is not None:
        return state.vote.waiting()  # the players who have not voted yet, in table order
    if state.identity_change or phase not in (TURN, CONFLICT, WHO_STARTS):
        return tuple(s for s in (*state.players, TABLE) if for_seat(state, s))
    if phase == WHO_STARTS:
        seats = [p for p in state.players if _can_start(state, p)]
    else:
        seats = [p for p in state.players if _can_act(state, p, ties)]
    if clock_runs(state):
        seats.append(TABLE)
    return tuple(seats)


def for_seat(state: EuthymiaState, seat: str) -> list[Action]:
    """The legal actions of one seat (listed once per state: see :class:`Memo`)."""
    m = state.memo or memo(state)
    acts = m.acts.get(seat)
    if acts is None:
        over = state.phase == GAME_OVER or state.chance is not None
        acts = m.acts[seat] = [] if over else _for_seat(state, seat, m.ties)
    return acts


def accepts(listed: list[Action], action: Action) -> bool:
    """Whether ``action`` is an instance of one of the seat's ``listed`` actions: the very listed
    object, or one with the same type whose every value fits (what ``matches`` says, for an
    action that ``actions.check_form`` has found well formed: the right keys and JSON types)."""
    kind, args = action.type, action.args
    for a in listed:
        if a is action:
            return True
        if a.type != kind:
            continue
        for name, want in a.args.items():
            got = args[name]
            form = type(want)
            if form is IntRange:
                if not want.lo <= got <= want.hi:
                    break
            elif form is Text:
                if not want.accepts(got):
                    break
            elif want != got:
                break
        else:
            return True
    return False


def options(state: EuthymiaState) -> dict[str, list[Action]]:
    """Legal actions of every seat that has any."""
    out = {}
    for seat in (*state.players, TABLE):
        acts = for_seat(state, seat)
        if acts:
            out[seat] = acts
    return out


def _can_act(state: EuthymiaState, seat: str, ties: tuple[str | None, list[str]]) -> bool:
    """Whether ``_for_seat`` would list anything for a player in a turn or a Conflict."""
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
    return may_propose(state, seat) or may_abandon(state, seat)


def _can_start(state: EuthymiaState, seat: str) -> bool:
    """Whether ``legal_who_starts`` would list anything."""
    if lays_start_card(state, seat) and state.hands[seat]:
        return True
    start = state.start
    if start is None or not start.choices:
        return may_propose(state, seat) or may_abandon(state, seat)
    return may_abandon(state, seat)


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
        return list(votes(seat)) if seat in state.vote.waiting() else []
    if seat == TABLE:
        return [] if state.identity_change else legal_table(state)
    if state.identity_change:
        return legal_cm_pass(state, seat)
    phase = state.phase
    if phase == TURN:
        return legal_turn(state, seat, ties)
    if phase == CONFLICT:
        return legal_conflict(state, seat, ties[1])
    builder = LEGAL.get(phase)
    return builder(state, seat) if builder else []


# -- the group and the clock ----------------------------------------------------------------------
def legal_table(state: EuthymiaState) -> list[Action]:
    phase = state.phase
    if phase == IDEAL_CITIZEN_PHASE:
        return [SET_IDEAL_CITIZEN]
    if phase == BUILD_STATE:
        return [RECORD_SETTING]
    if phase == HOUR_END and state.hour < 10:
        return [act(TABLE, "start_hour")]
    if phase in (WHO_STARTS, TURN, CONFLICT) and clock_runs(state):
        return [CLOCK] if state.final_round_pending else [CLOCK, TRIGGER_FINAL_ROUND]
    return []


def clock_runs(state: EuthymiaState) -> bool:
    """R-EU-26: from the second hour the table feeds the clock (not while the bottle is divided)."""
    return state.hour >= 2 and not state.dividing


SET_IDEAL_CITIZEN = Action(
    TABLE,
    "set_ideal_citizen",
    {k: Text(f"how the Ideal Citizen is expected to {k}", max_len=500) for k in ("speak", "believe", "love")},
)
RECORD_SETTING = Action(TABLE, "record_setting", {"answers": Text("the answers about the state of Euthymia")})
CLOCK = Action(TABLE, "clock", {"seconds": IntRange(1, CLOCK_STEP_MAX)})
TRIGGER_FINAL_ROUND = Action(TABLE, "trigger_final_round", {})


# -- the first hour and new characters ------------------------------------------------------------
def legal_characters(state: EuthymiaState, seat: str) -> list[Action]:
    if state.characters.get(seat) is None:
        return [act(seat, "create_character", *TEXT_CHARACTER.items())]
    return []


def legal_strengths(state: EuthymiaState, seat: str) -> list[Action]:
    character = state.characters.get(seat)
    if character is None or character.strength is not None:
        return []
    return list(starting_sheets(seat))


@cache
def starting_sheets(seat: str) -> tuple[Action, ...]:
    """R-EU-36: the 61 ways to divide fifteen points."""
    return tuple(
        Action(seat, "set_starting_strengths", {"F": f, "S": s, "B": b, "L": lv}) for f, s, b, lv in STARTING_STRENGTHS
    )


def legal_new_characters(state: EuthymiaState, seat: str) -> list[Action]:
    if state.status[seat] != NEEDS_NEW_CHARACTER:
        return []
    return legal_characters(state, seat) or legal_strengths(state, seat)


def legal_cm_pass(state: EuthymiaState, seat: str) -> list[Action]:
    waiting = [p for p in state.players if p not in state.passes]
    if not waiting or waiting[0] != seat:
        return []
    return [Action(seat, "pass_identity_card", {"to": to}) for to in identity.manual_recipients(state, seat)]


# -- common to many moments -----------------------------------------------------------------------
def may_propose(state: EuthymiaState, seat: str) -> bool:
    """[On the Committee Member], R-EU-07: before the ninth-hour reveal, no Conflict in progress; at most
    ``CM_PROPOSALS_PER_HOUR`` proposals per player and hour (a bound so that play ends)."""
    if state.cm_revealed or state.committee_member is None:
        return False
    return state.proposals.get(seat, 0) < state.options.cm_proposals_per_hour


def _social(state: EuthymiaState, seat: str) -> list[Action]:
    out = []
    if may_propose(state, seat):
        out.append(act(seat, "propose_cm_change"))
    if may_abandon(state, seat):
        out.append(act(seat, "abandon_ideal_citizen"))
    return out


def may_abandon(state: EuthymiaState, seat: str) -> bool:
    """**[Becoming an Ideal Citizen]** an Ideal Citizen may be abandoned for a new character."""
    return state.status.get(seat) == IDEAL_CITIZEN and state.hour < 10


def may_drink(state: EuthymiaState, seat: str) -> bool:
    return state.glass.get(seat, 0) > 0 and seat not in state.retired


def legal_drink(state: EuthymiaState, seat: str) -> list[Action]:
    if may_drink(state, seat):
        return [drinks(seat, state.glass[seat])]
    return []


def _designations(state: EuthymiaState, seat: str, context: str, tied: list[str]) -> list[Action]:
    if seat != drink.resolver(state):
        return []
    return [designation(seat, context, p) for p in tied]


@cache
def designation(seat: str, context: str, first: str) -> Action:
    return Action(seat, "designate_drink_order", {"context": context, "ordered_players": [first]})


@cache
def card_action(seat: str, kind: str, card: str) -> Action:
    """Play a card to the Conflict, or lay it face down for who starts."""
    return Action(seat, kind, {"card": card})


@cache
def votes(seat: str) -> tuple[Action, Action]:
    """R-EU-07: yes or no to changing the Committee Member."""
    return Action(seat, "vote_cm_change", {"yes": True}), Action(seat, "vote_cm_change", {"yes": False})


@cache
def drinks(seat: str, units: int) -> Action:
    """Drink 1 to ``units`` (what the glass holds)."""
    return Action(seat, "drink", {"units": IntRange(1, units)})


@cache
def pours(seat: str, target: str, units: int, kind: str = "pour") -> Action:
    """Pour (or divide the bottle) 1 to ``units`` (the bottle, or the room in the glass) into
    ``target``'s glass."""
    return Action(seat, kind, {"target": target, "units": IntRange(1, units)})


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
def legal_turn(state: EuthymiaState, seat: str, ties: tuple[str | None, list[str]]) -> list[Action]:
    ap = state.active_player
    if state.dividing:
        return legal_dividing(state, seat)
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
            out.append(pours(seat, target, drink.pour_limit(state, target)))
    out.extend(legal_drink(state, seat))
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


def legal_dividing(state: EuthymiaState, seat: str) -> list[Action]:
    """[As the end of the hour approaches], R-EU-27: the first final turn opens with dividing the bottle (or
    resealing)."""
    if seat != state.active_player:
        return []
    if state.options.bottle_mode == "reseal":
        return [act(seat, "fill_all_and_reseal")]
    return [
        pours(seat, p, drink.pour_limit(state, p), "divide_bottle") for p in state.players if drink.room(state, p) > 0
    ]


def legal_conflict(state: EuthymiaState, seat: str, tied: list[str]) -> list[Action]:
    conflict = state.conflict
    assert conflict is not None
    out = legal_drink(state, seat)
    if not conflict.order:
        return _designations(state, seat, CONFLICT_ORDER, tied) + out
    if conflict.order[conflict.index] == seat:
        out.extend([card_action(seat, "play_conflict_card", c) for c in playable(state, seat)])
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
def legal_who_starts(state: EuthymiaState, seat: str) -> list[Action]:
    out: list[Action] = []
    if lays_start_card(state, seat):
        out.extend([card_action(seat, "commit_start_card", c) for c in state.hands[seat]])
    start = state.start
    if start is None or not start.choices:
        out.extend(_social(state, seat))
    elif may_abandon(state, seat):
        out.append(act(seat, "abandon_ideal_citizen"))
    return out


def lays_start_card(state: EuthymiaState, seat: str) -> bool:
    """**[Who starts?]** (R-EU-13): a contender who has not laid his card face down yet (tied
    players with empty hands turn up the deck's top card instead)."""
    start = state.start
    return (
        start is not None
        and not start.revealed
        and seat in start.seats
        and seat not in start.choices
        and not state.start_from_deck
    )


def legal_turn_end(state: EuthymiaState, seat: str) -> list[Action]:
    if state.awaiting_death:
        if seat == state.active_player:
            return [act(seat, "describe_death", ("text", Text("how the character dies")))]
        return []
    _, tied = drink.first_of(state, drink.next_active_candidates(state), state.glass, NEXT_ACTIVE)
    return _designations(state, seat, NEXT_ACTIVE, tied)


def legal_hour_end(state: EuthymiaState, seat: str) -> list[Action]:
    return _social(state, seat)


def legal_cm_reveal(state: EuthymiaState, seat: str) -> list[Action]:
    if seat == state.committee_member:
        return [act(seat, "reveal_identity", ("text", Text("how the Committee Member reveals himself")))]
    return []


def legal_endings(state: EuthymiaState, seat: str) -> list[Action]:
    nxt, tied = drink.next_ender(state)
    if tied:
        return _designations(state, seat, ENDING_ORDER, tied)
    if seat == nxt:
        return [act(seat, "narrate_ending", ("text", Text("the end of the character's story")))]
    return []


LEGAL = {
    # phase: legal_<phase> (the turn, the Conflict and the group's seat are listed by ``_for_seat``)
    CHARACTERS: legal_characters,
    STRENGTHS: legal_strengths,
    NEW_CHARACTERS: legal_new_characters,
    CM_PASS: legal_cm_pass,
    WHO_STARTS: legal_who_starts,
    TURN_END: legal_turn_end,
    HOUR_END: legal_hour_end,
    CM_REVEAL_TURN: legal_cm_reveal,
    GAME_ENDINGS: legal_endings,
}

__all__ = ["SCHEMA", "TABLE_ACTIONS", "for_seat", "options", "pending_seats", "playable"]
