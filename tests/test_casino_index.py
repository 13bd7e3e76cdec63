"""The casino index a state keeps current as it changes (lv/casinos.py ``CasinoIndex``, kept by the change methods
of lv/state.py), the tile counts per colour and the bitboards it keeps, against a computation from scratch.

After every step of random games (every profile, 2-6 players, random trades, recorded dice that fail, probes,
copies of the state that then go their own way), of replays and diffs of records, of hand-set positions that merge
casinos in every way the rules allow, and of random sequences of the state's change methods, the kept index must
say what a fresh ``CasinoIndex`` of a copy that worked its bitboards out afresh says (same casinos in the same
order, same ``at``, same dice facts) and what a flood fill written in conftest.py says; every dice fact and frontier it holds must be the one recomputed from the tiles; and
legal decisions must be the same as on a copy of the state that has forgotten every derived fact.
"""

from __future__ import annotations

import copy
import glob
import os
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lv
from lv import Build, EndTurn, GiveDie, GiveMoney, Raise, Remodel, Sprawl, Trade
from lv.casinos import casino_index, dice_facts, frontier, frontier_mask
from lv.chance import Dice
from lv.diff import diff_records
from lv.legal import legal_actions
from lv.record import dumps, load_record, parse_record, record_of
from lv.replay import replay
from lv.rules import Engine
from lv.state import GameState, PlayerState

from conftest import flood_casinos, random_engine_step, random_trade

BOARD = lv.load_board()
EXAMPLES = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "examples", "*.yaml")))

CONFIGS = [("original", n) for n in (2, 3, 4)] + [("revised", n) for n in (2, 3, 4, 5, 6)] + [
    ("original+f-block", 2),
    ("revised,trade.failed_step=undo_all", 3),
    ("original,trade.failed_step=undo_all", 4),
    ("original+f-block,trade.failed_step=undo_all", 2),
    # what-if profiles: heights mixed in one casino (join by colour, with the Raise action) and the reverse
    ("original,raise.enabled=true,raise.max_height=players", 4),
    ("revised,casino.join_rule=color", 5),
    ("original,casino.join_rule=color_and_height,raise.enabled=true,raise.max_height=4", 3),
    ("revised,ties.check=after_each_action,ties.stop_when=single_top_die,resources.dice_exhausted=no_die", 4),
]


# ---------------------------------------------------------------------------------------------- from scratch
def facts_from_scratch(tiles: dict, lots: tuple[str, ...]) -> tuple:
    """(top, top_lots, boss, owners, pips) of the dice on ``lots``, as casinos.DiceFacts spells them."""
    dice = [(lot, tiles[lot].owner, tiles[lot].value) for lot in lots if tiles[lot].owner is not None]
    if not dice:
        return (None, (), None, (), 0)
    top = max(v for _, _, v in dice)
    top_lots = tuple(lot for lot, _, v in dice if v == top)
    top_owners = {o for _, o, v in dice if v == top}
    owners = tuple(dict.fromkeys(o for _, o, _ in dice))
    return (top, top_lots, top_owners.pop() if len(top_owners) == 1 else None, owners, sum(v for _, _, v in dice))


def frontier_from_scratch(tiles: dict, lots: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(n for lot in lots for n in BOARD.lots[lot].neighbours if n not in tiles))


def assert_counts_agree(s: GameState, where) -> None:
    assert s.tile_counts() == dict(Counter(t.color for t in s.tiles.values())), where
    for color in BOARD.colors:
        assert s.tiles_on_board(color) == sum(1 for t in s.tiles.values() if t.color == color), (where, color)


def strip_zeros(masks: list[int]) -> list[int]:
    masks = list(masks)
    while masks and not masks[-1]:
        masks.pop()
    return masks


def assert_bits_agree(s: GameState, bare: GameState, where) -> None:
    """The bitboards and flat lists the state kept current are the ones worked out afresh from its dicts."""
    for name in ("tile_mask", "color_masks", "height_masks", "color_bits", "color_counts", "markers_mask", "dice_mask",
                 "die_values", "die_owners"):
        assert getattr(s, name) == getattr(bare, name), (where, name)
    for name in ("marker_masks", "dice_masks"):
        assert strip_zeros(getattr(s, name)) == strip_zeros(getattr(bare, name)), (where, name)
    for p in range(len(s.players)):
        assert s.markers_on_board(p) == [x for x in BOARD.order if s.markers.get(x) == p], (where, p)
        assert s.dice_on_board(p) == [x for x in BOARD.order if x in s.tiles and s.tiles[x].owner == p], (where, p)
        assert s.marker_count(p) == len(s.markers_on_board(p)) and s.dice_count(p) == len(s.dice_on_board(p))


