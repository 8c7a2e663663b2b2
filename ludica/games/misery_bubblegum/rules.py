"""Every decision of the draft, as a table: its parameters, when it may be taken, its check and its effect.

Each ``check_*`` raises :class:`IllegalAction` naming the spec's ruling (``MB-Rn``) or rule and the
rulebook heading, and never changes anything; each ``play_*`` changes the state and tells the
story. They live with their part of the procedure:

* :mod:`.declare` - set-up and between actions (numbers, offered Traits, calling, ending);
* :mod:`.rolling` - opposition, choosing dice, rerolls with Traits, success;
* :mod:`.meaning` - the arrow and the five outcomes;
* :mod:`.growth`, :mod:`.reclaim` - getting better, and dice going back along the arrow;
* :mod:`.rolls` - the effects of the chance steps.

Dice for an outcome are *selected* first (``select_die`` / ``unselect_die``) and the outcome then
uses the selection (see ``docs/rules/misery-bubblegum.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core import Event
from . import declare, growth, meaning, reclaim, rolling
from . import procedure as proc
from .common import FEE_MODES, PHASES, S_DONE, Args, context, refuse, selection_sum
from .declare import can_still_roll, idle_can_act
from .meaning import arrow_pair, fits
from .reclaim import denial_cost, misery_after, reclaim_limit, reclaim_orientation
from .rolling import selectable
from .rolls import chance_size, play_chance
from .state import MiseryState

__all__ = [
    "CONTEXTS",
    "FEE_MODES",
    "HANDLERS",
    "PARAMS",
    "PHASES",
    "S_DONE",
    "Args",
    "arrow_pair",
    "can_still_roll",
    "chance_size",
    "context",
    "denial_cost",
    "fits",
    "idle_can_act",
    "misery_after",
    "play_chance",
    "proc",
    "reclaim_limit",
    "reclaim_orientation",
    "refuse",
    "selectable",
    "selection_sum",
]

_MODULES = (declare, rolling, meaning, growth, reclaim)


def _find(name: str) -> Any:
    for module in _MODULES:
        if hasattr(module, name):
            return getattr(module, name)
    raise LookupError(name)


# -- the table of actions ------------------------------------------------------------------------
Handler = tuple[Callable[[MiseryState, str, Args], None], Callable[[MiseryState, str, Args], list[Event]]]

PARAMS: dict[str, dict[str, type]] = {
    "set_ratings": {"passion": int, "confidence": int, "insight": int},
    "accept_trait": {"trait": str},
    "refuse_trait": {"trait": str},
    "call_action": {"pool": str, "challenge": int, "dice": int, "intent": str},
    "offer_trait": {"target": str, "text": str, "dice": int},
    "end_game": {},
    "pass_turn": {},
    "oppose": {"pool": str, "challenge": int, "dice": int},
    "gm_oppose": {"challenge": int, "dice": int, "pool_label": str},
    "pass_opposition": {},
    "select_die": {"die": str},
    "unselect_die": {"die": str},
    "use_trait": {"trait": str, "fee_pool": str, "fee_mode": str},
    "pass_reroll": {},
    "decide_success": {"succeeds": bool},
    "choose_arrow": {"orientation": str},
    "create_resource": {"owner": str, "text": str},
    "spend_misery": {"target": str},
    "choose_wipe_subset": {"dice": list},
    "activate_resource": {"resource": str},
    "deactivate_resource": {"resource": str},
    "increase_resource": {"resource": str},
    "address_desire": {"desire": str},
    "remove_blocking_die": {"threat": str, "blocking": int},
    "fulfil_promise": {"promise": str},
    "end_meaning": {},
    "increase_trait": {"trait": str},
    "end_growth": {},
    "deny_desire": {"desire": str},
    "reclaim": {"reclaim_count": int},
}
"""Every player action and its parameters (the acting player is the action's seat)."""

CONTEXTS: dict[str, tuple[str, ...]] = {
    "set_ratings": ("setup",),
    "accept_trait": ("idle", "declaring", "opposition"),
    "refuse_trait": ("idle", "declaring", "opposition"),
    "call_action": ("idle", "declaring"),
    "offer_trait": ("idle",),
    "end_game": ("idle",),
    "pass_turn": ("idle",),
    "oppose": ("opposition",),
    "gm_oppose": ("opposition",),
    "pass_opposition": ("opposition",),
    "select_die": ("reroll", "meaning", "growth"),
    "unselect_die": ("reroll", "meaning", "growth"),
    "use_trait": ("reroll",),
    "pass_reroll": ("reroll",),
    "decide_success": ("success",),
    "choose_wipe_subset": ("wipe",),
    "increase_trait": ("growth",),
    "end_growth": ("growth",),
    "deny_desire": ("reclaim",),
    "reclaim": ("reclaim",),
}
for _name_ in (
    "choose_arrow",
    "create_resource",
    "spend_misery",
    "activate_resource",
    "deactivate_resource",
    "increase_resource",
    "address_desire",
    "remove_blocking_die",
    "fulfil_promise",
    "end_meaning",
):
    CONTEXTS[_name_] = ("meaning",)

HANDLERS: dict[str, Handler] = {
    name: (_find(f"check_{name}"), _find(f"play_{name}"))
    for name in PARAMS  # type: ignore[misc]
}
