"""Players' names are text: the one check of every name that enters Ludica, and a safe way to show old ones.

A name reaches the engine from the web table (``POST /rooms``), the command line (``--names``) and
record or position files; each entry point calls :func:`check_name` (or :func:`name_problem` to
word its own error). A name is at most :data:`MAX_NAME` characters, not empty, one line, and
holds no character a terminal or a page could take for something else:

* control characters (Unicode category Cc: escape sequences that set a window's title or write
  the clipboard, newlines, tabs), format characters (Cf: zero-width spaces and joiners, bidi
  overrides that reverse the text around them), line and paragraph separators (Zl, Zp), private
  use (Co), unassigned code points (Cn) and lone surrogates (Cs, which cannot even be written out
  as UTF-8);
* a name that poses as one of the table's roles: starting or ending with ``*`` or ``@`` (the
  table's own ids are ``*host*``, ``*spectator*``, ``@table``) or reading as the host, the
  spectators or the table.

:func:`shown` makes any text safe to print (names of records written before this check, in the
terminal and in exported stories): every such character is written as a visible escape
(``\\x1b``, ``\\u200b``, ``\\ud800``), nothing is executed.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 40
"""The longest name, in characters."""
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories a name may not hold (see the module's docstring)."""
ROLE_MARKS = ("*", "@")
"""A name may not start or end with these (the table's own roles are written with them)."""
RESERVED = frozenset({"host", "the host", "spectator", "spectators", "the spectators", "table", "the table"})
"""Names that read as one of the table's roles (compared without case)."""


def unsafe(char: str) -> bool:
    """True for a character a name may not hold and :func:`shown` escapes."""
    return unicodedata.category(char) in UNSAFE_CATEGORIES


def name_problem(name: object) -> str | None:
    """What is wrong with ``name`` in words (``None``: it is a good name)."""
    if not isinstance(name, str):
        return "a name is text"
    text = name.strip()
    if not text:
        return "a name may not be empty"
    if len(text) > MAX_NAME:
        return f"a name is at most {MAX_NAME} characters (this one has {len(text)})"
    for char in text:
        if unsafe(char):
            return f"a name may not hold the character U+{ord(char):04X} ({_category_words(char)})"
    if text[0] in ROLE_MARKS or text[-1] in ROLE_MARKS:
        return "a name may not start or end with '*' or '@' (the table's roles are written so)"
    if " ".join(text.casefold().split()) in RESERVED:
        return f"{text!r} is the name of one of the table's roles"
    return None


def check_name(name: object, what: str = "name") -> str:
    """``name`` stripped of surrounding spaces, or a :class:`ConfigError` saying what is wrong
    (``what``: how the error names the field, e.g. ``"player 2's name"``)."""
    from .errors import ConfigError

    problem = name_problem(name)
    if problem is not None:
        raise ConfigError(f"{what}: {problem}", rule="names")
    assert isinstance(name, str)
    return name.strip()


def check_names(names: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Every player's name checked (:func:`check_name`), in seat order."""
    return tuple(check_name(name, f"player {i + 1}'s name") for i, name in enumerate(names))


def shown(text: str) -> str:
    """``text`` safe to print: each unsafe character (:func:`unsafe`) written as a visible escape."""
    if all(not unsafe(char) for char in text):
        return text
    return "".join(_escape(char) if unsafe(char) else char for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _category_words(char: str) -> str:
    words = {
        "Cc": "a control character",
        "Cf": "an invisible format character",
        "Cs": "a lone surrogate",
        "Co": "a private-use character",
        "Cn": "an unassigned character",
        "Zl": "a line separator",
        "Zp": "a paragraph separator",
    }
    return words.get(unicodedata.category(char), "not allowed")