def assert_index_agrees(s: GameState, join_rule: str, where="") -> None:
    """What the state's index holds (if anything) and what it answers agree with the tiles as they are now."""
    assert_counts_agree(s, where)
    tiles = s.tiles
    kept = s._casinos
    bare = s.copy()
    bare.drop_caches()  # bitboards worked out afresh from the dicts, no casino index
    assert_bits_agree(s, bare, where)
    fresh = bare.casino_index(join_rule)
    want = [(c.lots, c.color, c.height) for c in fresh.all()]
    assert want == flood_casinos(tiles, join_rule == "color_and_height"), where
    current = {lots for lots, _, _ in want}
    if kept is not None and kept.join_rule == join_rule:
        # first what it kept from earlier steps, before any read below fills its caches afresh (a refresh of the
        # blocks that changed only forgets: it never fills a cache)
        if kept.dirty:
            assert kept._all is None and kept._with_dice is None and kept.bosses is None, where
            kept.refresh()
        held_all = kept._all
        if held_all is not None:
            assert [(c.lots, c.color, c.height) for c in held_all] == want, where
        for mask, facts in kept.facts.items():
            lots = tuple(BOARD.lots_of(mask))
            assert lots in current, (where, "dice facts kept for a casino that is gone", lots)
            assert tuple(facts) == facts_from_scratch(tiles, lots), (where, lots, facts)
        held_dice = kept._with_dice
        if held_dice is not None:
            assert [(c.lots, c.color, c.height, tuple(f)) for c, f in held_dice] == [
                (lots, color, height, facts_from_scratch(tiles, lots)) for lots, color, height in want], where
        if kept.bosses is not None:
            assert kept.bosses == {lots: facts_from_scratch(tiles, lots)[2] for lots in current}, where
    index = casino_index(BOARD, s, join_rule)
    assert index is s._casinos and index.reads(s) and not index.dirty, where
    got = index.all()
    assert got == fresh.all(), where
    assert [(c.lots, c.color, c.height) for c in got] == want, where
    assert index.blocks == fresh.blocks, where
    assert index.at == fresh.at, where
    for c in got:
        assert (c.name, c.spaces, c.physical_tiles) == (c.lots[0], len(c.lots), len(c.lots) * c.height), (where, c)
        assert (c.mask, list(c.bits)) == (BOARD.mask_of(c.lots), [BOARD.index[x] for x in c.lots]), (where, c)
        assert c.around == BOARD.mask_of(n for x in c.lots for n in BOARD.lots[x].neighbours) & ~c.mask, (where, c)
        for lot in c.lots:
            assert index.at[lot] is c, (where, lot)  # the caches of dice_facts and frontier rely on identity
            assert index.at_bit[BOARD.index[lot]] is c, (where, lot)
    assert [i for i, c in enumerate(index.at_bit) if c is not None] == sorted(BOARD.index[x] for x in tiles), where
    assert index.with_dice(tiles) == fresh.with_dice(tiles), where
    for c, facts in index.with_dice(tiles):
        assert tuple(facts) == facts_from_scratch(tiles, c.lots), (where, c)
        assert tuple(dice_facts(s, c)) == tuple(facts), (where, c)
        assert frontier(BOARD, s, c) == frontier_from_scratch(tiles, c.lots), (where, c)
        assert frontier_mask(s, c) == BOARD.mask_of(frontier_from_scratch(tiles, c.lots)), (where, c)


def assert_game_agrees(game, where="") -> None:
    """The index of the game's state agrees with the tiles, and so do the legal decisions computed from it."""
    s = game.state
    assert_index_agrees(s, game.profile.casino.join_rule, where)
    bare = s.copy()
    bare.drop_caches()  # a state that knows no derived fact: everything is worked out afresh
    assert game.engine.snapshot(s) == game.engine.snapshot(bare), where
    if not game.over:
        assert legal_actions(game.engine, s) == legal_actions(game.engine, bare), where


def prime(game) -> None:
    """Fill every cache the index keeps (dice facts, views, bosses) and the casinos' frontiers, as bots and legal do."""
    s = game.state
    game.legal_actions()
    game.engine.snapshot(s)
    for c in game.engine.casinos(s):
        frontier(BOARD, s, c)
        dice_facts(s, c)


# ---------------------------------------------------------------------------------------------- random games
BAD_TIES = {"ties": {lot: [0] for lot in BOARD.order}}  # no die face: fails if (and only if) a tie is rerolled


def pick(game, rng: random.Random):
    """A random legal decision, by kind first (so remodels, raises and sprawls come up often)."""
    kinds: dict[type, list] = {}
    for a in game.legal_actions():
        kinds.setdefault(type(a), []).append(a)
    kind = rng.choice(list(kinds))
    if kind is EndTurn and len(kinds) > 1 and rng.random() < 0.6:
        kind = rng.choice([k for k in kinds if k is not EndTurn])
    a = rng.choice(kinds[kind])
    return lv.Gamble(a.lot, rng.randint(1, a.bet)) if isinstance(a, lv.Gamble) else a


