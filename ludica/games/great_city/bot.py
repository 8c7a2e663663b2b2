"""The Great City's heuristic: the fattest purse, and the character's commitment to the city.

The rulebook ranks the players by their free scarabs at the end ("END GAME": the fattest purse
narrates the city's fate), and each character's intent answers whether it wants the city saved
(yes: the Yea purse; no: the Nay purse). The bot plays from its seat's view only:

* **Purse**: antes come from the peril pool, never the purse; no bought ties, no paid flips (free
  scarab) and no undos; free flips (traits, ties) with a present character earn the round's reward;
  a character arrives or buys in only when the purse can spare it; the judgment is accepted (the
  ante taken) once the ante is worth it or the pool is nearly empty.
* **Commitment**: after taking an ante it drops a scarab in the box of its character's intent
  (Yea to save the city, Nay to let it fall), a little more as the end nears, never emptying the
  purse.
* The GM seat plays the peril plainly: it lets the players take the antes, accepts only a rich
  one, and keeps the story moving.

Texts (situation, agents, intents, narrations, fates) are short sentences made from what the view
shows: the pair's name and judgment, the face of peril, the character's name.
Rulebook: "Character Resources and Connections", "(2) Ante" to "(6) Rewards", "Ending the Scene",
"END GAME".
"""

from __future__ import annotations

import random
from typing import Any, Final

from ...bots.base import Decision, Situation
from ...bots.text import fill_text
from ...core.actions import Action
from .state import GreatCityState

SEARCH_DEFAULTS: Final = {"rivals": "policy"}
"""The ``ismcts`` bot's default level here searches only its own moves, the other seats playing
as this heuristic would: searched in the tree, the rivals' many reactions (flips, undos) were
tried at random and made every scene the searching seat bought into look winning (it bought into
all and lost 100 of 100 games against three heuristic bots; with ``rivals=policy`` it wins most)."""

_ACCEPT_ANTE: Final = 1
"""The ante worth taking (it grows by one a round; rivals may take it first)."""
_MILK_ANTE: Final = 6
"""The ante worth taking when no rival is in the scene to take it first."""
_RICH: Final = 8
"""A purse that can spare a scarab for the character's commitment or the city."""
_MILK_POOL: Final = 6
"""The peril pool above which a seat alone in the scene lets rounds run (each pays it a reward)."""


def _characters(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in view.get("characters", [])}


