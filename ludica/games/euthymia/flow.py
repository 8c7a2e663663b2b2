"""The course of the hours: the start of an hour, who starts, turns, Conflicts, the end of a turn,
the final round, the ninth hour's reveal, the final hour's endings, from [The second to ninth hours] to [The
final hour].

Each function here moves the state on by the rules and returns the story-log events; the
decisions themselves are taken in :mod:`.actions`.
"""

from __future__ import annotations

from ...core import Event
from ...core.mechanisms import Card, SealedChoices, standard_deck
from . import drink
from .state import (
    ASPECTS,
    CENTER,
    CM_REVEAL_TURN,
    CONFLICT,
    DEAD_THIS_HOUR,
    FINAL,
    GAME_ENDINGS,
    GAME_OVER,
    HAND_SIZE,
    HOUR_END,
    IDEAL_CITIZEN,
    NEEDS_NEW_CHARACTER,
    NEW_CHARACTERS,
    NEXT_ACTIVE,
    NONE,
    NORMAL,
    RESHUFFLE,
    SHUFFLE_AND_DEAL,
    TURN,
    TURN_END,
    WHO_STARTS,
    Conflict,
    EuthymiaState,
)
from .strength import apply_change, direction, is_dead, is_ideal, magnitude

STANDARD_DECK = tuple(standard_deck())
RANK = {card: Card.parse(card).rank for card in STANDARD_DECK}
SUIT = {card: card[-1] for card in STANDARD_DECK}

Events = list[Event]


def rank(card: str) -> int:
    """R-EU-02: A=1 … 10, J=11, Q=12, K=13."""
    return RANK[card]


def is_face(card: str) -> bool:
    return RANK[card] >= 11


# -- dealing --------------------------------------------------------------------------------------
def settle_deals(state: EuthymiaState, events: Events) -> bool:
    """Deal what is owed from the top of the deck; ask for a reshuffle (R-EU-33) when it runs
    short. True when every deal is done."""
    while state.to_deal:
        seat, count = state.to_deal[0]
        if len(state.deck) < count and state.discard:
            state.chance = RESHUFFLE
            return False
        cards = state.deck[:count]
        del state.deck[:count]
        state.hands[seat].extend(cards)
        state.to_deal.pop(0)
        events.append(Event("deal", f"{seat} is dealt {len(cards)} card(s)."))
        if cards:
            events.append(Event("deal", f"You are dealt {' '.join(cards)}.", frozenset({seat})))
    return True


def reshuffle(state: EuthymiaState, order: list[int], events: Events) -> None:
    """CH-5: the discard pile (with what is left of the deck) becomes a new shuffled deck."""
    pool = state.deck + state.discard
    state.deck = [pool[i] for i in order]
    state.discard = []
    state.chance = None
    events.append(Event("shuffle", "The discard pile is shuffled into a new deck."))
    resume(state, events)


def resume(state: EuthymiaState, events: Events) -> None:
    """Carry on with what a reshuffle interrupted."""
    if not settle_deals(state, events):
        return
    if state.phase == CONFLICT and state.conflict is not None and state.conflict.order:
        advance_conflict(state, events)
    elif state.phase == WHO_STARTS and state.start_from_deck:
        turn_up_from_deck(state, events)


# -- the start of an hour -------------------------------------------------------------------------
def start_hour(state: EuthymiaState, events: Events) -> None:
    """[The second to ninth hours]: a fresh bottle, empty glasses, new characters, the shuffle and deal.

    Rule: [The second to ninth hours]
    """
    state.hour += 1
    state.glass = {p: 0 for p in state.players}
    state.retired = []
    state.bottle_units = state.options.bottle_units
    state.bottle_sealed = False
    state.bottle_holder = (state.committee_member or NONE) if state.hour == 10 else NONE
    state.hour_elapsed_s = 0
    state.final_round_pending = False
    state.final_round_active = False
    state.final_done = []
    state.active_player = None
    state.previous_active_player = None
    state.turn_kind = None
    state.designation = {}
    state.proposals = {}
    state.stats["drunk"] = 0
    events.append(Event("hour", f"The {ordinal(state.hour)} hour begins."))
    for p in state.players:
        if state.status[p] in (DEAD_THIS_HOUR, NEEDS_NEW_CHARACTER):
            character = state.characters[p]
            if character is not None:
                state.past_characters.append({"player": p, "hour": state.hour - 1, **character.to_json()})
            state.characters[p] = None
            state.status[p] = NEEDS_NEW_CHARACTER
    if any(state.status[p] == NEEDS_NEW_CHARACTER for p in state.players):
        state.phase = NEW_CHARACTERS
    else:
        begin_deal(state)


