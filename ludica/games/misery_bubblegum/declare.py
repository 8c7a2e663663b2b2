"""Set-up and what happens between actions: numbers, offered Traits, calling an action, ending.

[Character Attributes], [Getting things done], [Growing and changing every day]; MB-R4, MB-R6,
MB-R37..MB-R42, MB-R45.
"""

from __future__ import annotations

from ...core import Event
from ...core.mechanisms import Proposal
from ...core.names import counted
from . import procedure as proc
from .common import (
    S_ATTRIBUTES,
    S_DONE,
    S_GROWING,
    S_OBNOXIOUS,
    Args,
    context,
    refuse,
)
from .state import (
    ATTRIBUTES,
    Declaration,
    MiseryState,
    Provisional,
    Trait,
)


# -- set-up and between actions ----------------------------------------------------------------
def check_set_ratings(state: MiseryState, seat: str, args: Args) -> None:
    """MB-R4: each number is chosen freely within the range and never changes."""
    if state.characters[seat].rating:
        refuse("your numbers are already set and never change", "MB-R4", S_ATTRIBUTES)
    lo, hi = state.settings.rating_min, state.settings.rating_max
    for attr in ATTRIBUTES:
        if not lo <= args[attr] <= hi:
            refuse(f"{attr.capitalize()} must be a number from {lo} to {hi}", "MB-R4", S_ATTRIBUTES)


def play_set_ratings(state: MiseryState, seat: str, args: Args) -> list[Event]:
    state.characters[seat].rating = {attr: args[attr] for attr in ATTRIBUTES}
    state.ready = all(c.rating for c in state.characters.values())
    numbers = ", ".join(f"{a.capitalize()} {args[a]}" for a in ATTRIBUTES)
    return [Event("ratings", f"{state.characters[seat].name}: {numbers}", data={"seat": seat})]


def can_still_roll(state: MiseryState, seat: str) -> bool:
    """A participant must roll at least one die (MB-R42)."""
    decl = state.declaration
    carried = decl.carried if decl is not None and decl.seat == seat else 0
    return carried > 0 or any(state.characters[seat].pool.values())


def idle_can_act(state: MiseryState, seat: str) -> bool:
    """True when a player has some decision between actions (the same test as listing them)."""
    c = state.characters[seat]
    if state.settings.calling_order == "round_robin":
        return seat == state.turn
    if any(c.pool.values()) or any(c.influence.values()):
        return True
    if state.end_vote is None or seat not in state.end_vote.answers:
        return True
    room = len(state.traits_of(seat)) < state.settings.max_traits
    return room and any(p.target == seat for p in state.provisionals.values())


def _declaring_ok(state: MiseryState, seat: str) -> None:
    ctx = context(state)
    if ctx == "declaring" and state.declaration is not None and state.declaration.seat != seat:
        refuse("another player is declaring an action", "MB-R6", S_DONE)


def _provisional(state: MiseryState, seat: str, ident: object) -> Provisional:
    prov = state.provisionals.get(ident) if isinstance(ident, str) else None
    if prov is None or prov.target != seat:
        refuse(f"{ident!r} is not a provisional Trait offered to you", "MB-R38", S_GROWING)
    return prov


def check_accept_trait(state: MiseryState, seat: str, args: Args) -> None:
    """MB-R38, MB-R41: accept by rolling its dice in the action you declare; never more than ten Traits."""
    _declaring_ok(state, seat)
    _provisional(state, seat, args["trait"])
    if len(state.traits_of(seat)) >= state.settings.max_traits:
        refuse(f"you already have {state.settings.max_traits} Traits", "MB-R41", S_GROWING)


def _declaration(state: MiseryState, seat: str) -> Declaration:
    if state.declaration is None:
        state.declaration = Declaration(seat)
    return state.declaration


def play_accept_trait(state: MiseryState, seat: str, args: Args) -> list[Event]:
    prov = state.provisionals.pop(args["trait"])
    decl = _declaration(state, seat)
    decl.accepted.append(prov.id)
    decl.carried += prov.dice
    state.traits[prov.id] = Trait(prov.id, seat, prov.offerer, prov.text, 1)
    name = state.characters[seat].name
    return [Event("accept", f'{name} accepts the Trait "{prov.text}" (1) and rolls its {prov.dice} dice')]


def check_refuse_trait(state: MiseryState, seat: str, args: Args) -> None:
    """MB-R39: refuse by defying it in an action you roll in: its dice go to your Misery."""
    _declaring_ok(state, seat)
    _provisional(state, seat, args["trait"])
    if not can_still_roll(state, seat):
        refuse("you must roll at least one die in the action you declare", "MB-R42", S_DONE)


