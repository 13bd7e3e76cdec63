"""lv balance (issue 30, item 7): the verdicts known before playing, the figures on planted games, the restricted
line-ups, the same report for the same seed, and the command line's refusals and budget."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import lv
from lv import balance
from lv.events import Scored

ROOT = Path(__file__).resolve().parent.parent


def _lv(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lv", *args], capture_output=True, text=True, cwd=ROOT)


def test_verdicts_before_playing():
    original, revised = lv.load_profile("original"), lv.load_profile("revised")
    by_kind = {v["kind"]: v for v in balance.verdicts(original, "greedy", None)}
    # the original edition has no Raise action: forbidding it cannot apply
    assert by_kind["raise"]["verdict"] == "cannot apply" and not by_kind["raise"]["play"]
    # greedy never remodels (bots.never_takes): forbidding it is not exercised, and names the bot
    assert by_kind["remodel"]["verdict"] == "not exercised" and "greedy" in by_kind["remodel"]["reason"]
    assert by_kind["gamble"]["play"] and by_kind["gamble"]["verdict"] is None
    assert {v["kind"]: v["play"] for v in balance.verdicts(revised, "random", None)} == {
        "build": True, "sprawl": True, "remodel": True, "reorganize": True, "raise": True, "gamble": True}


def _seat_rows(winners: list[int]) -> list[dict]:
    return [{"winner_seat": w, "margin": 3, "lead_changes": 1, "behind_at_half": False, "decisiveness": 0.5,
             "turns": 30, "decisions": 60} for w in winners]


def _rotated(players: int, deals: int, first_wins: bool) -> list[dict]:
    """A ladder's results where the line-up's first bot (index 0) wins every game, or never does."""
    out = []
    for d in range(deals):
        for r in range(players):
            seats = [(s - r) % players for s in range(players)]
            winner = seats.index(0) if first_wins else seats.index(1)
            out.append({"deal": d, "rotation": r, "seats": seats, "winner": winner})
    return out


def test_section_on_planted_games():
    players, deals = 3, 40
    known = [{"kind": "gamble", "play": True, "verdict": None, "reason": None},
             {"kind": "raise", "play": False, "verdict": "cannot apply", "reason": "the profile has no raise decision"}]
    rotated = {"skill": _rotated(players, deals, True), "luck": _rotated(players, deals, False),
               "no-gamble": _rotated(players, deals, False)}
    # seat 1 wins every game but one in 60, seat 3 that one: seat 1's advantage is planted
    s = balance.section("revised", players, "greedy", "random", _seat_rows([1] * 59 + [3]), rotated, known)
    seats = {r["metric"]: r for r in s["seats"]}
    assert seats["seat 1"]["mean"] == pytest.approx(59 / 60) and seats["seat 1"]["holm"]
    assert seats["seat 2"]["mean"] == 0.0
    assert seats["seat 3"]["mean"] == pytest.approx(1 / 60)
    skill = {r["metric"]: r for r in s["skill"]}
    assert skill["skill"]["mean"] == 1.0 and skill["luck"]["mean"] == 0.0
    kinds = {r["kind"]: r for r in s["kinds"]}
    assert kinds["gamble"]["mean"] == 0.0 and kinds["gamble"]["importance"] == pytest.approx(1 / 3)
    assert kinds["gamble"]["n"] == deals  # one value per deal, the interval's unit
    assert kinds["raise"]["verdict"] == "cannot apply" and kinds["raise"]["mean"] is None
    assert s["deals"] == deals


def _split(players: int, deals: int, won: int) -> list[dict]:
    """A ladder's results where the line-up's first bot wins ``won`` of each deal's ``players`` rotated games."""
    out = []
    for d in range(deals):
        for r in range(players):
            seats = [(s - r) % players for s in range(players)]
            out.append({"deal": d, "rotation": r, "seats": seats,
                        "winner": seats.index(0) if r < won else seats.index(1)})
    return out


def test_every_deal_split_alike_is_an_interval_not_a_point():
    """Each of 10 deals won 2 games in 4: every deal's share is 0.5, a t interval of width 0 ('50.0% [50.0,
    50.0]', as certain as a thousand deals). The exact binomial interval over the deals, 5 successes in 10 (a
    deal's share counting as that part of one), as for every deal won or lost (and as lv ladder's)."""
    s = balance.section("revised", 4, "greedy", "random", _seat_rows([1, 2, 3, 4] * 5),
                        {"skill": _split(4, 10, 2), "luck": _split(4, 10, 4)}, [])
    skill, luck = s["skill"]
    assert skill["mean"] == 0.5 and skill["n"] == 10
    assert (skill["low"], skill["high"]) == pytest.approx((0.187086, 0.812914), abs=1e-6)  # Clopper-Pearson 5/10
    assert balance.cell(skill, True) == "50.0% [18.7, 81.3]"
    assert luck["mean"] == 1.0 and (luck["low"], luck["high"]) == pytest.approx((0.691503, 1.0), abs=1e-6)  # 10/10


