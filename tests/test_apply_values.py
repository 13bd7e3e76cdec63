"""Values handed out again (round 22): the pure build's state gives a lot the tile made before with the same fields
(``state._tile``), a turn's end is told with its seat's one ``turn_ended`` event, and an end of turn's decision is made
without ``__init__``. Each test pins what the reuse must not change: every tile and event is the one a fresh
``Tile(...)`` or ``TurnEnded(...)`` would be, in every position of played games."""

from __future__ import annotations

import random

import pytest

import lv
from lv import bots
from lv.actions import EndTurn
from lv.events import TurnEnded
from lv.game import Decision
from lv.state import Tile

SPECS = ["revised", "original", "revised,casino.join_rule=color", "original,raise.max_height=4"]


def _tiles_agree(s) -> None:
    """Every tile of ``s`` is what its lot's flat facts say (colour, height, die owner and face)."""
    board = s.board
    for lot, t in s.tiles.items():
        i = board.index[lot]
        assert type(t) is Tile
        assert (t.color, t.height, t.owner, t.value) == (s.tile_colors[i], s.tile_heights[i], s.die_owners[i],
                                                         s.die_values[i] or None), lot
        assert t == Tile(t.color, t.height, t.owner, t.value)


def _after_each_decision(profile, seeds: int = 4):
    """Games of 4 players, seeds 0 to ``seeds - 1``, played by random legal decisions: the game after each."""
    for seed in range(seeds):
        game = lv.new_game(profile, 4, seed)
        rng = random.Random(seed)
        while not game.over:
            game.apply(game.random_legal(rng))
            yield game


@pytest.mark.parametrize("spec", SPECS)
def test_every_tile_handed_out_is_the_tile_of_its_lot_s_facts(spec):
    """After every decision of played games (builds, sprawls, remodels, raises, reorganizations, take-overs, tie
    rerolls), each lot's tile has the colour, height and die its lot has in the state's flat lists: a tile handed out
    again is never another lot's or another die's."""
    for game in _after_each_decision(lv.load_profile(spec)):
        _tiles_agree(game.state)


def test_each_turn_ends_with_its_player_s_event_and_one_decision():
    """Each turn's last decision is its player's end of turn, with the one event ``turn_ended`` of that player, read
    as a list; the decision equals one made through ``Decision``'s ``__init__``."""
    profile = lv.load_profile("revised")
    for seed in range(3):
        game = bots.play(lv.new_game(profile, 3 + seed % 2, seed), [bots.uniform_bot] * (3 + seed % 2), seed)
        ended = 0
        for turn in game.history[:-1]:
            last = turn.decisions[-1]
            assert type(last.action) is EndTurn
            assert last.events == [TurnEnded(turn.player)]
            assert last == Decision(EndTurn(), None, None, None, [TurnEnded(turn.player)])
            assert last.dice == {} and last.choices == {} and last.generated == []
            ended += 1
        assert ended >= 10


@pytest.mark.parametrize("spec", SPECS)
def test_the_families_events_made_without_init_are_those_init_makes(spec):
    """Each build, remodel, gamble and reorganization of played games told its event (pure: made without
    ``__init__``, each field stored by ``carry_out``) with every field, equal to the event ``__init__`` makes from
    them, and each field in its place: the decision's lot, colour and bet, the tile's price, the colour before, the
    dice and their total, the lots of the casino reorganized."""
    from lv.actions.build import Built
    from lv.actions.gamble import Gambled
    from lv.actions.remodel import Remodeled
    from lv.actions.reorganize import Reorganized

    profile = lv.load_profile(spec)
    seen: set[type] = set()
    for seed in range(4):
        game = lv.new_game(profile, 4, seed)
        rng = random.Random(seed)
        while not game.over:
            game.apply(game.random_legal(rng))
        board = game.board
        for turn in game.history:
            for d in turn.decisions:
                for ev in d.events:
                    kind = type(ev)
                    if kind not in (Built, Remodeled, Gambled, Reorganized):
                        continue
                    seen.add(kind)
                    fields = [getattr(ev, k) for k in ev._keys]  # (a field not stored: AttributeError)
                    assert ev == kind(*fields) and repr(ev) == repr(kind(*fields))
                    assert ev.player == turn.player
                    a = d.action
                    if kind is Built:
                        assert (ev.lot, ev.color, ev.cost) == (a.lot, a.color, board.lots[a.lot].price)
                        assert ev.value in (None, board.lots[a.lot].die)
                    elif kind is Remodeled:
                        assert ev.color == a.color and ev.before != ev.color and a.lot in ev.lots
                    elif kind is Gambled:
                        assert (ev.lot, ev.bet, ev.total) == (a.lot, a.bet, sum(ev.dice))
                        assert ev.outcome in ("lose", "win", "double")
                    else:
                        assert a.lot in ev.lots and set(ev.values) <= set(ev.lots) and ev.values
    assert seen == {Built, Remodeled, Gambled, Reorganized}


