"""Conflicts: stakes, memories narrated in, the roll, influence, tribute, strain and gain.

[Framing Conflicts, Setting up a Conflict, Conflict Resolution, Influencing a Conflict, Madness,
Strain and Gain, Tribute, Staking Memories, Stealing Memories, Playing the Opposition;
LD-R11 to LD-R25, LD-R33, LD-R37].
"""

from __future__ import annotations

from ...core import Action, Event, Roll, Text
from ...core.mechanisms import Proposal, clockwise_from, next_seat
from .coins import give_memory, move, to_market
from .madness import check_madness
from .scenes import after_step
from .state import (
    ADVERSITY,
    BANK,
    INFLUENCE,
    NARRATE_TRIBUTE,
    NARRATION,
    OPPOSITION,
    OUTCOME,
    PLACE_TRIBUTE,
    ROLL,
    SCENE,
    STAKES,
    STORY,
    STRAIN_AND_GAIN,
    TRIBUTE,
    WRITE_OUT,
    Conflict,
    LostDaysState,
    mad_key,
)
from .vocabulary import NONE, amounts, listed, refuse

S_FRAMING = "Framing Conflicts"
S_SETUP = "Setting up a Conflict"
S_RESOLUTION = "Conflict Resolution"
S_INFLUENCE = "Influencing a Conflict"
S_MADNESS = "Madness"
S_TRIBUTE = "Tribute"
S_STRAIN = "Strain and Gain"
S_STAKING = "Staking Memories"
S_OPPOSITION = "Playing the Opposition"
NARRATE_TEXT, BRING_TEXT = Text("how the memory is used"), Text("how the memory jars in")
GAIN_TEXT, STRAIN_TEXT = Text("how the conflict favours you"), Text("how the strain shows")
INFLUENCE_TEXT = ("narration", Text("how you influence events"))
REROLL, EXTRA_DIE = ("effect", "reroll"), ("effect", "extra_die")
TRIBUTE_HOLDER = "tribute"
"""Where tribute coins wait between the loser paying and the winner placing them."""


def other(side: str) -> str:
    return "b" if side == "a" else "a"


# -- who is winning (LD-R11, LD-R12, LD-R13) ---------------------------------------------------
def compare(a: list[int], b: list[int], tie_rule: str = "cascade") -> tuple[str | None, int]:
    """The winner (``"a"``, ``"b"`` or ``None``) and the margin of success [Resolution].

    Rule: [Conflict Resolution]

    The side with the highest die wins; the margin is the number of its dice above the loser's
    highest die (LD-R11). Equal highest dice cancel in pairs (``cascade``) or stalemate (LD-R12).
    A side with dice beats a side with none (LD-R13).

    >>> compare([3, 4, 5, 5], [2, 3, 4, 4])
    ('a', 2)
    >>> compare([3, 4, 5, 5], [6, 3, 4, 4])
    ('b', 1)
    """
    xs, ys = sorted(a, reverse=True), sorted(b, reverse=True)
    i = 0
    while i < len(xs) and i < len(ys) and xs[i] == ys[i]:
        if tie_rule == "stalemate":
            return None, 0
        i += 1
    xs, ys = xs[i:], ys[i:]
    if not xs and not ys:
        return None, 0
    if not ys:
        return "a", len(xs)
    if not xs:
        return "b", len(ys)
    if xs[0] > ys[0]:
        return "a", sum(1 for d in xs if d > ys[0])
    return "b", sum(1 for d in ys if d > xs[0])


def side_of(conflict: Conflict, seat: str) -> str | None:
    if seat == conflict.side_a:
        return "a"
    if seat == conflict.controller_b:
        return "b"
    return None


# -- framing (LD-R15, LD-R23, LD-R33) ----------------------------------------------------------
def opposition_controller(state: LostDaysState, kind: str, framer: str, side_a: str) -> str:
    """Who plays the opposition: the mad framer, the king, a mad player, the player to the left (LD-R15).

    Rule: [Playing the Opposition]
    """
    if kind == ADVERSITY:
        return framer
    if state.king is not None and state.king != side_a:
        return state.king
    for seat in clockwise_from(state.seats, side_a)[1:]:
        if state.elves[seat].mad:
            return seat
    return next_seat(state.seats, side_a)


