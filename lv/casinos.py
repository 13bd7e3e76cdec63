"""Casinos: the connected groups of tiles of one colour (and one height, where the profile says so) in a block.

000 "Who owns what": "a group of 1 or more contiguous tiles of the same color".
003 "Who Owns What" L221-229: "contiguous tiles of the same color and height".
Adjacency never crosses a street or the Strip (the board's neighbour lists stay inside a block).
"""

from __future__ import annotations

import attrs

from .board import Board
from .state import GameState


@attrs.frozen
class Casino:
    lots: tuple[str, ...]  # in board order; lots[0] names the casino
    color: str
    height: int

    @property
    def name(self) -> str:
        return self.lots[0]

    @property
    def spaces(self) -> int:
        return len(self.lots)

    @property
    def physical_tiles(self) -> int:
        """Casino tiles plus risers (003 L411-414: a 3-space casino 4 tiles high is worth 12 points)."""
        return len(self.lots) * self.height


def find_casinos(board: Board, state: GameState, join_rule: str) -> tuple[list[Casino], dict[str, Casino]]:
    """All casinos, in board order of their first lot, and the casino of each tiled lot. Cached per structure."""
    cache = state._cache
    if cache is not None and cache[0] == state.structure and cache[1] == join_rule:
        return cache[2], cache[3]
    tiles = state.tiles
    by_height = join_rule == "color_and_height"
    seen: set[str] = set()
    casinos: list[Casino] = []
    index: dict[str, Casino] = {}
    for lot in board.order:
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
        group.sort(key=board.index.__getitem__)
        # under join_rule "color" a casino may mix heights only through a what-if profile; report the tallest
        casino = Casino(tuple(group), tile.color, max(tiles[g].height for g in group))
        casinos.append(casino)
        for g in group:
            index[g] = casino
    state._cache = (state.structure, join_rule, casinos, index)
    return casinos, index


def top_dice(state: GameState, casino: Casino) -> tuple[int | None, list[str]]:
    """The largest die value in the casino and the lots holding a die of that value."""
    best, lots, _ = _top(state, casino)
    return best, list(lots)


def boss(state: GameState, casino: Casino) -> int | None:
    """The owner of the single largest die; None if the casino has no dice (003 L257-259: no one owns it)
    or if players are still tied for the top value (only possible between a take-over and its reroll)."""
    return _top(state, casino)[2]


def _top(state: GameState, casino: Casino) -> tuple[int | None, tuple[str, ...], int | None]:
    """(top value, lots holding it, boss), memoised until a die changes: bosses are asked for constantly."""
    memo = state.dice_memo()
    found = memo.get(casino.lots)
    if found is None:
        best, lots = None, []
        tiles = state.tiles
        for lot in casino.lots:
            t = tiles[lot]
            if t.owner is None:
                continue
            if best is None or t.value > best:
                best, lots = t.value, [lot]
            elif t.value == best:
                lots.append(lot)
        owners = {tiles[lot].owner for lot in lots}
        found = memo[casino.lots] = (best, tuple(lots), owners.pop() if len(owners) == 1 else None)
    return found


def pips(state: GameState, casino: Casino) -> int:
    return sum(state.tiles[lot].value for lot in casino.lots if state.tiles[lot].owner is not None)


def has_die(state: GameState, casino: Casino, player: int) -> bool:
    return any(state.tiles[lot].owner == player for lot in casino.lots)
