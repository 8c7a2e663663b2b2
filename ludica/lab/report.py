"""The lab's report: one self-contained HTML page with its plots (the ``lab`` extra: matplotlib).

``write_report(DIR, game, arms)`` writes ``DIR/index.html`` and one PNG per figure beside it; the
page embeds every PNG as a base64 data URI (it can be mailed alone) and links each to its file.
One *arm* is one batch (``simulate``); ``compare`` has two, A and B, drawn on the same axes.
"""

from __future__ import annotations

import base64
import html
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.game import Game
from .analysis import DesignWarning, bot_rates, has_winners, length_unit, seat_rates, timeline, timeline_bands
from .batch import Batch

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


@dataclass(slots=True)
class Arm:
    """One batch and its records, under a label (``A``, ``B``, or the game's name)."""

    label: str
    batch: Batch
    records: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Coverage:
    """One arm's coverage table against random play (``coverage.coverage_rows``) and its line."""

    title: str
    head: list[str]
    rows: list[list[str]]
    line: str


def require_matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ConfigError(
            "--report needs matplotlib, which is not installed: pip install 'ludica[lab]' (or bash scripts/setup)",
            rule="lab",
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


# -- figures -------------------------------------------------------------------------------------
def shared_bins(samples: Sequence[Sequence[float]], most: int = 30) -> list[float]:
    """The same bin edges for every arm (A and B comparable bar by bar): whole numbers when the
    values are, at most ``most`` bins over the range of all of them."""
    values = [v for sample in samples for v in sample]
    if not values:
        return [0.0, 1.0]
    lo, hi = min(values), max(values)
    if lo == hi:
        return [lo - 0.5, hi + 0.5]
    width = (hi - lo) / most
    if all(float(v).is_integer() for v in values):
        width = max(1.0, math.ceil(width))
        lo -= 0.5
    edges = [lo + k * width for k in range(int((hi - lo) / width) + 2)]
    return edges


def _legend_below(ax: Any, arms: Sequence[Arm]) -> None:
    """The legend under the axes, clear of the bars and their error bars."""
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=max(1, len(arms)), fontsize=8, frameon=False)


def _length(plt: Any, ax: Any, arms: Sequence[Arm]) -> None:
    samples = [[r["turns"] for r in arm.records] for arm in arms]
    bins = shared_bins(samples)
    for k, (arm, sample) in enumerate(zip(arms, samples, strict=True)):
        ax.hist(sample, bins=bins, alpha=0.55, color=COLOURS[k], label=arm.label, histtype="stepfilled")
    unit = length_unit([r for arm in arms for r in arm.records])
    ax.set_xlabel(f"{unit} per game (the same bins for every arm)")
    ax.set_ylabel("games")
    ax.set_ylim(bottom=0)
    ax.set_title("Game length")
    _legend_below(ax, arms)


def _ends(plt: Any, ax: Any, arms: Sequence[Arm], declared: Sequence[str]) -> None:
    reasons = list(declared)
    for arm in arms:
        reasons.extend(r["end_reason"] for r in arm.records if r["end_reason"] not in reasons)
    width = 0.8 / len(arms)
    for k, arm in enumerate(arms):
        counts = Counter(r["end_reason"] for r in arm.records)
        shares = [100 * counts[x] / len(arm.records) for x in reasons]
        ax.bar([i + k * width for i in range(len(reasons))], shares, width, color=COLOURS[k], label=arm.label)
    ax.set_xticks([i + width * (len(arms) - 1) / 2 for i in range(len(reasons))], reasons, rotation=15)
    ax.set_ylabel("% of games")
    ax.set_ylim(0, 100)
    ax.set_title("How games end")
    _legend_below(ax, arms)


def _rates(plt: Any, ax: Any, arms: Sequence[Arm], by: str) -> None:
    width = 0.8 / len(arms)
    names: list[str] = []
    for k, arm in enumerate(arms):
        rates = seat_rates(arm.records) if by == "seat" else bot_rates(arm.records)
        names = names or [r.who for r in rates]
        xs = [i + k * width for i in range(len(rates))]
        ys = [100 * r.rate for r in rates]
        err = [[max(0.0, 100 * (r.rate - r.ci[0])) for r in rates], [max(0.0, 100 * (r.ci[1] - r.rate)) for r in rates]]
        ax.bar(xs, ys, width, yerr=err, capsize=3, color=COLOURS[k], label=arm.label)
        for x, r in zip(xs, rates, strict=True):
            ax.plot([x - width / 2, x + width / 2], [100 * r.fair] * 2, color="black", lw=1)
    ax.set_xticks([i + width * (len(arms) - 1) / 2 for i in range(len(names))], names)
    ax.set_ylabel("% of games won (95% CI; black: fair share)")
    ax.set_ylim(0, 100)
    ax.set_title(f"Win rate by {by}")
    _legend_below(ax, arms)