# ---- round 23 (apply23): a tile alone not compared; the dice facts' and a gamble's dice's oracles


def _facts_here(s, casino) -> tuple[object, ...]:
    """``casino``'s dice facts (top, top lots, boss, owners, pips), worked out here from the state's flat lists."""
    dice = [(lot, s.die_owners[i], s.die_values[i]) for lot, i in zip(casino.lots, casino.bits)
            if s.die_owners[i] is not None]
    if not dice:
        return None, (), None, (), 0
    top = max(v for _, _, v in dice)
    top_owners = {o for _, o, v in dice if v == top}
    return (top, tuple(lot for lot, _, v in dice if v == top), top_owners.pop() if len(top_owners) == 1 else None,
            tuple(dict.fromkeys(o for _, o, _ in dice)), sum(v for _, _, v in dice))


@pytest.mark.parametrize("spec", SPECS)
def test_every_casino_s_dice_facts_are_what_its_dice_say(spec):
    """After every decision of played games, each casino's dice facts are what its dice say: the top value and its
    lots, the boss, the owners, the pips (an oracle of their own for the index's facts, kept or made)."""
    for game in _after_each_decision(lv.load_profile(spec)):
        s = game.state
        for casino, facts in game.engine.casinos_with_dice(s):
            assert tuple(facts) == _facts_here(s, casino), casino


def test_a_gamble_s_dice_are_those_it_rolled():
    """Each gamble of played games tells the dice its decision rolled, in order (the event's sum alone would not
    tell the two dice swapped)."""
    from lv.actions.gamble import Gambled

    profile = lv.load_profile("revised")
    gambles = unequal = 0
    for seed in range(6):
        game = bots.play(lv.new_game(profile, 4, seed), [bots.uniform_bot] * 4, seed)
        for turn in game.history:
            for d in turn.decisions:
                for ev in d.events:
                    if type(ev) is Gambled:
                        gambles += 1
                        assert ev.dice == d.dice["gamble"] and ev.total == sum(ev.dice)
                        assert type(ev._dice) is tuple and ev._dice == tuple(ev.dice)
                        unequal += ev.dice[0] != ev.dice[1]
    assert gambles > 50 and unequal > 20


