"""A Threat's blocking dice, in one place [Threats].

The draft: "When a Threat is activated, roll dice until their total reaches its value; any die
you roll in an action that matches one of these faces is blocked and doesn't count. You can
address a Threat by removing its blocking dice with non-success dice totalling at least the
blocking die; if you remove the last blocking die the Threat has [been mitigated]" (MB-R2).

How the engine reads it: the faces of every active Threat of a character block together; a
blocked die counts for nothing but is still a rolled die (rerolled, reclaimed) (MB-R28); the
blocking dice are rolled at each activation, kept while the Threat is active and returned when it
is deactivated or addressed; a removed blocking die stays removed until the next activation
(MB-R50). The count (:mod:`.procedure`), the listing (:mod:`.legal`), the refusal and the
effect (:mod:`.meaning`) all ask these functions.

Rule: [Threats]; MB-R2; MB-R28; MB-R50
"""

from __future__ import annotations

from .state import THREAT, MiseryState, Resource


def blocked_faces(state: MiseryState, seat: str) -> frozenset[int]:
    """The faces that the active Threats on ``seat``'s character block (MB-R28)."""
    faces: set[int] = set()
    for r in state.resources.values():
        if r.kind == THREAT and r.owner == seat and r.active:
            faces.update(r.blocking)
    return frozenset(faces)


def blocks(threat: Resource, face: object) -> bool:
    """Does the active ``threat`` hold a blocking die showing ``face``?"""
    return threat.active and face in threat.blocking


def removable_faces(threat: Resource, total: int) -> list[int]:
    """The blocking dice a total of ``total`` in non-success dice can remove, one face each."""
    return [f for f in sorted(set(threat.blocking)) if f <= total] if threat.active else []


def remove_blocking_die(threat: Resource, face: int) -> bool:
    """Remove one blocking die showing ``face``; ``True`` when it was the last, so that the Threat
    is mitigated (addressed, MB-R2)."""
    threat.blocking.remove(face)
    return not threat.blocking
