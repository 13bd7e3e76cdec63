"""An adversary's tests of the speed work (issue 18: the trusted path of ``random_legal``'s decision, the staked
gambles shared by every game, the legal list's kept roles and tile facts, the generators' decision caches, the
engine's settling on the index already filled), through the public API only: no illegal decision goes through,
the legal list is the referee's, a game is its record's replay, and no two games touch each other (interleaved
games of different profiles, copies, push/pop, a drawn decision given to another game or given twice)."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings, strategies as st

import lv
from lv import actions as A
from lv import record
from lv.errors import IllegalAction
from lv.notation import format_action
from lv.replay import replay

from test_fast_path import _the_long_way
from test_legal_agrees import candidates, random_position

# every kind of profile the core branches on: both editions, the F block, 2 and 6 players, the colour join rule,
# the house rule (a family without a carry_out of its own), costs of $0 (the generators' ``money // cost``)
SPECS = [("original", 4), ("revised", 2), ("revised", 6), ("original+f-block", 2), ("house-sell-back", 3),
         ("revised,casino.join_rule=color", 3),
         ("revised,raise.cost_per_space=0,remodel.cost_per_unit=0,reorg.cost_per_pip=0", 5)]

# and a game whose draws are decisions of their own (``random_legal`` draws "draw" too; its ends of turn are applied
# with ``draw=False``)
INTERLEAVED = [(spec, n, {}) for spec, n in SPECS] + [("original", 3, {"draw_first": False})]


def _text(game: lv.Game, position: dict | None = None) -> str:
    """The game's whole record: decisions, dice and events (``position``: where a game made from one started)."""
    return record.dumps(record.record_of(game, game.profile.name, position=position), "yaml")


def _facts(game: lv.Game) -> tuple:
    """The state as compared, without the structure stamp (a process-wide counter, not part of the game)."""
    s = game.state
    return ([(p.name, p.money, p.score) for p in s.players], dict(s.markers), dict(s.tiles), list(s.deck),
            list(s.discards), s.turn, s.current, s.phase, list(s.drawn), s.gambles, set(s.reorganized), s.result)


def _replays_to_itself(game: lv.Game) -> None:
    """A fresh replay of the game's record (every decision checked by the referee) is the same game."""
    again = replay(record.parse_record(_text(game), "g.yaml")).game
    assert _facts(again) == _facts(game)
    assert _text(again) == _text(game)


def _agrees_with_the_referee(game: lv.Game) -> None:
    """The legal list is exactly the decisions ``why_not`` lets through (each gamble at $1 and at its cap)."""
    legal = game.legal_actions()
    assert len(legal) == game.legal_count()
    listed = {a if not isinstance(a, A.Gamble) else A.Gamble(a.lot, 1) for a in legal}
    for a in legal:
        assert game.why_not(a) is None, a
        if isinstance(a, A.Gamble):
            assert game.why_not(A.Gamble(a.lot, a.bet + 1)) is not None, a
    for action in candidates(game):
        assert (game.why_not(action) is None) == (action in listed), (game.state.turn, action)


def _position_of(game: lv.Game) -> dict:
    """The game's position as ``Game.from_position`` takes it (a game made from it works every fact out afresh)."""
    s, names = game.state, game.player_names
    tiles = {}
    for lot, t in s.tiles.items():
        tiles[lot] = {"color": t.color, "height": t.height}
        if t.owner is not None:
            tiles[lot].update(owner=names[t.owner], value=t.value)
    return dict(current=names[s.current], phase=s.phase, turn=s.turn, gambles=s.gambles,
                players={p.name: {"money": p.money, "score": p.score} for p in s.players},
                markers={lot: names[o] for lot, o in s.markers.items()}, tiles=tiles,
                reorganized=sorted(s.reorganized), deck=list(s.deck), discards=list(s.discards))


