"""Opposition, choosing dice, rerolls with Traits and the success decision ([Getting things done])."""

from __future__ import annotations

from ...core import Event
from ...core.names import counted
from . import procedure as proc
from .common import (
    FEE_MODES,
    S_BETTER,
    S_DONE,
    S_GROWING,
    S_MEANING,
    S_OBNOXIOUS,
    S_OUTCOMES,
    Args,
    name_of,
    refuse,
    selection_sum,
)
from .declare import check_roll
from .state import (
    ATTRIBUTES,
    GM,
    MiseryState,
)


# -- A2 opposition -----------------------------------------------------------------------------
def check_oppose(state: MiseryState, seat: str, args: Args) -> None:
    """MB-R7: each opponent picks their own pool, challenge and dice before anything is rolled."""
    check_roll(state, seat, args["pool"], args["challenge"], args["dice"])


def play_oppose(state: MiseryState, seat: str, args: Args) -> list[Event]:
    part = proc.join(state, seat, args["pool"], args["challenge"], args["dice"])
    proc.next_answer(state)
    name = state.characters[seat].name
    return [
        Event(
            "oppose",
            f"{name} opposes ({counted(len(part.dice), 'die', 'dice')} of {part.pool}, challenge {part.challenge})",
        )
    ]


def check_gm_oppose(state: MiseryState, seat: str, args: Args) -> None:
    """MB-R36: the GM rolls 1..gm_max_dice dice from the GM's supply and names a pool."""
    if args["pool_label"] not in ATTRIBUTES:
        refuse(f"the pool label is one of {', '.join(ATTRIBUTES)}", "MB-R36", S_DONE)
    if not 1 <= args["challenge"] <= 6:
        refuse("a challenge is from one to six", "challenge", S_DONE)
    top = state.settings.gm_max_dice
    if not 1 <= args["dice"] <= top:
        refuse(f"the GM rolls 1 to {top} dice", "MB-R36", S_DONE)


def play_gm_oppose(state: MiseryState, seat: str, args: Args) -> list[Event]:
    proc.join(state, GM, args["pool_label"], args["challenge"], args["dice"])
    proc.next_answer(state)
    dice = counted(args["dice"], "die", "dice")
    text = f"The GM opposes ({dice} as {args['pool_label']}, challenge {args['challenge']})"
    return [Event("oppose", text)]


def check_pass_opposition(state: MiseryState, seat: str, args: Args) -> None:
    decl = state.declaration
    if decl is not None and decl.seat == seat:
        refuse("you have accepted or refused a Trait for this action: you must roll", "MB-R38", S_GROWING)


def play_pass_opposition(state: MiseryState, seat: str, args: Args) -> list[Event]:
    proc.next_answer(state)
    return []


# -- selecting dice ------------------------------------------------------------------------------
def reroll_budget(state: MiseryState, seat: str) -> int:
    """The largest Trait value this player could still use now (0: none) [Obnoxious]."""
    attempt = state.attempt
    assert attempt is not None
    if not state.traits or not any(state.characters[seat].pool.values()):
        return 0
    values = [t.value for t in state.traits_of(seat) if t.id not in attempt.traits_used]
    return max(values, default=0)


def selectable(state: MiseryState, seat: str) -> list[str]:
    """The dice ``seat`` may add to the selection now."""
    attempt = state.attempt
    assert attempt is not None
    chosen = attempt.selected
    stage = attempt.stage
    if stage == proc.REROLL:
        room = reroll_budget(state, seat) - selection_sum(state)
        if room < 1:  # every rolled die shows at least 1
            return []
        own_only = state.settings.trait_reroll_scope == "own"
        return [
            proc.die_ref(p.seat, i)
            for p in attempt.participants
            if not own_only or p.seat == seat
            for i, d in enumerate(p.dice.dice)
            if (d.face or 0) <= room and proc.die_ref(p.seat, i) not in chosen
        ]
    part = state.participant(seat)
    assert part is not None
    if stage == proc.MEANING:
        if attempt.orientation is None:
            return []
        free = [i for i in part.non_success if i not in part.assigned and i not in part.spent]
    else:
        free = [i for i in part.success if i not in part.grown]
    refs = [proc.die_ref(seat, i) for i in free]
    return [r for r in refs if r not in chosen] if chosen else refs


def check_select_die(state: MiseryState, seat: str, args: Args) -> None:
    """Dice for a reroll (MB-R12), an outcome (MB-R24) or growth (MB-R15) are chosen one by one."""
    ref = args["die"]
    if ref in selectable(state, seat):
        return
    attempt = state.attempt
    assert attempt is not None
    if proc.parse_ref(state, ref) is None:
        refuse(f"there is no rolled die {ref!r}", "selection", _selection_section(state))
    if ref in attempt.selected:
        refuse(f"die {ref!r} is already chosen", "selection", _selection_section(state))
    if attempt.stage == proc.REROLL:
        found = proc.parse_ref(state, ref)
        assert found is not None
        if state.settings.trait_reroll_scope == "own" and found[0].seat != seat:
            refuse("with trait_reroll_scope=own a Trait rerolls only your own dice", "MB-R12", S_OBNOXIOUS)
        budget = reroll_budget(state, seat)
        refuse(
            f"the chosen dice would total more than {budget}, the most a Trait you can use allows",
            "reroll budget",
            S_OBNOXIOUS,
        )
    if attempt.stage == proc.MEANING and attempt.orientation is None:
        refuse("choose the arrow (others or self) first", "MB-R22", S_MEANING)
    what = "your unassigned counted non-success dice" if attempt.stage == proc.MEANING else "your unused success dice"
    refuse(f"die {ref!r} is not one of {what}", _selection_rule(state), _selection_section(state))


