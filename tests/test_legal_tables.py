"""The families' tables by count (``Counted``: lv/actions/_family.py), which the legal list's generators index where
the predicates call the formula: each entry is the formula's value, and the tuple reaches the largest count a
game on the board can have (past it a generator calls the formula, right but slow). tests/test_legal_agrees.py
compares the two over random games; this checks every count, under every configuration it plays."""

import pytest

import lv
from lv.actions._family import Counted


@pytest.mark.parametrize("spec,players", [("original", 4), ("revised", 4), ("revised", 6),
                                          ("revised,casino.join_rule=color", 3)])
def test_counted_tables_are_their_formula(spec, players):
    game = lv.new_game(spec, players, seed=0)
    profile, board = game.engine.profile, game.engine.board
    tiles = len(board.order) * profile.max_height(profile.players.max)  # the most tiles and risers a casino has
    tops = {"gamble": ("caps", tiles), "remodel": ("costs", tiles), "raise": ("costs", len(board.order)),
            "reorganize": ("costs", 6 * len(board.order))}
    for name, (field, most) in tops.items():
        table = game.engine.tables.get(name)
        if table is None:  # raise, where risers are off
            continue
        costs = getattr(table, field)
        assert isinstance(costs, Counted), name
        assert costs.top > most, name
        assert list(costs.dense) == [costs.formula(n) for n in range(costs.top)], name