def begin_deal(state: EuthymiaState) -> None:
    """CH-3 (R-EU-34): every card is collected and the 52 are shuffled."""
    state.phase = WHO_STARTS
    state.chance = SHUFFLE_AND_DEAL


def shuffle_and_deal(state: EuthymiaState, order: list[int], events: Events) -> None:
    state.chance = None
    state.deck = [STANDARD_DECK[i] for i in order]
    state.discard = []
    state.hands = {p: [] for p in state.players}
    events.append(Event("shuffle", "The deck is shuffled; six cards to each player. The clock starts."))
    state.to_deal = [[p, HAND_SIZE] for p in state.players]
    settle_deals(state, events)
    open_who_starts(state, events)


# -- who starts? ----------------------------------------------------------------------------------
def open_who_starts(state: EuthymiaState, events: Events) -> None:
    """**[Who starts?]** (R-EU-13): only players who can take turns reveal."""
    contenders = [p for p in state.players if drink.can_take_turns(state, p)]
    state.phase = WHO_STARTS
    if not contenders:
        events.append(Event("who_starts", "Nobody can take a turn this hour."))
        end_of_turns(state, events)
    elif len(contenders) == 1:
        begin_turn(state, contenders[0], events)
    else:
        state.start = SealedChoices(contenders, rule="R-EU-13")


def reveal_start_cards(state: EuthymiaState, events: Events) -> None:
    """All at once: the highest rank starts; the revealed cards are discarded; ties repeat."""
    assert state.start is not None
    shown = state.start.reveal()
    state.discard.extend(shown.values())
    text = ", ".join(f"{p} {c}" for p, c in shown.items())
    events.append(Event("who_starts", f"Revealed: {text}."))
    decide_start(state, shown, events)


def decide_start(state: EuthymiaState, shown: dict[str, str], events: Events) -> None:
    best = max(rank(c) for c in shown.values())
    tied = [p for p, c in shown.items() if rank(c) == best]
    if len(tied) == 1:
        state.start = None
        state.start_from_deck = False
        begin_turn(state, tied[0], events)
        return
    holding = [p for p in tied if state.hands[p]]
    events.append(Event("who_starts", f"A tie between {', '.join(tied)}: they reveal again."))
    if len(holding) == 1:
        state.start = None
        state.start_from_deck = False
        begin_turn(state, holding[0], events)
    elif holding:
        state.start = SealedChoices(holding, rule="R-EU-13")
        state.start_from_deck = False
    else:
        state.start = SealedChoices(tied, rule="R-EU-13")
        state.start_from_deck = True
        turn_up_from_deck(state, events)


def turn_up_from_deck(state: EuthymiaState, events: Events) -> None:
    """R-EU-13: tied players with empty hands each turn up the deck's top card."""
    assert state.start is not None
    tied = list(state.start.seats)
    if len(state.deck) < len(tied):
        state.chance = RESHUFFLE
        return
    shown = {p: state.deck.pop(0) for p in tied}
    state.discard.extend(shown.values())
    text = ", ".join(f"{p} {c}" for p, c in shown.items())
    events.append(Event("who_starts", f"Turned up from the deck: {text}."))
    decide_start(state, shown, events)


# -- a turn ---------------------------------------------------------------------------------------
def begin_turn(state: EuthymiaState, seat: str, events: Events) -> None:
    """**[Taking a turn]** the Active Player takes the bottle (the Committee Member keeps it in
    the final hour)."""
    if state.active_player is not None:
        state.previous_active_player = state.active_player
    state.phase = TURN
    state.active_player = seat
    state.conflict = None
    state.designation = {}
    state.turn_kind = FINAL if state.final_round_active else NORMAL
    state.bottle_holder = seat if state.hour < 10 else (state.committee_member or NONE)
    kind = "final turn" if state.turn_kind == FINAL else "turn"
    events.append(Event("turn", f"{seat} ({state.names[state.players.index(seat)]}) takes a {kind}."))
    if state.dividing and state.options.bottle_mode == "finish" and division_over(state):
        state.dividing = False


def division_over(state: EuthymiaState) -> bool:
    """R-EU-27: the bottle is empty, or every glass is full."""
    return state.bottle_units == 0 or all(drink.room(state, p) == 0 for p in state.players)


