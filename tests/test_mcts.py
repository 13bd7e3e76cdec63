"""The ``mcts`` bot (lv/mcts.py): the same seed gives the same game, it only takes legal decisions, it does not
see the order of the draw pile, and it beats random players clearly. Small budgets keep this file fast."""

from __future__ import annotations

import random

import attrs
import pytest

import lv
from lv import actions as A
from lv import bots as B
from lv import mcts
from lv.board import END_CARD
from lv.errors import LvError
from lv.record import dumps, record_of
from lv.state import Result


def _legal(action, legal: list) -> bool:
    """``action`` is listed, or is a gamble at a stake from $1 to the cap listed for its casino."""
    if action in legal:
        return True
    return isinstance(action, A.Gamble) and any(
        isinstance(a, A.Gamble) and a.lot == action.lot and 1 <= action.bet <= a.bet for a in legal)


def _selfplay(seed: int, spec: str, checked: list | None = None) -> str:
    game = lv.new_game("revised", 2, seed)
    bot = B.bot_named(spec)

    def watched(g, legal, rng):
        action = bot(g, legal, rng)
        if checked is not None:
            checked.append((action, list(legal)))
        return action

    B.play(game, [watched, B.greedy_bot], seed)
    return dumps(record_of(game, "revised"), "json")


@pytest.mark.slow
def test_same_seed_same_game_and_only_legal_decisions():
    checked: list = []
    first = _selfplay(11, "mcts:6", checked)
    assert _selfplay(11, "mcts:6") == first  # byte-identical record
    assert len(checked) > 20
    assert all(_legal(action, legal) for action, legal in checked)
    assert any(not isinstance(action, A.EndTurn) for action, _ in checked)


@pytest.mark.slow
def test_the_seed_changes_the_game():
    assert _selfplay(11, "mcts:6") != _selfplay(12, "mcts:6")


def test_the_search_does_not_see_the_order_of_the_draw_pile():
    """Two games alike in everything a player can see, with the unseen cards in another order (the end card
    where it was): the bot decides the same, from the same search."""
    game = lv.new_game("revised", 4, 5)
    rng = random.Random(1)
    while game.state.turn < 6:
        game.apply(B.greedy_bot(game, game.legal_actions(), rng))
    other = lv.new_game("revised", 4, 5)
    rng = random.Random(1)
    while other.state.turn < 6:
        other.apply(B.greedy_bot(other, other.legal_actions(), rng))
    deck = other.state.deck
    end = deck.index(END_CARD)
    above, below = deck[:end], deck[end + 1:]
    other.state.deck = above[::-1] + [END_CARD] + below[::-1]
    assert other.state.deck != game.state.deck
    bot = B.bot_named("mcts:30")
    chosen = bot(game, game.legal_actions(), random.Random(0))
    assert bot(other, other.legal_actions(), random.Random(0)) == chosen


def test_the_end_card_depth_is_a_belief_not_a_peek():
    """000 L43 / 003 L170-176: "4 roughly equal stacks": the depth is drawn within END_CARD_SPREAD of a quarter
    of the 40 cards left after dealing 8 (10 under the card), so 8 to 12, whatever depth the game used."""
    for under in (3, 10, 17):
        game = lv.new_game("revised", 4, 5, under_end_card=under)
        search = mcts._Search(B.bot_named("mcts:1"), game, random.Random(0))
        assert search.depths == (8, 12)
        depths = set()
        for _ in range(200):
            deck = search.determinize().deck
            depths.add(len(deck) - 1 - deck.index(END_CARD))
            assert sorted(deck) == sorted(game.state.deck)
        assert depths == {8, 9, 10, 11, 12}


def test_end_card_at_the_bottom_is_known():
    game = lv.new_game("revised,deck.end_card_depth=bottom", 4, 5)
    search = mcts._Search(B.bot_named("mcts:1"), game, random.Random(0))
    assert search.depths == (0, 0)
    assert search.determinize().deck[-1] == END_CARD


def test_a_gamble_is_offered_at_its_cap_and_half_of_it():
    legal = [A.Gamble("B2", 9), A.Gamble("C4", 1), A.EndTurn()]
    assert mcts.choices(legal) == [A.Gamble("B2", 9), A.Gamble("B2", 5), A.Gamble("C4", 1), A.EndTurn()]


