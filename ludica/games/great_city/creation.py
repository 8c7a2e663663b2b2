"""Creating the situation, the agents of peril and the characters; resources, ties, initiative.

**[CREATING SITUATION]**, **[GENERATING CHARACTERS]**, **[Character Resources and
Connections]**, **[The Mounting Peril]**, **[Initiative]**. Each action type has a ``legal_*``
(listing), a ``check_*`` (refusal with the rule, never a change) and a ``play_*`` (the change).
"""

from __future__ import annotations

from typing import Any, Final

from ...core import Action, Event, IntRange, Text
from ...core.values import rebuilt
from . import oracle as O
from .common import (
    GM,
    S_AGENTS,
    S_CHARACTERS,
    S_HUMAN,
    S_RESOURCES,
    act,
    char_label,
    interner,
    opt,
    refuse,
    say,
    seat_label,
)
from .state import Character, GreatCityState, Tie

MAX_AGENTS: Final = 3
NAME_TEXT: Final = Text("a name", 1, 80)
LONG_TEXT: Final = Text("a sentence or two", 1, 600)
SITUATION_TEXT: Final = Text("the situation of the city, as both triads read (a sentence or two)", 1, 600)
PERIL_TEXT: Final = Text("the peril the reduced triad names (a sentence or two)", 1, 600)
FACE_TEXT: Final = Text("the face of the peril, by the colours showing + (a sentence or two)", 1, 600)
TIE_SIGNS: Final = ("+", "-")
VEST_CLASSES: Final = {"aristocrat": 0, "myrmidon": 0, "learned": 1, "drone": 1, "mercantile": 2, "queen": 2}
"""Classes whose benefit is a scarab that may be vested under the stone of this colour index."""
RICH_CLASSES: Final = ("mercantile", "queen")
NOBLE_CLASSES: Final = ("aristocrat", "myrmidon")


# -- the situation ---------------------------------------------------------------------------
def play_roll_situation(state: GreatCityState, dice: list[int]) -> list[Event]:
    """Six d8: the Great City's triad-pair, its moving stones, trajectory and reduction (CH-1).

    Rule: [The Situation]
    """
    faces = [O.d8(d) for d in dice]
    first = faces[0][0] << 2 | faces[1][0] << 1 | faces[2][0]
    second = faces[3][0] << 2 | faces[4][0] << 1 | faces[5][0]
    initial = first << 3 | second
    moving = [i + 1 for i, (_, m) in enumerate(faces) if m]
    pair = initial
    for p in moving:  # all moving stones flip at once; nothing is vested in the city (R-GC-04)
        pair ^= 1 << (6 - p)
    state.situation_dice = list(dice)
    state.initial_city, state.city_moving, state.city = initial, moving, pair
    base = initial if opt(state, "reduce_from") == "initial" else pair  # R-GC-05
    state.reduced = O.reduce(base >> 3, base & 7)
    name, judgment = O.lookup(initial >> 3, initial & 7)
    events = [
        say(
            "situation",
            f"The Great City's situation: {O.pair_bits(initial)} — {O.triad_name(initial >> 3)} and "
            f"{O.triad_name(initial & 7)}: {name}. {judgment}",
        )
    ]
    if moving:
        tname, tjudgment = O.lookup(pair >> 3, pair & 7)
        events.append(
            say(
                "trajectory",
                f"Moving stone(s) at position {', '.join(map(str, moving))} flip at once: {O.pair_bits(pair)} — "
                f"{tname}. {tjudgment}",
            )
        )
    faces_of_peril = O.face_of_peril(state.reduced)
    events.append(
        say(
            "peril",
            f"Reduced triad {O.signs(state.reduced)} — {O.triad_name(state.reduced)}; face of peril: "
            f"{', '.join(faces_of_peril) if faces_of_peril else 'none recognised (R-GC-08)'}",
        )
    )
    state.phase = "record_situation"
    return events


def legal_record_situation(state: GreatCityState, seat: str) -> list[Action]:
    return [act(GM, "record_situation", ("situation", SITUATION_TEXT), ("peril", PERIL_TEXT), ("face", FACE_TEXT))]