def _mine(view: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    return [c for c in view.get("characters", []) if c.get("controller") == seat]


def _purse(view: dict[str, Any]) -> int:
    purse = view.get("purse") or {}
    return int(purse.get("scarabs", 0))


def _reading(view: dict[str, Any]) -> dict[str, Any]:
    scene = view.get("scene") or {}
    for key in ("accepted", "announced", "initial_reading"):
        if scene.get(key):
            return dict(scene[key])
    return dict((view.get("situation") or {}).get("pair") or {})


def _texts(situation: Situation, action: Action) -> dict[str, str]:
    """Short sentences from the situation for the free-text parameters of ``action``."""
    view, seat = situation.view, situation.seat
    chars = _characters(view)
    reading = _reading(view)
    name = reading.get("name", "the moment")
    judgment = reading.get("judgment", "")
    sit = view.get("situation") or {}
    faces = ", ".join(sit.get("face_of_peril") or []) or "quiet"
    own = _mine(view, seat)
    who = own[0]["name"] if own else "the city"
    endgame = view.get("endgame") or {}
    args = action.args
    if action.type == "record_situation":
        pair = (sit.get("pair") or {}).get("name", "an omen")
        return {
            "situation": f"The Great City waits under {pair}.",
            "peril": f"A {faces} peril rises in the streets.",
            "face": f"Its face is {faces}.",
        }
    if action.type == "create_agent":
        n = len([c for c in view.get("characters", []) if c.get("agent_of_peril")]) + 1
        return {"name": f"Agent {n} of the Peril", "description": f"A servant of the {faces} peril."}
    if action.type == "choose_intent":
        return {"text": f"I will answer the city's peril by my {args.get('color', 'own')} nature."}
    if action.type == "name_character":
        return {"name": f"{seat.upper()} {args.get('character', '')}".strip()}
    if action.type == "start_scene":
        spot = chars.get(str(args.get("spotlight")), {}).get("name", who)
        return {"intent": f"{spot} goes out to face the peril."}
    if action.type == "narrate":
        return {"text": f"{name}: {judgment} And so it happened to {who}."}
    if action.type == "narrate_city_fate":
        city = endgame.get("city", {})
        fate = endgame.get("city_fate", "meets its fate")
        return {"text": f"The Great City {fate}. {city.get('name', '')}: {city.get('judgment', '')}"}
    if action.type == "narrate_character_fate":
        cid = str(args.get("character"))
        theirs: dict[str, Any] = next((f for f in endgame.get("fates", []) if f.get("character") == cid), {})
        cname = chars.get(cid, {}).get("name", who)
        return {"text": f"{cname}: {theirs.get('name', 'a fate')}. {theirs.get('judgment', '')}"}
    return {}


def _commitment_box(view: dict[str, Any], seat: str) -> str | None:
    """'yea' when the bot's character wants the city saved, 'nay' when not (None: the GM)."""
    for c in _mine(view, seat):
        intent = c.get("intent") or {}
        if intent.get("answer") in ("yes", "no"):
            return "yea" if intent["answer"] == "yes" else "nay"
    return None


def _given(view: dict[str, Any]) -> int:
    yours = (view.get("fate_box") or {}).get("yours") or {}
    return int(yours.get("yea", 0)) + int(yours.get("nay", 0))


def _distribution(situation: Situation, legal: list[Action]) -> Action:
    """What the acceptor does with his purse (R-GC-36). The ranking counts free scarabs only, so
    every scarab spent here is one less at the end: a seat commits to its character's answer once
    it is rich (one scarab into its Fate box in the game), a Yea seat guards the city's pair (one
    scarab under a city stone while none is vested), and a Nay seat that can spare it shakes the
    city in the last scene (the cheapest city stone flipped, R-GC-37). Never a gift to a rival,
    never a scarab vested under its own stones (vested scarabs count for nothing at the end)."""
    end = next(a for a in legal if a.type == "end_distribution")
    if situation.read(_box_of_state) == "":  # no box to fund (the GM's case): the view is not needed
        return end
    view, seat = situation.view, situation.seat
    box = _commitment_box(view, seat)
    purse = _purse(view)
    if box is None or purse < _RICH:
        return end
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action.type, []).append(action)
    if _given(view) < 1:
        fund = [a for a in by_type.get("fund_fate", []) if a.args.get("box") == box]
        if fund:
            return fill_text(fund[0], {}, {"n": 1})
    vested = list((view.get("situation") or {}).get("vested") or [])
    if box == "yea" and vested and not any(vested) and "vest_city_stone" in by_type:
        return fill_text(by_type["vest_city_stone"][0], {}, {"n": 1})
    flips = by_type.get("flip_city_stone", [])
    if box == "nay" and flips and int(view.get("peril_pool", 0)) == 0:
        return min(flips, key=lambda a: vested[int(a.args["position"]) - 1] if vested else 0)
    return end


def _reaction(situation: Situation, legal: list[Action], rng: random.Random) -> Action:
    # the view is read only where a choice needs it (the GM's free flips and declined
    # acceptances need none)
    seat = situation.seat
    gm = seat == "gm"
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action.type, []).append(action)
    accept = by_type.get("accept_judgment")
    if "end_reaction" in by_type:
        return by_type["end_reaction"][0]  # one flip a reaction earns the round's reward
    if gm:
        return _gm_reaction(situation, by_type, rng)
    ante, pool = _stakes(situation)
    view = situation.view
    present = _has_present(view, seat)
    alone = present and not _rivals_present(view, seat)
    # Alone in the scene, a later round pays: the reward and the ante's growth come to this seat
    # (no rival can take the ante first), so it waits for a richer ante while the pool lasts.
    milk = alone and pool > _MILK_POOL
    if accept and (ante >= (_MILK_ANTE if milk else _ACCEPT_ANTE) or (pool <= 2 and ante >= 1)):
        return accept[0]
    if present:
        flip = _flip(by_type.get("flip", []), rng, paid=milk and _purse(view) >= 2)
        if flip is not None:
            return flip
    arrive = by_type.get("arrive")
    if arrive and _purse(view) >= 3 and ante >= 2:
        return arrive[0]
    if accept and ante >= 1 and pool <= 4:
        return accept[0]
    if "pass_reaction" in by_type:
        return by_type["pass_reaction"][0]
    return rng.choice(legal)


