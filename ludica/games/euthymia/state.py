"""The state of a game of Euthymia: the table, the bottle and glasses, the characters, the secret.

The whole table lives in :class:`EuthymiaState`. Aspects are kept in the order of
the character sheet — Feel (♦), Speak (♠), Believe (♣), Love (♥) **[The Ideal Citizen]** — so a
Strength is ``character.strength[i]`` and the matching suit is ``SUITS[i]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ...core.mechanisms import Proposal, SealedChoices
from ...core.values import Value

TABLE = "table"
"""The seat of the group as a whole: the Ideal Citizen, the setting, the clock, the hour's start."""

ASPECTS = ("FEEL", "SPEAK", "BELIEVE", "LOVE")
SUITS = ("D", "S", "C", "H")
FEEL = 0
EUTHYMIC = "Feels euthymic"

# Statuses of a player's character.
ACTIVE_CHARACTER = "ACTIVE_CHARACTER"
DEAD_THIS_HOUR = "DEAD_THIS_HOUR"
IDEAL_CITIZEN = "IDEAL_CITIZEN"
NEEDS_NEW_CHARACTER = "NEEDS_NEW_CHARACTER"

# Phases (docs/rules/euthymia.md, "Phases").
IDEAL_CITIZEN_PHASE = "IDEAL_CITIZEN"
BUILD_STATE = "BUILD_STATE"
CHARACTERS = "CHARACTERS"
STRENGTHS = "STRENGTHS"
CM_DEAL = "CM_DEAL"
CM_PASS = "CM_PASS"
HOUR_END = "HOUR_END"
NEW_CHARACTERS = "NEW_CHARACTERS"
WHO_STARTS = "WHO_STARTS"
TURN = "TURN"
CONFLICT = "CONFLICT"
TURN_END = "TURN_END"
CM_REVEAL_TURN = "CM_REVEAL_TURN"
GAME_ENDINGS = "GAME_ENDINGS"
GAME_OVER = "GAME_OVER"
CM_VOTE = "CM_VOTE"

# Kinds of turn.
NORMAL = "NORMAL"
MORE_CARDS = "MORE_CARDS"
FINAL = "FINAL"

# Launch types (the three ways of Ending the turn).
WANT = "WANT"
TEMPTED = "TEMPTED"
COMMITTEE = "COMMITTEE"
LAUNCH_TYPES = (WANT, TEMPTED, COMMITTEE)

# Bottle holders besides a seat.
CENTER = "CENTER"
NONE = "NONE"

# Contexts of a tie designation (R-EU-10).
MOST_DRINK = "most_drink"
CONFLICT_ORDER = "conflict_order"
NEXT_ACTIVE = "next_active"
ENDING_ORDER = "ending_order"
CONTEXTS = (MOST_DRINK, CONFLICT_ORDER, NEXT_ACTIVE, ENDING_ORDER)

# Chance steps.
DEAL_IDENTITY = "deal_identity_cards"
PASS_IDENTITY = "pass_identity_cards"
SHUFFLE_AND_DEAL = "shuffle_and_deal"
RESHUFFLE = "reshuffle"

HAND_SIZE = 6


@dataclass(frozen=True, slots=True)
class Options(Value):
    """The configuration (docs/rules/euthymia.md, "Options"; read once at set-up, shared by every copy of the state)."""

    bottle_units: int = 30
    glass_capacity: int = 10
    final_round_at_s: int = 2700
    bottle_mode: str = "finish"
    tie_break_pours: bool = False
    cap_mode_regular: str = "stay"
    cm_pass_mode: str = "random_derangement"
    passer_learns_recipient: bool = True
    hr_forced_launch: bool = False
    cm_proposals_per_hour: int = 1


@dataclass(slots=True)
class Character:
    """A character sheet: a name, four Aspect texts and four Strengths (``None`` until set)."""

    name: str
    aspects: tuple[str, str, str, str]
    strength: list[int] | None = None

    def copy(self) -> Character:
        return Character(self.name, self.aspects, None if self.strength is None else list(self.strength))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "aspects": list(self.aspects), "strength": self.strength}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Character:
        strength = data["strength"]
        return cls(data["name"], tuple(data["aspects"]), None if strength is None else list(strength))


