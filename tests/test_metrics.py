"""Metrics of finished games (lv/metrics.py) on hand-made records, and the statistics written by hand.

Every expected figure below was worked out by hand from the rulebook and the board data (variants/board.yaml),
step by step in the docstrings, not copied from the program's output."""

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lv import metrics
from lv.record import parse_record
from lv.replay import replay

# Revised, 3 players. Cards: A4 and B1 pay gold (sphinx), C1 and D1 silver (tivoli). Lots: A4 $12 die 4.
HAND = """
format: lv-game/1
profile: revised
players: [red, blue, green]
position:
  current: red
  phase: draw
  players: {red: {money: 10}, blue: {money: 10}, green: {money: 10}}
  tiles: {B2: gold red 2, C4: silver blue 2, D2: brown green 3}
  deck: [A4, C1, D1, B1, END]
turns:
  - player: red
    decisions: [build A4 gold]
  - player: blue
    decisions: [{do: gamble B2 1, dice: {gamble: [1, 2]}}]
  - player: green
  - player: red
  - player: blue
"""

INSTANT = """
format: lv-game/1
profile: revised
players: [red, blue, green]
position:
  current: red
  phase: draw
  players: {red: {money: 10, score: 73}, blue: {money: 10, score: 81}, green: {money: 10}}
  tiles: {B1: gold h3 red 2, B2: gold h3 red 2, B3: gold h3 red 2,
          C1: gold h2 red 1, C2: gold h2 red 1, C4: gold h2 red 1, C5: gold h2 red 1}
  deck: [A4, END]
turns:
  - player: red
"""


def summary(text):
    return metrics.summarize(replay(parse_record(text, "hand.yaml")).game)


def test_summary_of_a_five_turn_game():
    """003 Steps 1-5 L295-416, "Action - Build" L526-540, "Action - Gamble" L740-803, "Winning" L908-916.

    T1 red draws A4: marker, lots pay red $1, gold pays B2 (die 2) $2, red scores 1 (0->1): red leads.
       red builds A4 gold: $13-12 = $1. T2 blue draws C1: blue $1+$2, scores 1 (tie 1-1: red still leads);
       gambles $1 at B2 (cap: red has $1), rolls 3, wins: red $0, blue $14. T3 green draws D1 (silver):
       lots blue $1 green $1, C4 pays blue $2, blue scores 1 -> 2: blue leads (change 1). T4 red draws B1:
       lots red/blue/green $1, gold pays A4 $4 and B2 $2 (red $7), red scores 1 and 1 -> 3: red leads
       (change 2). T5 blue draws the end card: lots pay again (red $8, blue $19, green $13); no casino touches
       the Strip. Red wins on points 3-2-0."""
    g = summary(HAND)
    assert (g["reason"], g["winner"], g["winner_seat"], g["first_player"]) == ("end_card", 0, 1, 0)
    assert g["turns"] == 5
    assert g["decisions"] == 2
    assert g["by_kind"] == {"build": 1, "sprawl": 0, "remodel": 0, "reorganize": 0, "raise": 0, "gamble": 1,
                            "trade": 0, "end": 4}
    assert g["scores"] == [3, 2, 0] and g["money"] == [8, 19, 13]
    assert (g["winner_score"], g["winner_money"], g["score_spread"]) == (3, 8, 3)
    assert g["lead_changes"] == 2
    assert (g["casinos_built"], g["casinos"], g["largest_casino"], g["average_height"]) == (1, 4, 1, 1.0)
    assert metrics.METRICS["lead_change"][1](g) == pytest.approx(2 / 5)
    assert metrics.METRICS["end_card"][1](g) == 1.0 and metrics.METRICS["instant_win"][1](g) == 0.0


def test_the_kinds_counted_are_the_tables_and_a_house_rules_only_where_its_profile_names_it(monkeypatch):
    """The decisions counted per game come from the action families' table (the draw's are not counted); a house
    rule's action (a family that brings a profile section) is counted in the games of a profile that names its
    section, so a profile without it gives the same summary as before. Stand-in family ``tip``."""
    import attrs

    from lv import actions as A
    from lv import profile as P

    assert metrics.KINDS == ("build", "sprawl", "remodel", "reorganize", "raise", "gamble", "trade", "end")

    @attrs.frozen
    class Tip:
        enabled: bool = False

    @attrs.frozen
    class TipDecision:
        kind = "tip"

    family = A.Family(name="tip", order=65, decisions=(TipDecision,), verbs=("tip",), parameters=Tip)
    monkeypatch.setattr(P, "_EXTENSIONS", {"tip": Tip})
    monkeypatch.setattr(A, "FAMILIES", tuple(sorted((*A.FAMILIES, family), key=lambda f: f.order)))
    from lv import load_profile
    assert metrics.kinds_of(load_profile("revised")) == metrics.KINDS
    assert metrics.kinds_of(load_profile("revised,tip.enabled=true")) == (
        "build", "sprawl", "remodel", "reorganize", "raise", "gamble", "tip", "trade", "end")