def test_the_first_decisions_the_widening_admits_are_the_sorted_orders_start():
    """``ordered(view, legal, k)`` picks the first k without sorting (a node admits 1, 2, 3 ... of them): the start
    of the full order, ties in value included (ending the turn first among equals, then the order listed)."""
    rng = random.Random(5)
    game = lv.new_game("revised", 2, 1)
    search = mcts._Search(B.bot_named("mcts:5"), game, random.Random(1))
    view = mcts._View(game.state, game.engine, game.board)  # (not read: the values are given)
    kinds = [lambda i: A.Build(f"A{i}", "gold"), lambda i: A.Sprawl(f"B{i}", "C1"), lambda i: A.EndTurn()]
    for _ in range(300):
        n = rng.randint(1, 12)
        legal = [rng.choice(kinds)(i) for i in range(n)]
        values = [float(rng.choice([0, 0, 5, 5, 20, -3])) for _ in legal]
        search.prior, search.priors = None, lambda view, listed: values  # the policy's values, as given
        whole = search.ordered(view, legal)
        for k in range(len(whole) + 1):
            assert search.ordered(view, legal, k) == whole[:k], (legal, values, k)


def test_only_the_very_objects_listed_and_lower_stakes_skip_the_referee():
    """The imagined games apply a listed decision unchecked (``Engine.apply``'s ``trusted``): the objects the
    generator listed, never an equal one made elsewhere, except a gamble at a stake from $1 to that of the gamble
    listed at its casino (a half stake, greedy's bet), which passes the same checks; anything else is checked."""
    listed = [A.Gamble("B2", 9), A.Build("A2", "gold"), A.EndTurn()]
    assert mcts._listed(listed[0], listed) and mcts._listed(listed[1], listed)
    assert not mcts._listed(A.Build("A2", "gold"), listed)  # equal, not the listed object
    assert mcts._listed(A.Gamble("B2", 9), listed) and mcts._listed(A.Gamble("B2", 5), listed)
    assert mcts._listed(A.Gamble("B2", 1), listed)
    assert not mcts._listed(A.Gamble("B2", 10), listed)  # over the cap
    assert not mcts._listed(A.Gamble("B2", 0), listed)
    assert not mcts._listed(A.Gamble("C4", 1), listed)  # no gamble listed at that casino
    assert not mcts._listed(A.Gamble("B2", 5, True), listed)  # another answer of the boss: checked


