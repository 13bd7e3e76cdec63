"""Records that travel (issue 13, point 1) and tags like PGN's (point 5).

A record made under a variant file or overrides stores the resolved profile (name, base, every value that
differs from the base) and keeps the spec only as a label, so it replays from any folder without the file.
A record carries event, site, date, round and free tags through every command; ``lv check`` searches folders.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import lv
from lv import bots
from lv.errors import RecordError
from lv.record import load_record, parse_record, record_of
from lv.replay import replay, same_rules

ROOT = Path(__file__).resolve().parent.parent

MY_VARIANT = """\
extends: revised
name: cheap-risers
title: Revised with cheap risers
raise:
  cost_per_space: 10
sprawl:
  riser_cost: {value: 10, source: 'house rule'}
"""


def lv_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The command line as a user runs it: another process, another working directory."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], cwd=cwd, env=env, capture_output=True,
                          text=True)


@pytest.mark.slow
def test_a_record_made_under_a_variant_file_checks_from_another_folder_after_the_file_is_gone(tmp_path):
    made, elsewhere = tmp_path / "made", tmp_path / "elsewhere"
    made.mkdir()
    elsewhere.mkdir()
    (made / "my.yaml").write_text(MY_VARIANT)
    res = lv_cli("selfplay", "--variant", "my.yaml", "--players", "3", "--seed", "5", "-o", "g.yaml", cwd=made)
    assert res.returncode == 0, res.stderr
    data = yaml.safe_load((made / "g.yaml").read_text())
    assert data["profile"] == {"name": "cheap-risers", "title": "Revised with cheap risers", "label": "my.yaml",
                               "base": "revised",
                               "values": {"sprawl.riser_cost": 10, "raise.cost_per_space": 10}}
    (made / "my.yaml").unlink()
    res = lv_cli("check", str(made / "g.yaml"), cwd=elsewhere)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith(f"ok {made / 'g.yaml'}: ") and "result verified" in res.stdout
    res = lv_cli("replay", str(made / "g.yaml"), cwd=elsewhere)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[1] == ("profile stored in the record: revised with sprawl.riser_cost 10, "
                                          "raise.cost_per_space 10")
    header = json.loads(lv_cli("replay", str(made / "g.yaml"), "--json", cwd=elsewhere).stdout)["header"]
    assert (header["profile"], header["stored_profile"]["base"]) == ("my.yaml", "revised")


@pytest.mark.slow
def test_a_game_file_under_a_variant_file_goes_on_from_another_folder(tmp_path):
    made, elsewhere = tmp_path / "made", tmp_path / "elsewhere"
    made.mkdir()
    elsewhere.mkdir()
    (made / "my.yaml").write_text(MY_VARIANT)
    res = lv_cli("new", "--variant", "my.yaml", "--players", "ann,bob", "--seed", "3", "-o", "t.yaml", cwd=made)
    assert res.returncode == 0, res.stderr
    before = yaml.safe_load((made / "t.yaml").read_text())["profile"]
    (made / "my.yaml").unlink()
    res = lv_cli("move", str(made / "t.yaml"), "end", cwd=elsewhere)
    assert res.returncode == 0, res.stderr
    after = yaml.safe_load((made / "t.yaml").read_text())
    assert after["profile"] == before and before["values"] == {"sprawl.riser_cost": 10, "raise.cost_per_space": 10}
    assert len(after["turns"]) == 2


def test_the_stored_profile_is_the_variant_and_round_trips_byte_for_byte(tmp_path):
    variant = tmp_path / "my.yaml"
    variant.write_text(MY_VARIANT)
    spec = f"{variant}+f-block,gamble.bet_per_tile=4"
    game = lv.new_game(lv.load_profile(spec), ["ann", "bob"], 11)
    bots.play(game, [bots.bot_named("random-kind")] * 2, 11)
    text = lv.record.dumps(record_of(game, spec))
    variant.unlink()
    rec = parse_record(text, "g.yaml")
    assert rec.profile == spec and rec.stored_profile["base"] == "revised"
    assert rec.stored_profile["values"] == {"sprawl.riser_cost": 10, "raise.cost_per_space": 10,
                                            "gamble.bet_per_tile": 4}  # f-block changes nothing in revised
    rep = replay(rec)
    assert rep.verified is True
    assert rep.profile.values() == game.profile.values()
    assert rep.profile.sources["raise.cost_per_space"] == f"{spec}, stored in the record"
    assert same_rules(rec, game.profile) and not same_rules(rec, lv.load_profile("revised"))
    assert lv.record.dumps(record_of(rep.game, rec.profile)) == text  # written again: the same bytes


def test_a_spec_of_shipped_profiles_is_stored_as_it_is():
    game = lv.new_game(lv.load_profile("original+f-block"), ["ann", "bob"], 3)
    assert record_of(game, "original+f-block")["profile"] == "original+f-block"
    over = lv.new_game(lv.load_profile("revised,raise.max_height=3"), ["ann", "bob"], 3)
    assert record_of(over, "revised,raise.max_height=3")["profile"] == {
        "name": "revised", "title": "Lords of Vegas (revised edition)", "label": "revised,raise.max_height=3",
        "base": "revised", "values": {"raise.max_height": 3}}


def test_old_records_with_a_profile_name_replay_unchanged():
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        rec = load_record(path)
        assert isinstance(yaml.safe_load(path.read_text())["profile"], str) and rec.stored_profile is None
        assert replay(rec).game.over == (rec.result is not None)


@pytest.mark.parametrize("profile, message", [
    ("{name: x, base: revized, values: {}}", "g.yaml:2: profile: base 'revized': give a shipped profile"),
    ("{name: x, base: revised, values: {raise.cost: 1}}", "g.yaml:2: profile: values: unknown parameter 'raise.cost'"),
    ("{name: x, base: revised, values: {raise.cost_per_space: -1}}",
     "g.yaml:2: profile: values: raise.cost_per_space: must be a whole number from 0 to 1000, not -1"),
    ("{name: x, values: {raise.enabled: true}}", "g.yaml:2: profile 'x': players.min: missing"),
    ("{base: revised, values: {}}", "g.yaml:2: profile: a stored profile needs its name"),
    ("{name: x, colour: red}", "g.yaml:2: profile: unknown key 'colour' (known: name, title, label, base, values)"),
])
def test_a_broken_stored_profile_is_named_at_its_line(profile, message):
    text = f"format: lv-game/1\nprofile: {profile}\nplayers: [red, blue]\nposition: {{current: red}}\n"
    with pytest.raises(RecordError) as err:
        replay(parse_record(text, "g.yaml"))
    assert str(err.value).startswith(message)


@pytest.mark.slow
def test_save_dir_names_are_readable_and_never_hidden(tmp_path):
    from lv.simulate import slug

    assert slug("revised,raise.cost_per_space=10") == "revised,raise.cost_per_space=10"
    assert slug("./my.yaml") == "my"
    assert slug("../variants/house rules.yaml+f-block") == "house_rules+f-block"
    assert slug(".hidden.yaml") == "hidden"
    (tmp_path / "my.yaml").write_text(MY_VARIANT)
    res = lv_cli("simulate", "-v", "./my.yaml", "--games", "2", "--players", "2", "--workers", "1", "--json",
                 "--save-dir", "out", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "out").rglob("*.yaml")) == [
        "out/my/game-00000.yaml", "out/my/game-00001.yaml"]
    assert lv_cli("check", "out", cwd=tmp_path).returncode == 0


# ---------------------------------------------------------------------------------------------- tags


@pytest.mark.slow
def test_tags_are_kept_by_new_move_replay_and_check(tmp_path):
    res = lv_cli("new", "--players", "ann,bob", "--seed", "4", "-o", "t.yaml", "--tag", "event=Club night",
                 "--tag", "site=Essen", "--tag", "date=2026-11-23", "--tag", "round=2", "--tag", "table=3",
                 cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert lv_cli("move", "t.yaml", "end", cwd=tmp_path).returncode == 0
    head = (tmp_path / "t.yaml").read_text().split("players:")[0]
    assert head.endswith("profile: revised\nevent: Club night\nsite: Essen\ndate: '2026-11-23'\nround: '2'\n"
                         "tags:\n  table: '3'\n")
    rec = load_record(tmp_path / "t.yaml")
    assert rec.tags == {"event": "Club night", "site": "Essen", "date": "2026-11-23", "round": "2", "table": "3"}
    assert len(rec.turns) == 2
    out = lv_cli("replay", "t.yaml", cwd=tmp_path).stdout.splitlines()
    assert out[1:6] == ["event: Club night", "site: Essen", "date: 2026-11-23", "round: 2", "table: 3"]
    header = json.loads(lv_cli("replay", "t.yaml", "--json", cwd=tmp_path).stdout)["header"]
    assert header["tags"] == rec.tags


def test_selfplay_takes_tags_and_a_bad_tag_is_refused():
    from typer.testing import CliRunner

    from lv import cli

    res = CliRunner().invoke(cli.app, ["selfplay", "--players", "2", "--seed", "1", "--json", "--tag", "site=Essen",
                                       "--tag", "board=2"])
    data = json.loads(res.stdout)
    assert (data["site"], data["tags"]) == ("Essen", {"board": "2"})
    bad = CliRunner().invoke(cli.app, ["selfplay", "--players", "2", "--tag", "Essen"])
    assert bad.exit_code == 2 and bad.stderr == "lv: error: --tag 'Essen': give KEY=VALUE, e.g. --tag event='Club night'\n"


def test_selfplay_writes_tags_and_a_yaml_date_reads_as_text():
    res = lv.record.record_of(lv.new_game(lv.load_profile("revised"), 2, 1), tags={"round": "1", "w": "x"})
    assert res["round"] == "1" and res["tags"] == {"w": "x"}
    text = ("format: lv-game/1\nprofile: revised\ndate: 2026-11-23\nround: 3\ntags: {board: B}\n"
            "players: [red, blue]\nposition: {current: red}\n")
    assert parse_record(text, "g.yaml").tags == {"date": "2026-11-23", "round": "3", "board": "B"}


@pytest.mark.parametrize("line, message", [
    ("event: [a, b]", "g.yaml:3: event: text"),
    ("tags: [a]", "g.yaml:3: tags: a mapping of name to text"),
    ("tags: {date: x}", "g.yaml:3: tags: 'date' is a header key of its own"),
    ("tags: {a: {b: c}}", "g.yaml:3: tags.a: text"),
])
def test_bad_tags_are_named_at_their_line(line, message):
    text = f"format: lv-game/1\nprofile: revised\n{line}\nplayers: [red, blue]\nposition: {{current: red}}\n"
    with pytest.raises(RecordError) as err:
        parse_record(text, "g.yaml")
    assert str(err.value).startswith(message)


@pytest.mark.slow
def test_check_searches_folders_recursively_in_sorted_order(tmp_path):
    games = tmp_path / "games"
    (games / "b" / "deep").mkdir(parents=True)
    (games / ".hidden").mkdir()
    src = (ROOT / "examples" / "question-raise.yaml").read_text()
    for rel in ("z.yaml", "b/deep/y.yml", "b/a.json", ".hidden/x.yaml"):
        data = yaml.safe_load(src)
        (games / rel).write_text(json.dumps(data) if rel.endswith(".json") else src)
    (games / "notes.txt").write_text("not a record")
    res = lv_cli("check", "games", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert [line.split(":")[0] for line in res.stdout.splitlines()] == [
        "ok games/b/a.json", "ok games/b/deep/y.yml", "ok games/z.yaml", "3 records"]


def test_a_record_with_a_stored_profile_and_tags_validates_against_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "lv-game-1.schema.json").read_text())
    game = lv.new_game(lv.load_profile("revised,raise.max_height=3"), ["ann", "bob"], 3)
    data = json.loads(lv.record.dumps(record_of(game, "revised,raise.max_height=3", tags={
        "event": "Club night", "date": "2026-11-23", "round": "2", "table": "3"}), "json"))
    jsonschema.validate(data, schema)
    data["tags"]["event"] = "twice"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)
