"""Euphoria's action catalogue (actions from ``MAIN_PARAMS`` and ``agenda.PARAM`` of
``ludica.games.euphoria``), domains from the game's data (spaces, recruits, markets, goods).

``pay``, ``take``, ``use_ability``, ``place_star`` and ``place_token`` are ranked (two-level)
shapes: their parameter is a combination (``art-bat+gold``) the rules compose at the step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.game import Config, Game
from ...games.euphoria.oracle import ARTIFACT_KINDS, GOODS, MARKET_SUFFIX, MARKETS, RECRUITS, SITES, SPACES, SPOTS
from ...games.euphoria.payments import ART
from ..encoding import Shape, shape

FACES = range(1, 7)


def _places() -> tuple[str, ...]:
    places = set(SPACES) | {spot for spots in SPOTS.values() for spot in spots} | {f"{s}{MARKET_SUFFIX}" for s in SITES}
    return tuple(sorted(places))


def shapes(game: Game[Any], config: Config, seats: Sequence[str]) -> list[Shape]:
    places = _places()
    recruits = tuple(sorted(RECRUITS))
    workers_on = tuple(f"{p}:{f}" for p in places for f in FACES)
    items = (*(f"{ART}{k}" for k in sorted(ARTIFACT_KINDS)), *GOODS, "done")
    return [
        shape("place", worker=FACES, space=places),
        shape("retrieve", worker=workers_on),
        shape("resolve_dilemma"),
        shape("end_turn"),
        shape("offer_trade", to=tuple(seats)),
        shape("choose_recruits", active=recruits, hidden=recruits),
        shape("pay", ranked=512, **{"with": None}),
        shape("take", ranked=64, gain=None),
        shape("place_star", ranked=64, on=None),
        shape("discard_artifact", kind=tuple(sorted(ARTIFACT_KINDS))),
        shape("lose_good", good=GOODS),
        shape("use_ability", ranked=64, choice=None),
        shape("choose_side", side=("contribute", "fight")),
        shape("keep_recruit", recruit=recruits),
        shape("sacrifice", worker=("none", *(f"{r}:{f}" for r in recruits for f in FACES))),
        shape("retrieve_more", worker=(*workers_on, "done")),
        shape("trade_give", item=items),
        shape("trade_ask", item=items),
        shape("answer_trade", answer=("accept", "decline")),
        shape("draft_recruit", recruit=recruits),
        shape("keep_market", market=tuple(sorted(MARKETS))),
        shape("place_token", ranked=64, track=None, value=None),
    ]


def max_chance_outcomes(config: Config) -> int:
    return 48  # the recruit deck is the largest shuffle (decomposed into single draws)
