"""The Great City's names for people: players and the GM by name, characters by their names,
ties as "X's tie to Y", stones by their colour, the rulebook's words for every action.

Used by every front end through :meth:`GreatCityGame.namer` (see :mod:`ludica.core.names`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...core import Action
from ...core.names import Namer
from . import oracle as O
from .common import GM, NEW
from .state import GreatCityState

ACTION_TITLES = {
    "record_situation": "Record the situation",
    "create_agent": "Create an agent of peril",
    "end_agents": "No more agents of peril",
    "set_triad": "Set the triad",
    "choose_kind": "Choose human or bug",
    "allocate_traits": "Allocate the traits",
    "choose_class": "Choose the class",
    "choose_intent": "Choose the intent",
    "name_character": "Name the character",
    "draw_name": "Draw a name",
    "vest_class_scarab": "Take the class's scarab from the bank",
    "add_tie": "Add a tie",
    "buy_tie": "Buy a tie",
    "end_ties": "No more ties",
    "start_scene": "Start the scene",
    "choose_foil": "Choose the foil",
    "choose_ante_source": "Pay the ante from",
    "buy_in": "Buy in",
    "stay_out": "Stay out",
    "undo_flip": "Undo the flip",
    "decline_undo": "Let the flip stand",
    "arrive": "Arrive in the scene",
    "pass_reaction": "Pass",
    "flip": "Flip a stone",
    "end_reaction": "End your reaction",
    "accept_judgment": "Accept the judgment",
    "assign_narration": "Give the narration to",
    "narrate": "Narrate the judgment",
    "give_scarabs": "Give scarabs",
    "vest_own": "Vest scarabs under your character",
    "fund_fate": "Fund the city's fate",
    "flip_city_stone": "Flip a city stone",
    "vest_city_stone": "Vest scarabs under a city stone",
    "end_distribution": "End the distribution",
    "narrate_city_fate": "Narrate the city's fate",
    "narrate_character_fate": "Narrate a character's fate",
}

PARAM_LABELS = {
    "position": "stone",
    "source": "by",
    "to_seat": "to",
    "n": "how many scarabs",
    "box": "purse",
    "list": "name list",
    "vest": "vest it",
    "grant": "granted by",
    "sign": "sign",
    "spotlight": "spotlight",
    "foil": "foil",
    "narrator": "narrator",
    "traits": "traits",
    "class": "class",
    "kind": "kind",
    "role": "for",
}

VALUE_NAMES = {
    "free_scarab": "a free scarab from your purse",
    "vested_scarab": "the scarab vested under the stone",
    "trait": "a trait",
    "tie": "a tie",
    "yea": "the Yea purse (the city is saved)",
    "nay": "the Nay purse (the city falls)",
    "pool": "the Mounting Peril pool",
    "purse": "your purse",
    "free": "a free tie",
    "+": "positive (+)",
    "-": "negative (−)",
    "spotlight": "the spotlight",
    "foil": "the foil",
    "male": "the male names",
    "female": "the female names",
}


BINARY_PAIR = re.compile(r"\b[01]{3} [01]{3}:? (?=[A-Z])")
"""A pair of triads in the oracle's binary notation before its name ("000 110 Contemplation"):
people read the name."""

SOURCE_EFFECTS = {
    "trait": "free — a trait of a character of yours in the scene, in its mode; once a scene",
    "tie": "free — a tie of yours pointing at the stone's owner; once a scene",
    "free_scarab": "costs 1 scarab from your purse (it joins the ante)",
    "vested_scarab": "spends the scarab vested under this stone (it joins the ante)",
}
"""What each way to flip a stone costs (R-GC-27, R-GC-28, R-GC-29)."""

ACTION_EFFECTS = {
    "arrive": "costs 1 scarab from your purse (it joins the ante); your character joins the scene",
    "buy_in": "costs 1 scarab from your purse (it joins the ante); your character takes part in the scene",
    "stay_out": "your character sits this scene out: no flips, no reward",
    "pass_reaction": "you do nothing this round; if everyone passes, someone must accept",
    "end_reaction": "your flips stand; the next seat reacts",
    "undo_flip": "spends the scarab vested under the stone: the flip is undone (no refund)",
    "decline_undo": "the flip stands; your vested scarab stays",
    "end_ties": "this character takes no more ties",
    "end_agents": "the GM creates no more agents of peril",
    "end_distribution": "you give, vest and fund nothing more",
}
"""What a one-button action does (R-GC-23, R-GC-25, R-GC-31, R-GC-36)."""

_NAMED_TWICE = re.compile(r"^(.+?) is named \1\b")
_PAIR = re.compile(r"(?<![\w-])([01]{3}) ([01]{3})(?![\w-])")
_TRIAD = re.compile(r"(?<![\w-])([01]{3})(?![\w-])")
_VESTS = re.compile(r"\) vests a scarab under its (blue|white|green) stone")
"""The class benefit's story line (R-GC-12), said plainly."""
_STONES = re.compile(r"stones ((?:[1-6]:[bwg][-+−]\**#? ?)+)\s*\(\* vested, # locked\)")
"""A scene's stones in the face's short notation (``stones 1:b- 2:w+*# …  (* vested, # locked)``)."""
_STONE = re.compile(r"([1-6]):[bwg]([-+−])(\**)(#?)")
_FLIP_OF = re.compile(r"\bthe flip of stone ([1-6])\b")
_REDUCED = re.compile(r"\breduced ([-+]{3})(?!\S)")
_CITY = re.compile(r"^The city: ([01]{3}) ([01]{3}) ")
"""The city's pair on the text face: its stones' faces are said (they are what a flip of a city stone changes)."""
_MOVING = re.compile(r"\bmoving(?: stones)? ([1-6](?:, [1-6])*)")
"""The city's moving stones by position (``moving 1, 5``), said by triad and colour."""
_UNDER = re.compile(r"\bunder stone ([1-6])\b")
"""A stone by its position (a scene's flip waiting for its undo, the city's vested scarabs): said by colour."""
_RULE = re.compile(r" ?\((?:R|HR)-G[C\d]?-?\d+[a-z]?\)|\s*\[(?:R|HR)-G[C\d]?-?\d+[a-z]?\]")


