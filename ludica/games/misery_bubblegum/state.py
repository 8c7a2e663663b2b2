"""The state of a Misery Bubblegum session: character sheets, Traits, resources, the action under way.

Everything is public (docs/rules/misery-bubblegum.md, "Seats and visibility"): dice sit physically on the
sheets and every declaration is
spoken aloud. Dice of one colour in one place are interchangeable, so pools, Misery, Spare,
influence and provisional Traits hold counts; rolled dice have identity (:class:`Die` with the
owner's colour) because Traits reroll and outcomes assign particular dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...core.mechanisms import DicePool, Proposal
from ...core.values import Value

if TYPE_CHECKING:
    from .memo import Memo

PASSION, CONFIDENCE, INSIGHT = "passion", "confidence", "insight"
ATTRIBUTES: tuple[str, ...] = (PASSION, CONFIDENCE, INSIGHT)
"""The three pools every character has at all times [Character Attributes]."""

DESIRE, THREAT, PROMISE = "desire", "threat", "promise"
KINDS: tuple[str, ...] = (DESIRE, THREAT, PROMISE)

OTHERS, SELF = "others", "self"
ORIENTATIONS: tuple[str, ...] = (OTHERS, SELF)

GM = "gm"
"""The GM's seat: no character, colour, Traits, Misery or resources (MB-R36)."""


@dataclass(frozen=True, slots=True)
class Settings(Value):
    """The configuration of a session (docs/rules/misery-bubblegum.md, "Options")."""

    gm: bool = True
    dice_per_player: int = 20
    starting_pools: tuple[int, int, int] = (5, 5, 5)
    rating_min: int = 1
    rating_max: int = 6
    max_traits: int = 10
    gm_max_dice: int = 6
    trait_reroll_scope: str = "any"
    calling_order: str = "free"
    session_actions: int = 60


@dataclass(slots=True)
class Character:
    """One player's sheet: fixed numbers, the three pools, Misery, spare dice, influence held."""

    seat: str
    name: str
    rating: dict[str, int]
    pool: dict[str, int]
    misery: int
    spare: int
    influence: dict[str, int]
    """Dice of another player's colour held by this player, by colour [Influencing People]."""


@dataclass(slots=True)
class Trait:
    """An accepted Trait: on ``owner``'s sheet, associated forever with its ``creator`` [Obnoxious]."""

    id: str
    owner: str
    creator: str
    text: str
    value: int


@dataclass(slots=True)
class Provisional:
    """A Trait offered to ``target`` with a bribe of ``dice`` of the target's colour [Growing and changing]."""

    id: str
    target: str
    offerer: str
    text: str
    dice: int


@dataclass(slots=True)
class Resource:
    """A Desire, Threat or Promise that applies to ``owner`` [What does it mean?]."""

    id: str
    kind: str
    owner: str
    creator: str
    text: str
    value: int
    active: bool = False
    blocking: list[int] = field(default_factory=list)
    """Threat: faces of the unaligned blocking dice, while active (MB-R50)."""
    aid: list[int] = field(default_factory=list)
    """Promise: faces of the unaligned aid dice, while active (MB-R50)."""


@dataclass(slots=True)
class Declaration:
    """A player accepting or refusing provisional Traits just before rolling (MB-R38, MB-R39)."""

    seat: str
    accepted: list[str] = field(default_factory=list)
    carried: int = 0
    """Dice taken off the accepted provisional Traits, to be rolled with the pool dice."""


@dataclass(slots=True)
class Participant:
    """The caller or an opponent in one action, with the dice rolled and the count of Getting things done."""

    seat: str
    pool: str
    """The attribute rolled (for the GM: the ``pool_label``)."""
    challenge: int
    dice: DicePool
    """Rolled dice in roll order: pool dice, then the dice of accepted Traits."""
    accepted: list[str] = field(default_factory=list)
    counted: list[int] = field(default_factory=list)
    success: list[int] = field(default_factory=list)
    """OS: indexes of counted dice at or above the challenge."""
    non_success: list[int] = field(default_factory=list)
    """ON: indexes of counted dice below the challenge."""
    matched_aid: list[int] = field(default_factory=list)
    unmatched_aid: int = 0
    s: int = 0
    ss: int = 0
    n: int = 0
    penalising: list[str] = field(default_factory=list)
    """DP: Desires that penalise this player in reclaim, fixed at the count (MB-R30)."""
    fulfillable: list[str] = field(default_factory=list)
    """Promises of this player whose every aid die matched at the count."""
    assigned: list[int] = field(default_factory=list)
    spent: list[int] = field(default_factory=list)
    """Dice sent to Spare by ``address_desire``: not reclaimed (MB-R31)."""
    fulfilment: list[int] = field(default_factory=list)
    """Faces of own dice added by ``fulfil_promise``: reclaimed only (MB-R33)."""
    grown: list[int] = field(default_factory=list)
    reclaimed: bool = False
    """True once this player's rolled dice have gone back to pools and Misery (A9)."""


@dataclass(slots=True)
class Attempt:
    """The action under way ("what you do, and what it achieves") [Getting things done].

    Called ``Attempt`` because *action* is the engine's word for one decision.
    """

    number: int
    caller: str
    intent: str
    stage: str
    participants: list[Participant] = field(default_factory=list)
    answering: list[str] = field(default_factory=list)
    traits_used: list[str] = field(default_factory=list)
    turn: int = 0
    passes: int = 0
    selected: list[str] = field(default_factory=list)
    chance: dict[str, object] | None = None
    wipe: dict[str, object] | None = None
    success_decider: str | None = None
    meaning_decider: str | None = None
    succeeded: bool | None = None
    orientation: str | None = None
    created: str | None = None
    touched: dict[str, str] = field(default_factory=dict)
    denied: list[str] = field(default_factory=list)


@dataclass(slots=True)
class MiseryState:
    """The whole table."""

    settings: Settings
    players: tuple[str, ...]
    characters: dict[str, Character]
    traits: dict[str, Trait] = field(default_factory=dict)
    provisionals: dict[str, Provisional] = field(default_factory=dict)
    resources: dict[str, Resource] = field(default_factory=dict)
    next_id: int = 1
    attempt: Attempt | None = None
    declaration: Declaration | None = None
    turn: str = ""
    end_vote: Proposal | None = None
    attempts_done: int = 0
    ready: bool = False
    """True once every player has set their numbers (SETUP is over)."""
    over: bool = False
    history: list[list[int]] = field(default_factory=list)
    """Per finished action: total Misery, number of Traits, sum of Trait values, influence dice held."""
    memo: Memo | None = field(default=None, compare=False, repr=False)
    """What the rules answered about this state so far; not part of the state (see :mod:`.memo`)."""

    def new_id(self, prefix: str) -> str:
        ident = f"{prefix}{self.next_id}"
        self.next_id += 1
        return ident

    def seats(self) -> tuple[str, ...]:
        return (*self.players, GM) if self.settings.gm else self.players

    def participant(self, seat: str) -> Participant | None:
        if self.attempt is None:
            return None
        for part in self.attempt.participants:
            if part.seat == seat:
                return part
        return None

    def traits_of(self, seat: str) -> list[Trait]:
        return [t for t in self.traits.values() if t.owner == seat]

    def provisionals_of(self, seat: str) -> list[Provisional]:
        return [p for p in self.provisionals.values() if p.target == seat]
