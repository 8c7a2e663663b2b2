"""Names for people: how a game calls every seat, action, parameter and value for one viewer.

Ids are for programs (DESIGN.md principle 10). Every front end — the terminal, the web table,
story exports, bot narration — asks a :class:`Namer` how to say a thing to the seat looking at
it, and never prints an id itself. A game brings its own namer (``Game.namer``, usually a subclass
of :class:`Namer` in ``ludica/games/<package>/names.py``) with the rulebook's words; the base
class here gives a readable fallback for anything a game does not name (``snake_case`` becomes
words), so a new game is never shown as raw ids.

What a viewer may not know is never named for it: a game's namer says "a face-down recruit", not
the recruit's name, to a seat that has not seen it.

>>> namer = Namer(None, None, None)
>>> namer.action_title("offer_trade")
'Offer trade'
>>> namer.value("place", "space", "nimbus_loft")
'nimbus loft'
>>> namer.value("vote", "yes", True)
'yes'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .actions import Action, IntRange, Text

_SNAKE = re.compile(r"[_\s]+")
_UPPER_SNAKE = re.compile(r"(?<![\w$])[A-Z]+(?:_[A-Z]+)+(?!\w)")
_QUOTED_TWICE = re.compile(r"“([^”]+)”: \1")
_NAME_TWICE = re.compile(r"(?<![\w-])([A-Z][\w'’-]*(?: [A-Z][\w'’-]*){0,3}) \(\1\)")
"""``"Bo (Bo)"``: a name followed by itself in brackets (a seat said as its name twice)."""
_ONE_PLURAL = re.compile(r"(?<![\d.,])(1) (coin|scarab|action|point|unit|card|worker|memory)s\b")
"""``"1 coins"`` -> ``"1 coin"``, ``"1 actions"`` -> ``"1 action"``."""
_PLURAL_S = re.compile(r"(?<![\w(])(?:(\d+) ([A-Za-z]+ )?)?([A-Za-z]+)\(s\)")
"""``"2 scarab(s)"`` -> ``"2 scarabs"``, ``"1 scarab(s)"`` -> ``"1 scarab"``, ``"character(s)"`` ->
``"characters"``: an engine's "(s)" said as the number wants it."""
_ONE_DICE = re.compile(r"(?<![\d.,])\b1 dice\b")
"""``"rolls its 1 dice"`` -> ``"rolls its 1 die"``."""
_SUCCESSES = re.compile(r"(?<![\w.,])(\d+) success\b(?!es)")
"""``"2 success"`` -> ``"2 successes"`` (the count of success dice, not the outcome)."""
_THE_THE = re.compile(r"\b([Tt])he the\b")
_RULE_TAG = re.compile(r" \[(?:(?:R|HR|LD|MB|EU|GC|EY)-[A-Z0-9-]+|[a-z][a-z ]*)(?:; ([^\[\]]+))?\]$")
"""The rule and section a refusal names, in brackets at its end ("… [chance]", "… [LD-R3; Creating
Memories]"): the tag is for programs; a section is said as where to read ("(rulebook: Creating
Memories)")."""
_KEY_VALUE = re.compile(r"([a-z_]+): ([a-z_]+)")
_SNAKE_WORD = re.compile(r"(?<![\w$])[a-z]+(?:_[A-Za-z0-9]+)+(?!\w)")
_NUMBER_LIST = re.compile(r"\[(-?\d+(?:, -?\d+)+)?\]")
"""A Python list of numbers in an engine text ("dice [2, 3]", "dice [] of 2"): said as "2, 3", "none"."""


def _drop_bracketed_ids(text: str, table: Mapping[str, str], pattern: re.Pattern[str]) -> str:
    """``"Ana Brook (c3)"`` -> ``"Ana Brook"`` when c3 is Ana Brook; other ``(id)`` stay for
    the id pass to name."""
    out: list[str] = []
    last = 0
    for match in re.finditer(r" \(([^()\s]+)\)", text):
        key = match.group(1)
        if key in table and pattern.fullmatch(key) and text[: match.start()].endswith((table[key], key)):
            out.append(text[last : match.start()])
            last = match.end()
    out.append(text[last:])
    return "".join(out)


