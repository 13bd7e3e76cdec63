"""Complete random games run to their end through the API under every shipped configuration."""

import pytest

import lv
from lv import bots


@pytest.mark.parametrize("spec,players", [("original", 4), ("revised", 4), ("revised", 6), ("revised", 2),
                                          ("original+f-block", 2)])
def test_random_game_reaches_its_end(spec, players):
    game = lv.new_game(spec, players, seed=11)
    bots.play(game, [bots.random_bot] * players, seed=11)
    assert game.over
    assert game.result.reason in ("end_card", "instant_win")
    assert game.result.winner == game.result.ranking[0]
