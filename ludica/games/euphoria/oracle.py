"""The component facts of Euphoria, read once from ``data/*.yaml`` and validated at load.

The data files are the shared fact sheets (``shared/euphoria``): the board's spaces with their
costs and benefits, the construction sites, the 48 recruits, the 18 markets, the 6 ethical
dilemmas, the 6 artifact kinds and the per-player-count set-up. The rules read every number
from here (costs, brackets, tiers, thresholds); nothing is written twice.

A malformed data file raises :class:`DataError` naming the file and the fact, at import time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

from ...core.values import Value

DATA = Path(__file__).parent / "data"

COMMODITIES: tuple[str, ...] = ("energy", "water", "food", "bliss")
RESOURCES: tuple[str, ...] = ("gold", "stone", "clay")
GOODS: tuple[str, ...] = COMMODITIES + RESOURCES


class DataError(ValueError):
    """A data file of the game does not say what the rules need."""


def _load(name: str) -> dict[str, Any]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with (DATA / name).open(encoding="utf-8") as handle:
        data = yaml.load(handle, Loader=loader)
    if not isinstance(data, dict) or data.get("schema_version") != 1:
        raise DataError(f"{name}: expected a mapping with schema_version 1")
    return data


def _need(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise DataError(f"{where}: {what}")


@dataclass(frozen=True, slots=True)
class Faction(Value):
    id: str
    region: str
    commodity: str
    resource: str | None
    area: str


@dataclass(frozen=True, slots=True)
class Space(Value):
    """One action space of the board (``kind`` says which rule gives its benefit)."""

    id: str
    name: str
    faction: str | None
    type: str
    kind: str
    cost: tuple[tuple[str, int], ...]
    """Fixed goods cost; special costs are named by ``kind`` (artifacts, any-mix resources)."""
    benefit: tuple[tuple[str, int], ...]
    """Fixed gains or track moves (``knowledge``, ``morale``, goods) read from the data."""


@dataclass(frozen=True, slots=True)
class Site(Value):
    id: str
    faction: str
    spot_costs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Market(Value):
    id: str
    name: str
    visit_cost: tuple[tuple[str, Any], ...]
    penalty: str
    value: Any
    summary: str


@dataclass(frozen=True, slots=True)
class Recruit(Value):
    id: str
    name: str
    faction: str
    summary: str
    revised: bool


@dataclass(frozen=True, slots=True)
class Dilemma(Value):
    id: str
    artifact: str
    fight: str
    contribute: str


_TRACK = re.compile(r"^(knowledge|morale) ([+-]\d+)$")


def _benefits(raw: Any, where: str) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    if isinstance(raw, dict):
        for good, n in raw.items():
            _need(good in GOODS and isinstance(n, int), where, f"unknown benefit {good}")
            out.append((good, n))
    elif isinstance(raw, list):
        for item in raw:
            match = _TRACK.match(str(item))
            if match:
                out.append((match.group(1), int(match.group(2))))
    return tuple(out)


def _kind(space: dict[str, Any]) -> str:
    sid, stype = space["id"], space["type"]
    if sid.startswith("worker_activation"):
        return "tank"
    if stype == "multi_use":
        return "commodity_area"
    if stype == "exclusive":
        return "tunnel_end"
    if sid.endswith("_tunnel"):
        return "tunnel"
    if sid == "market_visit":
        return "market_visit"
    if space["faction"] == "icarite":
        return sid
    if space["cost"] == "artifacts_3_any_or_pair":
        return "artifact_market"
    raise DataError(f"board.yaml: space {sid} has no rule")


def _load_board() -> tuple[dict[str, Faction], dict[str, Space], dict[str, Site], dict[str, Any]]:
    board = _load("board.yaml")
    factions = {
        f["id"]: Faction(f["id"], f["region"], f["commodity"], f["resource"], f["commodity_area"])
        for f in board["factions"]
    }
    _need(set(factions) == {"euphorian", "subterran", "wastelander", "icarite"}, "board.yaml", "four factions")
    spaces: dict[str, Space] = {}
    for raw in board["spaces"]:
        where = f"board.yaml space {raw.get('id')}"
        _need(raw.get("type") in board["space_types"], where, "unknown space type")
        cost = raw.get("cost")
        fixed: tuple[tuple[str, int], ...] = ()
        if isinstance(cost, dict) and all(k in GOODS for k in cost):
            fixed = tuple((k, int(v)) for k, v in cost.items())
        space = Space(
            raw["id"],
            raw["name"],
            None if raw["faction"] == "none" else raw["faction"],
            raw["type"],
            _kind(raw),
            fixed,
            _benefits(raw.get("benefit"), where),
        )
        spaces[space.id] = space
    sites = {}
    for raw in board["construction_sites"]["sites"]:
        _need(
            len(raw["spot_costs"]) == board["construction_sites"]["spots_per_site"]
            and all(c in RESOURCES for c in raw["spot_costs"]),
            "board.yaml",
            f"site {raw['id']} spot costs",
        )
        sites[raw["id"]] = Site(raw["id"], raw["faction"], tuple(raw["spot_costs"]))
    return factions, spaces, sites, board


FACTIONS, _SPACES, SITES, _BOARD = _load_board()
TRACKS = {
    "morale": tuple(_BOARD["morale_chart"]["range"]),
    "knowledge": tuple(_BOARD["knowledge_chart"]["range"]),
}
MORALE_START: int = _BOARD["morale_chart"]["start"]
KNOWLEDGE_START: int = _BOARD["knowledge_chart"]["start"]
KNOWLEDGE_LIMIT: int = _BOARD["knowledge_check"]["threshold"]
ALLEGIANCE_MAX: int = _BOARD["allegiance_tracks"]["cannot_exceed"]
TIER_LEVELS: tuple[int, ...] = tuple(t["level"] for t in _BOARD["allegiance_tracks"]["tiers"])
TUNNEL_FACTIONS: tuple[str, ...] = tuple(_BOARD["tunnels"]["factions"])
REVEAL_LEVEL: int = _BOARD["tunnels"]["reveal_level"]
TUNNEL_END: int = _BOARD["tunnels"]["completion_level"]


def _bracket_effect(text: str) -> tuple[str, int]:
    """``allegiance +1 ...`` / ``knowledge -1`` as a (track, delta) pair."""
    if text.startswith("allegiance"):
        return ("allegiance", int(text.split()[1]))
    match = _TRACK.match(text)
    if not match:
        raise DataError(f"board.yaml: commodity bracket effect {text!r}")
    return (match.group(1), int(match.group(2)))


BRACKETS: tuple[tuple[int, int, int, tuple[str, int]], ...] = tuple(
    (b["min"], b["max"] or 10**6, b["commodities"], _bracket_effect(b["effect"]))
    for b in _BOARD["commodity_table"]["brackets"]
)
BUILD_THRESHOLD: dict[int, int] = dict(_BOARD["construction_sites"]["occupied_spots_needed_to_build"])

SPACES: dict[str, Space] = {k: v for k, v in _SPACES.items() if v.kind != "market_visit"}
TUNNEL_OF: dict[str, str] = {s.faction: s.id for s in SPACES.values() if s.kind == "tunnel" and s.faction}
TUNNEL_END_OF: dict[str, str] = {s.faction: s.id for s in SPACES.values() if s.kind == "tunnel_end" and s.faction}
AREA_OF: dict[str, str] = {f.id: f.area for f in FACTIONS.values()}
ICARUS: tuple[str, ...] = tuple(s.id for s in SPACES.values() if s.faction == "icarite")
SPOT_SEP = "."
MARKET_SUFFIX = "_market"


SPOTS: dict[str, tuple[str, ...]] = {
    site: tuple(f"{site}{SPOT_SEP}{i + 1}" for i in range(len(s.spot_costs))) for site, s in SITES.items()
}


def spot_ids(site: str) -> tuple[str, ...]:
    return SPOTS[site]


def _load_markets() -> dict[str, Market]:
    data = _load("markets.yaml")
    out = {}
    for raw in data["markets"]:
        where = f"markets.yaml {raw.get('id')}"
        cost = raw["visit_cost"]
        for key, val in cost.items():
            ok = (
                key in GOODS
                or key in ("artifact_any", "resource_any", "commodity_any")
                or (key == "artifact" and val in ARTIFACT_KINDS)
            )
            _need(ok, where, f"unknown visit cost {key}")
        penalty = raw["penalty"]
        value = penalty.get("value", penalty.get("n", penalty.get("totals", penalty.get("where"))))
        out[raw["id"]] = Market(raw["id"], raw["name"], tuple(cost.items()), penalty["kind"], value, raw["summary"])
    _need(len(out) == data["count"], "markets.yaml", "count")
    return out


def _load_artifacts() -> tuple[str, ...]:
    data = _load("artifacts.yaml")
    kinds = tuple(a["id"] for a in data["artifacts"])
    _need(len(kinds) == data["kinds"], "artifacts.yaml", "kinds")
    return kinds


ARTIFACT_KINDS = _load_artifacts()
COPIES_PER_KIND: int = _load("artifacts.yaml")["copies_per_kind"]
ARTIFACT_CARDS: tuple[str, ...] = tuple(f"{k}-{i + 1}" for k in ARTIFACT_KINDS for i in range(COPIES_PER_KIND))
MARKETS = _load_markets()


def artifact_kind(card: str) -> str:
    return card.rsplit("-", 1)[0]


def _load_recruits() -> dict[str, Recruit]:
    data = _load("recruits.yaml")
    out = {}
    for raw in data["recruits"]:
        _need(raw["faction"] in FACTIONS, f"recruits.yaml {raw['id']}", "faction")
        out[raw["id"]] = Recruit(raw["id"], raw["name"], raw["faction"], raw["summary"], "revised" in raw)
    _need(len(out) == data["count"], "recruits.yaml", "count")
    for faction, ids in data["faction_index"].items():
        _need(all(out[i].faction == faction for i in ids), "recruits.yaml", f"faction index {faction}")
    return out


def _load_dilemmas() -> dict[str, Dilemma]:
    data = _load("dilemmas.yaml")
    out = {}
    for raw in data["cards"]:
        _need(raw["artifact"] in ARTIFACT_KINDS, f"dilemmas.yaml {raw['id']}", "artifact")
        out[raw["id"]] = Dilemma(raw["id"], raw["artifact"], raw["left_title"], raw["right_title"])
    _need(len(out) == data["count"], "dilemmas.yaml", "count")
    return out


RECRUITS = _load_recruits()
DILEMMAS = _load_dilemmas()
_SETUP = _load("setup.yaml")
PER_COUNT: dict[int, dict[str, int]] = {int(k): v for k, v in _SETUP["per_player_count"].items()}
START = _SETUP["each_player_starts_with"]
MAX_WORKERS: int = START["max_workers"]
STARTING_WORKERS: int = START["workers_available"]
STARS: int = START["authority_stars"]
MARKETS_IN_PLAY: int = len(SITES)
_need(START["morale"] == MORALE_START and START["knowledge"] == KNOWLEDGE_START, "setup.yaml", "start tracks")
_need(
    all(PER_COUNT[n]["spots_to_build_market"] == BUILD_THRESHOLD[n] for n in PER_COUNT),
    "setup.yaml",
    "build thresholds agree with board.yaml",
)