def _plural(match: re.Match[str]) -> str:
    number, between, noun = match.group(1), match.group(2) or "", match.group(3)
    plural = noun + ("es" if noun.endswith(("s", "sh", "ch", "x")) else "s")
    if number is None:
        return plural
    return f"{number} {between}{noun if number == '1' else plural}"


def words(token: str) -> str:
    """``"let_workers_relax"`` -> ``"let workers relax"``; ``"art-balloons"`` stays readable."""
    return _SNAKE.sub(" ", str(token)).strip()


def sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def counted(number: int, one: str, many: str) -> str:
    """``counted(1, "die", "dice")`` -> ``"1 die"``, ``counted(3, "die", "dice")`` -> ``"3 dice"``."""
    return f"{number} {one if number == 1 else many}"


def listing(items: Sequence[str], conjunction: str = "and") -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


class Namer:
    """The names a game gives things, for one viewer (``None``: a spectator).

    Games override the ``*_NAMES`` tables (action type -> title, (type, param) -> label) and the
    methods whose answer depends on the state (a seat's player name, a memory's text, a hidden
    card). Every method returns plain text: no markup, no ids.
    """

    ACTION_TITLES: Mapping[str, str] = {}
    """Action type -> a short imperative title ("Place a worker")."""
    PARAM_LABELS: Mapping[str, str] = {}
    """Parameter name (or ``"type.param"``) -> its label ("space" -> "action space")."""
    VALUE_NAMES: Mapping[str, str] = {}
    """A value id -> its name, for ids fixed by the rules (spaces, colours, kinds)."""

    WORDS: Mapping[str, str] = {}
    """Words of the engine's texts said otherwise for people ("BELIEVE" -> "Believe")."""

    SAY_FROM_TABLE: bool = True
    """True when :meth:`say` answers from the text and this namer's id table (:meth:`ids` and
    :data:`WORDS`) alone, never from other state, so that a front end may remember its answers per
    table (the web table does: ``ludica/table/render_cache.py``). A game whose ``say`` reads more
    sets it False."""

    def __init__(self, game: Any, state: Any, viewer: str | None, players: Mapping[str, str] | None = None) -> None:
        self.game = game
        self.state = state
        self.viewer = viewer
        self.players: Mapping[str, str] = players or {}
        """Seat -> the player's name from the config, for seats the game itself does not name."""
        self._table: dict[str, str] | None = None
        self._found: Any = None
        """The consequence being worded (:meth:`word_consequence`), for :meth:`word_change`."""
        self._pattern: re.Pattern[str] | None = None

    # -- ids in texts --------------------------------------------------------------------------
    def ids(self) -> dict[str, str]:
        """Every id this game's texts may carry, with its name for this viewer: seats by default;
        games add their characters, memories, cards... (a hidden item gets a covering name)."""
        if self.game is None or self.state is None:
            return {}
        try:
            seats = self.game.seats(self.state)
        except (KeyError, AttributeError):
            return {}
        return {seat: self.seat(seat) for seat in seats}

    def id_table(self) -> dict[str, str]:
        """The ids :meth:`say` replaces and their names (:meth:`ids` and :data:`WORDS`), built once."""
        if self._table is None:
            self._table = {**{k: v for k, v in self.ids().items() if k != v}, **self.WORDS}
        return self._table

    def _ids(self) -> tuple[dict[str, str], re.Pattern[str] | None]:
        table = self.id_table()
        if self._pattern is None and table:
            self._pattern = _ids_pattern(tuple(table))
        return table, self._pattern

    def say(self, text: str) -> str:
        """An engine text (an event, a refusal, a terminal face) with every id it carries said as
        its name for this viewer: ``"p3 plays QC"`` -> ``"Cat plays QC"``; a name already followed
        by its id in brackets keeps the name alone; leftover ``snake_case`` becomes words."""
        table, pattern = self._ids()
        if pattern is not None:
            text = _drop_bracketed_ids(text, table, pattern)
            text = pattern.sub(lambda m: table[m.group(1)], text)
        text = _RULE_TAG.sub(lambda m: f" (rulebook: {m.group(1)})" if m.group(1) else "", text)
        text = _QUOTED_TWICE.sub(r"“\1”", text)
        text = _NUMBER_LIST.sub(lambda m: m.group(1) or "none", text)
        text = _NAME_TWICE.sub(r"\1", text)
        text = _THE_THE.sub(r"\1he", text)
        text = _PLURAL_S.sub(_plural, text)
        text = _SUCCESSES.sub(lambda m: m.group(0) if m.group(1) == "1" else f"{m.group(1)} successes", text)
        text = _ONE_PLURAL.sub(r"\1 \2", text)
        text = _ONE_DICE.sub("1 die", text)
        text = _UPPER_SNAKE.sub(lambda m: m.group(0).replace("_", " ").lower(), text)
        return _SNAKE_WORD.sub(lambda m: m.group(0).replace("_", " "), text)

    # -- seats ---------------------------------------------------------------------------------
    def seat(self, seat: str) -> str:
        """A seat by its player's (or role's) name."""
        name = seat
        if self.game is not None and self.state is not None:
            try:
                name = self.game.seat_name(self.state, seat)
            except (KeyError, IndexError, AttributeError):
                name = seat
        return self.players.get(seat, name) if name == seat else name

    def is_seat(self, value: Any) -> bool:
        if self.game is None or self.state is None or not isinstance(value, str):
            return False
        try:
            return value in self.game.seats(self.state)
        except (KeyError, AttributeError):
            return False

    # -- actions -------------------------------------------------------------------------------
    def action_title(self, kind: str) -> str:
        """What a button or menu entry of this action type says."""
        return self.ACTION_TITLES.get(kind) or sentence_case(words(kind))

    def param_label(self, kind: str, param: str) -> str:
        """What the step that picks ``param`` of a ``kind`` action is called."""
        return self.PARAM_LABELS.get(f"{kind}.{param}") or self.PARAM_LABELS.get(param) or words(param)

    def value(self, kind: str, param: str, value: Any) -> str:
        """A parameter's value as people say it."""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, Text):
            return value.hint
        if isinstance(value, IntRange):
            return f"a number from {value.lo} to {value.hi}"
        if isinstance(value, str):
            if self.is_seat(value):
                return self.seat(value)
            return self.VALUE_NAMES.get(value) or words(value)
        if isinstance(value, int | float):
            return str(value)
        if isinstance(value, list | tuple):
            return listing([self.value(kind, param, v) for v in value]) or "none"
        if isinstance(value, dict):
            return listing([f"{words(k)} {self.value(kind, k, v)}" for k, v in value.items()])
        return json.dumps(value, ensure_ascii=False)

    def detail(self, kind: str, param: str, value: Any) -> str | None:
        """What a component says on its face, shown beside its name when it is offered (a
        recruit's ability, a market's penalty); ``None`` when there is nothing more to say."""
        return None

    def effect(self, kind: str, param: str, value: Any) -> str | None:
        """What picking ``value`` for ``param`` does, said beside the option (DESIGN.md principle
        15): its cost, what it gives, what it risks, what it means in the fiction ("YES — by
        deeds", "costs 1 scarab", "+2 morale"); ``None`` when the name says it all. Only what the
        viewer may know."""
        return None

    def action_effect(self, action: Action) -> str | None:
        """What a whole action does, said beside its button or its confirm bar ("Arrive: costs 1
        scarab"); ``None`` when its sentence says it all. Only what the viewer may know."""
        return None

    # -- consequences (DESIGN.md principle 16) -------------------------------------------------
    QUIET_KEYS: frozenset[str] = frozenset({"text", "turn_number", "log", "story", "prompt", "clock", "steps"})
    """Keys of the view whose changes say nothing to a player (a text restating a number, a step
    counter); a game adds its own."""

    VIEW_WORDS: Mapping[str, str] = {}
    """A key of the game's view -> how a consequence calls it ("stars_left" -> "stars to place")."""

    PHASE_WORDS: Mapping[str, str] = {}
    """A phase id -> what comes next in it, said after "then" ("IDLE" -> "someone calls the next
    action"); by default "then you: " and the phase's title."""

    CHANGES_SAID = 10
    """At most this many changes are said; the rest are counted ("and 2 more")."""

    def consequence(self, action: Action, fields: Mapping[str, Any] | None = None) -> str | None:
        """What ``action`` does, said beside its option in every front end (DESIGN.md principles
        15 and 16): the hand-written effect (:meth:`action_effect`, or each value's
        :meth:`effect`) and then the computed one (:meth:`computed`, worded by
        :meth:`word_consequence`), without repeating. A template's fields are filled from
        ``fields`` (else their lowest value). ``None`` only without a game and state."""
        written = self.action_effect(action) or self.values_effect(action)
        said = None
        if self.game is not None and self.state is not None:
            found = self.computed(action, fields)
            said = self.word_consequence(found) if found is not None else None
        if written and said:
            kept = [short_of(written, c) or c for c in said.split("; ") if not restates(written, c)]
            said = "; ".join(kept) or None
        parts = [p for p in (written, said) if p]
        if written and said and said.lower() in written.lower():
            parts = [written]
        return "; ".join(dict.fromkeys(parts)) or None

    def field_default(self, action: Action, param: str, spec: Any) -> int:
        """The value a number field shows before anything is typed: the lowest by default; a game
        gives one that destroys nothing where the lowest would (all dice sent away)."""
        return int(spec.lo)

    def values_effect(self, action: Action) -> str | None:
        """The hand-written :meth:`effect` of each settled value of ``action``, in one line."""
        said = [
            self.effect(action.type, k, v)
            for k, v in action.args.items()
            if v is not None and not isinstance(v, Text | IntRange)
        ]
        return "; ".join(dict.fromkeys(e for e in said if e)) or None

    def computed(self, action: Action, fields: Mapping[str, Any] | None = None) -> Any:
        """The :class:`~ludica.core.consequence.Consequence` of ``action`` (fields filled from
        ``fields`` or their lowest value), computed once per namer (a namer lives one screen)."""
        from .consequence import filled_in, knowledge, remembered

        concrete = filled_in(action, fields)
        known: dict[str, str | None] = self.__dict__.setdefault("_known", {})
        if concrete.seat not in known:  # what the seat knows, written once per screen
            known[concrete.seat] = knowledge(self.game, self.state, concrete.seat)
        return remembered(self.game, self.state, concrete, known[concrete.seat])

    def word_consequence(self, found: Any) -> str | None:
        """A :class:`~ludica.core.consequence.Consequence` in words: each change the seat sees
        (:meth:`word_change`), the chance step that follows (:meth:`word_chance`), who decides
        next. Games override it (or :meth:`word_change`) to say it in the rulebook's words."""
        if found.refused:
            return f"not allowed: {self.say(found.refused)}"
        mine: list[str] = []
        theirs: list[str] = []
        self._found = found
        for change in grouped(found.changes):
            if self._quiet(change.path):
                continue
            said = self.word_change(change)
            if said:
                (theirs if self._owner(change.path, found) not in (None, self.viewer) else mine).append(said)
        parts = list(dict.fromkeys(mine + theirs))
        if len(parts) > self.CHANGES_SAID:
            parts = [*parts[: self.CHANGES_SAID - 1], f"and {len(parts) - self.CHANGES_SAID + 1} more changes"]
        at_stake = [self.word_unsure(path) for path in found.unsure if not self._quiet(path)]
        parts += [s for s in dict.fromkeys(at_stake) if s]
        if found.uncertain or None in at_stake:
            parts.append("the rest depends on what you cannot see")
        if found.over:
            parts.append("the game ends")
        elif found.chance is not None:
            parts.append(self.word_chance(found.chance))
        elif found.next_seats and found.action.seat not in found.next_seats:
            who = [self.seat(s) for s in found.next_seats]
            parts.append(f"then {listing(who)} {'decides' if len(who) == 1 else 'decide'}")
        elif found.next_phase and self.game is not None and found.next_phase != self._phase():
            parts.append(f"then {self.phase_words(found.next_phase)}")
        if not parts:
            parts.append(NOTHING_SEEN)
        return self.say("; ".join(parts))

    def _quiet(self, path: Sequence[str]) -> bool:
        """A leaf of the view under a key that says nothing to a player (:attr:`QUIET_KEYS`)."""
        return any(step in self.QUIET_KEYS for step in path)

    def word_unsure(self, path: Sequence[str]) -> str | None:
        """What is at stake in a leaf of the view the option changes in a way that depends on
        what the seat cannot see (:attr:`~ludica.core.consequence.Consequence.unsure`: a
        face-down tile turned face up): the rule, never the hidden value ("the market tile is
        turned face up"); ``""`` when another leaf's words say it, ``None`` when the game says
        nothing of it ("the rest depends on what you cannot see" is said instead)."""
        return None

    def phase_words(self, phase: str) -> str:
        """What the seat does next in ``phase``, said after "then": :data:`PHASE_WORDS`, else the
        title of the action of that name ("you: pay"), else "you decide again" (a phase id such as
        ``TIE_RAISE`` is never shown)."""
        said = self.PHASE_WORDS.get(phase)
        if said:
            return said
        if phase in self.ACTION_TITLES:
            return f"you: {_lower_title(self.ACTION_TITLES[phase])}"
        return "you decide again"

    def _phase(self) -> str:
        try:
            return str(self.game.pending(self.state).phase)
        except (KeyError, AttributeError, ValueError):
            return ""

    def _owner(self, path: Sequence[str], found: Any = None) -> str | None:
        owner = found.owner(path) if found is not None else None
        if owner is not None:
            return str(owner)
        for step in path:
            if step == "you":
                return self.viewer
            if self.is_seat(step):
                return step
        return None

    def view_word(self, key: str) -> str:
        """A key of the view as a consequence says it."""
        return self.VIEW_WORDS.get(key) or self.VALUE_NAMES.get(key) or words(key)

    def word_change(self, change: Any) -> str | None:
        """One changed leaf of the seat's view in words ("morale −1", "hand + Book", "phase:
        ties → scene"); ``None`` to leave it unsaid. The owner is named when it is another seat."""
        if change.path == ("phase",):
            return None  # what comes next is said by "then …"
        owner = self._owner(change.path, self._found)
        whose = f"{self.seat(owner)}'s " if owner is not None and owner != self.viewer else ""
        label = whose + self.view_word(change.key)
        entry = self._found.entry(change.path) if self._found is not None else None
        if entry is not None and change.key != "id":  # a field of a named entry: "Bo's Threat “…”: active"
            named = self.say(entry)
            label = f"{named}: {self.view_word(change.key)}" if named != entry else label
        delta = change.delta
        if delta is not None and change.before is not None:
            sign = "+" if delta > 0 else "−"
            return f"{label} {sign}{abs(delta)}"
        if isinstance(change.after, dict) or isinstance(change.before, dict):  # an entry came or went
            fields = change.after if isinstance(change.after, dict) else change.before
            sign = "+" if isinstance(change.after, dict) else "−"
            title = self.entry_name(fields)
            if title:
                return f"{label} {sign} {title}"
            shown = [self._item(k, v) for k, v in fields.items() if k not in self.QUIET_KEYS and k != "id"]
            shown = [v for v in shown if v and v not in ("none", "no", "…")]
            if all(v.isdigit() or v in ("yes", "roll") for v in shown):  # nothing a person reads
                return f"{label} {sign}1"
            return f"{label} {sign} {', '.join(shown)}"
        if change.added or change.removed:
            moved = [f"+ {self._item(change.key, a)}" for a in change.added]
            moved += [f"− {self._item(change.key, r)}" for r in change.removed]
            return f"{label} {', '.join(moved)}"
        if change.after is None:  # an unset field (None) that became an entry says nothing: its fields do
            return None if change.before is None else f"{label} gone"
        if isinstance(change.after, str) and len(change.after) > 60:
            return f"{label} changes"
        if change.before is None:
            return f"{label}: {self._item(change.key, change.after)}"
        return f"{label}: {self._item(change.key, change.before)} → {self._item(change.key, change.after)}"

    def entry_name(self, entry: Mapping[str, Any]) -> str | None:
        """How an entry that comes into (or leaves) a list of the view is named in a consequence:
        its name, else its text, else its id said as a name; ``None``: its fields are listed."""
        for key in ("name", "text"):
            value = entry.get(key)
            if isinstance(value, str) and value.strip() and value.strip() != "…":
                return self.say(value) if len(value) <= 60 else self.say(value[:59].rstrip()) + "…"
        ident = entry.get("id")
        if isinstance(ident, str) and self.say(ident) != ident:
            return self.say(ident)
        return None

    def _item(self, key: str, value: Any) -> str:
        if value is None:
            return "none"
        if isinstance(value, tuple):
            return listing([self._item(key, v) for v in value]) or "none"
        said = self.value("", key, value)
        if isinstance(value, str) and said == value and _UPPER_ID.fullmatch(value):
            return words(value).lower()  # "MORE_CARDS" -> "more cards"
        return said

    def word_chance(self, step: Any) -> str:
        """What is at stake when chance comes right after an option ("then 3 dice are rolled");
        games say the rule and the odds ("each 5–6 is a success")."""
        sides = getattr(step, "sides", None)
        what = words(step.type)
        if sides:
            kinds = sorted(set(sides))
            dice = "/".join(f"d{s}" for s in kinds)
            return f"then {what}: {len(sides)} {dice} rolled" if len(sides) != 1 else f"then {what}: one {dice}"
        if step.public:
            return f"then {what}, at random"
        return f"then {what}, at random and kept hidden"

    def settled_meaning(self, kind: str, param: str) -> bool:
        """True when a parameter filled silently by the composer (one legal value left) carries
        meaning and must be shown, not folded (a tie's sign, the trait a flip uses). By default
        every parameter but a worker's or die's number does."""
        return True

    def prompt(self, text: str, phase: str | None = None) -> str:
        """The pending decision's prompt as people read it: ids said as names, and an engine's
        ``key: value`` prompt ("answer: with") said as the decision's title ("Pay with")."""
        match = _KEY_VALUE.fullmatch(text.strip())
        if match is not None:
            kind = phase if phase and phase not in ("turn", "play") else match.group(1)
            title = self.action_title(kind)
            return (
                title
                if kind != match.group(1) or match.group(1) in self.ACTION_TITLES
                else sentence_case(f"{words(match.group(1))} {self.param_label(kind, match.group(2))}")
            )
        return self.say(text)

    def asked(self) -> bool:
        """True when this viewer is asked to decide now (its seat is waited for), False when it
        only *may* act while the table waits for others (Euthymia's "propose to change the
        Committee Member" at any time). By default a seat with legal actions is asked."""
        return True

    def situation(self) -> str | None:
        """What the pending decision is about, said at the top of the page for this viewer (the
        judgment of the pair on the table, the Conflict being fought); ``None``: nothing more
        than the prompt."""
        return None

    def about(self) -> Sequence[str]:
        """The parts of this viewer's text face (:meth:`~ludica.core.game.Game.render`) the
        pending decision is about, each named by how its first line starts (``"conflict:"``,
        ``"auction of"``, ``"Scene "``, the viewer's own mat): a part is that line and the
        indented lines under it. Every front end shows them first, beside the question
        (:meth:`context`); by default none (the :meth:`situation` alone)."""
        return ()

    def about_lines(self) -> Sequence[str]:
        """Like :meth:`about`, parts named by how their first line starts, but the line alone,
        without the indented lines under it (a seat's purse without its list of memories)."""
        return ()

    def context(self, face: str) -> list[str]:
        """What the pending decision is about, in lines for people: the :meth:`situation`, then
        the parts of ``face`` (the viewer's text face) that :meth:`about` and :meth:`about_lines`
        name, in the face's order, said with names. Empty when the game names nothing."""
        heads = tuple(h for h in self.about() if h)
        alone = tuple(h for h in self.about_lines() if h)
        lines = [s for s in [self.situation()] if s]
        if heads or alone:
            for block in face_blocks(face.splitlines()[1:]):
                if heads and block[0].startswith(heads):
                    lines.extend(self.say(row) for row in block)
                elif alone and block[0].startswith(alone):
                    lines.append(self.say(block[0]))
        return lines

    def group(self, kind: str, param: str, value: Any) -> str | None:
        """A heading under which ``value`` is offered when a step has many values (Euphoria's
        spaces by region); ``None`` for no grouping."""
        return None

    def sentence(self, action: Action) -> str:
        """The action as a sentence in the rulebook's words ("Ana places a worker on the Farm")."""
        who = self.seat(action.seat)
        parts = [f"{self.param_label(action.type, k)} {self.value(action.type, k, v)}" for k, v in action.args.items()]
        what = self.action_title(action.type).lower()
        return f"{who}: {what}" + (f" ({', '.join(parts)})" if parts else "")

    def choice_label(self, action: Action) -> str:
        """A button's text for one fully settled action of a choice."""
        parts = [self.value(action.type, k, v) for k, v in action.args.items() if not isinstance(v, Text | IntRange)]
        title = self.action_title(action.type)
        return f"{title}: {', '.join(parts)}" if parts else title


