"""The simulation's fast path (issue 11, point 4): ``Game.random_legal`` draws what the uniform bot draws from
the legal list, and ``legal_count`` counts it, without the list; a decision it drew is carried out unchecked
only when that very object is applied next; anything else given to ``apply`` is still refused when illegal."""

import copy
import random

import pytest

import lv
from lv import actions as A
from lv import bots
from lv.actions.layoff import LAY_OFF_PHASE, asks_boss
from lv.chance import rng_for
from lv.errors import IllegalAction
from lv.events import BossChanged, Merged, TieRerolled


@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 3), ("original", 2, 8), ("revised", 6, 11)])
def test_random_legal_draws_what_the_uniform_bot_draws_from_the_list(spec, players, seed):
    """Two copies of one game: one plays ``uniform_bot`` on the list, the other ``random_legal``, each from a
    generator seeded alike; every decision and every count agree, and the generators stay in step."""
    slow, fast = lv.new_game(spec, players, seed), lv.new_game(spec, players, seed)
    r1, r2 = random.Random(seed), random.Random(seed)
    steps = 0
    while not slow.over:
        legal = slow.legal_actions()
        assert fast.legal_count() == len(legal)
        counts: list[int] = []
        expected, got = bots.uniform_bot(slow, legal, r1), fast.random_legal(r2, counts)
        assert got == expected and counts == [len(legal)]
        slow.apply(expected)
        fast.apply(got)
        steps += 1
    assert fast.over and fast.result == slow.result and r1.random() == r2.random()
    assert fast.random_legal(r2) is None and fast.legal_count() == 0
    assert steps > 50


def test_play_with_the_uniform_bot_counts_the_legal_decisions():
    game = lv.new_game("revised", 4, seed=2)
    counts: list[int] = []
    bots.play(game, [bots.uniform_bot] * 4, 2, legal_counts=counts)
    replay = lv.new_game("revised", 4, seed=2)
    listed: list[int] = []
    bots.play(replay, [lambda g, legal, rng: bots.uniform_bot(g, legal, rng)] * 4, 2, legal_counts=listed)
    assert counts == listed and game.result == replay.result


def _to_gamble(seed):
    """A game at a moment where the player to move may gamble (a gamble listed), and its generator."""
    game = lv.new_game("revised", 4, seed)
    rng = random.Random(seed)
    while not game.over:
        if any(isinstance(a, A.Gamble) for a in game.legal_actions()):
            return game, rng
        game.apply(game.random_legal(rng))
    raise AssertionError("no gamble came up")


def test_only_the_drawn_object_is_carried_out_unchecked():
    """A gamble above the cap, given to ``apply``, is refused even right after ``random_legal``; so is the
    drawn decision once anything else was applied."""
    game, rng = _to_gamble(4)
    gamble = next(a for a in game.legal_actions() if isinstance(a, A.Gamble))
    game.random_legal(rng)
    with pytest.raises(IllegalAction):
        game.apply(A.Gamble(gamble.lot, gamble.bet + 1))  # an equal-looking decision is not the drawn one
    drawn = game.random_legal(rng)
    game.apply(A.EndTurn())  # anything applied in between: the vouch is gone
    if not game.over and not isinstance(drawn, A.EndTurn):
        why = game.why_not(drawn)
        try:
            game.apply(drawn)
        except IllegalAction as err:
            assert why is not None and str(err) == why


def test_below_draws_what_random_choice_and_randint_draw():
    """chance.below (the uniform bot's draw without random.py's frames) takes the same numbers from the same
    generator as rng.choice(range(n)) and rng.randint(1, n), leaving the generator in the same state."""
    from lv.chance import below

    for seed in range(40):
        a, b = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 5, 7, 8, 9, 31, 64, 100, 129, 1000, 2**40 + 3):
            assert below(a, n) == b.choice(range(n)), (seed, n)
            assert 1 + below(a, n) == b.randint(1, n), (seed, n)
        assert a.getstate() == b.getstate()


