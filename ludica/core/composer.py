"""Choices composed step by step: a decision offered as one choice per action type, whose
parameters are picked in turn from the values still legal given the earlier picks.

A game lists every legal action (DESIGN.md principle 7); a person should not face that list as a
wall. The composer groups the legal templates of one seat by action type (:func:`choices`), then
walks one choice parameter by parameter (:class:`Composition`): at each step it says which
parameter to pick next and which values are still legal (:class:`Ask`), or that a value must be
typed (a :class:`~ludica.core.actions.Text` or :class:`~ludica.core.actions.IntRange` field).
A parameter whose value is already settled by the earlier picks is filled in silently, so a
choice with one instance is one button.

Written once here and used by every front end (the terminal, the web table) and by tools::

    >>> from ludica.core.actions import Action
    >>> legal = [Action("p1", "place", {"worker": 1, "space": "farm"}),
    ...          Action("p1", "place", {"worker": 1, "space": "mine"}),
    ...          Action("p1", "place", {"worker": 3, "space": "farm"}),
    ...          Action("p1", "end_turn")]
    >>> [c.type for c in choices(legal)]
    ['place', 'end_turn']
    >>> step = Composition(choices(legal)[0])
    >>> step.ask()
    Ask(param='worker', values=(1, 3), field=None)
    >>> step = step.pick("worker", 3)
    >>> step.ask() is None, step.action()
    (True, Action('p1 place worker=3 space=farm'))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, IntRange, ParamSpec, Text, same_value

_FIELD_TYPES = (Text, IntRange)


def _is_field(value: Any) -> bool:
    return type(value) in _FIELD_TYPES


def accepts(spec: ParamSpec, value: Any) -> bool:
    """True when a typed ``value`` fits the field ``spec`` (the same test as :func:`matches`)."""
    if isinstance(spec, Text):
        return spec.accepts(value)
    return isinstance(value, int) and not isinstance(value, bool) and spec.lo <= value <= spec.hi


@dataclass(frozen=True, slots=True)
class Choice:
    """Every legal template of one action type, for one seat: one entry of a decision."""

    type: str
    seat: str
    templates: tuple[Action, ...]
    params: tuple[str, ...]
    """The parameters in the order the game declares them (first template first)."""

    @property
    def single(self) -> bool:
        """True when the choice has one instance and nothing to type: one button."""
        return len(self.templates) == 1 and not self.templates[0].is_template


@dataclass(frozen=True, slots=True)
class Ask:
    """The next parameter to pick: the concrete values still legal, and a field when a value
    may (also) be typed."""

    param: str
    values: tuple[Any, ...]
    field: ParamSpec | None = None

    @property
    def size(self) -> int:
        """How many options a person sees for this step (a field counts as one)."""
        return len(self.values) + (1 if self.field is not None else 0)


def choices(legal: Iterable[Action]) -> list[Choice]:
    """The legal actions of one seat grouped by type, in the order the game lists them."""
    groups: dict[tuple[str, str], list[Action]] = {}
    for template in legal:
        groups.setdefault((template.seat, template.type), []).append(template)
    out = []
    for (seat, kind), templates in groups.items():
        params: list[str] = []
        for template in templates:
            params.extend(k for k in template.args if k not in params)
        out.append(Choice(kind, seat, tuple(templates), tuple(params)))
    return out


def _unique(values: Iterable[Any]) -> tuple[Any, ...]:
    out: list[Any] = []
    for value in values:
        if not any(same_value(value, seen) for seen in out):
            out.append(value)
    return tuple(out)


def _merge_fields(specs: Sequence[ParamSpec]) -> ParamSpec | None:
    if not specs:
        return None
    ints = [s for s in specs if isinstance(s, IntRange)]
    if len(ints) == len(specs):
        return IntRange(min(s.lo for s in ints), max(s.hi for s in ints))
    return specs[0]


@dataclass(frozen=True, slots=True)
class Composition:
    """A choice being composed: the picks so far and the templates they still allow. A value:
    :meth:`pick` returns a new composition."""

    choice: Choice
    picks: tuple[tuple[str, Any], ...] = ()
    remaining: tuple[Action, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.remaining and not self.picks:
            object.__setattr__(self, "remaining", self.choice.templates)

    @property
    def picked(self) -> dict[str, Any]:
        return dict(self.picks)

    def _values(self, param: str) -> tuple[tuple[Any, ...], list[ParamSpec]]:
        concrete = [t.args.get(param) for t in self.remaining if not _is_field(t.args.get(param))]
        fields = [t.args[param] for t in self.remaining if _is_field(t.args.get(param))]
        return _unique(concrete), fields

    def settled(self, param: str) -> tuple[bool, Any]:
        """``(True, value)`` when every remaining template gives ``param`` the same concrete value."""
        values, fields = self._values(param)
        if not fields and len(values) == 1:
            return True, values[0]
        return False, None

    def ask(self) -> Ask | None:
        """The next parameter a person must pick or type, or ``None`` when the action is complete."""
        done = self.picked
        for param in self.choice.params:
            if param in done or self.settled(param)[0]:
                continue
            values, fields = self._values(param)
            unique_fields = _unique(fields)
            return Ask(param, values, _merge_fields(list(unique_fields)))
        return None

    def pick(self, param: str, value: Any) -> Composition:
        """The composition with ``param`` set to ``value``; :class:`ValueError` if no legal action
        allows it (the composition itself is unchanged)."""
        if param not in self.choice.params:
            raise ValueError(f"{self.choice.type} has no parameter {param!r}")
        if param in self.picked:
            raise ValueError(f"{param!r} is already chosen")
        kept = tuple(t for t in self.remaining if _allows(t.args.get(param), value))
        if not kept:
            raise ValueError(f"{value!r} is not a legal {param} here")
        return Composition(self.choice, (*self.picks, (param, value)), kept)

    def action(self) -> Action:
        """The finished action (every parameter picked or settled). :class:`ValueError` if a
        parameter is still open."""
        open_step = self.ask()
        if open_step is not None:
            raise ValueError(f"choose {open_step.param} first")
        template = self.remaining[0]
        args = {k: v for k, v in template.args.items()}
        args.update(self.picked)
        return Action(self.choice.seat, self.choice.type, args)

    def back(self) -> Composition:
        """The composition before the last pick (itself when nothing is picked)."""
        if not self.picks:
            return self
        restart = Composition(self.choice)
        for param, value in self.picks[:-1]:
            restart = restart.pick(param, value)
        return restart


def _allows(template_value: Any, value: Any) -> bool:
    if _is_field(template_value):
        return accepts(template_value, value)
    return same_value(template_value, value)


def start(choice: Choice) -> Composition:
    return Composition(choice)


def completions(composition: Composition, typed: Any = None) -> Iterator[Action]:
    """Every action reachable from ``composition`` by picking listed values; each field is
    filled by ``typed(spec)`` (a function giving an accepted value) or skipped when ``None``.
    For tests and tools: the composer offers exactly the legal actions."""
    step = composition.ask()
    if step is None:
        yield composition.action()
        return
    for value in step.values:
        yield from completions(composition.pick(step.param, value), typed)
    if step.field is not None and typed is not None:
        for spec in _unique([t.args[step.param] for t in composition.remaining if _is_field(t.args.get(step.param))]):
            yield from completions(composition.pick(step.param, typed(spec)), typed)


def largest_step(legal: Sequence[Action]) -> int:
    """The most options a person sees at once while composing any action of ``legal``: the
    number of choices, or the widest parameter step."""
    found = len(choices(legal))
    for choice in choices(legal):
        found = max(found, _widest(Composition(choice)))
    return found


def _widest(composition: Composition) -> int:
    step = composition.ask()
    if step is None:
        return 0
    widest = step.size
    for value in step.values:
        widest = max(widest, _widest(composition.pick(step.param, value)))
    return widest


def note(namer: Any, kind: str, param: str, value: Any) -> str | None:
    """What every front end says beside an option (DESIGN.md principle 15): what the component
    says on its face (``namer.detail``) and what picking it does (``namer.effect``), in one line;
    ``None`` when the option's name says it all. ``namer`` is a :class:`ludica.core.names.Namer`."""
    parts = [namer.detail(kind, param, value), namer.effect(kind, param, value)]
    said = [p for p in parts if p]
    return " — ".join(dict.fromkeys(said)) if said else None