NOTHING_SEEN = "nothing you can see changes yet"
"""What a consequence says when nothing the seat sees changes (left out beside a hand-written effect)."""
_SIGNED = re.compile(r"^(?:(.+?) )?([+−-])(\d+)(?: (.+))?$")


def _stem(noun: str) -> str:
    noun = noun.strip().lower()
    for plural in ("ies", "es", "s"):
        if noun.endswith(plural) and len(noun) > len(plural) + 2:
            return noun[: -len(plural)]
    return noun


def restates(written: str, clause: str) -> bool:
    """True when a computed ``clause`` ("morale +2", "pays 1 scarab") says again what the
    hand-written ``written`` effect says ("+2 morale", "costs 1 scarab"): the same count of the
    same thing in the same direction."""
    text = written.lower()
    bare = clause.lower().removeprefix("then ")
    if bare in text or clause == NOTHING_SEEN:
        return True
    match = _SIGNED.match(clause.strip())
    paid = re.match(r"^(pays|gains) (\d+) (.+)$", clause.strip())
    if match is not None and bool(match.group(1)) != bool(match.group(4)):
        noun, sign, number = (match.group(1) or match.group(4)), match.group(2), match.group(3)
        spent = sign in "−-"
    elif paid is not None:
        noun, number, spent = paid.group(3), paid.group(2), paid.group(1) == "pays"
    else:
        return False
    stem = re.escape(_stem(noun))
    if spent:
        pattern = rf"(?:costs|pays|spends?|[−-]) ?{number} {stem}"
    else:
        pattern = rf"(?:\+|gains?|gets?|takes?) ?{number} {stem}"
    return re.search(pattern, text) is not None