def random_step(game, rng: random.Random, where: str) -> None:
    if rng.random() < 0.1:
        try:
            game.apply(random_trade(game, rng, pick, overdraw=5))
        except lv.IllegalAction:
            pass
        return
    action = pick(game, rng)
    if rng.random() < 0.1:
        game.why_not(pick(game, rng))  # tried on a copy of the state: must leave the state's index alone
        assert_game_agrees(game, where + " after a probe")
    if rng.random() < 0.15:  # recorded dice that fail after the state began to change: Game.apply restores it
        try:
            if isinstance(action, EndTurn):
                game.apply(action, next_draw_dice=BAD_TIES)
            else:
                game.apply(action, dice=BAD_TIES)
            return
        except lv.LvError:
            assert_game_agrees(game, where + " after recorded dice failed")
    game.apply(action)


def fork(game, deep: bool):
    """A second game that goes its own way from here: its state made by GameState.copy() (or, as session.py
    tries a move, by copy.deepcopy of the whole game)."""
    twin = copy.deepcopy(game, {id(game.board): game.board, id(game.profile): game.profile})
    if not deep:
        twin.state = game.state.copy()
    return twin


def play_and_check(spec: str, players: int, seed: int) -> list:
    rng = random.Random(seed)
    games = [lv.new_game(spec, players, seed=seed)]
    assert_game_agrees(games[0], "setup")
    fork_at = {rng.randrange(5, 60): False, rng.randrange(5, 60): True}
    for step in range(4000):
        if all(g.over for g in games):
            return games
        for i, g in enumerate(list(games)):
            if g.over:
                continue
            where = f"{spec} {players}p seed {seed} game {i} step {step}"
            random_step(g, rng, where)
            assert_game_agrees(g, where)
        if step in fork_at and not games[0].over:
            games.append(fork(games[0], fork_at.pop(step)))
    raise AssertionError("the games did not end")


@pytest.mark.slow
@pytest.mark.parametrize("spec,players", CONFIGS)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_kept_index_agrees_with_a_fresh_one_after_every_step_of_random_games(spec, players, seed):
    """Guards the kept index and tile counts through whole games, trades, failed dice, probes and forked copies."""
    games = play_and_check(spec, players, seed)
    assert len(games) >= 1 and games[0].over


# ---------------------------------------------------------------------------------------------- records
@pytest.fixture
def checked_steps():
    """A replay's ``on_step``: it checks the index after every draw and every decision (applied or refused), so
    replays and diffs are checked step by step (no patching of ``Game.apply``: the compiled build's is C)."""
    calls = []

    def check(game, play):
        calls.append(1)
        assert_game_agrees(game, f"step #{len(calls)} under {game.profile.spec}")

    check.calls = calls
    return check


@pytest.mark.slow
@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_replays_and_diffs_of_the_example_records_keep_the_index_current(path, checked_steps):
    """Guards the index through lv.replay (positions included) and lv.diff of one record under two profiles
    (a diff replays the record under each: checked step by step here, then the diff's own games at the end)."""
    record = load_record(path)
    again = replay(record, on_step=checked_steps)
    assert again.illegal == []
    assert_game_agrees(again.game, "end of replay")
    for other in ("original", "revised,casino.join_rule=color", "original,raise.enabled=true,raise.max_height=3"):
        if other.split(",")[0] == record.profile:
            continue
        assert_game_agrees(replay(record, other, on_illegal="skip", on_step=checked_steps).game, f"end of {other}")
        d = diff_records(record, record.profile, other)
        assert_game_agrees(d.a.game, "end of A")
        assert_game_agrees(d.b.game, "end of B")
    assert checked_steps.calls


@pytest.mark.slow
@pytest.mark.parametrize("spec,other", [("revised", "original"), ("original", "revised,trade.failed_step=undo_all"),
                                        ("original,raise.enabled=true,raise.max_height=players", "revised")])
def test_a_random_game_replays_and_diffs_with_the_index_current(spec, other, checked_steps):
    """Guards the index when a random game's record (trades, forced failures) is replayed and diffed."""
    game = play_and_check(spec, 3, 11)[0]
    text = dumps(record_of(game, spec), "yaml")
    record = parse_record(text, "<random>")
    again = replay(record, on_step=checked_steps)
    assert again.illegal == [] and again.result_mismatch == []
    assert dumps(record_of(again.game, spec), "yaml") == text
    assert len(checked_steps.calls) > 20
    checked_steps.calls.clear()
    assert_game_agrees(replay(record, other, on_illegal="skip", on_step=checked_steps).game, "end of B")
    d = diff_records(record, spec, other)
    assert_game_agrees(d.b.game, "end of B")
    assert len(checked_steps.calls) > 20