def play_record_situation(state: GreatCityState, a: Action) -> list[Event]:
    """The consensus texts are recorded; the software never judges consensus (R-GC-07)."""
    state.situation_texts = {"situation": a.args["situation"], "peril": a.args["peril"], "face": a.args["face"]}
    state.phase = "agents"
    return [
        say(
            "situation_texts",
            f"The situation: {a.args['situation']} The peril: {a.args['peril']} Its face: {a.args['face']}",
        )
    ]


# -- agents of peril -------------------------------------------------------------------------
def agents(state: GreatCityState) -> list[Character]:
    return [c for c in state.characters.values() if c.agent]


def legal_agents(state: GreatCityState, seat: str) -> list[Action]:
    out = []
    n = len(agents(state))
    if n < MAX_AGENTS:
        out.append(act(GM, "create_agent", ("name", NAME_TEXT), ("description", LONG_TEXT)))
    if n >= 1:
        out.append(act(GM, "end_agents"))
    return out


def check_create_agent(state: GreatCityState, a: Action) -> None:
    if len(agents(state)) >= MAX_AGENTS:
        raise refuse("the group creates one to three agents of peril; there are three already", "R-GC-14", S_AGENTS)


def check_end_agents(state: GreatCityState, a: Action) -> None:
    if not agents(state):
        raise refuse("create at least one agent of peril first", "agents", S_AGENTS)


def new_character(state: GreatCityState, controller: str, **kw: Any) -> Character:
    cid = f"c{state.next_char}"
    state.next_char += 1
    c = Character(cid, controller, **kw)
    state.characters[cid] = c
    return c


def play_create_agent(state: GreatCityState, a: Action) -> list[Event]:
    """The GM creates an agent of peril; its triad is rolled like a player's, or chosen (R-GC-17).

    Rule: [The Agents of Peril]
    """
    stage = "roll" if opt(state, "agent_triads") == "rolled" else "choose_triad"
    c = new_character(state, GM, name=a.args["name"], agent=True, description=a.args["description"], stage=stage)
    return [say("agent", f"Agent of peril {char_label(state, c.id)}: {c.description}")]


def play_end_agents(state: GreatCityState, a: Action) -> list[Event]:
    """The GM sets the agents' attributes, then each player generates a character."""
    queue = [c.id for c in agents(state)]
    for seat in state.seats[:-1]:
        queue.append(new_character(state, seat).id)
    state.create_queue = queue
    return [*_next_creation(state)]


# -- generating characters -------------------------------------------------------------------
def _creating(state: GreatCityState) -> Character:
    return state.characters[state.creating]  # type: ignore[index]


def _stages(state: GreatCityState, c: Character) -> tuple[str, ...]:
    if c.controller != GM:
        return ("kind", "traits", "class", "intent", "name")
    if c.agent:
        return ("kind", "traits", "class")
    stages: tuple[str, ...] = ("kind", "traits", "class", "name")
    if c.cls in VEST_CLASSES:
        stages += ("vest",)
    return (*stages, "ties")


def _advance(state: GreatCityState, c: Character) -> list[Event]:
    """Move a character to its next creation stage, or finish it."""
    stages = _stages(state, c)
    i = stages.index(c.stage) + 1 if c.stage in stages else 0
    if i < len(stages):
        c.stage = stages[i]
        if c.stage == "ties":
            state.tie_grants = []
        return []
    c.stage = "done"
    state.owned[c.controller].append(c.id)
    state.creating = None
    if state.scene is not None:  # a new GM character created as a foil (R-GC-45)
        from .scene import foil_ready

        return foil_ready(state)
    return _next_creation(state)


def _next_creation(state: GreatCityState) -> list[Event]:
    if state.create_queue:
        state.creating = state.create_queue.pop(0)
        state.phase = "create"
        return []
    return _enter_resources(state)


