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

import _random
import random
from typing import Any, Final

try:  # (as random.py imports it)
    from _sha512 import sha512 as _sha512  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover
    from hashlib import sha512 as _sha512

from mypy_extensions import i64, mypyc_attr

from .errors import RecordError

_MASK64: Final = 0xFFFFFFFFFFFFFFFF
_GAMMA: Final = 0x9E3779B97F4A7C15  # SplitMix64's increment (the golden ratio in 64 bits)
_MASK32: Final = 0xFFFFFFFF
_COMPILED: Final = not __file__.endswith(".py")  # a module compiled by mypyc loads from a .so/.pyd


def stream_start(seed: int | str, key: tuple[str | int, ...]) -> int:
    """The 64-bit start of the dice stream of step ``key`` of the game ``seed``: BLAKE2b of "lv/seed/k1/k2/..."
    cut to 8 bytes (little-endian), stable on every platform and Python version."""
    if not key:
        return _start_of("lv/" + str(seed))
    if not _COMPILED and _SEEDED[0] is seed and len(key) < len(_KEY_FORMATS):
        # pure, the seed of the last step (a game's steps share it): ``stream_digest`` inline, the key written by
        # "%s" (``str`` of each part, as ``_key_data`` writes it), no Python call
        h = _SEEDED[1].copy()
        h.update((_KEY_FORMATS[len(key)] % key).encode())
        return _FROM_BYTES(h.digest(), "little")
    return _FROM_BYTES(stream_digest(seed, key), "little")


def stream_digest(seed: int | str, key: tuple[str | int, ...]) -> bytes:
    """``stream_start``'s 8 bytes (``key`` not empty), as the hasher gives them: the compiled ``Dice`` reads its
    stream's halves from them (no 64-bit Python int made and cut again)."""
    # a copy of the hasher fed "lv/seed/" (kept for the last seed: a game's steps share it), fed the key's parts
    seeded = _SEEDED
    fed = seeded[1]
    was = seeded[0]
    if fed is None or (was is not seed and (type(was) is not type(seed) or was != seed)):
        fed = (_HASHER or _first_hasher())[0].copy()
        fed.update(("lv/" + str(seed) + "/").encode())
        seeded[0], seeded[1] = seed, fed
    data = _key_data(key)
    digest: bytes
    if _COMPILED:  # the hasher's methods as its type's, read once: no lookup by name per call
        methods = _METHODS
        h = methods[0](fed)
        methods[1](h, data)
        digest = methods[2](h)
    else:
        h = fed.copy()
        h.update(data)
        digest = h.digest()
    return digest


def _key_data(key: tuple[str | int, ...]) -> bytes:
    """"k1/k2/..." as bytes, for a step's key: a decision's ("turn", n, "decision", i) written directly (the
    bytes joined at once, no list joined, no str made and encoded), any other key by its parts joined; small ints
    from the table."""
    numerals = _NUMERALS
    if len(key) == 4:
        k0, k1, k2, k3 = key
        if (type(k0) is str and type(k1) is int and type(k2) is str and type(k3) is int and k0 == "turn"
                and k2 == "decision" and 0 <= k1 < 1000 and 0 <= k3 < 1000):
            return b"turn/%b/decision/%b" % (_NUMERAL_BYTES[k1], _NUMERAL_BYTES[k3])
    parts: list[str] = []
    for k in key:  # a loop, not map (compiled, no generic calls); a turn or an index from the table (not a bool)
        parts.append(numerals[k] if type(k) is int and 0 <= k < 1000 else str(k))
    return "/".join(parts).encode()


def _start_of(text: str) -> int:
    """``stream_start`` of the text to hash (a key without parts)."""
    h = (_HASHER or _first_hasher())[0].copy()
    h.update(text.encode())
    return _FROM_BYTES(h.digest(), "little")


def _first_hasher() -> list[Any]:
    """The empty hasher ``stream_start`` copies (BLAKE2b, 8-byte digest), made once on the first die rolled:
    `lv replay` of a complete record rolls nothing and loads no hashlib."""
    import hashlib

    hasher = hashlib.blake2b(digest_size=8)
    kind = type(hasher)
    _METHODS.extend([kind.copy, kind.update, kind.digest])
    _HASHER.append(hasher)
    return _HASHER