def short_of(written: str, clause: str) -> str | None:
    """A computed ``clause`` ("morale +1") that counts less of the same thing, in the same
    direction, than the hand-written ``written`` effect says ("+2 morale"): said as what happens
    in fact ("in fact morale +1": a track at its top); ``None`` otherwise."""
    match = _SIGNED.match(clause.strip())
    if match is None or not match.group(1) or match.group(4):
        return None
    noun, sign, number = match.group(1), match.group(2), match.group(3)
    stem = re.escape(_stem(noun))
    said = re.search(rf"(?:^|[\s:;(])\{'+' if sign == '+' else '−'}(\d+) {stem}", written.lower())
    if said is None or said.group(1) == number:
        return None
    return f"in fact {clause}"


def _lower_title(title: str) -> str:
    """ "Pay with" -> "pay with"; "Launch a Conflict" keeps its capital noun."""
    return title[:1].lower() + title[1:] if title[1:2].islower() or len(title) == 1 else title


_UPPER_ID = re.compile(r"[A-Z]{4,}|[A-Z]+(?:_[A-Z]+)+")
"""An engine's upper-case value ("MORE_CARDS", "NORMAL")."""


def face_blocks(rows: Sequence[str]) -> list[list[str]]:
    """A text face's lines as its parts: a line and the indented lines under it."""
    blocks: list[list[str]] = []
    for row in rows:
        if blocks and row[:1] == " " and row.strip():
            blocks[-1].append(row)
        else:
            blocks.append([row])
    return blocks


