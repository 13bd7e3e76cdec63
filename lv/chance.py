"""Chance as an input: recorded dice first, then dice generated from the game's seed and the step's identity.

No global random state. ``Dice(seed, key, recorded)`` serves the dice of one step of the game (a decision, a
draw, the starting rolls). ``key`` names that step (for example ``("turn", 12, "decision", 3)``), so the same
record replays to the same game under any profile, and a profile that needs dice the record lacks gets the same
generated values every time. ``used`` is what was rolled, keyed by meaning, ready to be written to a record;
``generated`` says which of those the record did not have.

The generated dice of a step come from a counter-based generator (``Stream``, SplitMix64) whose start is a 64-bit
hash of (seed, step): nothing is seeded per step but one 8-byte hash, and the n-th die of a step is the same under
every profile that reaches that step, which is what keeps paired games rolling alike.
"""

from __future__ import annotations

import random
from typing import Any, Final

from .errors import RecordError

_MASK64: Final = 0xFFFFFFFFFFFFFFFF
_GAMMA: Final = 0x9E3779B97F4A7C15  # SplitMix64's increment (the golden ratio in 64 bits)


def stream_start(seed: int | str, key: tuple[str | int, ...]) -> int:
    """The 64-bit start of the dice stream of step ``key`` of the game ``seed``: BLAKE2b of "lv/seed/k1/k2/..."
    cut to 8 bytes (little-endian), stable on every platform and Python version."""
    import hashlib  # here, not at the top: `lv replay` of a complete record rolls nothing and loads no hashlib

    parts = ["lv", str(seed)]
    for k in key:  # a loop, not map (compiled, no generic calls)
        parts.append(str(k))
    return int.from_bytes(hashlib.blake2b("/".join(parts).encode(), digest_size=8).digest(), "little")


class Stream:
    """SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014): the state
    steps by a constant and each output is the state mixed; ``die()`` maps an output to 1-6 by multiply and shift
    (Lemire), whose bias (6 / 2^64) no game can show."""

    __slots__ = ("state",)

    def __init__(self, start: int) -> None:
        self.state = start & _MASK64

    def next64(self) -> int:
        self.state = z = (self.state + _GAMMA) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def die(self) -> int:
        return 1 + ((self.next64() * 6) >> 64)


def rng_for(seed: int | str, *key: Any) -> random.Random:
    """A generator for one purpose. ``random.Random`` seeds from a string through SHA-512: stable everywhere."""
    parts = ["lv", str(seed)]
    for k in key:  # "lv/seed/k1/k2...": a loop, not map (compiled, no generic calls)
        parts.append(str(k))
    return random.Random("/".join(parts))