def test_a_lower_stake_applied_unchecked_is_the_checked_one():
    """A gamble at a lower stake than the one listed, applied as trusted, leaves the state the referee's check
    and application would: the same money, the same gambles counted."""
    from lv.chance import Dice

    game = lv.new_game("revised", 3, 5)
    greedy = B.bot_named("greedy")
    rng = random.Random(2)
    seen = 0
    while not game.over and seen < 5:
        legal = game.legal_actions()
        gambles = [a for a in legal if isinstance(a, A.Gamble) and a.bet > 1]
        for g in gambles:
            half = A.Gamble(g.lot, (g.bet + 1) // 2)
            assert mcts._listed(half, legal)
            after = []
            for trusted in (False, True):
                s = game.state.copy()
                game.engine.apply(s, half, Dice.sampled(random.Random(7)), [], None, trusted)
                after.append(([p.money for p in s.players], s.gambles))
            assert after[0] == after[1]
            seen += 1
        game.apply(greedy(game, legal, rng))
    assert seen


def test_a_step_says_whether_chance_came_into_it():
    """``_Search.step`` is True only where the state it leads to follows from the state and the decision alone
    (the tree keeps such a node's list and order, ``_Node.fixed``): not after the end of a turn (a card is drawn),
    nor after a die is rolled (a gamble, a reorganization, a tie); a build that rolls nothing is quiet."""
    game = lv.new_game("revised", 3, 5)
    greedy = B.bot_named("greedy")
    rng = random.Random(3)
    kinds: dict[str, set[bool]] = {}
    while not game.over and game.state.turn < 40:
        legal = game.legal_actions()
        search = mcts._Search(B.bot_named("mcts:1"), game, random.Random(1))
        for a in legal:
            if isinstance(a, (A.Build, A.Gamble, A.Reorganize, A.EndTurn)):
                s = game.state.copy()
                quiet = search.step(s, a, legal)
                kinds.setdefault(type(a).__name__, set()).add(quiet)
                if isinstance(a, A.Build) and quiet:
                    assert not search.dice.used
        game.apply(greedy(game, legal, rng))
    assert kinds["EndTurn"] == {False} and kinds["Gamble"] == {False} and kinds["Reorganize"] == {False}
    assert True in kinds["Build"]


def test_the_widening_admits_one_more_decision_at_each_square():
    """``_admitted``: 1 + isqrt(visits // widening), in native integer steps."""
    import math

    for widening in (1, 3, 4):
        for visits in range(2000):
            assert mcts._admitted(visits, widening) == 1 + math.isqrt(visits // widening)


def test_reward_is_half_the_win_and_half_the_share_of_points():
    game = lv.new_game("revised", 3, 5)
    s = game.state
    for p, score in zip(s.players, (30, 10, 20)):
        p.score = score
    s.result = Result(reason="end_card", winner=0, ranking=[0, 2, 1])
    assert mcts._reward(s) == pytest.approx([0.5 + 0.5 * 30 / 60, 0.5 * 10 / 60, 0.5 * 20 / 60])


@pytest.mark.slow
def test_mcts_beats_random_players():
    """The first player searches (mcts:20), the three others play ``random``: over 12 seeds it wins more than
    half the games (a random player would win a quarter of them)."""
    wins = 0
    for i in range(12):
        seed = 4_000_000 + i
        game = lv.new_game("revised", 4, seed)
        B.play(game, [B.bot_named("mcts:20")] + [B.bot_named("random")] * 3, seed)
        wins += game.result.winner == 0
    assert wins > 6


@pytest.mark.parametrize("spec, message", [
    ("mcts:0", "mcts playouts per decision"), ("mcts:-3", "mcts playouts"), ("mcts:fast", "mcts playouts"),
    ("mcts:0s", "seconds per decision"),
])
def test_bad_budgets_are_refused(spec, message):
    with pytest.raises(LvError, match=message):
        B.bot_named(spec)


def test_budgets():
    assert B.bot_named("mcts").playouts == 200
    assert B.bot_named("mcts:50").playouts == 50
    assert B.bot_named("mcts:0.25s").seconds == 0.25
    game = lv.new_game("revised", 4, 5)
    legal = game.legal_actions()
    assert len(legal) > 1
    assert attrs.evolve(B.bot_named("mcts:1s"), seconds=0.05)(game, legal, random.Random(0)) in mcts.choices(legal)


def test_the_search_runs_on_a_quiet_engine_and_leaves_it_as_it_found_it():
    """The imagined games run on a quiet engine (their events were thrown away: now the unread ones are not
    made, Engine.quiet), and the game's engine is as it was after the decision, quiet or not."""
    seen = []

    def policy(view, legal, rng):
        seen.append(view.engine.quiet)
        return B.greedy_bot(view, legal, rng)

    for quiet in (False, True):
        game = lv.new_game("revised", 3, seed=2, quiet=quiet)
        bot = attrs.evolve(B.bot_named("mcts:20"), policy=policy)
        legal = game.legal_actions()
        seen.clear()
        assert bot(game, legal, random.Random(0)) in mcts.choices(legal)
        assert seen and set(seen) == {True}
        assert game.engine.quiet is quiet


@pytest.mark.slow
@pytest.mark.parametrize("players, seed, spec, digest", [
    (2, 11, "mcts:6", "3fc19bec7f723f9a"), (4, 3, "mcts:12", "b9d3d07d2d8d2851")])
def test_seeded_games_are_pinned(players, seed, spec, digest):
    """The search's speed-ups (the root's order made once, the priors of a list at once, the unseen cards sorted
    once) left its games as they were: these records, made before them, byte for byte (their hashes). The
    4-player game is the one a wrong value for a gamble's half stake changes."""
    import hashlib

    game = lv.new_game("revised", players, seed)
    B.play(game, [B.bot_named(spec)] + [B.greedy_bot] * (players - 1), seed)
    text = dumps(record_of(game, "revised"), "json")
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == digest


@pytest.mark.slow
@pytest.mark.parametrize("spec, players, seed, bots, digest", [
    ("revised", 4, 4, ["mcts:5"] * 4, "c8f2c25e3b777570"),
    ("original", 3, 5, ["mcts:5", "mcts:5", "random"], "9083a5d17ae47d43"),  # the boss's lay-off asked
    ("revised+f-block", 2, 6, ["mcts:20", "mcts:20"], "42b2bbe21c96665e")])
def test_the_search_made_cheaper_plays_the_same_games(spec, players, seed, bots, digest):
    """The search's cost cut (issue 29.5: the playouts' list of greedy's kinds only, the search compiled, one
    sampled Dice a search, shuffles by ``chance.below``) left its games as they were: records of games where every
    seat searches, made before the cut, byte for byte (their hashes), under three profiles."""
    import hashlib

    game = lv.new_game(spec, players, seed)
    B.play(game, [B.bot_named(b) for b in bots], seed)
    text = dumps(record_of(game, spec), "json")
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == digest