def pairings(state: LostDaysState) -> list[tuple[str, str]]:
    """The (side_a, side_b) pairs the framer may set against each other in this scene."""
    scene = state.scene
    assert scene is not None
    if scene.conflict_held or not scene.framed or scene.kind == WRITE_OUT:
        return []
    sane = state.sane()
    firsts = sane if scene.kind in (STORY, ADVERSITY) else [scene.framer] if scene.framer in sane else []
    out: list[tuple[str, str]] = []
    for a in firsts:
        if scene.kind != ADVERSITY:
            out.extend((a, b) for b in sane if b != a)
        out.append((a, OPPOSITION))
    return out


def stakeable(state: LostDaysState, side_a: str, side_b: str) -> list[str]:
    """Nothing, a market memory, or a memory of one of the two opponents [Staking, Stealing; LD-R23].

    Rule: [Staking Memories]
    """
    out = [NONE]
    for m in state.memories.values():
        if m.place == "market" or m.owner == side_a or (m.owner is not None and m.owner == side_b):
            out.append(m.id)
    return out


STAKES_TEXT = Text("what is fought over, and how")
_FRAMINGS: dict[tuple[str, str, str, str], Action] = {}
"""Every ``frame_conflict`` template made so far, by (framer, side_a, side_b, staked_memory).

Actions are immutable values, so the same one is listed again rather than built again: a scene's
listing holds every pairing with every memory that may be at stake, and is made at each decision."""


REFRAMINGS = 1
"""How many times a scene's framer may frame a conflict again after withdrawing one (LD-R42:
the rulebook is silent; without a bound, framing and withdrawing could go on for ever)."""


def may_frame_again(state: LostDaysState) -> bool:
    """False once the scene's framer withdrew more conflicts than :data:`REFRAMINGS` (LD-R42)."""
    scene = state.scene
    return scene is None or scene.withdrawals <= REFRAMINGS


def legal_frame(state: LostDaysState, seat: str) -> list[Action]:
    """The framer sets two sides (characters, or a character and the opposition) and a stake.

    Rule: [Framing Conflicts]; at most :data:`REFRAMINGS` re-framing after a withdrawal (LD-R42).
    """
    if not may_frame_again(state):
        return []
    pairs = pairings(state)
    if not pairs:
        return []
    market: list[str] = [NONE]
    owned: dict[str, list[str]] = {}
    for m in state.memories.values():
        if m.owner is not None:
            owned.setdefault(m.owner, []).append(m.id)
        elif m.place == "market":
            market.append(m.id)
    out = []
    made = _FRAMINGS
    for a, b in pairs:
        for staked in market + owned.get(a, []) + owned.get(b, []):
            key = (seat, a, b, staked)
            action = made.get(key)
            if action is None:
                args = {"side_a": a, "side_b": b, "stakes": STAKES_TEXT, "staked_memory": staked}
                action = made[key] = Action(seat, "frame_conflict", args)
            out.append(action)
    return out


def check_frame_conflict(state: LostDaysState, action: Action) -> None:
    scene = state.scene
    if scene is None or action.seat != scene.framer or not scene.framed:
        raise refuse("the framer frames a conflict in his framed scene", "LD-R33", S_FRAMING)
    if scene.conflict_held:
        raise refuse("no more than one conflict takes place in a scene", "LD-R33", S_FRAMING)
    if not may_frame_again(state):
        raise refuse(
            f"a conflict withdrawn {scene.withdrawals} times is not framed again in this scene", "LD-R42", S_SETUP
        )
    a, b = action.args["side_a"], action.args["side_b"]
    if (a, b) not in pairings(state):
        raise refuse(f"{a} against {b} is not a conflict this scene may hold", "LD-R33", S_SETUP)
    if action.args["staked_memory"] not in stakeable(state, a, b):
        raise refuse("only a market memory or one of the opponents' memories can be at stake", "LD-R23", S_STAKING)
    if not STAKES_TEXT.accepts(action.args["stakes"]):
        raise refuse(f"the stakes are said in at most {STAKES_TEXT.max_len} characters", "LD-R37", S_SETUP)