_HASHER: Final[list[Any]] = []  # the empty hasher once made (never changed: only copied)
_METHODS: Final[list[Any]] = []  # its type's copy, update and digest, once made (compiled, called as functions)
# the last seed a step was hashed for, and a hasher fed "lv/seed/" (never changed: only copied)
_SEEDED: Final[list[Any]] = [object(), None]  # (no seed is that object: ``stream_start`` compares by identity)
# "%s/%s/...": a key of n parts written as "k1/k2/..." with str() of each (``stream_start``, pure; n below 8)
_KEY_FORMATS: Final = tuple("/".join(["%s"] * n) for n in range(8))
# the same by number of parts, from 1 (``Dice._started``: one lookup for both tests, a key not empty and not too long)
_KEY_FORMAT_OF: Final = {n: _KEY_FORMATS[n] for n in range(1, len(_KEY_FORMATS))}
_FROM_BYTES: Final = int.from_bytes  # read once (compiled, a Final is a C static: no method lookup per call)
_NUMERALS: Final = tuple(str(i) for i in range(1000))  # str(i) for the turns and indices of the steps' keys: made once
_NUMERAL_BYTES: Final = tuple(str(i).encode() for i in range(1000))  # the same as bytes (a decision's key)


# acyclic (out of the cyclic collector in the compiled build), as the other plain-value classes: ints only
@mypyc_attr(acyclic=True)
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


@mypyc_attr(acyclic=True)  # ints only
class HalvesStream:
    """``Stream`` with its state in two 32-bit halves, for the compiled build (``Dice`` rolls it there): the same
    outputs and dice, by arithmetic whose every value stays below 2^37 and every factor below 2^31, in machine ints
    (``i64``: compiled, a native operation each, where tagged ints test their tags at each step and a Python int
    above 2^62 is a boxed long). In the pure build the plain formula is fewer bytecodes."""

    __slots__ = ("hi", "lo")

    def __init__(self, start: int) -> None:
        self.hi: i64 = (start >> 32) & _MASK32
        self.lo: i64 = start & _MASK32

    def next64(self) -> int:
        hi, lo = _step_halves(self)
        return (int(hi) << 32) | int(lo)  # (as Python ints: the output may be above 2^63)

    def die(self) -> int:
        hi, lo = _step_halves(self)
        return int(_die_of(hi, lo))


def _halves_of(digest: bytes) -> HalvesStream:
    """``HalvesStream(int.from_bytes(digest, "little"))`` for an 8-byte digest, its halves read from the bytes."""
    stream = HalvesStream(0)
    _start_halves(stream, digest)
    return stream


def _start_halves(stream: HalvesStream, digest: bytes) -> None:
    """``stream`` started again at ``int.from_bytes(digest, "little")`` (an 8-byte digest), read from the bytes."""
    stream.lo = digest[0] | (digest[1] << 8) | (digest[2] << 16) | (digest[3] << 24)
    stream.hi = digest[4] | (digest[5] << 8) | (digest[6] << 16) | (digest[7] << 24)


def _mul64(hi: i64, lo: i64, c3: i64, c2: i64, c1: i64, c0: i64) -> tuple[i64, i64]:
    """``(hi * 2^32 + lo) * c % 2^64`` as (high, low) halves, for ``c`` given in 16-bit pieces (``c3`` the top): a
    schoolbook product of 16-bit pieces, so every factor is below 2^31 and every sum below 2^36."""
    z0, z1, z2, z3 = lo & 0xFFFF, lo >> 16, hi & 0xFFFF, hi >> 16
    t = z0 * c0
    out0 = t & 0xFFFF
    t = (t >> 16) + z0 * c1 + z1 * c0
    out1 = t & 0xFFFF
    t = (t >> 16) + z0 * c2 + z1 * c1 + z2 * c0
    out2 = t & 0xFFFF
    t = (t >> 16) + z0 * c3 + z1 * c2 + z2 * c1 + z3 * c0
    return ((t & 0xFFFF) << 16) | out2, (out1 << 16) | out0


def _die_of(hi: i64, lo: i64) -> i64:
    """``Stream.die``'s ``1 + ((z * 6) >> 64)`` for the output z = hi * 2^32 + lo; 6x as shifts (no value above
    2^36)."""
    return 1 + ((((hi << 2) + (hi << 1)) + (((lo << 2) + (lo << 1)) >> 32)) >> 32)


