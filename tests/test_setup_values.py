"""A game's set-up and the turn's start written for the pure build (round 23): the purposes' generators seeded
without random.py's frames (``chance.rng_for``), two dice in one call (``Dice._two``), the deal reading the closed
block once (``Engine.closed_mask``), the family tables kept with their profile's tables, and each turn made without
``Turn.__init__``. Each must be exactly what the general way makes: the same generator state, dice, deal, tables and
turns."""

from __future__ import annotations

import pickle
import random

import pytest

import lv
from lv import bots, rules
from lv.chance import Dice, rng_for
from lv.events import CardDrawn, CardSkipped, Dealt
from lv.game import Turn
from lv.rules import Engine, FamilyTables


@pytest.mark.parametrize("seed", [0, 7, -3, 2**70 + 5, "abc", "sé/ed", ""])
def test_a_purpose_s_generator_is_random_s_of_its_text(seed) -> None:
    """``rng_for(seed, *key)`` is ``random.Random("lv/seed/k1/...")``: the same state (``gauss_next`` too), the same
    numbers after."""
    for key in ((), ("deck",), ("bot", 2), ("lay-off", 5, 3), ("mcts", 1, 12, 0)):
        mine = rng_for(seed, *key)
        theirs = random.Random("/".join(["lv", str(seed), *map(str, key)]))
        assert type(mine) is random.Random
        assert mine.getstate() == theirs.getstate(), (seed, key)
        assert [mine.random() for _ in range(3)] + [mine.gauss(0, 1) for _ in range(3)] == \
               [theirs.random() for _ in range(3)] + [theirs.gauss(0, 1) for _ in range(3)]
        assert pickle.loads(pickle.dumps(mine)).getstate() == theirs.getstate()


def test_two_dice_are_two_rolls() -> None:
    """``Dice._two`` gives what ``_roll`` twice gives, at a step's first dice and after, from step to step of one
    Dice (``again``) and for sampled dice; a gamble's pair and the starting rolls are those dice."""
    for seed in (0, 3, "x"):
        mine, theirs = Dice(seed, ("start",)), Dice(seed, ("start",))
        for step in range(6):
            key = ("turn", step, "decision", 1)
            mine.again(seed, key)
            theirs.again(seed, key)
            got = [mine._two(), (mine._roll(),), mine._two(), mine._two()]
            want = [(theirs._roll(), theirs._roll()), (theirs._roll(),)] + \
                   [(theirs._roll(), theirs._roll()) for _ in range(2)]
            assert got == want, (seed, step)
        a, b = Dice.sampled(random.Random(seed)), Dice.sampled(random.Random(seed))
        assert [a._two() for _ in range(5)] == [(b._roll(), b._roll()) for _ in range(5)]
        gamble, rolled = Dice(seed, ("turn", 4, "decision", 2)), Dice(seed, ("turn", 4, "decision", 2))
        d1, d2 = rolled._roll(), rolled._roll()
        assert gamble.gamble() == (d1, d2) and gamble.used == {"gamble": [d1, d2]} and gamble.generated == ["gamble"]
        start, rolled = Dice(seed, ("start",)), Dice(seed, ("start",))
        assert start.start([0, 1, 2, 3]) == {p: (rolled._roll(), rolled._roll()) for p in range(4)}


@pytest.mark.parametrize("spec,players", [("revised+f-block", 2), ("original+f-block", 2), ("revised", 2),
                                          ("revised", 4), ("original", 4), ("revised", 5)])
