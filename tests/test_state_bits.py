"""The bitboard state (lv/state.py, lv/board.py, lv/casinos.py): casinos found by flood fills over bit masks
against a plain breadth-first search over lot ids, the board's precomputed masks against its neighbour lists,
and the one undo (``GameState.copy`` / ``GameState.restore``) against the state it saved.

Rulebook: 000 "Who owns what" ("a group of 1 or more contiguous tiles of the same color"); 003 "Who Owns What"
L221-229 ("contiguous tiles of the same color and height"); adjacency stays inside a block (the board's lists).
"""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lv
from lv.casinos import dice_facts, frontier, frontier_mask
from lv.state import FIELDS, GameState, PlayerState, Tile

from test_casino_index import assert_index_agrees

BOARD = lv.load_board()
LOTS = BOARD.order


def bfs_casinos(tiles: dict[str, Tile], by_height: bool) -> list[tuple[tuple[str, ...], str, int]]:
    """(lots in board order, colour, tallest height) of each casino, in board order of its first lot: a
    breadth-first search over the lot ids and the board's neighbour lists, no bits anywhere."""
    seen: set[str] = set()
    out = []
    for lot in LOTS:
        if lot not in tiles or lot in seen:
            continue
        t = tiles[lot]
        group, queue = [lot], deque([lot])
        seen.add(lot)
        while queue:
            here = queue.popleft()
            for n in BOARD.lots[here].neighbours:
                u = tiles.get(n)
                if n not in seen and u is not None and u.color == t.color and (not by_height or u.height == t.height):
                    seen.add(n)
                    group.append(n)
                    queue.append(n)
        lots = tuple(x for x in LOTS if x in group)
        out.append((lots, t.color, max(tiles[x].height for x in lots)))
    return out


def bfs_groups(lots: set[str]) -> list[set[str]]:
    """The connected groups of a set of lots (edges: the board's neighbour lists)."""
    seen: set[str] = set()
    out = []
    for lot in LOTS:
        if lot not in lots or lot in seen:
            continue
        group, queue = {lot}, deque([lot])
        while queue:
            for n in BOARD.lots[queue.popleft()].neighbours:
                if n in lots and n not in group:
                    group.add(n)
                    queue.append(n)
        seen |= group
        out.append(group)
    return out


TILE = st.tuples(st.sampled_from(BOARD.colors[:3]), st.integers(1, 3), st.sampled_from([None, 0, 1, 2]),
                 st.integers(1, 6))
BOARDS = st.dictionaries(st.sampled_from(LOTS), TILE, max_size=48)


def state_with(tiles: dict) -> GameState:
    return GameState(players=[PlayerState(n) for n in "abc"],
                     tiles={lot: Tile(c, h, o, None if o is None else v) for lot, (c, h, o, v) in tiles.items()})


