"""Misery Bubblegum's action catalogue (actions from ``ludica.games.misery_bubblegum.rules.PARAMS``).

Caps: resource and trait ids ``r1..r200`` / ``t1..t200`` (one counter for both), rolled dice
``<seat>.0..<seat>.39``, dice amounts ``0..40``. ``use_trait`` and ``choose_wipe_subset`` are
ranked (two-level) shapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.game import Config, Game
from ..encoding import FREE, Shape, ids, shape

IDS = 200
DICE = 40
POOLS = ("passion", "confidence", "insight")


def shapes(game: Game[Any], config: Config, seats: Sequence[str]) -> list[Shape]:
    players = tuple(s for s in seats if s != "gm")
    resources = ids("r", IDS)
    traits = ids("t", IDS)
    dice = tuple(f"{s}.{i}" for s in seats for i in range(DICE))
    amounts = range(0, DICE + 1)
    ratings = range(1, 7)
    return [
        shape("set_ratings", passion=ratings, confidence=ratings, insight=ratings),
        shape("accept_trait", trait=traits),
        shape("refuse_trait", trait=traits),
        shape("call_action", pool=POOLS, challenge=ratings, dice=amounts, intent=FREE),
        shape("offer_trait", target=players, text=FREE, dice=amounts),
        shape("end_game"),
        shape("pass_turn"),
        shape("oppose", pool=POOLS, challenge=ratings, dice=amounts),
        shape("gm_oppose", challenge=ratings, dice=amounts, pool_label=POOLS),
        shape("pass_opposition"),
        shape("select_die", die=dice),
        shape("unselect_die", die=dice),
        shape("use_trait", ranked=64, trait=traits, fee_pool=FREE, fee_mode=FREE),
        shape("pass_reroll"),
        shape("decide_success", succeeds=(True, False)),
        shape("choose_arrow", orientation=("self", "others")),
        shape("create_resource", owner=tuple(seats), text=FREE),
        shape("spend_misery", target=resources + traits),
        shape("choose_wipe_subset", ranked=64, dice=FREE),
        shape("activate_resource", resource=resources),
        shape("deactivate_resource", resource=resources),
        shape("increase_resource", resource=resources),
        shape("address_desire", desire=resources),
        shape("remove_blocking_die", threat=resources, blocking=range(1, 7)),
        shape("fulfil_promise", promise=resources),
        shape("end_meaning"),
        shape("increase_trait", trait=traits),
        shape("end_growth"),
        shape("deny_desire", desire=resources),
        shape("reclaim", reclaim_count=amounts),
        shape("reclaim"),
    ]


def max_chance_outcomes(config: Config) -> int:
    return 6  # six-sided dice only
