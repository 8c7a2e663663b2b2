"""Checking and playing actions: every refusal names its rule and rulebook section.

``check`` accepts a listed action as it was listed straight away; otherwise it refuses ill-formed
input with :class:`MalformedAction` (unknown type, missing or extra parameter, wrong JSON type),
then accepts exactly the actions :mod:`.legal` lists; anything else is explained by
:func:`why_not` in the rulebook's words (the detailed rules run only to name the refusal).
``play`` applies a checked action and forgets what was worked out of the state before.

The game's convention (as in every Ludica game, see ``docs/architecture.md``): :data:`HANDLERS`
maps each action type to its ``check_<action>`` (here it *returns* the refusal, since the listing
has already decided and the check only names the rule; ``None`` where the listing says it all) and
its ``play_<action>`` (the effect); the listings are :mod:`.legal`'s ``legal_<phase>`` functions,
in its table :data:`.legal.LEGAL`, since one phase offers several action types at once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, cast

from ...core import CHANCE, Action, Event, IllegalAction, IntRange, MalformedAction, Pick, Shuffle, Text
from ...core.chance import EachSays
from ...core.mechanisms import Proposal
from . import drink, flow, identity, legal
from .state import (
    ACTIVE_CHARACTER,
    ASPECTS,
    BUILD_STATE,
    CHARACTERS,
    CM_DEAL,
    CM_PASS,
    CM_REVEAL_TURN,
    CONFLICT,
    CONFLICT_ORDER,
    CONTEXTS,
    DEAL_IDENTITY,
    EUTHYMIC,
    FINAL,
    GAME_OVER,
    HOUR_END,
    LAUNCH_TYPES,
    MORE_CARDS,
    MOST_DRINK,
    NEEDS_NEW_CHARACTER,
    NEXT_ACTIVE,
    PASS_IDENTITY,
    RESHUFFLE,
    SHUFFLE_AND_DEAL,
    STRENGTHS,
    TABLE,
    TEMPTED,
    TURN,
    WANT,
    WHO_STARTS,
    Character,
    EuthymiaState,
)
from .strength import starting_problem

Events = list[Event]
Check = Callable[[EuthymiaState, Action, str, dict[str, Any]], IllegalAction | None]
"""A ``check_<action>``: the rule that refuses a well-formed action that is not listed, or ``None``."""
Play = Callable[[EuthymiaState, str, dict[str, Any], Events], None]
"""A ``play_<action>``: its effect, for the acting seat and the action's arguments."""

SECTIONS = {
    "set_ideal_citizen": "The Ideal Citizen",
    "record_setting": "Building Euthymia",
    "create_character": "The characters",
    "set_starting_strengths": "The Strength of your Aspects",
    "pass_identity_card": "The Committee Member",
    "start_hour": "The second to ninth hours",
    "clock": "As the end of the hour approaches",
    "trigger_final_round": "As the end of the hour approaches",
    "commit_start_card": "Who starts?",
    "pour": "Taking a turn",
    "drink": "On drinking",
    "designate_drink_order": "On drinking",
    "declare_more_cards": "More cards",
    "launch_conflict": "Ending the turn",
    "play_conflict_card": "The Conflict",
    "describe_death": "Changing the Strength of the Aspect",
    "divide_bottle": "As the end of the hour approaches",
    "fill_all_and_reseal": "On drinking",
    "propose_cm_change": "On the Committee Member",
    "vote_cm_change": "On the Committee Member",
    "abandon_ideal_citizen": "Becoming an Ideal Citizen",
    "reveal_identity": "The ninth hour",
    "narrate_ending": "The final hour",
}


def refuse(reason: str, rule: str, action: Action) -> IllegalAction:
    return IllegalAction(reason, rule=rule, section=SECTIONS.get(action.type))


# -- check ----------------------------------------------------------------------------------------
PARAMETERS = {kind: frozenset(schema) for kind, schema in legal.SCHEMA.items()}
"""The parameter names of each action type."""


