"""The table of Lost Days: characters, memory cards, coins, the auction, the scene and the conflict.

Nouns are the rulebook's [Glossary]: a character card (:class:`Elf`) with its madness coins, memory
cards (:class:`Memory`) whose value is the coins on them, the coin purse, the market, the Memory of
Kingship. Every coin lives in one :class:`~ludica.core.mechanisms.Purses` holder (the rulebook's Purse of Coins): a
player's purse is held under the seat id (``"p1"``), madness coins under ``"mad:p1"``, a memory's
value under its id (``"m7"``); ``"bank"`` is the unlimited bank, and ``bank_out`` counts the coins
that have left it, so ``coins.total() == bank_out`` always (coin conservation).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from ...core.mechanisms import Proposal, Purses, Referee, SealedChoices

BANK = "bank"
OPPOSITION = "opposition"

# Where a memory card lies.
CENTRE, SET_ASIDE, MARKET, OWNED = "centre", "set_aside", "market", "owned"

# Phases (docs/rules/lost-days.md, "Phases and actions").
WRITING, SELECT, SEALED_BID, TIE_RAISE, ROLL_OFF = "WRITING", "SELECT", "SEALED_BID", "TIE_RAISE", "ROLL_OFF"
KING_TIE, SESSION, REPLENISH, SCENE, TRADE = "KING_TIE", "SESSION", "REPLENISH", "SCENE", "TRADE"
STAKES, NARRATION, ROLL, INFLUENCE, OUTCOME = "STAKES", "NARRATION", "ROLL", "INFLUENCE", "OUTCOME"
TRIBUTE, PLACE_TRIBUTE, NARRATE_TRIBUTE, STRAIN_AND_GAIN = (
    "TRIBUTE",
    "PLACE_TRIBUTE",
    "NARRATE_TRIBUTE",
    "STRAIN_AND_GAIN",
)
EPILOGUE, GAME_OVER = "EPILOGUE", "GAME_OVER"
CONFLICT_PHASES = frozenset(
    {STAKES, NARRATION, ROLL, INFLUENCE, OUTCOME, TRIBUTE, PLACE_TRIBUTE, NARRATE_TRIBUTE, STRAIN_AND_GAIN}
)

# Scene kinds (Telling the Story, Framing Scenes).
PERSONAL, STORY, INTERRUPT, WRITE_OUT, ADVERSITY = "PERSONAL", "STORY", "INTERRUPT", "WRITE_OUT", "ADVERSITY"

THEMES = (
    "a memory that most defines you",
    "an unfulfilled goal or a mystery that remains unsolved",
    "a memory related to another memory or to another character",
    "a memory of something that has just happened",
)
"""The themes of the four rounds of memory creation [4 Rounds]."""


def copy_deal(deal: Proposal) -> Proposal:
    """An independent copy of a trade being put together (its lists of memories copied) [LD-R36]."""
    data = deal.to_json()
    data["content"] = {k: list(v) if isinstance(v, list) else v for k, v in deal.content.items()}
    out = Proposal.from_json(data)
    out.rule = "LD-R36"
    return out


MAD_KEYS: Final = {f"p{i}": f"mad:p{i}" for i in range(1, 9)}
"""The madness holders of the seats the game deals (a constant: read at every view, not spelled
anew each time)."""


def mad_key(seat: str) -> str:
    """The Purses holder of a character card's madness coins."""
    found = MAD_KEYS.get(seat)
    return "mad:" + seat if found is None else found


