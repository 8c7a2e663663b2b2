"""What each seat may see, the secrets, and the terminal face of The Great City.

Hidden (R-GC-38; docs/rules/great-city.md, "What each seat sees"): each purse is seen by its owner only; the
Yea and Nay purses by
nobody (each contributor sees his own contributions) until the end game reveals everything. The
judgment of the scene's pair is shown at the initial reading and after acceptance, otherwise only
the name the GM last read (R-GC-24, a courtesy on a public table).
"""

from __future__ import annotations

from typing import Any, Final

from ...core import Secret
from . import endgame as E
from . import oracle as O
from .common import GM, seat_label
from .scene import manner_of_tie, pair_of
from .state import Character, GreatCityState, Tie


def purse_token(seat: str, n: int) -> str:
    return f"purse of {seat}: {n} free scarab(s)"


def contributions_token(seat: str, yea: int, nay: int) -> str:
    return f"fate contributions of {seat}: Yea {yea}, Nay {nay}"


def fate_box_token(yea: int, nay: int) -> str:
    return f"Fate box: Yea {yea}, Nay {nay}"


def _revealed(state: GreatCityState) -> bool:
    return state.endgame is not None


_READINGS: Final[tuple[tuple[str, str, str, str, str], ...]] = tuple(
    (O.pair_bits(pair), O.PAIR_NAMES[pair], O.triad_name(pair >> 3), O.triad_name(pair & 7), O.PAIR_JUDGMENTS[pair])
    for pair in range(64)
)
"""Each triad-pair's bits, name, triads' names and judgment (Tables 2 and 3), worked out once:
every view shows two to five readings."""


def _reading(pair: int, judgment: bool) -> dict[str, Any]:
    """A reading as the view shows it: the pair, its name, its triads and (when shown) its judgment."""
    if not 0 <= pair <= 63:
        return _worked_out_reading(pair, judgment)
    bits, name, first, second, text = _READINGS[pair]
    if judgment:
        return {"pair": bits, "name": name, "triads": [first, second], "judgment": text}
    return {"pair": bits, "name": name, "triads": [first, second]}


def _worked_out_reading(pair: int, judgment: bool) -> dict[str, Any]:
    """:func:`_reading` from the tables, for a pair beyond the 64 (the same answer, or error, as ever)."""
    name, text = O.lookup(pair >> 3, pair & 7)
    out = {"pair": O.pair_bits(pair), "name": name, "triads": [O.triad_name(pair >> 3), O.triad_name(pair & 7)]}
    if judgment:
        out["judgment"] = text
    return out


def _character(c: Character) -> dict[str, Any]:
    """A character as the view shows it: every field in the view's order, made at its full size
    at once (cheaper than growing it key by key), then those this character lacks dropped (a
    description, the triad before it is rolled or chosen, an intent, the creation stage once done)."""
    rolled = c.stage != "roll" and c.stage != "choose_triad"
    out: dict[str, Any] = {
        "id": c.id,
        "name": c.name,
        "controller": c.controller,
        "kind": c.kind,
        "agent_of_peril": c.agent,
        "description": c.description,
        "triad": O.signs(c.triad) if rolled else None,
        "triad_name": O.triad_name(c.triad) if rolled else None,
        "vested": _by_color(c.vested),
        "traits": list(c.traits) if c.traits else None,
        "class": c.cls,
        "intent": dict(c.intent) if c.intent else None,
        "creating": c.stage,
    }
    if not c.description:
        del out["description"]
    if not rolled:
        del out["triad"]
        del out["triad_name"]
    if not c.intent:
        del out["intent"]
    if c.stage == "done":
        del out["creating"]
    return out


_BLUE: Final = O.COLORS[0]
_WHITE: Final = O.COLORS[1]
_GREEN: Final = O.COLORS[2]
"""The stones' colours, blue first (constants: a compiled module reads them without a lookup)."""


def _by_color(values: list[int]) -> dict[str, int]:
    """``values`` (one per stone, blue first) by the stones' colours."""
    if len(values) != 3:
        return dict(zip(O.COLORS, values, strict=True))  # the same error as ever
    return {_BLUE: values[0], _WHITE: values[1], _GREEN: values[2]}


def _tie(state: GreatCityState, t: Tie) -> dict[str, Any]:
    """A tie as the view shows it: its fields (:meth:`Tie.to_json`) and how it is played."""
    return {
        "id": t.id,
        "source": t.source,
        "target": t.target,
        "sign": t.sign,
        "grant": t.grant,
        "manner": manner_of_tie(state, t),
    }