@pytest.mark.skipif(lv.build_name() == "compiled", reason="the compiled engine's methods are C: not patched")
def test_a_tile_alone_on_an_empty_lot_is_not_compared(monkeypatch):
    """A build that joins nothing makes a casino of no casino: nothing to tell, and ``Engine._told`` is not run for it
    (its block's bosses by mask, changed in place, are not ``rebossed``); builds that merge casinos are (a build that
    grows one casino is where its boss changes: not told otherwise, ``CasinoIndex._joined``)."""
    from lv.actions import Build
    from lv.rules import Engine

    real = Engine._told
    calls = 0

    def counted(self, *args):
        nonlocal calls
        calls += 1
        return real(self, *args)

    monkeypatch.setattr(Engine, "_told", counted)
    alone = joining = merging = 0
    for seed in (0, 1, 2, 3, 16, 17, 20):  # (16, 17, 20: a build that merges two casinos, rare in a uniform game)
        game = lv.new_game("revised", 4, seed)
        rng = random.Random(seed)
        while not game.over:
            action = game.random_legal(rng)
            was = calls
            build = type(action) is Build
            s = game.state
            near = [j for j in game.board.neighbour_bits[game.board.index[action.lot]]
                    if s.tile_colors[j] == action.color and s.tile_heights[j] == 1] if build else []
            joined = {game.engine.casino_at(s, game.board.order[j]).mask for j in near}
            game.apply(action)
            if build and not near:
                alone += 1
                assert calls == was, action
            elif len(joined) > 1:  # a merge: told
                merging += 1
                assert calls > was, action
            elif near:
                joining += calls > was
    assert alone > 50 and merging >= 3 and joining > 0, (alone, merging, joining)


@pytest.mark.parametrize("spec", [*SPECS[:2], "revised,components.dice_per_player=4"])
def test_each_carry_out_charges_and_names_what_the_casino_says_before_it(spec):
    """Each gamble of played games names the boss its casino had before it (a lot of the casino that need not be its
    first), each reorganization costs what ``action_cost`` said before it (its casino's pips), and each build costs its
    lot's price and moves a die only where the builder had none left: read from the one index (pure and compiled)."""
    from lv.actions import Build, Gamble, Reorganize
    from lv.actions.build import Built
    from lv.actions.gamble import Gambled
    from lv.actions.reorganize import Reorganized

    profile = lv.load_profile(spec)
    counted = {Gamble: 0, Reorganize: 0, Build: 0}
    off_first = moved = 0
    for seed in range(5):
        game = lv.new_game(profile, 4, seed)
        rng = random.Random(seed)
        while not game.over:
            action = game.random_legal(rng)
            kind = type(action)
            s = game.state
            if kind is Gamble:
                boss = game.boss_at(action.lot)
                lots = game.casino_at(action.lot).lots
                if len(lots) > 1:  # named by another lot of its casino (checked: the long way to the same carry_out)
                    action = Gamble(lots[-1], action.bet, action.lay_off)
                    off_first += 1
            elif kind is Reorganize:
                cost = game.engine.action_cost(s, action)
            elif kind is Build:
                left = s.dice_count(s.current) < profile.components.dice_per_player
            events = game.apply(action)
            if kind in counted:
                counted[kind] += 1
                main = next(e for e in events if type(e) in (Gambled, Reorganized, Built))
                if kind is Gamble:
                    assert type(main) is Gambled and main.boss == boss
                elif kind is Reorganize:
                    assert type(main) is Reorganized and main.cost == cost > 0
                else:
                    assert main.cost == game.board.lots[action.lot].price
                    assert (main.moved_from is None) == left
                    moved += not left
    assert min(counted.values()) > 10 and off_first > 3, (counted, off_first)
    assert moved > 3 if "dice_per_player" in spec else not moved


def test_dice_facts_are_equal_field_by_field():
    """Two dice facts are equal where every field is (top, top lots, boss, owners, pips), whatever objects they are;
    a fact of another kind is not equal to them."""
    from lv.casinos import DiceFacts

    base = (5, ("A2", "A3"), None, (1, 2), 9)
    facts = DiceFacts(*base)
    assert facts == DiceFacts(*base) and not facts != DiceFacts(*base)
    assert facts == DiceFacts(5, tuple(["A2", "A3"]), None, tuple([1, 2]), 9)
    for k, other in enumerate((6, ("A2",), 1, (2, 1), 10)):
        changed = list(base)
        changed[k] = other
        assert facts != DiceFacts(*changed) and not facts == DiceFacts(*changed), k
    assert facts != base and facts != None  # noqa: E711 (the operator, not identity)
    assert [facts, None] != [DiceFacts(*base), facts] and [facts] == [DiceFacts(*base)]
