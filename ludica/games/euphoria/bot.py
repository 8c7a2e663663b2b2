"""Euphoria's heuristic: play toward ten stars as the rulebook describes the race.

The rulebook's goal is to be the first to place all ten authority stars ("Winning the game").
Stars come from building markets (every builder stars the finished market), from visiting built
markets, the artifact markets and Icarus's Wind Saloon and Nimbus Loft (a star in a territory),
from the ethical dilemma, and from tier 4 of an allegiance track. The bot scores every legal
action from what its seat sees only (the facts of its view, :mod:`.bot_view`) and takes the
best, with a little random tie-breaking:

* **Build markets and stay on the sites**: joining a site it is not on yet is worth much, the more
  so the closer the site is to its threshold; completing one is worth a star. It never retrieves
  a worker from a construction site while it has another choice.
* **Stars**: a star space with room in its territory (or a built market without its star, which
  also frees it from that market's penalty) is the best placement; the dilemma is resolved for
  its star (``contribute``) when it can be paid cheaply.
* **Gather what it lacks**: the resources printed on the free spots of open sites, three
  resources for Nimbus Loft, artifacts for the artifact markets, the commodities its tunnels and
  tanks cost; a fourth worker early (Worker Activation Tank).
* **Allegiance**: a commodity area's 1-4 bracket and the star spaces climb the track of their
  faction, valued more for the factions of its own recruits (tiers 1-4 benefit them).
* **Knowledge and morale**: it prefers the 5-8 bracket (knowledge -1) when its knowledge is high,
  avoids the 9+ bracket, retrieves only as many workers as keep the knowledge check (total of 16)
  unlikely to cost one, and pays food or bliss on retrieval when its hand needs the morale.

Rulebook: "Object of the Game", "Worker Placement", "Construction Sites", "Retrieving Workers",
"Knowledge", "Morale", "Allegiance", "Ethical Dilemma", "Winning the game".
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any, Final

from ...bots.base import Decision, Situation
from ...core.actions import Action, fill
from .bot_view import SPOT_COST, Seen, seen_of_state, seen_of_view
from .oracle import (
    AREA_OF,
    BRACKETS,
    BUILD_THRESHOLD,
    COMMODITIES,
    DILEMMAS,
    MARKET_SUFFIX,
    RECRUITS,
    RESOURCES,
    SITES,
    SPACES,
    TIER_LEVELS,
)

KNOWLEDGE_LIMIT = 16
"""A knowledge check fails at this total (rulebook "Knowledge")."""

SEARCH_DEFAULTS: Final = {"rivals": "policy"}
"""The ``ismcts`` bot's default level here searches only its own moves, the other seats playing as
this heuristic would (a best reply to it): against three heuristic bots it then wins 59% of 4-player
games where searching its rivals too won 34% (docs/bots-mechanics.md)."""

_TUNNEL_COST = {s.id: s.cost[0][0] for s in SPACES.values() if s.kind == "tunnel"}
_AREA_FACTION = {area: faction for faction, area in AREA_OF.items()}
_AREA_COMMODITY = {
    "generator": "energy",
    "aquifer": "water",
    "farm": "food",
    "cloud_mine": "bliss",
}
_TUNNEL_RESOURCE: Final = {"euphorian": "gold", "subterran": "stone", "wastelander": "clay"}
_BRACKETS: Final[list[tuple[int, int, int, str, int]]] = [
    (lo, hi, amount, effect, n) for lo, hi, amount, (effect, n) in BRACKETS
]
"""The commodity areas' brackets (rulebook "Commodity Areas"), flat for compiled code."""
_STAR_KINDS = ("market_visit", "artifact_market", "wind_saloon", "nimbus_loft")


def _read(situation: Situation) -> Seen:
    """The facts the heuristic reads (:mod:`.bot_view`): from the state behind the situation,
    seen as its seat sees it, or from the seat's view when the situation has no state."""
    seen = situation.read(seen_of_state)
    if seen is None:
        seen = seen_of_view(situation.view, situation.seat)
    seen.needs = _needs(seen)
    seen.star = _star_value(seen)
    return seen


