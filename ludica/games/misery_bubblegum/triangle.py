"""The attribute triangle: the missing diagram of [What does it mean?], reconstructed (MB-R1).

An arrow starts at the pool rolled and ends at the pool that receives the reclaimed dice; it
names the one resource kind the meaning-decider may create or modify, on others or on self.

>>> ARROWS[("insight", "others")]
Arrow(kind='desire', dest='passion')
>>> ARROWS[("insight", "self")]
Arrow(kind='threat', dest='confidence')
"""

from __future__ import annotations

from typing import NamedTuple

from .state import CONFIDENCE, DESIRE, INSIGHT, OTHERS, PASSION, PROMISE, SELF, THREAT


class Arrow(NamedTuple):
    kind: str
    dest: str


ARROWS: dict[tuple[str, str], Arrow] = {
    (PASSION, OTHERS): Arrow(PROMISE, CONFIDENCE),
    (PASSION, SELF): Arrow(DESIRE, INSIGHT),
    (CONFIDENCE, OTHERS): Arrow(THREAT, INSIGHT),
    (CONFIDENCE, SELF): Arrow(PROMISE, PASSION),
    (INSIGHT, OTHERS): Arrow(DESIRE, PASSION),
    (INSIGHT, SELF): Arrow(THREAT, CONFIDENCE),
}


def opposite(orientation: str) -> str:
    """Opponents move their dice "in the opposite direction" (MB-R35)."""
    return SELF if orientation == OTHERS else OTHERS
