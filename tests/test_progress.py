"""Long work shows life when piped or logged (issue 20, point 7): a status line on stderr every few seconds
(games done, rate, time left), nothing with --quiet; timed with a fake clock or a zero interval, never a sleep."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lv import progress
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


class Ticks(list):
    """The shared counters (games done, decisions, decisions of the games done) as a plain list."""

    def get_lock(self):
        import contextlib
        return contextlib.nullcontext()


def test_a_slow_game_still_gets_a_line_with_the_time_left():
    """Issue 28.2: no batch back yet, but the games tick decisions: the line comes on time, its time left guessed
    from 100 decisions a game until a game ends, then from the games' own count."""
    clock, lines, ticks = Clock(), [], Ticks([0, 0, 0])
    status = StatusLines("simulate", 4, "games", lines.append, interval=10, first=2, clock=clock, ticks=ticks)
    clock.now += 1
    status.poll()
    assert lines == []
    clock.now += 1
    status.poll()  # 2 s: the first line, nothing done yet
    assert lines == ["lv: simulate: 0 of 4 games (0%), 2 s so far"]
    clock.now += 9
    ticks[:] = [0, 60, 0]
    status.poll()  # 11 s: not due yet (the interval is 10 s)
    assert len(lines) == 1
    clock.now += 1
    status.poll()  # 12 s, 60 decisions: 0.6 of a game by the prior, 3.4 games left at 20 s a game
    assert lines[-1] == "lv: simulate: 0 of 4 games (0%), 60 decisions, about 1 min 8 s left"
    clock.now += 10
    ticks[:] = [2, 260, 240]
    status.poll()  # 22 s: two games of 120 decisions ended, 20 more: 2 1/6 done, 1 5/6 to go at 10.15 s a game
    assert lines[-1] == "lv: simulate: 2 of 4 games (50%), 260 decisions, 5.5 games/min, about 19 s left"


def test_the_thread_writes_between_batches():
    lines = []
    status = StatusLines("simulate", 4, "games", lines.append, interval=0.01, first=0.01).start()
    try:
        for _ in range(200):
            if lines:
                break
            __import__("time").sleep(0.05)  # waits for the thread's line: no bound on how long it takes
    finally:
        status.close()
    assert lines and lines[0].startswith("lv: simulate: 0 of 4 games (0%), ")


def test_the_games_tick_the_counters_a_searched_player_each_decision():
    ticks = progress.counters()
    try:
        from lv.simulate import batches, play_batch
        task = next(batches(["revised"], 2, 1, 3, ["mcts:2", "greedy"]))
        play_batch(task)
    finally:
        progress.share(None)
    games, decisions, finished = ticks[:]
    assert games == 1 and decisions == finished > 20


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


@pytest.mark.slow
def test_simulate_piped_prints_status_lines_on_stderr_and_quiet_stops_them():
    args = ("simulate", "-v", "revised", "--games", "4", "--batch", "1", "--workers", "1", "--seed", "3", "--json")
    run = _lv(*args)
    assert run.returncode == 0, run.stderr
    status = [line for line in run.stderr.splitlines() if line.startswith("lv: simulate: ")]
    first = next(line for line in status if "1 of 4" in line)
    assert first.startswith("lv: simulate: 1 of 4 games (25%), ") and "games/s, about" in first
    assert status[-1].startswith("lv: simulate: 4 of 4 games in ")
    assert json.loads(run.stdout)["games"] == 4  # stdout keeps only the data
    quiet = _lv(*args, "--quiet")
    assert quiet.returncode == 0 and "lv: simulate: " not in quiet.stderr
    assert quiet.stdout == run.stdout
    assert "lv: simulate: " not in _lv(*args, interval="3600").stderr  # a run shorter than the interval


@pytest.mark.slow
def test_searched_games_in_a_pool_tick_decisions_before_their_batch_is_back():
    """The README's mcts line, small: the pool's processes tick the parent's counters (issue 28.2)."""
    run = _lv("simulate", "-v", "revised", "-p", "2", "--games", "2", "--batch", "2", "--workers", "2",
              "--force-workers", "--bot", "mcts:3,greedy", "--json")
    assert run.returncode == 0, run.stderr
    assert any(line.startswith("lv: simulate: ") and " decisions" in line for line in run.stderr.splitlines())


@pytest.mark.slow
def test_check_piped_prints_status_lines(tmp_path):
    for i in range(3):
        (tmp_path / f"g{i}.yaml").write_bytes((ROOT / "examples" / "question-raise.yaml").read_bytes())
    run = _lv("check", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines()[-1].startswith("lv: check: 3 of 3 records in ")
    assert run.stdout.splitlines()[-1] == "3 records: 3 ok, 0 failed"
    assert _lv("check", str(tmp_path), "-q").stderr == ""


def test_a_run_that_fails_stops_its_status_thread(monkeypatch):
    """The status lines' thread ends with the run, also when the run raises (else it writes on for ever)."""
    import threading

    from typer.testing import CliRunner

    from lv import LvError, cli, simulate

    def fails(*args, **kwargs):
        raise LvError("the games failed")

    monkeypatch.setattr(simulate, "play", fails)
    res = CliRunner().invoke(cli.app, ["simulate", "-v", "revised", "--games", "3", "-w", "1"])
    assert res.exit_code == 2 and "the games failed" in res.stderr
    assert [t for t in threading.enumerate() if t.name == "lv-progress"] == []
    assert progress.shared() is None


def test_the_last_line_never_counts_fewer_than_the_status_lines_before_it():
    """Stopped with Ctrl-C, 'lv explain' wrote '673 of 7,300 games (9%) ...' and then '0 of 7,300 games in 15 s':
    the last line counted the batches come back, the status lines the games ended."""
    clock, lines, ticks = Clock(), [], Ticks([0, 0, 0])
    status = StatusLines("explain", 7300, "games", lines.append, interval=5, first=2, clock=clock, ticks=ticks)
    clock.now += 3
    ticks[:] = [673, 71207, 70000]
    status.poll()
    assert lines[-1].startswith("lv: explain: 673 of 7,300 games (9%)")
    clock.now += 12
    status.close()  # interrupted: no batch came back
    assert lines[-1] == "lv: explain: 673 of 7,300 games in 15 s"
