"""The one place where a state remembers its decisions between two plays.

Within one step a driver asks the same questions of the same state several times: ``pending``
(the bot, then ``Match.check``, then ``Game.check``), ``legal_actions`` (the bot, then
``check``), ``chance_step`` (``Match.check``, ``Game.check``, the dealer). The answers depend
only on the state, so the state keeps them in its ``memo_*`` slots (:data:`MEMO_SLOTS`) from the
first asking until the state changes:

* ``GreatCity.play`` forgets (:func:`forget`) before it changes the state;
* ``GreatCityState.copy`` and ``GreatCityState.from_json`` start with no memo;
* ``GreatCityState.to_json`` never writes it (it is not part of the position).

A state changed by hand (tests that pin a triad or add scarabs) must call :func:`forget`
before asking again. (Plain slots rather than a memo object: creating an object per step costs
more than the lookups it saves.)

With the legal actions at hand, ``GreatCity.check`` accepts a listed action (or a template of
one filled in with exactly typed values) at once, and runs the rule validators only to name the
rule that a refused action breaks.

The other caches of the package hold values that never change, keyed by everything they depend
on (interned actions and events, per-character flip tables, the menus of a creation step, of a
tie turn and of the distribution): see ``common.py``, ``creation.py`` and ``scene.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .state import GreatCityState

MEMO_SLOTS: Final = ("memo_pending", "memo_legal", "memo_chance")
"""The state's slots that remember: who decides (``Pending``), the deciding seat's listed legal
actions (never handed out: callers get a copy), the chance step. ``None`` until first asked."""


def forget(state: GreatCityState) -> None:
    """Drop what the state remembered (``GreatCity.play`` does it before every change)."""
    state.memo_pending = state.memo_legal = state.memo_chance = None