def _seats(state: GreatCityState) -> list[dict[str, Any]]:
    """Each seat, its player's name (:func:`seat_label`: the players in seat order, the GM last)
    and its finished characters."""
    names, owned = state.players, state.owned
    n = len(names)
    out = []
    for i, s in enumerate(state.seats):
        name = names[i] if i < n and s != GM else seat_label(state, s)
        out.append({"seat": s, "name": name, "characters": list(owned[s])})
    return out


def view(state: GreatCityState, seat: str | None) -> dict[str, Any]:
    revealed = _revealed(state)
    public_fate = state.options["fate_contributions"] == "public"
    n = len(state.players)
    out: dict[str, Any] = {
        "game": "great-city",
        "you": seat,
        "phase": state.phase,
        "seats": _seats(state),
        "peril_pool": state.pool,
    }
    if seat in state.purse:
        out["purse"] = {"scarabs": state.purse[seat], "text": purse_token(seat, state.purse[seat])}  # type: ignore[index]
    fate: dict[str, Any] = {"nay_start": n + 1}
    if revealed or public_fate:
        fate["yea"], fate["nay"] = state.yea, state.nay
        fate["text"] = fate_box_token(state.yea, state.nay)
    if public_fate or revealed:
        fate["contributions"] = {s: list(v) for s, v in state.contributions.items()}
    elif seat is not None and seat in state.contributions:
        y, nn = state.contributions[seat]
        fate["yours"] = {"yea": y, "nay": nn, "text": contributions_token(seat, y, nn)}
    out["fate_box"] = fate
    if revealed:
        out["purses"] = dict(state.purse)
    if state.situation_dice is not None:
        sit: dict[str, Any] = {
            "initial": _reading(state.initial_city, True),  # type: ignore[arg-type]
            "moving_positions": list(state.city_moving),
            "pair": _reading(state.city, True),  # type: ignore[arg-type]
            "reduced": {"triad": O.signs(state.reduced), "name": O.triad_name(state.reduced)},  # type: ignore[arg-type]
            "face_of_peril": O.face_of_peril(state.reduced),  # type: ignore[arg-type]
            "vested": list(state.city_vested),
        }
        if state.situation_texts:
            sit["texts"] = dict(state.situation_texts)
        out["situation"] = sit
    out["characters"] = [_character(c) for c in state.characters.values()]
    out["ties"] = [_tie(state, t) for t in state.ties]
    if state.initiative["rolls"]:
        out["initiative"] = {
            "rolls": [dict(r) for r in state.initiative["rolls"]],
            "winner": state.initiative["winner"],
            "cycle": list(state.cycle),
        }
    out["scenes_played"] = len(state.history)
    out["peril_timeline"] = list(state.pool_timeline)
    if state.history:
        out["last_scene"] = dict(state.history[-1])
    if state.scene is not None:
        out["scene"] = _scene(state)
    if state.endgame is not None:
        out["endgame"] = _endgame(state)
    return out


def _scene(state: GreatCityState) -> dict[str, Any]:
    sc = state.scene
    assert sc is not None
    out: dict[str, Any] = {
        "number": sc.index + 1,
        "focal": sc.focal,
        "spotlight": sc.spotlight,
        "foil": sc.foil,
        "intent": sc.intent,
        "present": list(sc.present),
        "ante": sc.ante,
        "reaction_order": list(sc.order),
    }
    ready = sc.initial_pair is not None
    if ready:
        chars = state.characters
        spot, foil = chars[sc.spotlight], chars[sc.foil]  # type: ignore[index]
        pair = pair_of(state, sc)
        by_act = state.options["reflip_model"] == "act"
        stones = []
        for pos in range(1, 7):
            owner = spot if pos <= 3 else foil
            ci = (pos - 1) % 3
            stones.append(
                {
                    "position": pos,
                    "owner": owner.id,
                    "color": O.COLORS[ci],
                    "sign": "+" if pair >> (6 - pos) & 1 else "-",
                    "vested": owner.vested[ci],
                    "flippable": (sc.lock[pos - 1] is None) if by_act else (sc.last != pos),
                }
            )
        out["stones"] = stones
        out["pair"] = O.pair_bits(pair)
        out["initial_reading"] = _reading(sc.initial_pair, True)  # type: ignore[arg-type]
        if sc.announced is not None and state.phase != "random_flip":
            out["announced"] = _reading(sc.announced, False)
        if sc.accepted_pair is not None:
            out["accepted"] = _reading(sc.accepted_pair, True)
    if sc.round:
        out["round"] = sc.round
        out["acted"] = dict(sc.acted)
        if state.phase == "reaction":
            out["to_react"] = sc.forced or sc.order[sc.turn]
        out["flipping"] = sc.flipping
        out["used_traits"] = [list(t) for t in sorted(sc.used_traits)] if sc.used_traits else []
        out["used_ties"] = sorted(sc.used_ties) if sc.used_ties else []
    if sc.undo:
        out["undo_window"] = {"position": sc.undo[0], "controller": sc.undo[1]}
    if sc.forced:
        out["must_accept"] = sc.forced
    if sc.acceptor:
        out["acceptor"] = sc.acceptor
        out["narrator"] = sc.narrator
    out["participants"] = [s for s in state.seats if s in sc.participants]
    return out


