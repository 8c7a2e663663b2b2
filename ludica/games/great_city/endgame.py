"""The end game: ranking by purse, the city's fate, each character's fate (**[END GAME]**).

Rule: [END GAME]
"""

from __future__ import annotations

from typing import Final

from ...core import Action, Event, Text
from . import oracle as O
from .common import S_END_GAME, act, char_label, refuse, say, seat_label
from .state import GreatCityState

FATE_TEXT: Final = Text("the fate, in line with the judgment", 1, 2000)


def enter_endgame(state: GreatCityState) -> list[Event]:
    """Players only, by free scarabs; ties are rolled off with d8s (R-GC-39). Everything is revealed."""
    players = sorted(state.seats[:-1], key=lambda s: -state.purse[s])
    groups: list[list[str]] = []
    for s in players:
        if groups and state.purse[groups[-1][0]] == state.purse[s]:
            groups[-1].append(s)
        else:
            groups.append([s])
    state.ranking = groups
    survives = state.yea > state.nay
    state.endgame = {"tie_rolls": [], "survives": survives, "narrated": 0}
    purses = ", ".join(f"{seat_label(state, s)} {state.purse[s]}" for s in state.seats)
    events = [
        say("end_game", "The Mounting Peril is empty: the end game begins."),
        say(
            "reveal",
            f"Purses: {purses}. Yea {state.yea}, Nay {state.nay}: the Great City "
            f"{'survives' if survives else 'succumbs'} ({'more' if survives else 'not more'} Yea than Nay).",
        ),
    ]
    return events + _resolve(state)


def _resolve(state: GreatCityState) -> list[Event]:
    if any(len(g) > 1 for g in state.ranking):
        state.phase = "rank"
        return []
    state.phase = "city_fate"
    city = state.city
    name, judgment = O.lookup(city >> 3, city & 7)  # type: ignore[operator]
    order = ", ".join(seat_label(state, g[0]) for g in state.ranking)
    return [
        say("ranking", f"From fattest to thinnest purse: {order}"),
        say(
            "city_reading",
            f"The Great City's pair {O.pair_bits(city)}: {name}. {judgment} "  # type: ignore[arg-type]
            f"{seat_label(state, state.ranking[0][0])} narrates its fate.",
        ),
    ]


def tied_group(state: GreatCityState) -> list[str]:
    return next(g for g in state.ranking if len(g) > 1)


def play_roll_rank_tie(state: GreatCityState, dice: list[int]) -> list[Event]:
    """Each tied player rolls a d8, higher first; those still tied roll again (R-GC-39)."""
    group = tied_group(state)
    i = state.ranking.index(group)
    rolls = dict(zip(group, dice, strict=True))
    state.endgame["tie_rolls"].append(rolls)  # type: ignore[index]
    sub: list[list[str]] = []
    for s in sorted(group, key=lambda s: -rolls[s]):
        if sub and rolls[sub[-1][0]] == rolls[s]:
            sub[-1].append(s)
        else:
            sub.append([s])
    state.ranking[i : i + 1] = sub
    text = ", ".join(f"{seat_label(state, s)} {d}" for s, d in rolls.items())
    return [say("rank_tie", f"Tie for the purse order: {text}"), *_resolve(state)]


def ranking(state: GreatCityState) -> list[str]:
    return [g[0] for g in state.ranking] if all(len(g) == 1 for g in state.ranking) else []


def fate_pair(state: GreatCityState, seat: str) -> int:
    """The character's triad first, then the city's first half if it would save the city, else the
    second half (R-GC-40)."""
    c = state.player_char(seat)
    city = state.city
    half = city >> 3 if c.intent["answer"] == "yes" else city & 7  # type: ignore[union-attr,index,operator]
    return c.triad << 3 | half  # type: ignore[union-attr]


def city_fate_seat(state: GreatCityState) -> str:
    """The fattest purse narrates the city's fate."""
    return state.ranking[0][0]


def legal_city_fate(state: GreatCityState, seat: str) -> list[Action]:
    return [act(seat, "narrate_city_fate", ("text", FATE_TEXT))]


def play_narrate_city_fate(state: GreatCityState, a: Action) -> list[Event]:
    state.phase = "character_fates"
    state.fate_turn = 0
    events = [say("city_fate", a.args["text"], seat=a.seat)]
    return events + _announce_fate(state)


def _announce_fate(state: GreatCityState) -> list[Event]:
    seat = ranking(state)[state.fate_turn]
    pair = fate_pair(state, seat)
    c = state.player_char(seat)
    name, judgment = O.lookup(pair >> 3, pair & 7)
    return [
        say(
            "fate_reading",
            f"{char_label(state, c.id)} ({c.intent['answer']}): {O.pair_bits(pair)} {name}. "  # type: ignore[union-attr,index]
            f"{judgment}",
        )
    ]


def fate_seat(state: GreatCityState) -> str:
    return ranking(state)[state.fate_turn]


def legal_character_fates(state: GreatCityState, seat: str) -> list[Action]:
    c = state.player_char(seat)
    return [act(seat, "narrate_character_fate", ("character", c.id), ("text", FATE_TEXT))]  # type: ignore[union-attr]


def check_narrate_character_fate(state: GreatCityState, a: Action) -> None:
    c = state.player_char(a.seat)
    if a.args["character"] != c.id:  # type: ignore[union-attr]
        raise refuse("each player narrates his or her own character's fate", "R-GC-39", S_END_GAME)


def play_narrate_character_fate(state: GreatCityState, a: Action) -> list[Event]:
    events = [say("character_fate", a.args["text"], seat=a.seat)]
    state.fate_turn += 1
    state.endgame["narrated"] = state.fate_turn  # type: ignore[index]
    if state.fate_turn >= len(state.ranking):
        state.phase = "over"
        return [*events, say("game_over", "The story of the Great City is told.")]
    return events + _announce_fate(state)
