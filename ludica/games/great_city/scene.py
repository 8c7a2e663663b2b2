"""Running a scene: start, ante, buy-in, initial reading, random flip, reaction rounds, rewards,
acceptance, narration and the winner's distribution.

**[Running A Scene]**, **[Using Traits]**, **[Using Ties]**, **[Using Resources]**,
**[Ending the Scene]**. The spec's ``flip_reaction(seat, [FlipOp...])`` is played as a sequence of
``flip`` actions by the same seat (one FlipOp each, with its undo window after it) closed by
``end_reaction``, so that every legal action can be listed.

The re-flip lock (R-GC-30, ``reflip_model = act``): the random flip is act 0, each seat's flip
reaction is a new act; a position is flippable iff its lock is empty; a flip in act A empties
every lock set by another act and locks its own position with A. An undo leaves the lock as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ...core import Action, Event, IllegalAction, Text
from ...core.values import rebuilt
from . import oracle as O
from .common import (
    GM,
    NEW,
    S_ANTE,
    S_ENDING,
    S_INITIAL,
    S_REACTION,
    S_RESOURCE_USE,
    S_START,
    S_TIES,
    S_TRAITS,
    char_label,
    interner,
    opt,
    refuse,
    say,
    seat_label,
    whisper,
)
from .state import Character, GreatCityState, Scene, Tie

INTENT_TEXT: Final = Text("your intended action for the scene", 1, 600)
NARRATION_TEXT: Final = Text("what the judgment means", 1, 2000)
MODES: Final = O.MODES
SOURCES: Final = ("trait", "tie", "free_scarab", "vested_scarab")


def pair_of(state: GreatCityState, sc: Scene) -> int:
    ch = state.characters
    return ch[sc.spotlight].triad << 3 | ch[sc.foil].triad  # type: ignore[index]


def name_of(pair: int) -> str:
    return O.PAIR_NAMES[pair]


# -- (1) start the scene ---------------------------------------------------------------------
def begin_scene(state: GreatCityState) -> list[Event]:
    idx = state.scene_index
    focal = state.cycle[idx % len(state.cycle)]
    state.scene = Scene(idx, focal)
    state.pool_timeline.append(state.pool)
    state.phase = "scene_start"
    return [say("scene", f"Scene {idx + 1}: {seat_label(state, focal)} is the focal seat (peril pool {state.pool})")]


def reaction_order(state: GreatCityState, focal: str) -> tuple[str, ...]:
    """Spotlight's seat, the other players clockwise, the GM last; a GM scene: GM, then players
    from the initiative winner (R-GC-26)."""
    players = list(state.seats[:-1])
    if focal == GM:
        i = players.index(state.initiative["winner"])
        return (GM, *players[i:], *players[:i])
    i = players.index(focal)
    return (*players[i:], *players[:i], GM)


def focal_seat(state: GreatCityState) -> str:
    """The focal seat starts the scene and chooses the foil."""
    return state.scene.focal  # type: ignore[union-attr]


_START: Final = interner("start_scene", "spotlight", fixed={"intent": INTENT_TEXT})
_FOIL: Final = interner("choose_foil", "foil")
_ANTE: Final = interner("choose_ante_source", "role", "source")
_BUY: Final = interner("buy_in", "character")
_UNDO: Final = interner("undo_flip", "position")
_DECLINE: Final = interner("decline_undo", "position")
_ASSIGN: Final = interner("assign_narration", "narrator")
_NARRATE: Final = interner("narrate", fixed={"text": NARRATION_TEXT})


def legal_scene_start(state: GreatCityState, seat: str) -> list[Action]:
    return [_START.make(seat, cid) for cid in state.owned[seat]]


def check_start_scene(state: GreatCityState, a: Action) -> None:
    if a.args["spotlight"] not in state.owned[a.seat]:
        raise refuse(
            "the spotlight is a character of the focal seat (a player's own character; for the GM a GM character)",
            "R-GC-46",
            S_START,
        )


def play_start_scene(state: GreatCityState, a: Action) -> list[Event]:
    sc = state.scene
    assert sc is not None
    sc.spotlight = a.args["spotlight"]
    sc.intent = a.args["intent"]
    sc.present = [sc.spotlight]  # type: ignore[list-item]
    sc.participants = {a.seat}
    sc.order = reaction_order(state, sc.focal)
    state.phase = "choose_foil"
    return [say("scene_start", f"Spotlight on {char_label(state, sc.spotlight)}: {sc.intent}")]  # type: ignore[arg-type]


def foil_options(state: GreatCityState, seat: str) -> list[str]:
    sc = state.scene
    assert sc is not None
    only_players = seat == GM and not opt(state, "gm_may_accept")  # R-GC-20
    out = [
        c.id
        for c in state.characters.values()
        if c.stage == "done" and c.id != sc.spotlight and not (only_players and c.controller == GM)
    ]
    if not only_players:
        out.append(NEW)
    return out


def legal_choose_foil(state: GreatCityState, seat: str) -> list[Action]:
    return [_FOIL.make(seat, f) for f in foil_options(state, seat)]


def check_choose_foil(state: GreatCityState, a: Action) -> None:
    foil = a.args["foil"]
    options = foil_options(state, a.seat)
    if foil not in options:
        sc = state.scene
        if foil == sc.spotlight:  # type: ignore[union-attr]
            raise refuse("the foil is some other character than the spotlight", "R-GC-21", S_START)
        if a.seat == GM and foil in state.characters and not opt(state, "gm_may_accept"):
            raise refuse(
                "with gm_may_accept off, the foil of the GM's own scene must be a player character", "R-GC-20", S_START
            )
        raise refuse(f"{foil!r} is not a character that can be the foil (or NEW)", "R-GC-21", S_START)


def play_choose_foil(state: GreatCityState, a: Action) -> list[Event]:
    sc = state.scene
    assert sc is not None
    if a.args["foil"] == NEW:
        from .creation import new_character

        c = new_character(state, GM, stage="roll")
        sc.foil = sc.new_character = state.creating = c.id
        state.phase = "create"
        return [say("foil", f"The foil is a new GM character, {c.id}, personifying the scene's troubles (R-GC-21)")]
    sc.foil = a.args["foil"]
    return foil_ready(state)


def foil_ready(state: GreatCityState) -> list[Event]:
    sc = state.scene
    assert sc is not None and sc.foil is not None
    sc.present.append(sc.foil)
    sc.participants.add(state.characters[sc.foil].controller)
    sc.ante_roles = ["spotlight", "foil"]
    state.phase = "ante"
    return [say("foil", f"{char_label(state, sc.spotlight)} meets {char_label(state, sc.foil)}")]  # type: ignore[arg-type]


# -- (2) ante --------------------------------------------------------------------------------
def ante_seat(state: GreatCityState) -> str:
    sc = state.scene
    role = sc.ante_roles[0]  # type: ignore[union-attr]
    return state.characters[sc.spotlight if role == "spotlight" else sc.foil].controller  # type: ignore[index,union-attr]


def legal_ante(state: GreatCityState, seat: str) -> list[Action]:
    role = state.scene.ante_roles[0]  # type: ignore[union-attr]
    out = [_ANTE.make(seat, role, "pool")]
    if state.purse[seat] >= 1:
        out.append(_ANTE.make(seat, role, "purse"))
    return out


def check_choose_ante_source(state: GreatCityState, a: Action) -> None:
    role = state.scene.ante_roles[0]  # type: ignore[union-attr]
    if a.args["role"] != role:
        raise refuse(f"the ante to choose now is the {role}'s", "R-GC-22", S_ANTE)
    if a.args["source"] not in ("pool", "purse"):
        raise refuse("the ante scarab comes from the pool or from your own purse", "R-GC-22", S_ANTE)
    if a.args["source"] == "purse" and state.purse[a.seat] < 1:
        raise refuse("your purse is empty: the ante can only come from the pool", "R-GC-22", S_ANTE)


def play_choose_ante_source(state: GreatCityState, a: Action) -> list[Event]:
    sc = state.scene
    assert sc is not None
    role = sc.ante_roles.pop(0)
    who = seat_label(state, a.seat)
    if a.args["source"] == "purse":
        state.purse[a.seat] -= 1
        sc.ante += 1
        events = [say("ante", f"{who} antes the {role}'s scarab from the purse, staving off the end game")]
    elif state.pool > 0:
        state.pool -= 1
        sc.ante += 1
        events = [say("ante", f"The {role}'s ante scarab comes from the peril pool (pool {state.pool})")]
    else:
        events = [say("ante", f"The peril pool is empty: no ante scarab for the {role} (R-GC-34)")]
    if not sc.ante_roles:
        sc.buy_turn = 0
        return events + _next_buyer(state)
    return events


# -- (3) buy-in and the initial reading ------------------------------------------------------
def _buy_options(state: GreatCityState, seat: str) -> list[str]:
    if state.purse[seat] < 1:
        return []
    present = state.scene.present  # type: ignore[union-attr]
    return [c for c in state.owned[seat] if c not in present]


def _next_buyer(state: GreatCityState) -> list[Event]:
    sc = state.scene
    assert sc is not None
    while sc.buy_turn < len(sc.order):
        if _buy_options(state, sc.order[sc.buy_turn]):
            state.phase = "buy_in"
            return []
        sc.buy_turn += 1
    return _reading(state)


def buy_seat(state: GreatCityState) -> str:
    sc = state.scene
    return sc.order[sc.buy_turn]  # type: ignore[union-attr]


def legal_buy_in(state: GreatCityState, seat: str) -> list[Action]:
    out = [_BUY.make(seat, c) for c in _buy_options(state, seat)]
    out.append(_simple(seat, "stay_out"))
    return out


def check_buy_in(state: GreatCityState, a: Action) -> None:
    cid = a.args["character"]
    if cid not in state.owned[a.seat]:
        raise refuse(f"you do not control {cid!r}", "R-GC-23", S_INITIAL)
    if cid in state.scene.present:  # type: ignore[union-attr]
        raise refuse(f"{char_label(state, cid)} is already in the scene", "R-GC-23", S_INITIAL)
    if state.purse[a.seat] < 1:
        raise refuse("buying in costs one scarab and your purse is empty", "R-GC-23", S_INITIAL)


def play_buy_in(state: GreatCityState, a: Action) -> list[Event]:
    sc = state.scene
    assert sc is not None
    cid = a.args["character"]
    state.purse[a.seat] -= 1
    sc.ante += 1
    sc.present.append(cid)
    sc.participants.add(a.seat)
    events = [say("buy_in", f"{char_label(state, cid)} buys in to the scene (ante {sc.ante})")]
    if not _buy_options(state, a.seat):
        sc.buy_turn += 1
        return events + _next_buyer(state)
    return events


def play_stay_out(state: GreatCityState, a: Action) -> list[Event]:
    state.scene.buy_turn += 1  # type: ignore[union-attr]
    return _next_buyer(state)


def rethrow_characters(state: GreatCityState) -> list[str]:
    sc = state.scene
    return [c for c in (sc.spotlight, sc.foil) if c != sc.new_character]  # type: ignore[union-attr,misc]


def _reading(state: GreatCityState) -> list[Event]:
    if opt(state, "scene_triad_mode") == "rethrow" and rethrow_characters(state):
        state.phase = "rethrow"
        return []
    return initial_reading(state)


def play_rethrow_triads(state: GreatCityState, dice: list[int]) -> list[Event]:
    """scene_triad_mode = rethrow: the spotlight and foil roll new triads (R-GC-03)."""
    from .creation import set_triad

    events: list[Event] = []
    for i, cid in enumerate(rethrow_characters(state)):
        events += set_triad(state, state.characters[cid], dice[3 * i : 3 * i + 3])
    return events + initial_reading(state)


def initial_reading(state: GreatCityState) -> list[Event]:
    """The GM reads the pair, spotlight first, name and judgment (R-GC-03, R-GC-24)."""
    sc = state.scene
    assert sc is not None
    if opt(state, "scene_triad_mode") == "reset":
        sc.snapshot = {c: state.characters[c].triad for c in (sc.spotlight, sc.foil)}  # type: ignore[misc,index]
    pair = pair_of(state, sc)
    sc.initial_pair = sc.announced = pair
    state.phase = "random_flip"
    name, judgment = O.lookup(pair >> 3, pair & 7)
    return [say("reading", f"Initial situation {O.pair_bits(pair)}: {name}. {judgment}")]


# -- flipping stones -------------------------------------------------------------------------
def stone_is_locked(state: GreatCityState, sc: Scene, pos: int) -> bool:
    """No immediate re-flip: a stone just flipped may not be flipped again yet. With the act
    model, the flips of one act (one reaction, or the random flip) count as simultaneous and a
    stone stays locked until a later act flips a different stone; with the sequential model only
    the last stone flipped is locked. The refusal calls it; the listing applies the same test inline.

    Rule: [Using Resources]; R-GC-30
    """
    if state.options["reflip_model"] == "act":
        return sc.lock[pos - 1] is not None
    return sc.last == pos


def flip_stone(state: GreatCityState, sc: Scene, pos: int, act_id: int) -> Character:
    """Flip position 1..6 of the scene's pair and update the re-flip lock (:func:`stone_is_locked`)."""
    owner = state.characters[sc.spotlight if pos <= 3 else sc.foil]  # type: ignore[index]
    owner.triad ^= 1 << (2 - (pos - 1) % 3)
    lock = sc.lock
    i = pos - 1
    for q in range(6):
        if q != i and lock[q] is not None and lock[q] != act_id:
            lock[q] = None
    lock[i] = act_id
    sc.last = pos
    return owner


