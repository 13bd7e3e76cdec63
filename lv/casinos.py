"""Casinos: the connected groups of tiles of one colour (and one height, where the profile says so) in a block.

000 "Who owns what": "a group of 1 or more contiguous tiles of the same color".
003 "Who Owns What" L221-229: "contiguous tiles of the same color and height".
Adjacency never crosses a street or the Strip (the board's neighbour lists stay inside a block).

How they are found. The state keeps a bitboard per colour and per height (state.py); a block's casinos are the
connected components (``Board.components``, a memoised flood fill over the neighbour masks) of each colour's
mask in the block (join rule "color"), or of each colour-and-height mask (join rule "color_and_height").

Who keeps them. A state owns one ``CasinoIndex`` (``GameState.casino_index(join_rule)``; ``casino_index(board,
state, join_rule)`` below is the same). The state's change methods tell it which tiles changed
(``tiles_changed``) and which dice (``die_changed``); when next asked (``refresh``) it works out again the
casinos on the changed lots only (a flood fill from each over its colour's mask, merging the casinos it
reaches). A casino's dice facts are kept until one of its dice changes or it merges. ``Casino`` values are
made once per (lots, colour, height) and shared by every state, so a casino that did not change is the very
same object.

Bit-level queries (for legal-move generators):

- ``casino.mask``: its lots as a mask; ``casino.bits``: their bit positions (board order, as ``casino.lots``);
  ``casino.low``: the bit of its first lot (``casino.name``), ``casino.first`` its bit position;
- ``casino.around``: the lots next to it (not in it); ``frontier_mask(state, casino)`` =
  ``casino.around & ~state.tile_mask``: where it may sprawl, before markers, the closed block and money;
  the sprawls of a boss are ``frontier_mask(...) & ~state.markers_mask & ~closed_block_mask``;
- ``index.at_bit[i]``: the casino on bit ``i`` (None: no tile); ``index.at[lot]``: the same by lot id (a
  read-only view of ``at_bit``, ``CasinosByLot``);
- ``index.by_block[n]``: the casinos of block ``n`` (``board.block_number[i]``), board order;
- ``index.with_dice()``: every casino with its ``DiceFacts`` (top, top_lots, boss, owners, pips), board order;
- ``index.tied()``: only the casinos whose top die is shared by two or more players (what ``resolve_ties``
  looks for), kept per block; ``index.boss_blocks()``: the bosses per block, the same dict object for a block
  where nothing changed (so a comparison of bosses before and after an action can skip unchanged blocks).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from .board import Board

if TYPE_CHECKING:
    from .state import GameState


# acyclic (out of the cyclic collector in the compiled build): holds strings, ints, tuples of them, the Board (acyclic)
# and its own dict of int -> tuple of strings; nothing it holds holds a Casino
@mypyc_attr(acyclic=True)
class Casino:
    """A casino: its lots in board order (``lots[0]`` names it), colour and height; never changed once made.
    Made once per (lots, colour, height) and shared (``Casino.make``); the derived sizes and masks are read on
    every decision, so they are stored."""

    __slots__ = ("lots", "color", "height", "name", "spaces", "physical_tiles", "mask", "bits", "low", "first",
                 "around", "board", "_ring", "_reach", "_grown")

    def __init__(self, lots: tuple[str, ...], color: str, height: int, mask: int, bits: tuple[int, ...],
                 around: int, board: Board) -> None:
        self.lots = lots
        self.color = color
        self.height = height
        self.name = lots[0]
        self.spaces = len(lots)
        self.physical_tiles = len(lots) * height  # tiles plus risers (003 L411-414: 3 spaces 4 high score 12)
        self.mask = mask  # the lots as a mask (board.py)
        self.bits = bits  # the lots' bit positions, in board order
        self.low = mask & -mask  # the bit of the first lot
        self.first = bits[0]  # the first lot's bit position: no two casinos of a state share it
        self.around = around  # the lots next to the casino, not in it
        self.board = board
        self._ring: tuple[int, ...] | None = None  # see frontier_lots
        # bit -> the casino of its lots and that lot, of its colour and height (``CasinoIndex._join``: a casino
        # that grows by a tile, found again with a small int key; None: none made yet). It holds bigger casinos
        # only, so no cycle
        self._grown: dict[int, Casino] | None = None
        self._reach: dict[int, tuple[str, ...]] = {}  # frontier mask -> the frontier's lots (see frontier_lots)

    @staticmethod
    def make(board: Board, mask: int, color: str, height: int) -> Casino:
        """The casino on the lots of ``mask``: one object per (mask, colour, height), shared by every state."""
        memo = _made(board)
        found = memo.get((mask, color, height))
        if found is None:
            found = _new_casino(board, memo, mask, color, height)
        return found

    def frontier_lots(self, free: int) -> tuple[str, ...]:
        """The lots of ``free`` (a part of ``around``), in the order of the casino's lots and their neighbours
        (the order legal.py lists sprawls in)."""
        found = self._reach.get(free)
        if found is None:
            ring = self._ring
            if ring is None:  # the bits of the lots around, in the order of the casino's lots and their neighbours
                near = self.board.neighbour_bits
                seen = self.mask
                out: list[int] = []
                for i in self.bits:
                    for j in near[i]:
                        if not seen >> j & 1:
                            seen |= 1 << j
                            out.append(j)
                ring = self._ring = tuple(out)
            order = self.board.order
            reach: list[str] = []
            for j in ring:
                if free >> j & 1:
                    reach.append(order[j])
            found = self._reach[free] = tuple(reach)
        return found

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Casino) and self.lots == other.lots and self.color == other.color
                and self.height == other.height)

    def __hash__(self) -> int:
        return hash((self.lots, self.color, self.height))

    def __repr__(self) -> str:
        return f"Casino(lots={self.lots!r}, color={self.color!r}, height={self.height!r})"

    def __copy__(self) -> Casino:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Casino:
        return self  # immutable and shared


_MADE: Final[dict[int, tuple[Board, dict[tuple[int, str, int], Casino]]]] = {}  # Final: compiled, a C static


def _new_casino(board: Board, memo: dict[tuple[int, str, int], Casino], mask: int, color: str, height: int) -> Casino:
    """``Casino.make`` of a casino not in ``memo`` (``_made(board)``, which a casino index keeps: no lookup of the
    board's memo, no second lookup of the key): made and kept there."""
    if len(memo) > 200_000:  # a long run of many games: start again rather than grow without end
        memo.clear()
        _alone(board).clear()  # (and the casinos kept by those, each with the bigger ones grown from it)
    if not _COMPILED and not mask & (mask - 1):  # pure, one lot (most new casinos): no loop, no lists
        i = mask.bit_length() - 1
        found = memo[(mask, color, height)] = Casino((board.order[i],), color, height, mask, (i,),
                                                     board.neighbours_mask[i] & ~mask, board)
        return found
    order, nb = board.order, board.neighbours_mask
    bits: list[int] = []
    lots: list[str] = []
    around, m = 0, mask
    while m:
        low = m & -m
        i = low.bit_length() - 1
        bits.append(i)
        lots.append(order[i])
        around |= nb[i]
        m ^= low
    found = memo[(mask, color, height)] = Casino(tuple(lots), color, height, mask, tuple(bits), around & ~mask, board)
    return found


def _made(board: Board) -> dict[tuple[int, str, int], Casino]:
    found = _MADE.get(id(board))
    if found is None or found[0] is not board:
        found = _MADE[id(board)] = (board, {})
    return found[1]


# per board, colour -> the casinos of one tile one high by bit (``CasinoIndex._rework``: a tile built alone, found
# with a colour's dict and a list, not a tuple key made and hashed): Final, compiled, a C static
_ALONE: Final[dict[int, tuple[Board, dict[str, list[Casino | None]]]]] = {}


def _alone(board: Board) -> dict[str, list[Casino | None]]:
    found = _ALONE.get(id(board))
    if found is None or found[0] is not board:
        found = _ALONE[id(board)] = (board, {})
    return found[1]


# acyclic (out of the cyclic collector in the compiled build): holds ints, None and tuples of strings or ints
@mypyc_attr(acyclic=True)
class DiceFacts:
    """What a casino's dice say: kept until one of its dice changes, since bosses are asked for constantly. A
    value (never changed once made), iterated, compared and hashed as the tuple (top, top_lots, boss, owners,
    pips); a plain class, not a NamedTuple: where the core is compiled, a native one, made and read without
    Python calls."""

    __slots__ = ("top", "top_lots", "boss", "owners", "pips")

    def __init__(self, top: int | None, top_lots: tuple[str, ...], boss: int | None, owners: tuple[int, ...],
                 pips: int) -> None:
        self.top: Final = top  # the largest die value
        self.top_lots: Final = top_lots  # the lots holding a die of that value
        self.boss: Final = boss
        self.owners: Final = owners  # everyone with a die in the casino
        self.pips: Final = pips

    def _tuple(self) -> tuple[int | None, tuple[str, ...], int | None, tuple[int, ...], int]:
        return (self.top, self.top_lots, self.boss, self.owners, self.pips)

    def __iter__(self) -> Iterator[object]:
        return iter(self._tuple())

    def __eq__(self, other: object) -> bool:
        if other is None:  # (the pick compares the index's facts, None where none is kept: answered at once)
            return False
        if not isinstance(other, DiceFacts):
            return NotImplemented
        # field by field, the first that differs ends it (the pick compares the index's facts with those it listed
        # last: pure, ~50 a game, where two calls of ``_tuple`` and their tuples cost more than the compare)
        return (self.top == other.top and self.pips == other.pips and self.boss == other.boss
                and self.top_lots == other.top_lots and self.owners == other.owners)

    def __hash__(self) -> int:
        return hash(self._tuple())

    def __repr__(self) -> str:
        return (f"DiceFacts(top={self.top!r}, top_lots={self.top_lots!r}, boss={self.boss!r}, "
                f"owners={self.owners!r}, pips={self.pips!r})")

    def __copy__(self) -> DiceFacts:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> DiceFacts:
        return self  # a value


_NO_DICE: Final = DiceFacts(None, (), None, (), 0)


# acyclic (out of the cyclic collector in the compiled build): holds its index's list of casinos by bit (which holds
# casinos and None) and the board's dict of lot -> bit (strings and ints); neither holds a view
@mypyc_attr(acyclic=True)
class CasinosByLot:
    """Lot -> its casino, read-only: a view of a casino index's ``at_bit`` (``CasinoIndex.at``), so that a copy of
    the index copies one list, not a list and a dict, and a reworked casino is written once, by bit. Reads as the
    dict it was (``get``, ``[lot]``, ``in``, ``len``, iteration over the lots with a tile in board order, ``items``,
    ``==`` with a dict or another view)."""

    __slots__ = ("_at_bit", "_bit_of", "_order")

    def __init__(self, at_bit: list[Casino | None], board: Board) -> None:
        self._at_bit = at_bit
        self._bit_of = board.index
        self._order = board.order

    def get(self, lot: str, default: Casino | None = None) -> Casino | None:
        i = self._bit_of.get(lot)
        if i is None:
            return default
        found = self._at_bit[i]
        return default if found is None else found

    def __getitem__(self, lot: str) -> Casino:
        found = self.get(lot)
        if found is None:
            raise KeyError(lot)
        return found

    def __contains__(self, lot: object) -> bool:
        return isinstance(lot, str) and self.get(lot) is not None

    def items(self) -> list[tuple[str, Casino]]:
        """(lot, casino) of every lot with a tile, in board order."""
        out = []
        for lot, casino in zip(self._order, self._at_bit):
            if casino is not None:
                out.append((lot, casino))
        return out

    def keys(self) -> list[str]:
        return [lot for lot, _ in self.items()]

    def values(self) -> list[Casino]:
        return [casino for _, casino in self.items()]

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def __len__(self) -> int:
        n = 0
        for casino in self._at_bit:
            if casino is not None:
                n += 1
        return n

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CasinosByLot):
            return self.items() == other.items()
        if isinstance(other, dict):
            return dict(self.items()) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"CasinosByLot({dict(self.items())!r})"


