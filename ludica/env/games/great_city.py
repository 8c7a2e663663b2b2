"""The Great City's action catalogue (actions from ``ludica.games.great_city.game.ACTIONS``).

Caps: characters ``c1..c40`` (players' characters, agents and foils made in play), ties
``t1..t400``, scarab amounts ``1..120``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from ...core.game import Config, Game
from ...games.great_city.creation import TIE_SIGNS
from ...games.great_city.oracle import ORACLE
from ..encoding import FREE, Shape, ids, shape

CHARACTERS = 40
TIES = 400
SCARABS = 120
POSITIONS = range(1, 7)
COLORS = ("blue", "white", "green")
CLASSES = ("aristocrat", "commoner", "drone", "learned", "mercantile", "myrmidon", "queen", "worker")
MODES = tuple(ORACLE["mode_to_stone_color"])


def _traits() -> tuple[str, ...]:
    return tuple(t for kind in ORACLE["traits_in_action"].values() for t in kind)


def _allocations() -> list[dict[str, str]]:
    out = []
    for dims in ORACLE["trait_dimensions"].values():
        names = list(dims)
        for combo in itertools.product(*(sorted(dims[d].values()) for d in names)):
            out.append(dict(zip(names, combo, strict=True)))
    return out


def shapes(game: Game[Any], config: Config, seats: Sequence[str]) -> list[Shape]:
    chars = ids("c", CHARACTERS)
    traits = _traits()
    n = range(1, SCARABS + 1)
    return [
        shape("record_situation", situation=FREE, peril=FREE, face=FREE),
        shape("create_agent", name=FREE, description=FREE),
        shape("end_agents"),
        shape("set_triad", character=chars, blue=range(1, 9), white=range(1, 9), green=range(1, 9)),
        shape("choose_kind", character=chars, kind=("human", "bug")),
        shape("allocate_traits", character=chars, traits=_allocations()),
        shape("choose_class", character=chars, **{"class": CLASSES}),
        shape("choose_intent", character=chars, color=COLORS, text=FREE),
        shape("name_character", character=chars, name=FREE),
        shape("draw_name", character=chars, list=("female", "male")),
        shape("vest_class_scarab", character=chars, vest=(False, True)),
        shape("add_tie", source=chars, target=chars, sign=TIE_SIGNS, grant=("free", "class", *traits)),
        shape("buy_tie", source=chars, target=chars, sign=TIE_SIGNS),
        shape("end_ties", source=chars),
        shape("start_scene", spotlight=chars, intent=FREE),
        shape("choose_foil", foil=("NEW", *chars)),
        shape("choose_ante_source", role=("spotlight", "foil"), source=("pool", "purse")),
        shape("buy_in", character=chars),
        shape("stay_out"),
        shape("undo_flip", position=POSITIONS),
        shape("decline_undo", position=POSITIONS),
        shape("arrive", character=chars),
        shape("pass_reaction"),
        shape("flip", character=chars, mode=MODES, position=POSITIONS, source=("trait",), trait=traits),
        shape("flip", position=POSITIONS, source=("tie",), tie=ids("t", TIES)),
        shape("flip", position=POSITIONS, source=("free_scarab", "vested_scarab")),
        shape("end_reaction"),
        shape("accept_judgment", character=chars),
        shape("assign_narration", narrator=tuple(seats)),
        shape("narrate", text=FREE),
        shape("give_scarabs", to_seat=tuple(seats), n=n),
        shape("vest_own", character=chars, color=COLORS, n=n),
        shape("fund_fate", box=("yea", "nay"), n=n),
        shape("flip_city_stone", position=POSITIONS),
        shape("vest_city_stone", position=POSITIONS, n=n),
        shape("end_distribution"),
        shape("narrate_city_fate", text=FREE),
        shape("narrate_character_fate", character=chars, text=FREE),
    ]


def max_chance_outcomes(config: Config) -> int:
    return 20  # the largest die is a d20 (names)
