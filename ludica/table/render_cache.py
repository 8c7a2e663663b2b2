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
  :func:`ludica.table.faces.say_html`, but remembers each text's saying per namer table (the ids
  a viewer knows and their names), so the labels a face repeats at every step are said once.

The caches are small: one entry per seat and part in ``room.cache`` (dropped with the match on
undo or reload, and when the last browser leaves the room), and a bounded table of said texts.
"""

from __future__ import annotations

import json
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

_said: dict[tuple[tuple[str, str], ...], dict[str, str]] = {}


def fingerprint(namer: Namer) -> tuple[tuple[str, str], ...]:
    """What a namer's saying depends on: its table of ids and their names for the viewer."""
    table, _pattern = namer._ids()
    return tuple(sorted(table.items()))


def _said_of(key: tuple[tuple[str, str], ...]) -> dict[str, str]:
    memo = _said.get(key)
    if memo is None:
        if len(_said) >= SAID_TABLES:
            _said.clear()
        memo = _said[key] = {}
    elif len(memo) >= SAID_TEXTS:
        memo.clear()
    return memo


def say_html(page: str, namer: Namer, key: tuple[tuple[str, str], ...] | None = None) -> str:
    """The same as :func:`ludica.table.faces.say_html`, each text said once per namer table
    (``key``: the namer's :func:`fingerprint`, if the caller has it)."""
    if type(namer).say is not Namer.say:  # a namer that says otherwise than by its table
        return _say_html_plain(page, namer)
    memo = _said_of(fingerprint(namer) if key is None else key)
    parts = _MARKUP.split(page)
    for i in range(0, len(parts), 2):
        text = parts[i]
        if text.strip():
            said = memo.get(text)
            if said is None:
                said = memo[text] = escape(namer.say(unescape(text)))
            parts[i] = said
    return "".join(parts)


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
