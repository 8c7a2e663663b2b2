"""Each game's face: the HTML a seat sees, rendered on the server with Jinja.

**The plugin convention.** A game may bring ``web/view.html`` inside its package
(``ludica/games/<package>/web/view.html``, found with :mod:`importlib.resources` from the module the
registry names for the game). It is a Jinja template rendered with:

``view``         the seat's view, exactly ``match.view(seat)`` (JSON: dicts, lists, scalars);
``seat``         the seat id (``None`` for spectators and the host);
``seat_names``   ``{seat id: person-friendly name}``;
``pending``      ``match.pending().to_json()``;
``meta``         ``game.meta.to_json()``;
``generic``      a macro module: ``{{ generic.value(x) }}`` renders any JSON value plainly;
``data``         the game's static component facts, if its ``web`` package defines ``face_data()``
                 (texts printed on cards and boards that no view carries; never state, never secret).

A game's ``web`` package may also define ``face_input(view, pending)``: what of these its face
reads (for instance the view without a key the face never shows). The table keys a seat's kept
page by it instead of by the whole view and pending decision, so a step that changes only what
the face does not read gives the seat its page as it was, without running the template
(:func:`face_input`). Two equal inputs (values of the same types, :func:`value_key`) must draw
the same page for the same seat and names; without the function, the whole view and the pending
decision are the input.

Filters beyond Jinja's: ``humanize``, ``compact``, and ``cos``/``sin`` (radians) for drawing.

``part`` (optional, for speed): ``{% call part("mat-" ~ s, s, p, s == seat, seat_names) %}…{% endcall %}``
draws its body, or gives back the body it drew when it was last called with the same name and
inputs (equal as values of the same types: :func:`part_key`). The inputs must hold everything
the body reads (a macro's arguments, the ``view`` values, ``seat_names`` when it names a seat,
and what it reads of ``seat``); a part whose inputs did not change is not drawn again at the
next step (:class:`Parts`). The table keeps one store of parts per room (:class:`PartStore`),
shared by its seats: a part whose inputs do not name the seat is drawn once for all of them. The
test ``mentioning`` tells whether a value holds a seat anywhere (``seat if taken is
mentioning(seat) else none``: a region where the seat has no worker reads nothing of it).

A game without a template gets the generic renderer: nested objects become definition lists,
lists of objects with the same keys become tables, other lists become lists. Autoescaping is
always on. Only ``match.view(seat)`` and ``match.story(seat)`` ever reach a template.
"""

from __future__ import annotations

import importlib
import json
import math
import pickle
import re
from collections.abc import Callable, MutableMapping
from functools import cache
from html import escape, unescape
from importlib import resources
from pathlib import Path
from types import BuiltinFunctionType
from typing import Any, Generic, TypeVar

import markupsafe
from jinja2 import ChoiceLoader, Environment, FileSystemLoader, FunctionLoader, Template, select_autoescape
from jinja2.runtime import Context, Macro, Undefined
from markupsafe import Markup

from ..core import CHANCE, Action, Game, IntRange, Pick, Roll, Shuffle, Text
from ..core.chance import ChanceStep
from ..core.composer import Composition, choices, filled, option_note, sections
from ..core.consequence import field_values
from ..core.names import Namer
from ..core.registry import EXAMPLES, GAME_MODULES

TEMPLATES = Path(__file__).parent / "templates"
GAME_PREFIX = "game:"


def game_package(game: Game[Any]) -> str:
    """The package of a game (where its ``web/`` folder lives)."""
    name = GAME_MODULES.get(game.meta.id) or EXAMPLES.get(game.meta.id)
    if name is not None:
        return name
    module = type(game).__module__
    parts = module.split(".")
    return ".".join(parts[:3]) if module.startswith("ludica.games.") else module


def _load_game_template(name: str) -> str | None:
    if not name.startswith(GAME_PREFIX):
        return None
    package = name[len(GAME_PREFIX) :]
    try:
        path = resources.files(package) / "web" / "view.html"
        return path.read_text(encoding="utf-8") if path.is_file() else None
    except (ImportError, OSError, TypeError):  # no package, no web/ folder: the generic face
        return None


