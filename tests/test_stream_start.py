"""The start of a step's dice stream is the BLAKE2b (8 bytes, little-endian) of "lv/seed/k1/k2/...", whatever was
hashed before it: ``stream_start`` keeps a hasher fed "lv/seed/" for the last seed, which must never answer for
another seed (an int and a bool that compare equal, a str that prints the same, a seed changed back and forth)."""

from __future__ import annotations

import hashlib

from lv.chance import stream_start


def _documented(seed: object, key: tuple) -> int:
    text = "/".join(["lv", str(seed), *(str(k) for k in key)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def test_each_step_hashes_its_own_seed_and_key_whatever_came_before() -> None:
    """Planted and caught: the kept hasher reused for a seed equal but of another type (1 after True)."""
    seeds = [7, 7, "7", True, 1, 0, False, "a seed", 2**70, "é", 7]
    keys = [("turn", 3, "decision", 2), ("turn", 3, "draw"), ("start",), (), ("turn", 1500, "decision", 0),
            ("mcts", 2, 14, 0)]
    for seed in seeds:
        for key in keys:
            assert stream_start(seed, key) == _documented(seed, key), (seed, key)
        assert stream_start(seed, keys[0]) == _documented(seed, keys[0]), seed  # the kept hasher, used again
