"""The draw step's events in the pure build (round 22): the turn's start, the card drawn and a marker placed from the
supply kept for every game of a profile and board and handed out again (``rules.KeptEvents``), and a casino's Paid
and each Scored made without their classes' ``__init__``. Each must be exactly the event its class makes from the
turn's own facts: the right seat, turn, card and lot, whichever game made it first."""

from __future__ import annotations

import copy
import pickle

import pytest

import lv
from lv import bots, rules
from lv.board import END_CARD
from lv.events import CardDrawn, LotsEvent, MarkerPlaced, Paid, Scored, TurnStarted

pure_only = pytest.mark.skipif(rules._COMPILED, reason="the pure build's own paths (compiled: the general ones)")


_REVISED = lv.load_profile("revised")  # one profile object: its tables (and kept events) are its own


def _played(spec: str, players: int, seed: int) -> lv.Game:
    game = lv.new_game(_REVISED if spec == "revised" else spec, players, seed=seed)
    bots.play(game, [bots.uniform_bot] * players, seed)
    return game


def _fields(ev: lv.events.Event) -> dict:
    return {k: getattr(ev, k) for k in ev._keys}


def test_every_draw_event_is_what_its_class_makes_from_the_turn_s_facts() -> None:
    """Games of 2 to 5 players under one profile (so kept events meet other seats' and games' slots), the same
    game twice: every turn's events are their classes' own (equal to one made from their fields, the same JSON,
    pickled and copied equal, lots kept as a tuple), the turn's start names the turn and its player, the card
    drawn the player and one of the turn's cards, a marker placed the player and the card's lot; and the game
    played again gives the same events."""
    checked = 0
    for players, seed in ((2, 1), (3, 2), (4, 3), (5, 4), (4, 3), (2, 5)):
        game = _played("revised", players, seed)
        for turn in game.history:
            for ev in turn.draw_events:
                kind = type(ev)
                if kind not in (TurnStarted, CardDrawn, MarkerPlaced, Paid, Scored):
                    continue
                made = kind(**_fields(ev))
                assert ev == made and ev.to_dict() == made.to_dict() and repr(ev) == repr(made)
                assert pickle.loads(pickle.dumps(ev)) == ev and copy.deepcopy(ev) == ev
                if isinstance(ev, LotsEvent):
                    assert type(ev._lots) is tuple and ev.lots == list(ev._lots)
                if kind is TurnStarted:
                    assert (ev.turn, ev.player) == (turn.number, turn.player)
                elif kind is CardDrawn:
                    assert ev.player == turn.player and ev.card in turn.cards
                    # a card on the closed F block is followed by another: every card drawn but the turn's last
                    assert ev.f_block == (turn.cards.index(ev.card) < len(turn.cards) - 1)
                    assert ev.pays == game.engine.board.card_color(ev.card) or ev.card == END_CARD
                elif kind is MarkerPlaced:
                    assert ev.player == turn.player and ev.lot in turn.cards
                checked += 1
    assert checked > 1000
    first, again = _played("revised", 4, 3), _played("revised", 4, 3)
    assert [ev.to_dict() for t in first.history for ev in t.draw_events] == \
           [ev.to_dict() for t in again.history for ev in t.draw_events]


@pure_only
def test_a_kept_event_is_given_again_across_games() -> None:
    """The same game twice: its turns' starts, cards drawn and markers placed are the first game's objects (the
    point of keeping them), and its casinos' Paid and its Scored events are made anew (never kept)."""
    first, again = _played("revised", 4, 7), _played("revised", 4, 7)
    for kind, kept in ((TurnStarted, True), (CardDrawn, True), (MarkerPlaced, True), (Paid, False), (Scored, False)):
        a = [ev for t in first.history for ev in t.draw_events if type(ev) is kind]
        b = [ev for t in again.history for ev in t.draw_events if type(ev) is kind]
        assert a and len(a) == len(b)
        if kind is Paid:  # (a seat's lots: kept within a game only, while its markers are the same)
            a, b = [ev for ev in a if ev.why == "casino"], [ev for ev in b if ev.why == "casino"]
        elif kind is CardDrawn:  # (the end card's: made each time)
            a, b = [ev for ev in a if ev.card != END_CARD], [ev for ev in b if ev.card != END_CARD]
        assert all((x is y) == kept for x, y in zip(a, b)), kind


@pure_only
def test_a_seat_from_8_is_never_given_another_seat_s_kept_event() -> None:
    """A turn's starts are kept by seat below 8: seat 9 of turn 5 has no slot (an index past the turn's). A seat from
    8 gets an event made for it, and none is kept for it."""
    game = lv.new_game(_REVISED, 4, seed=1)
    engine, s = game.engine, game.state.copy()
    kept = engine._draw.kept or engine._kept()
    other = kept.turn_started(6, 1)
    assert kept.started[6][1] is other
    s.turn = 4
    events: list = []
    engine.begin_turn(s, 9, game._dice, events, draw=False)
    assert events == [TurnStarted(5, 9)] and events[0] is not other
    assert kept.turn_started(5, 9) is not kept.turn_started(5, 9)


@pure_only
def test_a_card_s_kept_events_are_by_seat_of_a_game_of_that_many_players() -> None:
    """The cards drawn and the markers placed from the supply are kept in the draw's table of a number of players
    (``Engine._draw_cards``): a slot for each seat, whatever the seat (none shared with another's), and a game of
    another size has a table of its own (a card skipped on the closed block in one is not in the other)."""
    game = lv.new_game(_REVISED, 4, seed=1)
    engine = game.engine
    four, ten = engine._draw_cards(4), engine._draw_cards(10)
    assert engine._draw_cards(4) is four and four is not ten
    at, bit, color, color_id, skipped, drawn_by, placed_by = ten["A1"]
    assert (at, bit, color) == (engine.board.index["A1"], 1 << at, engine.board.card_color("A1"))
    assert len(drawn_by) == len(placed_by) == 10 and len(four["A1"][5]) == 4
    two = engine._draw_cards(2)
    closed = engine.closed_mask(2)
    assert all(two[lot][4] == bool(closed & two[lot][1]) for lot in two)
    assert not any(entry[4] for entry in four.values()) or engine.closed_mask(4)


@pure_only
def test_a_casino_s_paid_is_given_again_only_while_its_dice_facts_are_the_same() -> None:
    """A single-owner casino paid twice in a row gives the same Paid object; once one of its dice shows another
    face (new dice facts: another amount), a new Paid with the new amount, equal to the class's own."""
    found = None
    for seed in range(1, 40):
        game = _played("revised", 4, seed)
        s = game.state
        index = game.engine.index(s)
        for casino, facts in index.with_dice():
            if len(facts.owners) == 1 and facts.pips and s.tiles[casino.lots[0]].value is not None:
                found = game, casino
                break
        if found:
            break
    assert found is not None
    game, casino = found
    engine, s = game.engine, game.state.copy()
    s.phase = "actions"
    color = casino.color

    def paid() -> list:
        events: list = []
        engine.pay_and_score(s, color, events)
        return [ev for ev in events if type(ev) is Paid and ev._lots == casino.lots]

    first, again = paid(), paid()
    assert len(first) == 1 and first[0] is again[0]
    lot = casino.lots[0]
    tile = s.tiles[lot]
    face = 6 if tile.value != 6 else 1
    s.set_die(lot, tile.owner, face)
    s._casinos = None  # (the index made again from the state)
    (changed,) = paid()
    assert changed is not first[0]
    assert changed.amount == first[0].amount + (face - tile.value) * engine._per_pip
    assert changed == Paid(changed.player, changed.amount, "casino", casino.lots)
