"""Figures over a batch's records: per-game figures, confidence intervals, seat and bot win rates,
the game's quantities over time, and the warnings a designer must see.

Confidence intervals are 95%: Wilson's interval for a share of games (a win rate, how often an
end reason or a yes/no figure happens: never of zero width), a seeded percentile bootstrap for the
mean of any other figure, and a seeded *paired* bootstrap for the difference B − A of ``ludica
compare``: game *i* of A and game *i* of B are dealt with the same seed and seat the same bots
(common random numbers), so the difference is read game by game, as narrow as the data allow.
Seat-advantage warnings test every seat and correct for how many were tested (Holm).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from ..core.game import Game
from .batch import BOT_ERROR, REFUSED, STEP_LIMIT, STOPPED
from .inference import bootstrap_mean, holm, score_p_value, wilson

Z95 = 1.959963984540054
"""The normal quantile of a 95% two-sided band (the time series' bands of a mean)."""


# -- intervals (the libraries of :mod:`ludica.lab.inference`) ------------------------------------
def is_share(values: Sequence[float]) -> bool:
    """Whether every value is 0 or 1: a share of games (Wilson's interval, not the bootstrap)."""
    return bool(values) and all(v in (0.0, 1.0) for v in values)


def interval(
    values: Sequence[float], *, share: bool | None = None, seed: int = 0, rounds: int = 1000
) -> tuple[float, float]:
    """The 95% interval of the mean: Wilson's for a share of games (``share``; by default when
    every value is 0 or 1), else the seeded bootstrap."""
    if share if share is not None else is_share(values):
        return wilson(round(sum(values)), len(values))
    return bootstrap_mean(values, seed=seed, rounds=rounds)


def paired_diff(
    a: dict[int, float], b: dict[int, float], *, seed: int = 0, rounds: int = 1000
) -> tuple[float, float, float, int]:
    """``(mean of B − A, low, high, pairs)`` over the games both arms have (by index): the 95%
    percentile bootstrap of the mean of the per-game differences (seeded, reproducible). The
    interval has zero width only when every pair differs by the same amount (e.g. identical games)."""
    diffs = paired_diffs(a, b)
    if not diffs:
        return (math.nan, math.nan, math.nan, 0)
    lo, hi = bootstrap_mean(diffs, seed=seed, rounds=rounds)
    return (fmean(diffs), lo, hi, len(diffs))


def paired_diffs(a: dict[int, float], b: dict[int, float]) -> list[float]:
    """B − A game by game, over the games both arms have (by index, in index order)."""
    return [b[i] - a[i] for i in sorted(set(a) & set(b))]


# -- per-game figures ----------------------------------------------------------------------------
def figures(records: Sequence[dict[str, Any]], declared: Sequence[str] = ()) -> dict[str, list[float]]:
    """Every figure as one number per game: the lab's (steps, turns, end reasons) and the game's
    summary (numbers and true/false as they are; lists of numbers by their mean; text by the share
    of each value, ``end_reason = ten_stars``). Games stopped early count in the lab's figures only.
    Every ``declared`` end reason has its share, even when it never happens."""
    return {name: list(values.values()) for name, values in figures_by_game(records, declared).items()}


def shares(records: Sequence[dict[str, Any]]) -> set[str]:
    """The figures of :func:`figures` that are shares of games (how often something happens): an
    end reason or a text value (``key = value``), or a yes/no figure of the game's summary."""
    names = {f"end_reason = {r['end_reason']}" for r in records}
    keys: dict[str, bool] = {}
    for r in records:
        for key, value in r.get("summary", {}).items():
            keys[key] = keys.get(key, True) and isinstance(value, bool)
    return names | {k for k, yes in keys.items() if yes}


def figures_by_game(records: Sequence[dict[str, Any]], declared: Sequence[str] = ()) -> dict[str, dict[int, float]]:
    """:func:`figures` keyed by each game's index in its batch (for pairing game *i* of A with
    game *i* of B); a game missing from a figure did not give it (stopped early, or an empty list)."""
    out: dict[str, dict[int, float]] = defaultdict(dict)
    indices = [int(r.get("index", k)) for k, r in enumerate(records)]
    reasons = [*declared, *sorted({r["end_reason"] for r in records} - set(declared))]
    unit = length_unit(records)
    for i, r in zip(indices, records, strict=True):
        out["steps"][i] = r["steps"]
        out[unit][i] = r["turns"]
        for reason in reasons:
            out[f"end_reason = {reason}"][i] = float(r["end_reason"] == reason)
    finished = [(i, r["summary"]) for i, r in zip(indices, records, strict=True) if r["end_reason"] not in STOPPED]
    keys: list[str] = []
    for _, s in finished:
        keys.extend(k for k in s if k not in keys and k not in ("steps", "turns", "end_reason"))
    for key in keys:
        values = [(i, s.get(key)) for i, s in finished]
        if all(isinstance(v, int | float) for _, v in values):  # numbers, and true/false as 1/0
            out[key] = {i: float(v) for i, v in values}  # type: ignore[arg-type]
        elif all(isinstance(v, list) and all(isinstance(x, int | float) for x in v) for _, v in values):
            if any(v for _, v in values):
                out[f"{key} (mean of list)"] = {i: fmean(v) for i, v in values if v}  # type: ignore[arg-type]
        elif all(isinstance(v, str) for _, v in values):
            kinds = Counter(v for _, v in values)
            if len(kinds) <= 12:
                for kind in sorted(kinds):  # type: ignore[type-var]
                    out[f"{key} = {kind}"] = {i: float(v == kind) for i, v in values}
    return dict(out)


def length_unit(records: Sequence[dict[str, Any]]) -> str:
    """What a record's ``turns`` counts: the game's own turns when its summary has them
    (Euphoria), else the players' decisions (a game without turns: Lost Days, the Great City)."""
    return "turns" if any("turns" in (r.get("summary") or {}) for r in records) else "decisions"


def align_by_game(a: dict[str, dict[int, float]], b: dict[str, dict[int, float]]) -> None:
    """:func:`align` for figures keyed by game: a share never seen in one arm is 0 in its games."""
    for mine, theirs in ((a, b), (b, a)):
        for name in theirs:
            if name in mine or " = " not in name:
                continue
            key = name.split(" = ")[0] + " = "
            sibling = next((v for k, v in mine.items() if k.startswith(key)), None)
            if sibling is not None:
                mine[name] = dict.fromkeys(sibling, 0.0)


SAME_GAME = ("end_reason", "winners", "steps", "turns", "decisions", "summary", "timeline", "actions_taken")
"""The fields of a record compared to tell whether two arms played the same game."""


def differing_games(a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]]) -> tuple[int, int]:
    """``(pairs, pairs that differ)``: game *i* of A against game *i* of B, by the fields of
    :data:`SAME_GAME` (how it ended, its length, the game's figures, its timeline, the actions
    taken by type). A pair that does not differ is, to all the lab records, the same game: the
    change between the arms never came into play in it."""
    by_index = {int(r.get("index", k)): r for k, r in enumerate(b)}
    pairs = differ = 0
    for k, r in enumerate(a):
        other = by_index.get(int(r.get("index", k)))
        if other is None:
            continue
        pairs += 1
        differ += any(r.get(f) != other.get(f) for f in SAME_GAME)
    return pairs, differ


