"""Output for files and pipes (issue 28.4): no line of a table ends in spaces (rich pads every line to the table's
width, 200 columns in a pipe), the ``--set`` grid never splits an interval over two lines, and ``lv simulate``'s
stderr line is one line when piped."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from lv import cli

RECORD = "examples/revised-4p.yaml"


def lv(*args: str, env: dict[str, str] | None = None):
    res = CliRunner().invoke(cli.app, list(args), env=env)
    assert res.exit_code in (0, 1), (res.exit_code, res.stdout, res.stderr)
    return res


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ("variants", "list"), ("variants", "show", "revised"), ("variants", "diff", "original", "revised"),
    ("legal", RECORD), ("show", RECORD), ("show", RECORD, "--wide"), ("replay", RECORD),
    ("diff", RECORD, "--variant", "original"), ("check", "examples/"),
    ("simulate", "-v", "original", "-v", "revised", "--games", "4", "-w", "1", "-q"),
    ("simulate", "-v", "revised", "--set", "gamble.per_turn=1,2", "--games", "4", "-w", "1", "-q"),
])
@pytest.mark.parametrize("columns", ["80", None])
def test_no_line_ends_in_spaces(args, columns):
    """``lv variants list | grep -c ' $'`` is 0, and so for every command that prints a table (piped: no TTY)."""
    res = lv(*args, env={"COLUMNS": columns} if columns else None)
    ends = [line for line in (res.stdout + res.stderr).splitlines() if line.endswith(" ")]
    assert ends == [], ends[:3]


@pytest.mark.slow
@pytest.mark.parametrize("sweep", [True, False])
@pytest.mark.parametrize("columns", ["50", "80", "120", "400"])
def test_no_cell_is_split_over_two_lines(sweep, columns):
    """Each cell of the grid ("0.100 [0.000, 0.326]") and of the comparison stays on one line at every width:
    a wide table splits into tables of whole columns, a narrow one turns to one row per profile and metric."""
    import json
    from lv import simulate

    args = ["simulate", "-v", "revised", "--games", "6", "-w", "1", "-q"]
    args += ["--set", "raise.cost_per_space=10,15", "--set", "gamble.per_turn=1,2"] if sweep else ["-v", "original"]
    text = lv(*args, env={"COLUMNS": columns}).stdout
    result = json.loads(lv(*args, "--json").stdout)
    _, rows = simulate.sweep_rows(result) if sweep else simulate.comparison_rows(result)
    cells = [str(c) for row in rows for c in row if "[" in str(c)]
    assert len(cells) >= 8
    lines = text.splitlines()
    for c in cells:
        assert any(c in line for line in lines), (c, text)
    if columns == "50" and sweep:
        assert lines[0].split() == ["raise.cost_per_space", "gamble.per_turn", "metric", "mean", "[95%", "interval]"]


def test_the_simulate_header_is_one_line_when_piped():
    res = lv("simulate", "-v", "revised", "--games", "2", "-w", "1", "-q", env={"COLUMNS": "60"})
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("2 paired games per profile, 4 players, seed 0, bots ")
    assert lines[0].endswith("; mean [95% interval]")
