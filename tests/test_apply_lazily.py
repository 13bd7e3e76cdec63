"""Applying a decision and push/pop doing less (round 20): a decision that joins nothing leaves the casinos' refresh to
their next reader (``CasinoIndex.nothing_to_tell``), a checkpoint keeps a markers' dict without holes, the dice's
key of a step is made once, a checkpoint keeps up to six players' money and points in native fields, and push finds
its decision in the kept list from the one after the last found. Each test pins what the shortcut must not change."""

from __future__ import annotations

import random

import pytest

import lv
from lv import record
from lv.actions import EndTurn
from lv.chance import Dice
from lv.errors import IllegalAction
from lv.state import GameState, PlayerState

SPECS = ["revised", "original", "revised,casino.join_rule=color", "original,raise.max_height=4"]


def _text(game: lv.Game) -> str:
    return record.dumps(record.record_of(game, game.profile.name), "yaml")


def _casinos(index) -> dict[int, tuple[str, int, int | None]]:
    """Casino mask -> (colour, height, boss), from a current index."""
    return {c.mask: (c.color, c.height, f.boss) for c, f in index.with_dice()}


@pytest.mark.parametrize("spec", SPECS)
def test_nothing_to_tell_is_said_only_where_settling_would_change_no_casino_nor_boss(spec):
    """For every decision of the action steps of played games (the engine's checked path), where the index says
    there is nothing to tell after the decision's tiles changed, settling the long way tells nothing (no merge, no boss
    changed), finds no tie, and every casino is on the lots it was on, with its boss (the new tile alone, a casino
    on the same lots in another colour or height). The short way is taken often, and where a decision tells
    something the index never says nothing."""
    said = told = 0
    for seed in range(3):
        game = lv.new_game(spec, 4, seed=seed)
        rng = random.Random(seed)
        engine, rule = game.engine, game.profile.casino.join_rule
        for _ in range(70):
            if game.over:
                break
            if game.state.phase == "actions":
                for action in game.legal_actions():
                    if isinstance(action, EndTurn):
                        continue
                    s = game.state.copy()
                    index = s.casino_index(rule)
                    # (a checkpoint open: with none, the pure state works a tile alone out at once, leaving nothing
                    #  dirty to ask about; ``CasinoIndex.tile_alone``)
                    s.checkpoint()
                    before_blocks = index.pair_blocks()
                    before = _casinos(index)
                    try:
                        engine.act(s, s.current, action, Dice(game.seed, ("probe",)), [], {})
                    except IllegalAction:
                        continue
                    quiet = s._casinos is index and index.nothing_to_tell()
                    dirty = index.dirty
                    events: list = []
                    index.settle()
                    engine._tell(s, before_blocks, index.pair_blocks(), events)
                    if events:
                        told += 1
                    if not quiet:
                        continue
                    said += 1
                    assert events == [] and not index.tied(), action
                    after = _casinos(index)
                    changed = {m for m in after if m & dirty}
                    assert len(changed) == 1 and dirty in changed, action  # one casino: the lots changed, whole
                    assert {m: v[2] for m, v in after.items() if m != dirty} == {
                        m: v[2] for m, v in before.items() if m != dirty}, action
                    if dirty in before:  # the same lots: the same boss
                        assert after[dirty][2] == before[dirty][2], action
            game.apply(game.random_legal(rng))
    assert said > 50 and told > 0


@pytest.mark.skipif(lv.build_name() == "compiled", reason="the compiled index's methods are C: not patched")
@pytest.mark.parametrize("spec", SPECS[:3])
def test_a_game_plays_the_same_whether_or_not_the_refresh_is_left_to_the_next_reader(spec, monkeypatch):
    """The same game, record and events, with the short way and with every decision settled at once."""
    from lv.casinos import CasinoIndex

    def play() -> str:  # (the short way is taken under a push: each decision is tried, read, popped, applied)
        game = lv.new_game(spec, 3, seed=5)
        rng = random.Random(5)
        trace = []
        while not game.over:
            action = game.random_legal(rng)
            trace.append([e.to_dict() for e in game.push(action)])
            trace.append(len(game.legal_actions()))
            game.pop()
            game.apply(action)
        return _text(game) + repr(trace)

    lazily = play()
    monkeypatch.setattr(CasinoIndex, "nothing_to_tell", lambda self: False)
    assert play() == lazily


def test_a_build_pushed_over_markers_with_holes_is_popped_to_the_same_markers_in_the_same_order():
    """Markers taken off leave holes in the state's dict; the first checkpoint that changes a marker keeps it made
    without them (a block copy for the next ones) and the rollback gives back the same markers in the same order,
    every time, nested pushes too."""
    game = lv.new_game("revised", 4, seed=7)
    rng = random.Random(7)
    for _ in range(60):
        game.apply(game.random_legal(rng))
    while game.state.phase != "actions" or not any(isinstance(a, lv.actions.Build) for a in game.legal_actions()):
        game.apply(game.random_legal(rng))
    s = game.state
    assert s._holes > 0  # builds took markers off
    markers = list(s.markers.items())
    text = _text(game)
    builds = [a for a in game.legal_actions() if isinstance(a, lv.actions.Build)]
    for _ in range(2):
        for build in builds:
            game.push(build)
            assert list(s.markers.items()) != markers
            game.pop()
            assert list(s.markers.items()) == markers
            assert s._holes == 0
    game.push(builds[0])
    inner = list(s.markers.items())
    game.push(next(a for a in game.legal_actions() if not isinstance(a, EndTurn)))
    game.pop()
    assert list(s.markers.items()) == inner
    game.pop()
    assert list(s.markers.items()) == markers and _text(game) == text