_SITES_OF: Final[dict[str, str]] = {}
"""``_site_of``'s answers so far ("" for a space on no site): a plain dict, which compiled code
reads natively (an ``lru_cache`` call goes through Python)."""


def _site_of(space: str) -> str | None:
    """The construction site ``space`` is a spot of (``"<site>.<n>"``), or None."""
    site = _SITES_OF.get(space)
    if site is None:
        head = space.split(".", 1)[0]
        site = _SITES_OF[space] = head if head in SITES and "." in space else ""
    return site or None


def _taken(seen: Seen, site: str) -> int:
    """The occupied spots of ``site`` (0 when built)."""
    return seen.taken.get(site, 0)


def _needs(seen: Seen) -> dict[str, int]:
    """The goods the bot wants next: a resource printed on a free spot of an unbuilt site,
    commodities for the tunnels and the tank, food or bliss for retrievals. (Nimbus Loft takes
    any three resources: :func:`_good_value` values every resource up to three.)"""
    return _needs_of(seen.workers, seen.wanted)


def _needs_of(workers: int, wanted: set[str]) -> dict[str, int]:
    """:func:`_needs` of a player with ``workers`` workers (the sites' free spots are public, so
    the bot also reckons what another player wants)."""
    extra = 3 if workers < 4 else 1
    needs = {"energy": extra, "water": extra, "food": 1, "bliss": 1}
    for cost in wanted:
        needs[cost] = needs.get(cost, 0) + 1
    return needs


def _territory_room(seen: Seen, faction: str) -> bool:
    return seen.territories.get(faction, 0) < seen.players


def _star_value(seen: Seen) -> float:
    """A star is the goal; the last ones are worth the most."""
    return 100.0 + 10.0 * max(0, 4 - seen.stars_left)


def _allegiance_value(seen: Seen, faction: str) -> float:
    level = seen.allegiance.get(faction, 0)
    if level >= TIER_LEVELS[-1]:
        return 0.0
    value = 2.0
    if faction in seen.my_factions:
        value = 6.0
        nxt = level + 1
        if nxt in TIER_LEVELS:
            value += 10.0 if nxt == TIER_LEVELS[-1] else 5.0
    return value


def _good_value(seen: Seen, good: str, n: int = 1) -> float:
    """What ``n`` more of ``good`` is worth now."""
    return _goods_gain(seen.goods, seen.needs, good, n)


def _unit_value(good: str, held: int, want: int) -> float:
    """What one more ``good`` is worth to a player who holds ``held`` and wants ``want``."""
    if held < want:
        return 22.0 if good in RESOURCES else 12.0
    if good in RESOURCES:
        return 10.0 if held < 3 else 3.0
    return 4.0 if held < 3 else 1.0


def _goods_gain(goods: dict[str, int], needs: dict[str, int], good: str, n: int) -> float:
    """What ``n`` more of ``good`` are worth to a player holding ``goods`` and wanting ``needs``."""
    have = goods.get(good, 0)
    want = needs.get(good, 0)
    value = 0.0
    for i in range(n):
        value += _unit_value(good, have + i, want)
    return value


def _goods_loss(goods: dict[str, int], needs: dict[str, int], good: str, n: int) -> float:
    """What giving away ``n`` of ``good`` costs that player (the last ones held are worth least)."""
    have = goods.get(good, 0)
    want = needs.get(good, 0)
    value = 0.0
    for i in range(1, n + 1):
        value += _unit_value(good, have - i, want)
    return value


def _artifact_value(seen: Seen, n: int = 1) -> float:
    held = seen.artifacts
    room = seen.morale - held
    value = 0.0
    for i in range(n):
        if i < room:
            value += 20.0 if held + i < 4 else 6.0
        else:
            value += 2.0
    return value


