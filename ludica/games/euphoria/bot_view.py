"""Euphoria's bot-facing view: the few facts of a seat's view that the heuristic reads.

The heuristic (:mod:`.bot`) scores actions from a handful of facts: its own player's board
(goods, artifact cards by kind, recruits' factions, dice, stars, morale, knowledge, dilemma), the
workers on the board, the free spots of the unbuilt construction sites, the markets it has not
starred, the territories, the allegiance tracks and the options of a question it is asked.
:class:`Seen` holds exactly those, and is made two ways that give the same facts:

* :func:`seen_of_view`, from the seat's view (:func:`.view.view`), for a situation that has only
  a view;
* :func:`seen_of_state`, from the state directly, reading only what :func:`.view.view` shows
  that seat. Building the whole JSON-like view was a good part of an ISMCTS playout (13% of its
  instructions, 27 November 2026); this reads a few fields and copies nothing.

Hidden information (DESIGN.md principle 12; rulebook "Icons & Tokens"): :func:`seen_of_state`
reads the seat's own hand, hidden recruits and dilemma, and of the others only what is public
(the board, the built markets' stars, the territories, the tracks, the goods and workers), and
a trade on the table only when the seat's view shows it (:func:`.view.trade_on_table`). ``tests/bots/
test_euphoria_bot_view.py`` checks that both readers give the same facts over many states, every
seat, and the same facts in every redeal of a state for that seat.
"""

from __future__ import annotations

from typing import Any, Final

from ...core.values import rebuilt
from .oracle import RECRUITS, SITES, SPOTS
from .state import EuphoriaState
from .view import trade_on_table

SPOT_COSTS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    site: tuple(zip(SPOTS[site], spec.spot_costs, strict=True)) for site, spec in SITES.items()
}
"""Each construction site's spots with the resource printed on each (rulebook "Construction
Sites"), in the order of the view's ``spots``."""

SPOT_COST: Final[dict[str, str]] = {spot: cost for printed in SPOT_COSTS.values() for spot, cost in printed}
"""The resource printed on each spot of a construction site."""

SITE_FACTION: Final[dict[str, str]] = {site: spec.faction for site, spec in SITES.items()}

KINDS_OF_RESOURCE: Final = len({cost for printed in SPOT_COSTS.values() for _, cost in printed})
"""How many resources the spots print (once all are wanted, the other free spots add none)."""

_SITE_OF: Final[dict[str, str]] = {spot: site for site, spots in SPOTS.items() for spot in spots}


class Seen:
    """What the heuristic reads of its seat's view, once per decision (a plain class with its
    own ``__init__``, which compiled code runs natively)."""

    seat: str
    players: int
    goods: dict[str, int]
    """The seat's goods (read only)."""
    kinds: dict[str, int]
    """Artifact cards in hand by kind."""
    my_factions: set[str]
    """The factions of the seat's recruits, active and hidden."""
    board: dict[str, list[list[Any]]]
    """Space -> the ``[seat, face]`` of its workers (read only; a space may list none)."""
    taken: dict[str, int]
    """The occupied spots of each unbuilt site that has any."""
    wanted: set[str]
    """The resources printed on the free spots of the unbuilt sites."""
    mine: set[str]
    """The sites the seat has a worker on."""
    off_sites: int
    """The seat's workers not on a construction site (beside the board included)."""
    placed_off_sites: int
    """The seat's workers on the board but not on a construction site."""
    workers: int
    stars_left: int
    knowledge: int
    morale: int
    artifacts: int
    """Artifact cards in hand."""
    available: int
    """Worker dice beside the board."""
    available_sum: int
    """The sum of their faces."""
    dilemma: str
    dilemma_done: bool
    territories: dict[str, int]
    """Stars in each faction's territory."""
    allegiance: dict[str, int]
    unstarred: set[str]
    """The factions of the built markets without the seat's star."""
    options: list[str]
    """The options of the question the seat is asked (empty when none)."""
    rival_goods: dict[str, dict[str, int]]
    """The other players' goods (public; read only)."""
    rival_workers: dict[str, int]
    """The other players' workers (public)."""
    rival_room: dict[str, int]
    """How many more artifact cards each other player may hold before its morale makes it
    discard (public: morale and the number of cards)."""
    trade_from: str
    """The offerer of the trade on the table, when the seat's view shows one (else "")."""
    trade_to: str
    """Its partner (else "")."""
    trade_give: list[str]
    """What the offerer gives in it (goods by name, artifacts as ``art-<kind>``)."""
    trade_ask: list[str]
    """What it asks for."""
    needs: dict[str, int]
    """The goods it wants next (set by the heuristic)."""
    star: float
    """What a star is worth to it now (set by the heuristic)."""

    def __init__(self, seat: str, players: int) -> None:
        self.seat = seat
        self.players = players
        self.needs = {}
        self.star = 0.0

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.seat, self.players)  # see ludica.core.values

    def locate(self) -> None:
        """Where the seat's workers are (:attr:`mine`, :attr:`off_sites`, :attr:`placed_off_sites`),
        from :attr:`board` and :attr:`workers`."""
        seat = self.seat
        mine: set[str] = set()
        on_sites = 0
        placed = 0
        for space, occupants in self.board.items():
            for seat_face in occupants:
                if seat_face[0] == seat:
                    site = _SITE_OF.get(space)
                    if site is None:
                        placed += 1
                    else:
                        mine.add(site)
                        on_sites += 1
        self.mine = mine
        self.off_sites = self.workers - on_sites
        self.placed_off_sites = placed

    def facts(self) -> dict[str, Any]:
        """Every fact, the board without its empty spaces (to compare two readings)."""
        out: dict[str, Any] = {name: getattr(self, name) for name in FACTS}
        out["board"] = {space: occupants for space, occupants in self.board.items() if occupants}
        return out


