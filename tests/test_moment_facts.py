"""The tile facts every generator of the legal list reads (``Moment.left``, ``open_colors``, ``colors_with``) are
those of the state listed: worked out again whenever its tiles change (``Moment.moment``, ``_facts_of``), in
whole games and in random positions; while every colour has a tile left the open colours are the board's own
tuple (the very same object each time: build keeps its decisions by it)."""

import importlib
import random

import pytest

import lv
from lv import bots
from lv.actions._family import _facts_of, tiles_left

_family = importlib.import_module("lv.actions._family")  # (``lv.actions._family`` as an attribute is a family)

from test_legal_agrees import random_position


def test_the_facts_of_the_tiles_on_the_board():
    colors = ("red", "blue", "gold", "green", "pink")
    left, opened, colors_with = _facts_of(9, colors, [0, 3, 8, 2, 1])
    assert left == {"red": 9, "blue": 6, "gold": 1, "green": 7, "pink": 8}
    assert opened is colors and colors_with == {1: colors}  # all open: the tuple given, no other made
    left, opened, colors_with = _facts_of(9, colors, [9, 3, 0, 9, 1])  # red and green: none left
    assert left == {"red": 0, "blue": 6, "gold": 9, "green": 0, "pink": 8}
    assert opened == ("blue", "gold", "pink") and colors_with == {1: opened}
    assert _facts_of(9, colors, [9] * 5)[1] == ()


def facts_agree(game):
    """The moment of the last list has the state's tile facts."""
    e, s = game.engine, game.state
    listed = game.legal_actions()
    m = e.moment
    if s.phase != "actions" or m is None:
        return listed
    colors = e.board.colors
    left = {c: tiles_left(e, s, c) for c in colors}
    assert m.left == left
    assert m.open_colors == tuple(c for c in colors if left[c] > 0)
    if all(left[c] > 0 for c in colors):
        assert m.open_colors is colors
    for needed in (1, 2, 3, 5):
        assert m.colors_with_at_least(needed) == tuple(c for c in colors if left[c] >= needed)
    return listed


@pytest.mark.parametrize("compiled", [False, True])
def test_the_moment_has_the_tile_facts_of_each_state_listed(compiled, monkeypatch):
    """(``compiled``: the compiled build's ways, also in the pure build.)"""
    monkeypatch.setattr(_family, "_COMPILED", compiled)
    for spec, players, seed in (("revised", 4, 31), ("original", 3, 32), ("revised", 2, 33)):
        game = lv.new_game(spec, players, seed)
        rng = random.Random(seed)
        while not game.over:
            game.apply(bots.uniform_bot(game, facts_agree(game), rng))
    rng = random.Random("moment facts")
    game = None
    for spec, players in (("revised", 4), ("original", 2), ("revised", 6)) * 5:
        game = random_position(spec, players, rng)  # another state each time, some with a colour used up
        facts_agree(game)
