"""What the redeal leak tests of every front end share (issue 23, points 4 and 6).

A seat's screen is compared with that of a copy of the game whose hidden parts were redealt for
that seat (the game's own ``redeal``: everything the seat may not see drawn again). The seat
cannot tell the two apart, so any difference in what it is shown is a leak of the hidden part.
The web table (``tests/table/test_table_redeal_leaks.py``) and the terminal
(``tests/cli/test_terminal_redeal_leaks.py``) use the same games, bots, moments and copies.

One difference is the rules' own, not a front end's: in the ninth hour's final round of Euthymia
the Committee Member is never chosen for an ordinary final turn (R-EU-30), so which players tie
for the next final turn can say who he is not (``docs/rules/euthymia-rulings.md``, "Known
inferences"). :func:`rule_implied_tie` recognises exactly that moment.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from ludica.bots.base import BOTS, make_bot
from ludica.bots.random_bot import RandomBot, random_step
from ludica.core import Config, Match, get_game

PLAYERS = {"great-city": 4, "euthymia": 3, "misery-bubblegum": 3, "lost-days": 3, "euphoria": 3}
STEPS = {"euthymia": 2500}
"""Steps played per game (Euthymia further: its hours are long; its clock is hurried as the table would feed it)."""
DEFAULT_STEPS = 300
EVERY = 10
"""After the first :data:`DENSE` steps, one step in this many is compared..."""
DENSE = 60
CLOSE: dict[str, Any] = {"euthymia": lambda state: state.hour >= 9}
"""...except where a game's hidden part matters most (every step of Euthymia's last hours)."""

make_bot("random", "pig")


def bot_for(game_id: str, seed: int) -> Any:
    """The bot that plays a seat: the game's heuristic where it has one, else random."""
    return make_bot("heuristic" if "heuristic" in BOTS else "random", game_id, seed)


def compared_now(game_id: str, state: Any, step: int) -> bool:
    """Whether the screens of this step are compared (every step early and in the last hours,
    then one in :data:`EVERY`, one in five times as many for a game with long hours)."""
    close = CLOSE.get(game_id, lambda _state: False)(state)
    sparse = EVERY * (5 if game_id in CLOSE else 1)
    return step < DENSE or step % sparse == 0 or close


def disposable(match: Match[Any], state: Any = None) -> Match[Any]:
    """A copy of ``match`` at ``state`` (default: a copy of its own) with its own record and story:
    what is played in it changes nothing of ``match``. The story stays the one told so far."""
    other = copy.copy(match)
    other.state = match.game.copy(match.state) if state is None else state
    other.actions = list(match.actions)
    other.typed = list(match.typed)
    other.log = list(match.log)
    return other


def redealt_match(match: Match[Any], seat: str | None, rng: random.Random) -> Match[Any]:
    """A disposable copy of ``match`` whose state is the game's redeal for ``seat`` (the record
    and the story stay: they are what was seen)."""
    return disposable(match, match.game.redeal(match.state, seat, rng))


def first_difference(a: str, b: str) -> str:
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"…{a[max(0, i - 150) : i + 150]}…\n  vs\n…{b[max(0, i - 150) : i + 150]}…"


# -- Euthymia's ninth hour (R-EU-30) -----------------------------------------------------------------
def ninth_hour_tie(state: Any) -> tuple[str, ...] | None:
    """The players tied for the next final turn of the ninth hour, as the rules choose them (the
    Committee Member left out, R-EU-30); ``None`` outside that moment."""
    from ludica.games.euthymia import drink
    from ludica.games.euthymia.state import NEXT_ACTIVE, TURN_END

    if not (state.hour == 9 and state.final_round_active and state.phase == TURN_END) or state.awaiting_death:
        return None
    return tuple(drink.open_tie(state, NEXT_ACTIVE))


def rule_implied_tie(game_id: str, real: Any, copied: Any) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The two ties (true game, copy) when they differ because the Committee Member differs: the
    rules' own consequence (R-EU-30), the one difference a copy may show; ``None`` otherwise."""
    if game_id != "euthymia":
        return None
    mine, theirs = ninth_hour_tie(real), ninth_hour_tie(copied)
    if mine is None or theirs is None or mine == theirs:
        return None
    assert real.committee_member != copied.committee_member, "the tie changed, yet not the Committee Member"
    return mine, theirs


def resolver_of(state: Any) -> str | None:
    """Who settles the tie for the next turn (the previous Active Player in the ninth hour)."""
    from ludica.games.euthymia import drink

    return drink.resolver(state)


def to_ninth_hour_final_round(seed: int, players: int, options: dict[str, Any] | None = None) -> Match[Any]:
    """A game of Euthymia played at random (with ``seed``, the table's clock among the seats) to
    the first final turn of the ninth hour."""
    game = get_game("euthymia")
    names = tuple(f"P{i + 1}" for i in range(players))
    match: Match[Any] = Match(game, Config(names, dict(options or {}), seed))
    rng = random.Random(seed)
    bot = RandomBot(rng)
    for _ in range(20000):
        state = match.state
        if state.hour == 9 and state.final_round_active:
            return match
        assert not match.is_over(), "the game ended before the ninth hour's final round"
        random_step(match, bot, rng)
    raise AssertionError("the ninth hour's final round never came")


KNOWING = {"CM_PASS_MODE": "manual", "PASSER_LEARNS_RECIPIENT": True, "TIE_BREAK_POURS": True}
"""Options under which more players know more of the identity cards, and a tie is echoed by a pour."""
NINTH_HOUR_GAMES: list[tuple[int, int, dict[str, Any]]] = [
    (3, 3, {}),
    (4, 4, {}),
    (5, 5, {}),
    (8, 5, {}),
    (11, 5, {}),
    (1, 4, KNOWING),
    (8, 5, KNOWING),
]
"""(seed, players, options) of games whose ninth-hour final round has ties the Committee Member changes."""