def decision_context(match: Any, viewer: str | None) -> list[str]:
    """What the pending decision is about for ``viewer`` (:meth:`Namer.context` of its face), as
    both front ends show it first; empty for a spectator and at the end."""
    if viewer is None or match.pending().is_over:
        return []
    return namer_of(match, viewer).context(match.game.render(match.view(viewer)))


def grouped(changes: Sequence[Any]) -> list[Any]:
    """Changes as a person reads them: the fields of an entry that came into a list (or left it)
    as one change whose ``after`` (or ``before``) is the entry's fields; a list that was empty
    becoming walked by index is no change of its own."""
    from .consequence import Change

    entries: dict[tuple[str, ...], list[Any]] = {}
    for change in changes:
        index = next((i for i in range(len(change.path) - 1, 0, -1) if change.path[i].isdigit()), None)
        if index is not None and index == len(change.path) - 2:  # a field of the entry (a deeper one: its own change)
            entries.setdefault(change.path[: index + 1], []).append(change)
    whole = {
        prefix: members
        for prefix, members in entries.items()
        if all(c.before is None for c in members) or all(c.after is None for c in members)
    }
    out: list[Any] = []
    done: set[tuple[str, ...]] = set()
    for change in changes:
        if (change.before == () and change.after is None) or (change.before is None and change.after == ()):
            continue
        prefix = next((p for p in whole if change.path[: len(p)] == p), None)
        if prefix is None:
            out.append(change)
            continue
        if prefix in done:
            continue
        done.add(prefix)
        members = whole[prefix]
        came = all(c.before is None for c in members)
        fields = {c.path[-1]: (c.after if came else c.before) for c in members}
        out.append(Change(prefix[:-1], None if came else fields, fields if came else None))
    return out


