"""Costs and the ways to pay them.

A payment is a string of tokens joined by ``+``: a good (``energy``), an artifact of a kind
(``art-bear``) or one step of knowledge (``knowledge``, a recruit's price). A cost is a list of
*parts*, each a list of alternatives; the options are every affordable combination.
Rulebook: "Artifact Markets" (any 3 artifacts or a pair), "Icarus", "Constructed Markets",
"Construction Sites"; recruit cost modifiers (Josh, Brian, Michael, Flartner, Matthew, Kadan).
"""

from __future__ import annotations

from itertools import combinations_with_replacement, product

from .oracle import (
    ARTIFACT_KINDS,
    COMMODITIES,
    GOODS,
    MARKET_SUFFIX,
    MARKETS,
    RESOURCES,
    SITES,
    SPACES,
    SPOT_SEP,
    TRACKS,
    artifact_kind,
)
from .state import EuphoriaState
from .status import has, has_faction, penalized, revised
from .tracks import hand_kinds

Part = list[tuple[str, ...]]
NOTHING = "nothing"
ART = "art-"


def _goods_part(good: str, n: int) -> Part:
    return [(good,) * n]


def _artifact_triples(kinds: dict[str, int], pairs: bool) -> Part:
    held = sorted(kinds)
    out: Part = []
    for combo in combinations_with_replacement(held, 3):
        if all(combo.count(k) <= kinds[k] for k in combo):
            out.append(tuple(ART + k for k in combo))
    if pairs:
        out.extend((ART + k, ART + k) for k in held if kinds[k] >= 2)
    return out


def _bliss(st: EuphoriaState, seat: str) -> list[str]:
    """Bliss, or food in its place with Brian the Viticulturist."""
    return ["bliss", "food"] if has(st, seat, "brian_the_viticulturist") else ["bliss"]


def cost_parts(st: EuphoriaState, seat: str, space: str, bumping_other: bool) -> list[Part]:
    """The parts of the cost of placing on ``space`` for ``seat``."""
    if SPOT_SEP in space:
        site, _, index = space.partition(SPOT_SEP)
        printed = SITES[site].spot_costs[int(index) - 1]
        alts: Part = [(printed,)]
        if has(st, seat, "michael_the_engineer"):
            alts = [(r,) for r in RESOURCES]
        if has(st, seat, "flartner_the_luddite"):
            alts += [(ART + k,) for k in sorted(hand_kinds(st, seat))]
        return [alts]
    if space.endswith("_market"):
        return _visit_parts(st, seat, MARKETS[st.sites[space[: -len("_market")]]].id)
    sp = SPACES[space]
    if sp.kind in ("artifact_market", "wind_saloon"):
        kinds = hand_kinds(st, seat)
        pairs = not penalized(st, seat, "forbid_pair_payment")
        triples = _artifact_triples(kinds, pairs)
        if (
            space == "ark_of_fractured_memories"
            and has(st, seat, "jacko_the_archivist")
            and revised(st, "jacko_the_archivist")
        ):
            triples += [(ART + k,) for k in sorted(kinds)]
        return [triples]
    if sp.kind == "nimbus_loft":
        combos: Part = list(combinations_with_replacement(RESOURCES, 3))
        return [combos]
    if sp.kind in ("breeze_bar", "sky_lounge"):
        return [[(b,) for b in _bliss(st, seat)], [(c,) for c in COMMODITIES if c != "bliss"]]
    if sp.kind == "tunnel_end":
        if sp.faction and has_faction(st, seat, sp.faction):
            return []
        return [[("knowledge", "knowledge")]]
    parts = [_goods_part(good, n) for good, n in sp.cost]
    if sp.kind == "tunnel" and bumping_other and has(st, seat, "matthew_the_thief"):
        parts = [parts[0] + [("knowledge",)]]
    return parts


def _visit_parts(st: EuphoriaState, seat: str, market: str) -> list[Part]:
    parts: list[Part] = []
    kinds = hand_kinds(st, seat)
    josh = has(st, seat, "josh_the_negotiator")
    for key, value in MARKETS[market].visit_cost:
        if key == "artifact_any":
            parts.append([(ART + k,) for k in sorted(kinds)])
        elif key == "artifact":
            parts.append([(ART + value,)])
        elif key == "resource_any":
            alts: Part = [(r,) for r in RESOURCES]
            parts.append([*alts, ("bliss",)] if josh else alts)
        elif key == "commodity_any":
            parts.append([(c,) for c in COMMODITIES])
        elif key in RESOURCES:
            one: Part = [(key,)]
            parts.append([*one, ("bliss",)] if josh else one)
        elif key == "bliss":
            parts.append([(b,) * value for b in _bliss(st, seat)])
        else:
            parts.append(_goods_part(key, value))
    return parts


