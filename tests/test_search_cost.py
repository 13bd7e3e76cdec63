"""What the search's speed-ups rest on (lv/mcts.py, lv/legal.py, lv/bots.py): each is a shortcut that must give the
very decisions of the long way, so the games of ``mcts`` stay the same, byte for byte (tests/test_mcts.py pins
seeded games).

- ``legal_actions_of(engine, s, kinds)``, the list of only some families' decisions (the draw and the end of the
  turn always), is ``legal_actions`` with the others left out, in the same order;
- a sampled ``Dice`` that ``forget``s what it rolled is as a new one (the search rolls one from step to step);
- ``greedy`` takes the same decision from that list, with ``GREEDY_TAKES``, as from the whole list (it values
  nothing else), drawing the same numbers from its generator: the imagined games of the search list only those.
"""

from __future__ import annotations

import random

import pytest

import lv
from lv import actions as A
from lv import bots as B
from lv.chance import Dice
from lv.legal import legal_actions, legal_actions_of, plan_of

FAMILY_OF = {cls: f for f in A.FAMILIES for cls in f.decisions}
KINDS = [B.GREEDY_TAKES, frozenset(), frozenset({"build"}), frozenset({"remodel", "gamble"}),
         frozenset({"sell", "raise"}), frozenset(B.restrictable_kinds())]


def _kept(legal: list, kinds: frozenset[str]) -> list:
    return [a for a in legal if not FAMILY_OF[type(a)].applies or FAMILY_OF[type(a)].name in kinds]


@pytest.mark.parametrize("spec,players", [("revised", 4), ("original", 4), ("original+f-block", 3),
                                          ("house-sell-back", 3), ("revised", 2)])
def test_the_list_of_some_kinds_is_the_whole_list_filtered(spec, players):
    for seed in range(2):
        game = lv.new_game(spec, players, seed=seed)
        rng = random.Random(seed)
        seen: set[str] = set()
        while not game.over:
            legal = game.legal_actions()
            for kinds in KINDS:
                kept = _kept(legal, kinds)
                assert legal_actions_of(game.engine, game.state, kinds) == kept, (game.state.turn, kinds)
                assert legal_actions_of(game.engine, game.state, plan_of(game.engine, kinds)) == kept
            seen |= {FAMILY_OF[type(a)].name for a in legal}
            # the whole list again after the partial ones: nothing of theirs is left behind in the engine's slots
            assert legal_actions(game.engine, game.state) == legal
            game.apply(B.random_kind_bot(game, legal, rng))
        assert {"build", "sprawl", "remodel", "gamble", "end"} <= seen
        if spec == "house-sell-back":
            assert "sell" in seen


@pytest.mark.parametrize("spec,players", [("revised", 4), ("original", 3), ("house-sell-back", 2)])
def test_greedy_takes_the_same_decision_from_the_list_of_its_kinds(spec, players):
    for seed in range(3):
        game = lv.new_game(spec, players, seed=seed)
        rng = random.Random(seed)
        compared = 0
        while not game.over:
            legal = game.legal_actions()
            if type(legal[0]) is not A.LayOff:
                mine = legal_actions_of(game.engine, game.state, B.GREEDY_TAKES)
                state = rng.getstate()
                a = B.greedy_bot(game, legal, rng)
                after = rng.getstate()
                rng.setstate(state)
                assert B.greedy_bot(game, mine, rng) == a and rng.getstate() == after
                compared += 1
            game.apply(B.random_kind_bot(game, legal, rng) if rng.random() < 0.5 else B.greedy_bot(game, legal, rng))
        assert compared > 20


def test_a_dice_that_forgets_is_as_a_new_one():
    rng = random.Random(5)
    dice = Dice.sampled(rng)
    dice.gamble()
    dice.tie(["A1", "B2"])
    dice.reorg({0: ["C3"]})
    assert dice.used and dice.generated
    dice.forget()
    fresh = Dice.sampled(random.Random(0))
    assert (dice.used, dice.generated) == (fresh.used, fresh.generated) == ({}, [])
    state = rng.getstate()
    pair = dice.gamble()
    rng.setstate(state)
    assert pair == Dice.sampled(rng).gamble()  # the same dice from the same generator
    assert dice.used == {"gamble": list(pair)} and dice.generated == ["gamble"]