def align(a: dict[str, list[float]], b: dict[str, list[float]]) -> None:
    """Give each side the shares (``key = value``) only the other has, as zeros: a value never
    seen under A has a share of 0 under A, not no figure."""
    for mine, theirs in ((a, b), (b, a)):
        for name in theirs:
            if name in mine or " = " not in name:
                continue
            key = name.split(" = ")[0] + " = "
            sibling = next((v for k, v in mine.items() if k.startswith(key)), None)
            if sibling is not None:
                mine[name] = [0.0] * len(sibling)


@dataclass(frozen=True, slots=True)
class Rate:
    """A win rate with its 95% interval and the share it would have if the game were fair."""

    who: str
    wins: int
    games: int
    fair: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def unfair(self) -> bool:
        lo, hi = self.ci
        return self.games > 0 and not lo <= self.fair <= hi

    def text(self) -> str:
        lo, hi = self.ci
        return f"{100 * self.rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of {self.games} (fair {100 * self.fair:.1f}%)"


def has_winners(records: Sequence[dict[str, Any]]) -> bool:
    return any(r["winners"] for r in records)


def seat_rates(records: Sequence[dict[str, Any]]) -> list[Rate]:
    """Win rate by seat over the games that have winners; fair share = winners per seat on average."""
    return _rates(records, lambda r: {s: s for s in r["bots"]})


def bot_rates(records: Sequence[dict[str, Any]]) -> list[Rate]:
    """Win rate by bot: a bot's seats that won over its seats played."""
    return _rates(records, lambda r: dict(r["bots"]))


def order_rates(records: Sequence[dict[str, Any]]) -> list[Rate]:
    """Win rate by place in the turn order (``1st``, ``2nd``…) where the game decides the order
    (its summary's ``turn_order``: the seats in the order they play, e.g. Euphoria's opening roll
    picks the first player); empty for a game whose order is its seats'."""
    return _rates(records, _places)


