"""The bootstrap's resamples of a run's games, counted (``metrics.bootstrap_counts``), drawn in bulk.

A resample of n games draws n indices ``floor(random() * n)`` from the run's seeded ``random.Random`` (what
``rng.choices(range(n), k=n)`` draws) and counts the code of each game drawn. At 10,000 games a profile a report
draws 90 million numbers; one at a time in Python that is most of the time of the report (about 15 s).

When NumPy is there, the same numbers come from NumPy's legacy ``RandomState``: the same Mersenne Twister, started
from the Python generator's state, whose ``random_sample`` makes a double from two 32-bit outputs exactly as
``random.random`` does (``(a >> 5) * 2**26 + (b >> 6)``, over 2**53), and the generator's state is handed back
after the last resample. So the counts, and every interval of the report, are the same, bit for bit, with or
without NumPy (tests/test_resample.py compares the two ways).
"""

from __future__ import annotations

import math
import random
from typing import Any, Iterator, Sequence

MT_WORDS = 624  # the Mersenne Twister's state: 624 words and the position in them


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def resampled_counts(codes: Sequence[int], size: int, rng: random.Random, resamples: int,
                     bulk: bool = True) -> Iterator[list[int]]:
    """For each of ``resamples`` resamples, how often each code (below ``size``) turns up among the games drawn
    (``codes[i]``: game i's code). ``bulk``: draw with NumPy if it is there (the same numbers)."""
    np = _numpy() if bulk else None
    if np is None or len(codes) == 0:
        for _ in range(resamples):
            yield one_resample(codes, size, rng)
        return
    version, state, gauss = rng.getstate()
    twister = np.random.RandomState()
    twister.set_state(("MT19937", np.array(state[:MT_WORDS], dtype=np.uint32), state[MT_WORDS]))
    table = np.asarray(codes, dtype=np.int64)
    n = float(len(table))
    try:
        for _ in range(resamples):
            drawn = np.floor(twister.random_sample(len(table)) * n).astype(np.int64)
            yield np.bincount(table[drawn], minlength=size).tolist()
    finally:  # the Python generator goes on from where the twister stopped, as if it had drawn the numbers
        _, words, pos, _, _ = twister.get_state()
        rng.setstate((version, tuple(int(w) for w in words) + (int(pos),), gauss))


def one_resample(codes: Sequence[int], size: int, rng: random.Random) -> list[int]:
    """One resample's counts, drawn one number at a time (the reference; ``resampled_counts`` without NumPy)."""
    counts = [0] * size
    draw, n, floor = rng.random, float(len(codes)), math.floor
    for _ in range(len(codes)):
        counts[codes[floor(draw() * n)]] += 1
    return counts
