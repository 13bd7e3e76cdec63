"""The ladder (lv/ladder.py, ``lv ladder``; issue 29, item 1): its rating model on planted strengths, the seat
rotation, determinism, and the command line's errors."""

import collections
import itertools
import json
import random

import pytest
from typer.testing import CliRunner

import lv
from lv import bots, cli, ladder
from lv.errors import LvError
from lv.metrics import estimate


def planted(strengths, players, deals, seed=0, sits=None):
    """Results of games whose rankings are drawn from a Plackett-Luce model of the given strengths (a strength of
    None: always first), seated as the ladder seats them (``ladder.schedule``), as ``ladder.play`` returns them."""
    rng = random.Random(seed)
    out = []
    for deal, r, seats in ladder.schedule(len(strengths), players, deals * players, seed):
        left, ranking = list(range(players)), []
        while left:
            sure = [s for s in left if strengths[seats[s]] is None]
            if sure:
                pick = sure[0]
            else:
                pick = rng.choices(left, weights=[strengths[seats[s]] for s in left])[0]
            ranking.append(pick)
            left.remove(pick)
        scores = [0] * players
        for place, seat in enumerate(ranking):
            scores[seat] = 10 * (players - place)
        out.append({"deal": deal, "rotation": r, "seats": list(seats), "ranking": ranking, "winner": ranking[0],
                    "scores": scores, "turns": 30, "cpu": [0.001] * players, "calls": [10] * players,
                    "kinds": [{"build": 1, "end": 9}] * players})
    return out


@pytest.mark.slow
def test_a_bot_that_always_wins_ranks_first_and_clear_of_the_rest():
    """Planted: bot 1 always finishes first; the others are equal. It ranks first, its interval above every other
    bot's, it finished ahead of every other in every game, and the luck line's bot never won."""
    specs = ["random", "greedy", "uniform", "random-kind"]
    results = planted([1.0, None, 1.0, 1.0], 4, 30)
    rep = ladder.report(results, specs, "revised", 4, seed=1, resamples=100)
    first = rep["ratings"][0]
    assert first["bot"] == "greedy" and first["wins"]["mean"] == 1.0
    assert all(first["low"] > r["high"] for r in rep["ratings"][1:])
    assert all(p["ahead"]["mean"] == 1.0 for p in rep["pairs"] if p["bot"] == "greedy")
    assert rep["luck"]["wins"]["mean"] == 0.0 and rep["luck"]["chance"] == 0.25


@pytest.mark.slow
@pytest.mark.parametrize("resamples", [0, 100])
def test_planted_strengths_come_out_in_order_and_copies_tie(resamples):
    """Planted strengths 4 : 2 : 1, and a copy of the strongest (a second entry of the same strength): the ladder's
    order is the planted one, and the two copies tie within their interval (each one's rating inside the other's
    interval), with either kind of interval."""
    specs = ["greedy", "random", "uniform", "greedy"]
    results = planted([4.0, 2.0, 1.0, 4.0], 4, 60, seed=3)
    rep = ladder.report(results, specs, "revised", 4, seed=1, resamples=resamples)
    by = {r["bot"]: r for r in rep["ratings"]}
    assert [r["bot"] for r in rep["ratings"]][2:] == ["random", "uniform"]
    a, b = by["greedy"], by["greedy #2"]
    assert a["low"] <= b["rating"] <= a["high"] and b["low"] <= a["rating"] <= b["high"]
    assert by["greedy"]["low"] > by["uniform"]["high"]


@pytest.mark.slow
def test_two_copies_of_a_bot_tie_in_a_real_ladder():
    """``greedy greedy random`` at 3 players, 60 games: both copies above random, and tied within their interval."""
    specs = ["greedy", "greedy", "random"]
    rep = ladder.report(ladder.play(specs, "revised", 3, 60, seed=2), specs, "revised", 3, seed=2, resamples=100)
    by = {r["bot"]: r for r in rep["ratings"]}
    a, b = by["greedy"], by["greedy #2"]
    assert a["low"] <= b["rating"] <= a["high"] and b["low"] <= a["rating"] <= b["high"]
    assert rep["ratings"][-1]["bot"] == "random" and rep["luck"]["bot"] == "random"


