"""Euphoria's face at the web table (``view.html``) and the printed facts it draws.

The view carries the state; what is printed on the board and the cards (the action spaces of each
region with their costs and benefits, the construction sites' spot costs, the allegiance tiers, the
recruits' abilities, the ethical dilemmas) is read here from the game's data files
(:mod:`ludica.games.euphoria.oracle`) and given to the template as ``data``. Facts only, never
state: the template looks up what the view shows (a hidden recruit's text only for its holder).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..names import ARTIFACT_NAMES
from ..oracle import (
    ALLEGIANCE_MAX,
    DILEMMAS,
    FACTIONS,
    MARKETS,
    RECRUITS,
    REVEAL_LEVEL,
    SITES,
    SPACES,
    TRACKS,
    TUNNEL_END,
    _load,
)

SPECIAL_COSTS = {
    "artifacts_3_any_or_pair": "3 artifact cards, or a pair",
    "resources_any_mix": "resources (any mix)",
    "non_bliss_commodity": "other commodity",
    "artifact_any": "artifact card",
    "resource_any": "resource",
}


def _cost(raw: Any) -> str:
    if isinstance(raw, dict):
        return ", ".join(f"{n} {SPECIAL_COSTS.get(k, k)}" for k, n in raw.items())
    if isinstance(raw, str) and raw != "none":
        return SPECIAL_COSTS.get(raw, raw.replace("_", " "))
    return "free"


def _benefit(raw: Any) -> str:
    if isinstance(raw, dict):
        return ", ".join(f"{n} {k}" for k, n in raw.items())
    if isinstance(raw, str) and raw.startswith("commodity_table("):
        good = raw[len("commodity_table(") : -1]
        return f"{good} by the dice total here: 1–4 allegiance +1 · 5–8 knowledge −1 · 9+ a second {good}, knowledge +1"
    if isinstance(raw, list):
        return "; ".join(str(b) for b in raw)
    return str(raw or "")


def _tiers() -> list[dict[str, Any]]:
    out = []
    for tier in _load("board.yaml")["allegiance_tracks"]["tiers"]:
        texts = {f: str(tier.get(f, tier.get("all", ""))).strip() for f in FACTIONS}
        out.append({"tier": tier["tier"], "level": tier["level"], "texts": texts})
    return out


@cache
def _facts() -> dict[str, Any]:
    raw_spaces = {s["id"]: s for s in _load("board.yaml")["spaces"]}
    spaces = {
        sid: {
            "name": s.name,
            "type": s.type,
            "kind": s.kind,
            "cost": _cost(raw_spaces[sid].get("cost")),
            "benefit": _benefit(raw_spaces[sid].get("benefit")),
        }
        for sid, s in SPACES.items()
    }
    regions = []
    for f in FACTIONS.values():
        regions.append(
            {
                "faction": f.id,
                "region": f.region,
                "commodity": f.commodity,
                "resource": f.resource,
                "spaces": [sid for sid, s in SPACES.items() if s.faction == f.id],
                "sites": [site for site, s in SITES.items() if s.faction == f.id],
                "markets": [f"{site}_market" for site, s in SITES.items() if s.faction == f.id],
            }
        )
    return {
        "regions": regions,
        "neutral": [sid for sid, s in SPACES.items() if s.faction is None],
        "spaces": spaces,
        "sites": {site: {"faction": s.faction, "spot_costs": list(s.spot_costs)} for site, s in SITES.items()},
        "recruits": {r.id: {"name": r.name, "faction": r.faction, "summary": r.summary} for r in RECRUITS.values()},
        "dilemmas": {
            d.id: {"artifact": ARTIFACT_NAMES.get(d.artifact, d.artifact), "fight": d.fight, "contribute": d.contribute}
            for d in DILEMMAS.values()
        },
        "markets": {
            m.id: {"name": m.name, "summary": m.summary, "visit": _cost(dict(m.visit_cost))} for m in MARKETS.values()
        },
        "artifacts": dict(ARTIFACT_NAMES),
        "tiers": _tiers(),
        "allegiance_max": ALLEGIANCE_MAX,
        "tunnel_reveal": REVEAL_LEVEL,
        "tunnel_end": TUNNEL_END,
        "tracks": {k: list(v) for k, v in TRACKS.items()},
    }


def face_data() -> dict[str, Any]:
    """The printed facts the face draws (see the module docstring)."""
    return _facts()


def face_input(view: dict[str, Any], pending: dict[str, Any]) -> dict[str, Any]:
    """What ``view.html`` reads of the view and the pending decision: the view without who is
    waited for (``waiting``; the table says it above the page), and nothing of the decision. A
    seat's page is kept while this is the same (:func:`ludica.table.faces.face_input`)."""
    return {key: value for key, value in view.items() if key != "waiting"}
