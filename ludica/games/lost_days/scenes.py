"""Play: sessions, the scene cycle, the market, trading and selling, the epilogue.

[Telling the Story, Framing Scenes, The King is Dead, Market of Memories, Creating New Memories,
Replenishing, Trading, Selling, Ending; LD-R31 to LD-R36, LD-R39].
"""

from __future__ import annotations

from ...core import Action, Event, IntRange, Text
from ...core.mechanisms import Proposal, clockwise_from, next_seat
from .coins import give_memory, move, new_memory, to_market
from .creation import MEMORY_TEXT, check_memory_text
from .madness import check_madness
from .state import (
    ADVERSITY,
    EPILOGUE,
    GAME_OVER,
    INTERRUPT,
    MARKET,
    PERSONAL,
    REPLENISH,
    SCENE,
    SESSION,
    STORY,
    TRADE,
    WRITE_OUT,
    LostDaysState,
    Scene,
)
from .vocabulary import NONE, amounts, listed, refuse

S_STORY = "Telling the Story"
S_SCENES = "Framing Scenes"
S_KING_DEAD = "The King is Dead, Long Live the King!"
S_NEW = "Creating New Memories"
S_REPLENISH = "Replenishing the Market of Memories"
S_TRADING = "Trading Memories"
S_SELLING = "Selling Memories"
S_ENDING = "Ending the Game"
S_DESCENT = "Descent into Madness"
THEME_TEXT, STORY_TEXT = Text("a theme: magic, love, childhood ..."), Text("the new story")
SCENE_TEXT, WRITE_OUT_TEXT = Text("setting, who is present, intent"), Text("how the elf is written out")


# -- sessions and the cycle --------------------------------------------------------------------
def anchor(state: LostDaysState) -> str:
    """The king's seat, or the last king's in an interregnum (LD-R31)."""
    return state.king or state.last_king or state.seats[state.rules.first_seat]


def session_opener(state: LostDaysState) -> str:
    """The king opens the session; with no king, the first seat of the cycle (LD-R31)."""
    return state.king or next_seat(state.seats, anchor(state))


def check_start_session(state: LostDaysState, action: Action) -> None:
    if action.seat != session_opener(state):
        raise refuse("the king narrates the opening of the story", "LD-R39", S_STORY)


def play_start_session(state: LostDaysState, action: Action, out: list[Event]) -> None:
    state.session += 1
    state.story = action.args["opening"]
    state.cycle, state.slot = [], -1
    out.append(Event("session", f"session {state.session} opens: {state.story}"))
    next_slot(state, out)


def build_cycle(state: LostDaysState) -> list[list[str]]:
    """One scene for each player from the king's left round to the king, then the king's story scene."""
    first = next_seat(state.seats, anchor(state))
    return [[s, PERSONAL] for s in clockwise_from(state.seats, first)] + [["", STORY]]


def next_slot(state: LostDaysState, out: list[Event]) -> None:
    """Open the next slot's scene; a story slot with no king is skipped (LD-R31).

    Rule: [Telling the Story]
    """
    while True:
        state.slot += 1
        if state.slot >= len(state.cycle):
            state.cycle, state.slot = build_cycle(state), 0
        seat, kind = state.cycle[state.slot]
        if kind == STORY:
            if state.king is None:
                continue
            seat = state.king
        elif state.elves[seat].mad:
            kind = WRITE_OUT if state.elves[seat].pending_write_out else ADVERSITY
        break
    last = state.slot == len(state.cycle) - 1 or (state.slot == len(state.cycle) - 2 and state.king is None)
    open_scene(state, Scene(seat, kind, last_of_cycle=last), out)


def open_scene(state: LostDaysState, scene: Scene, out: list[Event]) -> None:
    """A scene opens; the market is replenished first when it holds too few memories (LD-R35)."""
    if state.rules.scene_limit and state.scenes_played >= state.rules.scene_limit:
        fall(state, out)
        return
    state.scene = scene
    state.scenes_played += 1
    out.append(Event("scene", f"scene {state.scenes_played}: {scene.kind.lower()} scene of {scene.framer}"))
    if len(state.market()) < state.rules.market_minimum:
        state.theme, state.replenish_left = None, list(state.seats)
        state.phase = REPLENISH
        out.append(Event("replenish", "the market holds fewer than a couple of memories: it is replenished"))
    else:
        state.phase = SCENE


