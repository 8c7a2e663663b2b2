"""Renderings the table reuses instead of redoing (issue 24).

A broadcast used to render every part of every connection's page from scratch: the game's face,
the decision, the status line, and every text said in names. Three things make that cheaper
without changing a byte of what a seat receives:

* **Once per distinct view**: a room renders each part once per *seat* per step (the host and the
  spectators both watch as no seat and share one rendering) — :func:`seatview.seat_part`.
* **Kept per seat until its input changes**: each part is remembered with the exact input it was
  rendered from (the view's JSON, the seat names, the pending decision, the namer's table); the
  next step reuses it when that input is the same (:func:`memo`). A seat that waits keeps its
  decision box; a face whose view did not change is not drawn again.
* **Texts said once**: :func:`say_html` says every text of a rendered page in names like
  :func:`ludica.table.faces.say_html`, but remembers each text's saying per namer class and table
  (the ids a viewer knows and their names), so the labels a face repeats at every step are said
  once. A game's namer that says more than its table (``Namer.SAY_FROM_TABLE`` False) says every
  text afresh.

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
from .faces import _MARKUP
from .faces import say_html as _say_html_plain

SAID_TABLES = 64
"""At most this many namer tables have their said texts remembered (then all are forgotten)."""
SAID_TEXTS = 20_000
"""At most this many said texts per namer table (then that table's texts are forgotten)."""

Table = tuple[tuple[str, str], ...]
"""A namer's id table as a key (:func:`fingerprint`)."""

_said: dict[tuple[type, Table], dict[str, str]] = {}


def fingerprint(namer: Namer) -> Table:
    """What a namer's saying depends on: its table of ids and their names for the viewer."""
    return tuple(sorted(namer.id_table().items()))


def _said_of(key: tuple[type, Table]) -> dict[str, str]:
    memo = _said.get(key)
    if memo is None:
        if len(_said) >= SAID_TABLES:
            _said.clear()
        memo = _said[key] = {}
    elif len(memo) >= SAID_TEXTS:
        memo.clear()
    return memo


def say_html(page: str, namer: Namer, key: Table | None = None) -> str:
    """The same as :func:`ludica.table.faces.say_html`, each text said once per namer class and
    table (``key``: the namer's :func:`fingerprint`, if the caller has it)."""
    if not namer.SAY_FROM_TABLE:  # a namer whose saying reads more than its table
        return _say_html_plain(page, namer)
    memo = _said_of((type(namer), fingerprint(namer) if key is None else key))
    parts = _MARKUP.split(page)
    for i in range(0, len(parts), 2):
        text = parts[i]
        if text.strip():
            said = memo.get(text)
            if said is None:
                said = memo[text] = escape(namer.say(unescape(text)))
            parts[i] = said
    return "".join(parts)


_RAW_BLOCK = re.compile(r"<(?:/?)(?:style|script)\b", re.I)
"""Where a ``<style>`` or ``<script>`` block (said as one piece of markup) opens or closes."""
SAID_PIECES = 64
"""At most this many said parts are kept per seat (then all are forgotten); after each page only
the sayings of its own parts are kept."""


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


def say_page(page: str, pieces: list[str], namer: Namer, key: Table, said: dict[str, tuple[Table, str]]) -> str:
    """:func:`say_html` of a page drawn in parts (``pieces``: its outermost parts in order,
    :class:`ludica.table.faces.Parts`): each part is said once per namer table and kept in
    ``said`` (the seat's), the rest of the page is said around them. When a part or a stretch
    between parts does not begin and end at markup, the page is said whole: the same text."""
    if not pieces or not namer.SAY_FROM_TABLE:
        return say_html(page, namer, key)
    out: list[str] = []
    at = 0
    for piece in pieces:
        found = page.find(piece, at)
        if found < 0 or not _between(page[at:found]):
            return say_html(page, namer, key)
        kept = said.get(piece)
        if kept is None or kept[0] != key:
            if not _at_markup(piece):
                return say_html(page, namer, key)
            if len(said) >= SAID_PIECES:
                said.clear()
            kept = said[piece] = (key, say_html(piece, namer, key))
        out.append(say_html(page[at:found], namer, key))
        out.append(kept[1])
        at = found + len(piece)
    if not _between(page[at:]):
        return say_html(page, namer, key)
    out.append(say_html(page[at:], namer, key))
    if len(said) > len(pieces):  # keep the sayings of this page's parts only
        shown = set(pieces)
        for gone in [p for p in said if p not in shown]:
            del said[gone]
    return "".join(out)


def digest(value: Any) -> str:
    """A value's JSON text, to tell whether the input of a rendering changed."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)


def memo(cache: dict[Any, Any], slot: tuple[Any, ...], key: Any, make: Callable[[], str]) -> str:
    """``make()``, unless ``cache[slot]`` holds a rendering made from the same ``key``."""
    held = cache.get(slot)
    if held is not None and held[0] == key:
        return str(held[1])
    value = make()
    cache[slot] = (key, value)
    return value


def drop_renderings(room: Any) -> None:
    """Forget a room's renderings (nobody watches it): an idle room keeps only its match."""
    for slot in [k for k in list(room.cache) if isinstance(k, tuple)]:  # a copy: a bot may be acting
        room.cache.pop(slot, None)
