"""Strength, measured: seat-rotated matches between bots, win rates with 95% confidence
intervals (Wilson's, from statsmodels) and a rating with its uncertainty (openskill's
Plackett–Luce model: a skill ``mu`` and its standard deviation ``sigma``), both from the ``lab``
extra (``pip install 'ludica[lab]'``; without it the table shows the win rates alone and says why).

``ludica tournament euphoria --bots ismcts,random,random,random --games 40 --players 4``

The lineup of game *i* seats bot ``(i + j) mod k`` of the *k* listed at seat *j*, so every bot
sits at every seat equally often over *k* games (list a bot several times to fill a table with
it: "ismcts against three random"). Each game has its own dealer seed (``seed + i``) and each
bot its own seed, so a tournament is reproducible whatever ``--jobs`` (except for bots given a
time budget). A win is shared between the winners of a game.

A bot's win rate is per seat (its wins over the seats it held), but its interval counts games,
not seats: the seats of one bot in one game are not independent trials (when one of three
heuristic seats wins, the other two lose). A referee seat (the Great City's GM) is never one of
the rotated seats: one bot (``--gm``, default ``heuristic``) plays it in every game, and the
command says so. A game whose rules name no winners (Euthymia, Misery Bubblegum) has nothing to
rank and is refused.

The rating reads each game as a ranking of the bots that sat in it: a bot with a winning seat
ahead of the others, those tied behind it (a bot holding several seats is one entrant, ranked
by its best seat). Games are rated in index order, so the ratings are the same whatever
``--jobs``.

It belongs with the bots, not the lab: it measures bots, not rule sets (the lab's ``simulate`` and
``compare`` measure rules and may use it).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import IO, Any

from ..core.errors import LudicaError
from ..core.game import Config
from ..core.match import Match
from ..core.registry import get_game
from ..workers import in_order, worker_pool
from .base import Bot, make_bot
from .play import play_match

AHEAD = 8
"""Games handed to each worker ahead of the results (enough to keep it busy, few to cancel at Ctrl-C)."""
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game: who sat where (seat -> bot spec), the winners, the length and how it ended."""

    index: int
    lineup: dict[str, str]
    winners: tuple[str, ...]
    steps: int
    end: str


@dataclass(slots=True)
class Standing:
    """A bot's record: seats played, wins (shared), interval, rating; and per game in which it
    sat, its seats and its wins there (``per_game``), from which the interval is counted."""

    bot: str
    played: int = 0
    wins: float = 0.0
    rating: float | None = None
    """openskill's ``mu`` (the model's default scale: a new bot starts at 25)."""
    sigma: float | None = None
    """openskill's ``sigma``: the rating's standard deviation (``mu ± 2 sigma``: about 95%)."""
    per_game: list[tuple[int, float]] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    @property
    def games(self) -> int:
        return len(self.per_game)

    def interval(self) -> tuple[float, float]:
        """95% interval of the win rate per seat, counting games, not seats: Wilson's over the
        games (a bot holding *s* seats in each game: its wins per game are a share of at most 1,
        divided by *s*); a seeded bootstrap over games when its number of seats varies."""
        return game_interval(self.per_game)


def game_interval(per_game: Sequence[tuple[int, float]], *, rounds: int = 2000) -> tuple[float, float]:
    """The 95% interval of ``sum(wins) / sum(seats)`` over games given as ``(seats, wins)``:
    Wilson's when every game has the same number of seats, else a seeded percentile bootstrap of
    the ratio over games (``scipy.stats.bootstrap``)."""
    if not per_game:
        return (0.0, 1.0)
    sizes = {seats for seats, _ in per_game}
    if len(sizes) == 1:
        seats = sizes.pop()
        lo, hi = wilson(sum(w for _, w in per_game), len(per_game))
        return (lo / seats, hi / seats)
    import numpy as np
    from scipy.stats import bootstrap

    seats_of = np.array([s for s, _ in per_game], dtype=float)
    wins_of = np.array([w for _, w in per_game], dtype=float)
    result = bootstrap(
        (seats_of, wins_of),
        lambda s, w, axis=-1: w.sum(axis=axis) / s.sum(axis=axis),
        paired=True,
        n_resamples=rounds,
        method="percentile",
        rng=np.random.default_rng(len(per_game)),
    )
    return (float(result.confidence_interval.low), float(result.confidence_interval.high))