def _selection_rule(state: MiseryState) -> str:
    stage = state.attempt.stage if state.attempt else ""
    return {proc.REROLL: "MB-R12", proc.MEANING: "MB-R24", proc.GROWTH: "MB-R15"}.get(stage, "selection")


def _selection_section(state: MiseryState) -> str:
    stage = state.attempt.stage if state.attempt else ""
    return {proc.REROLL: S_OBNOXIOUS, proc.MEANING: S_OUTCOMES, proc.GROWTH: S_BETTER}.get(stage, S_DONE)


def play_select_die(state: MiseryState, seat: str, args: Args) -> list[Event]:
    assert state.attempt is not None
    state.attempt.selected.append(args["die"])
    return []


def check_unselect_die(state: MiseryState, seat: str, args: Args) -> None:
    assert state.attempt is not None
    if args["die"] not in state.attempt.selected:
        refuse(f"die {args['die']!r} is not chosen", "selection", _selection_section(state))


def play_unselect_die(state: MiseryState, seat: str, args: Args) -> list[Event]:
    assert state.attempt is not None
    state.attempt.selected.remove(args["die"])
    return []


# -- A4 rerolls ----------------------------------------------------------------------------------
def check_use_trait(state: MiseryState, seat: str, args: Args) -> None:
    """[Obnoxious]: reroll dice totalling no more than the Trait, for one die to its creator or to Misery."""
    attempt = state.attempt
    assert attempt is not None
    trait = state.traits.get(args["trait"])
    if trait is None or trait.owner != seat:
        refuse(f"{args['trait']!r} is not a Trait on your sheet", "MB-R49", S_OBNOXIOUS)
    if trait.id in attempt.traits_used:
        refuse("each Trait is used at most once in an action", "MB-R13", S_BETTER)
    if args["fee_pool"] not in ATTRIBUTES or state.characters[seat].pool[args["fee_pool"]] < 1:
        refuse("the die you pay comes from one of your attribute pools, not from rolled dice", "MB-R14", S_OBNOXIOUS)
    if args["fee_mode"] not in FEE_MODES:
        refuse(
            "the die goes to the Trait's creator (give_creator) or to your Misery (to_misery)", "MB-R14", S_OBNOXIOUS
        )
    if not attempt.selected:
        refuse("choose the dice to reroll first (select_die)", "MB-R12", S_OBNOXIOUS)
    total = selection_sum(state)
    if total > trait.value:
        refuse(f"the chosen dice total {total}, more than the Trait's {trait.value}", "reroll budget", S_OBNOXIOUS)


def play_use_trait(state: MiseryState, seat: str, args: Args) -> list[Event]:
    attempt = state.attempt
    assert attempt is not None
    trait = state.traits[args["trait"]]
    me = state.characters[seat]
    me.pool[args["fee_pool"]] -= 1
    if args["fee_mode"] == "give_creator":
        creator = state.characters[trait.creator]
        creator.influence[seat] = creator.influence.get(seat, 0) + 1
        fee = f"gives a die to {creator.name}"
    else:
        me.misery += 1
        fee = "puts a die into Misery"
    attempt.traits_used.append(trait.id)
    dice = list(attempt.selected)
    attempt.chance = {"type": "reroll", "dice": dice}
    proc.next_reroller(state, passed=False)
    text = f'{me.name} uses "{trait.text}" ({trait.value}), {fee}, and rerolls {", ".join(dice)}'
    return [Event("use_trait", text)]


def check_pass_reroll(state: MiseryState, seat: str, args: Args) -> None:
    return None


def play_pass_reroll(state: MiseryState, seat: str, args: Args) -> list[Event]:
    proc.next_reroller(state, passed=True)
    return _count_events(state)


def _count_events(state: MiseryState) -> list[Event]:
    attempt = state.attempt
    if attempt is None or attempt.stage not in (proc.SUCCESS, proc.MEANING):
        return []
    lines = []
    for p in attempt.participants:
        name = "GM" if p.seat == GM else state.characters[p.seat].name
        lines.append(f"{name}: {p.s} success (sum {p.ss}), meaning {p.n}")
    who = name_of(state, attempt.success_decider or "")
    what = name_of(state, attempt.meaning_decider or "")
    text = "; ".join(lines) + f". {who} decides success, {what} decides meaning."
    return [Event("count", text)]


# -- A6 success ----------------------------------------------------------------------------------
def check_decide_success(state: MiseryState, seat: str, args: Args) -> None:
    """Nothing to check: either result may be declared (see :func:`play_decide_success`)."""
    return None


def play_decide_success(state: MiseryState, seat: str, args: Args) -> list[Event]:
    """MB-R11: whoever wins the success contest declares success or failure at will."""
    attempt = state.attempt
    assert attempt is not None
    attempt.succeeded = args["succeeds"]
    attempt.stage = proc.MEANING
    word = "succeeds" if args["succeeds"] else "fails"
    return [Event("success", f"{name_of(state, seat)} decides: the action {word}")]
