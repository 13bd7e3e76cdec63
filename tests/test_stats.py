"""lv/stats.py: Holm's correction, exact binomial bounds, the sparse paired bootstrap and the minimum detectable
effect, on planted figures (the reference values from SciPy, computed once and written here)."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from lv import stats
from lv.metrics import Tally


def test_holm_marks_a_planted_set_of_p_values():
    """Sorted: 0.001 <= 0.05/5, 0.008 <= 0.05/4, 0.012 <= 0.05/3, then 0.03 > 0.05/2 stops the rest."""
    ps = [0.03, 0.001, 0.012, 0.5, 0.008, None]
    assert stats.holm(ps) == [False, True, True, False, True, False]
    # a step that fails stops the rest, even a later p that its own threshold would pass
    assert stats.holm([0.02, 0.026, 0.049]) == [False, False, False]
    assert stats.holm([0.01, 0.02, 0.04]) == [True, True, True]  # 0.01 <= 0.05/3, 0.02 <= 0.025, 0.04 <= 0.05
    assert stats.holm([]) == []


def test_exact_binomial_bounds():
    assert stats.binomial_upper(0, 400) == pytest.approx(1 - 0.05 ** (1 / 400))  # about 0.75%
    assert 0.0074 < stats.binomial_upper(0, 400) < 0.0076
    low, high = stats.clopper_pearson(28, 100)
    assert low == pytest.approx(0.19479, abs=1e-5) and high == pytest.approx(0.37867, abs=1e-5)  # SciPy's beta.ppf
    assert stats.clopper_pearson(0, 50) == (0.0, pytest.approx(0.07112, abs=1e-5))
    assert stats.clopper_pearson(50, 50)[1] == 1.0
    # P(X <= 3; 400, p) = 0.05 at the bound
    p = stats.binomial_upper(3, 400)
    assert sum(math.comb(400, i) * p ** i * (1 - p) ** (400 - i) for i in range(4)) == pytest.approx(0.05, abs=1e-6)


def test_t_p_value_matches_the_interval():
    """A t interval that just touches 0 has p = 0.05; one centred on 0 has p = 1."""
    t = Tally()
    for x in [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, -1.0, 0.5]:
        t.add(x)
    e = t.estimate()
    assert stats.t_p_value(e.mean, e.mean - (e.high - e.mean), e.high, e.n) == pytest.approx(
        stats.t_p_value(e.mean, e.low, e.high, e.n))
    assert stats.t_p_value(e.high - e.mean, 0.0, 2 * (e.high - e.mean), e.n) == pytest.approx(0.05, abs=1e-4)
    assert stats.t_p_value(0.0, -1.0, 1.0, 30) == pytest.approx(1.0)
    assert stats.t_two_sided(2.0, 10) == pytest.approx(0.073388, abs=1e-6)  # SciPy: 2 * t.sf(2, 10)


def test_the_sparse_interval_of_k_changed_pairs_in_n():
    """7 of 400 pairs differ: the bootstrap interval's ends are means of resamples (sums of drawn values over
    400), it holds the mean, and a change that always adds +5 to 10 of 10 pairs is sure."""
    values = [1.0, 2.0, -1.0, 3.0, 2.0, 1.0, 4.0]
    low, high, p = stats.sparse_interval(values, 400, random.Random(1))
    mean = sum(values) / 400
    assert low < mean < high and low >= -1.0 * 7 / 400 and high <= 4.0 * 20 / 400
    assert 0 < p < 0.1  # 6 of 7 positive: the sign-flip test, exact over 2^7 signs
    flips = [abs(sum(s * v for s, v in zip(signs, values))) >= 12 for signs in itertools.product((1, -1), repeat=7)]
    assert stats.sign_flip_p(values, random.Random(0)) == pytest.approx(sum(flips) / 128) and p == stats.sign_flip_p(
        values, random.Random(0))
    assert stats.sparse_interval([5.0] * 10, 10, random.Random(1)) == (5.0, 5.0, pytest.approx(2 / 1024))
    assert stats.sparse_interval([], 100, random.Random(1)) == (0.0, 0.0, 1.0)


def test_minimum_detectable_effect_is_2_8_standard_errors():
    from lv.metrics import t975

    se = 0.5
    half = t975(99) * se
    assert stats.mde(1.0 - half, 1.0 + half, 100) == pytest.approx((1.959964 + 0.841621) * se)
    assert stats.mde(None, None, 100) is None