@dataclass(slots=True)
class Tournament:
    game_id: str
    bots: list[str]
    players: int
    results: list[GameResult] = field(default_factory=list)

    def standings(self) -> list[Standing]:
        """Each bot's record with its openskill rating (needs the ``lab`` extra)."""
        table = self.tally()
        rated = ratings(self.results, [t.bot for t in table], self.players)
        for standing in table:
            standing.rating, standing.sigma = rated.get(standing.bot, (None, None))
        return table

    def tally(self) -> list[Standing]:
        """Each bot's seats, wins and wins per game (no library needed)."""
        table = {b: Standing(b) for b in dict.fromkeys(self.bots)}
        for r in self.results:
            share = 1.0 / len(r.winners) if r.winners else 0.0
            mine: dict[str, list[float]] = {}
            for seat in _players(r, self.players):
                bot = r.lineup[seat]
                table[bot].played += 1
                won = share if seat in r.winners else 0.0
                table[bot].wins += won
                mine.setdefault(bot, []).append(won)
            for bot, wins in mine.items():
                table[bot].per_game.append((len(wins), sum(wins)))
        return list(table.values())


def _players(r: GameResult, players: int) -> list[str]:
    """The seats that can win (a referee seat, such as the Great City's GM, comes last)."""
    return list(r.lineup)[:players]


def wilson(wins: float, n: int) -> tuple[float, float]:
    """Wilson's 95% interval of a proportion (statsmodels' ``proportion_confint``).

    >>> [round(x, 3) for x in wilson(8, 10)]
    [0.49, 0.943]
    """
    if n == 0:
        return (0.0, 1.0)
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(wins, n, alpha=0.05, method="wilson")
    return (0.0 if wins <= 0 else float(lo), 1.0 if wins >= n else float(hi))


def ratings(results: Sequence[GameResult], bots: list[str], players: int) -> dict[str, tuple[float, float]]:
    """Each bot's openskill rating ``(mu, sigma)`` (Plackett–Luce) after the games in index
    order; each game ranks its bots (a winning seat first, the rest tied behind; a bot with
    several seats is one entrant). Empty when no game has a winner or only one bot played."""
    rated = [r for r in sorted(results, key=lambda r: r.index) if r.winners]
    if len(bots) < 2 or not rated:
        return {}
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {b: model.rating(name=b) for b in bots}
    for r in rated:
        present = list(dict.fromkeys(r.lineup[s] for s in _players(r, players)))
        if len(present) < 2:
            continue
        winners = {r.lineup[w] for w in r.winners}
        teams = model.rate([[current[b]] for b in present], ranks=[0 if b in winners else 1 for b in present])
        for b, (rating,) in zip(present, teams, strict=True):
            current[b] = rating
    return {b: (float(x.mu), float(x.sigma)) for b, x in current.items()}


def have_ratings() -> bool:
    """Whether the ``lab`` extra's libraries (statsmodels, scipy, openskill) are installed."""
    try:
        import openskill.models  # noqa: F401
        import scipy.stats  # noqa: F401
        import statsmodels.stats.proportion  # noqa: F401
    except ImportError:
        return False
    return True


def lineups(bots: Sequence[str], seats: Sequence[str], games: int) -> Iterator[dict[str, str]]:
    """Game i seats bot (i + j) mod k at seat j."""
    k = len(bots)
    for i in range(games):
        yield {seat: bots[(i + j) % k] for j, seat in enumerate(seats)}


