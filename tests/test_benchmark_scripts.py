"""The benchmark scripts that docs/simulation.md quotes still run (they are not timed tests: only their shape is
checked here, on a few cheap games)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_strength_compares_a_bot_with_the_reference_over_the_same_seeds(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "strength.py"), "--bot", "greedy", "--against",
                          "random", "--games", "4", "--seed", "1", "--json"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["bot"], data["against"], data["reference"], data["games"]) == ("greedy", "random", "random", 4)
    for key in ("win_rate", "reference_win_rate"):
        assert 0 <= data[key]["mean"] <= 1 and data[key]["mean"] * 4 == round(data[key]["mean"] * 4)
    diff = data["difference"]["mean"]
    assert diff == data["win_rate"]["mean"] - data["reference_win_rate"]["mean"]


def test_mcts_decision_times_the_same_decision_from_a_mid_game_position(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mcts_decision.py"), "--playouts", "5",
                          "--turn", "3", "--tries", "2"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    line = out.stdout.strip()
    assert "one mcts:5 decision, 4 players, revised, turn 3 of a greedy game (seed 1)" in line, line
    times = line.rsplit(": ", 1)[1].removesuffix(" CPU s").split(", ")
    assert len(times) == 2 and all(float(t) > 0 for t in times)


def test_mcts_decision_says_when_the_game_ends_before_the_turn(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mcts_decision.py"), "--playouts", "5",
                          "--turn", "500", "--tries", "1"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 1 and "the game ended before turn 500" in out.stderr


@pytest.mark.slow
def test_strength_rotates_the_seats(tmp_path: Path) -> None:
    """--rotate: the bot in every seat, an equal share of the games each; the same games in every run."""
    args = [sys.executable, str(ROOT / "benchmarks" / "strength.py"), "--bot", "value", "--against", "greedy",
            "--games", "4", "--seed", "1", "--json", "--rotate", "--no-reference"]
    out = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["rotate"] and data["games"] == 4 and "reference_win_rate" not in data
    assert data["win_rate"]["mean"] * 4 == round(data["win_rate"]["mean"] * 4)
    again = json.loads(subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=300).stdout)
    assert again["win_rate"] == data["win_rate"] and again["points_share"] == data["points_share"]


def test_mcts_decision_profiles_where_a_search_spends(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mcts_decision.py"), "--playouts", "5",
                          "--turn", "3", "--tries", "1", "--profile"], capture_output=True, text=True, cwd=tmp_path,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    shares = dict(line.rsplit(": ", 1) for line in out.stdout.splitlines()[1:])
    assert 50 < float(shares["the imagined games (playouts)"].rstrip("%")) <= 100


@pytest.mark.slow
def test_versus_writes_a_line_a_game_and_sums_them_up(tmp_path: Path) -> None:
    script = str(ROOT / "benchmarks" / "versus.py")
    out = subprocess.run([sys.executable, script, "value", "greedy", "--games", "2", "--players", "2"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["i"], r["seat"]) for r in rows] == [(0, 0), (1, 1)]
    (tmp_path / "lines.jsonl").write_text(out.stdout)
    summary = subprocess.run([sys.executable, script, "--summary", "lines.jsonl"], capture_output=True, text=True,
                             cwd=tmp_path, timeout=300)
    data = json.loads(summary.stdout)
    assert data["games"] == 2 and data["win_rate"]["mean"] == sum(r["won"] for r in rows) / 2


def test_paired_times_two_builds_in_turn_and_prints_the_median_ratio(tmp_path: Path) -> None:
    """benchmarks/paired.py: two builds (here the same checkout twice) asked in turn; the JSON names them, counts the
    rounds and gives the median ratio inside its middle half and range."""
    script = str(ROOT / "benchmarks" / "paired.py")
    out = subprocess.run([sys.executable, script, "--tree", f"a={ROOT}", "--tree", f"b={ROOT}", "--rounds", "3",
                          "--games", "1", "--bot", "greedy", "--warm", "2", "--new-seeds", "--json"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["first"], data["second"], data["bot"], data["rounds"], data["games"], data["warm"],
            data["new_seeds"]) == ("a", "b", "greedy", 3, 1, 2, True)
    low, high = data["range"]
    assert 0 < low <= data["middle_half"][0] <= data["median"] <= data["middle_half"][1] <= high
    assert len(data["rounds_ratios"]) == 3 and min(data["rounds_ratios"]) == low and max(data["rounds_ratios"]) == high
    for fastest, median in zip(data["fastest_ms"], data["median_ms"]):  # (each build's rounds: a game's ms)
        assert 0 < fastest <= median
    bad = subprocess.run([sys.executable, script, "--tree", f"a={tmp_path}", "--tree", f"b={ROOT}"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert bad.returncode == 1 and f"a: {tmp_path} is not a checkout of lv" in bad.stderr
    one = subprocess.run([sys.executable, script, "--tree", f"a={ROOT}"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=60)
    assert one.returncode == 1 and "give exactly two builds" in one.stderr


def test_instructions_reads_cachegrinds_summary_figure_by_figure() -> None:
    """``instructions.py --caches`` reads each figure from its own line of cachegrind's summary (valgrind 3.19's
    wording, as printed here), the conditional and indirect mispredicts from the parts of theirs; a summary that lacks
    one is refused with the figure named, never read as 0."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import instructions
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    summary = """==3069== I   refs:      1,901,333,911
==3069== I1  misses:       18,998,859
==3069== LLi misses:          20,529
==3069== I1  miss rate:         1.00%
==3069== D   refs:        895,156,471  (598,317,768 rd   + 296,838,703 wr)
==3069== D1  misses:       13,810,435  ( 11,427,335 rd   +   2,383,100 wr)
==3069== LLd misses:          329,832  (     44,550 rd   +     285,282 wr)
==3069== Branches:        313,387,636  (270,857,278 cond +  42,530,358 ind)
==3069== Mispredicts:      33,797,754  ( 19,064,859 cond +  14,732,895 ind)
==3069== Mispred rate:           10.8% (        7.0%     +        34.6%   )
"""
    assert instructions.cache_figures(summary) == {
        "instructions": 1_901_333_911, "mispredicts": 33_797_754, "conditional": 19_064_859,
        "indirect": 14_732_895, "I1 misses": 18_998_859, "D1 misses": 13_810_435}
    with pytest.raises(SystemExit, match="'indirect'"):
        instructions.cache_figures(summary.replace("+  14,732,895 ind", ""))


