"""What comes over the wire: JSON read with limits, refused in words when it is ill-formed.

Every message a browser or an API client sends (a WebSocket frame, the body of ``POST /rooms``)
is read by :func:`read_json`: it must be JSON, nested at most :data:`MAX_DEPTH` levels (Python's
own parser would overflow its stack on about a thousand), and every string in it — keys and
values — must be well-formed Unicode (JSON's ``\\ud800`` escapes can smuggle a lone surrogate in,
which no database, page or log can store). Anything else raises :class:`WireError` with the reason.

>>> read_json('{"type": "ping"}')
{'type': 'ping'}
>>> read_json("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
ludica.table.wire.WireError: the message is nested too deeply (at most 32 levels) [protocol]
"""

from __future__ import annotations

import json
from typing import Any

from ..core import LudicaError

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects a message may have."""


class WireError(LudicaError):
    """A message that is not well-formed JSON within the table's limits."""


def read_json(text: str | bytes, what: str = "the message") -> Any:
    """Parse ``text`` as JSON within the limits above, or raise :class:`WireError`."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise WireError(f"{what} is nested too deeply (at most {MAX_DEPTH} levels)", rule="protocol") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise WireError(f"{what} is not JSON", rule="protocol") from None
    check_json(value, what)
    return value


def check_json(value: Any, what: str = "the message") -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and text that is not well-formed Unicode
    (the reason names where: ``players[0]``)."""
    stack: list[tuple[Any, int, Any]] = [(value, 0, None)]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, str):
            _check_text(item, what, where)
        elif isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise WireError(f"{what} is nested too deeply (at most {MAX_DEPTH} levels)", rule="protocol")
            if isinstance(item, dict):
                for key, inner in item.items():
                    _check_text(key, what, where, "a key")
                    stack.append((inner, depth + 1, (where, key)))
            else:
                stack.extend((inner, depth + 1, (where, i)) for i, inner in enumerate(item))


def is_text(value: str) -> bool:
    """True when ``value`` is well-formed Unicode (no lone surrogate)."""
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_text(value: str, what: str, where: Any, kind: str = "text") -> None:
    if not is_text(value):
        at = f" in {_path(where)}" if where is not None else ""
        raise WireError(f"{what} holds {kind} that is not valid Unicode (a lone surrogate){at}", rule="protocol")


def _path(where: Any) -> str:
    """``((None, "players"), 0)`` as ``players[0]`` (keys on the path are already checked)."""
    keys: list[Any] = []
    while where is not None:
        where, key = where
        keys.append(key)
    text = ""
    for key in reversed(keys):
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    return text
