"""What each seat may see, the hidden items, and the terminal face of a view.

Public: tracks, goods, worker dice, counts of artifact cards, active recruits, stars, built
markets. Private to their holder: the kinds of artifact cards in hand, hidden recruits, dealt
and discarded recruits, the ethical dilemma until resolved, the sealed recruit choice. Hidden
from everyone: face-down and set-aside market tiles, deck orders (rulebook "Icons & Tokens"
note; setup.yaml ``private_information``).

A trade on the table (rulebook "Trading") is shown as ``trade`` (:func:`trade_on_table`) to the
player who offers it while it is composed, and to both players once it is offered; the other
seats see only who is asked what (``waiting``).
"""

from __future__ import annotations

from typing import Any

from ...core import Secret
from .agenda import PARAM
from .oracle import MARKETS, RECRUITS, SITES, spot_ids
from .state import EuphoriaState
from .variants import market_holders


def _player_view(st: EuphoriaState, seat: str, me: bool) -> dict[str, Any]:
    p = st.players[seat]
    out: dict[str, Any] = {
        "morale": p.morale,
        "knowledge": p.knowledge,
        "goods": dict(p.goods),
        "artifacts": len(p.hand),
        "available": sorted(p.available),
        "workers": p.workers,
        "stars_left": p.stars,
        "active": list(p.active),
        "starred": list(p.starred),
        "hidden_recruits": len(p.hidden),
        "dilemma_done": p.dilemma_done,
        "dilemma_star": p.dilemma_star,
    }
    if p.dilemma_done:
        out["dilemma"] = p.dilemma
    if st.phase == "recruits":
        out["chosen"] = bool(p.choice)
    if me:
        if st.drafts.get("market_hands", {}).get(seat):
            out["market_hand"] = list(st.drafts["market_hands"][seat])
        if st.drafts.get("market_choice", {}).get(seat):
            out["kept_market"] = st.drafts["market_choice"][seat]
        if "drafted" in st.drafts:
            out["drafted"] = list(st.drafts["drafted"][seat])
            out["picked"] = st.drafts["picks"].get(seat, "")
        out["hand"] = sorted(p.hand)
        out["hidden"] = list(p.hidden)
        out["dilemma"] = p.dilemma
        out["dealt"] = list(p.dealt)
        out["discarded"] = list(p.discarded)
        out["choice"] = list(p.choice)
    return out


_SITE_SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = tuple((site, spot_ids(site)) for site in SITES)
"""Per construction site, in board order, its spots (the view lists them at every call)."""


def _workers(occ: list[list[Any]] | None) -> list[list[Any]]:
    """A copy of a spot's occupants (seat and die face each), empty when nobody is there."""
    return [list(o) for o in occ] if occ else []


TRADE_KINDS: tuple[str, ...] = ("trade_give", "trade_ask", "answer_trade")
"""The questions of a trade on the table (:mod:`.trade`)."""


def trade_on_table(st: EuphoriaState, seat: str | None) -> tuple[str, str, list[str], list[str]] | None:
    """The trade on the table as ``seat`` sees it: ``(offerer, partner, given, asked)``, or None
    when there is none or ``seat`` may not see it. The offerer sees what it names while it
    composes the offer; once offered, the partner sees it too, to answer it (rulebook "Trading":
    what is offered is said to the partner; the items in it may name artifact kinds of a hand, so
    no other seat sees them)."""
    prompt = st.prompt
    if prompt is None or seat is None:
        return None
    kind = prompt[1]
    if kind not in TRADE_KINDS:
        return None
    who, context = prompt[0], prompt[3]
    if kind == "answer_trade":
        offerer, partner = context[0], who
        if seat != offerer and seat != partner:
            return None
    else:
        offerer, partner = who, context[0]
        if seat != offerer:
            return None
    return offerer, partner, sorted(context[1]), sorted(context[2])  # what is in it, not the order named


def view(st: EuphoriaState, seat: str | None) -> dict[str, Any]:
    sites: dict[str, dict[str, Any]] = {}
    occupants = st.occupants
    for site, spots in _SITE_SPOTS:
        if site in st.built:
            market = MARKETS[st.sites[site]]
            sites[site] = {
                "market": market.id,
                "name": market.name,
                "stars": list(st.built[site]),
                "penalty": market.summary,
            }
        else:
            sites[site] = {
                "market": "face down",
                "spots": {s: _workers(occupants.get(s)) for s in spots},
            }
    out: dict[str, Any] = {
        "phase": st.phase,
        "turn": st.turn,
        "turn_number": st.turn_number,
        "players": {s: _player_view(st, s, s == seat) for s in st.seats},
        "board": {s: [list(o) for o in occ] for s, occ in sorted(st.occupants.items()) if occ},
        "allegiance": dict(st.allegiance),
        "miners": dict(st.miners),
        "territories": {f: list(v) for f, v in st.territory.items()},
        "sites": sites,
        "artifact_deck": len(st.artifacts.cards),
        "artifact_discards": len(st.artifacts.discards),
        "recruit_deck": len(st.recruit_deck.cards),
        "chain": sorted(set(st.chain)),
        "winners": list(st.winners),
        "end_reason": st.end_reason,
    }
    if st.prompt is not None:
        who, kind, options, _ctx = st.prompt
        out["waiting"] = {"seat": who, "decision": kind}
        if who == seat:
            out["waiting"]["options"] = list(options)
            out["waiting"]["parameter"] = PARAM[kind]
    trade = trade_on_table(st, seat)
    if trade is not None:
        offerer, partner, given, asked = trade
        out["trade"] = {"from": offerer, "to": partner, "give": given, "ask": asked}
    return out