@pytest.mark.parametrize("compiled_way", [True, False])
@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 5), ("original", 3, 6)])
def test_legal_pick_finds_every_index_of_the_list_without_joining_it(spec, players, seed, compiled_way,
                                                                       monkeypatch):
    """``legal_pick`` takes the i-th decision without the list joined: for every i of positions across a game it is ``legal_actions()[i]``, and it leaves every slot empty
    (the next list is the same list), also when ``choose`` raises. Both ways of finding it (the compiled build's,
    counted and only it made, and pure Python's, joined) run here in the pure build (a compiled module's ``_COMPILED`` is a
    C constant: there both runs take the compiled way)."""
    from lv import legal
    from lv.legal import legal_pick

    monkeypatch.setattr(legal, "_COMPILED", compiled_way)
    game = lv.new_game(spec, players, seed)
    rng = random.Random(seed)
    positions = 0
    while not game.over:
        legal = game.legal_actions()
        if positions % 3 == 0:
            for i in range(len(legal)):
                got, n = legal_pick(game.engine, game.state, lambda n, i=i: i)
                assert got == legal[i] and n == len(legal)
            with pytest.raises(ZeroDivisionError):
                legal_pick(game.engine, game.state, lambda n: 1 // 0)
            assert all(not slot for slot in game.engine.slots)
            assert game.legal_actions() == legal and game.legal_count() == len(legal)
        positions += 1
        game.apply(rng.choice(legal))
    assert positions > 50


def test_a_trusted_decision_skips_only_checks_that_would_pass():
    """``Engine.apply`` carries out a trusted decision of the action step through its family at once: no family
    of the action step is also carried out at any time (a trade's) or by the game's turn machinery, whose
    refusals it would skip."""
    from lv.rules import _ANYTIME, _APPLY, _BY_GAME

    assert _APPLY and not set(_APPLY) & (set(_ANYTIME) | _BY_GAME)


def _the_long_way(game, action):
    """What ``Engine.apply`` did before it settled on its own index (issue 18): the action checked, then
    ``resolve_ties`` and ``consequences`` whatever changed, on a copy of the game; its events and state."""
    from lv.chance import Dice

    twin = game.copy()
    e, s = twin.engine, twin.state
    dice = Dice(twin.seed, ("turn", s.turn, "decision", len(twin.current_turn.decisions)))
    events = []
    before = e.snapshot(s)
    e.act(s, s.current, action, dice, events, {})
    e.resolve_ties(s, dice, events)
    e.consequences(s, before, events)
    return events, s


@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 1), ("revised", 5, 2), ("original", 3, 3),
                                               ("revised,casino.join_rule=color", 4, 4)])
def test_an_action_settles_its_ties_merges_and_bosses_as_the_long_way_does(spec, players, seed):
    """``Engine.apply`` skips the ties and the comparison of bosses when no tile and no die changed, and
    otherwise settles them on the index it filled before the action: every decision of random games, drawn
    (carried out unchecked) or given (checked), has the events and the state of the long way."""
    game = lv.new_game(spec, players, seed)
    rng = random.Random(seed)
    seen = {"skipped": 0, "tie": 0, "merged": 0, "boss": 0}
    while not game.over:
        action = game.random_legal(rng)
        if isinstance(action, A.EndTurn):
            game.apply(action)
            continue
        if rng.random() < 0.5:
            action = copy.copy(action)  # not the drawn object: checked
        want, state = _the_long_way(game, action)
        changes = game.engine.index(game.state).changes
        got = game.apply(action)
        state.structure = game.state.structure  # a stamp from a counter of every state's changes
        assert got == want and game.state == state
        seen["skipped"] += game.engine.index(game.state).changes == changes
        seen["tie"] += any(isinstance(ev, TieRerolled) for ev in got)
        seen["merged"] += any(isinstance(ev, Merged) for ev in got)
        seen["boss"] += any(isinstance(ev, BossChanged) for ev in got)
    assert seen["skipped"] and seen["merged"], seen
    if seed == 1:  # a game where all came up
        assert min(seen.values()) > 0, seen


def _before_a_tie():
    """A game just before a decision (not an end of turn) that ends in a tie reroll, that decision and the event."""
    for seed in range(20):
        game = lv.new_game("revised", 4, seed)
        rng = random.Random(seed)
        while not game.over:
            action = game.random_legal(rng)
            ties = [ev for ev in game.copy().apply(action) if isinstance(ev, TieRerolled)]
            if ties and not isinstance(action, A.EndTurn):
                return game, action, ties[0]
            game.apply(action)
    raise AssertionError("no tie came up")