def test_the_rating_of_a_bot_with_two_seats_counts_both():
    """A bot holding two seats that finish first and last: the two updates cancel about evenly, where one seat
    alone would move it. The model, fed one game by hand."""
    game = {"deal": 0, "seats": [0, 1, 0], "ranking": [0, 1, 2]}
    (mu0, s0), (mu1, _) = ladder.rate([game], 2)
    one = ladder.rate([{"deal": 0, "seats": [0, 1], "ranking": [0, 1]}], 2)
    assert one[0][0] > 25 and abs(mu0 - 25) < one[0][0] - 25 and s0 < one[0][1]


@pytest.mark.parametrize("nbots,players", [(2, 2), (2, 4), (3, 4), (4, 4), (5, 4), (6, 3), (5, 2)])
def test_seat_rotation_puts_every_bot_in_every_seat(nbots, players):
    """Over the schedule (for more bots than seats, a whole cycle of the C(B, N) line-ups): every bot in every seat
    equally often; every deal's games are its line-up's rotations (each bot of the deal in every seat once); more
    bots than seats: every pair of bots meets equally often."""
    cycle = 1 if nbots <= players else len(list(itertools.combinations(range(nbots), players)))
    plan = ladder.schedule(nbots, players, 2 * cycle * players, seed=5)
    assert len(plan) == 2 * cycle * players
    seats = collections.Counter((b, s) for _, _, line in plan for s, b in enumerate(line))
    copies = collections.Counter(plan[0][2]) if nbots <= players else None
    for b in range(nbots):
        counts = {seats[(b, s)] for s in range(players)}
        assert len(counts) == 1 and counts != {0}, (b, seats)
        if copies is not None:
            assert counts == {2 * copies[b]}
    by_deal = collections.defaultdict(list)
    for deal, _, line in plan:
        by_deal[deal].append(line)
    for lines in by_deal.values():
        assert len(lines) == players
        for s in range(players):
            assert sorted(line[s] for line in lines) == sorted(lines[0])
    if nbots > players:
        meets = collections.Counter(pair for lines in by_deal.values()
                                    for pair in itertools.combinations(sorted(set(lines[0])), 2))
        assert len(set(meets.values())) == 1 and len(meets) == nbots * (nbots - 1) // 2


def test_a_deals_games_share_the_deal_and_differ_by_the_seats():
    """The games of a deal are played with the deal's seed (the same deck): their first cards drawn agree."""
    specs = ["random", "greedy"]
    results = ladder.play(specs, "revised", 2, 4, seed=7)
    assert [(g["deal"], g["rotation"], g["seats"]) for g in results] == \
        [(0, 0, [0, 1]), (0, 1, [1, 0]), (1, 0, [0, 1]), (1, 1, [1, 0])]
    assert all(g["calls"][s] > 0 and g["cpu"][s] >= 0 for g in results for s in range(2))


def _without_cpu(data):
    for r in data["ratings"]:
        assert r["cpu_seconds"] > 0 and r["cpu_per_decision"] > 0
        del r["cpu_seconds"], r["cpu_per_decision"]
    return data


@pytest.mark.slow
def test_same_seed_same_json_in_one_process_or_a_pool():
    """Everything but the CPU figures (measured) is the same, byte for byte, run again or played in 2 processes;
    another seed gives other games."""
    args = ["ladder", "random", "greedy", "greedy/no-gamble", "--players", "3", "--games", "12", "--seed", "4",
            "--json", "-q"]
    runs = [CliRunner().invoke(cli.app, args + ["--workers", w, "--force-workers"]) for w in ("1", "1", "2")]
    assert all(r.exit_code == 0 for r in runs), [r.output for r in runs]
    texts = [json.dumps(_without_cpu(json.loads(r.stdout))) for r in runs]
    assert texts[0] == texts[1] == texts[2]
    other = CliRunner().invoke(cli.app, args[:-4] + ["--seed", "5", "--json", "-q", "--workers", "1"])
    assert json.dumps(_without_cpu(json.loads(other.stdout))) != texts[0]
    data = json.loads(runs[0].stdout)
    assert data["games"] == 12 and data["deals"] == 4 and data["bots"] == ["random", "greedy", "greedy/no-gamble"]
    no_gamble = next(r for r in data["ratings"] if r["bot"] == "greedy/no-gamble")
    assert no_gamble["took"]["gamble"] == 0 and "gamble" in no_gamble["never_takes"]
    assert "trade" in data["not_exercised"]