def set_triad(state: GreatCityState, c: Character, dice: list[int]) -> list[Event]:
    """Set a character's stones from d8 results; moving stones get a vested scarab from the bank (R-GC-04)."""
    triad = moving = 0
    for i, d in enumerate(dice):
        b, m = O.d8(d)
        triad |= b << (2 - i)
        if m:
            moving |= 1 << (2 - i)
            c.vested[i] += 1
            state.bank_net += 1
    c.triad, c.moving = triad, moving
    note = ""
    if moving:
        colors = [O.COLORS[i] for i in range(3) if moving >> (2 - i) & 1]
        note = f"; moving {', '.join(colors)}: a scarab is vested under each"
    return [say("triad", f"{char_label(state, c.id)} throws {O.signs(triad)} ({O.triad_name(triad)}){note}")]


def play_roll_character_triad(state: GreatCityState, dice: list[int]) -> list[Event]:
    c = _creating(state)
    events = set_triad(state, c, dice)
    return events + _advance(state, c)


_KIND: Final = interner("choose_kind", "character", "kind")
_CLASS: Final = interner("choose_class", "character", "class")
_INTENT: Final = interner("choose_intent", "character", "color", fixed={"text": LONG_TEXT})
_NAME: Final = interner("name_character", "character", fixed={"name": NAME_TEXT})
_DRAW: Final = interner("draw_name", "character", "list")
_VEST: Final = interner("vest_class_scarab", "character", "vest")


_TRAIT_MENUS: Final[dict[tuple[str, str, str | None, int], tuple[Action, ...]]] = {}


def legal_create(state: GreatCityState, seat: str) -> list[Action]:
    """The choices of the creation step (the trait allocations kept: they depend only on the
    character's id, kind and triad; the other steps list interned actions)."""
    c = _creating(state)
    stage = c.stage
    if stage == "ties":
        return legal_tie_turn(state, seat, c, buy_only=True)
    if stage == "traits":
        return list(_trait_menu(seat, c))
    return _create_menu(seat, c)


def _trait_menu(seat: str, c: Character) -> tuple[Action, ...]:
    """The trait allocations of a character's kind and triad (Table 2): a dict parameter, so
    never interned by ``act`` (made directly, without its failed lookup), kept here instead."""
    key = (seat, c.id, c.kind, c.triad)
    menu = _TRAIT_MENUS.get(key)
    if menu is None:
        if len(_TRAIT_MENUS) > 20_000:
            _TRAIT_MENUS.clear()
        menu = _TRAIT_MENUS[key] = tuple(
            Action(seat, "allocate_traits", {"character": c.id, "traits": _trait_dict(c.kind, t)})  # type: ignore[arg-type]
            for t in O.trait_options(c.kind, c.triad)  # type: ignore[arg-type]
        )
    return menu


def _create_menu(seat: str, c: Character) -> list[Action]:
    cid, stage = c.id, c.stage
    if stage == "choose_triad":
        r = IntRange(1, 8)
        return [act(GM, "set_triad", ("character", cid), ("blue", r), ("white", r), ("green", r))]
    if stage == "kind":
        return [_KIND.make(seat, cid, k) for k in O.KINDS]
    if stage == "class":
        return [_CLASS.make(seat, cid, k) for k in O.class_options(c.kind, c.triad, c.moving)]  # type: ignore[arg-type]
    if stage == "intent":
        return [_INTENT.make(seat, cid, col) for col in O.COLORS]
    if stage == "name":
        return [_NAME.make(seat, cid), _DRAW.make(seat, cid, "male"), _DRAW.make(seat, cid, "female")]
    if stage == "vest":
        return [_VEST.make(seat, cid, True), _VEST.make(seat, cid, False)]
    return []


def check_create_stage(state: GreatCityState, a: Action, stage: str, what: str) -> Character:
    c = _creating(state)
    if a.args.get("character") != c.id:
        raise refuse(f"{char_label(state, c.id)} is the character being created now", "creation", S_CHARACTERS)
    if c.stage != stage:
        raise refuse(
            f"{char_label(state, c.id)} is not at the step to {what} (now: {c.stage})", "creation", S_CHARACTERS
        )
    return c


def check_set_triad(state: GreatCityState, a: Action) -> None:
    check_create_stage(state, a, "choose_triad", "set its triad")
    for k in ("blue", "white", "green"):
        v = a.args[k]
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 8:
            raise refuse(f"{k} must be a d8 value 1..8 (1 and 8 are moving stones)", "R-GC-17", S_AGENTS)


