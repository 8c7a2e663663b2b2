"""Euphoria's names for people: players by name, recruits, markets, ethical dilemmas, action
spaces (offered by region), artifacts and goods in the rulebook's words.

Used by every front end through the game's :meth:`namer` (see :mod:`ludica.core.names`).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from ...core import Action
from ...core.names import Namer, listing
from .markets import occupied_spots
from .oracle import (
    ARTIFACT_CARDS,
    ARTIFACT_KINDS,
    BRACKETS,
    BUILD_THRESHOLD,
    DILEMMAS,
    FACTIONS,
    KNOWLEDGE_LIMIT,
    MARKET_SUFFIX,
    MARKETS,
    RECRUITS,
    SITES,
    SPACES,
    SPOT_SEP,
    _load,
    artifact_kind,
)
from .tracks import LO as MORALE_LOW
from .turn import retrieval_costs
from .view import trade_on_table

ARTIFACT_NAMES: dict[str, str] = {a["id"]: a["name"] for a in _load("artifacts.yaml")["artifacts"]}

ACTION_TITLES = {
    "choose_recruits": "Choose your recruits",
    "place": "Place a worker",
    "retrieve": "Retrieve workers",
    "retrieve_more": "Retrieve another worker",
    "resolve_dilemma": "Resolve your ethical dilemma",
    "offer_trade": "Offer a trade",
    "end_turn": "End your turn",
    "draft_recruit": "Draft a recruit",
    "keep_market": "Keep a market",
    "place_token": "Place a token",
    "pay": "Pay",
    "take": "Take",
    "place_star": "Place a star on",
    "discard_artifact": "Discard an artifact",
    "lose_good": "Lose a good",
    "use_ability": "Use the ability",
    "choose_side": "Choose a side of your dilemma",
    "keep_recruit": "Keep a recruit",
    "sacrifice": "Sacrifice a worker",
    "trade_give": "Give in the trade",
    "trade_ask": "Ask in the trade",
    "answer_trade": "Answer the trade",
}

PARAM_LABELS = {
    "worker": "worker",
    "space": "action space",
    "active": "active recruit (face up)",
    "hidden": "hidden recruit (face down)",
    "with": "what to pay with",
    "gain": "what to take",
    "on": "where",
    "kind": "artifact",
    "good": "good",
    "choice": "choice",
    "side": "side",
    "recruit": "recruit",
    "item": "item",
    "answer": "answer",
    "to": "to",
}

VALUE_NAMES = {
    "done": "done",
    "none": "none",
    "decline": "decline",
    "accept": "accept",
    "fight": "fight (the left side)",
    "contribute": "contribute (the right side)",
    "knowledge": "a step of knowledge",
}


RETRIEVAL_EFFECTS = {
    "food": "costs 1 food: +2 morale",
    "bliss": "costs 1 bliss: +2 morale",
    "energy": "costs 1 energy: +1 morale, −1 knowledge",
    "bliss-for-knowledge": "costs 1 bliss: −2 knowledge",
    "free": "costs nothing: −1 morale",
}
"""What paying for a retrieval does (Retrieving workers; Jefferson, Gidgit)."""

PROMPT_RECRUITS = {"maggie": "maggie_the_outlaw"}
"""A question's context that names a recruit by a short tag (Maggie the Outlaw's stone or water)."""

SPACE_STEPS = {
    "pay": "paying its cost",
    "take": "choosing what it gives",
    "place_star": "placing an authority star",
    "sacrifice": "choosing a worker to sacrifice",
}
"""The step of a placement a question belongs to ([Placing a worker])."""

SPACE_GIVES: dict[str, str] = {
    str(s["id"]): re.sub(
        r"\b(icarite|euphorian|subterran|wastelander)\b",
        lambda m: m.group(1).capitalize(),
        "; ".join(str(b) for b in s["benefit"]),
    )
    for s in _load("board.yaml")["spaces"]
    if isinstance(s.get("benefit"), list)
}
"""What an action space gives, as the board prints it (``data/board.yaml``)."""

DISCARD_SITUATIONS = {
    "discard_artifact": {
        "limit": "holds more artifact cards than allowed: discards one",
        "drawn": "discards one of the artifacts just drawn",
        "any": "discards an artifact card",
    },
    "keep_recruit": {"dilemma": "resolved an ethical dilemma: keeps one of two recruits"},
}
"""Questions about a hand of cards, by their context."""

_JOINED = re.compile(r"(?<![\w+-])[a-z][a-z-]*(?:\+[a-z][a-z-]*)+(?![\w+-])")
"""A payment of several goods as the engine joins them (``bliss+energy``): said as a list."""
_AREA_TOTAL = re.compile(r"(gains \d+ [a-z]+) \(total (\d+)\)")
"""A commodity area's gain carries the total of the workers' dice there (which picks the bracket)."""
_WORKER = re.compile(r"(?<![\w-])([a-z][A-Za-z_]*(?:\.\d)?):([1-6])(?![\w-])")


_ONE_WORD_VALUES: dict[tuple[str, str], str] = {
    ("trade_give", "done"): "nothing more",
    ("trade_ask", "done"): "nothing more",
    ("retrieve_more", "done"): "no more workers",
    ("use_ability", "use"): "use it",
}
"""Values whose bare word means nothing out of its decision ("done", "use")."""

_SENTENCES: dict[str, str] = {
    "trade_give": "{who} gives {value} in the trade",
    "trade_ask": "{who} asks for {value} in the trade",
    "retrieve_more": "{who} retrieves {value}",
    "use_ability": "{who}: the ability — {value}",
    "pay": "{who} pays with {value}",
    "take": "{who} takes {value}",
    "lose_good": "{who} loses {value}",
}
"""One-parameter actions said as a sentence ("Ann pays with energy"), not "Ann: pay (with energy)"."""


def artifact(token: str) -> str:
    """``bear-3`` (a card) or ``art-bear`` (a kind, as a price) -> "Teddy Bear"."""
    kind = token[4:] if token.startswith("art-") else artifact_kind(token)
    return ARTIFACT_NAMES.get(kind, kind)


_TRACK_STEP = re.compile(r"(morale|knowledge)([+-]\d+)")


def item(token: str) -> str:
    """Any id of the game's components as its name (recruit, market, dilemma, space, artifact, good)."""
    step = _TRACK_STEP.fullmatch(token)
    if step:  # "morale+1" -> "+1 morale" (a track moved, not two things)
        return f"{step.group(2).replace('-', '−')} {step.group(1)}"
    if "+" in token:  # "water+water+bliss" -> "2 water and bliss"
        parts = token.split("+")
        counts = {part: parts.count(part) for part in parts}
        return listing([f"{n} {item(part)}" if n > 1 else item(part) for part, n in counts.items()])
    if token in RECRUITS:
        return RECRUITS[token].name
    if token in MARKETS:
        return MARKETS[token].name
    if token in DILEMMAS:
        return DILEMMAS[token].fight
    if token in SPACES:
        return SPACES[token].name
    if token in SITES:
        return site(token)
    site_id, dot, spot = token.partition(SPOT_SEP)
    if dot and site_id in SITES:
        return f"{site(site_id)}, spot {spot}"
    if token.endswith(MARKET_SUFFIX) and token[: -len(MARKET_SUFFIX)] in SITES:
        return f"the market built on {site(token[: -len(MARKET_SUFFIX)])}"
    if token.startswith("art-") or token in ARTIFACT_CARDS:
        return artifact(token)
    if token in ARTIFACT_KINDS:
        return ARTIFACT_NAMES.get(token, token)
    if token in FACTIONS:
        return FACTIONS[token].region
    if ":" in token:
        where, _, face = token.rpartition(":")
        return f"the {face} on {item(where)}"
    return VALUE_NAMES.get(token, token.replace("_", " "))


