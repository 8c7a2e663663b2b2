"""A turn: place one worker (or all same-number workers), retrieve workers, or resolve the
ethical dilemma; rolling dice and the knowledge check.

Rule: [Game Play Overview]; [Knowledge Checks]; [Ethical Dilemma Cards]

Settled points: SP 4 (doubles fixed at the turn's start), SP 7, SP 8, SP 9 and SP 10 (checks only
on rolls, one lost worker per player per turn, roll penalties after the check), SP 16
(retrieval), SP 6 (a dilemma is the whole turn).
"""

from __future__ import annotations

from ...core import Event
from ...core.mechanisms import next_seat
from .agenda import Events, answer, ask, await_chance, chance, push, task
from .ending import end_by_round_limit, round_limit_reached
from .oracle import COMMODITIES, DILEMMAS, GOODS, KNOWLEDGE_LIMIT, RECRUITS, RESOURCES, artifact_kind
from .payments import may_spend
from .state import EuphoriaState, Task
from .status import has, penalized, penalty_values, revised, roll_loss_values
from .tracks import can_pay_morale, discard_kind, draw, hand_kinds, knowledge, morale, place_star, refresh_recruits


# -- rolling -------------------------------------------------------------------------------------
@task("roll")
def _roll(st: EuphoriaState, t: Task, ev: Events) -> None:
    seat, n, why = t.args[0], t.args[1], t.args[2]
    if n > 0:
        await_chance(st, "roll_workers", [seat, n, why])


@chance("roll_workers")
def _rolled(st: EuphoriaState, arg: list, outcome: dict, ev: Events) -> None:
    seat, _n, why = arg
    faces = list(outcome["dice"])
    settle_dice(st, seat, faces, why, ev)


def settle_dice(st: EuphoriaState, seat: str, faces: list[int], why: str, ev: Events) -> None:
    """Newly rolled (or set) dice join the available workers; then the knowledge check, the
    market roll penalties and Ben the Ludologist's doubles (SP 8, SP 10, SP 12)."""
    p = st.players[seat]
    before = list(p.available)
    p.available.extend(faces)
    p.rolling -= len(faces)
    ev.append(Event("roll", f"{seat} rolls {', '.join(map(str, faces))} ({why})", data={"seat": seat}))
    doubles = any(f in before or faces.count(f) > 1 for f in faces)
    if why == "new worker":
        st.flags["new_worker"] = [seat, faces[0]]  # for Chase the Miner, unless it deserts at once
    push(st, Task("knowledge_check", (seat,)), Task("roll_loss", (seat, faces)), Task("doubles", (seat, doubles)))


@task("knowledge_check")
def _knowledge_check(st: EuphoriaState, t: Task, ev: Events) -> None:
    """Track + all available dice >= 16: lose the highest available worker (one per turn).

    Rule: [Knowledge Checks]; SP 7; SP 8; SP 9
    """
    seat = t.args[0]
    p = st.players[seat]
    if p.lost_this_turn or not p.available:
        return
    total = p.knowledge + sum(p.available)
    if total < KNOWLEDGE_LIMIT:
        return
    worst = max(p.available)
    p.available.remove(worst)
    p.workers -= 1
    p.lost_this_turn = True
    if seat == st.turn:
        st.chain = keep_chain(st.chain, worst, p.available.count(worst))
    if st.flags.get("new_worker") == [seat, worst]:
        st.flags["new_worker"] = None  # the new worker is the one that deserts (Chase the Miner)
    ev.append(Event("knowledge", f"{seat}'s workers know too much ({total}): the {worst} deserts"))
    push(st, Task("deserted", (seat,)))


def keep_chain(chain: list[int], lost: int, left: int) -> list[int]:
    """The same-number workers still to be placed after a die showing ``lost`` deserts: dice of one
    number are alike, so the others of that number stay in the chain, as many as are still
    available (``left``); only a die the player no longer holds leaves it (issue 14)."""
    out: list[int] = []
    for face in chain:
        if face != lost or left > 0:
            out.append(face)
            left -= face == lost
    return out


@task("roll_loss")
def _roll_loss(st: EuphoriaState, t: Task, ev: Events) -> None:
    """Teddy Bear Shop .. Center for Reduced Literacy: one good lost per die showing the number.

    Rule: SP 10
    """
    seat, faces = t.args[0], t.args[1]
    losses = sum(faces.count(v) for v in roll_loss_values(st, seat))
    push(st, *(Task("lose_good", (seat,)) for _ in range(losses)))


