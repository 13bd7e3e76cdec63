"""What the legal list keeps from one list to the next (lv/legal.py's ``_roles``, kept for the same casino list
and player; ``Moment.moment``'s tile facts, kept for the same state and structure stamp, and the colours with at
least N tiles left) against the plain way, over random games, also for a copy of the state with another player to
move (the same casino list object, another player's roles) and for another state with the same stamp. Both ways of
working out the roles (the compiled build's loop and pure Python's) run here in the pure build, through the
module's ``_COMPILED`` flag."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lv
from lv import legal
from lv.legal import legal_count

from test_legal_counted import moment_masks


def plain_roles(game, s):
    """The casinos the player to move is the boss of, has a die in, another player is the boss of
    (``Family.casinos``), as masks of their positions in the casino list."""
    player = s.current
    pairs = game.engine.index(s).with_dice()
    return (sum(1 << i for i, (_, f) in enumerate(pairs) if f.boss == player),
            sum(1 << i for i, (_, f) in enumerate(pairs) if player in f.owners),
            sum(1 << i for i, (_, f) in enumerate(pairs) if f.boss is not None and f.boss != player))


def check(game, s):
    """List the decisions of ``s`` (filling the engine's moment) and compare what the moment holds."""
    e = game.engine
    legal_count(e, s)
    m = e.moment
    assert m.state is s and m.player == s.current
    assert m.casinos is e.index(s).with_dice()
    roles = plain_roles(game, s)
    assert moment_masks(m) == roles, s.turn
    colors = game.board.colors
    left = {c: e.available_tiles(s, c) for c in colors}
    assert m.left == left, s.turn
    assert m.open_colors == tuple(c for c in colors if left[c] > 0)
    for needed in range(e.profile.components.tiles_per_color + 2):
        assert m.colors_with_at_least(needed) == tuple(c for c in colors if left[c] >= needed), (s.turn, needed)
    for needed, found in m.colors_with.items():  # those kept, also before they were asked for
        assert found == tuple(c for c in colors if left[c] >= needed), (s.turn, needed)


@pytest.mark.parametrize("compiled_way", [True, False])
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**31),
       config=st.sampled_from([("revised", 4), ("original", 3), ("revised", 6), ("revised,casino.join_rule=color", 3),
                               ("original+f-block", 2)]))
def test_what_the_legal_list_keeps_agrees_with_the_plain_way(seed, config, compiled_way, monkeypatch):
    monkeypatch.setattr(legal, "_COMPILED", compiled_way)
    spec, players = config
    game = lv.new_game(spec, players, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not game.over:
        s = game.state
        if s.phase == "actions":
            check(game, s)
            if rng.random() < 0.3:  # the same casino list for another player, then this one's again
                twin = s.copy()
                twin.current = (s.current + 1 + rng.randrange(players - 1)) % players
                assert game.engine.index(twin).with_dice() is game.engine.index(s).with_dice()
                check(game, twin)
                check(game, s)
            if rng.random() < 0.1:  # another state with the same stamp (as if from another process): its tiles
                other = s.copy()
                free = [lot for lot in game.board.order if lot not in s.tiles and lot not in s.markers]
                color = next(c for c in game.board.colors if game.engine.available_tiles(s, c) > 0)
                other.place_tile(free[0], color, 1, None, None)
                other.structure, other._memo = s.structure, None
                check(game, other)
                check(game, s)
            checked += 1
        game.apply(game.random_legal(rng))
    assert checked > 20


def test_the_decisions_the_generators_keep_are_those_made_from_their_fields():
    """The generators keep their decisions (made once, by lot and colour, lv/actions/build.py ...): each listed one
    equals the decision made again from its fields, with the same hash and text, so that the referee's ``in``, a
    search's dictionaries and a record agree whichever of the two they meet."""
    from lv import actions as A

    game = lv.new_game("revised", 4, 5)
    rng = random.Random(5)
    pairs = []
    while not game.over and len(pairs) < 3000:  # the sprawls (made in sprawl._reach), and every other kind listed
        pairs += [(a, type(a)(*a._values())) for a in game.legal_actions()]
        game.apply(game.random_legal(rng))
    assert any(isinstance(a, A.Sprawl) for a, _ in pairs) and any(isinstance(a, A.Gamble) for a, _ in pairs)
    for made, plain in pairs:
        assert made is not plain and type(made) is type(plain) and made == plain and hash(made) == hash(plain)
        assert repr(made) == repr(plain) and made._values() == plain._values()