def _place_value(seen: Seen, space: str, face: int) -> float:
    """The worth of placing a worker showing ``face`` on ``space``."""
    site = _site_of(space)
    if site is not None:
        return _construction_value(seen, site, space)
    if space.endswith(MARKET_SUFFIX):
        site_id = space[: -len(MARKET_SUFFIX)]
        faction = SITES[site_id].faction
        return (seen.star if _territory_room(seen, faction) else 5.0) + _allegiance_value(seen, faction)
    spec = SPACES[space]
    kind = spec.kind
    bump = 0.0
    occupants = seen.board.get(space, [])
    if occupants and kind != "commodity_area":
        bump = 3.0 if occupants[0][0] == seen.seat else -2.0
    if kind == "artifact_market":
        faction = spec.faction or ""
        unstarred = faction in seen.unstarred
        star = seen.star + 15.0 if unstarred else seen.star if _territory_room(seen, faction) else 5.0
        return star + _allegiance_value(seen, faction) + bump
    if kind in ("wind_saloon", "nimbus_loft"):
        star = seen.star if _territory_room(seen, "icarite") else 5.0
        return star + _allegiance_value(seen, "icarite") + bump - (5.0 if kind == "nimbus_loft" else 0.0)
    if kind == "tank":
        gain = 0.0
        if seen.workers < 4:
            gain = 60.0
        if space.endswith("energy"):
            gain += 6.0 * min(2, seen.knowledge - 1)
        else:
            gain += 4.0 * min(2, 6 - seen.morale)
        return gain + bump
    if kind == "commodity_area":
        return _area_value(seen, space, face)
    if kind == "tunnel":
        resource = _TUNNEL_RESOURCE[spec.faction or ""]
        return 4.0 + max(_good_value(seen, resource), _artifact_value(seen)) + bump
    if kind == "tunnel_end":
        return _good_value(seen, spec.benefit[0][0], 3) + bump
    if kind == "breeze_bar":
        return _artifact_value(seen, 2) + _allegiance_value(seen, "icarite") - 6.0 + bump
    if kind == "sky_lounge":
        best = sorted((_good_value(seen, r) for r in RESOURCES), reverse=True)
        return best[0] + best[1] + _allegiance_value(seen, "icarite") - 6.0 + bump
    return 1.0


def _construction_value(seen: Seen, site: str, space: str) -> float:
    """Completing a site stars every builder at once; short of that, progress on a site the bot
    is not on yet is worth the most, then concentrating on its own site (alone it can build a
    market too), while keeping one worker off the sites to move with."""
    taken = _taken(seen, site)
    threshold = BUILD_THRESHOLD[seen.players]
    mine = seen.mine
    cost = SPOT_COST[space]
    spend = 0.0 if seen.goods.get(cost, 0) > 1 else 4.0
    if taken + 1 >= threshold:
        return seen.star + 10.0 - spend
    if seen.off_sites <= 1:
        return 10.0 - spend  # keep one worker free to move
    if site in mine:
        return 35.0 + 12.0 * taken - spend
    elsewhere = 15.0 if mine else 0.0  # finish what it started before starting another
    return 55.0 + 12.0 * taken - elsewhere - spend


def _area_value(seen: Seen, space: str, face: int) -> float:
    total = face
    occupants = seen.board.get(space)
    if occupants:
        for seat_face in occupants:
            placed: int = seat_face[1]
            total += placed
    faction = _AREA_FACTION[space]
    commodity = _AREA_COMMODITY[space]
    knowledge = seen.knowledge
    for lo, hi, amount, effect, n in _BRACKETS:
        if lo <= total <= hi:
            value = _good_value(seen, commodity, amount)
            if effect == "allegiance":
                value += _allegiance_value(seen, faction)
            elif effect == "knowledge" and n < 0:
                value += 3.0 * max(0, knowledge - 1)
            else:
                value -= 4.0 * knowledge
            return value
    return 0.0


# -- retrieval and the knowledge check ------------------------------------------------------------
@lru_cache(maxsize=64)
def _fail_chance(dice: int, need: int) -> float:
    """P(sum of ``dice`` six-sided dice >= ``need``)."""
    counts = Counter({0: 1})
    for _ in range(dice):
        nxt: Counter[int] = Counter()
        for total, ways in counts.items():
            for face in range(1, 7):
                nxt[total + face] += ways
        counts = nxt
    return sum(w for t, w in counts.items() if t >= need) / 6**dice