def _humanize(word: str) -> str:
    return str(word).replace("_", " ").strip()


_RULE = r"(?:R|HR|MB|EU|LD)-[A-Z]*-?R?\d+[a-z]?"
_RULE_ID = re.compile(rf"\s*\((?:see )?{_RULE}\)|\b{_RULE}:?\s*")


def _plain(value: Any) -> str:
    """A value for people on a page that is not a rules page: ``True`` -> "yes", ``rotate_left`` ->
    "rotate left", ``BOTTLE_UNITS`` -> "Bottle units", rule ids (``R-GC-03``) left to the rules."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = _RULE_ID.sub(" ", _WHOLE_RULE.sub("", str(value))).replace("_", " ").strip()
    text = text.removeprefix("HOUSE RULE").strip()
    return text.capitalize() if text.isupper() else text


_LABEL_WORDS = {"hr": "", "cm": "Committee Member", "gm": "GM", "s": "(seconds)"}
"""Abbreviations in option names: ``hr_`` is dropped (the lobby marks a house rule itself)."""
_WHOLE_RULE = re.compile(rf"\s*\((?:[^()]|\([^()]*\))*{_RULE}(?:[^()]|\([^()]*\))*\)")
"""A parenthesis that cites a rule ("(reading (B) of R-GC-27)"): a rules page's business."""


def _option_label(name: str) -> str:
    """An option's name as a lobby label: ``hr_scene_guard`` -> "Scene guard", ``CM_PASS_MODE`` ->
    "Committee Member pass mode", ``FINAL_ROUND_AT_S`` -> "Final round at (seconds)"."""
    parts = [_LABEL_WORDS.get(w, w) for w in name.lower().split("_")]
    text = " ".join(p for p in parts if p)
    return text[:1].upper() + text[1:]


def _is_table(value: Any) -> bool:
    if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
        return False
    keys = list(value[0])
    return (
        bool(keys)
        and all(list(v) == keys for v in value)
        and all(not isinstance(x, dict | list) for v in value for x in v.values())
    )