def _endgame(state: GreatCityState) -> dict[str, Any]:
    eg = state.endgame
    assert eg is not None
    order = E.ranking(state)
    out: dict[str, Any] = {
        "yea": state.yea,
        "nay": state.nay,
        "city_fate": "survives" if eg["survives"] else "succumbs",
        "city": _reading(state.city, True),  # type: ignore[arg-type]
        "tie_rolls": [dict(r) for r in eg["tie_rolls"]],
        "ranking": order or [list(g) for g in state.ranking],
    }
    if order:
        out["city_narrator"] = order[0]
        fates = []
        for s in order:
            c = state.player_char(s)
            fates.append(
                {
                    "seat": s,
                    "character": c.id,  # type: ignore[union-attr]
                    "intent": c.intent["answer"],  # type: ignore[union-attr,index]
                    **_reading(E.fate_pair(state, s), True),
                }
            )
        out["fates"] = fates
        out["narrated"] = eg["narrated"]
    return out


def secrets(state: GreatCityState) -> list[Secret]:
    if _revealed(state):
        return []
    out = [Secret(purse_token(s, n), frozenset({s}), f"{s}'s purse") for s, n in state.purse.items()]
    if state.options["fate_contributions"] == "secret":
        out.append(Secret(fate_box_token(state.yea, state.nay), frozenset(), "the Yea and Nay purses"))
        for s, (y, n) in state.contributions.items():
            out.append(Secret(contributions_token(s, y, n), frozenset({s}), f"{s}'s fate contributions"))
    return out