def _retrieve_count(seen: Seen, candidates: int) -> int:
    """How many workers to retrieve: as many as the knowledge check allows at small risk."""
    base = seen.knowledge + seen.available_sum
    best, best_value = 1, -1e9
    for k in range(1, candidates + 1):
        value = k - 2.5 * _fail_chance(k, KNOWLEDGE_LIMIT - base)
        if value > best_value:
            best, best_value = k, value
    return best


def _retrieval_order(seen: Seen, options: list[str]) -> list[str]:
    """Workers to bring back, best first: never from a site while another will do."""

    def key(option: str) -> tuple[int, int, int]:
        space, _, face = option.rpartition(":")
        site = _site_of(space)
        if site is None:
            return (0, 0, -int(face or 0))
        taken = _taken(seen, site)
        return (1, taken, -int(face or 0))

    return sorted(options, key=key)


# -- answers --------------------------------------------------------------------------------------
def _token_cost(seen: Seen, token: str) -> float:
    if token in ("nothing", "free"):
        return 0.0
    if token.startswith("art-"):
        kind = token[4:]
        return 14.0 + (4.0 if seen.kinds.get(kind, 0) >= 2 else 0.0)
    if token == "knowledge":
        return 6.0 + 3.0 * seen.knowledge
    if token in RESOURCES:
        return 6.0 + (8.0 if seen.goods.get(token, 0) <= seen.needs.get(token, 0) else 0.0)
    if token in COMMODITIES:
        return 2.0 + (3.0 if seen.goods.get(token, 0) <= 1 else 0.0)
    return 5.0


def _pay_cost(seen: Seen, option: str) -> float:
    if option == "free":  # a retrieval without paying: morale -1
        over = seen.artifacts >= seen.morale and seen.morale > 1
        return 20.0 if over else (4.0 if seen.morale <= 1 else 6.0)
    if option in ("food", "bliss") and len(option.split("+")) == 1:
        return _token_cost(seen, option) - (6.0 if seen.morale < 4 else 0.0)
    return sum(_token_cost(seen, t) for t in option.split("+"))


def _dilemma_cost(seen: Seen) -> float:
    dilemma = seen.dilemma
    if not dilemma or dilemma not in DILEMMAS:
        return 99.0
    if seen.kinds.get(DILEMMAS[dilemma].artifact, 0):
        return 14.0
    return 30.0 if seen.artifacts >= 2 else 99.0


def _gain_value(seen: Seen, option: str) -> float:
    value = 0.0
    for token in option.split("+"):
        if token == "artifact":
            value += _artifact_value(seen)
        elif token in RESOURCES or token in COMMODITIES:
            value += _good_value(seen, token)
        elif token.startswith("knowledge-"):
            value += 3.0 * seen.knowledge
        elif token.startswith("morale+"):
            value += 3.0 * (6 - seen.morale)
        else:
            value += 1.0
    return value


def _ability_value(seen: Seen, option: str) -> float:
    if option == "decline":
        return 0.0
    if "knowledge+" in option or (option.startswith("knowledge") and "-" not in option):
        return -5.0
    if option == "use":
        return 2.0
    return _gain_value(seen, option)


def _answer(seen: Seen, kind: str, options: list[Action], rng: random.Random) -> Action:
    """Answer a question: pay, take, place a star, discard..."""
    param = next(iter(options[0].args), "")

    def best(score: Any) -> Action:
        return max(options, key=lambda a: (score(str(a.args.get(param))), rng.random()))

    if kind == "pay":
        return best(lambda o: -_pay_cost(seen, o))
    if kind == "take":
        return best(lambda o: _gain_value(seen, o))
    if kind == "place_star":
        return best(lambda o: 1.0 if o.startswith("market:") else 0.0)
    if kind == "discard_artifact":
        keep = DILEMMAS.get(seen.dilemma)
        pictured = keep.artifact if keep and not seen.dilemma_done else ""
        return best(lambda o: -seen.kinds.get(o, 0) - (5 if o == pictured else 0))
    if kind == "lose_good":
        return best(lambda o: -_good_value(seen, o))
    if kind == "use_ability":
        return best(lambda o: _ability_value(seen, o))
    if kind == "choose_side":
        # fight the establishment early (a second recruit works for the whole game), contribute
        # for the star once the race is on ("Ethical Dilemma")
        fight = seen.stars_left >= _FIGHT_STARS_LEFT
        return best(lambda o: 1.0 if (o == "fight") == fight else 0.0)
    if kind == "keep_recruit":
        return best(lambda o: 1.0 if o in RECRUITS and RECRUITS[o].faction in seen.my_factions else 0.0)
    if kind == "retrieve_more":
        return _retrieve_more(seen, options, param)
    if kind == "sacrifice":
        return best(lambda o: _sacrifice_value(seen, o))
    if kind in ("trade_give", "trade_ask"):
        return _compose(seen, kind, options, param)
    if kind == "answer_trade":
        accept = _trade_worth(seen, seen.trade_give, seen.trade_ask) > 0.0
        return best(lambda o: 1.0 if (o == "accept") == accept else 0.0)
    return fill(rng.choice(options), rng)