@dataclass(slots=True)
class Conflict:
    """A Conflict in progress: who launched it, how, on which Aspect, the cards played."""

    launcher: str
    launch_type: str
    aspect: int
    medication: bool
    text: str
    levels: dict[str, int]
    """Every non-active glass at the launch (retired glasses as 0): the order is fixed by it (R-EU-11)."""
    order: list[str] = field(default_factory=list)
    """The card-play order, set once every tie in it is designated."""
    index: int = 0
    plays: list[list[Any]] = field(default_factory=list)
    """``[player, card id or None]`` — ``None`` records a skipped player with no cards (R-EU-14)."""

    def copy(self) -> Conflict:
        return Conflict(
            self.launcher,
            self.launch_type,
            self.aspect,
            self.medication,
            self.text,
            dict(self.levels),
            list(self.order),
            self.index,
            [list(p) for p in self.plays],
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "launcher": self.launcher,
            "launch_type": self.launch_type,
            "aspect": self.aspect,
            "medication": self.medication,
            "text": self.text,
            "levels": dict(self.levels),
            "order": list(self.order),
            "index": self.index,
            "plays": [list(p) for p in self.plays],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Conflict:
        return cls(
            data["launcher"],
            data["launch_type"],
            data["aspect"],
            data["medication"],
            data["text"],
            dict(data["levels"]),
            list(data["order"]),
            data["index"],
            [list(p) for p in data["plays"]],
        )


def _new_stats() -> dict[str, Any]:
    return {
        "deaths": 0,
        "ideal_citizens": 0,
        "conflicts": 0,
        "cm_launches": 0,
        "final_hour_conflicts": 0,
        "final_hour_cm_launches": 0,
        "launches": {WANT: 0, TEMPTED: 0, COMMITTEE: 0},
        "wins": 0,
        "cm_changes": 0,
        "drunk": 0,
        "strengths_by_hour": [],
    }


@dataclass(slots=True)
class EuthymiaState:
    """The whole table. What each seat sees of it is kept by ``view`` (docs/rules/euthymia.md, "Hidden information")."""

    players: tuple[str, ...]
    names: tuple[str, ...]
    options: Options
    hour: int = 1
    phase: str = IDEAL_CITIZEN_PHASE
    ideal_citizen: list[str] | None = None
    setting_notes: str | None = None
    characters: dict[str, Character | None] = field(default_factory=dict)
    status: dict[str, str] = field(default_factory=dict)
    past_characters: list[dict[str, Any]] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    hands: dict[str, list[str]] = field(default_factory=dict)
    glass: dict[str, int] = field(default_factory=dict)
    retired: list[str] = field(default_factory=list)
    bottle_units: int = 0
    bottle_holder: str = NONE
    bottle_sealed: bool = False
    dividing: bool = False
    """True while the first final turn's Active Player divides the bottle (R-EU-27)."""
    hour_elapsed_s: int = 0
    final_round_pending: bool = False
    final_round_active: bool = False
    final_done: list[str] = field(default_factory=list)
    committee_member: str | None = None
    knower: str | None = None
    identity_card: dict[str, str] = field(default_factory=dict)
    passes: dict[str, str] = field(default_factory=dict)
    """giver -> recipient of the identity cards (R-EU-04)."""
    cm_revealed: bool = False
    start: SealedChoices | None = None
    start_from_deck: bool = False
    """True when tied empty-handed players turn up cards from the deck (R-EU-13)."""
    active_player: str | None = None
    previous_active_player: str | None = None
    turn_kind: str | None = None
    conflict: Conflict | None = None
    designation: dict[str, list[str]] = field(default_factory=dict)
    awaiting_death: bool = False
    to_deal: list[list[Any]] = field(default_factory=list)
    """Deals still owed: ``[seat, count]`` (drawn from the deck's top; a chance reshuffle if short)."""
    chance: str | None = None
    vote: Proposal | None = None
    proposals: dict[str, int] = field(default_factory=dict)
    identity_change: bool = False
    """True while a Committee Member change deals and passes new identity cards (R-EU-07)."""
    endings: dict[str, str] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=_new_stats)
    memo: Any = field(default=None, compare=False, repr=False)
    """What has been worked out of the state as it is now (``legal.Memo``): never copied, never
    part of a position."""

    def touch(self) -> None:
        """Forget what was worked out of this state (after any change)."""
        self.memo = None

    def strength(self, seat: str) -> list[int]:
        character = self.characters[seat]
        assert character is not None and character.strength is not None
        return character.strength

    def copy(self) -> EuthymiaState:
        start = None
        if self.start is not None:
            start = SealedChoices(self.start.seats, rule=self.start.rule)
            start.choices = dict(self.start.choices)
            start.revealed = self.start.revealed
        vote = None
        if self.vote is not None:
            vote = Proposal(self.vote.proposer, self.vote.content, self.vote.voters, rule=self.vote.rule)
            vote.answers = dict(self.vote.answers)
        stats = dict(self.stats)
        stats["launches"] = dict(self.stats["launches"])
        stats["strengths_by_hour"] = list(self.stats["strengths_by_hour"])
        return EuthymiaState(
            players=self.players,
            names=self.names,
            options=self.options,
            hour=self.hour,
            phase=self.phase,
            ideal_citizen=None if self.ideal_citizen is None else list(self.ideal_citizen),
            setting_notes=self.setting_notes,
            characters={p: (c.copy() if c is not None else None) for p, c in self.characters.items()},
            status=dict(self.status),
            past_characters=list(self.past_characters),
            deck=list(self.deck),
            discard=list(self.discard),
            hands={p: list(h) for p, h in self.hands.items()},
            glass=dict(self.glass),
            retired=list(self.retired),
            bottle_units=self.bottle_units,
            bottle_holder=self.bottle_holder,
            bottle_sealed=self.bottle_sealed,
            dividing=self.dividing,
            hour_elapsed_s=self.hour_elapsed_s,
            final_round_pending=self.final_round_pending,
            final_round_active=self.final_round_active,
            final_done=list(self.final_done),
            committee_member=self.committee_member,
            knower=self.knower,
            identity_card=dict(self.identity_card),
            passes=dict(self.passes),
            cm_revealed=self.cm_revealed,
            start=start,
            start_from_deck=self.start_from_deck,
            active_player=self.active_player,
            previous_active_player=self.previous_active_player,
            turn_kind=self.turn_kind,
            conflict=None if self.conflict is None else self.conflict.copy(),
            designation={k: list(v) for k, v in self.designation.items()},
            awaiting_death=self.awaiting_death,
            to_deal=[list(d) for d in self.to_deal],
            chance=self.chance,
            vote=vote,
            proposals=dict(self.proposals),
            identity_change=self.identity_change,
            endings=dict(self.endings),
            stats=stats,
        )


