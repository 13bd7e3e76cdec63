"""The draw step's payouts (``Engine.pay_lots``, ``Engine.pay_and_score``) read the state's bitboards and the
casino index's kept lists for speed: over random games, what they pay at every moment, for every card, must be
what a plain count over the tiles and markers pays (the rulebooks' way: 000 L75 / 003 L309-316 lots;
000 L110 / 003 L404-416 casinos, each owner his own pips, in seat order)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lv
from lv import bots
from lv.board import STRIP
from lv.events import Paid


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
        for seat, p in enumerate(s.players):
            assert p.money == money[seat] + sum(ev.amount for ev in expected if ev.player == seat)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31),
       config=st.sampled_from([("revised", 4), ("original", 3), ("revised", 6), ("revised,casino.join_rule=color", 3)]))
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