def _step_halves(stream: HalvesStream) -> tuple[i64, i64]:
    """``Stream.next64`` on 32-bit halves: steps the stream and returns the output's (high, low) halves, with
    shifts, masks and ``_mul64``: no value above 2^37."""
    lo: i64 = stream.lo + 0x7F4A7C15  # + _GAMMA, whose halves are 0x9E3779B9 and 0x7F4A7C15
    hi: i64 = (stream.hi + 0x9E3779B9 + (lo >> 32)) & _MASK32
    lo &= _MASK32
    stream.hi = hi
    stream.lo = lo
    # z ^= z >> 30; z *= 0xBF58476D1CE4E5B9
    lo ^= ((lo >> 30) | (hi << 2)) & _MASK32
    hi ^= hi >> 30
    hi, lo = _mul64(hi, lo, 0xBF58, 0x476D, 0x1CE4, 0xE5B9)
    # z ^= z >> 27; z *= 0x94D049BB133111EB
    lo ^= ((lo >> 27) | (hi << 5)) & _MASK32
    hi ^= hi >> 27
    hi, lo = _mul64(hi, lo, 0x94D0, 0x49BB, 0x1331, 0x11EB)
    # z ^= z >> 31
    lo ^= ((lo >> 31) | (hi << 1)) & _MASK32
    hi ^= hi >> 31
    return hi, lo


def rng_for(seed: int | str, *key: Any) -> random.Random:
    """A generator for one purpose. ``random.Random`` seeds from a string through SHA-512: stable everywhere.

    ``random.Random(text)`` made as its ``__init__`` and ``seed`` make it for a text (``seed``'s version 2: the
    text's bytes and their SHA-512 digest read as one big-endian int seed the C generator), without their two Python
    frames (5 generators a game: the deck's and each seat's bot's)."""
    parts = ["lv", str(seed)]
    for k in key:  # "lv/seed/k1/k2...": a loop, not map (compiled, no generic calls)
        parts.append(str(k))
    text = "/".join(parts).encode()
    rng = _NEW_RANDOM(_RANDOM)  # (not seeded: ``_SEED`` seeds it)
    _SEED(rng, _FROM_BYTES(text + _SHA512(text).digest(), "big"))
    rng.gauss_next = None  # type: ignore[attr-defined]  # (``seed`` sets it: random.py's own attribute)
    return rng


def below(rng: random.Random, n: int) -> int:
    """``rng.choice(range(n))``, which is ``rng.randrange(n)``, for ``n`` >= 1: the same number drawn the same
    way from the same generator (CPython's ``Random._randbelow_with_getrandbits``), without random.py's Python
    frames, for the standard ``random.Random``; any other generator is asked itself. ``rng.randint(1, n)`` is
    ``1 + below(rng, n)``."""
    if type(rng) is not _RANDOM:
        return rng.choice(range(n))
    k = n.bit_length()
    r = _GETRANDBITS(rng, k)
    while r >= n:
        r = _GETRANDBITS(rng, k)
    return r


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``: the same order from the same generator (CPython's Fisher-Yates, each index drawn
    by ``_randbelow``, which ``below`` is), without random.py's Python frames (a game's deck: 47 of them)."""
    i = len(items) - 1
    if type(rng) is not _RANDOM:
        while i > 0:
            j = below(rng, i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
        return
    draw = rng.getrandbits
    if not _COMPILED:  # pure: each index's (i, i + 1, bits of i + 1) read from a table made once a size (~13
        #                bytecodes an index fewer than working them out)
        steps = _STEPS.get(i + 1)
        if steps is None:
            steps = _STEPS[i + 1] = tuple([(m, m + 1, (m + 1).bit_length()) for m in range(i, 0, -1)])
        for i, n, k in steps:
            j = draw(k)
            while j >= n:
                j = draw(k)
            items[i], items[j] = items[j], items[i]
        return
    while i > 0:  # (``below`` inline: no Python call an index)
        n = i + 1
        k = n.bit_length()
        j = draw(k)
        while j >= n:
            j = draw(k)
        items[i], items[j] = items[j], items[i]
        i -= 1


_STEPS: Final[dict[int, tuple[tuple[int, int, int], ...]]] = {}  # pure: a list's size -> ``shuffle``'s steps


# random.Random and its C methods, read once (compiled, a Final is a C static: no attribute lookups per call)
_RANDOM: Final = random.Random
_GETRANDBITS: Final = random.Random.getrandbits
_NEW_RANDOM: Final = random.Random.__new__  # an instance, its generator not seeded (``rng_for`` seeds it)
_SEED: Final = _random.Random.seed  # the C generator's seed (``random.Random.seed``'s last step)
_SHA512: Final = _sha512  # what random.py seeds from a text with (``rng_for``)


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


# what a step generated (``Dice._gen``): the names' numbers as base-4 digits, the first generated the highest: an int
# kept per decision, not a list (``generated_of`` makes the list)
_GAMBLE: Final = 1
_REORG: Final = 2
_TIES: Final = 3
_GENERATED: Final = ("", "gamble", "reorg", "ties")


def generated_of(code: int) -> list[str]:
    """The names of a step's generated dice (``Dice._gen``), in the order first generated."""
    out: list[str] = []
    while code:
        out.append(_GENERATED[code & 3])
        code >>= 2
    out.reverse()
    return out