@task("lose_good")
def _lose_good(st: EuphoriaState, t: Task, ev: Events) -> None:
    seat = t.args[0]
    goods = st.players[seat].goods
    held = [g for g in GOODS if goods[g] > 0]
    spared = [g for g in held if may_spend(st, seat, g)]  # the placement's cost is paid in full
    ask(st, seat, "lose_good", spared or held, [], ev)


@answer("lose_good")
def _lost_good(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    st.players[seat].goods[option] -= 1
    ev.append(Event("penalty", f"{seat} loses 1 {option} to a market penalty"))


# -- the turn ------------------------------------------------------------------------------------
@task("start_turn")
def _start_turn(st: EuphoriaState, t: Task, ev: Events) -> None:
    st.turn = t.args[0]
    st.turn_number += 1
    st.placed_this_turn = 0
    st.chain = []
    st.flags = {}
    for p in st.players.values():
        p.lost_this_turn = False
    ev.append(Event("turn", f"turn {st.turn_number}: {st.turn}"))


def begin_placement(st: EuphoriaState, seat: str, face: int, ev: Events) -> None:
    """Doubles: the same-number workers held when the first one is placed may follow
    (Fountain of Wishful Thinking forbids it; the Double House Rule charges 1 morale each)."""
    p = st.players[seat]
    if st.placed_this_turn == 0:
        same = p.available.count(face) - 1
        st.chain = [] if penalized(st, seat, "cap_placements_per_turn") else [face] * same
    else:
        st.chain.remove(face)
        if st.options["double_house_rule"]:
            morale(st, seat, -1, ev)
    st.placed_this_turn += 1


@task("after_placement")
def _after_placement(st: EuphoriaState, t: Task, ev: Events) -> None:
    seat = st.turn
    st.chain = [f for f in st.chain if f in st.players[seat].available]
    if not chain_faces(st):
        push(st, Task("end_turn"))


def chain_faces(st: EuphoriaState) -> list[int]:
    """Faces the turn's player may still place (same-number workers).

    Rule: SP 4
    """
    p = st.players[st.turn]
    faces = sorted({f for f in st.chain if f in p.available})
    if st.options["double_house_rule"] and not can_pay_morale(st, st.turn, 1):
        return []
    return faces


@task("end_turn")
def _end_turn(st: EuphoriaState, t: Task, ev: Events) -> None:
    st.chain = []
    push(st, Task("turn_over"))
    push(st, Task("geek"))


@task("turn_over")
def _turn_over(st: EuphoriaState, t: Task, ev: Events) -> None:
    """Play passes to the next seat clockwise.

    Rule: [Turn Rotation]
    """
    if round_limit_reached(st):
        end_by_round_limit(st, ev)
        return
    push(st, Task("start_turn", (next_seat(st.seats, st.turn),)))


# -- retrieval -----------------------------------------------------------------------------------
def retrieval_costs(st: EuphoriaState, seat: str) -> list[str]:
    """Food or bliss for +2 morale, or free for -1 morale (Jefferson: energy; Gidgit: bliss
    for -2 knowledge instead)."""
    goods = st.players[seat].goods
    out = [g for g in ("food", "bliss") if goods[g] > 0]
    if goods["bliss"] > 0 and has(st, seat, "gidgit_the_hypnotist"):
        out.append("bliss-for-knowledge")
    if goods["energy"] > 0 and has(st, seat, "jefferson_the_shock_artist"):
        out.append("energy")
    return [*out, "free"]


def placed_tokens(st: EuphoriaState, seat: str) -> list[str]:
    """The seat's workers on the board as ``space:face`` (one entry per worker).

    Rule: SP 18
    """
    return sorted(f"{space}:{face}" for space, face in st.placed(seat))


def retrieve(st: EuphoriaState, seat: str, token: str, ev: Events) -> None:
    """Take a first worker off the board; more may follow (``retrieve_more``), then pay and roll."""
    _lift(st, seat, token)
    push(st, Task("retrieve_more", (seat, [int(token.rpartition(":")[2])], [token])))


def _lift(st: EuphoriaState, seat: str, token: str) -> None:
    space, _, face = token.rpartition(":")
    occs = st.occupants[space]
    occs.remove([seat, int(face)])
    if not occs:
        del st.occupants[space]
    st.players[seat].rolling += 1


@task("retrieve_more")
def _retrieve_more(st: EuphoriaState, t: Task, ev: Events) -> None:
    seat, faces, workers = t.args[0], t.args[1], t.args[2]
    more = placed_tokens(st, seat)
    if not more:
        _retrieved(st, seat, faces, workers, ev)
        return
    ask(st, seat, "retrieve_more", ["done", *sorted(set(more))], [faces, workers], ev)


@answer("retrieve_more")
def _more(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    faces, workers = list(ctx[0]), list(ctx[1])
    if option == "done":
        _retrieved(st, seat, faces, workers, ev)
        return
    _lift(st, seat, option)
    push(st, Task("retrieve_more", (seat, [*faces, int(option.rpartition(":")[2])], [*workers, option])))


def _retrieved(st: EuphoriaState, seat: str, faces: list[int], workers: list[str], ev: Events) -> None:
    ev.append(Event("retrieve", f"{seat} retrieves {', '.join(workers)}", data={"seat": seat}))
    push(st, Task("retrieve_pay", (seat, faces, workers)))


@task("retrieve_pay")
def _retrieve_pay(st: EuphoriaState, t: Task, ev: Events) -> None:
    seat = t.args[0]
    ask(st, seat, "pay", retrieval_costs(st, seat), ["retrieve", t.args[1], t.args[2]], ev)


def pay_retrieval(st: EuphoriaState, seat: str, option: str, faces: list[int], workers: list[str], ev: Events) -> None:
    """Retrieval paid with food or bliss gives 2 morale; a free retrieval costs morale.

    Rule: SP 16
    """
    p = st.players[seat]
    if option == "free":
        loss = 1 + sum(penalty_values(st, seat, "extra_free_retrieve_morale"))
        if has(st, seat, "yordy_the_demotivator") and not revised(st, "yordy_the_demotivator") and p.workers == 2:
            loss = 0
        morale(st, seat, -loss, ev)
    elif option == "bliss-for-knowledge":
        p.goods["bliss"] -= 1
        knowledge(st, seat, -2, ev)
    elif option == "energy":
        p.goods["energy"] -= 1
        morale(st, seat, 1, ev)
        knowledge(st, seat, -1, ev)
    else:
        p.goods[option] -= 1
        morale(st, seat, 2, ev)
    ev.append(Event("pay", f"{seat} retrieves paying {option}", data={"seat": seat}))
    push(st, Task("maggie", (seat, workers)), Task("hand_limit"), Task("end_turn"))
    if (
        option == "free"
        and has(st, seat, "yordy_the_demotivator")
        and revised(st, "yordy_the_demotivator")
        and (p.goods["energy"] > 0)
    ):
        options = ["roll-all", *[f"set-{f}-to-{n}" for f in sorted(set(faces)) for n in range(1, 7)]]
        ask(st, seat, "use_ability", options, ["yordy_the_demotivator", faces], ev)
        return
    push(st, Task("retrieve_sacrifice", (seat, faces)))


@task("retrieve_sacrifice")
def _retrieve_sacrifice(st: EuphoriaState, t: Task, ev: Events) -> None:
    """Pete the Cannibal / Dr. Sheppard may sacrifice a retrieved worker before the roll.

    Rule: SP 29
    """
    seat, faces = t.args[0], t.args[1]
    p = st.players[seat]
    ids = [r for r in ("pete_the_cannibal", "sheppard_the_lobotomist") if has(st, seat, r)]
    if ids and p.workers > 1 and faces:
        options = ["none", *[f"{r}:{f}" for r in ids for f in sorted(set(faces))]]
        ask(st, seat, "sacrifice", options, ["retrieve", faces], ev)
        return
    push(st, Task("roll", (seat, len(faces), "retrieved")))


@answer("sacrifice")
def _sacrifice(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    faces = list(ctx[1])
    if option != "none":
        rid, _, face = option.partition(":")
        faces.remove(int(face))
        st.players[seat].workers -= 1
        st.players[seat].rolling -= 1
        good = "food" if rid == "pete_the_cannibal" else "bliss"
        st.players[seat].goods[good] += 4
        ev.append(Event("ability", f"{seat} sacrifices a worker to {RECRUITS[rid].name}: 4 {good}"))
        push(st, Task("choose_resource", (seat, rid)))
    push(st, Task("roll", (seat, len(faces), "retrieved")))


@task("maggie")
def _maggie(st: EuphoriaState, t: Task, ev: Events) -> None:
    """Maggie the Outlaw: every retrieved worker came from Subterra: a water or a stone."""
    from .spaces import faction_of

    seat, workers = t.args[0], t.args[1]
    if has(st, seat, "maggie_the_outlaw") and all(faction_of(w.rpartition(":")[0]) == "subterran" for w in workers):
        ask(st, seat, "take", ["stone", "water"], ["maggie"], ev)


@task("choose_resource")
def _choose_resource(st: EuphoriaState, t: Task, ev: Events) -> None:
    ask(st, t.args[0], "take", list(RESOURCES), [t.args[1]], ev)


@task("choose_commodity")
def _choose_commodity(st: EuphoriaState, t: Task, ev: Events) -> None:
    ask(st, t.args[0], "take", list(COMMODITIES), [t.args[1]], ev)


# -- the ethical dilemma -------------------------------------------------------------------------
def dilemma_costs(st: EuphoriaState, seat: str) -> list[str]:
    """The pictured artifact, or any two artifacts."""
    kinds = hand_kinds(st, seat)
    pictured = DILEMMAS[st.players[seat].dilemma].artifact
    out = [f"art-{pictured}"] if kinds.get(pictured) else []
    held = sorted(kinds)
    for i, a in enumerate(held):
        for b in held[i:]:
            if a != b or kinds[a] >= 2:
                out.append(f"art-{a}+art-{b}")
    return out


def dilemma_payable(st: EuphoriaState, seat: str) -> bool:
    """True when :func:`dilemma_costs` lists a way to pay: the pictured artifact is in hand, or
    any two artifacts are."""
    hand = st.players[seat].hand
    pictured = DILEMMAS[st.players[seat].dilemma].artifact
    return len(hand) >= 2 or any(artifact_kind(card) == pictured for card in hand)


def resolve_dilemma(st: EuphoriaState, seat: str, ev: Events) -> None:
    """Resolving the ethical dilemma takes the whole turn.

    Rule: [Ethical Dilemma Cards]; SP 6
    """
    p = st.players[seat]
    p.dilemma_done = True
    ev.append(Event("dilemma", f"{seat} resolves the ethical dilemma {p.dilemma}"))
    push(st, Task("dilemma_pay", (seat,)), Task("dilemma_side", (seat,)), Task("hand_limit"), Task("end_turn"))


@task("dilemma_pay")
def _dilemma_pay(st: EuphoriaState, t: Task, ev: Events) -> None:
    ask(st, t.args[0], "pay", dilemma_costs(st, t.args[0]), ["dilemma"], ev)


def pay_dilemma(st: EuphoriaState, seat: str, option: str, ev: Events) -> None:
    for tok in option.split("+"):
        discard_kind(st, seat, tok[len("art-") :])
    ev.append(Event("pay", f"{seat} pays {option.replace('art-', '')}", data={"seat": seat}))


@task("dilemma_side")
def _dilemma_side(st: EuphoriaState, t: Task, ev: Events) -> None:
    seat = t.args[0]
    sides = ["fight", "contribute"] if len(st.recruit_deck) >= 1 else ["contribute"]
    ask(st, seat, "choose_side", sides, [], ev)


@answer("choose_side")
def _side(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    ev.append(Event("dilemma", f"{seat} chooses to {option}"))
    if option == "contribute":
        place_star(st, seat, "dilemma", ev, by_space=False)
        return
    drawn = st.recruit_deck.draw(min(2, len(st.recruit_deck)))
    st.players[seat].dealt = drawn
    ask(st, seat, "keep_recruit", sorted(drawn), ["dilemma"], ev)


@answer("keep_recruit")
def _keep(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    """**[Ethical Dilemma Cards]** fight the establishment: the kept recruit is hidden, activated at
    once if its faction is revealed, and starred at once at tier 4."""
    p = st.players[seat]
    p.discarded.extend(r for r in p.dealt if r != option)
    p.dealt = []
    p.hidden.append(option)
    ev.append(Event("recruit", f"{seat} gains a hidden recruit"))
    refresh_recruits(st, ev)


@task("deserted")
def _deserted(st: EuphoriaState, t: Task, ev: Events) -> None:
    """Steven the Scholar: a deserting worker leaves an artifact and a resource behind."""
    seat = t.args[0]
    if has(st, seat, "steven_the_scholar"):
        push(st, Task("choose_resource", (seat, "steven_the_scholar")))
        draw(st, seat)
