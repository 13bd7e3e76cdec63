"""Pure Python's pick (``legal.random_pick``) renews the engine's moment itself, ``Moment.moment`` written out where
every colour has a tile left (``legal.fill``'s listing written out too): whatever it leaves in the moment is what a
new moment of the same state says (the player, their money and budget, the markers, the casino index, the tiles'
facts), list after list of whole games, the pick made first (before anything else renews the moment), on the
game's own state and on copies of it (another state, the same engine's moment), and a colour run out of tiles;
and the decisions after the casinos, counted and made by their families, drawn where two families list them."""

import random

import pytest

import lv
from lv import bots, legal
from lv.actions._family import Family, Moment
from lv.chance import below

from test_legal_agrees import random_position
from test_legal_counted import _using
from test_legal_pure import _Drawn


@pytest.fixture(autouse=True)
def pure(monkeypatch):
    """Pure Python's way (in the pure build; compiled code reads its own constant)."""
    monkeypatch.setattr(legal, "_COMPILED", False)


def _same_as_new(engine, s):
    """The engine's moment says of ``s`` what a new moment of ``s`` says."""
    m, fresh = engine.moment, Moment(engine, s)
    assert m.state is s and m.structure == s.structure
    assert (m.player, m.money, m.budget) == (fresh.player, fresh.money, fresh.budget)
    assert m.markers is s.markers and m.index is fresh.index
    assert (m.closed, m.max_height, m.players) == (fresh.closed, fresh.max_height, fresh.players)
    assert m.open_colors == fresh.open_colors
    assert m.left == fresh.left
    for needed in sorted(set(m.colors_with) | {1, 2, 3, 4}):  # (the generators may have asked for more)
        assert m.colors_with_at_least(needed) == fresh.colors_with_at_least(needed), needed


def _pick_first(game, seed):
    """The pick, then the list: the decision the list's at the index ``below`` draws, the moment as a new one."""
    e, s = game.engine, game.state
    got, n = legal.random_pick(e, s, random.Random(seed))
    if s.phase == "actions":
        _same_as_new(e, s)
    listed = game.legal_actions()
    assert n == len(listed)
    if listed:
        assert got == listed[below(random.Random(seed), len(listed))]
    return listed


@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 81), ("original", 3, 82), ("revised", 2, 83),
                                               ("house-sell-back", 2, 84)])
def test_the_pick_leaves_the_moment_a_new_moment_would_be(spec, players, seed):
    game = lv.new_game(spec, players, seed)
    rng = random.Random(seed)
    k = 0
    while not game.over:
        listed = _pick_first(game, seed * 1000 + k)
        game.apply(bots.uniform_bot(game, listed, rng))
        k += 1
    assert k > 50


def test_the_pick_on_copies_and_a_colour_run_out():
    """Another state on the same engine's moment (copies of the game's state, picked first, every other
    decision), and the tiles of a colour all on the board (the moment's way round the written-out renewal)."""
    game = lv.new_game("revised", 4, 85)
    rng = random.Random(85)
    e = game.engine
    k = copies = shut = 0
    while not game.over:
        if k % 2 and game.state.phase == "actions":
            twin = game.state.copy()
            got, n = legal.random_pick(e, twin, random.Random(k))
            _same_as_new(e, twin)
            copies += 1
        s = game.state
        if s.phase == "actions" and k % 5 == 3:  # a colour's tiles all on the board, in a copy
            twin = s.copy()
            twin.color_counts[k % len(twin.color_counts)] = e.profile.components.tiles_per_color
            got, n = legal.random_pick(e, twin, random.Random(k))
            _same_as_new(e, twin)
            assert len(e.moment.open_colors) < len(e.board.colors)
            shut += 1
        listed = _pick_first(game, k)
        game.apply(bots.uniform_bot(game, listed, rng))
        k += 1
    assert copies > 20 and shut > 10


class _After(Family):
    """A house rule's family listed after the casinos, before the end of the turn: ``k`` decisions (the protocol's
    defaults count and make them from ``generate_after``)."""

    def __init__(self, k):
        super().__init__(name="after", order=79, decisions=(tuple,), verbs=("after",), generates_after=True,
                         legal_order=79, applies=False)
        self.k = k

    def generate_after(self, m, out):
        out.extend([("after", m.player, j) for j in range(self.k)])


@pytest.mark.parametrize("k", [0, 1, 3])
def test_the_decisions_after_the_casinos_of_two_families_each_drawn(k):
    """The pick counts the families after the casinos (``count_after``) and makes the drawn one (``make_after``):
    with a house rule's family before the end of the turn, every index of the list drawn is the list's."""
    rng = random.Random(f"after {k}")
    drawn = 0
    for spec, players in (("revised", 4), ("original", 3)):
        for _ in range(6):
            game = random_position(spec, players, rng)
            plan = legal.Plan(game.engine.profile)
            plan.after = [_After(k)] + plan.after
            with _using(game, plan):
                e, s = game.engine, game.state
                listed = legal.legal_actions(e, s)
                for i in range(len(listed)):
                    got, n = legal.random_pick(e, s, _Drawn(i))
                    assert got == listed[i] and n == len(listed), (i, listed[i], got)
                    drawn += i >= len(listed) - k - 1
    assert drawn > 6 * (k + 1)