def _compact(value: Any) -> str:
    """A short label for an argument value of an action."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


_DICT_ATTRIBUTES = frozenset(dir(dict))

_PLAIN_CALLABLES: frozenset[type] = frozenset({Macro, BuiltinFunctionType})
"""Callables that never take Jinja's context, evaluation context or environment: a template's
macros (``Macro`` has no ``jinja_pass_arg``), built-in functions and methods (``dict.get``,
``dict.items``: no attribute can be set on them) and the table's ``part`` (:class:`Parts`, added
below where it is defined)."""


class _Context(Context):
    """Jinja's context, calling a macro or a built-in method (``seat_names.get``) at once: Jinja
    asks every callable whether it wants the context passed (four attribute lookups a call, a
    few thousand calls a page), which these never do. The same call and the same result."""

    def call(__self, __obj: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if type(__obj) not in _PLAIN_CALLABLES:
            return super().call(__obj, *args, **kwargs)
        kwargs.pop("_block_vars", None)
        kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:  # as Jinja answers it
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception"
            )


_escape_text: Callable[[str], str] | None = getattr(markupsafe, "_escape_inner", None)
"""markupsafe's own escaping of a ``str`` (what :func:`markupsafe.escape` calls), if this
markupsafe has it under that name; else every value goes through :func:`markupsafe.escape`."""
_new_str = str.__new__


def _escape(value: Any) -> Markup:
    """:func:`markupsafe.escape`, the same text, for what a template writes under every
    ``{{ }}``: a ``str`` is escaped by markupsafe's own function and made a :class:`Markup`
    without ``Markup.__new__`` (a Python-level call that looks for ``__html__``), a ``Markup`` is
    returned as it is (``escape`` makes an equal copy) and an ``int`` (its text has nothing to
    escape) is written as its text; anything else goes to markupsafe."""
    kind = type(value)
    if kind is str and _escape_text is not None:
        return _new_str(Markup, _escape_text(value))  # type: ignore[no-any-return]
    if kind is Markup:
        return value  # type: ignore[no-any-return]
    if kind is int:
        return _new_str(Markup, int.__repr__(value))  # type: ignore[no-any-return]
    return markupsafe.escape(value)


class _Template(Template):
    """A template of the table's environment: its compiled code escapes with :func:`_escape`
    (Jinja binds markupsafe's ``escape`` in each template's namespace)."""

    @classmethod
    def _from_namespace(
        cls, environment: Environment, namespace: MutableMapping[str, Any], globals: MutableMapping[str, Any]
    ) -> Template:
        if namespace.get("escape") is markupsafe.escape:
            namespace["escape"] = _escape
        return super()._from_namespace(environment, namespace, globals)  # type: ignore[misc,no-any-return]


class _Environment(Environment):
    """Jinja's environment, reading ``view.key`` of a plain dict (what every view is made of)
    without first failing to find an attribute of that name: the same value, without the cost
    of an exception per lookup."""

    context_class = _Context
    template_class = _Template

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


@cache
def environment() -> Environment:
    env = _Environment(
        loader=ChoiceLoader([FileSystemLoader(str(TEMPLATES)), FunctionLoader(_load_game_template)]),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # templates are read once per process: no file check on every render
    )
    env.filters["humanize"] = _humanize
    env.filters["compact"] = _compact
    env.filters["plain"] = _plain
    env.filters["option_label"] = _option_label
    env.filters["cos"] = math.cos
    env.filters["sin"] = math.sin
    env.filters["pick"] = _pick
    env.tests["table_like"] = _is_table
    env.tests["mapping"] = lambda v: isinstance(v, dict)
    env.tests["sequence_list"] = lambda v: isinstance(v, list)
    env.tests["mentioning"] = mentioning
    return env


key_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=repr).encode
"""``json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)``, the same text,
from one encoder made once (``json.dumps`` with any argument makes an encoder at every call)."""
plain_json = json.JSONEncoder(ensure_ascii=False, default=repr).encode
"""``json.dumps(value, ensure_ascii=False, default=repr)``, from one encoder made once."""


Key = bytes | str
"""What :func:`value_key` makes of a value."""


def value_key(value: Any) -> Key:
    """A value as a key, to tell whether the input of a rendering changed (a seat's view, a
    part's inputs): its pickle, which tells ``1``, ``1.0`` and ``True`` apart as JSON does, in a
    fraction of the time JSON takes. Equal pickles unpickle to equal values of the same types;
    equal values may pickle apart (a tuple and a list, objects shared differently), which only
    draws again. A value that does not pickle is keyed by its JSON (:data:`key_json`)."""
    try:
        return pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return key_json(value)


def part_key(inputs: tuple[Any, ...]) -> Key:
    """A part's inputs as a key (:func:`value_key`); an undefined input (``p.hidden`` of a mat
    that has none) is one value whatever it was read from, as its JSON (``"Undefined"``) was."""
    return value_key(tuple(... if type(i) is Undefined else i for i in inputs))


def mentioning(value: Any, seat: str | None) -> bool:
    """True when ``seat`` is a string somewhere in ``value`` (a dict's keys and values, a list's
    items, at any depth); never for no seat. (Read in ``value``'s JSON, where a string equal to
    the seat is the seat's own JSON between two delimiters: a key or a value that only looks like
    it, such as a number, at worst counts as the seat, which makes a part less shared, never
    wrong.)"""
    if seat is None:
        return False
    return plain_json(seat) in plain_json(value)


def _pick(mapping: Any, keys: Any) -> list[Any]:
    """``mapping | pick(keys)``: the values of ``keys`` in ``mapping``, in order (None where
    absent; an empty list when ``mapping`` is not a dict)."""
    return [mapping.get(k) for k in keys] if isinstance(mapping, dict) else []


def game_template(game: Game[Any]) -> Template:
    """The game's own ``web/view.html`` if it has one, else the generic face (looked up once)."""
    return _template_of(game_package(game))