def fall(state: LostDaysState, out: list[Event]) -> None:
    """The scene limit (an option, off by default) is reached: the court falls with no single survivor."""
    state.scene, state.conflict, state.trade = None, None, None
    state.phase = GAME_OVER
    out.append(Event("end", f"the scene limit ({state.rules.scene_limit}) is reached: the Eternal Court falls"))


def close_scene(state: LostDaysState, out: list[Event]) -> None:
    """The scene ends; a new king interrupts, else the cycle goes on [King is Dead; LD-R32]."""
    state.scene = None
    if state.pending_interrupt is not None and state.pending_interrupt == state.king:
        king, state.pending_interrupt = state.pending_interrupt, None
        out.append(Event("interrupt", f"the new king {king} frames a scene at once"))
        open_scene(state, Scene(king, INTERRUPT), out)
        return
    state.pending_interrupt = None
    next_slot(state, out)


def after_step(state: LostDaysState, out: list[Event]) -> None:
    """After a trade or a conflict: a new king interrupts the scene in progress [LD-R32]."""
    if state.phase in (EPILOGUE, GAME_OVER):
        return
    state.phase = SCENE
    if state.pending_interrupt is not None and state.pending_interrupt != state.king:
        state.pending_interrupt = None
    if state.pending_interrupt is not None:
        close_scene(state, out)


# -- replenishing the market (LD-R35) ----------------------------------------------------------
def theme_setter(state: LostDaysState) -> str:
    assert state.scene is not None
    return state.king or state.scene.framer


def pending_replenish(state: LostDaysState) -> tuple[str, ...]:
    if state.theme is None:
        return (theme_setter(state),)
    return tuple(state.replenish_left)


def legal_replenish(state: LostDaysState, seat: str) -> list[Action]:
    if state.theme is None:
        return [listed(seat, "set_replenish_theme", ("theme", THEME_TEXT))]
    return [listed(seat, "write_replenish_memory", ("text", MEMORY_TEXT))]


def check_set_replenish_theme(state: LostDaysState, action: Action) -> None:
    if state.theme is not None or action.seat != theme_setter(state):
        raise refuse("the king records the theme of the new round", "LD-R35", S_REPLENISH)


def play_set_replenish_theme(state: LostDaysState, action: Action, out: list[Event]) -> None:
    state.theme = action.args["theme"]
    out.append(Event("replenish", f"a new round of memories on the theme: {state.theme}"))


def check_write_replenish_memory(state: LostDaysState, action: Action) -> None:
    if state.theme is None or action.seat not in state.replenish_left:
        raise refuse("every player writes one memory for the market", "LD-R35", S_REPLENISH)
    check_memory_text(action.args["text"])


def play_write_replenish_memory(state: LostDaysState, action: Action, out: list[Event]) -> None:
    """Each player writes one memory for a market that ran short.

    Rule: [Replenishing the Market of Memories]
    """
    memory = new_memory(state, action.args["text"], action.seat, "replenished", MARKET)
    state.replenish_left.remove(action.seat)
    out.append(Event("memory", f"{action.seat} writes {memory.id} for the market: {memory.text}"))
    if not state.replenish_left:
        state.phase = SCENE


# -- the scene ---------------------------------------------------------------------------------
def check_framer(state: LostDaysState, action: Action, *, framed: bool) -> None:
    scene = state.scene
    if scene is None or action.seat != scene.framer:
        raise refuse("only the player framing the scene does that", "scenes", S_SCENES)
    if scene.framed != framed:
        word = "not yet been framed" if framed else "already been framed"
        raise refuse(f"the scene has {word}", "scenes", S_SCENES)
    if not framed and (action.type == "write_out") != (scene.kind == WRITE_OUT):
        raise refuse("a mad elf's next scene writes him out of the story", "LD-R29", S_DESCENT)


def check_frame_scene(state: LostDaysState, action: Action) -> None:
    check_framer(state, action, framed=False)


