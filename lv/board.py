"""The physical board: 48 lots in six blocks on both sides of the Strip, the property cards, the score track.

Loaded once from ``variants/board.yaml``; immutable and shared by every game.

Bits. Each lot is a bit position, in board order (``board.order``: A1 is bit 0, F9 bit 47), so a set of lots is
an ``int`` (a *mask*) and the state keeps its pieces as masks (state.py). Precomputed here, all indexed by the
bit position ``i`` (``board.index[lot]``) or keyed by lot id:

- ``board.bit[lot]``: ``1 << i``; ``board.lot_at[i]``: the lot id at bit ``i`` (``board.order``);
  ``board.position_of[1 << i]``: ``i``;
- ``board.neighbours_mask[i]``: the lots sharing an edge with lot ``i`` (never across a street: same block);
  ``board.neighbour_bits[i]``: their bit positions, in the order the board lists them;
- ``board.block_mask[block]``, ``board.block_of[i]`` (the mask of lot ``i``'s block), ``board.all_mask``;
  ``board.block_number[i]`` (0-5), ``board.block_names`` (its letters), ``board.block_masks`` (by number);
- ``board.strip_mask``: the lots on the Strip;
- ``board.prices[i]``, ``board.printed_dice[i]``: the lot's price and the die printed on it;
- ``board.price_at_most(money)``: the lots whose price is at most ``money`` (a build you can pay for);
- ``board.lots_of(mask)`` / ``board.bits_of(mask)``: the lot ids / bit positions of a mask, in board order;
- ``board.around(mask)``: the lots next to any lot of ``mask``, not in it;
- ``board.components(mask)``: the connected groups of ``mask`` (a flood fill over the neighbour masks), each a
  mask, in board order of their first lot; memoised (callers pass masks inside one block, so the memo holds at
  most the 2^6+2^6+2^12+2^9+2^6+2^9 subsets of the blocks).

Walking a mask: ``while m: low = m & -m; i = low.bit_length() - 1; ...; m ^= low``. Counting: ``m.bit_count()``.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from mypy_extensions import i64, mypyc_attr

from .errors import BoardError
from .yamlsource import read_located

END_CARD: Final = "END"  # the End of Game / Game Over card: no lot, pays the Strip
STRIP: Final = "strip"
BLOCKS = ("A", "B", "C", "D", "E", "F")


def variants_dir() -> Path:
    """``variants/`` beside the package in a checkout, or ``lv/variants`` inside an installed wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "variants", here.parent / "variants"):
        if (candidate / "board.yaml").is_file():
            return candidate
    raise BoardError(f"cannot find the variants folder (looked in {here / 'variants'} and {here.parent / 'variants'})")


# acyclic (out of the cyclic collector in the compiled build): holds strings, ints, a bool and a tuple of strings
@mypyc_attr(acyclic=True)
class Lot:
    """A lot of the playmat: its id, block, place, price, printed die, whether it is on the Strip, the colour its
    property card pays (or "strip"), the money the card deals and its neighbours. A value, never changed once
    made: a plain class (a native one where the core is compiled), compared and hashed by its fields."""

    __slots__ = ("id", "block", "row", "col", "price", "die", "strip", "card", "card_money", "neighbours")

    def __init__(self, id: str, block: str, row: int, col: int, price: int, die: int, strip: bool, card: str,
                 card_money: int, neighbours: tuple[str, ...]) -> None:
        self.id: Final = id
        self.block: Final = block
        self.row: Final = row
        self.col: Final = col
        self.price: Final = price
        self.die: Final = die
        self.strip: Final = strip
        self.card: Final = card  # the casino colour its property card pays, or "strip"
        self.card_money: Final = card_money
        self.neighbours: Final = neighbours

    def _fields(self) -> tuple[str, str, int, int, int, int, bool, str, int, tuple[str, ...]]:
        return (self.id, self.block, self.row, self.col, self.price, self.die, self.strip, self.card,
                self.card_money, self.neighbours)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Lot):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "Lot(" + ", ".join(f"{name}={value!r}" for name, value in zip(_LOT_FIELDS, self._fields())) + ")"

    def __copy__(self) -> Lot:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Lot:
        return self  # a value