def _city_stones(positions: str) -> str:
    """``"1, 5"`` -> ``"the first triad's blue, the second triad's white"``: the city's stones by place."""
    said = []
    for p in (int(x) for x in positions.split(", ")):
        said.append(f"the {'first' if p <= 3 else 'second'} triad's {O.COLORS[(p - 1) % 3]}")
    return ", ".join(said)


def signs(bits: str) -> str:
    """``"010"`` -> ``"−+−"``: a triad as its stones' faces (blue, white, green)."""
    return "".join("+" if b == "1" else "−" for b in bits)


PHASE_NEWS = {"reaction": "the reactions begin"}
"""A scene's phase, as the news of an option that moves the scene on ([Reactions], [The Judgment])."""


class GreatCityNamer(Namer):
    ACTION_TITLES = ACTION_TITLES
    PARAM_LABELS = PARAM_LABELS
    VALUE_NAMES = VALUE_NAMES
    state: GreatCityState

    def character(self, cid: str) -> str:
        c = self.state.characters.get(cid)
        if c is None:
            return "a new character"
        if c.name:
            return c.name
        if c.agent:
            return "an agent of peril"
        return "the GM's character" if c.controller == GM else f"{self.seat(c.controller)}'s character"

    def tie(self, tid: str) -> str:
        tie = next((t for t in self.state.ties if t.id == tid), None)
        if tie is None:
            return "a tie"
        sign = "positive" if tie.sign == "+" else "negative"
        return f"{self.character(tie.source)}'s {sign} tie to {self.character(tie.target)}"

    def say(self, text: str) -> str:
        """The oracle's readings by their names, not their bits (``000 110 Contemplation`` ->
        ``Contemplation``); other triads as their stones' faces (``010 011`` -> ``−+− −++``); rule
        ids stay in the rules."""
        text = _REDUCED.sub(lambda m: "reduced " + m.group(1).replace("-", "−"), text)
        text = _CITY.sub(lambda m: f"The city's stones {signs(m.group(1))} {signs(m.group(2))} read ", text)
        text = _RULE.sub("", BINARY_PAIR.sub("", text))
        text = _PAIR.sub(lambda m: f"{signs(m.group(1))} {signs(m.group(2))}", text)
        text = _TRIAD.sub(lambda m: signs(m.group(1)), text)
        kept = r") takes a scarab from the bank and keeps it on its \1 stone (it can later undo a flip of that stone)"
        declined = ") keeps no scarab from the bank (its class benefit is declined)"
        text = _VESTS.sub(kept, text).replace(") vests no scarab", declined)
        text = _STONES.sub(lambda m: self.stones(m.group(1)), text)
        text = _FLIP_OF.sub(lambda m: f"the flip of {self.stone(int(m.group(1)))}", text)
        text = _MOVING.sub(lambda m: "moving: " + _city_stones(m.group(1)), text)
        text = _UNDER.sub(lambda m: f"under {self.value('vest_city_stone', 'position', int(m.group(1)))}", text)
        said = super().say(text)
        return _NAMED_TWICE.sub(r"A new character is named \1", said)

    def ids(self) -> dict[str, str]:
        out = super().ids()
        out.update({cid: self.character(cid) for cid in self.state.characters})
        out.update({t.id: self.tie(t.id) for t in self.state.ties})
        out["gm"] = self.seat(GM)
        return out

    def stone(self, position: int) -> str:
        """Positions 1-3 are the spotlight's blue, white and green stones, 4-6 the foil's."""
        sc = self.state.scene
        color = O.COLORS[(position - 1) % 3]
        if sc is None:
            return f"stone {position} ({color})"
        owner = sc.spotlight if position <= 3 else sc.foil
        return f"{self.character(owner)}'s {color} stone" if owner else f"the {color} stone"

    def stones(self, notation: str) -> str:
        """A scene's stones in words, each character's three in turn (``1:b- 2:w+*# 3:g+`` ->
        ``Ann's stones: blue −, white + (1 scarab vested; locked: not to be flipped now), green +``)."""
        sc = self.state.scene
        said: dict[int, list[str]] = {}
        for position, sign, stars, lock in _STONE.findall(notation):
            at = int(position)
            notes = [f"{len(stars)} scarab{'s' if len(stars) > 1 else ''} vested"] if stars else []
            if lock:
                notes.append("locked: not to be flipped now")
            face = "+" if sign == "+" else "−"
            color = O.COLORS[(at - 1) % 3]
            said.setdefault((at - 1) // 3, []).append(f"{color} {face}" + (f" ({'; '.join(notes)})" if notes else ""))
        owners = (sc.spotlight, sc.foil) if sc is not None else (None, None)
        parts = []
        for half, stones in said.items():
            owner = owners[half]
            whose = (
                f"{self.character(owner)}'s stones" if owner else ("the spotlight's stones", "the foil's stones")[half]
            )
            parts.append(f"{whose}: {', '.join(stones)}")
        return "; ".join(parts)

    def value(self, kind: str, param: str, value: Any) -> str:
        if param == "foil" and value == NEW:
            return "a new character (the GM makes it now: its triad is rolled)"
        if isinstance(value, str) and value in self.state.characters:
            return self.character(value)
        if param == "tie" and isinstance(value, str):
            return self.tie(value)
        if param == "position" and isinstance(value, int):
            if kind in ("flip_city_stone", "vest_city_stone"):
                return f"the city's {O.COLORS[(value - 1) % 3]} stone ({'first' if value <= 3 else 'second'} triad)"
            return self.stone(value)
        if param == "trait" and isinstance(value, str):
            return value.capitalize()
        if param == "traits" and isinstance(value, dict):
            return ", ".join(str(v).capitalize() for v in value.values())
        return super().value(kind, param, value)

    # -- effects (DESIGN.md principle 15) -------------------------------------------------------
    def _creating(self) -> Any:
        return next(
            (c for c in self.state.characters.values() if c.stage == "intent" and c.controller == self.viewer), None
        )

    def effect(self, kind: str, param: str, value: Any) -> str | None:
        if kind == "choose_intent" and param == "color" and isinstance(value, str) and value in O.COLORS:
            return self._intent_effect(value)
        if kind == "flip" and param == "source" and isinstance(value, str):
            return SOURCE_EFFECTS.get(value)
        if kind == "flip" and param == "position" and isinstance(value, int):
            return self._flip_effect(value)
        if param == "sign" and value in ("+", "-"):
            return (
                "a positive tie flips its target's − stones to +"
                if value == "+"
                else ("a negative tie flips its target's + stones to −")
            )
        if kind == "choose_class" and param == "class" and isinstance(value, str):
            return self._class_effect(value)
        if kind == "choose_ante_source" and param == "source":
            return {
                "pool": "the scarab comes from the Mounting Peril pool: the end game draws nearer",
                "purse": "costs 1 scarab from your purse: it staves off the end game",
            }.get(str(value))
        if kind == "vest_class_scarab" and param == "vest":
            return (
                "a scarab from the bank goes under the class's stone, to undo a flip there later"
                if value
                else ("no scarab is taken")
            )
        if kind == "draw_name" and param == "list":
            return f"a name drawn at random from {self.value(kind, param, value)}"
        return None

    def _intent_effect(self, color: str) -> str:
        """The answer the stone gives and what justifies it (R-GC-18)."""
        c = self._creating()
        basis = O.JUSTIFICATION[color]
        if c is None:
            return f"its face answers YES or NO — justified by {basis}"
        up = O.stone(c.triad, O.COLORS.index(color))
        answer = "YES" if up else "NO"
        who = c.name or "your character"
        said = f"{answer} — by {basis}: say how {who} will {'save' if up else 'not save'} the Great City"
        if not any(O.stone(c.triad, i) for i in range(3)):
            said += " (all its stones are down: every answer is NO)"
        return said

    def _flip_effect(self, position: int) -> str | None:
        sc = self.state.scene
        if sc is None or sc.spotlight is None or sc.foil is None:
            return None
        owner = self.state.characters[sc.spotlight if position <= 3 else sc.foil]
        up = O.stone(owner.triad, (position - 1) % 3)
        return f"turns it from {'+ to −' if up else '− to +'}"

    def _class_effect(self, cls: str) -> str:
        tier = O.INITIATIVE_TIER.get(cls)
        color = O.COLOR_OF_CLASS.get(cls)
        said = f"initiative tier {tier}" if tier else ""
        if color is not None:
            said += f"; may keep a scarab from the bank on its {color} stone, to undo a flip of it later"
        return said.strip("; ") or "no class benefit"

    # -- computed consequences in the rulebook's words (DESIGN.md principle 16) -----------------
    QUIET_KEYS = Namer.QUIET_KEYS | {
        "triad",
        "triads",
        "flippable",
        "flipping",
        "judgment",
        "bits",
        "manner",
        "creating",  # the next step of making a character is the next question
        "controller",
        "position",
        "focal",
        "acceptor",
        "number",
        "color",  # an intent's colour: its answer and basis are the option's effect
        "answer",
        "basis",
        "intent",  # the scene's intent is written in the next step
        "reaction_order",
        "narrator",  # who narrates is the next question (the acceptor gives the narration)
        "peril_timeline",  # the peril pool noted at each scene's start: a history, not a change
    }
    VIEW_WORDS: Mapping[str, str] = {"present": "in the scene"}

    @staticmethod
    def _scene_cleared(change: Any) -> bool:
        """A part of the scene that ends, cleared for the next one, or the ended scene's summary
        (``last_scene``): unsaid (the scenes played and who decides next say it)."""
        path = change.path
        if path[:1] == ("last_scene",):
            return True
        return path[:1] == ("scene",) and change.after in (None, (), "") and change.before not in (None, (), "")

    def word_change(self, change: Any) -> str | None:
        """A flip as the stone that turns and the reading it makes (R-GC-27); scarabs paid; not
        the parts of a scene that ends."""
        path, key = change.path, change.key
        if self._scene_cleared(change):
            return None
        if path[-2:] == ("purse", "scarabs") and change.delta:
            n = abs(change.delta)
            return f"{'pays' if change.delta < 0 else 'gains'} {n} scarab{'s' if n != 1 else ''}"
        if key == "triad_name" and isinstance(change.after, str):
            return None  # the reading says it
        said = self._scene_change(path, key, change.after)
        if said is not None:
            return said or None
        if path[-2:] == ("pair", "pair"):
            return None  # its name says it: "the reading becomes …"
        if path[-2:] == ("pair", "name") and isinstance(change.after, str):
            return f"the reading becomes {change.after}"
        if path[-2:] == ("scene", "pair") and isinstance(change.after, str):
            return self._reading(change.after)
        if len(path) >= 3 and path[-3] == "stones" and key == "sign" and path[-2].isdigit():
            return f"{self.stone(int(path[-2]) + 1)} turns {'+' if change.after == '+' else '−'}"
        if "vested" in path and change.delta:
            n, color = abs(change.delta), key if key in O.COLORS else ""
            scarabs = f"{n} scarab{'s' if n != 1 else ''}"
            where = f"under the {color} stone" if color else "under the stones"
            return f"{scarabs} vested {where} {'spent' if change.delta < 0 else 'added'}" if color else None
        if key in ("foil", "spotlight") and path[:1] == ("scene",) and isinstance(change.after, str):
            return f"the {key}: {self.character(change.after)}"
        if path[-2:] == ("situation", "vested") and isinstance(change.after, tuple):
            before = change.before if isinstance(change.before, tuple) else ()
            grown = [i for i, n in enumerate(change.after) if i >= len(before) or n != before[i]]
            under = [
                f"city stone {i + 1}: {change.after[i]} scarab{'s' if change.after[i] != 1 else ''} under it"
                for i in grown
            ]
            return "; ".join(under) or None
        if path[-1:] == ("stones",) and isinstance(change.after, dict):
            stone = change.after
            owner = self.character(str(stone.get("owner"))) if stone.get("owner") else "the city"
            sign = "+" if stone.get("sign") == "+" else "−"
            return f"{owner}'s {stone.get('color', '')} stone ({sign}) comes into the scene"
        if key == "used_traits" and change.added:
            used = [str(t[1]).capitalize() for t in change.added if isinstance(t, tuple) and len(t) >= 2]
            return f"the trait {', '.join(used)} is used this scene" if used else None
        if key == "ties" and isinstance(change.after, dict):
            tie = change.after
            sign = "positive" if tie.get("sign") == "+" else "negative"
            source, target = self.character(str(tie.get("source"))), self.character(str(tie.get("target")))
            return f"a {sign} tie from {source} to {target} ({tie.get('grant', 'new')})"
        return super().word_change(change)

    def _scene_change(self, path: tuple[Any, ...], key: Any, after: Any) -> str | None:
        """The scene's bookkeeping in words ([Reactions], [The Judgment]); ``""``: said elsewhere
        (who reacts next is "then … decides", an accepted judgment is its hand-written effect)."""
        if path == ("phase",) and isinstance(after, str):
            return PHASE_NEWS.get(after, "")
        if path[:1] != ("scene",):
            return None
        if key in ("to_react", "acceptor", "flipping") or path[:2] == ("scene", "acted"):
            return ""
        if len(path) >= 2 and path[-2] in ("announced", "accepted") and key in ("pair", "triads", "judgment"):
            return ""
        if len(path) >= 2 and path[-2] == "announced" and key == "name" and isinstance(after, str):
            return f"the reading becomes {after}"
        if len(path) >= 2 and path[-2] == "accepted" and key == "name":
            return ""
        if key == "narrator" and isinstance(after, str):
            return f"{self.seat(after)} narrates the judgment"
        return None

    def _reading(self, bits: str) -> str | None:
        digits = bits.replace(" ", "")
        if len(digits) != 6 or set(digits) - {"0", "1"}:
            return None
        return f"the reading becomes {O.PAIR_NAMES[int(digits, 2)]}"

    def action_effect(self, action: Action) -> str | None:
        if action.type == "accept_judgment":
            judgment = self.judgment()
            if not judgment:
                return "you take the ante"
            return f"you take the ante; the judgment stands: {judgment.rstrip('.')}"  # a clause, not a sentence
        return ACTION_EFFECTS.get(action.type)

    def judgment(self) -> str | None:
        """The judgment of the pair now on the table (spotlight's triad first), or ``None``."""
        sc = self.state.scene
        if sc is None or sc.spotlight is None or sc.foil is None:
            return None
        chars = self.state.characters
        if sc.spotlight not in chars or sc.foil not in chars:
            return None
        pair = chars[sc.spotlight].triad << 3 | chars[sc.foil].triad
        return f"{O.PAIR_NAMES[pair]} — {O.PAIR_JUDGMENTS[pair]}"

    def situation(self) -> str | None:
        if self.state.phase in ("reaction", "undo", "random_flip", "rethrow") and self.judgment():
            return f"On the table: {self.judgment()}"
        return None

    def sentence(self, action: Action) -> str:
        who = self.seat(action.seat)
        a = action.args
        if action.type == "flip":
            stone = self.value("flip", "position", a.get("position"))
            source = a.get("source")
            if source == "trait":
                trait = str(a.get("trait", "")).capitalize()
                return f"{who} flips {stone} with {self.character(a['character'])}'s trait {trait} ({a.get('mode')})"
            if source == "tie":
                return f"{who} flips {stone} with {self.tie(a['tie'])}"
            return f"{who} flips {stone} with {self.value('flip', 'source', source)}"
        if action.type in ("add_tie", "buy_tie"):
            sign = "positive" if a.get("sign") == "+" else "negative"
            verb = "buys" if action.type == "buy_tie" else "adds"
            return f"{who} {verb} a {sign} tie from {self.character(a['source'])} to {self.character(a['target'])}"
        return super().sentence(action)

    # -- the parts of the face a decision is about (both front ends show them first) -----------
    def about(self) -> tuple[str, ...]:
        """In a scene: its stones, their reading and the reactions (and the purses beside them);
        while the city's situation is made: the city's pair."""
        if self.state is None:
            return ()
        if self.state.phase == "distribution":  # the scene is settled: the scarabs go to the city's stones
            return ("Peril pool", "The city:")
        if self.state.scene is not None:
            return ("Peril pool", "Scene ")
        if self.state.phase == "record_situation":
            return ("The city:",)
        return ()