@cache
def _template_of(package: str) -> Template:
    env = environment()
    if _load_game_template(GAME_PREFIX + package) is not None:
        return env.get_template(GAME_PREFIX + package)
    return env.get_template("generic_view.html")


@cache
def _face_data_of(package: str) -> dict[str, Any]:
    try:
        module = importlib.import_module(package + ".web")
    except ImportError:
        return {}
    provider = getattr(module, "face_data", None)
    return dict(provider()) if callable(provider) else {}


def face_data(game: Game[Any]) -> dict[str, Any]:
    """The static component facts a game's face may read as ``data`` (see the module docstring)."""
    return _face_data_of(game_package(game))


FaceInput = Callable[[dict[str, Any], dict[str, Any]], Any]
"""A game's ``web.face_input(view, pending)``: what its face reads of them."""


@cache
def _face_input_of(package: str) -> FaceInput | None:
    try:
        module = importlib.import_module(package + ".web")
    except ImportError:
        return None
    reads = getattr(module, "face_input", None)
    return reads if callable(reads) else None


def face_input(game: Game[Any]) -> FaceInput | None:
    """The game's ``face_input`` (see the module docstring), or None: its face reads all of the
    view and of the pending decision."""
    return _face_input_of(game_package(game))


def has_own_face(game: Game[Any]) -> bool:
    return _load_game_template(GAME_PREFIX + game_package(game)) is not None


PARTS_KEPT = 256
"""At most this many parts are kept for one seat (then all are forgotten and drawn again)."""


K = TypeVar("K")
V = TypeVar("V")


class Generations(Generic[K, V]):
    """What one room keeps for all its seats (parts drawn, parts said), for two generations
    (:meth:`turn`, once per step something is drawn at): what nothing used at the last
    generation is forgotten, so the store holds about two steps' worth."""

    __slots__ = ("before", "now", "stamp")

    def __init__(self) -> None:
        self.now: dict[K, V] = {}
        self.before: dict[K, V] = {}
        self.stamp: Any = None

    def turn(self, stamp: Any) -> None:
        """Begin the generation of ``stamp`` (nothing when it is the current one)."""
        if stamp != self.stamp:
            self.before, self.now, self.stamp = self.now, {}, stamp

    def get(self, key: K) -> V | None:
        value = self.now.get(key)
        if value is None:
            value = self.before.pop(key, None)
            if value is not None:
                self.now[key] = value
        return value

    def put(self, key: K, value: V) -> None:
        self.now[key] = value

    def clear(self) -> None:
        self.now.clear()
        self.before.clear()


Slot = tuple[str, Key]
"""A part's name and its inputs as a key (:func:`value_key`)."""


class PartStore(Generations[Slot, tuple[str, tuple[Slot, ...]]]):
    """The parts drawn for one room, shared by all its seats: each body kept under its name and
    its inputs (:func:`part_key`), with the parts drawn inside it (kept as long as it is: a body given back
    whole does not look them up). Equal inputs make equal bodies whichever seat draws them (the
    inputs hold all that the body reads, what it reads of the seat included), so a seat is never
    given a body drawn from another seat's view unless its own view gives the same inputs."""

    __slots__ = ()

    def keep(self, slots: tuple[Slot, ...]) -> None:
        """Keep these parts (and the parts inside them) in the current generation."""
        for slot in slots:
            found = self.get(slot)
            if found is not None and found[1]:
                self.keep(found[1])