def play_frame_scene(state: LostDaysState, action: Action, out: list[Event]) -> None:
    """The framer describes where and when the scene is set.

    Rule: [Framing Scenes]
    """
    assert state.scene is not None
    state.scene.framed = True
    out.append(Event("frame", f"{action.seat} frames the scene: {action.args['description']}"))


def play_write_out(state: LostDaysState, action: Action, out: list[Event]) -> None:
    """The write-out narration takes the place of framing; the scene holds no conflict [Descent; LD-R29]."""
    assert state.scene is not None
    elf = state.elves[action.seat]
    elf.pending_write_out = False
    state.scene.framed = True
    out.append(Event("write_out", f"{elf.name} is written out of the story: {action.args['narration']}"))


def check_create_memory(state: LostDaysState, action: Action) -> None:
    check_framer(state, action, framed=True)
    if state.purse(action.seat) < 1:
        raise refuse("creating a memory costs a coin from your purse", "LD-R34", S_NEW)
    check_memory_text(action.args["text"])


def play_create_memory(state: LostDaysState, action: Action, out: list[Event]) -> None:
    """The framer writes a new memory into the market, paying one coin from the purse onto it.

    Rule: [Creating New Memories]
    """
    memory = new_memory(state, action.args["text"], action.seat, "created", MARKET)
    move(state, action.seat, memory.id)
    out.append(Event("memory", f"{action.seat} creates {memory.id} for the market (value 1): {memory.text}"))


def check_restart_story(state: LostDaysState, action: Action) -> None:
    check_framer(state, action, framed=False)
    assert state.scene is not None
    if state.scene.kind != INTERRUPT or state.scene.story_restarted:
        raise refuse("only a new king, in his first scene, may close the story and open another", "LD-R32", S_KING_DEAD)


def play_restart_story(state: LostDaysState, action: Action, out: list[Event]) -> None:
    assert state.scene is not None
    state.scene.story_restarted = True
    state.story = action.args["text"]
    out.append(Event("story", f"the new king tells a new story: {state.story}"))


def check_end_scene(state: LostDaysState, action: Action) -> None:
    check_framer(state, action, framed=True)
    assert state.scene is not None
    if action.type == "end_session" and not state.scene.last_of_cycle:
        raise refuse("a session ends after the last scene of a cycle", "LD-R39", S_STORY)


def play_end_scene(state: LostDaysState, action: Action, out: list[Event]) -> None:
    if action.type == "end_session":
        state.scene = None
        state.phase = SESSION
        state.slot = len(state.cycle)
        state.pending_interrupt = None
        out.append(Event("session", f"session {state.session} ends"))
        return
    close_scene(state, out)


def scene_actions(state: LostDaysState, seat: str) -> list[Action]:
    """The framer's own actions in the scene (conflicts are added by :mod:`.conflict`)."""
    scene = state.scene
    assert scene is not None
    if not scene.framed:
        if scene.kind == WRITE_OUT:
            return [listed(seat, "write_out", ("narration", WRITE_OUT_TEXT))]
        out = [listed(seat, "frame_scene", ("description", SCENE_TEXT))]
        if scene.kind == INTERRUPT and not scene.story_restarted:
            out.append(listed(seat, "restart_story", ("text", STORY_TEXT)))
        return out
    out = [listed(seat, "end_scene")]
    if scene.last_of_cycle:
        out.append(listed(seat, "end_session"))
    if state.purse(seat) >= 1:
        out.append(listed(seat, "create_memory", ("text", MEMORY_TEXT)))
    return out


# -- trading and selling (LD-R27, LD-R36) ------------------------------------------------------
def check_sell_memory(state: LostDaysState, action: Action) -> None:
    memory = state.memories.get(action.args["memory"])
    if state.elves[action.seat].mad:
        raise refuse("a mad elf sells nothing", "LD-R29", S_DESCENT)
    if memory is None or memory.owner != action.seat:
        raise refuse("you can sell only a memory you own", "LD-R27", S_SELLING)


