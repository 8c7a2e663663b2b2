"""Free text for bots: short sentences fitted to a :class:`~ludica.core.actions.Text` declaration.

The heuristic plugins compose a sentence from the situation (a name, a judgment, a Desire) and
:func:`fit` makes it acceptable to the declaration: the required prefix (a memory's "I
remember"), at least ``min_len`` and at most ``max_len`` characters, never blank.

>>> from ludica.core.actions import Text
>>> fit(Text(prefix="I remember", max_len=30), "the river at dawn, cold and bright")
'I remember the river at dawn,'
>>> fit(Text(max_len=80), "")
'Something happens.'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.actions import Action, IntRange, Text


def fit(spec: Text, sentence: str, fallback: str = "Something happens.") -> str:
    """``sentence`` made acceptable to ``spec`` (prefix, length), cut at a word where it can be."""
    text = " ".join(sentence.split()) or fallback
    if spec.prefix and not text.startswith(spec.prefix):
        rest = text[0].lower() + text[1:] if text[:2] != "I " else text
        text = f"{spec.prefix} {rest}"
    if len(text) > spec.max_len:
        cut = text[: spec.max_len]
        space = cut.rfind(" ")
        if space > max(len(spec.prefix), spec.min_len, spec.max_len // 2):
            cut = cut[:space]
        text = cut.rstrip()
    while len(text) < spec.min_len:
        text = (text + " " + fallback)[: spec.max_len]
    if not spec.accepts(text):  # a pathological declaration: fall back to the bare prefix padded
        text = (spec.prefix + "." * spec.min_len)[: spec.max_len] or "."
    return text


def fill_text(action: Action, sentences: Mapping[str, str], numbers: Mapping[str, int] | None = None) -> Action:
    """``action`` with each free-text parameter filled by ``sentences[name]`` (fitted) and each
    number by ``numbers[name]`` (kept inside its range; the lowest when not given)."""
    if not action.is_template:
        return action
    args: dict[str, Any] = {}
    for key, value in action.args.items():
        if isinstance(value, Text):
            args[key] = fit(value, sentences.get(key, ""), value.hint.capitalize() + ".")
        elif isinstance(value, IntRange):
            args[key] = min(value.hi, max(value.lo, (numbers or {}).get(key, value.lo)))
        else:
            args[key] = value
    return Action(action.seat, action.type, args, action.narration)
