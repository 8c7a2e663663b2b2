"""``ludica simulate`` and ``ludica compare``: the designer's commands (registered by ``ludica.cli``).

* ``ludica simulate GAME --games N --bot heuristic [--bot p2=random] [--option KEY=VALUE]
  [--seed S] [--players P] [--jobs N | --ray [ADDRESS]] [--out FILE.jsonl] [--report DIR]``
* ``ludica compare GAME --a KEY=VALUE … --b KEY=VALUE … --games N --bot …``: every figure under
  A and B, the difference B − A with its 95% paired-bootstrap interval (game *i* of A and of B share
  their seed and seats), how many pairs of games differ at all, and the seat advantage under each.
* ``ludica report FILE.jsonl… --out DIR``: the report again from saved records (one file: one
  batch; two: A and B).

Every user mistake is a :class:`~ludica.core.errors.ConfigError` (one line, exit status 2).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import shlex
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path
from statistics import fmean
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..core.errors import ConfigError
from ..core.game import Config, Game, GameMeta
from ..core.registry import get_game
from .analysis import (
    DesignWarning,
    Rate,
    align_by_game,
    attribute_rates,
    attributes,
    bot_rates,
    differing_games,
    figures,
    figures_by_game,
    has_winners,
    holm,
    interval,
    order_rates,
    p_value,
    paired_diff,
    paired_diffs,
    rate_tests,
    seat_rates,
    shares,
    warnings,
)
from .batch import Batch, Interrupted, run, summaries
from .coverage import coverage_line, coverage_rows, coverage_warnings, house_rule_warnings
from .inference import CORRECTION, fdr, paired_p_values, require_stats
from .mechanics import mechanics_of
from .playthrough import NAMES
from .ray_backend import require_ray
from .report import Arm, Coverage, require_matplotlib, write_report

console = Console(highlight=False, width=None if sys.stdout.isatty() else 250)
"""Full names when the output is a file or a pipe (rich would cut it at 80 columns)."""

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
        raise ConfigError(f"option {key!r} takes {kind_of(model)} (like {model!r}), not {raw!r}", rule="lab") from None
    spec.check(value)
    return key, value


KINDS = {bool: "a switch (true or false)", int: "a whole number", float: "a number", list: "a JSON list"}


def kind_of(model: Any) -> str:
    """An option's kind of value in words (``a whole number``), for a refusal."""
    return KINDS.get(type(model), "a JSON object" if isinstance(model, dict) else "text")


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
            write_records(out, stop.records, batch, quiet=True)
            stop.saved.append(out)
        raise


def arm_out(args: argparse.Namespace, tag: str) -> str:
    """``compare --out FILE``: where arm ``tag`` (A or B) writes its records (FILE-A.jsonl…)."""
    base = Path(args.out)
    return str(base.with_name(f"{base.stem}-{tag}{base.suffix or '.jsonl'}"))


