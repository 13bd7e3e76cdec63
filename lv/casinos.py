"""Casinos: the connected groups of tiles of one colour (and one height, where the profile says so) in a block.

000 "Who owns what": "a group of 1 or more contiguous tiles of the same color".
003 "Who Owns What" L221-229: "contiguous tiles of the same color and height".
Adjacency never crosses a street or the Strip (the board's neighbour lists stay inside a block).
"""

from __future__ import annotations

from typing import NamedTuple

import attrs

from .board import Board
from .state import GameState


@attrs.frozen
class Casino:
    lots: tuple[str, ...]  # in board order; lots[0] names the casino
    color: str
    height: int
    # derived from the three above when the casino is found (read on every decision, so stored, not recomputed)
    name: str = attrs.field(init=False, eq=False, repr=False)
    spaces: int = attrs.field(init=False, eq=False, repr=False)
    # casino tiles plus risers (003 L411-414: a 3-space casino 4 tiles high is worth 12 points)
    physical_tiles: int = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "name", self.lots[0])
        object.__setattr__(self, "spaces", len(self.lots))
        object.__setattr__(self, "physical_tiles", len(self.lots) * self.height)


def find_casinos(board: Board, state: GameState, join_rule: str) -> tuple[list[Casino], dict[str, Casino]]:
    """All casinos, in board order of their first lot, and the casino of each tiled lot. Cached per structure;
    a block whose tiles kept their places, colours and heights (their shape tokens, state.py) keeps the casinos
    found there before."""
    memo = state.structure_memo()
    found = memo.get(join_rule)
    if found is not None:
        return found
    shapes = state._shapes
    known = state._block_casinos
    casinos: list[Casino] = []
    index: dict[str, Casino] = {}
    for block, lots in board.blocks.items():
        layout = tuple(map(shapes.get, lots))
        prior = known.get((block, join_rule))
        if prior is None or prior[0] != layout:
            here = _block_casinos(board, state, lots, join_rule)
            prior = known[(block, join_rule)] = (layout, here, {lot: c for c in here for lot in c.lots})
        casinos.extend(prior[1])
        index.update(prior[2])
    memo[join_rule] = casinos, index
    return casinos, index


def _block_casinos(board: Board, state: GameState, lots: tuple[str, ...], join_rule: str) -> list[Casino]:
    tiles = state.tiles
    by_height = join_rule == "color_and_height"
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


class DiceFacts(NamedTuple):
    """What a casino's dice say: memoised per state until a die changes, since bosses are asked for constantly."""

    top: int | None  # the largest die value
    top_lots: tuple[str, ...]  # the lots holding a die of that value
    boss: int | None
    owners: tuple[int, ...]  # everyone with a die in the casino
    pips: int


_NO_DICE = DiceFacts(None, (), None, (), 0)


def dice_facts(state: GameState, casino: Casino) -> DiceFacts:
    memo = state.dice_memo()
    found = memo.get(casino.lots)
    if found is None:
        found = memo[casino.lots] = _held_dice_facts(state, casino.lots)
    return found


def _held_dice_facts(state: GameState, lots: tuple[str, ...]) -> DiceFacts:
    """The facts of the casino on ``lots``, worked out again only if one of its tiles changed since last time
    (a die elsewhere on the board leaves them standing)."""
    tiles = state.tiles
    held = (tiles[lots[0]],) if len(lots) == 1 else tuple(map(tiles.__getitem__, lots))
    prior = state._held_facts.get(lots)
    if prior is not None and prior[0] == held:  # identical tiles compare at once
        return prior[1]
    facts = _dice_facts(tiles, lots)
    state._held_facts[lots] = (held, facts)
    return facts


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
    in the order of its lots and their neighbours. Kept with the casino object: its neighbours lie in its block,
    and find_casinos makes new casino objects whenever the tiles of a block change place, colour or height."""
    found = state._frontiers.get(casino.lots)
    if found is None or found[0] is not casino:
        tiles = state.tiles
        out: list[str] = []
        for lot in casino.lots:
            for n in board.lots[lot].neighbours:
                if n not in tiles and n not in out:
                    out.append(n)
        found = state._frontiers[casino.lots] = (casino, tuple(out))
    return found[1]


def casinos_with_dice(board: Board, state: GameState, join_rule: str) -> list[tuple[Casino, DiceFacts]]:
    """Every casino with its dice facts, in board order: one memo lookup for callers that visit them all
    (the legal decisions, the boss snapshot, the tie check), memoised until a tile or a die changes."""
    memo = state.dice_memo()
    key = ("casinos", state.structure, join_rule)
    found = memo.get(key)
    if found is None:
        found = memo[key] = []
        for casino in find_casinos(board, state, join_rule)[0]:
            facts = memo.get(casino.lots)  # as dice_facts does
            if facts is None:
                facts = memo[casino.lots] = _held_dice_facts(state, casino.lots)
            found.append((casino, facts))
    return found
