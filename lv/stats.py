"""The statistics a reviewer asks of a report of many intervals: adjusted significance, power, exact bounds for
rare events, and intervals that fit sparse data. Plain Python (no SciPy), seeded where random, so the same run
gives the same figures.

- ``t_p_value``: the two-sided p-value of a t interval (``metrics.Tally``'s) from its mean and half-width;
- ``holm``: which of a table's p-values survive Holm's step-down correction (family-wise error 5%);
- ``binomial_upper``: the exact (Clopper-Pearson) one-sided 95% upper bound of a rate seen k times in n
  (0 of 400: 0.75%, the "rule of three");
- ``clopper_pearson``: the exact two-sided 95% interval of a rate (the share of pairs whose winner changed);
- ``sparse_interval``: the paired bootstrap of a mean difference that rests on few non-zero pairs (a change that
  altered k of n games), with the sign-flip permutation p-value of the same pairs: a t interval over n - k zeros
  and k values claims a precision the k games do not have;
- ``mde``: the smallest effect a run could detect with 80% power at 5% (two-sided), from an interval's width.

The lv balance report (issue 30, item 7) and ``lv explain`` use them; docs/simulation.md says how to read them.
"""

from __future__ import annotations

import bisect
import math
import random
from typing import Callable, Sequence

Z975 = 1.959964  # the 97.5% quantile of the standard normal
Z80 = 0.841621  # its 80% quantile: the power of the minimum detectable effect
SPARSE = 30  # fewer non-zero pairs than this: the sparse interval replaces the t interval
ALPHA = 0.05


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (Lentz's continued fraction, as Numerical Recipes)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1.0) / (a + b + 2.0):  # the fraction converges fast on this side only
        return 1.0 - betainc(b, a, 1.0 - x)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return front * h / a


def t_two_sided(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom."""
    if df < 1:
        return 1.0
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def t_p_value(mean: float | None, low: float | None, high: float | None, n: int) -> float | None:
    """The two-sided p-value of "the mean is 0" behind a 95% t interval ``[low, high]`` of ``n`` values (the
    interval of ``metrics.Tally.estimate``: mean +- t975(n - 1) * sd / sqrt(n)). None without an interval."""
    from .metrics import t975

    if mean is None or low is None or high is None or n < 2:
        return None
    half = (high - low) / 2.0
    if half <= 0.0:
        return 1.0 if mean == 0 else 0.0
    se = half / t975(n - 1)
    return t_two_sided(mean / se, n - 1)


def holm(pvalues: Sequence[float | None], alpha: float = ALPHA) -> list[bool]:
    """Which p-values survive Holm's step-down correction at family-wise error ``alpha``: sorted increasing, the
    i-th (from 0) of m is rejected while p <= alpha / (m - i); the first that is not stops the rest. None (no
    test) neither counts nor survives."""
    tests = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(tests)
    out = [False] * len(pvalues)
    for rank, (p, i) in enumerate(tests):
        if p > alpha / (m - rank):
            break
        out[i] = True
    return out


def mde(low: float | None, high: float | None, n: int, power_z: float = Z80) -> float | None:
    """The minimum detectable effect of a paired mean with 80% power at 5% two-sided: (z975 + z80) standard
    errors, the standard error read off a 95% t interval of ``n`` values."""
    from .metrics import t975

    if low is None or high is None or n < 2:
        return None
    se = (high - low) / 2.0 / t975(n - 1)
    return (Z975 + power_z) * se


def binomial_upper(k: int, n: int, confidence: float = 0.95) -> float:
    """The exact one-sided upper bound of a rate seen ``k`` times in ``n``: the p with P(X <= k; n, p) =
    1 - confidence (Clopper-Pearson). 0 of n: 1 - 0.05^(1/n)."""
    if n <= 0:
        return 1.0
    if k >= n:
        return 1.0
    alpha = 1.0 - confidence
    if k == 0:
        return 1.0 - float(alpha ** (1.0 / n))
    # P(X <= k) = 1 - I_p(k + 1, n - k), decreasing in p
    return _solve(lambda p: 1.0 - betainc(k + 1, n - k, p), alpha, decreasing=True)


def clopper_pearson(k: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The exact two-sided interval of a rate seen ``k`` times in ``n`` (each tail (1 - confidence) / 2); a
    fractional ``k`` (shares rather than counts) goes through the same beta quantiles."""
    if n <= 0:
        return 0.0, 1.0
    tail = (1.0 - confidence) / 2.0
    low = 0.0 if k == 0 else _solve(lambda p: betainc(k, n - k + 1, p), tail, decreasing=False)  # P(X >= k)
    high = 1.0 if k == n else _solve(lambda p: 1.0 - betainc(k + 1, n - k, p), tail, decreasing=True)
    return low, high


def _solve(f: Callable[[float], float], target: float, decreasing: bool) -> float:
    """The p in [0, 1] where the monotone ``f`` crosses ``target`` (bisection to 1e-12)."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2.0
        above = f(mid) > target
        if above == decreasing:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def nonzero(distribution: dict[float, int]) -> list[float]:
    """The non-zero values of a distribution (value -> count), each as often as it was seen, in increasing order."""
    return [v for v, c in sorted(distribution.items()) if v != 0 for _ in range(c)]


def sparse_interval(values: Sequence[float], n: int, rng: random.Random, resamples: int = 2000
                    ) -> tuple[float, float, float]:
    """The paired bootstrap of the mean of ``n`` paired differences of which only ``values`` are not 0: the
    percentile 95% interval (low, high) and the sign-flip permutation p-value of the mean being 0.

    A resample of the n pairs draws each pair with probability 1/n: the number of non-zero pairs it holds is
    Binomial(n, k/n) and they are a uniform draw, with replacement, of the k; so each resample costs k draws,
    not n (the same distribution as resampling the n pairs). The sign-flip test flips the sign of each non-zero
    difference (exactly, over all 2^k signs, up to k = 10; else 2,000 seeded draws)."""
    k = len(values)
    if k == 0 or n < 1:
        return 0.0, 0.0, 1.0
    q = k / n
    cdf: list[float] = []
    total, logp = 0.0, n * math.log1p(-q) if q < 1 else -math.inf
    m = 0
    while m <= n:  # the Binomial(n, q) CDF, as far as it is below 1
        pm = math.exp(logp) if logp > -745 else 0.0
        total += pm
        cdf.append(total)
        if total >= 1.0 - 1e-12 or (m > k and pm < 1e-16):
            break
        if q >= 1:
            break
        logp += math.log((n - m) / (m + 1)) + math.log(q) - math.log1p(-q)
        m += 1
    if q >= 1:
        cdf = [0.0] * n + [1.0]
    means = []
    for _ in range(resamples):
        drawn = min(bisect.bisect_left(cdf, rng.random() * cdf[-1]), len(cdf) - 1)
        means.append(math.fsum(values[int(rng.random() * k)] for _ in range(drawn)) / n)
    means.sort()
    low = means[int(0.025 * (resamples - 1))]
    high = means[int(math.ceil(0.975 * (resamples - 1)))]
    return low, high, sign_flip_p(values, rng)


def sign_flip_p(values: Sequence[float], rng: random.Random, draws: int = 2000) -> float:
    """The two-sided sign-flip permutation p-value of the sum of ``values`` being 0 (the pairs' differences are
    symmetric about 0 when the change does nothing): exact up to 10 values, else ``draws`` seeded flips (the
    observed signs counted as one draw)."""
    k = len(values)
    if k == 0:
        return 1.0
    observed = abs(math.fsum(values)) - 1e-9
    if k <= 10:
        hits = 0
        for signs in range(1 << k):
            s = math.fsum(v if signs >> i & 1 else -v for i, v in enumerate(values))
            hits += abs(s) >= observed
        return hits / (1 << k)
    hits = 1
    for _ in range(draws):
        s = math.fsum(v if rng.random() < 0.5 else -v for v in values)
        hits += abs(s) >= observed
    return hits / (draws + 1)