def play_random_flip(state: GreatCityState, dice: list[int]) -> list[Event]:
    """The GM's d6 flips one stone: 1-3 the first triad, 4-6 the second (R-GC-10); act 0."""
    sc = state.scene
    assert sc is not None
    pos = dice[0]
    owner = flip_stone(state, sc, pos, 0)
    sc.flips += 1
    events = [say("random_flip", f"The GM's d6 shows {pos}: the {_stone_name(pos)} stone flips")]
    ci = (pos - 1) % 3
    if owner.vested[ci] >= 1 and opt(state, "undo_random_flip"):
        sc.undo = [pos, owner.controller, "random"]
        state.phase = "undo"
        return events
    return events + _start_reactions(state)


def _stone_name(pos: int) -> str:
    return f"{'first' if pos <= 3 else 'second'} triad's {O.COLORS[(pos - 1) % 3]} (position {pos})"


def _announce(state: GreatCityState, sc: Scene) -> Event:
    """[Using Resources] after a reaction the GM reads the pair's name, not its judgment (R-GC-24)."""
    pair = pair_of(state, sc)
    sc.announced = pair
    return say("name", f"The oracle names the pair {O.pair_bits(pair)}: {O.PAIR_NAMES[pair]}")


def _start_reactions(state: GreatCityState) -> list[Event]:
    sc = state.scene
    assert sc is not None
    sc.round, sc.turn, sc.acted, sc.flipping = 1, 0, {}, False
    state.phase = "reaction"
    return [_announce(state, sc)]


