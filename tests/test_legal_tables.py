"""The families' tables by count (``Counted``: lv/actions/_family.py), which the legal list's generators index where
the predicates call the formula: each entry is the formula's value, and the tuple reaches the largest count a
game on the board can have (past it a generator calls the formula, right but slow). tests/test_legal_agrees.py
compares the two over random games; this checks every count, under every configuration it plays."""

import pytest

import lv
from lv.actions._family import Counted

from conftest import positions


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


def test_at_is_the_formula_at_every_count():
    """``Counted.at`` (the families' ``cost``, the gamble's cap) reads ``dense`` below ``top``, the formula past it
    and below 0: the same value at every count."""
    costs = Counted(lambda n: 3 * n + 1, 5)
    assert [costs.at(n) for n in range(-3, 12)] == [3 * n + 1 for n in range(-3, 12)]


COSTED = (lv.actions.Build, lv.actions.Sprawl, lv.actions.Raise, lv.actions.Remodel, lv.actions.Reorganize)


@pytest.mark.parametrize("spec,players", [("original", 4), ("revised", 4), ("revised,casino.join_rule=color", 3),
                                          ("revised,raise.cost_per_space=0,remodel.cost_per_unit=0,"
                                           "reorg.cost_per_pip=0,sprawl.cost_multiplier=0,sprawl.riser_cost=0", 3)])
def test_action_cost_is_the_money_the_decision_takes(spec, players):
    """``Engine.action_cost`` of each listed build, sprawl, raise, remodel and reorganize (the families' ``cost``,
    read from the engine's tables) is what carrying it out takes from its player, over random games."""
    checked = 0
    for seed in range(2):
        for game, legal, _ in positions(spec, players, seed):
            s = game.state
            if s.phase == "actions":
                for action in legal:
                    if not isinstance(action, COSTED):
                        continue
                    player = s.current
                    before = s.players[player].money
                    cost = game.engine.action_cost(s, action)
                    game.push(action)
                    assert before - game.state.players[player].money == cost, (spec, s.turn, action)
                    game.pop()
                    checked += 1
    assert checked > 50
