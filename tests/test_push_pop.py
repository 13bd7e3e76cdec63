"""``Game.push`` / ``Game.pop`` / ``Game.copy`` (issue 20, point 9): python-chess's names for trying a decision and
taking it back, and for an independent game in the same position. A game pushed and popped is the game it was,
byte for byte in its record; a copy plays on without touching the original."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lv
from lv import record
from lv.actions import Reorganize
from lv.casinos import _COMPILED
from lv.errors import IllegalAction

from conftest import random_engine_step


def _text(game: lv.Game) -> str:
    """The game's whole record: state, history, dice and events all show in it."""
    return record.dumps(record.record_of(game, game.profile.name), "yaml")


def _fingerprint(game: lv.Game) -> tuple:
    s = game.state
    return (_text(game), s.turn, s.current, s.phase, [(p.money, p.score) for p in s.players],
            [str(a) for a in game.legal_actions()], len(game.history), len(game.current_turn.decisions))


def test_push_then_pop_gives_back_the_game_byte_for_byte():
    game = lv.new_game("revised", 3, seed=7)
    rng = random.Random(1)
    for _ in range(40):  # into the game, across several turns
        game.apply(rng.choice(game.legal_actions()))
    before = _fingerprint(game)
    pushed = []
    for _ in range(25):  # builds, gambles, ends of turn (each with the next player's draw)
        action = rng.choice(game.legal_actions())
        game.push(action)
        pushed.append(action)
    assert game.pushed == pushed
    assert game.state.turn > before[1]
    for action in reversed(pushed):
        assert game.pop() is action
    assert _fingerprint(game) == before
    assert game.pushed == []


def test_a_popped_game_plays_on_as_if_nothing_was_tried():
    tried, plain = lv.new_game("original", 4, seed=3), lv.new_game("original", 4, seed=3)
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(30):
        for _ in range(3):  # look ahead three decisions, then take them back
            tried.push(tried.legal_actions()[0])
        for _ in range(3):
            tried.pop()
        tried.apply(rng_a.choice(tried.legal_actions()))
        plain.apply(rng_b.choice(plain.legal_actions()))
    assert _text(tried) == _text(plain)


def test_a_refused_push_leaves_nothing_to_pop():
    game = lv.new_game("revised", 2, seed=2)
    before = _fingerprint(game)
    mine = game.state.markers_on_board(game.state.current)
    theirs = next(lot for lot in game.board.order if lot not in mine and game.casino_at(lot) is None)
    with pytest.raises(IllegalAction):
        game.push(lv.parse_action(f"build {theirs} gold", game.player_names))
    assert game.pushed == [] and _fingerprint(game) == before
    with pytest.raises(IndexError, match="no decision was pushed"):
        game.pop()


def test_a_copy_is_independent():
    game = lv.new_game("revised", 4, seed=11)
    rng = random.Random(2)
    for _ in range(20):
        game.apply(rng.choice(game.legal_actions()))
    game.push(game.legal_actions()[0])
    twin = game.copy()
    assert _text(twin) == _text(game) and twin.pushed == game.pushed
    original = _fingerprint(game)
    for _ in range(30):
        twin.apply(rng.choice(twin.legal_actions()))
    assert _fingerprint(game) == original
    twin.pop()  # the copy takes back its push (and the 30 decisions since) without touching the original's
    assert _fingerprint(game) == original and game.pushed != []
    game.pop()
    assert _fingerprint(twin) == _fingerprint(game)


def test_a_copy_plays_the_same_game_as_the_original():
    game = lv.new_game("original+f-block", 2, seed=4)
    twin = game.copy()
    rng_a, rng_b = random.Random(9), random.Random(9)
    while not game.over:
        game.apply(rng_a.choice(game.legal_actions()))
        twin.apply(rng_b.choice(twin.legal_actions()))
    assert twin.over and _text(twin) == _text(game)


@pytest.mark.parametrize("given", [{"choices": 5}, {"dice": [3, 5]}, {"next_draw_dice": "4,2"},
                                   {"next_draw_choices": ["B3"]}])
def test_dice_or_choices_that_are_no_dict_are_a_type_error_and_change_nothing(given):
    """Game.apply's dice and choices are dicts keyed by meaning: anything else is a TypeError naming the argument
    (it was an AttributeError from deep inside the pure build; the compiled build's own check at the call says
    "dict or None object expected"), and the game is as it was."""
    game = lv.new_game("revised", 3, seed=7)
    before = _fingerprint(game)
    decision = game.legal_actions()[0]
    said = "dict or None object expected" if lv.build_name() == "compiled" else f"{next(iter(given))} must be a dict"
    for call in (game.push, game.apply):
        with pytest.raises(TypeError, match=said):
            call(decision, **given)
    assert _fingerprint(game) == before and game.pushed == []


