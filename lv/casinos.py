"""Casinos: the connected groups of tiles of one colour (and one height, where the profile says so) in a block.

000 "Who owns what": "a group of 1 or more contiguous tiles of the same color".
003 "Who Owns What" L221-229: "contiguous tiles of the same color and height".
Adjacency never crosses a street or the Strip (the board's neighbour lists stay inside a block).

The casinos of a state live in its ``CasinoIndex``, which the state's change methods keep current (state.py):
a tile placed, recoloured or raised joins the neighbouring casinos that match it, and moving or rerolling a die
forgets only its own casino's dice facts. Bots ask for every casino and its boss before each decision, so the
index answers from what it holds and never searches the board again.
"""

from __future__ import annotations

from typing import NamedTuple

from .board import Board
from .state import GameState


class Casino:
    """A casino: its lots in board order (``lots[0]`` names it), colour and height; never changed once made.
    A plain slotted class: the index makes one whenever a casino grows or changes, and the derived sizes are
    read on every decision, so they are stored."""

    __slots__ = ("lots", "color", "height", "name", "spaces", "physical_tiles")

    def __init__(self, lots: tuple[str, ...], color: str, height: int) -> None:
        self.lots = lots
        self.color = color
        self.height = height
        self.name = lots[0]
        self.spaces = len(lots)
        self.physical_tiles = len(lots) * height  # tiles plus risers (003 L411-414: 3 spaces 4 high score 12)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Casino) and self.lots == other.lots and self.color == other.color
                and self.height == other.height)

    def __hash__(self) -> int:
        return hash((self.lots, self.color, self.height))

    def __repr__(self) -> str:
        return f"Casino(lots={self.lots!r}, color={self.color!r}, height={self.height!r})"


class DiceFacts(NamedTuple):
    """What a casino's dice say: kept until one of its dice changes, since bosses are asked for constantly."""

    top: int | None  # the largest die value
    top_lots: tuple[str, ...]  # the lots holding a die of that value
    boss: int | None
    owners: tuple[int, ...]  # everyone with a die in the casino
    pips: int


_NO_DICE = DiceFacts(None, (), None, (), 0)