def play_frame_conflict(state: LostDaysState, action: Action, out: list[Event]) -> None:
    scene = state.scene
    assert scene is not None
    a, b, staked = action.args["side_a"], action.args["side_b"], action.args["staked_memory"]
    controller = b if b != OPPOSITION else opposition_controller(state, scene.kind, scene.framer, a)
    voters = (a, controller)
    agreement = Proposal(action.seat, {"stakes": action.args["stakes"]}, voters, rule="LD-R37")
    state.conflict = Conflict(
        action.seat, a, b, controller, action.args["stakes"], None if staked == NONE else staked, agreement
    )
    state.phase = STAKES
    at_stake = "nothing" if staked == NONE else staked
    out.append(
        Event(
            "conflict",
            f"{action.seat} frames a conflict: {a} against {b} ({controller}); at stake {at_stake}: "
            f"{action.args['stakes']}",
        )
    )


# -- stakes (LD-R37) ---------------------------------------------------------------------------
def pending_stakes(state: LostDaysState) -> tuple[str, ...]:
    c = state.conflict
    assert c is not None
    waiting = c.agreement.waiting()
    return waiting if c.framer in waiting else (c.framer, *waiting)


def legal_stakes(state: LostDaysState, seat: str) -> list[Action]:
    c = state.conflict
    assert c is not None
    out = [listed(seat, "agree_stakes")] if seat in c.agreement.waiting() else []
    if seat == c.framer:
        out.append(listed(seat, "withdraw_conflict"))
    return out


def check_agree_stakes(state: LostDaysState, action: Action) -> None:
    assert state.conflict is not None
    state.conflict.agreement.check_answer(action.seat)


def play_agree_stakes(state: LostDaysState, action: Action, out: list[Event]) -> None:
    """Both controllers agree the stakes before anyone brings memories in.

    Rule: [Setting up a Conflict]
    """
    c, scene = state.conflict, state.scene
    assert c is not None and scene is not None
    c.agreement.answer(action.seat, True)
    out.append(Event("stakes", f"{action.seat} agrees the stakes"))
    if c.agreement.status == "accepted":
        scene.conflict_held = True
        state.conflicts_fought += 1
        c.done["b"] = c.side_b == OPPOSITION
        state.phase = NARRATION


def check_withdraw_conflict(state: LostDaysState, action: Action) -> None:
    assert state.conflict is not None
    if action.seat != state.conflict.framer:
        raise refuse("only the framer withdraws a conflict before the stakes are agreed", "LD-R37", S_SETUP)


def play_withdraw_conflict(state: LostDaysState, action: Action, out: list[Event]) -> None:
    """The framer takes the conflict back before the stakes are agreed; the scene goes on, and
    counts the withdrawal (LD-R42: after :data:`REFRAMINGS` + 1 of them, no conflict is framed
    again in this scene)."""
    state.conflict = None
    state.phase = SCENE
    if state.scene is not None:
        state.scene.withdrawals += 1
    out.append(Event("conflict", f"{action.seat} withdraws the conflict"))


# -- narrating memories in (LD-R37) ------------------------------------------------------------
def pending_narration(state: LostDaysState) -> tuple[str, ...]:
    c = state.conflict
    assert c is not None
    side = other(c.narrate_turn) if c.offered else c.narrate_turn
    return (c.controller(side),)