def check_form(action: Action) -> None:
    """Unknown types, missing or extra parameters and wrong JSON types are malformed."""
    schema = legal.SCHEMA.get(action.type)
    if schema is None:
        known = ", ".join(sorted(legal.SCHEMA))
        raise MalformedAction(f"Euthymia has no action {action.type!r} (the actions are: {known})", rule="actions")
    given, wanted = set(action.args), PARAMETERS[action.type]
    if given != wanted:
        missing, extra = sorted(wanted - given), sorted(given - wanted)
        parts = []
        if missing:
            parts.append(f"missing {', '.join(missing)}")
        if extra:
            parts.append(f"unknown {', '.join(extra)}")
        raise MalformedAction(f"{action.type}: {'; '.join(parts)}", rule="actions")
    for name, kind in schema.items():
        value = action.args[name]
        if type(value) is kind:
            continue
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise MalformedAction(f"{action.type}: {name} must be a whole number, not {value!r}", rule="actions")
        if kind is not int and not isinstance(value, kind):
            expected = kind.__name__ if isinstance(kind, type) else str(kind)
            raise MalformedAction(f"{action.type}: {name} must be {expected}, not {value!r}", rule="actions")


def check(state: EuthymiaState, action: Action) -> None:
    if action.seat == CHANCE:
        check_chance(state, action)
        return
    seat = action.seat
    listed = legal.for_seat(state, seat) if seat == TABLE or seat in state.players else []
    for a in listed:
        if a is action:
            return  # a listed action, taken as listed
    check_form(action)
    if not legal.accepts(listed, action):
        raise why_not(state, action)


def chance_step(state: EuthymiaState) -> Pick | Shuffle:
    """The chance step due now (CH-1 deal, CH-2 pass, CH-3 shuffle and deal, CH-5 reshuffle)."""
    kind = state.chance
    if kind == DEAL_IDENTITY:
        # R-EU-07: in a change, the black card goes to someone other than the outgoing member.
        seats = tuple(p for p in state.players if not (state.identity_change and p == state.committee_member))
        # At a real table each player says, privately, the colour of the card received.
        says = EachSays(seats, "the colour of your identity card", ("black", "red"), identity.dealt_black)
        return Pick(seats, 1, type=DEAL_IDENTITY, key="black", each=says)
    if kind == PASS_IDENTITY:
        # At a real table each player says, privately, whom the card was passed to.
        players = state.players
        says = EachSays(players, "whom you passed your identity card to", (), partial(identity.passed_to, players))
        return Pick(identity.derangements(players), 1, type=PASS_IDENTITY, key="passes", each=says)
    if kind == SHUFFLE_AND_DEAL:
        return Shuffle(52, type=SHUFFLE_AND_DEAL, items=flow.STANDARD_DECK)
    if kind == RESHUFFLE:
        return Shuffle(len(state.deck) + len(state.discard), type=RESHUFFLE)
    raise MalformedAction("no chance step is due now", rule="chance")


def check_chance(state: EuthymiaState, action: Action) -> None:
    step = chance_step(state)
    if action.type != step.type:
        raise MalformedAction(f"the chance step due now is {step.type!r}, not {action.type!r}", rule="chance")
    if set(action.args) != {step.key}:
        raise MalformedAction(f"the {step.type} step takes exactly {step.key!r}", rule="chance")
    step.validate(dict(action.args))


def why_not(state: EuthymiaState, action: Action) -> IllegalAction:
    """The reason, in the rulebook's words, that an action is not among the legal ones."""
    reason = named_rule(state, action) or _against_listed(state, action)
    if reason is not None:
        return reason
    return refuse(f"{action.type} by {action.seat} is not possible now (phase {state.phase})", "phase", action)