def play_set_triad(state: GreatCityState, a: Action) -> list[Event]:
    c = _creating(state)
    return set_triad(state, c, [a.args["blue"], a.args["white"], a.args["green"]]) + _advance(state, c)


def check_choose_kind(state: GreatCityState, a: Action) -> None:
    check_create_stage(state, a, "kind", "choose its kind")
    if a.args["kind"] not in O.KINDS:
        raise refuse("a character is human or bug", "kind", S_CHARACTERS)


def play_choose_kind(state: GreatCityState, a: Action) -> list[Event]:
    """A character is human or bug; the kind decides its trait dimensions and its classes.

    Rule: [Human Characters]; [Bug Characters]
    """
    c = _creating(state)
    c.kind = a.args["kind"]
    return [say("kind", f"{char_label(state, c.id)} is a {c.kind}"), *_advance(state, c)]


def _trait_dict(kind: str, traits: tuple[str, ...]) -> dict[str, str]:
    """``{dimension: value}`` in the text's order, the spec's form of ``allocate_traits``."""
    return {dim: value for (dim, _, _), value in zip(O.DIMENSIONS[kind], traits, strict=True)}


def _trait_tuple(kind: str, traits: dict[str, Any]) -> tuple[Any, ...] | None:
    dims = [dim for dim, _, _ in O.DIMENSIONS[kind]]
    if set(traits) != set(dims):
        return None
    return tuple(traits[d] for d in dims)


def check_allocate_traits(state: GreatCityState, a: Action) -> None:
    c = check_create_stage(state, a, "traits", "allocate traits")
    chosen = _trait_tuple(c.kind, a.args["traits"])  # type: ignore[arg-type]
    if chosen is None or chosen not in O.trait_options(c.kind, c.triad):  # type: ignore[arg-type]
        dims = " / ".join(f"{d}: {p} (+) or {m} (-)" for d, p, m in O.DIMENSIONS[c.kind])  # type: ignore[index]
        raise refuse(
            f"allocate the triad's signs {O.signs(c.triad)} to the {c.kind} traits, one value per dimension "
            f"({dims}); exactly {bin(c.triad).count('1')} must be +",
            "R-GC-09",
            S_CHARACTERS,
        )


def play_allocate_traits(state: GreatCityState, a: Action) -> list[Event]:
    c = _creating(state)
    c.traits = _trait_tuple(c.kind, a.args["traits"])  # type: ignore[assignment,arg-type]
    return [say("traits", f"{char_label(state, c.id)} is {', '.join(c.traits)}"), *_advance(state, c)]  # type: ignore[arg-type]


def check_choose_class(state: GreatCityState, a: Action) -> None:
    c = check_create_stage(state, a, "class", "choose its class")
    allowed = O.class_options(c.kind, c.triad, c.moving)  # type: ignore[arg-type]
    if a.args["class"] not in allowed:
        raise refuse(
            f"{a.args['class']!r} is not open to {char_label(state, c.id)}: a class needs a + or moving stone of its "
            f"colour; open: {', '.join(allowed)}",
            "R-GC-11",
            S_HUMAN,
        )


def play_choose_class(state: GreatCityState, a: Action) -> list[Event]:
    c = _creating(state)
    c.cls = a.args["class"]
    events = [say("class", f"{char_label(state, c.id)} is of class {c.cls}")]
    if state.scene is not None and c.cls in RICH_CLASSES:  # new GM character: +2 to the GM purse (R-GC-45)
        state.purse[GM] += 2
        state.bank_net += 2
        events.append(say("class_bonus", f"{c.cls}: two more free scarabs for the GM"))
    return events + _advance(state, c)


def check_choose_intent(state: GreatCityState, a: Action) -> None:
    check_create_stage(state, a, "intent", "choose its intent")
    if a.args["color"] not in O.COLORS:
        raise refuse("pick one of your stones: blue, white or green", "R-GC-18", S_HUMAN)


