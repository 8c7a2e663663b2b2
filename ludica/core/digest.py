"""Since your last turn: what happened since a seat last acted, grouped by player, its own first.

Computed once here, from the story log and each seat's visibility (DESIGN.md principle 5), and
shown by every front end: the web table keeps it above the seat's decision until the seat acts;
the terminal shows its public part on the hand-over screen and the seat's own on its screen.

Each line of the story belongs to the player whose action caused it; a chance step (a roll, a
deal) belongs to the player whose action called for it (the last one before it), so what your own
action caused is in your own group, whoever rolled. A line that says whose turn begins (an event
of kind ``turn``) belongs to the player who acts next, not to the one whose action ended the
turn. The seat's own group comes first, then the others in the order they acted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .game import CHANCE
from .match import LogEntry, Match
from .values import Value


@dataclass(frozen=True, slots=True)
class Part(Value):
    """The lines of one player's actions (``who``: their seat; ``None``: the game's own setup)."""

    who: str | None
    entries: tuple[LogEntry, ...]


def last_turn(match: Match[Any], seat: str | None) -> int:
    """The step of ``seat``'s last action (``-1``: it has not acted yet)."""
    actions = match.actions
    for index in range(len(actions) - 1, -1, -1):
        if actions[index].seat == seat:
            return index
    return -1


def actor(match: Match[Any], step: int) -> str | None:
    """The player an action of the record belongs to: its seat, or for a chance step the seat of
    the last action before it (``None`` before anyone acted)."""
    actions = match.actions
    for index in range(min(step, len(actions) - 1), -1, -1):
        if actions[index].seat != CHANCE:
            return actions[index].seat
    return None


def next_actor(match: Match[Any], step: int) -> str | None:
    """The player who acts after ``step``: the seat of the next action of the record that is not
    chance, else the one the game waits for now (``None`` when it is not one person)."""
    actions = match.actions
    for index in range(step + 1, len(actions)):
        if actions[index].seat != CHANCE:
            return actions[index].seat
    pending = match.pending()
    return pending.seats[0] if len(pending.seats) == 1 and not pending.is_chance else None


def digest(match: Match[Any], seat: str | None, *, public: bool = False, since: int | None = None) -> list[Part]:
    """What happened since ``seat`` last acted (from its last action on, included: what it caused),
    as ``seat`` may see it (``public``: only what every seat may see), grouped by player,
    ``seat``'s own group first. ``since`` overrides where it starts (a step). Read from the end
    of the log: its cost is that of the lines it returns."""
    viewer = None if public else seat
    start = since if since is not None else max(0, last_turn(match, seat))
    found: list[LogEntry] = []
    for entry in reversed(match.log):
        if entry.step < start:
            break
        if entry.event.visible(viewer):
            found.append(entry)
    groups: dict[str | None, list[LogEntry]] = {}
    owners: dict[int, str | None] = {}
    for entry in reversed(found):
        if entry.step not in owners:
            owners[entry.step] = actor(match, entry.step)
        who = owners[entry.step]
        if entry.event.kind == "turn":  # "turn 4: Ben": Ben's, whoever ended the turn before
            who = next_actor(match, entry.step) or who
        groups.setdefault(who, []).append(entry)
    order = sorted(groups, key=lambda who: who != seat)  # stable: the others as they acted
    return [Part(who, tuple(groups[who])) for who in order]


def trim(parts: Sequence[Part], budget: int) -> list[int]:
    """How many of each part's earliest lines give way so that at most ``budget`` lines remain:
    the earliest lines of the longest group first; every group keeps at least its latest line,
    so no player's lines vanish from a digest."""
    cut = [0] * len(parts)
    left = [len(part.entries) for part in parts]
    while sum(left) > budget:
        longest = max(range(len(parts)), key=lambda i: left[i])
        if left[longest] <= 1:
            break
        cut[longest] += 1
        left[longest] -= 1
    return cut


__all__ = ["Part", "actor", "digest", "last_turn", "next_actor", "trim"]
