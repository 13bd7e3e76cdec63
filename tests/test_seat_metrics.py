"""Issue 32: seat metrics (lv/metrics.py) with 3 to 6 players, against games counted by hand. With 2 players a
seat counted the wrong way round the table is the same seat; from 3 on it is not.

A game's seat of the winner is read here from the game itself: the players of its first n turns are the seats in
turn order (seat 1 took the first turn); the win rates by seat and by player, AdvantageP1 and Balance are then
counted from those."""

from __future__ import annotations

from collections import Counter

import pytest

import lv
from lv import bots as B
from lv import metrics

SEEDS = range(6)


def played(players: int, seed: int) -> lv.Game:
    game = lv.new_game("revised", players, seed)
    B.play(game, [B.random_kind_bot] * players, seed)
    return game


def seat_by_hand(game: lv.Game) -> int:
    """The winner's place in the turn order of the game's first round (1: the first to play)."""
    n = len(game.state.players)
    order = [t.player for t in game.history[:n]]
    assert sorted(order) == list(range(n))  # one round: each player once
    return order.index(game.result.winner) + 1


@pytest.fixture(scope="module")
def games() -> dict[int, list[lv.Game]]:
    return {n: [played(n, seed) for seed in SEEDS] for n in (3, 4, 5, 6)}


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_winner_s_seat_counts_round_the_table_from_the_first_player(games, n):
    rows = [metrics.summarize(g) for g in games[n]]
    assert [r["winner_seat"] for r in rows] == [seat_by_hand(g) for g in games[n]]
    assert [r["first_player"] for r in rows] == [g.history[0].player for g in games[n]]
    assert [r["players"] for r in rows] == [n] * len(SEEDS)


def test_the_games_tell_the_two_directions_round_the_table_apart(games):
    """At least one game where counting the other way round gives another seat (else the test above could not
    fail for that mistake)."""
    other = [((g.history[0].player - g.result.winner) % n) + 1 for n in (3, 4, 5, 6) for g in games[n]]
    right = [seat_by_hand(g) for n in (3, 4, 5, 6) for g in games[n]]
    assert sum(a != b for a, b in zip(other, right)) >= 5


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_win_rates_by_seat_and_by_player_advantage_and_balance(games, n):
    rows = [metrics.summarize(g) for g in games[n]]
    agg = metrics.Aggregate(["revised"], n)
    for r in rows:
        agg.add([r])
    est = agg.report(seed=1, resamples=20)["estimates"]["revised"]
    seats = Counter(seat_by_hand(g) for g in games[n])
    winners = Counter(g.result.winner for g in games[n])
    total = len(SEEDS)
    for k in range(1, n + 1):
        assert est[f"win.seat{k}"]["mean"] == pytest.approx(seats[k] / total), k
        assert est[f"win.player{k}"]["mean"] == pytest.approx(winners[k - 1] / total), k
    assert f"win.seat{n + 1}" not in est and f"win.player{n + 1}" not in est
    assert est["advantage_p1"]["mean"] == pytest.approx(seats[1] / total)
    rates = [seats[k] / total for k in range(1, n + 1)]
    assert est["balance"]["mean"] == pytest.approx(1 - (max(rates) - min(rates)))
    assert est["balance"]["n"] == total


@pytest.mark.parametrize("n,seats,expected", [
    (3, [1, 1, 2, 3, None], 1 - (2 / 4 - 1 / 4)),
    (4, [1, 2, 3, 4], 1.0),
    (4, [2, 2, 3, 3], 1 - 0.5),  # seats 1 and 4 never win
    (5, [5, 5, 5], 0.0),
    (6, [1, 2, 3, 4, 5, 6, 6, None], 1 - (2 / 7 - 1 / 7)),
    (3, [None, None], None),
])
def test_balance_counts_every_seat_even_one_that_never_won(n, seats, expected):
    got = metrics.balance(seats, n)
    assert got == (pytest.approx(expected) if expected is not None else None)
    counts = [sum(1 for s in seats if s is None)] + [seats.count(k) for k in range(1, n + 1)]
    assert metrics.balance_of_counts(counts, n) == got


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_seat_metrics_name_each_seat_and_player_once(n):
    table = metrics.seat_metrics(n)
    assert sorted(table) == sorted(["advantage_p1"] + [f"win.seat{k}" for k in range(1, n + 1)]
                                   + [f"win.player{k}" for k in range(1, n + 1)])
    row = {"winner_seat": 2, "winner": 0}
    assert [table[f"win.seat{k}"][1](row) for k in range(1, n + 1)] == [0.0, 1.0] + [0.0] * (n - 2)
    assert [table[f"win.player{k}"][1](row) for k in range(1, n + 1)] == [1.0] + [0.0] * (n - 1)
    assert table["advantage_p1"][1]({"winner_seat": 1, "winner": 2}) == 1.0


def test_the_bootstrap_takes_the_2_5th_and_97_5th_percentiles_of_its_resamples():
    """With a statistic that gives 0, 1, 2, ... in turn, the resampled values are 0..R-1: the interval is
    values[int(0.025 (R - 1))] to values[ceil(0.975 (R - 1))] (R = 81: 2 and 78; R = 42: 1 and 40)."""
    import random

    for resamples, expected in ((81, (2, 78)), (42, (1, 40))):
        calls = iter(range(resamples))
        got = metrics.bootstrap(lambda _: float(next(calls)), 3, random.Random(0), resamples)
        assert got == expected, resamples


def test_the_bootstrap_needs_two_games_and_gives_an_interval_from_two():
    import random

    assert metrics.bootstrap(lambda xs: float(sum(xs)), 1, random.Random(0), 50) == (None, None)
    lo, hi = metrics.bootstrap(lambda xs: float(sum(xs)), 2, random.Random(0), 50)
    assert lo is not None and hi is not None and 0 <= lo <= hi <= 2
