"""Applying a decision in fewer steps (round 21): the simulation's case of ``Game.apply`` (a vouched decision, nothing
given) takes a short path; in the pure build a tile alone or a tile that joins casinos changes its block's pairs and
bosses by mask in place of a fill (``CasinoIndex.tile_alone``, ``_joined``), and merges and boss changes are found from
the bosses by mask of the blocks made anew (``Engine._told``, ``CasinoIndex.rebossed``). Each test pins what the
shorter way must not change: the index it leaves, the events it tells, the game it plays."""

from __future__ import annotations

import copy
import random

import pytest

import lv
from lv import record
from lv.actions import EndTurn, Gamble
from lv.actions.layoff import LAY_OFF_PHASE
from lv.casinos import CasinoIndex
from lv.events import BossChanged, Merged
from lv.rules import Engine

SPECS = ["revised", "original", "revised,casino.join_rule=color", "original,raise.max_height=4"]


def _text(game: lv.Game) -> str:
    return record.dumps(record.record_of(game, game.profile.name), "yaml")


def _view(index: CasinoIndex) -> tuple[object, ...]:
    """What a current, bossed index holds, block by block: its casinos, their pairs (casino, dice facts), bosses by
    mask and tied casinos, and its casino by bit."""
    index.boss_blocks()
    blocks = [[(c.mask, c.color, c.height) for c in block] for block in index.by_block]
    pairs = [[(c.mask, c.color, c.height, tuple(f)) for c, f in block] for block in index._pairs]
    bosses = [dict(b) for b in index._bosses_by]
    tied = index._tied
    ties = [[c.mask for c, _ in index._tied_by[k]] if tied >> k & 1 else [] for k in range(len(index.by_block))]
    at = [None if c is None else c.mask for c in index.at_bit]
    return blocks, pairs, bosses, ties, at


@pytest.mark.parametrize("spec", SPECS)
def test_the_index_changed_in_place_is_the_index_made_anew(spec):
    """After every decision of played games, the game's casino index (its blocks changed in place where a tile went
    alone or joined casinos) holds what an index made anew for the state holds: the same casinos in board order, the
    same pairs, bosses by mask and tied casinos. The in-place ways are taken (pure)."""
    placed = joined = 0
    real_placed, real_joined = CasinoIndex.tile_alone, CasinoIndex._joined

    def counting_placed(self, *args):  # a tile alone (or joining casinos) worked out at once
        nonlocal placed
        done = real_placed(self, *args)
        placed += done
        return done

    def counting_joined(self, *args):
        nonlocal joined
        joined += 1
        return real_joined(self, *args)

    pure = isinstance(CasinoIndex.__dict__.get("tile_alone"), type(counting_placed))
    if pure:
        CasinoIndex.tile_alone, CasinoIndex._joined = counting_placed, counting_joined  # type: ignore[method-assign]
    try:
        for seed in range(4):
            game = lv.new_game(spec, 4, seed=seed)
            rng = random.Random(seed)
            rule = game.profile.casino.join_rule
            while not game.over:
                game.apply(game.random_legal(rng))
                fresh = CasinoIndex(game.state.copy(), rule)
                assert _view(game.state._casinos) == _view(fresh)
    finally:
        if pure:
            CasinoIndex.tile_alone, CasinoIndex._joined = real_placed, real_joined  # type: ignore[method-assign]
    if pure:
        assert placed > 50 and joined > 5, (placed, joined)