def named_rule(state: EuthymiaState, action: Action) -> IllegalAction | None:
    """The rule of the rulebook (or a ruling) that forbids a well-formed action, if one does."""
    seat, kind, args = action.seat, action.type, action.args
    if state.phase == GAME_OVER:
        return refuse("the game is over", "end", action)
    if state.vote is not None and kind != "vote_cm_change":
        return refuse("a vote on changing the Committee Member is open: only votes now", "R-EU-07", action)
    if kind in legal.TABLE_ACTIONS and seat != TABLE:
        return refuse(f"{kind} is the group's decision (seat {TABLE!r})", "seats", action)
    if seat == TABLE and kind not in legal.TABLE_ACTIONS:
        return refuse(f"the table seat does not {kind}; a player does", "seats", action)
    return _specific(state, action, seat, kind, cast(dict[str, Any], args))


def explain_refusal(state: EuthymiaState, action: Action) -> IllegalAction | None:
    """For a seat the game is not waiting for: the rule that forbids its action, if one does
    (a pour during a Conflict, R-EU-09; a proposal after the reveal, R-EU-07), else ``None``
    and the turn order refuses it. Malformed actions are left to the turn order too."""
    if action.seat == CHANCE or (action.seat != TABLE and action.seat not in state.players):
        return None
    try:
        check_form(action)
    except MalformedAction:
        return None
    return named_rule(state, action)


def _against_listed(state: EuthymiaState, action: Action) -> IllegalAction | None:
    """When the action is possible now but a value is not: say which value, and what is allowed."""
    same = [t for t in legal.for_seat(state, action.seat) if t.type == action.type]
    if not same:
        return None
    fixed = [k for k, v in same[0].args.items() if not isinstance(v, Text | IntRange)]
    close = [t for t in same if all(t.args.get(k) == action.args.get(k) for k in fixed)]
    if not close:
        for key in fixed:
            allowed = sorted({str(t.args[key]) for t in same})
            if str(action.args.get(key)) not in allowed:
                return refuse(f"{key} may be {', '.join(allowed)} now, not {action.args.get(key)!r}", "values", action)
        return refuse("that combination of values is not possible now", "values", action)
    for key, want in close[0].args.items():
        got = action.args[key]
        if isinstance(want, Text) and not (isinstance(got, str) and want.min_len <= len(got) <= want.max_len):
            return refuse(f"{key} ({want.hint}) needs {want.min_len} to {want.max_len} characters", "values", action)
        if isinstance(want, IntRange) and not want.lo <= got <= want.hi:
            return refuse(f"{key} must be {want.lo} to {want.hi} now, not {got}", "values", action)
    return None


def _specific(state: EuthymiaState, action: Action, seat: str, kind: str, args: dict[str, Any]) -> IllegalAction | None:
    handler = HANDLERS.get(kind)
    check_action = handler[0] if handler is not None else None
    return check_action(state, action, seat, args) if check_action is not None else None


def check_set_starting_strengths(
    state: EuthymiaState, action: Action, seat: str, args: dict[str, Any]
) -> IllegalAction | None:
    problem = starting_problem((args["F"], args["S"], args["B"], args["L"]))
    if problem:
        return refuse(problem, "R-EU-36", action)
    return None