@dataclass(slots=True)
class Memory:
    """A memory card ("I remember ..."); its value is ``coins[id]`` [Glossary "Memory Card", "Value"]."""

    id: str
    text: str
    author: str
    origin: str
    place: str = CENTRE
    owner: str | None = None
    mok_candidate: bool = False
    is_mok: bool = False
    tainted: bool = False
    face: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    """The card's view with what never changes on it, built once by :func:`.view.memory_view`,
    which hands out copies only (so copies of the card may share it); never part of the position."""
    shown: tuple[tuple[Any, ...], dict[str, Any]] | None = field(default=None, compare=False, repr=False)
    """What :func:`.view.memory_view` last showed of this very card (not shared with its copies):
    the values that may change, and the view (only copies of it are handed out); never part of the
    position."""

    def copy(self) -> Memory:
        return Memory(
            self.id,
            self.text,
            self.author,
            self.origin,
            self.place,
            self.owner,
            self.mok_candidate,
            self.is_mok,
            self.tainted,
            self.face,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "author": self.author,
            "origin": self.origin,
            "place": self.place,
            "owner": self.owner,
            "mok_candidate": self.mok_candidate,
            "is_mok": self.is_mok,
            "tainted": self.tainted,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Memory:
        return cls(
            d["id"],
            d["text"],
            d["author"],
            d["origin"],
            d["place"],
            d["owner"],
            d["mok_candidate"],
            d["is_mok"],
            d["tainted"],
        )


@dataclass(slots=True)
class Elf:
    """A character card: the elf's name, sanity and bookkeeping [Creating Characters, Descent]."""

    seat: str
    name: str
    mad: bool = False
    mok_written: bool = False
    won_this_round: bool = False
    to_write: int = 0
    pending_write_out: bool = False
    mad_at_scene: int = -1

    def copy(self) -> Elf:
        return Elf(
            self.seat,
            self.name,
            self.mad,
            self.mok_written,
            self.won_this_round,
            self.to_write,
            self.pending_write_out,
            self.mad_at_scene,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "mad": self.mad,
            "mok_written": self.mok_written,
            "won_this_round": self.won_this_round,
            "to_write": self.to_write,
            "pending_write_out": self.pending_write_out,
            "mad_at_scene": self.mad_at_scene,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Elf:
        return cls(
            d["seat"],
            d["name"],
            d["mad"],
            d["mok_written"],
            d["won_this_round"],
            d["to_write"],
            d["pending_write_out"],
            d["mad_at_scene"],
        )


@dataclass(slots=True)
class Auction:
    """One auction of memory creation [Creating Memories]."""

    lot: str
    bids: SealedChoices
    tied: list[str] = field(default_factory=list)
    still_in: list[str] = field(default_factory=list)
    turn: str | None = None
    high: int = 0
    high_bidder: str | None = None
    raised: bool = False
    rolloff: list[str] = field(default_factory=list)

    def copy(self) -> Auction:
        return Auction.from_json(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {
            "lot": self.lot,
            "bids": self.bids.to_json(),
            "tied": list(self.tied),
            "still_in": list(self.still_in),
            "turn": self.turn,
            "high": self.high,
            "high_bidder": self.high_bidder,
            "raised": self.raised,
            "rolloff": list(self.rolloff),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Auction:
        bids = SealedChoices.from_json(d["bids"])
        bids.rule = "LD-R7"
        return cls(
            d["lot"],
            bids,
            list(d["tied"]),
            list(d["still_in"]),
            d["turn"],
            d["high"],
            d["high_bidder"],
            d["raised"],
            list(d["rolloff"]),
        )


@dataclass(slots=True)
class KingTie:
    """Owners of Memories of Kingship tied at the highest value [Kingship; LD-R8]."""

    owners: list[str]
    candidate: dict[str, str]
    added: dict[str, int]
    turn: str
    last_raiser: str | None = None
    acted_since_raise: list[str] = field(default_factory=list)
    rolloff: bool = False

    def copy(self) -> KingTie:
        return KingTie.from_json(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {
            "owners": list(self.owners),
            "candidate": dict(self.candidate),
            "added": dict(self.added),
            "turn": self.turn,
            "last_raiser": self.last_raiser,
            "acted_since_raise": list(self.acted_since_raise),
            "rolloff": self.rolloff,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> KingTie:
        return cls(
            list(d["owners"]),
            dict(d["candidate"]),
            dict(d["added"]),
            d["turn"],
            d["last_raiser"],
            list(d["acted_since_raise"]),
            d["rolloff"],
        )


@dataclass(slots=True)
class Scene:
    """The scene in play [Framing Scenes]."""

    framer: str
    kind: str
    framed: bool = False
    conflict_held: bool = False
    last_of_cycle: bool = False
    story_restarted: bool = False
    withdrawals: int = 0
    """Conflicts framed and withdrawn in this scene (LD-R42 bounds them)."""

    def copy(self) -> Scene:
        return Scene(
            self.framer,
            self.kind,
            self.framed,
            self.conflict_held,
            self.last_of_cycle,
            self.story_restarted,
            self.withdrawals,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "framer": self.framer,
            "kind": self.kind,
            "framed": self.framed,
            "conflict_held": self.conflict_held,
            "last_of_cycle": self.last_of_cycle,
            "story_restarted": self.story_restarted,
        }
        if self.withdrawals:  # only once there was one: positions and digests without stay as they were
            out["withdrawals"] = self.withdrawals
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Scene:
        withdrawals = d.get("withdrawals", 0)
        return cls(
            d["framer"],
            d["kind"],
            d["framed"],
            d["conflict_held"],
            d["last_of_cycle"],
            d["story_restarted"],
            withdrawals if isinstance(withdrawals, int) else 0,
        )


@dataclass(slots=True)
class Conflict:
    """A conflict between two sides, ``a`` (a character) and ``b`` (a character or the opposition).

    [Setting up, Resolution, Influencing, Tribute, Strain and Gain].
    """

    framer: str
    side_a: str
    side_b: str
    controller_b: str
    stakes: str
    staked: str | None
    agreement: Proposal
    narrated: dict[str, list[str]] = field(default_factory=lambda: {"a": [], "b": []})
    brought: dict[str, bool] = field(default_factory=lambda: {"a": False, "b": False})
    done: dict[str, bool] = field(default_factory=lambda: {"a": False, "b": False})
    narrate_turn: str = "a"
    offered: str | None = None
    vetoed: list[str] = field(default_factory=list)
    dice: dict[str, list[int]] = field(default_factory=lambda: {"a": [], "b": []})
    influence_turn: str = ""
    passes: int = 0
    spend: dict[str, Any] | None = None
    spends: int = 0
    winner: str | None = None
    margin: int = 0
    owed: int = 0
    paid: int = 0
    to_place: int = 0
    tribute_paid: bool = False
    gain_left: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    strain_left: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})

    def controller(self, side: str) -> str:
        return self.side_a if side == "a" else self.controller_b

    def is_character(self, side: str) -> bool:
        return side == "a" or self.side_b != OPPOSITION

    def copy(self) -> Conflict:
        return Conflict.from_json(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {
            "framer": self.framer,
            "side_a": self.side_a,
            "side_b": self.side_b,
            "controller_b": self.controller_b,
            "stakes": self.stakes,
            "staked": self.staked,
            "agreement": self.agreement.to_json(),
            "narrated": {k: list(v) for k, v in self.narrated.items()},
            "brought": dict(self.brought),
            "done": dict(self.done),
            "narrate_turn": self.narrate_turn,
            "offered": self.offered,
            "vetoed": list(self.vetoed),
            "dice": {k: list(v) for k, v in self.dice.items()},
            "influence_turn": self.influence_turn,
            "passes": self.passes,
            "spend": dict(self.spend) if self.spend else None,
            "spends": self.spends,
            "winner": self.winner,
            "margin": self.margin,
            "owed": self.owed,
            "paid": self.paid,
            "to_place": self.to_place,
            "tribute_paid": self.tribute_paid,
            "gain_left": dict(self.gain_left),
            "strain_left": dict(self.strain_left),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Conflict:
        agreement = Proposal.from_json(d["agreement"])
        agreement.rule = "LD-R37"
        return cls(
            d["framer"],
            d["side_a"],
            d["side_b"],
            d["controller_b"],
            d["stakes"],
            d["staked"],
            agreement,
            {k: list(v) for k, v in d["narrated"].items()},
            dict(d["brought"]),
            dict(d["done"]),
            d["narrate_turn"],
            d["offered"],
            list(d["vetoed"]),
            {k: list(v) for k, v in d["dice"].items()},
            d["influence_turn"],
            d["passes"],
            dict(d["spend"]) if d["spend"] else None,
            d["spends"],
            d["winner"],
            d["margin"],
            d["owed"],
            d["paid"],
            d["to_place"],
            d["tribute_paid"],
            dict(d["gain_left"]),
            dict(d["strain_left"]),
        )


@dataclass(slots=True)
class Rules:
    """The options of one game (docs/rules/lost-days.md, "Options")."""

    starting_purse: int = 11
    opposition_dice_min: int = 0
    tie_rule: str = "cascade"
    market_minimum: int = 2
    first_seat: int = 0
    scene_limit: int = 200

    def to_json(self) -> dict[str, Any]:
        return {
            "starting_purse": self.starting_purse,
            "opposition_dice_min": self.opposition_dice_min,
            "tie_rule": self.tie_rule,
            "market_minimum": self.market_minimum,
            "first_seat": self.first_seat,
            "scene_limit": self.scene_limit,
        }


@dataclass(slots=True)
class LostDaysState:
    """Everything on the table. Only sealed bids are secret (while an auction of Creating Memories runs)."""

    seats: tuple[str, ...]
    rules: Rules
    elves: dict[str, Elf]
    coins: Purses
    bank_out: int = 0
    memories: dict[str, Memory] = field(default_factory=dict)
    next_memory: int = 1
    phase: str = WRITING
    round: int = 1
    selector: str = ""
    extra_writer: str = ""
    last_abandoned: str | None = None
    abandon_streak: int = 0
    auction: Auction | None = None
    king_tie: KingTie | None = None
    crown: Referee | None = None
    last_king: str | None = None
    session: int = 0
    story: str = ""
    cycle: list[list[str]] = field(default_factory=list)
    slot: int = -1
    scene: Scene | None = None
    pending_interrupt: str | None = None
    conflict: Conflict | None = None
    trade: Proposal | None = None
    theme: str | None = None
    replenish_left: list[str] = field(default_factory=list)
    scenes_played: int = 0
    conflicts_fought: int = 0
    crown_changes: int = 0
    survivor: str | None = None
    epilogue: str | None = None
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    """Who decides and their legal actions, remembered until the next action changes the table
    (:func:`.rules.play` clears it; never part of the position)."""

    @property
    def king(self) -> str | None:
        """The player whose sane character owns the actual Memory of Kingship [King]."""
        return self.crown.seat if self.crown is not None else None

    def value(self, memory_id: str) -> int:
        return self.coins[memory_id]

    def purse(self, seat: str) -> int:
        return self.coins[seat]

    def madness(self, seat: str) -> int:
        return self.coins[mad_key(seat)]

    def owned(self, seat: str) -> list[Memory]:
        return [m for m in self.memories.values() if m.owner == seat]

    def memory_coins(self, seat: str) -> int:
        return sum(self.coins[m.id] for m in self.memories.values() if m.owner == seat)

    def market(self) -> list[Memory]:
        return [m for m in self.memories.values() if m.place == MARKET]

    def centre(self) -> list[Memory]:
        return [m for m in self.memories.values() if m.place == CENTRE]

    def sane(self) -> list[str]:
        return [s for s in self.seats if not self.elves[s].mad]

    def copy(self) -> LostDaysState:
        return LostDaysState(
            self.seats,
            self.rules,
            {s: e.copy() for s, e in self.elves.items()},
            self.coins.copy(),
            self.bank_out,
            {k: m.copy() for k, m in self.memories.items()},
            self.next_memory,
            self.phase,
            self.round,
            self.selector,
            self.extra_writer,
            self.last_abandoned,
            self.abandon_streak,
            self.auction.copy() if self.auction else None,
            self.king_tie.copy() if self.king_tie else None,
            Referee(self.crown.seat) if self.crown else None,
            self.last_king,
            self.session,
            self.story,
            [list(s) for s in self.cycle],
            self.slot,
            self.scene.copy() if self.scene else None,
            self.pending_interrupt,
            self.conflict.copy() if self.conflict else None,
            copy_deal(self.trade) if self.trade else None,
            self.theme,
            list(self.replenish_left),
            self.scenes_played,
            self.conflicts_fought,
            self.crown_changes,
            self.survivor,
            self.epilogue,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "rules": self.rules.to_json(),
            "elves": {s: e.to_json() for s, e in self.elves.items()},
            "coins": self.coins.to_json(),
            "bank_out": self.bank_out,
            "memories": [m.to_json() for m in self.memories.values()],
            "next_memory": self.next_memory,
            "phase": self.phase,
            "round": self.round,
            "selector": self.selector,
            "extra_writer": self.extra_writer,
            "last_abandoned": self.last_abandoned,
            "abandon_streak": self.abandon_streak,
            "auction": self.auction.to_json() if self.auction else None,
            "king_tie": self.king_tie.to_json() if self.king_tie else None,
            "king": self.king,
            "last_king": self.last_king,
            "session": self.session,
            "story": self.story,
            "cycle": [list(s) for s in self.cycle],
            "slot": self.slot,
            "scene": self.scene.to_json() if self.scene else None,
            "pending_interrupt": self.pending_interrupt,
            "conflict": self.conflict.to_json() if self.conflict else None,
            "trade": copy_deal(self.trade).to_json() if self.trade else None,
            "theme": self.theme,
            "replenish_left": list(self.replenish_left),
            "scenes_played": self.scenes_played,
            "conflicts_fought": self.conflicts_fought,
            "crown_changes": self.crown_changes,
            "survivor": self.survivor,
            "epilogue": self.epilogue,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> LostDaysState:
        trade = copy_deal(Proposal.from_json(d["trade"])) if d["trade"] else None
        return cls(
            tuple(d["seats"]),
            Rules(**d["rules"]),
            {s: Elf.from_json(e) for s, e in d["elves"].items()},
            Purses(d["coins"], bank=BANK, rule="coins"),
            d["bank_out"],
            {m["id"]: Memory.from_json(m) for m in d["memories"]},
            d["next_memory"],
            d["phase"],
            d["round"],
            d["selector"],
            d["extra_writer"],
            d["last_abandoned"],
            d["abandon_streak"],
            Auction.from_json(d["auction"]) if d["auction"] else None,
            KingTie.from_json(d["king_tie"]) if d["king_tie"] else None,
            Referee(d["king"]) if d["king"] else None,
            d["last_king"],
            d["session"],
            d["story"],
            [list(s) for s in d["cycle"]],
            d["slot"],
            Scene.from_json(d["scene"]) if d["scene"] else None,
            d["pending_interrupt"],
            Conflict.from_json(d["conflict"]) if d["conflict"] else None,
            trade,
            d["theme"],
            list(d["replenish_left"]),
            d["scenes_played"],
            d["conflicts_fought"],
            d["crown_changes"],
            d["survivor"],
            d["epilogue"],
        )