def undo_seat(state: GreatCityState) -> str:
    """The controller of the flipped stone decides on the undo (R-GC-31)."""
    return state.scene.undo[1]  # type: ignore[union-attr,index]


def legal_undo(state: GreatCityState, seat: str) -> list[Action]:
    pos = state.scene.undo[0]  # type: ignore[index,union-attr]
    return [_UNDO.make(seat, pos), _DECLINE.make(seat, pos)]


def check_undo(state: GreatCityState, a: Action) -> None:
    pos = state.scene.undo[0]  # type: ignore[index,union-attr]
    if a.args["position"] != pos:
        raise refuse(f"the flip that may be undone now is position {pos}", "R-GC-31", S_RESOURCE_USE)


def play_undo_flip(state: GreatCityState, a: Action) -> list[Event]:
    """The vested scarab goes to the ante and the flip is undone; no refund, lock unchanged (R-GC-31)."""
    sc = state.scene
    assert sc is not None and sc.undo is not None
    pos, _, after = sc.undo
    owner = state.characters[sc.spotlight if pos <= 3 else sc.foil]  # type: ignore[index]
    ci = (pos - 1) % 3
    owner.vested[ci] -= 1
    sc.ante += 1
    owner.triad ^= 1 << (2 - ci)
    sc.undo = None
    events = [
        say(
            "undo",
            f"{char_label(state, owner.id)} spends the scarab vested under its {O.COLORS[ci]} stone and "
            f"undoes the flip of position {pos} (ante {sc.ante}); the stone still counts as flipped",
        )
    ]
    return events + _after_undo(state, after)


def play_decline_undo(state: GreatCityState, a: Action) -> list[Event]:
    sc = state.scene
    assert sc is not None and sc.undo is not None
    after = sc.undo[2]
    sc.undo = None
    return _after_undo(state, after)


def _after_undo(state: GreatCityState, after: str) -> list[Event]:
    if after == "random":
        return _start_reactions(state)
    state.phase = "reaction"
    return []


# -- (5) reaction rounds ---------------------------------------------------------------------
def reaction_seat(state: GreatCityState) -> str:
    sc = state.scene
    return sc.forced or sc.order[sc.turn]  # type: ignore[union-attr]


_TRAIT_FLIPS: Final[dict[tuple[str, int, str, str], Action]] = {}
_TIE_FLIPS: Final[dict[tuple[str, int, str], Action]] = {}
_SCARAB_FLIPS: Final[dict[tuple[str, int, bool], Action]] = {}
_SIMPLE: Final[dict[tuple[str, str], Action]] = {}
_CHAR: Final[dict[tuple[str, str, str], Action]] = {}


def _trait_flip(seat: str, pos: int, cid: str, trait: str) -> Action:
    key = (seat, pos, cid, trait)
    a = _TRAIT_FLIPS.get(key)
    if a is None:
        a = _TRAIT_FLIPS[key] = Action(
            seat,
            "flip",
            {"position": pos, "source": "trait", "character": cid, "trait": trait, "mode": MODES[(pos - 1) % 3]},
        )
    return a


def _tie_flip(seat: str, pos: int, tid: str) -> Action:
    key = (seat, pos, tid)
    a = _TIE_FLIPS.get(key)
    if a is None:
        a = _TIE_FLIPS[key] = Action(seat, "flip", {"position": pos, "source": "tie", "tie": tid})
    return a


def _scarab_flip(seat: str, pos: int, vested: bool) -> Action:
    key = (seat, pos, vested)
    a = _SCARAB_FLIPS.get(key)
    if a is None:
        source = "vested_scarab" if vested else "free_scarab"
        a = _SCARAB_FLIPS[key] = Action(seat, "flip", {"position": pos, "source": source})
    return a


def _simple(seat: str, kind: str) -> Action:
    a = _SIMPLE.get((seat, kind))
    if a is None:
        a = _SIMPLE[(seat, kind)] = Action(seat, kind)
    return a


def _with_char(seat: str, kind: str, cid: str) -> Action:
    a = _CHAR.get((seat, kind, cid))
    if a is None:
        a = _CHAR[(seat, kind, cid)] = Action(seat, kind, {"character": cid})
    return a


def legal_reaction(state: GreatCityState, seat: str) -> list[Action]:
    sc = state.scene
    assert sc is not None
    owned = state.owned[seat]
    present = sc.present
    if sc.forced is not None:
        return [_with_char(seat, "accept_judgment", c) for c in owned if c in present]
    purse = state.purse[seat]
    out: list[Action] = []
    if sc.flipping:
        out.append(_simple(seat, "end_reaction"))
    else:
        mine = []
        for cid in owned:
            if cid in present:
                mine.append(cid)
            elif purse:
                out.append(_with_char(seat, "arrive", cid))
        out.append(_simple(seat, "pass_reaction"))
        if mine and (seat != GM or state.options["gm_may_accept"]):
            for cid in mine:
                out.append(_with_char(seat, "accept_judgment", cid))
    flip_options(state, sc, seat, purse, owned, out)
    return out