@pytest.mark.slow
def test_table_csv_and_plots(tmp_path):
    args = ["ladder", "random", "greedy", "--players", "2", "--games", "6", "--seed", "1", "--workers", "1", "-q"]
    res = CliRunner().invoke(cli.app, args + ["--plot", str(tmp_path / "plots")])
    assert res.exit_code == 0, res.output
    assert "rating [95%]" in res.stdout and "luck: the lowest-rated bot" in res.stdout
    assert "6 games (3 deals x 2 seat rotations)" in res.stderr
    assert sorted(p.name for p in (tmp_path / "plots").iterdir() if not p.name.startswith(".")) == [
        "ladder-pairs.png", "ladder-pairs.svg", "ladder-ratings.png", "ladder-ratings.svg"]
    res = CliRunner().invoke(cli.app, args + ["--csv"])
    lines = res.stdout.splitlines()
    assert lines[0] == "section,bot,other,metric,value,low,high,n"
    assert any(line.startswith("pair,") and ",ahead," in line for line in lines)
    res = CliRunner().invoke(cli.app, ["ladder", "random", "greedy", "--players", "3", "--games", "4", "-q",
                                       "--workers", "1", "--json"])
    assert res.exit_code == 0 and "lv: 6 games: 2 deals of 3 seat rotations" in res.stderr


class OnlyFor:
    """A bot made for one profile (as a trained model is): it says so through ``check_profile``."""

    def __init__(self, name):
        self.name = name

    def __call__(self, game, legal, rng):
        return bots.greedy_bot(game, legal, rng)

    def check_profile(self, profile):
        if profile.name != self.name:
            raise LvError(f"bot 'trained': a model for '{self.name}', not '{profile.name}'")


@pytest.mark.parametrize("args,message", [
    (["nobody", "greedy"], "bot 'nobody': known bots are"),
    (["greedy"], "give at least 2 bots to rank (given 1)"),
    (["greedy", "random", "--games", "0"], "--games 0: give 1 to"),
    (["greedy", "random", "--players", "7"], "--players 7: profile 'revised' allows 2 to"),
    (["greedy", "random/no-fly"], "unknown kind of decision 'fly'"),
    (["greedy", "random", "--variant", "nowhere"], "nowhere"),
    (["greedy", "trained"], "bot 'trained': a model for 'original', not 'revised'"),
    (["greedy", "random", "--resamples", "-1"], "--resamples -1: give 0 to 100,000"),
    (["greedy", "random", "--json", "--csv"], "--json and --csv: choose one"),
])
def test_bad_input_is_one_line_exit_2(monkeypatch, args, message):
    monkeypatch.setitem(bots.BOTS, "trained", OnlyFor("original"))
    res = CliRunner().invoke(cli.app, ["ladder", *args])
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("lv: error: ") and message in res.stderr and res.stderr.count("\n") == 1
    assert res.stdout == ""


def test_without_the_extra_the_error_names_it(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "openskill.models", None)
    with pytest.raises(LvError, match=r"^lv ladder needs openskill: pip install 'lv\[ladder\]'$"):
        ladder.check(["greedy", "random"], "revised", 4, 10)


def test_help_names_what_the_bots_never_take():
    """lv ladder --help and lv simulate --help say what the built-in bots never take, as ``never_takes`` has it."""
    assert bots.never_takes("greedy") - {"sell"} == {"remodel", "trade"}
    assert all(bots.never_takes(name) == {"trade"} for name in ("uniform", "random", "random-kind", "mcts", "value"))
    for command in ("ladder", "simulate"):
        text = " ".join(CliRunner().invoke(cli.app, [command, "--help"]).stdout.replace("│", " ").split())
        assert "None of the built-in bots trades; greedy never remodels either" in text, command
        assert "/no-KIND[,KIND...]" in text


