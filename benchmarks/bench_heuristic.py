"""The heuristic bot's strength and the length of its games, printed (never asserted).

For each game: the heuristic at one seat against ``random`` at every other seat (the heuristic's
seat rotated game by game, so no seat advantage helps it), its win rate with a 95% Wilson
interval beside the share a random player would get; then all seats heuristic: game length
(steps, turns where the game counts them), how the games end (``summarize``'s end figure) and
the heuristic's decisions per second (CPU time of its ``decide`` calls only).

    python benchmarks/bench_heuristic.py [GAME ...] [--games N] [--players N] [--report]

Issue 12's Euphoria targets: the heuristic wins at least 90% of 4-player games against three
``random``; at least 99% of 4-player heuristic games end by the rulebook's end (``ten_stars``).
Issue 22's: all-heuristic 4-player Euphoria at least 100 games/s on one core (CPU time of whole
games), printed beside that anchor with the ratio.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from ludica.bots.base import Bot, Decision, Situation, make_bot
from ludica.bots.play import play_match
from ludica.core import Match, available, get_game
from ludica.lab.playthrough import default_config

PLAYERS = {"euphoria": 4, "great-city": 3, "euthymia": 3, "misery-bubblegum": 3, "lost-days": 3}
GAMES_PER_SECOND = {"euphoria": 100.0}
"""The anchors of all-heuristic games per CPU second (issue 22: 4-player Euphoria)."""


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


class Timed:
    """A bot whose decisions are counted and timed (CPU time), for decisions per second."""

    decisions = 0
    seconds = 0.0

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name

    def decide(self, situation: Situation) -> Decision:
        start = time.process_time()
        decision = self.bot.decide(situation)
        Timed.seconds += time.process_time() - start
        Timed.decisions += 1
        return decision


def play_one(game_id: str, players: int, seed: int, specs: dict[int, str]) -> tuple[Match[Any], int, list[str]]:
    """One game; ``specs`` maps a player index to a bot spec (default ``random``)."""
    game = get_game(game_id)
    match: Match[Any] = Match(game, default_config(game_id, players, seed))
    seats = game.seats(match.state)
    bots: dict[str, Bot] = {}
    for i, seat in enumerate(seats):
        spec = specs.get(i, "random") if i < players else "heuristic"  # a referee seat plays heuristic
        bot = make_bot(spec, game_id, seed * 100 + i)
        bots[seat] = Timed(bot) if spec == "heuristic" else bot
    steps = play_match(match, bots, random.Random(seed), check=False)
    return match, steps, list(seats[:players])


def _euthymia(match: Match[Any], seat: str) -> dict[str, float]:
    view = match.game.view(match.state, None)
    player = next(p for p in view["players"] if p["seat"] == seat)
    strength = (player.get("character") or {}).get("strength", {})
    deaths = sum(1 for e in match.log if e.event.kind == "death" and e.event.text.startswith(f"{seat}'s character"))
    return {"deaths": float(deaths), "Aspects above zero at the end": float(sum(1 for v in strength.values() if v > 0))}


def _misery(match: Match[Any], seat: str) -> dict[str, float]:
    view = match.game.view(match.state, None)
    sheet = next(c for c in view["characters"] if c["seat"] == seat)
    satisfied = sum(
        1 for e in match.log if e.event.kind == "address" and e.event.text.startswith(f"{sheet['name']} satisfies")
    )
    return {
        "Misery at the end": float(sheet["misery"]),
        "Traits at the end": float(len(sheet["traits"])),
        "Desires it satisfied": float(satisfied),
    }


SEAT_FIGURES: dict[str, Callable[[Match[Any], str], dict[str, float]]] = {
    "euthymia": _euthymia,
    "misery-bubblegum": _misery,
}
"""Per-seat figures for the games without a winner (the heuristic seat against the random ones)."""


def end_of(summary: dict[str, Any]) -> str:
    for key in ("end", "end_reason", "ending", "outcome"):
        if key in summary:
            return str(summary[key])
    return "-"


def versus_random(game_id: str, players: int, games: int) -> None:
    wins = 0.0
    figures = SEAT_FIGURES.get(game_id)
    mine: dict[str, list[float]] = {}
    theirs: dict[str, list[float]] = {}
    for g in range(games):
        seat_index = g % players
        match, _, seats = play_one(game_id, players, 1000 + g, {seat_index: "heuristic"})
        outcome = match.game.outcome(match.state)
        winners = outcome.winners if outcome else ()
        if seats[seat_index] in winners:
            wins += 1.0 / len(winners)
        if figures is not None:
            for i, seat in enumerate(seats):
                for label, value in figures(match, seat).items():
                    (mine if i == seat_index else theirs).setdefault(label, []).append(value)
    if figures is not None:
        for label, values in mine.items():
            print(
                f"  {label}: heuristic seat {statistics.mean(values):.2f}, "
                f"random seats {statistics.mean(theirs[label]):.2f} (per seat, {games} games)"
            )
        return
    lo, hi = wilson(wins, games)
    print(
        f"  heuristic vs {players - 1} random: wins {wins:.1f}/{games} = {100 * wins / games:.0f}% "
        f"(95% CI {100 * lo:.0f}-{100 * hi:.0f}%; a random seat's share {100 / players:.0f}%)"
    )


def all_heuristic(game_id: str, players: int, games: int, verbose: bool = False) -> None:
    steps_list: list[int] = []
    turns: list[int] = []
    ends: Counter[str] = Counter()
    summaries: list[dict[str, Any]] = []
    Timed.decisions, Timed.seconds = 0, 0.0
    start = time.process_time()
    for g in range(games):
        match, steps, _ = play_one(game_id, players, 2000 + g, dict.fromkeys(range(players), "heuristic"))
        summary = match.game.summarize(match.state, steps)
        summaries.append(summary)
        steps_list.append(steps)
        if isinstance(summary.get("turns"), int):
            turns.append(summary["turns"])
        ends[end_of(summary)] += 1
    spent = time.process_time() - start
    per_second = games / spent if spent else float("nan")
    anchor = GAMES_PER_SECOND.get(game_id)
    beside = f" (anchor {anchor:.0f}/s: {per_second / anchor:.2f}x)" if anchor else ""
    print(f"  all heuristic: {per_second:.1f} games/s CPU, whole games{beside}")
    line = f"  all heuristic: steps mean {statistics.mean(steps_list):.0f} (max {max(steps_list)})"
    if turns:
        line += f", turns mean {statistics.mean(turns):.0f} (min {min(turns)}, max {max(turns)})"
    print(line)
    print("  ends: " + ", ".join(f"{k} {v}/{games}" for k, v in ends.most_common()))
    rate = Timed.decisions / Timed.seconds if Timed.seconds else float("nan")
    print(f"  heuristic decisions: {rate:,.0f}/s CPU ({Timed.decisions} decisions)")
    if verbose:
        game = get_game(game_id)
        for label, figure in game.report(summaries):
            print(f"    {label}: {figure}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games_ids", nargs="*", metavar="GAME", help="games to measure (default: all)")
    parser.add_argument("--games", type=int, default=40, help="games per measurement (default 40)")
    parser.add_argument("--report", action="store_true", help="print the game's own figures of the heuristic games")
    parser.add_argument("--players", type=int, default=None, help="players (default: 4 for Euphoria, else 3)")
    args = parser.parse_args()
    for game_id in args.games_ids or available():
        players = args.players or PLAYERS.get(game_id, get_game(game_id).meta.players_min)
        start = time.process_time()
        print(f"{game_id} ({players} players, {args.games} games each)")
        versus_random(game_id, players, args.games)
        all_heuristic(game_id, players, args.games, args.report)
        print(f"  ({time.process_time() - start:.1f} s CPU)")


if __name__ == "__main__":
    main()
