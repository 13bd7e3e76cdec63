"""Long work shows life when piped or logged (issue 20, point 7): a status line on stderr every few seconds
(games done, rate, time left), nothing with --quiet; timed with a fake clock or a zero interval, never a sleep."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lv.progress import StatusLines, duration, interval_from_env

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_line_every_interval_with_rate_and_time_left():
    clock, lines = Clock(), []
    status = StatusLines("simulate", 4000, "games", lines.append, interval=5, clock=clock)
    clock.now += 2
    status.advance(100)  # 2 s: too soon
    assert lines == []
    clock.now += 4
    status.advance(200)  # 6 s, 300 games: 50 games/s, 3700 to go
    assert lines == ["lv: simulate: 300 of 4,000 games (7%), 50 games/s, about 1 min 14 s left"]
    clock.now += 1
    status.advance(50)  # 1 s after the last line
    assert len(lines) == 1
    clock.now += 5
    status.advance(1850)
    assert lines[-1] == "lv: simulate: 2,200 of 4,000 games (55%), 183 games/s, about 10 s left"
    clock.now += 8
    status.advance(1800)  # the end: no status line, the closing line says it is done
    status.close()
    assert lines[2:] == ["lv: simulate: 4,000 of 4,000 games in 20 s"]


def test_a_short_run_prints_nothing():
    clock, lines = Clock(), []
    status = StatusLines("check", 3, "records", lines.append, interval=5, clock=clock)
    for _ in range(3):
        clock.now += 1
        status.advance(1)
    status.close()
    assert lines == []


def test_slow_rates_keep_a_decimal():
    clock, lines = Clock(), []
    status = StatusLines("simulate", 10, "games", lines.append, interval=1, clock=clock)
    clock.now += 4
    status.advance(1)
    assert lines == ["lv: simulate: 1 of 10 games (10%), 0.2 games/s, about 36 s left"]


@pytest.mark.parametrize("seconds, said", [(0.4, "0 s"), (8, "8 s"), (60, "1 min"), (68, "1 min 8 s"),
                                           (7500, "2 h 5 min")])
def test_durations_in_words(seconds, said):
    assert duration(seconds) == said


@pytest.mark.parametrize("text, seconds", [("", 5), ("0", 0), ("0.5", 0.5), ("x", 5), ("-1", 5), ("nan", 5)])
def test_the_interval_setting(monkeypatch, text, seconds):
    monkeypatch.setenv("LV_PROGRESS_SECONDS", text)
    assert interval_from_env() == seconds


def _lv(*args: str, interval: str = "0") -> subprocess.CompletedProcess[str]:
    """``lv ARGS`` with stdout and stderr pipes (as ``lv ... | cat`` or ``> out.json 2> log``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LV_PROGRESS_SECONDS": interval, "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "lv", *args], capture_output=True, text=True, cwd=ROOT, env=env)


def test_simulate_piped_prints_status_lines_on_stderr_and_quiet_stops_them():
    args = ("simulate", "-v", "revised", "--games", "4", "--batch", "1", "--workers", "1", "--seed", "3", "--json")
    run = _lv(*args)
    assert run.returncode == 0, run.stderr
    status = [line for line in run.stderr.splitlines() if line.startswith("lv: simulate: ")]
    assert status[0].startswith("lv: simulate: 1 of 4 games (25%), ") and "games/s, about" in status[0]
    assert status[-1].startswith("lv: simulate: 4 of 4 games in ")
    assert json.loads(run.stdout)["games"] == 4  # stdout keeps only the data
    quiet = _lv(*args, "--quiet")
    assert quiet.returncode == 0 and "lv: simulate: " not in quiet.stderr
    assert quiet.stdout == run.stdout
    assert "lv: simulate: " not in _lv(*args, interval="5").stderr  # a short run, at the usual interval


def test_check_piped_prints_status_lines(tmp_path):
    for i in range(3):
        (tmp_path / f"g{i}.yaml").write_bytes((ROOT / "examples" / "question-raise.yaml").read_bytes())
    run = _lv("check", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines()[-1].startswith("lv: check: 3 of 3 records in ")
    assert run.stdout.splitlines()[-1] == "3 records: 3 ok, 0 failed"
    assert _lv("check", str(tmp_path), "-q").stderr == ""
