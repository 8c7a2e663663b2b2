"""The action procedure's automatic steps: rolling, the count, the deciders, stage changes, cleanup.

[Getting things done], step by step: A1 declare, A2 opposition, A3 roll, A4 rerolls, A5 count,
A6 success, A7 meaning, A8 getting better, A9 reclaim, A10 cleanup. The decisions of people are
in :mod:`.rules`; what follows by itself is here.
"""

from __future__ import annotations

from ...core.mechanisms import DicePool, Die, clockwise_from
from .blocking import blocked_faces
from .state import DESIRE, GM, PROMISE, Attempt, MiseryState, Participant

OPPOSITION, ROLLED, REROLL, SUCCESS, MEANING, GROWTH, RECLAIM = (
    "OPPOSITION",
    "ROLLED",
    "REROLL",
    "SUCCESS",
    "MEANING",
    "GROWTH",
    "RECLAIM",
)


def die_ref(seat: str, index: int) -> str:
    """A rolled die's name: the roller's seat and its place in the roll, e.g. ``p1.3``."""
    return f"{seat}.{index}"


def parse_ref(state: MiseryState, ref: object) -> tuple[Participant, int] | None:
    """The participant and index a die name points at, or ``None``."""
    if not isinstance(ref, str) or "." not in ref:
        return None
    seat, _, index = ref.rpartition(".")
    part = state.participant(seat)
    if part is None or not index.isdigit() or int(index) >= len(part.dice):
        return None
    return part, int(index)


def face_of(state: MiseryState, ref: str) -> int:
    """The face a rolled die shows (0 before the roll); ``ref`` names a die (see :func:`parse_ref`)."""
    seat, _, index = ref.rpartition(".")
    part = state.participant(seat)
    assert part is not None
    return part.dice.dice[int(index)].face or 0


def player_participants(attempt: Attempt) -> list[Participant]:
    """Participating players in turn order: the caller, then opponents clockwise (MB-R13)."""
    return [p for p in attempt.participants if p.seat != GM]


def current_player(attempt: Attempt) -> str:
    """The participating player whose turn it is (players come first: the GM answers last, MB-R7)."""
    return attempt.participants[attempt.turn].seat


# -- A1, A2 ------------------------------------------------------------------------------------
def start_attempt(state: MiseryState, caller: str, intent: str) -> Attempt:
    """A1: the caller declares; everyone else, then the GM, is asked clockwise (MB-R7)."""
    others = [s for s in clockwise_from(state.players, caller) if s != caller]
    if state.settings.gm:
        others.append(GM)
    attempt = Attempt(number=state.attempts_done + 1, caller=caller, intent=intent, stage=OPPOSITION)
    attempt.answering = others
    state.attempt = attempt
    return attempt


def join(state: MiseryState, seat: str, pool: str, challenge: int, dice: int) -> Participant:
    """Move ``dice`` from the pool (and any accepted Trait dice) onto the table (MB-R38, MB-R42)."""
    attempt = state.attempt
    assert attempt is not None
    carried, accepted = 0, []
    if seat != GM:
        state.characters[seat].pool[pool] -= dice
        declaration = state.declaration
        if declaration is not None and declaration.seat == seat:
            carried, accepted = declaration.carried, list(declaration.accepted)
            state.declaration = None
    colour = None if seat == GM else seat
    rolled = DicePool(Die(6, None, colour, colour) for _ in range(dice + carried))
    part = Participant(seat=seat, pool=pool, challenge=challenge, dice=rolled, accepted=accepted)
    attempt.participants.append(part)
    attempt.traits_used.extend(t for t in accepted if t not in attempt.traits_used)
    return part


def next_answer(state: MiseryState) -> None:
    """The next seat answers; when all have, the dice are rolled (A3)."""
    attempt = state.attempt
    assert attempt is not None
    attempt.answering.pop(0)
    if not attempt.answering:
        attempt.stage = ROLLED
        attempt.chance = {"type": "roll_action"}


def dice_on_table(attempt: Attempt) -> int:
    return sum(len(p.dice) for p in attempt.participants)


def set_roll(state: MiseryState, faces: list[int]) -> None:
    """A3: one face per rolled die, participants in order, pool dice before Trait dice."""
    attempt = state.attempt
    assert attempt is not None
    i = 0
    for part in attempt.participants:
        for die in part.dice.dice:
            die.face = faces[i]
            i += 1
    attempt.chance = None
    attempt.stage = REROLL
    attempt.turn = 0
    attempt.passes = 0


def next_reroller(state: MiseryState, passed: bool) -> None:
    """A4: rounds from the caller until every participating player has passed in a row (MB-R13)."""
    attempt = state.attempt
    assert attempt is not None
    players = player_participants(attempt)
    attempt.selected.clear()
    attempt.passes = attempt.passes + 1 if passed else 0
    if attempt.passes >= len(players):
        count(state)
        return
    attempt.turn = (attempt.turn + 1) % len(players)


