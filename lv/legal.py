"""The legal decisions of the current player, from the same ``why_not_*`` predicates the referee uses.

A gamble is listed once per casino, with the largest bet allowed (any bet from $1 up to it is legal; the
boss may lay off where the profile allows). Trades are not enumerated: any combination can be proposed.
"""

from __future__ import annotations

from . import actions as A
from .casinos import boss, has_die
from .rules import Engine
from .state import GameState


def legal_actions(engine: Engine, s: GameState) -> list:
    if s.phase != "actions":
        return []
    player = s.current
    money = s.players[player].money
    board = engine.board
    out: list = []
    casinos = engine.casinos(s)
    available = {c: engine.available_tiles(s, c) for c in board.colors}
    # build: 000 L128-133 / 003 L526-540
    for lot, owner in s.markers.items():
        if owner == player and money >= board.lots[lot].price and not engine.f_closed(s, lot):
            out.extend(A.Build(lot, c) for c in board.colors if available[c] > 0)
    bosses = {c.lots: boss(s, c) for c in casinos}
    for casino in casinos:
        mine = bosses[casino.lots] == player
        if mine:
            # sprawl
            if available[casino.color] > 0:
                seen = set()
                for lot in casino.lots:
                    for n in board.lots[lot].neighbours:
                        if n in seen or n in s.tiles or n in s.markers:
                            continue
                        seen.add(n)
                        if engine.why_not_sprawl(s, player, n, casino.name) is None:
                            out.append(A.Sprawl(n, casino.name))
            # remodel
            cost, needed = engine.remodel_cost(casino)
            if money >= cost:
                out.extend(A.Remodel(casino.name, c) for c in board.colors
                           if c != casino.color and available[c] >= needed)
            # raise
            if engine.why_not_raise(s, player, casino.name) is None:
                out.append(A.Raise(casino.name))
        if has_die(s, casino, player) and engine.why_not_reorganize(s, player, casino.name) is None:
            out.append(A.Reorganize(casino.name))
        b = bosses[casino.lots]
        if b is not None and b != player and engine.why_not_gamble(s, player, casino.name, None) is None:
            out.append(A.Gamble(casino.name, engine.bet_cap(s, casino, player)))
    out.append(A.EndTurn())
    return out
