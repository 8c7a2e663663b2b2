"""``ludica simulate`` and ``ludica compare``: the designer's commands (registered by ``ludica.cli``).

* ``ludica simulate GAME --games N --bot heuristic [--bot p2=random] [--option KEY=VALUE]
  [--seed S] [--players P] [--jobs N | --ray [ADDRESS]] [--out FILE.jsonl] [--report DIR]``
* ``ludica compare GAME --a KEY=VALUE … --b KEY=VALUE … --games N --bot …``: every figure under
  A and B, the difference B − A with its 95% bootstrap interval, and the seat advantage under each.

Every user mistake is a :class:`~ludica.core.errors.ConfigError` (one line, exit status 2).
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import zlib
from collections.abc import Sequence
from pathlib import Path
from statistics import fmean
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..core.errors import ConfigError
from ..core.game import Game, GameMeta
from ..core.registry import get_game
from .analysis import Rate, align, bootstrap_diff, bootstrap_mean, bot_rates, figures, has_winners, seat_rates, warnings
from .batch import Batch, Interrupted, run, summaries
from .playthrough import NAMES
from .ray_backend import require_ray
from .report import Arm, require_matplotlib, write_report

console = Console(highlight=False)

TRUE = {"true", "yes", "on", "1"}
FALSE = {"false", "no", "off", "0"}


# -- parsing -------------------------------------------------------------------------------------
def typed_option(meta: GameMeta, item: str, flag: str = "--option") -> tuple[str, Any]:
    """``KEY=VALUE`` with the value typed by the option's declared default (or its choices)."""
    key, eq, raw = item.partition("=")
    key = key.strip()
    if not eq or not key:
        raise ConfigError(f"{flag} expects KEY=VALUE, got {item!r}", rule="lab")
    spec = meta.option(key)
    model = spec.choices[0] if spec.choices else spec.default
    raw = raw.strip()
    try:
        if isinstance(model, bool):
            if raw.lower() not in TRUE | FALSE:
                raise ValueError
            value: Any = raw.lower() in TRUE
        elif isinstance(model, int):
            value = int(raw)
        elif isinstance(model, float):
            value = float(raw)
        elif isinstance(model, list | dict):
            value = json.loads(raw)
        elif model is None:
            value = json.loads(raw) if raw[:1] in "[{0123456789-" or raw in ("true", "false", "null") else raw
        else:
            value = raw
    except ValueError:
        kind = type(model).__name__
        raise ConfigError(f"option {key!r} takes a {kind} (like {model!r}), not {raw!r}", rule="lab") from None
    spec.check(value)
    return key, value


def options_of(meta: GameMeta, items: Sequence[str] | None, flag: str = "--option") -> dict[str, Any]:
    return dict(typed_option(meta, item, flag) for item in items or ())


def bots_of(items: Sequence[str] | None) -> dict[str, str]:
    """``--bot heuristic`` (every seat) and ``--bot p2=random`` (one seat)."""
    bots = {"*": "random"}
    for item in items or ():
        head, eq, spec = item.partition("=")
        if eq and ":" not in head and "," not in head:
            bots[head.strip()] = spec.strip()
        else:
            bots["*"] = item.strip()
    return bots


def players_of(meta: GameMeta, args: argparse.Namespace) -> tuple[str, ...]:
    if args.names:
        return tuple(n.strip() for n in args.names.split(","))
    n = args.players if args.players is not None else meta.players_min
    if n > len(NAMES):
        raise ConfigError(f"give the players' names with --names for more than {len(NAMES)} players", rule="lab")
    return NAMES[:n]


def batch_of(args: argparse.Namespace, options: dict[str, Any], bots: Sequence[str] = ()) -> Batch:
    meta = get_game(args.game).meta
    return Batch(
        game=args.game,
        players=players_of(meta, args),
        options=options,
        bots=bots_of([*(args.bot or ()), *bots]),
        games=args.games,
        seed=args.seed or 0,
        max_steps=args.max_steps,
    )


