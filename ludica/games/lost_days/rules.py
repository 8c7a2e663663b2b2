"""Who decides now, what they may do, and the dispatch of every action to its rule.

``check`` validates completely before ``play`` changes anything. An action that is an instance of
one of its seat's listed legal actions is accepted (the listing is exact, and is remembered for the
state until the next action). Anything else is examined in order to name what it breaks: the shape
of the action (:mod:`.vocabulary`), whose decision it is, the phase, then the rule's own validator
(with the ruling and the rulebook heading); what passes all of these and is still not listed is
refused as "not one of your legal actions", so that ``legal_actions`` and ``check`` never disagree.
``frame_conflict`` is the exception: its validator checks exactly what its (long) listing holds.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core import CHANCE, Action, Event, IllegalAction, MalformedAction, NotYourDecision, Roll, Text, matches
from . import conflict as cf
from . import creation as cr
from . import scenes as sc
from .state import (
    EPILOGUE,
    INFLUENCE,
    KING_TIE,
    NARRATE_TRIBUTE,
    NARRATION,
    OUTCOME,
    PLACE_TRIBUTE,
    REPLENISH,
    ROLL,
    ROLL_OFF,
    SCENE,
    SEALED_BID,
    SELECT,
    SESSION,
    STAKES,
    STRAIN_AND_GAIN,
    TIE_RAISE,
    TRADE,
    TRIBUTE,
    WRITING,
    LostDaysState,
)
from .vocabulary import check_shape, listed, refuse

OPENING_TEXT, EPILOGUE_TEXT = Text("the opening of the story"), Text("the fall of the elves")
OUTCOME_TEXT, TRIBUTE_TEXT = Text("the outcome, by the stakes"), Text("the form the tribute takes")

Validate = Callable[[LostDaysState, Action], None]
Apply = Callable[[LostDaysState, Action, list[Event]], None]


def _ok(state: LostDaysState, action: Action) -> None:
    """No rule beyond whose turn it is and the phase."""


def _framer(state: LostDaysState, action: Action) -> None:
    sc.validate_framer(state, action, framed=action.type != "frame_scene" and action.type != "write_out")


def _narrator(state: LostDaysState, action: Action) -> None:
    if action.seat != cf.narrator(state):
        raise refuse("the winner describes the outcome", "LD-R22", cf.S_RESOLUTION)


def _tribute_narrator(state: LostDaysState, action: Action) -> None:
    if action.seat != cf.narrator(state):
        raise refuse("the winner narrates the form the tribute takes", "LD-R20", cf.S_TRIBUTE)


HANDLERS: dict[str, tuple[str, Validate, Apply]] = {
    "write_memory": (WRITING, cr.validate_write, cr.apply_write),
    "select_memory": (SELECT, cr.validate_select, cr.apply_select),
    "place_bid": (SEALED_BID, cr.validate_bid, cr.apply_bid),
    "raise_bid": (TIE_RAISE, cr.validate_raise, cr.apply_raise),
    "decline_raise": (TIE_RAISE, _ok, cr.apply_decline),
    "kingship_raise": (KING_TIE, cr.validate_kingship_raise, cr.apply_kingship_raise),
    "kingship_concede": (KING_TIE, _ok, cr.apply_kingship_concede),
    "kingship_pass": (KING_TIE, _ok, cr.apply_kingship_pass),
    "start_session": (SESSION, sc.validate_start_session, sc.apply_start_session),
    "set_replenish_theme": (REPLENISH, sc.validate_theme, sc.apply_theme),
    "write_replenish_memory": (REPLENISH, sc.validate_replenish_memory, sc.apply_replenish_memory),
    "frame_scene": (SCENE, sc.validate_frame_scene, sc.apply_frame_scene),
    "write_out": (SCENE, _framer, sc.apply_write_out),
    "create_memory": (SCENE, sc.validate_create_memory, sc.apply_create_memory),
    "restart_story": (SCENE, sc.validate_restart_story, sc.apply_restart_story),
    "end_scene": (SCENE, sc.validate_end_scene, sc.apply_end_scene),
    "end_session": (SCENE, sc.validate_end_scene, sc.apply_end_scene),
    "sell_memory": (SCENE, sc.validate_sell, sc.apply_sell),
    "propose_trade": (SCENE, sc.validate_trade, sc.apply_trade),
    "offer_memory": (TRADE, sc.validate_deal_memory, sc.apply_deal_memory),
    "ask_memory": (TRADE, sc.validate_deal_memory, sc.apply_deal_memory),
    "accept_trade": (TRADE, sc.validate_answer, sc.apply_answer),
    "decline_trade": (TRADE, sc.validate_answer, sc.apply_answer),
    "frame_conflict": (SCENE, cf.validate_frame, cf.apply_frame),
    "agree_stakes": (STAKES, cf.validate_agree, cf.apply_agree),
    "withdraw_conflict": (STAKES, cf.validate_withdraw, cf.apply_withdraw),
    "narrate_memory": (NARRATION, cf.validate_narration, cf.apply_narration),
    "approve_memory": (NARRATION, cf.validate_narration, cf.apply_narration),
    "veto_memory": (NARRATION, cf.validate_narration, cf.apply_narration),
    "bring_staked_memory": (NARRATION, cf.validate_narration, cf.apply_narration),
    "done_narrating": (NARRATION, cf.validate_narration, cf.apply_narration),
    "influence": (INFLUENCE, cf.validate_influence, cf.apply_influence),
    "end_influence_turn": (INFLUENCE, _ok, cf.apply_end_turn),
    "narrate_outcome": (OUTCOME, _narrator, cf.apply_outcome),
    "pay_tribute": (TRIBUTE, cf.validate_tribute, cf.apply_tribute),
    "pay_tribute_memory": (TRIBUTE, cf.validate_tribute, cf.apply_tribute),
    "place_tribute": (PLACE_TRIBUTE, cf.validate_place, cf.apply_place),
    "narrate_tribute": (NARRATE_TRIBUTE, _tribute_narrator, cf.apply_narrate_tribute),
    "take_gain": (STRAIN_AND_GAIN, cf.validate_points, cf.apply_points),
    "decline_gain": (STRAIN_AND_GAIN, cf.validate_points, cf.apply_points),
    "take_strain": (STRAIN_AND_GAIN, cf.validate_points, cf.apply_points),
    "narrate_epilogue": (EPILOGUE, sc.validate_epilogue, sc.apply_epilogue),
    "decline_epilogue": (EPILOGUE, sc.validate_epilogue, sc.apply_epilogue),
}


SECTION = {
    WRITING: cr.S_CREATE,
    SELECT: cr.S_CREATE,
    SEALED_BID: cr.S_CREATE,
    TIE_RAISE: cr.S_CREATE,
    ROLL_OFF: cr.S_CREATE,
    KING_TIE: cr.S_KING,
    SESSION: sc.S_STORY,
    REPLENISH: sc.S_REPLENISH,
    SCENE: sc.S_SCENES,
    TRADE: sc.S_TRADING,
    STAKES: cf.S_SETUP,
    NARRATION: cf.S_SETUP,
    ROLL: cf.S_RESOLUTION,
    INFLUENCE: cf.S_INFLUENCE,
    OUTCOME: cf.S_RESOLUTION,
    TRIBUTE: cf.S_TRIBUTE,
    PLACE_TRIBUTE: cf.S_TRIBUTE,
    NARRATE_TRIBUTE: cf.S_TRIBUTE,
    STRAIN_AND_GAIN: cf.S_STRAIN,
    EPILOGUE: sc.S_ENDING,
}
"""The rulebook heading of each phase, named when an action comes in the wrong phase."""


# -- who decides -------------------------------------------------------------------------------
def scene_seats(state: LostDaysState) -> tuple[str, ...]:
    """The framer, and every other sane player, who may sell or trade at any time (LD-R27, LD-R36)."""
    assert state.scene is not None
    framer = state.scene.framer
    others = [s for s in state.sane() if s != framer]
    if others and sc.may_deal(state, others[0]):
        return (framer, *others)  # a deal is possible for one sane elf exactly when for all (see may_deal)
    return (framer,)


SEATS = ("seats",)
"""The memo key of :func:`pending_seats` (seat ids, always text, key the seats' legal actions)."""


def seats_now(state: LostDaysState) -> tuple[str, ...]:
    """:func:`pending_seats`, remembered in ``state.memo`` until the next action."""
    seats = state.memo.get(SEATS)
    if seats is None:
        seats = state.memo[SEATS] = pending_seats(state)
    return seats


def pending_seats(state: LostDaysState) -> tuple[str, ...]:
    phase, c = state.phase, state.conflict
    if phase in (ROLL_OFF, ROLL) or (phase == INFLUENCE and c is not None and c.spend is not None):
        return (CHANCE,)
    if phase == WRITING:
        return cr.pending_write(state)
    if phase == SELECT:
        return (state.selector,)
    if phase == SEALED_BID:
        return cr.pending_bid(state)
    if phase == TIE_RAISE:
        assert state.auction is not None and state.auction.turn is not None
        return (state.auction.turn,)
    if phase == KING_TIE:
        assert state.king_tie is not None
        return (state.king_tie.turn,)
    if phase == SESSION:
        return (sc.session_opener(state),)
    if phase == REPLENISH:
        return sc.pending_replenish(state)
    if phase == SCENE:
        return scene_seats(state)
    if phase == TRADE:
        return sc.pending_trade(state)
    if phase == EPILOGUE:
        return (state.survivor,) if state.survivor else ()
    return conflict_seats(state)


def conflict_seats(state: LostDaysState) -> tuple[str, ...]:
    c = state.conflict
    if c is None:
        return ()
    phase = state.phase
    if phase == STAKES:
        return cf.pending_stakes(state)
    if phase == NARRATION:
        return cf.pending_narration(state)
    if phase == INFLUENCE:
        return (c.influence_turn,)
    if phase in (OUTCOME, NARRATE_TRIBUTE):
        return (cf.narrator(state),)
    if phase == TRIBUTE:
        return (cf.loser_seat(c),)
    if phase == PLACE_TRIBUTE:
        return (cf.side_seat(c, c.winner or "a"),)
    if phase == STRAIN_AND_GAIN:
        return (cf.side_seat(c, cf.points_side(c) or "a"),)
    return ()


# -- what they may do --------------------------------------------------------------------------
def legal(state: LostDaysState, seat: str, kind: str | None = None) -> list[Action]:
    """The legal actions of ``seat``, remembered in ``state.memo`` until the next action.

    ``kind`` asks only for those of one type (what ``check`` needs): the remembered list if there
    is one, else only that type where listing it alone saves work.
    """
    return list(remembered(state, seat, kind))


def remembered(state: LostDaysState, seat: str, kind: str | None = None) -> list[Action]:
    """:func:`legal` without the copy (for reading only)."""
    actions = state.memo.get(seat)
    if actions is None:
        if kind is not None:
            return listing(state, seat, kind)
        actions = state.memo[seat] = listing(state, seat)
    return actions


def listing(state: LostDaysState, seat: str, kind: str | None = None) -> list[Action]:
    """Work out the legal actions of ``seat`` (see :func:`legal`)."""
    if seat == CHANCE or seat not in seats_now(state):
        return []
    phase = state.phase
    if phase == WRITING:
        return cr.legal_write(state, seat)
    if phase == SELECT:
        return cr.legal_select(state, seat)
    if phase == SEALED_BID:
        return cr.legal_bid(state, seat)
    if phase == TIE_RAISE:
        return cr.legal_raise(state, seat)
    if phase == KING_TIE:
        return cr.legal_king_tie(state, seat)
    if phase == SESSION:
        return [listed(seat, "start_session", ("opening", OPENING_TEXT))]
    if phase == REPLENISH:
        return sc.legal_replenish(state, seat)
    if phase == SCENE:
        return scene_legal(state, seat, kind)
    if phase == TRADE:
        return sc.legal_trade(state, seat)
    if phase == EPILOGUE:
        return [
            listed(seat, "narrate_epilogue", ("text", EPILOGUE_TEXT)),
            listed(seat, "decline_epilogue"),
        ]
    return conflict_legal(state, seat)


def scene_legal(state: LostDaysState, seat: str, kind: str | None = None) -> list[Action]:
    assert state.scene is not None
    out: list[Action] = []
    if seat == state.scene.framer:
        out.extend(sc.scene_actions(state, seat))
        if kind in (None, "frame_conflict"):
            out.extend(cf.legal_frame(state, seat))
    out.extend(sc.any_time_actions(state, seat, kind))
    return out


def conflict_legal(state: LostDaysState, seat: str) -> list[Action]:
    phase = state.phase
    if phase == STAKES:
        return cf.legal_stakes(state, seat)
    if phase == NARRATION:
        return cf.legal_narration(state, seat)
    if phase == INFLUENCE:
        return cf.legal_influence(state, seat)
    if phase == OUTCOME:
        return [listed(seat, "narrate_outcome", ("text", OUTCOME_TEXT))]
    if phase == TRIBUTE:
        return cf.legal_tribute(state, seat)
    if phase == PLACE_TRIBUTE:
        return cf.legal_place(state, seat)
    if phase == NARRATE_TRIBUTE:
        return [listed(seat, "narrate_tribute", ("text", TRIBUTE_TEXT))]
    if phase == STRAIN_AND_GAIN:
        return cf.legal_points(state, seat)
    return []


# -- chance ------------------------------------------------------------------------------------
def chance_step(state: LostDaysState) -> Roll:
    if state.phase == ROLL_OFF:
        contenders = cr.contenders(state)
        return Roll((6,) * len(contenders), type="roll_off", labels=tuple(f"{s}'s die" for s in contenders))
    return cf.roll_step(state)


def check_chance(state: LostDaysState, action: Action) -> None:
    if seats_now(state) != (CHANCE,):
        raise NotYourDecision("no dice are due now", rule="turn order")
    step = chance_step(state)
    if action.type != step.type:
        raise refuse(f"the dice due now are a {step.type!r} step", "chance", SECTION.get(state.phase, "Dice"))
    step.validate(dict(action.args))


def play_chance(state: LostDaysState, action: Action, out: list[Event]) -> None:
    faces = list(action.args["dice"])
    if action.type == "roll_off":
        cr.apply_roll_off(state, faces, out)
    elif action.type == "roll_conflict":
        cf.apply_roll(state, faces, out)
    else:
        cf.apply_influence_die(state, faces[0], out)


EXHAUSTIVE = frozenset({"frame_conflict"})
"""Types whose validator checks exactly what their listing enumerates (so the guard is skipped: it
would build hundreds of templates to find what the validator already proved)."""


# -- check and play ----------------------------------------------------------------------------
def check(state: LostDaysState, action: Action) -> None:
    """Accept an instance of a listed legal action; otherwise find the rule it breaks and name it."""
    if action.seat == CHANCE:
        check_chance(state, action)
        return
    if action.type not in EXHAUSTIVE and is_listed(state, action):
        return  # listed templates have the vocabulary's shape, and the rules' validators accept them
    check_shape(action)
    if action.seat not in state.elves:
        raise NotYourDecision(f"{action.seat!r} is not a seat at this table", rule="turn order")
    pending = seats_now(state)
    if action.seat not in pending:
        because = explain_refusal(state, action)
        if because is not None:
            raise because
        raise NotYourDecision(
            f"it is not {action.seat}'s decision now (waiting for {', '.join(pending) or 'nobody'})", rule="turn order"
        )
    phase, validate, _ = HANDLERS[action.type]
    if state.phase != phase:
        where = SECTION.get(state.phase, "")
        raise refuse(f"{action.type} belongs to the {phase} phase; the game is in {state.phase}", "phase", where)
    validate(state, action)
    if action.type not in EXHAUSTIVE:
        raise IllegalAction(f"{action.notation()} is not one of your legal actions now", rule="legal actions")


def explain_refusal(state: LostDaysState, action: Action) -> IllegalAction | None:
    """The rule that forbids an action of an elf the game is not waiting for, if one does.

    A player who already won a memory this round bids again (LD-R2), a mad elf sells or trades
    (LD-R29), someone other than the winner narrates the outcome (LD-R22) or the tribute (LD-R20):
    the rule says so, rather than "not your decision now". Only rules about *who* may act are
    asked (a validator that assumes its seat is the one waiting would name the wrong rule); the
    rest, and anything malformed or out of its phase, is left to the turn order (``None``)."""
    explain = SEAT_RULES.get(action.type)
    if explain is None or action.seat not in state.elves:
        return None
    try:
        check_shape(action)
        if state.phase == HANDLERS[action.type][0] or action.type in ANY_TIME:
            explain(state, action)
    except IllegalAction as refusal:
        return refusal if not isinstance(refusal, MalformedAction) else None
    return None


def _who_bids(state: LostDaysState, action: Action) -> None:
    """LD-R2 (a round's winner bids no more), LD-R7 (one sealed bid), LD-R8 (a coin to bid)."""
    auction = state.auction
    if auction is None or (action.seat in auction.bids.seats and action.seat not in auction.bids.choices):
        return
    if action.seat in auction.bids.choices:
        raise refuse("you have already bid on this memory", "LD-R7", cr.S_CREATE)
    if state.elves[action.seat].won_this_round:
        raise refuse("a player who has won a memory this round may not bid again", "LD-R2", cr.S_CREATE)
    raise refuse("only players with a coin in their purse bid for the Memory of Kingship", "LD-R8", cr.S_KING)


def _sane_dealer(state: LostDaysState, action: Action) -> None:
    """LD-R29: a mad elf sells and trades nothing (his memories went to the market)."""
    if state.elves[action.seat].mad:
        what = "sells" if action.type == "sell_memory" else "trades"
        raise refuse(f"a mad elf {what} nothing", "LD-R29", sc.S_DESCENT)


ANY_TIME = frozenset({"sell_memory", "propose_trade"})
"""Deals a sane elf may open at any time outside conflicts (LD-R27, LD-R36): a mad elf is told
LD-R29 in any phase."""

SEAT_RULES: dict[str, Validate] = {
    "place_bid": _who_bids,
    "sell_memory": _sane_dealer,
    "propose_trade": _sane_dealer,
    "offer_memory": _sane_dealer,
    "ask_memory": _sane_dealer,
    "accept_trade": _sane_dealer,
    "decline_trade": _sane_dealer,
    "narrate_outcome": _narrator,
    "narrate_tribute": _tribute_narrator,
}
"""The rules about who may take an action, asked for a seat the game is not waiting for."""


def is_listed(state: LostDaysState, action: Action) -> bool:
    """Whether ``action`` is an instance of one of its seat's listed legal actions."""
    kind = action.type
    templates = state.memo.get(action.seat) or remembered(state, action.seat, kind)
    for template in templates:
        if template is action:  # a listed action taken as it is (bots take the very same value)
            return True
    return any(t.type == kind and matches(t, action) for t in templates)


def play(state: LostDaysState, action: Action) -> list[Event]:
    out: list[Event] = []
    state.memo.clear()
    if action.seat == CHANCE:
        play_chance(state, action, out)
    else:
        HANDLERS[action.type][2](state, action, out)
    state.memo.clear()
    return out
