"""lv explain's answers a designer can trust (issue 30): the three verdicts on a change that changed no game, the
winner-changed share, the sparse interval of a change that altered few games, Holm's marks and power per table,
the summary backed by the tables, player counts and line-ups side by side, --games-out, and the cost up front."""

from __future__ import annotations

import csv
import json
import random
from collections import Counter

import pytest
from typer.testing import CliRunner

from lv import cli, explain, simulate, stats
from lv.profile import load_profile

A = "original"
SMALL = "original,payout.lot_income=2,f_block.closed_when=two_players"  # two changes: 4 profiles


def run(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def one_change(a: str, b: str) -> explain.Change:
    (c,) = explain.changes(load_profile(a), load_profile(b))
    return c


# ---------------------------------------------------------------------------------------------- the verdicts


def test_a_rule_for_other_player_counts_cannot_apply():
    b = "original,f_block.closed_when=two_players"
    c = one_change(A, b)
    v = explain.verdict(c, load_profile(A), load_profile(b), 4, 0, 100, Counter(), Counter(), ["greedy"] * 4)
    assert v["verdict"] == "cannot_apply" and v["why"] == "the rule is for other player counts"
    assert v["reasons"][0]["key"] == "f_block.closed_when"
    # at 2 players the rule applies: a silence there is no "cannot apply"
    v2 = explain.verdict(c, load_profile(A), load_profile(b), 2, 0, 100, Counter(), Counter(), ["greedy"] * 2)
    assert v2["verdict"] == "not_reached"


def test_two_values_that_give_the_same_amounts_cannot_apply_and_say_which():
    b = "original,setup.starting_money=twenty_minus_dice"
    v = explain.verdict(one_change(A, b), load_profile(A), load_profile(b), 4, 0, 50, Counter(), Counter(), ["greedy"])
    assert v["verdict"] == "cannot_apply" and v["why"] == "the two values give the same amounts"
    assert "setup.starting_money: both values give the same starting money" in v["reason"]
    # without risers every casino is 1 high: the join rule by height and the scoring order by points change nothing
    for b in ("original,casino.join_rule=color_and_height", "original,scoring.order=ascending_points"):
        v = explain.verdict(one_change(A, b), load_profile(A), load_profile(b), 4, 0, 50, Counter(), Counter(), [])
        assert v["verdict"] == "cannot_apply" and v["why"] == "the two values give the same amounts", b
        b2 = "revised," + b.split(",")[1].replace("color_and_height", "color").replace("ascending_points",
                                                                                          "ascending_spaces")
        v = explain.verdict(one_change(b2, "revised"), load_profile(b2), load_profile("revised"), 4, 0, 50, Counter(),
                            Counter(), [])
        assert v["verdict"] == "not_reached", b2  # with risers both rules apply
    # a parameter no rule reads where there are no risers
    b = "original,sprawl.riser_cost=15"
    v = explain.verdict(one_change(A, b), load_profile(A), load_profile(b), 4, 0, 50, Counter(), Counter(), ["greedy"])
    assert v["verdict"] == "cannot_apply" and v["why"] == "no rule reads it here"


def test_a_decision_no_bot_takes_is_not_exercised_and_names_the_bots():
    b = "revised,remodel.cost_per_unit=1"
    c = one_change("revised", b)
    pa, pb = load_profile("revised"), load_profile(b)
    v = explain.verdict(c, pa, pb, 4, 0, 30, Counter({"remodel": 12, "build": 40}), Counter({"build": 20}),
                        ["greedy", "random", "greedy", "greedy"])
    assert v["verdict"] == "not_exercised" and v["offered"] == 12 and v["taken"] == 0
    assert v["reason"] == "remodel was offered 12 times and no player took it in 30 games (bots: greedy,random)"
    taken = explain.verdict(c, pa, pb, 4, 0, 30, Counter({"remodel": 12}), Counter({"remodel": 1}), ["greedy"])
    assert taken["verdict"] == "not_reached" and taken["upper_bound"] == pytest.approx(1 - 0.05 ** (1 / 30))


def test_the_lay_off_is_read_from_the_games_decision_counts_whatever_its_kind_is_called():
    """Today no player is asked about the lay-off: not exercised, never "cannot apply". Once the boss is asked
    (a decision kind lay_off, layoff or lay_off_...), the same code counts it."""
    b = "original,gamble.lay_off=none"
    c = one_change(A, b)
    pa, pb = load_profile(A), load_profile(b)
    v = explain.verdict(c, pa, pb, 4, 0, 40, Counter({"gamble": 30}), Counter({"gamble": 9}), ["greedy"])
    assert v["verdict"] == "not_exercised" and v["reason"].startswith("no player was offered a lay_off decision")
    for kind in ("lay_off", "layoff", "lay_off_accept"):
        asked = explain.verdict(c, pa, pb, 4, 0, 40, Counter({kind: 5}), Counter({kind: 2}), ["greedy"])
        assert asked["verdict"] == "not_reached" and asked["offered"] == 5, kind


def test_greedy_never_remodels_in_real_games():
    r = explain.explain("revised", "revised,remodel.cost_per_unit=1", 4, 2, seed=0, bots=["greedy"], resamples=20,
                        metrics=["turns"])
    (c,) = r["changes"]
    assert c["mattered"]["alone"]["changed"] == 0
    v = c["verdict"]["alone"]
    assert v["verdict"] == "not_exercised" and v["offered"] > 0 and v["taken"] == 0 and "greedy" in v["reason"]
    assert r["decisions"]["revised"]["offered"]["remodel"] > 0 and "remodel" not in r["decisions"]["revised"]["taken"]


# ---------------------------------------------------------------------------------------------- planted effects


@pytest.fixture(scope="module")
def one_game() -> dict:
    g = simulate._play(load_profile(A), A, 0, 0, 4, ["greedy"] * 4, None, decisions=True)
    assert g["winner"] is not None
    return g


def test_a_change_that_alters_k_of_n_games_gets_the_sparse_interval_and_the_right_counts(monkeypatch, one_game):
    """A synthetic change: +5 points to the winner in games 0..k-1 of n (the winner itself changed in the first
    two), nothing elsewhere. Its effect rests on k pairs: the paired bootstrap, not a t interval."""
    n, k, b = 60, 7, "original,payout.lot_income=2"

    def played(tasks, workers, client, fn):
        out = []
        for i in range(n):
            ga = {**one_game, "index": i, "profile": A}
            gb = {**ga, "profile": b}
            if i < k:
                gb["winner_score"] = ga["winner_score"] + 5
                if i < 2:
                    gb["winner"] = (ga["winner"] + 1) % 4
                    gb["winner_seat"] = (gb["winner"] - ga["first_player"]) % 4 + 1
            first = [[3, 3]] if i < k else [[None, None]]
            out.append({"a": ga, "b": gb, "alone": [gb], "removed": [ga], "first": first, "shapley": None})
        yield out

    monkeypatch.setattr(simulate, "run_batches", played)
    r = explain.explain(A, b, 4, n, seed=5, bots=["greedy"], permutations=0, metrics=["winner_score"], resamples=50)
    (c,) = r["changes"]
    e = c["alone"]["winner_score"]
    assert e["sparse"] == k and e["method"] == "paired bootstrap" and e["n"] == n
    assert e["mean"] == pytest.approx(5 * k / n)
    low, high, p = stats.sparse_interval([5.0] * k, n, random.Random(f"lv/5/{c['name']}/alone/winner_score/sparse"))
    assert (e["low"], e["high"], e["p"]) == (low, high, p)
    assert c["mattered"]["alone"]["changed"] == k and c["verdict"]["alone"]["verdict"] == "changed"
    w = c["outcome"]["alone"]["winner_changed"]
    assert (w["changed"], w["pairs"]) == (2, n) and (w["low"], w["high"]) == stats.clopper_pearson(2, n)
    assert c["outcome"]["alone"]["path_changed"]["changed"] == k
    st = r["statistics"]["winner_score"]
    assert st["sparse"] >= 1 and "rests on fewer than 30 changed pairs" in explain.statistics_note(st, n,
                                                                                                   "winner_score")
    assert "~" in explain.marks(e)


def test_holm_marks_in_a_table():
    result = {"whole": {"m": {"p": 0.001, "low": 1.0, "high": 3.0, "n": 100, "mean": 2.0}},
              "changes": [{"alone": {"m": {"p": 0.06, "low": 0.1, "high": 1.0, "n": 100, "mean": 0.5}},
                           "removed": {"m": {"p": 0.012, "low": 0.2, "high": 1.0, "n": 100, "mean": 0.6}},
                           "shapley": {"m": {"p": None, "low": 0.0, "high": 0.0, "n": 100, "mean": 0.0}}}]}
    st = explain.holm_table(result, "m")  # 0.001 <= 0.05/3, 0.012 <= 0.05/2, then 0.06 > 0.05
    assert [result["whole"]["m"]["holm"], result["changes"][0]["alone"]["m"]["holm"],
            result["changes"][0]["removed"]["m"]["holm"]] == [True, False, True]
    assert (st["intervals"], st["significant"], st["holm"]) == (3, 2, 2)
    assert explain.marks(result["whole"]["m"]) == "#" and explain.marks(result["changes"][0]["alone"]["m"]) == ""
    result["changes"][0]["removed"]["m"]["p"] = 0.03  # 0.03 > 0.05/2: it stops, and 0.06 after it
    assert explain.holm_table(result, "m")["holm"] == 1 and not result["changes"][0]["removed"]["m"]["holm"]
    assert st["mde_whole"] == pytest.approx(stats.mde(1.0, 3.0, 100))


# ---------------------------------------------------------------------------------------------- the report


@pytest.fixture(scope="module")
def report() -> dict:
    b = SMALL + ",setup.starting_money=twenty_minus_dice"
    return explain.report(A, b, [4], [["greedy"]], 6, seed=1, resamples=50)


def test_the_summary_s_sentences_match_the_table(report):
    run_ = report["runs"][0]
    text = "\n".join(explain.lines(report, width=100))
    table = " ".join(text.split())
    first = report["summary"][0]
    m = run_["ranked_by"][0]
    whole = explain.interval(run_["whole"][m], m)
    assert f"B - A changes the winner's points by {whole}" in first["text"] and f"B - A: {whole}" in table
    top = next(e for e in run_["changes"] if e["name"] == first["backed_by"][1]["change"])
    share = explain.interval(top["shapley"][m], m)
    assert share in first["text"]
    rows = text.splitlines()  # the change's row of the table (a long name is on a line of its own, above it)
    at = rows.index(next(r for r in rows[rows.index(f"{m}: the winner's points"):] if r.startswith(top["name"])))
    assert share in rows[at] + rows[at + 1]
    assert top is next(e for e in run_["changes"] if explain.category(e) == "changed")  # the largest that changed
    for sentence in report["summary"]:
        for verdict, words in (("cannot_apply", "cannot apply"), ("not_exercised", "not exercised"),
                               ("not_reached", "not reached")):
            if words in sentence["text"]:
                named = {row["change"] for row in sentence["backed_by"]}
                assert named == {e["name"] for e in run_["changes"] if explain.category(e) == verdict}
    cannot = next(s for s in report["summary"] if "cannot apply" in s["text"])
    assert "f_block (the rule is for other player counts)" in cannot["text"]
    assert "starting_money (the two values give the same amounts)" in cannot["text"]
    assert text.index("Summary:") < text.index("winner_score: the winner's points")
    for sentence in report["summary"]:  # every sentence is in the printed summary
        assert sentence["text"] in table


def test_every_change_has_a_winner_changed_share_and_every_table_a_power_line(report):
    run_ = report["runs"][0]
    for e in run_["changes"]:
        for side in ("alone", "removed"):
            w = e["outcome"][side]["winner_changed"]
            assert w["pairs"] == 6 and 0 <= w["low"] <= w["high"] <= 1
            assert set(e["outcome"][side]["seats"]) == {"seat1", "seat2", "seat3", "seat4"}
    assert set(run_["statistics"]) == set(explain.DEFAULT_METRICS)
    text = " ".join(explain.lines(report).__iter__())
    assert "survives Holm's correction" in text and "Outcome: the share of the paired games whose winner" in text
    assert text.count("Power:") == len(explain.DEFAULT_METRICS)  # a power line per table


@pytest.mark.slow
def test_players_side_by_side_line_ups_games_out_and_html(tmp_path):
    res = run("explain", A, SMALL, "--players", "2,4", "--bot", "greedy", "--bot", "random", "--games", "2",
              "--workers", "1", "--json", "--html", str(tmp_path / "r.html"), "--games-out", str(tmp_path / "g.csv"))
    assert res.exit_code == 0, res.output
    assert res.stderr.startswith("lv: 2 changes, exact Shapley shares (2^2): 4 profiles x 2 games x 4 runs")
    data = json.loads(res.stdout)
    assert data["players"] == [2, 4] and [len(x) for x in data["lineups"]] == [2, 2]
    assert [(r["players"], r["bots"][0]) for r in data["runs"]] == [(2, "greedy"), (2, "random"), (4, "greedy"),
                                                                   (4, "random")]
    for r in data["runs"]:
        f_block = next(e for e in r["changes"] if e["name"] == "f_block")
        if r["players"] == 4:
            assert explain.category(f_block) == "cannot_apply"
        else:
            assert f_block["verdict"]["alone"]["verdict"] == "changed"  # block F closed: another deal
    page = (tmp_path / "r.html").read_text()
    assert page.index('id="summary"') < page.index("<table") and "Side by side" in page and "Outcome" in page
    rows = list(csv.DictReader((tmp_path / "g.csv").open()))
    assert len(rows) == 4 * 2 * 4  # profiles x games x runs
    assert {(r["players"], r["changes"]) for r in rows if r["game"] == "0"} >= {("2", "(none)"), ("4", "payout.lot_income+f_block")} or \
        {(r["players"], r["changes"]) for r in rows if r["game"] == "0"} >= {("2", "(none)"), ("4", "f_block+payout.lot_income")}
    assert {r["bots"] for r in rows} == {"greedy,greedy", "random,random", "greedy,greedy,greedy,greedy",
                                         "random,random,random,random"}


@pytest.mark.slow
def test_the_cost_comes_first_and_a_plan_past_the_budget_is_refused_before_planning():
    c = explain.cost("original", "revised", 100, runs=2)
    assert (c["changes"], c["profiles"], c["games"]) == (11, 146, 146 * 100 * 2)
    assert c["profiles"] == len(explain.plan("original", "revised").labels)
    # 14 parameters one by one, exact: 2^14 profiles; refused before the plan is built (which would fail anyway)
    res = run("explain", "original", "revised", "--each-parameter", "--exact-up-to", "20", "--games", "100")
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
    assert "16,384 profiles x 100 games" in res.stderr and "--force" in res.stderr
    res = run("explain", "original", "revised", "--exact-up-to", "0", "--permutations", "100000")
    assert res.exit_code == 2 and "at most 2,048 profiles" in res.stderr
    res = run("explain", "original", "revised", "--players", "2,x")
    assert res.exit_code == 2 and "--players 2,x" in res.stderr and res.stderr.count("\n") == 1
    res = run("explain", "original", "revised", "--players", "2,99999999999999999999")  # refused, not sized
    assert res.exit_code == 2 and "--players 99999999999999999999: profile 'original' allows 2 to 4" in res.stderr


def test_a_worker_keeps_the_tables_of_the_profiles_it_holds_and_no_others():
    """The leak behind 690 MiB a worker: every profile's prepared tables were kept for good (the cache held the
    profile). Now they go with their profile, and consecutive tasks of one run share the profile objects."""
    import gc

    from lv import actions
    from lv.board import load_board
    from lv.profile import from_values

    profile = from_values(load_profile("revised").values(), "revised", "t", "revised,x")
    actions.tables_for(profile, load_board())
    key = (id(profile), id(load_board()))
    assert key in actions._TABLES
    del profile
    gc.collect()
    assert key not in actions._TABLES
    tasks = list(simulate.batches(["original", "revised"], 2, 2, 0, ["random"], size=1))
    first, second = simulate.task_profiles(tasks[0]), simulate.task_profiles(tasks[1])
    assert all(first[label] is second[label] for label in first)
    other = simulate.task_profiles(next(simulate.batches(["original,payout.lot_income=2"], 2, 1, 0, ["random"])))
    assert all(p is not first["original"] for p in other.values())