class CasinoIndex:
    """The casinos of one state under one join rule, each casino's dice facts and frontier.

    ``blocks`` and ``at`` are always current; ``facts`` and ``frontiers`` are filled on demand and forgotten
    when what they were worked out from changes; the board-order views are rebuilt on demand after a change."""

    __slots__ = ("board", "join_rule", "by_height", "blocks", "at", "facts", "frontiers", "_all", "_with_dice",
                 "bosses")

    def __init__(self, board: Board, join_rule: str, tiles: dict) -> None:
        self.board = board
        self.join_rule = join_rule
        self.by_height = join_rule == "color_and_height"
        self.blocks: dict[str, list[Casino]] = {}
        self.at: dict[str, Casino] = {}  # tiled lot -> its casino
        self.facts: dict[tuple[str, ...], DiceFacts] = {}  # casino lots -> dice facts
        self.frontiers: dict[tuple[str, ...], tuple[str, ...]] = {}  # casino lots -> frontier
        for block in board.blocks:
            self._rework(tiles, block)
        self._forget_views()

    def copy(self) -> CasinoIndex:
        twin = object.__new__(CasinoIndex)
        twin.board, twin.join_rule, twin.by_height = self.board, self.join_rule, self.by_height
        # casinos, facts and frontiers are immutable values: the dicts are copied, their values shared
        twin.blocks, twin.at = dict(self.blocks), dict(self.at)
        twin.facts, twin.frontiers = dict(self.facts), dict(self.frontiers)
        twin._all, twin._with_dice, twin.bosses = self._all, self._with_dice, self.bosses
        return twin

    # ---- kept current by the state (state.py calls these after every change)
    def reshape(self, tiles: dict, lots) -> None:
        """Tiles on ``lots`` were placed, recoloured or raised (their dice unchanged: see ``die_changed``)."""
        lots = tuple(lots)
        if not lots:
            return
        casino = self.at.get(lots[0])
        if casino is None and len(lots) == 1:
            self._join(tiles, lots, None)  # a new tile
        elif casino is not None and casino.lots == lots:
            self._join(tiles, lots, casino)  # a whole casino took a new colour or height
        else:  # anything else (not done by the rules): find the casinos of the blocks afresh
            board_lots = self.board.lots
            for block in {board_lots[lot].block for lot in lots}:
                self._rework(tiles, block)
        self._forget_views()

    def die_changed(self, lot: str) -> None:
        casino = self.at.get(lot)
        if casino is not None:
            self.facts.pop(casino.lots, None)
        self._with_dice = self.bosses = None

    def _join(self, tiles: dict, lots: tuple[str, ...], old: Casino | None) -> None:
        """``lots`` (a new tile, or the whole casino ``old``) now share one colour and height: they form a
        casino with every neighbouring casino that matches them. Casinos only ever grow or merge (tiles are never
        taken away and a casino changes colour or height as a whole), so nothing else in the block changes."""
        board, at, facts, frontiers = self.board, self.at, self.facts, self.frontiers
        tile = tiles[lots[0]]
        color, height, by_height = tile.color, tile.height, self.by_height
        merged = [] if old is None else [old]
        for lot in lots:
            for n in board.lots[lot].neighbours:
                other = at.get(n)
                if other is None or other in merged:
                    continue
                if old is None:  # the new tile fills a lot of this casino's frontier
                    frontiers.pop(other.lots, None)
                t = tiles[n]
                if t.color == color and (not by_height or t.height == height):
                    merged.append(other)
        if len(merged) == (0 if old is None else 1):
            group = lots
        else:
            group = tuple(sorted([lot for c in merged for lot in c.lots] + ([] if old else list(lots)),
                                 key=board.index.__getitem__))
        if not by_height and len(group) > 1:  # "color" joins may mix heights (what-if profiles): the tallest
            height = max(tiles[lot].height for lot in group)
        casino = Casino(group, color, height)
        for c in merged:
            if c.lots != group:  # merged into a larger casino: its lots now belong to another
                facts.pop(c.lots, None)
                frontiers.pop(c.lots, None)
        for lot in group:
            at[lot] = casino
        block = board.lots[lots[0]].block
        here = [c for c in self.blocks.get(block, ()) if c not in merged]
        here.append(casino)
        here.sort(key=lambda c: board.index[c.name])
        self.blocks[block] = here

    def _rework(self, tiles: dict, block: str) -> None:
        found = _block_casinos(self.board, tiles, self.board.blocks[block], self.by_height)
        kept = {c.lots for c in found}
        facts, frontiers, at = self.facts, self.frontiers, self.at
        for old in self.blocks.get(block, ()):
            frontiers.pop(old.lots, None)  # a tile placed next to it may have closed a lot of its frontier
            if old.lots not in kept:  # merged into a larger casino: its lots now belong to another
                facts.pop(old.lots, None)
                for lot in old.lots:
                    del at[lot]
        for casino in found:
            for lot in casino.lots:
                at[lot] = casino
        self.blocks[block] = found

    def _forget_views(self) -> None:
        self._all = self._with_dice = self.bosses = None

    # ---- reading
    def all(self) -> list[Casino]:
        """Every casino, in board order of its first lot (do not change the list)."""
        found = self._all
        if found is None:
            found = self._all = [c for block in self.board.blocks for c in self.blocks[block]]
        return found

    def with_dice(self, tiles: dict) -> list[tuple[Casino, DiceFacts]]:
        """Every casino with its dice facts, in board order (do not change the list)."""
        found = self._with_dice
        if found is None:
            self._view_dice(tiles)
            found = self._with_dice
        return found

    def boss_of_each(self, tiles: dict) -> dict[tuple[str, ...], int | None]:
        """Casino lots -> boss (do not change the dict): the same dict until a tile or a die changes."""
        found = self.bosses
        if found is None:
            self._view_dice(tiles)
            found = self.bosses
        return found

    def _view_dice(self, tiles: dict) -> None:
        facts = self.facts
        pairs, bosses = [], {}
        for casino in self.all():
            f = facts.get(casino.lots)
            if f is None:
                f = facts[casino.lots] = _dice_facts(tiles, casino.lots)
            pairs.append((casino, f))
            bosses[casino.lots] = f.boss
        self._with_dice, self.bosses = pairs, bosses