@pytest.mark.skipif(lv.build_name() == "compiled", reason="the compiled engine's methods are C: not patched")
@pytest.mark.parametrize("spec", SPECS)
def test_the_merges_and_bosses_told_are_those_the_blocks_casinos_tell(spec, monkeypatch):
    """Every decision of played games tells the merges and boss changes that ``Engine._tell`` finds from the blocks'
    casinos with their dice facts before and after it (the compiled build's way, compared casino by casino over
    every block), in the same order; some decisions tell some. (``Engine.carry_out`` tells them, for ``Engine.apply``
    and for the decisions ``Game.apply`` vouches for, which it carries out at once.)"""
    real = Engine.carry_out
    told = 0

    def checked(self, s, family, action, dice, events, choices):
        nonlocal told
        index = self.index(s)
        before = index.pair_blocks()
        start = len(events)
        real(self, s, family, action, dice, events, choices)
        if self.quiet or s.phase != "actions":
            return
        expected: list = []
        self._tell(s, before, self.index(s).pair_blocks(), expected)
        got = [e for e in events[start:] if isinstance(e, (Merged, BossChanged))]
        assert got == expected, (action, got, expected)
        told += len(got)

    monkeypatch.setattr(Engine, "carry_out", checked)
    for seed in range(4):
        game = lv.new_game(spec, 4, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            game.apply(game.random_legal(rng))
    assert told > 3


@pytest.mark.parametrize("spec", SPECS[:2])
def test_a_vouched_decision_plays_as_the_same_decision_checked(spec):
    """A game whose decisions are ``random_legal``'s very objects (the short path) and a game given equal copies of
    them (checked, the long path) are the same game, record for record."""
    seed = 5
    short = lv.new_game(spec, 4, seed=seed)
    long = lv.new_game(spec, 4, seed=seed)
    rng = random.Random(seed)
    while not short.over:
        action = short.random_legal(rng)
        twin = copy.copy(action)
        assert twin is not action or isinstance(action, EndTurn)
        events = short.apply(action)
        assert long.apply(twin) == events
    assert long.over and _text(short) == _text(long)


@pytest.mark.skipif(lv.build_name() == "compiled", reason="the compiled engine's methods are C: not patched")
def test_a_vouched_decision_is_carried_out_by_its_family_at_once(monkeypatch):
    """``Game.apply`` hands a decision it vouches for (``random_legal``'s very object, nothing given) to
    ``Engine.carry_out`` with its family at once, not to ``Engine.apply`` (its step's checks, and the family looked
    up again); an equal copy, not vouched, goes through ``Engine.apply``, whose own ``carry_out`` gets no family
    (checked: ``act``). An end of turn and a trade's decisions are neither (the game's turn machinery; any time). A
    gamble (no tile, no die changed) goes to its family's ``carry_out`` at once where the index is current with no
    casino tied (``Game._apply_own``: nothing for ``Engine.carry_out`` to settle or tell after it)."""
    from lv.actions import gamble as gamble_module

    calls: list[tuple[str, object, object]] = []
    real_apply, real_carry_out = Engine.apply, Engine.carry_out
    gambles = type(gamble_module.FAMILY)
    real_gamble = gambles.carry_out

    def gamble(self, engine, s, player, a, dice, events, choices):
        calls.append(("gamble", a, None))
        real_gamble(self, engine, s, player, a, dice, events, choices)

    def apply(self, s, action, dice, events, choices=None, trusted=False):
        calls.append(("apply", action, trusted))
        real_apply(self, s, action, dice, events, choices, trusted)

    def carry_out(self, s, family, action, dice, events, choices):
        calls.append(("carry_out", action, None if family is None else family.name))
        real_carry_out(self, s, family, action, dice, events, choices)

    monkeypatch.setattr(Engine, "apply", apply)
    monkeypatch.setattr(Engine, "carry_out", carry_out)
    monkeypatch.setattr(gambles, "carry_out", gamble)
    game = lv.new_game("revised", 4, seed=6)
    rng = random.Random(6)
    kinds = set()
    at_once = 0
    while not game.over and len(kinds) < 5:
        action = game.random_legal(rng)
        del calls[:]
        game.apply(action)
        if isinstance(action, EndTurn):
            assert not calls
            continue
        family = lv.actions.FAMILY_OF[type(action)].name
        if family == "gamble":
            assert calls in ([("gamble", action, None)], [("carry_out", action, family), ("gamble", action, None)])
            at_once += len(calls) == 1
        else:
            assert calls == [("carry_out", action, family)], calls
        kinds.add(family)
    assert kinds >= {"build", "gamble", "remodel", "reorganize"} and at_once, (kinds, at_once)
    other = lv.new_game("revised", 4, seed=6)
    rng = random.Random(6)
    while True:
        action = other.random_legal(rng)
        if not isinstance(action, EndTurn):
            break
        other.apply(action)
    del calls[:]
    other.apply(copy.copy(action))  # the first decision, given from outside: checked
    assert calls[:2] == [("apply", calls[0][1], False), ("carry_out", calls[0][1], None)], calls


def test_a_vouched_gamble_without_the_boss_s_answer_waits_for_it_where_the_boss_is_asked():
    """The short path leaves a gamble chosen without the boss's answer to the ask (``gamble.lay_off``: the boss
    answers first), as the long path does."""
    game = lv.new_game("original", 4, seed=3)
    rng = random.Random(3)
    while True:
        action = game.random_legal(rng)
        if isinstance(action, Gamble):
            break
        game.apply(action)
    asked = Gamble(action.lot, action.bet, None)
    game._vouch(asked)
    assert game.apply(asked) == []
    assert game.current_turn.decisions[-1].action is asked
    assert game.state.phase == LAY_OFF_PHASE and game.to_move == game.state._casinos.facts_of(
        game.state._casinos.at[asked.lot]).boss


@pytest.mark.skipif(lv.build_name() == "compiled", reason="the compiled engine's methods are C: not patched")
def test_a_decision_that_changes_tiles_in_two_blocks_works_out_both(monkeypatch):
    """``Engine.apply`` works out the casinos a decision changed without ``refresh``'s call where its tiles are in one
    block (pure): where they are in two, both blocks are worked out. Here each build also puts a tile of its colour on
    an empty lot of another block (a decision no family makes, which the one-block way would leave half done): the
    index after it is the index made anew."""
    from lv.actions.build import BuildFamily

    real = BuildFamily.carry_out
    both = 0

    def and_another(self, engine, s, player, a, dice, events, choices):
        nonlocal both
        real(self, engine, s, player, a, dice, events, choices)
        board = s.board
        number = board.block_number[board.index[a.lot]]
        for i, lot in enumerate(board.order):
            if board.block_number[i] != number and not s.tile_mask >> i & 1 and lot not in s.markers:
                s.place_tile(lot, a.color, 1, None, None)
                both += 1
                return

    real_rework = CasinoIndex._rework

    def in_its_block(self, number, bm, changed):
        assert not changed & ~bm, (number, changed)  # (else its flood fills would never cover the lot outside)
        return real_rework(self, number, bm, changed)

    monkeypatch.setattr(BuildFamily, "carry_out", and_another)
    monkeypatch.setattr(CasinoIndex, "_rework", in_its_block)
    for seed in range(3):
        game = lv.new_game("revised", 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            if game.over:
                break
            game.apply(game.random_legal(rng))
            fresh = CasinoIndex(game.state.copy(), game.profile.casino.join_rule)
            assert _view(game.state._casinos) == _view(fresh)
    assert both > 5