class TraitRow:
    """The trait flips of one character at one position (Table 5), with their used-keys (R-GC-27):
    two parallel tuples, not (key, action) pairs (one kept object fewer per flip, for the
    garbage collector to walk)."""

    __slots__ = ("actions", "keys", "used_keys")

    def __init__(self, used_keys: tuple[tuple[str, ...], ...], actions: tuple[Action, ...]) -> None:
        self.used_keys = used_keys
        self.actions = actions
        self.keys = frozenset(used_keys)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.used_keys, self.actions)  # see ludica.core.values


_TRAIT_TABLES: Final[dict[tuple[Any, ...], tuple[TraitRow, ...]]] = {}
_FREE: Final[dict[str, tuple[Action, ...]]] = {}
_VESTED: Final[dict[str, tuple[Action, ...]]] = {}


def _trait_table(seat: str, c: Character, cap: bool) -> tuple[TraitRow, ...]:
    """Per position 1..6: the trait flips of a character (Table 5)."""
    key = (seat, c.id, c.kind, c.traits, cap)
    table = _TRAIT_TABLES.get(key)
    if table is None:
        rows = []
        for pos in range(1, 7):
            ci = (pos - 1) % 3
            mode = MODES[ci]
            traits = c.traits if c.kind == "human" else (c.traits[ci],)  # type: ignore[index]
            used_keys = tuple(((c.id, mode) if cap else (c.id, tr, mode)) for tr in traits)  # type: ignore[union-attr]
            rows.append(TraitRow(used_keys, tuple(_trait_flip(seat, pos, c.id, tr) for tr in traits)))  # type: ignore[union-attr]
        table = _TRAIT_TABLES[key] = tuple(rows)
    return table


def _scarab_flips(seat: str) -> tuple[tuple[Action, ...], tuple[Action, ...]]:
    free = _FREE.get(seat)
    if free is None:
        free = _FREE[seat] = tuple(_scarab_flip(seat, p, False) for p in range(1, 7))
        _VESTED[seat] = tuple(_scarab_flip(seat, p, True) for p in range(1, 7))
    return free, _VESTED[seat]


def flip_options(
    state: GreatCityState, sc: Scene, seat: str, purse: int, owned: list[str], out: list[Action]
) -> list[Action]:
    """Every FlipOp the seat may make now (the flips of [Using Traits], [Using Ties], [Using Resources]), one
    action each, appended to ``out``."""
    chars = state.characters
    spot, foil = chars[sc.spotlight], chars[sc.foil]  # type: ignore[index]
    present = sc.present
    options = state.options
    cap = options["hr_trait_cap_3"]
    tables = [_trait_table(seat, chars[c], cap) for c in owned if c in present]
    spot_ties: list[Tie] = []
    foil_ties: list[Tie] = []
    mine = state.ties_of(seat)
    if mine:
        used_ties = sc.used_ties
        spot_id, foil_id = spot.id, foil.id
        for t in mine:
            if t.id not in used_ties:
                if t.target == spot_id:
                    spot_ties.append(t)
                elif t.target == foil_id:
                    foil_ties.append(t)
    free, vested = _scarab_flips(seat)
    used = sc.used_traits
    if options["reflip_model"] == "act":  # stone_is_locked, for the six positions at once
        lock = sc.lock
        flippable = [i for i in range(6) if lock[i] is None]
    else:
        flippable = [i for i in range(6) if sc.last != i + 1]
    for i in flippable:
        for table in tables:
            row = table[i]
            if not used or used.isdisjoint(row.keys):
                out.extend(row.actions)
            else:
                keys, actions = row.used_keys, row.actions
                for j in range(len(keys)):
                    if keys[j] not in used:
                        out.append(actions[j])
        if i < 3:
            owner, ties, ci = spot, spot_ties, i
        else:
            owner, ties, ci = foil, foil_ties, i - 3
        if ties:  # a positive tie flips a minus stone, a negative tie a plus stone (R-GC-28)
            minus = not owner.triad >> (2 - ci) & 1
            for t in ties:
                if (t.sign == "+") == minus:
                    out.append(_tie_flip(seat, i + 1, t.id))
        if purse:
            out.append(free[i])
        if owner.vested[ci] and owner.controller == seat:
            out.append(vested[i])
    return out


FLIP_ARGS: Final = {
    "trait": {"position", "source", "character", "trait", "mode"},
    "tie": {"position", "source", "tie"},
    "free_scarab": {"position", "source"},
    "vested_scarab": {"position", "source"},
}


def check_flip(state: GreatCityState, a: Action) -> None:
    """Refuse a FlipOp with the rule it breaks ([Using Traits], [Using Ties], [Using Resources]): the scene
    guard, the position, the
    re-flip lock, then the rule of its source (a trait, a tie, a free or a vested scarab)."""
    sc = state.scene
    assert sc is not None
    pos, source = a.args["position"], a.args["source"]
    if sc.forced is not None:
        raise refuse(
            "after a round in which everyone passed, the scene guard requires you to accept", "HR-G1", S_REACTION
        )
    if not isinstance(pos, int) or isinstance(pos, bool) or not 1 <= pos <= 6:
        raise refuse(
            "a stone position is 1..6 (1-3 the first triad blue/white/green, 4-6 the second)", "R-GC-10", S_REACTION
        )
    if stone_is_locked(state, sc, pos):
        raise _locked(state, sc, pos)
    check_source = _FLIP_SOURCES.get(source)
    if check_source is None:
        raise refuse("a flip uses a trait, a tie, a free scarab or a vested scarab", "R-GC-25", S_REACTION)
    owner = state.characters[sc.spotlight if pos <= 3 else sc.foil]  # type: ignore[index]
    check_source(state, sc, a, owner, (pos - 1) % 3)


def _locked(state: GreatCityState, sc: Scene, pos: int) -> IllegalAction:
    """The refusal of :func:`stone_is_locked`, in the words of the model in use."""
    if state.options["reflip_model"] != "act":
        return refuse(f"position {pos} was the last stone flipped", "R-GC-30", S_RESOURCE_USE)
    when = "this act" if sc.flipping and sc.lock[pos - 1] == sc.act else "an earlier act"
    return refuse(
        f"position {pos} was flipped in {when} and cannot be re-flipped until another stone has been "
        "flipped in a later act",
        "R-GC-30",
        S_RESOURCE_USE,
    )