_NOTHING_RECORDED: Final[dict[str, Any]] = {}  # the recorded dice of a step given none (one dict: only read)
# what a sampled Dice's ``used`` is once it rolled: not the dice, only that some were rolled, which
# is what a search reads (``_Search.step``); one dict, never written
_ROLLED: Final[dict[str, Any]] = {"sampled": True}


# acyclic (out of the cyclic collector in the compiled build; one is made for every decision and draw): holds the
# seed, the step's key, dicts and lists of dice values and names, a stream and a bot's generator: never a Dice or
# anything that holds one
@mypyc_attr(acyclic=True)
class Dice:
    def __init__(self, seed: int | str, key: tuple[str | int, ...], recorded: dict[str, Any] | None = None,
                 ask: bool = False) -> None:
        self.seed = seed
        self.ask = ask  # a missing tie reroll raises NeedDice instead of being generated
        self.key = key
        self.recorded = recorded if recorded is not None else _NOTHING_RECORDED  # read, never changed
        # the dice used (``used``): this dict, and (``_pair``: d1 * 8 + d2, 0 for none) the step's first gamble when
        # it was generated and nothing else was written since: a decision that gambles keeps two numbers, not a dict
        # and a list; ``used`` writes it into the dict when read
        self._used: dict[str, Any] = {}
        self._pair = 0
        # which dice the record did not have ("gamble", "reorg", "ties"), in the order first generated, as digits
        # (``generated_of``): a decision keeps the number, not a list
        self._gen = 0
        self._stream: Stream | None = None  # the step's generated dice, made on the first die rolled (see _rolling)
        self._halves: HalvesStream | None = None  # or the same stream in halves, in the compiled build
        # or dice drawn from a bot's generator (``sampled``): those note nothing but that they rolled (``used`` is
        # then ``_ROLLED``): a search's imagined games read no dice but whether any was rolled; the same dice either way
        self._rng: random.Random | None = None
        self._ties_left: dict[str, list[int]] | None = None  # recorded tie rerolls not used yet, made on first tie
        # this step rolled a die from its stream: ``_halves`` (compiled) or ``_stream`` is this step's stream, the one
        # stream object kept from step to step (``again``), started again at the next step's first die, not one made
        # and freed a step; ``_pair`` and ``_gen`` are 0 until it has
        self._rolling = False
        # this step rolled a die, wrote to ``_used`` or ``_ties_left``, or was given recorded dice: ``again`` has
        # something to make ready (set wherever they are written, with ``_rolling``, and with ``recorded``)
        self._spent = bool(recorded)

    def again(self, seed: int | str, key: tuple[str | int, ...], recorded: dict[str, Any] | None = None) -> Dice:
        """These dice made ready for another step, as ``Dice(seed, key, recorded, self.ask)`` would be (``Game.apply``
        rolls one Dice from decision to decision). The step before's ``generated`` list and a ``used`` dict it wrote
        to are left to whoever took them: new ones are made; an empty ``used`` is kept (whoever read it empty must
        not keep it). Not for sampled dice. Dice whose step left nothing (``_spent`` False) and that are given none
        need only their key: ``Game.apply`` sets it without this call (its dice's seed is the game's)."""
        self.seed = seed
        self.key = key
        if self._spent:  # (most steps roll, write and are given nothing: these left as they are made, one test)
            if self._used:
                self._used = {}
            self._pair = 0
            self._gen = 0
            self._rolling = False  # (its stream object kept: started again at the next step's first die)
            self._ties_left = None
            self.recorded = _NOTHING_RECORDED
            self._spent = False
        if recorded:  # (an empty dict is as none: only read)
            self.recorded = recorded
            self._spent = True  # (the next step's are its own)
        return self

    @classmethod
    def sampled(cls, rng: random.Random) -> Dice:
        """Dice rolled from ``rng``, not from the game's seed: the imagined games of a searching bot, which must
        not know the dice the game will roll."""
        dice = cls(0, ("sampled",))
        dice._rng = rng
        return dice

    def forget(self) -> None:
        """Forget the dice used (``used``, ``generated``), as a new ``Dice`` of the same source would have none: a
        search rolls one ``sampled`` Dice from step to step of its imagined games, which read no record."""
        if self._used:
            self._used = {} if self._rng is None else _NOTHING_RECORDED  # (never written: sampled dice note nothing)
        self._pair = 0
        self._gen = 0
        self._ties_left = None
        self._spent = self.recorded is not _NOTHING_RECORDED  # (sampled dice are given none)

    @property
    def used(self) -> dict[str, Any]:
        """The dice used, keyed by meaning, ready to be written to a record."""
        pair = self._pair
        if pair:
            self._pair = 0
            self._used["gamble"] = [pair >> 3, pair & 7]
        return self._used

    @used.setter
    def used(self, value: dict[str, Any]) -> None:
        self._used = value
        self._pair = 0
        self._spent = True

    @property
    def generated(self) -> list[str]:
        """Which of the dice used the record did not have ("gamble", "reorg", "ties"), in the order first generated
        (a new list each time)."""
        return generated_of(self._gen)

    def _note(self, what: int) -> None:
        """``what`` (``_GAMBLE``, ``_REORG``, ``_TIES``) was generated (noted once)."""
        code = self._gen
        rest = code
        while rest:
            if rest & 3 == what:
                return
            rest >>= 2
        self._gen = code * 4 + what

    def _roll(self) -> int:
        rng = self._rng
        if rng is not None:
            if type(rng) is not _RANDOM:
                return rng.randint(1, 6)
            return 1 + below(rng, 6)  # rng.randint(1, 6): the same number, without random.py's Python frames
        if _COMPILED:
            halves = self._halves
            if halves is None or not self._rolling:  # the step's first die: its stream started
                digest = (stream_digest(self.seed, self.key) if self.key
                          else _start_of("lv/" + str(self.seed)).to_bytes(8, "little"))
                if halves is None:
                    halves = self._halves = HalvesStream(0)
                _start_halves(halves, digest)
                self._rolling = self._spent = True
            return halves.die()
        stream = self._stream
        if stream is None or not self._rolling:  # the step's first die: its stream started
            stream = self._started()
        # pure: ``stream.die()`` inline (``Stream.next64``, then 1-6 by multiply and shift): no Python call a die
        stream.state = z = (stream.state + _GAMMA) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return 1 + (((z ^ (z >> 31)) * 6) >> 64)

    def _started(self) -> Stream:
        """Pure: the step's stream started for its first die (the Dice's one stream object, as compiled); called
        once a step, not once a die."""
        stream = self._stream
        if stream is None:
            stream = self._stream = Stream(0)
        key = self.key
        form = _KEY_FORMAT_OF.get(len(key))
        if form is not None and _SEEDED[0] is self.seed:  # ``stream_start``'s first path inline (the seed of the
            #                                                 last step: a game's steps share it): no Python call a step
            h = _SEEDED[1].copy()
            h.update((form % key).encode())
            stream.state = _FROM_BYTES(h.digest(), "little")  # (8 bytes: below 2^64)
        else:
            stream.state = stream_start(self.seed, key) & _MASK64
        self._rolling = self._spent = True
        return stream

    def _two(self) -> tuple[int, int]:
        """Two dice, as ``_roll`` twice rolls them: pure, from the step's stream both in one call (a gamble's pair,
        a seat's starting roll: one Python call fewer a pair; compiled, those call ``_roll`` twice themselves)."""
        if _COMPILED or self._rng is not None:
            d1 = self._roll()
            return d1, self._roll()
        stream = self._stream
        if stream is None or not self._rolling:  # the step's first die: its stream started
            stream = self._started()
        # ``_roll``'s die twice: the state stepped once a die, each output mixed and mapped to 1-6
        stream.state = z = (stream.state + _GAMMA) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        d1 = 1 + (((z ^ (z >> 31)) * 6) >> 64)
        stream.state = z = (stream.state + _GAMMA) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return d1, 1 + (((z ^ (z >> 31)) * 6) >> 64)

    @staticmethod
    def _check(value: Any, what: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
            raise RecordError(f"{what}: {value!r} is not a die face (1-6)")
        return value

    def gamble(self) -> tuple[int, int]:
        """Two dice; the n-th gamble of a decision takes the n-th recorded pair (``gambles``)."""
        if self._rng is not None:  # sampled: nothing recorded, nothing noted: the first path below, without its dict
            self._used = _ROLLED
            d1 = self._roll()
            return d1, self._roll()
        if not self._spent or (not self._pair and "gamble" not in self._used and "gamble" not in self.recorded):
            #   the first gamble of a decision, none recorded (a step that rolled, wrote and was given nothing has
            #   none: one test), what the general path below does then, kept as two numbers (``_pair``)
            if _COMPILED:  # (compiled, two native calls: ``_two`` would be a third)
                d1 = self._roll()
                d2 = self._roll()
            else:  # pure: both from the step's stream in one call
                d1, d2 = self._two()
            if self._gen:
                self._note(_GAMBLE)
            else:  # (nothing noted yet: ``_note`` without its call)
                self._gen = _GAMBLE
            self._pair = d1 * 8 + d2
            return d1, d2
        used = self.used  # (read once: a property, which writes a gamble kept as numbers into the dict)
        self._spent = True  # (written below)
        made = gambles(used.get("gamble"))
        recorded = gambles(self.recorded.get("gamble"))
        if len(made) < len(recorded):
            rec = recorded[len(made)]
            if not isinstance(rec, (list, tuple)) or len(rec) != 2:
                raise RecordError(f"gamble dice {rec!r}: give two die faces, e.g. [3, 6]")
            pair = (self._check(rec[0], "gamble die"), self._check(rec[1], "gamble die"))
        else:
            pair = (self._roll(), self._roll())
            self._note(_GAMBLE)
        made.append(list(pair))
        # one gamble is written [d1, d2] as always; a decision with more keeps every pair, in order
        used["gamble"] = made[0] if len(made) == 1 else made
        return pair

    def reorg(self, lots_by_owner: dict[int, list[str]]) -> dict[str, int]:
        """New value on each tile. Recorded values are the owners' own placement; generated values are placed
        on each owner's tiles in board order."""
        out: dict[str, int] = {}
        if self._rng is not None:  # sampled: nothing recorded, nothing noted: each tile rolled in the order below
            self._used = _ROLLED
            for owner in sorted(lots_by_owner):
                for lot in lots_by_owner[owner]:
                    out[lot] = self._roll()
            return out
        rec = self.recorded.get("reorg") or {}
        rolled = False
        for owner in sorted(lots_by_owner):
            for lot in lots_by_owner[owner]:
                if lot in rec:
                    out[lot] = self._check(rec[lot], f"reorganize die on {lot}")
                else:
                    out[lot] = self._roll()
                    rolled = True
        if rolled:  # (noted once, not a call a die: nothing else is noted in between)
            self._note(_REORG)
        # a trade may reorganize several casinos: each keeps its dice (a die is reorganized once a turn, 003
        # L624-627, so no lot comes twice in one decision)
        self._spent = True
        self.used.setdefault("reorg", {}).update(out)
        return out

    def tie(self, lots: list[str]) -> dict[str, int]:
        """One round of free tie rerolls: a value for each tied die, taken per tile in order."""
        out = {}
        if self._rng is not None:  # sampled: nothing recorded or noted (never asks): each tile rolled in order, as below
            self._used = _ROLLED
            for lot in lots:
                out[lot] = self._roll()
            return out
        self._spent = True
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
                self._note(_TIES)
            ties.setdefault(lot, []).append(out[lot])
        return out

    def start(self, players: list[int]) -> dict[int, tuple[int, int]]:
        """2d6 for each player in one round of the starting roll."""
        out = {}
        for p in players:
            out[p] = (self._roll(), self._roll()) if _COMPILED else self._two()
        return out