def check_pour(state: EuthymiaState, action: Action, seat: str, args: dict[str, Any]) -> IllegalAction | None:
    target, units = args["target"], args["units"]
    if state.conflict is not None:
        return refuse("no glass may be filled until the Conflict is resolved", "R-EU-09", action)
    if state.hour == 10 and seat != state.committee_member:
        return refuse("in the final hour no-one but the Committee Member may touch the bottle", "R-EU-09", action)
    if state.hour < 10 and seat != state.active_player:
        return refuse("only the Active Player holds the bottle and pours", "R-EU-09", action)
    if state.dividing and state.options.bottle_mode == "finish":
        return refuse(
            f"the first final turn opens by dividing the bottle ({state.bottle_units} units left) with "
            "divide_bottle, not by pouring",
            "R-EU-27",
            action,
        )
    if state.dividing:
        return refuse("the first final turn opens by filling every glass and resealing the bottle", "R-EU-27", action)
    if state.final_round_active:
        return refuse("the bottle has been divided for the final turns", "R-EU-27", action)
    if state.bottle_sealed:
        return refuse("the bottle has been resealed for the final turns", "R-EU-27", action)
    if target not in state.players:
        return refuse(f"{target!r} is not a player", "R-EU-09", action)
    if state.hour < 10 and target == state.active_player:
        return refuse("the Active Player may refill anyone's glass except his own", "R-EU-09", action)
    if units < 1 or units > state.bottle_units:
        return refuse(f"pour 1 to {state.bottle_units} units (what is left in the bottle)", "R-EU-08", action)
    if units > drink.room(state, target):
        return refuse(f"{target}'s glass has room for {drink.room(state, target)} unit(s) only", "R-EU-08", action)
    return None


def check_drink(state: EuthymiaState, action: Action, seat: str, args: dict[str, Any]) -> IllegalAction | None:
    if seat in state.retired:
        return refuse("that glass has been drained and placed in the middle", "R-EU-28", action)
    have = state.glass.get(seat, 0)
    if have == 0:
        return refuse(f"{seat}'s glass is empty", "R-EU-08", action)
    if args["units"] < 1 or args["units"] > have:
        return refuse(f"{seat}'s glass holds {have} unit(s): drink 1 to {have}", "R-EU-08", action)
    return None


def check_launch_conflict(
    state: EuthymiaState, action: Action, seat: str, args: dict[str, Any]
) -> IllegalAction | None:
    launch_type, aspect, medication = args["launch_type"], args["aspect"], args["medication"]
    if launch_type not in LAUNCH_TYPES:
        return refuse(f"a Conflict is launched as {', '.join(LAUNCH_TYPES)}, not {launch_type!r}", "R-EU-21", action)
    if aspect not in ASPECTS:
        return refuse(f"the Aspect is one of {', '.join(ASPECTS)}, not {aspect!r}", "R-EU-21", action)
    if medication and aspect != "FEEL":
        return refuse("challenges involving medication are challenges to the Feel Aspect", "R-EU-20", action)
    if state.phase == CM_REVEAL_TURN:
        return refuse("the Committee Member's reveal turn has no Conflict", "R-EU-30", action)
    if state.phase != TURN or state.conflict is not None:
        return refuse("only one Conflict per turn, launched during a turn", "R-EU-37", action)
    if state.dividing:
        return refuse("the bottle must first be divided", "R-EU-27", action)
    if launch_type == WANT:
        if seat != state.active_player:
            return refuse("only the Active Player says “I want to…” or “I need to…”", "R-EU-21", action)
        if state.turn_kind == MORE_CARDS:
            return refuse("in a More cards turn only “The Committee demands…” may end the turn", "R-EU-24", action)
        if legal.forced(state):
            return refuse("past sixty minutes the most-drink player must launch first", "HR-E1", action)
        return None
    most, tied = drink.most_drink_player(state)
    if tied:
        return refuse(
            f"{', '.join(tied)} have equally full glasses: the bottle holder must first say who has most",
            "R-EU-10",
            action,
        )
    if seat != most:
        return refuse(f"only the player with the most drink in his glass ({most}) may launch this", "R-EU-12", action)
    if launch_type == TEMPTED and state.turn_kind == MORE_CARDS:
        return refuse("a More cards turn must end with “The Committee demands…”", "R-EU-24", action)
    return None