def saved(batch: Batch, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records as saved: each also names its game, options and seats in seat order (the file
    sorts ``bots`` by name, which would put a GM before the players), so that ``ludica report``
    can rebuild the report from the file alone."""
    head = {"game": batch.game, "options": dict(batch.options)}
    return [head | {"seats": list(r["bots"])} | r for r in records]


def write_records(path: str, records: list[dict[str, Any]], batch: Batch | None = None, *, quiet: bool = False) -> None:
    """JSON Lines (one game a line); ``.json``: one list; ``.csv``: a flat table (a row a game)."""
    rows = saved(batch, records) if batch is not None else records
    if path.endswith(".csv"):
        write_csv(path, rows)
    else:
        with open(path, "w", encoding="utf-8") as out:
            if path.endswith(".json"):
                json.dump([r["summary"] | {k: v for k, v in r.items() if k != "summary"} for r in rows], out)
                out.write("\n")
            else:
                for r in rows:
                    out.write(json.dumps(r, sort_keys=True) + "\n")
    if not quiet:
        console.print(f"Per-game records written to {path}")


FLAT = ("index", "seed", "players", "end_reason", "steps", "turns", "decisions")


def flat_row(record: dict[str, Any]) -> dict[str, Any]:
    """One game as one row: the lab's fields, the winners, each seat's bot, the actions taken by
    type, and the game's summary (numbers and text as they are, lists as JSON)."""
    row: dict[str, Any] = {"arm": record["arm"]} if "arm" in record else {}
    row |= {k: record.get(k, "") for k in FLAT}
    row["winners"] = " ".join(record.get("winners", []))
    bots = record.get("bots", {})
    for seat in record.get("seats") or bots:
        row[f"bot {seat}"] = bots.get(seat, "")
    for key, value in record.get("summary", {}).items():
        if key not in row:
            row[key] = json.dumps(value) if isinstance(value, list | dict) else value
    for action, n in sorted(record.get("actions_taken", {}).items()):
        row[f"taken {action}"] = n
    return row


def write_csv(path: str, records: Sequence[dict[str, Any]]) -> None:
    rows = [flat_row(r) for r in records]
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


# -- printing ------------------------------------------------------------------------------------
def _seed(name: str, batch: Batch) -> int:
    return zlib.crc32(name.encode()) ^ batch.seed


def _fmt(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}"


def constant(values: Any) -> bool:
    """Whether a figure has the same value in every game (``players``, 0 deaths in all): not a
    figure with an interval but a fact of the settings, said once on one line."""
    values = list(values)
    return bool(values) and min(values) == max(values)


def constants_line(named: dict[str, Any]) -> str:
    """``the same in every game: players 4, ...`` (empty when there is none)."""
    if not named:
        return ""
    return "The same in every game (not figures): " + ", ".join(f"{k} {_fmt(v)}" for k, v in named.items())


def figure_rows(arm: Arm) -> tuple[list[str], list[list[str]]]:
    """Each figure's mean and 95% interval: Wilson's for a share of games, the bootstrap else. A
    number equal in every game is a constant, not a figure (:func:`figure_constants`); a share
    stays, even at 0 or 1 (an end that never happens is a finding)."""
    rows = []
    yes_no = shares(arm.records)
    for name, values in figures(arm.records, get_game(arm.batch.game).meta.end_reasons).items():
        if not values:
            continue
        share = " = " in name or name in yes_no
        if not share and constant(values):
            continue
        lo, hi = interval(values, share=share, seed=_seed(name, arm.batch), rounds=1000)
        kind = "Wilson" if share else "bootstrap"
        rows.append([name, _fmt(fmean(values)), f"[{_fmt(lo)}, {_fmt(hi)}] {kind}", str(len(values))])
    return ["figure", "mean", "95% CI", "games"], rows


def figure_constants(*arms: Arm) -> dict[str, float]:
    """The numbers (not shares) equal in every game of every arm given, with their value."""
    found: dict[str, list[float]] = {}
    for arm in arms:
        yes_no = shares(arm.records)
        for name, values in figures(arm.records, get_game(arm.batch.game).meta.end_reasons).items():
            if values and " = " not in name and name not in yes_no:
                found.setdefault(name, []).extend(values)
    return {name: values[0] for name, values in found.items() if constant(values)}


PAIRED = (
    "B - A is read game by game: game i of A and game i of B are dealt with the same seed and seat the same "
    "bots (common random numbers); its 95% interval is a paired bootstrap of the per-game differences "
    "(1000 resamples, seeded)."
)
STAR = (
    "* marks a difference whose paired t-test gives p below 5% after Benjamini-Hochberg's correction for the "
    "{m} figures tested: with no real difference, the chance of even one * in the table is at most 5%; among "
    "the starred, at most 5% are false alarms on average."
)
UNPAIRED = (
    "A and B were not dealt with the same seeds (A from seed {a}, B from seed {b}): game i of A and game i "
    "of B are different deals, so B - A is read over the pairs by index, without the narrowing that common "
    "random numbers give."
)


def paired_note(a: Arm, b: Arm, rows: Sequence[Sequence[str]]) -> str:
    """How B − A was read (paired when both arms were dealt from the same seed) and what * means."""
    star = STAR.format(m=len(rows))
    if a.batch.seed != b.batch.seed:
        return UNPAIRED.format(a=a.batch.seed, b=b.batch.seed) + " " + star
    return PAIRED + " " + star


def compare_rows(a: Arm, b: Arm) -> tuple[list[str], list[list[str]]]:
    """Each figure under A and B, and B − A over the pairs of games with its paired interval; the
    star from the paired t-test of each figure, corrected for the number of figures (Holm). A
    number equal in every game of both arms is not a figure (:func:`figure_constants`)."""
    declared = get_game(a.batch.game).meta.end_reasons
    fa, fb = figures_by_game(a.records, declared), figures_by_game(b.records, declared)
    align_by_game(fa, fb)
    yes_no = shares(a.records) | shares(b.records)
    rows = []
    tests: list[list[float]] = []
    for name in [*fa, *(k for k in fb if k not in fa)]:
        va, vb = fa.get(name, {}), fb.get(name, {})
        if not va and not vb:
            continue
        if " = " not in name and name not in yes_no and constant([*va.values(), *vb.values()]):
            continue
        ma = fmean(va.values()) if va else math.nan
        mb = fmean(vb.values()) if vb else math.nan
        diff, lo, hi, pairs = paired_diff(va, vb, seed=_seed(name, a.batch), rounds=1000)
        tests.append(paired_diffs(va, vb))
        rows.append([name, _fmt(ma), _fmt(mb), _fmt(diff), f"[{_fmt(lo)}, {_fmt(hi)}]", str(pairs)])
    for row, p in zip(rows, fdr(paired_p_values(tests)), strict=True):
        row[3] += " *" if p < 0.05 else ""
        row.insert(4, _fmt_p(p))
    head = ["figure", "A", "B", f"B - A (* p < 5%, {CORRECTION})", f"p ({CORRECTION})"]
    return [*head, "95% CI of B - A (paired)", "pairs"], rows


def _fmt_p(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.2g}"


def sameness(a: Arm, b: Arm) -> tuple[str, list[DesignWarning]]:
    """How many pairs of games differ at all (how often the change came into play), and a
    warning when none does."""
    pairs, differ = differing_games(a.records, b.records)
    line = (
        f"{differ} of {pairs} pairs of games differ ({100 * differ / max(1, pairs):.0f}%): in the others the "
        "change between A and B never came into play (same end, length, figures, timeline and actions taken)."
    )
    if pairs and not differ:
        message = (
            f"A and B played identical games ({pairs} of {pairs} pairs): the change never came into play "
            "with these bots and settings; every difference is 0 by construction, not by evidence"
        )
        return line, [DesignWarning("arms identical", message)]
    return line, []


def print_table(title: str, head: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    table = Table(title=title)
    for h in head:
        table.add_column(h)
    for row in rows:
        table.add_row(*row)
    console.print(table)


def print_rates(label: str, rates: list[Rate], *, seats: bool = True, who: str = "seat") -> None:
    """Win rates with their Wilson intervals; for seats (or places in the turn order), the
    p-value against the fair share, corrected for their number (Holm)."""
    if not seats:
        print_table(label, ["who", "win rate [95% CI]"], [[r.who, r.text()] for r in rates])
        return
    adjusted = holm([p_value(r) for r in rates])
    rows = [[r.who, r.text(), f"{p:.2g}", "yes" if p < 0.05 else ""] for r, p in zip(rates, adjusted, strict=True)]
    print_table(label, [who, "win rate [95% CI]", "p vs fair (Holm)", "differs from fair"], rows)


def print_seat_rates(title: str, arm: Arm) -> None:
    """Win rate by seat, and by place in the turn order where the game decides the order."""
    print_rates(f"{title} — {arm.label}", seat_rates(arm.records))
    if order := order_rates(arm.records):
        print_rates(f"Win rate by turn order — {arm.label}", order, who="turn order")
    print_ranked(arm)


def ranked_rows(rates: list[Rate], ends: int = 5) -> list[list[str]]:
    """Rates ranked from most to least wins, each with its Holm-adjusted p against its fair share
    over all of them; more than ``2 * ends``: both ends, the middle said in one row."""
    tests = sorted(rate_tests(rates), key=lambda t: (-t[0].rate, -t[0].games, t[0].who))
    rows = [[str(k + 1), r.who, r.text(), _fmt_p(p), "yes" if p < 0.05 else ""] for k, (r, p) in enumerate(tests)]
    if len(rows) > 2 * ends:
        middle = ["…", f"{len(rows) - 2 * ends} more between", "", "", ""]
        rows = [*rows[:ends], middle, *rows[-ends:]]
    return rows


def print_ranked(arm: Arm) -> None:
    """Win rate by each seat attribute the game names (recruit, faction), ranked, both ends."""
    for attribute in attributes(arm.records):
        rates = attribute_rates(arm.records, attribute)
        head = ["rank", attribute, "win rate [95% CI]", f"p vs fair (Holm, {len(rates)} tested)", "differs from fair"]
        print_table(f"Win rate by {attribute}, ranked — {arm.label}", head, ranked_rows(rates))


def reference_of(batch: Batch, args: argparse.Namespace, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Random play under the same settings (``--coverage N`` games, no more than the batch's, from
    the same seed), what the coverage is read against; the batch itself when its bots are all
    random; none for 0."""
    if not args.coverage:
        return []
    if set(batch.bots.values()) == {"random"}:
        return records
    reference = Batch(
        batch.game,
        batch.players,
        dict(batch.options),
        {"*": "random"},
        min(args.coverage, batch.games),
        batch.seed,
        batch.max_steps,
    )
    return play(reference, args, f"{batch.game}: random play, for coverage")


def coverage_of(arm: Arm, reference: list[dict[str, Any]]) -> Coverage | None:
    """The coverage table (declared mechanics, then the action types random play takes) and its
    line, for the terminal and the report alike; none without random play to read it against."""
    if not reference:
        return None
    declared = mechanics_of(arm.batch.game).patterns
    head, rows = coverage_rows(arm.records, reference, declared)
    title = f"Coverage — {arm.label}, against {len(reference)} games of random play"
    return Coverage(title, head, rows, coverage_line(arm.records, reference))


def print_coverage(coverage: Coverage | None) -> None:
    if coverage is None:
        return
    print_table(coverage.title, coverage.head, coverage.rows)
    if coverage.line:
        console.print(coverage.line)


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
    if line := constants_line(figure_constants(arm)):
        console.print(line)
    if has_winners(arm.records):
        print_seat_rates("Win rate by seat", arm)
        print_rates(f"Win rate by bot — {arm.label}", bot_rates(arm.records), seats=False)
    finished = summaries(arm.records)
    if finished:
        print_table(f"The game's own figures — {arm.label}", ["figure", "value"], game.report(finished))


# -- commands ------------------------------------------------------------------------------------
def check_extras(args: argparse.Namespace) -> None:
    """Say what to install before playing anything, not after."""
    require_stats()
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
    reference = reference_of(batch, args, records)
    coverage = coverage_of(arm, reference)
    print_coverage(coverage)
    found = warnings(game, records) + coverage_warnings(records, reference, batch.game)
    print_warnings(label, found)
    if args.out:
        write_records(args.out, records, batch)
    if args.report:
        page = write_report(
            args.report,
            game,
            [arm],
            command=_command(args),
            warnings={label: found},
            figure_rows=figure_rows(arm),
            game_lines={label: game.report(summaries(records))} if summaries(records) else {},
            coverage=[coverage] if coverage else [],
        )
        console.print(f"Report written to {page}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    check_extras(args)
    if not (args.a or args.b or args.bot_a or args.bot_b):
        raise ConfigError("compare needs what differs: at least one --a, --b, --bot-a or --bot-b", rule="lab")
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
                write_records(arm_out(args, "A"), arms[0].records, arms[0].batch, quiet=True)
                stop.saved.insert(0, arm_out(args, "A"))
            raise
        arms.append(Arm(f"{label} ({changed})", batch, records))
    a, b = arms
    rows = compare_rows(a, b)
    print_table(f"{game.meta.title}: {a.label} vs {b.label}", *rows)
    console.print(paired_note(a, b, rows[1]))
    if constants := constants_line(figure_constants(a, b)):
        console.print(constants)
    line, same = sameness(a, b)
    console.print(line)
    found: dict[str, list[DesignWarning]] = {}
    references = {arm.label: reference_of(arm.batch, args, arm.records) for arm in arms}
    options = {**a.batch.options, **b.batch.options}
    differing = [k for k in options if a.batch.options.get(k) != b.batch.options.get(k)]
    both = same + house_rule_warnings(game.meta.id, differing, [(arm.label, arm.records) for arm in arms])
    if both:
        found["A and B"] = both
        print_warnings("A and B", both)
    coverages = {arm.label: coverage_of(arm, references[arm.label]) for arm in arms}
    for arm in arms:
        print_coverage(coverages[arm.label])
        finished = summaries(arm.records)
        if finished:
            print_table(f"The game's own figures — {arm.label}", ["figure", "value"], game.report(finished))
        if has_winners(arm.records):
            print_seat_rates("Seat advantage", arm)
        found[arm.label] = warnings(game, arm.records) + coverage_warnings(
            arm.records, references[arm.label], arm.batch.game
        )
        print_warnings(arm.label, found[arm.label])
    if args.out:
        for arm, tag in zip(arms, "AB", strict=True):
            write_records(arm_out(args, tag), arm.records, arm.batch)
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
            coverage=[c for c in coverages.values() if c],
        )
        console.print(f"Report written to {page}")
    return 0


RECORD_KEYS = {
    "index", "seed", "bots", "players", "end_reason", "winners", "steps", "turns", "decisions", "error",
    "timeline", "actions_offered", "actions_taken", "game", "options", "seats", "mechanics_offered",
    "mechanics_taken",
}  # fmt: skip


def read_records(path: str) -> list[dict[str, Any]]:
    """The records of a file written by ``--out`` (JSON Lines, or one JSON list)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}", rule="report") from None
    try:
        if path.endswith(".json"):
            records = [
                {k: v for k, v in r.items() if k in RECORD_KEYS} | {"summary": {k: v for k, v in r.items()
                 if k not in RECORD_KEYS}} for r in json.loads(text)
            ]  # fmt: skip
        else:
            records = [json.loads(line) for line in text.splitlines() if line.strip()]
    except (json.JSONDecodeError, AttributeError) as exc:
        message = f"{path} is not a file of per-game records (--out FILE.jsonl): {exc}"
        raise ConfigError(message, rule="report") from None
    if not records or not all(isinstance(r, dict) and "end_reason" in r and "bots" in r for r in records):
        raise ConfigError(f"{path} holds no per-game records (written by simulate or compare --out)", rule="report")
    return records


def arm_of(label: str, records: list[dict[str, Any]], game_id: str | None) -> Arm:
    """A batch rebuilt from its saved records; the seats put back in seat order from the game
    itself for files that do not name them (an older file sorted ``bots`` by name)."""
    first = records[0]
    game_id = game_id or first.get("game")
    if not game_id:
        raise ConfigError("this file does not name its game: give it with --game GAME", rule="report")
    game = get_game(game_id)
    players = NAMES[: int(first["players"])]
    options = dict(first.get("options") or {})
    for r in records:
        if not r.get("seats"):
            order = game.seats(game.setup(Config(players, options, int(r["seed"]))))
            r["seats"] = [s for s in order if s in r["bots"]]
    seed = int(first["seed"]) - int(first.get("index", 0))
    batch = Batch(game_id, players, options, dict(first["bots"]), games=len(records), seed=seed)
    return Arm(label, batch, records)


def cmd_report(args: argparse.Namespace) -> int:
    """``ludica report FILE.jsonl [FILE2.jsonl] --out DIR|FILE.csv``: the report of saved games."""
    if len(args.files) > 2:
        raise ConfigError("report takes one file (a batch) or two (A and B of a comparison)", rule="report")
    to_csv = args.out.endswith(".csv")
    if not to_csv:
        require_stats()
        require_matplotlib()
    tags = ("A", "B") if len(args.files) == 2 else ("",)
    arms = []
    for tag, path in zip(tags, args.files, strict=True):
        label = f"{tag} ({Path(path).stem})" if tag else Path(path).stem
        arms.append(arm_of(label, read_records(path), args.game))
    if len({arm.batch.game for arm in arms}) > 1:
        raise ConfigError("the two files hold different games", rule="report")
    game = get_game(arms[0].batch.game)
    if to_csv:
        records = [{"arm": arm.label} | r if len(arms) > 1 else r for arm in arms for r in arm.records]
        write_csv(args.out, records)
        console.print(f"Table written to {args.out}")
        return 0
    found = {arm.label: warnings(game, arm.records) for arm in arms}
    if len(arms) == 2:
        a, b = arms
        rows = compare_rows(a, b)
        print_table(f"{game.meta.title}: {a.label} vs {b.label}", *rows)
        console.print(paired_note(a, b, rows[1]))
        if line := constants_line(figure_constants(a, b)):
            console.print(line)
        line, same = sameness(a, b)
        console.print(line)
        if same:
            found = {"A and B": same} | found
    else:
        rows = figure_rows(arms[0])
        describe(game, arms[0])
    for label, ws in found.items():
        print_warnings(label, ws)
    lines = {arm.label: game.report(summaries(arm.records)) for arm in arms if summaries(arm.records)}
    command = " ".join(shlex.quote(w) for w in ["ludica", "report", *args.files, "--out", args.out])
    page = write_report(args.out, game, arms, command=command, warnings=found, figure_rows=rows, game_lines=lines)
    console.print(f"Report written to {page}")
    return 0


def _command(args: argparse.Namespace) -> str:
    """The command that gives these figures again, rebuilt from the parsed arguments."""
    words = ["ludica", args.command, args.game]
    for flag in ("players", "names", "games", "seed", "max_steps", "jobs", "coverage"):
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
def at_least_one(text: str) -> int:
    """A whole number of at least 1 (``--jobs``, ``--games``): argparse says so in one line."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expects a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="game id (see 'ludica games')")
    p.add_argument("--players", type=int, help="number of players (default: the game's minimum)")
    p.add_argument("--names", help="players' names in seat order, comma-separated (sets the number)")
    p.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help="a game option or house rule (typed like its default)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of game 0; game i is dealt with seed+i (default 0)")
    p.add_argument("--games", type=at_least_one, default=100, help="how many games (default 100)")
    p.add_argument(
        "--bot",
        action="append",
        metavar="SPEC|SEAT=SPEC",
        help="the bot of every seat (random, heuristic, ismcts:playouts=200) or of one seat (p2=random); "
        "default random",
    )
    p.add_argument("--max-steps", type=int, help="stop a game after this many steps (default: the game's bound)")
    p.add_argument("--jobs", type=at_least_one, default=1, help="worker processes (default 1, at least 1)")
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="play on a Ray cluster at ADDRESS (alone: a local Ray with max(2, --jobs) CPUs)",
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        help="write every game's record: FILE.jsonl (a line each; 'ludica report' reads it), FILE.json or "
        "FILE.csv (a flat table)",
    )
    p.add_argument("--report", metavar="DIR", help="write an HTML report with its plots into DIR")
    p.add_argument(
        "--coverage",
        type=int,
        default=20,
        metavar="N",
        help="read which moves the bots make against N games of random play with the same settings "
        "(default 20, at most --games; 0: no coverage)",
    )


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
    report = sub.add_parser("report", help="the report of saved games (--out of simulate or compare) again")
    report.add_argument("files", nargs="+", metavar="FILE.jsonl", help="one batch's records, or A's and B's")
    report.add_argument("--out", required=True, metavar="DIR|FILE.csv", help="the report's folder, or a flat table")
    report.add_argument("--game", help="the game, for files that do not name it")
    report.set_defaults(func=cmd_report)
