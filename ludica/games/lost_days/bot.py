"""Lost Days' heuristic: stay sane, gain memories, take the throne.

The last sane elf wins ("Ending"); an elf descends when the madness coins on his card exceed the
coins on his memory cards, the purse not counted ("Descent"). So coins belong on memories, strain
is paid from the purse, and memories are worth fighting for — above all the Memory of Kingship
("The King"). The bot plays from its seat's view only:

* **Creation**: it writes its kingship candidate, selects the Memory of Kingship when it may, and
  bids a good share of its purse (bids become coins on the memory, which keep it sane). Tied, it
  raises to one coin over half its purse, never for a Memory of Kingship; in a kingship tie it
  raises from a spare purse (with its last coins, on a coin toss), else passes while tied and
  concedes once outbid.
* **Scenes**: as framer it frames one conflict: against the holder of the Memory of Kingship,
  staking it, when another elf holds it; else against the opposition, staking the most valuable
  memory on the market; with nothing on the market worth a conflict it creates a memory from a
  spare purse and fights the opposition for it; then ends the scene (and the session, after a
  few cycles). A new king tells a new story. Once a conflict it framed is withdrawn (LD-R42), it
  frames none again in that scene. It sells a memory only when it pays: just before a conflict
  over a memory worth more, with too few coins to buy an extra die (coins spent go onto the
  memory at stake, so they come back if it wins), a spare memory, far from madness without it.
  When it must act in another's scene it offers a coin for a coin, which costs neither side
  anything; it declines every trade offered to it that costs it more than it brings.
* **Conflicts**: it agrees to stakes, narrates its memories (dice; against the opposition over a
  memory worth a coin, only enough to lead by two dice), approves the other side's, and buys an
  extra die while its side trails (from a spare purse, else with the opposing character's
  madness).
* **After a conflict**: gain goes onto its memories, strain comes from the purse first, tribute
  from the purse unless a memory costs less (one worth nothing, less than the memory coins the
  tribute would take, or two less than the tribute), received tribute onto its memories.

Texts are short sentences from the view ("I remember …" memories begin with those words).
Rulebook: "Creating Characters", "The Memory of Kingship", "Conflict", "Tribute", "Strain and
Gain", "Madness", "Descent", "Creating New Memories", "Selling Memories", "Ending".
"""

from __future__ import annotations

import random
from typing import Any, Final

from ...bots.base import Decision, Situation
from ...bots.text import fill_text
from ...core.actions import Action, IntRange

SEARCH_DEFAULTS: Final = {"rivals": "policy"}
"""The ``ismcts`` bot's default level here searches only its own moves, the other seats playing as
this heuristic would. Searched in the tree, the partner of a trade accepted, in some futures, a
deal this heuristic always refuses (a memory asked for nothing): the searching elf, framing a
scene, then offered such deals again and again instead of ending it, and one game ran past 2,000
steps (docs/bots-mechanics.md)."""

_CREATE_PURSE = 2
"""The purse from which a coin may go onto a new memory (at least one coin is kept for influence)."""
_SALE_MARGIN = 6
"""Memory coins over madness the bot keeps after a sale (a sale never brings it near madness)."""
_PUSH_PURSE = 3
"""The purse from which the bot buys an extra die for its side while it trails."""
_SESSION_CYCLES = 3
"""Cycles of scenes a session lasts before the last scene's framer closes it."""


def _player(view: dict[str, Any], seat: str) -> dict[str, Any]:
    return next((p for p in view.get("players", []) if p.get("seat") == seat), {})


def _memories(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["id"]: m for m in view.get("memories", [])}


def _value(view: dict[str, Any], memory: Any) -> int:
    return int(_memories(view).get(str(memory), {}).get("value", 0))


