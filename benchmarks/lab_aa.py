"""A/A comparisons with the lab: how often ``compare``'s table stars at least one figure when the
two arms have no real difference (the same settings, dealt from two seeds), printed (never
asserted), with the rule it used before (a star for every figure whose 95% interval excludes 0)
beside today's (the paired t-test, corrected for the number of figures).

    python benchmarks/lab_aa.py [GAME] [--comparisons K] [--games N] [--players P] [--bot SPEC] [--jobs J]
"""

from __future__ import annotations

import argparse

from ludica.lab.analysis import wilson
from ludica.lab.batch import Batch, run
from ludica.lab.cli import compare_rows
from ludica.lab.playthrough import NAMES
from ludica.lab.report import Arm


def _excludes_zero(ci: str) -> bool:
    lo, hi = (float(x) for x in ci.strip("[]").split(", "))
    return lo > 0 or hi < 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="great-city")
    parser.add_argument("--comparisons", type=int, default=30)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    players = NAMES[: args.players]
    before = after = figures = stars_before = stars_after = 0
    for k in range(args.comparisons):
        arms = []
        for seed in (2 * k * args.games, (2 * k + 1) * args.games):  # no game dealt twice
            batch = Batch(args.game, players, bots={"*": args.bot}, games=args.games, seed=seed)
            arms.append(Arm(str(seed), batch, run(batch, jobs=args.jobs)))
        _, rows = compare_rows(*arms)
        uncorrected = sum(_excludes_zero(row[5]) for row in rows if row[5] != "[-, -]")
        corrected = sum(row[3].endswith("*") for row in rows)
        figures += len(rows)
        stars_before += uncorrected
        stars_after += corrected
        before += uncorrected > 0
        after += corrected > 0
    n = args.comparisons
    print(f"{args.game}, {args.players} players, {args.bot}: {n} A/A comparisons of {args.games} games a side")
    print(f"  figures per table (mean): {figures / n:.1f}")
    for label, tables, stars in (
        ("before (interval excludes 0)", before, stars_before),
        ("after (corrected)", after, stars_after),
    ):
        lo, hi = wilson(tables, n)
        share = f"{100 * tables / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
        print(f"  {label}: {tables} of {n} tables starred at least one figure ({share}); {stars} stars in all")


if __name__ == "__main__":
    main()
