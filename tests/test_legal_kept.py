"""The legal list keeps each block's decisions from list to list and makes anew only those of the blocks where
something they depend on changed (lv/legal.py, ``_Kept``). The uniform bot picks by index, so the kept list must
be the list made anew, decision for decision and in the same order: checked here before every decision of random
games under every profile in variants/ (2-6 players, with trades, probes, failed dice and one engine asked about
several states in turn, as mcts asks it), and in random positions."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lv
from lv import actions as A
from lv.legal import legal_actions, legal_count, legal_pick, random_pick

from conftest import random_trade
from test_legal_agrees import random_position

# every profile in variants/ (the board aside), the overlay on both editions, and what-if profiles
CONFIGS = [("original", 2), ("original", 4), ("revised", 3), ("revised", 5), ("revised", 6),
           ("original+f-block", 2), ("revised+f-block", 2), ("house-sell-back", 4), ("house-sell-back", 2),
           ("original,raise.enabled=true,raise.max_height=players,gamble.cap_at_boss_money=true", 4),
           ("revised,casino.join_rule=color,remodel.counts=physical_tiles", 3),
           ("revised,gamble.per_turn=3,components.tiles_per_color=6", 4)]


def agrees(engine, s, where) -> None:
    """The kept list is the fresh one; the count and the picks read the same list."""
    fresh = legal_actions(engine, s, keep=False)
    kept = legal_actions(engine, s)
    assert kept == fresh, where
    assert legal_count(engine, s) == len(fresh), where
    if fresh:
        i = len(fresh) // 2
        assert legal_pick(engine, s, lambda n: i)[0] == fresh[i], where
        rng = random.Random(len(fresh))
        assert random_pick(engine, s, rng)[0] == fresh[random.Random(len(fresh)).randrange(len(fresh))], where


def pick(game, rng: random.Random):
    """A random legal decision, by kind first (so remodels, raises and sprawls come up often)."""
    kinds: dict[type, list] = {}
    for a in game.legal_actions():
        kinds.setdefault(type(a), []).append(a)
    kind = rng.choice(list(kinds))
    if kind is A.EndTurn and len(kinds) > 1 and rng.random() < 0.7:
        kind = rng.choice([k for k in kinds if k is not A.EndTurn])
    a = rng.choice(kinds[kind])
    return lv.Gamble(a.lot, rng.randint(1, a.bet)) if isinstance(a, lv.Gamble) else a


def play(spec: str, players: int, seed: int) -> int:
    rng = random.Random(seed)
    game = lv.new_game(spec, players, seed=seed)
    engine = game.engine
    saved = []  # earlier states of this game: the engine is asked about one now and then, as mcts asks it
    checked = 0
    for step in range(3000):
        if game.over:
            return checked
        s = game.state
        where = f"{spec} {players}p seed {seed} step {step} turn {s.turn}"
        agrees(engine, s, where)
        checked += 1
        if saved and rng.random() < 0.1:
            old = rng.choice(saved)
            agrees(engine, old, where + " (an earlier state)")
            agrees(engine, s, where + " (back to the game)")
        if rng.random() < 0.05:
            saved.append(s.copy())
        r = rng.random()
        if r < 0.07:
            try:
                game.apply(random_trade(game, rng, pick, overdraw=5))
            except lv.IllegalAction:
                pass
        elif r < 0.1:
            game.why_not(pick(game, rng))  # on a copy of the state
        elif r < 0.5:
            game.apply(game.random_legal(rng))  # the uniform bot's fast path
        else:
            game.apply(pick(game, rng))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("spec,players", CONFIGS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_the_kept_list_is_the_fresh_list_before_every_decision_of_random_games(spec, players, seed):
    assert play(spec, players, seed) > 10


@pytest.mark.parametrize("spec,players", [("original", 4), ("revised", 4), ("revised", 2), ("original+f-block", 2),
                                          ("house-sell-back", 3), ("revised,casino.join_rule=color", 3)])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_the_kept_list_is_the_fresh_list_in_random_positions_one_engine_after_another(spec, players, seed):
    """Random positions (tall casinos, players short of money, locks) asked of one engine in turn: what one
    position kept must not leak into the next, nor into the same position with one thing changed."""
    rng = random.Random(seed)
    first = random_position(spec, players, rng)
    engine = first.engine
    for _ in range(4):
        game = random_position(spec, players, rng)
        s = game.state
        agrees(engine, s, "a random position")
        # the same position, one thing changed: the mover's money, another's, the gambles, a marker, a lock
        twin = s.copy()
        what = rng.randrange(5)
        empty = [lot for lot in game.board.order if lot not in s.tiles and lot not in s.markers]
        dice = [lot for lot, t in s.tiles.items() if t.owner is not None and lot not in s.reorganized]
        if what == 0:
            twin.players[twin.current].money = rng.randint(0, 60)
        elif what == 1:
            twin.players[rng.randrange(len(twin.players))].money = rng.randint(0, 60)
        elif what == 2:
            twin.gambles = 1 - twin.gambles
        elif what == 3 and empty:
            twin.put_marker(rng.choice(empty), rng.randrange(len(twin.players)))
        elif dice:
            twin.reorganized.add(rng.choice(dice))
        agrees(engine, twin, f"the same position, changed ({what})")
        agrees(engine, s, "the position again")
