"""Lost Days' heuristic: stay sane, gain memories, take the throne.

The last sane elf wins ("Ending"); an elf descends when the madness coins on his card exceed the
coins on his memory cards, the purse not counted ("Descent"). So coins belong on memories, strain
is paid from the purse, and memories are worth fighting for — above all the Memory of Kingship
("The King"). The bot plays from its seat's view only:

* **Creation**: it writes its kingship candidate, selects the Memory of Kingship when it may, and
  bids a good share of its purse (bids become coins on the memory, which keep it sane).
* **Scenes**: as framer it frames one conflict: against the holder of the Memory of Kingship,
  staking it, when another elf holds it; else against the opposition, staking the most valuable
  memory on the market; then ends the scene. It never sells a memory; when it must act in
  another's scene it proposes a harmless trade (asking, giving nothing) that it would not accept
  itself, and it declines every trade offered to it unless it only gains.
* **Conflicts**: it agrees to stakes, narrates its memories (dice), approves the other side's,
  and buys an extra die while its side trails (from a spare purse, else with the opposing
  character's madness).
* **After a conflict**: gain goes onto its memories, strain comes from the purse first, tribute
  from the purse, received tribute onto its memories.

Texts are short sentences from the view ("I remember …" memories begin with those words).
Rulebook: "Creating Characters", "The Memory of Kingship", "Conflict", "Tribute", "Strain and
Gain", "Madness", "Descent", "Ending".
"""

from __future__ import annotations

import random
from typing import Any

from ...bots.base import Decision, Situation
from ...bots.text import fill_text
from ...core.actions import Action, IntRange

_CREATE_PURSE = 99
_GIVE = 0
"""(create_memory off: it weakened the bot)"""


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


def _harmless_trade(view: dict[str, Any], seat: str, trades: list[Action]) -> Action:
    """A coin for a coin, a token of good faith (a bystander must act in another's scene): a trade
    the other side may accept, at no cost to either."""

    def richness(a: Action) -> int:
        return int(_player(view, str(a.args.get("to"))).get("purse", 0))

    best = max(trades, key=richness)
    return fill_text(best, {}, {"give_coins": _GIVE, "get_coins": 1})


def _trade_step(view: dict[str, Any], seat: str, options: list[Action], param: str) -> Action:
    none = [a for a in options if a.args.get(param) == "none"]
    if none:
        return none[0]
    if options[0].type == "ask_memory":
        return min(options, key=lambda a: _value(view, a.args.get(param)))
    return min(options, key=lambda a: _value(view, a.args.get(param)))


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
        raise_to = by_type["raise_bid"][0].args["amount"]
        if isinstance(raise_to, IntRange) and raise_to.lo <= max(2, purse // 2):
            return fill_text(by_type["raise_bid"][0], {}, {"amount": raise_to.lo})
        return by_type["decline_raise"][0]
    if "kingship_raise" in by_type:
        coins = by_type["kingship_raise"][0].args.get("coins")
        if isinstance(coins, IntRange) and coins.lo <= max(1, purse // 2):
            return fill_text(by_type["kingship_raise"][0], {}, {"coins": coins.lo})
    if "influence" in by_type:
        push = _influence(view, seat, purse, by_type["influence"])
        if push is not None:
            return push
    for kind in ("kingship_pass", "kingship_concede", "agree_stakes", "approve_memory", "end_influence_turn"):
        if kind in by_type:
            return by_type[kind][0]
    for kind in ("start_session", "set_replenish_theme", "write_replenish_memory", "write_out", "frame_scene"):
        if kind in by_type:
            return by_type[kind][0]
    if "frame_conflict" in by_type:
        frame = _frame(view, seat, by_type["frame_conflict"], rng)
        if frame is not None:
            return frame
    if "end_scene" in by_type or "end_session" in by_type:
        return (first("end_scene") or first("end_session") or legal)[0]
    if "bring_staked_memory" in by_type:
        return by_type["bring_staked_memory"][0]
    if "narrate_memory" in by_type:
        conflict = view.get("conflict") or {}
        narrated = sum(len(v) for v in (conflict.get("narrated") or {}).values())
        if narrated < 4:
            return max(by_type["narrate_memory"], key=lambda a: _value(view, a.args.get("memory")))
    if "done_narrating" in by_type:
        return by_type["done_narrating"][0]
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
    if "create_memory" in by_type and purse >= _CREATE_PURSE:
        return by_type["create_memory"][0]  # a purse coin onto a new memory: it now counts for sanity
    if "propose_trade" in by_type:
        return _harmless_trade(view, seat, by_type["propose_trade"])
    quiet = [a for a in legal if a.type not in ("sell_memory", "veto_memory", "withdraw_conflict", "decline_gain")]
    return rng.choice(quiet or legal)


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
    if from_purse and purse >= 3:
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