def test_a_step_s_dice_are_the_same_pushed_again_and_each_step_has_its_own():
    """The dice's key of a decision is made once for its step: a reorganization pushed, popped and pushed again rolls
    the same dice; one applied after another decision rolls its own step's, as in a game that pushed nothing."""
    tried, plain = lv.new_game("revised", 4, seed=3), lv.new_game("revised", 4, seed=3)
    rng_a, rng_b = random.Random(3), random.Random(3)
    rolled = 0
    for _ in range(120):
        if tried.over:
            break
        reorganize = next((a for a in tried.legal_actions() if isinstance(a, lv.actions.Reorganize)), None)
        if reorganize is not None:
            first = [e.to_dict() for e in tried.push(reorganize)]
            tried.pop()
            again = [e.to_dict() for e in tried.push(reorganize)]
            tried.pop()
            assert first == again
            rolled += 1
        action = tried.random_legal(rng_a)
        n = len(tried.current_turn.decisions)
        tried.apply(action)
        if not isinstance(action, EndTurn):  # the very key a new Dice of the step would have
            assert tried._dice.key == ("turn", tried.state.turn, "decision", n)
        plain.apply(plain.random_legal(rng_b))
        if reorganize is not None and not tried.over and tried.state.phase == "actions":
            later = next((a for a in tried.legal_actions() if isinstance(a, lv.actions.Reorganize)), None)
            if later is not None:  # the next step's dice: as a game that pushed nothing rolls them
                assert _events(tried, later) == _events(plain, later)
    assert rolled > 5 and _text(tried) == _text(plain)


def _events(game: lv.Game, action) -> list:
    twin = game.copy()
    return [e.to_dict() for e in twin.apply(action)]


@pytest.mark.parametrize("seats", [2, 5, 6, 7])
def test_a_rollback_gives_back_every_player_s_money_and_points(seats):
    """Up to six players (compiled: native fields), or more (lists by seat): each one's money and points as at the
    checkpoint, nested checkpoints and a checkpoint made again too."""
    s = GameState(players=[PlayerState(f"p{i}", 10 + i, i) for i in range(seats)])
    rng = random.Random(seats)
    for _ in range(3):
        saved = [(p.money, p.score) for p in s.players]
        outer = s.checkpoint()
        for p in s.players:
            p.money, p.score = rng.randrange(100), rng.randrange(90)
        middle = [(p.money, p.score) for p in s.players]
        inner = s.checkpoint()
        for p in s.players:
            p.money, p.score = rng.randrange(100), rng.randrange(90)
        s.rollback(inner)
        assert [(p.money, p.score) for p in s.players] == middle
        s.rollback(outer)
        assert [(p.money, p.score) for p in s.players] == saved
        for p in s.players:  # the next round starts elsewhere
            p.money, p.score = rng.randrange(100), rng.randrange(90)


def test_push_finds_each_decision_of_the_kept_list_in_any_order(action_checks):
    """A search may push the kept list's decisions in any order, again and again: each is the engine's own (not
    checked), looked for from the one after the last found, then from the start; one not in the list is checked."""
    calls = action_checks
    game = lv.new_game("revised", 4, seed=9)
    rng = random.Random(9)
    for _ in range(30):
        game.apply(game.random_legal(rng))
    while game.state.phase != "actions":
        game.apply(game.random_legal(rng))
    text = _text(game)
    legal = game.legal_actions()
    order = list(range(len(legal))) * 2
    rng.shuffle(order)
    for k in order + list(reversed(range(len(legal)))):
        game.push(legal[k])
        game.pop()
    assert calls == [] and _text(game) == text
    game.push(lv.EndTurn())  # equal to one of the list's, not the list's
    assert calls == ["push"]
    game.pop()
    assert _text(game) == text


@pytest.mark.parametrize("spec", ["revised", "revised,casino.join_rule=color"])
def test_a_whole_casino_whose_lots_took_two_colours_is_not_nothing_to_tell(spec):
    """Every lot of a casino changed, but not all to one colour (no family does it; a house rule might): the casino
    splits, so the index does not say there is nothing to tell, and settling finds the two casinos."""
    game = lv.new_game(spec, 4, seed=1)
    rng = random.Random(1)
    s = game.state
    rule = game.profile.casino.join_rule
    while True:
        index = s.casino_index(rule)
        big = next((c for c in index.all() if c.spaces >= 2), None)
        if big is not None:
            break
        game.apply(game.random_legal(rng))
    index.settle()
    near = {s.tile_colors[j] for j in range(len(game.board.order)) if big.around >> j & 1}
    others = [c for c in game.board.colors if c != big.color and c not in near]  # none joins a neighbour
    s.recolor(big.lots[:1], others[0])
    s.recolor(big.lots[1:], others[1])
    assert index.dirty == big.mask and not index.nothing_to_tell()
    index.settle()
    assert big.mask not in {c.mask for c in index.all()}
