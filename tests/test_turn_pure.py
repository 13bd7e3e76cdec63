"""The turn's start written for the pure build (round 21): the payouts' pure walk, a seat's Paid event given again,
the draw that places a marker without a snapshot, the dice's one stream object, the deck's inline shuffle and a
step's key written by formats. Each must give exactly what the general way gives: the same events, money, scores,
end of the game, dice and deck."""

from __future__ import annotations

import copy
import hashlib
import random

import pytest

import lv
from lv import bots, chance, rules
from lv.board import END_CARD, STRIP
from lv.chance import Dice, Stream, below, shuffle, stream_start
from lv.events import CardDrawn, Paid

pure_only = pytest.mark.skipif(rules._COMPILED, reason="the pure build's own paths (compiled: the general ones)")


def _moments(spec: str, players: int, seed: int, every: float = 0.25):
    """Games of random bots under ``spec``: the game at random moments (the same game object, moved on)."""
    game = lv.new_game(spec, players, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        if rng.random() < every:
            yield game
        game.apply(bots.random_bot(game, game.legal_actions(), rng))


def _pay(game, card: str, general: bool, monkeypatch, target: int | None = None):
    """A copy of the game's state paid for ``card`` (lots, then casinos) by the pure walk or the general one
    (``rules._COMPILED`` set: what the compiled build runs); ``target``: the instant-win points lowered."""
    s = game.state.copy()
    engine = copy.deepcopy(game.engine)
    if target is not None:
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


@pure_only
@pytest.mark.parametrize("spec,players", [("revised", 4), ("original", 3), ("revised,casino.join_rule=color", 3),
                                          ("revised,casino.dieless_tile_scores=false", 4),
                                          ("revised,scoring.order=ascending_spaces", 4),
                                          ("revised,scoring.points=spaces", 4)])
def test_the_pure_payouts_are_the_general_walk_s(spec, players, monkeypatch) -> None:
    """For every card (each colour and the Strip) at random moments: the same Paid and Scored events in the same
    order, money, scores and end (the target lowered so that scoring ends games: instant wins and most points)."""
    checked = 0
    for seed in (3, 11):
        for game in _moments(spec, players, seed):
            top = max(p.score for p in game.state.players)
            for card in (*game.board.colors, STRIP):
                for target in (None, top + 1, top + 3):
                    assert _pay(game, card, False, monkeypatch, target) == _pay(game, card, True, monkeypatch,
                                                                                 target), (seed, card, target)
                    checked += 1
    assert checked > 100


@pure_only
def test_a_seat_s_lot_payout_is_given_again_only_while_its_markers_are_the_same() -> None:
    """``pay_lots`` gives a seat the very Paid event of its last payout while its markers are the ones it was made
    for, a new one when they changed; either way the event and the money are what a new event says."""
    game = lv.new_game("revised", 4, seed=5)
    e, s = game.engine, game.state
    income = game.profile.payout.lot_income

    def pay() -> list[Paid]:
        money = [p.money for p in s.players]
        events: list = []
        e.pay_lots(s, events)
        for ev in events:
            lots = [lot for lot in game.board.order if s.markers.get(lot) == ev.player]
            assert ev == Paid(ev.player, income * len(lots), "lots", lots)
        assert [p.money - m for p, m in zip(s.players, money)] == [
            sum(ev.amount for ev in events if ev.player == seat) for seat in range(len(s.players))]
        return events

    first = pay()
    assert len(first) >= 2
    again = pay()
    assert [a is b for a, b in zip(first, again)] == [True] * len(first)
    changed = first[0].player
    free = next(lot for lot in game.board.order if lot not in s.markers and lot not in s.tiles)
    s.put_marker(free, changed)
    third = pay()
    assert third[0] is not first[0] and free in third[0].lots
    assert all(a is b for a, b in zip(first[1:], third[1:]))


def _draws_from(game, general: bool):
    """The next player's draw from a copy of the game (resting in its action step): ``draw_step``, or the general
    draw it was (the casinos snapshot, the take-over, then ``_settle_card``'s compare, ties and payouts)."""
    g = game.copy()
    s, e = g.state, g.engine
    player = (s.current + 1) % len(s.players)
    dice = Dice(g.seed, ("turn", s.turn + 1, "draw"))
    events: list = []
    e.begin_turn(s, player, dice, events, draw=False)
    if not general:
        e.draw_step(s, dice, events)
    else:
        card = s.deck.pop(0)
        s.drawn.append(card)
        s.discards.append(card)
        at = g.board.index[card]
        color, color_id = g.board.card_colors[at], g.board.card_color_ids[at]
        events.append(CardDrawn(player, card, color, False))
        before, bosses = e._before_draw(s)
        e.take_over(s, player, card, events, {}, at=at)
        e._settle_card(s, dice, events, color, before, color_id=color_id, bosses=bosses)
        if s.phase != "over":
            s.phase = "actions"
    return ([ev.to_dict() for ev in events], [(p.money, p.score) for p in s.players], s.phase, dict(s.markers),
            s.marker_masks)


def test_a_draw_that_places_a_marker_is_the_general_draw() -> None:
    """A draw on an empty lot or a marker's moves markers only: it takes no snapshot of the casinos and compares
    nothing after; from the same moments, its events, money, scores, phase and markers are the general draw's."""
    checked = 0
    for spec, players, seed in (("revised", 4, 8), ("original", 3, 2), ("revised,components.markers_per_player=3",
                                                                          4, 4)):
        for game in _moments(spec, players, seed, every=0.4):
            s = game.state
            if s.phase != "actions" or not s.deck or s.deck[0] == END_CARD or s.deck[0] in s.tiles:
                continue
            if game.engine.f_closed(s, s.deck[0]):
                continue
            assert _draws_from(game, False) == _draws_from(game, True)
            checked += 1
    assert checked > 10


def test_a_dice_s_one_stream_starts_again_at_each_step() -> None:
    """A Dice rolled from step to step (``again``) keeps one stream object and starts it again at each step's
    first die: each step rolls what a new Dice of that step rolls and what the documented stream gives, whether the
    step before rolled or not; a gamble's dice and what it noted are a new Dice's."""
    kept = Dice(7, ("start",))
    objects = set()
    for turn, rolls in ((1, 2), (2, 0), (3, 5), (3, 1), (4, 0), (5, 0), (6, 3)):
        key = ("turn", turn, "decision", rolls)
        d = kept.again(7, key)
        new = Dice(7, key)
        plain = Stream(stream_start(7, key))
        assert [d._roll() for _ in range(rolls)] == [new._roll() for _ in range(rolls)] == [
            plain.die() for _ in range(rolls)], key
        if rolls:
            objects.add(id(d._halves if chance._COMPILED else d._stream))
    assert len(objects) == 1
    for turn in range(3):
        key = ("turn", 20 + turn, "decision", 0)
        d, new = kept.again(7, key), Dice(7, key)
        pair = d.gamble()
        assert pair == new.gamble()
        assert (d.used, d.generated) == (new.used, new.generated) == ({"gamble": list(pair)}, ["gamble"])


def test_a_step_s_start_writes_its_key_as_str_writes_it() -> None:
    """The stream's start, the seed met before or not (the pure build then hashes the key's "%s" text at once):
    the BLAKE2b of "lv/seed/k1/k2/..." with str() of each part (a bool is "True", a big or negative number its
    digits)."""
    keys = [("turn", 3, "draw"), ("turn", 12, "decision", 3), ("turn", True, "decision", 2), ("turn", 3, False),
            ("turn", 2**70, "draw"), ("turn", -4, "decision", 1000), ("start",), ("a", 1, "b", 2, "c", 3, "d"),
            ("a", 1, "b", 2, "c", 3, "d", 4, "e")]
    for seed in (0, 41, "a seed", 41):
        for key in keys:
            text = f"lv/{seed}/" + "/".join(str(k) for k in key)
            want = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
            assert stream_start(seed, key) == want, (seed, key)
            assert stream_start(seed, key) == want, (seed, key)  # (the seed met: the pure build's short way)


class _Other(random.Random):
    """A generator of another class: ``below`` and ``shuffle`` ask it itself."""

    def random(self) -> float:
        return super().random()


def test_the_shuffle_is_random_s() -> None:
    """``shuffle`` draws its indices inline: the order ``random.Random.shuffle`` gives from the same generator, for
    decks of every length, and the generator left in the same state; another generator class as well."""
    for seed in range(20):
        for n in (0, 1, 2, 3, 7, 48, 49, 130):
            for kind in (random.Random, _Other):
                mine, theirs = kind(seed), kind(seed)
                items, want = list(range(n)), list(range(n))
                shuffle(mine, items)
                theirs.shuffle(want)
                assert items == want, (seed, n, kind)
                assert mine.getrandbits(32) == theirs.getrandbits(32)
    mine, theirs = random.Random(1), random.Random(1)
    assert [below(mine, n) for n in range(1, 70)] == [theirs._randbelow(n) for n in range(1, 70)]


def _tied_draw(general: bool):
    """Two seats' dice tie at the top of a gold casino (a position: no decision settled it), then seat 0 draws an
    empty lot's card: the draw's events, dice and money."""
    from lv.rules import Engine
    from lv.state import GameState, PlayerState

    e = Engine(lv.load_profile("revised"))
    s = GameState(players=[PlayerState("a"), PlayerState("b")], board=e.board)
    s.place_tile("A1", "gold", 1, 0, 5)
    s.place_tile("A2", "gold", 1, 1, 5)
    card = next(lot for lot in e.board.order if lot not in s.tiles and not lot.startswith(("A", "F")))
    s.deck = [card, "B1", "B2"]
    dice = Dice(3, ("turn", 1, "draw"))
    events: list = []
    e.begin_turn(s, 0, dice, events, draw=False)
    if not general:
        e.draw_step(s, dice, events)
    else:
        s.deck.pop(0)
        s.drawn.append(card)
        s.discards.append(card)
        at = e.board.index[card]
        events.append(CardDrawn(0, card, e.board.card_colors[at], False))
        before, bosses = e._before_draw(s)
        e.take_over(s, 0, card, events, {}, at=at)
        e._settle_card(s, dice, events, e.board.card_colors[at], before, color_id=e.board.card_color_ids[at],
                       bosses=bosses)
    return [ev.to_dict() for ev in events], dict(dice.used), [(p.money, p.score) for p in s.players]


def test_a_tie_left_before_a_marker_s_draw_is_settled_as_the_general_draw_settles_it() -> None:
    """A tie the draw finds (set up in a position) is rerolled by a draw that only places a marker, as by the
    general draw: the same rerolls, events and dice."""
    mine, general = _tied_draw(False), _tied_draw(True)
    assert mine == general
    assert any(ev["kind"] == "tie_rerolled" for ev in mine[0]) and "ties" in mine[1]