def _texts(situation: Situation, action: Action) -> dict[str, str]:
    view, seat = situation.view, situation.seat
    me = _player(view, seat)
    name = me.get("name", seat)
    king = _player(view, str(view.get("king") or "")).get("name", "no king")
    theme = view.get("theme") or "the Eternal Court"
    args = action.args
    memory = _memories(view).get(str(args.get("memory") or args.get("staked_memory") or ""), {})
    recalled = str(memory.get("text", "I remember the court")).removeprefix("I remember").strip()
    texts = {
        "write_memory": {"text": f"I remember {name} kneeling before the throne of the Eternal Court"},
        "write_replenish_memory": {"text": f"I remember {theme} before the long forgetting"},
        "create_memory": {"text": f"I remember {name} laughing in the court of {king}"},
        "start_session": {"opening": f"The Eternal Court gathers; {king} watches from the throne."},
        "set_replenish_theme": {"theme": "the days before the forgetting"},
        "frame_scene": {"description": f"{name} walks the halls of the Court, looking for what was lost."},
        "write_out": {"narration": f"{name} wanders the Court, speaking to no one."},
        "restart_story": {"text": f"Under {king}, the story begins again."},
        "frame_conflict": {"stakes": f"Who keeps the memory: {recalled or 'the old days'}."},
        "narrate_memory": {"narration": f"{name} remembers {recalled or 'the court'}, and it gives strength."},
        "bring_staked_memory": {"narration": f"{name} holds on to {recalled or 'what is at stake'}."},
        "influence": {"narration": f"{name} whispers and the dice turn."},
        "narrate_outcome": {"text": f"The conflict ends; {name} tells how it fell out."},
        "narrate_tribute": {"text": "The tribute is paid in old coin and older grudges."},
        "take_gain": {"narration": f"{name} is steadied by the victory."},
        "take_strain": {"narration": f"{name}'s hands shake; the memory slips."},
        "narrate_epilogue": {"text": f"{name} alone remains sane as the Eternal Court falls silent."},
    }
    return texts.get(action.type, {})


def _frame(view: dict[str, Any], seat: str, frames: list[Action], rng: random.Random) -> Action | None:
    mems = _memories(view)
    mok = next((m for m in mems.values() if m.get("is_mok")), None)
    if mok and mok.get("owner") not in (None, seat):
        steal = [a for a in frames if a.args.get("staked_memory") == mok["id"]]
        if steal:
            return steal[0]
    market = [a for a in frames if mems.get(str(a.args.get("staked_memory")), {}).get("place") == "market"]
    worth = [a for a in market if _value(view, a.args.get("staked_memory")) >= 1]
    opposition = [a for a in worth if a.args.get("side_b") == "opposition"]
    pool = opposition or worth
    if pool:
        return max(pool, key=lambda a: (_value(view, a.args.get("staked_memory")), rng.random()))
    return None


def _covers(amount: Any, n: int) -> bool:
    return amount.lo <= n <= amount.hi if isinstance(amount, IntRange) else amount == n


def _harmless_trade(view: dict[str, Any], seat: str, trades: list[Action]) -> Action:
    """A coin for a coin, a token of good faith (a bystander must act in another's scene): a trade
    that costs neither side anything, so a partner who weighs it has no reason to refuse it; with
    no coin to swap, a memory worth nothing (and not tainted) asked for or given for nothing. Only
    when none of these is possible does it ask for a coin and offer none."""

    def richness(a: Action) -> int:
        return int(_player(view, str(a.args.get("to"))).get("purse", 0))

    swaps = [a for a in trades if _covers(a.args.get("give_coins"), 1) and _covers(a.args.get("get_coins"), 1)]
    if swaps:
        return fill_text(max(swaps, key=richness), {}, {"give_coins": 1, "get_coins": 1})
    worthless = _worthless_owners(view)
    empty = [a for a in trades if _covers(a.args.get("give_coins"), 0) and _covers(a.args.get("get_coins"), 0)]
    asked = [a for a in empty if a.args.get("to") in worthless]
    if asked or (empty and seat in worthless):  # a memory worth nothing (no madness with it) for nothing
        return fill_text((asked or empty)[0], {}, {"give_coins": 0, "get_coins": 0})
    best = max(trades, key=richness)
    give = 0 if _covers(best.args.get("give_coins"), 0) else 1
    get = 1 if _covers(best.args.get("get_coins"), 1) else 0
    return fill_text(best, {}, {"give_coins": give, "get_coins": get})


def _worthless_owners(view: dict[str, Any]) -> set[str]:
    """The seats owning a memory worth nothing that brings no madness with it (LD-R26, LD-R30)."""
    return {str(m.get("owner")) for m in view.get("memories", []) if m.get("owner") and _worthless(m)}


def _worthless(memory: dict[str, Any]) -> bool:
    return not memory.get("value") and not memory.get("tainted") and not memory.get("is_mok")


def _trade_step(view: dict[str, Any], seat: str, options: list[Action], param: str) -> Action:
    none = [a for a in options if a.args.get(param) == "none"]
    deal = view.get("trade") or {}
    content = deal.get("content") or {}
    partner = next(iter(deal.get("voters") or []), None)
    if (
        options[0].type == "offer_memory"
        and not content.get("give_coins")
        and not content.get("get_coins")
        and not content.get("give_memories")
        and partner not in _worthless_owners(view)
    ):
        mems = _memories(view)
        gift = [a for a in options if _worthless(mems.get(str(a.args.get(param)), {"value": 1}))]
        if gift:  # a deal with no coins: its memory worth nothing, since the partner has none to ask for
            return gift[0]
    if none:
        return none[0]
    mems = _memories(view)
    return min(
        options,
        key=lambda a: (_value(view, a.args.get(param)), bool(mems.get(str(a.args.get(param)), {}).get("tainted"))),
    )


