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
from lv import mcts
from lv.chance import Dice, below
from lv.legal import _joined, fill, legal_actions, legal_actions_of, plan_of

from conftest import positions

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
        compared = 0
        for game, legal, rng in positions(spec, players, seed, _random_kind_or_greedy):
            if type(legal[0]) is not A.LayOff:
                mine = legal_actions_of(game.engine, game.state, B.GREEDY_TAKES)
                state = rng.getstate()
                a = B.greedy_bot(game, legal, rng)
                after = rng.getstate()
                rng.setstate(state)
                assert B.greedy_bot(game, mine, rng) == a and rng.getstate() == after
                compared += 1
        assert compared > 20


@pytest.mark.parametrize("spec,players", [("revised", 4), ("original", 3), ("house-sell-back", 2)])
def test_greedy_picks_from_the_parts_of_the_list_as_from_the_list(spec, players):
    """``GreedyBot.pick`` (a search's playouts: ``mcts.Picker``) reads the parts of the list ``legal.fill`` made,
    never joined: the decision ``greedy`` takes from the joined list, from the same draws; one of the listed objects
    (or a gamble at a stake it allows), so the search applies it trusted; and every slot left empty."""
    for seed in range(3):
        compared = 0
        for game, legal, rng in positions(spec, players, seed, _random_kind_or_greedy):
            if type(legal[0]) is A.LayOff:
                continue
            engine, s = game.engine, game.state
            for plan in (None, plan_of(engine, B.GREEDY_TAKES)):
                listed = legal if plan is None else legal_actions_of(engine, s, plan)
                state = rng.getstate()
                expected = B.greedy_bot(game, listed, rng)
                after = rng.getstate()
                rng.setstate(state)
                picked, trusted = B.greedy_bot.pick(engine, s, plan, rng)
                assert picked == expected and rng.getstate() == after
                assert trusted and mcts._listed(picked, listed)
                assert not any(engine.slots)
                compared += 1
        assert compared > 40


def test_greedy_picks_among_equal_sprawls_and_raises_and_without_gambles_as_from_the_list():
    """``GreedyBot.pick`` reads a sprawl's or a raise's cost only when its value reaches the best so far, and lists
    no gamble when it is not short of cash (worth 0 to it then): picked as from the joined list with every value
    worked out, with the same draws; among the positions, some where a sprawl or a raise ties the best (each drawn
    among) and some where it is not short."""
    tied = rich = 0
    for seed in range(4):
        for game, legal, rng in positions("revised", 4, seed, _random_kind_or_greedy):
            if type(legal[0]) is A.LayOff:
                continue
            engine, s = game.engine, game.state
            values = B.greedy_bot.values(game, legal)
            best = max(values)
            ties = [a for a, v in zip(legal, values) if v == best and v > 0]
            tie = len(ties) > 1 and any(isinstance(a, (A.Sprawl, A.Raise)) for a in ties)
            short = s.players[s.current].money < B.greedy_bot.short
            for plan in (None, plan_of(engine, B.GREEDY_TAKES)):
                listed = legal if plan is None else legal_actions_of(engine, s, plan)
                state = rng.getstate()
                expected = _greedy_by_values(game, listed, rng)  # (every value worked out: no shortcut of the scan)
                after = rng.getstate()
                rng.setstate(state)
                picked, trusted = B.greedy_bot.pick(engine, s, plan, rng)
                assert rng.getstate() == after and not any(engine.slots)
                _assert_greedy_took(picked, expected)
            tied += tie
            rich += not short and any(isinstance(a, A.Gamble) for a in legal)
    assert tied > 5 and rich > 20, (tied, rich)


PURCHASES = (A.Build, A.Sprawl, A.Remodel, A.Raise, A.Reorganize)  # the decisions ``Moment.budget`` limits


@pytest.mark.parametrize("spec,players", [("revised", 4), ("original", 3), ("original+f-block", 2)])
def test_a_list_that_keeps_money_is_the_list_less_the_purchases_that_would_spend_it(spec, players):
    """``legal.fill``'s ``keep`` (greedy's pick keeps its reserve): the very list without it, less each purchase whose
    cost (``action_cost``) would leave the player fewer than ``keep`` dollars, in the same order; the gambles (a stake
    from $1, the player's choice) and the rest as they were. Checked at the edge: a purchase costing exactly the
    money less ``keep`` stays listed."""
    edge = 0
    for seed in range(2):
        for game, legal, rng in positions(spec, players, seed, _random_kind_or_greedy):
            engine, s = game.engine, game.state
            if s.phase != "actions":
                continue
            money = s.players[s.current].money
            costs = {id(a): engine.action_cost(s, a) for a in legal if isinstance(a, PURCHASES)}
            for keep in (1, 4, 5, 9):
                out: list = []
                after: list = []
                n = fill(engine, s, out, after, None, keep)
                kept = _joined(engine, out, after, n)
                assert kept == [a for a in legal if id(a) not in costs or money - costs[id(a)] >= keep], (s.turn, keep)
                edge += any(money - c == keep for c in costs.values())
    assert edge > 10, edge


