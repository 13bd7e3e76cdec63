"""Game state: lots (markers), tiles (colour, height, die), players, the deck, turn state; kept as bitboards too.

Reading. ``s.tiles`` (lot -> ``Tile``) and ``s.markers`` (lot -> seat) are plain dicts, in the order the pieces
came onto the board (the order legal.py lists builds in); read them freely, never write them: every change
goes through the methods below, which keep the bitboards, the tile counts and the casino index in step.

Bitboards. Each lot is a bit (board.py: bit ``i`` is ``board.order[i]``; ``board.bit[lot]`` is ``1 << i``), a
set of lots an ``int``. The state keeps, always current:

- ``s.tile_mask``: the lots with a tile; ``s.color_bits[k]``: the tiles of colour ``board.colors[k]`` (``k`` is
  ``board.color_id[color]``); ``s.height_bits[h]``: the tiles ``h`` high (0 where none; the list may be longer than
  the highest tile); ``s.color_counts[k]``: how many tiles of that colour (no lookup by name, as the str-keyed
  dicts would be); ``s.color_masks`` and ``s.height_masks`` are the same as dicts (only colours and heights on the
  board are keys), made on each read;
- ``s.markers_mask``: the lots with a marker; ``s.marker_masks[seat]``: each player's markers;
- ``s.dice_mask``: the tiles with a die; ``s.dice_masks[seat]``: each player's dice
  (``marker_masks``/``dice_masks`` are indexed by seat and may be longer than ``players``: the extra are 0);
- flat lists indexed by bit: ``s.tile_colors[i]`` (None: no tile), ``s.tile_heights[i]`` (0: no tile),
  ``s.die_values[i]`` (0: no die) and ``s.die_owners[i]`` (None: no die).

So ``s.marker_masks[p].bit_count()`` is how many markers ``p`` has on the board (``marker_count``), and
``s.marker_masks[p] & ~s.board.block_mask["F"] & s.board.price_at_most(money)`` the lots ``p`` could build on.

Structure. ``s.structure`` is a stamp that any change of a tile's place, colour or height renews (stamps are
unique across states, so two states with one stamp have the same tiles in the same places, colours and heights);
``structure_memo()`` is a scratch dict kept until it changes.

Casinos. The state owns its ``CasinoIndex`` (casinos.py): ``s.casino_index(join_rule)``. The change methods tell
it which tiles or which dice changed; it works out again only the casinos they touched, when next asked.

Undo, two ways. ``saved = s.copy()`` is a complete, independent copy (its casino index copied on its first use,
from the index it was copied with while that has not changed, else made anew); ``s.restore(saved)``
puts ``s`` back as it was when ``saved`` was made (``saved`` is used up). ``mark = s.checkpoint()`` copies nothing:
from then on the change methods note what they change (the old tile of each lot; the small dicts and the markers
copied on their first change), the casino index notes what it writes, and ``s.rollback(mark)`` puts back exactly
the state of the checkpoint, index and caches included (what ``Game.push``/``pop`` use: a search's try and take
back, python-chess's ``push``/``pop``). Checkpoints nest; the last is rolled back first. The fields the engine
writes directly (money, points, the deck, the turn's counters) are saved whole at the checkpoint: they are few.
"""

from __future__ import annotations

import copy
from typing import Any, Final, Iterable

from mypy_extensions import mypyc_attr

from .board import Board, load_board, popcount
from .casinos import _VERSIONS, CasinoIndex, IndexMark, make_room

# the last structure stamp given (stamps are unique across every state of the process): a ``Serial``, not
# itertools.count, so that compiled code takes the next one natively, not through a call of builtins.next. The casino
# indexes' series of versions (casinos.py), so that a stamp just given is a new version too: pure, a tile change tells
# the index with the state's stamp (``place_tile``), not a number of its own
_STAMPS: Final = _VERSIONS
_COMPILED: Final = not __file__.endswith(".py")  # a module compiled by mypyc loads from a .so/.pyd


# what a new state's derived containers are until _derive or copy() gives each its own: never written
_NONE: Final[list[Any]] = []
_HEIGHTS: Final = 8  # a new state's list of masks by height: heights 0 to 7 (it grows if a tile is higher)


# acyclic (out of the cyclic collector in the compiled build): holds a string, ints and None
@mypyc_attr(acyclic=True)
class Tile:
    """A casino tile on a lot: its colour, height (1 + risers) and die (owner and face; None, None: no die).
    A value: never changed once made (the state's methods put a new one in its place); compared and hashed by
    its fields."""

    __slots__ = ("color", "height", "owner", "value")  # (pure, no instance dict: made without one)

    def __init__(self, color: str, height: int = 1, owner: int | None = None, value: int | None = None) -> None:
        self.color: Final = color
        self.height: Final = height
        self.owner: Final = owner  # player index of the die on it; None = no die (nobody owns the tile)
        self.value: Final = value  # the die's face

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return (self.color == other.color and self.height == other.height and self.owner == other.owner
                and self.value == other.value)

    def __hash__(self) -> int:
        return hash((self.color, self.height, self.owner, self.value))

    def __repr__(self) -> str:
        return f"Tile(color={self.color!r}, height={self.height!r}, owner={self.owner!r}, value={self.value!r})"

    def __deepcopy__(self, memo: dict[int, Any]) -> Tile:
        return self  # a value


# pure, the tiles made so far by their fields (a ``Tile`` is a value): the state's methods hand out the one made before
# rather than make each anew (a Python ``__init__``'s frame, ~2,000 instructions, 92 tiles a reference game, and an
# instance more for the cyclic collector to walk at the game's end); a cache hit is a tuple made and looked up. Bounded
# by the profile's colours, heights and dice; cleared if a long run of odd profiles ever grows it past ``_TILES_MAX``.
# Compiled, a native Tile is made in C: made anew
_TILES: Final[dict[tuple[str, int, int | None, int | None], Tile]] = {}
_TILES_MAX: Final = 50_000


def _tile(color: str, height: int, owner: int | None, value: int | None) -> Tile:
    """``Tile(color, height, owner, value)``, the one made before if any (pure: see ``_TILES``; compiled, made)."""
    if _COMPILED:
        return Tile(color, height, owner, value)
    key = (color, height, owner, value)
    found = _TILES.get(key)
    if found is None:
        if len(_TILES) >= _TILES_MAX:
            _TILES.clear()
        found = _TILES[key] = Tile(color, height, owner, value)
    return found