def legal_narration(state: LostDaysState, seat: str) -> list[Action]:
    c = state.conflict
    assert c is not None
    if c.offered:
        return [listed(seat, "approve_memory"), listed(seat, "veto_memory")]
    side = c.narrate_turn
    out = [listed(seat, "done_narrating")]
    for m in narratable(state, c, side):
        out.append(listed(seat, "narrate_memory", ("memory", m), ("narration", NARRATE_TEXT)))
    if may_bring(state, c, side):
        out.append(listed(seat, "bring_staked_memory", ("narration", BRING_TEXT)))
    return out


def narratable(state: LostDaysState, c: Conflict, side: str) -> list[str]:
    tried = set(c.narrated["a"]) | set(c.narrated["b"]) | set(c.vetoed)
    return [m.id for m in state.owned(c.controller(side)) if m.id not in tried and m.id != c.staked]


def may_bring(state: LostDaysState, c: Conflict, side: str) -> bool:
    """[Staking Memories] the owner of the memory at stake may bring it in, whatever its relevance (LD-R37)."""
    return c.staked is not None and state.memories[c.staked].owner == c.controller(side) and not c.brought[side]


def check_narration(state: LostDaysState, action: Action) -> None:
    c = state.conflict
    assert c is not None
    if (action.type in ("approve_memory", "veto_memory")) != bool(c.offered):
        word = "answer the memory just narrated" if c.offered else "narrate or finish first"
        raise refuse(f"{word}", "LD-R37", S_SETUP)
    if action.type == "narrate_memory" and action.args["memory"] not in narratable(state, c, c.narrate_turn):
        raise refuse("narrate one of your own memories, once per conflict", "LD-R37", S_SETUP)
    if action.type == "bring_staked_memory" and not may_bring(state, c, c.narrate_turn):
        raise refuse("only the owner of the memory at stake brings it in", "LD-R37", S_STAKING)


def play_narration(state: LostDaysState, action: Action, out: list[Event]) -> None:
    c = state.conflict
    assert c is not None
    side, seat = c.narrate_turn, action.seat
    if action.type == "narrate_memory":
        c.offered = action.args["memory"]
        out.append(Event("narrate", f"{seat} narrates {c.offered}: {action.args['narration']}"))
        return
    if action.type in ("approve_memory", "veto_memory"):
        assert c.offered is not None
        (c.narrated[side] if action.type == "approve_memory" else c.vetoed).append(c.offered)
        verb = "accepts" if action.type == "approve_memory" else "vetoes"
        out.append(Event("narrate", f"{seat} {verb} {c.offered}"))
        c.offered = None
    elif action.type == "bring_staked_memory":
        c.brought[side] = True
        out.append(Event("narrate", f"{seat} brings the memory at stake {c.staked}: {action.args['narration']}"))
    else:
        c.done[side] = True
        out.append(Event("narrate", f"{seat} has narrated his memories"))
    if c.done["a"] and c.done["b"]:
        state.phase = ROLL
        if not dice_count(state, c, "a") + dice_count(state, c, "b"):
            start_influence(state, out)
    elif not c.done[other(side)]:
        c.narrate_turn = other(side)


# -- the roll [Resolution, Opposition; LD-R14] -------------------------------------------------
def spared_tribute_and_strain(c: Conflict, side: str) -> bool:
    """The opposition (whoever plays it, the King included) never pays tribute and never takes
    strain: only a character's side does.

    Rule: [Playing the Opposition]; LD-R21
    """
    return not c.is_character(side)


def dice_count(state: LostDaysState, c: Conflict, side: str) -> int:
    """A side rolls the value of its accepted memories; the opposition the stake's value, or 3.

    Rule: LD-R26
    """
    if side == "b" and c.side_b == OPPOSITION:
        if c.staked is None:
            return 3
        return max(state.rules.opposition_dice_min, state.value(c.staked))
    total = sum(state.value(m) for m in c.narrated[side])
    return total + (state.value(c.staked) if c.brought[side] and c.staked else 0)