def test_holm_marks_only_what_survives():
    players = 2
    # seat 1 wins 55% of 400 games: within chance after the correction; a 50/50 seat split is not marked either
    rows = _seat_rows([1] * 220 + [2] * 180)
    s = balance.section("revised", players, "greedy", "random", rows, {"skill": _rotated(2, 10, True), "luck": _rotated(2, 10, False)}, [])
    assert [r["holm"] for r in s["seats"]] == [False, False]
    rows = _seat_rows([1] * 300 + [2] * 100)
    s = balance.section("revised", players, "greedy", "random", rows, {"skill": _rotated(2, 10, True), "luck": _rotated(2, 10, False)}, [])
    assert [r["holm"] for r in s["seats"]] == [True, True]


def test_restricted_lineups_never_take_the_kind():
    rotated = lv.ladder.play(*[balance.lineups(3, "random", "random", ["build"])["no-build"]], "revised", 3, 6, 5)
    assert len(rotated) == 6
    for g in rotated:
        first = g["seats"].index(0)
        assert g["kinds"][first].get("build", 0) == 0
    # the unrestricted random players of the same games do build (the restriction, not the deal, is why)
    assert any(g["kinds"][s].get("build", 0) for g in rotated for s in range(3) if g["seats"][s] != 0)


def _game(turns: list[list[tuple[int, int, int]]], winner: int, final: list[int]) -> SimpleNamespace:
    """A finished game as behind_at_half reads it: per turn, the (player, before, after) of its Scored events."""
    history = [SimpleNamespace(draw_events=[Scored(p, [], after - before, before, after) for p, before, after in t],
                               decisions=[]) for t in turns]
    players = [SimpleNamespace(score=x) for x in final]
    return SimpleNamespace(history=history, state=SimpleNamespace(result=SimpleNamespace(winner=winner),
                                                                  players=players))


def test_behind_at_half_on_planted_games():
    # 4 turns, the half after turn 2: player 1 leads 5 to 2 then; player 0 wins 9 to 6
    turns = [[(0, 0, 2)], [(1, 0, 5)], [(0, 2, 9)], [(1, 5, 6)]]
    assert balance.behind_at_half(_game(turns, 0, [9, 6])) is True
    assert balance.behind_at_half(_game(turns, 1, [9, 6])) is False  # the leader at the half won
    # tied for the lead at the half (2 and 2): nobody leads alone, so the winner was behind
    tied = [[(0, 0, 2)], [(1, 0, 2)], [(0, 2, 9)], [(1, 2, 3)]]
    assert balance.behind_at_half(_game(tied, 0, [9, 3])) is True
    # a player who scores first after the half counts with its score before it (1: behind player 0's 2), not
    # with its final (9) nor with 0 (at 3, it led at the half)
    late = [[(0, 0, 2)], [], [(1, 1, 9)], []]
    assert balance.behind_at_half(_game(late, 1, [2, 9])) is True
    led = [[(0, 0, 2)], [], [(1, 3, 9)], []]
    assert balance.behind_at_half(_game(led, 1, [2, 9])) is False
    assert balance.behind_at_half(_game([[(0, 0, 1)]], 0, [1, 0])) is None  # one turn: no half


def test_no_player_count_is_refused():
    with pytest.raises(lv.LvError, match="give one player count or several"):
        balance.run(["revised"], [], "greedy", "random", 4)
    with pytest.raises(lv.LvError, match="each once"):
        balance.check(["revised"], [2, 2], "greedy", "random", 4, None)


def test_same_seed_same_report():
    a = balance.run(["revised"], [2], "greedy", "random", 4, 3, ["gamble"])
    b = balance.run(["revised"], [2], "greedy", "random", 4, 3, ["gamble"])
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert [r["metric"] for r in a["sections"][0]["kinds"]] == ["no-gamble"]


@pytest.mark.slow
def test_cli_json_and_html(tmp_path):
    page = tmp_path / "b.html"
    proc = _lv("balance", "original", "revised", "--players", "2", "--games", "4", "--workers", "1", "--json",
               "--html", str(page), "--kind", "raise,gamble", "-q")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    kinds = {s["profile"]: {r["kind"]: r for r in s["kinds"]} for s in data["sections"]}
    assert kinds["original"]["raise"]["verdict"] == "cannot apply"
    assert kinds["revised"]["raise"]["verdict"] is None and kinds["revised"]["raise"]["n"] == 2
    text = page.read_text()
    assert "Seat advantage" in text and "<svg" in text and "cannot apply" in text


@pytest.mark.parametrize("args, words", [
    (["revised", "--games", "0"], "--games 0"),
    (["revised", "revised"], "each profile once"),
    (["revised", "--kind", "fly"], "--kind fly"),
    (["revised", "--bot", "nobot"], "bot 'nobot'"),
    (["revised", "--players", "9"], "--players 9"),
    (["revised", "--games", "1000000", "--players", "2,3,4,5"], "past the budget"),
    (["revised", "--html", "r.txt"], "--html r.txt"),
])
@pytest.mark.slow
def test_cli_refusals(args, words):
    proc = _lv("balance", *args)
    assert proc.returncode == 2, proc.stderr
    assert words in proc.stderr and "Traceback" not in proc.stderr and proc.stdout == ""
