"""The public vocabulary: every action type of Lost Days and the shape of its parameters.

Names follow the spec (``shared/rules/lost-days.md``); where this implementation had to split a
list parameter into one action per coin (``pay_tribute``, ``place_tribute``, ``take_gain``,
``take_strain``) or add an action (``decline_gain``, ``decline_epilogue``, ``end_session`` at the
end of a cycle), or turn a trade's ``give``/``get`` lists into ``offer_memory``/``ask_memory`` steps,
``docs/rules/lost-days.md`` says so.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...core import Action, IllegalAction, IntRange, MalformedAction

TEXT, INT, BOOL, WORD = "text", "int", "bool", "word"

_NARRATED = {"narration": TEXT}
PARAMS: dict[str, tuple[dict[str, str], ...]] = {
    # memory creation [Creating Memories, Kingship]
    "write_memory": ({"text": TEXT, "kingship": BOOL},),
    "select_memory": ({"memory": WORD},),
    "place_bid": ({"amount": INT},),
    "raise_bid": ({"amount": INT},),
    "decline_raise": ({},),
    "kingship_raise": ({"coins": INT},),
    "kingship_concede": ({},),
    "kingship_pass": ({},),
    # sessions and scenes [Telling the Story, Framing Scenes, Market]
    "start_session": ({"opening": TEXT},),
    "end_session": ({},),
    "set_replenish_theme": ({"theme": TEXT},),
    "write_replenish_memory": ({"text": TEXT},),
    "frame_scene": ({"description": TEXT},),
    "write_out": (_NARRATED,),
    "create_memory": ({"text": TEXT},),
    "restart_story": ({"text": TEXT},),
    "end_scene": ({},),
    "sell_memory": ({"memory": WORD},),
    "propose_trade": ({"to": WORD, "give_coins": INT, "get_coins": INT},),
    "offer_memory": ({"memory": WORD},),
    "ask_memory": ({"memory": WORD},),
    "accept_trade": ({},),
    "decline_trade": ({},),
    # conflicts [Setting up, Resolution, Influencing, Tribute, Strain and Gain]
    "frame_conflict": ({"side_a": WORD, "side_b": WORD, "stakes": TEXT, "staked_memory": WORD},),
    "agree_stakes": ({},),
    "withdraw_conflict": ({},),
    "narrate_memory": ({"memory": WORD, "narration": TEXT},),
    "approve_memory": ({},),
    "veto_memory": ({},),
    "bring_staked_memory": (_NARRATED,),
    "done_narrating": ({},),
    "influence": (
        {"pay_with": WORD, "effect": WORD, "side": WORD, "die": INT, "narration": TEXT},
        {"pay_with": WORD, "effect": WORD, "side": WORD, "narration": TEXT},
    ),
    "end_influence_turn": ({},),
    "narrate_outcome": ({"text": TEXT},),
    "pay_tribute": ({"source": WORD},),
    "pay_tribute_memory": ({"memory": WORD},),
    "place_tribute": ({"dest": WORD},),
    "narrate_tribute": ({"text": TEXT},),
    "take_gain": ({"dest": WORD, "narration": TEXT},),
    "decline_gain": ({},),
    "take_strain": ({"source": WORD, "narration": TEXT},),
    # the end [Ending]
    "narrate_epilogue": ({"text": TEXT},),
    "decline_epilogue": ({},),
}

CHANCE_TYPES = ("roll_off", "roll_conflict", "reroll_die", "extra_die")
NONE = "none"
"""The word for "no memory" in ``staked_memory``, ``offer_memory`` and ``ask_memory``."""


def _kind_ok(kind: str, value: Any) -> bool:
    if kind == INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == BOOL:
        return isinstance(value, bool)
    return isinstance(value, str)


def check_shape(action: Action) -> None:
    """Refuse unknown types, missing or extra parameters and values of the wrong kind."""
    shapes = PARAMS.get(action.type)
    if shapes is None:
        raise MalformedAction(f"Lost Days has no action {action.type!r}", rule="vocabulary")
    given = set(action.args)
    for shape in shapes:
        if set(shape) == given:
            break
    else:
        wanted = " or ".join("(" + ", ".join(s) + ")" for s in shapes)
        raise MalformedAction(
            f"{action.type} takes the parameters {wanted}, not ({', '.join(sorted(given))})", rule="vocabulary"
        )
    for name, kind in shape.items():
        value = action.args[name]
        if not _kind_ok(kind, value):
            raise MalformedAction(f"{action.type}: {name} must be {kind}, not {value!r}", rule="vocabulary")
        if kind == TEXT and not value.strip():
            raise IllegalAction(f"{action.type}: {name} must say something", rule="narration")


def refuse(reason: str, rule: str, section: str) -> IllegalAction:
    """An :class:`IllegalAction` naming the ruling and the rulebook heading."""
    return IllegalAction(reason, rule=rule, section=section)


_LISTED: dict[tuple[Any, ...], Action] = {}
_LISTED_MAX = 50_000


def listed(seat: str, kind: str, *params: tuple[str, Any]) -> Action:
    """The legal-action template ``seat kind params``, made once and listed again after.

    Actions are immutable values, and the legal actions are listed at every decision: making each
    template once (a bounded table) keeps listing cheap. ``params`` are ``(name, value)`` pairs.
    """
    key = (seat, kind, params)
    action = _LISTED.get(key)
    if action is None:
        if len(_LISTED) >= _LISTED_MAX:
            _LISTED.clear()
        action = _LISTED[key] = Action(seat, kind, dict(params))
    return action


@lru_cache(maxsize=1024)
def amounts(lo: int, hi: int) -> IntRange:
    """The declaration of an amount ``lo..hi`` (made once per range)."""
    return IntRange(lo, hi)
