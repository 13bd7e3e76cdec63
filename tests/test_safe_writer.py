"""One safe writer (issue 17.8): every file lv writes goes through ``lv.files`` (``write_atomic``, or ``Streamed`` for
a file written piece by piece), with the same rules: a game or record is replaced only with --force; a link
planted in a folder lv fills is never followed; a file the user named through a link is written at its target,
the link kept; a missing folder is a one-line error (no folders made for a file); the replacement is atomic."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lv import cli

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

# what writes a file, outside lv/files.py (the one safe writer); the lines allowed say why
WRITES = re.compile(r"\.write_text\(|\.write_bytes\(|os\.replace\(|os\.rename\(|\.mkdir\(|mkstemp\(|to_csv\(|"
                    r"to_parquet\(|shutil\.(copy|move)|savefig\(|ParquetWriter\(|O_CREAT|O_WRONLY|"
                    r"\bopen\([^)]*[\"'][wax]b?\+?[\"']")
ALLOWED = {
    "fig.savefig(picture, format=fmt)",  # into memory: the bytes then go through write_atomic
    "self._parquet = pq.ParquetWriter(self._stream.file, self._schema)",  # into files.Streamed's temporary
    "os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())",  # output to nowhere once its reader left
}


def lv_cmd(*args):
    return runner.invoke(cli.app, [str(a) for a in args])


def test_no_code_outside_the_safe_writer_writes_a_file():
    found = []
    for path in sorted((ROOT / "lv").rglob("*.py")):
        if path.name == "files.py" and path.parent.name == "lv":
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            if WRITES.search(code) and code.strip() not in ALLOWED:
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == []


def one_line(res) -> str:
    assert res.exit_code == 2 and res.stderr.count("\n") == 1, (res.exit_code, res.stderr)
    return res.stderr.strip()


def test_selfplay_replaces_an_existing_game_only_with_force(tmp_path):
    game = tmp_path / "game.yaml"
    assert lv_cmd("selfplay", "--players", 2, "--seed", 1, "-o", game).exit_code == 0
    before = game.read_bytes()
    res = lv_cmd("selfplay", "--players", 2, "--seed", 2, "-o", game)
    assert one_line(res) == f"lv: error: {game}: the file exists (use --force to replace it)"
    assert game.read_bytes() == before
    res = lv_cmd("selfplay", "--players", 2, "--seed", 2, "-o", game, "--force")
    assert res.exit_code == 0, res.stderr
    assert game.read_bytes() != before


@pytest.mark.parametrize("command", [["render", "{game}", "-o"], ["view", "{game}", "-o"],
                                     ["selfplay", "--players", "2", "-o"], ["new", "--players", "2", "-o"]])
def test_a_missing_folder_is_one_line_and_no_folder_is_made(tmp_path, command):
    game = tmp_path / "game.yaml"
    assert lv_cmd("new", "--players", 2, "--seed", 1, "-o", game).exit_code == 0
    out = tmp_path / "missing" / "dir" / ("board.html" if command[0] == "view" else "board.svg"
                                          if command[0] == "render" else "g.yaml")
    res = lv_cmd(*[a.format(game=game) for a in command], out)
    assert one_line(res) == f"lv: error: {out}: no such folder: {out.parent}"
    assert not (tmp_path / "missing").exists()


def test_games_out_through_a_link_writes_its_target_and_keeps_the_link(tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    link = tmp_path / "games.csv"
    link.symlink_to(real.name)
    res = lv_cmd("simulate", "-v", "revised", "--games", 1, "--players", 2, "--workers", 1, "--games-out", link)
    assert res.exit_code == 0, res.stderr
    assert link.is_symlink() and real.read_text().startswith("game,seed,profile")


@pytest.mark.slow
def test_a_link_planted_in_the_plot_folder_is_replaced_never_followed(tmp_path):
    pytest.importorskip("matplotlib")
    secret = tmp_path / "secret.txt"
    secret.write_text("keep me\n")
    plots = tmp_path / "plots"
    plots.mkdir()
    (plots / "win-rates.png").symlink_to(secret)
    res = lv_cmd("simulate", "-v", "revised", "--games", 2, "--players", 2, "--workers", 1, "--plot", plots)
    assert res.exit_code == 0, res.stderr
    assert secret.read_text() == "keep me\n"
    planted = plots / "win-rates.png"
    assert not planted.is_symlink() and planted.read_bytes().startswith(b"\x89PNG")


def test_a_plot_folder_is_made_only_where_its_parent_exists_before_any_game(tmp_path):
    pytest.importorskip("matplotlib")
    res = lv_cmd("simulate", "-v", "revised", "--games", 2, "--players", 2, "--plot", tmp_path / "no" / "plots")
    assert one_line(res) == f"lv: error: --plot {tmp_path / 'no' / 'plots'}: no such folder: {tmp_path / 'no'}"
    assert not (tmp_path / "no").exists()


def test_save_dir_keeps_an_earlier_runs_games_unless_forced_and_never_follows_a_link(tmp_path):
    run = ["simulate", "-v", "revised", "--games", 2, "--players", 2, "--workers", 1, "--save-dir", tmp_path / "sd"]
    assert lv_cmd(*run).exit_code == 0
    first = tmp_path / "sd" / "revised" / "game-00000.yaml"
    before = first.read_bytes()
    res = lv_cmd(*run, "--seed", 5)
    assert one_line(res) == (f"lv: error: --save-dir {first}: the file exists, a game of an earlier run (use --force "
                             "to replace them, or another folder)")
    assert first.read_bytes() == before
    secret = tmp_path / "secret.txt"
    secret.write_text("keep me\n")
    first.unlink()
    first.symlink_to(secret)
    assert lv_cmd(*run, "--seed", 5, "--force").exit_code == 0
    assert secret.read_text() == "keep me\n" and not first.is_symlink() and first.read_bytes() != before


def test_a_profile_folder_planted_as_a_link_in_save_dir_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "sd").mkdir()
    (tmp_path / "sd" / "revised").symlink_to(elsewhere)
    res = lv_cmd("simulate", "-v", "revised", "--games", 1, "--players", 2, "--save-dir", tmp_path / "sd")
    assert one_line(res) == (f"lv: error: --save-dir {tmp_path / 'sd' / 'revised'}: a symbolic link: lv writes only "
                             "into folders it makes itself there")
    assert list(elsewhere.iterdir()) == []


def test_save_dir_is_made_only_where_its_parent_exists(tmp_path):
    res = lv_cmd("simulate", "-v", "revised", "--games", 1, "--players", 2, "--save-dir", tmp_path / "no" / "sd")
    assert one_line(res) == f"lv: error: --save-dir {tmp_path / 'no' / 'sd'}: no such folder: {tmp_path / 'no'}"