def _check_trait_flip(state: GreatCityState, sc: Scene, a: Action, owner: Character, ci: int) -> None:
    """A trait of a present character of yours, in the mode of the stone's colour, once per
    scene (per trait and mode; per mode under HR-G2).

    Rule: [Using Traits]; R-GC-27
    """
    cid, trait, mode, pos = a.args["character"], a.args["trait"], a.args["mode"], a.args["position"]
    if cid not in state.owned[a.seat]:
        raise refuse(f"you do not control {cid!r}", "R-GC-27", S_TRAITS)
    if cid not in sc.present:
        raise refuse("a trait can only be used to flip a stone if the character is in the scene", "R-GC-27", S_TRAITS)
    c = state.characters[cid]
    if trait not in (c.traits or ()):
        raise refuse(f"{char_label(state, cid)} has no trait {trait!r}", "R-GC-27", S_TRAITS)
    if mode not in MODES:
        raise refuse("a trait is used in deeds, thoughts or words", "R-GC-27", S_TRAITS)
    if mode != MODES[ci]:
        raise refuse(
            f"{mode} flip {O.COLORS[MODES.index(mode)]} stones; position {pos} is {O.COLORS[ci]} ({MODES[ci]})",
            "R-GC-27",
            S_TRAITS,
        )
    if O.trait_descriptor(c.kind, trait, mode) is None:  # type: ignore[arg-type]
        raise refuse(f"Table 5 has no {mode} for the bug trait {trait} ('--')", "R-GC-27", S_TRAITS)
    key = (cid, mode) if state.options["hr_trait_cap_3"] else (cid, trait, mode)
    if key in sc.used_traits:
        what = f"{mode} trait flip" if state.options["hr_trait_cap_3"] else f"{trait} in {mode}"
        raise refuse(f"{char_label(state, cid)} already used {what} this scene", "R-GC-27", S_TRAITS)


def _check_tie_flip(state: GreatCityState, sc: Scene, a: Action, owner: Character, ci: int) -> None:
    """A tie of a character you control, on its target's stones, plus-to-minus or the reverse by
    its sign, once per scene.

    Rule: [Using Ties]; R-GC-28
    """
    tid = a.args["tie"]
    tie = next((t for t in state.ties if t.id == tid), None)
    if tie is None:
        raise refuse(f"there is no tie {tid!r}", "R-GC-28", S_TIES)
    if state.characters[tie.source].controller != a.seat:
        raise refuse("a tie is used by the seat controlling its source character", "R-GC-28", S_TIES)
    if tie.target != owner.id:
        raise refuse(
            f"tie {tid} points at {char_label(state, tie.target)}; it can only flip that character's stones",
            "R-GC-28",
            S_TIES,
        )
    bit = owner.triad >> (2 - ci) & 1
    if tie.sign == "+" and bit:
        raise refuse("a positive tie only flips a minus stone to plus", "R-GC-28", S_TIES)
    if tie.sign == "-" and not bit:
        raise refuse("a negative tie only flips a plus stone to minus", "R-GC-28", S_TIES)
    if tid in sc.used_ties:
        raise refuse(f"tie {tid} was already used this scene", "R-GC-28", S_TIES)


def _check_free_scarab_flip(state: GreatCityState, sc: Scene, a: Action, owner: Character, ci: int) -> None:
    """A free scarab from your purse flips any of the six stones.

    Rule: [Using Resources]; R-GC-29
    """
    if state.purse[a.seat] < 1:
        raise refuse("flipping with a free scarab needs one in your purse", "R-GC-29", S_RESOURCE_USE)


def _check_vested_scarab_flip(state: GreatCityState, sc: Scene, a: Action, owner: Character, ci: int) -> None:
    """A scarab vested under a stone is spent by that stone's controller only.

    Rule: [Using Resources]; R-GC-29
    """
    if owner.controller != a.seat:
        raise refuse("only the stone's controller may spend the scarab vested under it", "R-GC-29", S_RESOURCE_USE)
    if owner.vested[ci] < 1:
        raise refuse(f"no scarab is vested under position {a.args['position']}", "R-GC-29", S_RESOURCE_USE)


_FLIP_SOURCES: Final[dict[str, Callable[[GreatCityState, Scene, Action, Character, int], None]]] = {
    "trait": _check_trait_flip,
    "tie": _check_tie_flip,
    "free_scarab": _check_free_scarab_flip,
    "vested_scarab": _check_vested_scarab_flip,
}
"""The rule of each source of a flip ([Using Traits], [Using Ties], [Using Resources])."""


def play_flip(state: GreatCityState, a: Action) -> list[Event]:
    sc = state.scene
    assert sc is not None
    seat, args = a.seat, a.args
    pos, source = args["position"], args["source"]
    if not sc.flipping:
        sc.flipping = True
        sc.act += 1
    chars = state.characters
    owner = chars[sc.spotlight if pos <= 3 else sc.foil]  # type: ignore[index]
    ci = (pos - 1) % 3
    if source == "trait":
        cid, trait, mode = args["character"], args["trait"], args["mode"]
        sc.used_traits.add((cid, mode) if state.options["hr_trait_cap_3"] else (cid, trait, mode))
        how = f"{chars[cid].name or cid}'s {trait} {mode} ({O.TRAITS[chars[cid].kind][trait][mode]})"  # type: ignore[index]
    elif source == "tie":
        tid = args["tie"]
        sc.used_ties.add(tid)
        how = f"tie {tid} ({tie_manner_of(state, tid)})"
    elif source == "free_scarab":
        state.purse[seat] -= 1
        sc.ante += 1
        how = "a free scarab"
    else:
        owner.vested[ci] -= 1
        sc.ante += 1
        how = "the vested scarab"
    flip_stone(state, sc, pos, sc.act)
    sc.participants.add(seat)
    sc.flips += 1
    events = [say("flip", f"{seat_label(state, seat)} flips position {pos} by {how}")]
    if owner.controller != seat and owner.vested[ci] >= 1:
        sc.undo = [pos, owner.controller, "reaction"]
        state.phase = "undo"
    return events


def tie_manner_of(state: GreatCityState, tid: str) -> str:
    return manner_of_tie(state, next(t for t in state.ties if t.id == tid))


def manner_of_tie(state: GreatCityState, tie: Tie) -> str:
    """:func:`tie_manner_of` for the tie itself (R-GC-28): remembered per tie with the very values
    it was worked out from (the source's kind, class and traits, the target's class, the sign),
    and worked out anew when any of them is another object (every view shows every tie's manner,
    and these values are set once, when the characters are made)."""
    src, tgt = state.characters[tie.source], state.characters[tie.target]
    known = _MANNERS_OF_TIES.get(tie)
    if known is None:
        if len(_MANNERS_OF_TIES) > 20_000:
            _MANNERS_OF_TIES.clear()
    elif (
        known.kind is src.kind
        and known.cls is src.cls
        and known.traits is src.traits
        and known.target_cls is tgt.cls
        and known.sign is tie.sign
    ):
        return known.manner
    manner = _manner(src, tgt, tie.sign)
    _MANNERS_OF_TIES[tie] = KnownManner(src.kind, src.cls, src.traits, tgt.cls, tie.sign, manner)
    return manner


