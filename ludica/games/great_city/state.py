"""The state of a game of The Great City: plain data with slots, cheap to copy, JSON both ways.

The whole table (docs/rules/great-city.md, "What each seat sees"). Scarab locations are ints: ``purse[seat]``
(PRIVATE), ``yea``/``nay`` (SECRET until the
end game), ``pool`` (the Mounting Peril), the scene's ``ante``, ``Character.vested`` and
``city_vested`` (stones of the situation). ``bank_net`` counts every scarab the unlimited bank
has issued minus those it took back (R-GC-02), so the invariant "scarabs in play == bank_net"
guards every transfer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.values import rebuilt

if TYPE_CHECKING:
    from ...core import Action, Pending, Roll


class Character:
    """A node of the character network: a player character, an agent of peril or a GM character."""

    __slots__ = (
        "agent",
        "cls",
        "controller",
        "description",
        "id",
        "intent",
        "kind",
        "moving",
        "name",
        "stage",
        "traits",
        "triad",
        "vested",
    )

    def __init__(
        self,
        id: str,
        controller: str,
        *,
        name: str = "",
        agent: bool = False,
        description: str = "",
        stage: str = "roll",
    ) -> None:
        self.id = id
        self.controller = controller
        self.name = name
        self.agent = agent
        self.description = description
        self.kind: str | None = None
        self.triad = 0
        self.moving = 0
        """Mask of the stones that were moving when the triad was rolled (class eligibility only)."""
        self.vested = [0, 0, 0]
        self.traits: tuple[str, str, str] | None = None
        self.cls: str | None = None
        self.intent: dict[str, str] | None = None
        """{color, answer (yes/no), text} for player characters (R-GC-18)."""
        self.stage = stage
        """Where its creation stands: roll, choose_triad, kind, traits, class, intent, name, vest, ties, done."""

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.id, self.controller)  # see ludica.core.values

    def copy(self) -> Character:
        c = Character(self.id, self.controller)
        c.id, c.controller, c.name, c.agent, c.description = (
            self.id,
            self.controller,
            self.name,
            self.agent,
            self.description,
        )
        c.kind, c.triad, c.moving, c.vested, c.traits = self.kind, self.triad, self.moving, self.vested[:], self.traits
        c.cls, c.intent, c.stage = self.cls, self.intent, self.stage
        return c

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "controller": self.controller,
            "name": self.name,
            "agent": self.agent,
            "description": self.description,
            "kind": self.kind,
            "triad": self.triad,
            "moving": self.moving,
            "vested": list(self.vested),
            "traits": list(self.traits) if self.traits else None,
            "class": self.cls,
            "intent": dict(self.intent) if self.intent else None,
            "stage": self.stage,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Character:
        c = cls(d["id"], d["controller"], name=d["name"], agent=bool(d["agent"]), description=d["description"])
        c.kind, c.triad, c.moving = d["kind"], int(d["triad"]), int(d["moving"])
        c.vested = [int(v) for v in d["vested"]]
        c.traits = tuple(d["traits"]) if d["traits"] else None  # type: ignore[assignment]
        c.cls = d["class"]
        c.intent = dict(d["intent"]) if d["intent"] else None
        c.stage = d["stage"]
        return c


class Tie:
    """A directed, signed tie of the character network (multiplex and reciprocated allowed, R-GC-15)."""

    __slots__ = ("grant", "id", "sign", "source", "target")

    def __init__(self, id: str, source: str, target: str, sign: str, grant: str) -> None:
        self.id, self.source, self.target, self.sign, self.grant = id, source, target, sign, grant

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.id, self.source, self.target, self.sign, self.grant)  # see ludica.core.values

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "source": self.source, "target": self.target, "sign": self.sign, "grant": self.grant}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Tie:
        return cls(d["id"], d["source"], d["target"], d["sign"], d["grant"])


class Scene:
    """One scene, from its start to the end of the distribution (Running A Scene to Ending the Scene)."""

    __slots__ = (
        "accepted_pair",
        "acceptor",
        "act",
        "acted",
        "announced",
        "ante",
        "ante_roles",
        "buy_turn",
        "flipping",
        "flips",
        "focal",
        "foil",
        "forced",
        "index",
        "initial_pair",
        "intent",
        "last",
        "lock",
        "narrator",
        "new_character",
        "order",
        "participants",
        "present",
        "round",
        "snapshot",
        "spotlight",
        "turn",
        "undo",
        "used_ties",
        "used_traits",
    )

    def __init__(self, index: int, focal: str) -> None:
        self.index = index
        self.focal = focal
        self.spotlight: str | None = None
        self.foil: str | None = None
        self.intent = ""
        self.new_character: str | None = None
        self.present: list[str] = []
        self.order: tuple[str, ...] = ()
        """Reaction order (R-GC-26)."""
        self.ante = 0
        self.ante_roles: list[str] = []
        """Roles (spotlight, foil) whose ante source is still to be chosen."""
        self.buy_turn = 0
        self.initial_pair: int | None = None
        self.announced: int | None = None
        """The pair whose name the GM last read (R-GC-24)."""
        self.round = 0
        self.turn = 0
        self.acted: dict[str, str] = {}
        """This round's reaction of each seat: arrive, flip or pass."""
        self.flipping = False
        """The seat whose turn it is has begun a flip reaction (only flips and end_reaction remain)."""
        self.act = 0
        self.lock: list[int | None] = [None] * 6
        """Re-flip lock per position (R-GC-30, act model): the act that flipped it, or None."""
        self.last: int | None = None
        """The last position flipped (R-GC-30, sequential model)."""
        self.used_traits: set[tuple[str, ...]] = set()
        self.used_ties: set[str] = set()
        self.undo: list[Any] | None = None
        """[position, controller seat, 'random' | 'reaction'] while an undo may interrupt (R-GC-31)."""
        self.forced: str | None = None
        """HR-G1: the seat that must accept at the start of this round."""
        self.participants: set[str] = set()
        self.acceptor: str | None = None
        self.narrator: str | None = None
        self.accepted_pair: int | None = None
        self.snapshot: dict[str, int] | None = None
        """Triads at the scene start, restored at its end when scene_triad_mode is 'reset'."""
        self.flips = 0

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.index, self.focal)  # see ludica.core.values

    def copy(self) -> Scene:
        s = Scene(self.index, self.focal)
        s.index, s.focal, s.spotlight, s.foil, s.intent = self.index, self.focal, self.spotlight, self.foil, self.intent
        s.new_character, s.present, s.order, s.ante = self.new_character, self.present[:], self.order, self.ante
        s.ante_roles, s.buy_turn, s.initial_pair, s.announced = (
            self.ante_roles[:],
            self.buy_turn,
            self.initial_pair,
            (self.announced),
        )
        s.round, s.turn, s.acted, s.flipping, s.act = self.round, self.turn, dict(self.acted), self.flipping, self.act
        s.lock, s.last, s.used_traits, s.used_ties = self.lock[:], self.last, set(self.used_traits), set(self.used_ties)
        s.undo = self.undo[:] if self.undo else None
        s.forced, s.participants, s.acceptor, s.narrator = (
            self.forced,
            set(self.participants),
            self.acceptor,
            (self.narrator),
        )
        s.accepted_pair, s.flips = self.accepted_pair, self.flips
        s.snapshot = dict(self.snapshot) if self.snapshot is not None else None
        return s

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "focal": self.focal,
            "spotlight": self.spotlight,
            "foil": self.foil,
            "intent": self.intent,
            "new_character": self.new_character,
            "present": list(self.present),
            "order": list(self.order),
            "ante": self.ante,
            "ante_roles": list(self.ante_roles),
            "buy_turn": self.buy_turn,
            "initial_pair": self.initial_pair,
            "announced": self.announced,
            "round": self.round,
            "turn": self.turn,
            "acted": dict(self.acted),
            "flipping": self.flipping,
            "act": self.act,
            "lock": list(self.lock),
            "last": self.last,
            "used_traits": sorted(list(t) for t in self.used_traits),
            "used_ties": sorted(self.used_ties),
            "undo": list(self.undo) if self.undo else None,
            "forced": self.forced,
            "participants": sorted(self.participants),
            "acceptor": self.acceptor,
            "narrator": self.narrator,
            "accepted_pair": self.accepted_pair,
            "snapshot": dict(self.snapshot) if self.snapshot is not None else None,
            "flips": self.flips,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Scene:
        s = cls(int(d["index"]), d["focal"])
        s.spotlight, s.foil, s.intent, s.new_character = d["spotlight"], d["foil"], d["intent"], d["new_character"]
        s.present, s.order, s.ante = list(d["present"]), tuple(d["order"]), int(d["ante"])
        s.ante_roles, s.buy_turn = list(d["ante_roles"]), int(d["buy_turn"])
        s.initial_pair, s.announced = d["initial_pair"], d["announced"]
        s.round, s.turn, s.acted, s.flipping, s.act = d["round"], d["turn"], dict(d["acted"]), d["flipping"], d["act"]
        s.lock, s.last = list(d["lock"]), d["last"]
        s.used_traits = {tuple(t) for t in d["used_traits"]}
        s.used_ties = set(d["used_ties"])
        s.undo = list(d["undo"]) if d["undo"] else None
        s.forced, s.participants = d["forced"], set(d["participants"])
        s.acceptor, s.narrator, s.accepted_pair = d["acceptor"], d["narrator"], d["accepted_pair"]
        s.snapshot = dict(d["snapshot"]) if d["snapshot"] is not None else None
        s.flips = int(d["flips"])
        return s


