"""The record commands from the command line: lv selfplay, replay, check, diff. Exit codes: 0 ok, 1 a check
failed, 2 bad input (one line on stderr, never a traceback)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lv import cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run(*args: str):
    return CliRunner().invoke(cli.app, list(args))


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("rec") / "g.yaml"
    res = run("selfplay", "--variant", "revised", "--players", "4", "--seed", "7", "-o", str(path))
    assert res.exit_code == 0, res.stderr
    assert res.stdout == "" and res.stderr.startswith(f"wrote {path}: revised, 4 players")
    return path


def test_selfplay_is_deterministic_and_complete(game_file, tmp_path):
    again = tmp_path / "again.yaml"
    assert run("selfplay", "--variant", "revised", "--players", "4", "--seed", "7", "-o", str(again)).exit_code == 0
    assert again.read_bytes() == game_file.read_bytes()
    text = game_file.read_text()
    assert text.startswith("format: lv-game/1\n") and "\nresult:" in text
    other = run("selfplay", "--variant", "original+f-block", "--players", "ann,bob", "--seed", "3", "--json")
    data = json.loads(other.stdout)
    assert data["players"] == ["ann", "bob"] and data["profile"] == "original+f-block" and "result" in data


def test_replay_tells_the_game_and_verifies_the_result(game_file):
    res = run("replay", str(game_file))
    assert res.exit_code == 0, res.stderr
    out = res.stdout
    assert out.startswith(f"{game_file}: revised, 4 players (black, blue, green, purple), seed 7")
    # seed 7: green and purple tie on 6+6, then purple's 6+5 beats green's 2+5
    assert "then green 2+5, purple 6+5: purple starts" in out
    assert "Turn 1 - purple draws" in out and "Final standings" in out
    assert out.rstrip().endswith("Result verified: it matches the record.")


@pytest.mark.slow
def test_replay_json_is_byte_identical_across_processes(game_file):
    cmd = [sys.executable, str(ROOT / "cli.py"), "replay", str(game_file), "--json"]
    first = subprocess.run(cmd, capture_output=True, check=True, env={"PYTHONHASHSEED": "1"}).stdout
    second = subprocess.run(cmd, capture_output=True, check=True, env={"PYTHONHASHSEED": "2"}).stdout
    assert first == second
    assert json.loads(first)["verified"] is True


def test_replay_under_another_profile_until_a_turn():
    res = run("replay", str(EXAMPLES / "question-raise.yaml"), "--variant", "original", "--json")
    data = json.loads(res.stdout)
    assert res.exit_code == 0 and data["header"]["replayed_under"] == "original"
    assert [i["rule"] for i in data["illegal"]] == ["raise.enabled", "raise.enabled"]
    assert data["turns"][0]["decisions"][0]["illegal"]["handled"] == "skipped"
    res = run("replay", str(EXAMPLES / "revised-4p.yaml"), "--until", "2")
    assert res.exit_code == 0 and "Turn 3 -" not in res.stdout and "Standings (stopped after turn 2)" in res.stdout


def test_diff_shows_the_difference_of_the_raise_question():
    res = run("diff", str(EXAMPLES / "question-raise.yaml"), "--variant", "original")
    assert res.exit_code == 0, res.stderr
    assert "First divergence: turn 1, decision 1 'raise C1': illegal under original" in res.stdout
    assert "Decisions illegal under original:" in res.stdout and "raise.enabled" in res.stdout
    data = json.loads(run("diff", str(EXAMPLES / "question-raise.yaml"), "-v", "revised", "-v", "original",
                          "--json").stdout)
    assert data["a"]["profile"] == "revised" and data["b"]["profile"] == "original"
    assert data["first_divergence"]["turn"] == 1
    assert run("diff", str(EXAMPLES / "question-raise.yaml"), "-v", "original", "--fail-on-divergence").exit_code == 1


def test_diff_of_a_game_names_both_results(game_file):
    res = run("diff", str(game_file), "--variant", "original")
    assert res.exit_code == 0, res.stderr
    assert "revised (recorded) vs original" in res.stdout and "\nResult\n" in res.stdout
    assert "winner" in res.stdout


def test_check_passes_the_examples_and_skips_other_files():
    res = run("check", *map(str, sorted(EXAMPLES.iterdir())))
    assert res.exit_code == 0, res.stdout
    records = [p for p in EXAMPLES.iterdir() if p.suffix in (".yaml", ".yml", ".json")]
    assert res.stdout.count("\nok ") + res.stdout.startswith("ok ") == len(records)
    assert res.stdout.rstrip().endswith(f"{len(records)} records: {len(records)} ok, 0 failed")


def test_check_fails_naming_the_file_and_turn(tmp_path):
    good = (EXAMPLES / "question-raise.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(good.replace("cards: [D8]", "cards: [A1]"))
    res = run("check", str(EXAMPLES / "question-raise.yaml"), str(bad))
    assert res.exit_code == 2  # a record that does not replay is bad input, as for lv replay (test_consistency.py)
    assert f"FAIL {bad}:" in res.stdout and "turn 2: the record says A1 was drawn, the deck gives D8" in res.stdout
    assert res.stdout.rstrip().endswith("2 records: 1 ok, 1 failed")


def test_a_result_that_does_not_verify_exits_1(tmp_path):
    text = (EXAMPLES / "revised-2p.yaml").read_text()
    bad = tmp_path / "r.yaml"
    bad.write_text(text.replace("reason: end_card", "reason: instant_win"))
    res = run("replay", str(bad))
    assert res.exit_code == 1 and "Result MISMATCH:" in res.stdout
    assert "result reason: the record says instant_win, the replay gives end_card" in res.stdout
    assert run("check", str(bad)).exit_code == 1


@pytest.mark.parametrize("args,message", [
    (["replay", "{bad}"], "malformed YAML"),
    (["replay", "{missing}"], "no such file"),
    (["replay", "{ok}", "--variant", "nonesuch"], "unknown profile 'nonesuch'"),
    (["replay", "{ok}", "--on-illegal", "maybe"], "'--on-illegal': 'maybe' is not one of 'skip', 'stop'"),
    (["diff", "{ok}"], None),  # --variant is required: a usage error
    (["diff", "{ok}", "-v", "original", "-v", "revised", "-v", "original"], "give --variant once"),
    (["selfplay", "--players", "9"], "9 players"),
    (["selfplay", "--bot", "clever"], "bot 'clever': known bots are"),
    (["check", "{bad_ext}"], "no record files to check"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, args, message):
    files = {"bad": tmp_path / "bad.yaml", "missing": tmp_path / "missing.yaml",
             "ok": EXAMPLES / "question-raise.yaml", "bad_ext": tmp_path / "notes.txt"}
    files["bad"].write_text("format: lv-game/1\nplayers: [a, b\n")
    files["bad_ext"].write_text("hello")
    res = run(*[a.format(**files) for a in args])
    assert res.exit_code == 2
    assert "Traceback" not in res.output
    if message:
        lines = [x for x in res.stderr.strip().splitlines() if not x.startswith("skip ")]  # check's notes
        assert len(lines) == 1 and lines[0].startswith("lv: error: ") and message in lines[0]


def test_a_broken_record_through_the_real_command_line(tmp_path):
    """The installed entry point, not the test runner: exit 2, one line, no traceback."""
    bad = tmp_path / "bad.yaml"
    bad.write_text((EXAMPLES / "question-raise.yaml").read_text().replace("[raise C1, raise C1]",
                                                                          "[raise C1, raise C1, raise C1]"))
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), "replay", str(bad)], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"lv: error: {bad}:24: turn 1: 'raise C1' is illegal under 'revised'")
    assert "[raise.max_height]" in proc.stderr