FACTS: Final = (
    "seat", "players", "goods", "kinds", "my_factions", "board", "taken", "wanted", "mine", "off_sites",
    "placed_off_sites", "workers", "stars_left", "knowledge", "morale", "artifacts", "available",
    "available_sum", "dilemma", "dilemma_done", "territories", "allegiance", "unstarred", "options",
    "rival_goods", "rival_workers", "rival_room", "trade_from", "trade_to", "trade_give", "trade_ask",
)  # fmt: skip
"""The facts of :class:`Seen` (all its attributes but the heuristic's own ``needs`` and ``star``)."""


def kinds_of(hand: list[str]) -> dict[str, int]:
    """Artifact cards counted by kind (``"<kind>-<n>"``; a plain dict: ``Counter`` runs Python)."""
    kinds: dict[str, int] = {}
    for card in hand:
        kind = card.rsplit("-", 1)[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


def factions_of(active: list[str], hidden: list[str]) -> set[str]:
    """The factions of a seat's recruits."""
    factions: set[str] = set()
    for recruits in (active, hidden):
        for rid in recruits:
            recruit = RECRUITS.get(rid)
            if recruit is not None:
                factions.add(recruit.faction)
    return factions


# -- from the view --------------------------------------------------------------------------------
def seen_of_view(view: dict[str, Any], seat: str) -> Seen:
    """The facts of ``seat``'s view (:func:`.view.view` for ``seat``)."""
    players: dict[str, dict[str, Any]] = view["players"]
    me = players[seat]
    seen = Seen(seat, len(players))
    seen.goods = dict(me["goods"])
    seen.kinds = kinds_of(me.get("hand", []))
    seen.my_factions = factions_of(me.get("active", []), me.get("hidden", []))
    seen.board = view["board"]
    seen.workers, seen.stars_left = me["workers"], me["stars_left"]
    seen.knowledge, seen.morale, seen.artifacts = me["knowledge"], me["morale"], me["artifacts"]
    available: list[int] = me["available"]
    seen.available, seen.available_sum = len(available), sum(available)
    seen.dilemma, seen.dilemma_done = me.get("dilemma") or "", bool(me["dilemma_done"])
    taken: dict[str, int] = {}
    wanted: set[str] = set()
    unstarred: set[str] = set()
    sites: dict[str, dict[str, Any]] = view["sites"]
    for site, info in sites.items():
        occupied: dict[str, list[Any]] | None = info.get("spots")
        if occupied is not None:
            costs = [cost for (spot, cost) in SPOT_COSTS[site] if not occupied[spot]]
            wanted.update(costs)
            if len(costs) < len(occupied):
                taken[site] = len(occupied) - len(costs)
        elif seat not in info["stars"]:
            unstarred.add(SITE_FACTION[site])
    seen.taken, seen.wanted, seen.unstarred = taken, wanted, unstarred
    seen.territories = {faction: len(stars) for faction, stars in view["territories"].items()}
    seen.allegiance = dict(view["allegiance"])
    seen.options = list(view.get("waiting", {}).get("options", []))
    seen.rival_goods = {s: p["goods"] for s, p in players.items() if s != seat}
    seen.rival_workers = {s: p["workers"] for s, p in players.items() if s != seat}
    seen.rival_room = {s: p["morale"] - p["artifacts"] for s, p in players.items() if s != seat}
    trade: dict[str, Any] | None = view.get("trade")
    if trade is None:
        seen.trade_from, seen.trade_to, seen.trade_give, seen.trade_ask = "", "", [], []
    else:
        seen.trade_from, seen.trade_to = trade["from"], trade["to"]
        seen.trade_give, seen.trade_ask = list(trade["give"]), list(trade["ask"])
    seen.locate()
    return seen


# -- from the state -------------------------------------------------------------------------------
def seen_of_state(st: EuphoriaState, seat: str) -> Seen:
    """The same facts as :func:`seen_of_view` of ``seat``'s view, read from the state: the seat's
    own player, and of the rest only what every seat sees. Nothing is copied: the facts are read
    during one decision, before the state changes."""
    p = st.players[seat]
    seen = Seen(seat, len(st.seats))
    seen.goods = p.goods
    seen.kinds = kinds_of(p.hand)
    seen.my_factions = factions_of(p.active, p.hidden)
    seen.board = st.occupants
    seen.workers, seen.stars_left, seen.knowledge, seen.morale = p.workers, p.stars, p.knowledge, p.morale
    seen.artifacts = len(p.hand)
    total = 0
    for face in p.available:
        total += face
    seen.available, seen.available_sum = len(p.available), total
    seen.dilemma, seen.dilemma_done = p.dilemma, p.dilemma_done
    built = st.built
    unstarred: set[str] = set()
    for site, stars in built.items():
        if seat not in stars:
            unstarred.add(SITE_FACTION[site])
    seen.unstarred = unstarred
    _locate(seen, st.occupants, built)
    seen.territories = {faction: len(stars) for faction, stars in st.territory.items()}
    seen.allegiance = st.allegiance
    prompt = st.prompt
    seen.options = list(prompt.options) if prompt is not None and prompt.seat == seat else []
    rival_goods: dict[str, dict[str, int]] = {}
    rival_workers: dict[str, int] = {}
    rival_room: dict[str, int] = {}
    for other, player in st.players.items():
        if other != seat:
            rival_goods[other] = player.goods
            rival_workers[other] = player.workers
            rival_room[other] = player.morale - len(player.hand)
    seen.rival_goods, seen.rival_workers, seen.rival_room = rival_goods, rival_workers, rival_room
    trade = trade_on_table(st, seat)
    if trade is None:
        seen.trade_from, seen.trade_to, seen.trade_give, seen.trade_ask = "", "", [], []
    else:
        seen.trade_from, seen.trade_to, seen.trade_give, seen.trade_ask = trade
    return seen


def _locate(seen: Seen, board: dict[str, list[list[Any]]], built: dict[str, list[str]]) -> None:
    """The workers on the board, in one pass: the occupied spots of the unbuilt sites, the
    resources of their free spots, and where the seat's own workers are (:meth:`Seen.locate`)."""
    seat = seen.seat
    taken: dict[str, int] = {}
    mine: set[str] = set()
    on_sites = 0
    placed = 0
    for space, occupants in board.items():
        if not occupants:
            continue
        site = _SITE_OF.get(space)
        if site is not None and site not in built:
            taken[site] = taken.get(site, 0) + 1
        for seat_face in occupants:
            who: str = seat_face[0]
            if who == seat:
                if site is None:
                    placed += 1
                else:
                    mine.add(site)
                    on_sites += 1
    wanted: set[str] = set()
    for site, printed in SPOT_COSTS.items():
        if site in built or taken.get(site, 0) == len(printed):
            continue
        for spot, cost in printed:
            if cost not in wanted and not board.get(spot):
                wanted.add(cost)
        if len(wanted) == KINDS_OF_RESOURCE:
            break
    seen.taken, seen.wanted, seen.mine = taken, wanted, mine
    seen.off_sites = seen.workers - on_sites
    seen.placed_off_sites = placed