def site(site_id: str) -> str:
    """``subterran_site_B`` -> "Subterra's construction site B"."""
    where = SITES[site_id]
    region = FACTIONS[where.faction].region
    owner = f"{region}'" if region.endswith("s") else f"{region}'s"
    return f"{owner} construction site {site_id.rpartition('_')[2]}"


def region_of(token: str) -> str | None:
    """The region of the board an action space, construction site or spot lies in."""
    base = token.partition(SPOT_SEP)[0]
    if base.endswith(MARKET_SUFFIX):
        base = base[: -len(MARKET_SUFFIX)]
    faction = SPACES[base].faction if base in SPACES else SITES[base].faction if base in SITES else None
    if faction is None:
        return None
    return FACTIONS[faction].region if faction in FACTIONS else None


@cache
def _component_ids() -> dict[str, str]:
    """The printed components' ids and names (the same for every viewer): recruits, markets,
    dilemmas, spaces, sites, artifact kinds and cards, in this order. Made once; never changed."""
    out = {r: c.name for r, c in RECRUITS.items()}
    out.update({m: c.name for m, c in MARKETS.items()})
    out.update({d: c.fight for d, c in DILEMMAS.items()})
    out.update({s: c.name for s, c in SPACES.items()})
    out.update({s: site(s) for s in SITES})
    out.update({f"art-{k}": ARTIFACT_NAMES.get(k, k) for k in ARTIFACT_KINDS})
    out.update({card: artifact(card) for card in ARTIFACT_CARDS})
    return out