def _flip(flips: list[Action], rng: random.Random, *, paid: bool) -> Action | None:
    """A flip that earns the round's reward: a trait's or a tie's (free), else a vested scarab's
    (vested scarabs count for nothing at the end: into the ante they may come back), else, when
    ``paid``, one free scarab (it joins an ante the seat expects to take)."""
    for sources in (("trait", "tie"), ("vested_scarab",), ("free_scarab",) if paid else ()):
        found = [a for a in flips if a.args.get("source") in sources]
        if found:
            return rng.choice(found)
    return None


def _gm_reaction(situation: Situation, by_type: dict[str, list[Action]], rng: random.Random) -> Action:
    """The GM plays the peril plainly: a rich ante taken, a free flip now and then, else a pass."""
    accept = by_type.get("accept_judgment")
    ante = pool = 0
    if accept:
        ante, pool = _stakes(situation)
        if ante >= _ACCEPT_ANTE + 3 or (pool <= 2 and ante >= 1):
            return accept[0]
    free_flips = [a for a in by_type.get("flip", []) if a.args.get("source") in ("trait", "tie")]
    if free_flips:
        return rng.choice(free_flips)
    if accept and ante >= 1 and pool <= 4:
        return accept[0]
    if "pass_reaction" in by_type:
        return by_type["pass_reaction"][0]
    return rng.choice([a for kind in by_type.values() for a in kind])


def _rivals_present(view: dict[str, Any], seat: str) -> bool:
    """Another player (not the GM) has a character present in the scene: he may take the ante."""
    present = set((view.get("scene") or {}).get("present", []))
    return any(c.get("controller") not in (seat, "gm") and c["id"] in present for c in view.get("characters", []))


def _stakes(situation: Situation) -> tuple[int, int]:
    """The scene's ante and the peril pool, as the seat's view shows them (read from the state
    behind the situation when it has one: no view built)."""
    found = situation.read(_stakes_of_state)
    if found is None:
        view = situation.view
        found = _ante(view), int(view.get("peril_pool", 0))
    return found


# -- the bot-facing view: facts every seat's view shows, read from the state (Situation.read) ----
def _stakes_of_state(state: GreatCityState, seat: str) -> tuple[int, int]:
    """``_ante(view)`` and the view's ``peril_pool`` (public: every seat's view shows them)."""
    scene = state.scene
    return (0 if scene is None else int(scene.ante)), int(state.pool)


def _box_of_state(state: GreatCityState, seat: str) -> str:
    """``_commitment_box(view, seat)``, ``""`` for none: the seat's own characters in the view's
    order, their intents."""
    for c in state.characters.values():
        if c.controller == seat and c.intent:
            answer = c.intent.get("answer")
            if answer in ("yes", "no"):
                return "yea" if answer == "yes" else "nay"
    return ""


def _undo_pays(view: dict[str, Any], seat: str, position: int) -> bool:
    """An undo spends a vested scarab (worth nothing at the end) into an ante the seat may take,
    when one of its characters is present; the last scarab under a stone is kept as its guard."""
    stones = (view.get("scene") or {}).get("stones") or []
    vested = next((int(st.get("vested", 0)) for st in stones if st.get("position") == position), 0)
    return _has_present(view, seat) and vested >= 2


def _bought_tie(view: dict[str, Any], seat: str) -> bool:
    """The seat has already bought a tie (from one of its characters)."""
    mine = {c["id"] for c in _mine(view, seat)}
    return any(t.get("grant") == "bought" and t.get("source") in mine for t in view.get("ties", []))


def _ante(view: dict[str, Any]) -> int:
    """The scene's ante (0 outside a scene)."""
    return int((view.get("scene") or {}).get("ante", 0))


def _has_present(view: dict[str, Any], seat: str) -> bool:
    """One of the bot's characters is present in the scene."""
    present = set((view.get("scene") or {}).get("present", []))
    return any(c["id"] in present for c in _mine(view, seat))