def secrets(st: EuphoriaState) -> list[Secret]:
    out: list[Secret] = []
    for seat, p in st.players.items():
        mine = frozenset({seat})
        out += [Secret(card, mine, "artifact card") for card in p.hand]
        out += [Secret(r, mine, "hidden recruit") for r in [*p.hidden, *p.dealt, *p.discarded]]
        if st.phase == "recruits":
            out += [Secret(r, mine, "chosen recruit") for r in p.choice]
        if not p.dilemma_done and p.dilemma:
            out.append(Secret(p.dilemma, mine, "ethical dilemma"))
    nobody: frozenset[str] = frozenset()
    for seat, drafted in st.drafts.get("drafted", {}).items():
        out += [Secret(r, frozenset({seat}), "drafted recruit") for r in drafted]
    for seat, hand in st.drafts.get("market_hands", {}).items():
        out += [Secret(m, frozenset({seat}), "dealt market") for m in hand]
    out += [
        Secret(st.sites[s], market_holders(st, st.sites[s]), "face-down market")
        for s in SITES
        if s not in st.built and st.sites[s]
    ]
    out += [Secret(m, market_holders(st, m), "drafted market") for m in st.drafts.get("market_pile", [])]
    out += [Secret(m, nobody, "set-aside market") for m in st.set_aside]
    out += [Secret(r, nobody, "recruit deck") for r in st.recruit_deck.cards]
    out += [Secret(d, nobody, "undealt dilemma") for d in st.dilemma_deck]
    return out


def render(v: dict[str, Any]) -> str:
    """A plain-text face of a view for ``ludica play``."""
    lines = [f"EUPHORIA - turn {v['turn_number']} ({v['turn'] or '-'}), phase {v['phase']}"]
    lines.append(
        "allegiance: "
        + "  ".join(f"{f} {n}" for f, n in v["allegiance"].items())
        + " | miners: "
        + "  ".join(f"{f} {n}" for f, n in v["miners"].items())
    )
    lines.append("territories: " + "  ".join(f"{f} {','.join(s) or '-'}" for f, s in v["territories"].items()))
    for site, info in v["sites"].items():
        if "spots" in info:
            spots = " ".join(f"[{'/'.join(f'{o[0]}:{o[1]}' for o in occ) or '_'}]" for occ in info["spots"].values())
            lines.append(f"  {site}: face down {spots}")
        else:
            lines.append(f"  {site}: {info['name']} stars {','.join(info['stars']) or '-'} - {info['penalty']}")
    lines.append(
        "board: " + "; ".join(f"{s} {' '.join(f'{o[0]}:{o[1]}' for o in occ)}" for s, occ in v["board"].items())
    )
    for seat, p in v["players"].items():
        goods = " ".join(f"{g} {n}" for g, n in p["goods"].items() if n)
        names = ", ".join(RECRUITS[r].name + ("*" if r in p["starred"] else "") for r in p["active"])
        dice = ", ".join(map(str, p["available"]))
        lines.append(
            f"{seat}: morale {p['morale']} · knowledge {p['knowledge']} · stars left {p['stars_left']} · "
            f"workers in hand {len(p['available'])} of {p['workers']} (dice {dice or '-'}) · "
            f"artifacts {p['artifacts']} | {goods or 'no goods'}"
        )
        lines.append(f"    active: {names or '-'}; hidden recruits {p['hidden_recruits']}")
        if "hand" in p:
            lines.append(
                f"    your hand: {', '.join(p['hand']) or '-'}; hidden: {', '.join(p['hidden']) or '-'}; "
                f"dilemma: {p['dilemma']}" + (f"; dealt: {', '.join(p['dealt'])}" if p["dealt"] else "")
            )
    for p in v["players"].values():
        if "hand" in p and [*p["active"], *p["hidden"], *p["dealt"]]:
            lines.append("your recruits:")
            for rid in [*p["active"], *p["hidden"], *p["dealt"]]:
                lines.append(f"    {RECRUITS[rid].name} ({RECRUITS[rid].faction}): {RECRUITS[rid].summary}")
    if "waiting" in v:
        w = v["waiting"]
        lines.append(
            f"waiting for {w['seat']} to {w['decision']}" + (f": {', '.join(w['options'])}" if "options" in w else "")
        )
    if "trade" in v:
        t = v["trade"]
        lines.append(
            f"trade on the table: {t['from']} gives {', '.join(t['give']) or 'nothing'} "
            f"to {t['to']} for {', '.join(t['ask']) or 'nothing'}"
        )
    if v["winners"]:
        lines.append(f"WINNER: {', '.join(v['winners'])} ({v['end_reason']})")
    return "\n".join(lines)
