"""Remodel's generator looks up its remodels by the colours with enough tiles left: the board's own tuple (every
colour, most lists) found by identity in its table (``RemodelTable.every_first``, no tuple of colours hashed), a
shorter tuple (a colour nearly used up) by value. Either way, at each casino the player bosses, every other colour
with as many tiles left as the casino needs, in the board's order, where the player can pay."""

import random

import pytest

from lv import legal
from lv.actions import remodel
from lv.actions._family import tiles_left

from test_legal_agrees import random_position


def _expected(game, m, i, budget):
    """Remodel's ``why_not`` read colour by colour at the casino of row ``i``."""
    e, s = game.engine, game.state
    casino = m.casinos[i][0]
    table = e.family_tables.remodel
    needed = casino.spaces if table.by_space else casino.physical_tiles
    if budget < table.per * needed:
        return []
    return [c for c in e.board.colors if c != casino.color and tiles_left(e, s, c) >= needed]


def test_the_board_colours_table_is_the_one_by_value():
    """The table by identity is the table the colours' tuple finds by value (one table, filled by both ways)."""
    game = random_position("revised", 4, random.Random("remodel table"))
    table = game.engine.family_tables.remodel
    assert table.every is game.engine.board.colors
    assert table.made[tuple(game.engine.board.colors)] is table.every_first


@pytest.mark.parametrize("spec,players", [("revised", 4), ("original", 3)])
def test_the_remodels_listed_are_the_colours_with_enough_tiles_left(spec, players):
    """Random positions (colours nearly used up among them), every casino the player bosses, budgets around each
    casino's price: the listed remodels' colours are the other colours with enough tiles left, in board order,
    at the casino's first lot; both ways met."""
    rng = random.Random(f"remodel colours {spec}")
    short = every = 0
    for _ in range(60):
        game = random_position(spec, players, rng)
        e, s = game.engine, game.state
        if s.phase != "actions":
            continue
        legal.fill(e, s, [], [])
        legal.empty(e.slots)
        m = e.moment
        bossed = [i for i, (casino, facts) in enumerate(m.casinos) if facts.boss == m.player]
        table = e.family_tables.remodel
        budgets = {0, table.per - 1, 200} | {table.per * m.casinos[i][0].spaces for i in bossed}
        for budget in sorted(budgets):
            m.budget = budget
            remodel.FAMILY.generate_casinos(m, bossed)
            for i in bossed:
                want = _expected(game, m, i, budget)
                got = m.slots[i]
                assert [a.color for a in got] == want, (m.casinos[i][0], budget)
                assert all(a.lot == m.casinos[i][0].name for a in got)
                if want:
                    if len(want) == len(e.board.colors) - 1:
                        every += 1
                    else:
                        short += 1
            legal.empty(m.slots)
    assert every > 20 and short > 5, (every, short)


def test_the_remodels_listed_along_whole_games():
    """Whole games (the same casinos met with every colour left and, late, with a colour nearly used up): at each
    list, remodel's decisions at each casino the player bosses are the other colours with enough tiles left."""
    import lv
    from lv import bots

    short = 0
    for spec, players, seed in (("revised", 4, 31), ("revised", 4, 32), ("original", 4, 33), ("revised", 2, 34)):
        game = lv.new_game(spec, players, seed)
        rng = random.Random(seed)
        while not game.over:
            listed = game.legal_actions()
            e, s = game.engine, game.state
            if s.phase == "actions":
                m = e.moment
                bossed = [i for i, (casino, facts) in enumerate(m.casinos) if facts.boss == m.player]
                m.budget = 200  # (every casino's price: the colours alone decide)
                remodel.FAMILY.generate_casinos(m, bossed)
                for i in bossed:
                    want = _expected(game, m, i, 200)
                    assert [a.color for a in m.slots[i]] == want, (m.casinos[i][0], s.color_counts)
                    short += 0 < len(want) < len(e.board.colors) - 1
                legal.empty(m.slots)
                m.budget = s.players[m.player].money
            game.apply(bots.uniform_bot(game, listed, rng))
    assert short > 0