def _buys_in(view: dict[str, Any]) -> bool:
    """A player buys into the scene when the purse can spare it, the ante is worth it, and the
    spotlight is the GM's: the spotlight's seat reacts first and takes the ante at once, so a
    buy-in into a player's scene only adds to his ante; the GM takes only a rich one."""
    scene = view.get("scene") or {}
    spot = scene.get("spotlight")
    gm_scene = any(c.get("id") == spot and c.get("controller") == "gm" for c in view.get("characters", []))
    return _purse(view) >= 4 and int(scene.get("ante", 0)) >= 2 and gm_scene


_REACTION: Final = frozenset({"accept_judgment", "pass_reaction", "arrive", "flip", "end_reaction"})
_TIES: Final = frozenset({"add_tie", "buy_tie", "end_ties"})
_BUY_IN: Final = frozenset({"buy_in", "stay_out"})
_UNDO: Final = frozenset({"undo_flip", "decline_undo"})
_AGENTS: Final = frozenset({"create_agent", "end_agents"})
_NAMING: Final = frozenset({"name_character", "draw_name"})
"""The action types that tell :func:`_pick` which choice is to be made."""


def _pick(situation: Situation, legal: list[Action], rng: random.Random) -> Action:
    # the view is read only where a choice needs it (it is built when first read, and most of the
    # GM's choices need none)
    seat = situation.seat
    kind = legal[0].type
    types = {a.type for a in legal}
    if not types.isdisjoint(_REACTION):
        return _reaction(situation, legal, rng)
    if "end_distribution" in types:
        return _distribution(situation, legal)
    if not types.isdisjoint(_TIES):
        free = [a for a in legal if a.type == "add_tie"]
        if free:
            return rng.choice(free)
        bought = [a for a in legal if a.type == "buy_tie"]
        if bought and seat != "gm" and not _bought_tie(situation.view, seat) and _purse(situation.view) >= 4:
            return rng.choice(bought)  # a tie is a free flip in every scene: one scarab well spent
        return next(a for a in legal if a.type == "end_ties")
    if not types.isdisjoint(_BUY_IN):
        buy = [a for a in legal if a.type == "buy_in"]
        if buy and seat != "gm" and _buys_in(situation.view):
            return buy[0]
        return next(a for a in legal if a.type == "stay_out")
    if kind == "choose_ante_source":
        return next((a for a in legal if a.args.get("source") == "pool"), legal[0])
    if not types.isdisjoint(_UNDO):
        undo = [a for a in legal if a.type == "undo_flip"]
        if undo and seat != "gm" and _undo_pays(situation.view, seat, int(undo[0].args["position"])):
            return undo[0]  # the vested scarab joins an ante the seat may take
        return next(a for a in legal if a.type == "decline_undo")
    if kind == "vest_class_scarab":
        return next((a for a in legal if a.args.get("vest") is True), legal[0])
    if kind == "choose_foil":
        existing = [a for a in legal if a.args.get("foil") != "NEW"]
        return rng.choice(existing or legal)
    if not types.isdisjoint(_AGENTS):
        agents = sum(1 for c in situation.view.get("characters", []) if c.get("agent_of_peril"))
        end = [a for a in legal if a.type == "end_agents"]
        return end[0] if end and agents >= 1 else next(a for a in legal if a.type == "create_agent")
    if not types.isdisjoint(_NAMING):
        draw = [a for a in legal if a.type == "draw_name"]
        named = [a for a in legal if a.type == "name_character"]
        if named and (not draw or rng.random() < 0.5):
            return named[0]  # the player names the character; else the tables draw a name
        return rng.choice(draw) if draw else legal[0]
    if kind == "assign_narration":
        return rng.choice(legal)
    return rng.choice(legal)


_SAY: Final = {
    "accept_judgment": "I take the ante and the judgment with it.",
    "arrive": "I step into the scene.",
    "buy_in": "I buy my way into this.",
    "fund_fate": "A scarab drops quietly into the Fate box.",
}


def decide(situation: Situation, rng: random.Random) -> Decision:
    """The heuristic's decision for ``situation`` (its seat's view and legal actions only)."""
    action = _pick(situation, situation.legal, rng)
    if action.is_template:
        action = fill_text(action, _texts(situation, action))
    return Decision(action, _SAY.get(action.type, ""))