_LOT_FIELDS = ("id", "block", "row", "col", "price", "die", "strip", "card", "card_money", "neighbours")


# acyclic (out of the cyclic collector in the compiled build): holds strings, ints, Lots and tuples, frozensets and
# dicts of those (its memo: int -> tuple of ints), never anything that holds a Board
@mypyc_attr(acyclic=True)
class Board:
    """The playmat (``lv.load_board()``): the 48 lots by id, their board order, the casino colours and the
    score track. Never changed once made, and shared by every game; the tables below (bits, masks, blocks) are
    worked out once, when it is made. A plain class (a native one where the core is compiled)."""

    def __init__(self, lots: dict[str, Lot], order: tuple[str, ...], colors: tuple[str, ...],
                 track: tuple[int, ...]) -> None:
        self.lots = lots
        self.order = order  # lots in board order A1..F9
        self.colors = colors  # casino tile colours
        self.track = track
        # colour -> its number, its place in ``colors`` (the state keeps its masks by colour in a list by number)
        self.color_id: dict[str, int] = {c: k for k, c in enumerate(colors)}
        # ---- bits (see the module docstring)
        self.index: dict[str, int] = {lot: i for i, lot in enumerate(order)}  # lot id -> bit position
        self.bit: dict[str, int] = {lot: 1 << i for i, lot in enumerate(order)}  # lot id -> 1 << bit position
        self.all_mask = (1 << len(order)) - 1
        # a lot's bit (a mask's lowest: ``m & -m``) -> its position: in pure Python a lookup, where ``bit_length()`` is
        # a method call
        self.position_of: dict[int, int] = {1 << i: i for i in range(len(order))}
        bit = self.bit
        # bit position -> the mask of the lots sharing an edge with it (inside its block)
        self.neighbours_mask: tuple[int, ...] = tuple(_mask([bit[n] for n in lots[lot].neighbours])
                                                      for lot in order)
        # bit position -> its neighbours' bit positions, in the order the board lists them
        self.neighbour_bits: tuple[tuple[int, ...], ...] = tuple(tuple(self.index[n] for n in lots[lot].neighbours)
                                                                 for lot in order)
        blocks: dict[str, list[str]] = {}
        for lot in order:
            blocks.setdefault(lots[lot].block, []).append(lot)
        # the lots of each block, in board order (a casino never crosses a street, so never a block)
        self.blocks: dict[str, tuple[str, ...]] = {block: tuple(ids) for block, ids in blocks.items()}
        # block letter -> the mask of its lots
        self.block_mask: dict[str, int] = {block: _mask([bit[lot] for lot in ids])
                                           for block, ids in self.blocks.items()}
        self.block_names: tuple[str, ...] = tuple(self.blocks)  # the blocks in board order
        # block number -> the mask of its lots; bit position -> the number of its block (in block_names)
        self.block_masks: tuple[int, ...] = tuple(self.block_mask[block] for block in self.block_names)
        self.block_number: tuple[int, ...] = tuple(self.block_names.index(lots[lot].block) for lot in order)
        # bit position -> the mask of its block
        self.block_of: tuple[int, ...] = tuple(self.block_mask[lots[lot].block] for lot in order)
        self.strip_mask = _mask([bit[lot] for lot in order if lots[lot].strip])  # the lots on the Strip
        # the lots on the Strip (a Strip card pays the casinos touching it)
        self.strip_lots: frozenset[str] = frozenset(lot for lot, data in lots.items() if data.strip)
        self.prices: tuple[int, ...] = tuple(lots[lot].price for lot in order)  # bit position -> price
        # bit position -> the die printed on the lot (the face of a die placed there by a build)
        self.printed_dice: tuple[int, ...] = tuple(lots[lot].die for lot in order)
        # bit position -> what its lot's card pays (``card_color``) and that colour's number (-1: not a casino colour)
        self.card_colors: tuple[str, ...] = tuple(lots[lot].card for lot in order)
        self.card_color_ids: tuple[int, ...] = tuple(self.color_id.get(lots[lot].card, -1) for lot in order)
        # money -> the lots priced at most that, for money from 0 to the dearest price
        prices = self.prices
        self._price_masks: tuple[int, ...] = tuple(_mask([1 << i for i, p in enumerate(prices) if p <= money])
                                                   for money in range(max(prices, default=0) + 1))
        # per byte of a mask (bits 8k to 8k+7): each of its 256 values -> its lots, in board order
        self._byte_lots: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
            tuple(tuple(order[k + j] for j in range(8) if v >> j & 1 and k + j < len(order)) for v in range(256))
            for k in range(0, len(order), 8))
        # score -> the highest space of the track not above it (-1: none), for scores up to the track's top
        # (``advance``; the track is in ascending order)
        floor: list[int] = []
        for score in range((track[-1] if track else 0) + 1):
            below = bisect.bisect_right(track, score)
            floor.append(track[below - 1] if below else -1)
        self._track_floor: tuple[int, ...] = tuple(floor)
        # mask -> ``components(mask)``, filled as masks are asked for (read it first: a hit costs no call)
        self.component_memo: dict[int, tuple[int, ...]] = {0: ()}
        self._lots_memo: dict[int, tuple[str, ...]] = {}  # mask -> ``lots_of(mask)`` (pure Python; see there)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.lots, self.order, self.colors, self.track) == (other.lots, other.order, other.colors,
                                                                    other.track)

    __hash__ = None  # type: ignore[assignment]  # as the frozen attrs class with a dict field had it

    def __repr__(self) -> str:
        return f"Board(lots={self.lots!r}, order={self.order!r}, colors={self.colors!r}, track={self.track!r})"

    def __copy__(self) -> Board:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self  # immutable and shared by every game


    def lot(self, lot_id: str) -> Lot:
        """The lot called ``lot_id`` (``"A2"``)."""
        return self.lots[lot_id]

    def card_color(self, card: str) -> str:
        """What a drawn card pays: a casino colour, or the Strip (the end card pays the Strip too)."""
        return STRIP if card == END_CARD else self.lots[card].card

    # ---- bits (see the module docstring)
    @property
    def lot_at(self) -> tuple[str, ...]:
        """Bit position -> lot id (the board order)."""
        return self.order

    def price_at_most(self, money: int) -> int:
        """The mask of the lots whose price is at most ``money``."""
        masks = self._price_masks
        if money >= len(masks):
            return masks[-1]
        return masks[money] if money >= 0 else 0

    def bits_of(self, mask: int) -> list[int]:
        """The bit positions of ``mask``, in board order."""
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def lots_of(self, mask: int) -> list[str]:
        """The lot ids of ``mask``, in board order: compiled, a walk over its bits (``lots_by_bit``: a few native
        steps a lot), else from the tables of its bytes (``lots_by_byte``: one expression, fewer bytecodes)."""
        if _COMPILED:
            return self.lots_by_bit(mask)
        found = self._lots_memo.get(mask)  # most masks come again (a player's markers, draw after draw)
        return list(found if found is not None else self.lots_tuple(mask))

    def lots_tuple(self, mask: int) -> tuple[str, ...]:
        """Pure: ``tuple(lots_of(mask))`` for a mask not in the memo yet, made and kept there (``pay_lots`` reads the
        memo first, and keeps this tuple in its event: no list made and copied)."""
        tables = self._byte_lots
        if len(tables) == 6 and mask < 1 << 48:  # the board of the game: one expression, no loop
            t0, t1, t2, t3, t4, t5 = tables
            out = (*t0[mask & 255], *t1[mask >> 8 & 255], *t2[mask >> 16 & 255], *t3[mask >> 24 & 255],
                   *t4[mask >> 32 & 255], *t5[mask >> 40])
        else:
            out = tuple(self.lots_by_byte(mask))
        if len(self._lots_memo) > 100_000:  # a long run of many games: start again rather than grow without end
            self._lots_memo.clear()
        self._lots_memo[mask] = out
        return out

    def lots_by_bit(self, mask: int) -> list[str]:
        """``lots_of``, lot by lot."""
        order = self.order
        out = []
        while mask:
            low = mask & -mask
            out.append(order[low.bit_length() - 1])
            mask ^= low
        return out

    def lots_by_byte(self, mask: int) -> list[str]:
        """``lots_of``, byte by byte (a board of any size; ``lots_of`` has the 6 bytes of the game's inline)."""
        out: list[str] = []
        for table in self._byte_lots:
            if not mask:
                break
            out += table[mask & 255]
            mask >>= 8
        return out

    def mask_of(self, lots: Iterable[str]) -> int:
        """The mask of the lots ``lots``."""
        bit = self.bit
        mask = 0
        for lot in lots:
            mask |= bit[lot]
        return mask

    def around(self, mask: int) -> int:
        """The lots sharing an edge with a lot of ``mask`` and not in it."""
        nb = self.neighbours_mask
        out = 0
        m = mask
        while m:
            low = m & -m
            out |= nb[low.bit_length() - 1]
            m ^= low
        return out & ~mask

    def components(self, mask: int) -> tuple[int, ...]:
        """The connected groups of the lots of ``mask`` (edges as the neighbour lists say), each a mask, in board
        order of their first lot: a flood fill over the neighbour masks, memoised in ``component_memo``."""
        memo = self.component_memo
        found = memo.get(mask)
        if found is None:
            nb = self.neighbours_mask
            out = []
            rest = mask
            while rest:
                group = todo = rest & -rest
                while todo:
                    low = todo & -todo
                    todo ^= low
                    grown = nb[low.bit_length() - 1] & rest & ~group
                    group |= grown
                    todo |= grown
                out.append(group)
                rest &= ~group
            found = memo[mask] = tuple(out)
        return found

    def advance(self, score: int, award: int) -> int:
        """The score track with its breaks: the highest space not above ``score + award``.

        000 "Points Paid" / 003 "Step 4: Score Casinos": from 8, +1 stays on 8, +2/+3 reach 10, +4/+5 reach 12.
        """
        floor = self._track_floor
        reached = score + award
        if reached < 0:
            return score
        space = floor[reached] if reached < len(floor) else floor[-1]
        return space if space > score else score