# ---------------------------------------------------------------------------------------------- positions
def at_position(spec: str, names, **position):
    return lv.Game.from_position(lv.load_profile(spec), list(names), position)


def casino_lots(game, lot):
    c = game.casino_at(lot)
    return None if c is None else c.lots


THREE = ["purple", "red", "yellow"]


@pytest.mark.parametrize("spec,merged,apart", [
    ("original", ("C2", "C4", "C5", "C6"), []),
    ("revised", ("C2", "C5", "C6"), [("C4",)]),  # C4 is 2 high: it does not join under color_and_height
])
def test_a_remodel_that_joins_several_neighbouring_casinos_at_once(spec, merged, apart):
    """Guards the rework of a block when a whole casino takes the colour of several neighbours (each its own casino)."""
    c4 = "aqua h2 red 2" if spec == "revised" else "aqua red 2"
    game = at_position(spec, THREE, players={"purple": {"money": 100}},
                       tiles={"C5": "gold purple 6", "C2": "aqua red 3", "C4": c4, "C6": "aqua yellow 1",
                              "C8": "silver yellow 4", "C9": "silver red 2"})
    prime(game)
    assert_game_agrees(game, "before")
    events = game.apply(Remodel("C5", "aqua"))
    assert "merged" in [e.kind for e in events]
    assert_game_agrees(game, "after")
    assert casino_lots(game, "C5") == merged
    for lots in apart:
        assert casino_lots(game, lots[0]) == lots
    assert game.engine.casino_at(game.state, "C5").color == "aqua"
    assert dice_facts(game.state, game.casino_at("C5")).boss == 0


@pytest.mark.parametrize("spec", ["original", "revised", "revised,casino.join_rule=color"])
def test_a_sprawl_that_bridges_two_casinos(spec):
    """Guards the rework of a block when a new tile fills a lot of two casinos' frontiers and joins them into one."""
    game = at_position(spec, THREE, players={"purple": {"money": 100}},
                       tiles={"C4": "gold purple 5", "C6": "gold red 3", "C2": "aqua yellow 1"})
    prime(game)
    assert "C5" in frontier(BOARD, game.state, game.casino_at("C6"))  # cached, and about to be filled
    game.apply(Sprawl("C5", "C4"))
    assert_game_agrees(game, "after")
    assert casino_lots(game, "C5") == ("C4", "C5", "C6")
    assert frontier(BOARD, game.state, game.casino_at("C5")) == ("C1", "C7", "C8", "C3", "C9")
    assert frontier(BOARD, game.state, game.casino_at("C2")) == ("C1", "C3")


@pytest.mark.parametrize("players", [3, 4])
def test_a_raise_that_joins_same_height_neighbours(players):
    """Guards the rework of a block when a raised casino reaches the height of same-colour neighbours (color_and_height)."""
    names = THREE + ["blue"] * (players == 4)
    game = at_position("revised", names, players={"purple": {"money": 100}},
                       tiles={"C5": "gold purple 6", "C2": "gold h2 red 3", "C4": "gold h2 yellow 2",
                              "C6": "gold h3 red 1", "C8": "aqua red 4"})
    assert casino_lots(game, "C5") == ("C5",)
    prime(game)
    events = game.apply(Raise("C5"))
    assert "merged" in [e.kind for e in events]
    assert_game_agrees(game, "after")
    assert casino_lots(game, "C5") == ("C2", "C4", "C5")
    assert casino_lots(game, "C6") == ("C6",)
    assert game.casino_at("C5").height == 2
    prime(game)
    game.apply(Raise("C5"))  # now 3 high: joins C6 as well
    assert_game_agrees(game, "after the second raise")
    assert casino_lots(game, "C5") == ("C2", "C4", "C5", "C6")


@pytest.mark.parametrize("spec", ["original,raise.enabled=true,raise.max_height=4", "revised,casino.join_rule=color"])
def test_mixed_heights_in_one_casino_when_casinos_join_by_colour(spec):
    """Guards the casino's height (the tallest) as tiles of other heights join it, and as it is raised."""
    game = at_position(spec, ["purple", "red", "yellow", "blue"], players={"purple": {"money": 200}},
                       markers={"C3": "purple"}, tiles={"C1": "gold h2 purple 5", "C2": "gold red 3"})
    assert game.casino_at("C1").lots == ("C1", "C2") and game.casino_at("C1").height == 2
    for action, lots, height in [(Build("C3", "gold"), ("C1", "C2", "C3"), 2),
                                 (Remodel("C3", "aqua"), ("C1", "C2", "C3"), 2),
                                 (Raise("C2"), ("C1", "C2", "C3"), 3),
                                 (Sprawl("C4", "C3"), ("C1", "C2", "C3", "C4"), 3)]:
        prime(game)
        game.apply(action)
        assert_game_agrees(game, str(action))
        c = game.casino_at("C1")
        assert (c.lots, c.height) == (lots, height), action
    assert game.casino_at("C4").color == "aqua"
    assert [game.state.tiles[x].height for x in ("C1", "C2", "C3", "C4")] == [3, 2, 2, 3]


