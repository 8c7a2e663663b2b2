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
from ..tensor import TEXT, Bits, ById, BySeat, Flag, Members, Num, OneOf, Opt, Rec, Seat, Seats, Seq

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


MAX_STEPS = 2_000
"""The environments' cap on one game: decisions (PettingZoo, Gymnasium) or moves with chance
included (OpenSpiel's ``max_steps``, its ``max_game_length``); random play ends well within
it; a longer game is truncated."""


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
        shape("choose_class", character=chars, **{"class": CLASSES}),  # type: ignore[arg-type]  # "class" is a keyword
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


TENSOR_TIES = 48
"""Ties the observation tensor lays out (``t1..t48``; the catalogue offers up to ``t400``)."""

PHASES = ("agents", "ante", "assign_narration", "buy_in", "character_fates", "choose_foil", "city_fate", "create",
          "distribution", "initiative", "narrate", "over", "random_flip", "rank", "reaction", "record_situation",
          "rethrow", "roll_situation", "scene_start", "ties", "undo", "vest")  # fmt: skip
"""The Great City's phases (``ludica.games.great_city.game.PHASES``)."""

CREATING = ("roll", "choose_triad", "kind", "traits", "class", "intent", "name", "vest", "ties", None)


def observation(game: Game[Any], config: Config, seats: Sequence[str]) -> Rec:
    """The schema of a Great City view (``ludica.games.great_city.view``). Readings' names,
    judgments and triad names are left out: they follow from the hexagram pair, which is laid out."""
    n = len(seats)
    seat = Seat(n)
    chars = ids("c", CHARACTERS)
    char = OneOf((*chars, None))
    traits = _traits()
    reading = Rec(text=("name", "judgment", "triads"), pair=Bits(6, "hexagram pair"))
    character = Rec(
        text=("id", "name", "description", "triad_name"),
        controller=seat,
        kind=OneOf(("human", "bug", None)),
        agent_of_peril=Flag(),
        triad=Opt(Bits(3, "triad signs")),
        vested=Rec({c: Num(20) for c in COLORS}),
        traits=Members(traits),
        **{"class": OneOf((*CLASSES, None))},  # type: ignore[arg-type]  # "class" is a keyword (in its place)
        intent=Opt(
            Rec(
                text=("text", "basis"),
                color=OneOf(COLORS),
                answer=OneOf(("yes", "no")),
            )
        ),
        creating=OneOf(CREATING),
    )
    tie = Rec(
        text=("id", "manner"),
        source=char,
        target=char,
        sign=OneOf(TIE_SIGNS),
        grant=OneOf(("free", "class", "bought", *traits)),
    )
    stone = Rec(
        position=Num(6),
        owner=char,
        color=OneOf(COLORS),
        sign=OneOf(("+", "-")),
        vested=Num(20),
        flippable=Flag(),
    )
    scene = Rec(
        text=("intent",),
        number=Num(30),
        focal=seat,
        spotlight=char,
        foil=char,
        present=Members(chars),
        ante=Num(20),
        reaction_order=Seq(n, seat),
        stones=Seq(6, stone),
        pair=Opt(Bits(6)),
        initial_reading=Opt(reading),
        announced=Opt(reading),
        accepted=Opt(reading),
        round=Num(5),
        acted=BySeat(n, OneOf(("accept", "arrive", "flip", "pass"))),
        flipping=Flag(),
        used_traits=Seq(
            40, Seq(3, OneOf((*chars, *traits, "deeds", "thoughts", "words"))), "traits used (character, trait, mode)"
        ),
        used_ties=Members(ids("t", TENSOR_TIES)),
        acceptor=seat,
        narrator=seat,
        participants=Seats(n),
        to_react=seat,
        undo_window=Opt(Rec(controller=seat, position=Num(6))),
    )
    fate = Rec(
        text=("name", "judgment", "triads"), character=char, seat=seat, intent=OneOf(("yes", "no")), pair=Bits(6)
    )
    endgame = Rec(
        city=Opt(reading),
        city_fate=OneOf(("survives", "succumbs", None)),
        city_narrator=seat,
        fates=Seq(CHARACTERS, fate),
        narrated=Num(6),
        yea=Num(SCARABS),
        nay=Num(SCARABS),
        ranking=Seq(n, seat),
        tie_rolls=Seq(12, BySeat(n, Num(20))),
    )
    return Rec(
        text=("game",),
        you=seat,
        phase=OneOf(PHASES),
        seats=BySeat(n, Rec(text=("seat", "name"), characters=Members(chars)), key="seat"),
        peril_pool=Num(60),
        purse=Opt(Rec(text=("text",), scarabs=Num(30))),
        fate_box=Rec(
            text=("text",),
            nay_start=Num(6),
            yea=Opt(Num(SCARABS)),
            nay=Opt(Num(SCARABS)),
            contributions=BySeat(n, Seq(2, Num(SCARABS))),
            yours=Opt(Rec(text=("text",), yea=Num(SCARABS), nay=Num(SCARABS))),
        ),
        purses=BySeat(n, Num(30)),
        situation=Opt(
            Rec(
                initial=reading,
                moving_positions=Members(POSITIONS),
                pair=reading,
                reduced=Rec(text=("name",), triad=Bits(3)),
                face_of_peril=Members(("economic", "natural", "political")),
                vested=Seq(6, Num(20)),
                texts=TEXT,
            )
        ),
        characters=ById(chars, character),
        ties=ById(ids("t", TENSOR_TIES), tie),
        initiative=Opt(Rec(rolls=Seq(12, BySeat(n, Num(20))), winner=seat, cycle=Seq(n, seat))),
        scenes_played=Num(30),
        peril_timeline=Seq(60, Num(60)),
        last_scene=Opt(
            Rec(
                text=("name",),
                scene=Num(30),
                focal=seat,
                spotlight=char,
                foil=char,
                acceptor=seat,
                narrator=seat,
                pair=Bits(6),
                rounds=Num(5),
                flips=Num(30),
            )
        ),
        scene=Opt(scene),
        endgame=Opt(endgame),
    )
