"""One exception hierarchy for everything a user can get wrong.

Every refusal names the rule that refused it (``rule``, e.g. ``"R-GC-30"``) and the rulebook
section (``section``, e.g. ``"Using Resources"``), and says why in words. A refused action never
changes the game: games validate completely before they change anything.

>>> err = IllegalAction("that stone was just flipped", rule="R-GC-30", section="Using Resources")
>>> str(err)
'that stone was just flipped [R-GC-30; Using Resources]'
"""

from __future__ import annotations


class LudicaError(Exception):
    """Base of every error Ludica raises on purpose (never a bug)."""

    def __init__(self, reason: str, *, rule: str | None = None, section: str | None = None) -> None:
        self.reason = reason
        self.rule = rule
        self.section = section
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = "; ".join(part for part in (self.rule, self.section) if part)
        return f"{self.reason} [{where}]" if where else self.reason

    def to_json(self) -> dict[str, str | None]:
        """The error as a small JSON object (what the table sends to a browser)."""
        return {"error": type(self).__name__, "reason": self.reason, "rule": self.rule, "section": self.section}


class IllegalAction(LudicaError):
    """The action is well formed but the rules do not allow it now."""


class NotYourDecision(IllegalAction):
    """The seat acted although the game is not waiting for it."""


class MalformedAction(IllegalAction):
    """Unknown action type, missing or extra parameter, or a value of the wrong kind."""


class ConfigError(LudicaError):
    """A game cannot be set up from this configuration (player count, unknown option...)."""


class RecordError(LudicaError):
    """A record cannot be read or replayed: corrupt JSON, unknown game, wrong version."""


class DigestMismatch(RecordError):
    """Replaying the record gives a different state than the one the record claims."""


class PositionError(LudicaError):
    """A position cannot be read, or breaks an invariant of its game."""


class UnknownGame(LudicaError):
    """No game is registered under this id."""
