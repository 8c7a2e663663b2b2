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
from ..tensor import ById, BySeat, Dice, Flag, Members, Num, OneOf, OpenMembers, OpenOneOf, Opt, Rec, Seat, Seats, Seq

IDS = 200
DICE = 40
POOLS = ("passion", "confidence", "insight")


NARRATIVE = True
"""Nobody wins or loses: every reward and OpenSpiel return is 0 (declared in the game type)."""

MAX_STEPS = 4_000
"""The environments' cap on one game: decisions (PettingZoo, Gymnasium) or moves with chance
included (OpenSpiel's ``max_steps``, its ``max_game_length``); random play ends well within
it; a longer game is truncated."""


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


OUTCOMES = ("activate", "address", "deactivate", "fulfil", "increase", "misery", "remove")
"""What an action did to a Resource or Trait (``attempt.touched`` of ``ludica.games.misery_bubblegum``)."""

TENSOR_IDS = 48
"""Resources and Traits the observation tensor lays out (``r1..r48``, ``t1..t48``; the game counts both up)."""

STAGES = ("SETUP", "IDLE", "DECLARING", "OPPOSITION", "ROLLED", "REROLL", "SUCCESS", "MEANING", "GROWTH", "RECLAIM",
          "GAME_OVER", "")  # fmt: skip
"""The phases and action stages a view names (``rules.PHASES`` and the attempt's stages)."""


def observation(game: Game[Any], config: Config, seats: Sequence[str]) -> Rec:
    """The schema of a Misery Bubblegum view (``ludica.games.misery_bubblegum.view``)."""
    n = len(seats)
    seat = Seat(n)
    res_ids, trait_ids = ids("r", TENSOR_IDS), ids("t", TENSOR_IDS)
    pools = lambda scale: Rec({p: Num(scale) for p in POOLS})  # noqa: E731
    ident = OpenOneOf((*res_ids, *trait_ids, None))
    resource = Rec(
        text=("id", "text"),
        kind=OneOf(("desire", "promise", "threat")),
        value=Num(6),
        active=Flag(),
        blocking=Members(range(1, 7), "faces of blocking dice", counts=True),
        aid=Members(range(1, 7), "faces of aid dice", counts=True),
    )
    trait = Rec(text=("id", "text"), value=Num(6), creator=seat)
    sheet = Rec(
        text=("seat", "name"),
        rating=pools(6),
        pool=pools(10),
        misery=Num(20),
        spare=Num(10),
        influence=BySeat(n, Num(10), doc="dice of that seat's colour held"),
        traits=ById(trait_ids, trait),
        resources=ById(res_ids, resource),
    )
    own_dice = Dice(1, DICE)
    participant = Rec(
        text=("seat",),
        pool=OneOf((*POOLS, None)),
        challenge=Num(6),
        dice=Seq(DICE, Rec(text=("die",), face=Opt(Num(6)))),
        success=own_dice,
        non_success=own_dice,
        blocked=own_dice,
        matched_aid=Members(range(1, 7), counts=True),
        unmatched_aid=Num(6),
        S=Num(10),
        SS=Num(30),
        N=Num(10),
        penalising_desires=OpenMembers(res_ids),
        assigned=own_dice,
        grown=own_dice,
        fulfilment_dice=Members(range(1, 7), counts=True),
    )
    action = Rec(
        text=("intent",),
        number=Num(30),
        caller=seat,
        stage=OneOf(STAGES),
        participants=BySeat(n, participant, key="seat"),
        still_to_answer=Seats(n),
        traits_used=OpenMembers(trait_ids),
        selected=Dice(n, DICE),
        success_decider=seat,
        meaning_decider=seat,
        succeeded=OneOf((True, False, None)),
        orientation=OneOf(("self", "others", None)),
        created=ident,
        outcomes=ById((*res_ids, *trait_ids), OneOf(OUTCOMES), key=None),
        denied=OpenMembers(res_ids),
    )
    return Rec(
        you=seat,
        phase=OneOf(STAGES),
        actions_done=Num(30),
        characters=BySeat(n, sheet, key="seat"),
        provisional_traits=ById(
            trait_ids, Rec(text=("id", "text"), target=seat, offerer=seat, dice=Num(DICE)), key="id"
        ),
        turn=seat,
        declaring=Opt(Rec(seat=seat, accepted=OpenMembers(trait_ids), dice=Num(DICE))),
        ready_to_end=Seats(n),
        action=Opt(action),
    )
