"""Euthymia's action catalogue (actions from ``ludica.games.euthymia.legal.SCHEMA``).

Amounts of drink are ``1..max(BOTTLE_UNITS, GLASS_CAPACITY)``; the table's clock advances by
one of :data:`CLOCK_STEPS` seconds (the game accepts any ``1..CLOCK_STEP_MAX``; the environment
offers these); a drink order names one player at a time (as the game lists it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ...core.game import Config, Game
from ...core.mechanisms.cards import standard_deck
from ...games.euthymia.legal import CLOCK_STEP_MAX
from ...games.euthymia.state import CONTEXTS
from ..encoding import FREE, Shape, shape, split_bound
from ..tensor import BySeat, Flag, Members, Num, OneOf, Opt, Rec, Seat, SeatOr, Seats, Sentence, Seq

CLOCK_STEPS = (1, 5, 15, 30, 60, 120, 300, CLOCK_STEP_MAX)
ASPECTS = ("FEEL", "SPEAK", "BELIEVE", "LOVE")
LAUNCH_TYPES = ("WANT", "TEMPTED", "COMMITTEE")


def _units(game: Game[Any], config: Config) -> range:
    most = max(config.option(game.meta, "BOTTLE_UNITS"), config.option(game.meta, "GLASS_CAPACITY"))
    return range(1, most + 1)


NARRATIVE = True
"""Nobody wins or loses: every reward and OpenSpiel return is 0 (declared in the game type)."""

MAX_STEPS = 6_000
"""The environments' cap on one game: decisions (PettingZoo, Gymnasium) or moves with chance
included (OpenSpiel's ``max_steps``, its ``max_game_length``); random play ends well within
it; a longer game is truncated."""


def shapes(game: Game[Any], config: Config, seats: Sequence[str]) -> list[Shape]:
    players = tuple(s for s in seats if s != game.meta.referee)
    cards = tuple(standard_deck())
    units = _units(game, config)
    strengths = range(0, 7)
    return [
        shape("set_ideal_citizen", speak=FREE, believe=FREE, love=FREE),
        shape("record_setting", answers=FREE),
        shape("create_character", name=FREE, feel_text=FREE, speak_text=FREE, believe_text=FREE, love_text=FREE),
        shape("set_starting_strengths", F=strengths, S=strengths, B=strengths, L=strengths),
        shape("pass_identity_card", to=players),
        shape("start_hour"),
        shape("clock", seconds=CLOCK_STEPS),
        shape("trigger_final_round"),
        shape("commit_start_card", card=cards),
        shape("pour", target=players, units=units),
        shape("drink", units=units),
        shape("designate_drink_order", context=CONTEXTS, ordered_players=[[p] for p in players]),
        shape("declare_more_cards"),
        shape("launch_conflict", launch_type=LAUNCH_TYPES, aspect=ASPECTS, medication=(False, True), text=FREE),
        shape("play_conflict_card", card=cards),
        shape("describe_death", text=FREE),
        shape("divide_bottle", target=players, units=units),
        shape("fill_all_and_reseal"),
        shape("propose_cm_change"),
        shape("vote_cm_change", yes=(False, True)),
        shape("abandon_ideal_citizen"),
        shape("reveal_identity", text=FREE),
        shape("narrate_ending", text=FREE),
    ]


def max_chance_outcomes(config: Config) -> int:
    n = len(config.players)
    derangements = round(math.factorial(n) / math.e) if n > 1 else 0  # the identity-card passes
    return max(52, split_bound(derangements))


PHASES = ("IDEAL_CITIZEN", "BUILD_STATE", "CHARACTERS", "STRENGTHS", "CM_DEAL", "CM_PASS", "HOUR_END",
          "NEW_CHARACTERS", "WHO_STARTS", "TURN", "CONFLICT", "TURN_END", "CM_REVEAL_TURN", "GAME_ENDINGS",
          "GAME_OVER", "CM_VOTE")  # fmt: skip
"""Euthymia's phases (``ludica.games.euthymia.state``)."""

STATUSES = ("ACTIVE_CHARACTER", "DEAD_THIS_HOUR", "IDEAL_CITIZEN", "NEEDS_NEW_CHARACTER", None)
COLOURS = ("RED", "BLACK")
HOURS = 10
"""The hour clock's usual length (hours and seconds are scaled by it and by an hour's seconds)."""


def observation(game: Game[Any], config: Config, seats: Sequence[str]) -> Rec:
    """The schema of a Euthymia view (``ludica.games.euthymia.view``); the identity-card sentences
    of the seat's own ``you`` block are read back into colours and seats."""
    n = len(seats)
    seat = Seat(n)
    cards = tuple(standard_deck())
    units = max(config.option(game.meta, "BOTTLE_UNITS"), config.option(game.meta, "GLASS_CAPACITY"))
    aspects = lambda f: Rec({a: f for a in ASPECTS})  # noqa: E731
    s = r"(?P<{}>\S+)"
    colour = r"(?P<colour>RED|BLACK)"
    player = Rec(
        text=("seat", "name"),
        character=Opt(Rec(text=("name", "aspects"), strength=Opt(aspects(Num(10))))),
        status=OneOf(STATUSES),
        glass=Num(units, "units in the glass"),
        retired=Flag(),
        cards=Num(6, "cards in hand"),
    )
    you = Rec(
        text=("seat",),
        hand=Members(cards, "your hand"),
        start_card=OneOf((*cards, None)),
        identity_card=Sentence(f"{s.format('who')} was dealt a {colour} identity card", colour=OneOf(COLOURS)),
        received=Sentence(
            f"{s.format('who')} received a {colour} identity card from {s.format('giver')}",
            colour=OneOf(COLOURS),
            giver=seat,
        ),
        passed=Sentence(
            f"{s.format('giver')} passed a {colour} identity card to {s.format('to')}",
            colour=OneOf(COLOURS),
            to=seat,
        ),
        committee_member=Sentence(f"the Committee Member is {s.format('cm')}", cm=seat),
        knower=Sentence(f"{s.format('knower')} knows who the Committee Member is", knower=seat),
    )
    conflict = Rec(
        text=("text", "suit"),
        launcher=seat,
        launch_type=OneOf(LAUNCH_TYPES),
        aspect=OneOf(ASPECTS),
        medication=Flag(),
        order=Seq(n, seat),
        plays=Seq(n, Rec(player=seat, card=OneOf(cards))),
        to_play=seat,
    )
    return Rec(
        text=("ideal_citizen", "setting_notes", "endings"),
        hour=Num(HOURS),
        phase=OneOf(PHASES),
        players=BySeat(n, player, key="seat"),
        bottle=Rec(units=Num(units), holder=Seat(n, extra=("CENTER", "NONE", None)), sealed=Flag()),
        clock=Rec(
            hour_elapsed_s=Num(3600, "seconds of the hour gone"),
            final_round_pending=Flag(),
            final_round_active=Flag(),
            final_done=Seats(n),
        ),
        deck_count=Num(52),
        discard=Members(cards, "discard pile"),
        active_player=seat,
        previous_active_player=seat,
        turn_kind=OneOf(("NORMAL", "MORE_CARDS", "FINAL", "ENDING", "CM_REVEAL", None)),
        committee_member=seat,
        most_drink=Opt(SeatOr(n, Rec(tied=Seats(n)))),
        conflict=Opt(conflict),
        who_starts=Opt(Rec(contenders=Seats(n), committed=Seats(n), from_deck=Flag())),
        vote=Opt(Rec(proposer=seat, answers=BySeat(n, Flag()))),
        you=Opt(you),
    )
