"""A decision's dice-stream key is written as bytes at once (``chance._key_data``: b"turn/%b/decision/%b" from a
table of numerals): the bytes hashed must be the documented "k1/k2/..." text of every key, the decision's form or
not (a bool, a number past the table, a negative one, another word in its place)."""

from __future__ import annotations

import hashlib

from lv.chance import Stream, _key_data, stream_start


def _text(key: tuple) -> bytes:
    return "/".join(str(k) for k in key).encode()


def test_a_step_key_is_written_as_its_text() -> None:
    keys = [("turn", t, "decision", i) for t in (0, 1, 9, 10, 99, 100, 999) for i in (0, 3, 12, 999)]
    keys += [("turn", 1000, "decision", 0), ("turn", 3, "decision", 1000), ("turn", -1, "decision", 2),
             ("turn", 3, "decision", -4), ("turn", True, "decision", 2), ("turn", 3, "decision", False),
             ("Turn", 3, "decision", 2), ("turn", 3, "Decision", 2), ("turn", 3, "choice", 2),
             ("turn", "3", "decision", 2),
             ("turn", 3, "draw"), ("start",), ("mcts", 2, 14, 0), ("turn", 2**70, "decision", 1)]
    for key in keys:
        assert _key_data(key) == _text(key), key


def test_a_decision_rolls_from_the_hash_of_its_text() -> None:
    """The stream's start hashes "lv/seed/" and the key's bytes: the documented text's BLAKE2b."""
    for seed in (0, 41, "a seed"):
        for key in (("turn", 12, "decision", 3), ("turn", 999, "decision", 999), ("turn", 1000, "decision", 1)):
            text = f"lv/{seed}/" + "/".join(str(k) for k in key)
            want = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
            assert stream_start(seed, key) == want, (seed, key)


def test_one_stream_kept_from_step_to_step_starts_again_at_each(monkeypatch) -> None:
    """Compiled, a Dice keeps one stream object (``_halves``) from step to step (``again``) and starts it again at
    each step's first die: each step rolls what a new Dice of that step rolls, whether the step before rolled or
    not (the compiled way run here too: ``chance._COMPILED`` set)."""
    from lv import chance
    from lv.chance import Dice

    monkeypatch.setattr(chance, "_COMPILED", True)
    kept = Dice(5, ("start",))
    streams = set()
    for turn, rolls in ((1, 3), (2, 0), (3, 1), (4, 2), (5, 0), (6, 0), (7, 4)):
        key = ("turn", turn, "decision", turn % 3)
        d = kept.again(5, key)
        new = Dice(5, key)
        got = [d._roll() for _ in range(rolls)]
        plain = Stream(stream_start(5, key))  # the documented stream of the step
        assert got == [new._roll() for _ in range(rolls)] == [plain.die() for _ in range(rolls)]
        if rolls:
            streams.add(id(d._halves))
    assert len(streams) == 1