# acyclic (out of the cyclic collector in the compiled build): holds a string and ints
@mypyc_attr(acyclic=True)
class PlayerState:
    """A player: name, money, points. A plain class (a native one where the core is compiled)."""

    def __init__(self, name: str, money: int = 0, score: int = 0) -> None:
        self.name = name
        self.money = money
        self.score = score

    def copy(self) -> PlayerState:
        return PlayerState(self.name, self.money, self.score)

    def __deepcopy__(self, memo: dict[int, Any]) -> PlayerState:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerState):
            return NotImplemented
        return (self.name, self.money, self.score) == (other.name, other.money, other.score)

    __hash__ = None  # type: ignore[assignment]  # mutable, like the attrs class it was

    def __repr__(self) -> str:
        return f"PlayerState(name={self.name!r}, money={self.money!r}, score={self.score!r})"


# "instant win": the top space of the score track (end.instant_win_points, 90 in both editions)
ENDINGS = {"end_card": "the end card", "instant_win": "an instant win", "deck_exhausted": "no cards left"}


def ending(reason: str) -> str:
    """How a game ended (a ``Result``'s ``reason``), in words: ``end_card`` -> "the end card". Here rather than
    in narrative.py: render.py words it too, and stands below the game, which draws itself with it."""
    return ENDINGS.get(reason, reason.replace("_", " "))


# acyclic (out of the cyclic collector in the compiled build): holds strings, ints, a list of ints, a tuple of strings
@mypyc_attr(acyclic=True)
class Result:
    """How a game ended: why, who won and everyone's place, by seat number and, through the properties, by name.

    ``reason`` is ``"end_card"``, ``"instant_win"`` or ``"deck_exhausted"``; ``winner`` and ``ranking`` are seat
    numbers (0 = the first player listed), the ranking best first (points, then money). ``names`` (the players'
    names, in seat order) is not compared."""

    def __init__(self, reason: str, winner: int, ranking: list[int], names: tuple[str, ...] = ()) -> None:
        self.reason = reason
        self.winner = winner
        self.ranking = ranking
        self.names = names

    @property
    def winner_name(self) -> str:
        """The winner's name."""
        return self.names[self.winner]

    @property
    def ranking_names(self) -> list[str]:
        """The players' names, best first."""
        return [self.names[i] for i in self.ranking]

    def __deepcopy__(self, memo: dict[int, Any]) -> Result:
        return Result(self.reason, self.winner, list(self.ranking), self.names)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return (self.reason, self.winner, self.ranking) == (other.reason, other.winner, other.ranking)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Result(reason={self.reason!r}, winner={self.winner!r}, ranking={self.ranking!r})"