def below(rng: random.Random, n: int) -> int:
    """``rng.choice(range(n))``, which is ``rng.randrange(n)``, for ``n`` >= 1: the same number drawn the same
    way from the same generator (CPython's ``Random._randbelow_with_getrandbits``), without random.py's Python
    frames, for the standard ``random.Random``; any other generator is asked itself. ``rng.randint(1, n)`` is
    ``1 + below(rng, n)``."""
    if type(rng) is not random.Random:
        return rng.choice(range(n))
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def gambles(value: Any) -> list[Any]:
    """A decision's gamble dice as a list of pairs: ``[3, 6]`` is one gamble (every record before a decision
    could hold more), ``[[3, 6], [1, 2]]`` two, in the order made (a trade's steps, ``gamble.per_turn`` > 1)."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (list, tuple)) for v in value):
        return list(value)
    return [value]


def unused_dice(recorded: dict[str, Any], used: dict[str, Any]) -> list[str]:
    """Recorded dice that a step did not roll ("gamble", "gamble 2", "reorg A7", "ties B2"): a record that says a
    die was rolled where none was is wrong, not a detail to ignore."""
    made = len(gambles(used.get("gamble")))
    out = [f"gamble {i + 1}" if i else "gamble" for i in range(made, len(gambles(recorded.get("gamble"))))]
    out += [f"reorg {lot}" for lot in recorded.get("reorg") or {} if lot not in (used.get("reorg") or {})]
    rolled = used.get("ties") or {}
    out += [f"ties {lot}" for lot, values in (recorded.get("ties") or {}).items()
            if len(values) > len(rolled.get(lot, []))]
    return out


class NeedDice(Exception):
    """A tie reroll at a table whose dice were not given: the game waits for them (``lots``, in order)."""

    def __init__(self, lots: tuple[str, ...]):
        super().__init__(lots)
        self.lots = lots


class Dice:
    def __init__(self, seed: int | str, key: tuple[str | int, ...], recorded: dict[str, Any] | None = None,
                 ask: bool = False) -> None:
        self.seed = seed
        self.ask = ask  # a missing tie reroll raises NeedDice instead of being generated
        self.key = key
        self.recorded = recorded or {}
        self.used: dict[str, Any] = {}
        self.generated: list[str] = []
        self._stream: Stream | None = None  # the step's generated dice, made on the first die rolled
        self._rng: random.Random | None = None  # or dice drawn from a bot's generator (``sampled``)
        self._ties_left: dict[str, list[int]] | None = None  # recorded tie rerolls not used yet, made on first tie

    @classmethod
    def sampled(cls, rng: random.Random) -> Dice:
        """Dice rolled from ``rng``, not from the game's seed: the imagined games of a searching bot, which must
        not know the dice the game will roll."""
        dice = cls(0, ("sampled",))
        dice._rng = rng
        return dice

    def _roll(self) -> int:
        rng = self._rng
        if rng is not None:
            if type(rng) is not random.Random:
                return rng.randint(1, 6)
            return 1 + below(rng, 6)  # rng.randint(1, 6): the same number, without random.py's Python frames
        stream = self._stream
        if stream is None:
            stream = self._stream = Stream(stream_start(self.seed, self.key))
        return stream.die()

    @staticmethod
    def _check(value: Any, what: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
            raise RecordError(f"{what}: {value!r} is not a die face (1-6)")
        return value

    def gamble(self) -> tuple[int, int]:
        """Two dice; the n-th gamble of a decision takes the n-th recorded pair (``gambles``)."""
        made = gambles(self.used.get("gamble"))
        recorded = gambles(self.recorded.get("gamble"))
        if len(made) < len(recorded):
            rec = recorded[len(made)]
            if not isinstance(rec, (list, tuple)) or len(rec) != 2:
                raise RecordError(f"gamble dice {rec!r}: give two die faces, e.g. [3, 6]")
            pair = (self._check(rec[0], "gamble die"), self._check(rec[1], "gamble die"))
        else:
            pair = (self._roll(), self._roll())
            if "gamble" not in self.generated:
                self.generated.append("gamble")
        made.append(list(pair))
        # one gamble is written [d1, d2] as always; a decision with more keeps every pair, in order
        self.used["gamble"] = made[0] if len(made) == 1 else made
        return pair

    def reorg(self, lots_by_owner: dict[int, list[str]]) -> dict[str, int]:
        """New value on each tile. Recorded values are the owners' own placement; generated values are placed
        on each owner's tiles in board order."""
        rec = self.recorded.get("reorg") or {}
        out: dict[str, int] = {}
        for owner in sorted(lots_by_owner):
            for lot in lots_by_owner[owner]:
                if lot in rec:
                    out[lot] = self._check(rec[lot], f"reorganize die on {lot}")
                else:
                    out[lot] = self._roll()
                    if "reorg" not in self.generated:
                        self.generated.append("reorg")
        # a trade may reorganize several casinos: each keeps its dice (a die is reorganized once a turn, 003
        # L624-627, so no lot comes twice in one decision)
        self.used.setdefault("reorg", {}).update(out)
        return out

    def tie(self, lots: list[str]) -> dict[str, int]:
        """One round of free tie rerolls: a value for each tied die, taken per tile in order."""
        out = {}
        ties = self.used.setdefault("ties", {})
        if self._ties_left is None:
            self._ties_left = {lot: list(vals) for lot, vals in (self.recorded.get("ties") or {}).items()}
        if self.ask and not all(self._ties_left.get(lot) for lot in lots):
            raise NeedDice(tuple(lots))  # the whole round waits: nothing of it is used or recorded
        for lot in lots:
            queue = self._ties_left.get(lot)
            if queue:
                out[lot] = self._check(queue.pop(0), f"tie reroll on {lot}")
            elif self.ask:
                raise NeedDice(tuple(lots))
            else:
                out[lot] = self._roll()
                if "ties" not in self.generated:
                    self.generated.append("ties")
            ties.setdefault(lot, []).append(out[lot])
        return out

    def start(self, players: list[int]) -> dict[int, tuple[int, int]]:
        """2d6 for each player in one round of the starting roll."""
        out = {}
        for p in players:
            out[p] = (self._roll(), self._roll())
        return out