def roll_step(state: LostDaysState) -> Roll:
    c = state.conflict
    assert c is not None
    if state.phase == ROLL:
        a, b = dice_count(state, c, "a"), dice_count(state, c, "b")
        labels = (f"{c.side_a}'s die (side A)",) * a + (f"{c.controller_b}'s die (side B)",) * b
        return Roll((6,) * (a + b), type="roll_conflict", labels=labels)
    assert c.spend is not None
    return Roll((6,), type="reroll_die" if c.spend["effect"] == "reroll" else "extra_die")


def _shown(faces: list[int]) -> str:
    """Dice faces as people read them: ``[5, 3]`` -> "5, 3", ``[]`` -> "no dice"."""
    return ", ".join(map(str, faces)) or "no dice"


def play_roll(state: LostDaysState, faces: list[int], out: list[Event]) -> None:
    c = state.conflict
    assert c is not None
    na = dice_count(state, c, "a")
    c.dice = {"a": faces[:na], "b": faces[na:]}
    out.append(
        Event(
            "roll", f"{c.side_a} rolls {_shown(c.dice['a'])}; {c.side_b} rolls {_shown(c.dice['b'])}", data=dict(c.dice)
        )
    )
    start_influence(state, out)


# -- influence [Influencing, Madness; LD-R16 to LD-R19] ----------------------------------------
def leading(state: LostDaysState) -> tuple[str | None, int]:
    c = state.conflict
    assert c is not None
    return compare(c.dice["a"], c.dice["b"], state.rules.tie_rule)


def start_influence(state: LostDaysState, out: list[Event]) -> None:
    """Influence starts with the loser's controller (side b's in a stalemate) and goes clockwise."""
    c = state.conflict
    assert c is not None
    winner, margin = leading(state)
    loser = other(winner) if winner else "b"
    c.influence_turn, c.passes = c.controller(loser), 0
    state.phase = INFLUENCE
    out.append(Event("leading", describe_lead(c, winner, margin)))


def describe_lead(c: Conflict, winner: str | None, margin: int) -> str:
    if winner is None:
        return "the dice stand level"
    name = c.side_a if winner == "a" else c.side_b
    return f"{name} is winning by {margin}"


def pay_options(state: LostDaysState, seat: str) -> list[str]:
    """The coins a seat may spend: its purse, the opponent's madness, its own madness if mad (LD-R19)."""
    c = state.conflict
    assert c is not None
    out = ["purse"] if state.purse(seat) >= 1 else []
    side = side_of(c, seat)
    if side is not None and c.is_character(other(side)) and state.madness(c.controller(other(side))) >= 1:
        out.append("opponent_madness")
    if state.elves[seat].mad and state.madness(seat) >= 1:
        out.append("own_madness")
    return out


def legal_influence(state: LostDaysState, seat: str) -> list[Action]:
    c = state.conflict
    assert c is not None
    out = [listed(seat, "end_influence_turn")]
    for pay in pay_options(state, seat):
        for side in ("a", "b"):
            if c.dice[side]:
                die = ("die", amounts(0, len(c.dice[side]) - 1))
                out.append(listed(seat, "influence", ("pay_with", pay), REROLL, ("side", side), die, INFLUENCE_TEXT))
            out.append(listed(seat, "influence", ("pay_with", pay), EXTRA_DIE, ("side", side), INFLUENCE_TEXT))
    return out


def check_influence(state: LostDaysState, action: Action) -> None:
    c = state.conflict
    assert c is not None
    a = action.args
    if a["pay_with"] not in pay_options(state, action.seat):
        raise refuse(f"you cannot pay with {a['pay_with']} now", "LD-R19", S_MADNESS)
    if a["side"] not in ("a", "b"):
        raise refuse("the side is a or b", "LD-R17", S_INFLUENCE)
    if a["effect"] not in ("reroll", "extra_die") or (a["effect"] == "reroll") != ("die" in a):
        raise refuse("a coin forces a reroll of one die (give die=N) or an extra die", "LD-R17", S_INFLUENCE)
    if "die" in a and not c.dice[a["side"]]:
        raise refuse(f"side {a['side']} has no dice to reroll", "LD-R17", S_INFLUENCE)
    if "die" in a and not 0 <= a["die"] < len(c.dice[a["side"]]):
        raise refuse(f"side {a['side']} has dice 0..{len(c.dice[a['side']]) - 1}", "LD-R17", S_INFLUENCE)