class GameState:
    """The state of a game (see the module's docstring). A plain class with every attribute declared, so that the
    compiled core reads it as a C struct; the compared and shown fields are those of ``COMPARED``."""

    def __init__(self, players: list[PlayerState], markers: dict[str, int] | None = None,
                 tiles: dict[str, Tile] | None = None, deck: list[str] | None = None,
                 discards: list[str] | None = None, turn: int = 0, current: int = 0, phase: str = "setup",
                 drawn: list[str] | None = None, gambles: int = 0, reorganized: set[str] | None = None,
                 result: Result | None = None, pending: dict[str, Any] | None = None, structure: int = 0,
                 board: Board | None = None, *, derive: bool = True) -> None:
        self.players = players
        self.markers: dict[str, int] = {} if markers is None else markers  # lot -> owner; write with put_marker
        self.tiles: dict[str, Tile] = {} if tiles is None else tiles  # lot -> tile; write with place_tile & co.
        self.deck: list[str] = [] if deck is None else deck  # draw pile, top first; "END" is the end card
        self.discards: list[str] = [] if discards is None else discards  # cards drawn or dealt, in order
        self.turn = turn  # 1-based once play starts
        self.current = current  # whose turn
        self.phase = phase  # "setup", "draw", "actions", "over"; at a table also "reroll", "choice" (see pending)
        self.drawn: list[str] = [] if drawn is None else drawn  # cards drawn this turn
        self.gambles = gambles  # gambles taken this turn
        # lots reorganized this turn (added to through ``reorganizing``, which a checkpoint needs)
        self.reorganized: set[str] = set() if reorganized is None else reorganized
        self.result = result
        # the draw waiting for a decision at a table (phase "reroll" or "choice"): what it waits for and how to
        # go on
        self.pending = pending
        self.structure = structure  # renewed by any change to where tiles are, their colour or height
        self.board: Board = load_board() if board is None else board
        # ---- derived from tiles and markers, kept current by the change methods (see the module docstring);
        # _NONE until then: _derive or copy() gives each its own container (none made here to be
        # dropped at once)
        self.tile_mask = 0
        self.color_bits: list[int] = _NONE  # colour number (board.color_id) -> the mask of its tiles
        self.height_bits: list[int] = _NONE  # height -> the mask of the tiles that high
        self.color_counts: list[int] = _NONE  # colour number -> its tiles on the board (the bits of color_bits)
        self.markers_mask = 0
        self.marker_masks: list[int] = _NONE
        self.dice_mask = 0
        self.dice_masks: list[int] = _NONE
        self.tile_colors: list[str | None] = _NONE
        self.tile_heights: list[int] = _NONE
        self.die_values: list[int] = _NONE
        self.die_owners: list[int | None] = _NONE
        self._memo: tuple[int, dict[str, Any]] | None = None  # (structure, {key: value}): see structure_memo
        self._casinos: CasinoIndex | None = None  # made on first use (casino_index)
        # a copy's index, not copied yet: the index of the state it was copied from, and that index's version then
        # (copied on first use if it is still at that version, else made anew; see copy())
        self._casinos_from: CasinoIndex | None = None
        self._casinos_at = 0
        self._holes = 0  # markers taken off the board since ``markers`` was last made without holes (see copy())
        self._undo: Undo | None = None  # the last checkpoint not rolled back (see the module's docstring)
        self._spare: Undo | None = None  # a checkpoint rolled back, made again by the next (see checkpoint)
        if not derive:  # copy() sets the derived facts itself
            return
        self._derive()
        if self.tiles and not self.structure:
            _STAMPS.last += 1
            self.structure = _STAMPS.last

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in COMPARED)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "GameState(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in COMPARED) + ")"

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        """``copy()``, with a deep copy of ``pending`` (a compiled class has no default deep copy)."""
        twin = self.copy()
        memo[id(self)] = twin
        twin.pending = copy.deepcopy(self.pending, memo)
        twin._casinos_from = None  # made anew on first use, not copied from this state's
        return twin

    def _derive(self) -> None:
        """Work out every derived fact afresh from ``tiles`` and ``markers``."""
        u = self._undo
        while u is not None:  # a checkpoint's rollback works them out again too (drop_caches since it: rare)
            u.derived = True
            u = u.parent
        board = self.board
        seats = max(len(self.players), 6)
        self.tile_mask = self.markers_mask = self.dice_mask = 0
        color_id = board.color_id
        colors, heights = self.color_bits, self.height_bits = [0] * len(board.colors), [0] * _HEIGHTS
        counts = self.color_counts = [0] * len(board.colors)
        self.marker_masks, self.dice_masks = [0] * seats, [0] * seats
        self.die_values, self.die_owners = [0] * len(board.order), [None] * len(board.order)
        self.tile_colors, self.tile_heights = [None] * len(board.order), [0] * len(board.order)
        self._memo = None
        self._casinos = self._casinos_from = None
        index = board.index
        for lot, t in self.tiles.items():
            i = index[lot]
            b = 1 << i
            self.tile_mask |= b
            self.tile_colors[i], self.tile_heights[i] = t.color, t.height
            k = color_id[t.color]
            colors[k] = colors[k] | b
            counts[k] = counts[k] + 1
            if t.height >= len(heights):
                self._seat(heights, t.height)
            heights[t.height] = heights[t.height] | b
            if t.owner is not None:
                self._seat(self.dice_masks, t.owner)
                self.dice_masks[t.owner] = self.dice_masks[t.owner] | b
                self.dice_mask |= b
                self.die_owners[i] = t.owner
                self.die_values[i] = t.value or 0
        for lot, owner in self.markers.items():
            self._seat(self.marker_masks, owner)
            self.marker_masks[owner] = self.marker_masks[owner] | 1 << index[lot]
            self.markers_mask |= 1 << index[lot]

    @staticmethod
    def _seat(masks: list[int], seat: int) -> None:
        if seat >= len(masks):
            masks.extend([0] * (seat + 1 - len(masks)))

    # ---- undo: one copy, one restore
    def copy(self) -> GameState:
        """A complete copy that shares nothing mutable with this state (tiles and casinos are immutable values)."""
        markers = self.markers
        if self._holes:  # markers taken off leave holes in the dict, and CPython copies a dict with many holes key by
            #              key (one with few by a block copy): the state keeps a dict without holes, made once
            markers = self.markers = markers.copy()
            self._holes = 0
        # slices and dict.copy(): the block copies (list() and dict() of a list or dict are generic calls compiled)
        twin = GameState([p.copy() for p in self.players], markers.copy(), self.tiles.copy(), self.deck[:],
                         self.discards[:], self.turn, self.current, self.phase, self.drawn[:], self.gambles,
                         self.reorganized.copy(), self.result, self.pending, self.structure, self.board, derive=False)
        # the derived facts are copied, not worked out again (derive=False)
        twin.tile_mask = self.tile_mask
        twin.color_bits = self.color_bits[:]
        twin.height_bits = self.height_bits[:]
        twin.color_counts = self.color_counts[:]
        twin.markers_mask = self.markers_mask
        twin.marker_masks = self.marker_masks[:]
        twin.dice_mask = self.dice_mask
        twin.dice_masks = self.dice_masks[:]
        twin.tile_colors = self.tile_colors[:]
        twin.tile_heights = self.tile_heights[:]
        twin.die_values = self.die_values[:]
        twin.die_owners = self.die_owners[:]
        twin._memo = self._memo  # keyed by the structure stamp: safe to share (see the docstring)
        # the casino index copied on the copy's first use of it (a copy dropped unused, a trial, copies none): what
        # it is copied from is this state's index while that stays at its version (every change renews it; the
        # index itself is not changed otherwise but to fill its caches, which hold for the copy too)
        index = self._casinos
        if index is not None:
            twin._casinos_from, twin._casinos_at = index, index.changes
        else:
            twin._casinos_from, twin._casinos_at = self._casinos_from, self._casinos_at
        return twin

    def _adopt(self) -> CasinoIndex | None:
        """This copy's index, copied now from the one it was copied with if that is still at its version (None:
        it changed since, to be made anew)."""
        source = self._casinos_from
        self._casinos_from = None
        if source is None or source.changes != self._casinos_at:
            return None
        index = self._casinos = source.copy(self)
        return index

    def restore(self, saved: GameState) -> None:
        """Put this state back as it was when ``saved = self.copy()`` was made. ``saved`` is used up: its parts
        now belong to this state. A checkpoint made before ``saved`` stays good (``rollback`` puts back by
        content); one made after it is given up by the caller (``Game.apply``'s own copies are made and restored
        within one decision)."""
        # every attribute (FIELDS), one by one: a compiled class sets each as a struct field
        self.players = saved.players
        self.markers = saved.markers
        self._holes = saved._holes
        self.tiles = saved.tiles
        self.deck = saved.deck
        self.discards = saved.discards
        self.turn = saved.turn
        self.current = saved.current
        self.phase = saved.phase
        self.drawn = saved.drawn
        self.gambles = saved.gambles
        self.reorganized = saved.reorganized
        self.result = saved.result
        self.pending = saved.pending
        self.structure = saved.structure
        self.board = saved.board
        self.tile_mask = saved.tile_mask
        self.color_bits = saved.color_bits
        self.height_bits = saved.height_bits
        self.color_counts = saved.color_counts
        self.markers_mask = saved.markers_mask
        self.marker_masks = saved.marker_masks
        self.dice_mask = saved.dice_mask
        self.dice_masks = saved.dice_masks
        self.tile_colors = saved.tile_colors
        self.tile_heights = saved.tile_heights
        self.die_values = saved.die_values
        self.die_owners = saved.die_owners
        self._memo = saved._memo
        self._casinos = saved._casinos  # it reads saved's lists and masks, now this state's
        self._casinos_from, self._casinos_at = saved._casinos_from, saved._casinos_at

    def checkpoint(self) -> Undo:
        """Start noting changes: ``rollback(mark)`` puts the state back as it is now (see the module's docstring).
        Nothing is copied but the few fields the engine writes directly. A checkpoint rolled back is used up: the
        next one is made in it again (a search's push/pop allocates and frees no checkpoint, nor its lists)."""
        u = self._spare
        spare: IndexMark | None = None
        if u is None:
            u = Undo(self, self._undo)
        else:
            self._spare = None
            spare = u.index_mark  # (its index's mark, used up as well: made again)
            u.start(self, self._undo)
        self._undo = u
        index = self._casinos
        if index is not None:
            u.index_mark = index.checkpoint(spare)
        return u

    def rollback(self, u: Undo) -> None:
        """Put the state back as it was at ``u = checkpoint()``, the last checkpoint not rolled back."""
        if u is not self._undo:
            raise ValueError("rollback: not the last checkpoint of this state")
        tiles, order, colors, heights = self.tiles, self.board.order, self.tile_colors, self.tile_heights
        values, owners = self.die_values, self.die_owners
        changed = u.changed
        k = u.noted if _COMPILED else len(changed)
        while k:  # each lot's tile before each change, the last change first: the first one's old tile stays
            k -= 2
            i: int = changed[k]
            old: Tile | None = changed[k + 1]
            lot = order[i]
            if old is None:  # a tile placed since (the last placed: the dict's order is put back)
                tiles.pop(lot, None)
                colors[i], heights[i], values[i], owners[i] = None, 0, 0, None
            else:
                tiles[lot] = old
                owner = old.owner
                colors[i], heights[i], owners[i] = old.color, old.height, owner
                values[i] = 0 if owner is None else old.value or 0  # as _die has it
        if u.markers is not None:
            self.markers, self._holes = u.markers, u.holes
        if u.derived:  # drop_caches since the checkpoint: every derived fact from the tiles and markers put back
            self._derive()
        if u.color_bits is not None:
            self.color_bits, self.color_counts = u.color_bits, u.color_counts
        if u.height_bits is not None:
            self.height_bits = u.height_bits
        if u.marker_masks is not None:
            self.marker_masks = u.marker_masks
        if u.dice_masks is not None:
            self.dice_masks = u.dice_masks
        self.tile_mask, self.markers_mask, self.dice_mask = u.tile_mask, u.markers_mask, u.dice_mask
        self.turn, self.current, self.phase, self.gambles = u.turn, u.current, u.phase, u.gambles
        self.result, self.pending, self.structure, self._memo = u.result, u.pending, u.structure, u.memo
        players = self.players
        seats = u.seats
        if seats >= 0:  # (compiled, up to six players: their money and points from native fields, see ``Undo``)
            if seats > 0:
                p = players[0]
                p.money, p.score = u.money0, u.score0
            if seats > 1:
                p = players[1]
                p.money, p.score = u.money1, u.score1
            if seats > 2:
                p = players[2]
                p.money, p.score = u.money2, u.score2
            if seats > 3:
                p = players[3]
                p.money, p.score = u.money3, u.score3
            if seats > 4:
                p = players[4]
                p.money, p.score = u.money4, u.score4
            if seats > 5:
                p = players[5]
                p.money, p.score = u.money5, u.score5
        else:
            money, scores = u.money, u.scores
            for j in range(len(players)):
                p = players[j]
                p.money, p.score = money[j], scores[j]
        self.deck = u.deck
        discards = self.discards = u.discards
        if len(discards) != u.discards_len:  # (a slice deleted is a generic call compiled: only if there is one)
            del discards[u.discards_len:]
        drawn = self.drawn = u.drawn
        if len(drawn) != u.drawn_len:
            del drawn[u.drawn_len:]
        self.reorganized = u.reorganized  # (added to since only in a copy: ``reorganizing``)
        self._casinos_from, self._casinos_at = u.index_from, u.index_at
        was = self._casinos = u.index
        if was is not None:
            mark = u.index_mark
            assert mark is not None
            was.rollback(mark)
            # the state's containers may be others than at the checkpoint (the masks by colour and height put back,
            # a restore, a copy); compiled, those masks handed over and the rest compared first (native reads, where
            # eight stores free what they replace); pure, read again (a method call costs more bytecodes)
            if not _COMPILED:
                was._reads(self)
            else:
                if u.color_bits is not None:  # (put back above: the index read the copies)
                    was._color_bits = self.color_bits
                if u.height_bits is not None:
                    was._height_bits = self.height_bits
                if not was.reads(self):
                    was._reads(self)
        self._undo = u.parent
        u.parent = None
        self._spare = u  # used up: the next checkpoint is made in it

    def changing_deck(self) -> list[str]:
        """The deck, to be changed in place (a draw takes its cards from it): copied first if the last checkpoint
        keeps this very list (``Undo.deck``: a checkpoint copies the deck only when a draw changes it)."""
        deck = self.deck
        u = self._undo
        if u is not None and u.deck is deck:
            deck = self.deck = deck[:]
        return deck

    def reorganizing(self) -> set[str]:
        """The lots reorganized this turn, to be added to in place (a reorganization, a counted tie reroll): copied
        first if the last checkpoint keeps this very set (``Undo.reorganized``: a checkpoint copies it only when a
        decision adds to it)."""
        reorganized = self.reorganized
        u = self._undo
        if u is not None and u.reorganized is reorganized:
            reorganized = self.reorganized = set(reorganized)
        return reorganized

    def _noting_colors(self, u: Undo) -> None:
        """The first change of a tile's colour since the checkpoint ``u`` (a tile placed, a remodel): the masks
        and counts by colour are copied, the checkpoint keeps the ones it had (and the casino index reads the copy)."""
        colors = u.color_bits = self.color_bits
        u.color_counts = self.color_counts
        self.color_counts = self.color_counts[:]
        colors = self.color_bits = colors[:]
        index = self._casinos
        if index is not None:
            index._color_bits = colors

    def _noting_heights(self, u: Undo) -> None:
        """The first change of a tile's height since the checkpoint ``u`` (a tile placed, a raise): the masks by
        height are copied, the checkpoint keeps the ones it had (and the casino index reads the copy). (Apart from
        the colours': a remodel copies no masks by height, a raise none by colour.)"""
        heights = u.height_bits = self.height_bits
        heights = self.height_bits = heights[:]
        index = self._casinos
        if index is not None:
            index._height_bits = heights

    def _noting_dice(self, u: Undo) -> None:
        """The first change of a die since the checkpoint ``u`` (``place_tile``, ``set_die``, before ``_die``): the
        dice masks by seat are copied, the checkpoint keeps the ones it had."""
        u.dice_masks = self.dice_masks
        self.dice_masks = self.dice_masks[:]

    def _noting_markers(self, u: Undo) -> None:
        """The first change of a marker since the checkpoint ``u``: the markers' dict (a removed marker goes back to
        its place in the order) and the markers' masks by seat are copied, the checkpoint keeps the ones it had (the
        dict, or the same markers in the same order without holes: see below)."""
        markers = self.markers
        if self._holes:  # markers taken off since the dict was last made without holes: CPython copies it key by key
            #              (~3,000 instructions), a dict without holes by a block copy. Made without them now, once: the
            #              checkpoint keeps that one (the same markers in the same order) and the rollback puts it back, so
            #              the next checkpoint's copy is a block copy (a search's push/pop of builds: one each)
            markers = markers.copy()
        u.markers, u.holes = markers, 0
        self.markers = markers.copy()
        self._holes = 0
        u.marker_masks = self.marker_masks
        self.marker_masks = self.marker_masks[:]

    def structure_memo(self) -> dict[str, Any]:
        """A scratch dict for facts that depend only on the tiles' places, colours and heights (legal.py keeps
        its tile facts there): emptied when those change."""
        memo = self._memo
        if memo is None or memo[0] != self.structure:
            memo = self._memo = (self.structure, {})
        return memo[1]

    def drop_caches(self) -> None:
        """Forget every derived fact and work it out again from ``tiles`` and ``markers``."""
        structure = self.structure
        self._derive()
        self.structure = structure

    # ---- casinos
    def casino_index(self, join_rule: str) -> CasinoIndex:
        """The casinos of this state under ``join_rule`` ("color" or "color_and_height"), current."""
        index = self._casinos
        if index is None and self._casinos_from is not None:
            index = self._adopt()
        if index is None or index.join_rule != join_rule:
            index = self._casinos = CasinoIndex(self, join_rule)
        elif index.dirty:
            index.refresh()
        return index

    # ---- pieces
    def markers_on_board(self, player: int) -> list[str]:
        """The lots with ``player``'s markers, in board order."""
        masks = self.marker_masks
        return self.board.lots_of(masks[player]) if player < len(masks) else []

    def dice_on_board(self, player: int) -> list[str]:
        """The lots with ``player``'s dice, in board order."""
        masks = self.dice_masks
        return self.board.lots_of(masks[player]) if player < len(masks) else []

    def marker_count(self, player: int) -> int:
        """How many of ``player``'s markers are on the board."""
        masks = self.marker_masks
        if player >= len(masks):
            return 0
        # compiled, a native count (``bit_count`` is a Python method call there); pure, the method (no extra call)
        return popcount(masks[player]) if _COMPILED else masks[player].bit_count()

    def dice_count(self, player: int) -> int:
        """How many of ``player``'s dice are on the board."""
        masks = self.dice_masks
        if player >= len(masks):
            return 0
        # compiled, a native count (``bit_count`` is a Python method call there); pure, the method (no extra call)
        return popcount(masks[player]) if _COMPILED else masks[player].bit_count()

    def tiles_on_board(self, color: str) -> int:
        """How many tiles of ``color`` are on the board."""
        k = self.board.color_id.get(color)
        return 0 if k is None else self.color_counts[k]

    def tile_counts(self) -> dict[str, int]:
        """Tiles on the board per colour (colours on the board only), in the board's colour order: a new dict."""
        colors = self.board.colors
        return {colors[k]: n for k, n in enumerate(self.color_counts) if n}

    @property
    def color_masks(self) -> dict[str, int]:
        """Colour -> the mask of its tiles (colours on the board only): ``color_bits`` as a new dict."""
        colors = self.board.colors
        return {colors[k]: m for k, m in enumerate(self.color_bits) if m}

    @property
    def height_masks(self) -> dict[int, int]:
        """Height -> the mask of the tiles that high (heights on the board only): ``height_bits`` as a new dict."""
        return {h: m for h, m in enumerate(self.height_bits) if m}

    # ---- structural changes (always through these, so the bitboards and casinos stay right)
    def place_tile(self, lot: str, color: str, height: int, owner: int | None, value: int | None) -> None:
        """A tile ``color``, ``height`` high, with ``owner``'s die showing ``value`` (None, None: no die) goes on
        ``lot`` (over the tile there, if any)."""
        board = self.board
        i = board.index[lot]
        b = 1 << i
        old = self.tiles.get(lot) if self.tile_mask & b else None  # (most tiles go on an empty lot: no lookup)
        u = self._undo
        if u is not None:
            u.note(i, old)
            if u.color_bits is None:
                self._noting_colors(u)
            if u.height_bits is None:
                self._noting_heights(u)
            if u.dice_masks is None:
                self._noting_dice(u)
        if old is not None:
            self._take_tile(old, b)
        if _COMPILED:
            self.tiles[lot] = _tile(color, height, owner, value)
        else:  # (pure: the tile made before looked up here, see _TILES: no call where it is found)
            self.tiles[lot] = _TILES.get((color, height, owner, value)) or _tile(color, height, owner, value)
        # the masks by colour number and height: list items, read then written (see _die)
        colors, heights = self.color_bits, self.height_bits
        k = board.color_id[color]
        colors[k] = colors[k] | b
        counts = self.color_counts
        counts[k] = counts[k] + 1
        try:  # (a height past the list's end is rare: no length compared each time; pure, a try costs one bytecode)
            heights[height] = heights[height] | b
        except IndexError:
            self._seat(heights, height)
            heights[height] = heights[height] | b
        self.tile_mask |= b
        self.tile_colors[i] = color
        self.tile_heights[i] = height
        if _COMPILED or old is not None or owner is None:
            self._die(i, b, owner, value)
        else:  # pure, a die on a lot that had no tile, so no die: ``_die`` written out, no call
            masks = self.dice_masks
            try:  # (a seat past the list's end is rare: see the heights above)
                masks[owner] = masks[owner] | b
            except IndexError:
                self._seat(masks, owner)
                masks[owner] = masks[owner] | b
            self.dice_mask |= b
            self.die_values[i] = value or 0
            self.die_owners[i] = owner
        stamp = _STAMPS.last + 1  # (the next stamp written where it is kept: no in-place add read again)
        _STAMPS.last = self.structure = stamp
        index = self._casinos
        if index is None and self._casinos_from is not None:
            index = self._adopt()
        if index is not None:
            if _COMPILED:
                index.tiles_changed(b)
                if old is not None:
                    index.die_changed(i)  # the casino on the lot may keep its lots, with another die
            else:  # pure, ``tiles_changed`` written out (no call), the stamp its version (see _STAMPS); a tile alone
                #      worked out at once where the index can (``CasinoIndex.tile_alone``), else its lot marked dirty
                #      (``old`` tested once)
                index._tile_mask |= b
                index.changes = stamp
                index._all = index._with_dice = index._bosses = None
                if old is not None:
                    index.dirty |= b
                    index.die_changed(i)  # (as above)
                elif not index.tile_alone(i, b, color, height):
                    index.dirty |= b

    def recolor(self, lots: Iterable[str], color: str, bits: tuple[int, ...] = ()) -> None:
        """The tiles on ``lots`` take the colour ``color`` (a remodel). ``bits``: the lots' bit positions, if the
        caller has them (a casino's ``bits``; then ``lots`` is not read): no lookup of each lot's bit."""
        u = self._undo
        if u is not None and u.color_bits is None:
            self._noting_colors(u)
        tiles = self.tiles  # (one a statement: no tuple packed and unpacked)
        masks = self.color_bits
        colors = self.tile_colors
        counts = self.color_counts
        board = self.board
        color_id, order = board.color_id, board.order
        k = color_id[color]
        changed = 0
        for i in bits if bits else _bits_of(board, lots):
            lot = order[i]
            t = tiles[lot]
            if u is not None:
                u.note(i, t)
            if _COMPILED:
                tiles[lot] = _tile(color, t.height, t.owner, t.value)
            else:  # (pure: see place_tile)
                tiles[lot] = _TILES.get((color, t.height, t.owner, t.value)) or _tile(color, t.height, t.owner, t.value)
            b = 1 << i
            changed |= b
            colors[i] = color
            was = color_id[t.color]
            masks[was] = masks[was] & ~b
            masks[k] = masks[k] | b
            counts[was] = counts[was] - 1
            counts[k] = counts[k] + 1
        stamp = _STAMPS.last + 1  # (the next stamp written where it is kept: no in-place add read again)
        _STAMPS.last = self.structure = stamp
        kept = self._casinos
        if kept is None and self._casinos_from is not None:
            kept = self._adopt()
        if kept is not None and changed:
            if _COMPILED:
                kept.tiles_changed(changed)
            else:  # (pure: told with the stamp as its version, worked out at once where it can: ``recast``; ``i``
                #      and its tile ``t``: the loop's last)
                kept.recast(changed, stamp, i, color, t.height)

    def raise_tiles(self, lots: Iterable[str], bits: tuple[int, ...] = ()) -> None:
        """The tiles on ``lots`` are one level higher (a raise). ``bits``: as ``recolor``'s."""
        u = self._undo
        if u is not None and u.height_bits is None:
            self._noting_heights(u)
        tiles, masks, heights = self.tiles, self.height_bits, self.tile_heights
        board = self.board
        order = board.order
        changed = 0
        for i in bits if bits else _bits_of(board, lots):
            lot = order[i]
            t = tiles[lot]
            if u is not None:
                u.note(i, t)
            if _COMPILED:
                tiles[lot] = _tile(t.color, t.height + 1, t.owner, t.value)
            else:  # (pure: see place_tile)
                tiles[lot] = (_TILES.get((t.color, t.height + 1, t.owner, t.value))
                              or _tile(t.color, t.height + 1, t.owner, t.value))
            b = 1 << i
            changed |= b
            h = t.height
            heights[i] = h + 1
            if h + 1 >= len(masks):
                self._seat(masks, h + 1)
            masks[h] = masks[h] & ~b
            masks[h + 1] = masks[h + 1] | b
        stamp = _STAMPS.last + 1  # (the next stamp written where it is kept: no in-place add read again)
        _STAMPS.last = self.structure = stamp
        kept = self._casinos
        if kept is None and self._casinos_from is not None:
            kept = self._adopt()
        if kept is not None and changed:
            if _COMPILED:
                kept.tiles_changed(changed)
            else:  # (pure: see recolor)
                kept.recast(changed, stamp, i, t.color, t.height + 1)

    def _take_tile(self, old: Tile, b: int) -> None:
        colors, heights, counts = self.color_bits, self.height_bits, self.color_counts
        k = self.board.color_id[old.color]
        colors[k] = colors[k] & ~b
        counts[k] = counts[k] - 1
        heights[old.height] = heights[old.height] & ~b

    def _die(self, i: int, b: int, owner: int | None, value: int | None) -> None:
        """Bit ``i`` (mask ``b``) now holds ``owner``'s die showing ``value`` (or no die): the dice bitboards. (A
        seat's mask is read, then written: compiled, ``masks[seat] |= b`` is a generic in-place operation on boxed
        ints, some hundreds of instructions.)"""
        previous = self.die_owners[i]
        masks = self.dice_masks  # (the checkpoint's copy made by the caller: _noting_dice)
        if previous is not None:
            masks[previous] = masks[previous] & ~b
        if owner is None:
            self.dice_mask &= ~b
            self.die_values[i] = 0
        else:
            if owner >= len(masks):
                self._seat(masks, owner)
            masks[owner] = masks[owner] | b
            self.dice_mask |= b
            self.die_values[i] = value or 0
        self.die_owners[i] = owner

    # ---- markers (always through these, so whatever the state derives from them stays right)
    def put_marker(self, lot: str, player: int, at: int = -1) -> None:
        """``player``'s marker goes on the empty lot ``lot`` (a parking lot). ``at``: the lot's bit if the caller has
        it (the draw's take-over; -1: looked up)."""
        b = self.board.bit[lot] if at < 0 else 1 << at
        u = self._undo
        if u is not None and u.markers is None:
            self._noting_markers(u)
        previous = self.markers.get(lot) if self.markers_mask & b else None  # (most lots are empty: no lookup)
        masks = self.marker_masks  # (read, then written: see _die)
        if previous is not None:
            masks[previous] = masks[previous] & ~b
        self.markers[lot] = player
        try:  # (a seat past the list's end is rare: no length compared each time, see place_tile)
            masks[player] = masks[player] | b
        except IndexError:
            self._seat(masks, player)
            masks[player] = masks[player] | b
        self.markers_mask |= b

    def remove_marker(self, lot: str) -> None:
        """The marker on ``lot`` leaves the board."""
        u = self._undo
        if u is not None and u.markers is None:
            self._noting_markers(u)
        owner = self.markers.pop(lot)
        self._holes += 1
        b = self.board.bit[lot]
        masks = self.marker_masks  # (read, then written: see _die)
        masks[owner] = masks[owner] & ~b
        self.markers_mask &= ~b

    # ---- dice (always through this, so the bosses stay right)
    def set_die(self, lot: str, owner: int | None, value: int | None, at: int = -1, tile: Tile | None = None
                ) -> None:
        """Put ``owner``'s die showing ``value`` on the tile at ``lot`` (None, None: take the die away). ``at`` and
        ``tile``: the lot's bit and its tile if the caller has them (the draw's take-over; -1, None: looked up)."""
        i = self.board.index[lot] if at < 0 else at
        t = self.tiles[lot] if tile is None else tile
        u = self._undo
        if u is not None:
            u.note(i, t)
            if u.dice_masks is None:
                self._noting_dice(u)
        self.tiles[lot] = _tile(t.color, t.height, owner, value)
        self._die(i, 1 << i, owner, value)
        index = self._casinos
        if index is None and self._casinos_from is not None:
            index = self._adopt()
        if index is not None:
            if _COMPILED or u is not None:
                index.die_changed(i)
            else:  # pure, no checkpoint: its casino's dice facts changed in place (see reroll)
                index.dice_changed(1 << i)

    def reroll(self, values: dict[str, int]) -> None:
        """The dice on the lots of ``values`` (lot -> value; lots with a die) show those values, each its owner's as
        before (a reorganization, a tie's reroll): ``set_die(lot, its owner, value)`` of each, in one call (a die
        that keeps its owner changes no mask by seat: only its value and its tile)."""
        tiles, die_values, index_of = self.tiles, self.die_values, self.board.index
        u = self._undo
        index = self._casinos
        if index is None and self._casinos_from is not None:
            index = self._adopt()
        if not _COMPILED and u is None and index is not None:  # pure, no checkpoint: the index told once, of all
            dice = 0  # (``CasinoIndex.dice_changed``: most rerolls change one casino's dice facts in place, no fill)
            for lot, v in values.items():
                i = index_of[lot]
                t = tiles[lot]
                tiles[lot] = _TILES.get((t.color, t.height, t.owner, v)) or _tile(t.color, t.height, t.owner, v)
                die_values[i] = v
                dice |= 1 << i
            if dice:
                index.dice_changed(dice)
            return
        for lot, v in values.items():
            i = index_of[lot]
            t = tiles[lot]
            if u is not None:
                u.note(i, t)
            tiles[lot] = _tile(t.color, t.height, t.owner, v)
            die_values[i] = v
            if index is not None:
                index.die_changed(i)


