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
_SUCCESSES = re.compile(r"(?<![\w.,])(\d+) success\b(?!es)")
"""``"2 success"`` -> ``"2 successes"`` (the count of success dice, not the outcome)."""
_THE_THE = re.compile(r"\b([Tt])he the\b")
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
        text = _QUOTED_TWICE.sub(r"“\1”", text)
        text = _NUMBER_LIST.sub(lambda m: m.group(1) or "none", text)
        text = _NAME_TWICE.sub(r"\1", text)
        text = _THE_THE.sub(r"\1he", text)
        text = _PLURAL_S.sub(_plural, text)
        text = _SUCCESSES.sub(lambda m: m.group(0) if m.group(1) == "1" else f"{m.group(1)} successes", text)
        text = _ONE_PLURAL.sub(r"\1 \2", text)
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
