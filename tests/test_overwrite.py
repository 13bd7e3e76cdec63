"""Which files lv replaces (README, "Which files lv replaces"): a report written to a file the user names replaces
it, as ``cp`` and ``sort -o`` do; a game record (or a model) is never replaced without --force, and is refused
before anything is played. ``lv explain --examples`` once replaced the example records of an earlier run."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from lv import cli

ROOT = Path(__file__).resolve().parent.parent
RECORD = str(ROOT / "examples" / "revised-4p.yaml")
OLD = "an earlier file\n"
runner = CliRunner()

EXPLAIN = ["explain", "revised", "revised,deck.end_card_depth=bottom", "--games", "2", "--players", "2", "-q"]

# (the command, the file it writes, relative to the working folder)
REPORTS = [
    (["view", RECORD, "-o", "v.html"], "v.html"),
    (["render", RECORD, "-o", "b.svg"], "b.svg"),
    (["diff", RECORD, "--variant", "original", "--html", "d.html"], "d.html"),
    (["simulate", "-v", "revised", "--games", "1", "--players", "2", "--games-out", "rows.csv", "-q"], "rows.csv"),
    (["simulate", "-v", "revised", "--games", "1", "--players", "2", "--plot", "plots", "-q"],
     "plots/distributions.svg"),
    ([*EXPLAIN, "--html", "e.html"], "e.html"),
    ([*EXPLAIN, "--games-out", "e.csv"], "e.csv"),
    (["balance", "revised", "--players", "2", "--games", "4", "--html", "b.html", "-q"], "b.html"),
]
GAMES = [
    (["new", "--players", "2", "--seed", "1", "-o", "g.yaml"], "g.yaml"),
    (["selfplay", "--players", "2", "--seed", "1", "-o", "s.json"], "s.json"),
    (["simulate", "-v", "revised", "--games", "1", "--players", "2", "--save-dir", "saved", "-q"],
     "saved/revised/game-00000.yaml"),
    ([*EXPLAIN, "--examples", "pairs"], "pairs/01-deck.end_card_depth/with.yaml"),
    ([*EXPLAIN, "--examples", "pairs", "--players", "2,3"],
     "pairs/3_players,_greedy/01-deck.end_card_depth/without.yaml"),
]


def run_in(folder: Path, args: list[str], monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(folder)
    return runner.invoke(cli.app, args)


def planted(folder: Path, name: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(OLD)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("args, name", REPORTS, ids=[" ".join(a[:1] + a[-3:-1]) for a, _ in REPORTS])
def test_a_report_replaces_the_file_named(tmp_path, monkeypatch, args, name):
    if "--plot" in args:
        pytest.importorskip("matplotlib")
    path = planted(tmp_path, name)
    res = run_in(tmp_path, args, monkeypatch)
    assert res.exit_code == 0, res.stderr
    assert path.read_text() != OLD


@pytest.mark.parametrize("args, name", GAMES, ids=[" ".join(a[:1] + a[-2:]) for a, _ in GAMES])
def test_a_game_record_is_never_replaced_without_force(tmp_path, monkeypatch, args, name):
    path = planted(tmp_path, name)
    res = run_in(tmp_path, args, monkeypatch)
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and "the file exists" in res.stderr and "--force" in res.stderr
    assert name in res.stderr
    assert path.read_text() == OLD
    assert "wrote" not in res.stderr and "games" not in res.stdout  # refused before anything was played


@pytest.mark.slow
@pytest.mark.parametrize("args, name", GAMES, ids=[" ".join(a[:1] + a[-2:]) for a, _ in GAMES])
def test_force_replaces_a_game_record(tmp_path, monkeypatch, args, name):
    path = planted(tmp_path, name)
    res = run_in(tmp_path, [*args, "--force"], monkeypatch)
    assert res.exit_code == 0, res.stderr
    assert path.read_text() != OLD


def test_a_model_is_not_replaced_without_force(tmp_path, monkeypatch):
    path = planted(tmp_path, "m.model")
    res = run_in(tmp_path, ["train", "revised", "-o", "m.model", "--games", "1"], monkeypatch)
    assert res.exit_code == 2 and res.stderr == "lv: error: m.model: the file exists (use --force to replace it)\n"
    assert path.read_text() == OLD