def play_refuse_trait(state: MiseryState, seat: str, args: Args) -> list[Event]:
    prov = state.provisionals.pop(args["trait"])
    _declaration(state, seat)
    state.characters[seat].misery += prov.dice
    name = state.characters[seat].name
    return [Event("refuse", f'{name} defies the Trait "{prov.text}": {counted(prov.dice, "die", "dice")} into Misery')]


def check_roll(state: MiseryState, seat: str, pool: object, challenge: object, dice: object) -> None:
    """[Getting things done]: a challenge from one to six, dice from one pool (MB-R42)."""
    if pool not in ATTRIBUTES:
        refuse(f"the pool is one of {', '.join(ATTRIBUTES)}", "pools", S_ATTRIBUTES)
    if not 1 <= challenge <= 6:  # type: ignore[operator]
        refuse("a challenge is from one to six", "challenge", S_DONE)
    have = state.characters[seat].pool[pool]  # type: ignore[index]
    if not 0 <= dice <= have:  # type: ignore[operator]
        refuse(f"you have {have} dice in {pool}, not {dice}", "pools", S_DONE)
    decl = state.declaration
    carried = decl.carried if decl is not None and decl.seat == seat else 0
    if dice + carried < 1:  # type: ignore[operator]
        refuse("an action rolls at least one die", "MB-R42", S_DONE)


def check_call_action(state: MiseryState, seat: str, args: Args) -> None:
    _declaring_ok(state, seat)
    if state.settings.calling_order == "round_robin" and seat != state.turn:
        refuse("only the player whose turn it is calls an action", "MB-R6", S_DONE)
    check_roll(state, seat, args["pool"], args["challenge"], args["dice"])


def play_call_action(state: MiseryState, seat: str, args: Args) -> list[Event]:
    state.end_vote = None  # the table plays on: ending needs everyone's consent anew (MB-R45)
    proc.start_attempt(state, seat, args["intent"])
    part = proc.join(state, seat, args["pool"], args["challenge"], args["dice"])
    name = state.characters[seat].name
    dice = counted(len(part.dice), "die", "dice")
    text = f"{name} attempts: {args['intent']} ({dice} of {args['pool']}, challenge {args['challenge']})"
    return [Event("call", text, data={"seat": seat})]


def check_offer_trait(state: MiseryState, seat: str, args: Args) -> None:
    """MB-R37: offer a Trait to another character with a bribe of their dice you hold."""
    target, dice = args["target"], args["dice"]
    if target not in state.characters or target == seat:
        refuse("a Trait is offered to another player's character", "MB-R37", S_OBNOXIOUS)
    held = state.characters[seat].influence.get(target, 0)
    if not 1 <= dice <= held:
        refuse(f"you hold {held} of their dice; a bribe is 1 to {held} of them", "MB-R37", S_GROWING)


def play_offer_trait(state: MiseryState, seat: str, args: Args) -> list[Event]:
    """A bribe: influence dice over the target become a provisional Trait on them, the only way
    influence dice leave their holder.

    Rule: [Influencing People]; MB-R40; MB-R44
    """
    target, dice = args["target"], args["dice"]
    state.characters[seat].influence[target] -= dice
    ident = state.new_id("t")
    state.provisionals[ident] = Provisional(ident, target, seat, args["text"], dice)
    a, b = state.characters[seat].name, state.characters[target].name
    return [Event("offer", f'{a} offers {b} the Trait "{args["text"]}" with {dice} of {b}\'s dice ({ident})')]


def check_end_game(state: MiseryState, seat: str, args: Args) -> None:
    """MB-R45: the session ends when every player consents."""
    if state.end_vote is not None and seat in state.end_vote.answers:
        refuse("you have already agreed to end the session", "MB-R45", "Misery Bubblegum draft rules")


def play_end_game(state: MiseryState, seat: str, args: Args) -> list[Event]:
    if state.end_vote is None:
        state.end_vote = Proposal(seat, "end the session", state.players, rule="MB-R45")
    state.end_vote.answer(seat, True)
    events = [Event("vote", f"{state.characters[seat].name} is ready to end the session")]
    if state.end_vote.status == "accepted":
        state.over = True
        events.append(Event("end", "Everyone agrees: the session ends."))
    return events


def check_pass_turn(state: MiseryState, seat: str, args: Args) -> None:
    if state.settings.calling_order != "round_robin":
        refuse("turns pass only with the round_robin calling order", "MB-R6", S_DONE)


def play_pass_turn(state: MiseryState, seat: str, args: Args) -> list[Event]:
    state.turn = proc.clockwise_from(state.players, seat)[1]
    return [Event("pass", f"{state.characters[seat].name} passes the turn")]