def play_choose_intent(state: GreatCityState, a: Action) -> list[Event]:
    """Will you save the Great City? The chosen stone's face answers; its colour the basis (R-GC-18)."""
    c = _creating(state)
    color = a.args["color"]
    answer = "yes" if O.stone(c.triad, O.COLORS.index(color)) else "no"
    c.intent = {"color": color, "answer": answer, "basis": O.JUSTIFICATION[color], "text": a.args["text"]}
    events = [
        say(
            "intent",
            f"{char_label(state, c.id)} — will you save the Great City? {answer.upper()} "
            f"({color} stone, justified by {O.JUSTIFICATION[color]}): {a.args['text']}",
        )
    ]
    return events + _advance(state, c)


def check_name_character(state: GreatCityState, a: Action) -> None:
    check_create_stage(state, a, "name", "be named")


def play_name_character(state: GreatCityState, a: Action) -> list[Event]:
    c = _creating(state)
    c.name = a.args["name"]
    return [say("name", f"{c.id} is named {c.name}"), *_advance(state, c)]


def check_draw_name(state: GreatCityState, a: Action) -> None:
    check_create_stage(state, a, "name", "be named")
    if a.args["list"] not in ("male", "female"):
        raise refuse("draw a first name from the male or the female list of Table 4", "R-GC-43", S_HUMAN)


def play_draw_name(state: GreatCityState, a: Action) -> list[Event]:
    c = _creating(state)
    c.stage = "name_roll:" + a.args["list"]
    return []


def play_roll_name(state: GreatCityState, dice: list[int]) -> list[Event]:
    """A d20 on the chosen first-name list and one on the surnames (Table 4, R-GC-43)."""
    c = _creating(state)
    first_list = c.stage.split(":", 1)[1]
    c.name = f"{O.NAMES[first_list][dice[0]]} {O.NAMES['surnames'][dice[1]]}"
    c.stage = "name"
    return [say("name", f"{c.id} is named {c.name} (Table 4: {dice[0]}, {dice[1]})"), *_advance(state, c)]


# -- resources -------------------------------------------------------------------------------
def _enter_resources(state: GreatCityState) -> list[Event]:
    """Starting scarabs: 3 per player, 4 per player + 2 per agent for the GM; class bonuses (R-GC-16).

    Rule: [Character Resources and Connections]
    """
    n = len(state.players)
    ags = agents(state)
    for seat in state.seats[:-1]:
        c = state.player_char(seat)
        amount = 3 + (2 if c is not None and c.cls in RICH_CLASSES else 0)
        state.purse[seat] += amount
        state.bank_net += amount
    gm = 4 * n + 2 * len(ags) + 2 * sum(1 for c in ags if c.cls in RICH_CLASSES)
    state.purse[GM] += gm
    state.bank_net += gm
    players_first = [state.player_char(s) for s in state.seats[:-1]] + ags
    state.vest_queue = [c.id for c in players_first if c is not None and c.cls in VEST_CLASSES]
    events = [
        say(
            "resources",
            "Each player takes 3 scarabs (a mercantile or queen character 2 more); the GM takes 4 per player, "
            "2 per agent of peril and 2 more per mercantile or queen agent.",
        )
    ]
    return events + _next_vest(state)


def _next_vest(state: GreatCityState) -> list[Event]:
    if state.vest_queue:
        state.phase = "vest"
        return []
    return _enter_ties(state)


def vest_seat(state: GreatCityState) -> str:
    """Who decides on the class scarab now: the controller of the first character in the queue."""
    return state.characters[state.vest_queue[0]].controller


def legal_vest(state: GreatCityState, seat: str) -> list[Action]:
    cid = state.vest_queue[0]
    return [_VEST.make(seat, cid, True), _VEST.make(seat, cid, False)]


def check_vest_class_scarab(state: GreatCityState, a: Action) -> None:
    cid = state.creating if state.phase == "create" else (state.vest_queue[0] if state.vest_queue else None)
    if a.args["character"] != cid:
        raise refuse(f"the class benefit to decide now is {cid}'s", "R-GC-12", S_RESOURCES)
    if not isinstance(a.args["vest"], bool):
        raise refuse("vest is true or false", "R-GC-12", S_RESOURCES)


