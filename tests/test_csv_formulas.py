"""Spreadsheet formulas (issue 17.7): a text cell that a spreadsheet would run as a formula (a variant file named
``=1-2.yaml`` lands in the ``profile`` column) is written with a leading ``'`` in every CSV lv writes
(``--games-out FILE.csv`` and ``--csv``, both through ``gamerows.write_csv``); numbers stay numbers."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lv import cli, gamerows

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["=1-2.yaml", "=HYPERLINK(1).yaml", "-1.yaml", "@SUM(1).yaml"]  # (a spec reads "+" as an overlay)


def run(*args: str):
    return CliRunner().invoke(cli.app, list(args))


@pytest.mark.parametrize("value, written", [
    ("=1-2", "'=1-2"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\rx", "'\rx"),
    ("revised", "revised"), ("a=b", "a=b"), ("", ""), (None, ""),
    (-3, -3), (-0.5, -0.5), (0, 0), (True, True),  # numbers are numbers: never escaped
])
def test_a_cell_is_escaped_only_when_it_is_text_a_spreadsheet_would_run(value, written):
    assert gamerows.csv_cell(value) == written


def test_write_csv_escapes_every_text_cell_and_keeps_negative_numbers():
    buf = io.StringIO()
    gamerows.write_csv(buf, [["profile", "mean"], ["=1-2.yaml", -1.5], ["revised", None]])
    assert buf.getvalue() == "profile,mean\n'=1-2.yaml,-1.5\nrevised,\n"


@pytest.fixture
def formula_variants(tmp_path, monkeypatch):
    """Variant files whose names start a formula, named relative to the working folder as a user types them."""
    for name in NAMES:
        shutil.copy(ROOT / "variants" / "revised.yaml", tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_games_out_csv_escapes_a_profile_named_like_a_formula(formula_variants):
    args = [a for name in NAMES for a in ("-v", name)]
    res = run("simulate", *args, "--games", "1", "--players", "2", "--bot", "random", "--workers", "1",
              "--games-out", "games.csv")
    assert res.exit_code == 0, res.stderr
    rows = list(csv.DictReader((formula_variants / "games.csv").open(newline="")))
    assert [r["profile"] for r in rows] == ["'" + n for n in NAMES]
    text = (formula_variants / "games.csv").read_text()
    assert all(line[0] not in "=+-@\t\r" for line in text.splitlines())


@pytest.mark.slow
def test_csv_output_escapes_a_profile_named_like_a_formula_and_keeps_negative_numbers(formula_variants):
    res = run("simulate", "-v", "revised", "-v", "=1-2.yaml", "-v", "-1.yaml", "--games", "3", "--players", "2",
              "--bot", "random", "--workers", "1", "--csv")
    assert res.exit_code == 0, res.stderr
    rows = list(csv.reader(io.StringIO(res.stdout)))
    names = {r[0] for r in rows[1:]}
    assert {"'=1-2.yaml", "'-1.yaml"} <= names and not {"=1-2.yaml", "-1.yaml"} & names
    assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for row in rows for cell in row)
    figures = [float(cell) for r in rows[1:] for cell in r[-4:] if cell]  # mean, low, high, n: numbers as written
    assert any(f < 0 for f in figures)  # a difference below zero, written as a number, not escaped
