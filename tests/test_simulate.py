"""Paired simulation (lv/simulate.py, lv simulate): paired seeding, serial = parallel, saved records verify."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lv import cli
import lv
from lv import simulate
from lv.chance import Dice
from lv.errors import LvError
from lv.record import load_record
from lv.replay import check_file, replay


def run(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def test_paired_games_share_deck_starting_roll_and_dice():
    """Game i has one seed under every profile: the same shuffled deck, the same starting roll, and the same
    generated dice for the same step of the game (chance.py), whatever the profile."""
    units = simulate.units(["original", "revised"], 4, 3, seed=2, bots=["greedy"])
    assert [u.seed for u in units[:3]] == [u.seed for u in units[3:]] == [2_000_000, 2_000_001, 2_000_002]
    a = lv.new_game("original", 4, units[1].seed)
    b = lv.new_game("revised", 4, units[4].seed)
    assert a.deck == b.deck and a.first_player == b.first_player
    # the profiles name their players by different colours; the rolls are the same seat by seat
    assert [list(r.values()) for r in a.starting_rolls] == [list(r.values()) for r in b.starting_rolls]
    assert a.current_turn.cards == b.current_turn.cards
    step = ("turn", 1, "decision", 0)
    assert Dice(a.seed, step).gamble() == Dice(b.seed, step).gamble()


@pytest.mark.slow
def test_paired_games_roll_the_same_gamble_dice_at_the_same_step(tmp_path):
    """In played pairs, a gamble taken at the same turn and decision number under both profiles rolled the
    same two dice (the records keep the dice of every decision)."""
    simulate.simulate(["original", "revised"], 4, 6, seed=3, bots=["greedy"], save_dir=str(tmp_path))
    shared = 0
    for i in range(6):
        dice = []
        for profile in ("original", "revised"):
            rec = load_record(tmp_path / profile / f"game-{i:05d}.yaml")
            dice.append({(t, d): dec.dice["gamble"] for t, turn in enumerate(rec.turns)
                         for d, dec in enumerate(turn.decisions) if "gamble" in dec.dice})
        for key in dice[0].keys() & dice[1].keys():
            assert dice[0][key] == dice[1][key]
            shared += 1
    assert shared > 5


def test_serial_and_parallel_runs_are_identical():
    args = dict(profiles=["original", "revised"], players=3, games=6, seed=4, bots=["random"], resamples=100)
    serial = simulate.simulate(workers=1, **args)
    parallel = simulate.simulate(workers=2, **args)
    assert json.dumps(serial) == json.dumps(parallel)


def test_a_unit_is_plain_data():
    """What a distributed engine would send: the unit as a dict in, the summary as a dict out."""
    unit = simulate.units(["revised"], 4, 1, seed=5, bots=["uniform"])[0]
    assert simulate.play_unit(json.loads(json.dumps(unit.to_dict()))) == simulate.play_unit(unit)


@pytest.mark.slow
def test_saved_records_verify(tmp_path):
    simulate.simulate(["revised", "original+f-block"], 2, 2, seed=6, bots=["greedy", "random"],
                      save_dir=str(tmp_path))
    files = sorted(tmp_path.rglob("*.yaml"))
    assert [f.relative_to(tmp_path).as_posix() for f in files] == [
        "original+f-block/game-00000.yaml", "original+f-block/game-00001.yaml",
        "revised/game-00000.yaml", "revised/game-00001.yaml"]
    rec = load_record(tmp_path / "revised" / "game-00001.yaml")  # the number is the seed's tail: 6*1000000+1
    assert rec.seed == simulate.game_seed(6, 1) == 6_000_001 and rec.comment.startswith("lv simulate: game 1, seed 6000001")
    for f in files:
        assert check_file(str(f)).ok
        assert replay(load_record(f)).game.over
    res = run("check", str(tmp_path / "revised"))
    assert res.exit_code == 0, res.output


def test_sweep_makes_a_profile_per_value():
    assert simulate.sweep_profiles(["revised"], "raise.cost_per_space=10,15") == [
        "revised,raise.cost_per_space=10", "revised,raise.cost_per_space=15"]
    assert simulate.sweep_profiles(["a", "b"], None) == ["a", "b"]
    with pytest.raises(LvError):
        simulate.sweep_profiles(["revised"], "raise.cost_per_space")


@pytest.mark.parametrize("kwargs", [dict(bots=["greedy", "random"]), dict(players=7), dict(games=0),
                                    dict(bots=["nobody"]), dict(profiles=["nope"])])
def test_bad_runs_are_refused(kwargs):
    args = dict(profiles=["revised"], players=4, games=2, seed=0, bots=["greedy"])
    args.update(kwargs)
    with pytest.raises(LvError):
        simulate.units(**args)


@pytest.mark.slow
def test_cli_json_and_table():
    res = run("simulate", "--variant", "original", "--variant", "revised", "--games", "4", "--seed", "1", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["profiles"] == ["original", "revised"] and data["games"] == 4
    assert set(data["estimates"]) == {"original", "revised"} and list(data["differences"]) == ["revised - original"]
    for key in ("turns", "decisions", "winner_score", "winner_money", "score_spread", "end_card", "instant_win",
                "advantage_p1", "balance", "lead_change", "casinos_built", "largest_casino", "average_height",
                "decisions.gamble", "win.seat1"):
        assert set(data["estimates"]["revised"][key]) == {"mean", "low", "high", "n"}
    assert data["estimates"]["revised"]["end_card"]["mean"] + data["estimates"]["revised"]["instant_win"]["mean"] == 1
    res = run("simulate", "-v", "revised", "--set", "raise.cost_per_space=10,20", "--games", "2", "--bot", "random")
    assert res.exit_code == 0
    assert res.stdout.splitlines()[0].split()[0] == "raise.cost_per_space"
    assert [line.split()[0] for line in res.stdout.splitlines()[1:]] == ["10", "20"]
    res = run("simulate", "-v", "revised", "--games", "2", "--csv")
    assert res.exit_code == 0 and res.stdout.startswith("profile,metric,mean,low,high,n\nrevised,turns,")


def test_cli_bad_input_exits_2():
    res = run("simulate", "-v", "revised", "--games", "2", "--bot", "greedy,greedy")
    assert res.exit_code == 2 and "one per player" in res.stderr