@pytest.mark.skipif(lv.build_name() == "compiled", reason="the compiled core reads check_action natively: not patched")
def test_a_decision_put_in_the_returned_legal_list_is_checked_when_pushed():
    """The game keeps its own copy of the list ``legal_actions`` returns: an illegal decision the caller puts in the
    list it was given (here a build on a rival's lot, the engine's own object from another position) is refused
    by the rules when pushed, not carried out unchecked."""
    game = lv.new_game("revised", 2, seed=2)
    before = _fingerprint(game)
    mine = game.state.markers_on_board(game.state.current)
    theirs = next(lot for lot in game.board.order if lot not in mine and game.casino_at(lot) is None)
    from lv.actions.build import _build

    legal = game.legal_actions()
    foreign = _build(theirs, "gold")  # the cached object the generator lists wherever the build is legal
    legal.append(foreign)
    with pytest.raises(IllegalAction):
        game.push(foreign)
    assert game.pushed == [] and _fingerprint(game) == before


def test_a_push_checks_its_decision_once(action_checks):
    """Guards push's one check of the decision's types (``check_action``: Python code in both builds, about 3,700
    instructions compiled): the ``apply`` it calls does not check the same object again; any other decision
    given to ``apply`` still is. A decision of the game's last legal list, for the state as it still is, is the
    engine's own: a push of it is not checked at all (a search pushes each decision of a list); changed by hand,
    the state's legal list is not trusted any more."""
    calls = action_checks
    game = lv.new_game("revised", 3, seed=7)
    legal = game.legal_actions()
    game.push(legal[0])
    assert calls == []
    game.legal_actions()  # another list, under the push
    game.pop()
    game.push(legal[1])  # the list is the game's again after the pop
    game.pop()
    assert calls == []
    own = lv.EndTurn()  # a decision equal to one of the list's, not the list's
    assert own in legal and not any(a is own for a in legal)
    game.push(own)
    assert calls == ["push"]
    game.pop()
    game.apply(legal[0])
    assert calls == ["push", "apply"]
    legal = game.legal_actions()
    game.state.players[game.state.current].money += 1  # by hand: the list is not the state's any more
    game.push(legal[0])
    assert calls == ["push", "apply", "push"]


# ---------------------------------------------------------------------------------------------- push/pop exactly
def _whole(s) -> tuple:
    """Every fact of a state as plain values, in order (dicts as their items: a key put back elsewhere in the order
    shows), the casino index's lists, fields and caches included: what a pop must give back. Lists changed in place
    are copied; the caches that are replaced whole are not (the memo: its stamp and which dict)."""
    index = s._casinos
    facts = None
    if index is not None:
        facts = (index.join_rule, [[c.lots for c in b] for b in index.by_block], [c and c.lots for c in index.at_bit],
                 list(index._facts), list(index._pairs), list(index._bosses_by), list(index._tied_by), index.dirty,
                 index._stale, index._tied,
                 index.changes, index._all, index._with_dice, index._bosses, index._boss_blocks, index._tile_mask,
                 index.reads(s), not index._noting)
    return ([(p.name, p.money, p.score) for p in s.players], list(s.markers.items()), list(s.tiles.items()),
            list(s.deck), list(s.discards), s.turn, s.current, s.phase, list(s.drawn), s.gambles,
            sorted(s.reorganized), s.result, s.pending, s.structure, s.tile_mask, list(s.color_bits),
            list(s.height_bits), s.markers_mask, list(s.marker_masks), s.dice_mask, list(s.dice_masks),
            list(s.tile_colors), list(s.tile_heights), list(s.die_values), list(s.die_owners),
            list(s.color_counts), s._memo and (s._memo[0], id(s._memo[1])), s._undo is None, facts)


@settings(max_examples=12)
@given(spec=st.sampled_from(["revised", "original", "revised,casino.join_rule=color",
                             "original,raise.enabled=true,raise.max_height=4"]),
       players=st.integers(min_value=2, max_value=4), seed=st.integers(min_value=0, max_value=2**20),
       steps=st.integers(min_value=0, max_value=120), deeper=st.integers(min_value=0, max_value=2**16))
