"""Lost Days' action catalogue (actions from ``ludica.games.lost_days.vocabulary.PARAMS``).

Caps: memory ids ``m1..m150``, coin amounts ``0..60`` (the bank is unlimited: larger amounts
stay legal in the game but the environment does not offer them), die positions ``0..39``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.game import Config, Game
from ...games.lost_days.state import BANK
from ...games.lost_days.vocabulary import NONE
from ..encoding import FREE, Shape, ids, shape

MEMORIES = 150
COINS = 60
DICE = 40
PAY_WITH = ("purse", "own_madness", "opponent_madness")


def shapes(game: Game[Any], config: Config, seats: Sequence[str]) -> list[Shape]:
    mems = ids("m", MEMORIES)
    coins = range(0, COINS + 1)
    sides_b = (*seats, "opposition")
    return [
        shape("write_memory", text=FREE, kingship=(False, True)),
        shape("select_memory", memory=mems),
        shape("place_bid", amount=coins),
        shape("raise_bid", amount=coins),
        shape("decline_raise"),
        shape("kingship_raise", coins=coins),
        shape("kingship_concede"),
        shape("kingship_pass"),
        shape("start_session", opening=FREE),
        shape("end_session"),
        shape("set_replenish_theme", theme=FREE),
        shape("write_replenish_memory", text=FREE),
        shape("frame_scene", description=FREE),
        shape("write_out", narration=FREE),
        shape("create_memory", text=FREE),
        shape("restart_story", text=FREE),
        shape("end_scene"),
        shape("sell_memory", memory=mems),
        shape("propose_trade", to=tuple(seats), give_coins=coins, get_coins=coins),
        shape("offer_memory", memory=(*mems, NONE)),
        shape("ask_memory", memory=(*mems, NONE)),
        shape("accept_trade"),
        shape("decline_trade"),
        shape("frame_conflict", side_a=tuple(seats), side_b=sides_b, stakes=FREE, staked_memory=(*mems, NONE)),
        shape("agree_stakes"),
        shape("withdraw_conflict"),
        shape("narrate_memory", memory=mems, narration=FREE),
        shape("approve_memory"),
        shape("veto_memory"),
        shape("bring_staked_memory", narration=FREE),
        shape("done_narrating"),
        shape("influence", pay_with=PAY_WITH, effect=("reroll",), side=("a", "b"), die=range(DICE), narration=FREE),
        shape("influence", pay_with=PAY_WITH, effect=("extra_die",), side=("a", "b"), narration=FREE),
        shape("end_influence_turn"),
        shape("narrate_outcome", text=FREE),
        shape("pay_tribute", source=("purse", *mems)),
        shape("pay_tribute_memory", memory=mems),
        shape("place_tribute", dest=("purse", *mems)),
        shape("narrate_tribute", text=FREE),
        shape("take_gain", dest=("purse", *mems), narration=FREE),
        shape("decline_gain"),
        shape("take_strain", source=(BANK, "purse", *mems), narration=FREE),
        shape("narrate_epilogue", text=FREE),
        shape("decline_epilogue"),
    ]


def max_chance_outcomes(config: Config) -> int:
    return 6
