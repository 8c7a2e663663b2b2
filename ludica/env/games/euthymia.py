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
from ..encoding import FREE, Shape, shape

CLOCK_STEPS = (1, 5, 15, 30, 60, 120, 300, CLOCK_STEP_MAX)
ASPECTS = ("FEEL", "SPEAK", "BELIEVE", "LOVE")
LAUNCH_TYPES = ("WANT", "TEMPTED", "COMMITTEE")


def _units(game: Game[Any], config: Config) -> range:
    most = max(config.option(game.meta, "BOTTLE_UNITS"), config.option(game.meta, "GLASS_CAPACITY"))
    return range(1, most + 1)


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
    return max(52, derangements)