def test_push_and_pop_of_every_legal_decision_give_back_the_state_exactly(spec, players, seed, steps, deeper):
    """Guards push/pop's undo (GameState.checkpoint/rollback and the casino index's noted writes): at a random
    position, the push and pop of each legal decision (with a second push and pop under it) leaves the state as it
    was, field by field and in order, the index's lists, fields and caches included; and the game plays on the same."""
    rng, inner = random.Random(seed), random.Random(deeper)
    game = lv.new_game(spec, players, seed)
    for _ in range(steps):
        if game.over:
            break
        game.apply(game.random_legal(rng))
    if game.over:
        return
    s = game.state
    if seed % 2:
        game.engine.casinos_with_dice(s)  # the caches full, as a bot leaves them
    legal = game.legal_actions()  # (its reads fill the caches: before the state is taken)
    before, text = _whole(s), _text(game)
    for action in legal:
        game.push(action)
        if not game.over:
            deeper_legal = game.legal_actions()  # fills the index's caches under the push
            after = _whole(s)
            if deeper_legal:
                game.push(deeper_legal[inner.randrange(len(deeper_legal))])
                game.pop()
                assert _whole(s) == after, (str(action), "the second pop")
        game.pop()
        assert _whole(s) == before, str(action)
    assert _text(game) == text
    twin = game.copy()
    game.apply(game.random_legal(random.Random(seed)))
    twin.apply(twin.random_legal(random.Random(seed)))
    assert _text(game) == _text(twin)


STEPS = st.lists(st.tuples(st.sampled_from(["checkpoint", "rollback", "tile", "die", "recolor", "raise", "marker",
                                            "unmarker", "read", "restore"]), st.integers(min_value=0, max_value=2**16)),
                 max_size=30)
READS = ("all", "with_dice", "boss_of_each", "boss_blocks", "tied")


