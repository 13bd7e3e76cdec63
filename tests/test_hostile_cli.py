"""What hostile or careless command lines still reached (issue 28, points 5 and 7), each refused at once in one
line: a game file lv check would skip, a profile extending any YAML file, a folder where no lock can be made,
and ``python cli.py`` without lv's dependencies."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import lv
from lv import cli

ROOT = Path(__file__).resolve().parents[1]


def lv_cmd(*args):
    return CliRunner().invoke(cli.app, [str(a) for a in args])


def one_line(res) -> str:
    lines = res.stderr.strip().splitlines()
    assert res.exit_code == 2 and len(lines) == 1, (res.exit_code, res.stderr)
    return lines[0]


@pytest.mark.parametrize("name", ["n.txt", "n", "n.yaml.bak"])
@pytest.mark.parametrize("command", [["new", "--players", "2", "--seed", "1"],
                                     ["selfplay", "--players", "2", "--seed", "1"]])
def test_a_game_file_lv_check_would_skip_is_refused(tmp_path, name, command):
    """Before: ``lv new -o n.txt`` wrote a game that ``lv check`` then skipped ("not a record")."""
    res = lv_cmd(*command, "-o", tmp_path / name)
    assert one_line(res) == (f"lv: error: -o {tmp_path / name}: a game file ends in .yaml, .yml or .json (what "
                             "lv check reads)")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["n.yaml", "n.yml", "n.json"])
def test_a_game_file_lv_check_reads_is_written(tmp_path, name):
    assert lv_cmd("new", "--players", "2", "--seed", "1", "-o", tmp_path / name).exit_code == 0
    assert lv_cmd("check", tmp_path).exit_code == 0


@pytest.mark.parametrize("target", ["absolute", "../up.yaml"])
def test_a_profile_extends_no_file_outside_its_folder(tmp_path, target):
    """Before: a profile named on the command line could extend any YAML file, and the error quoted its key."""
    (tmp_path / "up.yaml").write_text("gamble:\n  per_turn: 1\napi_token: hunter2\n")
    mine = tmp_path / "house" / "mine.yaml"
    mine.parent.mkdir()
    parent = str(tmp_path / "up.yaml") if target == "absolute" else target
    mine.write_text(f"extends: {parent}\n")
    line = one_line(lv_cmd("variants", "show", mine))
    assert line == (f"lv: error: {mine}:1: extends: profile file {parent!r}: a profile extends a shipped profile "
                    "by name, or a file in its own folder")
    assert "hunter2" not in line and "api_token" not in line


def test_a_file_a_profile_extends_is_never_quoted(tmp_path):
    (tmp_path / "base.yaml").write_text("gamble:\n  per_turn: 1\napi_token: hunter2\n")
    (tmp_path / "mine.yaml").write_text("extends: base.yaml\n")
    line = one_line(lv_cmd("variants", "show", tmp_path / "mine.yaml"))
    assert line == f"lv: error: {tmp_path / 'base.yaml'}:3: extends: a file that is not a rule profile (an unknown key here)"


def test_a_profile_still_extends_its_neighbours_and_shipped_profiles(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "base.yaml").write_text("extends: revised\nraise:\n  cost_per_space: 11\n")
    (tmp_path / "mine.yaml").write_text("extends: sub/base.yaml\n")
    assert lv.load_profile(str(tmp_path / "mine.yaml")).raise_.cost_per_space == 11


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="no /proc here")
def test_a_folder_where_no_lock_can_be_made_fails_at_once_with_the_reason(monkeypatch):
    """``-o /proc/self/v.svg``: filelock took the failed creation for a held lock and waited 30 s, then lv blamed
    "another lv command". The timeout is set to an hour here: only failing at once passes."""
    from lv import files

    monkeypatch.setattr(files, "LOCK_TIMEOUT", 3600)
    monkeypatch.setattr(files, "_locks", {})
    line = one_line(lv_cmd("render", ROOT / "examples" / "revised-4p.yaml", "-o", "/proc/self/v.svg"))
    assert line.startswith("lv: error: /proc/self/v.svg: cannot make the lock file /proc/")
    assert line.endswith(".lv-lock: No such file or directory")


def test_the_lock_file_is_ignored_by_git():
    """The README's block leaves .lv-lock at the top of a clone (a lock file is never removed: another process
    may hold it); git does not list it."""
    assert ".lv-lock" in (ROOT / ".gitignore").read_text().splitlines()


@pytest.mark.slow
def test_cli_py_without_the_dependencies_says_what_to_install():
    """``python -S``: no site-packages, so no typer, attrs or yaml; lv itself is on PYTHONPATH."""
    res = subprocess.run([sys.executable, "-S", str(ROOT / "cli.py"), "--help"], capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert res.returncode == 2 and res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lv: error: ") and "is not installed: run `pip install .`" \
        in lines[0], res.stderr