_COMPILED: Final = not __file__.endswith(".py")  # a module compiled by mypyc loads from a .so/.pyd


def popcount(mask: int) -> int:
    """``mask.bit_count()`` (``mask`` >= 0): compiled, a native loop over its set bits, where ``int.bit_count`` is a
    Python method call (a few hundred instructions); in pure Python, the method (one C call)."""
    if not _COMPILED:
        return mask.bit_count()
    if mask >> 62:  # (not a board of the game's size: the tagged ints' loop)
        n = 0
        while mask:
            mask &= mask - 1
            n += 1
        return n
    # machine ints (``i64``): each step a native and, subtract and add, where tagged ints test their tags
    m: i64 = mask
    k: i64 = 0
    while m:
        m &= m - 1
        k += 1
    return int(k)


def _mask(bits: list[int]) -> int:
    out = 0
    for b in bits:
        out |= b
    return out


@functools.lru_cache(maxsize=None)
def load_board(path: str | None = None) -> Board:
    file = Path(path) if path else variants_dir() / "board.yaml"
    data, _ = read_located(file, BoardError)
    try:
        companies = data["companies"]
        lots = {}
        for lot_id, d in data["lots"].items():
            lots[lot_id] = Lot(id=lot_id, block=d["block"], row=d["row"], col=d["col"], price=d["price"],
                               die=d["die"], strip=d["strip"], card=companies.get(d["card"], d["card"]),
                               card_money=d["card_money"], neighbours=tuple(d["neighbours"]))
        track = tuple(data["score_track"])
    except (KeyError, TypeError) as exc:
        raise BoardError(f"{file}: missing or malformed board field {exc}") from None
    for lot in lots.values():
        for n in lot.neighbours:
            if n not in lots or lot.id not in lots[n].neighbours or lots[n].block != lot.block:
                raise BoardError(f"{file}: lot {lot.id}: neighbour {n} is not a symmetric neighbour in block {lot.block}")
    colors = tuple(sorted(set(companies.values())))
    return Board(lots=lots, order=tuple(lots), colors=colors, track=track)