# ------------------------------------------------------------------------------------ the journal (--journal)

JOURNALED = ["ladder", "random", "greedy", "--players", "2", "--seed", "3", "--workers", "1", "--json", "-q"]


def _journaled(path, games, *extra):
    res = CliRunner().invoke(cli.app, [*JOURNALED, "--games", str(games), "--journal", str(path), *extra])
    assert res.exit_code == 0, res.output
    return res


@pytest.mark.slow
def test_a_run_stopped_part_way_goes_on_from_its_journal_to_the_whole_runs_report(tmp_path):
    """A journal of 6 games taken up by a run of 12 plays the 6 missing ones (said on stderr) and reports what one
    run of 12 reports; the journal ends with a line a game."""
    path = tmp_path / "j.jsonl"
    _journaled(path, 6)
    assert len(path.read_text().splitlines()) == 1 + 6
    res = _journaled(path, 12)
    assert "6 games played before, not played again" in res.stderr
    whole = CliRunner().invoke(cli.app, [*JOURNALED, "--games", "12"])
    assert _without_cpu(json.loads(res.stdout)) == _without_cpu(json.loads(whole.stdout))
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 12 and json.loads(lines[0])["bots"] == ["random", "greedy"]
    assert sorted((g["deal"], g["rotation"]) for g in map(json.loads, lines[1:])) == [
        (d, r) for d in range(6) for r in range(2)]
    again = _journaled(path, 12)  # nothing left to play: the same report, no line added
    assert _without_cpu(json.loads(again.stdout)) == _without_cpu(json.loads(whole.stdout))
    assert len(path.read_text().splitlines()) == 13


def test_a_line_cut_short_by_a_kill_is_dropped_and_its_game_played_again(tmp_path):
    path = tmp_path / "j.jsonl"
    _journaled(path, 4)
    text = path.read_text()
    path.write_text(text[:-25])  # the last game's line cut short
    res = _journaled(path, 4)
    assert "3 games played before" in res.stderr
    lines = path.read_text().splitlines()
    assert lines[:4] == text.splitlines()[:4] and len(lines) == 5
    assert [json.loads(line)["deal"] for line in lines[1:]] == [0, 0, 1, 1]  # whole lines only


@pytest.mark.parametrize("change,message", [
    (lambda lines: lines, None),
    (lambda lines: [lines[0].replace('"seed":3', '"seed":4')] + lines[1:], "the journal of another ladder (its seed differ)"),
    (lambda lines: lines[:1] + ['[' * 5000 + ']' * 5000], "line 2: not JSON"),
    (lambda lines: lines[:1] + [lines[1].replace('"seats":[0,1]', '"seats":[1,0]')], "line 2: not a game of this ladder"),
    (lambda lines: lines[:1] + [lines[1].replace('"ranking":[', '"ranking":["x",')], "line 2: not a game of this ladder"),
    (lambda lines: lines[:1] + ['{"deal": true}'], "line 2: not a game of this ladder"),
    (lambda lines: ["hello"], "not a ladder's journal"),
])
def test_a_journal_of_another_ladder_or_a_bad_line_is_one_line_and_the_file_kept(tmp_path, change, message):
    path = tmp_path / "j.jsonl"
    _journaled(path, 2)
    lines = change(path.read_text().splitlines())
    text = "\n".join(lines) + ("" if lines == ["hello"] else "\n")
    path.write_text(text)
    res = CliRunner().invoke(cli.app, [*JOURNALED, "--games", "2", "--journal", str(path)])
    if message is None:
        assert res.exit_code == 0, res.output
        return
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith(f"lv: error: {path}") and message in res.stderr and res.stderr.count("\n") == 1
    assert path.read_text() == text  # nothing truncated, nothing added


