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

A game without hidden information has nothing to hide: its screen is always public.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console

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

    def hand_over(self, seat: str, who: str, confirm: Callable[[str], object]) -> None:
        """Make ``seat`` the holder: on a public screen, ``confirm`` asks its player (named
        ``who``) to take the keyboard; a seat that already holds it goes on at once."""
        if not self.needs_hand_over(seat):
            return
        self.public()
        confirm(f"Hand the keyboard to {who}: press Enter when the others look away. ")
        self.holder = seat

    def private(self, seat: str) -> None:
        """``seat`` holds the keyboard from now on (it confirmed elsewhere, e.g. by a secret prompt)."""
        self.holder = seat if self.hidden else None


__all__ = ["WIPE", "SharedScreen"]