def play_vest_class_scarab(state: GreatCityState, a: Action) -> list[Event]:
    """The class benefit: optionally one scarab from the bank under the class's stone (R-GC-12)."""
    c = state.characters[a.args["character"]]
    color = VEST_CLASSES[c.cls]  # type: ignore[index]
    events = []
    if a.args["vest"]:
        c.vested[color] += 1
        state.bank_net += 1
        events.append(
            say("vest", f"{char_label(state, c.id)} ({c.cls}) vests a scarab under its {O.COLORS[color]} stone")
        )
    else:
        events.append(say("vest", f"{char_label(state, c.id)} ({c.cls}) vests no scarab"))
    if state.phase == "create":
        return events + _advance(state, c)
    state.vest_queue.pop(0)
    return events + _next_vest(state)


# -- ties ------------------------------------------------------------------------------------
def _enter_ties(state: GreatCityState) -> list[Event]:
    order = [state.player_char(s) for s in state.seats[:-1]] + agents(state)
    state.tie_queue = [c.id for c in order if c is not None]
    return _next_tie_turn(state, [])


def _grants(state: GreatCityState, c: Character) -> tuple[list[str], list[Event]]:
    """The free tie and the bonus ties of a character (R-GC-13, R-GC-14, R-GC-42)."""
    grants = ["free"]
    events: list[Event] = []
    if c.cls in NOBLE_CLASSES:
        if any(o.cls in NOBLE_CLASSES for o in state.characters.values() if o.id != c.id):
            grants.append("class")
        else:
            events.append(
                say(
                    "tie_forfeit",
                    f"{char_label(state, c.id)} has no other aristocrat or myrmidon to tie to: the "
                    "class bonus tie is forfeited (R-GC-13)",
                )
            )
    traits = c.traits or ()
    for bonus in ("urbane", "self-aware", "cruel", "kind"):
        if bonus in traits:
            grants.append(bonus)
    return grants, events


def _next_tie_turn(state: GreatCityState, events: list[Event]) -> list[Event]:
    if state.tie_queue:
        c = state.characters[state.tie_queue[0]]
        state.tie_grants, more = _grants(state, c)
        state.phase = "ties"
        return events + more
    return events + _enter_initiative(state)


def has_tie(state: GreatCityState, source: str, target: str, sign: str) -> bool:
    return any(t.source == source and t.target == target and t.sign == sign for t in state.ties)


def _grant_allows(grant: str, noble_target: bool, sign: str) -> bool:
    if grant == "class":
        return noble_target
    if grant == "cruel":
        return sign == "-"
    if grant == "kind":
        return sign == "+"
    return True


_ADD_TIE: Final = interner("add_tie", "source", "target", "sign", "grant")
_BUY_TIE: Final = interner("buy_tie", "source", "target", "sign")
_END_TIES: Final = interner("end_ties", "source")


class TieChoices:
    """The ties of one grant a character could make, each with its (target, sign): two parallel
    tuples, not (tie, action) pairs (one kept object fewer per choice)."""

    __slots__ = ("actions", "ties")

    def __init__(self, ties: tuple[tuple[str, str], ...], actions: tuple[Action, ...]) -> None:
        self.ties = ties
        self.actions = actions

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.ties, self.actions)  # see ludica.core.values

    def open(self, taken: set[tuple[str, str]]) -> tuple[Action, ...] | list[Action]:
        """The choices whose (target, sign) is not taken yet (R-GC-15)."""
        if not taken:
            return self.actions
        ties, actions = self.ties, self.actions
        return [actions[j] for j in range(len(ties)) if ties[j] not in taken]


_TieMenu = dict[str, TieChoices]
_TIE_MENUS: Final[dict[tuple[Any, ...], _TieMenu]] = {}


def _tie_menu(seat: str, cid: str, others: tuple[tuple[str, bool], ...]) -> _TieMenu:
    """The tie choices of a character to the others, by grant ('bought' for purchases), each
    with its (target, sign): kept per tie turn, each grant's made when first asked for
    (:func:`_tie_choices`), filtered at each step."""
    key = (seat, cid, others)
    menu = _TIE_MENUS.get(key)
    if menu is None:
        if len(_TIE_MENUS) > 20_000:
            _TIE_MENUS.clear()
        menu = _TIE_MENUS[key] = {}
    return menu