VIEW_WORDS = {
    "stars_left": "authority stars still to place",
    "knowledge": "knowledge",
    "morale": "morale",
    "hidden_recruits": "face-down recruits",
    "artifact_discards": "artifacts discarded",
    "artifact_deck": "artifact deck",
    "recruit_deck": "recruit deck",
    "hand": "artifacts in hand",
    "artifacts": "artifacts",
    "active": "recruits face up",
    "hidden": "recruits face down",
    "dealt": "recruits dealt",
    "discarded": "recruits discarded",
    "choice": "recruits you keep",
    "workers": "workers you own",
}
"""How a consequence calls the keys of the view."""


PHASE_WORDS = {
    "pay": "you choose what to pay with",
    "take": "you choose what to take",
    "place_star": "you choose where your authority star goes",
    "discard_artifact": "you choose an artifact to discard",
    "lose_good": "you choose a good to lose",
    "use_ability": "you choose whether to use your recruit's ability",
    "choose_side": "you choose a side of your dilemma",
    "keep_recruit": "you choose which recruit to keep",
    "sacrifice": "you choose a worker to sacrifice",
    "retrieve_more": "you may retrieve another worker",
    "trade_give": "you choose what to give in the trade",
    "trade_ask": "you choose what to ask for in the trade",
    "answer_trade": "you answer the trade",
    "turn": "your turn goes on: place a worker, retrieve workers or resolve your dilemma",
}
"""What the seat does next, said after "then" (the prompt the rules ask, in the rulebook's words)."""


_TURN = re.compile(r"^turn (\d+): (\S+)$")
"""The story's "turn 126: p2", said as "Bob's turn (turn 126)"."""
_PLACES_A = re.compile(r"\b(places) a (\d) on\b")
"""The story's "Bob places a 1 on …": the 1 is the worker's die."""