def _bits_of(board: Board, lots: Iterable[str]) -> tuple[int, ...]:
    """The bit positions of ``lots``, in their order (``recolor``/``raise_tiles`` given lot ids only)."""
    index = board.index
    return tuple([index[lot] for lot in lots])


class Undo:
    """A checkpoint (``GameState.checkpoint``): what ``rollback`` needs to put the state back. The fields the engine
    writes directly are saved whole (a few ints and strings, the deck, the money and points); the tiles are put
    back lot by lot from the old tiles the change methods note; the markers' dict and the masks by seat, by colour
    (with the counts) and by height are the checkpoint's own, each kept when first changed (None: not changed
    since)."""

    def __init__(self, s: GameState, parent: Undo | None) -> None:
        self.money: list[int] = _NONE  # (start makes them)
        self.scores: list[int] = _NONE
        # compiled, the money and points of up to six players (the profiles allow six): kept in native fields, where
        # a list by seat costs an item read and an int unboxed a player at the checkpoint and at the rollback (a
        # search's push/pop pair: ~600 instructions for four players); ``seats``: how many (-1: kept in the lists)
        self.seats = -1
        self.money0 = self.money1 = self.money2 = self.money3 = self.money4 = self.money5 = 0
        self.score0 = self.score1 = self.score2 = self.score3 = self.score4 = self.score5 = 0
        self.changed: list[Any] = []
        self.start(s, parent)

    def start(self, s: GameState, parent: Undo | None) -> None:
        """Be a checkpoint of ``s`` as it is now (``__init__``; ``GameState.checkpoint`` again in one rolled back:
        every field written, its money and points written over, its list of changed lots emptied)."""
        self.parent = parent  # the checkpoint before it, not rolled back yet
        self.turn, self.current, self.phase, self.gambles = s.turn, s.current, s.phase, s.gambles
        self.result, self.pending, self.structure, self.memo = s.result, s.pending, s.structure, s._memo
        self.tile_mask, self.markers_mask, self.dice_mask = s.tile_mask, s.markers_mask, s.dice_mask
        players = s.players
        seats = len(players)
        if _COMPILED and seats <= 6:
            self.seats = seats
            if seats > 0:
                p = players[0]
                self.money0, self.score0 = p.money, p.score
            if seats > 1:
                p = players[1]
                self.money1, self.score1 = p.money, p.score
            if seats > 2:
                p = players[2]
                self.money2, self.score2 = p.money, p.score
            if seats > 3:
                p = players[3]
                self.money3, self.score3 = p.money, p.score
            if seats > 4:
                p = players[4]
                self.money4, self.score4 = p.money, p.score
            if seats > 5:
                p = players[5]
                self.money5, self.score5 = p.money, p.score
        elif _COMPILED:
            self.seats = -1
            money, scores = self.money, self.scores
            if len(money) == len(players):  # (a checkpoint made again: written over, no list made or freed; a
                #                                 value as it was not written: most are, at a search's node)
                for j in range(len(players)):
                    p = players[j]
                    m, points = p.money, p.score
                    if money[j] != m:
                        money[j] = m
                    if scores[j] != points:
                        scores[j] = points
            else:  # (comprehensions: compiled, each list made at its length at once)
                self.money = [p.money for p in players]
                self.scores = [p.score for p in players]
        else:  # (pure, new lists by one loop: a call each for comprehensions, more bytecodes to write over)
            money = []
            scores = []
            for p in players:
                money.append(p.money)
                scores.append(p.score)
            self.money, self.scores = money, scores
        self.deck = s.deck  # copied by the first draw that changes it (``GameState.changing_deck``): most pushes draw none
        self.discards, self.discards_len = s.discards, len(s.discards)  # only added to
        self.drawn, self.drawn_len = s.drawn, len(s.drawn)  # added to, or made anew at a turn's start
        # the lots reorganized this turn, only added to (or made anew at a turn's start): the very set kept, copied
        # by the first change under this checkpoint (``GameState.reorganizing``: most pushes reorganize nothing)
        self.reorganized = s.reorganized
        # the state's masks by seat, kept when first changed (None: not changed since; markers: with ``markers``)
        self.marker_masks: list[int] | None = None
        self.dice_masks: list[int] | None = None
        # the lots whose tile changed, in order (a lot as often as it changed), by bit position (the rollback reads
        # the lot's id from the board's order: no lookup by id), each followed by its tile before the change (None:
        # none): one flat list (``note``). Compiled, its first ``noted`` entries are this
        # checkpoint's and it is written over (the entries past them are stale: a checkpoint made again allocates
        # and frees no storage for it, where emptying a list frees it and the next append allocates it again);
        # pure, emptied and appended to (fewer bytecodes)
        self.noted = 0
        changed = self.changed
        if not _COMPILED and changed:
            changed.clear()
        self.markers: dict[str, int] | None = None
        self.holes = 0  # with markers: the state's _holes then
        self.color_bits: list[int] | None = None
        self.color_counts: list[int] = _NONE  # with color_bits
        self.height_bits: list[int] | None = None
        self.derived = False  # _derive ran since (drop_caches)
        self.index: CasinoIndex | None = s._casinos  # the state's casino index then, put back by rollback
        self.index_mark: IndexMark | None = None
        self.index_from, self.index_at = s._casinos_from, s._casinos_at  # or the one it is to be copied from

    def note(self, i: int, old: Tile | None) -> None:
        """The tile on the lot of bit position ``i`` is about to change: ``old`` is the tile there (None: none) (see
        ``changed``)."""
        changed = self.changed
        if _COMPILED:  # over stale entries (as ``CasinoIndex._note``)
            n = self.noted
            if n == len(changed):
                make_room(changed)
            changed[n] = i
            changed[n + 1] = old
            self.noted = n + 2
        else:
            changed.append(i)
            changed.append(old)

    def moved(self, s: GameState, twin: GameState) -> Undo:
        """This checkpoint of ``s`` for ``twin``, a copy of ``s`` (``Game.copy``): nothing shared that changes;
        the casino index is worked out again after its rollback (``derived``)."""
        u = Undo(twin, None)  # the fields then replaced by this checkpoint's
        u.turn, u.current, u.phase, u.gambles = self.turn, self.current, self.phase, self.gambles
        u.result, u.pending, u.structure, u.memo = self.result, self.pending, self.structure, self.memo
        u.tile_mask, u.markers_mask, u.dice_mask = self.tile_mask, self.markers_mask, self.dice_mask
        u.money, u.scores, u.deck = self.money[:], self.scores[:], self.deck[:]
        u.seats = self.seats
        u.money0, u.money1, u.money2, u.money3, u.money4, u.money5 = (self.money0, self.money1, self.money2,
                                                                      self.money3, self.money4, self.money5)
        u.score0, u.score1, u.score2, u.score3, u.score4, u.score5 = (self.score0, self.score1, self.score2,
                                                                      self.score3, self.score4, self.score5)
        u.discards = twin.discards if self.discards is s.discards else self.discards[:]
        u.drawn = twin.drawn if self.drawn is s.drawn else self.drawn[:]
        u.reorganized = twin.reorganized if self.reorganized is s.reorganized else set(self.reorganized)
        u.discards_len, u.drawn_len = self.discards_len, self.drawn_len
        u.marker_masks = None if self.marker_masks is None else self.marker_masks[:]
        u.dice_masks = None if self.dice_masks is None else self.dice_masks[:]
        u.changed = self.changed[:self.noted] if _COMPILED else self.changed[:]
        u.noted = self.noted
        u.markers = None if self.markers is None else self.markers.copy()
        u.holes = 0
        if self.color_bits is not None:
            u.color_bits, u.color_counts = self.color_bits[:], self.color_counts[:]
        if self.height_bits is not None:
            u.height_bits = self.height_bits[:]
        u.derived = True
        u.index, u.index_mark, u.index_from = None, None, None
        return u


COMPARED: Final = ("players", "markers", "tiles", "deck", "discards", "turn", "current", "phase", "drawn", "gambles",
                   "reorganized", "result", "pending", "structure")
"""The fields two states are compared by (``==``) and shown with (``repr``)."""

FIELDS: Final = (*COMPARED, "board", "tile_mask", "color_bits", "height_bits", "markers_mask", "marker_masks",
                 "dice_mask", "dice_masks", "tile_colors", "tile_heights", "die_values", "die_owners",
                 "color_counts", "_memo", "_casinos", "_casinos_from", "_casinos_at", "_holes")
"""Every attribute of a state: what ``restore()`` puts back (tests/test_state_bits.py checks ``copy()`` keeps each)."""