_SIMPLE = (
    "hour",
    "phase",
    "ideal_citizen",
    "setting_notes",
    "status",
    "past_characters",
    "deck",
    "discard",
    "hands",
    "glass",
    "retired",
    "bottle_units",
    "bottle_holder",
    "bottle_sealed",
    "dividing",
    "hour_elapsed_s",
    "final_round_pending",
    "final_round_active",
    "final_done",
    "committee_member",
    "knower",
    "identity_card",
    "passes",
    "cm_revealed",
    "start_from_deck",
    "active_player",
    "previous_active_player",
    "turn_kind",
    "designation",
    "awaiting_death",
    "to_deal",
    "chance",
    "proposals",
    "identity_change",
    "endings",
    "stats",
)


def to_position(state: EuthymiaState) -> dict[str, Any]:
    """The whole state as JSON (secrets included)."""
    import json

    out: dict[str, Any] = {
        "players": list(state.players),
        "names": list(state.names),
        "options": {f.name: getattr(state.options, f.name) for f in fields(Options)},
        "characters": {p: (c.to_json() if c else None) for p, c in state.characters.items()},
        "start": state.start.to_json() if state.start is not None else None,
        "conflict": state.conflict.to_json() if state.conflict is not None else None,
        "vote": state.vote.to_json() if state.vote is not None else None,
    }
    for name in _SIMPLE:
        out[name] = getattr(state, name)
    return json.loads(json.dumps(out))


def from_position(data: dict[str, Any]) -> EuthymiaState:
    """Read :func:`to_position` back (KeyError / TypeError on a malformed position)."""
    state = EuthymiaState(tuple(data["players"]), tuple(data["names"]), Options(**data["options"]))
    state.characters = {p: (Character.from_json(c) if c else None) for p, c in data["characters"].items()}
    state.start = SealedChoices.from_json(data["start"]) if data["start"] is not None else None
    if state.start is not None:
        state.start.rule = "R-EU-13"
    state.conflict = Conflict.from_json(data["conflict"]) if data["conflict"] is not None else None
    vote = data["vote"]
    if vote is not None:
        state.vote = Proposal(vote["proposer"], vote["content"], vote["voters"], rule="R-EU-07")
        state.vote.answers = dict(vote["answers"])
    for name in _SIMPLE:
        setattr(state, name, data[name])
    return state