def _fresh_list(game: lv.Game) -> list:
    """The legal list of a game made afresh from this one's position (the game's own where no position can say
    it: a lot reorganized this turn whose die has moved since still locks its casino)."""
    s = game.state
    if any(s.tiles[lot].owner is None for lot in s.reorganized if lot in s.tiles):
        return game.legal_actions()
    fresh = lv.Game.from_position(game.profile, game.player_names, _position_of(game), board=game.board)
    return fresh.legal_actions()


# ---------------------------------------------------------------- (d) games that must not touch each other
@pytest.mark.slow
def test_interleaved_games_of_every_profile_are_the_games_played_alone():
    """Seven games of different profiles and player counts, one decision each in turn (each list made right after
    another game's, on another engine or the same profile's tables), against each played alone afterwards; the
    lists along the way against a game made afresh from the same position (roles, tile facts, index, caches)."""
    games = [lv.new_game(spec, n, seed=i, **kw) for i, (spec, n, kw) in enumerate(INTERLEAVED)]
    rngs = [random.Random(100 + i) for i in range(len(games))]
    probe = random.Random(0)
    made = [0] * len(games)
    steps = 0
    while not all(g.over for g in games) and steps < 2500:
        for g, rng in zip(games, rngs):
            if g.over:
                continue
            if probe.random() < 0.03 and g.state.phase == "actions":
                assert g.legal_actions() == _fresh_list(g), g.profile.name
            i = games.index(g)
            g.apply(g.random_legal(rng), draw=INTERLEAVED[i][2].get("draw_first", True))
            made[i] += 1
            steps += 1
    for i, (spec, n, kw) in enumerate(INTERLEAVED):
        alone = lv.new_game(spec, n, seed=i, **kw)
        rng = random.Random(100 + i)
        for _ in range(made[i]):
            alone.apply(alone.random_legal(rng), draw=kw.get("draw_first", True))
        assert _text(alone) == _text(games[i]), spec
        _replays_to_itself(games[i])


def test_a_copy_and_its_original_played_apart_are_each_their_own_record():
    """A copy made mid-game, the original played on first, then the copy with another generator (they share the
    engine, its moment and slots): each replays to itself, and the copy is the game played to that point and on."""
    game = lv.new_game("revised", 4, seed=21)
    rng = random.Random(21)
    for _ in range(60):
        game.apply(game.random_legal(rng))
    twin = game.copy()
    for _ in range(40):  # the original moves on: tiles, dice, money change under the shared engine
        if not game.over:
            game.apply(game.random_legal(rng))
    other = random.Random(7)
    while not twin.over:
        if other.random() < 0.05:  # and is looked at between the copy's decisions
            game.legal_actions()
        twin.apply(twin.random_legal(other))
    _replays_to_itself(game)
    _replays_to_itself(twin)


def _played(spec: str, players: int, seed: int, least: int, most: int) -> tuple[lv.Game, random.Random]:
    """A game of ``spec`` played by the uniform draw for ``least`` to ``most`` decisions (or to its end), and the
    generator that drew them, to draw on with."""
    game = lv.new_game(spec, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randint(least, most)):
        if game.over:
            break
        game.apply(game.random_legal(rng))
    return game, rng


@pytest.mark.slow
def test_a_decision_drawn_in_one_game_is_checked_in_another():
    """``random_legal`` on one game, ``apply`` on another (a copy, or a game of another profile that drew the very
    same staked gamble object): the other game checks it and refuses it where it is illegal there."""
    refused = 0
    for seed in range(30):
        game, rng = _played("revised", 3, seed, 10, 80)
        if game.over:
            continue
        twin = game.copy()
        drawn = game.random_legal(rng)
        if isinstance(drawn, A.EndTurn):
            continue
        # the copy plays something else first: the drawn decision may be illegal there now
        twin.apply(next(a for a in twin.legal_actions() if a != drawn))
        twin.random_legal(random.Random(seed))  # the copy vouches for a decision of its own
        why = twin.why_not(drawn)
        before = _text(twin), _facts(twin)
        if why is None:
            twin.apply(drawn)
        else:
            with pytest.raises(IllegalAction):
                twin.apply(drawn)
            assert (_text(twin), _facts(twin)) == before
            refused += 1
        game.apply(drawn)  # the game that drew it: still its to carry out
        _replays_to_itself(game)
        _replays_to_itself(twin)
    assert refused > 5


