"""Misery Bubblegum, Tony Lower-Basch's first draft rules (the dice-pool game, not the later card game).

"Who will you let influence the person you become?" Each player has a pile of dice of their own
colour spread over three pools (Passion, Confidence, Insight, each with a fixed number), Misery
and spare dice. Characters never choose their own Traits: other players offer them, with a
bribe of the player's own dice held as influence, and the player accepts by using them in an
action or refuses by defying them (the dice go to Misery). An action is rolled against a
challenge the roller sets; opponents (players or the GM) roll against their own. The count of
dice at or above the challenge decides success, the total below it decides who says what the
action means; the meaning-decider follows one arrow of the attribute triangle to create or touch
Desires, Threats or Promises and spend Misery, and every roller reclaims dice along it.

Rules: ``../shared/seeds/misery-bubblegum.txt``; settled by the spec
``../shared/rules/misery-bubblegum.md`` (rulings MB-R1..MB-R51). How it is implemented, every
action and option, and every departure: ``docs/rules/misery-bubblegum.md``.

Modules, in the order of the rulebook:

* :mod:`.state` - the sheets, Traits, provisional Traits, resources and the action under way;
* :mod:`.triangle` - the attribute triangle (the missing diagram, MB-R1);
* :mod:`.arithmetic` - Misery on Traits and Threats, wipe-outs, the reclaim split;
* :mod:`.procedure` - the action procedure's automatic steps (roll, count, deciders, cleanup);
* :mod:`.rules` - the table of every decision, with :mod:`.common`, :mod:`.declare`, :mod:`.rolling`,
  :mod:`.meaning`, :mod:`.growth`, :mod:`.reclaim` and :mod:`.rolls` holding each check and effect;
* :mod:`.legal` - the legal decisions of a seat;
* :mod:`.memo` - the answers about one state (who decides, legal actions) remembered until it changes;
* :mod:`.view`, :mod:`.position`, :mod:`.invariants`, :mod:`.stats` - views, positions, checks, figures;
* :mod:`.game` - the Game protocol.

Version history: ``draft-1`` - first implementation of the spec.
"""

from .game import GAME, MiseryBubblegum

__all__ = ["GAME", "MiseryBubblegum"]