def play_game(
    game_id: str, players: int, lineup_bots: list[str], seed: int, index: int, referee: str | None = None
) -> GameResult:
    """Play one game with the bots in seat order (``lineup_bots``); the dealer seed is ``seed``.
    ``referee``: the bot of the seats after the players' (a GM); None: the lineup goes round."""
    game = get_game(game_id)
    match: Match[Any] = Match(game, Config(NAMES[:players], {}, seed))
    seats = game.seats(match.state)
    lineup = {
        seat: referee if referee is not None and j >= players else lineup_bots[j % len(lineup_bots)]
        for j, seat in enumerate(seats)
    }
    bots: dict[str, Bot] = {s: make_bot(spec, game_id, seed * 31 + j) for j, (s, spec) in enumerate(lineup.items())}
    steps = play_match(match, bots, random.Random(seed), max_steps=game.meta.max_steps)
    outcome = game.outcome(match.state)
    winners = tuple(outcome.winners) if outcome else ()
    end = (outcome.summary if outcome else "unfinished")[:80]
    return GameResult(index, lineup, winners, steps, end)


def check(game_id: str, bots: Sequence[str], players: int | None) -> int:
    """Refuse a bad game, bot spec or player count before any game is played; the player count."""
    game = get_game(game_id)
    if not bots:
        raise ValueError("name at least one bot")
    n = players if players is not None else max(game.meta.players_min, min(len(bots), game.meta.players_max))
    if not game.meta.players_min <= n <= game.meta.players_max:
        raise ValueError(f"{game.meta.title} takes {game.meta.players_min}-{game.meta.players_max} players, not {n}")
    for spec in dict.fromkeys(bots):
        make_bot(spec, game_id, 0)
    return n


def referee_seats(game_id: str, players: int) -> list[str]:
    """The seats after the players' (a referee such as the Great City's GM), in seat order."""
    game = get_game(game_id)
    return list(game.seats(game.setup(Config(NAMES[:players], {}, 0))))[players:]


def ranks(game_id: str, players: int) -> bool:
    """Whether the game names winners, so that a tournament has something to rank: a game with a
    standing does; one without is tried once with random bots, and a finished game without a
    winner means its rules name none (Euthymia, Misery Bubblegum)."""
    game = get_game(game_id)
    if game.standing(game.setup(Config(NAMES[:players], {}, 0))) is not None:
        return True
    result = play_game(game_id, players, ["random"], 0, 0)
    return bool(result.winners) or result.end == "unfinished"


def _play(task: tuple[str, int, list[str], int, int, str | None]) -> GameResult:
    return play_game(*task)


def run(
    game_id: str,
    bots: Sequence[str],
    games: int,
    *,
    players: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    on_result: Callable[[GameResult], None] | None = None,
    referee: str | None = None,
) -> Tournament:
    """Play ``games`` seat-rotated games between ``bots`` (specs such as ``"ismcts:playouts=50"``);
    ``referee`` plays the seats after the players' in every game (None: the lineup goes round)."""
    n = check(game_id, bots, players)
    if referee is not None:
        make_bot(referee, game_id, 0)
    seats = [f"s{j}" for j in range(n)]
    tasks = (  # made as they are handed out
        (game_id, n, [lineup[s] for s in seats], seed + i, i, referee)
        for i, lineup in enumerate(lineups(bots, seats, games))
    )
    result = Tournament(game_id, list(bots), n)
    if jobs <= 1:
        outcomes: Iterator[GameResult] = map(_play, tasks)
        for r in outcomes:
            result.results.append(r)
            if on_result:
                on_result(r)
    else:
        with worker_pool(jobs) as pool:  # Ctrl-C ends the workers at once
            for r in in_order(pool, _play, tasks, ahead=AHEAD * jobs):
                result.results.append(r)
                if on_result:
                    on_result(r)
    return result


# -- the command ----------------------------------------------------------------------------------
def add_parser(sub: Any) -> None:
    """Register ``ludica tournament`` on the CLI's subcommands."""
    p = sub.add_parser(
        "tournament",
        help="seat-rotated matches between bots: win rates with 95%% intervals and ratings",  # argparse: %% is %
        description="Seat-rotated matches between bots. List a bot several times to fill a table with it, "
        "e.g. --bots ismcts,random,random,random --players 4 (ismcts against three random).",
    )
    p.add_argument("game", help="game id (see 'ludica games')")
    p.add_argument(
        "--bots",
        required=True,
        help="bot specs, comma-separated: random, heuristic, ismcts, ismcts:playouts=50 (parameters after a colon, "
        "separated by '+' here: ismcts:playouts=50+policy=random)",
    )
    p.add_argument("--games", type=int, default=20, help="how many games (default 20)")
    p.add_argument("--players", type=int, help="players per game (default: as many as bots listed, within bounds)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument(
        "--gm",
        default="heuristic",
        metavar="SPEC",
        help="the bot of a referee seat (the Great City's GM) in every game (default heuristic)",
    )
    p.add_argument("--out", metavar="FILE", help="also write each game's result as a JSON line as it ends (replaced)")
    p.set_defaults(func=command)