@pytest.mark.parametrize("failed_step", ["stop_rest", "undo_all"])
def test_a_trade_that_fails_after_a_build_that_joined_casinos(failed_step):
    """Guards the index and counts after a trade step fails once an earlier step had merged casinos."""
    game = at_position(f"revised,trade.failed_step={failed_step}", THREE,
                       players={"purple": {"money": 50}, "red": {"money": 0}}, markers={"C5": "purple"},
                       tiles={"C4": "aqua red 2", "C6": "aqua yellow 1", "C2": "gold purple 4"})
    prime(game)
    before = game.state.copy()
    trade = Trade((Build("C5", "aqua"), GiveMoney(1, 0, 5)))  # red has no money: step 2 fails
    if failed_step == "undo_all":
        with pytest.raises(lv.IllegalAction):
            game.apply(trade)
        assert game.state.tiles == before.tiles and game.state.markers == before.markers
        assert casino_lots(game, "C4") == ("C4",)
    else:
        events = game.apply(trade)
        assert "trade_step_failed" in [e.kind for e in events]
        assert casino_lots(game, "C4") == ("C4", "C5", "C6")
    assert_game_agrees(game, "after the trade")
    prime(game)
    game.apply(Trade((GiveMoney(0, 1, 1), Remodel("C2", "silver"), GiveDie("C6", 2, 0))))  # a whole one
    assert_game_agrees(game, "after a trade that went through")


def test_recorded_tie_dice_that_fail_after_a_sprawl_merged_casinos():
    """Guards Game.apply's restore: the sprawl and its merge are undone when the recorded tie reroll fails."""
    game = at_position("revised", THREE, players={"purple": {"money": 100}},
                       tiles={"C4": "gold purple 5", "C6": "gold red 5"})
    prime(game)
    before = game.state.copy()
    with pytest.raises(lv.RecordError):
        game.apply(Sprawl("C5", "C4"), dice={"ties": {"C4": [7], "C6": [7]}})
    assert game.state.tiles == before.tiles
    assert_game_agrees(game, "after the failed dice")
    assert casino_lots(game, "C4") == ("C4",)
    game.apply(Sprawl("C5", "C4"), dice={"ties": {"C4": [6], "C6": [2]}})
    assert_game_agrees(game, "after the sprawl")
    assert casino_lots(game, "C4") == ("C4", "C5", "C6")
    assert dice_facts(game.state, game.casino_at("C4")).boss == 0


def test_recorded_draw_dice_that_fail_after_a_take_over_tied_a_casino():
    """Guards the restore of a draw whose take-over made a tie the recorded reroll cannot settle."""
    game = at_position("revised", ["yellow", "red"], players={"yellow": {"money": 20}, "red": {"money": 10}},
                       tiles={"E1": "purple yellow 5", "E2": "purple yellow 5", "E4": "gold red 3"},
                       deck=["E2", "C1", "END"])
    prime(game)
    before = game.state.copy()
    with pytest.raises(lv.RecordError):
        game.apply(EndTurn(), next_draw_dice={"ties": {"E1": [9], "E2": [9]}})
    assert game.state.tiles == before.tiles
    assert_game_agrees(game, "after the failed draw")
    game.apply(EndTurn(), next_draw_dice={"ties": {"E1": [2], "E2": [6]}})
    assert_game_agrees(game, "after the draw")
    assert dice_facts(game.state, game.casino_at("E1")).boss == 1


def test_a_copy_and_its_original_both_change_afterwards():
    """Guards GameState.copy(): the two indexes share casinos and views but must never see each other's changes."""
    game = at_position("original", THREE, players={"purple": {"money": 100}},
                       tiles={"C4": "gold purple 5", "C6": "gold red 3", "C2": "aqua purple 1"})
    prime(game)
    engine, s = game.engine, game.state
    t = s.copy()
    engine.apply(s, Sprawl("C5", "C4"), Dice(0, ("a",)), [])
    assert_index_agrees(s, "color", "original after the sprawl")
    assert_index_agrees(t, "color", "copy after the original's sprawl")
    assert casino_index(BOARD, t, "color").at.get("C5") is None
    engine.apply(t, Remodel("C4", "aqua"), Dice(0, ("b",)), [])
    engine.apply(t, Sprawl("C1", "C4"), Dice(0, ("c",)), [])
    for state, name in ((s, "original"), (t, "copy")):
        assert_index_agrees(state, "color", name)
    assert casino_index(BOARD, s, "color").at["C5"].lots == ("C4", "C5", "C6")
    assert casino_index(BOARD, t, "color").at["C4"].lots == ("C1", "C2", "C4")
    assert t.tiles_on_board("aqua") == 3 and s.tiles_on_board("aqua") == 1