def test_summary_of_an_instant_win_from_a_position():
    """003 "Step 4" L404-416 (smallest casino first), "Winning" L917-921; score track 73 -> 81 -> 90.

    Blue leads 81-73 at the start. Red draws A4 (gold): the 4-space 2-high casino (8 points) scores first,
    73+8 = 81, then the 3-space 3-high one (9 points), 81+9 = 90: the instant win, in the first turn, with no
    decision taken. Red gets $1 (A4) + 4 + 6 pips = $21. The lead passed from blue to red: one change."""
    g = summary(INSTANT)
    assert (g["reason"], g["winner"], g["turns"], g["decisions"]) == ("instant_win", 0, 1, 0)
    assert g["scores"] == [90, 81, 0] and g["money"] == [21, 10, 10]
    assert (g["winner_score"], g["winner_money"], g["score_spread"]) == (90, 21, 90)
    assert g["lead_changes"] == 1
    assert (g["casinos"], g["largest_casino"], g["average_height"]) == (2, 4, 2.5)
    assert metrics.METRICS["instant_win"][1](g) == 1.0


def test_seats_count_from_the_player_who_took_the_first_turn():
    g = {"winner": 0, "winner_seat": 3}  # seat 3 in turn order is player 1 in seating order
    seat = metrics.seat_metrics(4)
    assert seat["advantage_p1"][1](g) == 0.0
    assert seat["win.seat3"][1](g) == 1.0 and seat["win.player1"][1](g) == 1.0


def test_t_quantiles():
    """Student's t, two-sided 95%: 12.706 (1 df), 2.042 (30 df), 1.984 (100 df), 1.962 (1000 df)."""
    assert metrics.t975(1) == 12.706 and metrics.t975(30) == 2.042
    assert metrics.t975(100) == pytest.approx(1.984, abs=5e-4)
    assert metrics.t975(1000) == pytest.approx(1.962, abs=5e-4)
    assert metrics.t975(31) < metrics.t975(30)


def test_mean_and_interval_by_hand():
    """[1, 2, 3, 4]: mean 2.5, s = sqrt(5/3), s/sqrt(4) = 0.6455, t(3) = 3.182: 2.5 -+ 2.054."""
    e = metrics.estimate([1, 2, 3, None, 4])
    assert (e.mean, e.n) == (2.5, 4)
    half = 3.182 * math.sqrt(5 / 3) / 2
    assert e.low == pytest.approx(2.5 - half) and e.high == pytest.approx(2.5 + half)
    assert metrics.estimate([]).mean is None
    assert metrics.estimate([7]).to_dict() == {"mean": 7.0, "low": None, "high": None, "n": 1}
    # nine 0s and a 1: mean 0.1, s = 1/sqrt(10), s/sqrt(10) = 0.1, t(9) = 2.262: -0.126 clipped to 0, 0.326
    share = metrics.estimate([0] * 9 + [1], share=True)
    assert share.low == 0.0 and share.high == pytest.approx(0.1 + 0.2262)


def test_paired_difference_by_hand():
    """Differences 1, 2, 3: mean 2, s = 1, t(2) = 4.303: 2 -+ 4.303/sqrt(3) = 2 -+ 2.484."""
    e = metrics.paired([1, 2, 3], [2, 4, 6])
    assert e.mean == 2.0
    assert e.low == pytest.approx(2 - 4.303 / math.sqrt(3)) and e.high == pytest.approx(2 + 4.303 / math.sqrt(3))


def test_balance():
    """Seats won 1, 1, 2, 3 of 4: rates 1/2, 1/4, 1/4, 0; the largest gap 1/2: Balance 0.5."""
    assert metrics.balance([1, 1, 2, 3], 4) == 0.5
    assert metrics.balance([1, 2, 3, 4], 4) == 1.0
    assert metrics.balance([None], 4) is None


def test_bootstrap_is_seeded_and_brackets_the_value():
    seats = [1, 2, 3, 4, 1, 2, 3, 1] * 10
    stat = lambda idx: metrics.balance([seats[i] for i in idx], 4)  # noqa: E731
    a = metrics.bootstrap(stat, len(seats), random.Random(1), 300)
    b = metrics.bootstrap(stat, len(seats), random.Random(1), 300)
    assert a == b
    assert a[0] <= metrics.balance(seats, 4) <= a[1]