def affordable(st: EuphoriaState, seat: str, tokens: tuple[str, ...], strict: bool = True) -> bool:
    p = st.players[seat]
    need: dict[str, int] = {}
    for tok in tokens:
        need[tok] = need.get(tok, 0) + 1
    kinds = None
    for tok, n in need.items():
        if tok == "knowledge":
            if strict and p.knowledge + n > TRACKS["knowledge"][1]:
                return False
        elif tok.startswith(ART):
            kinds = kinds if kinds is not None else hand_kinds(st, seat)
            if kinds.get(tok[len(ART) :], 0) < n:
                return False
        elif p.goods[tok] < n:
            return False
    return True


def payable(st: EuphoriaState, seat: str, space: str, bumping_other: bool) -> bool:
    """Some way to pay exists (stops at the first affordable combination). Common cases are
    answered directly; the others try the combinations of :func:`cost_parts`."""
    quick = _quick_payable(st, seat, space)
    if quick is not None:
        return quick
    parts = cost_parts(st, seat, space, bumping_other)
    return any(affordable(st, seat, tuple(t for alt in choice for t in alt)) for choice in product(*parts))


def _quick_payable(st: EuphoriaState, seat: str, space: str) -> bool | None:
    p = st.players[seat]
    if SPOT_SEP in space:
        site, _, index = space.partition(SPOT_SEP)
        if p.goods[SITES[site].spot_costs[int(index) - 1]] > 0:
            return True
        if not has(st, seat, "michael_the_engineer") and not has(st, seat, "flartner_the_luddite"):
            return False
        return None
    sp = SPACES.get(space)
    if sp is None:
        if space.endswith(MARKET_SUFFIX) and _visit_short(st, seat, st.sites[space[: -len(MARKET_SUFFIX)]]):
            return False
        return None
    return quick_fixed(st, seat, space, sp.kind)


def quick_fixed(st: EuphoriaState, seat: str, space: str, kind: str) -> bool | None:
    """:func:`payable`'s direct answer for ``space``, one of the board's fixed spaces, whose
    ``kind`` the caller has at hand; ``None`` when only the combinations can tell."""
    p = st.players[seat]
    if kind == "tank" or (kind == "tunnel" and not has(st, seat, "matthew_the_thief")):
        return all(p.goods[g] >= n for g, n in SPACES[space].cost)
    if kind == "nimbus_loft":
        return p.total_goods(RESOURCES) >= 3
    if kind in ("breeze_bar", "sky_lounge") and not has(st, seat, "brian_the_viticulturist"):
        return p.goods["bliss"] > 0 and (p.goods["energy"] > 0 or p.goods["water"] > 0 or p.goods["food"] > 0)
    if kind in ("artifact_market", "wind_saloon"):
        return _artifacts_payable(st, seat, space)
    if kind == "tunnel_end":
        faction = SPACES[space].faction
        return bool(faction and has_faction(st, seat, faction)) or p.knowledge + 2 <= TRACKS["knowledge"][1]
    return None


_PLAIN_VISIT: dict[str, tuple[tuple[str, int], ...]] = {
    market.id: tuple(
        (key, value)
        for key, value in market.visit_cost
        if key in COMMODITIES and key != "bliss"  # the parts :func:`_visit_parts` gives one way to pay
    )
    for market in MARKETS.values()
}
"""Per market, the parts of its visit cost paid only one way, with goods (four energy, water or
food): no recruit offers another."""


def _visit_short(st: EuphoriaState, seat: str, market: str) -> bool:
    """Surely no way to pay a visit to ``market`` (a quick test before the combinations): a part
    paid only with goods is not held, or an artifact is due and the hand is empty. A part that
    no single way can pay leaves every combination unpaid."""
    p = st.players[seat]
    for good, n in _PLAIN_VISIT[market]:
        if p.goods[good] < n:
            return True
    return not p.hand and _NEEDS_CARD[market]