class EuphoriaNamer(Namer):
    ACTION_TITLES = ACTION_TITLES
    PARAM_LABELS = PARAM_LABELS
    VALUE_NAMES = VALUE_NAMES

    def ids(self) -> dict[str, str]:
        out = super().ids()
        out.update(_component_ids())
        return out

    def value(self, kind: str, param: str, value: Any) -> str:
        said = _ONE_WORD_VALUES.get((kind, value)) if isinstance(value, str) else None
        if said:
            return said
        if param == "worker" and isinstance(value, int):
            return f"a worker showing {value}"
        if kind == "sacrifice" and isinstance(value, str):
            return self._sacrifice(value)
        if param == "worker" and isinstance(value, str) and _WORKER.fullmatch(value):
            return self.say(value)
        if isinstance(value, str) and not self.is_seat(value):
            return item(value)
        return super().value(kind, param, value)

    @staticmethod
    def _sacrifice(value: str) -> str:
        """``sheppard_the_lobotomist:3`` -> "the worker showing 3, for Dr. Sheppard the
        Lobotomist" (the recruit whose ability takes it); ``none`` -> keep them all."""
        if value == "none":
            return "none: keep every worker"
        recruit, _, face = value.rpartition(":")
        if recruit in RECRUITS and face.isdigit():
            return f"the worker showing {face}, for {RECRUITS[recruit].name}"
        return item(value)

    def detail(self, kind: str, param: str, value: Any) -> str | None:
        """Recruits, markets and dilemmas offered with the text on their cards."""
        if not isinstance(value, str):
            return None
        if value in RECRUITS:
            r = RECRUITS[value]
            return f"{FACTIONS[r.faction].region}: {r.summary}"
        if value in MARKETS:
            return MARKETS[value].summary
        if value in DILEMMAS:
            d = DILEMMAS[value]
            return f"fight: {d.fight}; contribute: {d.contribute}"
        return None

    def group(self, kind: str, param: str, value: Any) -> str | None:
        """Action spaces are offered by the region of the board they lie in."""
        return region_of(value) if isinstance(value, str) and param == "space" else None

    # -- effects (DESIGN.md principle 15) -------------------------------------------------------
    def effect(self, kind: str, param: str, value: Any) -> str | None:
        if kind == "pay" and param == "with" and isinstance(value, str) and self._retrieving():
            return RETRIEVAL_EFFECTS.get(value)
        if kind in ("retrieve", "retrieve_more") and value == "done":
            return "pay for the retrieval, then roll the workers retrieved"
        if kind == "trade_ask" and value == "done":
            return self._offer_sent()
        if kind == "answer_trade" and isinstance(value, str):
            return {"accept": "the goods change hands", "decline": "nothing changes hands"}.get(value)
        return None

    # -- computed consequences in the rulebook's words (DESIGN.md principle 16) -----------------
    QUIET_KEYS = Namer.QUIET_KEYS | {"turn", "waiting", "dilemma_done", "chain", "chosen"}
    VIEW_WORDS = VIEW_WORDS
    PHASE_WORDS = PHASE_WORDS

    def word_change(self, change: Any) -> str | None:
        """Workers said as workers ("your worker showing 2 goes to the Farm"), allegiance tracks
        and goods by their names."""
        path, key = change.path, change.key
        if key == "available" and (change.added or change.removed):
            return self._hand_change(change)
        if len(path) == 3 and path[0] == "sites" and key == "stars" and change.added:
            return self._completed(path[1], [str(s) for s in change.added])
        if key == "stars_left" and self._owner(path, self._found) in self._starred():
            return None  # where the star goes says it
        if path[:1] == ("trade",):
            return self._trade_change(change)
        if path[:1] == ("players",) and self._owner(path, self._found) == self.viewer:
            mine = self._own_change(change)
            if mine is not None:
                return mine or None
        if key == "hidden_recruits" and self._revealing_recruits():
            return None  # the others' recruits revealed say it
        if path == ("recruit_deck",) and self._dealt():
            return None  # the recruits dealt say it
        if path == ("artifact_discards",) and self._discarding():
            return None  # the cards discarded say it
        if path == ("artifact_deck",) and self._drawn() is not None:
            return None  # the draw says it
        if len(path) >= 2 and path[0] in ("board", "sites") and (change.added or change.removed):
            where = item(key)
            moved = [f"{self._placed(w)} stands on {where}" for w in change.added if isinstance(w, tuple)]
            moved += [self._left(w, key, where) for w in change.removed if isinstance(w, tuple)]
            return "; ".join(moved) or None
        region = FACTIONS[key].region if key in FACTIONS else item(key)
        if len(path) == 2 and path[0] == "allegiance" and change.delta:
            sign = "+" if change.delta > 0 else "−"
            return f"{region} allegiance {sign}{abs(change.delta)}"
        if len(path) == 2 and path[0] == "miners" and change.delta:
            sign = "+" if change.delta > 0 else "−"
            return f"miners in the {region} tunnel {sign}{abs(change.delta)}"
        if len(path) == 2 and path[0] == "territories" and change.added:
            who = [str(s) for s in change.added]
            if who == [self.viewer]:
                return f"you place an authority star in {region}"
            names = listing([self.seat(s) if s != self.viewer else "you" for s in who])
            return f"{names} place{'s' if len(who) == 1 else ''} an authority star in {region}"
        if key == "artifacts" and path[:1] == ("players",) and self._owner(path, self._found) == self.viewer:
            return None  # the cards in hand say it
        return super().word_change(change)

    def _own_change(self, change: Any) -> str | None:
        """The viewer's recruits and cards in the rulebook's words; ``""``: said by another
        change; ``None``: the generic words."""
        key = change.key
        names = listing([item(str(r)) for r in change.added])
        places = {"hidden": "face down", "active": "face up"}
        if key in places and change.added:
            return f"{names} joins your recruits {places[key]}"
        if key == "discarded" and change.added:
            return f"{names} {'is' if len(change.added) == 1 else 'are'} discarded"
        if key == "hidden_recruits" or (key == "dealt" and not change.added):
            return ""  # the recruits named say it
        if key == "dilemma_star" and change.after is True:
            return "you place an authority star on your ethical dilemma card"
        if key == "hand" and change.removed and not change.added and self._discarding():
            return f"you discard {listing([item(str(r)) for r in change.removed])}"
        return None

    def _revealing_recruits(self) -> bool:
        """The consequence being worded is the last choice of recruits at the start (every
        player's face-up recruit is revealed: [Recruit Cards])."""
        found = self._found
        phase = getattr(self.state, "phase", None)
        return found is not None and phase == "recruits" and any(p[2:] == ("active",) for p in found.unsure)

    def _discarding(self) -> bool:
        """The consequence being worded puts artifact cards on the discard pile."""
        found = self._found
        return found is not None and any(c.path == ("artifact_discards",) and (c.delta or 0) > 0 for c in found.changes)

    def _dealt(self) -> bool:
        """The consequence being worded deals the viewer recruits it cannot know yet."""
        found = self._found
        return found is not None and ("players", str(self.viewer), "dealt") in found.unsure

    def _trade_change(self, change: Any) -> str | None:
        """The trade on the table ([Trading]): opened with a partner, the items named, closed."""
        key = change.key
        if key == "to" and change.before is None and isinstance(change.after, str):
            return f"you open a trade with {self.seat(change.after)} (only you two see it)"
        if key == "to" and change.after is None:
            withdrawn = self._found is not None and self._found.action.type == "trade_ask"
            return None if withdrawn else "the trade is over"  # a withdrawal says it
        if key in ("give", "ask") and change.added:
            items = listing([item(str(i)) for i in change.added])
            return f"the trade offers {items}" if key == "give" else f"the trade asks for {items}"
        return None

    def _drawn(self) -> int | None:
        """How many artifact cards the consequence being worded draws into the viewer's hand
        (which ones depends on the face-down deck), or ``None``."""
        found = self._found
        if found is None or ("players", str(self.viewer), "hand") not in found.unsure:
            return None
        return self._taken("artifact_deck", 1)

    def _taken(self, deck: str, otherwise: int) -> int:
        """How many cards the consequence being worded takes from a deck of the view (its count
        going down), else ``otherwise``."""
        found = self._found
        drop = next((c.delta for c in found.changes if c.path == (deck,)), None) if found is not None else None
        return -int(drop) if drop is not None and drop < 0 else otherwise

    def word_unsure(self, path: Any) -> str | None:
        """A construction site completed: its market tile turns face up (which market it is
        depends on the face-down tile, so only that it turns is said). Artifact cards drawn
        (which ones depends on the face-down deck)."""
        if self._revealing_recruits() and len(path) == 3 and path[0] == "players" and path[2] == "active":
            return "the others' face-up recruits are revealed (each also keeps one face down)"
        if tuple(path) == ("players", str(self.viewer), "dealt"):
            return f"you are dealt {self._taken('recruit_deck', 2)} recruit cards from the face-down deck"
        if tuple(path) == ("players", str(self.viewer), "hand"):
            n = self._drawn() or 1
            return f"you draw {'an artifact card' if n == 1 else f'{n} artifact cards'} from the face-down deck"
        if len(path) == 3 and path[0] == "sites" and path[2] in ("market", "name", "penalty"):
            if path[1] in self._built_sites():
                return ""  # said with the authority stars placed on it
            return f"{site(path[1])} is complete: its market tile is turned face up" if path[2] == "market" else ""
        return None

    def _hand_change(self, change: Any) -> str:
        """Workers leaving the viewer's hand (placed: said where they go; placed on the spot that
        completes a construction site: said as completing it) or coming back to it."""
        gone = [f"showing {v}" for v in self._own_gone(change)]
        back = [f"showing {v}" for v in change.added]
        parts = [f"your worker {listing(gone)} leaves your hand"] if gone else []
        parts += [f"your worker {listing(back)} comes back to your hand"] if back else []
        return "; ".join(parts)

    def _own_gone(self, change: Any) -> list[Any]:
        """The dice of the viewer's workers leaving the hand that no other change says: not
        placed (said where they go), nor completing a construction site (said with it)."""
        placed = {w[1] for w in self._own_placed() if len(w) >= 2}
        if self._completer() is not None:
            return []
        return [v for v in change.removed if v not in placed]

    def _completer(self) -> str | None:
        """The viewer's worker ("your worker showing 2") when the placement being worded completes a construction
        site (the worker leaves the hand and comes back at once, with the site's builders)."""
        found = self._found
        if found is None or found.action.type != "place" or len(self._built_sites()) != 1:
            return None
        worker = found.action.args.get("worker")
        return f"your worker showing {worker}" if isinstance(worker, int) else "your worker"

    def _completed(self, site_id: str, seats: list[str]) -> str:
        """A construction site completed ([Construction Sites] Completion): the viewer first,
        then the others in seat order."""
        order = list(getattr(self.state, "seats", ()))
        ranked = sorted(seats, key=lambda s: (s != self.viewer, order.index(s) if s in order else len(order)))
        names = listing(["you" if s == self.viewer else self.seat(s) for s in ranked])
        each = "each place an authority star" if len(seats) > 1 else "places an authority star"
        if seats == [self.viewer]:
            each = "place an authority star"
        done = self._completer()
        head = f"{done} completes {site(site_id)}" if done else f"{site(site_id)} is complete"
        return (
            f"{head}: its market tile is turned face up (its penalty hits every player without a star on it),"
            f" {names} {each} on it,"
            " and the workers there go back to their owners, who roll them in the order of the spots"
        )

    def _built_sites(self) -> list[str]:
        """The construction sites the consequence being worded completes."""
        found = self._found
        if found is None:
            return []
        return [c.path[1] for c in found.changes if len(c.path) == 3 and c.path[0] == "sites" and c.path[2] == "stars"]

    def _starred(self) -> set[str]:
        """The seats placing an authority star in the consequence being worded (on a market or
        a territory)."""
        found = self._found
        if found is None:
            return set()
        placed = {
            str(s)
            for c in found.changes
            if c.path[:1] in (("sites",), ("territories",)) and c.key in ("stars", *FACTIONS)
            for s in c.added
        }
        dilemma = {self._owner(c.path, found) for c in found.changes if c.key == "dilemma_star" and c.after is True}
        return placed | {str(s) for s in dilemma if s is not None}

    def _left(self, worker: tuple[Any, ...], space: str, where: str) -> str:
        """A worker leaving a space: bumped by the viewer's placement there ([Temporary Use]:
        back to its owner, rolled at once; then the placement's cost and benefit), or leaving it
        (retrieved, or back from a completed construction site)."""
        found = self._found
        action = found.action if found is not None else None
        if action is None or action.type != "place" or action.args.get("space") != space:
            return f"{self._placed(worker)} leaves {where}"
        if worker[0] == self.viewer:
            return f"you bump your own {self._placed(worker)[5:]} off {where}: it comes back to be rolled"
        owner = self.seat(str(worker[0]))
        return f"you bump {self._placed(worker)} off {where}: back to {owner}, who rolls it before you pay and gain"

    def _placed(self, worker: tuple[Any, ...]) -> str:
        if worker[0] == self.viewer:
            return f"your worker showing {worker[1]}" if len(worker) >= 2 else "your worker"
        owner = f"{self.seat(str(worker[0]))}'s"
        return f"{owner} worker showing {worker[1]}" if len(worker) >= 2 else f"{owner} worker"

    def _own_placed(self) -> list[tuple[Any, ...]]:
        """The viewer's workers the consequence being worded puts on the board (said as "your
        worker showing 2 stands on the Farm", not again as leaving the hand)."""
        found = self._found
        if found is None:
            return []
        return [
            w
            for c in found.changes
            if len(c.path) >= 2 and c.path[0] in ("board", "sites")
            for w in c.added
            if isinstance(w, tuple) and w and w[0] == self.viewer
        ]

    def word_chance(self, step: Any) -> str:
        if step.type == "roll_workers":
            return self._roll_words(len(getattr(step, "sides", ())), self._roller(step))
        return super().word_chance(step)

    def _roller(self, step: Any) -> str | None:
        """The seat whose workers a roll step rolls (its dice's labels: "p2's worker")."""
        owners = {label.rpartition("'s ")[0] for label in getattr(step, "labels", ()) or ()}
        return owners.pop() if len(owners) == 1 and "" not in owners else None

    def _roll_words(self, n: int, seat: str | None) -> str:
        """A roll of ``n`` workers and the knowledge check it brings ([Knowledge Checks]), said
        for the seat rolling (the builders of a market roll in the order of its spots)."""
        mine = seat is None or seat == self.viewer
        whose = "your" if mine else f"{self.seat(str(seat))}'s"
        if not n:
            return f"then {whose} workers are rolled"
        rolled = f"{whose} worker is" if n == 1 else f"{n} of {whose} workers are"
        return (
            f"then {rolled} rolled: if {whose} knowledge and the dice at hand total {KNOWLEDGE_LIMIT} or more,"
            f" {whose} highest worker deserts (Knowledge Checks)"
        )

    def _retrieving(self) -> bool:
        prompt: Any = getattr(self.state, "prompt", None)
        return bool(prompt) and prompt[1] == "pay" and bool(prompt[3]) and prompt[3][0] == "retrieve"

    def action_effect(self, action: Action) -> str | None:
        if action.type == "end_turn":
            return "your turn ends; the next player acts"
        if action.type == "place":
            space = str(action.args.get("space", ""))
            return (
                self._site_progress(space)
                or self._area_bracket(space, action.args.get("worker"))
                or self._gives_later(action, space)
            )
        if action.type in ("retrieve", "retrieve_more") and self._free_retrieval(action):
            return "nothing to pay with: the retrieval is free, which costs morale" + (
                " (yours is at its lowest already)" if self.state.players[action.seat].morale <= MORALE_LOW else ""
            )
        if action.type == "offer_trade" and self._nothing_to_trade(action.seat, str(action.args.get("to", ""))):
            return "neither of you has anything to trade: the offer ends at once, and it counts as your trade this turn"
        return None

    def _site_progress(self, spot: str) -> str | None:
        """How far a placement on a construction site's spot takes its market ([Construction
        Sites]): built once enough spots are held at once (the completion itself is computed)."""
        site_id, dot, _ = spot.partition(SPOT_SEP)
        st: Any = self.state
        if not dot or site_id not in SITES or st is None or site_id in st.built:
            return None
        need = BUILD_THRESHOLD[len(st.seats)]
        more = need - len(occupied_spots(st, site_id)) - 1
        if more <= 0:
            return None
        return f"its market is built when {need} spots are held at once ({more} more after yours)"

    def _offer_sent(self) -> str | None:
        """Naming nothing more in a trade: the offer goes to the partner, or, with nothing
        named, the trade is withdrawn ([Trading]). Said to the offerer only."""
        prompt: Any = getattr(self.state, "prompt", None)
        if not prompt or prompt[0] != self.viewer or prompt[1] != "trade_ask" or len(prompt[3]) < 3:
            return None
        partner, give, get = prompt[3][0], prompt[3][1], prompt[3][2]
        if not give and not get:
            return "nothing is named: the trade is withdrawn"
        return f"the offer goes to {self.seat(str(partner))}, who accepts or declines it"

    def _free_retrieval(self, action: Action) -> bool:
        """The retrieval is paid for at once, and the only way is free ([Retrieve Any/All Workers]:
        food or bliss give morale, free costs it; the question is not asked with one answer)."""
        st: Any = self.state
        if st is None or action.seat not in getattr(st, "players", {}) or retrieval_costs(st, action.seat) != ["free"]:
            return False
        found = self.computed(action)
        return not found.refused and found.next_phase not in ("pay", "retrieve_more")

    def _gives_later(self, action: Action, space: str) -> str | None:
        """What a space gives as the board prints it, when the computed line stops before the
        benefit: a cost to choose first, or a bumped rival's worker to roll first ([Order of
        Operations]: place, bump, pay, gain)."""
        gives = SPACE_GIVES.get(space)
        if gives is None or self.state is None:
            return None
        found = self.computed(action)
        rival = found.chance is not None and self._roller(found.chance) not in (None, self.viewer)
        return f"once paid, it gives: {gives}" if found.next_phase == "pay" or rival else None

    def _area_bracket(self, space: str, face: Any) -> str | None:
        """What a commodity area gives for the total of the workers' dice there with the one
        placed ([Commodity Areas]: the bracket of the total picks the gain and the track move)."""
        st: Any = self.state
        where = SPACES.get(space)
        if where is None or where.kind != "commodity_area" or where.faction is None or not isinstance(face, int):
            return None
        total = face + sum(int(o[1]) for o in getattr(st, "occupants", {}).get(space, []))
        good = FACTIONS[where.faction].commodity
        for lo, hi, n, (track, delta) in BRACKETS:
            if lo <= total <= hi:
                span = f"{lo} or more" if hi >= 10**6 else f"{lo}–{hi}"
                sign = "+" if delta > 0 else "−"
                moved = f"{FACTIONS[where.faction].region} allegiance" if track == "allegiance" else track
                return f"the workers there show {total} with yours ({span}: {n} {good}, {moved} {sign}{abs(delta)})"
        return None

    def _nothing_to_trade(self, seat: str, partner: str) -> bool:
        """Neither side holds a good or an artifact card (public: goods and the number of cards)."""
        st: Any = self.state
        players = getattr(st, "players", {})
        if seat not in players or partner not in players:
            return False
        return not any(any(players[s].goods.values()) or players[s].hand for s in (seat, partner))

    def prompt(self, text: str, phase: str | None = None) -> str:
        if phase == "pay" and self._retrieving():
            return "Pay for the retrieval of your workers"
        if phase == "pay":
            return "Choose what to pay with"
        return super().prompt(text, phase)

    def say(self, text: str) -> str:
        """``aquifer:5`` -> "the worker showing 5 on the Aquifer"; "paying free" -> "paying nothing";
        a commodity area's "(total 6)" said as what it counts (the workers' dice there)."""
        text = _WORKER.sub(lambda m: self._worker(m.group(1), m.group(2)), text)
        text = _JOINED.sub(lambda m: item(m.group(0)), text)
        text = text.replace("retrieves paying free", "retrieves, paying nothing (−1 morale)")
        text = text.replace("retrieves paying ", "retrieves, paying with ")
        text = _TURN.sub(r"\2's turn (turn \1)", text)
        text = _PLACES_A.sub(r"\1 a worker showing \2 on", text)
        text = _AREA_TOTAL.sub(r"\1 (the workers there show \2 in all)", text)
        return super().say(text)

    def _worker(self, space: str, face: str) -> str:
        known = space in SPACES or space in SITES or space.partition(SPOT_SEP)[0] in SITES
        return f"the worker showing {face} on {item(space)}" if known else f"{space}:{face}"

    # -- the situation (issue 20: what the pending decision is about) --------------------------
    def situation(self) -> str | None:
        """What the question now asked is about: the worker just placed (its space), the workers
        being retrieved, the recruit whose ability may act, the trade on the table."""
        prompt = getattr(self.state, "prompt", None)
        if not prompt:
            return None
        seat, kind, _options, context = prompt
        who = self.seat(seat)
        whose = "Your" if seat == self.viewer else f"{who}'s"
        first = context[0] if context else None
        if kind in ("trade_give", "trade_ask", "answer_trade") and len(context) >= 3:
            return self._trade_situation(seat, kind, context)
        if kind == "retrieve_more" and len(context) >= 2:
            return f"{who} retrieves workers: so far {self._workers(context[1])}"
        if kind == "pay" and first == "dilemma":
            return f"{who} resolves an ethical dilemma: paying its cost"
        if kind == "sacrifice" and first == "retrieve":
            return f"{who} retrieves workers: one of them may be sacrificed to a recruit's ability"
        if kind == "lose_good":
            return f"{who} must lose a good"
        first = PROMPT_RECRUITS.get(first, first) if isinstance(first, str) else first
        if kind == "take" and isinstance(first, str) and first in RECRUITS:
            return f"{whose} recruit {RECRUITS[first].name} gives something: choosing what"
        if kind == "pay" and first == "retrieve" and len(context) >= 3:
            return f"{who} retrieves {self._workers(context[2])}: the retrieval is paid for, then the workers rolled"
        if kind == "use_ability" and isinstance(first, str) and first in RECRUITS:
            return f"{whose} recruit {RECRUITS[first].name} may act: {RECRUITS[first].summary}"
        if kind in DISCARD_SITUATIONS and first in DISCARD_SITUATIONS[kind]:
            return f"{who} {DISCARD_SITUATIONS[kind][first]}"
        if kind == "choose_side":
            return f"{who} resolves an ethical dilemma: fight it or contribute to it"
        if isinstance(first, str) and region_of(first) is not None:
            gives = SPACE_GIVES.get(first)
            step = SPACE_STEPS.get(kind, "one more choice")
            return f"{whose} worker on {item(first)}" + (f" (it gives: {gives})" if gives else "") + f": {step}"
        return None

    def _workers(self, spots: list[Any]) -> str:
        return listing([self.say(str(s)) for s in spots]) or "none"

    def _trade_situation(self, seat: str, kind: str, context: list[Any]) -> str:
        """The trade on the table, its items said only to the seats whose view shows them
        (:func:`.view.trade_on_table`): the offerer, and the partner once it is offered."""
        partner, give, get = context[0], context[1], context[2]
        offerer, other = (partner, seat) if kind == "answer_trade" else (seat, partner)
        if trade_on_table(self.state, self.viewer) is None:
            if kind == "answer_trade":
                return f"{self.seat(offerer)} offers {self.seat(other)} a trade"
            return f"{self.seat(offerer)} composes a trade for {self.seat(other)}"
        gives = listing([item(str(g)) for g in give]) or "nothing"
        asks = listing([item(str(g)) for g in get]) or "nothing"
        return f"{self.seat(offerer)} offers {self.seat(other)} a trade: gives {gives}, asks for {asks}"

    def sentence(self, action: Action) -> str:
        who, a = self.seat(action.seat), action.args
        said = _SENTENCES.get(action.type)
        if said and len(a) == 1:
            ((param, value),) = a.items()
            return said.format(who=who, value=self.value(action.type, param, value))
        if action.type == "place":
            return f"{who} places a worker showing {a.get('worker')} on {item(str(a.get('space')))}"
        if action.type == "choose_recruits":
            return f"{who} keeps {item(str(a.get('active')))} face up and {item(str(a.get('hidden')))} face down"
        if action.type == "offer_trade":
            return f"{who} offers a trade to {self.seat(str(a.get('to')))}"
        return super().sentence(action)

    # -- the parts of the face a decision is about (both front ends show them first) -----------
    def about(self) -> tuple[str, ...]:
        """The viewer's own mat: morale, knowledge, workers and their dice, goods, recruits, hand."""
        return (f"{self.viewer}:",) if self.viewer is not None else ()