def test_the_deal_skips_exactly_the_closed_block_s_cards(spec, players) -> None:
    """The deal reads the closed block once: a card dealt is skipped (``card_skipped``) exactly when ``f_closed``
    says its lot is closed, each seat keeps the profile's starting cards with a marker on each, and its money is
    the profile's rule over them."""
    skipped = 0
    for seed in range(25):
        game = lv.new_game(spec, players, seed)
        engine, profile, lots = game.engine, game.profile, game.board.lots
        dealt = [ev for ev in game.setup_events if isinstance(ev, Dealt)]
        skips = [ev for ev in game.setup_events if isinstance(ev, CardSkipped)]
        assert [ev.player for ev in dealt] == list(range(players))
        for ev in skips:
            assert engine.f_closed(game.state, ev.card)
        skipped += len(skips)
        for ev in dealt:
            assert len(ev.lots) == profile.setup.starting_cards
            for lot in ev.lots:
                assert not engine.f_closed(game.state, lot) and game.state.markers[lot] == ev.player
            if profile.setup.starting_money == "sum_card_values":
                assert ev.money == sum(lots[c].card_money for c in ev.lots)
            else:
                assert ev.money == 10 * len(ev.lots) - sum(lots[c].die for c in ev.lots)
            assert game.state.players[ev.player].money >= ev.money  # (the first draw may pay it)
        cards = [c for ev in dealt for c in ev.lots]
        assert sorted(game.state.discards[:len(cards) + len(skips)]) == sorted(cards + [ev.card for ev in skips])
    if "f-block" in spec and players == 2:
        assert skipped > 0


def test_the_family_tables_are_kept_with_their_profile_s_tables() -> None:
    """The engines of one profile and board share one ``FamilyTables``, equal to one made afresh; another profile's
    engines have their own."""
    revised, original = lv.load_profile("revised"), lv.load_profile("original")
    a, b, c = Engine(revised), Engine(revised), Engine(original)
    assert a.family_tables is b.family_tables and a.family_tables is not c.family_tables
    for engine, profile in ((a, revised), (c, original)):
        fresh = FamilyTables(engine.tables, profile, engine.board)
        for name in ("gamble", "raise_", "remodel", "reorganize", "sprawl", "gamble_lose", "gamble_double",
                     "double_of_stake", "sprawl_by_bit"):  # (its fields: a compiled class has no ``__slots__``)
            assert getattr(engine.family_tables, name) == getattr(fresh, name), name
        assert engine.family_tables.gamble is engine.tables["gamble"]


def _class_made(turn: Turn) -> Turn:
    """The turn as its class makes it from its fields."""
    made = Turn(turn.number, turn.player, turn._cards, turn._draw_dice, turn._draw_generated, turn._draw_choices,
                turn.draw_events, turn.decisions)
    made._card = turn._card
    return made


@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 3), ("original+f-block", 2, 5), ("revised", 5, 8)])
def test_each_turn_is_what_its_class_makes(spec, players, seed) -> None:
    """Every turn of played games has ``Turn.__init__``'s fields, in its order (the instance's values), and reads
    as the turn played: its number and player, its cards those its ``card_drawn`` events name, in order, a turn of
    one card kept without a list; copies and compares as a class-made one."""
    game = lv.new_game(spec, players, seed)
    bots.play(game, [bots.uniform_bot] * players, seed)
    fields = ("number", "player", "_cards", "_card", "_draw_dice", "_draw_generated", "_draw_choices", "draw_events",
              "decisions")  # (``__init__``'s order)
    assert len({id(turn.decisions) for turn in game.history}) == len(game.history) > 10
    for n, turn in enumerate(game.history, 1):
        if not rules._COMPILED:  # (pure: the instance's values in its class's shared keys, in ``__init__``'s order)
            assert list(vars(turn)) == list(vars(Turn(1, 0))) == list(fields)
        made = _class_made(turn)
        assert [getattr(turn, k) for k in fields] == [getattr(made, k) for k in fields]
        assert turn == made and repr(turn) == repr(made)
        assert turn.number == n and turn.player == turn.draw_events[0].player
        named = [ev.card for ev in turn.draw_events if isinstance(ev, CardDrawn)]
        assert turn._drawn() == tuple(named) and (turn._cards is None) == (len(named) == 1)
        assert turn.copy() == turn and turn.cards == named