_NEEDS_CARD: dict[str, bool] = {
    market.id: any(key in ("artifact_any", "artifact") for key, _ in market.visit_cost) for market in MARKETS.values()
}
"""Per market, whether its visit costs an artifact card."""


def _artifacts_payable(st: EuphoriaState, seat: str, space: str) -> bool:
    """The answer :func:`cost_parts` gives for artifacts, without listing them: any three cards,
    a pair (unless forbidden), or one card for revised Jacko at the Ark."""
    hand = st.players[seat].hand
    if len(hand) >= 3:
        return True
    if not hand:
        return False
    jacko = space == "ark_of_fractured_memories" and has(st, seat, "jacko_the_archivist")
    if jacko and revised(st, "jacko_the_archivist"):
        return True
    return len(hand) == 2 and len(hand_kinds(st, seat)) == 1 and not penalized(st, seat, "forbid_pair_payment")


def options(st: EuphoriaState, seat: str, space: str, bumping_other: bool, strict: bool = True) -> list[str]:
    """Every affordable way for ``seat`` to pay for ``space`` (``["nothing"]`` when free)."""
    parts = cost_parts(st, seat, space, bumping_other)
    if not parts:
        return [NOTHING]
    seen: set[str] = set()
    out: list[str] = []
    for choice in product(*parts):
        tokens = tuple(sorted(t for alt in choice for t in alt))
        key = "+".join(tokens)
        if key not in seen and affordable(st, seat, tokens, strict):
            seen.add(key)
            out.append(key)
    return sorted(out)


def tokens_of(option: str) -> list[str]:
    return [] if option == NOTHING else option.split("+")


def is_artifact_token(token: str) -> bool:
    return token.startswith(ART) and token[len(ART) :] in ARTIFACT_KINDS


# -- a placement's cost is paid in full (issue 14) -----------------------------------------------
def outstanding(st: EuphoriaState, seat: str) -> tuple[str, bool] | None:
    """The space of ``seat``'s placement whose cost is still to be paid (and whether it bumped a
    rival), while its bump is being settled; ``None`` when nothing is due."""
    for task in st.agenda:
        if task.name == "pay" and task.args[0] == seat:
            return task.args[1], task.args[2]
    return None


def still_payable(st: EuphoriaState, seat: str, lose: str | None = None, limit: int | None = None) -> bool:
    """Whether ``seat``'s placement still to be paid (if any) can be paid in full once it has lost
    one ``lose`` (a good, or an artifact as ``art-<kind>``), with at most ``limit`` artifacts (the
    hand it may keep under its morale)."""
    due = outstanding(st, seat)
    if due is None:
        return True
    p = st.players[seat]
    taken: tuple[int, str] | None = None
    if lose is not None and lose.startswith(ART):
        index = next(i for i, c in enumerate(p.hand) if artifact_kind(c) == lose[len(ART) :])
        taken = index, p.hand.pop(index)
    elif lose is not None:
        p.goods[lose] -= 1
    try:
        ways = options(st, seat, due[0], due[1], strict=False)
        return any(limit is None or sum(is_artifact_token(t) for t in tokens_of(w)) <= limit for w in ways)
    finally:
        if taken is not None:
            p.hand.insert(*taken)
        elif lose is not None:
            p.goods[lose] += 1


def payable_without(st: EuphoriaState, seat: str, space: str, bumping_other: bool, good: str) -> bool:
    """Whether the cost of ``space`` can still be paid in full once ``seat`` has lost one ``good``."""
    goods = st.players[seat].goods
    goods[good] -= 1
    try:
        return bool(options(st, seat, space, bumping_other, strict=False))
    finally:
        goods[good] += 1


def may_spend(st: EuphoriaState, seat: str, good: str) -> bool:
    """Whether ``seat`` may give up one ``good`` (or ``art-<kind>``) now and still pay its
    placement in full."""
    return still_payable(st, seat, good)


def survives_a_loss(st: EuphoriaState, seat: str, space: str, bumping_other: bool) -> bool:
    """Whether some good ``seat`` holds can be lost to a roll penalty (the player's choice) with
    the cost of ``space`` still payable in full; true when it holds no goods (nothing is owed)."""
    goods = st.players[seat].goods
    held = [g for g in GOODS if goods[g] > 0]
    return not held or any(payable_without(st, seat, space, bumping_other, g) for g in held)