def play(batch: Batch, args: argparse.Namespace, label: str, out: str | None = None) -> list[dict[str, Any]]:
    """Play a batch with a progress bar, on the backend the arguments ask for. At Ctrl-C the
    finished games' records are written to ``out`` before the interruption goes on."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task(label, total=batch.games)
            return run(batch, jobs=args.jobs, ray=args.ray, advance=lambda n: progress.advance(task, n))
    except Interrupted as stop:
        if out:
            write_records(out, stop.records, quiet=True)
            stop.saved.append(out)
        raise


def arm_out(args: argparse.Namespace, tag: str) -> str:
    """``compare --out FILE``: where arm ``tag`` (A or B) writes its records (FILE-A.jsonl…)."""
    base = Path(args.out)
    return str(base.with_name(f"{base.stem}-{tag}{base.suffix or '.jsonl'}"))


def write_records(path: str, records: list[dict[str, Any]], *, quiet: bool = False) -> None:
    """JSON Lines (one game a line) unless the file ends in ``.json`` (one list)."""
    with open(path, "w", encoding="utf-8") as out:
        if path.endswith(".json"):
            json.dump([r["summary"] | {k: v for k, v in r.items() if k != "summary"} for r in records], out)
            out.write("\n")
        else:
            for r in records:
                out.write(json.dumps(r, sort_keys=True) + "\n")
    if not quiet:
        console.print(f"Per-game records written to {path}")


# -- printing ------------------------------------------------------------------------------------
def _seed(name: str, batch: Batch) -> int:
    return zlib.crc32(name.encode()) ^ batch.seed


def _fmt(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}"


def figure_rows(arm: Arm) -> tuple[list[str], list[list[str]]]:
    rows = []
    for name, values in figures(arm.records, get_game(arm.batch.game).meta.end_reasons).items():
        if not values:
            continue
        lo, hi = bootstrap_mean(values, seed=_seed(name, arm.batch), rounds=1000)
        rows.append([name, _fmt(fmean(values)), f"[{_fmt(lo)}, {_fmt(hi)}]", str(len(values))])
    return ["figure", "mean", "95% CI", "games"], rows


def compare_rows(a: Arm, b: Arm) -> tuple[list[str], list[list[str]]]:
    declared = get_game(a.batch.game).meta.end_reasons
    fa, fb = figures(a.records, declared), figures(b.records, declared)
    align(fa, fb)
    rows = []
    for name in [*fa, *(k for k in fb if k not in fa)]:
        va, vb = fa.get(name, []), fb.get(name, [])
        if not va and not vb:
            continue
        ma = fmean(va) if va else math.nan
        mb = fmean(vb) if vb else math.nan
        lo, hi = bootstrap_diff(va, vb, seed=_seed(name, a.batch), rounds=1000)
        mark = " *" if not math.isnan(lo) and (lo > 0 or hi < 0) else ""
        rows.append([name, _fmt(ma), _fmt(mb), _fmt(mb - ma) + mark, f"[{_fmt(lo)}, {_fmt(hi)}]"])
    return ["figure", "A", "B", "B - A (* CI excludes 0)", "95% CI of B - A"], rows


def print_table(title: str, head: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    table = Table(title=title)
    for h in head:
        table.add_column(h)
    for row in rows:
        table.add_row(*row)
    console.print(table)


def print_rates(label: str, rates: list[Rate]) -> None:
    rows = [[r.who, r.text(), "yes" if r.unfair else ""] for r in rates]
    print_table(label, ["who", "win rate [95% CI]", "CI excludes fair share"], rows)


def print_warnings(label: str, found: list[Any]) -> None:
    if not found:
        console.print(f"[green]{label}: no warning.[/green]")
        return
    console.print(f"[bold yellow]Where a rule breaks — {label}[/bold yellow]")
    for w in found:
        console.print(f"  [yellow]{w.kind}[/yellow]: {w.message}", markup=True, highlight=False)


def describe(game: Game[Any], arm: Arm) -> None:
    """The terminal's account of one batch."""
    print_table(f"{game.meta.title} — {arm.label}: {len(arm.records)} games", *figure_rows(arm))
    if has_winners(arm.records):
        print_rates(f"Win rate by seat — {arm.label}", seat_rates(arm.records))
        print_rates(f"Win rate by bot — {arm.label}", bot_rates(arm.records))
    finished = summaries(arm.records)
    if finished:
        print_table(f"The game's own figures — {arm.label}", ["figure", "value"], game.report(finished))


# -- commands ------------------------------------------------------------------------------------
def check_extras(args: argparse.Namespace) -> None:
    """Say what to install before playing anything, not after."""
    if args.report:
        require_matplotlib()
    if args.ray is not None:
        require_ray()