def check_play_conflict_card(
    state: EuthymiaState, action: Action, seat: str, args: dict[str, Any]
) -> IllegalAction | None:
    conflict, card = state.conflict, args["card"]
    if conflict is None or state.phase != CONFLICT:
        return refuse("no Conflict is being resolved", "R-EU-14", action)
    if not conflict.order:
        return refuse("the order of play waits for the tie in the glasses to be settled", "R-EU-10", action)
    if conflict.order[conflict.index] != seat:
        return refuse(f"it is {conflict.order[conflict.index]}'s card to play", "R-EU-11", action)
    if card not in state.hands[seat]:
        return refuse(f"{card!r} is not in your hand", "R-EU-02", action)
    return refuse("play a card of the Aspect's suit while you hold one", "The Conflict", action)


def check_commit_start_card(
    state: EuthymiaState, action: Action, seat: str, args: dict[str, Any]
) -> IllegalAction | None:
    if state.phase != WHO_STARTS or state.start is None:
        return refuse("no cards are being revealed for who starts", "R-EU-13", action)
    if seat not in state.start.seats:
        return refuse("only the players who can take turns (and tied players) reveal", "R-EU-13", action)
    if seat in state.start.choices:
        return refuse("you have already chosen your card", "R-EU-13", action)
    if args["card"] not in state.hands.get(seat, []):
        return refuse(f"{args['card']!r} is not in your hand", "R-EU-13", action)
    return None


def check_designate_drink_order(
    state: EuthymiaState, action: Action, seat: str, args: dict[str, Any]
) -> IllegalAction | None:
    if args["context"] not in CONTEXTS:
        return refuse(f"the context is one of {', '.join(CONTEXTS)}", "R-EU-10", action)
    if seat != drink.resolver(state):
        return refuse(
            "only the bottle holder (during a Conflict, the Active Player; in the final hour, the Committee "
            "Member) settles the tie",
            "R-EU-10",
            action,
        )
    if len(args["ordered_players"]) != 1:
        return refuse(
            "designate one player per action: the one who ranks first among the tied (designate again for a "
            "longer tie)",
            "R-EU-10",
            action,
        )
    return refuse("there is no such tie to settle now, or that player is not among the tied", "R-EU-10", action)


def check_propose_cm_change(
    state: EuthymiaState, action: Action, seat: str, args: dict[str, Any]
) -> IllegalAction | None:
    """R-EU-07 ([On the Committee Member]): whenever no Conflict is in progress, before the ninth-hour reveal."""
    if state.cm_revealed:
        return refuse("the Committee Member has revealed himself: he can no longer be changed", "R-EU-07", action)
    if state.committee_member is None:
        return refuse("there is no Committee Member yet", "R-EU-07", action)
    if state.conflict is not None or state.phase == CONFLICT:
        return refuse("no change of Committee Member is proposed during a Conflict", "R-EU-07", action)
    if state.identity_change:
        return refuse("the Committee Member is being changed now", "R-EU-07", action)
    if state.proposals.get(seat, 0) >= state.options.cm_proposals_per_hour:
        n = state.options.cm_proposals_per_hour
        return refuse(f"each player proposes a change at most {n} time(s) an hour", "R-EU-07", action)
    return None


def check_vote_cm_change(state: EuthymiaState, action: Action, seat: str, args: dict[str, Any]) -> IllegalAction | None:
    """R-EU-07: every player votes once on an open proposal."""
    if state.vote is None:
        return refuse("no vote on changing the Committee Member is open", "R-EU-07", action)
    if seat not in state.vote.waiting():
        return refuse("you have already voted", "R-EU-07", action)
    return None


def check_declare_more_cards(
    state: EuthymiaState, action: Action, seat: str, args: dict[str, Any]
) -> IllegalAction | None:
    if seat != state.active_player:
        return refuse("only the Active Player may spend his turn on More cards", "R-EU-24", action)
    if state.turn_kind == FINAL:
        return refuse("a final turn must reach a Conflict", "R-EU-24", action)
    return None


def check_create_character(
    state: EuthymiaState, action: Action, seat: str, args: dict[str, Any]
) -> IllegalAction | None:
    if state.characters.get(seat) is not None and state.status.get(seat) != NEEDS_NEW_CHARACTER:
        return refuse("your character already exists", "R-EU-22", action)
    if any(not str(v).strip() for v in args.values()):
        return refuse("give the character a name and all four Aspects", "The characters", action)
    return None