def _worth(view: dict[str, Any], coins: Any, memories: Any) -> int:
    """Coins and the memories' values of one side of a trade."""
    total = int(coins) if isinstance(coins, int) else 0
    if isinstance(memories, list):
        total += sum(_value(view, m) for m in memories)
    elif memories not in (None, "none"):
        total += _value(view, memories)
    return total


def _answer_trade(view: dict[str, Any], seat: str, by_type: dict[str, list[Action]]) -> Action:
    content = ((view.get("trade") or {}).get("content")) or {}
    received = _worth(view, content.get("give_coins"), content.get("give_memories"))
    mems = _memories(view)
    received -= sum(1 for m in content.get("give_memories") or [] if mems.get(str(m), {}).get("tainted"))  # LD-R30
    paid = _worth(view, content.get("get_coins"), content.get("get_memories"))
    if received >= paid and "accept_trade" in by_type and int(_player(view, seat).get("purse", 0)) >= paid:
        return by_type["accept_trade"][0]  # a trade that costs the bot no more than it brings
    return by_type["decline_trade"][0]


def _pick(situation: Situation, rng: random.Random) -> Action:
    view, seat, legal = situation.view, situation.seat, situation.legal
    me = _player(view, seat)
    purse = int(me.get("purse", 0))
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action.type, []).append(action)
    first = by_type.get
    if "write_memory" in by_type:
        want_king = not me.get("mok_written", False)
        return next((a for a in by_type["write_memory"] if a.args.get("kingship") is want_king), legal[0])
    if "select_memory" in by_type:
        mems = _memories(view)
        return max(
            by_type["select_memory"],
            key=lambda a: (bool(mems.get(str(a.args["memory"]), {}).get("kingship")), rng.random()),
        )
    if "place_bid" in by_type:
        return fill_text(by_type["place_bid"][0], {}, {"amount": max(1, purse // 2)})
    if "raise_bid" in by_type:
        return _raise(view, purse, by_type["raise_bid"][0]) or by_type["decline_raise"][0]
    if "decline_raise" in by_type:
        return by_type["decline_raise"][0]
    if "kingship_raise" in by_type:
        coins = by_type["kingship_raise"][0].args.get("coins")
        # from a spare purse; with only its last coins, a coin toss (a rival in the same place may raise too)
        if isinstance(coins, IntRange) and (coins.lo <= purse // 2 or rng.random() < 0.5):
            return fill_text(by_type["kingship_raise"][0], {}, {"coins": coins.lo})
    if "kingship_concede" in by_type and _outbid(view, seat):
        return by_type["kingship_concede"][0]  # it will not raise past the top: the contest is lost, so say so
    if "influence" in by_type:
        push = _influence(view, seat, purse, by_type["influence"])
        if push is not None:
            return push
    for kind in ("kingship_pass", "kingship_concede", "agree_stakes", "approve_memory", "end_influence_turn"):
        if kind in by_type:
            return by_type[kind][0]
    if "restart_story" in by_type:
        return by_type["restart_story"][0]  # a new king tells his own story (LD-R32)
    for kind in ("start_session", "set_replenish_theme", "write_replenish_memory", "write_out", "frame_scene"):
        if kind in by_type:
            return by_type[kind][0]
    scene = view.get("scene") or {}
    if "frame_conflict" in by_type and not scene.get("withdrawals"):
        frame = _frame(view, seat, by_type["frame_conflict"], rng)
        if frame is not None:
            sale = _sale(view, seat, purse, by_type.get("sell_memory", []), frame)
            return sale or frame
        if "create_memory" in by_type and _worth_creating(view, seat, purse):
            return by_type["create_memory"][0]  # a coin onto a new memory it then fights the opposition for
    if "end_scene" in by_type or "end_session" in by_type:
        if "end_session" in by_type and _session_done(view):
            return by_type["end_session"][0]
        return (first("end_scene") or first("end_session") or legal)[0]
    if "bring_staked_memory" in by_type:
        return by_type["bring_staked_memory"][0]
    if "narrate_memory" in by_type:
        conflict = view.get("conflict") or {}
        narrated = sum(len(v) for v in (conflict.get("narrated") or {}).values())
        if narrated < 4 and not _enough_dice(view, seat, conflict):
            return max(by_type["narrate_memory"], key=lambda a: _value(view, a.args.get("memory")))
    if "done_narrating" in by_type:
        return by_type["done_narrating"][0]
    if "pay_tribute_memory" in by_type:
        instead = _tribute_in_lieu(view, seat, purse, by_type["pay_tribute_memory"])
        if instead is not None:
            return instead
    if "pay_tribute" in by_type:
        from_purse = [a for a in by_type["pay_tribute"] if a.args.get("source") == "purse"]
        return (
            from_purse[0]
            if from_purse
            else min(by_type["pay_tribute"], key=lambda a: _value(view, a.args.get("source")))
        )
    if "place_tribute" in by_type:
        return _onto_memory(view, by_type["place_tribute"], "dest")
    if "take_strain" in by_type:
        strain = by_type["take_strain"]
        from_purse = [a for a in strain if a.args.get("source") == "purse"]
        return from_purse[0] if from_purse else max(strain, key=lambda a: _value(view, a.args.get("source")))
    if "take_gain" in by_type:
        return _onto_memory(view, by_type["take_gain"], "dest")
    if "accept_trade" in by_type or "decline_trade" in by_type:
        return _answer_trade(view, seat, by_type)
    if "offer_memory" in by_type:
        return _trade_step(view, seat, by_type["offer_memory"], "memory")
    if "ask_memory" in by_type:
        return _trade_step(view, seat, by_type["ask_memory"], "memory")
    for kind in ("narrate_outcome", "narrate_tribute", "narrate_epilogue"):
        if kind in by_type:
            return by_type[kind][0]
    if "propose_trade" in by_type:
        return _harmless_trade(view, seat, by_type["propose_trade"])
    quiet = [a for a in legal if a.type not in ("sell_memory", "veto_memory", "withdraw_conflict", "decline_gain")]
    return rng.choice(quiet or legal)


def _raise(view: dict[str, Any], purse: int, action: Action) -> Action | None:
    """A tied bid raised by one coin while it costs at most one coin over half the purse: coins bid
    go onto the memory won, where they keep the elf sane, so a raise costs only the purse kept for
    influence and for the rounds to come. Never for a Memory of Kingship: its owner is every
    rival's first target (they frame conflicts to steal it), and winning one by a raise measured
    weaker; a tie nobody breaks is auctioned again or rolled off (LD-R3, LD-R6)."""
    amount = action.args.get("amount")
    lot = _memories(view).get(str((view.get("auction") or {}).get("lot")), {})
    if not isinstance(amount, IntRange) or lot.get("kingship"):
        return None
    return fill_text(action, {}, {"amount": amount.lo}) if amount.lo <= purse // 2 + 1 else None


def _outbid(view: dict[str, Any], seat: str) -> bool:
    """Whether another owner's Memory of Kingship is worth more than the bot's in a kingship tie."""
    tie = view.get("king_tie") or {}
    candidate = tie.get("candidate") or {}
    mine = _value(view, candidate.get(seat))
    return any(_value(view, m) > mine for s, m in candidate.items() if s != seat and s in tie.get("owners", []))


def _worth_creating(view: dict[str, Any], seat: str, purse: int) -> bool:
    """A new memory (a purse coin onto it) is worth creating when nothing on the market is worth a
    conflict: the bot then fights the opposition, which rolls one die, for it [Creating New Memories].
    Only from a spare purse and with a margin of sanity the dice of that conflict cannot take."""
    me = _player(view, seat)
    if me.get("mad") or purse < _CREATE_PURSE:
        return False
    return int(me.get("memory_coins", 0)) - int(me.get("madness", 0)) >= 3


def _session_done(view: dict[str, Any]) -> bool:
    """A session lasts about :data:`_SESSION_CYCLES` cycles of scenes (the state carries over, LD-R39)."""
    cycle = len(view.get("players", [])) + 1
    return int(view.get("scenes_played", 0)) >= _SESSION_CYCLES * cycle * int(view.get("session", 1))


def _tribute_in_lieu(view: dict[str, Any], seat: str, purse: int, options: list[Action]) -> Action | None:
    """A memory given in lieu of the whole tribute when it costs less than the coins would: a
    memory worth nothing, or one worth less than the memory coins the tribute would take once the
    purse is spent, or far less than the tribute [Tribute]. Never the Memory of Kingship."""
    owed = int((view.get("conflict") or {}).get("owed") or 0)
    mems = _memories(view)
    cheap = [a for a in options if not mems.get(str(a.args.get("memory")), {}).get("is_mok")]
    if not cheap or owed < 1:
        return None
    best = min(cheap, key=lambda a: (_value(view, a.args.get("memory")), str(a.args.get("memory"))))
    value = _value(view, best.args.get("memory"))
    if value == 0 or value < owed - purse or value + 2 <= owed:
        return best
    return None


def _sale(view: dict[str, Any], seat: str, purse: int, options: list[Action], frame: Action) -> Action | None:
    """A memory sold to the Market (value less one to the purse [Selling Memories]) only when it
    pays: just before a conflict over a memory worth more than the one sold (or over the Memory of
    Kingship), with too few coins in the purse to buy an extra die while trailing. Coins spent on
    influence go onto the memory at stake [Staking Memories], so the coins come back onto a memory
    if the bot wins it. Never the Memory of Kingship, nor the bot's best memory, and only while the
    bot stays far from madness without it (:data:`_SALE_MARGIN`)."""
    if purse >= _PUSH_PURSE or not options:
        return None
    me = _player(view, seat)
    mems = _memories(view)
    stake = mems.get(str(frame.args.get("staked_memory")), {})
    owned = [mems[m] for m in me.get("memories", []) if m in mems]
    if not stake or len(owned) < 3:
        return None
    top = max(int(m.get("value", 0)) for m in owned)
    worth = 99 if stake.get("is_mok") else int(stake.get("value", 0))
    margin = int(me.get("memory_coins", 0)) - int(me.get("madness", 0))
    spare = [
        a
        for a in options
        if not mems.get(str(a.args.get("memory")), {}).get("is_mok")
        and a.args.get("memory") != stake.get("id")
        and purse + _value(view, a.args.get("memory")) - 1 >= _PUSH_PURSE
        and _value(view, a.args.get("memory")) < min(top, worth)
        and margin - _value(view, a.args.get("memory")) >= _SALE_MARGIN
    ]
    return min(spare, key=lambda a: (_value(view, a.args.get("memory")), str(a.args.get("memory")))) if spare else None


def _enough_dice(view: dict[str, Any], seat: str, conflict: dict[str, Any]) -> bool:
    """Against the opposition over a memory worth at most a coin (one it created, say), dice beyond
    the opposition's by two only risk strain (each 1 turns a memory coin into madness)."""
    staked = conflict.get("staked")
    if not conflict.get("opposition") or conflict.get("side_a") != seat or staked is None:
        return False
    worth = _value(view, staked)
    if worth > 1:
        return False
    mine = sum(_value(view, m) for m in (conflict.get("narrated") or {}).get("a", []))
    return mine >= worth + 2


def _influence(view: dict[str, Any], seat: str, purse: int, options: list[Action]) -> Action | None:
    """An extra die for its own side while it trails, paid from a spare purse or, when it must,
    with the opposing character's madness ("Influence"); nothing when it leads or has no side."""
    conflict = view.get("conflict") or {}
    side = "a" if conflict.get("side_a") == seat else "b" if conflict.get("controller_b") == seat else None
    leading = (conflict.get("leading") or {}).get("side")
    if side is None or leading == side:
        return None
    extra = [a for a in options if a.args.get("effect") == "extra_die" and a.args.get("side") == side]
    from_purse = [a for a in extra if a.args.get("pay_with") == "purse"]
    if from_purse and purse >= _PUSH_PURSE:
        return from_purse[0]
    theirs = [a for a in extra if a.args.get("pay_with") in ("opponent_madness", "own_madness")]
    if theirs:
        return theirs[0]
    rerolls = [
        a
        for a in options
        if a.args.get("effect") == "reroll" and a.args.get("side") == side and a.args.get("pay_with") == "purse"
    ]
    return rerolls[0] if rerolls and purse >= 2 else None


def _onto_memory(view: dict[str, Any], options: list[Action], param: str) -> Action:
    """Coins onto the bot's most valuable memory (memory coins keep an elf sane)."""
    onto = [a for a in options if a.args.get(param) != "purse"]
    if not onto:
        return options[0]
    return max(onto, key=lambda a: _value(view, a.args.get(param)))


def decide(situation: Situation, rng: random.Random) -> Decision:
    """The heuristic's decision for ``situation`` (its seat's view and legal actions only)."""
    action = _pick(situation, rng)
    if action.is_template:
        action = fill_text(action, _texts(situation, action))
    narration = ""
    if action.type == "frame_conflict":
        narration = str(action.args.get("stakes", ""))
    return Decision(action, narration)