@pytest.mark.slow
@pytest.mark.parametrize("join_rule", ["color", "color_and_height"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiles=BOARDS)
def test_casinos_by_flood_fill_over_bits_are_the_casinos_of_a_breadth_first_search(join_rule, tiles):
    """Guards CasinoIndex._rework (made from scratch) and Board.components on random boards, both join rules."""
    s = state_with(tiles)
    got = [(c.lots, c.color, c.height) for c in s.casino_index(join_rule).all()]
    assert got == bfs_casinos(s.tiles, join_rule == "color_and_height")


@pytest.mark.slow
@pytest.mark.parametrize("join_rule", ["color", "color_and_height"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=BOARDS, steps=st.lists(st.tuples(st.sampled_from(LOTS), TILE), max_size=25))
def test_casinos_kept_through_tile_changes_are_the_casinos_of_a_breadth_first_search(join_rule, first, steps):
    """Guards the re-flooding of changed lots only: tiles placed one by one (over others too), the index read
    between steps, against a breadth-first search from scratch after every step."""
    s = state_with(first)
    s.casino_index(join_rule)
    for lot, (c, h, o, v) in steps:
        s.place_tile(lot, c, h, o, None if o is None else v)
        got = [(x.lots, x.color, x.height) for x in s.casino_index(join_rule).all()]
        assert got == bfs_casinos(s.tiles, join_rule == "color_and_height"), (lot, c, h)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(lots=st.sets(st.sampled_from(LOTS)))
def test_board_components_of_any_mask_are_the_groups_of_a_breadth_first_search(lots):
    """Guards Board.components (and its memo) and lots_of/mask_of/bits_of on random sets of lots."""
    mask = BOARD.mask_of(lots)
    assert BOARD.lots_of(mask) == [x for x in LOTS if x in lots]
    assert BOARD.bits_of(mask) == [BOARD.index[x] for x in LOTS if x in lots]
    for _ in range(2):  # computed, then from the memo
        groups = [set(BOARD.lots_of(g)) for g in BOARD.components(mask)]
        assert groups == bfs_groups(set(lots))


def test_the_board_masks_say_what_the_lot_data_says():
    """Guards the precomputed masks of board.py against the lots' own fields."""
    assert [BOARD.bit[x] for x in LOTS] == [1 << i for i in range(48)] and BOARD.all_mask == (1 << 48) - 1
    for i, lot in enumerate(LOTS):
        data = BOARD.lots[lot]
        assert BOARD.neighbours_mask[i] == BOARD.mask_of(data.neighbours)
        assert BOARD.block_of[i] == BOARD.mask_of(BOARD.blocks[data.block]) == BOARD.block_mask[data.block]
        assert BOARD.block_names[BOARD.block_number[i]] == data.block
        assert (BOARD.prices[i], BOARD.printed_dice[i]) == (data.price, data.die)
        assert bool(BOARD.strip_mask & (1 << i)) == data.strip
        assert BOARD.around(1 << i) == BOARD.neighbours_mask[i]
    assert sum(BOARD.block_masks) == BOARD.all_mask  # the blocks cover the board, once each
    pair = BOARD.mask_of(["C4", "C5"])
    assert BOARD.around(pair) == BOARD.mask_of(n for x in ("C4", "C5") for n in BOARD.lots[x].neighbours) & ~pair
    for money in (-1, 0, 5, 6, 8, 9, 14, 20, 100):
        assert BOARD.price_at_most(money) == BOARD.mask_of(x for x in LOTS if BOARD.lots[x].price <= money), money


# ---------------------------------------------------------------------------------------------- undo
def everything(s: GameState) -> dict:
    """Every fact of a state that a game can see, plain values, bitboards included."""
    out = {name: getattr(s, name) for name in FIELDS
           if name not in ("board", "_memo", "_casinos", "_casinos_from", "_casinos_at", "_holes")}  # bookkeeping
    out["players"] = [(p.name, p.money, p.score) for p in s.players]
    out["marker_masks"] = [m for m in s.marker_masks]
    out["dice_masks"] = [m for m in s.dice_masks]
    return {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else set(v) if isinstance(v, set)
                else v) for k, v in out.items()}


def test_copy_holds_every_field_and_shares_nothing_that_changes():
    """Guards GameState.copy: a field added to the state and forgotten in copy() fails here."""
    game = lv.new_game("revised", 4, 3)
    rng = random.Random(3)
    for _ in range(60):
        a = rng.choice(game.legal_actions())
        game.apply(lv.Gamble(a.lot, 1) if isinstance(a, lv.Gamble) else a)
    game.engine.casinos_with_dice(game.state)
    s = game.state
    if hasattr(s, "__dict__"):  # the pure build: FIELDS names every attribute (restore() puts back each)
        # _undo: the open checkpoints (a copy has none); _spare: one rolled back, made again by the next
        assert sorted(vars(s)) == sorted((*FIELDS, "_undo", "_spare"))
    t = s.copy()
    assert everything(t) == everything(s)
    for name in FIELDS:
        a, b = getattr(s, name), getattr(t, name)
        if isinstance(a, (list, dict, set)) and name not in ("pending",):  # pending is replaced whole
            assert a is not b, name
    assert t._casinos is not s._casinos and (t._casinos is None or t._casinos.reads(t))


@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 1), ("original", 3, 2),
                                               ("original,raise.enabled=true,raise.max_height=4", 4, 4), ("revised", 6, 7),
                                               ("revised,casino.join_rule=color", 2, 5)])
