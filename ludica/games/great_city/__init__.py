"""The Great City (Bill White, Game Chef 2008): the oracle of triad stones, scarabs, scenes and
the fate of a city walking on spider-back.

Two to five players (``p1..pN``) and a GM (seat ``gm``). The table throws the Great City's
triad-pair and reads its situation, creates one to three agents of peril, and each player
generates a character (a triad of blue, white and green stones, traits, class and an intent:
"Will you save the Great City?"). Scenes then go around the initiative cycle, the GM last: the
focal seat's character meets a foil, the GM's d6 flips a stone, and every seat in turn arrives,
passes, flips stones by traits, ties and scarabs, or accepts the oracle's judgment and takes the
ante. When a scene ends with the Mounting Peril pool empty, the fattest purse narrates the city's
fate (it survives only with more Yea than Nay scarabs) and each player his character's.

Rules as implemented: ``docs/rules/great-city.md``; the spec with its rulings:
``shared/rules/the-great-city.md``; the oracle tables: ``data/oracle.yaml``.

>>> from ludica.core import Config, Match
>>> match = Match(GAME, Config(("Ann", "Bob"), {}, 7))
>>> match.pending().seats, GAME.chance_step(match.state).type
(('chance',), 'roll_situation')
>>> match.state.pool, match.state.nay
(12, 3)
"""

from .game import GreatCity

GAME = GreatCity()

__all__ = ["GAME", "GreatCity"]
