"""The turn's steps in fewer bytecodes (round 24): a seat's lots paid made from its last payout's when one marker
changed, the end of the game tested over every seat's score, and the dice made ready for a step only where the
step before left something (recorded dice count). Each test pins what the shorter way must give: the general way's
events, money, end and dice."""

from __future__ import annotations

import copy
import random

import pytest

import lv
from lv import rules
from lv.board import STRIP
from lv.chance import Dice, Stream, stream_start
from lv.events import Paid


def _lots_paid(game, s) -> list[Paid]:
    """Each seat's Paid for its markers, made from them (the rulebook's count, 003 L309-316)."""
    income = game.profile.payout.lot_income
    out = []
    for seat in range(len(s.players)):
        lots = [lot for lot in game.board.order if s.markers.get(lot) == seat]
        if lots:
            out.append(Paid(seat, income * len(lots), "lots", lots))
    return out


def test_a_seat_s_lots_paid_after_a_marker_placed_taken_or_moved_are_its_markers() -> None:
    """``pay_lots`` after one marker placed (before, between and after a seat's others), one taken (its first, a
    middle one, its last), one moved (two lots changed), every marker taken and one placed again: each time the
    Paid events and the money are those the seats' markers say."""
    game = lv.new_game("revised", 4, seed=7)
    e, s = game.engine, game.state
    order = game.board.order

    def pay() -> None:
        money = [p.money for p in s.players]
        events: list = []
        e.pay_lots(s, events)
        assert events == _lots_paid(game, s)
        assert [p.money - m for p, m in zip(s.players, money)] == [
            sum(ev.amount for ev in events if ev.player == seat) for seat in range(len(s.players))]

    def free() -> list[str]:
        return [lot for lot in order if lot not in s.markers and lot not in s.tiles]

    pay()
    seat = 1
    mine = [lot for lot in order if s.markers.get(lot) == seat]
    assert len(mine) >= 2
    # placed: before its first lot, after its last, and between two of them
    at = game.board.index
    for lot in (free()[0], free()[-1], next(x for x in free() if at[mine[0]] < at[x] < at[mine[-1]])):
        s.put_marker(lot, seat)
        pay()
    # taken: its first, its last, a middle one
    for at in (0, -1, 1):
        mine = [lot for lot in order if s.markers.get(lot) == seat]
        s.remove_marker(mine[at])
        pay()
    # moved: one lot less and one more in one change
    mine = [lot for lot in order if s.markers.get(lot) == seat]
    s.remove_marker(mine[0])
    s.put_marker(free()[0], seat)
    pay()
    # every marker taken (no Paid), then one placed again
    for lot in [lot for lot in order if s.markers.get(lot) == seat]:
        s.remove_marker(lot)
    pay()
    s.put_marker(free()[3], seat)
    pay()


def _pay(game, card: str, general: bool, monkeypatch, target: int):
    """A copy of the state paid for ``card`` (lots, then casinos), pure or the general way, under ``target``."""
    s = game.state.copy()
    engine = copy.deepcopy(game.engine)
    engine._target = target
    events: list = []
    monkeypatch.setattr(rules, "_COMPILED", general)
    try:
        engine.pay_lots(s, events)
        engine.pay_and_score(s, card, events)
    finally:
        monkeypatch.setattr(rules, "_COMPILED", False)
    return ([ev.to_dict() for ev in events], [(p.money, p.score) for p in s.players], s.phase,
            None if s.result is None else (s.result.reason, s.result.winner, list(s.result.ranking)))


@pytest.mark.skipif(rules._COMPILED, reason="the pure build's own path (compiled: the general one)")
@pytest.mark.parametrize("spec", ["revised", "original"])
def test_a_seat_at_the_target_before_the_payout_ends_the_game_as_the_general_way_ends_it(spec, monkeypatch) -> None:
    """003 L917-921: the payout ends the game once any seat is at the target, whoever scored: with the leader
    already there (the target lowered to its score) and with nobody there, for every card, as the general way."""
    game = lv.new_game(spec, 4, seed=2)
    rng = random.Random(2)
    while game.state.turn < 12:
        game.apply(game.random_legal(rng))
    top = max(p.score for p in game.state.players)
    assert top > 0
    ended = 0
    for card in (*game.board.colors, STRIP):
        for target in (top, top + 200):
            pure = _pay(game, card, False, monkeypatch, target)
            assert pure == _pay(game, card, True, monkeypatch, target), (card, target)
            ended += pure[2] == "over"
            assert (pure[2] == "over") == (target == top)
    assert ended == len(game.board.colors) + 1  # every card ends it at the leader's score


def test_dice_given_to_one_step_are_not_the_next_step_s() -> None:
    """``Dice.again``: a step given recorded dice takes them; the next step, given none, rolls its own stream (as
    new dice of its key), and a step given none after one that rolled, wrote or was given nothing keeps nothing."""
    kept = Dice(5, ("turn", 1, "decision", 0), {"gamble": [6, 6]})
    assert kept.gamble() == (6, 6)
    for turn, given in ((1, None), (2, {"gamble": [2, 3]}), (3, None), (4, {}), (5, None), (6, None)):
        key = ("turn", turn, "decision", 1)
        d = kept.again(5, key, given)
        assert d is kept
        pair = d.gamble()
        if given:
            assert pair == (2, 3) and d.used == {"gamble": [2, 3]} and d.generated == []
        else:
            plain = Stream(stream_start(5, key))
            assert pair == (plain.die(), plain.die()) == Dice(5, key).gamble()
            assert d.used == {"gamble": list(pair)} and d.generated == ["gamble"]
    # a step that rolls nothing, given nothing: nothing kept from the step before it
    d = kept.again(5, ("turn", 7, "decision", 0))
    assert d.used == {} and d.recorded == {} and d.generated == []
    d = kept.again(5, ("turn", 7, "decision", 1))
    assert d.used == {} and d.recorded == {} and d.generated == []


def test_a_game_given_dice_for_one_decision_rolls_its_own_for_the_next() -> None:
    """``Game.apply`` sets only the key of dice whose step left nothing: gambles given their dice (every other one)
    among decisions given none play as a game never given dice plays (the same dice after each: their keys')."""
    played = lv.new_game("revised", 3, seed=4)
    given = lv.new_game("revised", 3, seed=4)
    rng = random.Random(4)
    gambles = 0
    while not played.over and gambles < 8:
        legal = played.legal_actions()
        bet = next((a for a in legal if a.kind == "gamble" and a.lay_off is not None), None)
        action = bet if bet is not None else played.random_legal(rng)
        rolled = played.apply(action)
        if bet is not None:
            gambles += 1
        if bet is not None and gambles % 2:  # the dice the other game rolled, given
            pair = next(ev for ev in rolled if ev.kind == "gambled")
            given.apply(action, dice={"gamble": pair.dice})
        else:
            given.apply(action)
        assert [p.money for p in given.state.players] == [p.money for p in played.state.players]
    assert gambles == 8
    assert given.history[-1].number == played.history[-1].number