def launch(
    state: EuthymiaState, launcher: str, launch_type: str, aspect: int, medication: bool, text: str, events: Events
) -> None:
    """**[Ending the turn]** the bottle goes to the centre; in a final turn the Active Player
    drains his glass and places it in the middle; the order of play is fixed (R-EU-11)."""
    ap = state.active_player
    assert ap is not None
    state.bottle_holder = CENTER
    if state.turn_kind == FINAL:
        state.stats["drunk"] += state.glass[ap]
        state.glass[ap] = 0
        state.retired.append(ap)
        drink.glass_changed(state)
    levels = {p: (0 if p in state.retired else state.glass[p]) for p in state.players if p != ap}
    state.conflict = Conflict(launcher, launch_type, aspect, medication, text, levels)
    state.phase = CONFLICT
    state.designation.pop("conflict_order", None)
    state.stats["conflicts"] += 1
    state.stats["launches"][launch_type] += 1
    cm_launched = launcher == state.committee_member
    state.stats["cm_launches"] += cm_launched
    if state.hour == 10:
        state.stats["final_hour_conflicts"] += 1
        state.stats["final_hour_cm_launches"] += cm_launched
    tag = " (medication)" if medication else ""
    events.append(
        Event(
            "conflict",
            f"{launcher} launches a Conflict on {ap}'s {ASPECTS[aspect]} Aspect{tag}: “{text}”",
            data={"launcher": launcher, "launch_type": launch_type, "aspect": ASPECTS[aspect]},
        )
    )
    fix_order(state, events)


def fix_order(state: EuthymiaState, events: Events) -> None:
    """[The Conflict]: the order of play, most drink first, once every tie in it is designated (R-EU-10)."""
    conflict = state.conflict
    assert conflict is not None
    order, _tied = drink.full_order(state, list(conflict.levels), conflict.levels, "conflict_order")
    if order is None:
        return  # waiting for the resolver's designation
    conflict.order = order
    events.append(Event("conflict", f"Order of play: {', '.join(order)}."))
    advance_conflict(state, events)


def advance_conflict(state: EuthymiaState, events: Events) -> None:
    """[The Conflict]: players with no cards are passed over (R-EU-14); the Conflict resolves when a card
    below the court is played or nobody is left."""
    conflict = state.conflict
    assert conflict is not None
    while conflict.index < len(conflict.order):
        q = conflict.order[conflict.index]
        if state.hands[q]:
            return
        conflict.plays.append([q, None])
        conflict.index += 1
        events.append(Event("conflict", f"{q} has no cards and is passed over."))
    resolve_conflict(state, events)


def play_card(state: EuthymiaState, seat: str, card: str, events: Events) -> None:
    """**[The Conflict]** a card to the table; a Jack, Queen or King passes play down the glasses.
    **[The final hour]** the Committee Member who uses all his cards is dealt six new ones."""
    conflict = state.conflict
    assert conflict is not None
    state.hands[seat].remove(card)
    conflict.plays.append([seat, card])
    events.append(Event("conflict", f"{seat} plays {card}."))
    conflict.index = conflict.index + 1 if is_face(card) else len(conflict.order)
    if state.hour == 10 and seat == state.committee_member and not state.hands[seat]:
        state.to_deal.append([seat, HAND_SIZE])
        if not settle_deals(state, events):
            return
    advance_conflict(state, events)


def resolve_conflict(state: EuthymiaState, events: Events) -> None:
    """[The Conflict]: the last card's rank against the Aspect's Strength;
    [Changing the Strength of the Aspect]; then the status checks:
    [Dying] at a Strength of ten;
    [Becoming an Ideal Citizen] when every Strength is zero."""
    conflict = state.conflict
    ap = state.active_player
    assert conflict is not None and ap is not None
    cards = [c for _, c in conflict.plays if c is not None]
    faces = sum(1 for c in cards if is_face(c))  # R-EU-15
    strength = state.strength(ap)
    won = not cards or rank(cards[-1]) <= strength[conflict.aspect]  # R-EU-14
    final_mode = state.turn_kind == FINAL or state.hour == 10
    sign = direction(conflict.launch_type, won)
    amount = magnitude(faces, final_mode)
    before = list(strength)
    apply_change(strength, conflict.aspect, sign, amount, final_mode, state.options.cap_mode_regular == "clamp_to_feel")
    state.discard.extend(cards)
    if won:
        state.stats["wins"] += 1
    result = "wins" if won else "loses"
    last = f"last card {cards[-1]}" if cards else "unopposed"
    events.append(
        Event(
            "resolve",
            f"{ap} {result} ({last}, {faces} court card(s)); Strengths {fmt(before)} -> {fmt(strength)}.",
            data={"won": won, "faces": faces, "before": before, "after": list(strength)},
        )
    )
    state.conflict = None
    state.phase = TURN_END
    if is_dead(strength):
        state.status[ap] = DEAD_THIS_HOUR
        state.stats["deaths"] += 1
        state.awaiting_death = True
        events.append(Event("death", f"{ap}'s character has lost control and dies."))
        return
    if is_ideal(strength):
        state.status[ap] = IDEAL_CITIZEN
        state.stats["ideal_citizens"] += 1
        events.append(Event("ideal", f"{ap}'s character becomes an Ideal Citizen."))
    turn_end(state, events)


