"""Game state as plain data: lots (markers), tiles (colour, height, die), players, the deck, turn state.

Casinos are derived from the tiles (see ``casinos.py``) and cached against ``structure``, a counter that
every change of a tile's place, colour or height bumps, so the cache can never disagree with the tiles.
Who is boss depends only on the dice; it is memoised against ``dice_version``, which every change of a die's
owner or value bumps. Tiles are frozen, so every change goes through the methods below and bumps its counter.
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
    reason: str  # "end_card", "instant_win", "deck_exhausted"
    winner: int
    ranking: list[int]  # player indices, best first (points, then money)


@attrs.define
class GameState:
    players: list[PlayerState]
    markers: dict[str, int] = attrs.field(factory=dict)  # lot -> owner (a parking lot)
    tiles: dict[str, Tile] = attrs.field(factory=dict)  # lot -> casino tile
    deck: list[str] = attrs.field(factory=list)  # draw pile, top first; "END" is the end card
    discards: list[str] = attrs.field(factory=list)  # cards drawn or dealt, in order
    turn: int = 0  # 1-based once play starts
    current: int = 0  # whose turn
    phase: str = "setup"  # "setup", "actions", "over"
    drawn: list[str] = attrs.field(factory=list)  # cards drawn this turn
    gambles: int = 0  # gambles taken this turn
    reorganized: set[str] = attrs.field(factory=set)  # lots whose die was reorganized this turn
    result: Result | None = None
    structure: int = 0  # bumped by any change to where tiles are, their colour or height
    dice_version: int = 0  # bumped by any change to a die's owner or value (placing a tile included)
    _cache: Any = attrs.field(default=None, eq=False, repr=False)  # (structure, {key: value}): casinos, colours
    _dice_memo: Any = attrs.field(default=None, eq=False, repr=False)  # (dice_version, {key: value})
    # lot -> a token made afresh whenever the lot's tile is placed, recoloured or raised: a block whose lots keep
    # their tokens keeps its casinos (casinos.py keeps them in _block_casinos with the tokens they came from)
    _shapes: dict = attrs.field(factory=dict, eq=False, repr=False)
    _block_casinos: dict = attrs.field(factory=dict, eq=False, repr=False)
    # casino lots -> (their tiles, DiceFacts): kept across dice changes, since a casino's dice facts hold as long
    # as its own tiles do (tiles are frozen and replaced on every change: comparing them tells)
    _held_facts: dict = attrs.field(factory=dict, eq=False, repr=False)
    _frontiers: dict = attrs.field(factory=dict, eq=False, repr=False)  # casino lots -> (casino, its frontier)

    def copy(self) -> GameState:
        return GameState(
            players=[attrs.evolve(p) for p in self.players],
            markers=dict(self.markers),
            tiles=dict(self.tiles),  # tiles are frozen: sharing them is safe
            deck=list(self.deck), discards=list(self.discards), turn=self.turn, current=self.current,
            phase=self.phase, drawn=list(self.drawn), gambles=self.gambles, reorganized=set(self.reorganized),
            result=self.result, structure=self.structure, dice_version=self.dice_version, cache=self._cache,
            dice_memo=self._dice_memo, shapes=dict(self._shapes), block_casinos=self._block_casinos,
            held_facts=self._held_facts, frontiers=self._frontiers,
        )

    def structure_memo(self) -> dict:
        """A scratch dict for facts that depend only on the tiles' places, colours and heights (the casinos):
        emptied when those change."""
        memo = self._cache
        if memo is None or memo[0] != self.structure:
            memo = self._cache = (self.structure, {})
        return memo[1]

    def dice_memo(self) -> dict:
        """A scratch dict for facts that depend only on the dice (top dice, boss): emptied when they change."""
        memo = self._dice_memo
        if memo is None or memo[0] != self.dice_version:
            memo = self._dice_memo = (self.dice_version, {})
        return memo[1]

    def drop_caches(self) -> None:
        """Forget every derived fact (after the state was restored from a copy): every tile counts as new."""
        self._cache = None
        self._dice_memo = None
        self._shapes = {lot: object() for lot in self.tiles}

    # ---- pieces
    def markers_on_board(self, player: int) -> list[str]:
        return [lot for lot, owner in self.markers.items() if owner == player]

    def dice_on_board(self, player: int) -> list[str]:
        return [lot for lot, t in self.tiles.items() if t.owner == player]

    def tiles_on_board(self, color: str) -> int:
        return self.tile_counts().get(color, 0)

    def tile_counts(self) -> dict[str, int]:
        """Tiles on the board per colour (do not change the dict)."""
        memo = self.structure_memo()
        counts = memo.get("tile_counts")
        if counts is None:
            counts = memo["tile_counts"] = {}
            for t in self.tiles.values():
                counts[t.color] = counts.get(t.color, 0) + 1
        return counts

    # ---- structural changes (always through these, so the casino cache stays right)
    def place_tile(self, lot: str, color: str, height: int, owner: int | None, value: int | None) -> None:
        self.tiles[lot] = Tile(color, height, owner, value)
        self._shapes[lot] = object()
        self.structure += 1
        self.dice_version += 1

    def recolor(self, lots, color: str) -> None:
        tiles = self.tiles
        for lot in lots:
            t = tiles[lot]
            tiles[lot] = Tile(color, t.height, t.owner, t.value)
            self._shapes[lot] = object()
        self.structure += 1

    def raise_tiles(self, lots) -> None:
        tiles = self.tiles
        for lot in lots:
            t = tiles[lot]
            tiles[lot] = Tile(t.color, t.height + 1, t.owner, t.value)
            self._shapes[lot] = object()
        self.structure += 1

    # ---- dice (always through this, so the boss memo stays right)
    def set_die(self, lot: str, owner: int | None, value: int | None) -> None:
        """Put ``owner``'s die showing ``value`` on the tile at ``lot`` (None, None: take the die away)."""
        t = self.tiles[lot]
        self.tiles[lot] = Tile(t.color, t.height, owner, value)
        self.dice_version += 1