class Parts:
    """``part`` in a face template: each part's body kept with the inputs it was drawn from.

    ``held`` is the store: the seat's (``{name: (inputs, body)}``, the last body of each name),
    or the room's :class:`PartStore` (every seat's, by name and inputs); without one every body
    is drawn (tests, exports). A body is reused only when its name and its inputs (:func:`part_key`) are
    the same as when it was drawn, so a face drawn in parts is the face drawn whole. A part may
    hold parts: drawn again, it looks them up. ``drawn`` lists the outermost parts of the last
    page in their order (the table says each one in names once,
    :func:`ludica.table.render_cache.say_page`)."""

    __slots__ = ("depth", "drawn", "fell_back", "held", "inner")

    def __init__(self, held: dict[str, tuple[Key, str]] | PartStore | None = None) -> None:
        self.held = held
        self.drawn: list[str] = []
        self.depth = 0
        self.fell_back = False
        """True when the game's face broke and the page is the generic face (:func:`render_view`)."""
        self.inner: list[Slot] = []
        """The parts looked up inside the part being drawn (a room's store keeps them with it)."""

    def __call__(self, name: str, *inputs: Any, caller: Any) -> str:
        held = self.held
        if held is None:
            return caller()  # type: ignore[no-any-return]
        key = part_key(inputs)
        if isinstance(held, PartStore):
            slot = (name, key)
            found = held.get(slot)
            if found is None:
                outer, self.inner = self.inner, []
                try:
                    text = self._draw(caller)
                    held.put(slot, (text, tuple(self.inner)))
                finally:
                    self.inner = outer
            else:
                text = found[0]
                if found[1]:
                    held.keep(found[1])
            if self.depth:
                self.inner.append(slot)
        else:
            kept = held.get(name)
            if kept is not None and kept[0] == key:
                text = kept[1]
            else:
                text = self._draw(caller)
                if len(held) >= PARTS_KEPT:
                    held.clear()
                held[name] = (key, text)
        if not self.depth:
            self.drawn.append(text)
        return _new_str(Markup, text)  # type: ignore[no-any-return]  # Markup(text), without its Python-level __new__

    def _draw(self, caller: Any) -> str:
        self.depth += 1
        try:
            return str(caller())  # kept as plain text (the same object at every reuse)
        finally:
            self.depth -= 1


_PLAIN_CALLABLES |= {Parts}


def face_context(
    game: Game[Any],
    view: dict[str, Any],
    seat: str | None,
    seat_names: dict[str, str],
    pending: dict[str, Any],
    parts: Parts | None = None,
) -> dict[str, Any]:
    """What a face template is rendered with (see the module docstring)."""
    return {
        "view": view,
        "seat": seat,
        "seat_names": seat_names,
        "pending": pending,
        "meta": game.meta.to_json(),
        "generic": _table_template("_generic.html").module,
        "data": face_data(game),
        "part": parts or Parts(),
    }


def render_face(
    game: Game[Any],
    view: dict[str, Any],
    seat: str | None,
    seat_names: dict[str, str],
    pending: dict[str, Any],
    parts: Parts | None = None,
) -> str:
    """The game's face (its own, or the generic one) for this view; raises if the face breaks
    (what a face's tests want: :func:`render_view` would fall back instead). ``parts``: the
    seat's drawn parts (:class:`Parts`)."""
    return render_template(game_template(game), face_context(game, view, seat, seat_names, pending, parts))


def render_view(
    game: Game[Any],
    view: dict[str, Any],
    seat: str | None,
    seat_names: dict[str, str],
    pending: dict[str, Any],
    parts: Parts | None = None,
) -> str:
    """The game's face for this view; a game's face that breaks on some view falls back to the
    generic face (and forgets the parts it drew: they may be half drawn)."""
    try:
        return render_face(game, view, seat, seat_names, pending, parts)
    except Exception:  # a game's face that breaks on some view falls back to the generic face
        if parts is not None:
            parts.fell_back = True
            if parts.held is not None:
                parts.held.clear()
                parts.drawn.clear()
        context = face_context(game, view, seat, seat_names, pending)
        return render_template(_table_template("generic_view.html"), context)


_MARKUP = re.compile(r"(<style\b.*?</style>|<script\b.*?</script>|<[^>]*>)", re.S | re.I)