def attributes(records: Sequence[dict[str, Any]]) -> list[str]:
    """What the game says of each seat in its summary's ``by_seat`` (Euphoria: the starting
    recruit, its faction), in the order it names them."""
    names: dict[str, None] = {}
    for r in records:
        names.update(dict.fromkeys((r.get("summary") or {}).get("by_seat") or {}))
    return list(names)


def attribute_rates(records: Sequence[dict[str, Any]], attribute: str) -> list[Rate]:
    """Win rate by the value of one of the seats' :func:`attributes` (each recruit, faction…)."""
    return _rates(records, lambda r: ((r.get("summary") or {}).get("by_seat") or {}).get(attribute))


def _places(record: dict[str, Any]) -> dict[str, str] | None:
    order = record.get("summary", {}).get("turn_order")
    if not isinstance(order, list) or not order:
        return None
    return {seat: ordinal(k + 1) for k, seat in enumerate(order)}


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``…"""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _rates(records: Sequence[dict[str, Any]], label: Any) -> list[Rate]:
    wins: Counter[str] = Counter()
    plays: Counter[str] = Counter()
    fair: dict[str, list[float]] = defaultdict(list)
    for r in records:
        labels = label(r)
        if not r["winners"] or labels is None:
            continue
        players = [s for s in r["bots"] if s in _player_seats(r)]
        share = len(r["winners"]) / len(players)
        for seat in players:
            who = labels.get(seat)
            if who is None:
                continue
            plays[who] += 1
            fair[who].append(share)
            if seat in r["winners"]:
                wins[who] += 1
    return [Rate(w, wins[w], plays[w], fmean(fair[w])) for w in sorted(plays, key=_natural)]


def _natural(who: str) -> tuple[int, str]:
    """``p2`` before ``p10``, ``2nd`` before ``10th``."""
    digits = "".join(c for c in who if c.isdigit())
    return (int(digits) if digits else 0, who)


def _player_seats(record: dict[str, Any]) -> list[str]:
    """The seats that can win: those that ever won in a game like this, i.e. not a referee seat.
    A referee (GM, the table) never appears among winners; the lab counts the first ``players`` seats
    in seat order (``seats`` when the record has it: a JSON file may have sorted ``bots``)."""
    return list(record.get("seats") or record["bots"])[: record["players"]]


def p_value(rate: Rate) -> float:
    """Two-sided p-value of the score test of ``rate`` against its fair share (the test whose
    inversion is Wilson's interval: p < 0.05 exactly when the interval excludes the fair share)."""
    return score_p_value(rate.wins, rate.games, rate.fair)


def seat_tests(records: Sequence[dict[str, Any]]) -> list[tuple[Rate, float]]:
    """Each seat's win rate with its Holm-adjusted p-value against its fair share."""
    return rate_tests(seat_rates(records))


def rate_tests(rates: list[Rate]) -> list[tuple[Rate, float]]:
    """Each win rate with its Holm-adjusted p-value against its fair share."""
    return list(zip(rates, holm([p_value(r) for r in rates]), strict=True))


SEAT_CAVEAT = (
    "each seat (and place in the turn order) is tested against its fair share at 95%, corrected for the {m} "
    "seats tested (Holm); across "
    "many batches some still raise a warning by chance alone: confirm with a bigger batch or another seed "
    "before acting on it"
)


# -- time series ---------------------------------------------------------------------------------
def timeline(records: Sequence[dict[str, Any]]) -> tuple[str, dict[str, tuple[list[int], list[float], list[int]]]]:
    """For each quantity: the clock values, the mean over the games at each, and how many games
    reached it. The unit is the game's (``round``, ``scene``...)."""
    unit = ""
    sums: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        tl = r.get("timeline") or {}
        unit = unit or tl.get("unit", "")
        for name, values in (tl.get("values") or {}).items():
            for t, v in zip(tl["t"], values, strict=False):
                if v is not None:
                    sums[name][t].append(v)
    out = {}
    for name, by_t in sums.items():
        ts = sorted(by_t)
        out[name] = (ts, [fmean(by_t[t]) for t in ts], [len(by_t[t]) for t in ts])
    return unit, out


def timeline_bands(records: Sequence[dict[str, Any]]) -> dict[str, list[float]]:
    """For each quantity of :func:`timeline`, the half-width of the 95% interval of the mean at
    each clock value (normal approximation: 1.96 standard errors; 0 where one game is left)."""
    sums: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        tl = r.get("timeline") or {}
        for name, values in (tl.get("values") or {}).items():
            for t, v in zip(tl["t"], values, strict=False):
                if v is not None:
                    sums[name][t].append(v)
    out = {}
    for name, by_t in sums.items():
        halves = []
        for t in sorted(by_t):
            xs = by_t[t]
            if len(xs) < 2:
                halves.append(0.0)
                continue
            m = fmean(xs)
            sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
            halves.append(Z95 * sd / math.sqrt(len(xs)))
        out[name] = halves
    return out


# -- warnings ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DesignWarning:
    """Something a designer must see: what, and the figure behind it."""

    kind: str
    message: str


def warnings(game: Game[Any], records: Sequence[dict[str, Any]], *, saturation: float = 0.5) -> list[DesignWarning]:
    """Where a rule breaks, with the figure behind each: games stopped by a safety bound or a
    refusal, end reasons that never or always happen, seats that win more or less than their share,
    actions offered but never taken, counters at their floor or ceiling most of the time."""
    n = len(records)
    out: list[DesignWarning] = []
    if not n:
        return out
    reasons = Counter(r["end_reason"] for r in records)
    meta = game.meta
    for reason in (*STOPPED, *meta.bound_reasons):
        if reasons[reason]:
            what = {
                STEP_LIMIT: f"stopped by the lab's step bound ({meta.max_steps} steps)",
                REFUSED: "stopped because a bot's action was refused",
                BOT_ERROR: "stopped because a bot failed (raised an error)",
            }.get(reason, f"ended by the safety bound {reason!r}, not by the rulebook's end")
            lo, hi = wilson(reasons[reason], n)
            share = f"{100 * reasons[reason] / n:.1f}%, CI {100 * lo:.1f}-{100 * hi:.1f}%"
            out.append(DesignWarning("safety bound", f"{reasons[reason]} of {n} games ({share}) {what}"))
    errors = [r["error"] for r in records if r.get("error")]
    if errors:
        out.append(DesignWarning("bot failed", f"first of {len(errors)}: {errors[0]}"))
    rulebook = [r for r in meta.end_reasons if r not in meta.bound_reasons]
    if len(rulebook) > 1:
        never = [r for r in rulebook if reasons[r] == 0]
        always = [r for r in rulebook if reasons[r] == n]
        if always:
            tail = f"; {', '.join(map(repr, never))} never did" if never else ""
            out.append(DesignWarning("end always happens", f"end reason {always[0]!r} ended all {n} games{tail}"))
        else:
            for reason in never:
                out.append(DesignWarning("end never happens", f"end reason {reason!r} happened in 0 of {n} games"))
    tests = seat_tests(records)
    for rate, p in tests:
        if p < 0.05:
            side = "more" if rate.rate > rate.fair else "less"
            message = f"seat {rate.who} wins {side} than its share: {rate.text()}, p = {p:.2g} (Holm)"
            out.append(DesignWarning("seat advantage", message))
    order = rate_tests(order_rates(records))
    for rate, p in order:
        if p < 0.05:
            side = "more" if rate.rate > rate.fair else "less"
            message = f"the {rate.who} player wins {side} than its share: {rate.text()}, p = {p:.2g} (Holm)"
            out.append(DesignWarning("turn-order advantage", message))
    if any(p < 0.05 for _, p in [*tests, *order]):
        out.append(DesignWarning("seat advantage, read with care", SEAT_CAVEAT.format(m=len(tests))))
    offered: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    for r in records:
        offered.update(r.get("actions_offered", {}))
        taken.update(r.get("actions_taken", {}))
    never = [f"{action!r} (legal at {offered[action]})" for action in sorted(offered) if not taken[action]]
    if never:
        what = "action type" if len(never) == 1 else f"{len(never)} action types"
        message = f"{what} legal at some decisions, never taken: {', '.join(never)}"
        out.append(DesignWarning("action never taken", message))
    out.extend(_counter_warnings(game, records, saturation))
    return out


def _counter_warnings(game: Game[Any], records: Sequence[dict[str, Any]], threshold: float) -> list[DesignWarning]:
    out = []
    for name, floor, ceiling in game.meta.counter_bounds:
        values = []
        finals = []
        for r in records:
            series = [v for v in (r.get("timeline") or {}).get("values", {}).get(name, []) if v is not None]
            values.extend(series)
            if series:
                finals.append(series[-1])
        if not values:
            continue
        for bound, kind, word in ((floor, "runs dry", "at its floor"), (ceiling, "saturates", "at its ceiling")):
            if bound is None:
                continue
            share = sum(1 for v in values if v == bound) / len(values)
            end_share = sum(1 for v in finals if v == bound) / len(finals)
            if share >= threshold or end_share >= 0.9:
                out.append(
                    DesignWarning(
                        f"counter {kind}",
                        f"{name} {kind} ({word} {bound:g}) in {100 * share:.0f}% of samples by "
                        f"{game.meta.clock_unit}, and at the end of {100 * end_share:.0f}% of games",
                    )
                )
    return out