def _compare() -> Any:
    """benchmarks/compare.py as a module (a script, not a package's)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import compare
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return compare


def test_compares_long_run_worker_plays_the_games_it_is_asked_for(tmp_path: Path) -> None:
    """compare.py's long run: one process for every round, asked for N games of a workload from a first seed, answers
    their CPU seconds and their decisions: those of the very games (seeds first to first + N - 1, 4 players, revised,
    the workload's bot in every seat) played here."""
    import lv
    from lv import bots

    def decisions(bot: Any, seeds: range) -> int:
        games = [bots.play(lv.new_game(lv.load_profile("revised"), 4, s), [bot] * 4, s) for s in seeds]
        return sum(len(turn.decisions) for game in games for turn in game.history)

    compare = _compare()
    worker = compare.Worker(compare.Build("here", "this interpreter", Path(sys.executable)), 1, tmp_path)
    try:
        seconds, made = worker.games("reference", 3, 5)
        assert seconds > 0 and made == decisions(bots.uniform_bot, range(5, 8))
        seconds, made = worker.games("greedy", 2, 0)
        assert seconds > 0 and made == decisions(bots.greedy_bot, range(0, 2))
    finally:
        worker.close()


def test_compares_rate_targets_are_met_only_both_ways_over_the_long_run_and_in_a_fresh_process() -> None:
    """The rates' targets: more games per CPU-second is better for both ways of measuring; a target is met only if
    its ratio is at least the target's over the long run and in a fresh process's games, and both are shown."""
    compare = _compare()

    def build(label: str, long_cpu: list[float], fresh_cpu: list[float]) -> Any:
        b = compare.Build(label, label, Path(sys.executable))
        b.cpu = {w: list(long_cpu) for w in compare.WORKLOADS}
        b.cpu_fresh = {w: list(fresh_cpu) for w in compare.WORKLOADS}
        b.rate = {w: 10 * len(long_cpu) / sum(long_cpu) for w in compare.WORKLOADS}
        b.rate_fresh = {w: 10 * len(fresh_cpu) / sum(fresh_cpu) for w in compare.WORKLOADS}
        return b

    def pure_reference(ours: Any) -> dict[str, Any]:
        goals = {g["target"]: g for g in compare.targets({b.label: b for b in (base, ours)})}
        found: dict[str, Any] = goals[f"pure, reference: >= 1.3x the games per CPU-second of {compare.TARGET_BASE} "
                                      "pure"]
        return found

    base = build(f"{compare.TARGET_BASE}-pure", [1.4, 1.4], [1.2, 1.2])
    ours = build("pure", [1.0, 1.0], [1.0, 1.0])  # the long run 1.4x, a fresh process 1.2x
    assert compare.better(ours, base, "rate:reference") == pytest.approx(1.4)
    assert compare.better(ours, base, "fresh:reference") == pytest.approx(1.2)
    assert compare.paired(ours, base, "greedy") == "1.40x (1.40-1.40)"
    assert compare.paired(ours, base, "greedy", fresh=True) == "1.20x (1.20-1.20)"
    goal = pure_reference(ours)
    assert goal["met"] is False and goal["measured"] == pytest.approx(1.4) and goal["fresh"] == pytest.approx(1.2)
    assert "1.40x over the long run" in goal["shown"] and "1.20x in a fresh process's games" in goal["shown"]
    assert pure_reference(build("pure", [1.2, 1.2], [0.5, 0.5]))["met"] is False  # fresh 2.4x, long 1.17x
    assert pure_reference(build("pure", [1.05, 1.05], [0.9, 0.9]))["met"] is True  # 1.33x both ways
    ours.cpu_fresh = {w: [] for w in compare.WORKLOADS}  # no fresh rounds: the long run alone, said so
    ours.rate_fresh = {}
    goal = pure_reference(ours)
    assert goal["met"] is True and "no fresh rounds in this run" in goal["shown"]


def test_bytecodes_counts_a_game_by_phase_function_and_line(tmp_path: Path) -> None:
    """benchmarks/bytecodes.py: the same total by phase, by function and (for one module) by line; the uniform
    pick and the decisions' application apart; the same count twice (the figure repeats: it is what round 28
    worked by)."""
    def run() -> dict[str, Any]:
        out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bytecodes.py"), "--games", "1", "--lines",
                              "legal.py", "--json"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    data = run()
    assert data["bot"] == "uniform" and data["games"] == 1
    total = data["total"]
    assert total > 50_000 and sum(data["phases"].values()) == total
    assert sum(row["bytecodes"] for row in data["functions"]) == total
    assert {"random_pick", "_apply_own", "play"} <= set(data["phases"])
    legal = sum(row["bytecodes"] for row in data["functions"] if row["function"].startswith("legal.py:"))
    assert legal > 0 and sum(data["lines"].values()) == legal
    assert run()["total"] == total
    # another checkout's lv counted (``--root``), the script named as from the project's folder
    other = subprocess.run([sys.executable, "benchmarks/bytecodes.py", "--games", "1", "--root", str(ROOT), "--json"],
                           capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert other.returncode == 0, other.stderr
    assert json.loads(other.stdout)["total"] == total
    wrong = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bytecodes.py"), "--lines", "nosuch.py"],
                           capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert wrong.returncode == 2 and "--lines nosuch.py: no module of that name" in wrong.stderr