def fmt(strength: list[int]) -> str:
    """The Strengths as ``F/S/B/L``."""
    return "/".join([str(s) for s in strength])


# -- the end of a turn ----------------------------------------------------------------------------
def turn_end(state: EuthymiaState, events: Events) -> None:
    """[Dying] and [As the end of the hour approaches]: who may still take turns, the final round."""
    ap = state.active_player
    state.phase = TURN_END
    state.previous_active_player = ap
    state.bottle_holder = NONE if state.hour < 10 else (state.committee_member or NONE)
    state.designation = {}
    if state.final_round_active and ap is not None:
        state.final_done.append(ap)
    if state.final_round_pending and not state.final_round_active:
        if state.hour == 10:
            begin_endings(state, events)
            return
        state.final_round_active = True
        state.final_done = []
        state.dividing = True
        events.append(Event("final_round", "The end of the hour approaches: each player takes a final turn."))
    choose_next(state, events)


def choose_next(state: EuthymiaState, events: Events) -> None:
    """**[Changing the Strength of the Aspect]** the next Active Player (its last paragraph): the
    emptiest glass among those who may take a turn, never the previous Active Player; a tie is
    designated (R-EU-10); with nobody else left, the previous one again (R-EU-25).
    **[Ending the turn]** the next turn begins once the Conflict is resolved.
    """
    candidates = drink.next_active_candidates(state)
    nxt, tied = drink.first_of(state, candidates, state.glass, NEXT_ACTIVE)
    if tied:
        return  # the resolver must designate the emptiest glass
    prev = state.previous_active_player
    if nxt is None and prev is not None and drink.can_take_turns(state, prev):
        barred = state.final_round_active and state.hour == 9 and prev == state.committee_member
        if not barred:
            nxt = prev  # R-EU-25
    if nxt is None:
        end_of_turns(state, events)
    else:
        begin_turn(state, nxt, events)


def end_of_turns(state: EuthymiaState, events: Events) -> None:
    """Nobody is left to take a turn: the hour ends (2–8), the reveal (9), the endings (10)."""
    if state.hour == 9:
        begin_cm_reveal(state, events)
    elif state.hour == 10:
        begin_endings(state, events)
    else:
        end_hour(state, events)


def end_hour(state: EuthymiaState, events: Events) -> None:
    state.phase = HOUR_END
    state.active_player = None
    state.turn_kind = None
    state.dividing = False
    state.start = None
    record_strengths(state)
    events.append(Event("hour", f"The {ordinal(state.hour)} hour is over."))


def record_strengths(state: EuthymiaState) -> None:
    """For the designers' statistics: every character's Strengths at the end of the hour."""
    sheets = []
    for p in state.players:
        character = state.characters[p]
        if character is not None and character.strength is not None:
            sheets.append(list(character.strength))
    state.stats["strengths_by_hour"].append([state.hour, sheets])


# -- the ninth and the final hour -----------------------------------------------------------------
def begin_cm_reveal(state: EuthymiaState, events: Events) -> None:
    """**[The ninth hour]** (R-EU-30): the Committee Member takes the last final turn, without a
    Conflict, drains his glass and reveals his true identity."""
    cm = state.committee_member
    assert cm is not None
    state.phase = CM_REVEAL_TURN
    state.active_player = cm
    state.turn_kind = "CM_REVEAL"
    state.stats["drunk"] += state.glass[cm]
    state.glass[cm] = 0
    if cm not in state.retired:
        state.retired.append(cm)
    events.append(Event("turn", "The Committee Member takes the last final turn of the ninth hour."))


def begin_endings(state: EuthymiaState, events: Events) -> None:
    """**[The final hour]** (R-EU-32): the Committee Member tells his ending first, then every
    other player, emptiest glass first; no Conflicts."""
    state.phase = GAME_ENDINGS
    state.active_player = None
    state.turn_kind = "ENDING"
    state.designation = {}
    events.append(Event("endings", "The final turns of the game: each player tells the end of the story."))


def after_ending(state: EuthymiaState, events: Events) -> None:
    if len(state.endings) == len(state.players):
        state.phase = GAME_OVER
        record_strengths(state)
        events.append(Event("over", "The game of Euthymia is over."))


def ordinal(n: int) -> str:
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "final")
    return words[n - 1] if 1 <= n <= 10 else str(n)


__all__ = ["begin_turn", "launch", "play_card", "start_hour", "turn_end"]
