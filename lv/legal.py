"""The legal decisions of the current player.

A gamble is listed once per casino, with the largest bet allowed (any bet from $1 up to it is legal; the
boss may lay off where the profile allows). Trades are not enumerated: any combination can be proposed.

This is the referee's ``why_not_*`` predicates (rules.py) evaluated in bulk: one pass over the casinos with
each casino's boss, dice and frontier looked up once, because bots ask for the list before every decision.
``tests/test_legal_agrees.py`` checks, over random games and random positions under every profile, that each
listed decision passes its predicate and every other candidate fails it, so the two cannot drift apart
unnoticed.
"""

from __future__ import annotations

import functools

from . import actions as A
from .casinos import frontier
from .rules import Engine
from .state import GameState


# Decisions are immutable values and the same ones are listed again and again: make each once.
_sprawl = functools.lru_cache(maxsize=4096)(A.Sprawl)
_raise = functools.lru_cache(maxsize=1024)(A.Raise)
_reorganize = functools.lru_cache(maxsize=1024)(A.Reorganize)
_gamble = functools.lru_cache(maxsize=8192)(A.Gamble)
_END = A.EndTurn()
_DRAW = A.Draw()


@functools.lru_cache(maxsize=4096)
def _builds(lot: str, colors: tuple[str, ...]) -> tuple[A.Build, ...]:
    return tuple(A.Build(lot, c) for c in colors)


@functools.lru_cache(maxsize=4096)
def _remodels(lot: str, color: str, colors: tuple[str, ...]) -> tuple[A.Remodel, ...]:
    """Remodels of the ``color`` casino at ``lot`` into each of ``colors`` but its own."""
    return tuple(A.Remodel(lot, c) for c in colors if c != color)


def _tile_facts(engine: Engine, s: GameState) -> tuple[dict[str, int], tuple[str, ...], dict[int, tuple]]:
    """Until the tiles change: tiles left per colour (Engine.available_tiles), the colours with any left, and
    the colours with at least N left (a remodel's new colour), filled in per N on demand."""
    memo = s.structure_memo()
    found = memo.get("tile_facts")
    if found is None:
        per_color, on_board = engine.profile.components.tiles_per_color, s.tile_counts()
        left = {c: per_color - on_board.get(c, 0) for c in engine.board.colors}
        found = memo["tile_facts"] = left, tuple(c for c in engine.board.colors if left[c] > 0), {}
    return found


def legal_actions(engine: Engine, s: GameState) -> list:
    if s.phase != "actions":  # resting at "X is to draw": the draw (and trades, never listed)
        return [_DRAW] if s.phase == "draw" else []
    p = engine.profile
    board = engine.board
    lots = board.lots
    player = s.current
    money = s.players[player].money
    markers = s.markers
    left, open_colors, colors_with = _tile_facts(engine, s)
    closed = p.f_block.block if p.f_block_closed(len(s.players)) else None  # Engine.f_closed
    out: list = []
    # build (why_not_build): 000 L128-133 / 003 L526-540
    for lot, owner in markers.items():
        if owner == player and money >= lots[lot].price and lots[lot].block != closed:
            out.extend(_builds(lot, open_colors))
    max_height = engine.max_height(s)
    reorg_cost, raise_cost = p.reorg.cost_per_pip, p.raise_.cost_per_space
    may_gamble = s.gambles < p.gamble.per_turn
    # Engine.sprawl_cost, remodel_cost and bet_cap, spelled out: they are asked for every casino before every decision
    sprawl_rate, riser_cost = p.sprawl.cost_multiplier, p.sprawl.riser_cost
    remodel_rate, remodel_spaces = p.remodel.cost_per_unit, p.remodel.counts == "spaces"
    bet_per_tile, risers_bet, cap_at_boss = p.gamble.bet_per_tile, engine.bet_counts_risers, p.gamble.cap_at_boss_money
    index = engine.index(s)
    frontiers = index.frontiers
    for casino, facts in index.with_dice(s.tiles):
        b = facts.boss
        if b == player:
            # sprawl (why_not_sprawl): from your casino into an adjacent unowned empty lot
            if left[casino.color] > 0:
                extra = riser_cost * (casino.height - 1)
                reach = frontiers.get(casino.lots)
                for n in (reach if reach is not None else frontier(board, s, casino)):
                    if n not in markers and lots[n].block != closed and money >= lots[n].price * sprawl_rate + extra:
                        out.append(_sprawl(n, casino.name))
            # remodel (why_not_remodel)
            needed = casino.spaces if remodel_spaces else casino.physical_tiles
            if money >= remodel_rate * needed:
                colors = colors_with.get(needed)
                if colors is None:
                    colors = colors_with[needed] = tuple(c for c in engine.board.colors if left[c] >= needed)
                out.extend(_remodels(casino.name, casino.color, colors))
            # raise (why_not_raise)
            if p.raise_.enabled and casino.height < max_height and money >= raise_cost * casino.spaces:
                out.append(_raise(casino.name))
        # reorganize (why_not_reorganize): a die in it, not locked this turn, the pips paid
        if player in facts.owners and money >= facts.pips * reorg_cost and s.reorganized.isdisjoint(casino.lots):
            out.append(_reorganize(casino.name))
        # gamble (why_not_gamble): once a turn, against another player's casino, a bet of at least $1
        if may_gamble and b is not None and b != player:
            cap = bet_per_tile * (casino.physical_tiles if risers_bet else casino.spaces)
            if money < cap:
                cap = money
            if cap_at_boss and s.players[b].money < cap:
                cap = s.players[b].money
            if cap >= 1:
                out.append(_gamble(casino.name, cap))
    out.append(_END)
    return out