def test_a_reorganization_notes_its_dice_generated_once_in_order() -> None:
    """``Dice.reorg`` notes "reorg" once, after its dice (not a call a die): generated only where a die was rolled,
    and in the order first generated with a gamble's."""
    lots = {1: ["C3", "C1"], 0: ["A2"]}
    dice = Dice(4, ("turn", 2, "decision", 1))
    dice.gamble()
    values = dice.reorg(lots)
    assert list(values) == ["A2", "C3", "C1"] and dice.generated == ["gamble", "reorg"]
    dice = Dice(4, ("turn", 2, "decision", 1), {"reorg": {"A2": 3}})
    dice.reorg(lots)
    dice.gamble()
    assert dice.generated == ["reorg", "gamble"] and dice.used["reorg"]["A2"] == 3
    dice = Dice(4, ("turn", 2, "decision", 1), {"reorg": {"A2": 3, "C3": 1, "C1": 6}})
    assert dice.reorg(lots) == {"A2": 3, "C3": 1, "C1": 6} and dice.generated == []
    dice.gamble()
    assert dice.generated == ["gamble"]


def _steps() -> list:
    """Steps of every kind a Dice serves: (recorded dice, what the step does)."""
    return [({}, lambda d: None),
            ({}, lambda d: d.gamble()),
            ({"gamble": [2, 5]}, lambda d: d.gamble()),
            ({"gamble": [2, 5]}, lambda d: (d.gamble(), d.gamble())),
            ({"reorg": {"A2": 3}}, lambda d: d.reorg({0: ["A2"]})),
            ({"reorg": {"A2": 3}}, lambda d: d.reorg({0: ["A2", "B1"]})),
            ({"ties": {"C1": [4, 2]}}, lambda d: d.tie(["C1"])),
            ({}, lambda d: d.tie(["C1", "C2"])),
            ({}, lambda d: setattr(d, "used", {"gamble": [1, 1]})),
            ({}, lambda d: d.start([0, 1]))]


def test_dice_made_ready_again_are_new_dice_after_every_kind_of_step() -> None:
    """``Dice.again`` after any step (nothing rolled, dice rolled, recorded dice only, tie rerolls, ``used`` set) is
    ``Dice(seed, key, recorded)``: nothing used, generated or left of the step's ties, the same dice next, and the
    ``used`` dict the step wrote left to whoever took it."""
    for first_recorded, first in _steps():
        for then_recorded, then in _steps():
            dice = Dice(9, ("turn", 1, "draw"), first_recorded)
            first(dice)
            taken = dice.used
            snapshot = {k: v.copy() if isinstance(v, (dict, list)) else v for k, v in taken.items()}
            dice.again(9, ("turn", 1, "decision", 1), then_recorded)
            fresh = Dice(9, ("turn", 1, "decision", 1), then_recorded)
            assert dice.used == {} and dice.generated == [] and dice._ties_left is None and dice._pair == 0
            then(dice)
            then(fresh)
            assert (dice.used, dice.generated) == (fresh.used, fresh.generated)
            assert [dice._roll() for _ in range(3)] == [fresh._roll() for _ in range(3)]
            assert taken == snapshot or not snapshot


def test_a_mask_s_lots_are_made_once_as_the_memo_s_tuple() -> None:
    """``Board.lots_tuple``: a mask's lots in board order, kept in the memo as that very tuple; ``lots_of`` a new
    list of them each time; a lot payout holds the memo's tuple of its seat's markers."""
    import random as _random

    board = lv.load_board()
    rng = _random.Random(5)
    for _ in range(2000):
        mask = rng.getrandbits(48) & rng.getrandbits(48) & rng.getrandbits(48)
        want = tuple(board.lots_by_bit(mask))
        board._lots_memo.pop(mask, None)
        made = board.lots_tuple(mask)
        assert made == want and board._lots_memo[mask] is made
        listed = board.lots_of(mask)
        assert listed == list(want) and listed is not board.lots_of(mask)
    game = lv.new_game("revised", 3, 4)
    bots.play(game, [bots.uniform_bot] * 3, 4)
    paid = [ev for turn in game.history for ev in turn.draw_events if type(ev).__name__ == "Paid" and ev.why == "lots"]
    assert len(paid) > 20
    for ev in paid:
        mask = 0
        for lot in ev.lots:
            mask |= game.board.bit[lot]
        assert ev._lots == tuple(game.board.lots_by_bit(mask)) and ev.amount == len(ev._lots) * \
            game.engine._lot_income