@settings(max_examples=150)
@given(seed=st.integers(min_value=0, max_value=2**20), steps=st.integers(min_value=0, max_value=60), ops=STEPS)
def test_a_rollback_gives_back_the_state_of_its_checkpoint_whatever_changed_and_was_read(seed, steps, ops):
    """Guards GameState.checkpoint/rollback below the game: nested checkpoints taken with the index current or not
    (a change not read yet), tiles placed, dice set, tiles recoloured and raised, markers put and removed, the index
    read in any of its ways (each fills a cache), a copy restored in between: each rollback gives back its
    checkpoint's state, field by field, the index's lists, fields and caches included."""
    spec = "original,raise.enabled=true,raise.max_height=4"
    rng = random.Random(seed)
    game = lv.new_game(spec, 3, seed)
    for _ in range(steps):
        if game.over:
            break
        game.apply(game.random_legal(rng))
    s, board, join_rule = game.state, game.board, game.profile.casino.join_rule
    s.casino_index(join_rule)
    stack = []
    for op, k in ops:
        tiled = list(s.tiles)
        free = [lot for lot in board.order if lot not in s.tiles]
        if op == "checkpoint":
            if k % 3:  # a checkpoint with the index current and a cache full, or with changes not read yet
                getattr(s.casino_index(join_rule), READS[k % len(READS)])()
            stack.append((_whole(s), s.checkpoint()))
        elif op == "rollback" and stack:
            whole, mark = stack.pop()
            s.rollback(mark)
            assert _whole(s) == whole, len(stack)
        elif op == "tile" and free:
            s.place_tile(free[k % len(free)], board.colors[k % 5], 1 + k % 2, None if k % 3 else k % 3, 1 + k % 6)
        elif op == "die" and tiled:
            s.set_die(tiled[k % len(tiled)], None if k % 4 == 0 else k % 3, 1 + k % 6)
        elif op == "recolor" and tiled:
            s.recolor([tiled[k % len(tiled)], tiled[(k // 7) % len(tiled)]], board.colors[k % 5])
        elif op == "raise" and tiled:
            s.raise_tiles([tiled[k % len(tiled)]])
        elif op == "marker" and free:
            s.put_marker(free[k % len(free)], k % 3)
        elif op == "unmarker" and s.markers:
            s.remove_marker(list(s.markers)[k % len(s.markers)])
        elif op == "read":
            index = s.casino_index(join_rule)
            if k % 6 == 5:  # one casino's dice facts (worked out on demand: lv.casinos.dice_facts)
                casinos = index.all()
                if casinos:
                    index.facts_of(casinos[k % len(casinos)])
            else:
                getattr(index, READS[k % len(READS)])()
        elif op == "restore":  # Game.apply's copy and restore, within a decision
            saved = s.copy()
            if free:
                s.place_tile(free[k % len(free)], board.colors[k % 5], 1, None, None)
            s.casino_index(join_rule).all()
            s.restore(saved)
    while stack:
        whole, mark = stack.pop()
        s.rollback(mark)
        assert _whole(s) == whole, len(stack)
    assert s._undo is None and (s._casinos is None or not s._casinos._noting)


def _in_actions(players: int, seed: int, decisions: int) -> lv.Game:
    """A revised game after ``decisions`` random decisions (``random.Random(seed)``), then on to an action step."""
    game = lv.new_game("revised", players, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        game.apply(game.random_legal(rng))
    while game.state.phase != "actions":
        game.apply(game.random_legal(rng))
    return game


def test_a_checkpoint_copies_the_deck_only_when_a_draw_takes_from_it():
    """A push keeps the state's deck list (no copy); the first draw under it takes its cards from a copy
    (``GameState.changing_deck``), so every pop gives back the deck the push saw, nested pushes too."""
    game = _in_actions(4, 7, 30)
    s = game.state
    deck, cards = s.deck, list(s.deck)
    build = next(a for a in game.legal_actions() if not isinstance(a, lv.actions.EndTurn))
    game.push(build)  # draws nothing: the very list, unchanged
    assert s.deck is deck and deck == cards
    game.push(lv.actions.EndTurn())  # the next player draws: from a copy
    assert s.deck is not deck and deck == cards and s.deck == cards[len(s.drawn):]
    after_one = list(s.deck)
    game.push(lv.actions.EndTurn())  # a second draw, under the second checkpoint
    assert s.deck == after_one[len(s.drawn):] and deck == cards
    game.pop()
    assert s.deck == after_one
    game.pop()
    assert s.deck is deck and deck == cards
    game.pop()
    assert s.deck is deck and deck == cards


def test_a_push_passes_on_apply_s_options():
    """``push`` takes what ``apply`` takes (its options too: a push without them is a direct call, one with them
    passes them on): an end of turn pushed with ``draw=False`` rests at the next player's draw, then pops back."""
    game = _in_actions(3, 4, 12)
    before = _fingerprint(game)
    player = game.state.current
    game.push(lv.actions.EndTurn(), draw=False)
    assert game.state.phase == "draw" and game.state.current == (player + 1) % 3 and not game.state.drawn
    game.pop()
    assert _fingerprint(game) == before
    game.push(lv.actions.EndTurn())  # without options: the next player draws at once
    assert game.state.phase != "draw" and game.state.drawn
    game.pop()
    assert _fingerprint(game) == before


@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 3), ("revised", 3, 11), ("original", 2, 5),
                                               ("revised,casino.join_rule=color", 4, 8)])
def test_pushes_and_pops_between_decisions_played_give_back_each_state_exactly(spec, players, seed):
    """A search's pattern: at each position every legal decision pushed and popped, then one played (no checkpoint
    open). Guards the undo state kept from one checkpoint to the next: the casino index's log of writes (written
    over, not made anew: a pop must replay only its own push's writes, not those of pushes before a decision
    played), and the lots reorganized this turn (the checkpoint keeps the set, the state adds to a copy)."""
    rng = random.Random(seed)
    game = lv.new_game(spec, players, seed)
    tried = reorganized = 0
    for _ in range(70):
        if game.over:
            break
        s = game.state
        legal = game.legal_actions()
        before = _whole(s)
        for action in legal:
            held = set(s.reorganized)
            game.push(action)
            game.pop()
            assert _whole(s) == before, str(action)
            assert s.reorganized == held
            index = s._casinos
            # no write noted left in use (compiled: a count of the log's entries in use; pure: the log's length)
            assert index is None or (not index._noting and (index._noted if _COMPILED else len(index._log)) == 0)
            tried += 1
            reorganized += bool(held) and isinstance(action, Reorganize)
        game.apply(game.random_legal(rng))
    assert tried > 200
    if spec == "revised" and players == 4:
        assert reorganized  # a reorganization pushed while the turn had reorganized lots already


@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 31), ("original", 3, 32),
                                               ("original,raise.enabled=true,raise.max_height=4", 2, 33)])
