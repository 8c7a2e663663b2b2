"""The hand-over protocol of a shared screen (DESIGN.md principle 14), written once.

At one table the keyboard goes round; whoever may look at the screen is whoever sits near it.
So the terminal keeps track of one thing, *whose* private things may be on the screen now (the
``holder``), and follows two rules:

* **public**: before anything every seat may see is printed (the seat chooser, a bot's move, a
  die rolled in the open, the end of the game) and at every moment the keyboard may change hands
  (a seat is done, ``back``, ``quit``, an error), a screen that holds a seat's private things is
  wiped: the screen *and* the scrollback (``ESC[3J``), so nobody scrolls up into the last hand;
* **private**: a seat's private screen is printed only once that seat's player has confirmed,
  on a public screen, that they hold the keyboard.

A game without hidden information has nothing to hide: its screen is always public. Nor does a
table with one person and bots in every other seat: nobody else looks at the screen.

A seat's screen is *private* only when it holds something another may not see
(:func:`holds_secret`): its view, its options or its story differ when what is hidden from
everyone is drawn again (the game's redeal for nobody). Otherwise the next person simply goes on,
unasked: a hand-over is asked for a secret, never for a turn.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from rich.console import Console

from .core import Action, IntRange, LudicaError, Match
from .core.composer import Composition, choices

WIPE = "\x1b[H\x1b[2J\x1b[3J"
"""Cursor home, erase the screen, erase the scrollback (xterm's E3; kept by most emulators)."""


class SharedScreen:
    """Who may be looking at the screen's private things, and the wipe between two holders."""

    def __init__(self, console: Console, *, hidden: bool) -> None:
        self.console = console
        self.hidden = hidden
        """Whether the game has hidden information (else nothing is ever wiped or asked)."""
        self.holder: str | None = None
        """The seat whose private things may be on the screen (``None``: only public things)."""

    def wipe(self) -> None:
        """Erase the screen and the scrollback, whatever is on them."""
        if self.console.is_terminal:
            self.console.file.write(WIPE)
            self.console.file.flush()
        else:  # a pipe or a test's buffer: the wipe is marked where it happens
            self.console.print("\f", end="", markup=False, highlight=False)

    def public(self) -> None:
        """From here on only what every seat may see is printed (wiping a private screen first)."""
        if self.hidden and self.holder is not None:
            self.wipe()
            self.holder = None

    def needs_hand_over(self, seat: str) -> bool:
        return self.hidden and self.holder != seat

    def hand_over(self, seat: str, who: str, confirm: Callable[[str], object]) -> object:
        """Make ``seat`` the holder: on a public screen, ``confirm`` asks its player (named
        ``who``) to take the keyboard; a seat that already holds it goes on at once. Returns
        what ``confirm`` returned (what was typed at the prompt), ``None`` when nothing was asked."""
        if not self.needs_hand_over(seat):
            return None
        self.public()
        typed = confirm(f"Hand the keyboard to {who}: press Enter when the others look away. ")
        self.holder = seat
        return typed

    def private(self, seat: str) -> None:
        """``seat`` holds the keyboard from now on (it confirmed elsewhere, e.g. by a secret prompt)."""
        self.holder = seat if self.hidden else None


REDEALS = 8
"""How many redeals :func:`holds_secret` compares (a hidden value drawn the same every time by
chance is the only miss: with two possible values, one in 2**8)."""


def holds_secret(match: Match[Any], seat: str, since: int = 0) -> bool:
    """Whether ``seat``'s screen holds something another seat may not see: its view or its legal
    actions change when everything hidden from everyone is redealt (the game's redeal for
    ``None``, :meth:`~ludica.core.game.Game.redeal`), or its story after step ``since`` (its last
    action, whose private lines it knows) holds a line only some may read (the story before is
    shown only on request: :func:`private_story`).
    Deterministic: the redeals' generators are seeded by the step."""
    game = match.game
    if not game.meta.hidden_information:
        return False
    if private_story(match, seat, since + 1):
        return True
    view = game.view(match.state, seat)
    if shows_a_secret(match, seat, view):
        return True
    templates = game.legal_actions(match.state, seat)
    legal = [str(a) for a in templates]
    if sealed_choice(match, templates):
        return True
    step = len(match.actions)
    for i in range(REDEALS):
        other = game.redeal(match.state, None, random.Random(step * REDEALS + i))
        if game.view(other, seat) != view or [str(a) for a in game.legal_actions(other, seat)] != legal:
            return True
    return False


def shows_a_secret(match: Match[Any], seat: str, view: Any) -> bool:
    """Whether ``view`` shows an item the game declares hidden from some other seat
    (:meth:`~ludica.core.game.Game.secrets`): a redeal keeps what the pending decision names (a
    hidden recruit being used), so the redeals alone can miss it."""
    game = match.game
    seats = set(game.seats(match.state))
    hidden = [s.token for s in game.secrets(match.state) if seat in s.holders and not seats <= s.holders]
    if not hidden:
        return False
    text = json.dumps(view, ensure_ascii=False, default=str)
    return any(token in text for token in hidden)


def sealed_choice(match: Match[Any], legal: list[Action]) -> bool:
    """Whether what the seat answers may stay unseen by the others (a sealed bid, a card played
    face down): two of its options leave the same public table and story. The options tried are
    the first and the last of each choice (text typed in the open is not tried)."""
    game = match.game
    seen: dict[str, Action] = {}
    for action in _samples(legal):
        state = game.copy(match.state)
        try:
            events = game.play(state, action)
        except (LudicaError, ValueError):  # an option the rules refuse after all tells nothing
            continue
        public = repr((game.view(state, None), [e.text for e in events if e.visible(None)]))
        if public in seen and seen[public] != action:
            return True
        seen[public] = action
    return False


def _samples(legal: list[Action]) -> list[Action]:
    """Up to two whole actions of each choice: its first and its last values at every step."""
    out: list[Action] = []
    for choice in choices(legal):
        for end in (0, -1):
            composition = Composition(choice)
            step = composition.ask()
            while step is not None:
                if step.values:
                    value: Any = step.values[end]
                elif isinstance(step.field, IntRange):
                    value = step.field.lo if end == 0 else step.field.hi
                else:
                    break
                try:
                    composition = composition.pick(step.param, value)
                except ValueError:
                    break
                step = composition.ask()
            if step is None and composition.action() not in out:
                out.append(composition.action())
    return out


def private_story(match: Match[Any], seat: str, since: int = 0) -> bool:
    """Whether ``seat``'s story from step ``since`` on holds a line not everyone may read."""
    return any(entry.event.visible_to and entry.step >= since for entry in match.story(seat))


__all__ = ["WIPE", "SharedScreen", "holds_secret", "private_story", "shows_a_secret"]