def test_one_state_read_under_two_join_rules():
    """Guards casino_index: an index made for one join rule is not used for the other."""
    game = at_position("revised", THREE, tiles={"C1": "gold purple 5", "C2": "gold h2 red 4"})
    other = Engine(lv.load_profile("original"), BOARD)
    s = game.state
    assert [c.lots for c in game.engine.casinos(s)] == [("C1",), ("C2",)]
    assert [c.lots for c in other.casinos(s)] == [("C1", "C2")]
    assert_index_agrees(s, "color")
    assert [c.lots for c in game.engine.casinos(s)] == [("C1",), ("C2",)]
    assert_index_agrees(s, "color_and_height")


# ---------------------------------------------------------------------------------------------- change methods
OPS = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 10**6), st.integers(0, 10**6)), max_size=80)


def run_ops(join_rule: str, ops) -> None:
    """Random changes through the state's methods, beyond what the rules do: tiles placed over tiles, part of a
    casino recoloured or raised, lots given out of order; copies that go their own way; caches read or dropped."""
    colors = BOARD.colors[:3]  # few colours: many joins
    states = [GameState(players=[PlayerState("a"), PlayerState("b"), PlayerState("c")])]
    casino_index(BOARD, states[0], join_rule)
    for step, (op, a, b) in enumerate(ops):
        s = states[a % len(states)]
        index = casino_index(BOARD, s, join_rule)
        owner = (None, 0, 1, 2)[b % 4]
        value = None if owner is None else 1 + b % 6
        casinos = index.all()
        if op <= 2 or not casinos:  # a tile on an empty lot (now and then on a tiled one)
            empty = [x for x in BOARD.order if x not in s.tiles]
            lot = empty[b % len(empty)] if empty and op < 2 else BOARD.order[b % len(BOARD.order)]
            s.place_tile(lot, colors[a % 3], 1 + a % 3, owner, value)
        elif op <= 4:  # recolour a whole casino (as a remodel does), or other lots
            c = casinos[b % len(casinos)]
            lots = c.lots if op == 3 else (tuple(reversed(c.lots)) if a % 2 else
                                           tuple(sorted(s.tiles))[b % len(s.tiles):][:1 + a % 3])
            s.recolor(lots, colors[a % 3])
        elif op <= 5:  # raise a whole casino (as the Raise action does), or other lots
            c = casinos[b % len(casinos)]
            s.raise_tiles(c.lots if a % 3 else tuple(sorted(s.tiles))[b % len(s.tiles):][:1 + a % 2])
        elif op <= 6:
            lot = sorted(s.tiles)[b % len(s.tiles)]
            s.set_die(lot, owner, value)
        elif op <= 7:  # read: fills the caches of dice facts, frontiers and views
            for c in casinos[b % len(casinos):][:3]:
                frontier(BOARD, s, c)
                dice_facts(s, c)
            index.with_dice(s.tiles)
        elif op <= 8 and len(states) < 4:
            states.append(s.copy())
        else:
            s.drop_caches()
        assert_index_agrees(s, join_rule, f"step {step} op {op}")
    for i, s in enumerate(states):
        assert_index_agrees(s, join_rule, f"state {i} at the end")


