"""Shared by every decision: the rulebook headings, refusals, where the table is, the chosen dice."""

from __future__ import annotations

from typing import Any, NoReturn

from ...core import IllegalAction
from . import procedure as proc
from .state import (
    GM,
    MiseryState,
)

S_ATTRIBUTES = "Character Attributes"
S_DONE = "Getting things done"
S_OBNOXIOUS = "What if my character's really obnoxious?"
S_BETTER = "Getting Better"
S_INFLUENCE = "Influencing People"
S_GROWING = "Growing and changing every day"
S_MISERY = "Misery, Misery, Misery"
S_MEANING = "What does it mean?"
S_OUTCOMES = "Natural and unnatural resources"
S_DESIRES = "Desires"
S_THREATS = "Threats"
S_PROMISES = "Promises"

FEE_MODES = ("give_creator", "to_misery")

Args = dict[str, Any]


def refuse(reason: str, rule: str, section: str) -> NoReturn:
    raise IllegalAction(reason, rule=rule, section=section)


# -- where the table is ------------------------------------------------------------------------
PHASES = {
    "setup": "SETUP",
    "idle": "IDLE",
    "declaring": "DECLARING",
    "opposition": "OPPOSITION",
    "reroll": "REROLL",
    "success": "SUCCESS",
    "meaning": "MEANING",
    "wipe": "MEANING",
    "growth": "GROWTH",
    "reclaim": "RECLAIM",
    "over": "GAME_OVER",
}
"""The phase names for each context (docs/rules/misery-bubblegum.md, "Phases")."""


def context(state: MiseryState) -> str:
    """The decision the table is at: setup, idle, declaring, opposition, reroll, success, meaning,
    wipe, growth, reclaim, chance or over."""
    if state.over:
        return "over"
    if not state.ready:
        return "setup"
    attempt = state.attempt
    if attempt is None:
        return "declaring" if state.declaration is not None else "idle"
    if attempt.chance is not None:
        return "chance"
    if attempt.stage == proc.MEANING and attempt.wipe is not None:
        return "wipe"
    return attempt.stage.lower()


def selection_sum(state: MiseryState) -> int:
    attempt = state.attempt
    return 0 if attempt is None else sum(proc.face_of(state, ref) for ref in attempt.selected)


def name_of(state: MiseryState, seat: str) -> str:
    """A seat's name for the story log."""
    return "the GM" if seat == GM else state.characters[seat].name
