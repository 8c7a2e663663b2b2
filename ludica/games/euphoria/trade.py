"""Trading during your own turn (rulebook "Trading"): an immediate, exact exchange of
commodities, resources and artifact cards with another player.

The player whose turn it is offers (``offer_trade to``), names what they give one item at a
time (``trade_give item``), then what they ask for (``trade_ask item``); the other player
accepts or declines (``answer_trade answer``). Artifacts are named by kind; asking for a kind
the other player does not hold simply cannot be accepted (their hand stays secret). Each side
names at most :data:`MAX_ITEMS` items, and a turn allows ``trades_per_turn`` proposals (an
option, 1 by default: a ruling, the rulebook sets no number) so that play always moves on.
"""

from __future__ import annotations

from ...core import Event
from ...core.names import counted, listing
from .agenda import Events, answer, ask, push, task
from .oracle import ARTIFACT_KINDS, GOODS
from .payments import ART
from .state import EuphoriaState, Prompt, Task
from .tracks import hand_kinds

MAX_ITEMS = 4
DONE = "done"


def can_offer(st: EuphoriaState, seat: str) -> bool:
    return st.flags.get("trades", 0) < st.options["trades_per_turn"] and len(st.seats) > 1 and seat == st.turn


def offer(st: EuphoriaState, seat: str, partner: str, ev: Events) -> None:
    st.flags["trades"] = st.flags.get("trades", 0) + 1
    ev.append(Event("trade", f"{seat} proposes a trade to {partner}"))
    push(st, Task("trade_give", (seat, partner, [], [])))


def _holdings(st: EuphoriaState, seat: str) -> dict[str, int]:
    out = {g: n for g, n in st.players[seat].goods.items() if n}
    out.update({ART + k: n for k, n in hand_kinds(st, seat).items()})
    return out


_ITEMS: tuple[tuple[str, str], ...] = tuple(
    sorted([*((g, "") for g in GOODS), *((ART + k, k) for k in ARTIFACT_KINDS)])
)
"""Every trade item (a good, or ``art-<kind>``) with its artifact kind (``""`` for a good), in the
sorted order the options are listed: the listings below walk it instead of sorting at each step."""


@task("trade_give")
def _give(st: EuphoriaState, t: Task, ev: Events) -> None:
    """What the offerer may still name: what it holds beyond what it already named."""
    seat, partner, give, get = t.args[0], t.args[1], t.args[2], t.args[3]
    options = [DONE]
    if len(give) < MAX_ITEMS:
        goods = st.players[seat].goods
        kinds = hand_kinds(st, seat)
        for item, kind in _ITEMS:
            held = kinds.get(kind, 0) if kind else goods[item]
            if held > give.count(item):
                options.append(item)
    ask(st, seat, "trade_give", options, [partner, give, get], ev)


@answer("trade_give")
def _gave(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    partner, give, get = ctx
    if option == DONE:
        push(st, Task("trade_ask", (seat, partner, give, get)))
    else:
        push(st, Task("trade_give", (seat, partner, [*give, option], get)))


@task("trade_ask")
def _ask(st: EuphoriaState, t: Task, ev: Events) -> None:
    """What the offerer may still ask for: the partner's goods beyond those already asked, and any
    artifact kind while fewer artifacts are asked than the partner holds cards (their kinds are
    secret)."""
    seat, partner, give, get = t.args[0], t.args[1], t.args[2], t.args[3]
    options = [DONE]
    if len(get) < MAX_ITEMS:
        goods = st.players[partner].goods
        arts = sum(1 for i in get if i.startswith(ART))
        room = arts < len(st.players[partner].hand)
        for item, kind in _ITEMS:
            askable = room if kind else goods[item] > get.count(item)
            if askable:
                options.append(item)
    ask(st, seat, "trade_ask", options, [partner, give, get], ev)


@answer("trade_ask")
def _asked(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    partner, give, get = ctx
    if option != DONE:
        push(st, Task("trade_ask", (seat, partner, give, [*get, option])))
        return
    if not give and not get:
        ev.append(Event("trade", f"{seat} withdraws the trade"))
        return
    text = (
        f"{seat} offers {_words(give)} for {_words(get)}" if give else f"{seat} asks for {_words(get)}, giving nothing"
    )
    ev.append(Event("trade", text, frozenset({seat, partner})))
    options = ["decline"] + (["accept"] if _has_all(st, partner, get) else [])
    # always asked, even with only "decline", so the timing does not tell what the partner holds
    st.prompt = Prompt(partner, "answer_trade", options, [seat, give, get])


def _words(items: list[str]) -> str:
    """``["energy", "art-bat", "energy"]`` -> ``"2 energy and 1 art-bat"``: each item once with its
    count, artifacts by their id (the namer says its name)."""
    counts = {i: items.count(i) for i in items}
    return listing([f"{n} {i}" for i, n in counts.items()]) or "nothing"


def _has_all(st: EuphoriaState, seat: str, items: list[str]) -> bool:
    held = _holdings(st, seat)
    return all(held.get(i, 0) >= items.count(i) for i in items)


@answer("answer_trade")
def _answered(st: EuphoriaState, seat: str, option: str, ctx: list, ev: Events) -> None:
    offerer, give, get = ctx
    if option == "decline":
        ev.append(Event("trade", f"{seat} declines {offerer}'s trade"))
        return
    _move(st, offerer, seat, give)
    _move(st, seat, offerer, get)
    goods = "+".join(i for i in give + get if i in GOODS)  # the namer counts them: "2 water and bliss"
    ev.append(
        Event(
            "trade",
            f"{seat} accepts {offerer}'s trade ({counted(len(give), 'item', 'items')} for "
            f"{counted(len(get), 'item', 'items')}; goods: {goods or 'none'})",
        )
    )
    push(st, Task("hand_limit"))


def _move(st: EuphoriaState, giver: str, taker: str, items: list[str]) -> None:
    from .oracle import artifact_kind

    for item in items:
        if item.startswith(ART):
            hand = st.players[giver].hand
            card = min(c for c in hand if artifact_kind(c) == item[len(ART) :])
            hand.remove(card)
            st.players[taker].hand.append(card)
        else:
            st.players[giver].goods[item] -= 1
            st.players[taker].goods[item] += 1