def cmd_simulate(args: argparse.Namespace) -> int:
    check_extras(args)
    game = get_game(args.game)
    batch = batch_of(args, options_of(game.meta, args.option))
    label = ", ".join(f"{k}={v}" for k, v in batch.bots.items() if k != "*") or ""
    label = f"{batch.bots['*']}" + (f" ({label})" if label else "")
    records = play(batch, args, f"simulating {args.game}", args.out)
    arm = Arm(label, batch, records)
    describe(game, arm)
    found = warnings(game, records)
    print_warnings(label, found)
    if args.out:
        write_records(args.out, records)
    if args.report:
        page = write_report(
            args.report,
            game,
            [arm],
            command=_command(args),
            warnings={label: found},
            figure_rows=figure_rows(arm),
            game_lines={label: game.report(summaries(records))} if summaries(records) else {},
        )
        console.print(f"Report written to {page}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    check_extras(args)
    game = get_game(args.game)
    common = options_of(game.meta, args.option)
    arms: list[Arm] = []
    for label, items, flag, bots in (("A", args.a, "--a", args.bot_a), ("B", args.b, "--b", args.bot_b)):
        batch = batch_of(args, common | options_of(game.meta, items, flag), bots or ())
        changed = ", ".join([*(items or ()), *(f"bot {b}" for b in bots or ())]) or "defaults"
        out = arm_out(args, label) if args.out else None
        try:
            records = play(batch, args, f"{args.game} {label}", out)
        except Interrupted as stop:  # Ctrl-C in B: A's games are finished too
            if args.out and arms:
                write_records(arm_out(args, "A"), arms[0].records, quiet=True)
                stop.saved.insert(0, arm_out(args, "A"))
            raise
        arms.append(Arm(f"{label} ({changed})", batch, records))
    a, b = arms
    print_table(f"{game.meta.title}: {a.label} vs {b.label}", *compare_rows(a, b))
    found = {}
    for arm in arms:
        finished = summaries(arm.records)
        if finished:
            print_table(f"The game's own figures — {arm.label}", ["figure", "value"], game.report(finished))
        if has_winners(arm.records):
            print_rates(f"Seat advantage — {arm.label}", seat_rates(arm.records))
        found[arm.label] = warnings(game, arm.records)
        print_warnings(arm.label, found[arm.label])
    if args.out:
        for arm, tag in zip(arms, "AB", strict=True):
            write_records(arm_out(args, tag), arm.records)
    if args.report:
        lines = {arm.label: game.report(summaries(arm.records)) for arm in arms if summaries(arm.records)}
        page = write_report(
            args.report,
            game,
            arms,
            command=_command(args),
            warnings=found,
            figure_rows=compare_rows(a, b),
            game_lines=lines,
        )
        console.print(f"Report written to {page}")
    return 0


def _command(args: argparse.Namespace) -> str:
    """The command that gives these figures again, rebuilt from the parsed arguments."""
    words = ["ludica", args.command, args.game]
    for flag in ("players", "names", "games", "seed", "max_steps", "jobs"):
        value = getattr(args, flag, None)
        if value is not None:
            words += [f"--{flag.replace('_', '-')}", str(value)]
    for flag in ("option", "bot", "a", "b", "bot_a", "bot_b"):
        for value in getattr(args, flag, None) or ():
            words += [f"--{flag.replace('_', '-')}", value]
    if args.ray is not None:
        words += ["--ray"] + ([] if args.ray == "local" else [args.ray])
    return " ".join(shlex.quote(w) for w in words)


# -- registration --------------------------------------------------------------------------------
def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="game id (see 'ludica games')")
    p.add_argument("--players", type=int, help="number of players (default: the game's minimum)")
    p.add_argument("--names", help="players' names in seat order, comma-separated (sets the number)")
    p.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help="a game option or house rule (typed like its default)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of game 0; game i is dealt with seed+i (default 0)")
    p.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    p.add_argument(
        "--bot",
        action="append",
        metavar="SPEC|SEAT=SPEC",
        help="the bot of every seat (random, heuristic, ismcts:playouts=200) or of one seat (p2=random); "
        "default random",
    )
    p.add_argument("--max-steps", type=int, help="stop a game after this many steps (default: the game's bound)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="play on a Ray cluster at ADDRESS (alone: a local Ray with max(2, --jobs) CPUs)",
    )
    p.add_argument("--out", metavar="FILE", help="write every game's record: FILE.jsonl (a line each) or FILE.json")
    p.add_argument("--report", metavar="DIR", help="write an HTML report with its plots into DIR")


def register(sub: Any) -> None:
    """Add ``simulate`` and ``compare`` to the ``ludica`` command's subparsers."""
    simulate = sub.add_parser(
        "simulate", help="play many games with bots: figures with CIs, seat advantage, warnings, report"
    )
    _common(simulate)
    simulate.set_defaults(func=cmd_simulate)
    compare = sub.add_parser("compare", help="what changes if…: two rule sets, every figure's difference with its CI")
    _common(compare)
    compare.add_argument("--a", action="append", metavar="KEY=VALUE", help="an option of rule set A (repeat)")
    compare.add_argument("--b", action="append", metavar="KEY=VALUE", help="an option of rule set B (repeat)")
    compare.add_argument(
        "--bot-a", action="append", metavar="SPEC|SEAT=SPEC", help="the bots of A, over --bot (repeat)"
    )
    compare.add_argument("--bot-b", action="append", metavar="SPEC|SEAT=SPEC", help="the bots of B, over --bot")
    compare.set_defaults(func=cmd_compare)