def option_note(namer: Any, composition: Composition, param: str, value: Any) -> str | None:
    """What every front end says beside one option of a composer step: :func:`note`, and, when
    picking ``value`` completes the action, the action's consequence (``namer.consequence``: the
    hand-written effect and the one computed by the rules, DESIGN.md principle 16)."""
    said = [note(namer, composition.choice.type, param, value)]
    try:
        after = composition.pick(param, value)
    except ValueError:
        after = None
    if after is not None and after.ask() is None:
        said.append(namer.consequence(after.action()))
    elif after is not None and only_text_left(after):  # what is left is a text to write: its words change nothing
        said.append(namer.consequence(after.remaining[0], after.picked))
    elif after is not None:
        said.append(leads_to(namer, after))
    parts = [p for p in said if p]
    if len(parts) == 2 and parts[0] in parts[1]:
        return parts[1]
    return " — ".join(dict.fromkeys(parts)) if parts else None


LOOKAHEAD = 6
"""At most this many completed actions are worded to say what a step that does not complete an
action leads to (:func:`leads_to`)."""


def leads_to(namer: Any, composition: Composition) -> str | None:
    """What choosing a value that does not complete the action leads to: the consequence common
    to every action it still allows (all of them when it is the same; the clauses they share
    otherwise, checked on the first :data:`LOOKAHEAD`), then the choice that remains ("then
    choose the target")."""
    step = composition.ask()
    if step is None:
        return None
    label = namer.param_label(composition.choice.type, step.param)
    actions = list(_first(completions(composition), LOOKAHEAD))
    if not actions:  # only typed fields are left: the first template, its fields filled
        actions = [composition.remaining[0]]
        texts = [namer.consequence(composition.remaining[0], composition.picked)]
    else:
        texts = [namer.consequence(a) for a in actions]
    said = [t for t in texts if t]
    rest = f"then choose: {label} ({step.size} options)" if step.size > 1 else f"then choose: {label}"
    if not said:
        return rest
    if len(said) == len(texts) and len(set(said)) == 1 and len(actions) == 1:
        return said[0]
    first = said[0].split("; ")
    common = [c for c in first if all(c in other.split("; ") for other in said[1:])] if len(said) == len(texts) else []
    common = [c for c in common if not c.startswith(("then ", "the rest depends", "the game ends"))]  # after it all
    return "; ".join([*common, rest])