def play_sell_memory(state: LostDaysState, action: Action, out: list[Event]) -> None:
    """Value less one to the purse; the card goes to the market with its last coin [Selling; LD-R27].

    Rule: [Selling Memories]; LD-R26
    """
    memory = state.memories[action.args["memory"]]
    value = state.value(memory.id)
    move(state, memory.id, action.seat, max(value - 1, 0))
    to_market(state, memory, out)
    out.append(Event("sell", f"{action.seat} sells {memory.id} to the market for {max(value - 1, 0)}"))
    check_madness(state, out)
    after_step(state, out)


def trade_partners(state: LostDaysState, seat: str) -> list[str]:
    return [s for s in state.seats if s != seat and not state.elves[s].mad]


def has_memories(state: LostDaysState, seat: str) -> bool:
    return any(m.owner == seat for m in state.memories.values())


def check_propose_trade(state: LostDaysState, action: Action) -> None:
    a = action.args
    if state.elves[action.seat].mad:
        raise refuse("a mad elf trades nothing", "LD-R29", S_DESCENT)
    if a["to"] not in trade_partners(state, action.seat):
        raise refuse("you trade with another player whose elf is sane", "LD-R36", S_TRADING)
    for who, coins in ((action.seat, a["give_coins"]), (a["to"], a["get_coins"])):
        if not 0 <= coins <= state.purse(who):
            raise refuse(f"{who} has {state.purse(who)} coins in the purse", "LD-R36", S_TRADING)
    if not a["give_coins"] and not a["get_coins"] and not memories_between(state, action.seat, a["to"]):
        raise refuse("a trade gives or asks for something", "LD-R36", S_TRADING)


def memories_between(state: LostDaysState, seat: str, partner: str) -> bool:
    return has_memories(state, seat) or has_memories(state, partner)


def play_propose_trade(state: LostDaysState, action: Action, out: list[Event]) -> None:
    """A deal is put together step by step: the coins, then each memory offered, then each memory asked for
    (``none`` closes each list); then the partner answers [Trading; LD-R36].

    Rule: [Trading Memories]
    """
    a = action.args
    content = {
        "give_coins": a["give_coins"],
        "get_coins": a["get_coins"],
        "give_memories": [],
        "get_memories": [],
        "step": "offer",
    }
    state.trade = Proposal(action.seat, content, (a["to"],), rule="LD-R36")
    state.phase = TRADE
    out.append(Event("trade", f"{action.seat} offers {a['to']} {a['give_coins']} coins for {a['get_coins']}"))


def legal_trades(state: LostDaysState, seat: str) -> list[Action]:
    """One proposal per partner: coins each way (the memories come next, see :func:`deal_step`)."""
    out = []
    mine = state.purse(seat)
    owners = {m.owner for m in state.memories.values()}
    for partner in trade_partners(state, seat):
        theirs = state.purse(partner)
        if seat in owners or partner in owners:  # memories_between
            out.append(_trade(seat, partner, amounts(0, mine), amounts(0, theirs)))
            continue
        if mine:
            out.append(_trade(seat, partner, amounts(1, mine), amounts(0, theirs)))
        if theirs:
            out.append(_trade(seat, partner, 0, amounts(1, theirs)))
    return out


def _trade(seat: str, to: str, give: int | IntRange, get: int | IntRange) -> Action:
    return listed(seat, "propose_trade", ("to", to), ("give_coins", give), ("get_coins", get))


def deal_step(state: LostDaysState) -> str:
    """``offer`` (the proposer names his memories), ``ask`` (the partner's), or ``answer``."""
    assert state.trade is not None
    return str(state.trade.content["step"])


def deal_options(state: LostDaysState) -> list[str]:
    """The memories the proposer may still offer or ask for; ``none`` (no more) unless the deal would be empty."""
    trade = state.trade
    assert trade is not None
    c, partner = trade.content, trade.voters[0]
    coins = c["give_coins"] or c["get_coins"]
    offered, asked = c["give_memories"], c["get_memories"]
    if deal_step(state) == "offer":
        mine = [m.id for m in state.owned(trade.proposer) if m.id not in offered]
        return ([NONE] if coins or offered or has_memories(state, partner) else []) + mine
    theirs = [m.id for m in state.owned(partner) if m.id not in asked]
    return ([NONE] if coins or offered or asked else []) + theirs