def say_html(page: str, namer: Namer) -> str:
    """A rendered face with every id in its text said as its name for the viewer (tags, styles
    and scripts are left as they are; ids in attributes stay for the page's own use)."""
    parts = _MARKUP.split(page)
    for i in range(0, len(parts), 2):
        if parts[i].strip():
            parts[i] = escape(namer.say(unescape(parts[i])))
    return "".join(parts)


# -- legal actions as forms ----------------------------------------------------------------------
def action_forms(legal: list[Action]) -> list[dict[str, Any]]:
    """The legal actions grouped by type, each with its fixed values and its fields."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for index, template in enumerate(legal):
        fixed = {k: v for k, v in template.args.items() if not isinstance(v, Text | IntRange)}
        fields = [_field(k, v) for k, v in template.args.items() if isinstance(v, Text | IntRange)]
        label = ", ".join(f"{_humanize(k)} {_compact(v)}" for k, v in fixed.items())
        groups.setdefault(template.type, []).append(
            {"index": index, "type": template.type, "label": label, "fields": fields}
        )
    return [{"type": kind, "items": items} for kind, items in groups.items()]


def _field(name: str, spec: Text | IntRange) -> dict[str, Any]:
    if isinstance(spec, IntRange):
        return {"name": name, "kind": "int", "min": spec.lo, "max": spec.hi, "hint": _humanize(name)}
    prefix = getattr(spec, "prefix", "")
    return {"name": name, "kind": "text", "min": spec.min_len, "max": spec.max_len, "hint": spec.hint, "prefix": prefix}


def chance_form(step: ChanceStep, namer: Namer | None = None) -> dict[str, Any]:
    """What a person at a physical table types for a chance step: each die field says whose die
    it is and its colour (``Roll.labels``); picked items are named."""
    say = namer.say if namer is not None else str
    if isinstance(step, Roll):
        labels = [say(label) for label in step.labels] if len(step.labels) == len(step.sides) else []
        dice = [{"sides": s, "label": labels[i] if labels else f"Die {i + 1}"} for i, s in enumerate(step.sides)]
        return {"kind": "roll", "key": step.key, "type": step.type, "sides": list(step.sides), "dice": dice}
    if isinstance(step, Shuffle):
        return {"kind": "shuffle", "key": step.key, "type": step.type, "n": step.n}
    if isinstance(step, Pick):
        options = [{"value": json.dumps(o), "label": say(_compact(o))} for o in step.options]
        return {"kind": "pick", "key": step.key, "type": step.type, "k": step.k, "options": options}
    return {"kind": "unknown", "type": getattr(step, "type", CHANCE)}


def render(name: str, **context: Any) -> str:
    return render_template(_table_template(name), context)


def render_template(template: Template, context: dict[str, Any]) -> str:
    """``template.render(**context)``, the same text, without the copy of the template's globals
    Jinja makes at every render (``Template.globals`` is a ``ChainMap``, copied key by key through
    Python-level lookups: about half the cost of rendering a small template). The globals are
    copied once per template (:func:`_globals_of`); a failure is reported as ``render`` reports it."""
    env = template.environment
    plain = _globals_of(template)
    ctx = env.context_class(env, {**plain, **context}, template.name, template.blocks, globals=plain)
    try:
        return env.concat(template.root_render_func(ctx))  # type: ignore[attr-defined,no-any-return]
    except Exception:
        env.handle_exception()
    raise AssertionError("unreachable: handle_exception raises")  # pragma: no cover


@cache
def _globals_of(template: Template) -> dict[str, Any]:
    """A template's globals as a plain dict (the table's environment sets none after it is made)."""
    return dict(template.globals)


@cache
def _table_template(name: str) -> Template:
    """A table template, looked up once (Jinja's own cache takes a lock at every lookup)."""
    return environment().get_template(name)


# -- decisions composed step by step (the core composer, rendered as nested choices) -------------
def composed_choices(legal: list[Action], namer: Namer) -> list[dict[str, Any]]:
    """The seat's decision as the composer offers it (:mod:`ludica.core.composer`): one entry per
    action type; a choice with one instance is one button, a wider one opens step by step, each
    step listing only the values still legal (grouped by the game's headings, a dozen at most
    per group). Every option says what it does (``note``: the namer's detail and effect); a
    pick that fills other parameters at once shows them (``filled``) and, when it fills several,
    asks to confirm. Every leaf submits ``{index, fields}`` — the public ``act`` message."""
    index_of = {id(t): i for i, t in enumerate(legal)}
    out = []
    for choice in choices(legal):
        node = _node(Composition(choice), namer, index_of)
        if node["leaf"] and not node["effect"]:  # one button: say what each settled value does
            node["effect"] = _settled_effects(choice.templates[0], namer)
        out.append({"type": choice.type, "title": namer.action_title(choice.type), "node": node})
    return out


def _settled_effects(action: Action, namer: Namer) -> str | None:
    concrete = {k: v for k, v in action.args.items() if v is not None and not isinstance(v, Text | IntRange)}
    said = [namer.effect(action.type, k, v) for k, v in concrete.items()]
    return "; ".join(dict.fromkeys(e for e in said if e)) or None


def _node(composition: Composition, namer: Namer, index_of: dict[int, int]) -> dict[str, Any]:
    kind = composition.choice.type
    step = composition.ask()
    if step is None or not step.values:
        return _leaf(composition.remaining[0], composition.picked, namer, index_of)
    options = []
    for heading, values in sections(step.values, lambda v: namer.group(kind, step.param, v)):
        group = []
        for value in values:
            after = composition.pick(step.param, value)
            node = _node(after, namer, index_of)
            shown = [
                {
                    "label": namer.param_label(kind, p),
                    "value": namer.value(kind, p, v),
                    "effect": namer.effect(kind, p, v),
                }
                for p, v in filled(composition, after, step.param)
                if namer.settled_meaning(kind, p)
            ]
            if node["leaf"]:
                node["filled"] = shown
                node["confirm"] = node["confirm"] or len(shown) >= 2
            group.append(
                {
                    "param": step.param,
                    "value": json.dumps(value, ensure_ascii=False, sort_keys=True),
                    "label": namer.value(kind, step.param, value),
                    "detail": option_note(namer, composition, step.param, value),
                    "filled": shown,
                    "node": node,
                }
            )
        options.append({"heading": heading, "options": group})
    if step.field is not None:  # a value may also be typed: the templates that declare a field here
        typed = next(t for t in composition.remaining if isinstance(t.args.get(step.param), Text | IntRange))
        leaf = _leaf(typed, composition.picked, namer, index_of)
        options.append({"heading": None, "options": [{"label": "another value", "detail": None, "node": leaf}]})
    return {"leaf": False, "param": namer.param_label(kind, step.param), "sections": options}


def _leaf(template: Action, picked: dict[str, Any], namer: Namer, index_of: dict[int, int]) -> dict[str, Any]:
    fields = []
    for name, spec in template.args.items():
        if isinstance(spec, Text | IntRange) and name not in picked:
            field = _field(name, spec)
            field["hint"] = namer.param_label(template.type, name) if isinstance(spec, IntRange) else spec.hint
            consequence = namer.effect(template.type, name, spec)
            if consequence:
                field["effect"] = consequence
            each = {v: namer.consequence(template, {**picked, p: v}) for p, v in field_values(template) if p == name}
            if each:  # the consequence of every value, as the rules will apply it (the page shows the typed one's)
                field["effects"] = json.dumps({str(v): said for v, said in each.items() if said}, ensure_ascii=False)
                field["default"] = namer.field_default(template, name, spec)
                field["now"] = each.get(field["default"])
            fields.append(field)
    return {
        "leaf": True,
        "type": template.type,
        "index": index_of[id(template)],
        "fields": fields,
        "sentence": namer.sentence(template) if not fields else namer.action_title(template.type),
        "label": namer.choice_label(template),
        "effect": namer.action_effect(template) if fields else namer.consequence(template),
        "filled": [],
        "confirm": False,
    }