def _first(actions: Iterator[Action], n: int) -> Iterator[Action]:
    for i, action in enumerate(actions):
        if i >= n:
            return
        yield action


def only_text_left(composition: Composition) -> bool:
    """What is left to settle is one text (narration, a name): its words change nothing the
    rules do, so the action's consequence is known already."""
    step = composition.ask()
    if step is None or step.values or not isinstance(step.field, Text) or len(composition.remaining) != 1:
        return False
    template = composition.remaining[0]
    open_params = [k for k in composition.choice.params if k not in composition.picked]
    return all(isinstance(template.args.get(k), Text) or composition.settled(k)[0] for k in open_params)


def choice_note(namer: Any, choice: Choice) -> str | None:
    """What a front end says beside a choice that is one button (:attr:`Choice.single`): its
    consequence; ``None`` for a choice that opens step by step (its steps say theirs)."""
    return namer.consequence(choice.templates[0]) if choice.single else None


def filled(before: Composition, after: Composition, picked: str | None = None) -> list[tuple[str, Any]]:
    """The parameters that picking one value (``picked``) filled at once, silently: those settled
    in ``after`` that were open in ``before``. A front end shows them (with their meaning) beside
    the option instead of folding them away, and asks to confirm when there are several."""
    out = []
    for param in after.choice.params:
        if param == picked or param in after.picked:
            continue
        was, _ = before.settled(param)
        now, value = after.settled(param)
        if now and not was and value is not None and not _is_field(value):
            out.append((param, value))
    return out


PAGE = 12
"""The most options a front end shows at once; a wider step is split by group, then by page."""


Section = tuple[str | None, tuple[Any, ...]]


def sections(
    values: Sequence[Any], group_of: Callable[[Any], str | None] | None = None, limit: int = PAGE
) -> list[Section]:
    """``values`` split for showing: one untitled section when they fit in ``limit``; else by
    ``group_of(value)`` (a heading, e.g. a board region) when that helps; every section longer
    than ``limit`` is cut into pages ("… 2/3")."""
    if len(values) <= limit:
        return [(None, tuple(values))]
    grouped: dict[str | None, list[Any]] = {}
    if group_of is not None:
        for value in values:
            grouped.setdefault(group_of(value), []).append(value)
    if len(grouped) <= 1:
        grouped = {None: list(values)}
    out: list[Section] = []
    for heading, members in grouped.items():
        pages = [members[i : i + limit] for i in range(0, len(members), limit)]
        for n, page in enumerate(pages, 1):
            title = heading if len(pages) == 1 else f"{heading or 'more'} {n}/{len(pages)}"
            out.append((title, tuple(page)))
    return out
