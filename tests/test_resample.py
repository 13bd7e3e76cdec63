"""The bootstrap's resamples drawn in bulk with NumPy (lv/resample.py) are the very draws the Python generator
makes one at a time: the same counts, resample after resample, and the generator left in the same state."""

from __future__ import annotations

import random
from array import array

import pytest

from lv import metrics
from lv.resample import one_resample, resampled_counts

pytest.importorskip("numpy")


@pytest.mark.parametrize("n, size, typecode", [(1, 3, "B"), (2, 2, "B"), (7, 5, "B"), (1000, 5, "B"),
                                               (3001, 80, "H"), (2500, 6400, "L")])
def test_bulk_draws_are_the_python_draws(n, size, typecode):
    source = random.Random(n)
    codes = array(typecode, (source.randrange(size) for _ in range(n)))
    bulk, one = random.Random(f"lv/{n}"), random.Random(f"lv/{n}")
    got = list(resampled_counts(codes, size, bulk, 20))
    assert got == [one_resample(codes, size, one) for _ in range(20)]
    assert got == list(resampled_counts(codes, size, random.Random(f"lv/{n}"), 20, bulk=False))
    assert all(sum(c) == n for c in got) and len({tuple(c) for c in got}) > (n > 2)
    assert bulk.getstate() == one.getstate()  # what the generator draws next is the same too
    assert bulk.random() == one.random()


def test_no_games_no_draws():
    rng = random.Random(1)
    state = rng.getstate()
    assert list(resampled_counts([], 3, rng, 2)) == [[0, 0, 0], [0, 0, 0]]
    assert rng.getstate() == state


def test_the_intervals_of_a_report_are_the_same_without_numpy(monkeypatch):
    source = random.Random(3)
    seats = array("B", (source.choice([0, 1, 2, 3, 4, 4]) for _ in range(500)))

    def interval() -> tuple[float | None, float | None]:
        return metrics.bootstrap_counts(lambda c: metrics.balance_of_counts(c, 4), seats, 5, random.Random(9), 200)

    bulk = interval()
    monkeypatch.setattr("lv.resample._numpy", lambda: None)
    assert interval() == bulk and bulk[0] is not None and bulk[0] < bulk[1]
