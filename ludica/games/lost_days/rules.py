"""Who decides now, what they may do, and the dispatch of every action to its rule.

``check`` validates completely before ``play`` changes anything. An action that is an instance of
one of its seat's listed legal actions is accepted (the listing is exact, and is remembered for the
state until the next action). Anything else is examined in order to name what it breaks: the shape
of the action (:mod:`.vocabulary`), whose decision it is, the phase, then the rule's own check
(with the ruling and the rulebook heading); what passes all of these and is still not listed is
refused as "not one of your legal actions", so that ``legal_actions`` and ``check`` never disagree.
``frame_conflict`` is the exception: its check tests exactly what its (long) listing holds.

The game's convention (as in every Ludica game, see ``docs/architecture.md``): :data:`HANDLERS`
maps each action type to its phase, its ``check_<action>`` (raises :class:`IllegalAction`, changes
nothing) and its ``play_<action>`` (changes the state, tells the story); the listings are the
``legal_*`` functions of the same modules, asked phase by phase (:func:`listing`), since one phase
offers several action types at once.
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

Check = Callable[[LostDaysState, Action], None]
Play = Callable[[LostDaysState, Action, list[Event]], None]


def _ok(state: LostDaysState, action: Action) -> None:
    """No rule beyond whose turn it is and the phase."""


def _framer(state: LostDaysState, action: Action) -> None:
    sc.check_framer(state, action, framed=action.type != "frame_scene" and action.type != "write_out")


def _narrator(state: LostDaysState, action: Action) -> None:
    if action.seat != cf.narrator(state):
        raise refuse("the winner describes the outcome", "LD-R22", cf.S_RESOLUTION)


def _tribute_narrator(state: LostDaysState, action: Action) -> None:
    if action.seat != cf.narrator(state):
        raise refuse("the winner narrates the form the tribute takes", "LD-R20", cf.S_TRIBUTE)


HANDLERS: dict[str, tuple[str, Check, Play]] = {
    # action type: (its phase, check_<action>, play_<action>)
    "write_memory": (WRITING, cr.check_write_memory, cr.play_write_memory),
    "select_memory": (SELECT, cr.check_select_memory, cr.play_select_memory),
    "place_bid": (SEALED_BID, cr.check_place_bid, cr.play_place_bid),
    "raise_bid": (TIE_RAISE, cr.check_raise_bid, cr.play_raise_bid),
    "decline_raise": (TIE_RAISE, _ok, cr.play_decline_raise),
    "kingship_raise": (KING_TIE, cr.check_kingship_raise, cr.play_kingship_raise),
    "kingship_concede": (KING_TIE, _ok, cr.play_kingship_concede),
    "kingship_pass": (KING_TIE, _ok, cr.play_kingship_pass),
    "start_session": (SESSION, sc.check_start_session, sc.play_start_session),
    "set_replenish_theme": (REPLENISH, sc.check_set_replenish_theme, sc.play_set_replenish_theme),
    "write_replenish_memory": (REPLENISH, sc.check_write_replenish_memory, sc.play_write_replenish_memory),
    "frame_scene": (SCENE, sc.check_frame_scene, sc.play_frame_scene),
    "write_out": (SCENE, _framer, sc.play_write_out),
    "create_memory": (SCENE, sc.check_create_memory, sc.play_create_memory),
    "restart_story": (SCENE, sc.check_restart_story, sc.play_restart_story),
    "end_scene": (SCENE, sc.check_end_scene, sc.play_end_scene),
    "end_session": (SCENE, sc.check_end_scene, sc.play_end_scene),
    "sell_memory": (SCENE, sc.check_sell_memory, sc.play_sell_memory),
    "propose_trade": (SCENE, sc.check_propose_trade, sc.play_propose_trade),
    "offer_memory": (TRADE, sc.check_deal_memory, sc.play_deal_memory),
    "ask_memory": (TRADE, sc.check_deal_memory, sc.play_deal_memory),
    "accept_trade": (TRADE, sc.check_answer, sc.play_answer),
    "decline_trade": (TRADE, sc.check_answer, sc.play_answer),
    "frame_conflict": (SCENE, cf.check_frame_conflict, cf.play_frame_conflict),
    "agree_stakes": (STAKES, cf.check_agree_stakes, cf.play_agree_stakes),
    "withdraw_conflict": (STAKES, cf.check_withdraw_conflict, cf.play_withdraw_conflict),
    "narrate_memory": (NARRATION, cf.check_narration, cf.play_narration),
    "approve_memory": (NARRATION, cf.check_narration, cf.play_narration),
    "veto_memory": (NARRATION, cf.check_narration, cf.play_narration),
    "bring_staked_memory": (NARRATION, cf.check_narration, cf.play_narration),
    "done_narrating": (NARRATION, cf.check_narration, cf.play_narration),
    "influence": (INFLUENCE, cf.check_influence, cf.play_influence),
    "end_influence_turn": (INFLUENCE, _ok, cf.play_end_influence_turn),
    "narrate_outcome": (OUTCOME, _narrator, cf.play_narrate_outcome),
    "pay_tribute": (TRIBUTE, cf.check_tribute, cf.play_tribute),
    "pay_tribute_memory": (TRIBUTE, cf.check_tribute, cf.play_tribute),
    "place_tribute": (PLACE_TRIBUTE, cf.check_place_tribute, cf.play_place_tribute),
    "narrate_tribute": (NARRATE_TRIBUTE, _tribute_narrator, cf.play_narrate_tribute),
    "take_gain": (STRAIN_AND_GAIN, cf.check_points, cf.play_points),
    "decline_gain": (STRAIN_AND_GAIN, cf.check_points, cf.play_points),
    "take_strain": (STRAIN_AND_GAIN, cf.check_points, cf.play_points),
    "narrate_epilogue": (EPILOGUE, sc.check_epilogue, sc.play_epilogue),
    "decline_epilogue": (EPILOGUE, sc.check_epilogue, sc.play_epilogue),
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
        cr.play_roll_off(state, faces, out)
    elif action.type == "roll_conflict":
        cf.play_roll(state, faces, out)
    else:
        cf.play_influence_die(state, faces[0], out)


EXHAUSTIVE = frozenset({"frame_conflict"})
"""Types whose check tests exactly what their listing enumerates (so the guard is skipped: it
would build hundreds of templates to find what the check already proved)."""


# -- check and play ----------------------------------------------------------------------------
def check(state: LostDaysState, action: Action) -> None:
    """Accept an instance of a listed legal action; otherwise find the rule it breaks and name it."""
    if action.seat == CHANCE:
        check_chance(state, action)
        return
    if action.type not in EXHAUSTIVE and is_listed(state, action):
        return  # listed templates have the vocabulary's shape, and the rules' checks accept them
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
    phase, check_action, _ = HANDLERS[action.type]
    if state.phase != phase:
        where = SECTION.get(state.phase, "")
        raise refuse(f"{action.type} belongs to the {phase} phase; the game is in {state.phase}", "phase", where)
    check_action(state, action)
    if action.type not in EXHAUSTIVE:
        raise IllegalAction(f"{action.notation()} is not one of your legal actions now", rule="legal actions")


def explain_refusal(state: LostDaysState, action: Action) -> IllegalAction | None:
    """The rule that forbids an action of an elf the game is not waiting for, if one does.

    A player who already won a memory this round bids again (LD-R2), a mad elf sells or trades
    (LD-R29), someone other than the winner narrates the outcome (LD-R22) or the tribute (LD-R20):
    the rule says so, rather than "not your decision now". Only rules about *who* may act are
    asked (a check that assumes its seat is the one waiting would name the wrong rule); the
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

SEAT_RULES: dict[str, Check] = {
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
