"""Output fits a terminal (issue 13, point 3): the tables of ``lv variants show/diff/list``, ``lv show``, ``lv
legal`` and ``lv simulate`` fold to $COLUMNS (80 and 120 here; a real terminal's width otherwise, checked by
hand in tmux), and ``--wide`` prints them whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from lv import cli

EXAMPLE = str(Path(__file__).resolve().parents[1] / "examples" / "revised-4p.yaml")
COMMANDS = [
    ["variants", "list"],
    ["variants", "show", "revised"],
    ["variants", "show", "original+f-block"],
    ["variants", "diff", "original", "revised"],
    ["show", EXAMPLE],
    ["show", EXAMPLE, "--turn", "12"],
    ["simulate", "-v", "original", "-v", "revised", "--games", "3", "--workers", "1"],
    ["simulate", "-v", "revised", "--games", "3", "--workers", "1", "--set", "raise.cost_per_space=10,15"],
]


def run(args: list[str], columns: int | None):
    env = {"COLUMNS": str(columns)} if columns else {}
    res = CliRunner().invoke(cli.app, args, env=env)
    assert res.exit_code == 0, res.stderr
    return res


@pytest.mark.slow
@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:3]).replace(EXAMPLE, "example"))
def test_no_line_is_wider_than_the_terminal(args, columns):
    res = run(args, columns)
    lines = (res.stdout + res.stderr).splitlines()
    assert len(lines) > 1
    # stderr is not a terminal here: lv simulate's run summary is then one line, never wrapped mid-phrase (issue
    # 28.4; tests/test_pipes.py), as every message for a pipe or a log
    too_wide = [line for line in lines if len(line) > columns and " paired games per profile, " not in line]
    assert too_wide == []


@pytest.mark.parametrize("columns", [80, 120])
def test_legal_decisions_wrap_to_the_terminal(tmp_path, columns):
    game = str(tmp_path / "g.yaml")
    run(["new", "--players", "red,blue,green,black", "--seed", "7", "-o", game], columns)
    lines = run(["legal", game], columns).stdout.splitlines()
    assert len(lines) > 4 and max(map(len, lines)) <= columns


def test_wide_prints_every_citation_on_one_line():
    folded = run(["variants", "show", "revised"], 80).stdout.splitlines()
    wide = run(["variants", "show", "revised", "--wide"], 80).stdout.splitlines()
    assert max(map(len, wide)) > 120 and len(wide) == 2 + len(folded[2:]) - sum(
        1 for line in folded[2:] if line.startswith(" "))  # every folded continuation line is joined back
    assert [line.split()[0] for line in wide[2:]] == [line.split()[0] for line in folded[2:]
                                                       if not line.startswith(" ")]


def test_the_board_is_compact_below_98_columns():
    narrow = run(["show", EXAMPLE, "--turn", "12"], 80).stdout
    full = run(["show", EXAMPLE, "--turn", "12"], 120).stdout
    assert "D3  B g1" in narrow and "D3  BRN g1" in full
    assert "B2  [blac]" in narrow and "B2  [black]" in full


@pytest.mark.slow
@pytest.mark.parametrize("columns", [80, 120])
def test_a_grid_sweep_folds_into_tables_of_whole_numbers(columns):
    """A sweep of two parameters has 9 metric columns: at 80 columns they once shrank to 'tu…' and '43…'. Now the
    table comes in parts, each with the swept columns, and every metric keeps its name and its mean."""
    res = run(["simulate", "-v", "revised", "--games", "3", "--workers", "1", "--set", "raise.cost_per_space=10,15",
               "--set", "gamble.bet_per_tile=4,5"], columns)
    assert "…" not in res.stdout
    headers = [line.split() for line in res.stdout.splitlines() if line.startswith("raise.cost_per_space")]
    # whole intervals (issue 28.4: never split over two lines): one metric a part at 80 columns, three at 120
    assert len(headers) == (8 if columns == 80 else 3)
    assert all(h[:2] == ["raise.cost_per_space", "gamble.bet_per_tile"] for h in headers)
    metrics = [name for h in headers for name in h[2:]]
    assert metrics == ["turns", "winner_score", "score_spread", "instant_win", "advantage_p1", "balance",
                       "lead_change", "largest_casino"]
    assert sum(line.startswith("10 ") for line in res.stdout.splitlines()) == 2 * len(headers)


@pytest.mark.parametrize("columns", [80, 120])
def test_variants_diff_keeps_values_and_specs_whole(columns):
    """At 80 columns the values were cut to 'twenty_minus…' and the spec to 'original+f-b…': a value is what --set
    takes, so it stays whole and the citations wrap instead."""
    res = run(["variants", "diff", "original", "revised"], columns)
    assert "…" not in res.stdout
    assert [line.split()[:3] for line in res.stdout.splitlines() if line.startswith("setup.starting_money")] == \
        [["setup.starting_money", "sum_card_values", "twenty_minus_dice"]]
    res = run(["variants", "diff", "original", "original+f-block"], columns)
    assert res.stdout.split()[:4] == ["parameter", "original", "original+f-block", "citations"]


@pytest.mark.parametrize("columns", [40, 50, 60])
@pytest.mark.parametrize("args", COMMANDS[:6], ids=lambda a: " ".join(a[:3]).replace(EXAMPLE, "example"))
def test_a_narrow_terminal_cuts_no_value(args, columns):
    """Below about 70 columns Rich cut a cell with '…': lv show printed a boss as 'purp…' and dice as 'A1:…',
    lv variants show a value as 'twenty_minus…'. Every cell now wraps whole (lv/tables.py)."""
    text = run(args, columns).stdout
    assert "…" not in text and "…" not in run(args, None).stdout


@pytest.mark.parametrize("args", [["--help"], ["move", "--help"], ["show", EXAMPLE], ["variants", "list"]],
                         ids=lambda a: " ".join(a).replace(EXAMPLE, "example"))
def test_a_terminal_narrower_than_40_columns_gets_the_40_column_layout(args):
    """At COLUMNS=1 'lv --help' was 8 empty lines and 'lv show' 1,216 lines of 3 characters; below 40 the help's
    examples broke mid-word. Narrower than cli.MIN_COLUMNS, lv lays out for it and the terminal wraps."""
    import os
    import subprocess
    import sys

    def at(columns: str) -> str:
        env = {**os.environ, "PYTHONPATH": str(Path(EXAMPLE).parents[1]), "COLUMNS": columns}
        res = subprocess.run([sys.executable, "-m", "lv", *args], capture_output=True, text=True, env=env,
                             timeout=120)
        assert res.returncode == 0 and res.stderr == "", res.stderr
        return res.stdout

    forty = at(str(cli.MIN_COLUMNS))
    assert at("1") == at("20") == forty and max(map(len, forty.splitlines())) <= cli.MIN_COLUMNS
    if args == ["move", "--help"]:
        assert "lv move game.yaml --from moves.txt" in forty
