"""A file's suffix is read in any case (lv/files.py ``suffix``, the one place): ``G.YAML`` is a game file and a
profile file as ``g.yaml`` is, ``G.JSON`` a JSON record, wherever lv reads or writes one (lv new -o refused
G.YAML; lv check skipped it in a folder; a profile named Mine.YML was not taken for a file)."""

from __future__ import annotations

import json

import pytest
import yaml
from typer.testing import CliRunner

import lv
from lv import cli, files

runner = CliRunner()


def lv_cmd(*args: object):
    return runner.invoke(cli.app, [str(a) for a in args])


@pytest.mark.parametrize("name, yes", [("g.yaml", True), ("G.YAML", True), ("g.Yml", True), ("G.YML", True),
                                       ("g.json", False), ("g.yaml.txt", False), ("yaml", False)])
def test_is_yaml_in_any_case(name, yes):
    assert files.is_yaml(name) is yes
    assert files.is_record_name(name) is (yes or name == "g.json")


@pytest.mark.parametrize("name", ["G.YAML", "g.Yml", "Game.yaml"])
def test_lv_new_writes_a_yaml_game_of_any_case_and_it_plays_and_checks(tmp_path, name):
    game = tmp_path / name
    res = lv_cmd("new", "--players", "red,blue", "--seed", 1, "-o", game)
    assert res.exit_code == 0, res.stderr
    assert yaml.safe_load(game.read_text())["format"] == "lv-game/1"
    assert lv_cmd("move", game, "end").exit_code == 0
    res = lv_cmd("check", tmp_path)  # found in the folder, not skipped
    assert res.exit_code == 0, res.stderr
    assert name in res.stdout


def test_lv_new_writes_json_for_an_upper_case_json_name(tmp_path):
    game = tmp_path / "G.JSON"
    assert lv_cmd("new", "--players", 2, "--seed", 1, "-o", game).exit_code == 0
    assert json.loads(game.read_text())["format"] == "lv-game/1"
    assert lv_cmd("move", game, "end").exit_code == 0
    assert json.loads(game.read_text())["turns"]
    lv.save_record(lv.new_game("revised", 2, seed=1), tmp_path / "api.JSON")
    assert json.loads((tmp_path / "api.JSON").read_text())["format"] == "lv-game/1"


def test_another_suffix_is_still_refused(tmp_path):
    res = lv_cmd("new", "--players", 2, "-o", tmp_path / "g.YAMLX")
    assert res.exit_code == 2
    assert res.stderr == f"lv: error: -o {tmp_path / 'g.YAMLX'}: a game file ends in .yaml, .yml or .json (what lv " \
                         "check reads)\n"


def test_a_profile_file_of_any_case_is_a_file(tmp_path, monkeypatch):
    (tmp_path / "Mine.YML").write_text("extends: revised\nraise:\n  cost_per_space: 9\n")
    monkeypatch.chdir(tmp_path)
    assert lv.load_profile("Mine.YML").raise_.cost_per_space == 9
    # a missing one is named as a missing file, not as an unknown shipped profile
    with pytest.raises(lv.ProfileError, match="no such file"):
        lv.load_profile("Other.YAML")