def _over_time(plt: Any, arms: Sequence[Arm]) -> Any:
    series = [timeline(arm.records) for arm in arms]
    bands = [timeline_bands(arm.records) for arm in arms]
    unit = next((u for u, _ in series if u), "")
    names: list[str] = []
    for _, quantities in series:
        names.extend(q for q in quantities if q not in names)
    if not names:
        return None
    cols = min(3, len(names))
    rows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.5 * cols, 3.2 * rows), squeeze=False)
    for i, name in enumerate(names):
        ax = axes[i // cols][i % cols]
        low = math.inf
        for k, (arm, (_, quantities)) in enumerate(zip(arms, series, strict=True)):
            if name in quantities:
                enough = max(3, len(arm.records) // 20)  # the tail of a few long games is noise
                data = zip(*quantities[name], bands[k][name], strict=True)
                points = [(t, m, h) for t, m, c, h in data if c >= enough]
                ts = [t for t, _, _ in points]
                ax.plot(ts, [m for _, m, _ in points], color=COLOURS[k], label=arm.label)
                ax.fill_between(
                    ts, [m - h for _, m, h in points], [m + h for _, m, h in points], color=COLOURS[k], alpha=0.2, lw=0
                )
                low = min([low, *(m - h for _, m, h in points)])
        if low >= 0:
            ax.set_ylim(bottom=0)  # from zero: a small change looks small
        ax.set_title(name, fontsize=10)
        ax.set_xlabel(unit)
    for j in range(len(names), rows * cols):
        axes[j // cols][j % cols].axis("off")
    fig.suptitle(
        f"Mean over the games still going (at least 5% of them), by {unit}; band: its 95% interval; "
        "y from 0 unless a value is negative"
    )
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=max(1, len(arms)), fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.05, 1, 0.95))
    return fig


def make_figures(game: Game[Any], arms: Sequence[Arm]) -> list[tuple[str, str, Any]]:
    """``(file stem, caption, figure)`` for each plot of the report."""
    plt = require_matplotlib()
    out = []

    def one(stem: str, caption: str, draw: Any, *args: Any) -> None:
        fig, ax = plt.subplots(figsize=(6.4, 4))
        draw(plt, ax, arms, *args)
        fig.tight_layout()
        out.append((stem, caption, fig))

    unit = length_unit([r for arm in arms for r in arm.records])
    one("length", f"Game length distribution ({unit} per game)", _length)
    one("end_reasons", "End reasons (share of games)", _ends, game.meta.end_reasons)
    if any(has_winners(arm.records) for arm in arms):
        one("win_by_seat", "Win rate by seat, with 95% Wilson intervals", _rates, "seat")
        if any(len(bot_rates(arm.records)) > 1 for arm in arms):  # one bot: nothing to compare
            one("win_by_bot", "Win rate by bot, with 95% Wilson intervals", _rates, "bot")
    fig = _over_time(plt, arms)
    if fig is not None:
        out.append(("over_time", f"{game.meta.title}: key quantities over time", fig))
    return out


# -- the page ------------------------------------------------------------------------------------
def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


STYLE = """body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}
th{background:#f3f3f3}.warn{background:#fff4e5;border-left:4px solid #e69500;padding:.5em 1em}
.ok{background:#eef8ee;border-left:4px solid #3a3;padding:.5em 1em}img{max-width:100%}code{background:#f3f3f3}"""


def write_report(
    folder: str | Path,
    game: Game[Any],
    arms: Sequence[Arm],
    *,
    command: str,
    warnings: dict[str, list[DesignWarning]],
    figure_rows: tuple[Sequence[str], Sequence[Sequence[str]]],
    game_lines: dict[str, list[tuple[str, str]]],
    coverage: Sequence[Coverage] = (),
) -> Path:
    """Write ``folder/index.html`` and its PNGs; return the page's path."""
    plt = require_matplotlib()
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(game.meta.title)} — Ludica lab"
        f"</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(game.meta.title)}: {' vs '.join(html.escape(a.label) for a in arms)}</h1>",
        f"<p>Command: <code>{html.escape(command)}</code></p>",
    ]
    settings = [
        (a.label, a.batch.games, a.batch.seed, len(a.batch.players), a.batch.options, a.batch.bots) for a in arms
    ]
    parts.append(
        _table(
            ["arm", "games", "seed", "players", "options", "bots"],
            [[str(x) for x in row] for row in settings],
        )
    )
    parts.append("<h2>Where a rule breaks</h2>")
    for label, found in warnings.items():
        head = f"<strong>{html.escape(label)}</strong>: " if len(warnings) > 1 else ""
        if not found:
            parts.append(f"<p class='ok'>{head}no warning.</p>")
            continue
        items = "".join(f"<li><b>{html.escape(w.kind)}</b>: {html.escape(w.message)}</li>" for w in found)
        parts.append(f"<div class='warn'>{head}<ul>{items}</ul></div>")
    parts.append("<h2>Figures</h2>")
    parts.append(_table(*figure_rows))
    for stem, caption, fig in make_figures(game, arms):
        path = out / f"{stem}.png"
        fig.savefig(path, dpi=80, pil_kwargs={"optimize": True})
        plt.close(fig)
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        parts.append(
            f"<h3>{html.escape(caption)}</h3><a href='{path.name}'>"
            f"<img alt='{html.escape(caption)}' src='data:image/png;base64,{data}'></a>"
        )
    for table in coverage:
        parts.append(f"<h2>{html.escape(table.title)}</h2>")
        parts.append(_table(table.head, table.rows))
        if table.line:
            parts.append(f"<p>{html.escape(table.line)}</p>")
    for label, lines in game_lines.items():
        parts.append(f"<h2>The game's own figures — {html.escape(label)}</h2>")
        parts.append(_table(["figure", "value"], [list(line) for line in lines]))
    parts.append("</body></html>")
    page = out / "index.html"
    page.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return page