class Serial:
    """The last number given of a series unique across the process (``last``, counted up by its users): a native
    class where the core is compiled, so the count stays a machine int (an int in a list is boxed at each write)."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last = 0


# the last version given to a casino index (``CasinoIndex.changes``): unique across every index of the process, so
# that a state copied lazily knows whether the index it was copied with is still as it was (GameState.copy)
_VERSIONS: Final = Serial()

# the tied casinos of a block with none (``CasinoIndex._fill``): one list for all, never changed
_NO_TIES: Final[list[tuple[Casino, DiceFacts]]] = []
_NO_LOG: Final[list[Any]] = []  # the log of an index that has noted nothing yet: never written
_ROOM: Final[tuple[None, ...]] = (None,) * 6  # what ``make_room`` adds: a whole number of entries of two and of three
_COMPILED: Final = not __file__.endswith(".py")  # a module compiled by mypyc loads from a .so/.pyd
# the place of a block's bosses by mask while they are not made (``CasinoIndex._unbossed``): never written
_UNMADE: Final[dict[int, int | None]] = {}
_BOSSES: Final = not _COMPILED  # does ``_fill`` make the bosses by mask unless told (see there)


def make_room(log: list[Any]) -> None:
    """A log written over (compiled: ``CasinoIndex._log``, entries of three; ``Undo.changed``, of two) whose used
    entries reach its end: a few (None) added, so that the next entry is written by index like a stale one (its
    length stays a whole number of entries)."""
    log.extend(_ROOM)


class IndexMark:
    """A checkpoint of a casino index (``CasinoIndex.checkpoint``): its fields then, and how many writes into its
    lists were noted before it."""

    __slots__ = ("first", "noted", "dirty", "tile_mask", "changes", "stale", "tied", "boss_blocks", "all", "with_dice",
                 "bosses", "unbossed", "pair_blocks")

    def __init__(self, index: CasinoIndex) -> None:
        self.start(index)

    def start(self, index: CasinoIndex) -> None:
        """Be a checkpoint of ``index`` as it is now (``__init__``; again in one rolled back: see checkpoint)."""
        self.first = not index._noting  # the first checkpoint open on the index
        self.noted = index._noted if _COMPILED else len(index._log)
        self.dirty, self.tile_mask, self.changes, self.stale = index.dirty, index._tile_mask, index.changes, index._stale
        self.tied, self.boss_blocks, self.all, self.with_dice = (index._tied, index._boss_blocks, index._all,
                                                                 index._with_dice)
        self.bosses = index._bosses
        self.unbossed = index._unbossed
        self.pair_blocks = index._pair_blocks


class CasinoIndex:
    """The casinos of one state under one join rule, with their dice facts. It reads the state's flat lists and
    masks (``_reads``), not the state itself: no cycle between the two.

    ``by_block`` (block number -> its casinos in board order), ``at`` (lot -> casino) and ``at_bit`` (bit ->
    casino) are current once ``refresh`` has run (``GameState.casino_index`` and ``casino_index`` run it; so do
    the views below). The dice facts (``facts_of``; ``facts``, by casino mask, shows them) are kept by the
    casino's first bit, worked out on demand, and forgotten for a casino whose dice changed or that merged. Per
    block, the casinos with their dice facts and bosses are worked out on demand and kept until a tile or a die
    of the block changes; the board-order views (``all``, ``with_dice``, ``boss_of_each``) are joined from them on
    demand after any change."""

    __slots__ = ("board", "join_rule", "by_height", "by_block", "at_bit", "at", "dirty", "_facts",
                 "_pairs", "_pair_blocks", "_bosses_by", "_boss_blocks", "_tied_by", "_tied", "_stale", "_all",
                 "_with_dice", "_bosses", "_made", "_alone", "changes", "_colors", "_heights", "_color_bits",
                 "_height_bits", "_color_id", "_owners", "_values", "_tile_mask", "_noting", "_log", "_noted", "_unbossed",
                 "rebossed")
    # what it reads of its state (``_reads``)
    _colors: list[str | None]
    _heights: list[int]
    _color_bits: list[int]
    _height_bits: list[int]
    _color_id: dict[str, int]
    _owners: list[int | None]
    _values: list[int]
    _tile_mask: int
    # the writes noted while a checkpoint of its state is open (``_no_log``)
    _noting: bool
    _log: list[Any]
    _noted: int

    def __init__(self, owner: GameState | None, join_rule: str, source: CasinoIndex | None = None) -> None:
        # pure, bit n: block n's bosses by mask made anew since ``Engine.apply`` cleared it (before a decision), but
        # for a new tile alone on an empty lot (``_placed``), a die rerolled or a casino grown by a tile with the same
        # boss (``dice_changed``, ``_joined``): nothing to tell there. ``Engine._told`` looks at those only
        self.rebossed = 0
        if source is not None:  # a copy of ``source`` for ``owner`` (``copy``; None: reading what it reads)
            self._copy(source)
            if owner is None:
                self._colors, self._heights, self._color_bits = source._colors, source._heights, source._color_bits
                self._height_bits, self._owners, self._values = source._height_bits, source._owners, source._values
                self._color_id = source._color_id
                self._tile_mask = source._tile_mask
            else:
                self._reads(owner)
            return
        assert owner is not None  # a new index is made for a state
        board = owner.board
        blocks = len(board.block_names)
        self._reads(owner)
        self.board = board
        self.join_rule = join_rule
        self.by_height = join_rule == "color_and_height"
        self.by_block: list[list[Casino]] = [[] for _ in range(blocks)]
        self.at_bit: list[Casino | None] = [None] * len(board.order)  # bit -> its casino
        self.at = CasinosByLot(self.at_bit, board)  # lot -> its casino: a view of at_bit
        self.dirty = owner.tile_mask  # the lots whose tiles changed since the last refresh
        # casino first bit -> the dice facts of the current casino with that first bit, while its dice stay as they
        # are (None: none kept). ``_rework`` forgets those of a casino whose lots changed, ``die_changed`` those of a
        # casino whose dice changed: what is kept is always the current casino's
        self._facts: list[DiceFacts | None] = [None] * len(board.order)
        # block number -> its casinos with their dice facts / casino mask -> boss; bit n of _stale: block n's
        # are to be worked out again
        self._pairs: list[list[tuple[Casino, DiceFacts]]] = [[] for _ in range(blocks)]
        # pair_blocks() until _fill changes a block's (None: to make; most calls come between two fills)
        self._pair_blocks: tuple[list[tuple[Casino, DiceFacts]], ...] | None = None
        # casino mask -> boss; bit n of _unbossed: block n's is to be made from _pairs when asked (``boss_blocks``),
        # filled without them (``_fill``; its place holds _UNMADE meanwhile)
        self._bosses_by: list[dict[int, int | None]] = [{} for _ in range(blocks)]
        self._unbossed = 0
        self._boss_blocks: tuple[dict[int, int | None], ...] | None = None  # boss_blocks() until _fill changes one
        self._tied_by: list[list[tuple[Casino, DiceFacts]]] = [[] for _ in range(blocks)]  # see tied()
        self._tied = 0  # bit n: block n has a casino in _tied_by
        self._stale = 0
        self._all: list[Casino] | None = None
        self._with_dice: list[tuple[Casino, DiceFacts]] | None = None
        self._bosses: dict[tuple[str, ...], int | None] | None = None
        self._made = _made(board)
        self._alone: dict[str, list[Casino | None]] | None = None  # ``_alone(board)``, read on first use (_single)
        # a version renewed by every change told (tiles_changed, die_changed), unique across indexes: the same
        # number, the same casinos and dice
        _VERSIONS.last += 1
        self.changes = _VERSIONS.last
        self._no_log()
        self.refresh()

    def _reads(self, s: GameState) -> None:
        """Read the state ``s`` from now on: its flat lists and masks by colour and height (which its change
        methods change in place and ``copy``/``restore`` hand over whole) and its tiles' mask (kept here: tiles
        never leave the board, so ``tiles_changed`` adds to it). The index holds no reference to the state itself:
        a state and its index are no cycle, so a dropped copy is freed at once, not by the cyclic collector."""
        self._colors = s.tile_colors
        self._heights = s.tile_heights
        self._color_bits = s.color_bits
        self._height_bits = s.height_bits
        self._color_id = s.board.color_id
        self._owners = s.die_owners
        self._values = s.die_values
        self._tile_mask = s.tile_mask

    def reads(self, s: GameState) -> bool:
        """Whether this index reads the state ``s`` (its own state's, after any copy or restore)."""
        return (self._colors is s.tile_colors and self._heights is s.tile_heights and self._color_bits is s.color_bits
                and self._height_bits is s.height_bits and self._owners is s.die_owners
                and self._values is s.die_values and self._tile_mask == s.tile_mask)

    def copy(self, owner: GameState) -> CasinoIndex:
        """This index for ``owner``, a copy of its state (GameState.copy)."""
        return CasinoIndex(owner, self.join_rule, self)

    def __deepcopy__(self, memo: dict[int, Any]) -> CasinoIndex:
        """A copy reading deep copies of the state's lists and masks (the same copies as its state's, when that is
        deep-copied with it: ``memo``) (a compiled class has no default deep copy)."""
        twin = CasinoIndex(None, self.join_rule, self)
        twin._colors = copy.deepcopy(self._colors, memo)
        twin._heights = copy.deepcopy(self._heights, memo)
        twin._color_bits = copy.deepcopy(self._color_bits, memo)
        twin._height_bits = copy.deepcopy(self._height_bits, memo)
        twin._owners = copy.deepcopy(self._owners, memo)
        twin._values = copy.deepcopy(self._values, memo)
        return twin

    def _copy(self, source: CasinoIndex) -> None:
        self.board, self.join_rule, self.by_height = source.board, source.join_rule, source.by_height
        # casinos, dice facts and the per-block lists and dicts are replaced whole, never changed: only the
        # containers that hold them are copied
        self.by_block, self.at_bit, self.dirty = list(source.by_block), list(source.at_bit), source.dirty
        self.at = CasinosByLot(self.at_bit, self.board)
        self._facts = list(source._facts)
        self._pairs, self._bosses_by, self._stale = list(source._pairs), list(source._bosses_by), source._stale
        self._pair_blocks = source._pair_blocks  # (a tuple of lists never changed: shared)
        self._boss_blocks, self._unbossed = source._boss_blocks, source._unbossed
        self._tied_by, self._tied = list(source._tied_by), source._tied
        self._all, self._with_dice, self._bosses = source._all, source._with_dice, source._bosses
        self._made, self._alone = source._made, source._alone
        self.changes = source.changes
        self._no_log()  # a copy notes nothing until its own state's checkpoint

    # ---- undo (GameState.checkpoint / rollback): the writes into its lists noted, its fields saved
    def _no_log(self) -> None:
        # while a checkpoint of its state is open (``_noting``): each write into one of its lists noted in ``_log``
        # as three entries (the list, the position, the old value). The log is the index's own, kept from one
        # checkpoint to the next: a push/pop pair makes and frees no list for it. Compiled, its first ``_noted``
        # entries are in use and it is written over (the entries past them are stale: values the lists held, or
        # hold again), so a pair grows and shrinks no list either; pure, it is appended to and cut back (its length
        # the count: fewer bytecodes)
        self._noting = False
        self._log = _NO_LOG
        self._noted = 0

    def checkpoint(self, spare: IndexMark | None = None) -> IndexMark:
        """Note every change from now on; ``rollback(mark)`` puts the index back as it is now. ``spare``: a mark
        rolled back (used up), made again (GameState.checkpoint: no mark allocated and freed by a push/pop pair)."""
        if self._pair_blocks is None and not self.dirty and not self._stale:  # current, its blocks' tuple not made:
            # made now, so that the mark keeps it (the pushes of a search from here each read this one, where each
            # made one of its own that the rollback dropped)
            self._pair_blocks = tuple(self._pairs)
        if spare is None:
            mark = IndexMark(self)
        else:
            mark = spare
            mark.start(self)
        if not self._noting:
            self._noting = True
            if self._log is _NO_LOG:
                self._log = []
        return mark

    def rollback(self, mark: IndexMark) -> None:
        """Be as at ``mark = checkpoint()``, the last checkpoint not rolled back."""
        log, noted = self._log, mark.noted
        k = self._noted if _COMPILED else len(log)
        while k > noted:  # the last write first
            k -= 3
            into: list[Any] = log[k]
            at: int = log[k + 1]
            into[at] = log[k + 2]
        if _COMPILED:
            self._noted = noted
        elif len(log) > noted:
            del log[noted:]
        if mark.first:  # no checkpoint before it: nothing more to note
            self._noting = False
        self.dirty, self._tile_mask, self.changes, self._stale = mark.dirty, mark.tile_mask, mark.changes, mark.stale
        self._tied, self._boss_blocks, self._all, self._with_dice = mark.tied, mark.boss_blocks, mark.all, mark.with_dice
        self._bosses = mark.bosses
        self._unbossed = mark.unbossed
        self._pair_blocks = mark.pair_blocks

    def _note(self, into: list[Any], at: int) -> None:
        """``into[at]`` is about to be written: note its value (a checkpoint is open)."""
        log = self._log
        if _COMPILED:  # over stale entries
            n = self._noted
            if n == len(log):
                make_room(log)
            log[n] = into
            log[n + 1] = at
            log[n + 2] = into[at]
            self._noted = n + 3
        else:
            log.append(into)
            log.append(at)
            log.append(into[at])

    # ---- other views of the casinos (for tests and the curious; the hot paths read the lists)
    @property
    def blocks(self) -> dict[str, list[Casino]]:
        """Block letter -> its casinos, in board order."""
        return dict(zip(self.board.block_names, self.by_block))

    @property
    def facts(self) -> dict[int, DiceFacts]:
        """The dice facts kept, by casino mask (for tests and the curious: the index keeps them by first bit)."""
        out = {}
        for f, casino in zip(self._facts, self.at_bit):
            if f is not None and casino is not None:
                out[casino.mask] = f
        return out

    @property
    def bosses(self) -> dict[tuple[str, ...], int | None] | None:
        """What ``boss_of_each`` answers, if it is kept (None: to work out again)."""
        return self._bosses

    # ---- told by the state (state.py calls these after every change)
    def tiles_changed(self, lots: int) -> None:
        """Tiles were placed, recoloured or raised on the lots of the mask ``lots``."""
        self.dirty |= lots
        self._tile_mask |= lots
        _VERSIONS.last += 1
        self.changes = _VERSIONS.last
        self._all = self._with_dice = self._bosses = None

    def recast(self, changed: int, stamp: int, i: int, color: str, height: int) -> None:
        """Pure ``tiles_changed`` of a recolour or a raise (``GameState.recolor``, ``raise_tiles``), the state's stamp
        its version: the tiles of ``changed`` are of ``color`` and ``height`` now, ``i`` the bit of one of them. Worked
        out at once where the index can: a whole casino joining nothing (``_kept_lots``), a tile alone
        (``tile_alone``); else the lots are marked dirty, for a refresh."""
        self._tile_mask |= changed
        self.changes = stamp
        self._all = self._with_dice = self._bosses = None
        if changed & (changed - 1):
            if self.dirty or self._noting or not self._kept_lots(self.board.block_number[i], changed):
                self.dirty |= changed
        elif not self.tile_alone(i, changed, color, height):
            self.dirty |= changed

    def die_changed(self, i: int) -> None:
        """The die on bit ``i`` changed (put, taken away, rerolled, or another player's)."""
        casino = self.at_bit[i]
        if casino is not None:
            if self._noting:
                self._note(self._facts, casino.first)
            self._facts[casino.first] = None
        self._stale |= 1 << self.board.block_number[i]
        _VERSIONS.last += 1
        self.changes = _VERSIONS.last
        self._with_dice = self._bosses = None

    def dice_changed(self, dice: int) -> None:
        """Pure, the dice on the lots of the mask ``dice`` changed (``GameState.reroll``, ``set_die``): ``die_changed``
        of each. Where they are all of one casino, in a block filled and bossed with none tied, nothing to refresh and
        no checkpoint open (a reorganization, a take-over: most of them), that casino's dice facts, pair and boss by
        mask are changed in place: the block is not filled again (``_fill`` would make every pair and boss of the
        block anew), and is ``rebossed`` where its boss changed."""
        low = dice & -dice
        i = low.bit_length() - 1
        casino = self.at_bit[i]
        number = self.board.block_number[i]
        if (casino is None or dice & ~casino.mask or self.dirty or self._noting
                or (self._stale | self._unbossed | self._tied) >> number & 1):
            while dice:
                low = dice & -dice
                dice ^= low
                self.die_changed(low.bit_length() - 1)
            return
        f = self._facts[casino.first] = _facts_from(self._owners, self._values, casino)
        by = self._pairs
        pairs = list(by[number])
        k = 0
        while pairs[k][0] is not casino:  # (it is one of the block's: no range made, no bound compared)
            k += 1
        pairs[k] = (casino, f)
        by[number] = pairs
        self._pair_blocks = None
        boss = f.boss
        was = self._bosses_by[number]
        if was[casino.mask] != boss:  # its boss changed: the block's bosses by mask a copy with it, ``rebossed``
            by_mask = dict(was)
            by_mask[casino.mask] = boss
            self._bosses_by[number] = by_mask
            self.rebossed |= 1 << number
            self._boss_blocks = self._bosses = None
        # (else the very same dict, as a fill would make it again equal: ``Engine._told`` would find nothing to tell;
        # and every casino's boss as it was, ``boss_of_each`` kept)
        if boss is None and len(f.top_lots) >= 2:  # tied now (the block's only one: none was)
            self._tied_by[number] = [(casino, f)]
            self._tied |= 1 << number
        _VERSIONS.last += 1
        self.changes = _VERSIONS.last
        # current: joined now (see tile_alone)
        self._with_dice = None if self._stale else self._all_pairs()

    def refresh(self) -> None:
        """Work out again the casinos that the tiles changed since the last refresh touch, block by block."""
        dirty = self.dirty
        if not dirty:
            self._all = self._with_dice = self._bosses = None
            return
        # (the views joined from the blocks are None already: ``tiles_changed`` forgot them, and none is joined while
        # tiles changed are not worked out)
        self.dirty = 0
        board = self.board
        block_number, masks = board.block_number, board.block_masks
        while dirty:
            number = block_number[(dirty & -dirty).bit_length() - 1]
            bm = masks[number]
            self._rework(number, bm, dirty & bm)
            dirty &= ~bm

    def nothing_to_tell(self) -> bool:
        """Whether the tiles changed since the last refresh are a new tile on an empty lot or every lot of one
        casino (a build, a remodel or a raise), none of whose new neighbours is of their colour (and height), with no
        die changed and no casino tied since the last fill: refreshed, every casino would be on the lots it was on
        (the new tile alone), with the same dice, so there is no merge, no boss changed and no tie to tell or settle
        (``Engine.apply`` then leaves the refresh to whoever reads the casinos next: a push popped unread pays none).
        False when in doubt (nothing worked out)."""
        dirty = self.dirty
        if not dirty or self._stale or self._tied:
            return False
        low = dirty & -dirty
        i = low.bit_length() - 1
        was = self.at_bit[i]
        if was is None:  # a tile on an empty lot, alone
            if dirty != low:
                return False
            near = self.board.neighbours_mask[i]
        elif was.mask == dirty:  # a whole casino changed
            near = was.around
        else:
            return False
        # the lots read one by one from the flat lists (a lot or two, and the few tiles next to them: no lookup of
        # the colour's number, no mask read by colour and height)
        colors, heights, by_height = self._colors, self._heights, self.by_height
        color = colors[i]
        if color is None:
            return False
        height = heights[i] if by_height else 0
        rest = dirty ^ low
        while rest:  # the casino's other lots: all of its colour (and height) now
            b = rest & -rest
            rest ^= b
            j = b.bit_length() - 1
            c = colors[j]
            if c is None or c != color or (by_height and heights[j] != height):
                return False
        near &= self._tile_mask
        while near:  # the tiles next to it: none of its colour (and height)
            b = near & -near
            near ^= b
            j = b.bit_length() - 1
            c = colors[j]
            if c is not None and c == color and (not by_height or heights[j] == height):
                return False
        return True

    def _rework(self, number: int, bm: int, changed: int) -> None:
        """The tiles on the lots of ``changed`` (in block ``number``, whose mask is ``bm``) changed: the casinos
        on them are gone, and each of their lots is in the casino that a flood fill from it over the lots of its
        colour (and height) finds; a casino of the block that such a flood fill reaches is merged into it; the
        other casinos of the block stay as they were."""
        at_bit = self.at_bit
        # (the state's lists read where used, not as locals first: pure, the common case below reads each once)
        if not changed & (changed - 1):  # one lot that joins nothing: the common case (a build; a remodel or a
            i = changed.bit_length() - 1  # raise of a casino of one tile)
            was = at_bit[i]
            if was is None or was.mask == changed:
                color = self._colors[i]
                height = self._heights[i]
                assert color is not None  # the lot has its new tile
                same = self._color_bits[self._color_id[color]]
                if self.by_height:
                    same &= self._height_bits[height]
                if not self.board.neighbours_mask[i] & same:
                    if _COMPILED:
                        single = self._single(i, color, height)
                    else:  # (pure, the tuple key at once: a method call costs more bytecodes than it saves)
                        single = (self._made.get((changed, color, height))
                                  or _new_casino(self.board, self._made, changed, color, height))
                        if not self._noting and not (self._stale | self._unbossed) >> number & 1:
                            # pure, the block's casinos with their dice facts and bosses by mask current: changed
                            # here, not filled again (``_fill`` would make every pair and boss of the block anew)
                            at_bit[i] = single
                            self._placed(number, i, single, was)
                            return
                    if self._noting:
                        self._note(at_bit, i)
                        self._note(self.by_block, number)
                    at_bit[i] = single
                    if was is None:  # a copy of the block's list with it in its place (board order of first lots)
                        # (pure, ``_in_order`` at once: a call more costs more bytecodes than ``_with`` saves)
                        if _COMPILED:
                            self.by_block[number] = _with(self.by_block[number], single, 0)
                        else:  # (pure, ``_in_order`` written out: no call, no list of one made)
                            block = list(self.by_block[number])
                            at, low = len(block), single.low
                            while at and block[at - 1].low > low:
                                at -= 1
                            block.insert(at, single)
                            self.by_block[number] = block
                    else:  # in the place of the casino it was (the same first lot); its dice facts stay (the
                        #   same lots: die_changed tells), as the flood fill below keeps them
                        block = list(self.by_block[number])
                        for k in range(len(block)):
                            if block[k] is was:
                                block[k] = single
                                break
                        self.by_block[number] = block
                    self._stale |= 1 << number
                    return
                if was is None:  # a new tile next to casinos of its colour (and height): it joins them
                    self._join(number, i, color, height, self.board.neighbours_mask[i] & same)
                    return
        elif self._kept_lots(number, changed):
            return
        board = self.board
        tile_colors, tile_heights, color_masks, height_masks = (self._colors, self._heights, self._color_bits,
                                                                self._height_bits)
        color_id = self._color_id
        region = changed  # the changed lots and the casinos on them (as they were at the last refresh)
        rest = changed
        while rest:
            low = rest & -rest
            casino = at_bit[low.bit_length() - 1]
            if casino is None:
                rest ^= low
            else:
                region |= casino.mask
                rest &= ~casino.mask
        memo, made = board.component_memo, self._made
        colors, heights = tile_colors, tile_heights
        by_height = self.by_height
        found: list[Casino] = []
        covered = 0
        seeds = region & self._tile_mask
        while seeds:
            low = seeds & -seeds
            i = low.bit_length() - 1
            color = colors[i]
            assert color is not None  # a seed is a tiled lot
            height = heights[i]
            allowed = color_masks[color_id[color]] & bm
            if by_height:
                allowed &= height_masks[height]
            for group in memo.get(allowed) or board.components(allowed):  # the flood fills, memoised
                if group & low:
                    break
            if group != low and not by_height:
                # "color" joins may mix heights (what-if profiles): the casino is as high as its tallest tile
                height = 0  # (a loop, not max over a generator: compiled, no generator object and calls)
                for h in range(len(height_masks)):
                    if height_masks[h] & group:
                        height = h
            hit = made.get((group, color, height))
            casino = hit if hit is not None else _new_casino(board, made, group, color, height)
            found.append(casino)
            noting = self._noting
            for j in casino.bits:  # every lot of a casino it replaces is in a found one (tiles never leave)
                if noting:
                    self._note(at_bit, j)
                at_bit[j] = casino
            covered |= group
            seeds &= ~covered
        # the dice facts of a casino whose lots changed are forgotten (they are kept by first bit: a casino that takes
        # the place of another with that first bit must not read them; tiles never leave, so every casino gone is
        # one of these); a casino on the same lots (recoloured, raised) keeps them (die_changed tells when its dice
        # change)
        facts = self._facts
        noting = self._noting
        kept = []
        for c in self.by_block[number]:
            if not c.mask & covered:
                kept.append(c)
                continue
            if _COMPILED:  # (a loop, not ``in`` a list of masks: no list made and no boxed masks compared; pure, the
                #            list's ``in`` costs fewer bytecodes)
                gone = True
                for f in found:
                    if f.mask == c.mask:
                        gone = False
                        break
            else:
                gone = c.mask not in [f.mask for f in found]
            if gone:
                if noting:
                    self._note(facts, c.first)
                facts[c.first] = None
        if noting:
            self._note(self.by_block, number)
        self.by_block[number] = _in_order(kept, found)
        self._stale |= 1 << number

    def tile_alone(self, i: int, b: int, color: str, height: int) -> bool:
        """Pure, the tile on bit ``i`` (mask ``b``) is new on an empty lot, or recoloured or raised alone
        (``GameState.place_tile``, ``recolor``, ``raise_tiles``, which tell the rest of ``tiles_changed``), ``color``
        and ``height`` now: worked out at once where it is ``_rework``'s tile alone (a casino of one tile, or none,
        joining nothing) in a block filled and bossed, with nothing to refresh and no checkpoint open (``_placed``: most
        builds and remodels), or a tile that joins casinos (``_join``: new, or a casino of one tile recoloured or raised),
        so no refresh is left to come (``Engine.carry_out`` finds nothing dirty). False (nothing done: the lot is to be
        marked dirty) otherwise."""
        number = self.board.block_number[i]
        if self.dirty or self._noting or (self._stale | self._unbossed) >> number & 1:
            return False
        was = self.at_bit[i]
        if was is not None and was.mask != b:
            return False
        same = self._color_bits[self._color_id[color]]
        if self.by_height:
            same &= self._height_bits[height]
        same &= self.board.neighbours_mask[i]
        if same:  # next to tiles of its colour (and height): it joins their casinos (and leaves its own, ``was``, if it
            #        was recoloured or raised: a casino of that one tile, gone with them)
            self._join(number, i, color, height, same, was)
        else:  # a casino of its own (``_rework``'s tile alone)
            single = self._made.get((b, color, height)) or _new_casino(self.board, self._made, b, color, height)
            self.at_bit[i] = single
            self._placed(number, i, single, was)
        if not self._stale:  # current (a join's block filled, ``_joined``, most): every casino with its dice facts
            #   joined now (see with_dice), as the pick asks next (it reads ``_with_dice`` without a call where it is
            #   kept)
            self._with_dice = self._all_pairs()
        return True

    def _placed(self, number: int, i: int, single: Casino, was: Casino | None) -> None:
        """Pure, ``_rework``'s tile alone on bit ``i`` (block ``number``, filled and bossed, no checkpoint open), the
        casino ``single``: on an empty lot (``was`` None), it goes into the block's lists at its place (board order of
        first lots) with its dice facts, its boss into the block's bosses by mask (a copy); in the place of ``was``
        (the same lot, recoloured or raised), it takes its place with the same dice facts (the same die: a die changed
        would have made the block stale), and the bosses by mask stay the very same dict (the same mask, the same
        boss: ``Engine.apply`` then compares nothing there). Never tied: one tile has one die. Neither is ``rebossed``:
        there is no merge and no boss changed to tell."""
        block = list(self.by_block[number])
        pairs = list(self._pairs[number])
        if was is None:
            # its dice facts made, not read first (a lot that had no tile was in no casino: none kept)
            f = self._facts[i] = _facts_from(self._owners, self._values, single)
            at, low = len(block), single.low
            while at and block[at - 1].low > low:
                at -= 1
            block.insert(at, single)
            pairs.insert(at, (single, f))
            by_mask = dict(self._bosses_by[number])
            by_mask[single.mask] = f.boss
            self._bosses_by[number] = by_mask
            self._boss_blocks = None
            # (not ``rebossed``: a casino on a lot that was empty was made of no casino, so ``Engine._told`` finds
            # nothing to tell of it, no merge and no boss changed)
        else:
            facts = self._facts
            kept = facts[i]
            if kept is None:
                kept = facts[i] = _facts_from(self._owners, self._values, single)
            k = 0
            while block[k] is not was:  # (it is one of the block's: see dice_changed)
                k += 1
            block[k] = single
            pairs[k] = (single, kept)
        self.by_block[number] = block
        self._pairs[number] = pairs
        self._pair_blocks = None

    def _kept_lots(self, number: int, changed: int) -> bool:
        """``_rework`` of the lots of ``changed`` (two or more, in block ``number``) if they are every lot of one
        casino, now all of one colour (and height) and next to no tile of it (a remodel or a raise of a casino that
        joins nothing): its casino is the one on the same lots, of the new colour and height, in its place (no flood
        fill), and its dice facts stay (the same lots: ``die_changed`` tells when its dice change), as the flood
        fill keeps them. False (nothing done) otherwise."""
        at_bit = self.at_bit
        i = (changed & -changed).bit_length() - 1
        was = at_bit[i]
        if was is None or was.mask != changed:
            return False
        color = self._colors[i]
        assert color is not None  # a casino's lot has a tile
        height_masks = self._height_bits
        same = self._color_bits[self._color_id[color]]
        if self.by_height:
            height = self._heights[i]
            same &= height_masks[height]
        if same & changed != changed or was.around & same:
            return False
        if not self.by_height:  # "color" joins may mix heights: the casino is as high as its tallest tile (_rework)
            height = 0
            for h in range(len(height_masks)):
                if height_masks[h] & changed:
                    height = h
        casino = self._casino(changed, color, height)
        noting = self._noting
        for j in casino.bits:
            if noting:
                self._note(at_bit, j)
            at_bit[j] = casino
        if noting:
            self._note(self.by_block, number)
        block = list(self.by_block[number])  # the casino in the place of the one it was (the same first lot)
        for k in range(len(block)):
            if block[k] is was:
                block[k] = casino
                break
        self.by_block[number] = block
        if not _COMPILED and not noting and not (self._stale | self._unbossed | self._tied) >> number & 1:
            # pure, the block filled and bossed, none of its casinos tied: as ``_placed`` does for one tile, its pair
            # in the place of the one it was, with the same dice facts (the same lots), and the bosses by mask the very
            # same dict (the same mask, the same boss: nothing to tell); the block not filled again
            f = self._facts[casino.first]
            if f is None:
                f = self._facts[casino.first] = _facts_from(self._owners, self._values, casino)
            pairs = list(self._pairs[number])
            pairs[k] = (casino, f)
            self._pairs[number] = pairs
            self._pair_blocks = None
            return True
        self._stale |= 1 << number
        return True

    def _join(self, number: int, i: int, color: str, height: int, near: int, was: Casino | None = None) -> None:
        """``_rework`` of a new tile on bit ``i`` (block ``number``), ``color`` and ``height``, whose neighbours of
        the lots of ``near`` are of its colour (and height): its casino is the lot and the casinos on those (each
        the component of its lots already, so no flood fill), as high as the tallest; they are gone. ``was``: the
        casino of that one tile before it was recoloured or raised (pure, ``tile_alone``), gone with them."""
        at_bit = self.at_bit
        group = 1 << i
        merged: list[Casino] = [] if was is None else [was]
        by_height = self.by_height
        while near:
            c = at_bit[(near & -near).bit_length() - 1]
            assert c is not None  # a lot with a tile is in a casino
            merged.append(c)
            group |= c.mask
            near &= ~c.mask
            if not by_height and c.height > height:  # "color" joins may mix heights: the tallest tile's
                height = c.height
        if not _COMPILED:  # (pure: the tuple key at once, see _rework)
            casino = (self._made.get((group, color, height))
                      or _new_casino(self.board, self._made, group, color, height))
        elif len(merged) == 1 and merged[0].height == height:  # one casino grown by this tile (most joins): the
            #   casino kept by the one it grew from, by bit (a small int: no key made)
            grew = merged[0]
            grown = grew._grown
            if grown is None:
                grown = grew._grown = {}
            found = grown.get(i)
            if found is None:
                found = grown[i] = self._casino(group, color, height)
            casino = found
        else:
            casino = self._casino(group, color, height)
        noting = self._noting
        for j in casino.bits:
            if noting:
                self._note(at_bit, j)
            at_bit[j] = casino
        # the dice facts of the casinos it joined are forgotten (kept by first bit: see _rework)
        facts = self._facts
        for c in merged:
            if noting:
                self._note(facts, c.first)
            facts[c.first] = None
        # the block's casinos but those it joined, with it in its place (board order of the first lot)
        if noting:
            self._note(self.by_block, number)
        if _COMPILED:
            self.by_block[number] = _with(self.by_block[number], casino, group)
        else:  # (pure: see _rework)
            if not noting and not (self._stale | self._unbossed | self._tied) >> number & 1:
                # pure, the block filled and bossed, none of its casinos tied: its pairs and bosses by mask changed
                # here unless the new casino is tied (see ``_placed``)
                f = facts[casino.first] = _facts_from(self._owners, self._values, casino)
                if f.boss is not None or len(f.top_lots) < 2:
                    self._joined(number, casino, f, merged)
                    return
            kept: list[Casino] = []
            for c in self.by_block[number]:
                if not c.mask & group:
                    kept.append(c)
            self.by_block[number] = _in_order(kept, [casino])
        self._stale |= 1 << number

    def _joined(self, number: int, casino: Casino, f: DiceFacts, merged: list[Casino]) -> None:
        """Pure, ``_join``'s new casino ``casino`` (dice facts ``f``, not tied) in block ``number`` (filled and bossed,
        none of its casinos tied, no checkpoint open), made of the casinos ``merged`` and a new tile: the block's
        casinos, pairs and bosses by mask without those, with it at its place (board order of first lots)."""
        group, low = casino.mask, casino.low
        block: list[Casino] = []
        pairs: list[tuple[Casino, DiceFacts]] = []
        for pair in self._pairs[number]:  # (the block's casinos and their pairs: the same, in the same order)
            c = pair[0]
            if not c.mask & group:
                block.append(c)
                pairs.append(pair)
        at = len(block)
        while at and block[at - 1].low > low:
            at -= 1
        block.insert(at, casino)
        pairs.insert(at, (casino, f))
        was = self._bosses_by[number]
        by_mask = dict(was)
        for c in merged:
            del by_mask[c.mask]
        boss = by_mask[group] = f.boss
        self.by_block[number] = block
        self._pairs[number] = pairs
        self._bosses_by[number] = by_mask
        self._boss_blocks = self._pair_blocks = None
        if len(merged) > 1 or was[merged[0].mask] != boss:  # a merge, or the casino grown has another boss: to tell
            # (one casino grown, its boss the same, as most: ``Engine._told`` would find nothing, not ``rebossed``)
            self.rebossed |= 1 << number

    def _casino(self, mask: int, color: str, height: int) -> Casino:
        """``Casino.make``: the one casino on the lots of ``mask`` of this colour and height."""
        made = self._made
        hit = made.get((mask, color, height))
        return hit if hit is not None else _new_casino(self.board, made, mask, color, height)

    def _single(self, i: int, color: str, height: int) -> Casino:
        """``_casino`` of the one lot on bit ``i``: one high, by colour and bit (compiled, a dict by a string whose
        hash is kept and a list, where ``Casino.make``'s key is a tuple made and hashed)."""
        if height != 1:
            return self._casino(1 << i, color, height)
        alone = self._alone
        if alone is None:
            alone = self._alone = _alone(self.board)
        by_bit = alone.get(color)
        if by_bit is None:
            by_bit = alone[color] = [None] * len(self.board.order)
        found = by_bit[i]
        if found is None:
            found = by_bit[i] = self._casino(1 << i, color, height)
        return found

    def _fill(self, bosses: bool = _BOSSES) -> None:
        """The casinos with their dice facts, of the blocks that changed; with ``bosses`` their bosses by mask too
        (else ``boss_blocks`` makes them when asked). Compiled, not by default: ``Engine.apply`` and the draw compare
        ``pair_blocks`` and no one else asks; pure, by default, as a dict comprehension costs fewer bytecodes than the
        comparison of ``pair_blocks`` it spares (``Engine.apply``)."""
        owners_at, values = self._owners, self._values
        pairs_by, facts, stale = self._pairs, self._facts, self._stale
        self._stale = 0
        self._boss_blocks = self._pair_blocks = None
        noting = self._noting
        while stale:
            low = stale & -stale
            stale ^= low
            number = low.bit_length() - 1
            pairs: list[Any] = []
            by_mask: dict[int, int | None] = {} if bosses else _UNMADE
            tied: list[tuple[Casino, DiceFacts]] = _NO_TIES  # a list of its own once one is tied (most blocks: none)
            if noting:
                self._note(pairs_by, number)
            if not _COMPILED and bosses:  # (pure: a new pair each, fewer bytecodes than the reuse below)
                for casino in self.by_block[number]:
                    f = facts[casino.first]
                    if f is None:
                        first = casino.first
                        if noting:
                            self._note(facts, first)
                        f = facts[first] = _facts_from(owners_at, values, casino)
                    pairs.append((casino, f))
                    b = by_mask[casino.mask] = f.boss
                    if b is None and len(f.top_lots) >= 2:
                        if tied is _NO_TIES:
                            tied = []
                        tied.append((casino, f))
            elif not _COMPILED:  # (pure, quiet: no bosses by mask)
                for casino in self.by_block[number]:
                    f = facts[casino.first]
                    if f is None:
                        first = casino.first
                        if noting:
                            self._note(facts, first)
                        f = facts[first] = _facts_from(owners_at, values, casino)
                    pairs.append((casino, f))
                    if f.boss is None and len(f.top_lots) >= 2:
                        if tied is _NO_TIES:
                            tied = []
                        tied.append((casino, f))
            else:
                # compiled, the block's pairs before: a casino with its dice facts at the same place is given the very
                # pair again (read as an object: a tuple read as typed is unpacked, and packed anew when appended), so
                # a rollback frees fewer tuples
                old: list[Any] = pairs_by[number]
                m = len(old)
                j = 0
                for casino in self.by_block[number]:
                    first = casino.first
                    f = facts[first]
                    if f is None:
                        if noting:
                            self._note(facts, first)
                        f = facts[first] = _facts_from(owners_at, values, casino)
                    if j < m:
                        q: Any = old[j]
                        was: tuple[Casino, DiceFacts] = q
                        if was[0] is casino and was[1] is f:
                            pairs.append(q)
                        else:
                            pairs.append((casino, f))
                    else:
                        pairs.append((casino, f))
                    j += 1
                    if bosses:
                        by_mask[casino.mask] = f.boss
                    if f.boss is None and len(f.top_lots) >= 2:
                        if tied is _NO_TIES:
                            tied = []
                        tied.append((casino, f))
            pairs_by[number] = pairs
            # a block's bosses by mask and its tied casinos are read only where the bits say they are current
            # (``_unbossed`` clear, ``_tied`` set): not written (nor noted) otherwise
            if bosses:
                if noting:
                    self._note(self._bosses_by, number)
                self._bosses_by[number] = by_mask
                self._unbossed &= ~low
                self.rebossed |= low
            else:
                self._unbossed |= low
            if tied:
                if noting:
                    self._note(self._tied_by, number)
                self._tied_by[number] = tied
                self._tied |= low
            else:
                self._tied &= ~low

    # ---- reading
    def all(self) -> list[Casino]:
        """Every casino, in board order of its first lot (do not change the list)."""
        found = self._all
        if found is None:
            if self.dirty:
                self.refresh()
            found = []
            for block in self.by_block:  # a loop, not itertools.chain: compiled, no generic calls
                found.extend(block)
            self._all = found
        return found

    def with_dice(self, tiles: object = None) -> list[tuple[Casino, DiceFacts]]:
        """Every casino with its dice facts, in board order (do not change the list). ``tiles`` is not read (it
        was, once: callers may still pass the state's tiles)."""
        found = self._with_dice
        if found is None:
            if self.dirty:
                self.refresh()
            if self._stale:
                self._fill()
            if _COMPILED:
                found = []
                for pairs in self._pairs:  # a loop, not itertools.chain: compiled, no generic calls; pure, chain joined
                    #   them in fewer bytecodes but more time (round 25, ``instructions.py --caches``)
                    found.extend(pairs)
            else:
                found = self._all_pairs()
            self._with_dice = found
        return found

    def _all_pairs(self) -> list[tuple[Casino, DiceFacts]]:
        """Pure ``with_dice``'s list: every block's pairs joined (the index filled, nothing dirty)."""
        by = self._pairs
        if len(by) == 6:  # the board's six blocks (A to F: every board lv loads) joined in one list display, no loop
            #   (fewer bytecodes and instructions: the same C extend each)
            a, b, c, d, e, g = by
            return [*a, *b, *c, *d, *e, *g]
        found: list[tuple[Casino, DiceFacts]] = []
        for pairs in by:  # (``+=``: the same C extend without a method call's bytecodes)
            found += pairs
        return found

    def of_color(self, color: str) -> list[tuple[Casino, DiceFacts]]:
        """The casinos of ``color`` with their dice facts, in board order (what a property card of that colour
        pays): a new list."""
        out = []
        for pair in self.with_dice():
            if pair[0].color == color:
                out.append(pair)
        return out

    def touching(self, mask: int) -> list[tuple[Casino, DiceFacts]]:
        """The casinos with a lot in ``mask`` with their dice facts, in board order (the Strip card pays those on
        the Strip): a new list."""
        out = []
        for pair in self.with_dice():
            if pair[0].mask & mask:
                out.append(pair)
        return out

    def boss_of_each(self, tiles: object = None) -> dict[tuple[str, ...], int | None]:
        """Casino lots -> boss, in board order (do not change the dict): the same dict until a tile or a die
        changes. ``tiles`` is not read."""
        found = self._bosses
        if found is None:
            found = {}
            for casino, facts in self.with_dice():
                found[casino.lots] = facts.boss
            self._bosses = found
        return found

    def boss_blocks(self) -> tuple[dict[int, int | None], ...]:
        """Per block, casino mask -> boss (do not change them): a block where no tile and no die changed keeps
        the very same dict, so comparing two of these block by block (``is``) skips the blocks that did not
        change (what ``boss_of_each`` answers, in pieces, by mask: ``board.lots_of(mask)`` are the lots)."""
        if self.dirty:
            self.refresh()
        if self._stale:
            self._fill()
        # one tuple until a block changes (Engine.apply asks before and after each decision: most change nothing
        # in between, and the same object then compares at once)
        found = self._boss_blocks
        if found is None:
            by = self._bosses_by
            unbossed = self._unbossed
            if unbossed:  # blocks filled since: their bosses by mask made now
                self._unbossed = 0
                while unbossed:
                    low = unbossed & -unbossed
                    unbossed ^= low
                    number = low.bit_length() - 1
                    bosses: dict[int, int | None] = {}
                    for casino, f in self._pairs[number]:
                        bosses[casino.mask] = f.boss
                    if self._noting:
                        self._note(by, number)
                    by[number] = bosses
                    self.rebossed |= low
            found = self._boss_blocks = tuple(by)
        return found

    def pair_blocks(self) -> tuple[list[tuple[Casino, DiceFacts]], ...]:
        """Per block, its casinos with their dice facts in board order (do not change the lists): a block where no
        tile and no die changed keeps the very same list, so two of these compare block by block by ``is``
        (``Engine.apply`` and the draw tell merges and boss changes from them: no bosses by mask made). The same
        tuple until a fill changes a block's list (most calls: ``Engine.apply`` asks before and after a decision,
        the draw before and after its card)."""
        if self.dirty:
            self.refresh()
        if self._stale:
            self._fill()
        found = self._pair_blocks
        if found is None:
            found = self._pair_blocks = tuple(self._pairs)
        return found

    def settle(self) -> None:
        """Current: the casinos worked out again where tiles changed, their dice facts where dice did (``tied``
        then knows), the bosses by mask not made (what a quiet engine asks instead of ``boss_blocks``)."""
        if self.dirty:
            self.refresh()
        if self._stale:
            self._fill(False)

    def tied(self) -> list[tuple[Casino, DiceFacts]]:
        """The casinos where two or more players share the top die (boss None, two or more top lots), with
        their dice facts, in board order: usually none (a new list each call: it may be changed)."""
        if self.dirty:
            self.refresh()
        if self._stale:
            self._fill()
        out: list[tuple[Casino, DiceFacts]] = []
        tied = self._tied
        while tied:  # (only the blocks of its bits: the others' lists are stale)
            low = tied & -tied
            tied ^= low
            out.extend(self._tied_by[low.bit_length() - 1])
        return out

    def facts_of(self, casino: Casino) -> DiceFacts:
        """The dice facts of ``casino``, a current casino of this index (refreshed)."""
        first = casino.first
        found = self._facts[first]
        if found is None:
            if self._noting:
                self._note(self._facts, first)
            found = self._facts[first] = _facts_from(self._owners, self._values, casino)
        return found


def _with(block: list[Casino], casino: Casino, gone: int) -> list[Casino]:
    """A new list of the casinos of ``block`` (in board order) with no lot in ``gone``, and ``casino``, in board
    order of their first lot (no two share one): one list made in one pass (compiled; pure, ``_in_order``'s copy
    and insertion are C calls, where this loop is bytecodes)."""
    low = casino.low
    out: list[Casino] = []
    placed = False
    for c in block:
        if c.mask & gone:
            continue
        if not placed and c.low > low:
            out.append(casino)
            placed = True
        out.append(c)
    if not placed:
        out.append(casino)
    return out


def _in_order(kept: list[Casino], found: list[Casino]) -> list[Casino]:
    """A new list of the casinos of ``kept`` (in board order) and ``found``, in board order of their first lot
    (no two share one): an insertion for each found casino, with no key function to call."""
    out = list(kept)
    for casino in found:
        low = casino.low
        at = len(out)
        while at and out[at - 1].low > low:
            at -= 1
        out.insert(at, casino)
    return out


def casino_index(board: Board, state: GameState, join_rule: str) -> CasinoIndex:
    """The state's casino index under ``join_rule``, current (made on first use, and after ``drop_caches``)."""
    index = state._casinos
    if index is None or index.dirty or index.join_rule != join_rule:
        if board is not state.board and board.order != state.board.order:
            raise ValueError("casino_index: the state was made for another board")
        return state.casino_index(join_rule)
    return index


def dice_facts(state: GameState, casino: Casino) -> DiceFacts:
    """What the casino's dice say (kept by the state's index while it is one of its casinos)."""
    index = state._casinos
    if index is not None:
        if index.dirty:
            index.refresh()
        if index.at_bit[casino.first] is casino:
            return index.facts_of(casino)
    return _dice_facts(state, casino)


def _dice_facts(s: GameState, casino: Casino) -> DiceFacts:
    """What the dice on the casino's lots say, from the state's flat lists of die owners and values."""
    if casino.spaces != 1 and not casino.mask & s.dice_mask:
        return _NO_DICE
    return _facts_from(s.die_owners, s.die_values, casino)


def _facts_from(owners_at: list[int | None], values: list[int], casino: Casino) -> DiceFacts:
    """``_dice_facts`` from the flat lists of die owners and values by bit (what a casino index reads)."""
    if casino.spaces == 1:  # most casinos: one tile
        i = casino.bits[0]
        o = owners_at[i]
        return _NO_DICE if o is None else DiceFacts(values[i], casino.lots, o, (o,), values[i])
    if not _COMPILED:
        # pure: the bits iterated (no index kept: the top die's lot is read by its bit), ``in`` the owners' short list
        # (no mask by seat), and the boss None once two owners share the top (no flag): fewer bytecodes a die
        best = total = ntop = 0
        owners_p: list[int] = []
        boss: int | None = None
        top_i = casino.first
        for i in casino.bits:
            o = owners_at[i]
            if o is None:
                continue
            if o not in owners_p:
                owners_p.append(o)
            v = values[i]
            total += v
            if v > best:
                best = v
                top_i = i
                ntop = 1
                boss = o
            elif v == best:
                ntop += 1
                if o != boss:
                    boss = None
        if not owners_p:  # no die on the casino
            return _NO_DICE
        order = casino.board.order
        if ntop == 1:
            return DiceFacts(best, (order[top_i],), boss, tuple(owners_p), total)
        shared: list[str] = []
        for i in casino.bits:
            if owners_at[i] is not None and values[i] == best:
                shared.append(order[i])
        return DiceFacts(best, tuple(shared), boss, tuple(owners_p), total)
    # one pass for the top value, its owner(s), the owners and the pips; the top lots read again only where two or
    # more dice share the top (compiled: no list a new top value, and most casinos have one top die)
    best = 0
    top_at = 0  # the position (in ``bits``) of the first die of the top value
    ntop = 0  # how many dice show it
    owners: list[int] = []
    top_owner = -1
    tied = False
    total = 0
    seen = 0  # the owners met so far, as a mask by seat (compiled: native int tests, where ``in`` compares objects)
    bits, lots = casino.bits, casino.lots
    for k in range(len(bits)):  # an index, not zip: compiled, native reads of the two tuples
        i = bits[k]
        o = owners_at[i]
        if o is None:
            continue
        if not seen >> o & 1:
            seen |= 1 << o
            owners.append(o)
        v = values[i]
        total += v
        if v > best:
            best, top_at, ntop, top_owner, tied = v, k, 1, o, False
        elif v == best:
            ntop += 1
            if o != top_owner:
                tied = True
    if not owners:  # no die on the casino
        return _NO_DICE
    if ntop == 1:
        top_lots: tuple[str, ...] = (lots[top_at],)
    else:
        top: list[str] = []
        for k in range(top_at, len(bits)):
            i = bits[k]
            if owners_at[i] is not None and values[i] == best:
                top.append(lots[k])
        top_lots = tuple(top)
    return DiceFacts(best, top_lots, None if tied else top_owner, tuple(owners), total)


def boss(state: GameState, casino: Casino) -> int | None:
    """The owner of the single largest die; None if the casino has no dice (003 L257-259: no one owns it)
    or if players are still tied for the top value (only possible between a take-over and its reroll)."""
    return dice_facts(state, casino).boss


def pips(state: GameState, casino: Casino) -> int:
    return dice_facts(state, casino).pips


def has_die(state: GameState, casino: Casino, player: int) -> bool:
    return player in dice_facts(state, casino).owners


def frontier_mask(state: GameState, casino: Casino) -> int:
    """The lots without a tile next to ``casino``, as a mask."""
    return casino.around & ~state.tile_mask


def frontier(board: Board, state: GameState, casino: Casino) -> tuple[str, ...]:
    """The lots without a tile that share an edge with the casino (where it may sprawl, if nobody owns them),
    in the order of its lots and their neighbours."""
    return casino.frontier_lots(casino.around & ~state.tile_mask)