def _manner(src: Character, tgt: Character, sign: str) -> str:
    """How a tie from ``src`` to ``tgt`` is played: by the source's kind, class and attitude (its
    kind or cruel trait), the target's class and the sign (Tables 6 and 7; R-GC-28)."""
    attitude = next((t for t in (src.traits or ()) if t in ("kind", "cruel")), None)
    return O.tie_manner(src.kind, src.cls, attitude, tgt.cls, sign)  # type: ignore[arg-type]


class KnownManner:
    """A tie's manner (:func:`manner_of_tie`) with the values it was worked out from."""

    __slots__ = ("cls", "kind", "manner", "sign", "target_cls", "traits")

    def __init__(
        self,
        kind: str | None,
        cls: str | None,
        traits: tuple[str, str, str] | None,
        target_cls: str | None,
        sign: str,
        manner: str,
    ) -> None:
        self.kind, self.cls, self.traits, self.target_cls, self.sign, self.manner = (
            kind,
            cls,
            traits,
            target_cls,
            sign,
            manner,
        )

    def __reduce__(self) -> tuple[Any, ...]:  # compiled with mypyc: pickled by its arguments
        return KnownManner, (self.kind, self.cls, self.traits, self.target_cls, self.sign, self.manner)


_MANNERS_OF_TIES: Final[dict[Tie, KnownManner]] = {}
""":func:`manner_of_tie`'s answers by tie, each with the values it was worked out from."""


def play_end_reaction(state: GreatCityState, a: Action) -> list[Event]:
    sc = state.scene
    assert sc is not None
    sc.acted[a.seat] = "flip"
    return [_announce(state, sc), *_end_turn(state, sc)]


def check_pass_reaction(state: GreatCityState, a: Action) -> None:
    """One option per reaction (R-GC-25); the scene guard (HR-G1)."""
    sc = state.scene
    assert sc is not None
    if sc.forced is not None:
        raise refuse(
            "after a round in which everyone passed, the scene guard requires you to accept", "HR-G1", S_REACTION
        )
    if sc.flipping and a.type != "end_reaction":
        raise refuse("one option per reaction: you have begun flipping; end the reaction", "R-GC-25", S_REACTION)
    if not sc.flipping and a.type == "end_reaction":
        raise refuse("end_reaction closes a flip reaction, and you have flipped nothing", "R-GC-25", S_REACTION)


def check_arrive(state: GreatCityState, a: Action) -> None:
    check_pass_reaction(state, a)
    sc = state.scene
    cid = a.args["character"]
    if cid not in state.owned[a.seat]:
        raise refuse(f"you do not control {cid!r}", "R-GC-23", S_REACTION)
    if cid in sc.present:  # type: ignore[union-attr]
        raise refuse(f"{char_label(state, cid)} is already in the scene", "R-GC-23", S_REACTION)
    if state.purse[a.seat] < 1:
        raise refuse("arriving costs one scarab to the ante and your purse is empty", "R-GC-23", S_REACTION)


def play_arrive(state: GreatCityState, a: Action) -> list[Event]:
    sc = state.scene
    assert sc is not None
    cid = a.args["character"]
    state.purse[a.seat] -= 1
    sc.ante += 1
    sc.present.append(cid)
    sc.participants.add(a.seat)
    sc.acted[a.seat] = "arrive"
    return [say("arrive", f"{char_label(state, cid)} arrives (ante {sc.ante})"), *_end_turn(state, sc)]


def play_pass_reaction(state: GreatCityState, a: Action) -> list[Event]:
    sc = state.scene
    assert sc is not None
    sc.acted[a.seat] = "pass"
    return [say("pass", f"{seat_label(state, a.seat)} passes"), *_end_turn(state, sc)]


def _end_turn(state: GreatCityState, sc: Scene) -> list[Event]:
    sc.flipping = False
    sc.turn += 1
    if sc.turn >= len(sc.order):
        return _end_round(state, sc)
    return []


def _end_round(state: GreatCityState, sc: Scene) -> list[Event]:
    """(6) Rewards: each non-passing seat with a character present takes one scarab from the pool,
    then one scarab joins the ante (R-GC-32, R-GC-33, R-GC-34; HR-G3 takes both from the bank)."""
    slow = state.options["hr_slow_clock"]
    gm_paid = state.options["gm_takes_rewards"]
    paid, skipped = [], []
    present = sc.present
    for seat in sc.order:
        if sc.acted.get(seat, "pass") == "pass" or (seat == GM and not gm_paid):
            continue
        if not any(c in present for c in state.owned[seat]):
            continue
        if slow:
            state.bank_net += 1
        elif state.pool > 0:
            state.pool -= 1
        else:
            skipped.append(seat)
            continue
        state.purse[seat] += 1
        paid.append(seat)
    if slow or state.options["ante_increment_source"] == "bank":
        state.bank_net += 1
        sc.ante += 1
        ante_note = f"a scarab from the bank joins the ante ({sc.ante})"
    elif state.pool > 0:
        state.pool -= 1
        sc.ante += 1
        ante_note = f"a scarab from the pool joins the ante ({sc.ante})"
    else:
        ante_note = f"the pool is empty, the ante stays {sc.ante}"
    all_passed = all(sc.acted.get(s) == "pass" for s in sc.order)
    names = ", ".join(seat_label(state, s) for s in paid) or "nobody"
    text = f"End of round {sc.round}: rewards to {names}; {ante_note}; pool {state.pool}"
    if skipped:
        text += f" (the empty pool pays nothing to {', '.join(seat_label(state, s) for s in skipped)})"
    events = [say("rewards", text)]
    sc.round += 1
    sc.turn = 0
    sc.acted = {}
    if all_passed and state.options["hr_scene_guard"]:
        ch = state.characters
        forced = ch[sc.spotlight].controller  # type: ignore[index]
        if forced == GM and not state.options["gm_may_accept"]:
            forced = ch[sc.foil].controller  # type: ignore[index]
        sc.forced = forced
        events.append(say("scene_guard", f"Everyone passed: {seat_label(state, forced)} must accept (HR-G1)"))
    return events


