"""A/A: two arms with no real difference between them must star a figure of ``compare`` in at
most 5% of comparisons (the family-wise rate), whatever the number of figures in the table.

First the correction itself, on synthetic A/A tables (seeded: the same every run); then a small
real A/A run of the lab (the same settings dealt from two seeds), read by ``compare``'s table.
"""

from __future__ import annotations

import numpy as np

from ludica.lab.batch import Batch, run
from ludica.lab.cli import compare_rows
from ludica.lab.inference import fdr, paired_p_values
from ludica.lab.report import Arm

FAMILIES = 600
"""Synthetic A/A tables: the family-wise rate is read to about ±1.8% (two standard errors at 5%)."""


def _aa_table(rng: np.random.Generator, games: int = 100) -> list[list[float]]:
    """The per-game differences B − A of one A/A table: 24 figures as the lab's are, counts that
    move together (steps, turns: one noise), shares of games (an end reason, a yes/no figure),
    numbers of various spreads; no figure differs between the arms in truth."""
    shared = rng.normal(size=(2, games))
    figures = [list(shared[1] - shared[0]), list(1.3 * (shared[1] - shared[0]) + rng.normal(0, 0.2, games))]
    for p in (0.1, 0.25, 0.5, 0.7):
        a, b = rng.random(games) < p, rng.random(games) < p
        figures.append(list(b.astype(float) - a.astype(float)))
    for _ in range(18):
        a, b = rng.gamma(2.0, 3.0, games), rng.gamma(2.0, 3.0, games)
        figures.append(list(b - a))
    return figures


def test_the_corrected_star_holds_the_family_wise_rate_at_five_percent() -> None:
    rng = np.random.default_rng(36)
    tables = [paired_p_values(_aa_table(rng)) for _ in range(FAMILIES)]  # as compare_rows tests them
    corrected = sum(any(p < 0.05 for p in fdr(ps)) for ps in tables) / FAMILIES
    uncorrected = sum(any(p < 0.05 for p in ps) for ps in tables) / FAMILIES
    assert 0.05 - 0.025 <= corrected <= 0.05 + 0.02  # at most 5%, give or take the noise of 600 tables
    assert uncorrected > 0.5  # one star in most tables, before the correction (24 figures at 5% each)


def test_a_real_a_a_run_stars_nothing() -> None:
    batch = Batch("pig", ("Ann", "Bob"), games=60)
    starred = 0
    comparisons = 8
    for k in range(comparisons):
        a = Batch(batch.game, batch.players, games=batch.games, seed=1000 * k)
        b = Batch(batch.game, batch.players, games=batch.games, seed=1000 * k + 500)
        _, rows = compare_rows(Arm("A", a, run(a)), Arm("B", b, run(b)))
        assert rows and all(len(row) == 7 for row in rows)
        starred += any(row[3].endswith("*") for row in rows)
    assert starred <= 1  # at 5% family-wise, 8 A/A tables star at most one (the seeds are fixed)