def casino_index(board: Board, state: GameState, join_rule: str) -> CasinoIndex:
    """The state's casino index under ``join_rule``, made on first use (and again after ``drop_caches``)."""
    index = state._index
    if index is None or index.join_rule != join_rule:
        index = state._index = CasinoIndex(board, join_rule, state.tiles)
    return index


def _block_casinos(board: Board, tiles: dict, lots: tuple[str, ...], by_height: bool) -> list[Casino]:
    seen: set[str] = set()
    casinos: list[Casino] = []
    for lot in lots:
        tile = tiles.get(lot)
        if tile is None or lot in seen:
            continue
        group = [lot]
        seen.add(lot)
        stack = [lot]
        while stack:
            here = stack.pop()
            for n in board.lots[here].neighbours:
                other = tiles.get(n)
                if (n not in seen and other is not None and other.color == tile.color
                        and (not by_height or other.height == tile.height)):
                    seen.add(n)
                    group.append(n)
                    stack.append(n)
        if len(group) == 1:
            casinos.append(Casino((lot,), tile.color, tile.height))
            continue
        group.sort(key=board.index.__getitem__)
        # under join_rule "color" a casino may mix heights only through a what-if profile; report the tallest
        casinos.append(Casino(tuple(group), tile.color, max(tiles[g].height for g in group)))
    return casinos


def dice_facts(state: GameState, casino: Casino) -> DiceFacts:
    index = state._index
    if index is None:
        return _dice_facts(state.tiles, casino.lots)
    found = index.facts.get(casino.lots)
    if found is None:
        found = _dice_facts(state.tiles, casino.lots)
        if index.at.get(casino.name) is casino:  # a casino of the index, not one a caller kept from before
            index.facts[casino.lots] = found
    return found


def _dice_facts(tiles: dict, lots: tuple[str, ...]) -> DiceFacts:
    if len(lots) == 1:  # most casinos: one tile
        t = tiles[lots[0]]
        return _NO_DICE if t.owner is None else DiceFacts(t.value, lots, t.owner, (t.owner,), t.value)
    best, top, owners, total = None, [], [], 0
    for lot in lots:
        t = tiles[lot]
        if t.owner is None:
            continue
        if t.owner not in owners:
            owners.append(t.owner)
        total += t.value
        if best is None or t.value > best:
            best, top = t.value, [lot]
        elif t.value == best:
            top.append(lot)
    top_owners = {tiles[lot].owner for lot in top}
    return DiceFacts(best, tuple(top), top_owners.pop() if len(top_owners) == 1 else None, tuple(owners), total)


def boss(state: GameState, casino: Casino) -> int | None:
    """The owner of the single largest die; None if the casino has no dice (003 L257-259: no one owns it)
    or if players are still tied for the top value (only possible between a take-over and its reroll)."""
    return dice_facts(state, casino).boss


def pips(state: GameState, casino: Casino) -> int:
    return dice_facts(state, casino).pips


def has_die(state: GameState, casino: Casino, player: int) -> bool:
    return player in dice_facts(state, casino).owners


def frontier(board: Board, state: GameState, casino: Casino) -> tuple[str, ...]:
    """The lots without a tile that share an edge with the casino (where it may sprawl, if nobody owns them),
    in the order of its lots and their neighbours."""
    index = state._index
    found = index.frontiers.get(casino.lots) if index is not None else None
    if found is None:
        tiles = state.tiles
        out: list[str] = []
        for lot in casino.lots:
            for n in board.lots[lot].neighbours:
                if n not in tiles and n not in out:
                    out.append(n)
        found = tuple(out)
        if index is not None and index.at.get(casino.name) is casino:
            index.frontiers[casino.lots] = found
    return found