def check_accept_judgment(state: GreatCityState, a: Action) -> None:
    sc = state.scene
    assert sc is not None
    cid = a.args["character"]
    if sc.flipping:
        raise refuse("one option per reaction: you have begun flipping; end the reaction", "R-GC-25", S_REACTION)
    if a.seat == GM and not state.options["gm_may_accept"]:
        raise refuse("with gm_may_accept off the GM may not accept the judgment", "R-GC-01", S_REACTION)
    if cid not in state.owned[a.seat]:
        raise refuse(f"you do not control {cid!r}", "R-GC-25", S_REACTION)
    if cid not in sc.present:
        raise refuse("only a seat with a character present in the scene may accept the judgment", "R-GC-25", S_REACTION)


def play_accept_judgment(state: GreatCityState, a: Action) -> list[Event]:
    """The acceptor takes the ante; the GM reads the judgment; no rewards this round (R-GC-24/25)."""
    sc = state.scene
    assert sc is not None
    seat = a.seat
    pair = pair_of(state, sc)
    won = sc.ante
    state.purse[seat] += won
    sc.ante = 0
    sc.acceptor, sc.accepted_pair, sc.forced = seat, pair, None
    sc.acted[seat] = "accept"
    name, judgment = O.lookup(pair >> 3, pair & 7)
    events = [
        say(
            "accept",
            f"{seat_label(state, seat)} accepts for {char_label(state, a.args['character'])} and takes the "
            f"ante of {won}. The judgment of {O.pair_bits(pair)} {name}: {judgment}",
        )
    ]
    cands = narrator_options(state)
    if not cands:
        sc.narrator = seat
        state.phase = "narrate"
        events.append(say("narrator", f"Nobody else took part: {seat_label(state, seat)} narrates (R-GC-35)"))
    elif len(cands) == 1:
        sc.narrator = cands[0]
        state.phase = "narrate"
        events.append(say("narrator", f"{seat_label(state, cands[0])}, the only other participant, narrates"))
    else:
        state.phase = "assign_narration"
    return events


# -- ending the scene ------------------------------------------------------------------------
def narrator_options(state: GreatCityState) -> list[str]:
    """Other seats that took part: a character present at any time, or a flip (R-GC-35)."""
    sc = state.scene
    return [s for s in state.seats if s in sc.participants and s != sc.acceptor]  # type: ignore[union-attr]


def acceptor_seat(state: GreatCityState) -> str:
    """The seat that accepted the judgment assigns the narration and distributes."""
    return state.scene.acceptor  # type: ignore[union-attr,return-value]


def narrator_seat(state: GreatCityState) -> str:
    return state.scene.narrator  # type: ignore[union-attr,return-value]


def legal_assign_narration(state: GreatCityState, seat: str) -> list[Action]:
    return [_ASSIGN.make(seat, s) for s in narrator_options(state)]


def check_assign_narration(state: GreatCityState, a: Action) -> None:
    if a.args["narrator"] not in narrator_options(state):
        raise refuse("narration goes to another seat that took part in the scene", "R-GC-35", S_ENDING)


def play_assign_narration(state: GreatCityState, a: Action) -> list[Event]:
    state.scene.narrator = a.args["narrator"]  # type: ignore[union-attr]
    state.phase = "narrate"
    return [say("narrator", f"{seat_label(state, a.args['narrator'])} will narrate what the judgment means")]


def legal_narrate(state: GreatCityState, seat: str) -> list[Action]:
    return [_NARRATE.make(seat)]


def play_narrate(state: GreatCityState, a: Action) -> list[Event]:
    state.phase = "distribution"
    return [say("narration", a.args["text"], seat=a.seat)]


_GIVE: Final = interner("give_scarabs", "to_seat", "n", ranges=("n",))
_VEST_OWN: Final = interner("vest_own", "character", "color", "n", ranges=("n",))
_FUND: Final = interner("fund_fate", "box", "n", ranges=("n",))
_CITY_FLIP: Final = interner("flip_city_stone", "position")
_CITY_VEST: Final = interner("vest_city_stone", "position", "n", ranges=("n",))


def legal_distribution(state: GreatCityState, seat: str) -> list[Action]:
    """Everything the acceptor may do with his purse (R-GC-36). Put together at each call from
    kept blocks: a cache of whole listings missed nine times in ten (it kept one per purse,
    characters owned and city vests)."""
    return _distribution(state, seat)


def _distribution(state: GreatCityState, seat: str) -> list[Action]:
    """The listing in its fixed order: gifts, each owned character's vests, the two fates, the
    city flips the purse affords, the city vests, the end (blocks kept by what they depend on)."""
    purse = state.purse[seat]
    out: list[Action] = []
    if purse >= 1:
        gives, funds, city_vests = _purse_menu(seat, purse, state.seats)
        out.extend(gives)
        for cid in state.owned[seat]:
            out.extend(_vest_own_menu(seat, cid, purse))
        out.extend(funds)
        vested = state.city_vested
        flips = _city_flips(seat)
        for i in range(6):
            if purse > vested[i]:
                out.append(flips[i])
        out.extend(city_vests)
    out.append(_simple(seat, "end_distribution"))
    return out


_PurseMenu = tuple[tuple[Action, ...], tuple[Action, ...], tuple[Action, ...]]
_PURSE_MENUS: Final[dict[tuple[str, int, tuple[str, ...]], _PurseMenu]] = {}
_VEST_OWN_MENUS: Final[dict[tuple[str, str, int], tuple[Action, ...]]] = {}
_CITY_FLIPS: Final[dict[str, tuple[Action, ...]]] = {}


def _purse_menu(seat: str, r: int, seats: tuple[str, ...]) -> _PurseMenu:
    """The gifts to the other seats, the two fates and the six city vests of a purse of ``r``."""
    key = (seat, r, seats)
    menu = _PURSE_MENUS.get(key)
    if menu is None:
        if len(_PURSE_MENUS) > 20_000:
            _PURSE_MENUS.clear()
        gives = tuple(_GIVE.make(seat, s, r) for s in seats if s != seat)
        funds = (_FUND.make(seat, "yea", r), _FUND.make(seat, "nay", r))
        city_vests = tuple(_CITY_VEST.make(seat, pos, r) for pos in range(1, 7))
        menu = _PURSE_MENUS[key] = (gives, funds, city_vests)
    return menu


def _vest_own_menu(seat: str, cid: str, r: int) -> tuple[Action, ...]:
    key = (seat, cid, r)
    menu = _VEST_OWN_MENUS.get(key)
    if menu is None:
        if len(_VEST_OWN_MENUS) > 20_000:
            _VEST_OWN_MENUS.clear()
        menu = _VEST_OWN_MENUS[key] = tuple(_VEST_OWN.make(seat, cid, color, r) for color in O.COLORS)
    return menu