def test_a_journal_names_its_value_players_models_and_refuses_another_model(tmp_path):
    """A value player's games depend on its model: the journal's first line holds each model's digest, so the same
    spec playing another model (a model file rewritten, another shipped model) is refused, not mixed in. A ladder
    of bots without models keeps the first line it had (the journals made before stay readable)."""
    pytest.importorskip("numpy")
    from lv import evaluate, learn

    model = tmp_path / "m.model"
    learn.train(lv.load_profile("revised+f-block"), 2, games=2, seed=1).save(model)
    path = tmp_path / "j.jsonl"
    args = ["ladder", f"value:{model}", "random", "--variant", "revised+f-block", "--players", "2", "--seed", "3",
            "--workers", "1", "--json", "-q", "--games", "2", "--journal", str(path)]
    res = CliRunner().invoke(cli.app, args)
    assert res.exit_code == 0, res.output
    header = json.loads(path.read_text().splitlines()[0])
    assert header["models"] == {f"value:{model}": evaluate.model_digest(evaluate.load_model(model))}
    text = path.read_text()
    learn.train(lv.load_profile("revised+f-block"), 2, games=2, seed=2).save(model)  # another model, same name
    res = CliRunner().invoke(cli.app, args)
    assert res.exit_code == 2 and "its models differ" in res.stderr and res.stderr.count("\n") == 1
    assert path.read_text() == text
    plain = tmp_path / "p.jsonl"
    _journaled(plain, 2)
    assert "models" not in json.loads(plain.read_text().splitlines()[0])


def test_the_model_of_each_kind_of_value_player(tmp_path):
    from lv import evaluate

    profile = lv.load_profile("revised")
    shipped = evaluate.shipped_model(profile, 4)
    for spec in ("value", "value-mcts:5", "value/no-raise", "value-mcts:5/no-build"):
        assert evaluate.model_of(bots.bot_named(spec), profile, 4) is not None
        assert evaluate.model_digest(evaluate.model_of(bots.bot_named(spec), profile, 4)) == \
            evaluate.model_digest(shipped)
    assert evaluate.model_of(bots.bot_named("value"), profile, 3).players == 3
    for spec in ("greedy", "mcts:5", "random/no-raise"):
        assert evaluate.model_of(bots.bot_named(spec), profile, 4) is None


def test_a_share_the_same_in_every_deal_gets_an_interval_of_some_width():
    """Two deals each split evenly (2 players, each bot ahead in one of a deal's two games) are no evidence of an
    exact 50%: the exact binomial interval over the deals, not a t interval of width 0 (seen in round 8's
    6-bot, 60-game ladder: 50.0% [50.0, 50.0])."""
    e = ladder._est([0.5, 0.5])
    assert e["mean"] == 0.5 and e["low"] < 0.2 and e["high"] > 0.8
    won = ladder._est([1.0, 1.0, 1.0])  # every deal won: as before, the exact interval of 3 in 3
    assert won["high"] == 1.0 and 0.25 < won["low"] < 0.35
    varied = ladder._est([0.5, 1.0, 0.25, 0.5])  # deals that differ: the t interval, untouched
    t = estimate([0.5, 1.0, 0.25, 0.5], share=True)
    assert (varied["low"], varied["high"]) == (t.low, t.high) and 0 < t.low < t.high


@pytest.mark.parametrize("bot", ["value:{model}", "value-mcts:5:{model}", "value:{model}/no-raise"])
def test_a_model_for_another_profile_is_one_line_exit_2(bot):
    """Issue 29: ``lv ladder`` with a model file trained for another profile refuses in one line before any game
    (the value bot's ``check_profile``, asked through ``value-mcts``'s search and a restriction too); under the
    profile it was trained for, the same bot passes the check."""
    from lv.evaluate import MODELS

    spec = bot.format(model=MODELS / "revised.json")
    res = CliRunner().invoke(cli.app, ["ladder", "greedy", spec, "--variant", "original", "--games", "4"])
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("lv: error: model '") and res.stderr.count("\n") == 1
    assert "was trained for profile 'revised'" in res.stderr and "not for 'original'" in res.stderr
    assert "lv train original -o FILE" in res.stderr and res.stdout == ""
    assert ladder.check(["greedy", spec], "revised", 4, 4).name == "revised"
    assert ladder.check(["greedy", "value"], "original", 4, 4).name == "original"  # the shipped ones: nearest
