"""Which rule does what (lv/explain.py, lv explain): changes by rulebook point, their effects over paired games,
Shapley shares that add up, and changes that never mattered, with planted effects."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

import lv
from lv import cli, explain, simulate
from lv.diff import first_difference, turn_digests
from lv.errors import LvError

# A synthetic pair with planted effects. No parameter raises only the starting money (both formulas give the
# same amount: every card's money is 10 minus its lot's die, rules-diff row 7), so the money is planted in the
# parking lots' income, paid from the first draw on; beside it a change that cannot bind in a 4-player game
# (the F-block rule is for 2 players), one that only renames the colours, and the starting money's formula.
A = "original"
B = ("original,payout.lot_income=3,f_block.closed_when=two_players,players.colors=[black, white, pink, orange],"
     "setup.starting_money=twenty_minus_dice")
GAMES = 10


def run(*args: str):
    return CliRunner().invoke(cli.app, list(args))


@pytest.fixture(scope="module")
def planted() -> dict:
    return explain.explain(A, B, 4, GAMES, seed=3, bots=["greedy"], resamples=50,
                           metrics=["winner_money", "winner_margin"])


def by_name(result: dict) -> dict:
    return {c["name"]: c for c in result["changes"]}


def test_changes_come_by_rulebook_point_with_citations():
    o, r = lv.load_profile("original"), lv.load_profile("revised")
    found = {c.name: c for c in explain.changes(o, r)}
    assert found["raise"].keys == ("raise.enabled", "raise.cost_per_space", "raise.max_height")
    assert found["players"].keys == ("players.max", "players.colors")
    assert found["riser_cost"].keys == ("sprawl.riser_cost",) and found["join_rule"].keys == ("casino.join_rule",)
    assert sum(len(c.keys) for c in found.values()) == 14 and len(found) == 11
    each = explain.changes(o, r, each_parameter=True)
    assert [c.name for c in each][:3] == ["players.max", "players.colors", "setup.starting_money"]
    grouped = {c.name: c for c in explain.changes(o, r, [["raise.enabled", "raise.cost_per_space",
                                                           "raise.max_height", "sprawl.riser_cost"]])}
    assert "riser_cost" not in grouped
    assert set(grouped["enabled+cost_per_space+max_height+riser_cost"].keys) == {
        "raise.enabled", "raise.cost_per_space", "raise.max_height", "sprawl.riser_cost"}
    with pytest.raises(LvError, match="unknown parameter 'raise.nope'"):
        explain.changes(o, r, [["raise.nope"]])
    with pytest.raises(LvError, match="none of these parameters differs"):
        explain.changes(o, r, [["payout.lot_income"]])


def test_a_change_that_is_no_profile_alone_is_refused_in_one_line():
    with pytest.raises(LvError, match="do not give a valid profile.*--group"):
        explain.plan("original", "revised", each_parameter=True)


def test_specs_of_the_subsets_replace_an_override_they_already_have():
    assert explain.with_values("revised,raise.cost_per_space=10", {"raise.cost_per_space": 15}) == \
        "revised,raise.cost_per_space=15"
    assert explain.value_text(["black", "blue"]) == "[black, blue]" and explain.value_text(True) == "true"
    p = explain.plan(A, B, permutations=0)
    assert p.method == "none" and len(p.labels) == 2 + 2 * 4  # A, B, each A + change, each B - change
    assert p.labels[0] == A and p.labels[p.full] == B


def test_the_planted_money_is_found_with_its_sign(planted):
    money = by_name(planted)["payout.lot_income"]
    for effect in ("alone", "removed", "shapley"):
        e = money[effect]["winner_money"]
        assert e["mean"] > 0 and e["low"] > 0, (effect, e)
    assert money["mattered"]["alone"]["changed"] == GAMES and money["mattered"]["alone"]["median_first_turn"] == 1
    assert money["note"] is None and planted["changes"][0]["name"] == "payout.lot_income"  # ranked first


@pytest.mark.parametrize("name, why", [("f_block", "the rule is for other player counts"),
                                       ("players", "the two values give the same amounts"),  # colours only
                                       ("starting_money", "the two values give the same amounts")])
def test_a_change_that_cannot_bind_is_flagged(planted, name, why):
    """The F-block rule in a 4-player game, new colours, the other formula for the same starting money: no game
    changed, alone or removed, and each is said to be one that cannot apply here, with the reason."""
    c = by_name(planted)[name]
    assert c["mattered"]["alone"]["changed"] == c["mattered"]["removed"]["changed"] == 0
    assert c["verdict"]["alone"]["verdict"] == c["verdict"]["removed"]["verdict"] == "cannot_apply"
    assert c["verdict"]["alone"]["why"] == why
    assert c["note"].startswith(f"cannot apply here (alone and removed): {why}")
    assert c["shapley"]["winner_money"]["mean"] == 0 and c["alone"]["turns"]["mean"] == 0
    text = "\n".join(explain.lines(planted))
    assert f"{name}: cannot apply here (alone and removed): {why}" in " ".join(text.split())


def test_shapley_shares_add_up_to_the_whole_difference(planted):
    assert planted["shapley"]["method"] == "exact" and planted["shapley"]["profiles"] == 16
    for m, total in planted["shapley_sum"].items():
        whole = planted["whole"][m]["mean"]
        assert (total is None) == (whole is None) or m == "decisiveness", m
        if total is not None and whole is not None:
            assert total == pytest.approx(whole, abs=1e-9), m


def test_sampled_shares_add_up_too_and_say_so():
    r = explain.explain(A, "original,payout.lot_income=3,sprawl.cost_multiplier=3,remodel.cost_per_unit=6", 3, 3,
                        seed=1, bots=["greedy"], resamples=20, exact_up_to=2, permutations=4,
                        metrics=["winner_money"])
    assert r["shapley"]["method"] == "sampled" and r["shapley"]["permutations"] == 4
    assert "sampled: 4 orders of the 3 changes" in r["shapley"]["note"] and "exact would need" in r["shapley"]["note"]
    assert r["shapley_sum"]["winner_money"] == pytest.approx(r["whole"]["winner_money"]["mean"], abs=1e-9)


def test_exact_shapley_of_a_known_game():
    """Two changes, one game: v(none)=0, v(x)=4, v(y)=2, v(both)=10: x's share is (4 + (10 - 2)) / 2 = 6."""
    values = {0: [0.0], 1: [4.0], 2: [2.0], 3: [10.0]}
    weights = [0.5, 0.5]
    assert explain._shapley(values, 0, 2, "exact", weights, []) == [6.0]
    assert explain._shapley(values, 1, 2, "exact", weights, []) == [4.0]
    assert explain._shapley(values, 0, 2, "sampled", weights, [(0, 1), (1, 0)]) == [6.0]