def _drawn_illegal_after(game: lv.Game, rng: random.Random, undo) -> tuple[A.Action, str] | None:
    """Push a decision, draw one with ``random_legal`` in the new position, take the push back with ``undo``:
    the drawn decision and why it is illegal in the position gone back to, if it is."""
    game.push(rng.choice(game.legal_actions()))
    drawn = game.random_legal(rng)
    undo(game)
    if drawn is None:
        return None
    why = game.why_not(drawn)
    return None if why is None else (drawn, why)


@pytest.mark.slow
@pytest.mark.parametrize("undo", ["pop", "pop of a copy"])
def test_pop_after_random_legal_forgets_the_vouch(undo):
    """A decision drawn after a push and applied after the pop is checked in the position popped back to
    (planted: pop without ``self._vouched = None``: the illegal decision goes through)."""
    caught = 0
    for seed in range(40):
        game, rng = _played("original", 4, seed, 5, 60)
        if game.over:
            continue
        if undo == "pop":
            found = _drawn_illegal_after(game, rng, lambda g: g.pop())
            target = game
        else:  # the copy's pop: the copy has no vouch of the original's
            game.push(rng.choice(game.legal_actions()))
            drawn = game.random_legal(rng)
            target = game.copy()
            target.pop()
            why = None if drawn is None else target.why_not(drawn)
            found = None if why is None else (drawn, why)
        if found is None:
            continue
        drawn, why = found
        before = _text(target), _facts(target)
        with pytest.raises(IllegalAction) as err:
            target.apply(drawn)
        assert str(err.value) == why
        assert (_text(target), _facts(target)) == before
        caught += 1
    assert caught > 3


@pytest.mark.slow
def test_a_drawn_decision_applied_twice_is_checked_the_second_time():
    """The vouch is for one apply (planted: ``apply`` without resetting ``_vouched``: a second gamble in a turn, a
    second build on the same lot, a raise paid twice go through)."""
    caught = 0
    for seed in range(30):
        game = lv.new_game("revised", 4, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            drawn = game.random_legal(rng)
            game.apply(drawn)
            if game.over or isinstance(drawn, A.EndTurn):
                continue
            why = game.why_not(drawn)
            if why is not None:
                before = _text(game), _facts(game)
                with pytest.raises(IllegalAction):
                    game.apply(drawn)
                assert (_text(game), _facts(game)) == before
                caught += 1
                break
    assert caught > 10


@pytest.mark.slow
def test_a_drawn_decision_after_a_refusal_or_with_bad_choices_leaves_no_trace():
    """``apply`` of the drawn decision after an ``IllegalAction``, and with a piece to move named wrong: refused
    alike, the state unchanged, the game its record's replay."""
    for seed in range(4):
        game = lv.new_game("revised", 2, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            drawn = game.random_legal(rng)
            if not isinstance(drawn, A.EndTurn) and rng.random() < 0.3:
                before = _text(game), _facts(game)
                with pytest.raises(IllegalAction):
                    game.apply(A.Build("A1", "nowhere"))
                with pytest.raises(IllegalAction):
                    game.apply(A.Gamble("Z9", 1))
                if isinstance(drawn, (A.Build, A.Sprawl)):
                    try:
                        game.apply(drawn, choices={"die_from": "F9"})
                    except IllegalAction:
                        assert (_text(game), _facts(game)) == before
                    else:  # a die left: no die moves, the choice unread
                        continue
                assert (_text(game), _facts(game)) == before
            game.apply(drawn)
        _replays_to_itself(game)


# ---------------------------------------------------------------- (a)(b) random positions, hypothesis
@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10 ** 6), which=st.sampled_from(SPECS))
def test_from_random_positions_the_drawn_decisions_are_the_checked_ones(seed, which):
    """From a random position (tall casinos, short money, die-less tiles, locks), the game played by ``random_legal``
    (trusted) and a twin given equal but not identical decisions (checked) stay the same game, and every list on
    the way is the referee's and a fresh game's of the same position."""
    spec, players = which
    rng = random.Random(seed)
    game = random_position(spec, min(players, 4) if "f-block" not in spec else 2, rng)
    start = _position_of(game)
    twin = game.copy()
    a, b = random.Random(seed), random.Random(seed)
    for step in range(30):
        if game.over:
            break
        if step % 10 == 0 and game.state.phase == "actions":
            _agrees_with_the_referee(game)
            assert game.legal_actions() == _fresh_list(game)
        drawn = game.random_legal(a)
        same = twin.random_legal(b)
        assert drawn == same
        twin.random_legal(random.Random(-1))  # the twin's vouch: another decision (or the same object)
        equal = lv.parse_action(format_action(drawn, twin.player_names), twin.player_names)
        assert equal == drawn and equal is not drawn
        game.apply(drawn)
        twin.apply(equal)
        assert _facts(game) == _facts(twin)
        assert _text(game, start) == _text(twin, start)
    again = replay(record.parse_record(_text(game, start), "g.yaml")).game
    assert _facts(again) == _facts(game)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10 ** 6), which=st.sampled_from(SPECS[:5]))
