"""Issue 32: ``lv explain``'s "did it matter" fields (the share of pairs that differ, the median first turn where
they do) and the interaction flag, asserted against games played and compared here, by hand, with 3 players.

Two planted changes from the original rules: ``payout.lot_income=3`` (the parking lots pay from the first draw:
every game differs from turn 1) and ``sprawl.cost_multiplier=4`` (sprawls cost double: a game differs from its
first sprawl on, a different turn in each game). The games are played again here with the same seeds and bots
(``simulate.game_seed``) and compared turn by turn, independently of ``diff.turn_digests``."""

from __future__ import annotations

import math

import pytest

import lv
from lv import bots as B
from lv import explain, simulate

A = "original"
X = "payout.lot_income=3"
Y = "sprawl.cost_multiplier=4"
PLAYERS, GAMES, SEED = 3, 8, 15


@pytest.fixture(scope="module")
def report() -> dict:
    return explain.explain(A, f"{A},{X},{Y}", PLAYERS, GAMES, seed=SEED, bots=["greedy"], resamples=30,
                           metrics=["winner_money"])


def played(spec: str, index: int) -> lv.Game:
    seed = simulate.game_seed(SEED, index)
    game = lv.new_game(lv.load_profile(spec), PLAYERS, seed)
    B.play(game, [B.bot_named("greedy")] * PLAYERS, seed)
    return game


def steps(game: lv.Game) -> list:
    """The setup, then each turn: its cards, its draw's events and its decisions with their events."""
    def ev(events):
        return [(e.kind, tuple(e.items())) for e in events if e.kind not in ("turn_started", "turn_ended")]
    out = [ev(game.setup_events)]
    for t in game.history:
        out.append((list(t.cards), ev(t.draw_events), [(d.action, ev(d.events)) for d in t.decisions]))
    return out


def first_turn(a: lv.Game, b: lv.Game) -> int | None:
    sa, sb = steps(a), steps(b)
    for i in range(max(len(sa), len(sb))):
        if i >= len(sa) or i >= len(sb) or sa[i] != sb[i]:
            return i
    return None


@pytest.fixture(scope="module")
def by_hand() -> dict:
    """For each change: the first differing turn of each pair, alone (A + change vs A) and removed (B vs B - the
    change), and the per-game interaction of the winner's money (effect removed - effect alone, as
    ``metrics.difference`` takes them)."""
    specs = {"a": A, "x": f"{A},{X}", "y": f"{A},{Y}", "b": f"{A},{X},{Y}"}
    games = [{k: played(s, i) for k, s in specs.items()} for i in range(GAMES)]

    def money(g: lv.Game) -> int:
        return g.state.players[g.result.winner].money

    out = {}
    for name, alone, without in (("payout.lot_income", "x", "y"), ("sprawl.cost_multiplier", "y", "x")):
        out[name] = {
            "alone": [first_turn(g["a"], g[alone]) for g in games],
            "removed": [first_turn(g[without], g["b"]) for g in games],
            "interaction": [(money(g["b"]) - money(g[without])) - (money(g[alone]) - money(g["a"])) for g in games],
        }
    return out


def lower_median(turns: list[int]) -> int:
    ordered = sorted(turns)
    return ordered[(len(ordered) - 1) // 2]


@pytest.mark.parametrize("name", ["payout.lot_income", "sprawl.cost_multiplier"])
@pytest.mark.parametrize("side", ["alone", "removed"])
def test_the_share_and_median_first_turn_are_the_games_counted_by_hand(report, by_hand, name, side):
    firsts = [t for t in by_hand[name][side] if t is not None]
    m = {c["name"]: c for c in report["changes"]}[name]["mattered"][side]
    assert m["games"] == GAMES and m["changed"] == len(firsts)
    assert m["share"] == len(firsts) / GAMES
    assert m["median_first_turn"] == lower_median(firsts)
    assert m["example_turn"] == by_hand[name][side][m["example_game"]]


def test_the_planted_first_turns_are_what_the_rules_say(by_hand):
    """Lot income is paid at the first draw (000 "Step 2: Collect"); a sprawl's cost matters from a sprawl on."""
    assert by_hand["payout.lot_income"]["alone"] == [1] * GAMES
    sprawl = by_hand["sprawl.cost_multiplier"]["alone"]
    assert all(t is not None and t > 1 for t in sprawl) and len(set(sprawl)) > 2  # medians of spread turns
    assert lower_median(sprawl) != sorted(sprawl)[len(sprawl) // 2]  # the lower median, not the upper


def test_the_interaction_flag_and_its_mean_are_the_games_counted_by_hand(report, by_hand):
    for name in ("payout.lot_income", "sprawl.cost_multiplier"):
        c = {c["name"]: c for c in report["changes"]}[name]
        values = by_hand[name]["interaction"]
        e = c["interaction"]["winner_money"]
        assert e["mean"] == pytest.approx(math.fsum(values) / GAMES) and e["n"] == GAMES
        assert all(v < 0 for v in values)  # the two effects differ the same way in every game
        assert e["high"] < 0 and "winner_money" in c["interacts"]
        assert "turns" not in c["interacts"]  # no change moves the end card: the same number of turns
        assert c["interaction"]["turns"]["mean"] == 0


def test_a_change_that_changed_no_game_has_share_0_no_median_and_no_interaction():
    r = explain.explain(A, f"{A},players.colors=[black, white, pink, orange]", PLAYERS, 3, seed=SEED,
                        bots=["greedy"], resamples=20, metrics=["winner_money"])
    (c,) = r["changes"]
    for side in ("alone", "removed"):
        assert c["mattered"][side] == {"games": 3, "changed": 0, "share": 0.0, "median_first_turn": None,
                                       "example_game": None, "example_turn": None}
    # a change of names only: lv says it cannot apply (the same seating), not just that it never mattered
    assert c["interacts"] == [] and c["note"].startswith("cannot apply here")