def _tie_choices(menu: _TieMenu, grant: str, seat: str, cid: str, others: tuple[tuple[str, bool], ...]) -> TieChoices:
    """The ties of one grant (R-GC-13, R-GC-42), or the bought ones (R-GC-14), kept in ``menu``."""
    choices = menu.get(grant)
    if choices is None:
        ties: list[tuple[str, str]] = []
        actions: list[Action] = []
        for oid, noble in others:
            for sign in TIE_SIGNS:
                if grant == "bought":
                    actions.append(_BUY_TIE.make(seat, cid, oid, sign))
                elif _grant_allows(grant, noble, sign):
                    actions.append(_ADD_TIE.make(seat, cid, oid, sign, grant))
                else:
                    continue
                ties.append((oid, sign))
        choices = menu[grant] = TieChoices(tuple(ties), tuple(actions))
    return choices


def legal_tie_turn(state: GreatCityState, seat: str, c: Character, *, buy_only: bool = False) -> list[Action]:
    """The ties a character may still make (R-GC-13..15, R-GC-42)."""
    cid = c.id
    others = tuple(
        (o.id, o.cls in NOBLE_CLASSES) for o in state.characters.values() if o.id != cid and o.stage == "done"
    )
    taken = {(t.target, t.sign) for t in state.ties if t.source == cid}
    menu = _tie_menu(seat, cid, others)
    out: list[Action] = []
    if not buy_only:
        listed: list[str] = []  # each open grant once, in order (``dict.fromkeys``, without its call)
        for grant in state.tie_grants:
            if grant not in listed:
                listed.append(grant)
                out.extend(_tie_choices(menu, grant, seat, cid, others).open(taken))
    if state.purse[seat] >= 1:
        out.extend(_tie_choices(menu, "bought", seat, cid, others).open(taken))
    out.append(_END_TIES.make(seat, cid))
    return out


def _tie_source(state: GreatCityState) -> Character:
    if state.phase == "create":
        return _creating(state)
    return state.characters[state.tie_queue[0]]


def _check_tie(state: GreatCityState, a: Action) -> Character:
    c = _tie_source(state)
    if a.args["source"] != c.id:
        raise refuse(f"it is {char_label(state, c.id)}'s turn to make ties", "R-GC-14", S_RESOURCES)
    if "target" in a.args:
        target, sign = a.args["target"], a.args["sign"]
        if target == c.id:
            raise refuse("a character cannot tie to itself", "R-GC-15", S_RESOURCES)
        if not isinstance(target, str) or target not in state.characters or state.characters[target].stage != "done":
            raise refuse(f"there is no character {target!r} on the network", "R-GC-15", S_RESOURCES)
        if sign not in TIE_SIGNS:
            raise refuse("a tie is positive (+) or negative (-)", "R-GC-15", S_RESOURCES)
        if has_tie(state, c.id, target, sign):
            raise refuse(
                f"{char_label(state, c.id)} already has a {sign} tie to {char_label(state, target)}: at most one tie "
                "per source, target and sign (multiplex + and - is allowed)",
                "R-GC-15",
                S_RESOURCES,
            )
    return c


def check_add_tie(state: GreatCityState, a: Action) -> None:
    c = _check_tie(state, a)
    grant = a.args["grant"]
    if state.phase != "ties":
        raise refuse(
            "a GM character created during play gets no free or bonus ties; the GM may buy them", "R-GC-14", S_RESOURCES
        )
    if grant not in state.tie_grants:
        raise refuse(
            f"{char_label(state, c.id)} has no {grant!r} tie left (open: {', '.join(state.tie_grants) or 'none'})",
            "R-GC-14",
            S_RESOURCES,
        )
    target = state.characters[a.args["target"]]
    if not _grant_allows(grant, target.cls in NOBLE_CLASSES, a.args["sign"]):
        why = {
            "class": "the aristocrat/myrmidon bonus tie goes to another aristocrat or myrmidon",
            "cruel": "the cruel bonus tie is negative",
            "kind": "the kind bonus tie is positive",
        }[grant]
        raise refuse(why, "R-GC-42" if grant in ("cruel", "kind") else "R-GC-13", S_RESOURCES)