def test_restore_puts_back_the_state_that_copy_saved(spec, players, seed):
    """Guards GameState.restore: after any number of decisions, restoring a copy gives back every fact of the
    saved state (bitboards and casino index included), and play goes on from it as from the original."""
    rng = random.Random(seed)
    game = lv.new_game(spec, players, seed)
    join_rule = game.profile.casino.join_rule
    for _ in range(6):
        if game.over:
            break
        for _ in range(rng.randrange(3, 30)):
            if game.over:
                break
            a = rng.choice(game.legal_actions())
            game.apply(lv.Gamble(a.lot, 1) if isinstance(a, lv.Gamble) else a)
        s = game.state
        game.engine.casinos_with_dice(s)  # caches full, as bots leave them
        before = everything(s)
        legal_before = game.legal_actions()
        saved = s.copy()
        for _ in range(rng.randrange(1, 25)):
            if game.over:
                break
            legal = game.legal_actions()
            a = rng.choice(legal)
            game.apply(lv.Gamble(a.lot, 1) if isinstance(a, lv.Gamble) else a)
        s.restore(saved)
        assert everything(s) == before
        assert_index_agrees(s, join_rule, "after restore")
        assert s._casinos is None or s._casinos.reads(s)
        if before["phase"] == "actions":
            assert game.legal_actions() == legal_before


def test_a_restored_state_and_its_later_copy_stay_apart():
    """Guards restore's hand-over: the saved copy's parts now belong to the state; a new copy is independent."""
    game = lv.new_game("revised", 3, 9)
    for _ in range(40):
        if game.over:
            break
        game.apply(game.legal_actions()[0])
    s = game.state
    saved = s.copy()
    s.place_tile(next(x for x in LOTS if x not in s.tiles), BOARD.colors[0], 1, 0, 6)
    s.restore(saved)
    t = s.copy()
    free = next(x for x in LOTS if x not in s.tiles and x not in s.markers)
    t.place_tile(free, BOARD.colors[1], 1, 1, 5)
    t.put_marker(next(x for x in LOTS if x not in t.tiles and x not in t.markers), 2)
    assert free not in s.tiles and not s.tile_mask & BOARD.bit[free]
    assert_index_agrees(s, "color_and_height", "original")
    assert_index_agrees(t, "color_and_height", "copy")


# ---------------------------------------------------------------------------------------------- bit queries
def test_bit_queries_agree_with_the_dicts_through_a_game():
    """Guards the per-player masks, counts and frontier masks that legal-move generators are to use."""
    game = lv.new_game("revised", 4, 21)
    rng = random.Random(21)
    while not game.over:
        s = game.state
        for p in range(4):
            mine = [x for x in LOTS if s.markers.get(x) == p]
            assert s.marker_masks[p] == BOARD.mask_of(mine) and s.marker_count(p) == len(mine)
            dice = [x for x in LOTS if x in s.tiles and s.tiles[x].owner == p]
            assert s.dice_masks[p] == BOARD.mask_of(dice) and s.dice_count(p) == len(dice)
        assert s.markers_mask == BOARD.mask_of(s.markers) and s.tile_mask == BOARD.mask_of(s.tiles)
        for c in game.engine.casinos(s):
            assert frontier_mask(s, c) == BOARD.mask_of(frontier(BOARD, s, c))
            f = dice_facts(s, c)
            assert f.pips == sum(s.die_values[i] for i in c.bits)
            assert set(f.owners) == {s.die_owners[i] for i in c.bits} - {None}
        index = game.engine.index(s)
        assert index.tied() == [(c, f) for c, f in index.with_dice() if f.boss is None and len(f.top_lots) >= 2]
        blocks_before = index.boss_blocks()
        assert {tuple(BOARD.lots_of(k)): v for d in blocks_before for k, v in d.items()} == index.boss_of_each()
        legal = game.legal_actions()
        a = rng.choice(legal)
        game.apply(lv.Gamble(a.lot, 1) if isinstance(a, lv.Gamble) else a)
        if not game.over:
            after = game.engine.index(s).boss_blocks()
            for n, (b, d) in enumerate(zip(blocks_before, after)):
                if b is d:  # kept: the block's bosses did not change
                    assert d == {c.mask: f.boss for c, f in game.engine.index(s).with_dice()
                                 if BOARD.block_number[c.bits[0]] == n}, n