# -- play -----------------------------------------------------------------------------------------
def play(state: EuthymiaState, action: Action) -> Events:
    events: Events = []
    if action.seat == CHANCE:
        play_chance(state, action, events)
    elif action.type == "clock":
        play_clock(state, action.seat, cast(dict[str, Any], action.args), events)
        return events  # ``play_clock`` forgets the memo itself, only when a decision changes
    else:
        HANDLERS[action.type][1](state, action.seat, cast(dict[str, Any], action.args), events)
    state.touch()
    return events


def play_chance(state: EuthymiaState, action: Action, events: Events) -> None:
    kind = state.chance
    state.chance = None
    if kind == DEAL_IDENTITY:
        events.extend(identity.deal(state, action.args["black"][0]))
        begin_pass(state, events)
    elif kind == PASS_IDENTITY:
        mapping = identity.parse_pass(state.players, action.args["passes"][0])
        events.extend(identity.pass_all(state, mapping))
        after_pass(state, events)
    elif kind == SHUFFLE_AND_DEAL:
        flow.shuffle_and_deal(state, list(action.args["order"]), events)
    elif kind == RESHUFFLE:
        flow.reshuffle(state, list(action.args["order"]), events)


def begin_pass(state: EuthymiaState, events: Events) -> None:
    """R-EU-04: the pass by the chosen mode."""
    if not state.identity_change:
        state.phase = CM_PASS
    mode = state.options.cm_pass_mode
    if mode == "rotate_left":
        events.extend(identity.pass_all(state, identity.rotate_left(state.players)))
        after_pass(state, events)
    elif mode == "random_derangement":
        state.chance = PASS_IDENTITY
    # manual: the players pass one by one (``pass_identity_card``)


def after_pass(state: EuthymiaState, events: Events) -> None:
    if not identity.passing_done(state):
        return
    if state.identity_change:
        state.identity_change = False
        state.stats["cm_changes"] += 1
        events.append(Event("identity", "A new Committee Member has always been the Committee Member."))
    else:
        state.phase = HOUR_END
        events.append(Event("hour", "The first hour is over."))