def play_influence(state: LostDaysState, action: Action, out: list[Event]) -> None:
    """Pay the coin: purse coins onto the memory at stake or lost; madness coins lost (LD-R18).

    Rule: [Influencing a Conflict]
    """
    c = state.conflict
    assert c is not None
    a, seat = action.args, action.seat
    if a["pay_with"] == "purse":
        move(state, seat, c.staked or BANK)
    elif a["pay_with"] == "own_madness":
        move(state, mad_key(seat), BANK)
    else:
        victim = c.controller(other(side_of(c, seat) or "a"))
        move(state, mad_key(victim), BANK)
    c.spend = {"side": a["side"], "effect": a["effect"], "die": a.get("die", -1)}
    c.spends += 1
    c.passes = -1  # this turn had a spend: its end_influence_turn does not count as a pass
    what = f"reroll die {a['die']} of side {a['side']}" if a["effect"] == "reroll" else f"an extra die for {a['side']}"
    out.append(Event("influence", f"{seat} spends a coin ({a['pay_with']}) to force {what}: {a['narration']}"))


def play_influence_die(state: LostDaysState, face: int, out: list[Event]) -> None:
    c = state.conflict
    assert c is not None and c.spend is not None
    side, die = c.spend["side"], c.spend["die"]
    if c.spend["effect"] == "reroll":
        c.dice[side][die] = face
    else:
        c.dice[side].append(face)
    c.spend = None
    winner, margin = leading(state)
    out.append(Event("roll", f"it comes up {face}; {describe_lead(c, winner, margin)}", data=dict(c.dice)))


def play_end_influence_turn(state: LostDaysState, action: Action, out: list[Event]) -> None:
    """The round ends when every seat has passed in succession (LD-R16)."""
    c = state.conflict
    assert c is not None
    c.passes += 1
    if c.passes >= len(state.seats):
        c.winner, c.margin = leading(state)
        state.phase = OUTCOME
        out.append(Event("result", describe_lead(c, c.winner, c.margin).replace("is winning", "wins")))
        return
    c.influence_turn = next_seat(state.seats, c.influence_turn)


# -- resolution [Resolution, Staking, Tribute; LD-R20, LD-R22, LD-R24] -------------------------
def narrator(state: LostDaysState) -> str:
    c = state.conflict
    assert c is not None
    return c.controller(c.winner) if c.winner else c.framer


def side_seat(c: Conflict, side: str) -> str:
    return c.side_a if side == "a" else c.side_b


def play_narrate_outcome(state: LostDaysState, action: Action, out: list[Event]) -> None:
    """The winner narrates; then the stake moves, then tribute is due (LD-R22).

    Rule: [Stealing Memories]
    """
    c = state.conflict
    assert c is not None
    out.append(Event("outcome", f"{action.seat} narrates the outcome: {action.args['text']}"))
    if c.winner is None:
        start_strain_gain(state, out)
        return
    if c.staked is not None:
        memory = state.memories[c.staked]
        if c.is_character(c.winner):
            give_memory(state, memory, side_seat(c, c.winner), out)
        elif memory.owner is not None:
            to_market(state, memory, out)
    loser = other(c.winner)
    if c.margin >= 1 and not spared_tribute_and_strain(c, loser):
        seat = side_seat(c, loser)
        c.owed = min(c.margin, state.purse(seat) + state.memory_coins(seat))
        if c.owed:
            state.phase = TRIBUTE
            return
    start_strain_gain(state, out)


def loser_seat(c: Conflict) -> str:
    assert c.winner is not None
    return side_seat(c, other(c.winner))


def tribute_sources(state: LostDaysState, seat: str) -> list[str]:
    out = ["purse"] if state.purse(seat) >= 1 else []
    return out + [m.id for m in state.owned(seat) if state.value(m.id) >= 1]