def pending_trade(state: LostDaysState) -> tuple[str, ...]:
    assert state.trade is not None
    return state.trade.waiting() if deal_step(state) == "answer" else (state.trade.proposer,)


def legal_trade(state: LostDaysState, seat: str) -> list[Action]:
    step = deal_step(state)
    if step == "answer":
        return [listed(seat, "accept_trade"), listed(seat, "decline_trade")]
    kind = "offer_memory" if step == "offer" else "ask_memory"
    return [listed(seat, kind, ("memory", m)) for m in deal_options(state)]


def check_deal_memory(state: LostDaysState, action: Action) -> None:
    step = deal_step(state)
    if action.type != f"{step}_memory":
        raise refuse(f"the deal is at its {step} step", "LD-R36", S_TRADING)
    if action.args["memory"] not in deal_options(state):
        raise refuse("offer your own memories and ask for theirs, each once (none: no more)", "LD-R36", S_TRADING)


def play_deal_memory(state: LostDaysState, action: Action, out: list[Event]) -> None:
    trade = state.trade
    assert trade is not None
    memory, offer = action.args["memory"], action.type == "offer_memory"
    verb = "offers" if offer else "asks for"
    if memory == NONE:
        trade.content["step"] = "ask" if offer else "answer"
        out.append(Event("trade", f"{action.seat} {verb} no more memories"))
        return
    trade.content["give_memories" if offer else "get_memories"].append(memory)
    out.append(Event("trade", f"{action.seat} {verb} {memory}"))


def check_answer(state: LostDaysState, action: Action) -> None:
    assert state.trade is not None
    if deal_step(state) != "answer":
        raise refuse("the deal is not complete yet", "LD-R36", S_TRADING)
    state.trade.check_answer(action.seat)


def play_answer(state: LostDaysState, action: Action, out: list[Event]) -> None:
    """The deal is done at once, or not at all; promises bind nobody [Trading; LD-R36]."""
    trade = state.trade
    assert trade is not None
    state.trade = None
    if action.type == "decline_trade":
        out.append(Event("trade", f"{action.seat} declines the deal"))
        after_step(state, out)
        return
    c, giver, taker = trade.content, trade.proposer, action.seat
    move(state, giver, taker, c["give_coins"])
    move(state, taker, giver, c["get_coins"])
    for memory_id in c["give_memories"]:
        give_memory(state, state.memories[memory_id], taker, out)
    for memory_id in c["get_memories"]:
        give_memory(state, state.memories[memory_id], giver, out)
    out.append(Event("trade", f"{taker} accepts the deal of {giver}"))
    check_madness(state, out)
    after_step(state, out)


def may_deal(state: LostDaysState, seat: str) -> bool:
    """Whether ``seat`` has any sale or trade open to it (without listing them)."""
    if state.elves[seat].mad:
        return False
    sane = state.sane()
    if len(sane) < 2:
        return False
    # only sane elves own memories: any owned memory, or any coin in a sane purse, makes a deal possible
    if any(state.coins[p] for p in sane):
        return True
    owners = {m.owner for m in state.memories.values()}
    owners.discard(None)
    return bool(owners)


def any_time_actions(state: LostDaysState, seat: str, kind: str | None = None) -> list[Action]:
    """Selling and trading, open to every sane player outside conflicts (LD-R27, LD-R36).

    ``kind`` limits the list to one action type (what ``check`` needs).
    """
    if state.elves[seat].mad:
        return []
    out: list[Action] = []
    if kind in (None, "sell_memory"):
        out.extend(listed(seat, "sell_memory", ("memory", m.id)) for m in state.owned(seat))
    if kind in (None, "propose_trade"):
        out.extend(legal_trades(state, seat))
    return out


# -- the end -----------------------------------------------------------------------------------
def check_epilogue(state: LostDaysState, action: Action) -> None:
    if action.seat != state.survivor:
        raise refuse("the remaining player narrates the epilogue", "LD-R38", S_ENDING)


def play_epilogue(state: LostDaysState, action: Action, out: list[Event]) -> None:
    if action.type == "narrate_epilogue":
        state.epilogue = action.args["text"]
        out.append(Event("epilogue", f"epilogue: {state.epilogue}"))
    state.phase = GAME_OVER