RAW_ID = re.compile(r"(?<![\w$-])(p\d+|[a-ce-z]\d+|[a-z]+(?:_[A-Za-z0-9]+)+)(?![\w-])|\$text|\{'|\{\"|'\}|\[\"|\['")
"""What a text for people must not hold: seat and item ids (``p2``, ``c3``, ``m4``),
``snake_case`` ids, JSON or Python reprs. For tests (a game adds its own ids)."""


def raw_ids(text: str, extra: Sequence[str] = ()) -> list[str]:
    """The raw ids (see :data:`RAW_ID`) and ``extra`` ids found in ``text``."""
    found = [m.group(0) for m in RAW_ID.finditer(text)]
    for token in extra:
        if re.search(rf"(?<![\w$-]){re.escape(token)}(?![\w-])", text):
            found.append(token)
    return found


_PATTERNS: dict[tuple[str, ...], re.Pattern[str]] = {}
PATTERNS_KEPT = 64
"""At most this many patterns of id tables are kept (then all are forgotten)."""


def _ids_pattern(ids: tuple[str, ...]) -> re.Pattern[str]:
    """The pattern that finds any of ``ids`` in a text, longest first, made once per set of ids in
    this order (a namer is made anew for every viewer and step; its ids seldom change)."""
    pattern = _PATTERNS.get(ids)
    if pattern is None:
        alternatives = "|".join(re.escape(k) for k in sorted(ids, key=len, reverse=True))
        pattern = re.compile(rf"(?<![\w$-])({alternatives})(?![\w-])")
        if len(_PATTERNS) >= PATTERNS_KEPT:
            _PATTERNS.clear()
        _PATTERNS[ids] = pattern
    return pattern


def namer_of(match: Any, viewer: str | None) -> Namer:
    """The game's namer for ``viewer`` in a :class:`~ludica.core.match.Match`, knowing the players'
    names from the config (for games whose state keeps seats only)."""
    game, state = match.game, match.state
    seats = [s for s in game.seats(state) if s != game.meta.referee]
    namer = game.namer(state, viewer)
    namer.players = dict(zip(seats, match.config.players, strict=False))
    return namer