# -- trading (rulebook "Trading": during one's own turn, an exact exchange) -----------------------
_TRADE_GAIN: Final = 8.0
"""What a trade must be worth to the bot before it proposes one."""
_TRADE_GIVES: Final = 2
"""The most of one good the bot gives for the one good it asks."""


def _trade_worth(seen: Seen, gained: list[str], given: list[str]) -> float:
    """What gaining ``gained`` for ``given`` is worth to the bot (goods by name, artifacts as
    ``art-<kind>``; the trade's items are shown to it by its view)."""
    value = 0.0
    arts = sum(1 for item in gained if item.startswith("art-"))
    if arts:
        value += _artifact_value(seen, arts)
    for good in sorted(set(gained)):
        if not good.startswith("art-"):
            value += _good_value(seen, good, gained.count(good))
    for item in sorted(set(given)):
        n = given.count(item)
        if item.startswith("art-"):
            value -= n * _token_cost(seen, item)
        else:
            value -= _goods_loss(seen.goods, seen.needs, item, min(n, seen.goods.get(item, 0)))
    return value


def _trade_plan(seen: Seen) -> tuple[str, list[str], list[str]] | None:
    """The trade the bot proposes this turn: one good it wants, from a player who holds it, for
    one or two of a good it has to spare or an artifact card, when the exchange is worth
    :data:`_TRADE_GAIN` to it and also pays the partner as the bot reckons what the partner wants
    (goods, workers, morale and hand size are public). None when no such trade exists. Worked
    out again from the view at each step of composing it (the goods do not change meanwhile)."""
    goods = seen.goods
    needs = seen.needs
    wants: list[tuple[str, float]] = []
    for good in _TRADE_GOODS:
        have, want = goods.get(good, 0), needs.get(good, 0)
        if have < want:
            wants.append((good, _unit_value(good, have, want)))
    if not wants:
        return None
    # what giving one or two of each good costs it, and each spare artifact card
    offers: list[tuple[str, int, float]] = []
    for good in _TRADE_GOODS:
        held = goods.get(good, 0)
        for n in range(1, min(_TRADE_GIVES, held) + 1):
            offers.append((good, n, _goods_loss(goods, needs, good, n)))
    arts = [("art-" + kind, _token_cost(seen, "art-" + kind)) for kind in _spare_kinds(seen)] if seen.artifacts else []
    cheapest = min([loss for _, _, loss in offers] + [loss for _, loss in arts], default=_NO_OFFER)
    wants = [(good, gain) for good, gain in wants if gain - cheapest >= _TRADE_GAIN]
    if not wants:
        return None
    best: tuple[float, str, list[str], list[str]] | None = None
    for partner in sorted(seen.rival_goods):
        theirs = seen.rival_goods[partner]
        their_needs: dict[str, int] | None = None
        for wanted, gain in wants:
            if theirs.get(wanted, 0) < 1:
                continue
            if their_needs is None:
                their_needs = _needs_of(seen.rival_workers.get(partner, 0), seen.wanted)
            their_loss = _goods_loss(theirs, their_needs, wanted, 1)
            for given, n, loss in offers:
                mine = gain - loss
                if given == wanted or mine < _TRADE_GAIN or (best is not None and mine <= best[0]):
                    continue
                if _goods_gain(theirs, their_needs, given, n) > their_loss:
                    best = (mine, partner, [given] * n, [wanted])
            # an artifact card to a player whose hand has room for it
            if arts and seen.rival_room.get(partner, 0) > 0 and their_loss < _ARTIFACT_WORTH:
                for card, loss in arts:
                    mine = gain - loss
                    if mine >= _TRADE_GAIN and (best is None or mine > best[0]):
                        best = (mine, partner, [card], [wanted])
    return None if best is None else (best[1], best[2], best[3])