# -- A5 ----------------------------------------------------------------------------------------
def count_participant(state: MiseryState, part: Participant) -> None:
    """[Getting things done], [Threats], [Promises]; MB-R28, MB-R29, MB-R30.
    [Desires] a Desire penalises its holder when its value exceeds his success dice."""
    blocked = blocked_faces(state, part.seat)
    promises = []
    desires = []
    if part.seat != GM:
        for r in state.resources.values():
            if r.owner == part.seat and r.active:
                if r.kind == PROMISE:
                    promises.append(r)
                elif r.kind == DESIRE:
                    desires.append(r)
    # one pass over the dice: counted unless blocked, success at or above the challenge
    challenge = part.challenge
    counted: list[int] = []
    success: list[int] = []
    non_success: list[int] = []
    success_sum = non_success_sum = 0
    for i, die in enumerate(part.dice.dice):
        face = die.face or 0
        if face in blocked:
            continue
        counted.append(i)
        if face >= challenge:
            success.append(i)
            success_sum += face
        else:
            non_success.append(i)
            non_success_sum += face
    part.counted, part.success, part.non_success = counted, success, non_success
    part.matched_aid, part.unmatched_aid, part.fulfillable = [], 0, []
    if promises:
        counted_faces = {part.dice.dice[i].face or 0 for i in counted}
        for promise in promises:
            matched = [a for a in promise.aid if a in counted_faces]
            part.matched_aid.extend(matched)
            part.unmatched_aid += len(promise.aid) - len(matched)
            if len(matched) == len(promise.aid):
                part.fulfillable.append(promise.id)
    aid_success = [a for a in part.matched_aid if a >= challenge]
    part.s = len(success) + len(aid_success)
    part.ss = success_sum + sum(aid_success)
    part.n = non_success_sum + sum(a for a in part.matched_aid if a < challenge)
    part.penalising = [r.id for r in desires if r.value > len(success)]


def count(state: MiseryState) -> None:
    """A5 and the deciders: most successes, then the greatest sum, then the caller (MB-R8, MB-R9, MB-R10)."""
    attempt = state.attempt
    assert attempt is not None
    for part in attempt.participants:
        count_participant(state, part)
    caller = attempt.participants[0]
    attempt.selected.clear()
    if len(attempt.participants) == 1:
        attempt.success_decider = caller.seat
        attempt.meaning_decider = caller.seat
        attempt.succeeded = caller.s >= 1
        attempt.stage = MEANING
        return
    attempt.success_decider = _top(attempt, lambda p: (p.s, p.ss))
    attempt.meaning_decider = _top(attempt, lambda p: (p.n,))
    attempt.stage = SUCCESS


def _top(attempt: Attempt, key: object) -> str:
    scores = [(key(p), p.seat) for p in attempt.participants]  # type: ignore[operator]
    best = max(score for score, _ in scores)
    leaders = [seat for score, seat in scores if score == best]
    return leaders[0] if len(leaders) == 1 else attempt.caller


# -- A8, A9, A10 -------------------------------------------------------------------------------
def can_grow(state: MiseryState, part: Participant, extra: list[int] | None = None) -> bool:
    """True when some used Trait could still be raised with this player's free success dice."""
    attempt = state.attempt
    assert attempt is not None
    free = sum(part.dice.dice[i].face or 0 for i in part.success if i not in part.grown)
    values = [state.traits[t].value for t in attempt.traits_used if t in state.traits]
    return bool(values) and free >= min(values)


def start_growth(state: MiseryState) -> None:
    """A8 after meaning: the caller first, then opponents; players who cannot grow anything are passed."""
    attempt = state.attempt
    assert attempt is not None
    attempt.selected.clear()
    attempt.stage = GROWTH
    attempt.turn = -1
    next_grower(state)


def next_grower(state: MiseryState) -> None:
    attempt = state.attempt
    assert attempt is not None
    attempt.selected.clear()
    players = player_participants(attempt)
    attempt.turn += 1
    while attempt.turn < len(players) and not can_grow(state, players[attempt.turn]):
        attempt.turn += 1
    if attempt.turn >= len(players):
        attempt.stage = RECLAIM
        attempt.turn = 0
        attempt.denied = []


def cleanup(state: MiseryState) -> None:
    """A10: GM dice return to the supply; the action is over; the session may end."""
    state.attempt = None
    state.attempts_done += 1
    chars = state.characters.values()
    state.history.append(
        [
            sum(c.misery for c in chars),
            len(state.traits),
            sum(t.value for t in state.traits.values()),
            sum(sum(c.influence.values()) for c in chars),
        ]
    )
    if state.settings.calling_order == "round_robin":
        state.turn = clockwise_from(state.players, state.turn)[1]
    limit = state.settings.session_actions
    if limit and state.attempts_done >= limit:
        state.over = True