# -- the terminal face -----------------------------------------------------------------------
def render(v: dict[str, Any]) -> str:
    lines: list[str] = []
    names = {s["seat"]: s["name"] for s in v["seats"]}
    chars = {c["id"]: c for c in v["characters"]}

    def cname(cid: str | None) -> str:
        if cid is None:
            return "—"
        c = chars.get(cid)
        return f"{c['name'] or cid} ({cid})" if c else cid

    lines.append(
        f"THE GREAT CITY — phase {v['phase']}" + (f" — you are {names.get(v['you'], v['you'])}" if v["you"] else "")
    )
    purse = v.get("purse")
    money = f"Peril pool {v['peril_pool']}"
    if purse:
        money += f" · your purse {purse['scarabs']}"
    fate = v["fate_box"]
    if "yea" in fate:
        money += f" · Yea {fate['yea']} / Nay {fate['nay']}"
    else:
        money += f" · Yea ? / Nay ? (Nay began with {fate['nay_start']})"
        if "yours" in fate:
            money += f" · you gave Yea {fate['yours']['yea']}, Nay {fate['yours']['nay']}"
    lines.append(money)
    sit = v.get("situation")
    if sit:
        p, first = sit["pair"], sit["initial"]
        city_vested = ", ".join(f"{n} under stone {i}" for i, n in enumerate(sit["vested"], 1) if n) or "none"
        lines.append(f"The city: {p['pair']} {p['name']} — {p['judgment']} (scarabs vested: {city_vested})")
        if sit["moving_positions"]:
            moving = ", ".join(map(str, sit["moving_positions"]))
            lines.append(f"  first thrown {first['pair']} {first['name']} — {first['judgment']} (moving {moving})")
        faces = ", ".join(sit["face_of_peril"]) or "none"
        lines.append(f"  reduced {sit['reduced']['triad']} {sit['reduced']['name']}; face of peril: {faces}")
        texts = sit.get("texts")
        if texts:
            lines.append(f"  situation: {texts['situation']} · peril: {texts['peril']} · its face: {texts['face']}")
    if v["characters"]:
        lines.append("Characters:")
        for c in v["characters"]:
            who = names.get(c["controller"], c["controller"])
            bits = c.get("triad", "???")
            desc = f"  {cname(c['id'])} — {who}: {c['kind'] or '?'} {c['class'] or ''} {bits}"
            if c.get("traits"):
                desc += f" ({', '.join(c['traits'])})"
            vested = ", ".join(f"{n} {k}" for k, n in c["vested"].items() if n)
            if vested:
                desc += f" · scarabs vested: {vested}"
            if c.get("intent"):
                desc += f" · saves the city? {c['intent']['answer']} ({c['intent']['color']}: {c['intent']['text']})"
            if c["agent_of_peril"]:
                desc += " · agent of peril"
            if c.get("creating"):
                desc += f" · being created ({c['creating']})"
            lines.append(desc)
            if c.get("traits") and c.get("kind"):
                modes = []
                for mode in O.MODES:
                    cells = [O.TRAITS[c["kind"]][t][mode] for t in c["traits"]]
                    cells = [x for x in cells if x]
                    if cells:
                        modes.append(f"{mode}: {'/'.join(cells)}")
                lines.append(f"      traits in action — {'; '.join(modes)}")
    if v["ties"]:
        lines.append("Ties:")
        for t in v["ties"]:
            lines.append(f"  {cname(t['source'])} {t['sign']}→ {cname(t['target'])} — {t['manner']}")
    sc = v.get("scene")
    if sc:
        lines.append(
            f"Scene {sc['number']}: focal {names[sc['focal']]}, spotlight {cname(sc['spotlight'])}, "
            f"foil {cname(sc['foil'])}; ante {sc['ante']}"
        )
        if sc["intent"]:
            lines.append(f"  intent: {sc['intent']}")
        lines.append(f"  present: {', '.join(cname(c) for c in sc['present'])}")
        if "stones" in sc:
            stones = " ".join(
                f"{s['position']}:{s['color'][0]}{s['sign']}{'*' * s['vested']}{'' if s['flippable'] else '#'}"
                for s in sc["stones"]
            )
            lines.append(f"  stones {stones}   (* vested, # locked)")
            ir = sc["initial_reading"]
            lines.append(f"  initial reading {ir['pair']}: {ir['name']} — {ir['judgment']}")
            undo = sc.get("undo_window")
            if undo:  # the flip waits for its undo: the stones read their new pair
                now = O.PAIR_NAMES[int(sc["pair"].replace(" ", ""), 2)]
                lines.append(
                    f"  the stones now read {sc['pair']}: {now} (the flip of stone {undo['position']} "
                    f"may be undone by {names.get(undo['controller'], undo['controller'])})"
                )
            elif "announced" in sc:
                lines.append(f"  the oracle names {sc['announced']['pair']}: {sc['announced']['name']}")
            if "accepted" in sc:
                a = sc["accepted"]
                lines.append(f"  accepted {a['pair']}: {a['name']} — {a['judgment']}")
        if "round" in sc:
            lines.append(
                f"  round {sc['round']}; reacted: "
                + (", ".join(f"{names.get(k, k)} ({w})" for k, w in sc["acted"].items()) or "nobody yet")
                + (f"; to react: {names[sc['to_react']]}" if sc.get("to_react") else "")
            )
        if sc.get("must_accept"):
            lines.append(f"  {names[sc['must_accept']]} must accept (scene guard)")
    last = v.get("last_scene")
    if last and not sc:
        lines.append(
            f"Last scene {last['scene']}: accepted by {names.get(last['acceptor'], last['acceptor'])} — "
            f"{last['pair']} {last['name']}"
        )
    eg = v.get("endgame")
    if eg:
        lines.append(
            f"END GAME: the Great City {eg['city_fate']} (Yea {eg['yea']}, Nay {eg['nay']}); "
            f"{eg['city']['pair']} {eg['city']['name']} — {eg['city']['judgment']}"
        )
        for f in eg.get("fates", []):
            lines.append(f"  {names[f['seat']]} ({f['intent']}): {f['pair']} {f['name']} — {f['judgment']}")
    if v.get("purses"):
        lines.append("Purses: " + ", ".join(f"{names[s]} {n}" for s, n in v["purses"].items()))
    return "\n".join(lines)