class GreatCityState:
    """Everything about one game (docs/rules/great-city.md)."""

    __slots__ = (
        "agent_turn",
        "bank_net",
        "characters",
        "city",
        "city_moving",
        "city_vested",
        "contributions",
        "create_queue",
        "creating",
        "cycle",
        "endgame",
        "fate_turn",
        "gm_name",
        "hidden_flows",
        "history",
        "initial_city",
        "initiative",
        "memo_chance",
        "memo_legal",
        "memo_pending",
        "nay",
        "next_char",
        "next_tie",
        "options",
        "owned",
        "phase",
        "players",
        "pool",
        "pool_timeline",
        "purse",
        "ranking",
        "reduced",
        "scene",
        "scene_index",
        "seats",
        "situation_dice",
        "situation_texts",
        "tie_cache",
        "tie_grants",
        "tie_queue",
        "ties",
        "vest_queue",
        "yea",
    )

    def __init__(self, players: tuple[str, ...], gm_name: str, options: dict[str, Any]) -> None:
        n = len(players)
        self.players = players
        """The players' names, in seat (clockwise) order."""
        self.seats: tuple[str, ...] = (*(f"p{i + 1}" for i in range(n)), "gm")
        self.gm_name = gm_name
        self.options = options
        self.phase = "roll_situation"
        self.bank_net = 0
        self.purse: dict[str, int] = {s: 0 for s in self.seats}
        self.yea = 0
        self.nay = 0
        self.contributions: dict[str, list[int]] = {}
        """seat -> [to Yea, to Nay] of its own distributions (each contributor knows his own, R-GC-38)."""
        self.hidden_flows: list[tuple[str, str, int]] | None = []
        """Bookkeeping for the redeal, not part of the position (nor any view, record or digest):
        the payments the table hears of but cannot count, in order — ``(giver, receiving seat, n)``
        for a private gift (R-GC-36), ``(giver, "yea"|"nay", n)`` for a secret fate contribution
        (R-GC-38). Every other payment is public. ``None`` when unknown (a state read from a
        position: its past is not in it)."""
        self.pool = 0
        self.situation_dice: list[int] | None = None
        self.initial_city: int | None = None
        self.city_moving: list[int] = []
        self.city: int | None = None
        """The Great City's triad-pair: the trajectory (R-GC-06)."""
        self.city_vested = [0] * 6
        self.reduced: int | None = None
        self.situation_texts: dict[str, str] | None = None
        self.characters: dict[str, Character] = {}
        self.owned: dict[str, list[str]] = {s: [] for s in self.seats}
        """Derived: the finished characters of each seat, in creation order (not in the position)."""
        self.next_char = 1
        self.ties: list[Tie] = []
        self.tie_cache: tuple[int, dict[str, list[Tie]]] | None = None
        """Derived: (number of ties, ties by the seat controlling their source); see ties_of."""
        self.next_tie = 1
        self.creating: str | None = None
        self.create_queue: list[str] = []
        self.vest_queue: list[str] = []
        self.tie_queue: list[str] = []
        self.tie_grants: list[str] = []
        """Grants (free and bonus ties) still open to the character whose tie turn it is."""
        self.agent_turn = 0
        self.initiative: dict[str, Any] = {"rolls": [], "candidates": [], "winner": None}
        self.cycle: list[str] = []
        self.scene_index = 0
        self.scene: Scene | None = None
        self.history: list[dict[str, Any]] = []
        self.pool_timeline: list[int] = []
        self.ranking: list[list[str]] = []
        self.endgame: dict[str, Any] | None = None
        self.fate_turn = 0
        self.memo_pending: Pending | None = None
        """Derived: this state's decisions until the next play (``memo.py``; not in the position)."""
        self.memo_legal: list[Action] | None = None
        self.memo_chance: Roll | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.players, self.gm_name, self.options)  # see ludica.core.values

    # -- helpers -------------------------------------------------------------------------------
    def ties_of(self, seat: str) -> list[Tie]:
        """The ties whose source character the seat controls (cached until a tie is added)."""
        cache = self.tie_cache
        if cache is None or cache[0] != len(self.ties):
            by: dict[str, list[Tie]] = {s: [] for s in self.seats}
            for t in self.ties:
                by[self.characters[t.source].controller].append(t)
            cache = self.tie_cache = (len(self.ties), by)
        return cache[1][seat]

    def player_char(self, seat: str) -> Character | None:
        for c in self.characters.values():
            if c.controller == seat:
                return c
        return None

    def total_scarabs(self) -> int:
        scene_ante = self.scene.ante if self.scene else 0
        vested = sum(sum(c.vested) for c in self.characters.values())
        return sum(self.purse.values()) + self.yea + self.nay + self.pool + scene_ante + vested + sum(self.city_vested)

    # -- copy and JSON -------------------------------------------------------------------------
    def copy(self) -> GreatCityState:
        s = GreatCityState(self.players, self.gm_name, self.options)
        s.players, s.seats, s.gm_name, s.options, s.phase = (
            self.players,
            self.seats,
            self.gm_name,
            self.options,
            self.phase,
        )
        s.bank_net, s.purse, s.yea, s.nay = self.bank_net, dict(self.purse), self.yea, self.nay
        s.contributions = {k: v[:] for k, v in self.contributions.items()}
        s.hidden_flows = None if self.hidden_flows is None else self.hidden_flows[:]
        s.pool, s.situation_dice, s.initial_city = self.pool, self.situation_dice, self.initial_city
        s.city_moving, s.city, s.city_vested = self.city_moving, self.city, self.city_vested[:]
        s.reduced, s.situation_texts = self.reduced, self.situation_texts
        s.characters = {k: c.copy() for k, c in self.characters.items()}
        s.owned = {k: v[:] for k, v in self.owned.items()}
        s.next_char, s.ties, s.next_tie = self.next_char, self.ties[:], self.next_tie
        s.tie_cache = self.tie_cache
        s.creating, s.create_queue, s.vest_queue = self.creating, self.create_queue[:], self.vest_queue[:]
        s.tie_queue, s.tie_grants, s.agent_turn = self.tie_queue[:], self.tie_grants[:], self.agent_turn
        s.initiative = {k: (v[:] if isinstance(v, list) else v) for k, v in self.initiative.items()}
        s.cycle, s.scene_index = self.cycle[:], self.scene_index
        s.scene = self.scene.copy() if self.scene else None
        s.history, s.pool_timeline = self.history[:], self.pool_timeline[:]
        s.ranking = [g[:] for g in self.ranking]
        s.endgame = _deep(self.endgame)
        s.fate_turn = self.fate_turn
        s.memo_pending = s.memo_legal = s.memo_chance = None
        return s

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "gm_name": self.gm_name,
            "options": dict(self.options),
            "phase": self.phase,
            "bank_net": self.bank_net,
            "purse": dict(self.purse),
            "yea": self.yea,
            "nay": self.nay,
            "contributions": {k: list(v) for k, v in self.contributions.items()},
            "pool": self.pool,
            "situation_dice": self.situation_dice,
            "initial_city": self.initial_city,
            "city_moving": list(self.city_moving),
            "city": self.city,
            "city_vested": list(self.city_vested),
            "reduced": self.reduced,
            "situation_texts": self.situation_texts,
            "characters": [c.to_json() for c in self.characters.values()],
            "next_char": self.next_char,
            "ties": [t.to_json() for t in self.ties],
            "next_tie": self.next_tie,
            "creating": self.creating,
            "create_queue": list(self.create_queue),
            "vest_queue": list(self.vest_queue),
            "tie_queue": list(self.tie_queue),
            "tie_grants": list(self.tie_grants),
            "agent_turn": self.agent_turn,
            "initiative": _deep(self.initiative),
            "cycle": list(self.cycle),
            "scene_index": self.scene_index,
            "scene": self.scene.to_json() if self.scene else None,
            "history": _deep(self.history),
            "pool_timeline": list(self.pool_timeline),
            "ranking": [list(g) for g in self.ranking],
            "endgame": _deep(self.endgame),
            "fate_turn": self.fate_turn,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GreatCityState:
        s = cls(tuple(d["players"]), d["gm_name"], dict(d["options"]))
        s.phase, s.bank_net = d["phase"], int(d["bank_net"])
        s.purse = {k: int(v) for k, v in d["purse"].items()}
        s.yea, s.nay = int(d["yea"]), int(d["nay"])
        s.contributions = {k: [int(x) for x in v] for k, v in d["contributions"].items()}
        s.hidden_flows = None  # not in the position
        s.pool, s.situation_dice, s.initial_city = int(d["pool"]), d["situation_dice"], d["initial_city"]
        s.city_moving, s.city, s.city_vested = list(d["city_moving"]), d["city"], [int(v) for v in d["city_vested"]]
        s.reduced, s.situation_texts = d["reduced"], d["situation_texts"]
        s.characters = {c["id"]: Character.from_json(c) for c in d["characters"]}
        for c in s.characters.values():
            if c.stage == "done":
                s.owned[c.controller].append(c.id)
        s.next_char = int(d["next_char"])
        s.ties = [Tie.from_json(t) for t in d["ties"]]
        s.next_tie = int(d["next_tie"])
        s.creating, s.create_queue, s.vest_queue = d["creating"], list(d["create_queue"]), list(d["vest_queue"])
        s.tie_queue, s.tie_grants, s.agent_turn = list(d["tie_queue"]), list(d["tie_grants"]), int(d["agent_turn"])
        s.initiative = _deep(d["initiative"])
        s.cycle, s.scene_index = list(d["cycle"]), int(d["scene_index"])
        s.scene = Scene.from_json(d["scene"]) if d["scene"] else None
        s.history, s.pool_timeline = _deep(d["history"]), list(d["pool_timeline"])
        s.ranking = [list(g) for g in d["ranking"]]
        s.endgame, s.fate_turn = _deep(d["endgame"]), int(d["fate_turn"])
        return s


def _deep(value: Any) -> Any:
    """A copy of plain JSON data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_deep(v) for v in value]
    return value