@pytest.mark.parametrize("join_rule", ["color", "color_and_height"])
def test_tied_lists_the_casinos_whose_top_die_two_players_share(join_rule):
    """Guards CasinoIndex.tied (003 "Settling Who's the Boss" L426-445: a tie for the top value has no boss)."""
    s = state_with({"C4": ("gold", 1, 0, 5), "C5": ("gold", 1, 1, 5), "C6": ("gold", 1, 0, 2),
                    "A1": ("aqua", 1, 0, 4), "A2": ("aqua", 1, 0, 4)})  # A1-A2: one player's dice tie, no tie
    index = s.casino_index(join_rule)
    assert [(c.lots, f.top_lots) for c, f in index.tied()] == [(("C4", "C5", "C6"), ("C4", "C5"))]
    blocks = index.boss_blocks()
    s.set_die("C5", 1, 6)  # settled: player 1 is the boss
    index = s.casino_index(join_rule)
    assert index.tied() == []
    after = index.boss_blocks()
    assert after[BOARD.block_number[BOARD.index["A1"]]] is blocks[BOARD.block_number[BOARD.index["A1"]]]
    assert after[BOARD.block_number[BOARD.index["C5"]]] == {BOARD.mask_of(("C4", "C5", "C6")): 1}


@pytest.mark.parametrize("track", [BOARD.track, (0, 2, 5), (3,), ()])
def test_the_score_track_table_agrees_with_a_search_of_the_track(track):
    """Guards Board.advance (a table made once) against a search of the track for every score and award: 000
    "Points Paid" / 003 "Step 4: Score Casinos", the highest space not above the score plus the award."""
    import bisect

    board = lv.board.Board(BOARD.lots, BOARD.order, BOARD.colors, tuple(track))
    for score in range(0, (track[-1] if track else 0) + 3):
        for award in range(0, 30):
            below = bisect.bisect_right(track, score + award)
            assert board.advance(score, award) == (max(score, track[below - 1]) if below else score), (score, award)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(lots=st.sets(st.sampled_from(LOTS)))
def test_the_lots_of_a_mask_by_bit_and_by_byte_agree(lots):
    """Guards both ways Board.lots_of works (issue 18: the compiled build walks the bits, the pure one reads
    the bytes' tables, and keeps what it found: asked again, a list of its own, whatever the caller did with the
    first) against the lots in board order."""
    mask = BOARD.mask_of(lots)
    want = [x for x in LOTS if x in lots]
    assert BOARD.lots_by_bit(mask) == want
    assert BOARD.lots_by_byte(mask) == want
    for _ in range(2):
        got = BOARD.lots_of(mask)
        assert got == want
        got.append("A1")  # a caller's list is its own


def test_a_state_and_its_casino_index_are_no_cycle():
    """The index reads the state's lists and masks, not the state: a dropped copy (a search's, a trial's) is freed
    by its reference count at once, not left for the cyclic collector to find (it was: 43,000 instructions a
    copy, half of them the collector's, in the compiled build)."""
    import gc

    game = lv.new_game("revised", 4, 3)
    rng = random.Random(3)
    for _ in range(40):
        game.apply(game.random_legal(rng))
    s = game.state
    index = s.casino_index(lv.load_profile("revised").casino.join_rule)
    assert s not in gc.get_referents(index)
    twin = s.copy()
    assert twin._casinos is None and twin._casinos_from is index  # copied on first use
    kept = twin.casino_index(index.join_rule)
    assert twin._casinos is kept and kept is not index and twin not in gc.get_referents(kept)
    gc.collect()
    gc.disable()
    try:
        before = len(gc.get_objects())
        for _ in range(50):
            s.copy()
        assert len(gc.get_objects()) - before < 50  # no copy left behind for the collector
    finally:
        gc.enable()


@pytest.mark.parametrize("spec,seed", [("revised", 3), ("original,raise.enabled=true,raise.max_height=4", 5),
                                       ("revised,casino.join_rule=color", 8)])
def test_a_copy_takes_its_index_from_its_original_only_while_that_is_as_it_was(spec, seed):
    """Guards the copy's casino index, copied on first use (GameState.copy, _adopt): from the original's index while
    that has not changed (a push and pop of the original in between give it back as it was), made anew once the
    original played on; either way it is the copy's casinos, and the original's is untouched."""
    game = lv.new_game(spec, 4, seed)
    rng = random.Random(seed)
    for _ in range(50):
        game.apply(game.random_legal(rng))
    s, join_rule = game.state, game.profile.casino.join_rule
    index = s.casino_index(join_rule)
    kept = s.copy()
    played = s.copy()
    for action in game.legal_actions()[:8]:
        game.push(action)
        game.pop()
    for _ in range(12):  # the original plays on, its index changes
        game.apply(game.random_legal(rng))
    assert s._casinos is index and index.changes != kept._casinos_at
    kept_index = kept.casino_index(join_rule)
    assert kept_index is not index and kept_index.reads(kept)
    assert_index_agrees(kept, join_rule, "a copy made before the original played on")
    assert_index_agrees(s, join_rule, "the original")
    twin = s.copy()
    game.push(game.legal_actions()[0])
    game.pop()
    assert twin._casinos_from is index and twin._casinos_at == index.changes  # as it was: copied, not made anew
    assert_index_agrees(twin, join_rule, "a copy made before a push and pop")
    assert twin._casinos is not None and twin._casinos is not index
    del played