def test_compare_pairs_games_by_index():
    """Two profiles, three games: A's winners in seats 1, 2, 1 with 30, 32, 31 turns; B's in 1, 1, 1 with 31,
    33, 34. Turns: B - A = 1, 1, 3 (mean 5/3); AdvantageP1: 2/3 and 1; Balance A: rates 2/3, 1/3, 0 -> 1/3;
    B: 1, 0, 0 -> 0."""
    def game(seat, turns):
        return {"winner": seat - 1, "winner_seat": seat, "turns": turns, "decisions": 10, "winner_score": 20,
                "winner_money": 5, "score_spread": 4, "reason": "end_card", "lead_changes": 1, "casinos_built": 3,
                "largest_casino": 2, "average_height": 1.0, "by_kind": dict.fromkeys(metrics.KINDS, 1)}

    a = [game(1, 30), game(2, 32), game(1, 31)]
    b = [game(1, 31), game(1, 33), game(1, 34)]
    out = metrics.compare(["A", "B"], {"A": a, "B": b}, 3, seed=1, resamples=200)
    assert out["estimates"]["A"]["advantage_p1"]["mean"] == pytest.approx(2 / 3)
    assert out["estimates"]["B"]["advantage_p1"]["mean"] == 1.0
    assert out["estimates"]["A"]["balance"]["mean"] == pytest.approx(1 / 3)
    assert out["estimates"]["B"]["balance"]["mean"] == 0.0
    diff = out["differences"]["B - A"]
    assert diff["turns"]["mean"] == pytest.approx(5 / 3)
    assert diff["balance"]["mean"] == pytest.approx(-1 / 3)
    assert diff["advantage_p1"]["mean"] == pytest.approx(1 / 3)


def test_decisiveness_drama_and_branching_of_the_five_turn_game():
    """The game of ``test_summary_of_a_five_turn_game``: points after each turn (red, blue, green) 1-0-0,
    1-1-0, 1-2-0, 3-2-0, 3-2-0, so the leader after each turn is red, red (a tie keeps the leader), blue, red,
    red. Red, the winner, leads for good from turn 4: 4 of the 5 turns were played before, decisiveness 4/5.
    Drama: red was 1 point behind blue after turn 3, and never further: 1. Branching: the mean of the legal
    counts the driver saw (3, 5, 4): 4."""
    game = replay(parse_record(HAND, "hand.yaml")).game
    g = metrics.summarize(game, [3, 5, 4])
    assert g["decisiveness"] == 0.8
    assert g["drama"] == 1
    assert g["branching"] == 4.0
    assert metrics.summarize(game)["branching"] is None  # a game read from a record: no legal counts
    for name, value in (("decisiveness", 0.8), ("drama", 1), ("branching", 4.0)):
        assert metrics.METRICS[name][1](g) == value


def test_decisiveness_and_drama_of_a_game_won_in_its_only_turn():
    """The instant win: blue leads 81-73 at the start (red 8 behind: drama 8); red leads only after the last
    (first) turn, so the whole game was played before the lead was settled: decisiveness 1."""
    g = summary(INSTANT)
    assert (g["decisiveness"], g["drama"]) == (1.0, 8)


def test_decisiveness_by_hand():
    """Leaders before the first turn and after each of 4 turns; winner 0."""
    assert metrics._decisiveness([None, 0, 0, 0, 0], 0) == 0.25  # leads after turn 1 for good: 1 of 4
    assert metrics._decisiveness([0, 0, 0, 0, 0], 0) == 0.0  # led from the start (a position)
    assert metrics._decisiveness([None, 1, 0, 1, 0], 0) == 1.0  # took it for good only after the last turn
    assert metrics._decisiveness([None, 0, 0, 0, 1], 0) == 1.0  # won on money, not leading on points
    assert metrics._decisiveness([None, 1, 0, 0, 0], None) is None


def test_length_spread_by_hand():
    """Turns 27, 31, 31, 35: mean 31, squared deviations 16, 0, 0, 16: sd sqrt(32/4) = 2.828. Quartiles
    interpolated between the sorted values: Q1 at position 0.75 = 27 + 0.75 * 4 = 30, Q3 at 2.25 = 31 + 0.25 *
    4 = 32: IQR 2."""
    sd, iqr = metrics.SPREADS["turns_sd"][2], metrics.SPREADS["turns_iqr"][2]
    assert sd([27, 31, 31, 35]) == pytest.approx(math.sqrt(8))
    assert iqr([27, 31, 31, 35]) == 2.0
    assert sd([]) is None and iqr([31]) is None


