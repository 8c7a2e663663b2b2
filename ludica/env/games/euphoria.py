"""Euphoria's action catalogue (actions from ``MAIN_PARAMS`` and ``agenda.PARAM`` of
``ludica.games.euphoria``), domains from the game's data (spaces, recruits, markets, goods).

``pay``, ``take``, ``use_ability``, ``place_star`` and ``place_token`` are ranked (two-level)
shapes: their parameter is a combination (``art-bat+gold``) the rules compose at the step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.game import Config, Game
from ...games.euphoria import MAIN_PARAMS
from ...games.euphoria.agenda import PARAM
from ...games.euphoria.oracle import (
    ARTIFACT_CARDS,
    ARTIFACT_KINDS,
    DILEMMAS,
    FACTIONS,
    GOODS,
    MARKET_SUFFIX,
    MARKETS,
    RECRUITS,
    SITES,
    SPACES,
    SPOTS,
    spot_ids,
)
from ...games.euphoria.payments import ART
from ..encoding import Shape, shape
from ..tensor import BySeat, Flag, Members, Num, OneOf, Opt, Rec, Seat, Seats, Workers

FACES = range(1, 7)


def _places() -> tuple[str, ...]:
    places = set(SPACES) | {spot for spots in SPOTS.values() for spot in spots} | {f"{s}{MARKET_SUFFIX}" for s in SITES}
    return tuple(sorted(places))


MAX_STEPS = 10_000
"""The environments' cap on one game: decisions (PettingZoo, Gymnasium) or moves with chance
included (OpenSpiel's ``max_steps``, its ``max_game_length``); random play ends well within
it; a longer game is truncated."""


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


def observation(game: Game[Any], config: Config, seats: Sequence[str]) -> Rec:
    """The schema of a Euphoria view (``ludica.games.euphoria.view``). The options of a waiting
    decision are left out (they are the legal actions: the action mask says them)."""
    n = len(seats)
    seat = Seat(n, extra=(None, ""))
    recruits = tuple(sorted(RECRUITS))
    factions = tuple(FACTIONS)
    decisions = tuple(sorted(set(MAIN_PARAMS) | set(PARAM)))
    items = (*(f"{ART}{k}" for k in sorted(ARTIFACT_KINDS)), *GOODS)  # what a trade names
    player = Rec(
        morale=Num(6),
        knowledge=Num(6),
        goods=Rec({g: Num(10) for g in GOODS}),
        artifacts=Num(12, "artifact cards held"),
        available=Members(FACES, "worker dice in hand", counts=True),
        workers=Num(4),
        stars_left=Num(10),
        active=Members(recruits),
        starred=Members(recruits),
        hidden_recruits=Num(2),
        dilemma_done=Flag(),
        dilemma_star=Flag(),
        dilemma=OneOf((*sorted(DILEMMAS), "", None)),
        chosen=Flag(),
        market_hand=Members(tuple(sorted(MARKETS))),
        kept_market=OneOf((*sorted(MARKETS), None)),
        drafted=Members(recruits),
        picked=OneOf((*recruits, "", None)),
        hand=Members(ARTIFACT_CARDS, "your artifact cards"),
        hidden=Members(recruits, "your hidden recruits"),
        dealt=Members(recruits),
        discarded=Members(recruits),
        choice=Members(recruits),
    )
    site = Rec(
        text=("name", "penalty"),
        market=OneOf(("face down", *sorted(MARKETS))),
        stars=Seats(n, "stars on it", counts=True),
        spots=Rec({spot: Workers(n) for s in SITES for spot in spot_ids(s)}),
    )
    return Rec(
        text=("end_reason",),
        phase=OneOf(("setup", "recruits", "market_draft", "recruit_draft", "track_draft", "play", "tiebreak", "over")),
        turn=seat,
        turn_number=Num(100),
        players=BySeat(n, player),
        board=Rec({place: Workers(n) for place in _places()}),
        allegiance=Rec({f: Num(12) for f in factions}),
        miners=Rec({f: Num(10) for f in factions}),
        territories=Rec({f: Seats(n, "stars in the territory", counts=True) for f in factions}),
        sites=Rec({s: site for s in SITES}),
        artifact_deck=Num(len(ARTIFACT_CARDS)),
        artifact_discards=Num(len(ARTIFACT_CARDS)),
        recruit_deck=Num(len(RECRUITS)),
        chain=Members(FACES, "faces in the worker chain"),
        winners=Seats(n),
        waiting=Opt(Rec(text=("options", "parameter"), seat=seat, decision=OneOf(decisions))),
        trade=Opt(
            Rec({"from": seat, "to": seat, "give": Members(items, counts=True), "ask": Members(items, counts=True)}),
            "the trade on the table, shown to its two players",
        ),
    )