def split_bots(text: str) -> list[str]:
    """``"random,ismcts:playouts=50+policy=random"`` -> ``["random", "ismcts:playouts=50,policy=random"]``."""
    return [b.strip().replace("+", ",") for b in text.split(",") if b.strip()]


def _lines_kept(out: IO[str]) -> int:
    """How many results ``out`` holds once closed: Ctrl-C may fall between a line's write and the
    list of finished games, so the file, not the list, is what was kept."""
    out.close()
    with open(out.name, encoding="utf-8") as kept:
        return sum(1 for _ in kept)


def command(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    console = Console(highlight=False, width=max(Console().width, 110) if sys.stdout.isatty() else 250)
    bots = split_bots(args.bots)
    finished: list[GameResult] = []
    out: IO[str] | None = None
    try:
        players = check(args.game, bots, args.players)
        if args.games < 1 or args.jobs < 1:
            raise ValueError("--games and --jobs must be at least 1")
        if not ranks(args.game, players):
            title = get_game(args.game).meta.title
            raise ValueError(f"{title} names no winners: a tournament has nothing to rank (use ludica simulate)")
        referees = referee_seats(args.game, players)
        make_bot(args.gm, args.game, 0)
        out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115 (closed below)

        def done(r: GameResult) -> None:
            finished.append(r)
            progress.advance(task)
            if out is not None:
                out.write(json.dumps(asdict(r)) + "\n")
                out.flush()

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=console) as progress:
            task = progress.add_task(f"{args.game}: games", total=args.games)
            result = run(
                args.game,
                bots,
                args.games,
                players=args.players,
                seed=args.seed,
                jobs=args.jobs,
                on_result=done,
                referee=args.gm if referees else None,
            )
        if out is not None:
            out.close()
    except (ValueError, LudicaError) as exc:  # a bad spec, game or count: one line, no traceback
        console.print(f"ludica: {exc}", style="red", markup=False)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: the finished games' lines are already in --out
        kept = f"; their results are in {args.out}" if args.out else ""
        count = _lines_kept(out) if args.out and out is not None else len(finished)
        console.print(f"ludica: stopped (Ctrl-C): {count} games finished{kept}", soft_wrap=True)
        return 130
    table = Table(title=f"{args.game}: {args.games} games, {result.players} players (parity {1 / result.players:.0%})")
    full = have_ratings()
    headings = ["bot", "games", "seats played", "wins", "win rate (per seat)"]
    headings += ["95% interval (by game)", "rating (openskill mu ± 2 sigma)"] if full else []
    for heading in headings:
        table.add_column(heading, no_wrap=True)
    standings = result.standings() if full else result.tally()
    for s in standings:
        row = [s.bot, str(s.games), str(s.played), f"{s.wins:g}", f"{s.rate:.1%}"]
        if full:
            lo, hi = s.interval()
            rating = f"{s.rating:.1f} ± {2 * s.sigma:.1f}" if s.rating is not None and s.sigma is not None else "-"
            row += [f"{lo:.1%} – {hi:.1%}", rating]
        table.add_row(*row)
    console.print(table)
    if not full:
        console.print("intervals and ratings need statsmodels, scipy and openskill: pip install 'ludica[lab]'")
    if referees:
        console.print(f"{', '.join(referees)} (the referee, not ranked) played by {args.gm} in every game (--gm)")
    unfinished = sum(1 for r in result.results if not r.winners)
    if unfinished:
        console.print(f"{unfinished} game(s) without a winner (the game has none, or it did not end)")
    return 0
