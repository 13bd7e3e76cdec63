"""Game state as plain data: lots (markers), tiles (colour, height, die), players, the deck, turn state.

Tiles are frozen, so every change of a tile goes through the methods below. They bump ``structure`` (a counter
that any change of a tile's place, colour or height bumps, for the facts memoised in ``structure_memo``) and
keep the state's casino index (casinos.py) current, so no derived fact can disagree with the tiles.
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Tile:
    color: str
    height: int = 1
    owner: int | None = None  # player index of the die on it; None = no die (nobody owns the tile)
    value: int | None = None  # the die's face


@attrs.define
class PlayerState:
    name: str
    money: int = 0
    score: int = 0


@attrs.define
class Result:
    """How a game ended: why, who won and everyone's place, by seat number and, through the properties, by name.

    ``reason`` is ``"end_card"``, ``"instant_win"`` or ``"deck_exhausted"``; ``winner`` and ``ranking`` are seat
    numbers (0 = the first player listed), the ranking best first (points, then money)."""

    reason: str
    winner: int
    ranking: list[int]
    names: tuple[str, ...] = attrs.field(default=(), eq=False, repr=False)  # the players' names, in seat order

    @property
    def winner_name(self) -> str:
        """The winner's name."""
        return self.names[self.winner]

    @property
    def ranking_names(self) -> list[str]:
        """The players' names, best first."""
        return [self.names[i] for i in self.ranking]


@attrs.define
class GameState:
    players: list[PlayerState]
    markers: dict[str, int] = attrs.field(factory=dict)  # lot -> owner (a parking lot)
    tiles: dict[str, Tile] = attrs.field(factory=dict)  # lot -> casino tile
    deck: list[str] = attrs.field(factory=list)  # draw pile, top first; "END" is the end card
    discards: list[str] = attrs.field(factory=list)  # cards drawn or dealt, in order
    turn: int = 0  # 1-based once play starts
    current: int = 0  # whose turn
    phase: str = "setup"  # "setup", "draw", "actions", "over"; at a table also "reroll", "choice" (see pending)
    drawn: list[str] = attrs.field(factory=list)  # cards drawn this turn
    gambles: int = 0  # gambles taken this turn
    reorganized: set[str] = attrs.field(factory=set)  # lots whose die was reorganized this turn
    result: Result | None = None
    # the draw waiting for a decision at a table (phase "reroll" or "choice"): what it waits for and how to go on
    pending: dict | None = None
    structure: int = 0  # bumped by any change to where tiles are, their colour or height
    _cache: Any = attrs.field(default=None, eq=False, repr=False)  # (structure, {key: value}): see structure_memo
    _index: Any = attrs.field(default=None, eq=False, repr=False)  # casinos.CasinoIndex, made on first use
    _counts: dict = attrs.field(factory=dict, eq=False, repr=False)  # colour -> tiles on the board, kept current

    def __attrs_post_init__(self) -> None:
        if self.tiles and not self._counts:
            self._count_tiles()

    def copy(self) -> GameState:
        return GameState(
            players=[attrs.evolve(p) for p in self.players],
            markers=dict(self.markers),
            tiles=dict(self.tiles),  # tiles are frozen: sharing them is safe
            deck=list(self.deck), discards=list(self.discards), turn=self.turn, current=self.current,
            phase=self.phase, drawn=list(self.drawn), gambles=self.gambles, reorganized=set(self.reorganized),
            result=self.result, pending=self.pending, structure=self.structure, cache=self._cache,
            index=self._index.copy() if self._index is not None else None, counts=dict(self._counts),
        )

    def structure_memo(self) -> dict:
        """A scratch dict for facts that depend only on the tiles' places, colours and heights (legal.py keeps
        its tile facts there): emptied when those change."""
        memo = self._cache
        if memo is None or memo[0] != self.structure:
            memo = self._cache = (self.structure, {})
        return memo[1]

    def drop_caches(self) -> None:
        """Forget every derived fact (after the state was restored from a copy)."""
        self._cache = None
        self._index = None
        self._count_tiles()

    def _count(self, color: str) -> None:
        self._counts[color] = self._counts.get(color, 0) + 1

    def _uncount(self, color: str) -> None:
        if self._counts[color] == 1:
            del self._counts[color]  # the counts hold only colours on the board, as counting afresh would
        else:
            self._counts[color] -= 1

    def _count_tiles(self) -> None:
        self._counts = {}
        for t in self.tiles.values():
            self._count(t.color)

    # ---- pieces
    def markers_on_board(self, player: int) -> list[str]:
        return [lot for lot, owner in self.markers.items() if owner == player]

    def dice_on_board(self, player: int) -> list[str]:
        return [lot for lot, t in self.tiles.items() if t.owner == player]

    def tiles_on_board(self, color: str) -> int:
        return self.tile_counts().get(color, 0)

    def tile_counts(self) -> dict[str, int]:
        """Tiles on the board per colour (do not change the dict)."""
        return self._counts

    # ---- structural changes (always through these, so the casinos stay right)
    def place_tile(self, lot: str, color: str, height: int, owner: int | None, value: int | None) -> None:
        old = self.tiles.get(lot)
        if old is not None:
            self._uncount(old.color)
        self.tiles[lot] = Tile(color, height, owner, value)
        self._count(color)
        self.structure += 1
        if self._index is not None:
            self._index.reshape(self.tiles, (lot,))
            self._index.die_changed(lot)

    def recolor(self, lots, color: str) -> None:
        lots = tuple(lots)  # walked twice: here and by the casino index
        tiles = self.tiles
        for lot in lots:
            t = tiles[lot]
            tiles[lot] = Tile(color, t.height, t.owner, t.value)
            self._uncount(t.color)
            self._count(color)
        self.structure += 1
        if self._index is not None:
            self._index.reshape(tiles, lots)

    def raise_tiles(self, lots) -> None:
        lots = tuple(lots)  # walked twice: here and by the casino index
        tiles = self.tiles
        for lot in lots:
            t = tiles[lot]
            tiles[lot] = Tile(t.color, t.height + 1, t.owner, t.value)
        self.structure += 1
        if self._index is not None:
            self._index.reshape(tiles, lots)

    # ---- markers (always through these, so whatever the state derives from them stays right)
    def put_marker(self, lot: str, player: int) -> None:
        """``player``'s marker goes on the empty lot ``lot`` (a parking lot)."""
        self.markers[lot] = player

    def remove_marker(self, lot: str) -> None:
        """The marker on ``lot`` leaves the board."""
        del self.markers[lot]

    # ---- dice (always through this, so the bosses stay right)
    def set_die(self, lot: str, owner: int | None, value: int | None) -> None:
        """Put ``owner``'s die showing ``value`` on the tile at ``lot`` (None, None: take the die away)."""
        t = self.tiles[lot]
        self.tiles[lot] = Tile(t.color, t.height, owner, value)
        if self._index is not None:
            self._index.die_changed(lot)