def play_set_ideal_citizen(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    state.ideal_citizen = [EUTHYMIC, args["speak"], args["believe"], args["love"]]
    state.phase = BUILD_STATE
    events.append(Event("setting", f"The Ideal Citizen: {'; '.join(state.ideal_citizen)}."))


def play_record_setting(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    """The first hour's answers about the state of Euthymia are written down, not judged.

    Rule: [The first hour]
    """
    state.setting_notes = args["answers"]
    state.phase = CHARACTERS
    events.append(Event("setting", f"Euthymia: {args['answers']}"))


def play_create_character(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    """A character: a name and the words of its four Aspects (Feel, Speak, Believe, Love).

    Rule: [The characters]
    """
    aspects = (args["feel_text"], args["speak_text"], args["believe_text"], args["love_text"])
    state.characters[seat] = Character(args["name"], aspects)
    events.append(Event("character", f"{seat} plays {args['name']}: {'; '.join(aspects)}."))
    if state.phase == CHARACTERS and all(state.characters[p] is not None for p in state.players):
        state.phase = STRENGTHS


def play_set_starting_strengths(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    character = state.characters[seat]
    assert character is not None
    character.strength = [args["F"], args["S"], args["B"], args["L"]]
    state.status[seat] = ACTIVE_CHARACTER
    events.append(Event("character", f"{character.name}'s Strengths: {flow.fmt(character.strength)}."))
    if not any(state.status[p] == NEEDS_NEW_CHARACTER for p in state.players):
        if state.phase == STRENGTHS:
            state.phase = CM_DEAL
            state.chance = DEAL_IDENTITY
        else:
            flow.begin_deal(state)


def play_pass_identity_card(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    events.extend(identity.pass_card(state, seat, args["to"]))
    after_pass(state, events)


def play_start_hour(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    flow.start_hour(state, events)


def play_clock(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    """R-EU-26: time reaches the rules as actions; the threshold raises the final round.

    Time alone changes no decision, so what was worked out of the state (``legal.Memo``) still
    holds, unless the final turns are called now or HR-E1 starts to force a launch."""
    forced = legal.forced(state)
    state.hour_elapsed_s += args["seconds"]
    if not state.final_round_pending and state.hour_elapsed_s >= state.options.final_round_at_s:
        state.final_round_pending = True
        events.append(Event("clock", "The clock says the end of the hour approaches."))
        state.touch()
    elif legal.forced(state) != forced:
        state.touch()


def play_trigger_final_round(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    state.final_round_pending = True
    events.append(Event("clock", "The group calls the final turns of the hour."))


def play_commit_start_card(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    assert state.start is not None
    state.hands[seat].remove(args["card"])
    state.start.commit(seat, args["card"])
    events.append(Event("who_starts", f"{seat} lays a card face down."))
    if state.start.complete:
        flow.reveal_start_cards(state, events)


def play_pour(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    drink.pour_into(state, args["target"], args["units"])
    events.append(Event("pour", f"{seat} pours {args['units']} into {args['target']}'s glass."))


def play_drink(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    state.glass[seat] -= args["units"]
    state.stats["drunk"] += args["units"]
    drink.glass_changed(state)
    events.append(Event("drink", f"{seat} drinks {args['units']}."))


def play_designate_drink_order(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    """R-EU-10: the resolver names who ranks first among the tied (repeat for longer ties)."""
    context, named = args["context"], args["ordered_players"]
    tied = drink.open_tie(state, context) if state.options.tie_break_pours else []
    state.designation.setdefault(context, []).extend(p for p in named if p not in state.designation[context])
    events.append(Event("designate", f"{seat} settles the tie ({context}): {', '.join(named)} first."))
    if state.options.tie_break_pours:
        tie_break_pour(state, context, named[0], tied, events)
    if context == CONFLICT_ORDER:
        flow.fix_order(state, events)
    elif context == NEXT_ACTIVE:
        flow.choose_next(state, events)


def tie_break_pour(state: EuthymiaState, context: str, named: str, tied: list[str], events: Events) -> None:
    """``TIE_BREAK_POURS``: the designation is echoed by a one-unit pour (R-EU-10) into the glass
    named fuller, or into each other tied glass when the emptiest is named."""
    if state.bottle_units == 0 or state.final_round_active or state.bottle_sealed:
        return
    targets = [named] if context in (MOST_DRINK, CONFLICT_ORDER) else [p for p in tied if p != named]
    for p in targets:
        if state.bottle_units and drink.room(state, p) > 0:
            state.bottle_units -= 1
            state.glass[p] += 1
            events.append(Event("pour", f"One unit poured into {p}'s glass to settle the tie."))


def play_declare_more_cards(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    """**[More cards]** (R-EU-24): the whole hand is discarded and six new cards are dealt."""
    state.turn_kind = MORE_CARDS
    state.discard.extend(state.hands[seat])
    state.hands[seat] = []
    state.to_deal.append([seat, 6])
    events.append(Event("more_cards", f"{seat} spends the turn as the Committee subdues the character: More cards."))
    flow.settle_deals(state, events)


def play_launch_conflict(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    aspect = ASPECTS.index(args["aspect"])
    flow.launch(state, seat, args["launch_type"], aspect, args["medication"], args["text"], events)


def play_play_conflict_card(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    flow.play_card(state, seat, args["card"], events)


def play_describe_death(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    state.awaiting_death = False
    events.append(Event("death", f"{seat}: {args['text']}"))
    flow.turn_end(state, events)


def play_divide_bottle(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    drink.pour_into(state, args["target"], args["units"])
    events.append(Event("pour", f"{seat} divides the bottle: {args['units']} into {args['target']}'s glass."))
    if flow.division_over(state):
        state.dividing = False


def play_fill_all_and_reseal(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    for p in state.players:
        units = drink.pour_limit(state, p)
        if units:
            drink.pour_into(state, p, units)
    state.bottle_sealed = True
    state.dividing = False
    events.append(Event("pour", f"{seat} fills every glass and reseals the bottle."))


def play_propose_cm_change(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    state.proposals[seat] = state.proposals.get(seat, 0) + 1
    state.vote = Proposal(seat, "change the Committee Member", state.players, rule="R-EU-07")
    events.append(Event("vote", f"{seat} says the Committee Member is an open secret: change him?"))


def play_vote_cm_change(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    """A vote on changing the Committee Member: unanimous yes deals the identities again.

    Rule: [On the Committee Member]; R-EU-07
    """
    vote = state.vote
    assert vote is not None
    vote.answer(seat, args["yes"])
    events.append(Event("vote", f"{seat} votes {'yes' if args['yes'] else 'no'}."))
    status = vote.status
    if status == "open":
        return
    state.vote = None
    if status == "rejected":
        events.append(Event("vote", "The Committee Member stays as he is."))
        return
    state.identity_change = True
    state.chance = DEAL_IDENTITY
    events.append(Event("vote", "The group changes the Committee Member: the identity cards are dealt again."))


def play_abandon_ideal_citizen(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    state.status[seat] = NEEDS_NEW_CHARACTER
    events.append(Event("ideal", f"{seat} abandons the Ideal Citizen and will prepare a new character."))


def play_reveal_identity(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    state.cm_revealed = True
    events.append(Event("reveal", f"{seat} is the Committee Member: {args['text']}", data={"committee_member": seat}))
    flow.end_hour(state, events)


def play_narrate_ending(state: EuthymiaState, seat: str, args: dict[str, Any], events: Events) -> None:
    state.endings[seat] = args["text"]
    events.append(Event("ending", f"{seat}: {args['text']}"))
    flow.after_ending(state, events)


HANDLERS: dict[str, tuple[Check | None, Play]] = {
    # action type: (check_<action> or None when the listing says it all, play_<action>)
    "set_ideal_citizen": (None, play_set_ideal_citizen),
    "record_setting": (None, play_record_setting),
    "create_character": (check_create_character, play_create_character),
    "set_starting_strengths": (check_set_starting_strengths, play_set_starting_strengths),
    "pass_identity_card": (None, play_pass_identity_card),
    "start_hour": (None, play_start_hour),
    "clock": (None, play_clock),
    "trigger_final_round": (None, play_trigger_final_round),
    "commit_start_card": (check_commit_start_card, play_commit_start_card),
    "pour": (check_pour, play_pour),
    "drink": (check_drink, play_drink),
    "designate_drink_order": (check_designate_drink_order, play_designate_drink_order),
    "declare_more_cards": (check_declare_more_cards, play_declare_more_cards),
    "launch_conflict": (check_launch_conflict, play_launch_conflict),
    "play_conflict_card": (check_play_conflict_card, play_play_conflict_card),
    "describe_death": (None, play_describe_death),
    "divide_bottle": (None, play_divide_bottle),
    "fill_all_and_reseal": (None, play_fill_all_and_reseal),
    "propose_cm_change": (check_propose_cm_change, play_propose_cm_change),
    "vote_cm_change": (check_vote_cm_change, play_vote_cm_change),
    "abandon_ideal_citizen": (None, play_abandon_ideal_citizen),
    "reveal_identity": (None, play_reveal_identity),
    "narrate_ending": (None, play_narrate_ending),
}
"""Every action of the game: the check that names the rule it breaks, and its effect (the listing is
by phase: :data:`.legal.LEGAL`)."""