def check_buy_tie(state: GreatCityState, a: Action) -> None:
    _check_tie(state, a)
    if state.purse[a.seat] < 1:
        raise refuse("an extra tie costs one free scarab and your purse is empty", "R-GC-14", S_RESOURCES)


def check_end_ties(state: GreatCityState, a: Action) -> None:
    _check_tie(state, a)


def _add(state: GreatCityState, source: str, target: str, sign: str, grant: str) -> Event:
    """A tie joins the character network: from ``source`` to ``target``, positive or negative.

    Rule: [The Character Network]
    """
    tid = f"t{state.next_tie}"
    state.next_tie += 1
    state.ties.append(Tie(tid, source, target, sign, grant))
    how = "bought" if grant == "bought" else f"{grant} tie"
    return say("tie", f"Tie {tid}: {char_label(state, source)} {sign} → {char_label(state, target)} ({how})")


def play_add_tie(state: GreatCityState, a: Action) -> list[Event]:
    state.tie_grants.remove(a.args["grant"])
    return [_add(state, a.args["source"], a.args["target"], a.args["sign"], a.args["grant"])]


def play_buy_tie(state: GreatCityState, a: Action) -> list[Event]:
    state.purse[a.seat] -= 1
    state.bank_net -= 1  # creation payments return to the bank (R-GC-02)
    return [_add(state, a.args["source"], a.args["target"], a.args["sign"], "bought")]


def play_end_ties(state: GreatCityState, a: Action) -> list[Event]:
    if state.phase == "create":
        return _advance(state, _creating(state))
    state.tie_queue.pop(0)
    state.tie_grants = []
    return _next_tie_turn(state, [])


def tie_seat(state: GreatCityState) -> str:
    """Who makes ties now: the controller of the character whose tie turn it is."""
    return state.characters[state.tie_queue[0]].controller


def legal_ties(state: GreatCityState, seat: str) -> list[Action]:
    return legal_tie_turn(state, seat, state.characters[state.tie_queue[0]])


# -- the Mounting Peril and initiative -------------------------------------------------------
def _enter_initiative(state: GreatCityState) -> list[Event]:
    """The Mounting Peril pool is filled by player count; then initiative is rolled.

    Rule: [The Mounting Peril]
    """
    state.phase = "initiative"
    state.initiative["candidates"] = list(state.seats[:-1])
    return [say("peril_pool", f"The Mounting Peril: {state.pool} scarabs in the pool ({len(state.players)} players)")]


def play_roll_initiative(state: GreatCityState, dice: list[int]) -> list[Event]:
    """Highest d8 starts; ties by class order, then roll-offs among the still tied (R-GC-19).

    Rule: [Initiative]
    """
    cands = state.initiative["candidates"]
    state.initiative["rolls"].append(dict(zip(cands, dice, strict=True)))
    top = max(dice)
    tied = [s for s, d in zip(cands, dice, strict=True) if d == top]
    text = ", ".join(f"{seat_label(state, s)} {d}" for s, d in zip(cands, dice, strict=True))
    events = [say("initiative", f"Initiative rolls: {text}")]
    if len(tied) > 1:
        tiers = {s: O.INITIATIVE_TIER[state.player_char(s).cls] for s in tied}  # type: ignore[union-attr,index]
        best = min(tiers.values())
        tied = [s for s in tied if tiers[s] == best]
        if len(tied) > 1:
            state.initiative["candidates"] = tied
            events.append(say("initiative", f"Still tied after class order: {', '.join(tied)} roll off"))
            return events
    winner = tied[0]
    state.initiative["winner"] = winner
    players = list(state.seats[:-1])
    i = players.index(winner)
    state.cycle = players[i:] + players[:i] + [GM]
    events.append(
        say(
            "initiative",
            f"{seat_label(state, winner)} starts; the scenes go "
            f"{' → '.join(seat_label(state, s) for s in state.cycle)} and around again",
        )
    )
    from .scene import begin_scene

    return events + begin_scene(state)


def pool_size(players: int) -> int:
    return O.PERIL_POOL_SIZE[players]