def test_interaction_risers_in_sprawls_need_the_raise_action():
    """sprawl.riser_cost does nothing where no casino is raised: alone it never matters, and the report says it
    works only with other changes."""
    r = explain.explain("revised,raise.enabled=false,sprawl.riser_cost=0", "revised", 4, 2, seed=0,
                        bots=["greedy"], resamples=20, metrics=["turns"])
    riser = by_name(r)["riser_cost"]
    assert riser["mattered"]["alone"]["changed"] == 0
    assert riser["alone"]["winner_money"]["mean"] == 0
    assert riser["verdict"]["alone"]["verdict"] == "cannot_apply"  # no rule reads the riser cost without risers
    assert riser["verdict"]["alone"]["why"] == "no rule reads it here"
    if riser["mattered"]["removed"]["changed"]:
        assert riser["note"].startswith("alone cannot apply here: no rule reads it here") and \
            "it works only with other changes" in riser["note"]


@pytest.mark.slow
def test_the_same_seed_gives_the_same_json_in_a_pool_and_on_dask():
    args = dict(a=A, b="original,payout.lot_income=2,f_block.closed_when=always", players=3, games=6, seed=5,
                bots=["random"], resamples=30)
    serial = json.dumps(explain.explain(workers=1, **args))
    pool = json.dumps(explain.explain(workers=2, batch=2, **args))
    assert serial == pool
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0") as lc:
        with distributed.Client(lc) as client:
            on_dask = json.dumps(explain.explain(client=client, batch=4, **args))
    assert on_dask == serial


def test_digests_tell_games_apart_but_not_colours():
    units = [simulate.Unit(0, 7, spec, 4, ("greedy",) * 4) for spec in
             ("original", "original,players.colors=[a1, b1, c1, d1]", "original,payout.lot_income=2")]
    games = []
    for u in units:
        game = lv.new_game(u.profile, 4, u.seed)
        lv.bots.play(game, [lv.bots.bot_named("greedy")] * 4, u.seed)
        games.append(turn_digests(game))
    assert first_difference(games[0], games[1]) is None
    assert first_difference(games[0], games[2]) == 1  # the first draw pays the lots
    assert first_difference(games[0], games[0][:-1]) == len(games[0]) - 1