@pytest.mark.slow
@given(st.lists(st.integers(0, 400), max_size=60) | st.lists(st.integers(20, 23), min_size=1000, max_size=1200))
def test_the_spreads_of_counts_are_the_spreads_of_the_list(values):
    """The report's spreads, computed from each value's count (``SPREAD_OF_COUNTS``), are the very floats the
    statistics give over the list (``SPREADS``): same bits, so the report is the same byte for byte."""
    counts = [0] * (max(values, default=0) + 1)
    for v in values:
        counts[v] += 1
    for name, (_, _, stat) in metrics.SPREADS.items():
        got, want = metrics.SPREAD_OF_COUNTS[name](counts), stat(sorted(values))
        assert got == want and (got is None or math.copysign(1, got) == math.copysign(1, want)), name


def test_compare_gives_the_length_spread_and_its_paired_difference():
    """A: turns 30, 30, 30, 30 (sd 0, IQR 0); B: 28, 30, 32, 34 (sd sqrt(5), IQR 3: Q1 at 0.75 = 29.5, Q3 at
    2.25 = 32.5). The differences B - A: sqrt(5) and 3, each with a bootstrap interval around it."""
    def game(turns):
        return {"winner": 0, "winner_seat": 1, "turns": turns, "decisions": 10, "winner_score": 20,
                "winner_money": 5, "score_spread": 4, "reason": "end_card", "lead_changes": 1, "casinos_built": 3,
                "largest_casino": 2, "average_height": 1.0, "by_kind": dict.fromkeys(metrics.KINDS, 1),
                "branching": 10.0, "decisiveness": 0.5, "drama": 2}

    a = [game(30)] * 4
    b = [game(t) for t in (28, 30, 32, 34)]
    out = metrics.compare(["A", "B"], {"A": a, "B": b}, 3, seed=1, resamples=200)
    assert out["estimates"]["A"]["turns_sd"]["mean"] == 0.0 and out["estimates"]["A"]["turns_iqr"]["mean"] == 0.0
    assert out["estimates"]["B"]["turns_sd"]["mean"] == pytest.approx(math.sqrt(5))
    assert out["estimates"]["B"]["turns_iqr"]["mean"] == 3.0
    diff = out["differences"]["B - A"]
    assert diff["turns_sd"]["mean"] == pytest.approx(math.sqrt(5)) and diff["turns_iqr"]["mean"] == 3.0
    assert diff["turns_sd"]["low"] <= math.sqrt(5) <= diff["turns_sd"]["high"]
    assert out["estimates"]["B"]["branching"]["mean"] == 10.0 and out["estimates"]["B"]["drama"]["mean"] == 2
    assert set(out["metrics"]) >= {"branching", "decisiveness", "drama", "turns_sd", "turns_iqr"}


@pytest.mark.parametrize("spec,players,bot", [("revised", 4, "uniform"), ("original", 3, "greedy"),
                                               ("original,raise.enabled=true", 2, "uniform")])
def test_a_quiet_game_is_the_same_game_with_the_same_figures_and_makes_no_unread_events(spec, players, bot):
    """A simulation that keeps no record plays quiet games (``new_game(..., quiet=True)``, Engine.quiet): the
    events only a record or the narrative reads are not made; the game, its record's decisions and the metrics
    are those of the full game."""
    import lv
    from lv import bots
    from lv.events import CardDrawn, MarkerPlaced, Paid, TurnStarted

    games = []
    for quiet in (False, True):
        game = lv.new_game(spec, players, seed=5, quiet=quiet)
        counts: list[int] = []
        bots.play(game, [bots.bot_named(bot)] * players, 5, legal_counts=counts)
        games.append((game, metrics.summarize(game, counts)))
    (full, figures), (quiet, quiet_figures) = games
    assert quiet_figures == figures
    assert (quiet.state.players, quiet.state.tiles, quiet.state.deck, quiet.state.result) == (
        full.state.players, full.state.tiles, full.state.deck, full.state.result)
    assert ([[d.action for d in t.decisions] for t in quiet.history]
            == [[d.action for d in t.decisions] for t in full.history])
    unread = (Paid, TurnStarted, CardDrawn, MarkerPlaced)
    assert any(isinstance(e, unread) for e in full.events())
    assert not any(isinstance(e, unread) for e in quiet.events())
    assert quiet.copy().engine.quiet and not full.copy().engine.quiet