def test_a_dice_that_forgets_is_as_a_new_one():
    rng = random.Random(5)
    dice = Dice.sampled(rng)
    dice.gamble()
    dice.tie(["A1", "B2"])
    dice.reorg({0: ["C3"]})
    assert dice.used and not dice.generated  # a search's dice note that they rolled, not what (Dice.sampled)
    dice.forget()
    fresh = Dice.sampled(random.Random(0))
    assert (dice.used, dice.generated) == (fresh.used, fresh.generated) == ({}, [])
    state = rng.getstate()
    pair = dice.gamble()
    rng.setstate(state)
    assert pair == Dice.sampled(rng).gamble()  # the same dice from the same generator
    assert dice.used and not dice.generated


def _greedy_by_values(game, legal, rng):
    """greedy's decision the long way: every value listed (``values``), then the best of them drawn among."""
    values = B.greedy_bot.values(game, legal)
    best, choices = 0.0, []
    for value, action in zip(values, legal):
        if value > best:
            best, choices = value, [action]
        elif value == best and value > 0:
            choices.append(action)
    if not choices:
        return None
    return choices[0] if len(choices) == 1 else choices[below(rng, len(choices))]


def _assert_greedy_took(taken, expected):
    """``taken`` is greedy's decision where ``_greedy_by_values`` gives ``expected``: the end of the turn where it
    values nothing, a gamble at the same casino (its stake is greedy's own), else the very decision."""
    if expected is None:
        assert isinstance(taken, A.EndTurn)
    elif isinstance(expected, A.Gamble):
        assert isinstance(taken, A.Gamble) and taken.lot == expected.lot
    else:
        assert taken == expected


@pytest.mark.parametrize("spec,players", [("revised", 4), ("original", 3)])
def test_greedy_decides_as_its_listed_values_say(spec, players):
    """``greedy`` finds its choices in one pass (``GreedyBot._scan``), without listing its values: the same
    decision, from the same draws, as the best of ``values``."""
    for seed in range(3):
        compared = 0
        for game, legal, rng in positions(spec, players, seed, _random_kind_or_greedy):
            if type(legal[0]) is not A.LayOff:
                state = rng.getstate()
                expected = _greedy_by_values(game, legal, rng)
                after = rng.getstate()
                rng.setstate(state)
                a = B.greedy_bot(game, legal, rng)
                assert rng.getstate() == after
                _assert_greedy_took(a, expected)
                compared += 1
        assert compared > 20


def _random_kind_or_greedy(game, legal, rng):
    """The games the greedy tests look at: each decision by ``random-kind`` or ``greedy``, half and half."""
    return B.random_kind_bot(game, legal, rng) if rng.random() < 0.5 else B.greedy_bot(game, legal, rng)


def test_a_mute_engine_plays_the_same_game_and_makes_no_scores():
    """A search's engine is ``mute`` (lv/mcts.py): the imagined games' events are thrown away, so not even the
    Scored events a quiet engine keeps are made. The game is the same: the same state after the same draws."""
    game = lv.new_game("revised", 4, seed=3)
    rng = random.Random(3)
    for _ in range(60):
        game.apply(B.greedy_bot(game, game.legal_actions(), rng))
    engine = game.engine
    loud, mute = game.state.copy(), game.state.copy()
    heard: list = []
    silent: list = []
    engine.quiet = True
    try:
        for s, events, muted in ((loud, heard, False), (mute, silent, True)):
            engine.mute = muted
            dice = Dice.sampled(random.Random(9))
            for _ in range(12):  # every player ends the turn at once: the draws pay and score
                if s.phase == "over":
                    break
                engine.begin_turn(s, (s.current + 1) % len(s.players), dice, events)
    finally:
        engine.quiet, engine.mute = False, False
    assert any(type(e).__name__ == "Scored" for e in heard)
    assert not any(type(e).__name__ == "Scored" for e in silent)
    assert mute == loud