def test_recorded_dice_that_fail_half_way_leave_no_trace():
    """A decision given tie dice whose second round is no die face fails after the first round changed the
    state: ``Game.apply`` kept a copy (it keeps none when no dice are given) and puts it back."""
    game, action, tie = _before_a_tie()
    state, history = game.state.copy(), [t.copy() for t in game.history]
    with pytest.raises(lv.LvError):
        game.apply(copy.copy(action), dice={"ties": {lot: [6, 0] for lot in tie.lots}})
    assert game.state == state and game.history == history


@pytest.mark.skipif(lv.build_name() == "compiled", reason="the compiled core reads check_action natively: not patched")
def test_play_applies_greedys_own_picks_unchecked_and_a_users_bot_checked(action_checks):
    """``bots.play`` vouches for ``GreedyBot.pick``'s decision as ``random_legal`` does for the uniform draw: the
    engine's generators listed it for this state, so ``apply`` carries it out without the referee's checks
    (``check_action`` never called in a whole greedy game); a user's bot's decision, even greedy's own wrapped, is
    checked every time. tests/test_bots.py shows both play the same game."""
    calls = action_checks
    game = lv.new_game("revised", 3, seed=5)
    bots.play(game, [bots.greedy_bot] * 3, seed=5)
    assert game.over and calls == []
    wrapped = lv.new_game("revised", 3, seed=5)
    bots.play(wrapped, [lambda g, legal, rng: bots.greedy_bot(g, legal, rng)] * 3, seed=5)
    decided = sum(len(t.decisions) for t in wrapped.history)
    assert decided > 50 and calls == ["apply"] * decided


@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 3), ("original", 3, 4), ("house-sell-back", 2, 5)])
def test_play_with_the_uniform_bot_is_random_legal_written_out(spec, players, seed):
    """``bots.play``'s uniform seats pick as ``Game.random_legal`` does (written out there): the same decisions
    (a gamble's stake drawn after the pick) and counts from the same generators, each decision applied vouched for
    (the engine's own, carried out without the checks: ``Game._apply_own``, or ``apply`` vouched for the end of the
    turn), but a gamble the boss is asked about (a new object)."""
    game = lv.new_game(spec, players, seed)
    # what was applied, and whether vouched for, is seen by patching ``apply``, which the compiled core's native class
    # does not allow: there the decisions are read from the game's history (a gamble recorded with the boss's answer,
    # the answer not a decision of its own) and only the picks are compared
    patchable = lv.build_name() != "compiled"
    applied: list = []
    flags: list[bool] = []
    if patchable:
        real, real_own = game.apply, game._apply_own

        def apply(action, *args, **kwargs):
            applied.append(action)
            flags.append(game._vouched is action)
            return real(action, *args, **kwargs)

        def apply_own(action):  # the engine's own decision, carried out as a vouched one is (``bots.play`` never
            #   gives ``apply`` a vouched decision this would see twice: the end of the turn only)
            applied.append(action)
            flags.append(True)
            return real_own(action)

        game.apply = apply
        game._apply_own = apply_own
    counts: list[int] = []
    bots.play(game, [bots.uniform_bot] * players, seed, legal_counts=counts)
    if not patchable:
        applied = [d.action for turn in game.history for d in turn.decisions]
    again = lv.new_game(spec, players, seed)
    rngs = [rng_for(seed, "bot", i) for i in range(players)]
    asks = asks_boss(again.profile)
    want: list[int] = []
    k = 0
    asked = None
    while not again.over:
        if again.state.phase == LAY_OFF_PHASE:  # the boss's answer, from a generator of its own (not the pick)
            want.append(again.legal_count())
            if patchable:
                again.apply(applied[k])
                k += 1
            else:
                again.apply(A.LayOff(lay_off=asked.lay_off))
            continue
        action = applied[k]
        decision = again.random_legal(rngs[again.state.current], want)
        if asks and type(decision) is A.Gamble:
            assert (action.lot, action.bet) == (decision.lot, decision.bet) and not (patchable and flags[k])
            asked = action
            decision = action if patchable else A.Gamble(lot=action.lot, bet=action.bet, lay_off=None)
        else:
            assert action == decision and (not patchable or flags[k]), (k, action, decision)
        again.apply(decision)
        k += 1
    assert k == len(applied) and counts == want and game.result == again.result
    assert any(type(a) is A.Gamble for a in applied)
    assert not patchable or any(type(a) is A.LayOff for a in applied) == asks