def _city_flips(seat: str) -> tuple[Action, ...]:
    flips = _CITY_FLIPS.get(seat)
    if flips is None:
        flips = _CITY_FLIPS[seat] = tuple(_CITY_FLIP.make(seat, pos) for pos in range(1, 7))
    return flips


def _check_amount(state: GreatCityState, a: Action) -> int:
    n = a.args["n"]
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise refuse("an amount is a whole number of scarabs, at least 1", "R-GC-36", S_ENDING)
    if n > state.purse[a.seat]:
        raise refuse(f"you have {state.purse[a.seat]} free scarabs, not {n}", "R-GC-36", S_ENDING)
    return n


def check_give_scarabs(state: GreatCityState, a: Action) -> None:
    _check_amount(state, a)
    if a.args["to_seat"] not in state.seats or a.args["to_seat"] == a.seat:
        raise refuse("give scarabs to another seat at the table", "R-GC-36", S_ENDING)


def play_give_scarabs(state: GreatCityState, a: Action) -> list[Event]:
    n, to = a.args["n"], a.args["to_seat"]
    state.purse[a.seat] -= n
    state.purse[to] += n
    if state.hidden_flows is not None:
        state.hidden_flows.append((a.seat, to, n))
    return [
        whisper({a.seat, to}, "gift", f"{seat_label(state, a.seat)} gives {n} scarab(s) to {seat_label(state, to)}"),
        say("gift", f"{seat_label(state, a.seat)} makes a private gift"),
    ]


def check_vest_own(state: GreatCityState, a: Action) -> None:
    _check_amount(state, a)
    if a.args["character"] not in state.owned[a.seat]:
        raise refuse("vest only under the stones of your own character(s)", "R-GC-36", S_ENDING)
    if a.args["color"] not in O.COLORS:
        raise refuse("a stone is blue, white or green", "R-GC-36", S_ENDING)


def play_vest_own(state: GreatCityState, a: Action) -> list[Event]:
    n, cid, color = a.args["n"], a.args["character"], a.args["color"]
    state.purse[a.seat] -= n
    state.characters[cid].vested[O.COLORS.index(color)] += n
    return [say("vest", f"{seat_label(state, a.seat)} vests {n} under {char_label(state, cid)}'s {color} stone")]


def check_fund_fate(state: GreatCityState, a: Action) -> None:
    _check_amount(state, a)
    if a.args["box"] not in ("yea", "nay"):
        raise refuse("the Great City Fate box has a Yea and a Nay purse", "R-GC-38", S_ENDING)


def play_fund_fate(state: GreatCityState, a: Action) -> list[Event]:
    """Scarabs into Yea or Nay: only the contributor knows how many and where (R-GC-38)."""
    n, box = a.args["n"], a.args["box"]
    state.purse[a.seat] -= n
    mine = state.contributions.setdefault(a.seat, [0, 0])
    if box == "yea":
        state.yea += n
        mine[0] += n
    else:
        state.nay += n
        mine[1] += n
    text = f"{seat_label(state, a.seat)} puts {n} scarab(s) into the {box.capitalize()} purse"
    if state.options["fate_contributions"] == "public":
        return [say("fate", text)]
    if state.hidden_flows is not None:
        state.hidden_flows.append((a.seat, box, n))
    return [
        whisper({a.seat}, "fate", text),
        say("fate", f"{seat_label(state, a.seat)} drops scarabs into the Fate box"),
    ]


def check_flip_city_stone(state: GreatCityState, a: Action) -> None:
    pos = a.args["position"]
    if not isinstance(pos, int) or isinstance(pos, bool) or not 1 <= pos <= 6:
        raise refuse("a city stone position is 1..6", "R-GC-10", S_ENDING)
    cost = 1 + state.city_vested[pos - 1]
    if state.purse[a.seat] < cost:
        raise refuse(
            f"flipping city stone {pos} costs 1 + its {state.city_vested[pos - 1]} vested scarab(s) = {cost}",
            "R-GC-37",
            S_ENDING,
        )


def play_flip_city_stone(state: GreatCityState, a: Action) -> list[Event]:
    """Cost 1 + the stone's vested scarabs, all to the bank; no re-flip lock on the city (R-GC-37)."""
    pos = a.args["position"]
    vested = state.city_vested[pos - 1]
    cost = 1 + vested
    state.purse[a.seat] -= cost
    state.bank_net -= cost + vested  # the payment and the stone's vested scarabs go to the bank
    state.city_vested[pos - 1] = 0
    state.city ^= 1 << (6 - pos)  # type: ignore[operator]
    city = state.city
    name, judgment = O.lookup(city >> 3, city & 7)  # type: ignore[operator]
    return [
        say(
            "city_flip",
            f"{seat_label(state, a.seat)} pays {cost} to flip the Great City's stone {pos}: "
            f"{O.pair_bits(city)} {name}. {judgment}",
        )  # type: ignore[arg-type]
    ]


def check_vest_city_stone(state: GreatCityState, a: Action) -> None:
    _check_amount(state, a)
    pos = a.args["position"]
    if not isinstance(pos, int) or isinstance(pos, bool) or not 1 <= pos <= 6:
        raise refuse("a city stone position is 1..6", "R-GC-10", S_ENDING)


def play_vest_city_stone(state: GreatCityState, a: Action) -> list[Event]:
    n, pos = a.args["n"], a.args["position"]
    state.purse[a.seat] -= n
    state.city_vested[pos - 1] += n
    return [say("city_vest", f"{seat_label(state, a.seat)} vests {n} under the Great City's stone {pos}")]


def play_end_distribution(state: GreatCityState, a: Action) -> list[Event]:
    return end_scene(state)


def end_scene(state: GreatCityState) -> list[Event]:
    """Triads keep their state (R-GC-03; 'reset' restores them); the cycle moves on; an empty pool
    starts the end game."""
    sc = state.scene
    assert sc is not None
    if sc.snapshot is not None:
        for cid, triad in sc.snapshot.items():
            state.characters[cid].triad = triad
    pair = sc.accepted_pair
    state.history.append(
        {
            "scene": sc.index + 1,
            "focal": sc.focal,
            "spotlight": sc.spotlight,
            "foil": sc.foil,
            "acceptor": sc.acceptor,
            "narrator": sc.narrator,
            "pair": O.pair_bits(pair) if pair is not None else None,  # type: ignore[arg-type]
            "name": O.PAIR_NAMES[pair] if pair is not None else None,
            "rounds": sc.round,
            "flips": sc.flips,
        }
    )
    state.scene = None
    state.scene_index += 1
    events = [say("scene_end", f"Scene {sc.index + 1} ends (peril pool {state.pool})")]
    if state.pool == 0:
        from .endgame import enter_endgame

        return events + enter_endgame(state)
    return events + begin_scene(state)