def test_a_quiet_game_is_the_same_game(seed, which):
    """``quiet`` (no record-only events: ``Engine.apply`` then asks for no bosses before the action) plays the same
    game as a loud one (ties, merges and bosses settled alike), decision by decision, the two interleaved."""
    spec, players = which
    loud, quiet = lv.new_game(spec, players, seed=seed), lv.new_game(spec, players, seed=seed, quiet=True)
    a, b = random.Random(seed), random.Random(seed)
    while True:
        if loud.over:
            break
        drawn = loud.random_legal(a)
        assert quiet.random_legal(b) == drawn
        loud.apply(drawn)
        quiet.apply(drawn)
        assert _facts(loud) == _facts(quiet)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10 ** 6), which=st.sampled_from(SPECS))
def test_from_random_positions_each_decision_settles_as_the_long_way_does(seed, which):
    """Random positions hold what games rarely do: casinos tied before any decision, tall and die-less ones. Each
    decision from there (drawn or an equal copy) has the events and state of the long way (act, then
    ``resolve_ties`` and ``consequences`` whatever changed; planted: the skip without ``not index._tied``, a tie
    standing before a gamble is left unsettled)."""
    spec, players = which
    rng = random.Random(seed)
    game = random_position(spec, min(players, 4) if "f-block" not in spec else 2, rng)
    for _ in range(15):
        if game.over:
            break
        action = game.random_legal(rng)
        if isinstance(action, A.EndTurn):
            game.apply(action)
            continue
        if rng.random() < 0.5:
            action = copy.copy(action)  # not the drawn object: checked
        want, state = _the_long_way(game, action)
        got = game.apply(action)
        state.structure = game.state.structure  # a stamp from a counter of every state's changes
        assert got == want and game.state == state


@pytest.mark.parametrize("drawn", [True, False])
def test_a_tie_standing_before_a_gamble_is_settled_as_the_long_way_does(drawn):
    """A position with a tied casino (A1, A2: red's 5 and blue's 5), and red gambles elsewhere, where no tile and
    no die changes: the tie is still rerolled after it, as the long way does (planted: ``Engine.apply``'s skip
    without ``not index._tied``: no TieRerolled)."""
    names = ["red", "blue", "green"]
    pos = dict(current="red", phase="actions", players={n: {"money": 20} for n in names},
               tiles={"A1": "gold red 5", "A2": "gold blue 5", "C1": "silver green 3"})
    game = lv.Game.from_position(lv.load_profile("revised"), names, pos)
    rng = random.Random(0)
    action = A.Gamble("C1", 2)
    if drawn:
        while not isinstance(action := game.random_legal(rng), A.Gamble):
            pass
    want, state = _the_long_way(game, action)
    got = game.apply(action)
    state.structure = game.state.structure
    assert got == want and game.state == state
    assert any(type(ev).__name__ == "TieRerolled" for ev in got)
