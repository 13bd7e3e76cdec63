"""The draw step's payouts (``Engine.pay_lots``, ``Engine.pay_and_score``) read the state's bitboards and the
casino index's kept lists for speed: over random games, what they pay at every moment, for every card, must be
what a plain count over the tiles and markers pays (the rulebooks' way: 000 L75 / 003 L309-316 lots;
000 L110 / 003 L404-416 casinos, each owner his own pips, in seat order), and each casino scores its points."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lv
from lv import bots
from lv.board import STRIP
from lv.events import Paid, Scored
from lv.rules import Engine
from lv.state import GameState, PlayerState


def plain_lots(game, s):
    """Each player's markers pay the lot income, by seat."""
    income = game.profile.payout.lot_income
    out = []
    for seat in range(len(s.players)):
        lots = [lot for lot in game.board.order if s.markers.get(lot) == seat]
        if lots and income:
            out.append(Paid(seat, income * len(lots), "lots", lots))
    return out


def plain_casinos(game, s, pays):
    """Each casino of the card's colour (touching the Strip) pays each die's owner its pips, owners by seat."""
    board, per_pip = game.board, game.profile.payout.money_per_pip
    out = []
    for casino in game.engine.casinos(s):
        if pays == STRIP:
            if not any(board.lots[lot].strip for lot in casino.lots):
                continue
        elif casino.color != pays:
            continue
        per = {}
        for lot in casino.lots:
            tile = s.tiles[lot]
            if tile.owner is not None:
                per[tile.owner] = per.get(tile.owner, 0) + tile.value * per_pip
        out += [Paid(o, per[o], "casino", list(casino.lots)) for o in sorted(per) if per[o]]
    return out


def check(game):
    """Every card's payout from this moment, on copies of the state, against the plain counts."""
    e = game.engine
    pays = [*game.board.colors, STRIP]
    for card in pays:
        s = game.state.copy()
        money = [p.money for p in s.players]
        events = []
        e.pay_lots(s, events)
        e.pay_and_score(s, card, events)
        paid = [ev for ev in events if isinstance(ev, Paid)]
        expected = plain_lots(game, s) + plain_casinos(game, s, card)
        assert paid == expected, (s.turn, card)
        assert all(type(ev.lots) is list for ev in paid)
        for ev in events:  # each casino scores its points (``Engine.points``, the plain way)
            if isinstance(ev, Scored):
                casino = e.casino_at(game.state, ev.lots[0])
                assert ev.award == e.points(game.state, casino) and ev.lots == list(casino.lots), (s.turn, card)
        for seat, p in enumerate(s.players):
            assert p.money == money[seat] + sum(ev.amount for ev in expected if ev.player == seat)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31),
       config=st.sampled_from([("revised", 4), ("original", 3), ("revised", 6), ("revised,casino.join_rule=color", 3),
                                    ("revised,casino.dieless_tile_scores=false", 4)]))
def test_payouts_agree_with_a_plain_count(seed, config):
    spec, players = config
    game = lv.new_game(spec, players, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not game.over:
        if rng.random() < 0.2:
            check(game)
            checked += 1
        game.apply(bots.random_bot(game, game.legal_actions(), rng))
    assert checked > 3


@pytest.mark.parametrize("dieless", [True, False])
def test_a_casino_with_a_tile_without_a_die_scores_by_the_profile(dieless):
    """A casino of three tiles, one without a die: it scores 3 or 2 (``casino.dieless_tile_scores``), as
    ``Engine.points`` counts."""
    profile = lv.load_profile(f"revised,casino.dieless_tile_scores={'true' if dieless else 'false'}")
    e = Engine(profile)
    s = GameState(players=[PlayerState("a"), PlayerState("b")], board=e.board)
    s.place_tile("A1", "gold", 1, 0, 5)
    s.place_tile("A2", "gold", 1, None, None)
    s.place_tile("A3", "gold", 1, 1, 2)
    events = []
    e.pay_and_score(s, "gold", events)
    scored = [ev for ev in events if isinstance(ev, Scored)]
    casino = e.casino_at(s, "A1")
    assert [(ev.player, ev.lots, ev.award) for ev in scored] == [(0, ["A1", "A2", "A3"], 3 if dieless else 2)]
    assert e.points(s, casino) == scored[0].award
