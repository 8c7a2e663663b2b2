"""What applies to a player right now: active recruits' abilities, market penalties, tier bonuses.

Rulebook, "Personal Freedoms": every player without a star on a constructed market incurs its
penalty. "Allegiance Track": only players with an active recruit of a faction gain that
faction's tier bonuses (two such recruits do not double them; SP 25).
"""

from __future__ import annotations

from .oracle import MARKETS, RECRUITS, TIER_LEVELS
from .state import EuphoriaState


def penalties(st: EuphoriaState, seat: str) -> list[str]:
    """Market ids whose penalty applies to ``seat`` (built, without the seat's star)."""
    return [st.sites[site] for site, owners in st.built.items() if seat not in owners]


def penalized(st: EuphoriaState, seat: str, kind: str) -> bool:
    """True when a built market of penalty ``kind`` lacks the seat's star.

    Rule: SP 23
    """
    return any(seat not in owners and MARKETS[st.sites[site]].penalty == kind for site, owners in st.built.items())


def penalty_values(st: EuphoriaState, seat: str, kind: str) -> list:
    """The data values (``n``, ``totals``...) of the penalties of ``kind`` binding ``seat``."""
    return [MARKETS[m].value for m in penalties(st, seat) if MARKETS[m].penalty == kind]


def roll_loss_values(st: EuphoriaState, seat: str) -> list[int]:
    return [MARKETS[m].value for m in penalties(st, seat) if MARKETS[m].penalty == "roll_loss"]


def has(st: EuphoriaState, seat: str, recruit: str) -> bool:
    """The seat's active recruit ``recruit`` may use its ability (Academy switches them off; a
    recruit activated this turn waits for the following turns: :func:`newly_activated`)."""
    if recruit not in st.players[seat].active or recruit in newly_activated(st, seat):
        return False
    return not penalized(st, seat, "disable_recruit_abilities")


NEW_RECRUITS = "activated"
"""The key in ``st.flags`` (cleared at every turn's start) of the recruits activated this turn."""


def newly_activated(st: EuphoriaState, seat: str) -> list[str]:
    """Recruits of ``seat`` activated during this turn: their abilities and their allegiance
    track's bonuses start with the following turns.

    Rule: [Allegiance Track]
    """
    return st.flags.get(NEW_RECRUITS, {}).get(seat, [])


def mark_activated(st: EuphoriaState, seat: str, recruit: str) -> None:
    """Remember that ``recruit`` was activated during this turn (in the flags, so saved with the
    position and forgotten when the next turn starts).

    Rule: [Allegiance Track]
    """
    st.flags.setdefault(NEW_RECRUITS, {}).setdefault(seat, []).append(recruit)


def revised(st: EuphoriaState, recruit: str) -> bool:
    """The revised printing of this card is in play."""
    return st.options["printing"] == "revised" and RECRUITS[recruit].revised


def has_faction(st: EuphoriaState, seat: str, faction: str) -> bool:
    return any(RECRUITS[r].faction == faction for r in st.players[seat].active)


def _has_faction_bonuses(st: EuphoriaState, seat: str, faction: str) -> bool:
    """An active recruit of ``faction`` activated before this turn (tier bonuses start with the
    following turns).

    Rule: [Allegiance Track]
    """
    new = newly_activated(st, seat)
    return any(RECRUITS[r].faction == faction and r not in new for r in st.players[seat].active)


def tier_bonus(st: EuphoriaState, seat: str, faction: str, tier: int) -> bool:
    """Tier 1 or 2 bonus of ``faction`` for ``seat`` (Registry of Personal Secrets cancels them).

    Rule: [A Few Notes About Recruits]; SP 25
    """
    if st.allegiance[faction] < TIER_LEVELS[tier - 1] or not _has_faction_bonuses(st, seat, faction):
        return False
    return not penalized(st, seat, "no_allegiance_tier_bonuses")