def legal_tribute(state: LostDaysState, seat: str) -> list[Action]:
    c = state.conflict
    assert c is not None
    out = [listed(seat, "pay_tribute", ("source", s)) for s in tribute_sources(state, seat)]
    if c.paid == 0:
        out.extend(listed(seat, "pay_tribute_memory", ("memory", m.id)) for m in state.owned(seat))
    return out


def check_tribute(state: LostDaysState, action: Action) -> None:
    c = state.conflict
    assert c is not None
    if action.type == "pay_tribute" and action.args["source"] not in tribute_sources(state, action.seat):
        raise refuse("pay each coin from your purse or one of your memories", "LD-R20", S_TRIBUTE)
    if action.type == "pay_tribute_memory":
        memory = state.memories.get(action.args["memory"])
        if memory is None or memory.owner != action.seat:
            raise refuse("give one of your own memories in lieu of tribute", "LD-R20", S_TRIBUTE)
        if c.paid:
            raise refuse("a memory in lieu replaces all the tribute, before any coin is paid", "LD-R20", S_TRIBUTE)


def play_tribute(state: LostDaysState, action: Action, out: list[Event]) -> None:
    """The loser pays the margin in coins, one source at a time, or gives one memory instead.

    Rule: [Tribute]
    """
    c = state.conflict
    assert c is not None and c.winner is not None
    seat = action.seat
    if action.type == "pay_tribute_memory":
        memory = state.memories[action.args["memory"]]
        out.append(Event("tribute", f"{seat} gives {memory.id} in lieu of all tribute"))
        if c.is_character(c.winner):
            give_memory(state, memory, side_seat(c, c.winner), out)
        else:
            to_market(state, memory, out)
        c.tribute_paid = True
        state.phase = NARRATE_TRIBUTE
        return
    source = action.args["source"]
    move(state, seat if source == "purse" else source, TRIBUTE_HOLDER)
    c.paid += 1
    out.append(Event("tribute", f"{seat} pays a coin of tribute from {source}"))
    if c.paid < c.owed:
        return
    c.tribute_paid = True
    if c.is_character(c.winner):
        c.to_place = c.paid
        state.phase = PLACE_TRIBUTE
        return
    to = state.king if c.controller_b == state.king else BANK
    move(state, TRIBUTE_HOLDER, to or BANK, c.paid)
    # LD-R20
    out.append(Event("tribute", f"the tribute goes to {'the king ' + to if to != BANK else 'the bank'}"))
    state.phase = NARRATE_TRIBUTE


def winner_dests(state: LostDaysState, seat: str) -> list[str]:
    return ["purse"] + [m.id for m in state.owned(seat)]


def legal_place(state: LostDaysState, seat: str) -> list[Action]:
    return [listed(seat, "place_tribute", ("dest", d)) for d in winner_dests(state, seat)]


def check_place_tribute(state: LostDaysState, action: Action) -> None:
    if action.args["dest"] not in winner_dests(state, action.seat):
        raise refuse("place tribute in your purse or on one of your memories", "LD-R20", S_TRIBUTE)


def play_place_tribute(state: LostDaysState, action: Action, out: list[Event]) -> None:
    c = state.conflict
    assert c is not None
    dest = action.args["dest"]
    move(state, TRIBUTE_HOLDER, action.seat if dest == "purse" else dest)
    c.to_place -= 1
    if not c.to_place:
        state.phase = NARRATE_TRIBUTE


def play_narrate_tribute(state: LostDaysState, action: Action, out: list[Event]) -> None:
    out.append(Event("tribute", f"{action.seat} narrates the tribute: {action.args['text']}"))
    start_strain_gain(state, out)