def test_a_checkpoint_rolled_back_is_made_again_by_the_next_and_gives_back_its_own_state(spec, players, seed):
    """Guards GameState.checkpoint's reuse of a checkpoint rolled back (``_spare``, ``Undo.start``, and its index's
    mark, ``IndexMark.start``): checkpoints
    opened and rolled back at random, nested up to four deep, decisions played under them (draws and payouts, every
    family), each rollback gives back exactly the state of its own checkpoint (the index's lists and caches
    included), whatever the checkpoint object held for an earlier one; and the checkpoint after a rollback is the
    very object rolled back."""
    rng = random.Random(seed)
    game = lv.new_game(spec, players, seed)
    engine, s = game.engine, game.state
    open_marks: list = []
    reused = 0
    for _ in range(500):
        if s.phase == "over":
            break
        roll = rng.random()
        if roll < 0.2 and len(open_marks) < 4:
            whole = _whole(s)
            spare = s._spare
            mark = s.checkpoint()
            reused += spare is not None
            assert spare is None or mark is spare
            open_marks.append((mark, whole))
        elif roll < 0.4 and open_marks:
            mark, whole = open_marks.pop()
            s.rollback(mark)
            assert _whole(s) == whole
        else:
            random_engine_step(engine, s, rng)
    while open_marks:
        mark, whole = open_marks.pop()
        s.rollback(mark)
        assert _whole(s) == whole
    assert reused >= 20


def test_a_push_after_a_pop_is_noted_in_the_one_popped_and_each_pop_takes_back_its_own_push():
    """Guards the pushes' notes written over (``Game._pushed`` past ``_depth``: what a pop took back is written over
    by the next push at its depth): pushes and pops at random up to four deep, refused pushes and copies among them;
    each pop gives back the game as it was before its own push, ``pushed`` lists what is left (none popped), and a
    copy's pops do the same apart."""
    game = lv.new_game("revised", 3, seed=19)
    rng = random.Random(19)
    for _ in range(30):
        game.apply(game.random_legal(rng))
    stack: list[tuple] = []  # (action, fingerprint before it)
    for step in range(80):
        roll = rng.random()
        if stack and (roll < 0.4 or len(stack) == 4):
            action, before = stack.pop()
            assert game.pop() is action, step
            assert _fingerprint(game) == before, step
        elif roll < 0.45:
            before = _fingerprint(game)
            with pytest.raises(IllegalAction):
                game.push(lv.Build(next(iter(game.state.tiles)), "gold"))  # a lot with a tile: never legal
            assert _fingerprint(game) == before, step
        elif roll < 0.5 and stack:
            twin = game.copy()
            for action, before in reversed(stack):
                assert twin.pop() is action
                assert _fingerprint(twin) == before
        else:
            before = _fingerprint(game)
            action = game.random_legal(rng)
            game.push(action)
            stack.append((action, before))
        assert game.pushed == [a for a, _ in stack], step
        assert len(game._pushed) <= 4, step  # the notes of pops written over, never more than the deepest push


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_a_checkpoint_copies_the_lots_reorganized_only_when_a_decision_adds_to_them(seed):
    """A push keeps the state's set of lots reorganized this turn (no copy); the first reorganization under it adds
    to a copy (``GameState.reorganizing``), so every pop gives back the very set the push saw, as it was, nested
    pushes and turns begun under them too."""
    game = _in_actions(4, seed, 40)
    rng = random.Random(seed)
    s = game.state
    found = 0
    for _ in range(300):
        reorgs = [a for a in game.legal_actions() if isinstance(a, Reorganize)]
        if not reorgs:
            game.apply(game.random_legal(rng))
            continue
        kept, lots = s.reorganized, set(s.reorganized)
        stack = [(kept, lots)]
        game.push(reorgs[0])  # adds its lots to a copy
        assert s.reorganized is not kept and kept == lots and s.reorganized > lots
        more = [a for a in game.legal_actions() if isinstance(a, Reorganize)]
        for action in more[:1] + [lv.actions.EndTurn()]:  # another under it, then the next turn (a new set)
            stack.append((s.reorganized, set(s.reorganized)))
            game.push(action)
        while stack:
            game.pop()
            kept, lots = stack.pop()
            assert s.reorganized is kept and kept == lots
        found += 1
        if found == 3:
            break
        game.apply(game.random_legal(rng))
    assert found


def test_a_log_written_over_grows_by_whole_entries_of_two_and_of_three():
    """``make_room`` (compiled: ``CasinoIndex._note``'s log, entries of three, and ``Undo.note``'s list of changed
    lots, entries of two, written by index from their used length on): a log whose used entries reach its end grows
    by whole entries of either size, so the next entry's places are there and the one after that finds the log at
    its end again or with room for a whole entry (never part of one)."""
    from lv.casinos import make_room

    for size in (2, 3):
        log: list[object] = []
        for n in range(0, 60, size):
            if n == len(log):
                make_room(log)
            assert len(log) % size == 0 and len(log) > n  # (a whole entry's places: n + size - 1 is in the log)
            log[n:n + size] = [n] * size
        assert log[:60] == [n - n % size for n in range(60)]