_TRADE_GOODS: Final = tuple(sorted(COMMODITIES + RESOURCES))
"""The goods, in the order the bot considers them for a trade."""
_NO_OFFER: Final = 1000.0
"""The cost of giving when the bot has nothing to give (no trade then)."""


_ARTIFACT_WORTH: Final = 20.0
"""What the bot reckons an artifact card is worth to a player whose hand has room for it (what
:func:`_artifact_value` gives a hand of fewer than four)."""


def _spare_kinds(seen: Seen) -> list[str]:
    """The kinds of artifact card in hand it may trade away: not the one its unresolved dilemma
    pictures (it pays the dilemma)."""
    keep = DILEMMAS.get(seen.dilemma)
    pictured = keep.artifact if keep is not None and not seen.dilemma_done else ""
    return sorted(kind for kind, n in seen.kinds.items() if n and (kind != pictured or n > 1))


def _compose(seen: Seen, kind: str, options: list[Action], param: str) -> Action:
    """The next item of the planned trade (:func:`_trade_plan`), or ``done``."""
    plan = _trade_plan(seen)
    items: list[str] = []
    if plan is not None and plan[0] == seen.trade_to:
        planned, named = (plan[1], seen.trade_give) if kind == "trade_give" else (plan[2], seen.trade_ask)
        items = list(planned)
        for item in named:
            if item in items:
                items.remove(item)
    by_value = {str(a.args.get(param)): a for a in options}
    for item in items:
        if item in by_value:
            return by_value[item]
    return by_value["done"]


def _sacrifice_value(seen: Seen, option: str) -> float:
    """Pete the Cannibal / Dr. Sheppard: a retrieved worker is given up for 4 food (bliss) and a
    resource, before the roll. Worth it when the worker is likely lost to the knowledge check
    anyway, or when the bot has workers to spare (four, or three late in the race)."""
    if option == "none":
        return 0.0
    rid = option.partition(":")[0]
    good = "food" if rid == "pete_the_cannibal" else "bliss"
    gain = _good_value(seen, good, 4) + max(_good_value(seen, r) for r in RESOURCES)
    rolling = max(1, seen.off_sites - seen.placed_off_sites - seen.available)
    need = KNOWLEDGE_LIMIT - seen.knowledge - seen.available_sum
    saved = _fail_chance(rolling, need) - _fail_chance(rolling - 1, need)
    worker = 90.0 if seen.workers <= 2 else 60.0 if seen.workers == 3 else 40.0
    worker -= 10.0 * max(0, 4 - seen.stars_left)
    return gain - worker * (1.0 - saved)


_FIGHT_STARS_LEFT: Final = 9
"""Authority tokens still to place at or above which the bot fights the establishment."""


def _retrieve_more(seen: Seen, options: list[Action], param: str) -> Action:
    workers = [str(a.args[param]) for a in options if a.args[param] != "done"]
    done = next(a for a in options if a.args[param] == "done")
    off_site = [w for w in workers if _site_of(w.rpartition(":")[0]) is None]
    if not off_site:
        return done
    # workers already retrieved this turn are off the board: count what is left
    already = _retrieved_this_turn(seen)
    total = already + len(off_site)
    if already >= _retrieve_count(seen, total):
        return done
    first = _retrieval_order(seen, off_site)[0]
    return next(a for a in options if a.args[param] == first)


def _retrieved_this_turn(seen: Seen) -> int:
    """Workers picked so far in the retrieval being composed (the question's options)."""
    listed = [o for o in seen.options if o != "done" and _site_of(o.rpartition(":")[0]) is None]
    return max(0, seen.placed_off_sites - len(listed))