@pytest.mark.slow
def test_the_command_prints_a_table_of_80_columns_and_writes_every_output(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    b = "original,payout.lot_income=2,f_block.closed_when=two_players"
    res = run("explain", A, b, "--games", "3", "--workers", "1", "--seed", "2", "--examples", str(tmp_path / "ex"),
              "--html", str(tmp_path / "report.html"), "--metric", "winner_money")
    assert res.exit_code == 0, res.output
    assert f"lv: 1 example pair in {tmp_path / 'ex'}" in res.stderr  # f_block changed no game: no pair
    assert max(len(line) for line in res.stdout.splitlines()) <= 80
    assert "winner_money: the winner's money" in res.stdout and "cannot apply here" in res.stdout
    assert "payout.lot_income: game 0 (alone), the games part at turn 1: lv diff" in " ".join(res.stdout.split())
    page = (tmp_path / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "http" not in page.replace(
        "http://www.w3.org/2000/svg", "")
    assert 'href="ex/01-payout.lot_income/diff.html#turn=1"' in page  # the viewer opens at the turn they part
    pair = tmp_path / "ex" / "01-payout.lot_income"
    assert (pair / "diff.html").is_file()
    diff = run("diff", str(pair / "without.yaml"), "-v", "original,payout.lot_income=2", "--json")
    assert diff.exit_code == 0 and json.loads(diff.stdout)["first_divergence"]["turn"] == 1
    res_json = run("explain", A, b, "--games", "3", "--workers", "1", "--seed", "2", "--json")
    data = json.loads(res_json.stdout)
    assert data["ranked_by"] == list(explain.DEFAULT_METRICS) and data["games"] == 3
    assert data["ranked_by"][:4] == ["winner_score", "winner_margin", "casinos_built", "decisions"]
    res_csv = run("explain", A, b, "--games", "3", "--workers", "1", "--seed", "2", "--csv")
    rows = list(csv.reader(io.StringIO(res_csv.stdout)))
    assert rows[0] == ["players", "bots", "change", "effect", "metric", "mean", "low", "high", "n", "p", "holm",
                       "sparse", "verdict"]
    assert ["4", "greedy,greedy,greedy,greedy", "f_block", "changed_alone", "", "0.0", "", "", "3", "", "", "",
            "cannot_apply"] in rows


def test_examples_of_changes_that_changed_no_game_are_none_and_said_so(tmp_path):
    res = run("explain", "revised", "revised,gamble.bet_per_tile=4", "--games", "1", "--workers", "1",
              "--examples", str(tmp_path / "ex"))
    assert res.exit_code == 0 and f"lv: no example pairs in {tmp_path / 'ex'}: no change changed a game" in res.stderr
    assert not list((tmp_path / "ex").iterdir())


def test_bad_input_is_one_line(tmp_path):
    (tmp_path / "a-file").write_text("")
    (tmp_path / "a-folder.html").mkdir()
    for args, message in ((("revised", "revised"), "have the same parameters"),
                          (("original", "revised", "--metric", "nope"), "--metric nope: unknown"),
                          (("original", "revised", "--permutations", "-1"), "--permutations -1"),
                          (("original", "revised", "--exact-up-to", "0", "--permutations", str(10**20)),
                           f"--permutations {10**20}: give 0 (no Shapley shares) to 100,000"),
                          (("original", "revised", "--exact-up-to", "-1"), "--exact-up-to -1: give 0"),
                          (("original", "revised", "--exact-up-to", "21"), "--exact-up-to 21: give 0"),
                          (("original", "revised", "--html", str(tmp_path / "x.txt")), "give a file ending in .html"),
                          # the outputs' folders are checked before the games are played, not after
                          (("original", "revised", "--html", str(tmp_path / "no" / "x.html")), "no such folder"),
                          (("original", "revised", "--examples", str(tmp_path / "no" / "ex")), "no such folder"),
                          (("original", "revised", "--examples", str(tmp_path / "a-file")), "--examples"),
                          (("original", "revised", "--plot", str(tmp_path / "no" / "p")), "--plot"),
                          (("original", "revised", "--html", str(tmp_path / "a-folder.html")), "not a regular file")):
        res = run("explain", *args, "--games", "1", "--workers", "1")
        assert res.exit_code == 2 and res.stderr.count("\n") == 1 and message in res.stderr, res.stderr


@pytest.mark.slow
def test_a_sweep_warns_of_a_value_that_changed_no_game():
    """The README's grid: the greedy bot's bets never reach the cap, so bet_per_tile=5 plays the games of 4."""
    res = run("simulate", "-v", "revised", "--set", "gamble.bet_per_tile=4,5", "--set", "payout.lot_income=1,2",
              "--games", "3", "--workers", "1")
    assert res.exit_code == 0, res.output
    assert ("lv: warning: --set gamble.bet_per_tile=5: never mattered in 3 games under 'revised': every game is "
            "the same as with gamble.bet_per_tile=4") in " ".join(res.stderr.split())
    assert "payout.lot_income=2: never" not in res.stderr


@pytest.mark.slow
def test_the_searching_bot_explains_too():
    r = explain.explain("original", "original+f-block", 2, 1, seed=0, bots=["mcts:2"], resamples=10,
                        metrics=["turns"])
    assert r["bots"] == ["mcts:2", "mcts:2"] and r["changes"][0]["mattered"]["alone"]["changed"] == 1
