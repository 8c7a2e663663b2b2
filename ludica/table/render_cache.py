"""Renderings the table reuses instead of redoing (issue 24).

A broadcast used to render every part of every connection's page from scratch: the game's face,
the decision, the status line, and every text said in names. Three things make that cheaper
without changing a byte of what a seat receives:

* **Once per distinct view**: a room renders each part once per *seat* per step (the host and the
  spectators both watch as no seat and share one rendering) — :func:`seatview.seat_part`; the
  status line and the news are rendered once per step for all the seats whose input is the same
  (the status line reads the seat only to mark it among those awaited).
* **Kept per seat until its input changes**: each part is remembered with the exact input it was
  rendered from (the view, keyed by its pickle; the seat names, the pending decision, the
  namer's table); the next step reuses it when that input is the same (:func:`memo`). A seat that waits keeps its
  decision box; a face whose input did not change is not drawn again (its input: what the game's
  face reads of the view and the pending decision, ``web.face_input``, else both whole).
* **Texts said once**: :func:`say_html` says every text of a rendered page in names like
  :func:`ludica.table.faces.say_html`, but remembers each text's saying per namer class and table
  (the ids a viewer knows and their names), so the labels a face repeats at every step are said
  once (:func:`say_text`: the story lines of every seat's news likewise). A game's namer that
  says more than its table (``Namer.SAY_FROM_TABLE`` False) says every text afresh.
* **Encoded once**: a face said in parts (:func:`say_page`) keeps each part's and each stretch's
  saying with its JSON, and carries its own JSON (:class:`Encoded`); :func:`encode` writes a
  message with it, byte for byte ``json.dumps``, so a broadcast encodes only what changed.

The caches are small: one entry per seat and part in ``room.cache`` (dropped with the match on
undo or reload, and when the last browser leaves the room), and a bounded table of said texts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html import escape, unescape
from typing import Any

from ..core.names import Namer
from .faces import _MARKUP, Generations, key_json
from .faces import say_html as _say_html_plain

SAID_TABLES = 64
"""At most this many namer tables have their said texts remembered (then all are forgotten)."""
SAID_TEXTS = 20_000
"""At most this many said texts per namer table (then that table's texts are forgotten)."""

Table = tuple[tuple[str, str], ...]
"""A namer's id table as a key (:func:`fingerprint`)."""


class Encoded(str):
    """A rendered text that carries its JSON string (``json``), made when it was rendered (a
    page said in parts: from its kept parts' JSON): a broadcast does not encode it again."""

    json: str


def encoded(text: str, json_text: str | None = None) -> Encoded:
    """``text`` with its JSON string (``json.dumps(text, ensure_ascii=False)``)."""
    out = Encoded(text)
    out.json = _json_text(text) if json_text is None else json_text
    return out


_dumps = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(value, ensure_ascii=False)``, the same text, from one encoder made once."""


def _json_text(text: str) -> str:
    return _dumps(text)


def encode(message: dict[str, Any]) -> str:
    """``json.dumps(message, ensure_ascii=False)`` — the same text — taking the JSON of each
    :class:`Encoded` part of ``message["html"]`` as made. (A JSON string is escaped character by
    character, and an object is its members joined by ``", "``: the pieces join into the whole.)"""
    html = message.get("html")
    if not isinstance(html, dict) or not any(isinstance(v, Encoded) for v in html.values()):
        return _dumps(message)
    keys = list(message)
    at = keys.index("html")
    head = _dumps({k: message[k] for k in keys[:at]})[1:-1]
    tail = _dumps({k: message[k] for k in keys[at + 1 :]})[1:-1]
    pieces = ["{", head, ", " if head else "", '"html": {']
    for k, v in html.items():
        pieces += (_json_text(k), ": ", v.json if isinstance(v, Encoded) else _dumps(v), ", ")
    pieces[-1] = "}"  # in place of the last member's separator (``html`` holds an Encoded part)
    pieces += (", " if tail else "", tail, "}")
    return "".join(pieces)  # one copy of the page's JSON, not one per nesting


_said: dict[tuple[type, Table], dict[str, str]] = {}
_said_texts: dict[tuple[type, Table], dict[str, str]] = {}


_tables: dict[Table, Table] = {}
RECENT_TABLES = 8
"""The namer tables last made into a fingerprint, each with it, looked through before sorting a
table again: a seat's namer is made anew at every step, and its table seldom changes."""
_recent: list[tuple[dict[str, str], Table]] = []


def fingerprint(namer: Namer) -> Table:
    """What a namer's saying depends on: its table of ids and their names for the viewer. Equal
    tables are one object (the caches that hold it compare it by identity first)."""
    ids = namer.id_table()
    for known, table in list(_recent):  # a copy: other threads fingerprint too
        if known == ids:
            return table
    table = tuple(sorted(ids.items()))
    if len(_tables) >= SAID_TABLES:
        _tables.clear()
    table = _tables.setdefault(table, table)
    _recent.insert(0, (dict(ids), table))
    del _recent[RECENT_TABLES:]
    return table


def _said_of(key: tuple[type, Table], tables: dict[tuple[type, Table], dict[str, str]] = _said) -> dict[str, str]:
    memo = tables.get(key)
    if memo is None:
        if len(tables) >= SAID_TABLES:
            tables.clear()
        memo = tables[key] = {}
    elif len(memo) >= SAID_TEXTS:
        memo.clear()
    return memo


def say_html(page: str, namer: Namer, key: Table | None = None) -> str:
    """The same as :func:`ludica.table.faces.say_html`, each text said once per namer class and
    table (``key``: the namer's :func:`fingerprint`, if the caller has it)."""
    if not namer.SAY_FROM_TABLE:  # a namer whose saying reads more than its table
        return _say_html_plain(page, namer)
    return _say_texts(page, namer, _said_of((type(namer), fingerprint(namer) if key is None else key)))


def _say_texts(page: str, namer: Namer, memo: dict[str, str]) -> str:
    """:func:`say_html` with the said texts of the namer's class and table (``memo``)."""
    parts = _MARKUP.split(page)
    for i in range(0, len(parts), 2):
        text = parts[i]
        if text.strip():
            said = memo.get(text)
            if said is None:
                said = memo[text] = escape(namer.say(unescape(text)))
            parts[i] = said
    return "".join(parts)


def say_text(text: str, namer: Namer, key: Table | None = None) -> str:
    """``namer.say(text)``, each text said once per namer class and table (a story line repeated
    in every seat's news is said once); ``key``: the namer's :func:`fingerprint`, if known."""
    if not namer.SAY_FROM_TABLE:
        return namer.say(text)
    memo = _said_of((type(namer), fingerprint(namer) if key is None else key), _said_texts)
    said = memo.get(text)
    if said is None:
        said = memo[text] = namer.say(text)
    return said


_RAW_BLOCK = re.compile(r"<(?:/?)(?:style|script)\b", re.I)
"""Where a ``<style>`` or ``<script>`` block (said as one piece of markup) opens or closes."""
SAID_PIECES = 64
"""At most this many said parts and stretches are kept per seat (then all are forgotten); after
each page only the sayings of its own parts and stretches are kept."""


def _at_markup(text: str) -> bool:
    """True when ``text`` begins and ends at markup (whitespace aside) and holds no ``<style>`` or
    ``<script>`` boundary: saying it alone says it as it is said within any page."""
    inner = text.strip()
    return not inner or (inner[0] == "<" and inner[-1] == ">" and _RAW_BLOCK.search(text) is None)


def _between(text: str) -> bool:
    """True when a stretch of page between two parts ends and begins at markup and opens or
    closes as many ``<style>``/``<script>`` blocks as it closes."""
    inner = text.strip()
    if inner and (inner[0] != "<" or inner[-1] != ">"):
        return False
    marks = _RAW_BLOCK.findall(text)
    return sum(1 if m[1] == "/" else -1 for m in marks) == 0 and not (marks and marks[-1][1] != "/")


Said = dict[str | tuple[str], tuple[Table, str, str]]
"""A seat's said parts (keyed by their text) and stretches between parts (by a 1-tuple of it),
each with its saying and the saying's JSON (without its quotes)."""


class SaidStore(Generations[tuple[int, str | tuple[str]], tuple[Table, str, str]]):
    """A room's said parts and stretches, shared by its seats: keyed by the namer table's
    identity (:func:`fingerprint`: equal tables are one object) and the text, each with its table
    (checked at every use), its saying and the saying's JSON. Seats whose namers have equal
    tables say a part they share once."""

    __slots__ = ()


def say_page(page: str, pieces: list[str], namer: Namer, key: Table, said: Said | SaidStore) -> str:
    """:func:`say_html` of a page drawn in parts (``pieces``: its outermost parts in order,
    :class:`ludica.table.faces.Parts`): each part, and each stretch of page between parts, is
    said and encoded as JSON once per namer table and kept in ``said`` (the seat's, or the
    room's :class:`SaidStore`: a step that changes one part says that part alone). When a part
    or a stretch between parts does not begin and end at markup, the page is said whole: the
    same text (then a plain text, encoded with the message: one ``json.dumps`` of a small message
    costs less than joining its pieces)."""
    if not pieces or not namer.SAY_FROM_TABLE:
        return say_html(page, namer, key)
    texts = _said_of((type(namer), key))
    look, keep = _said_in(said, key)
    out: list[str] = []
    out_json: list[str] = []
    used: list[str | tuple[str]] = []
    at = 0
    for piece in [*pieces, None]:
        found = len(page) if piece is None else _find(page, piece, at)
        if found < 0:
            return _say_texts(page, namer, texts)
        stretch = page[at:found]
        for slot, text, fits in (((stretch,), stretch, _between), (piece, piece, _at_markup)):
            if slot is None or text is None:
                continue
            kept = look(slot)
            if kept is None or (kept[0] is not key and kept[0] != key):
                if not fits(text):
                    return _say_texts(page, namer, texts)
                saying = _say_texts(text, namer, texts)
                kept = (key, saying, _json_text(saying)[1:-1])
                keep(slot, kept)
            out.append(kept[1])
            out_json.append(kept[2])
            used.append(slot)
        if piece is not None:
            at = found + len(piece)
    if isinstance(said, dict) and len(said) > len(used):  # a seat's: this page's sayings only
        shown = set(used)
        for gone in [slot for slot in said if slot not in shown]:
            del said[gone]
    return encoded("".join(out), "".join(['"', *out_json, '"']))  # the page's JSON copied once


HEAD = 64
"""How much of a part :func:`_find` looks for before comparing the whole."""


def _find(page: str, piece: str, at: int) -> int:
    """``page.find(piece, at)``, faster for a long piece: its first :data:`HEAD` characters are
    looked for, and the whole compared where they are found (a long needle costs ``str.find``
    a long preparation)."""
    if len(piece) <= HEAD:
        return page.find(piece, at)
    head = piece[:HEAD]
    found = page.find(head, at)
    while found >= 0 and not page.startswith(piece, found):
        found = page.find(head, found + 1)
    return found


Slot = str | tuple[str]
Kept = tuple[Table, str, str]


def _said_in(said: Said | SaidStore, key: Table) -> tuple[Callable[[Slot], Kept | None], Callable[[Slot, Kept], None]]:
    """How :func:`say_page` looks up and keeps a saying in a seat's ``said`` or a room's."""
    if isinstance(said, SaidStore):
        store, table = said, id(key)
        return (lambda slot: store.get((table, slot))), (lambda slot, kept: store.put((table, slot), kept))
    mine = said

    def keep(slot: Slot, kept: Kept) -> None:
        if len(mine) >= SAID_PIECES:
            mine.clear()
        mine[slot] = kept

    return mine.get, keep


def digest(value: Any) -> str:
    """A value's JSON text, to tell whether the input of a rendering changed."""
    return key_json(value)


def memo(cache: dict[Any, Any], slot: tuple[Any, ...], key: Any, make: Callable[[], str]) -> str:
    """``make()``, unless ``cache[slot]`` holds a rendering made from the same ``key``."""
    held = cache.get(slot)
    if held is not None and held[0] == key:
        kept: str = held[1]  # as made (an :class:`Encoded` text keeps its JSON)
        return kept
    value = make()
    cache[slot] = (key, value)
    return value


def drop_renderings(room: Any) -> None:
    """Forget a room's renderings (nobody watches it): an idle room keeps only its match."""
    for slot in [k for k in list(room.cache) if isinstance(k, tuple)]:  # a copy: a bot may be acting
        room.cache.pop(slot, None)