@pytest.mark.slow
@pytest.mark.parametrize("join_rule", ["color", "color_and_height"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS)
def test_kept_index_agrees_after_any_sequence_of_the_state_change_methods(join_rule, ops):
    """Guards tiles_changed/refresh/_rework/die_changed, the bitboards and the tile counts against any sequence of
    tile changes."""
    run_ops(join_rule, ops)


@pytest.mark.parametrize("change", ["recolor", "raise_tiles"])
def test_a_change_given_a_one_shot_iterable_or_no_lots_keeps_the_index_current(change):
    """recolor and raise_tiles walk ``lots`` twice (the tiles, then the index): a generator must not leave the
    index on the old colour or height, and no lots at all changes nothing. (No rule passes a generator today.)"""
    s = GameState(players=[PlayerState("a")])
    s.place_tile("A1", "gold", 1, None, None)
    casino_index(BOARD, s, "color")
    method = getattr(s, change)
    args = ("aqua",) if change == "recolor" else ()
    method(iter(["A1"]), *args)
    assert_index_agrees(s, "color")
    method((), *args)
    assert_index_agrees(s, "color")


@pytest.mark.parametrize("join_rule", ["color", "color_and_height"])
@pytest.mark.parametrize("change", ["recolor", "raise_tiles"])
def test_one_lot_of_a_casino_changed_leaves_the_rest_a_casino(join_rule, change):
    """``_rework``'s short way for one changed lot is only for a casino of that one lot: a lot of a larger casino
    recoloured or raised (not in the rules, which change whole casinos) splits it, by the flood fill."""
    s = GameState(players=[PlayerState("a"), PlayerState("b")])
    for lot in ("A1", "A2", "A3"):
        s.place_tile(lot, "gold", 1, 0, 3)
    casino_index(BOARD, s, join_rule).with_dice()
    if change == "recolor":
        s.recolor(["A1"], "aqua")
    else:
        s.raise_tiles(["A1"])
    assert_index_agrees(s, join_rule)
    s.recolor(["A1"], "gold" if change == "recolor" else "aqua")  # a casino of one lot changed: the short way
    assert_index_agrees(s, join_rule)


def test_the_casinos_by_lot_read_as_the_dict_they_were():
    """Guards ``CasinoIndex.at``, a read-only view of ``at_bit`` since it stopped being a dict a copy had to copy:
    it answers ``get``, ``[lot]``, ``in``, ``len``, iteration, ``items`` and ``==`` as the dict of lot -> casino."""
    game = lv.new_game("revised", 4, 5)
    rng = random.Random(5)
    for _ in range(50):
        game.apply(game.random_legal(rng))
    s = game.state
    index = casino_index(BOARD, s, "color_and_height")
    want = {lot: index.at_bit[BOARD.index[lot]] for lot in BOARD.order if lot in s.tiles}
    at = index.at
    assert want and len(at) == len(want) and at == want and dict(at.items()) == want
    assert list(at) == list(want) and at.keys() == list(want) and at.values() == list(want.values())
    assert at == s.copy().casino_index("color_and_height").at and at != {**want, "Z9": None}
    for lot in BOARD.order:
        assert at.get(lot) is want.get(lot) and (lot in at) == (lot in want), lot
        if lot in want:
            assert at[lot] is want[lot]
        else:
            with pytest.raises(KeyError):
                at[lot]
    assert at.get("Z9") is None and "Z9" not in at and 7 not in at


@pytest.mark.parametrize("spec", ["revised", "original", "revised,casino.join_rule=color"])
def test_bosses_by_mask_made_when_asked_after_a_quiet_engine_settled_the_index(spec):
    """Guards CasinoIndex.settle and the bosses made when asked (``_unbossed``): a quiet engine (a search's) fills the
    index without the bosses by mask (as every fill does now: a telling engine compares ``pair_blocks``); a state it
    played on, asked for them (or copied, or rolled back to a checkpoint taken meanwhile), answers the bosses of a
    fresh index, block by block."""
    rng = random.Random(7)
    game = lv.new_game(spec, 4, 3)
    quiet = Engine(game.engine.profile, quiet=True)
    join_rule = game.engine.profile.casino.join_rule
    s = game.state
    for step in range(400):
        if s.phase == "over":
            break
        random_engine_step(quiet, s, rng)
        index = s._casinos
        assert index is not None
        if step % 3 == 0:
            twin = s.copy()
            mark = s.checkpoint()
            got = s.casino_index(join_rule).boss_blocks()  # the bosses made now, noted under the checkpoint
            fresh = s.copy()
            fresh.drop_caches()
            assert got == fresh.casino_index(join_rule).boss_blocks(), (spec, step)
            assert twin.casino_index(join_rule).boss_blocks() == got, (spec, step)
            s.rollback(mark)
            assert s.casino_index(join_rule).boss_blocks() == got, (spec, step)


@pytest.mark.parametrize("join_rule", ["color_and_height", "color"])
def test_tied_casinos_and_bosses_by_mask_are_read_only_from_blocks_whose_bits_say_so(join_rule):
    """Guards ``CasinoIndex._fill``'s writes: a block's tied casinos and its bosses by mask are written (and noted
    under a checkpoint) only where the index reads them (``_tied`` set, ``_unbossed`` clear), so a tie that came and
    went leaves its list in place, unread. Dice set at random on a played board, the index filled with its bosses
    (``boss_blocks``) or without (``settle``, as a telling engine and a search do), under checkpoints rolled back
    now and then: ``tied()`` and ``boss_blocks()`` are always those worked out from the casinos and their dice."""
    rng = random.Random(11)
    game = lv.new_game("revised", 4, 11)
    for _ in range(50):
        game.apply(game.random_legal(rng))
    s = game.state
    came = went = 0
    had = False
    marks = []
    for step in range(500):
        if rng.random() < 0.05:
            marks.append(s.checkpoint())
        elif marks and rng.random() < 0.05:
            s.rollback(marks.pop())
        lot = rng.choice(list(s.tiles))
        if rng.random() < 0.1:
            s.set_die(lot, None, None)
        else:
            s.set_die(lot, rng.randrange(4), rng.randint(1, 6))
        index = s.casino_index(join_rule)
        if step % 3:
            index.settle()
        else:
            index.boss_blocks()
        pairs = index.pair_blocks()
        expected = [(c, f) for block in pairs for c, f in block if f.boss is None and len(f.top_lots) >= 2]
        assert index.tied() == expected, step
        came += not had and bool(expected)
        went += had and not expected
        had = bool(expected)
        assert index.boss_blocks() == tuple({c.mask: f.boss for c, f in block} for block in pairs), step
        bare = s.copy()
        bare.drop_caches()
        assert bare.casino_index(join_rule).tied() == expected, step
    while marks:
        s.rollback(marks.pop())
    assert came > 5 and went > 5


@pytest.mark.parametrize("join_rule", ["color_and_height", "color"])
def test_pair_blocks_is_one_tuple_between_fills_and_always_the_blocks_as_they_are(join_rule):
    """Guards ``CasinoIndex.pair_blocks``'s kept tuple (``_pair_blocks``): asked twice with no change between, the
    very same tuple; after any change (a die set, a decision played, a checkpoint rolled back, a copy), the blocks'
    casinos with their dice facts as a fresh index of the same state has them, block by block."""
    rng = random.Random(5)
    game = lv.new_game("revised", 4, 5)
    for _ in range(40):
        game.apply(game.random_legal(rng))
    s = game.state
    marks = []

    def fresh_pairs(state):
        bare = state.copy()
        bare.drop_caches()
        return bare.casino_index(join_rule).pair_blocks()

    for step in range(300):
        roll = rng.random()
        if roll < 0.1:
            marks.append(s.checkpoint())
        elif roll < 0.25 and marks:
            s.rollback(marks.pop())
        elif roll < 0.3:
            twin = s.copy()
            assert twin.casino_index(join_rule).pair_blocks() == fresh_pairs(s), step
        else:
            lot = rng.choice(list(s.tiles))
            s.set_die(lot, rng.randrange(4), rng.randint(1, 6))
        index = s.casino_index(join_rule)
        pairs = index.pair_blocks()
        assert type(pairs) is tuple and pairs == fresh_pairs(s), step
        assert index.pair_blocks() is pairs, step
    while marks:
        s.rollback(marks.pop())
        assert s.casino_index(join_rule).pair_blocks() == fresh_pairs(s)


@pytest.mark.parametrize("join_rule", ["color", "color_and_height"])
def test_a_whole_casino_recoloured_or_raised_is_worked_out_again_as_a_flood_fill_would(join_rule):
    """Guards ``CasinoIndex._kept_lots``, ``_rework``'s short way for every lot of one casino changed (a remodel or
    a raise of a casino of two or more lots): the casino on the same lots, in its place, with its dice facts kept,
    only where it joins nothing; joined to a neighbour of its new colour (and height) otherwise, as high as its
    tallest tile under "color" joins. After each change, and after each checkpoint rolled back, the index is what a
    fresh one finds; a casino on the same lots with the same dice keeps its very dice facts."""
    s = GameState(players=[PlayerState("a"), PlayerState("b")])
    s.place_tile("A1", "gold", 1, 0, 3)
    s.place_tile("A2", "gold", 1, 1, 5)
    s.place_tile("A4", "gold", 2, 1, 1)  # next to A1: in its casino under "color" (two high: it is), not by height
    s.place_tile("A3", "aqua", 1, 1, 2)  # next to A2
    s.place_tile("A5", "brown", 2, 0, 4)  # next to A2 and A4, two high
    s.place_tile("A6", "silver", 1, None, None)  # next to A3 and A5
    index = casino_index(BOARD, s, join_rule)
    index.with_dice()
    assert_index_agrees(s, join_rule, "set up")
    steps = [("recolor", "A1", "purple"),  # joins nothing: the short way ("color": A1 A2 A4, two high)
             ("raise", "A1", None),  # joins nothing (by height: A1 A2 two high, A4 gold; "color": three high)
             ("recolor", "A1", "brown"),  # joins A5 (either rule)
             ("recolor", "A1", "silver"),  # joins A6 under "color"; by height A6 is one high: the short way
             ("raise", "A3", None),
             ("recolor", "A3", "silver")]
    marks = []
    for n, (change, lot, color) in enumerate(steps):
        marks.append(s.checkpoint())
        index = casino_index(BOARD, s, join_rule)
        casino = index.at[lot]  # the whole casino, as the rules change it
        before = {c.mask: index.facts_of(c) for c in index.all()}
        if change == "recolor":
            s.recolor(casino.lots, color, casino.bits)
        else:
            s.raise_tiles(casino.lots, casino.bits)
        assert_index_agrees(s, join_rule, f"step {n}")
        index = casino_index(BOARD, s, join_rule)
        for c in index.all():
            if c.mask in before:
                assert index._facts[c.first] is before[c.mask] or index._facts[c.first] is None, (n, c)
    while marks:
        s.rollback(marks.pop())
        assert_index_agrees(s, join_rule, f"rolled back to step {len(marks)}")