@pytest.mark.parametrize("spec,seed", [("revised", 21), ("original,raise.enabled=true,raise.max_height=4", 22)])
def test_recolor_and_raise_given_a_casinos_bits_are_those_given_its_lots(spec, seed):
    """Guards ``recolor``/``raise_tiles`` given ``bits`` (what remodel and raise pass: the casino's own): at played
    positions, every casino recoloured (to each other colour) and raised, by its bits, by its lots, and a lot at a
    time, gives the same state (but its structure stamp), bitboards and casino index included, under a checkpoint
    rolled back as well."""
    rng = random.Random(seed)
    game = lv.new_game(spec, 4, seed)
    join_rule = game.profile.casino.join_rule
    tried = 0
    while not game.over and tried < 120:
        for _ in range(rng.randrange(3, 12)):
            if game.over:
                break
            game.apply(game.random_legal(rng))
        s = game.state
        for casino in s.casino_index(join_rule).all():
            other = rng.choice([c for c in BOARD.colors if c != casino.color])
            by_lots, by_bits, one_by_one = s.copy(), s.copy(), s.copy()
            mark = by_bits.checkpoint()
            kept = everything(by_bits)
            by_lots.recolor(casino.lots, other)
            by_lots.raise_tiles(casino.lots)
            by_bits.recolor(casino.lots, other, casino.bits)
            by_bits.raise_tiles(casino.lots, casino.bits)
            for lot in casino.lots:
                one_by_one.recolor([lot], other)
                one_by_one.raise_tiles([lot])
            got = [everything(x) for x in (by_bits, by_lots, one_by_one)]
            for facts in got:
                del facts["structure"]  # a stamp: unique to each change
            assert got[0] == got[1] == got[2], casino
            assert_index_agrees(by_bits, join_rule, "recoloured and raised by bits")
            by_bits.rollback(mark)
            assert everything(by_bits) == kept
            tried += 1
    assert tried >= 60


@pytest.mark.parametrize("spec,seed", [("revised", 23), ("original", 24)])
def test_reroll_is_set_die_of_each_lot_with_its_owner(spec, seed):
    """Guards ``reroll`` (a reorganization's and a tie's new values, in one call): at played positions, every casino
    with dice given new values on its dice by ``reroll`` and by ``set_die`` a lot at a time (each die its owner's)
    gives the same state (but its structure stamp), bitboards, dice masks and casino index included (its dice facts
    and bosses the new ones), under a checkpoint rolled back as well."""
    rng = random.Random(seed)
    game = lv.new_game(spec, 4, seed)
    join_rule = game.profile.casino.join_rule
    tried = changed = 0
    while not game.over and tried < 120:
        for _ in range(rng.randrange(3, 12)):
            if game.over:
                break
            game.apply(game.random_legal(rng))
        s = game.state
        for casino in s.casino_index(join_rule).all():
            diced = [lot for lot in casino.lots if s.tiles[lot].owner is not None]
            if not diced:
                continue
            values = {lot: rng.randint(1, 6) for lot in diced}
            by_call, one_by_one = s.copy(), s.copy()
            by_call.casino_index(join_rule).with_dice()  # (its index current: the facts and bosses to forget)
            mark = by_call.checkpoint()
            kept = everything(by_call)
            by_call.reroll(values)
            for lot, v in values.items():
                one_by_one.set_die(lot, one_by_one.tiles[lot].owner, v)
            got = [everything(x) for x in (by_call, one_by_one)]
            for facts in got:
                del facts["structure"]  # a stamp: unique to each change
            assert got[0] == got[1], casino
            assert [by_call.tiles[lot].value for lot in diced] == list(values.values())
            assert_index_agrees(by_call, join_rule, "rerolled")
            changed += dice_facts(by_call, casino) != dice_facts(s, casino)
            by_call.rollback(mark)
            assert everything(by_call) == kept
            tried += 1
    assert tried >= 60 and changed >= 20