# -- strain and gain [Strain and Gain; LD-R21, LD-R25] -----------------------------------------
def start_strain_gain(state: LostDaysState, out: list[Event]) -> None:
    """Each 1 rolled is a point of strain and each 6 a point of gain for the character who rolled it;
    the opposition takes neither (:func:`spared_tribute_and_strain`), though the King gains from
    its sixes when it wins.

    Rule: [Strain and Gain]; LD-R21
    """
    c = state.conflict
    assert c is not None
    for side in ("a", "b"):
        sixes, ones = c.dice[side].count(6), c.dice[side].count(1)
        if not spared_tribute_and_strain(c, side):
            c.gain_left[side], c.strain_left[side] = sixes, ones
        elif c.winner == "b" and c.controller_b == state.king and sixes:
            move(state, BANK, c.controller_b, sixes)
            out.append(
                Event("gain", f"the king takes {sixes} gain from the opposition's sixes [Playing the Opposition]")
            )
    next_points(state, out)


def points_side(c: Conflict) -> str | None:
    for side in ("a", "b"):
        if c.gain_left[side] or c.strain_left[side]:
            return side
    return None


def next_points(state: LostDaysState, out: list[Event]) -> None:
    c = state.conflict
    assert c is not None
    if points_side(c) is not None:
        state.phase = STRAIN_AND_GAIN
        return
    close_conflict(state, out)


def strain_sources(state: LostDaysState, seat: str) -> list[str]:
    """A memory's coin; failing that, the purse; failing that, the bank (LD-R25)."""
    owned = [m.id for m in state.owned(seat) if state.value(m.id) >= 1]
    if owned:
        return owned
    return ["purse"] if state.purse(seat) >= 1 else ["bank"]


def legal_points(state: LostDaysState, seat: str) -> list[Action]:
    c = state.conflict
    assert c is not None
    side = points_side(c)
    assert side is not None
    out = []
    if c.gain_left[side]:
        out.append(listed(seat, "decline_gain"))
        for dest in winner_dests(state, seat):
            out.append(listed(seat, "take_gain", ("dest", dest), ("narration", GAIN_TEXT)))
    if c.strain_left[side]:
        for source in strain_sources(state, seat):
            out.append(listed(seat, "take_strain", ("source", source), ("narration", STRAIN_TEXT)))
    return out


def check_points(state: LostDaysState, action: Action) -> None:
    c = state.conflict
    assert c is not None
    side = points_side(c)
    assert side is not None
    if action.type in ("take_gain", "decline_gain"):
        if not c.gain_left[side]:
            raise refuse("you have no gain left: a point of gain is a 6 still showing", "gain", S_STRAIN)
        if action.type == "take_gain" and action.args["dest"] not in winner_dests(state, action.seat):
            raise refuse("a coin of gain goes to your purse or one of your memories", "LD-R25", S_STRAIN)
    else:
        if not c.strain_left[side]:
            raise refuse("you have no strain left: a point of strain is a 1 still showing", "strain", S_STRAIN)
        if action.args["source"] not in strain_sources(state, action.seat):
            sources = ", ".join(strain_sources(state, action.seat))
            raise refuse(f"strain moves a coin from one of your memories first (now: {sources})", "LD-R25", S_STRAIN)


def play_points(state: LostDaysState, action: Action, out: list[Event]) -> None:
    c = state.conflict
    assert c is not None
    side = points_side(c)
    assert side is not None
    seat = action.seat
    if action.type == "decline_gain":
        c.gain_left[side] = 0
    elif action.type == "take_gain":
        dest = action.args["dest"]
        move(state, BANK, seat if dest == "purse" else dest)
        c.gain_left[side] -= 1
        out.append(Event("gain", f"{seat} takes a coin of gain onto {dest}: {action.args['narration']}"))
    else:
        source = action.args["source"]
        move(state, {"purse": seat}.get(source, source), mad_key(seat))
        c.strain_left[side] -= 1
        out.append(Event("strain", f"{seat} takes a point of strain from {source}: {action.args['narration']}"))
    next_points(state, out)


def close_conflict(state: LostDaysState, out: list[Event]) -> None:
    """The madness check, the end check, then a new king's interrupt (LD-R22, LD-R28)."""
    state.conflict = None
    check_madness(state, out)
    after_step(state, out)
