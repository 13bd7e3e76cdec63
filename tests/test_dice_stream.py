"""The generated dice (lv/chance.py): SplitMix64 streams keyed by (game seed, step), issue 18 point 3.

A step's dice must be the same under every profile that reaches the step (paired games roll alike), must not
depend on anything but the seed and the step, and must be fair dice.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from lv.chance import Dice, HalvesStream, Stream, stream_start


def test_splitmix64_gives_the_published_outputs() -> None:
    """The first outputs for the state 1234567 of the reference implementation (Vigna's splitmix64.c), so the
    generator is SplitMix64 and not a near miss that would still look random."""
    s = Stream(1234567)
    assert [s.next64() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]


def test_the_stream_start_is_blake2b_of_the_seed_and_step() -> None:
    import hashlib

    want = int.from_bytes(hashlib.blake2b(b"lv/7/turn/12/decision/3", digest_size=8).digest(), "little")
    assert stream_start(7, ("turn", 12, "decision", 3)) == want
    assert stream_start("7", ("turn", 12, "decision", 3)) == want  # a seed given as text is the same seed
    assert stream_start(7, ("turn", 12, "decision", 4)) != want


@given(st.integers(min_value=0, max_value=2**40), st.integers(min_value=1, max_value=60),
       st.integers(min_value=0, max_value=20))
def test_a_step_rolls_the_same_dice_every_time(seed: int, turn: int, index: int) -> None:
    key = ("turn", turn, "decision", index)
    a, b = Dice(seed, key), Dice(seed, key)
    pairs = [a.gamble(), a.gamble()]
    assert pairs == [b.gamble(), b.gamble()]
    assert all(1 <= d <= 6 for pair in pairs for d in pair)


def test_different_steps_roll_independently() -> None:
    """Over 2,000 steps the first gamble's two dice of neighbouring steps agree about as often as chance says
    (1/36 for a pair), not always and not never."""
    same = sum(Dice(1, ("turn", t, "decision", 0)).gamble() == Dice(1, ("turn", t, "decision", 1)).gamble()
               for t in range(2000))
    assert 20 <= same <= 100  # expected 55.6; a shared or shifted stream would give 2000 or 0


def test_the_dice_are_fair() -> None:
    """60,000 dice: each face within 5 standard deviations of 10,000 (sd 91), and the chi-square of the six
    faces below 20.5 (p = 0.001 for 5 degrees of freedom)."""
    s = Stream(stream_start(1, ("fairness",)))
    counts = Counter(s.die() for _ in range(60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(c - 10000) < 455 for c in counts.values())
    assert sum((c - 10000) ** 2 / 10000 for c in counts.values()) < 20.5


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_the_stream_in_halves_gives_the_plain_formulas_numbers(start: int) -> None:
    """The compiled build rolls ``HalvesStream`` (SplitMix64 on 32-bit halves, issue 18): for any 64-bit state it
    gives the outputs and the dice of the plain formula, step after step."""
    plain, halves = Stream(start), HalvesStream(start)
    assert [halves.next64() for _ in range(4)] == [plain.next64() for _ in range(4)]
    assert (halves.hi << 32) | halves.lo == plain.state
    assert [halves.die() for _ in range(4)] == [plain.die() for _ in range(4)]


def test_the_stream_in_halves_meets_the_edges() -> None:
    """States whose halves carry or wrap at every step: all ones, the increment's complement, zero."""
    for start in (0, 2**64 - 1, 2**32 - 1, 2**32, (2**64 - 0x9E3779B97F4A7C15) % 2**64, 2**63):
        plain, halves = Stream(start), HalvesStream(start)
        assert [halves.next64() for _ in range(3)] == [plain.next64() for _ in range(3)], start


def test_the_build_rolls_the_stream_it_should() -> None:
    """The compiled build rolls the stream in halves, the pure one the plain stream (the same dice either way)."""
    import lv
    from lv import chance

    dice = Dice(1, ("turn", 1, "decision", 0))
    dice.gamble()
    assert chance._COMPILED == (lv.build_name() == "compiled")
    assert (dice._halves is not None, dice._stream is not None) == (chance._COMPILED, not chance._COMPILED)


@given(st.one_of(st.integers(), st.text(max_size=8)),
       st.lists(st.one_of(st.integers(min_value=-10, max_value=5000), st.booleans(), st.text(max_size=5)),
                max_size=5))
def test_the_stream_start_writes_the_key_as_str_writes_it(seed: int | str, key: list[int | str]) -> None:
    """stream_start writes a step's small numbers from a table (issue 18): the same text, so the same start, as
    str() writes (a bool is not a number there: str(True) is "True")."""
    import hashlib

    text = "/".join(["lv", str(seed), *map(str, key)])
    want = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
    assert stream_start(seed, tuple(key)) == want


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_a_die_from_halves_is_the_plain_formulas_die(z: int) -> None:
    """The compiled build's die from an output's halves is ``1 + ((z * 6) >> 64)`` for any output ``z``."""
    from lv.chance import _die_of

    assert _die_of(z >> 32, z & 0xFFFFFFFF) == 1 + ((z * 6) >> 64)


def test_a_die_from_halves_at_the_faces_edges() -> None:
    """The outputs where the face changes (k * 2^64 / 6 rounded up, and one below), where the low half's carry
    decides the face: random outputs reach them once in 2^32."""
    from lv.chance import _die_of

    for k in range(1, 6):
        edge = -(-k * 2**64 // 6)
        for z in (edge - 1, edge):
            assert _die_of(z >> 32, z & 0xFFFFFFFF) == 1 + ((z * 6) >> 64), z


def test_sampled_dice_roll_as_noted_dice_and_say_only_that_they_rolled() -> None:
    """A search's dice (``Dice.sampled``) note nothing but that they rolled (``used`` true until ``forget``), and
    roll from their generator the dice a game's Dice places in the same order: a gamble's two, a reorganization's
    owners in order with each owner's tiles in order, a tie reroll's tiles in order."""
    import random

    from lv.chance import below

    sampled, twin = Dice.sampled(random.Random(3)), random.Random(3)

    def roll() -> int:
        return 1 + below(twin, 6)

    assert not sampled.used
    for _ in range(5):
        d1 = roll()
        assert sampled.gamble() == (d1, roll())
        by_owner = {2: ["C4", "A1"], 0: ["B2"], 1: ["D3", "D1"]}
        want = {"B2": roll(), "D3": roll(), "D1": roll(), "C4": roll(), "A1": roll()}
        assert list(sampled.reorg(by_owner).items()) == list(want.items())
        want = {lot: roll() for lot in ["E2", "A3", "F1"]}
        assert list(sampled.tie(["E2", "A3", "F1"]).items()) == list(want.items())
        assert sampled.used and not sampled.generated
        sampled.forget()
        assert not sampled.used
