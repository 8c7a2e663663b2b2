"""How often the terminal asks for a hand-over, per game, along seeded play (printed, never asserted).

Every seat is a person at one shared terminal (``ludica play`` without bots), whose answers the
game's heuristic bot chooses; a second run has one person and bots in every other seat. The
terminal's own loop runs (seat chooser, hand-over, dealer); only the decision screen itself is
skipped, its action applied directly. Printed: actions played, hand-overs asked.

    python benchmarks/handovers.py [GAME ...] [--steps N] [--seed N]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from rich.console import Console

sys.path.append(str(Path(__file__).resolve().parents[1]))  # after PYTHONPATH: another checkout may be measured

from ludica.bots.base import make_bot, situation
from ludica.core import Config, Match, get_game
from ludica.core.registry import available
from ludica.terminal import Terminal

PLAYERS = {"great-city": 4, "euthymia": 3, "misery-bubblegum": 3, "lost-days": 3, "euphoria": 3}


class Counted(Terminal):
    """The terminal's loop, each person's decision taken by a bot on their behalf."""

    def __init__(self, match: Match[Any], save: Path, deciders: dict[str, Any], limit: int, **kw: Any) -> None:
        super().__init__(match, save, ask=self.answer, ask_secret=self.answer, **kw)
        self.deciders, self.limit = deciders, limit
        self.asked = self.acted = 0

    def answer(self, prompt: str) -> str:
        if prompt.startswith("Hand the keyboard"):
            self.asked += 1
        return ""

    def decide(self, seat: str) -> None:
        if self.acted >= self.limit:
            raise KeyboardInterrupt
        self.acted += 1
        self.match.apply(self.deciders[seat].decide(situation(self.match, seat)).as_action())


def count(game_id: str, steps: int, seed: int, *, alone: bool) -> tuple[int, int]:
    """(actions of people, hand-overs asked) of one game."""
    names = tuple(f"P{i + 1}" for i in range(PLAYERS.get(game_id, 3)))
    match: Match[Any] = Match(get_game(game_id), Config(names, {}, seed))
    seats = list(match.game.seats(match.state))
    deciders = {s: make_bot("heuristic", game_id, seed + i) for i, s in enumerate(seats)}
    with TemporaryDirectory() as tmp:
        console = Console(file=io.StringIO(), width=80)
        bots = {s: b for s, b in deciders.items() if s != seats[0]} if alone else {}
        table = Counted(match, Path(tmp) / "game.json", deciders, steps, console=console, bots=bots)
        with contextlib.suppress(KeyboardInterrupt):
            table.run()
    return table.acted, table.asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=available())
    parser.add_argument("--steps", type=int, default=300, help="people's actions per game (at most)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':<18} {'actions':>8} {'hand-overs':>11}   one person, bots elsewhere")
    for game_id in args.games:
        acted, asked = count(game_id, args.steps, args.seed, alone=False)
        alone = count(game_id, args.steps, args.seed, alone=True)
        print(f"{game_id:<18} {acted:>8} {asked:>11}   {alone[1]} hand-overs in {alone[0]} actions")


if __name__ == "__main__":
    main()
