"""The lab's statistics, from well-kept libraries (the ``lab`` extra: scipy, statsmodels).

* a share of games (a win rate, how often an end reason happens): Wilson's 95% interval
  (``statsmodels.stats.proportion.proportion_confint``), with its p-value against a share the
  score test whose inversion it is (``proportions_ztest`` with the null's variance);
* the mean of any other figure: a seeded percentile bootstrap (``scipy.stats.bootstrap``);
* B − A of ``ludica compare``: the same bootstrap of the per-game differences (paired), and for the
  star the paired t-test (``scipy.stats.ttest_1samp``) of those differences;
* many tests at once: Benjamini–Hochberg's correction for the figures of ``compare``
  (``scipy.stats.false_discovery_control``: with no real difference, as in an A/A comparison, the
  chance of one star in the table is at most 5%; with real ones, at most 5% of the stars are
  false on average), Holm's for the seats (``statsmodels.stats.multitest.multipletests``: the
  chance of one false alarm among them at most 5%).

The libraries are imported when first used, so the lab's modules import without the extra;
:func:`require_stats` says in one line what to install. Every resampling is seeded: the same
data give the same interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..core.errors import ConfigError

LEVEL = 0.05
"""Every interval is 95%, every test at 5% (after correction)."""
CORRECTION = "Benjamini-Hochberg"
"""How ``compare`` corrects its star for the number of figures (named in the table); the seats'
tests, few, use Holm's."""


def require_stats() -> None:
    """Raise the one-line error naming the extra when scipy or statsmodels is missing."""
    try:
        import scipy.stats  # noqa: F401
        import statsmodels.stats.proportion  # noqa: F401
    except ImportError:
        raise ConfigError(
            "the lab's statistics need scipy and statsmodels, which are not installed: "
            "pip install 'ludica[lab]' (or bash scripts/setup)",
            rule="lab",
        ) from None


def wilson(k: float, n: int) -> tuple[float, float]:
    """Wilson's 95% interval of a share ``k/n`` (``(0, 1)`` for no trial). An end at 0 or 1 is
    exactly 0 or 1 (the library's arithmetic leaves ``2e-19`` for 0 of 1000)."""
    if n == 0:
        return (0.0, 1.0)
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(k, n, alpha=LEVEL, method="wilson")
    return (0.0 if k <= 0 else float(lo), 1.0 if k >= n else float(hi))


def score_p_value(k: float, n: int, p0: float) -> float:
    """Two-sided p-value of ``k`` successes in ``n`` against the share ``p0``: the score test
    (the one whose inversion is Wilson's interval: p < 0.05 exactly when it excludes ``p0``)."""
    if n == 0:
        return 1.0
    if p0 <= 0.0 or p0 >= 1.0:
        return 1.0 if k == n * p0 else 0.0
    from statsmodels.stats.proportion import proportions_ztest

    _, p = proportions_ztest(k, n, value=p0, prop_var=p0)
    return float(p)


def bootstrap_mean(values: Sequence[float], *, seed: int = 0, rounds: int = 1000) -> tuple[float, float]:
    """The 95% percentile-bootstrap interval of the mean of ``values`` (seeded: reproducible)."""
    if not values:
        return (math.nan, math.nan)
    if min(values) == max(values):  # nothing to resample: the interval is the value
        return (float(values[0]), float(values[0]))
    import numpy as np
    from scipy.stats import bootstrap

    result = bootstrap(
        (np.asarray(values, dtype=float),),
        np.mean,
        n_resamples=rounds,
        method="percentile",
        confidence_level=1 - LEVEL,
        rng=np.random.default_rng(seed),
    )
    return (float(result.confidence_interval.low), float(result.confidence_interval.high))


def paired_p_value(diffs: Sequence[float]) -> float:
    """Two-sided p-value of the paired t-test that the mean of per-game differences is 0 (1 when
    every difference is 0; 0 when every one is the same non-zero amount)."""
    return paired_p_values([diffs])[0]


def paired_p_values(figures: Sequence[Sequence[float]]) -> list[float]:
    """:func:`paired_p_value` of each figure's differences, the figures with as many pairs
    tested together (one call of ``scipy.stats.ttest_1samp`` over their rows)."""
    out = [1.0] * len(figures)
    by_length: dict[int, list[int]] = {}
    for k, diffs in enumerate(figures):
        if len(diffs) < 2 or min(diffs) == max(diffs):
            out[k] = 1.0 if not diffs or diffs[0] == 0 else 0.0
        else:
            by_length.setdefault(len(diffs), []).append(k)
    if by_length:
        import numpy as np
        from scipy.stats import ttest_1samp

        for ks in by_length.values():
            ps = ttest_1samp(np.array([figures[k] for k in ks], dtype=float), 0.0, axis=1).pvalue
            for k, p in zip(ks, ps, strict=True):
                out[k] = float(p)
    return out


def fdr(p_values: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg's adjusted p-values (``scipy.stats.false_discovery_control``): among
    the figures starred at 5%, at most 5% are false alarms on average; with no real difference
    at all (an A/A comparison) the chance of even one star is at most 5%."""
    if not p_values:
        return []
    from scipy.stats import false_discovery_control

    return [float(p) for p in false_discovery_control(list(p_values), method="bh")]


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's adjusted p-values: the family-wise error rate at most the level, for any number of
    tests and any dependence between them."""
    if not p_values:
        return []
    from statsmodels.stats.multitest import multipletests

    adjusted: Any = multipletests(list(p_values), alpha=LEVEL, method="holm")[1]
    return [float(p) for p in adjusted]