# -- the turn -------------------------------------------------------------------------------------
def _turn(seen: Seen, legal: list[Action], rng: random.Random) -> Action:
    scored: list[tuple[float, float, Action]] = []
    retrieves = [a for a in legal if a.type == "retrieve"]
    plan: tuple[str, list[str], list[str]] | None = None
    planned = False  # the trade plan is worked out only when a trade may be offered
    for action in legal:
        if action.type == "place":
            args = action.args
            face = _whole(args["worker"])
            space = args["space"]
            value = _place_value(seen, space if isinstance(space, str) else str(space), face) + 0.3 * face
            scored.append((value, rng.random(), action))
        elif action.type == "resolve_dilemma":
            scored.append((seen.star - _dilemma_cost(seen), rng.random(), action))
        elif action.type == "end_turn":
            scored.append((8.0, rng.random(), action))
        elif action.type == "offer_trade":
            if not planned:
                plan, planned = _trade_plan(seen), True
            if plan is not None and action.args.get("to") == plan[0]:
                scored.append((_TRADE_FIRST, rng.random(), action))
    if retrieves:
        scored.append((_retrieve_value(seen, retrieves), rng.random(), _first_retrieval(seen, retrieves)))
    if not scored:
        others = [a for a in legal if a.type != "offer_trade"] or legal
        return fill(rng.choice(others), rng)
    return _best(scored)


_TRADE_FIRST: Final = 5000.0
"""A trade worth proposing comes before any placement: the turn ends with the placement."""


def _whole(value: Any) -> int:
    """``int(value)``, without a call when it is one already (compiled code tests the type)."""
    return value if isinstance(value, int) else int(value)


def _best(scored: list[tuple[float, float, Action]]) -> Action:
    """The action of the highest (value, tie-break) pair, the first one on a tie (as ``max``),
    compared without building a key tuple per action."""
    best_value, best_tie, best = scored[0]
    for value, tie, action in scored:
        if value > best_value or (value == best_value and tie > best_tie):
            best_value, best_tie, best = value, tie, action
    return best


def _retrieve_value(seen: Seen, retrieves: list[Action]) -> float:
    off_site = [a for a in retrieves if _site_of(str(a.args["worker"]).rpartition(":")[0]) is None]
    if not off_site:
        return -50.0  # only builders could come back: anything else first
    if not seen.available:
        return 1000.0
    return 6.0 + 4.0 * len(off_site) - 6.0 * seen.available


def _first_retrieval(seen: Seen, retrieves: list[Action]) -> Action:
    order = _retrieval_order(seen, [str(a.args["worker"]) for a in retrieves])
    return next(a for a in retrieves if a.args["worker"] == order[0])


_PLACES = {"generator": "the Generator", "aquifer": "the Aquifer", "farm": "the Farm", "cloud_mine": "the Cloud Mine"}


def _narration(action: Action) -> str:
    if action.type == "place":
        space = str(action.args["space"])
        site = _site_of(space)
        if site is not None:
            return f"My worker joins the builders at {site.replace('_', ' ')}."
        name = _PLACES.get(space) or space.replace("_", " ")
        return f"A worker showing {action.args['worker']} goes to {name}."
    if action.type == "retrieve":
        return "I call my workers home."
    if action.type == "resolve_dilemma":
        return "I face my ethical dilemma."
    return ""


_RECRUIT_CHOICE: Final = frozenset({"choose_recruits"})
_TURN_TYPES: Final = frozenset({"place", "retrieve", "resolve_dilemma", "end_turn", "offer_trade"})
"""The actions of a turn (rulebook "Worker Placement", "Retrieving Workers", "Ethical Dilemma")."""


def decide(situation: Situation, rng: random.Random) -> Decision:
    """The heuristic's decision for ``situation`` (its seat's view and legal actions only)."""
    legal = situation.legal
    types = {a.type for a in legal}
    if types <= _RECRUIT_CHOICE:
        return Decision(rng.choice(legal))
    if types & _TURN_TYPES and types <= _TURN_TYPES:
        action = _turn(_read(situation), legal, rng)
        return Decision(action, _narration(action))
    kind = legal[0].type
    same = [a for a in legal if a.type == kind]
    return Decision(_answer(_read(situation), kind, same, rng))
