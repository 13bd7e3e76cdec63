"""Pure Python's uniform pick keeps the positions of each role's casinos from one list to the next where the casino
index's dice facts by first lot are the same objects (``CasinoIndex._facts``; a remodel's or a raise's list: new
casinos, the same dice) for the same player, rather than listing them again (``legal.random_pick``,
``Moment.roles_facts``): the positions are always those of the current list. It lists the player's casinos alone
where every other casino has a boss: the rivals' are then every casino the player does not boss, counted (``Moment.rivals_count``), their place in ``Moment.by_role`` ``legal._UNLISTED``."""

import random

import pytest

import lv
from lv import bots, legal


pytestmark = pytest.mark.skipif(not legal.__file__.endswith(".py"),
                                reason="compiled, the pick works out the roles its own way (masks, pair by pair)")


@pytest.fixture(autouse=True)
def pure(monkeypatch):
    """Pure Python's way (in the pure build; compiled code reads its own constant)."""
    monkeypatch.setattr(legal, "_COMPILED", False)


def _roles_now(m):
    """The positions of each role's casinos of the moment's list for its player, worked out from scratch."""
    player, pairs = m.player, m.casinos
    return ([i for i, (_, f) in enumerate(pairs) if f.boss == player],
            [i for i, (_, f) in enumerate(pairs) if player in f.owners],
            [i for i, (_, f) in enumerate(pairs) if f.boss is not None and f.boss != player])


def _rows(m):
    """The moment's positions of each role; the rivals', where the pick did not list them, every casino the player
    does not boss (their number the moment's count)."""
    rivals = m.by_role[2]
    if rivals is legal._UNLISTED:
        assert m.rivals_count == len(m.casinos) - len(m.bossed_rows)
        rivals = [i for i in range(len(m.casinos)) if i not in m.bossed_rows]
    else:
        assert rivals is m.rivals_rows
    return m.bossed_rows, m.diced_rows, rivals


@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 91), ("original", 3, 92), ("revised", 2, 93),
                                               ("house-sell-back", 2, 94), ("revised,casino.join_rule=color", 3, 95)])
def test_the_roles_kept_by_dice_facts_are_the_lists(spec, players, seed, monkeypatch):
    """Whole games played by the pick alone (as ``bots.play`` plays the uniform bot): after each pick the positions
    are the current list's; lists whose casinos changed but not their dice, for the same player, kept them."""
    game = lv.new_game(spec, players, seed)
    rng = random.Random(seed)
    kept = 0
    before = None
    while not game.over:
        e, s = game.engine, game.state
        listed = None if e.moment is None else e.moment.roles_facts  # (a new copy each time the pick lists them)
        decision = game.random_legal(rng)
        m = e.moment
        if s.phase == "actions" and m is not None and m.state is s:
            assert _rows(m) == _roles_now(m)
            if before is not None and m.casinos is not before[0] and m.player == before[1] and m.roles_facts is listed:
                kept += 1
            before = (m.casinos, m.player)
        game.apply(decision)
    assert kept > 3


def test_a_list_of_another_state_between_two_picks(monkeypatch):
    """The same engine's moment asked for the list of another state (the game's copy, a decision further) between
    two picks of the game's: each list's positions are its own (the other list's roles are not taken for the
    pick's, though the pick's state's dice facts did not change)."""
    game = lv.new_game("revised", 4, 96)
    rng = random.Random(96)
    e = game.engine
    checked = 0
    while not game.over:
        s = game.state
        decision = game.random_legal(rng)
        if s.phase == "actions":
            other = game.copy()
            other.apply(other.random_legal(random.Random(checked)))
            if other.state.phase == "actions":
                out, after = [], []
                legal.fill(e, other.state, out, after)  # the other state's list, on the game's engine's moment
                legal.empty(e.slots)
                assert _rows(e.moment) == _roles_now(e.moment)
                assert e.moment.by_role[2] is e.moment.rivals_rows  # (a list made: every role listed)
                again, _ = legal.random_pick(e, s, random.Random(0))  # the game's state again
                assert _rows(e.moment) == _roles_now(e.moment)
                listed = game.legal_actions()
                assert again == listed[legal.below(random.Random(0), len(listed))]
                checked += 1
        game.apply(decision)
    assert checked > 20


def test_the_compiled_way_after_the_pick_lists_the_rivals(monkeypatch):
    """The pick's roles (the rivals' casinos left out) then a list made the compiled way on the same moment (masks,
    the positions written where kept): the same list as the pure way's, the pick's count its length."""
    for spec, players, seed in (("revised", 4, 97), ("original", 3, 98)):
        game = lv.new_game(spec, players, seed)
        rng = random.Random(seed)
        k = 0
        while not game.over:
            e, s = game.engine, game.state
            monkeypatch.setattr(legal, "_COMPILED", False)
            _, n = legal.random_pick(e, s, random.Random(k))
            if s.phase == "actions":
                monkeypatch.setattr(legal, "_COMPILED", True)
                got = legal.legal_actions(e, s)
                monkeypatch.setattr(legal, "_COMPILED", False)
                assert got == legal.legal_actions(e, s) and len(got) == n
            game.apply(bots.uniform_bot(game, game.legal_actions(), rng))
            k += 1
