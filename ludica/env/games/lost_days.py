"""Lost Days' action catalogue (actions from ``ludica.games.lost_days.vocabulary.PARAMS``).

Caps: memory ids ``m1..m150``, coin amounts ``0..60`` (the bank is unlimited: larger amounts
stay legal in the game but the environment does not offer them), die positions ``0..39``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.game import Config, Game
from ...games.lost_days.state import (
    ADVERSITY,
    BANK,
    CENTRE,
    INTERRUPT,
    MARKET,
    OWNED,
    PERSONAL,
    SET_ASIDE,
    STORY,
    WRITE_OUT,
)
from ...games.lost_days.vocabulary import NONE
from ..encoding import FREE, Shape, ids, shape
from ..tensor import ById, BySeat, Flag, Members, Num, OneOf, Opt, Rec, Seat, Seats, Seq

MEMORIES = 150
COINS = 60
DICE = 40
PAY_WITH = ("purse", "own_madness", "opponent_madness")


MAX_STEPS = 3_000
"""The environments' cap on one game: decisions (PettingZoo, Gymnasium) or moves with chance
included (OpenSpiel's ``max_steps``, its ``max_game_length``); the rules have no bound (memories
may be traded and sold for ever), so this is a truncation."""


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


def observation(game: Game[Any], config: Config, seats: Sequence[str]) -> Rec:
    """The schema of a Lost Days view (``ludica.games.lost_days.view``) for the observation tensor."""
    n = len(seats)
    mems = ids("m", MEMORIES)
    seat = Seat(n)
    memory = OneOf((*mems, None))
    sides = OneOf(("a", "b", None))
    player = Rec(
        text=("seat", "name"),
        mad=Flag(),
        king=Flag(),
        purse=Num(COINS, "coins in the purse"),
        madness=Num(4, "madness"),
        memory_coins=Num(COINS, "coins on memories"),
        wealth=Num(COINS, "purse and memories"),
        memories=Members(mems, "memories owned"),
        mok_written=Flag(),
        won_this_round=Flag(),
        to_write=Num(3),
        pending_write_out=Flag(),
    )
    mem = Rec(
        text=("id", "text"),
        value=Num(COINS, "coins on it"),
        place=OneOf((CENTRE, SET_ASIDE, MARKET, OWNED)),
        owner=seat,
        author=seat,
        origin=OneOf(("created", *(f"round{r}" for r in range(1, 6)), "replenished")),
        kingship=Flag(),
        is_mok=Flag(),
        tainted=Flag(),
    )
    auction = Rec(
        lot=memory,
        eligible=Seats(n),
        has_bid=Seats(n),
        revealed=Opt(BySeat(n, Num(COINS)), "bids revealed"),
        tied=Seats(n),
        still_in=Seats(n),
        turn=seat,
        high=Num(COINS),
        high_bidder=seat,
        rolloff=Seats(n, "seats in the roll-off"),
        my_bid=Opt(Rec(amount=Num(COINS), text=("seal",))),
    )
    agreement = Rec(
        answers=BySeat(n, Flag()),
        content=Rec(text=("stakes",)),
        mode=OneOf(("consent",)),
        proposer=seat,
        status=OneOf(("open", "accepted", "declined", "withdrawn")),
        voters=Seats(n),
    )
    side_pair = lambda f: Rec(a=f, b=f)  # noqa: E731
    dice = Seq(DICE, Num(6))
    conflict = Rec(
        text=("stakes",),
        agreement=Opt(agreement),
        brought=side_pair(Flag()),
        controller_b=seat,
        dice=side_pair(dice),
        done=side_pair(Flag()),
        framer=seat,
        gain_left=side_pair(Num(3)),
        influence_turn=Seat(n, extra=("", None)),
        leading=Rec(margin=Num(6), side=sides),
        margin=Num(6),
        narrate_turn=sides,
        narrated=side_pair(Members(mems)),
        offered=memory,
        opposition=Flag(),
        owed=Num(3),
        paid=Num(3),
        passes=Num(n, offset=1),
        side_a=seat,
        side_b=Seat(n, extra=("opposition", None)),
        spend=Opt(Rec(text=("narration",), pay_with=OneOf((*PAY_WITH, None)))),
        spends=Num(COINS),
        staked=memory,
        strain_left=side_pair(Num(3)),
        to_place=Num(3),
        tribute_paid=Flag(),
        vetoed=Members(mems),
        winner=sides,
    )
    trade = Rec(
        answers=BySeat(n, Flag()),
        content=Rec(
            get_coins=Num(COINS),
            give_coins=Num(COINS),
            get_memories=Members(mems),
            give_memories=Members(mems),
            step=OneOf(("offer", "ask", "answer", None)),
            to=seat,
        ),
        mode=OneOf(("consent",)),
        proposer=seat,
        status=OneOf(("open", "accepted", "declined", "withdrawn")),
        voters=Seats(n),
    )
    scene = Rec(
        conflict_held=Flag(),
        framed=Flag(),
        framer=seat,
        kind=OneOf((PERSONAL, STORY, INTERRUPT, WRITE_OUT, ADVERSITY, None)),
        last_of_cycle=Flag(),
        story_restarted=Flag(),
    )
    return Rec(
        text=("theme", "story", "epilogue"),
        phase=OneOf(PHASES),
        round=Num(5, "memory-creation round"),
        king=seat,
        session=Num(5),
        scenes_played=Num(30),
        players=BySeat(n, player, key="seat"),
        memories=ById(mems, mem),
        bank_out=Num(100, "coins out of the bank"),
        auction=Opt(auction),
        selector=seat,
        extra_writer=seat,
        scene=Opt(scene),
        conflict=Opt(conflict),
        trade=Opt(trade),
        king_tie=Opt(
            Rec(
                owners=Seats(n),
                candidate=BySeat(n, memory),
                added=BySeat(n, Num(COINS)),
                turn=seat,
                last_raiser=seat,
                acted_since_raise=Seats(n),
                rolloff=Flag(),
            )
        ),
        survivor=seat,
    )


PHASES = (
    "WRITING", "SELECT", "SEALED_BID", "TIE_RAISE", "ROLL_OFF", "KING_TIE", "SESSION", "REPLENISH", "SCENE",
    "TRADE", "STAKES", "NARRATION", "ROLL", "INFLUENCE", "OUTCOME", "TRIBUTE", "PLACE_TRIBUTE",
    "NARRATE_TRIBUTE", "STRAIN_AND_GAIN", "EPILOGUE", "GAME_OVER",
)  # fmt: skip
"""Lost Days' phases (``ludica.games.lost_days.state``)."""
